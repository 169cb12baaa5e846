//! The `f32` transcendental functions behind [`Scalar`](super::Scalar) for `f32`.
//!
//! By default every function is `libm`'s (a port of musl's libm: correctly rounded or within 1 ulp).
//! With the `fast-math` feature, `sin`, `cos`, `atan2`, `acos`, `asin` and `exp2` come from
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
/// `x mod y` with the sign of `x`, computed exactly (like C's `fmodf`) with integer operations, for
/// finite `x` and finite `y > 0`; other inputs give 0.
///
/// This replaces `libm::fmodf`, whose 0.2.16 version keeps a reachable panic path (an `assert!`)
/// that breaks the firmware's never-panic link check.
pub fn fmod_exact(x: f32, y: f32) -> f32 {
    if !(x.is_finite() && y.is_finite() && y > 0.0) {
        return 0.0;
    }
    let sign = x.to_bits() & 0x8000_0000;
    let ax = x.to_bits() & 0x7FFF_FFFF;
    let ay = y.to_bits();
    if ax < ay {
        return x;
    }
    // Split into exponent and a mantissa with the implicit bit at bit 23 (subnormals normalised).
    fn split(bits: u32) -> (i32, u32) {
        let e = (bits >> 23) as i32;
        let m = bits & 0x007F_FFFF;
        if e != 0 {
            return (e, m | 0x0080_0000);
        }
        // Subnormal, m != 0 here (0 < y, and x >= y > 0): shift its top bit up to bit 23.
        let shift = m.leading_zeros() as i32 - 8;
        (1 - shift, m << shift)
    }
    let (mut ex, mut mx) = split(ax);
    let (ey, my) = split(ay);
    // Long division, one exponent step at a time: mx stays below 2 * my < 2^25.
    while ex > ey {
        if mx >= my {
            mx -= my;
        }
        if mx == 0 {
            return f32::from_bits(sign);
        }
        mx <<= 1;
        ex -= 1;
    }
    if mx >= my {
        mx -= my;
    }
    if mx == 0 {
        return f32::from_bits(sign);
    }
    while mx < 0x0080_0000 {
        mx <<= 1;
        ex -= 1;
    }
    let bits = if ex > 0 {
        ((ex as u32) << 23) | (mx & 0x007F_FFFF)
    } else {
        // Subnormal result: shift the mantissa down by 1 - ex (1..=23 for a representable result).
        mx.checked_shr((1 - ex) as u32).unwrap_or(0)
    };
    f32::from_bits(sign | bits)
}

/// `√(a² + b²)`, always `libm`'s (also with `fast-math`): measured 0.83 ulp.
#[inline]
pub fn hypot(a: f32, b: f32) -> f32 {
    libm::hypotf(a, b)
}

/// `libm` (musl's algorithms, computed in `f32` with `f64` internals where musl does so).
///
/// Errors measured against `f64` by `kernel/tests/scalar_accuracy.rs`, in units in the last place
/// (ulp) of the correctly rounded result.
#[cfg(not(feature = "fast-math"))]
mod imp {
    /// Square root: correctly rounded (measured 0.500 ulp).
    #[inline]
    pub fn sqrt(x: f32) -> f32 {
        libm::sqrtf(x)
    }
    /// Sine of an angle in radians, with exact range reduction for any magnitude: measured 0.501 ulp
    /// (absolute 3.0e-8) over `[-32π, 32π]` and up to ±32768.
    #[inline]
    pub fn sin(x: f32) -> f32 {
        libm::sinf(x)
    }
    /// Cosine of an angle in radians: measured 0.501 ulp (absolute 3.0e-8), as [`sin`].
    #[inline]
    pub fn cos(x: f32) -> f32 {
        libm::cosf(x)
    }
    /// `(sin, cos)` with one range reduction; bit-identical to [`sin`] and [`cos`] (measured 0.501 ulp).
    #[inline]
    pub fn sin_cos(x: f32) -> (f32, f32) {
        libm::sincosf(x)
    }
    /// The angle of `(x, y)` in `[-π, π]`: measured 1.30 ulp (absolute 2.3e-7).
    #[inline]
    pub fn atan2(y: f32, x: f32) -> f32 {
        libm::atan2f(y, x)
    }
    /// Arc cosine of `x` in `[-1, 1]`: measured 0.89 ulp (absolute 2.1e-7).
    #[inline]
    pub fn acos(x: f32) -> f32 {
        libm::acosf(x)
    }
    /// Arc sine of `x` in `[-1, 1]`: measured 0.70 ulp (absolute 6.3e-8).
    #[inline]
    pub fn asin(x: f32) -> f32 {
        libm::asinf(x)
    }
    /// `2^x`: measured 0.501 ulp (relative 6.0e-8) over `[-20, 20]`.
    #[inline]
    pub fn exp2(x: f32) -> f32 {
        libm::exp2f(x)
    }
}

/// `micromath` (`fast-math` feature): small polynomial and bit-trick approximations, much cheaper
/// than `libm` on cores without an FPU, with errors around 10^-3 (up to 3·10^-2 for `asin`/`acos`); `sqrt` stays `libm`'s.
///
/// Errors measured against `f64` by `kernel/tests/scalar_accuracy.rs`; absolute errors for the
/// angle functions (results near 0 have no useful relative accuracy), relative for `sqrt` and `exp2`.
#[cfg(feature = "fast-math")]
mod imp {
    use micromath::F32Ext;
    /// Square root: `libm`'s (correctly rounded) even with `fast-math`, because micromath's
    /// bit-trick square root is off by up to 6.1 % (measured 0.0607), which breaks vector and
    /// quaternion normalisation.
    #[inline]
    pub fn sqrt(x: f32) -> f32 {
        libm::sqrtf(x)
    }
    /// Sine (a parabola-based approximation of `cos(x − π/2)`): absolute error up to 1.1e-3 for
    /// `|x| <= 32π`, growing with `|x|` because the range reduction is done in `f32` (measured
    /// 4.4e-3 up to ±32768).
    #[inline]
    pub fn sin(x: f32) -> f32 {
        F32Ext::sin(x)
    }
    /// Cosine: absolute error up to 1.1e-3 for `|x| <= 32π` (measured 3.9e-3 up to ±32768).
    #[inline]
    pub fn cos(x: f32) -> f32 {
        F32Ext::cos(x)
    }
    /// `(sin, cos)`, bit-identical to [`sin`] and [`cos`]; errors as those.
    #[inline]
    pub fn sin_cos(x: f32) -> (f32, f32) {
        (F32Ext::sin(x), F32Ext::cos(x))
    }
    /// The angle of `(x, y)` (a rational approximation on the squares): absolute error up to
    /// 2.9e-3 (measured 2.83e-3, operands from about 2^-30 to 2^10 in magnitude).
    ///
    /// micromath returns `+π` for a tiny negative `y` next to the negative x axis (the small angle
    /// is lost when added to the quadrant offset); that is mapped to `−π`, as `libm` does. The
    /// squares are taken in `f32`: operands below about 1e-19 in magnitude lose precision and below
    /// about 4e-23 underflow to 0 (both then give NaN in micromath;
    /// [`Scalar::atan2`](super::super::Scalar::atan2) only handles exact `(0, 0)`), and operands
    /// above about 1.8e19 overflow.
    #[inline]
    pub fn atan2(y: f32, x: f32) -> f32 {
        let r = F32Ext::atan2(y, x);
        if y < 0.0 && r > 0.0 {
            -r
        } else {
            r
        }
    }
    /// Arc cosine (from micromath's `atan`): absolute error up to 2.9e-2 (measured), largest next to
    /// ±1. The end points are exact: `acos(1) = 0` and `acos(-1) = π` (micromath's own square root
    /// of 0 is not 0, which would give 7.6e-20 at 1).
    #[inline]
    pub fn acos(x: f32) -> f32 {
        if x >= 1.0 {
            0.0
        } else if x <= -1.0 {
            core::f32::consts::PI
        } else {
            F32Ext::acos(x)
        }
    }
    /// Arc sine (from micromath's `atan` and inverse square root): absolute error up to 1.8e-2
    /// (measured). The end points are exact: `asin(±1) = ±π/2`.
    #[inline]
    pub fn asin(x: f32) -> f32 {
        if x >= 1.0 {
            core::f32::consts::FRAC_PI_2
        } else if x <= -1.0 {
            -core::f32::consts::FRAC_PI_2
        } else {
            F32Ext::asin(x)
        }
    }
    /// `2^x` as `powf(2, x)` = `exp(x·ln 2)` with a 4-term series: relative error up to 2.4e-3
    /// (measured 2.33e-3 over `[-20, 20]`).
    #[inline]
    pub fn exp2(x: f32) -> f32 {
        F32Ext::powf(2.0, x)
    }
}

pub use imp::{acos, asin, atan2, cos, exp2, sin, sin_cos, sqrt};

#[cfg(test)]
mod tests {
    use super::fmod_exact;

    /// A deterministic spread of f32 bit patterns (xorshift), both signs, all exponents.
    fn patterns() -> impl Iterator<Item = f32> {
        let mut s = 0x9E37_79B9u32;
        core::iter::from_fn(move || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            Some(f32::from_bits(s))
        })
    }

    #[test]
    fn fmod_matches_libm_exactly() {
        let mut checked = 0;
        let xs = patterns().filter(|v| v.is_finite());
        let ys: heapless::Vec<f32, 64> =
            patterns().skip(7).filter(|v| v.is_finite()).map(f32::abs).filter(|&v| v > 0.0).take(64).collect();
        for (i, x) in xs.take(20_000).enumerate() {
            let y = ys[i % ys.len()];
            assert_eq!(fmod_exact(x, y).to_bits(), libm::fmodf(x, y).to_bits(), "fmod({x:e}, {y:e})");
            checked += 1;
        }
        for (x, y) in [
            (5.5f32, 2.0f32),
            (-5.5, 2.0),
            (1e30, 3.0),
            (-0.0, 1.0),
            (7.0, 7.0),
            (1e-40, 3e-41),
            (3e-41, 1e-45),
            (f32::MAX, f32::MIN_POSITIVE),
            (0.3, 0.1),
        ] {
            assert_eq!(fmod_exact(x, y).to_bits(), libm::fmodf(x, y).to_bits(), "fmod({x:e}, {y:e})");
            checked += 1;
        }
        assert_eq!(fmod_exact(f32::INFINITY, 1.0), 0.0);
        assert_eq!(fmod_exact(1.0, 0.0), 0.0);
        assert_eq!(fmod_exact(1.0, -1.0), 0.0);
        assert!(checked > 20_000);
    }
}
