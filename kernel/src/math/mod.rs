//! Math types generic over [`Scalar`]: vectors, quaternions, TRS transforms and
//! affine matrices.
//!
//! Everything here is computed through the methods of [`Scalar`] only, so nothing
//! panics, for any input: in Q16.16 results saturate, in f32 they follow IEEE-754. Divisions that
//! could be by zero are guarded (normalising a zero vector gives zero, inverting a singular matrix
//! gives `None`).
//!
//! - [`Vec2`], [`Vec3`]: points, offsets, per-axis scales.
//! - [`Quat`]: 3D rotations, with [`EulerOrder`] for building them from Euler angles.
//! - [`Transform2`], [`Transform3`]: translation / rotation / scale, as animation channels store them.
//! - [`Affine2`], [`Affine3`]: 2×3 and 3×4 matrices, exact for any composition; [`Affine3A`]: an
//!   [`Affine3`] as the padded columns of its 4×4 matrix (skinning palettes, SIMD).
//!
//! Angles are in radians; rotations are counter-clockwise (right-handed).
//!
//! With the `defmt` feature every type here implements `defmt::Format` when its scalar does: for
//! `f32`, not for `I16F16` (the `fixed` crate has no `defmt` support; log `to_f32()` or the raw bits).
//!
//! # Composing TRS transforms
//!
//! A TRS transform maps a point `p` to `translation + R·(scale ⊙ p)`. The matrix product of two
//! of them is in general not a TRS transform (a non-uniform parent scale applied to a rotated child
//! shears it). [`Transform2::mul`] and [`Transform3::mul`] therefore compose **component-wise**, as
//! Spine's and DragonBones' "inherit rotation and scale" and many engines' "lossy scale" do:
//!
//! - translation = `parent.transform_point(child.translation)` (always exact),
//! - rotation = `parent.rotation · child.rotation` (2D: the angles add, without wrapping),
//! - scale = `parent.scale ⊙ child.scale` (component-wise).
//!
//! This equals the matrix product when the parent's scale is uniform (any sign) or the child is not
//! rotated (2D: its angle is a multiple of π). Otherwise it is an approximation that keeps each
//! axis's scale and ignores the shear. Use [`Affine2`] / [`Affine3`] (through `to_affine`) when the
//! exact matrix product is needed. Component-wise composition is cheap, keeps full Q16.16 precision
//! (no decomposition through `atan2` and square roots) and keeps 2D angles continuous for
//! interpolation.

mod affine;
mod quat;
#[cfg(test)]
pub(crate) mod testutil;
mod transform;
mod vec;

pub use affine::{Affine2, Affine3, Affine3A};
pub use quat::{EulerOrder, Quat};
pub use transform::{Transform2, Transform3};
pub use vec::{Vec2, Vec3};

use crate::Scalar;

/// `1 / v`, or `None` when `v` is zero or its reciprocal is not representable (saturates in
/// Q16.16, or is infinite / NaN in f32): the check is that `v × (1 / v)` is close to 1.
pub(crate) fn checked_recip<S: Scalar>(v: S) -> Option<S> {
    if v == S::ZERO {
        return None;
    }
    let r = v.recip();
    // A saturated Q16.16 reciprocal gives a product of at most ½; f32 gives ∞ or NaN.
    if r.mul(v).approx_eq(S::ONE, S::HALF.mul(S::HALF)) {
        Some(r)
    } else {
        None
    }
}
