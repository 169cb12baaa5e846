//! Translation / rotation / scale transforms, as animation channels store them.

use super::{checked_recip, Affine2, Affine3, Quat, Vec2, Vec3};
use crate::scalar::wide::{quat_mul_bits, quat_rotate_bits, SPLIT};
use crate::scalar::ScalarEncoding;
use crate::Scalar;

/// A 2D transform: scale, then rotate by `angle`, then translate.
///
/// ```
/// use ossicle::math::{Transform2, Vec2};
///
/// let t = Transform2::new(Vec2::new(10.0f32, 0.0), 0.0, Vec2::splat(2.0));
/// assert_eq!(t.transform_point(Vec2::new(1.0, 1.0)), Vec2::new(12.0, 2.0));
/// let back = t.inverse().unwrap().transform_point(Vec2::new(12.0, 2.0));
/// assert_eq!(back, Vec2::new(1.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Transform2<S> {
    /// The translation, applied last.
    pub translation: Vec2<S>,
    /// The counter-clockwise rotation in radians, applied after the scale.
    pub angle: S,
    /// The per-axis scale, applied first (in the local axes).
    pub scale: Vec2<S>,
}

/// A 3D transform: scale, then rotate, then translate.
///
/// ```
/// use ossicle::math::{Quat, Transform3, Vec3};
///
/// let t = Transform3::new(Vec3::new(0.0f32, 0.0, 5.0), Quat::IDENTITY, Vec3::splat(3.0));
/// assert_eq!(t.transform_point(Vec3::X), Vec3::new(3.0, 0.0, 5.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Transform3<S> {
    /// The translation, applied last.
    pub translation: Vec3<S>,
    /// The rotation (a unit quaternion), applied after the scale.
    pub rotation: Quat<S>,
    /// The per-axis scale, applied first (in the local axes).
    pub scale: Vec3<S>,
}

impl<S: Scalar> Default for Transform2<S> {
    /// The identity transform.
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<S: Scalar> Default for Transform3<S> {
    /// The identity transform.
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// The component-wise reciprocal of a scale, or `None` when a component is zero (or, in Q16.16,
/// too small for its reciprocal to be representable).
fn recip2<S: Scalar>(v: Vec2<S>) -> Option<Vec2<S>> {
    Some(Vec2::new(checked_recip(v.x)?, checked_recip(v.y)?))
}

fn recip3<S: Scalar>(v: Vec3<S>) -> Option<Vec3<S>> {
    Some(Vec3::new(checked_recip(v.x)?, checked_recip(v.y)?, checked_recip(v.z)?))
}

impl<S: Scalar> Transform2<S> {
    /// The identity transform: no translation, angle 0, scale 1.
    pub const IDENTITY: Self = Self::new(Vec2::ZERO, S::ZERO, Vec2::ONE);

    /// A transform from its parts.
    #[inline]
    pub const fn new(translation: Vec2<S>, angle: S, scale: Vec2<S>) -> Self {
        Self { translation, angle, scale }
    }

    /// `p` transformed as a point: `translation + R(angle)·(scale ⊙ p)`.
    pub fn transform_point(self, p: Vec2<S>) -> Vec2<S> {
        self.transform_vector(p).add(self.translation)
    }

    /// `v` transformed as a direction or offset (scale and rotation, no translation).
    pub fn transform_vector(self, v: Vec2<S>) -> Vec2<S> {
        let (s, c) = self.angle.sin_cos();
        v.mul_elem(self.scale).rotate_sin_cos(s, c)
    }

    /// `child` expressed in the space of `self` (the parent), composed component-wise (see the
    /// [module documentation](crate::math#composing-trs-transforms)): translation `self.transform_point(child.translation)`,
    /// angle `self.angle + child.angle`, scale `self.scale ⊙ child.scale`. Exact (equal to the
    /// matrix product) when `self.scale` is uniform or `child.angle` is 0.
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, child: Self) -> Self {
        Self::new(
            self.transform_point(child.translation),
            self.angle.add(child.angle),
            self.scale.mul_elem(child.scale),
        )
    }

    /// The inverse for [`Transform2::mul`]: `self.mul(self.inverse())` is the identity. Its
    /// `transform_point` undoes `self.transform_point` exactly when the scale is uniform (for a
    /// non-uniform scale and a non-zero angle the inverse map is not a TRS transform: use
    /// [`Affine2::inverse`]). `None` when a scale component is zero (or its reciprocal is not
    /// representable in Q16.16).
    pub fn inverse(self) -> Option<Self> {
        let inv_scale = recip2(self.scale)?;
        let angle = self.angle.neg();
        let (s, c) = angle.sin_cos();
        let translation = self.translation.rotate_sin_cos(s, c).mul_elem(inv_scale).neg();
        Some(Self::new(translation, angle, inv_scale))
    }

    /// The equivalent 2×3 matrix `T·R·S`.
    pub fn to_affine(self) -> Affine2<S> {
        Affine2::from_scale_angle_translation(self.scale, self.angle, self.translation)
    }

    /// Component-wise linear interpolation of translation, angle and scale (`t` is not clamped;
    /// the angle is interpolated as a number, so 350° to 10° turns the long way round).
    pub fn lerp(a: Self, b: Self, t: S) -> Self {
        Self::new(a.translation.lerp(b.translation, t), a.angle.lerp(b.angle, t), a.scale.lerp(b.scale, t))
    }
}

impl<S: Scalar> Transform3<S> {
    /// The identity transform: no translation, identity rotation, scale 1.
    pub const IDENTITY: Self = Self::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);

    /// A transform from its parts.
    #[inline]
    pub const fn new(translation: Vec3<S>, rotation: Quat<S>, scale: Vec3<S>) -> Self {
        Self { translation, rotation, scale }
    }

    /// `p` transformed as a point: `translation + rotation·(scale ⊙ p)`.
    #[inline]
    pub fn transform_point(self, p: Vec3<S>) -> Vec3<S> {
        self.transform_vector(p).add(self.translation)
    }

    /// `v` transformed as a direction or offset (scale and rotation, no translation).
    #[inline]
    pub fn transform_vector(self, v: Vec3<S>) -> Vec3<S> {
        self.rotation.rotate(v.mul_elem(self.scale))
    }

    /// `child` expressed in the space of `self` (the parent), composed component-wise (see the
    /// [module documentation](crate::math#composing-trs-transforms)): translation `self.transform_point(child.translation)`,
    /// rotation `self.rotation · child.rotation`, scale `self.scale ⊙ child.scale`. Exact (equal to
    /// the matrix product) when `self.scale` is uniform or `child.rotation` is the identity.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, child: Self) -> Self {
        if const { matches!(S::ENCODING, ScalarEncoding::Q16_16) } {
            return self.mul_q16(child);
        }
        Self::new(
            self.transform_point(child.translation),
            self.rotation.mul(child.rotation),
            self.scale.mul_elem(child.scale),
        )
    }

    /// [`Transform3::mul`] in Q16.16 (a separate function, so that the `f32` instance of `mul`
    /// keeps the code it had: its inlining decisions on the Cortex-M0 changed with the Q16.16
    /// branch in its body).
    #[inline(always)]
    fn mul_q16(self, child: Self) -> Self {
        // As `transform_point` (the child's translation scaled, rotated, translated). A Q16.16
        // product by exactly 1 is the other factor (no rounding, no saturation): the same bits
        // without the six products of the scale (a skeleton's usual case).
        let (translation, scale) = if self.scale == Vec3::ONE {
            (child.translation, child.scale)
        } else {
            (child.translation.mul_elem(self.scale), self.scale.mul_elem(child.scale))
        };
        if SPLIT {
            // Without a long multiply: unit quaternions (and a translation of moderate length)
            // prepared once for their products, the same bits as `rotate` and `mul` (see
            // `wide::quat_rotate_bits` and `quat_mul_bits`) in fewer instructions.
            let q = |q: Quat<S>| [q.x.to_q16_bits(), q.y.to_q16_bits(), q.z.to_q16_bits(), q.w.to_q16_bits()];
            let v = [translation.x.to_q16_bits(), translation.y.to_q16_bits(), translation.z.to_q16_bits()];
            if let (Some([x, y, z]), Some([qx, qy, qz, qw])) =
                (quat_rotate_bits(q(self.rotation), v), quat_mul_bits(q(self.rotation), q(child.rotation)))
            {
                let f = S::from_q16_bits;
                return Self::new(
                    Vec3::new(f(x), f(y), f(z)).add(self.translation),
                    Quat::from_xyzw(f(qx), f(qy), f(qz), f(qw)),
                    scale,
                );
            }
        }
        Self::new(self.rotation.rotate(translation).add(self.translation), self.rotation.mul(child.rotation), scale)
    }

    /// The inverse for [`Transform3::mul`]: `self.mul(self.inverse())` is the identity (the
    /// rotation is assumed to be a unit quaternion). Its `transform_point` undoes
    /// `self.transform_point` exactly when the scale is uniform (otherwise use
    /// [`Affine3::inverse`]). `None` when a scale component is zero (or its reciprocal is not
    /// representable in Q16.16).
    pub fn inverse(self) -> Option<Self> {
        let inv_scale = recip3(self.scale)?;
        let rotation = self.rotation.inverse();
        let translation = rotation.rotate(self.translation).mul_elem(inv_scale).neg();
        Some(Self::new(translation, rotation, inv_scale))
    }

    /// The equivalent 3×4 matrix `T·R·S`.
    pub fn to_affine(self) -> Affine3<S> {
        Affine3::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Interpolation for blending poses: translation and scale lerp, rotation [`Quat::nlerp`]
    /// (shortest arc). `t` is not clamped.
    pub fn lerp(a: Self, b: Self, t: S) -> Self {
        Self::new(
            a.translation.lerp(b.translation, t),
            Quat::nlerp(a.rotation, b.rotation, t),
            a.scale.lerp(b.scale, t),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testutil::*;
    use crate::math::EulerOrder;
    use crate::Q16;
    use core::f64::consts::FRAC_PI_2;

    fn assert_t2<S: Scalar>(got: Transform2<S>, want: Transform2<S>, tol: f64) {
        let f = |v: Vec2<S>| [v.x.to_f64(), v.y.to_f64()];
        assert_v2(got.translation, f(want.translation), tol);
        assert_close(got.angle, want.angle.to_f64(), tol);
        assert_v2(got.scale, f(want.scale), tol);
    }

    fn assert_a2<S: Scalar>(got: Affine2<S>, want: Affine2<S>, tol: f64) {
        let f = |v: Vec2<S>| [v.x.to_f64(), v.y.to_f64()];
        assert_v2(got.x_axis, f(want.x_axis), tol);
        assert_v2(got.y_axis, f(want.y_axis), tol);
        assert_v2(got.translation, f(want.translation), tol);
    }

    fn assert_a3<S: Scalar>(got: Affine3<S>, want: Affine3<S>, tol: f64) {
        let f = |v: Vec3<S>| [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()];
        assert_v3(got.x_axis, f(want.x_axis), tol);
        assert_v3(got.y_axis, f(want.y_axis), tol);
        assert_v3(got.z_axis, f(want.z_axis), tol);
        assert_v3(got.translation, f(want.translation), tol);
    }

    fn f2<S: Scalar>(v: Vec2<S>) -> [f64; 2] {
        [v.x.to_f64(), v.y.to_f64()]
    }

    fn f3<S: Scalar>(v: Vec3<S>) -> [f64; 3] {
        [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()]
    }

    fn transform2<S: Scalar>(tol: Tol) {
        let tol4 = 4.0 * tol.trig;
        assert_eq!(Transform2::<S>::default(), Transform2::IDENTITY);
        assert_eq!(Transform2::<S>::IDENTITY.transform_point(v2(3.0, -1.0)), v2(3.0, -1.0));
        // Scale (2, 3), rotate 90°, translate (10, −5): (1, 1) → (2, 3) → (−3, 2) → (7, −3).
        let t = Transform2::<S>::new(v2(10.0, -5.0), s(FRAC_PI_2), v2(2.0, 3.0));
        assert_v2(t.transform_point(Vec2::ONE), [7.0, -3.0], tol4);
        assert_v2(t.transform_vector(Vec2::ONE), [-3.0, 2.0], tol4);
        let p = v2::<S>(0.5, -1.25);
        assert_v2(t.to_affine().transform_point(p), f2(t.transform_point(p)), tol4);

        // Composition with a uniformly scaled parent equals the matrix product.
        let parent = Transform2::<S>::new(v2(1.0, 2.0), s(0.6), v2(1.5, 1.5));
        let child = Transform2::<S>::new(v2(-2.0, 0.5), s(-1.9), v2(0.5, 2.0));
        let c = parent.mul(child);
        assert_close(c.angle, 0.6 - 1.9, tol.exact);
        assert_v2(c.scale, [0.75, 3.0], tol.exact);
        assert_a2(c.to_affine(), parent.to_affine().mul(child.to_affine()), tol4);
        assert_v2(c.transform_point(p), f2(parent.transform_point(child.transform_point(p))), tol4);
        // Hand-computed: child.translation (−2, 0.5) × 1.5 = (−3, 0.75), rotated by 0.6 rad, + (1, 2).
        let (sn, cs) = 0.6f64.sin_cos();
        assert_v2(c.translation, [1.0 + -3.0 * cs - 0.75 * sn, 2.0 + -3.0 * sn + 0.75 * cs], tol4);

        // A non-uniform parent scale is still exact for an unrotated child…
        let parent = Transform2::<S>::new(v2(1.0, 2.0), s(0.6), v2(2.0, -0.5));
        let child = Transform2::<S>::new(v2(-2.0, 0.5), S::ZERO, v2(0.5, 2.0));
        let c = parent.mul(child);
        assert_a2(c.to_affine(), parent.to_affine().mul(child.to_affine()), tol4);
        // …and for a rotated child it is the documented component-wise composition.
        let child = Transform2::<S>::new(v2(-2.0, 0.5), s(0.3), v2(0.5, 2.0));
        let c = parent.mul(child);
        assert_v2(c.translation, f2(parent.transform_point(child.translation)), tol.exact);
        assert_close(c.angle, 0.9, tol.exact);
        assert_v2(c.scale, [1.0, -1.0], tol.exact);

        // Inverse: compose then inverse round-trips.
        let a = Transform2::<S>::new(v2(3.0, -1.0), s(2.2), v2(0.8, 0.8));
        let b = Transform2::<S>::new(v2(-0.5, 4.0), s(-0.7), v2(-1.25, -1.25));
        let ab = a.mul(b);
        let inv = ab.inverse().unwrap();
        assert_t2(ab.mul(inv), Transform2::IDENTITY, tol4);
        assert_t2(inv.mul(ab), Transform2::IDENTITY, tol4);
        assert_t2(inv, b.inverse().unwrap().mul(a.inverse().unwrap()), tol4);
        let q = ab.transform_point(p);
        assert_v2(inv.transform_point(q), f2(p), tol4);
        // Hand-computed inverse of a uniform scale and a translation.
        let t = Transform2::<S>::new(v2(4.0, -2.0), S::ZERO, v2(2.0, 2.0));
        assert_t2(t.inverse().unwrap(), Transform2::new(v2(-2.0, 1.0), S::ZERO, v2(0.5, 0.5)), tol.exact);
        // self · self⁻¹ = identity even for a non-uniform scale.
        let t = Transform2::<S>::new(v2(1.0, 2.0), s(0.6), v2(2.0, -0.5));
        assert_t2(t.mul(t.inverse().unwrap()), Transform2::IDENTITY, tol4);
        // A zero scale has no inverse.
        let z = Transform2::<S>::new(Vec2::ONE, S::ONE, v2(1.0, 0.0));
        assert_eq!(z.inverse(), None);

        // Lerp.
        let l = Transform2::lerp(a, b, s(0.25));
        assert_v2(l.translation, [3.0 - 0.25 * 3.5, -1.0 + 0.25 * 5.0], tol.exact);
        assert_close(l.angle, 2.2 - 0.25 * 2.9, tol.exact);
        assert_v2(l.scale, [0.8 - 0.25 * 2.05, 0.8 - 0.25 * 2.05], tol.exact);
    }

    fn transform3<S: Scalar>(tol: Tol) {
        let tol4 = 4.0 * tol.trig;
        assert_eq!(Transform3::<S>::default(), Transform3::IDENTITY);
        // Scale (2, 3, 4), rotate 90° about Z, translate (1, 2, 3): (1, 1, 1) → (2, 3, 4)
        // → (−3, 2, 4) → (−2, 4, 7).
        let t = Transform3::<S>::new(v3(1.0, 2.0, 3.0), Quat::from_rotation_z(s(FRAC_PI_2)), v3(2.0, 3.0, 4.0));
        assert_v3(t.transform_point(Vec3::ONE), [-2.0, 4.0, 7.0], tol4);
        assert_v3(t.transform_vector(Vec3::ONE), [-3.0, 2.0, 4.0], tol4);
        let p = v3::<S>(0.5, -1.25, 0.75);
        assert_v3(t.to_affine().transform_point(p), f3(t.transform_point(p)), tol4);

        // Uniformly scaled parent: equals the matrix product.
        let parent = Transform3::<S>::new(
            v3(1.0, -2.0, 0.5),
            Quat::from_euler(EulerOrder::XYZ, s(0.3), s(-0.8), s(1.2)),
            v3(1.5, 1.5, 1.5),
        );
        let child = Transform3::<S>::new(
            v3(-1.0, 0.5, 2.0),
            Quat::from_euler(EulerOrder::ZXY, s(-1.0), s(0.4), s(2.5)),
            v3(0.5, 2.0, -1.0),
        );
        let c = parent.mul(child);
        assert_a3(c.to_affine(), parent.to_affine().mul(child.to_affine()), 2.0 * tol4);
        assert_v3(c.transform_point(p), f3(parent.transform_point(child.transform_point(p))), 2.0 * tol4);
        assert_v3(c.scale, [0.75, 3.0, -1.5], tol.exact);

        // Non-uniform parent scale with an unrotated child: still exact.
        let parent = Transform3::<S>::new(parent.translation, parent.rotation, v3(2.0, 0.5, -1.0));
        let child = Transform3::<S>::new(v3(-1.0, 0.5, 2.0), Quat::IDENTITY, v3(0.5, 2.0, -1.0));
        let c = parent.mul(child);
        assert_a3(c.to_affine(), parent.to_affine().mul(child.to_affine()), 2.0 * tol4);

        // Compose then inverse round-trips.
        let a = Transform3::<S>::new(
            v3(3.0, -1.0, 0.25),
            Quat::from_axis_angle(v3(1.0, 2.0, -2.0), s(2.0)),
            v3(0.8, 0.8, 0.8),
        );
        let b = Transform3::<S>::new(v3(-0.5, 1.0, 2.0), Quat::from_rotation_y(s(-0.7)), v3(-1.25, -1.25, -1.25));
        let ab = a.mul(b);
        let inv = ab.inverse().unwrap();
        let id = |t: Transform3<S>| {
            assert_v3(t.translation, [0.0; 3], 2.0 * tol4);
            assert_quat(t.rotation, [0.0, 0.0, 0.0, 1.0], tol4);
            assert_v3(t.scale, [1.0; 3], tol4);
        };
        id(ab.mul(inv));
        id(inv.mul(ab));
        let q = ab.transform_point(p);
        assert_v3(inv.transform_point(q), f3(p), 2.0 * tol4);
        assert_a3(inv.to_affine(), ab.to_affine().inverse().unwrap(), 2.0 * tol4);
        // Hand-computed inverse of a uniform scale and a translation.
        let t = Transform3::<S>::new(v3(4.0, -2.0, 1.0), Quat::IDENTITY, v3(2.0, 2.0, 2.0));
        assert_eq!(t.inverse(), Some(Transform3::new(v3(-2.0, 1.0, -0.5), Quat::IDENTITY, v3(0.5, 0.5, 0.5))));
        // A zero scale has no inverse.
        let z = Transform3::<S>::new(Vec3::ONE, Quat::IDENTITY, v3(1.0, 1.0, 0.0));
        assert_eq!(z.inverse(), None);

        // Lerp: translation and scale linear, rotation nlerp along the shortest arc.
        let a = Transform3::<S>::new(v3(0.0, 2.0, 4.0), Quat::IDENTITY, v3(1.0, 1.0, 1.0));
        let b = Transform3::<S>::new(v3(2.0, 0.0, 4.0), Quat::from_rotation_z(s(FRAC_PI_2)).neg(), v3(3.0, 2.0, 1.0));
        let m = Transform3::lerp(a, b, S::HALF);
        assert_v3(m.translation, [1.0, 1.0, 4.0], tol.exact);
        assert_v3(m.scale, [2.0, 1.5, 1.0], tol.exact);
        let h = core::f64::consts::FRAC_PI_8;
        assert_quat(m.rotation, [0.0, 0.0, h.sin(), h.cos()], tol.trig);
    }

    /// The Q16.16 shortcut of `Transform3::mul` for a parent of scale exactly 1 gives the bits of
    /// the general composition (its products by 1 are exact).
    #[test]
    fn q16_unit_scale_composition_is_bit_identical() {
        let general = |p: Transform3<Q16>, c: Transform3<Q16>| {
            Transform3::new(p.transform_point(c.translation), p.rotation.mul(c.rotation), p.scale.mul_elem(c.scale))
        };
        let mut seed = 0x2468_ACE1u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            f64::from(seed as i32) / 2_147_483_648.0
        };
        for i in 0..20_000 {
            let big = if i % 4 == 0 { 30000.0 } else { 200.0 };
            let q = |n: &mut dyn FnMut() -> f64| {
                let axis = v3::<Q16>(n(), n(), n() + 0.01).normalize();
                Quat::from_axis_angle(axis, s(n() * 3.0))
            };
            let parent = Transform3::new(v3(next() * big, next() * big, next() * big), q(&mut next), Vec3::ONE);
            let child = Transform3::new(
                v3(next() * big, next() * big, next() * big),
                q(&mut next),
                v3(1.0 + next(), 1.0, next() * 4.0),
            );
            assert_eq!(parent.mul(child), general(parent, child), "{parent:?} · {child:?}");
        }
    }

    #[test]
    fn transform2_f32() {
        transform2::<f32>(Tol::F32);
    }
    #[test]
    fn transform2_q16() {
        transform2::<Q16>(Tol::Q16);
    }
    #[test]
    fn transform3_f32() {
        transform3::<f32>(Tol::F32);
    }
    #[test]
    fn transform3_q16() {
        transform3::<Q16>(Tol::Q16);
    }
}
