//! Affine matrices: 2×3 for 2D, 3×4 for 3D (linear part plus translation).

use core::ops::Mul;

use super::{checked_recip, Quat, Vec2, Vec3};
use crate::Scalar;

/// A 2D affine transform: the 2×3 matrix
///
/// ```text
/// | x_axis.x  y_axis.x  translation.x |
/// | x_axis.y  y_axis.y  translation.y |
/// ```
///
/// stored by columns: a point `p` maps to `x_axis·p.x + y_axis·p.y + translation`. Unlike
/// [`Transform2`](super::Transform2) it represents any combination of rotations, non-uniform scales
/// and shears exactly, so it is what composed hierarchies should be evaluated with.
///
/// ```
/// use ossicle::math::{Affine2, Vec2};
///
/// let m = Affine2::from_translation(Vec2::new(1.0f32, 2.0)).mul(Affine2::from_scale(Vec2::splat(3.0)));
/// assert_eq!(m.transform_point(Vec2::ONE), Vec2::new(4.0, 5.0));
/// assert_eq!(m.inverse().unwrap().transform_point(Vec2::new(4.0, 5.0)), Vec2::ONE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Affine2<S> {
    /// The first column: the image of the unit X vector.
    pub x_axis: Vec2<S>,
    /// The second column: the image of the unit Y vector.
    pub y_axis: Vec2<S>,
    /// The third column: the image of the origin.
    pub translation: Vec2<S>,
}

/// A 3D affine transform: the 3×4 matrix `[x_axis y_axis z_axis translation]` stored by columns;
/// a point `p` maps to `x_axis·p.x + y_axis·p.y + z_axis·p.z + translation`.
///
/// ```
/// use ossicle::math::{Affine3, Vec3};
///
/// let m = Affine3::from_scale(Vec3::new(2.0f32, 4.0, 8.0));
/// assert_eq!(m.determinant(), 64.0);
/// assert_eq!(m.inverse().unwrap().transform_point(Vec3::splat(8.0)), Vec3::new(4.0, 2.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Affine3<S> {
    /// The first column: the image of the unit X vector.
    pub x_axis: Vec3<S>,
    /// The second column: the image of the unit Y vector.
    pub y_axis: Vec3<S>,
    /// The third column: the image of the unit Z vector.
    pub z_axis: Vec3<S>,
    /// The fourth column: the image of the origin.
    pub translation: Vec3<S>,
}

/// A 3D affine transform stored as its **4×4 homogeneous matrix**, column by column: the same
/// twelve numbers as an [`Affine3`] plus a fourth row that is always `(0, 0, 0, 1)`, so that each
/// column is four numbers (16-byte aligned in f32 and Q16.16).
///
/// This is the layout skinning palettes are uploaded in (a column-major `mat4`, or the first
/// three rows of it), and the one [`SoaLocalToModelJob`](crate::skeleton::SoaLocalToModelJob)
/// writes fastest: its columns are whole SIMD vectors, so a parent read back from the output
/// needs no repacking. Convert to and from [`Affine3`] with [`Affine3A::from_affine`] /
/// [`Affine3A::to_affine`] (or `From`), which copy the twelve numbers unchanged.
///
/// The fourth row is not stored by the caller (the type has no public fields), so it is
/// `(0, 0, 0, 1)` in every value, whatever the other numbers are (NaN included).
///
/// ```
/// use ossicle::math::{Affine3, Affine3A, Vec3};
///
/// let m = Affine3::from_translation(Vec3::new(1.0f32, 2.0, 3.0));
/// let a = Affine3A::from(m);
/// // Column-major 4×4: the translation is the fourth column, the fourth row is (0, 0, 0, 1).
/// assert_eq!(a.cols()[3], [1.0, 2.0, 3.0, 1.0]);
/// assert_eq!(a.cols()[0], [1.0, 0.0, 0.0, 0.0]);
/// assert_eq!(a.to_cols_array()[12..], [1.0, 2.0, 3.0, 1.0]);
/// assert_eq!(a.to_affine(), m);
/// assert_eq!(a.transform_point(Vec3::ZERO), Vec3::new(1.0, 2.0, 3.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C, align(16))]
pub struct Affine3A<S> {
    /// x axis, y axis, z axis, translation; each `[x, y, z, w]` with `w` 0 for the axes and 1
    /// for the translation.
    cols: [[S; 4]; 4],
}

impl<S: Scalar> Default for Affine2<S> {
    /// The identity transform.
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<S: Scalar> Default for Affine3<S> {
    /// The identity transform.
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<S: Scalar> Default for Affine3A<S> {
    /// The identity transform.
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<S: Scalar> Affine2<S> {
    /// The identity transform.
    pub const IDENTITY: Self = Self::from_cols(Vec2::X, Vec2::Y, Vec2::ZERO);

    /// A transform from its three columns.
    #[inline]
    pub const fn from_cols(x_axis: Vec2<S>, y_axis: Vec2<S>, translation: Vec2<S>) -> Self {
        Self { x_axis, y_axis, translation }
    }

    /// A translation.
    #[inline]
    pub const fn from_translation(translation: Vec2<S>) -> Self {
        Self::from_cols(Vec2::X, Vec2::Y, translation)
    }

    /// A counter-clockwise rotation by `angle` radians about the origin.
    pub fn from_angle(angle: S) -> Self {
        let (s, c) = angle.sin_cos();
        Self::from_cols(Vec2::new(c, s), Vec2::new(s.neg(), c), Vec2::ZERO)
    }

    /// A per-axis scale about the origin.
    #[inline]
    pub fn from_scale(scale: Vec2<S>) -> Self {
        Self::from_cols(Vec2::new(scale.x, S::ZERO), Vec2::new(S::ZERO, scale.y), Vec2::ZERO)
    }

    /// Scale, then rotate by `angle` radians, then translate: `T·R·S`.
    pub fn from_scale_angle_translation(scale: Vec2<S>, angle: S, translation: Vec2<S>) -> Self {
        let (s, c) = angle.sin_cos();
        Self::from_cols(Vec2::new(c, s).scale(scale.x), Vec2::new(s.neg(), c).scale(scale.y), translation)
    }

    /// The composition `self · rhs`: the transform that applies `rhs` first, then `self` (for a
    /// hierarchy, `parent.mul(child)` maps child-local coordinates to the parent's space).
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        Self::from_cols(
            self.transform_vector(rhs.x_axis),
            self.transform_vector(rhs.y_axis),
            self.transform_point(rhs.translation),
        )
    }

    /// `p` transformed as a point (with the translation).
    #[inline]
    pub fn transform_point(self, p: Vec2<S>) -> Vec2<S> {
        self.transform_vector(p).add(self.translation)
    }

    /// `v` transformed as a direction or offset (without the translation).
    #[inline]
    pub fn transform_vector(self, v: Vec2<S>) -> Vec2<S> {
        self.x_axis.scale(v.x).add(self.y_axis.scale(v.y))
    }

    /// The determinant of the 2×2 linear part (the signed area scale factor).
    #[inline]
    pub fn determinant(self) -> S {
        self.x_axis.cross(self.y_axis)
    }

    /// The inverse transform, or `None` when the matrix is singular: its determinant is zero (or
    /// so small that its reciprocal is not representable, e.g. below 2⁻¹⁵ in Q16.16).
    ///
    /// In Q16.16 entries of the inverse that exceed the range saturate.
    pub fn inverse(self) -> Option<Self> {
        let det = self.determinant();
        checked_recip(det)?;
        let (a, c) = (self.x_axis.x, self.x_axis.y);
        let (b, d) = (self.y_axis.x, self.y_axis.y);
        // inverse of [[a, b], [c, d]] is [[d, −b], [−c, a]] / det.
        let x_axis = Vec2::new(d.div(det), c.neg().div(det));
        let y_axis = Vec2::new(b.neg().div(det), a.div(det));
        let linear = Self::from_cols(x_axis, y_axis, Vec2::ZERO);
        let translation = linear.transform_vector(self.translation).neg();
        Some(Self::from_cols(x_axis, y_axis, translation))
    }
}

impl<S: Scalar> Affine3<S> {
    /// The identity transform.
    pub const IDENTITY: Self = Self::from_cols(Vec3::X, Vec3::Y, Vec3::Z, Vec3::ZERO);

    /// A transform from its four columns.
    #[inline]
    pub const fn from_cols(x_axis: Vec3<S>, y_axis: Vec3<S>, z_axis: Vec3<S>, translation: Vec3<S>) -> Self {
        Self { x_axis, y_axis, z_axis, translation }
    }

    /// A translation.
    #[inline]
    pub const fn from_translation(translation: Vec3<S>) -> Self {
        Self::from_cols(Vec3::X, Vec3::Y, Vec3::Z, translation)
    }

    /// The rotation of a unit quaternion.
    pub fn from_quat(rotation: Quat<S>) -> Self {
        let [x, y, z] = rotation.to_rotation_columns();
        Self::from_cols(x, y, z, Vec3::ZERO)
    }

    /// A per-axis scale about the origin.
    #[inline]
    pub fn from_scale(scale: Vec3<S>) -> Self {
        Self::from_cols(
            Vec3::new(scale.x, S::ZERO, S::ZERO),
            Vec3::new(S::ZERO, scale.y, S::ZERO),
            Vec3::new(S::ZERO, S::ZERO, scale.z),
            Vec3::ZERO,
        )
    }

    /// Scale, then rotate, then translate: `T·R·S`.
    pub fn from_scale_rotation_translation(scale: Vec3<S>, rotation: Quat<S>, translation: Vec3<S>) -> Self {
        let [x, y, z] = rotation.to_rotation_columns();
        Self::from_cols(x.scale(scale.x), y.scale(scale.y), z.scale(scale.z), translation)
    }

    /// The composition `self · rhs`: the transform that applies `rhs` first, then `self`.
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        Self::from_cols(
            self.transform_vector(rhs.x_axis),
            self.transform_vector(rhs.y_axis),
            self.transform_vector(rhs.z_axis),
            self.transform_point(rhs.translation),
        )
    }

    /// `p` transformed as a point (with the translation).
    #[inline]
    pub fn transform_point(self, p: Vec3<S>) -> Vec3<S> {
        self.transform_vector(p).add(self.translation)
    }

    /// `v` transformed as a direction or offset (without the translation).
    #[inline]
    pub fn transform_vector(self, v: Vec3<S>) -> Vec3<S> {
        self.x_axis.scale(v.x).add(self.y_axis.scale(v.y)).add(self.z_axis.scale(v.z))
    }

    /// The determinant of the 3×3 linear part, `x_axis · (y_axis × z_axis)` (the signed volume
    /// scale factor).
    #[inline]
    pub fn determinant(self) -> S {
        self.x_axis.dot(self.y_axis.cross(self.z_axis))
    }

    /// The inverse transform, or `None` when the 3×3 part is singular: its determinant is zero (or
    /// so small that its reciprocal is not representable, e.g. below 2⁻¹⁵ in Q16.16).
    ///
    /// The rows of the inverse 3×3 part are `y×z`, `z×x` and `x×y` (of the columns) divided by the
    /// determinant. In Q16.16 entries that exceed the range saturate.
    pub fn inverse(self) -> Option<Self> {
        let det = self.determinant();
        checked_recip(det)?;
        let (x, y, z) = (self.x_axis, self.y_axis, self.z_axis);
        let r0 = y.cross(z);
        let r1 = z.cross(x);
        let r2 = x.cross(y);
        let x_axis = Vec3::new(r0.x.div(det), r1.x.div(det), r2.x.div(det));
        let y_axis = Vec3::new(r0.y.div(det), r1.y.div(det), r2.y.div(det));
        let z_axis = Vec3::new(r0.z.div(det), r1.z.div(det), r2.z.div(det));
        let linear = Self::from_cols(x_axis, y_axis, z_axis, Vec3::ZERO);
        let translation = linear.transform_vector(self.translation).neg();
        Some(Self::from_cols(x_axis, y_axis, z_axis, translation))
    }
}

impl<S: Scalar> Affine3A<S> {
    /// The identity transform.
    pub const IDENTITY: Self = Self::from_affine(Affine3::IDENTITY);

    /// The transform whose twelve numbers are `m`'s (and whose fourth row is `(0, 0, 0, 1)`).
    #[inline]
    pub const fn from_affine(m: Affine3<S>) -> Self {
        Self::from_cols(m.x_axis, m.y_axis, m.z_axis, m.translation)
    }

    /// A transform from its three axes and its translation (as [`Affine3::from_cols`]).
    #[inline]
    pub const fn from_cols(x_axis: Vec3<S>, y_axis: Vec3<S>, z_axis: Vec3<S>, translation: Vec3<S>) -> Self {
        let (o, l) = (S::ZERO, S::ONE);
        Self {
            cols: [
                [x_axis.x, x_axis.y, x_axis.z, o],
                [y_axis.x, y_axis.y, y_axis.z, o],
                [z_axis.x, z_axis.y, z_axis.z, o],
                [translation.x, translation.y, translation.z, l],
            ],
        }
    }

    /// The matrix with these columns as they are (the caller keeps the fourth row).
    #[inline(always)]
    pub(crate) const fn from_padded(cols: [[S; 4]; 4]) -> Self {
        Self { cols }
    }

    /// The [`Affine3`] with the same twelve numbers.
    #[inline]
    pub const fn to_affine(&self) -> Affine3<S> {
        let [[xx, xy, xz, _], [yx, yy, yz, _], [zx, zy, zz, _], [tx, ty, tz, _]] = self.cols;
        Affine3::from_cols(Vec3::new(xx, xy, xz), Vec3::new(yx, yy, yz), Vec3::new(zx, zy, zz), Vec3::new(tx, ty, tz))
    }

    /// The four columns of the 4×4 matrix (x axis, y axis, z axis, translation), each
    /// `[x, y, z, w]` with `w` 0 for the axes and 1 for the translation: a column-major `mat4`.
    #[inline]
    pub const fn cols(&self) -> &[[S; 4]; 4] {
        &self.cols
    }

    /// The sixteen numbers of the 4×4 matrix, column by column (as [`Affine3A::cols`]).
    #[inline]
    pub fn to_cols_array(&self) -> [S; 16] {
        let [a, b, c, d] = self.cols;
        let mut out = [S::ZERO; 16];
        for (o, v) in out.iter_mut().zip(a.into_iter().chain(b).chain(c).chain(d)) {
            *o = v;
        }
        out
    }

    /// The first column: the image of the unit X vector.
    #[inline]
    pub const fn x_axis(&self) -> Vec3<S> {
        self.to_affine().x_axis
    }

    /// The second column: the image of the unit Y vector.
    #[inline]
    pub const fn y_axis(&self) -> Vec3<S> {
        self.to_affine().y_axis
    }

    /// The third column: the image of the unit Z vector.
    #[inline]
    pub const fn z_axis(&self) -> Vec3<S> {
        self.to_affine().z_axis
    }

    /// The fourth column: the image of the origin.
    #[inline]
    pub const fn translation(&self) -> Vec3<S> {
        self.to_affine().translation
    }

    /// `p` transformed as a point (as [`Affine3::transform_point`]).
    #[inline]
    pub fn transform_point(&self, p: Vec3<S>) -> Vec3<S> {
        self.to_affine().transform_point(p)
    }

    /// `v` transformed as a direction or offset (as [`Affine3::transform_vector`]).
    #[inline]
    pub fn transform_vector(&self, v: Vec3<S>) -> Vec3<S> {
        self.to_affine().transform_vector(v)
    }
}

impl<S: Scalar> From<Affine3<S>> for Affine3A<S> {
    /// [`Affine3A::from_affine`].
    #[inline]
    fn from(m: Affine3<S>) -> Self {
        Self::from_affine(m)
    }
}

impl<S: Scalar> From<Affine3A<S>> for Affine3<S> {
    /// [`Affine3A::to_affine`].
    #[inline]
    fn from(m: Affine3A<S>) -> Self {
        m.to_affine()
    }
}

impl<S: Scalar> Mul for Affine2<S> {
    type Output = Self;
    /// The composition `self · rhs` (as the inherent `mul`).
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Affine2::mul(self, rhs)
    }
}

impl<S: Scalar> Mul for Affine3<S> {
    type Output = Self;
    /// The composition `self · rhs` (as the inherent `mul`).
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Affine3::mul(self, rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testutil::*;
    use crate::math::EulerOrder;
    use crate::Q16;
    use core::f64::consts::FRAC_PI_2;

    fn assert_affine2<S: Scalar>(got: Affine2<S>, want: Affine2<S>, tol: f64) {
        let f = |v: Vec2<S>| [v.x.to_f64(), v.y.to_f64()];
        assert_v2(got.x_axis, f(want.x_axis), tol);
        assert_v2(got.y_axis, f(want.y_axis), tol);
        assert_v2(got.translation, f(want.translation), tol);
    }

    fn assert_affine3<S: Scalar>(got: Affine3<S>, want: Affine3<S>, tol: f64) {
        let f = |v: Vec3<S>| [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()];
        assert_v3(got.x_axis, f(want.x_axis), tol);
        assert_v3(got.y_axis, f(want.y_axis), tol);
        assert_v3(got.z_axis, f(want.z_axis), tol);
        assert_v3(got.translation, f(want.translation), tol);
    }

    fn affine2<S: Scalar>(tol: Tol) {
        // Scale (2, 3), rotate 90°, translate (10, −5): (1, 1) → (2, 3) → (−3, 2) → (7, −3).
        let m = Affine2::<S>::from_scale_angle_translation(v2(2.0, 3.0), s(FRAC_PI_2), v2(10.0, -5.0));
        assert_v2(m.transform_point(Vec2::ONE), [7.0, -3.0], 4.0 * tol.trig);
        assert_v2(m.transform_vector(Vec2::ONE), [-3.0, 2.0], 4.0 * tol.trig);
        assert_close(m.determinant(), 6.0, 4.0 * tol.trig);
        // The same thing composed from the elementary transforms.
        let composed = Affine2::from_translation(v2(10.0, -5.0))
            .mul(Affine2::from_angle(s(FRAC_PI_2)))
            .mul(Affine2::from_scale(v2(2.0, 3.0)));
        assert_affine2(composed, m, 4.0 * tol.trig);
        assert_eq!(Affine2::<S>::default(), Affine2::IDENTITY);

        // A general matrix with shear: [[2, 1, 0.5], [−1, 3, −2]], det = 2·3 − 1·(−1) = 7.
        let a = Affine2::<S>::from_cols(v2(2.0, -1.0), v2(1.0, 3.0), v2(0.5, -2.0));
        assert_eq!(a.determinant(), s(7.0));
        // (1, 2) → (2 + 2 + 0.5, −1 + 6 − 2) = (4.5, 3).
        assert_eq!(a.transform_point(v2(1.0, 2.0)), v2(4.5, 3.0));
        let inv = a.inverse().unwrap();
        // [[3, −1], [1, 2]] / 7, translation −inv·(0.5, −2) = −(3.5/7, −3.5/7) = (−0.5, 0.5).
        assert_v2(inv.x_axis, [3.0 / 7.0, 1.0 / 7.0], tol.exact);
        assert_v2(inv.y_axis, [-1.0 / 7.0, 2.0 / 7.0], tol.exact);
        assert_v2(inv.translation, [-0.5, 0.5], tol.exact);
        assert_affine2(inv.mul(a), Affine2::IDENTITY, tol.exact);
        assert_affine2(a * inv, Affine2::IDENTITY, tol.exact);
        assert_v2(inv.transform_point(v2(4.5, 3.0)), [1.0, 2.0], tol.exact);

        // Composition order: (a · m)(p) = a(m(p)).
        let p = v2::<S>(0.25, -1.5);
        let want = a.transform_point(m.transform_point(p));
        assert_v2(a.mul(m).transform_point(p), [want.x.to_f64(), want.y.to_f64()], 4.0 * tol.exact);

        // Rotation + non-uniform scale inverse.
        let inv = m.inverse().unwrap();
        assert_affine2(inv.mul(m), Affine2::IDENTITY, 4.0 * tol.trig);
        assert_affine2(m.mul(inv), Affine2::IDENTITY, 4.0 * tol.trig);

        // Singular matrices have no inverse.
        let singular = Affine2::<S>::from_cols(v2(1.0, 2.0), v2(2.0, 4.0), v2(3.0, 3.0));
        assert_eq!(singular.determinant(), S::ZERO);
        assert_eq!(singular.inverse(), None);
        assert_eq!(Affine2::<S>::from_scale(v2(2.0, 0.0)).inverse(), None);
        assert_eq!(Affine2::<S>::from_cols(Vec2::ZERO, Vec2::ZERO, Vec2::ONE).inverse(), None);
    }

    fn affine3<S: Scalar>(tol: Tol) {
        assert_eq!(Affine3::<S>::default(), Affine3::IDENTITY);
        // [[1, 2, 0], [0, 1, 3], [4, 0, 1]] (rows): det = 1·(1·1 − 3·0) − 2·(0·1 − 3·4) + 0 = 25.
        let a = Affine3::<S>::from_cols(v3(1.0, 0.0, 4.0), v3(2.0, 1.0, 0.0), v3(0.0, 3.0, 1.0), v3(1.0, -2.0, 0.5));
        assert_eq!(a.determinant(), s(25.0));
        // (1, 1, 1) → (3 + 1, 4 − 2, 5 + 0.5).
        assert_eq!(a.transform_point(Vec3::ONE), v3(4.0, 2.0, 5.5));
        let inv = a.inverse().unwrap();
        // Adjugate of the rows above, transposed cofactors, over 25:
        // [[1, −2, 6], [12, 1, −3], [−4, 8, 1]] / 25.
        assert_v3(inv.x_axis, [1.0 / 25.0, 12.0 / 25.0, -4.0 / 25.0], tol.exact);
        assert_v3(inv.y_axis, [-2.0 / 25.0, 1.0 / 25.0, 8.0 / 25.0], tol.exact);
        assert_v3(inv.z_axis, [6.0 / 25.0, -3.0 / 25.0, 1.0 / 25.0], tol.exact);
        assert_affine3(inv.mul(a), Affine3::IDENTITY, 4.0 * tol.exact);
        assert_affine3(a * inv, Affine3::IDENTITY, 4.0 * tol.exact);
        assert_v3(inv.transform_point(v3(4.0, 2.0, 5.5)), [1.0, 1.0, 1.0], 4.0 * tol.exact);

        // T·R·S against the f64 rotation matrix.
        let (ea, eb, ec) = (0.4, -1.1, 2.0);
        let q = Quat::<S>::from_euler(EulerOrder::ZYX, s(ea), s(eb), s(ec));
        let r = mat_mul(rot_x(ec), mat_mul(rot_y(eb), rot_z(ea)));
        let scale = [2.0, 0.5, -1.5];
        let m = Affine3::<S>::from_scale_rotation_translation(v3(scale[0], scale[1], scale[2]), q, v3(-3.0, 1.0, 2.0));
        for (j, axis) in [m.x_axis, m.y_axis, m.z_axis].into_iter().enumerate() {
            let c = col(r, j);
            assert_v3(axis, [c[0] * scale[j], c[1] * scale[j], c[2] * scale[j]], 4.0 * tol.trig);
        }
        assert_close(m.determinant(), 2.0 * 0.5 * -1.5, 8.0 * tol.trig);
        let composed = Affine3::from_translation(v3(-3.0, 1.0, 2.0))
            .mul(Affine3::from_quat(q))
            .mul(Affine3::from_scale(v3(scale[0], scale[1], scale[2])));
        assert_affine3(composed, m, 4.0 * tol.trig);
        let inv = m.inverse().unwrap();
        assert_affine3(inv.mul(m), Affine3::IDENTITY, 8.0 * tol.trig);
        assert_affine3(m.mul(inv), Affine3::IDENTITY, 8.0 * tol.trig);
        // Composition order.
        let p = v3::<S>(0.5, -0.25, 1.0);
        let want = a.transform_point(m.transform_point(p));
        assert_v3(a.mul(m).transform_point(p), [want.x.to_f64(), want.y.to_f64(), want.z.to_f64()], 8.0 * tol.trig);

        // Singular: z = x + y.
        let singular = Affine3::<S>::from_cols(v3(1.0, 2.0, 3.0), v3(-1.0, 0.5, 2.0), v3(0.0, 2.5, 5.0), Vec3::ONE);
        assert_eq!(singular.determinant(), S::ZERO);
        assert_eq!(singular.inverse(), None);
        assert_eq!(Affine3::<S>::from_scale(v3(1.0, 1.0, 0.0)).inverse(), None);
    }

    fn affine3a<S: Scalar>() {
        // Columns (1, 0, 4), (2, 1, 0), (0, 3, 1), translation (1, −2, 0.5).
        let a = Affine3::<S>::from_cols(v3(1.0, 0.0, 4.0), v3(2.0, 1.0, 0.0), v3(0.0, 3.0, 1.0), v3(1.0, -2.0, 0.5));
        let p = Affine3A::from(a);
        assert_eq!(p, Affine3A::from_affine(a));
        assert_eq!(p, Affine3A::from_cols(v3(1.0, 0.0, 4.0), v3(2.0, 1.0, 0.0), v3(0.0, 3.0, 1.0), v3(1.0, -2.0, 0.5)));
        // The 4×4 matrix column by column, its fourth row (0, 0, 0, 1).
        let want: [S; 16] = [1.0, 0.0, 4.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 3.0, 1.0, 0.0, 1.0, -2.0, 0.5, 1.0].map(s);
        assert_eq!(p.to_cols_array(), want);
        assert_eq!(p.cols()[3], [1.0, -2.0, 0.5, 1.0].map(s::<S>));
        assert_eq!(
            (p.x_axis(), p.y_axis(), p.z_axis(), p.translation()),
            (a.x_axis, a.y_axis, a.z_axis, a.translation)
        );
        assert_eq!(p.to_affine(), a);
        assert_eq!(Affine3::from(p), a);
        // Points and vectors map as through the Affine3: (1, 1, 1) → (3 + 1, 4 − 2, 5 + 0.5).
        assert_eq!(p.transform_point(Vec3::ONE), v3(4.0, 2.0, 5.5));
        assert_eq!(p.transform_vector(Vec3::ONE), v3(3.0, 4.0, 5.0));
        assert_eq!(Affine3A::<S>::default(), Affine3A::IDENTITY);
        assert_eq!(Affine3A::<S>::IDENTITY.to_affine(), Affine3::IDENTITY);
        let id: [S; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0].map(s);
        assert_eq!(Affine3A::<S>::IDENTITY.to_cols_array(), id);
        // 64 bytes, 16-byte aligned: four columns of four numbers.
        assert_eq!(core::mem::size_of::<Affine3A<S>>(), 64);
        assert_eq!(core::mem::align_of::<Affine3A<S>>(), 16);
    }

    #[test]
    fn affine3a_f32() {
        affine3a::<f32>();
        // The twelve numbers are copied as they are, NaN and −0 included; the fourth row stays.
        let a =
            Affine3::from_cols(Vec3::new(-0.0f32, f32::NAN, 1.0), Vec3::ONE, Vec3::ZERO, Vec3::splat(f32::INFINITY));
        let p = Affine3A::from(a);
        let b = p.to_cols_array().map(f32::to_bits);
        assert_eq!(b[0], (-0.0f32).to_bits());
        assert_eq!(b[1], f32::NAN.to_bits());
        assert_eq!([b[3], b[7], b[11], b[15]], [0.0f32, 0.0, 0.0, 1.0].map(f32::to_bits));
    }
    #[test]
    fn affine3a_q16() {
        affine3a::<Q16>();
    }

    #[test]
    fn affine2_f32() {
        affine2::<f32>(Tol::F32);
    }
    #[test]
    fn affine2_q16() {
        affine2::<Q16>(Tol::Q16);
    }
    #[test]
    fn affine3_f32() {
        affine3::<f32>(Tol::F32);
    }
    #[test]
    fn affine3_q16() {
        affine3::<Q16>(Tol::Q16);
    }

    #[test]
    fn q16_tiny_determinant_has_no_inverse() {
        // det = 2⁻¹⁶: its reciprocal 65536 does not fit in Q16.16.
        let m = Affine2::<Q16>::from_scale(Vec2::new(Q16::EPSILON, Q16::ONE));
        assert_eq!(m.inverse(), None);
        let m = Affine3::<Q16>::from_scale(Vec3::new(Q16::ONE, Q16::EPSILON, Q16::ONE));
        assert_eq!(m.inverse(), None);
        // 2⁻¹⁴ is fine: the inverse scale is 16384.
        let m = Affine2::<Q16>::from_scale(Vec2::new(s(1.0 / 16384.0), Q16::ONE));
        let inv = m.inverse().unwrap();
        assert_eq!(inv.x_axis.x, s::<Q16>(16384.0));
        // f32 handles the tiny scale.
        let m = Affine2::<f32>::from_scale(Vec2::new(f32::EPSILON, 1.0));
        assert!(m.inverse().is_some());
    }
}
