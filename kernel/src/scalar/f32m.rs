//! The `f32` transcendental functions behind [`Scalar`](super::Scalar) for `f32`.
//!
//! By default every function is `libm`'s (a port of musl's libm: correctly rounded or within 1 ulp).
//! With the `fast-math` feature, `sin`, `cos`, `atan2`, `acos`, `asin`, `sqrt` and `exp2` come from
//! `micromath` instead, which trades accuracy for speed on FPU-less cores; the errors measured by
//! `kernel/tests/scalar_accuracy.rs` are documented on each function.

/// Largest integer not above `x`.
#[inline]
pub fn floor(x: f32) -> f32 {
    libm::floorf(x)
}
/// Smallest integer not below `x`.
#[inline]
pub fn ceil(x: f32) -> f32 {
    libm::ceilf(x)
}
/// Nearest integer, ties away from zero.
#[inline]
pub fn round(x: f32) -> f32 {
    libm::roundf(x)
}
/// Integer part.
#[inline]
pub fn trunc(x: f32) -> f32 {
    libm::truncf(x)
}
/// `√(a² + b²)`.
#[inline]
pub fn hypot(a: f32, b: f32) -> f32 {
    libm::hypotf(a, b)
}

#[cfg(not(feature = "fast-math"))]
#[allow(missing_docs)]
mod imp {
    #[inline]
    pub fn sqrt(x: f32) -> f32 {
        libm::sqrtf(x)
    }
    #[inline]
    pub fn sin(x: f32) -> f32 {
        libm::sinf(x)
    }
    #[inline]
    pub fn cos(x: f32) -> f32 {
        libm::cosf(x)
    }
    #[inline]
    pub fn sin_cos(x: f32) -> (f32, f32) {
        libm::sincosf(x)
    }
    #[inline]
    pub fn atan2(y: f32, x: f32) -> f32 {
        libm::atan2f(y, x)
    }
    #[inline]
    pub fn acos(x: f32) -> f32 {
        libm::acosf(x)
    }
    #[inline]
    pub fn asin(x: f32) -> f32 {
        libm::asinf(x)
    }
    #[inline]
    pub fn exp2(x: f32) -> f32 {
        libm::exp2f(x)
    }
}

#[cfg(feature = "fast-math")]
#[allow(missing_docs)]
mod imp {
    use micromath::F32Ext;
    #[inline]
    pub fn sqrt(x: f32) -> f32 {
        F32Ext::sqrt(x)
    }
    #[inline]
    pub fn sin(x: f32) -> f32 {
        F32Ext::sin(x)
    }
    #[inline]
    pub fn cos(x: f32) -> f32 {
        F32Ext::cos(x)
    }
    #[inline]
    pub fn sin_cos(x: f32) -> (f32, f32) {
        (F32Ext::sin(x), F32Ext::cos(x))
    }
    #[inline]
    pub fn atan2(y: f32, x: f32) -> f32 {
        F32Ext::atan2(y, x)
    }
    #[inline]
    pub fn acos(x: f32) -> f32 {
        F32Ext::acos(x)
    }
    #[inline]
    pub fn asin(x: f32) -> f32 {
        F32Ext::asin(x)
    }
    #[inline]
    pub fn exp2(x: f32) -> f32 {
        F32Ext::powf(2.0, x)
    }
}

pub use imp::{acos, asin, atan2, cos, exp2, sin, sin_cos, sqrt};
