//! 2D and 3D vectors: positions, offsets, scales and directions.

use core::ops::{Add, Mul, Neg, Sub};

use crate::Scalar;

/// A 2D vector (a position, an offset or a per-axis scale).
///
/// Every operation goes through [`Scalar`], so none panics; in Q16.16 results saturate.
///
/// ```
/// use ossicle::math::Vec2;
///
/// let v = Vec2::new(3.0f32, 4.0);
/// assert_eq!(v.length(), 5.0);
/// assert_eq!(v.add(Vec2::ONE), Vec2::new(4.0, 5.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Vec2<S> {
    /// The x component.
    pub x: S,
    /// The y component.
    pub y: S,
}

/// A 3D vector (a position, an offset or a per-axis scale).
///
/// Every operation goes through [`Scalar`], so none panics; in Q16.16 results saturate.
///
/// ```
/// use ossicle::math::Vec3;
///
/// let z = Vec3::<f32>::X.cross(Vec3::Y);
/// assert_eq!(z, Vec3::Z);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Vec3<S> {
    /// The x component.
    pub x: S,
    /// The y component.
    pub y: S,
    /// The z component.
    pub z: S,
}

/// `|a|` ≥ `|b|` ? `|a|` : `|b|` (the largest magnitude, used to pre-scale before normalising).
#[inline]
fn max_abs<S: Scalar>(a: S, b: S) -> S {
    a.abs().max(b.abs())
}

impl<S: Scalar> Vec2<S> {
    /// `(0, 0)`.
    pub const ZERO: Self = Self::new(S::ZERO, S::ZERO);
    /// `(1, 1)`.
    pub const ONE: Self = Self::new(S::ONE, S::ONE);
    /// `(1, 0)`.
    pub const X: Self = Self::new(S::ONE, S::ZERO);
    /// `(0, 1)`.
    pub const Y: Self = Self::new(S::ZERO, S::ONE);

    /// A vector from its components.
    #[inline]
    pub const fn new(x: S, y: S) -> Self {
        Self { x, y }
    }

    /// A vector with both components equal to `v`.
    #[inline]
    pub const fn splat(v: S) -> Self {
        Self::new(v, v)
    }

    /// Component-wise sum.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, rhs: Self) -> Self {
        Self::new(self.x.add(rhs.x), self.y.add(rhs.y))
    }

    /// Component-wise difference.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, rhs: Self) -> Self {
        Self::new(self.x.sub(rhs.x), self.y.sub(rhs.y))
    }

    /// The vector multiplied by the scalar `s`.
    #[inline]
    pub fn scale(self, s: S) -> Self {
        Self::new(self.x.mul(s), self.y.mul(s))
    }

    /// Component-wise product (applies a per-axis scale).
    #[inline]
    pub fn mul_elem(self, rhs: Self) -> Self {
        Self::new(self.x.mul(rhs.x), self.y.mul(rhs.y))
    }

    /// Component-wise quotient, as [`Scalar::div`] (a zero component gives an infinity in f32 and
    /// saturates in Q16.16).
    #[inline]
    pub fn div_elem(self, rhs: Self) -> Self {
        Self::new(self.x.div(rhs.x), self.y.div(rhs.y))
    }

    /// The opposite vector.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Self {
        Self::new(self.x.neg(), self.y.neg())
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, rhs: Self) -> S {
        self.x.mul(rhs.x).add(self.y.mul(rhs.y))
    }

    /// 2D cross product `self.x × rhs.y − self.y × rhs.x` (the z of the 3D cross product; positive
    /// when `rhs` is counter-clockwise from `self`).
    #[inline]
    pub fn cross(self, rhs: Self) -> S {
        self.x.mul(rhs.y).sub(self.y.mul(rhs.x))
    }

    /// The vector rotated by +90° (counter-clockwise): `(-y, x)`.
    #[inline]
    pub fn perp(self) -> Self {
        Self::new(self.y.neg(), self.x)
    }

    /// The Euclidean length, through [`Scalar::hypot`]: in Q16.16 the squares are summed in 64 bits,
    /// so only a length above [`Scalar::MAX`] saturates.
    #[inline]
    pub fn length(self) -> S {
        self.x.hypot(self.y)
    }

    /// The squared length (saturates in Q16.16 as soon as it exceeds 32767; prefer
    /// [`Vec2::length`] for comparisons of large vectors).
    #[inline]
    pub fn length_squared(self) -> S {
        self.dot(self)
    }

    /// The unit vector in the same direction; the zero vector stays zero (no division by zero).
    ///
    /// The components are first divided by the largest magnitude, so in Q16.16 a vector whose
    /// length does not fit (e.g. `(30000, 30000)`) still normalises correctly.
    pub fn normalize(self) -> Self {
        let m = max_abs(self.x, self.y);
        if m == S::ZERO {
            return Self::ZERO;
        }
        let v = Self::new(self.x.div(m), self.y.div(m));
        let len = v.length();
        if len == S::ZERO {
            // Unreachable for finite inputs (one component is ±1); keeps NaN inputs total.
            return Self::ZERO;
        }
        Self::new(v.x.div(len), v.y.div(len))
    }

    /// Linear interpolation `self + (b − self) × t`, component-wise (`t` is not clamped).
    #[inline]
    pub fn lerp(self, b: Self, t: S) -> Self {
        Self::new(self.x.lerp(b.x, t), self.y.lerp(b.y, t))
    }

    /// The distance between two points, `(b − self).length()` (in Q16.16 the difference saturates
    /// when a component of it exceeds the range).
    #[inline]
    pub fn distance(self, b: Self) -> S {
        b.sub(self).length()
    }

    /// Component-wise minimum.
    #[inline]
    pub fn min(self, rhs: Self) -> Self {
        Self::new(self.x.min(rhs.x), self.y.min(rhs.y))
    }

    /// Component-wise maximum.
    #[inline]
    pub fn max(self, rhs: Self) -> Self {
        Self::new(self.x.max(rhs.x), self.y.max(rhs.y))
    }

    /// The vector rotated counter-clockwise by the angle whose sine and cosine are given.
    #[inline]
    pub fn rotate_sin_cos(self, sin: S, cos: S) -> Self {
        Self::new(self.x.mul(cos).sub(self.y.mul(sin)), self.x.mul(sin).add(self.y.mul(cos)))
    }

    /// The vector extended with a z component.
    #[inline]
    pub const fn extend(self, z: S) -> Vec3<S> {
        Vec3::new(self.x, self.y, z)
    }
}

impl<S: Scalar> Vec3<S> {
    /// `(0, 0, 0)`.
    pub const ZERO: Self = Self::new(S::ZERO, S::ZERO, S::ZERO);
    /// `(1, 1, 1)`.
    pub const ONE: Self = Self::new(S::ONE, S::ONE, S::ONE);
    /// `(1, 0, 0)`.
    pub const X: Self = Self::new(S::ONE, S::ZERO, S::ZERO);
    /// `(0, 1, 0)`.
    pub const Y: Self = Self::new(S::ZERO, S::ONE, S::ZERO);
    /// `(0, 0, 1)`.
    pub const Z: Self = Self::new(S::ZERO, S::ZERO, S::ONE);

    /// A vector from its components.
    #[inline]
    pub const fn new(x: S, y: S, z: S) -> Self {
        Self { x, y, z }
    }

    /// A vector with all components equal to `v`.
    #[inline]
    pub const fn splat(v: S) -> Self {
        Self::new(v, v, v)
    }

    /// Component-wise sum.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, rhs: Self) -> Self {
        Self::new(self.x.add(rhs.x), self.y.add(rhs.y), self.z.add(rhs.z))
    }

    /// Component-wise difference.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, rhs: Self) -> Self {
        Self::new(self.x.sub(rhs.x), self.y.sub(rhs.y), self.z.sub(rhs.z))
    }

    /// The vector multiplied by the scalar `s`.
    #[inline]
    pub fn scale(self, s: S) -> Self {
        Self::new(self.x.mul(s), self.y.mul(s), self.z.mul(s))
    }

    /// Component-wise product (applies a per-axis scale).
    #[inline]
    pub fn mul_elem(self, rhs: Self) -> Self {
        Self::new(self.x.mul(rhs.x), self.y.mul(rhs.y), self.z.mul(rhs.z))
    }

    /// Component-wise quotient, as [`Scalar::div`] (a zero component gives an infinity in f32 and
    /// saturates in Q16.16).
    #[inline]
    pub fn div_elem(self, rhs: Self) -> Self {
        Self::new(self.x.div(rhs.x), self.y.div(rhs.y), self.z.div(rhs.z))
    }

    /// The opposite vector.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Self {
        Self::new(self.x.neg(), self.y.neg(), self.z.neg())
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, rhs: Self) -> S {
        self.x.mul(rhs.x).add(self.y.mul(rhs.y)).add(self.z.mul(rhs.z))
    }

    /// Cross product (right-handed: `X × Y = Z`).
    #[inline]
    pub fn cross(self, rhs: Self) -> Self {
        Self::new(
            self.y.mul(rhs.z).sub(self.z.mul(rhs.y)),
            self.z.mul(rhs.x).sub(self.x.mul(rhs.z)),
            self.x.mul(rhs.y).sub(self.y.mul(rhs.x)),
        )
    }

    /// The Euclidean length, through [`Scalar::hypot3`]: in Q16.16 the squares are summed in 64
    /// bits, so only a length above [`Scalar::MAX`] saturates.
    #[inline]
    pub fn length(self) -> S {
        self.x.hypot3(self.y, self.z)
    }

    /// The squared length (saturates in Q16.16 as soon as it exceeds 32767; prefer
    /// [`Vec3::length`] for comparisons of large vectors).
    #[inline]
    pub fn length_squared(self) -> S {
        self.dot(self)
    }

    /// The unit vector in the same direction; the zero vector stays zero (no division by zero).
    ///
    /// The components are first divided by the largest magnitude, so in Q16.16 a vector whose
    /// length does not fit still normalises correctly.
    pub fn normalize(self) -> Self {
        let m = max_abs(max_abs(self.x, self.y), self.z);
        if m == S::ZERO {
            return Self::ZERO;
        }
        let v = Self::new(self.x.div(m), self.y.div(m), self.z.div(m));
        let len = v.length();
        if len == S::ZERO {
            return Self::ZERO;
        }
        Self::new(v.x.div(len), v.y.div(len), v.z.div(len))
    }

    /// Linear interpolation `self + (b − self) × t`, component-wise (`t` is not clamped).
    #[inline]
    pub fn lerp(self, b: Self, t: S) -> Self {
        Self::new(self.x.lerp(b.x, t), self.y.lerp(b.y, t), self.z.lerp(b.z, t))
    }

    /// The distance between two points, `(b − self).length()` (in Q16.16 the difference saturates
    /// when a component of it exceeds the range).
    #[inline]
    pub fn distance(self, b: Self) -> S {
        b.sub(self).length()
    }

    /// Component-wise minimum.
    #[inline]
    pub fn min(self, rhs: Self) -> Self {
        Self::new(self.x.min(rhs.x), self.y.min(rhs.y), self.z.min(rhs.z))
    }

    /// Component-wise maximum.
    #[inline]
    pub fn max(self, rhs: Self) -> Self {
        Self::new(self.x.max(rhs.x), self.y.max(rhs.y), self.z.max(rhs.z))
    }

    /// The x and y components.
    #[inline]
    pub const fn truncate(self) -> Vec2<S> {
        Vec2::new(self.x, self.y)
    }
}

macro_rules! vec_ops {
    ($t:ident) => {
        impl<S: Scalar> Add for $t<S> {
            type Output = Self;
            /// Component-wise sum (as the inherent method, never panics).
            #[inline]
            fn add(self, rhs: Self) -> Self {
                $t::add(self, rhs)
            }
        }
        impl<S: Scalar> Sub for $t<S> {
            type Output = Self;
            /// Component-wise difference (as the inherent method, never panics).
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                $t::sub(self, rhs)
            }
        }
        impl<S: Scalar> Neg for $t<S> {
            type Output = Self;
            /// The opposite vector (as the inherent method, never panics).
            #[inline]
            fn neg(self) -> Self {
                $t::neg(self)
            }
        }
        impl<S: Scalar> Mul<S> for $t<S> {
            type Output = Self;
            /// The vector scaled by a scalar (as the inherent `scale`).
            #[inline]
            fn mul(self, rhs: S) -> Self {
                self.scale(rhs)
            }
        }
    };
}

vec_ops!(Vec2);
vec_ops!(Vec3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testutil::{assert_close, s, v2, v3, Tol};
    use crate::Q16;

    fn basics<S: Scalar>(tol: Tol) {
        let a = v2::<S>(1.5, -2.0);
        let b = v2::<S>(0.25, 4.0);
        assert_eq!(a.add(b), v2(1.75, 2.0));
        assert_eq!(a + b, v2(1.75, 2.0));
        assert_eq!(a.sub(b), v2(1.25, -6.0));
        assert_eq!(a - b, v2(1.25, -6.0));
        assert_eq!(a.neg(), v2(-1.5, 2.0));
        assert_eq!(-a, v2(-1.5, 2.0));
        assert_eq!(a.scale(s(2.0)), v2(3.0, -4.0));
        assert_eq!(a * s::<S>(2.0), v2(3.0, -4.0));
        assert_eq!(a.mul_elem(b), v2(0.375, -8.0));
        assert_eq!(a.div_elem(v2(0.5, 4.0)), v2(3.0, -0.5));
        // 1.5 × 0.25 + (−2) × 4 = −7.625
        assert_eq!(a.dot(b), s(-7.625));
        // 1.5 × 4 − (−2) × 0.25 = 6.5
        assert_eq!(a.cross(b), s(6.5));
        assert_eq!(Vec2::<S>::X.cross(Vec2::Y), S::ONE);
        assert_eq!(a.perp(), v2(2.0, 1.5));
        assert_eq!(Vec2::<S>::X.perp(), Vec2::Y);
        assert_eq!(a.min(b), v2(0.25, -2.0));
        assert_eq!(a.max(b), v2(1.5, 4.0));
        assert_eq!(a.lerp(b, s(0.5)), v2(0.875, 1.0));
        assert_eq!(a.length_squared(), s(6.25));
        assert_close(v2::<S>(3.0, -4.0).length(), 5.0, tol.exact);
        assert_close(a.distance(b), (1.25f64 * 1.25 + 36.0).sqrt(), tol.exact);
        assert_eq!(Vec2::<S>::default(), Vec2::ZERO);
        assert_eq!(Vec2::<S>::splat(S::ONE), Vec2::ONE);
        assert_eq!(a.extend(S::TWO), v3(1.5, -2.0, 2.0));

        let p = v3::<S>(1.0, 2.0, 3.0);
        let q = v3::<S>(-2.0, 0.5, 4.0);
        assert_eq!(p.add(q), v3(-1.0, 2.5, 7.0));
        assert_eq!(p + q, v3(-1.0, 2.5, 7.0));
        assert_eq!(p.sub(q), v3(3.0, 1.5, -1.0));
        assert_eq!(-p, v3(-1.0, -2.0, -3.0));
        assert_eq!(p * s::<S>(0.5), v3(0.5, 1.0, 1.5));
        assert_eq!(p.mul_elem(q), v3(-2.0, 1.0, 12.0));
        assert_eq!(p.div_elem(v3(2.0, 4.0, -1.0)), v3(0.5, 0.5, -3.0));
        // −2 + 1 + 12 = 11
        assert_eq!(p.dot(q), s(11.0));
        // (2·4 − 3·0.5, 3·(−2) − 1·4, 1·0.5 − 2·(−2)) = (6.5, −10, 4.5)
        assert_eq!(p.cross(q), v3(6.5, -10.0, 4.5));
        assert_eq!(Vec3::<S>::Y.cross(Vec3::Z), Vec3::X);
        assert_eq!(Vec3::<S>::Z.cross(Vec3::X), Vec3::Y);
        assert_eq!(p.min(q), v3(-2.0, 0.5, 3.0));
        assert_eq!(p.max(q), v3(1.0, 2.0, 4.0));
        assert_eq!(p.lerp(q, s(0.5)), v3(-0.5, 1.25, 3.5));
        assert_eq!(p.length_squared(), s(14.0));
        assert_close(v3::<S>(2.0, 3.0, 6.0).length(), 7.0, tol.exact);
        // p − q = (3, 1.5, −1): √(9 + 2.25 + 1) = 3.5
        assert_close(p.distance(q), 3.5, tol.exact);
        assert_eq!(p.truncate(), v2(1.0, 2.0));
        assert_eq!(Vec3::<S>::default(), Vec3::ZERO);
    }

    fn normalize<S: Scalar>(tol: Tol) {
        assert_eq!(Vec2::<S>::ZERO.normalize(), Vec2::ZERO);
        assert_eq!(Vec3::<S>::ZERO.normalize(), Vec3::ZERO);
        let n = v2::<S>(-3.0, 4.0).normalize();
        assert_close(n.x, -0.6, tol.exact);
        assert_close(n.y, 0.8, tol.exact);
        let n = v3::<S>(2.0, -3.0, 6.0).normalize();
        assert_close(n.x, 2.0 / 7.0, tol.exact);
        assert_close(n.y, -3.0 / 7.0, tol.exact);
        assert_close(n.z, 6.0 / 7.0, tol.exact);
        // Tiny vectors (one Q16.16 step) still give a unit vector.
        let e = S::EPSILON;
        let n = Vec2::new(e, S::ZERO).normalize();
        assert_eq!(n, Vec2::X);
        let n = Vec3::new(S::ZERO, S::ZERO, e.neg()).normalize();
        assert_eq!(n, Vec3::Z.neg());
    }

    /// Lengths of vectors whose squared length does not fit in Q16.16.
    fn large_coordinates<S: Scalar>(tol: Tol) {
        let v = v2::<S>(20000.0, 15000.0);
        assert_close(v.length(), 25000.0, tol.big);
        let n = v.normalize();
        assert_close(n.x, 0.8, tol.exact);
        assert_close(n.y, 0.6, tol.exact);
        // √(30000² × 2) = 42426.4 does not fit in Q16.16, but the direction does.
        let n = v2::<S>(30000.0, -30000.0).normalize();
        assert_close(n.x, core::f64::consts::FRAC_1_SQRT_2, tol.exact);
        assert_close(n.y, -core::f64::consts::FRAC_1_SQRT_2, tol.exact);
        // 12000² + 9000² + 20000² = 25000²
        let v = v3::<S>(12000.0, -9000.0, 20000.0);
        assert_close(v.length(), 25000.0, tol.big);
        let n = v.normalize();
        assert_close(n.x, 0.48, tol.exact);
        assert_close(n.y, -0.36, tol.exact);
        assert_close(n.z, 0.8, tol.exact);
        assert_close(v2::<S>(-10000.0, 0.0).distance(v2(10000.0, 15000.0)), 25000.0, tol.big);
    }

    #[test]
    fn basics_f32() {
        basics::<f32>(Tol::F32);
    }
    #[test]
    fn basics_q16() {
        basics::<Q16>(Tol::Q16);
    }
    #[test]
    fn normalize_f32() {
        normalize::<f32>(Tol::F32);
    }
    #[test]
    fn normalize_q16() {
        normalize::<Q16>(Tol::Q16);
    }
    #[test]
    fn large_coordinates_f32() {
        large_coordinates::<f32>(Tol::F32);
    }
    #[test]
    fn large_coordinates_q16() {
        large_coordinates::<Q16>(Tol::Q16);
    }

    #[test]
    fn q16_length_saturates_instead_of_overflowing() {
        assert_eq!(v2::<Q16>(30000.0, 30000.0).length(), Q16::MAX);
        assert_eq!(v2::<Q16>(300.0, 300.0).length_squared(), Q16::MAX);
    }
}
