//! The `Scalar` abstraction: every kernel computation is generic over `f32` or Q16.16.
//!
//! The kernel never uses the arithmetic operators of a scalar type directly: `I16F16`'s operators
//! panic on division by zero and (with debug assertions) on overflow. Generic code calls the methods
//! of [`Scalar`] instead, which never panic:
//!
//! - in **Q16.16** ([`Q16`], `fixed::types::I16F16`) arithmetic saturates at [`Scalar::MIN`] /
//!   [`Scalar::MAX`], products and quotients are rounded to nearest (ties away from zero), division by
//!   zero saturates towards the sign of the dividend (`0 / 0 = 0`), and every function uses integer
//!   arithmetic only, so results are bit-identical on every target;
//! - in **f32** arithmetic follows IEEE-754 (`x / 0` is an infinity), transcendental functions come
//!   from `libm` (or `micromath` with the `fast-math` feature, see [`f32m`]).
//!
//! **On a concrete `Q16`, call through the trait.** `I16F16` has inherent methods and constants
//! with the same names (`floor`, `abs`, `sqrt`, `PI`, `FRAC_PI_2`...) and inherent items win over
//! trait items: `x.abs()` is `I16F16::abs`, which panics on overflow, and `Q16::FRAC_PI_2` is
//! fixed's truncated constant. Write `Scalar::abs(x)` / `<Q16 as Scalar>::FRAC_PI_2`, or write the
//! code generic over `S: Scalar`, where only the trait's items are visible. (The QEMU firmware's
//! never-panic link check catches an inherent panicking call that slips into kernel code.)
//!
//! Both implementations agree on the edge cases that would otherwise differ: `sqrt` of a negative
//! number is 0, `acos`/`asin` clamp their argument to `[-1, 1]`, `atan2(0, 0)` is 0.
//!
//! The accuracy of each function is documented on the function and in the modules [`q16`] and
//! [`f32m`]; `kernel/tests/scalar_accuracy.rs` measures it against `f64` over the whole domain.

use core::cmp::Ordering;
use core::fmt::Debug;

pub use fixed::types::I16F16;
pub use ossicle_format::ScalarEncoding;

pub mod f32m;
pub mod q16;
pub(crate) mod wide;

use wide::sat_i32;

/// Q16.16 fixed point: 16 integer bits (with sign) and 16 fraction bits.
pub type Q16 = I16F16;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for super::I16F16 {}
}

/// A number type the kernel computes with: `f32` or Q16.16 ([`Q16`]).
///
/// All methods are total: none panics, for any input.
pub trait Scalar: Copy + Default + PartialEq + PartialOrd + Debug + Send + Sync + 'static + sealed::Sealed {
    /// How this type is stored in a blob.
    const ENCODING: ScalarEncoding;
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// -1.
    const NEG_ONE: Self;
    /// 0.5.
    const HALF: Self;
    /// 2.
    const TWO: Self;
    /// π.
    const PI: Self;
    /// 2π.
    const TAU: Self;
    /// π/2.
    const FRAC_PI_2: Self;
    /// The largest finite value.
    const MAX: Self;
    /// The smallest (most negative) finite value.
    const MIN: Self;
    /// The resolution of the type near 1: `f32::EPSILON`, or 2⁻¹⁶ in Q16.16.
    const EPSILON: Self;

    /// Converts from `f32`, rounding to nearest and saturating; NaN becomes 0.
    fn from_f32(v: f32) -> Self;
    /// Converts from `f64`, rounding to nearest and saturating; NaN becomes 0.
    fn from_f64(v: f64) -> Self;
    /// Converts from an integer, saturating.
    fn from_i32(v: i32) -> Self;
    /// `num / den`, rounded to nearest; a zero denominator saturates like [`Scalar::div`].
    fn from_ratio(num: i32, den: i32) -> Self;
    /// Converts from raw Q16.16 bits (`bits / 65536`).
    fn from_q16_bits(bits: i32) -> Self;
    /// Converts to raw Q16.16 bits, rounding to nearest and saturating (NaN gives 0).
    fn to_q16_bits(self) -> i32;
    /// Reads a value stored in a blob of this type's [`Scalar::ENCODING`] (the little-endian word as `u32`).
    fn from_blob_bits(bits: u32) -> Self;
    /// The word that stores this value in a blob of this type's [`Scalar::ENCODING`].
    fn to_blob_bits(self) -> u32;
    /// Converts to `f32` (exact for Q16.16 values whose magnitude is below 256, else rounded).
    fn to_f32(self) -> f32;
    /// Converts to `f64` (exact).
    fn to_f64(self) -> f64;
    /// Writes the value in decimal, the shortest text that reads back as the same value: Rust's
    /// `Display` for `f32` (`inf`, `NaN` for non-finite values), the `fixed` crate's `Display` for
    /// Q16.16. Integers have no decimal point (`3`, `-0.5`).
    fn write_decimal(self, w: &mut dyn core::fmt::Write) -> core::fmt::Result;
    /// The largest integer not above `self`, saturating to the `i32` range (NaN gives 0).
    fn floor_to_i32(self) -> i32;

    /// `self + rhs` (saturating in Q16.16).
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs` (saturating in Q16.16).
    fn sub(self, rhs: Self) -> Self;
    /// `self × rhs` (rounded to nearest and saturating in Q16.16).
    fn mul(self, rhs: Self) -> Self;
    /// `self ÷ rhs`. Q16.16: rounded to nearest, saturating; `x ÷ 0` saturates towards the sign of `x`
    /// and `0 ÷ 0` is 0. f32: IEEE-754.
    fn div(self, rhs: Self) -> Self;
    /// `-self` (saturating in Q16.16: `-MIN` is `MAX`).
    fn neg(self) -> Self;
    /// `|self|` (saturating in Q16.16).
    fn abs(self) -> Self;
    /// `1 ÷ self`, as [`Scalar::div`].
    fn recip(self) -> Self {
        Self::ONE.div(self)
    }
    /// `self × a + b`.
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.mul(a).add(b)
    }
    /// The smaller of two values (for f32, a NaN operand loses).
    fn min(self, other: Self) -> Self {
        match self.partial_cmp(&other) {
            Some(Ordering::Greater) => other,
            Some(_) => self,
            #[allow(clippy::eq_op)] // `x == x` is false only for NaN
            None if self == self => self,
            None => other,
        }
    }
    /// The larger of two values (for f32, a NaN operand loses).
    fn max(self, other: Self) -> Self {
        match self.partial_cmp(&other) {
            Some(Ordering::Less) => other,
            Some(_) => self,
            #[allow(clippy::eq_op)] // `x == x` is false only for NaN
            None if self == self => self,
            None => other,
        }
    }
    /// Clamps to `[lo, hi]` (if `lo > hi` the result is `lo`; NaN becomes `lo`).
    fn clamp(self, lo: Self, hi: Self) -> Self {
        if self > lo {
            if self < hi {
                self
            } else if hi > lo {
                hi
            } else {
                lo
            }
        } else {
            lo
        }
    }
    /// Clamps to `[0, 1]`.
    fn clamp01(self) -> Self {
        self.clamp(Self::ZERO, Self::ONE)
    }
    /// The largest integer not above `self`.
    fn floor(self) -> Self;
    /// The smallest integer not below `self` (saturating).
    fn ceil(self) -> Self;
    /// The nearest integer, ties away from zero (saturating).
    fn round(self) -> Self;
    /// The integer part, rounded towards zero.
    fn trunc(self) -> Self;
    /// `self - floor(self)`, in `[0, 1)`.
    fn fract(self) -> Self;
    /// The Euclidean remainder in `[0, m)` for `m > 0` (loop wrapping); 0 when `m <= 0` (or, in
    /// f32, when either operand is not finite). Exact in Q16.16 and, before the final `+ m` for
    /// negative inputs, in f32.
    fn rem_euclid(self, m: Self) -> Self;
    /// Linear interpolation `self + (b - self) × t` (no clamping of `t`; in Q16.16 the difference is
    /// taken in 64 bits, so `lerp(-30000, 30000, 0.5)` is 0, not a saturated value).
    fn lerp(self, b: Self, t: Self) -> Self;
    /// -1, 0 or 1.
    fn signum(self) -> Self {
        if self > Self::ZERO {
            Self::ONE
        } else if self < Self::ZERO {
            Self::NEG_ONE
        } else {
            Self::ZERO
        }
    }
    /// Whether `|self - other| <= tolerance`.
    fn approx_eq(self, other: Self, tolerance: Self) -> bool {
        self.sub(other).abs() <= tolerance
    }

    /// Square root; 0 for negative inputs.
    ///
    /// Q16.16: correctly rounded (error at most `2^-17`). f32: `libm` correctly rounded; with
    /// `fast-math`, micromath's bit trick, relative error up to 6.1 %.
    fn sqrt(self) -> Self;
    /// `√(a² + b²)` without intermediate overflow (in Q16.16 the squares are summed in 64 bits).
    ///
    /// Q16.16: correctly rounded, saturating to [`Scalar::MAX`]. f32: `libm::hypotf` (also with
    /// `fast-math`), measured 0.83 ulp; `hypot3`/`hypot4` chain it (measured 1.41 ulp).
    fn hypot(self, b: Self) -> Self;
    /// `√(a² + b² + c²)` without intermediate overflow (Q16.16: correctly rounded, saturating).
    fn hypot3(self, b: Self, c: Self) -> Self;
    /// `√(a² + b² + c² + d²)` without intermediate overflow (quaternion norms; Q16.16: correctly
    /// rounded, saturating).
    fn hypot4(self, b: Self, c: Self, d: Self) -> Self;
    /// Sine of an angle in radians (any magnitude: the range reduction is exact in Q16.16).
    ///
    /// Q16.16: within 0.5005 steps of `2^-16` (≈ `2^-17`, see [`q16::sin`]). f32: `libm`, 0.501 ulp;
    /// with `fast-math`, absolute error up to 1.1e-3 (growing with `|x|`, 4.4e-3 at ±32768).
    fn sin(self) -> Self;
    /// Cosine of an angle in radians; accuracy as [`Scalar::sin`].
    fn cos(self) -> Self;
    /// `(sin, cos)` of an angle in radians, identical to calling [`Scalar::sin`] and [`Scalar::cos`].
    fn sin_cos(self) -> (Self, Self) {
        (self.sin(), self.cos())
    }
    /// The angle of the point `(x, y)` = `(other, self)` in `(-π, π]`; `atan2(0, 0)` is 0.
    ///
    /// Q16.16: within 0.5005 steps of `2^-16` (≈ `2^-17`, see [`q16::atan2`]). f32: `libm`, 1.3 ulp;
    /// with `fast-math`, absolute error up to 2.9e-3.
    fn atan2(self, x: Self) -> Self;
    /// Arc cosine in `[0, π]`; the argument is clamped to `[-1, 1]`.
    ///
    /// Q16.16: within 0.5005 steps of `2^-16`, also next to ±1 (see [`q16::acos`]). f32: `libm`,
    /// 0.89 ulp; with `fast-math`, absolute error up to 2.9e-2.
    fn acos(self) -> Self;
    /// Arc sine in `[-π/2, π/2]`; the argument is clamped to `[-1, 1]`.
    ///
    /// Q16.16: within 0.5005 steps of `2^-16`, also next to ±1 (see [`q16::asin`]). f32: `libm`,
    /// 0.70 ulp; with `fast-math`, absolute error up to 1.8e-2.
    fn asin(self) -> Self;
    /// `2^self` (saturating to [`Scalar::MAX`] in Q16.16 when the result does not fit).
    ///
    /// Q16.16: within `2^-17 + 2^-38 × 2^x` (measured 0.501 steps of `2^-16` at most, see
    /// [`q16::exp2`]); 0 below `2^-17`. f32: `libm`, 0.501 ulp; with `fast-math`, relative error up
    /// to 2.4e-3.
    fn exp2(self) -> Self;
}

impl Scalar for f32 {
    const ENCODING: ScalarEncoding = ScalarEncoding::F32;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const NEG_ONE: Self = -1.0;
    const HALF: Self = 0.5;
    const TWO: Self = 2.0;
    const PI: Self = core::f32::consts::PI;
    const TAU: Self = core::f32::consts::TAU;
    const FRAC_PI_2: Self = core::f32::consts::FRAC_PI_2;
    const MAX: Self = f32::MAX;
    const MIN: Self = f32::MIN;
    const EPSILON: Self = f32::EPSILON;

    #[inline]
    fn from_f32(v: f32) -> Self {
        if v.is_nan() {
            0.0
        } else {
            v
        }
    }
    #[inline]
    fn from_f64(v: f64) -> Self {
        if v.is_nan() {
            0.0
        } else {
            v as f32
        }
    }
    #[inline]
    fn from_i32(v: i32) -> Self {
        v as f32
    }
    #[inline]
    fn from_ratio(num: i32, den: i32) -> Self {
        (f64::from(num) / f64::from(den)) as f32
    }
    #[inline]
    fn from_q16_bits(bits: i32) -> Self {
        (f64::from(bits) / 65536.0) as f32
    }
    #[inline]
    fn to_q16_bits(self) -> i32 {
        // `as` saturates and maps NaN to 0.
        f32_to_q16_bits(self)
    }
    #[inline]
    fn from_blob_bits(bits: u32) -> Self {
        f32::from_bits(bits)
    }
    #[inline]
    fn to_blob_bits(self) -> u32 {
        self.to_bits()
    }
    #[inline]
    fn to_f32(self) -> f32 {
        self
    }
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn write_decimal(self, w: &mut dyn core::fmt::Write) -> core::fmt::Result {
        write!(w, "{self}")
    }
    #[inline]
    fn floor_to_i32(self) -> i32 {
        f32m::floor(self) as i32
    }
    #[inline]
    fn add(self, rhs: Self) -> Self {
        self + rhs
    }
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        self - rhs
    }
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        self * rhs
    }
    #[inline]
    fn div(self, rhs: Self) -> Self {
        self / rhs
    }
    #[inline]
    fn neg(self) -> Self {
        -self
    }
    #[inline]
    fn abs(self) -> Self {
        f32::from_bits(self.to_bits() & 0x7FFF_FFFF)
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self * a + b
    }
    #[inline]
    fn floor(self) -> Self {
        f32m::floor(self)
    }
    #[inline]
    fn ceil(self) -> Self {
        f32m::ceil(self)
    }
    #[inline]
    fn round(self) -> Self {
        f32m::round(self)
    }
    #[inline]
    fn trunc(self) -> Self {
        f32m::trunc(self)
    }
    #[inline]
    fn fract(self) -> Self {
        let f = self - f32m::floor(self);
        // For tiny negative inputs `x - floor(x)` rounds up to exactly 1.0; keep the result in [0, 1).
        if f >= 1.0 {
            0.0
        } else {
            f
        }
    }
    #[inline]
    fn rem_euclid(self, m: Self) -> Self {
        if !(m > 0.0 && m.is_finite() && self.is_finite()) {
            return 0.0;
        }
        let r = f32m::fmod_exact(self, m);
        if r < 0.0 {
            // r + m is at most m; when |r| is below half an ulp of m it rounds to m itself.
            let w = r + m;
            if w >= m {
                0.0
            } else {
                w
            }
        } else {
            r
        }
    }
    #[inline]
    fn lerp(self, b: Self, t: Self) -> Self {
        self + (b - self) * t
    }
    #[inline]
    fn sqrt(self) -> Self {
        if self > 0.0 {
            f32m::sqrt(self)
        } else {
            0.0
        }
    }
    #[inline]
    fn hypot(self, b: Self) -> Self {
        f32m::hypot(self, b)
    }
    #[inline]
    fn hypot3(self, b: Self, c: Self) -> Self {
        f32m::hypot(f32m::hypot(self, b), c)
    }
    #[inline]
    fn hypot4(self, b: Self, c: Self, d: Self) -> Self {
        f32m::hypot(f32m::hypot(self, b), f32m::hypot(c, d))
    }
    #[inline]
    fn sin(self) -> Self {
        f32m::sin(self)
    }
    #[inline]
    fn cos(self) -> Self {
        f32m::cos(self)
    }
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        f32m::sin_cos(self)
    }
    #[inline]
    fn atan2(self, x: Self) -> Self {
        if self == 0.0 && x == 0.0 {
            0.0
        } else {
            f32m::atan2(self, x)
        }
    }
    #[inline]
    fn acos(self) -> Self {
        f32m::acos(self.clamp(-1.0, 1.0))
    }
    #[inline]
    fn asin(self) -> Self {
        f32m::asin(self.clamp(-1.0, 1.0))
    }
    #[inline]
    fn exp2(self) -> Self {
        f32m::exp2(self)
    }
}

/// `round(v × 2^16)` (ties away from zero), saturated to `i32`; NaN gives 0. Integer operations
/// only, so it is cheap on cores without an FPU and exact everywhere.
fn f32_to_q16_bits(v: f32) -> i32 {
    let bits = v.to_bits();
    let exp = ((bits >> 23) & 0xFF) as i32;
    let frac = bits & 0x007F_FFFF;
    if exp == 0xFF && frac != 0 {
        return 0; // NaN
    }
    // |v| = mant × 2^(exp − 150); |v| × 2^16 = mant × 2^(exp − 134). Subnormals are far below 2^-17.
    let mant = u64::from(frac | if exp == 0 { 0 } else { 0x0080_0000 });
    let magnitude = scale_round(mant, exp - 134);
    apply_sign(magnitude, bits >> 31 != 0)
}

/// As [`f32_to_q16_bits`] for `f64`.
fn f64_to_q16_bits(v: f64) -> i32 {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & 0x000F_FFFF_FFFF_FFFF;
    if exp == 0x7FF && frac != 0 {
        return 0; // NaN
    }
    let mant = frac | if exp == 0 { 0 } else { 1 << 52 };
    let magnitude = scale_round(mant, exp - 1075 + 16);
    apply_sign(magnitude, bits >> 63 != 0)
}

/// `round(mant × 2^shift)`, ties away from zero, saturated to `u64::MAX` (`mant < 2^53`).
fn scale_round(mant: u64, shift: i32) -> u64 {
    if mant == 0 {
        0
    } else if shift >= 0 {
        // The caller saturates anything above 2^31, so a shift that would overflow u64 (detected by
        // shifting back) or is large anyway just gives u64::MAX.
        if shift > 40 {
            u64::MAX
        } else {
            mant.checked_shl(shift as u32).filter(|r| r >> shift == mant).unwrap_or(u64::MAX)
        }
    } else {
        let s = shift.unsigned_abs();
        if s > 54 {
            0
        } else {
            // mant < 2^53 and the half is at most 2^53: no overflow.
            (mant + (1u64 << (s - 1))) >> s
        }
    }
}

/// Applies the sign to a magnitude and saturates to `i32` (`-2^31` is representable).
fn apply_sign(magnitude: u64, negative: bool) -> i32 {
    if negative {
        if magnitude >= 1 << 31 {
            i32::MIN
        } else {
            -(magnitude as i32)
        }
    } else if magnitude > i32::MAX as u64 {
        i32::MAX
    } else {
        magnitude as i32
    }
}

/// `(n + d/2) / d` with ties away from zero, for `d != 0`; saturates to the `i32` range.
#[inline]
fn div_round_i64(n: i64, d: i64) -> i32 {
    if d == 0 {
        return match n.cmp(&0) {
            Ordering::Greater => i32::MAX,
            Ordering::Less => i32::MIN,
            Ordering::Equal => 0,
        };
    }
    // |n| < 2^48 and |d| <= 2^31 everywhere this is used, so nothing here overflows.
    let (n_abs, d_abs) = (n.unsigned_abs(), d.unsigned_abs());
    let q = (n_abs + d_abs / 2) / d_abs;
    let q = if q > u64::from(u32::MAX) { u64::from(u32::MAX) } else { q } as i64;
    if (n < 0) != (d < 0) {
        sat_i32(-q)
    } else {
        sat_i32(q)
    }
}

impl Scalar for I16F16 {
    const ENCODING: ScalarEncoding = ScalarEncoding::Q16_16;
    const ZERO: Self = I16F16::from_bits(0);
    const ONE: Self = I16F16::from_bits(1 << 16);
    const NEG_ONE: Self = I16F16::from_bits(-(1 << 16));
    const HALF: Self = I16F16::from_bits(1 << 15);
    const TWO: Self = I16F16::from_bits(2 << 16);
    /// π rounded to nearest (205887 / 65536).
    const PI: Self = I16F16::from_bits(q16::PI_BITS);
    /// 2π rounded to nearest.
    const TAU: Self = I16F16::from_bits(q16::TAU_BITS);
    /// π/2 rounded to nearest.
    const FRAC_PI_2: Self = I16F16::from_bits(q16::FRAC_PI_2_BITS);
    const MAX: Self = I16F16::MAX;
    const MIN: Self = I16F16::MIN;
    const EPSILON: Self = I16F16::DELTA;

    #[inline]
    fn from_f32(v: f32) -> Self {
        I16F16::from_bits(f32_to_q16_bits(v))
    }
    #[inline]
    fn from_f64(v: f64) -> Self {
        // `as` saturates and maps NaN to 0.
        I16F16::from_bits(f64_to_q16_bits(v))
    }
    #[inline]
    fn from_i32(v: i32) -> Self {
        I16F16::from_bits(sat_i32(i64::from(v) << 16))
    }
    #[inline]
    fn from_ratio(num: i32, den: i32) -> Self {
        I16F16::from_bits(div_round_i64(i64::from(num) << 16, i64::from(den)))
    }
    #[inline]
    fn from_q16_bits(bits: i32) -> Self {
        I16F16::from_bits(bits)
    }
    #[inline]
    fn to_q16_bits(self) -> i32 {
        self.to_bits()
    }
    #[inline]
    fn from_blob_bits(bits: u32) -> Self {
        I16F16::from_bits(bits as i32)
    }
    #[inline]
    fn to_blob_bits(self) -> u32 {
        self.to_bits() as u32
    }
    #[inline]
    fn to_f32(self) -> f32 {
        self.to_bits() as f32 / 65536.0
    }
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self.to_bits()) / 65536.0
    }
    fn write_decimal(self, w: &mut dyn core::fmt::Write) -> core::fmt::Result {
        write!(w, "{self}")
    }
    #[inline]
    fn floor_to_i32(self) -> i32 {
        self.to_bits() >> 16
    }
    #[inline]
    fn add(self, rhs: Self) -> Self {
        I16F16::from_bits(self.to_bits().saturating_add(rhs.to_bits()))
    }
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        I16F16::from_bits(self.to_bits().saturating_sub(rhs.to_bits()))
    }
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        // Round to nearest, ties away from zero (symmetric: mul(-a, b) == -mul(a, b)), saturated;
        // in 32-bit halves on cores without a long multiply (the same bits, see `wide`).
        I16F16::from_bits(wide::mul_bits(self.to_bits(), rhs.to_bits()))
    }
    #[inline]
    fn div(self, rhs: Self) -> Self {
        I16F16::from_bits(div_round_i64(i64::from(self.to_bits()) << 16, i64::from(rhs.to_bits())))
    }
    #[inline]
    fn neg(self) -> Self {
        I16F16::from_bits(self.to_bits().saturating_neg())
    }
    #[inline]
    fn abs(self) -> Self {
        I16F16::from_bits(self.to_bits().saturating_abs())
    }
    #[inline]
    fn floor(self) -> Self {
        I16F16::from_bits(self.to_bits() & !0xFFFF)
    }
    #[inline]
    fn ceil(self) -> Self {
        let b = self.to_bits();
        if b & 0xFFFF == 0 {
            self
        } else {
            I16F16::from_bits(sat_i32(i64::from(b & !0xFFFF) + 0x1_0000))
        }
    }
    #[inline]
    fn round(self) -> Self {
        let b = i64::from(self.to_bits());
        let r = if b >= 0 { (b + 0x8000) & !0xFFFF } else { -((-b + 0x8000) & !0xFFFF) };
        I16F16::from_bits(sat_i32(r))
    }
    #[inline]
    fn trunc(self) -> Self {
        let b = self.to_bits();
        if b >= 0 {
            I16F16::from_bits(b & !0xFFFF)
        } else {
            // -(|b| & !0xFFFF): |b| fits in i64.
            I16F16::from_bits(sat_i32(-(i64::from(b).abs() & !0xFFFF)))
        }
    }
    #[inline]
    fn fract(self) -> Self {
        I16F16::from_bits(self.to_bits() & 0xFFFF)
    }
    #[inline]
    fn rem_euclid(self, m: Self) -> Self {
        let mb = m.to_bits();
        if mb > 0 {
            // Exact: both are multiples of 2^-16.
            I16F16::from_bits(self.to_bits().rem_euclid(mb))
        } else {
            Self::ZERO
        }
    }
    #[inline]
    fn lerp(self, b: Self, t: Self) -> Self {
        // The difference in 64 bits, the product rounded like `mul` (see `wide`).
        I16F16::from_bits(wide::lerp_bits(self.to_bits(), b.to_bits(), t.to_bits()))
    }
    #[inline]
    fn sqrt(self) -> Self {
        I16F16::from_bits(q16::sqrt(self.to_bits()))
    }
    #[inline]
    fn hypot(self, b: Self) -> Self {
        I16F16::from_bits(q16::hypot(&[self.to_bits(), b.to_bits()]))
    }
    #[inline]
    fn hypot3(self, b: Self, c: Self) -> Self {
        I16F16::from_bits(q16::hypot(&[self.to_bits(), b.to_bits(), c.to_bits()]))
    }
    #[inline]
    fn hypot4(self, b: Self, c: Self, d: Self) -> Self {
        I16F16::from_bits(q16::hypot(&[self.to_bits(), b.to_bits(), c.to_bits(), d.to_bits()]))
    }
    #[inline]
    fn sin(self) -> Self {
        I16F16::from_bits(q16::sin(self.to_bits()))
    }
    #[inline]
    fn cos(self) -> Self {
        I16F16::from_bits(q16::cos(self.to_bits()))
    }
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = q16::sin_cos(self.to_bits());
        (I16F16::from_bits(s), I16F16::from_bits(c))
    }
    #[inline]
    fn atan2(self, x: Self) -> Self {
        I16F16::from_bits(q16::atan2(self.to_bits(), x.to_bits()))
    }
    #[inline]
    fn acos(self) -> Self {
        I16F16::from_bits(q16::acos(self.to_bits()))
    }
    #[inline]
    fn asin(self) -> Self {
        I16F16::from_bits(q16::asin(self.to_bits()))
    }
    #[inline]
    fn exp2(self) -> Self {
        I16F16::from_bits(q16::exp2(self.to_bits()))
    }
}

#[cfg(test)]
mod tests {
    use super::Scalar as S;
    use super::*;

    fn q(v: f64) -> Q16 {
        <Q16 as S>::from_f64(v)
    }

    #[test]
    fn q16_arithmetic_saturates_and_rounds() {
        assert_eq!(S::add(Q16::MAX, Q16::ONE), Q16::MAX);
        assert_eq!(S::sub(Q16::MIN, Q16::ONE), Q16::MIN);
        assert_eq!(S::neg(Q16::MIN), Q16::MAX);
        assert_eq!(S::abs(Q16::MIN), Q16::MAX);
        assert_eq!(S::mul(q(300.0), q(300.0)), Q16::MAX);
        assert_eq!(S::mul(q(-300.0), q(300.0)), Q16::MIN);
        // 3 * 2^-16 times 0.5 = 1.5 * 2^-16, rounds away from zero to 2 * 2^-16.
        assert_eq!(S::mul(Q16::from_bits(3), Q16::HALF).to_bits(), 2);
        assert_eq!(S::mul(Q16::from_bits(-3), Q16::HALF).to_bits(), -2);
        assert_eq!(S::mul(q(1.5), q(-2.0)), q(-3.0));
    }

    #[test]
    fn q16_division_never_panics() {
        assert_eq!(S::div(Q16::ONE, Q16::ZERO), Q16::MAX);
        assert_eq!(S::div(Q16::NEG_ONE, Q16::ZERO), Q16::MIN);
        assert_eq!(S::div(Q16::ZERO, Q16::ZERO), Q16::ZERO);
        assert_eq!(S::div(Q16::MIN, Q16::NEG_ONE), Q16::MAX);
        assert_eq!(S::div(Q16::MAX, Q16::EPSILON), Q16::MAX);
        assert_eq!(S::div(Q16::ONE, q(3.0)).to_bits(), 21845); // 65536/3 = 21845.33
        assert_eq!(S::div(q(2.0), q(3.0)).to_bits(), 43691); // 131072/3 = 43690.67
        assert_eq!(S::div(q(-2.0), q(3.0)).to_bits(), -43691);
        assert_eq!(<Q16 as S>::from_ratio(1, 0), Q16::MAX);
        assert_eq!(<Q16 as S>::from_ratio(-7, 2), q(-3.5));
        assert_eq!(<Q16 as S>::from_ratio(i32::MAX, 1), Q16::MAX);
    }

    #[test]
    fn q16_rounding_functions() {
        assert_eq!(S::floor(q(-1.25)), q(-2.0));
        assert_eq!(S::ceil(q(-1.25)), q(-1.0));
        assert_eq!(S::trunc(q(-1.25)), q(-1.0));
        assert_eq!(S::fract(q(-1.25)), q(0.75));
        assert_eq!(S::round(q(-1.5)), q(-2.0));
        assert_eq!(S::round(q(1.5)), q(2.0));
        assert_eq!(S::round(q(2.25)), q(2.0));
        assert_eq!(S::ceil(Q16::MAX), Q16::MAX);
        assert_eq!(S::round(Q16::MAX), Q16::MAX);
        assert_eq!(S::floor(Q16::MIN), Q16::MIN);
        assert_eq!(S::trunc(Q16::MIN), Q16::MIN);
        assert_eq!(S::floor_to_i32(q(-2.5)), -3);
        assert_eq!(S::rem_euclid(q(-0.25), q(1.0)), q(0.75));
        assert_eq!(S::rem_euclid(q(7.5), q(2.0)), q(1.5));
        assert_eq!(S::rem_euclid(q(7.5), Q16::ZERO), Q16::ZERO);
    }

    #[test]
    fn q16_lerp_uses_wide_difference() {
        assert_eq!(S::lerp(q(-30000.0), q(30000.0), Q16::HALF), Q16::ZERO);
        assert_eq!(S::lerp(q(1.0), q(3.0), q(0.25)), q(1.5));
        assert_eq!(S::lerp(q(1.0), q(3.0), q(2.0)), q(5.0));
    }

    #[test]
    fn float_to_q16_conversion_rounds_like_the_f64_reference() {
        // Reference: round half away from zero of v × 65536 in f64 (exact for these inputs), saturated.
        fn reference(v: f64) -> i32 {
            if v.is_nan() {
                return 0;
            }
            let r = (v * 65536.0).round();
            r.clamp(i32::MIN as f64, i32::MAX as f64) as i32
        }
        let mut s = 0x2545_F491u32;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let v = f32::from_bits(s);
            assert_eq!(f32_to_q16_bits(v), reference(f64::from(v)), "{v:e}");
            let d = f64::from(v) * 1.000_000_1;
            assert_eq!(f64_to_q16_bits(d), reference(d), "{d:e}");
        }
        for v in [0.5f32 / 65536.0, -0.5 / 65536.0, 1.5 / 65536.0, 32767.99, 32768.0, -32768.0, -32768.5, 1e-45] {
            assert_eq!(f32_to_q16_bits(v), reference(f64::from(v)), "{v:e}");
        }
        for v in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 2.5 / 65536.0, -2.5 / 65536.0, 5e-324, 1e300] {
            assert_eq!(f64_to_q16_bits(v), reference(v), "{v:e}");
        }
        assert_eq!(f32_to_q16_bits(f32::INFINITY), i32::MAX);
        assert_eq!(f32_to_q16_bits(f32::NEG_INFINITY), i32::MIN);
    }

    #[test]
    fn conversions() {
        assert_eq!(<Q16 as S>::from_f32(f32::NAN), Q16::ZERO);
        assert_eq!(<Q16 as S>::from_f32(1e9), Q16::MAX);
        assert_eq!(<Q16 as S>::from_f64(-1e9), Q16::MIN);
        assert_eq!(<Q16 as S>::from_f64(0.5), Q16::HALF);
        assert_eq!(<Q16 as S>::from_i32(40000), Q16::MAX);
        assert_eq!(S::to_f64(<Q16 as S>::from_q16_bits(98304)), 1.5);
        assert_eq!(<f32 as Scalar>::from_q16_bits(98304), 1.5);
        assert_eq!(S::to_q16_bits(1.5f32), 98304);
        assert_eq!(S::to_q16_bits(f32::NAN), 0);
        assert_eq!(S::to_q16_bits(1e12f32), i32::MAX);
        assert_eq!(<f32 as Scalar>::from_blob_bits(1.25f32.to_bits()), 1.25);
        assert_eq!(<Q16 as S>::from_blob_bits(0xFFFF_0000), Q16::NEG_ONE);
        assert_eq!(S::to_blob_bits(Q16::NEG_ONE), 0xFFFF_0000);
        assert_eq!(Q16::PI.to_bits(), 205887);
    }

    #[test]
    fn f32_edge_cases_match_q16_conventions() {
        assert_eq!(S::sqrt(-4.0f32), 0.0);
        assert_eq!(<f32 as Scalar>::atan2(0.0, 0.0), 0.0);
        assert_eq!(<f32 as Scalar>::acos(2.0), 0.0);
        assert_eq!(<f32 as Scalar>::fract(-1e-10), 0.0);
        assert_eq!(<f32 as Scalar>::rem_euclid(-0.25, 1.0), 0.75);
        assert_eq!(<f32 as Scalar>::min(f32::NAN, 1.0), 1.0);
        assert_eq!(<f32 as Scalar>::clamp(f32::NAN, 0.0, 1.0), 0.0);
    }
}
