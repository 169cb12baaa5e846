//! Quaternions: 3D rotations, their composition and interpolation.

use core::ops::{Mul, Neg};

use super::Vec3;
use crate::Scalar;

/// A rotation quaternion `x·i + y·j + z·k + w`.
///
/// Rotations are right-handed (a positive angle turns counter-clockwise when looking down the axis
/// towards the origin). Most operations assume a unit quaternion, as every constructor here
/// returns; [`Quat::normalize`] repairs drift after many products.
///
/// ```
/// use ossicle::math::{Quat, Vec3};
///
/// let q = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
/// let v = q.rotate(Vec3::X);
/// // (1e-6 with libm; the loose bound also holds with the `fast-math` feature.)
/// assert!((v.x - 0.0).abs() < 1e-2 && (v.y - 1.0).abs() < 1e-2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Quat<S> {
    /// The i (vector) component.
    pub x: S,
    /// The j (vector) component.
    pub y: S,
    /// The k (vector) component.
    pub z: S,
    /// The real (scalar) component.
    pub w: S,
}

/// The axis order of [`Quat::from_euler`].
///
/// The letters name the axes in the order the rotations are **applied** to a point, about the
/// fixed (world, extrinsic) axes: `XYZ` rotates about X by the first angle, then about the world Y
/// by the second, then about the world Z by the third, so `q = qz(c)·qy(b)·qx(a)` and the matrix is
/// `Rz(c)·Ry(b)·Rx(a)`. This is the same rotation as the intrinsic (rotating-axes) sequence read
/// backwards: Z, then the new Y′, then the new X″.
///
/// Some common conventions in these terms:
/// - Unity (`Transform.eulerAngles`, Z then X then Y about world axes):
///   `from_euler(EulerOrder::ZXY, z, x, y)`;
/// - three.js `Euler` order `'XYZ'` (intrinsic, matrix `Rx·Ry·Rz`):
///   `from_euler(EulerOrder::ZYX, z, y, x)`;
/// - aerospace yaw/pitch/roll (intrinsic Z-Y′-X″): `from_euler(EulerOrder::XYZ, roll, pitch, yaw)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum EulerOrder {
    /// About X, then Y, then Z: `q = qz·qy·qx`.
    XYZ,
    /// About X, then Z, then Y: `q = qy·qz·qx`.
    XZY,
    /// About Y, then X, then Z: `q = qz·qx·qy`.
    YXZ,
    /// About Y, then Z, then X: `q = qx·qz·qy`.
    YZX,
    /// About Z, then X, then Y: `q = qy·qx·qz`.
    ZXY,
    /// About Z, then Y, then X: `q = qx·qy·qz`.
    ZYX,
}

/// The cosine between two quaternions above which [`Quat::slerp`] uses [`Quat::nlerp`] (about 1.8°
/// apart, i.e. rotations 3.6° apart).
const SLERP_NLERP_COS_NUM: i32 = 9995;
const SLERP_NLERP_COS_DEN: i32 = 10000;

impl<S: Scalar> Default for Quat<S> {
    /// The identity rotation.
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<S: Scalar> Quat<S> {
    /// The identity rotation `(0, 0, 0, 1)`.
    pub const IDENTITY: Self = Self::from_xyzw(S::ZERO, S::ZERO, S::ZERO, S::ONE);

    /// A quaternion from its components (not normalised).
    #[inline]
    pub const fn from_xyzw(x: S, y: S, z: S, w: S) -> Self {
        Self { x, y, z, w }
    }

    /// The rotation by `angle` radians about `axis` (normalised here; a zero axis gives
    /// [`Quat::IDENTITY`]).
    pub fn from_axis_angle(axis: Vec3<S>, angle: S) -> Self {
        let n = axis.normalize();
        if n == Vec3::ZERO {
            return Self::IDENTITY;
        }
        let (s, c) = angle.mul(S::HALF).sin_cos();
        Self::from_xyzw(n.x.mul(s), n.y.mul(s), n.z.mul(s), c)
    }

    /// The rotation by `angle` radians about the X axis.
    pub fn from_rotation_x(angle: S) -> Self {
        let (s, c) = angle.mul(S::HALF).sin_cos();
        Self::from_xyzw(s, S::ZERO, S::ZERO, c)
    }

    /// The rotation by `angle` radians about the Y axis.
    pub fn from_rotation_y(angle: S) -> Self {
        let (s, c) = angle.mul(S::HALF).sin_cos();
        Self::from_xyzw(S::ZERO, s, S::ZERO, c)
    }

    /// The rotation by `angle` radians about the Z axis (the 2D rotation of the XY plane).
    pub fn from_rotation_z(angle: S) -> Self {
        let (s, c) = angle.mul(S::HALF).sin_cos();
        Self::from_xyzw(S::ZERO, S::ZERO, s, c)
    }

    /// The rotation by `a` about the first axis of `order`, then `b` about the second, then `c` about
    /// the third, all about the fixed world axes (see [`EulerOrder`]). Angles in radians.
    ///
    /// ```
    /// use ossicle::math::{EulerOrder, Quat};
    ///
    /// let (a, b, c) = (0.1f32, 0.2, 0.3);
    /// let q = Quat::from_euler(EulerOrder::XYZ, a, b, c);
    /// let composed = Quat::from_rotation_z(c)
    ///     .mul(Quat::from_rotation_y(b))
    ///     .mul(Quat::from_rotation_x(a));
    /// assert!(q.dot(composed) > 0.999); // 0.999999 with libm, 0.999 also with `fast-math`
    /// ```
    pub fn from_euler(order: EulerOrder, a: S, b: S, c: S) -> Self {
        let (qa, qb, qc) = match order {
            EulerOrder::XYZ => (Self::from_rotation_x(a), Self::from_rotation_y(b), Self::from_rotation_z(c)),
            EulerOrder::XZY => (Self::from_rotation_x(a), Self::from_rotation_z(b), Self::from_rotation_y(c)),
            EulerOrder::YXZ => (Self::from_rotation_y(a), Self::from_rotation_x(b), Self::from_rotation_z(c)),
            EulerOrder::YZX => (Self::from_rotation_y(a), Self::from_rotation_z(b), Self::from_rotation_x(c)),
            EulerOrder::ZXY => (Self::from_rotation_z(a), Self::from_rotation_x(b), Self::from_rotation_y(c)),
            EulerOrder::ZYX => (Self::from_rotation_z(a), Self::from_rotation_y(b), Self::from_rotation_x(c)),
        };
        qc.mul(qb).mul(qa)
    }

    /// The axis (unit) and angle (radians, in `[0, π]`) of this unit rotation; the identity gives
    /// `(X, 0)`.
    pub fn to_axis_angle(self) -> (Vec3<S>, S) {
        let q = if self.w < S::ZERO { self.neg() } else { self };
        let v = Vec3::new(q.x, q.y, q.z);
        let s = v.length();
        if s == S::ZERO {
            return (Vec3::X, S::ZERO);
        }
        (v.normalize(), S::TWO.mul(s.atan2(q.w)))
    }

    /// The Hamilton product `self · rhs`: the rotation that applies `rhs` first, then `self`.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        let (a, b) = (self, rhs);
        Self::from_xyzw(
            a.w.mul(b.x).add(a.x.mul(b.w)).add(a.y.mul(b.z)).sub(a.z.mul(b.y)),
            a.w.mul(b.y).sub(a.x.mul(b.z)).add(a.y.mul(b.w)).add(a.z.mul(b.x)),
            a.w.mul(b.z).add(a.x.mul(b.y)).sub(a.y.mul(b.x)).add(a.z.mul(b.w)),
            a.w.mul(b.w).sub(a.x.mul(b.x)).sub(a.y.mul(b.y)).sub(a.z.mul(b.z)),
        )
    }

    /// The conjugate `(−x, −y, −z, w)`.
    #[inline]
    pub fn conjugate(self) -> Self {
        Self::from_xyzw(self.x.neg(), self.y.neg(), self.z.neg(), self.w)
    }

    /// The inverse rotation of a **unit** quaternion (its conjugate; normalise first if in doubt).
    #[inline]
    pub fn inverse(self) -> Self {
        self.conjugate()
    }

    /// All four components negated (the same rotation).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Self {
        Self::from_xyzw(self.x.neg(), self.y.neg(), self.z.neg(), self.w.neg())
    }

    /// The 4D dot product (the cosine of half the angle between two unit rotations, up to sign).
    #[inline]
    pub fn dot(self, rhs: Self) -> S {
        self.x.mul(rhs.x).add(self.y.mul(rhs.y)).add(self.z.mul(rhs.z)).add(self.w.mul(rhs.w))
    }

    /// The 4D length, through [`Scalar::hypot4`].
    #[inline]
    pub fn length(self) -> S {
        self.x.hypot4(self.y, self.z, self.w)
    }

    /// The unit quaternion in the same direction; the zero quaternion gives [`Quat::IDENTITY`].
    pub fn normalize(self) -> Self {
        let m = self.x.abs().max(self.y.abs()).max(self.z.abs()).max(self.w.abs());
        if m == S::ZERO {
            return Self::IDENTITY;
        }
        // Dividing by the largest magnitude first keeps every component in [-1, 1].
        let q = Self::from_xyzw(self.x.div(m), self.y.div(m), self.z.div(m), self.w.div(m));
        let len = q.length();
        if len == S::ZERO {
            return Self::IDENTITY;
        }
        Self::from_xyzw(q.x.div(len), q.y.div(len), q.z.div(len), q.w.div(len))
    }

    /// The columns of the 3×3 rotation matrix of this unit quaternion (the images of X, Y and Z).
    pub fn to_rotation_columns(self) -> [Vec3<S>; 3] {
        let Self { x, y, z, w } = self;
        let (xx, yy, zz) = (x.mul(x), y.mul(y), z.mul(z));
        let (xy, xz, yz) = (x.mul(y), x.mul(z), y.mul(z));
        let (wx, wy, wz) = (w.mul(x), w.mul(y), w.mul(z));
        let two = S::TWO;
        let one = S::ONE;
        [
            Vec3::new(one.sub(two.mul(yy.add(zz))), two.mul(xy.add(wz)), two.mul(xz.sub(wy))),
            Vec3::new(two.mul(xy.sub(wz)), one.sub(two.mul(xx.add(zz))), two.mul(yz.add(wx))),
            Vec3::new(two.mul(xz.add(wy)), two.mul(yz.sub(wx)), one.sub(two.mul(xx.add(yy)))),
        ]
    }

    /// `v` rotated by this unit quaternion (`q·v·q*`), with `u = (x, y, z)` as
    /// `v + 2·(w·t + u × t)` where `t = u × v` (15 multiplications, against 21 through the rotation
    /// matrix). It is summed as `(v + a) + a` with `a = w·t + u × t`: `v + a` is the midpoint of `v`
    /// and its image, so in Q16.16 no intermediate vector is longer than `v` (`|t| <= |v|`,
    /// `|a| = |t|` since `t ⊥ u`).
    #[inline]
    pub fn rotate(self, v: Vec3<S>) -> Vec3<S> {
        let Self { x, y, z, w } = self;
        // t = u × v
        let tx = y.mul(v.z).sub(z.mul(v.y));
        let ty = z.mul(v.x).sub(x.mul(v.z));
        let tz = x.mul(v.y).sub(y.mul(v.x));
        // a = w·t + u × t
        let ax = w.mul(tx).add(y.mul(tz).sub(z.mul(ty)));
        let ay = w.mul(ty).add(z.mul(tx).sub(x.mul(tz)));
        let az = w.mul(tz).add(x.mul(ty).sub(y.mul(tx)));
        Vec3::new(v.x.add(ax).add(ax), v.y.add(ay).add(ay), v.z.add(az).add(az))
    }

    /// `b`, or `−b` if that is closer to `self` (the same rotation, along the shortest arc), and the
    /// dot product with it (never negative).
    fn shortest(self, b: Self) -> (Self, S) {
        let d = self.dot(b);
        if d < S::ZERO {
            (b.neg(), d.neg())
        } else {
            (b, d)
        }
    }

    /// `self` when its squared length is within 1/256 of 1 (a unit quaternion, up to rounding or
    /// quantisation), else [`normalize`](Self::normalize)`d`.
    fn near_unit_or_normalized(self) -> Self {
        if self.dot(self).sub(S::ONE).abs() < S::from_ratio(1, 256) {
            self
        } else {
            self.normalize()
        }
    }

    fn lerp4(a: Self, b: Self, t: S) -> Self {
        Self::from_xyzw(a.x.lerp(b.x, t), a.y.lerp(b.y, t), a.z.lerp(b.z, t), a.w.lerp(b.w, t))
    }

    /// Normalised linear interpolation from `a` (`t = 0`) to `b` (`t = 1`) along the shortest arc
    /// (`b` is negated when `a · b < 0`). Cheaper than [`Quat::slerp`], exact at `t` = 0, ½ and 1,
    /// but not at constant angular speed.
    pub fn nlerp(a: Self, b: Self, t: S) -> Self {
        let (b, _) = a.shortest(b);
        Self::lerp4(a, b, t).normalize()
    }

    /// Spherical linear interpolation from `a` (`t = 0`) to `b` (`t = 1`) along the shortest arc
    /// (`b` is negated when `a · b < 0`), at constant angular speed. Falls back to [`Quat::nlerp`]
    /// when the two are less than about 1.8° apart (3.6° of rotation). The result is normalised.
    /// Inputs whose squared length is more than 1/256 from 1 are normalised first (the usual unit
    /// inputs, rounded or quantised, go straight on): the angle is then the rotations' angle, and
    /// components of any finite size stay in range (their dot product overflowed f32, making the
    /// result NaN).
    ///
    /// The great-circle form `a·cos(tθ) + v̂·sin(tθ)` (with `v̂` the unit component of `b`
    /// orthogonal to `a`, and `θ = atan2(|v|, a·b)`) keeps the error of Q16.16 at a few 2⁻¹⁶ for
    /// every angle, instead of dividing by a small `sin θ`.
    ///
    /// ```
    /// use ossicle::math::Quat;
    ///
    /// let a = Quat::IDENTITY;
    /// let b = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
    /// let m = Quat::slerp(a, b, 0.5);
    /// assert!(m.dot(Quat::from_rotation_z(core::f32::consts::FRAC_PI_4)) > 0.999_999);
    /// ```
    pub fn slerp(a: Self, b: Self, t: S) -> Self {
        let (a, b) = (a.near_unit_or_normalized(), b.near_unit_or_normalized());
        let (b, d) = a.shortest(b);
        if d > S::from_ratio(SLERP_NLERP_COS_NUM, SLERP_NLERP_COS_DEN) {
            return Self::lerp4(a, b, t).normalize();
        }
        let v = Self::from_xyzw(b.x.sub(a.x.mul(d)), b.y.sub(a.y.mul(d)), b.z.sub(a.z.mul(d)), b.w.sub(a.w.mul(d)));
        let theta = v.length().atan2(d);
        // `v` is not zero here: `d` <= 0.9995 < |b|, so `b` is not parallel to `a`.
        let m = v.x.abs().max(v.y.abs()).max(v.z.abs()).max(v.w.abs());
        let v = if m == S::ZERO { v } else { Self::from_xyzw(v.x.div(m), v.y.div(m), v.z.div(m), v.w.div(m)) };
        let len = v.length();
        let (st, ct) = theta.mul(t).sin_cos();
        let k = if len == S::ZERO { S::ZERO } else { st.div(len) };
        Self::from_xyzw(
            a.x.mul(ct).add(v.x.mul(k)),
            a.y.mul(ct).add(v.y.mul(k)),
            a.z.mul(ct).add(v.z.mul(k)),
            a.w.mul(ct).add(v.w.mul(k)),
        )
        .normalize()
    }
}

impl<S: Scalar> Mul for Quat<S> {
    type Output = Self;
    /// The Hamilton product (as the inherent `mul`).
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Quat::mul(self, rhs)
    }
}

impl<S: Scalar> Neg for Quat<S> {
    type Output = Self;
    /// All four components negated (as the inherent `neg`).
    #[inline]
    fn neg(self) -> Self {
        Quat::neg(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testutil::*;
    use crate::Q16;
    use core::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    /// The f64 rotation matrix of an Euler order, composed independently: first axis applied first.
    fn euler_matrix(order: EulerOrder, a: f64, b: f64, c: f64) -> M3 {
        let (m1, m2, m3) = match order {
            EulerOrder::XYZ => (rot_x(a), rot_y(b), rot_z(c)),
            EulerOrder::XZY => (rot_x(a), rot_z(b), rot_y(c)),
            EulerOrder::YXZ => (rot_y(a), rot_x(b), rot_z(c)),
            EulerOrder::YZX => (rot_y(a), rot_z(b), rot_x(c)),
            EulerOrder::ZXY => (rot_z(a), rot_x(b), rot_y(c)),
            EulerOrder::ZYX => (rot_z(a), rot_y(b), rot_x(c)),
        };
        mat_mul(m3, mat_mul(m2, m1))
    }

    const ORDERS: [EulerOrder; 6] =
        [EulerOrder::XYZ, EulerOrder::XZY, EulerOrder::YXZ, EulerOrder::YZX, EulerOrder::ZXY, EulerOrder::ZYX];

    fn euler_matches_rotation_matrices<S: Scalar>(tol: Tol) {
        for &(a, b, c) in &[(0.3, -0.7, 1.1), (2.5, 1.2, -2.9), (-1.0, 0.4, 0.05)] {
            for order in ORDERS {
                let q = Quat::<S>::from_euler(order, s(a), s(b), s(c));
                assert_close(q.length(), 1.0, tol.trig);
                let m = euler_matrix(order, a, b, c);
                let cols = q.to_rotation_columns();
                for (j, axis) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
                    assert_v3(cols[j], col(m, j), tol.trig);
                    assert_v3(q.rotate(axis), col(m, j), tol.trig);
                }
                // A point away from the axes.
                let p = [1.5, -2.0, 0.5];
                let want = [
                    m[0][0] * p[0] + m[0][1] * p[1] + m[0][2] * p[2],
                    m[1][0] * p[0] + m[1][1] * p[1] + m[1][2] * p[2],
                    m[2][0] * p[0] + m[2][1] * p[1] + m[2][2] * p[2],
                ];
                assert_v3(q.rotate(v3(p[0], p[1], p[2])), want, 4.0 * tol.trig);
            }
        }
    }

    fn axis_angle<S: Scalar>(tol: Tol) {
        // 90° about Z takes X to Y and Y to −X.
        let q = Quat::<S>::from_rotation_z(s(FRAC_PI_2));
        let h = core::f64::consts::FRAC_1_SQRT_2;
        assert_quat(q, [0.0, 0.0, h, h], tol.trig);
        assert_v3(q.rotate(Vec3::X), [0.0, 1.0, 0.0], tol.trig);
        assert_v3(q.rotate(Vec3::Y), [-1.0, 0.0, 0.0], tol.trig);
        assert_v3(q.rotate(Vec3::Z), [0.0, 0.0, 1.0], tol.trig);
        // 120° about (1, 1, 1) permutes the axes: X → Y → Z → X.
        let q = Quat::<S>::from_axis_angle(v3(2.0, 2.0, 2.0), s(2.0 * PI / 3.0));
        assert_quat(q, [0.5, 0.5, 0.5, 0.5], tol.trig);
        assert_v3(q.rotate(Vec3::X), [0.0, 1.0, 0.0], tol.trig);
        assert_v3(q.rotate(Vec3::Y), [0.0, 0.0, 1.0], tol.trig);
        assert_v3(q.rotate(Vec3::Z), [1.0, 0.0, 0.0], tol.trig);
        let (axis, angle) = q.to_axis_angle();
        let k = 1.0 / 3.0f64.sqrt();
        assert_v3(axis, [k, k, k], tol.trig);
        assert_close(angle, 2.0 * PI / 3.0, tol.trig);
        // The same rotation written with w < 0 reports the same axis and angle.
        let (axis, angle) = q.neg().to_axis_angle();
        assert_v3(axis, [k, k, k], tol.trig);
        assert_close(angle, 2.0 * PI / 3.0, tol.trig);
        assert_eq!(Quat::<S>::IDENTITY.to_axis_angle(), (Vec3::X, S::ZERO));
        // A zero axis gives the identity.
        assert_eq!(Quat::<S>::from_axis_angle(Vec3::ZERO, S::ONE), Quat::IDENTITY);
        // from_rotation_x/y agree with from_axis_angle.
        let a = s::<S>(0.8);
        let (sa, ca) = (0.4f64.sin(), 0.4f64.cos());
        assert_quat(Quat::from_rotation_x(a), [sa, 0.0, 0.0, ca], tol.trig);
        assert_quat(Quat::from_rotation_y(a), [0.0, sa, 0.0, ca], tol.trig);
        assert_quat(Quat::from_axis_angle(v3(0.0, -3.0, 0.0), a), [0.0, -sa, 0.0, ca], tol.trig);
    }

    fn algebra<S: Scalar>(tol: Tol) {
        // Hamilton product of basis units: i·j = k, j·i = −k, k·k = −1.
        let i = Quat::<S>::from_xyzw(S::ONE, S::ZERO, S::ZERO, S::ZERO);
        let j = Quat::<S>::from_xyzw(S::ZERO, S::ONE, S::ZERO, S::ZERO);
        let k = Quat::<S>::from_xyzw(S::ZERO, S::ZERO, S::ONE, S::ZERO);
        assert_eq!(i.mul(j), k);
        assert_eq!(j.mul(i), k.neg());
        assert_eq!(k * k, Quat::IDENTITY.neg());
        assert_eq!(-k, k.neg());
        assert_eq!(Quat::<S>::default(), Quat::IDENTITY);
        // A general product, expanded by hand:
        // (1 + 2i + 3j + 4k)(5 + 6i + 7j + 8k) = −60 + 12i + 30j + 24k; with each factor divided
        // by 4 the product is divided by 16.
        let a = Quat::<S>::from_xyzw(s(0.5), s(0.75), s(1.0), s(0.25));
        let b = Quat::<S>::from_xyzw(s(1.5), s(1.75), s(2.0), s(1.25));
        assert_eq!(a.mul(b), Quat::from_xyzw(s(12.0 / 16.0), s(30.0 / 16.0), s(24.0 / 16.0), s(-60.0 / 16.0)));
        assert_eq!(a.conjugate(), Quat::from_xyzw(s(-0.5), s(-0.75), s(-1.0), s(0.25)));
        // 1·5 + 2·6 + 3·7 + 4·8 = 70, over 16.
        assert_eq!(a.dot(b), s(70.0 / 16.0));
        assert_close(a.length(), 30.0f64.sqrt() / 4.0, tol.exact);
        let n = a.normalize();
        let l = 30.0f64.sqrt();
        assert_quat(n, [2.0 / l, 3.0 / l, 4.0 / l, 1.0 / l], tol.exact);
        assert_eq!(Quat::<S>::from_xyzw(S::ZERO, S::ZERO, S::ZERO, S::ZERO).normalize(), Quat::IDENTITY);
        // q · q⁻¹ = identity, and q⁻¹ undoes the rotation.
        let q = Quat::<S>::from_euler(EulerOrder::YZX, s(0.4), s(-1.3), s(2.2));
        assert_quat(q.mul(q.inverse()), [0.0, 0.0, 0.0, 1.0], tol.trig);
        let p = v3::<S>(0.3, -0.9, 2.0);
        assert_v3(q.inverse().rotate(q.rotate(p)), [0.3, -0.9, 2.0], 4.0 * tol.trig);
        // Composition: (qa·qb) rotates like qa after qb.
        let qa = Quat::<S>::from_rotation_x(s(0.7));
        let qb = Quat::<S>::from_rotation_y(s(-0.2));
        let want = qa.rotate(qb.rotate(p));
        let got = qa.mul(qb).rotate(p);
        assert_v3(got, [want.x.to_f64(), want.y.to_f64(), want.z.to_f64()], 4.0 * tol.trig);
    }

    fn interpolation<S: Scalar>(tol: Tol) {
        let id = Quat::<S>::IDENTITY;
        let q90 = Quat::<S>::from_rotation_z(s(FRAC_PI_2));
        let z = |deg: f64| {
            let h = deg.to_radians() / 2.0;
            [0.0, 0.0, h.sin(), h.cos()]
        };
        // Slerp midpoint of 0° and 90° about Z is 45°; a quarter of the way is 22.5°.
        assert_quat(Quat::slerp(id, q90, s(0.5)), z(45.0), tol.trig);
        assert_quat(Quat::slerp(id, q90, s(0.25)), z(22.5), tol.trig);
        assert_quat(Quat::slerp(id, q90, S::ZERO), z(0.0), tol.trig);
        assert_quat(Quat::slerp(id, q90, S::ONE), z(90.0), tol.trig);
        // nlerp: exact at the midpoint, but not at constant speed: at t = ¼ it is the normalised
        // ¾·(0, 0, 0, 1) + ¼·(0, 0, √½, √½).
        assert_quat(Quat::nlerp(id, q90, s(0.5)), z(45.0), tol.trig);
        let h = core::f64::consts::FRAC_1_SQRT_2;
        let (lz, lw) = (0.25 * h, 0.75 + 0.25 * h);
        let l = (lz * lz + lw * lw).sqrt();
        assert_quat(Quat::nlerp(id, q90, s(0.25)), [0.0, 0.0, lz / l, lw / l], tol.trig);

        // Shortest arc: −q90 is the same rotation, and the interpolation must not take the long way.
        assert_quat(Quat::slerp(id, q90.neg(), s(0.5)), z(45.0), tol.trig);
        assert_quat(Quat::nlerp(id, q90.neg(), s(0.5)), z(45.0), tol.trig);
        // 270° about Z is −90°: halfway is −45°, not 135°.
        let q270 = Quat::<S>::from_rotation_z(s(1.5 * PI));
        assert_quat(Quat::slerp(id, q270, s(0.5)), z(-45.0), tol.trig);
        assert_quat(Quat::nlerp(id, q270, s(0.5)), z(-45.0), tol.trig);
        // From a non-identity start.
        let a = Quat::<S>::from_rotation_z(s(FRAC_PI_4));
        let b = Quat::<S>::from_rotation_z(s(-FRAC_PI_2)).neg();
        // 45° to −90° the short way (135°): a fifth of the way is 45° − 27° = 18°.
        assert_quat(Quat::slerp(a, b, s(0.2)), z(18.0), tol.trig);

        // Tiny angles: slerp falls back to nlerp, still on the arc.
        let a = Quat::<S>::from_rotation_z(s(0.010));
        let b = Quat::<S>::from_rotation_z(s(0.020));
        let m = Quat::slerp(a, b, S::HALF);
        assert_quat(m, [0.0, 0.0, 0.0075f64.sin(), 0.0075f64.cos()], tol.trig);
        assert_eq!(Quat::slerp(a, a, S::HALF), a.normalize());

        // Slerp about a tilted axis, against axis-angle.
        let axis = v3::<S>(1.0, -2.0, 2.0);
        let a = Quat::from_axis_angle(axis, s(0.3));
        let b = Quat::from_axis_angle(axis, s(2.7));
        let k = [1.0 / 3.0, -2.0 / 3.0, 2.0 / 3.0];
        let want = |angle: f64| {
            let (sn, cs) = (angle / 2.0).sin_cos();
            [k[0] * sn, k[1] * sn, k[2] * sn, cs]
        };
        assert_quat(Quat::slerp(a, b, s(0.3)), want(0.3 + 0.3 * 2.4), tol.trig);
        assert_quat(Quat::slerp(a, b, s(0.9)), want(0.3 + 0.9 * 2.4), tol.trig);

        // Inputs off unit length interpolate the rotations they stand for: scaled by 0.5, by 3 or
        // by a factor near the scalar's range (the f32 dot product overflowed: NaN), the same arc.
        for (ka, kb) in [(0.5, 3.0), (3.0, 0.5), (0.03125, 0.75), (1.0, big::<S>()), (big::<S>(), 0.25)] {
            let scale =
                |q: Quat<S>, k: f64| Quat::from_xyzw(q.x.mul(s(k)), q.y.mul(s(k)), q.z.mul(s(k)), q.w.mul(s(k)));
            // Scaling loses a few ulps (Q16.16: up to 2⁻¹⁶ relative to 0.03125 is 2⁻¹¹).
            let t = if ka < 0.1 { tol.trig * 16.0 } else { tol.trig };
            assert_quat(Quat::slerp(scale(a, ka), scale(b, kb), s(0.3)), want(0.3 + 0.3 * 2.4), t);
            assert_quat(Quat::slerp(scale(a, ka), scale(b, kb), s(0.9)), want(0.3 + 0.9 * 2.4), t);
        }
    }

    /// A factor near the top of `S`'s range that keeps a unit quaternion's components finite.
    fn big<S: Scalar>() -> f64 {
        if S::ENCODING == crate::scalar::ScalarEncoding::F32 {
            1e38
        } else {
            16000.0
        }
    }

    /// Rotating large Q16.16 vectors: `rotate` keeps every intermediate vector no longer than the
    /// input (see its docs), so nothing saturates. Tolerance: the quaternion's error (a few 2⁻¹⁶)
    /// times 25000.
    #[test]
    fn q16_large_rotation_does_not_overflow() {
        let q = Quat::<Q16>::from_rotation_z(s(FRAC_PI_2));
        assert_v3(q.rotate(v3(20000.0, 15000.0, -9000.0)), [-15000.0, 20000.0, -9000.0], 2.0);
        let q = Quat::<Q16>::from_rotation_z(s(FRAC_PI_4));
        let r = 20000.0 * core::f64::consts::SQRT_2;
        assert_v3(q.rotate(v3(20000.0, 20000.0, 0.0)), [0.0, r, 0.0], 2.0);
        let q = Quat::<Q16>::from_axis_angle(v3(1.0, 1.0, 1.0), s(2.0 * PI / 3.0));
        assert_v3(q.rotate(v3(30000.0, -30000.0, 10000.0)), [10000.0, 30000.0, -30000.0], 2.0);
    }

    use crate::math::testutil::Xs;
    impl Xs {
        /// A Q16.16 word: unit-range components (some of exactly ±1, some just above), moderate
        /// values, and any value.
        fn word(&mut self) -> Q16 {
            let r = self.next();
            let b = match r & 7 {
                0..=3 => (self.next() as i32) >> 15,
                4 => [0x1_0000, -0x1_0000, 0x1_0001, -0x1_0001, 0, 1, -1, i32::MIN][(r >> 8) as usize & 7],
                5 => (self.next() as i32) >> (r >> 27),
                _ => (self.next() as i32) >> 4,
            };
            Q16::from_bits(b)
        }
    }

    /// The Q16.16 shortcuts of `mul` and `rotate` (`scalar::wide::quat_mul_bits` and
    /// `quat_rotate_bits`, which `Transform3::mul` takes on the Cortex-M0) give the bits of these
    /// general operations whenever their bounds hold, on unit quaternions and on any words.
    #[test]
    fn q16_product_and_rotation_shortcuts_are_bit_identical() {
        use crate::scalar::wide::{quat_mul_bits, quat_rotate_bits};
        let mut x = Xs(0x5EED_1234);
        let mut fast = (0, 0);
        for i in 0..400_000 {
            let (a, b) = if i % 2 == 0 {
                // Unit quaternions from angles (and their rounding).
                let c = |x: &mut Xs| f64::from(x.next() as i32) / 2_147_483_648.0;
                let axis = |x: &mut Xs| v3::<Q16>(c(x), c(x), 0.5);
                let ang = |x: &mut Xs| s(f64::from(x.next() >> 8) / 16_777_216.0 * 7.0 - 3.5);
                let a = Quat::from_axis_angle(axis(&mut x).normalize(), ang(&mut x));
                (a, Quat::from_axis_angle(axis(&mut x).normalize(), ang(&mut x)))
            } else {
                (
                    Quat::from_xyzw(x.word(), x.word(), x.word(), x.word()),
                    Quat::from_xyzw(x.word(), x.word(), x.word(), x.word()),
                )
            };
            let v = Vec3::new(x.word(), x.word(), x.word());
            let t = Vec3::new(s(f64::from(x.next() as i32) / 2e6), s(f64::from(x.next() as i32) / 2e6), x.word());
            let bits = |q: Quat<Q16>| [q.x.to_bits(), q.y.to_bits(), q.z.to_bits(), q.w.to_bits()];
            let vbits = |v: Vec3<Q16>| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
            if let Some(r) = quat_mul_bits(bits(a), bits(b)) {
                assert_eq!(r, bits(a.mul(b)), "{a:?} · {b:?}");
                fast.0 += 1;
            }
            for v in [v, t] {
                if let Some(r) = quat_rotate_bits(bits(a), vbits(v)) {
                    assert_eq!(r, vbits(a.rotate(v)), "{a:?} · {v:?}");
                    fast.1 += 1;
                }
            }
        }
        // Both paths were exercised.
        assert!(fast.0 > 150_000 && fast.0 < 390_000, "{fast:?}");
        assert!(fast.1 > 100_000 && fast.1 < 780_000, "{fast:?}");
    }

    #[test]
    fn euler_matches_rotation_matrices_f32() {
        euler_matches_rotation_matrices::<f32>(Tol::F32);
    }
    #[test]
    fn euler_matches_rotation_matrices_q16() {
        euler_matches_rotation_matrices::<Q16>(Tol::Q16);
    }
    #[test]
    fn axis_angle_f32() {
        axis_angle::<f32>(Tol::F32);
    }
    #[test]
    fn axis_angle_q16() {
        axis_angle::<Q16>(Tol::Q16);
    }
    #[test]
    fn algebra_f32() {
        algebra::<f32>(Tol::F32);
    }
    #[test]
    fn algebra_q16() {
        algebra::<Q16>(Tol::Q16);
    }
    #[test]
    fn interpolation_f32() {
        interpolation::<f32>(Tol::F32);
    }
    #[test]
    fn interpolation_q16() {
        interpolation::<Q16>(Tol::Q16);
    }
}
