//! Root motion: how far a chosen root bone moved during an update, as a translation and rotation
//! delta in the root's parent space, and the [`MotionJoint`] trait that gives those deltas for 3D
//! ([`RootMotion3`]) and 2D ([`RootMotion2`]) joints.

use super::source::{ChannelData, ChannelKind, ClipEvent, Joint, SkelClipSource, SkeletonSource};
use crate::math::{Quat, Transform2, Transform3, Vec2, Vec3};
use crate::scalar::Scalar;

/// A joint type whose root motion can be measured: [`Transform3`] ([`RootMotion3`]) and
/// [`Transform2`] ([`RootMotion2`]).
///
/// With `T(t)` and `R(t)` the root bone's local translation and rotation at clip time `t`, an
/// update that moves the clip from `t0` to `t1` without wrapping reports
/// `ΔT = T(t1) − T(t0)` and `ΔR = R(t1) · R(t0)⁻¹` (2D: `Δθ = θ(t1) − θ(t0)`). An update that
/// crosses the end of a looping clip of length `L` forwards `k ≥ 1` times reports the sum of its
/// pieces: `(T(L) − T(t0)) + (k − 1)·(T(L) − T(0)) + (T(t1) − T(0))`, rotations chained the same
/// way (later pieces multiplied on the left); backwards, mirrored: `(T(0) − T(t0)) +
/// (k − 1)·(T(0) − T(L)) + (T(t1) − T(L))`. A seek reports nothing. Translation deltas are simply
/// summed in the root's parent space (they are not rotated by the rotation delta): apply them to
/// the character in that space.
pub trait MotionJoint<S: Scalar>: Joint<S> {
    /// A root motion delta (translation and rotation).
    type Delta: Copy + PartialEq + core::fmt::Debug;
    /// No motion.
    const NO_MOTION: Self::Delta;
    /// The motion from pose `from` to pose `to` of the same bone: translation `to − from`,
    /// rotation `to · from⁻¹` (2D: angle `to − from`). 3D: both rotations are normalised first,
    /// so the delta is a unit quaternion even when a pose's rotation is not of unit length (a
    /// rest pose given so, of any finite size): deltas chained and raised to a loop count stay in
    /// range.
    fn motion(from: Self, to: Self) -> Self::Delta;
    /// `first` followed by `then`: translations add, rotations compose (`then · first`).
    fn chain(first: Self::Delta, then: Self::Delta) -> Self::Delta;
    /// `d` repeated `n` times (translation `n·d`, rotation `dⁿ` by repeated squaring, each product
    /// [`tidy`](Self::tidy)-ed: rounding leaves a product a little off unit length, and squared
    /// up to 31 times that error would grow out of range).
    fn repeat(d: Self::Delta, n: u32) -> Self::Delta {
        let (mut acc, mut pow, mut n) = (Self::NO_MOTION, d, n);
        while n > 0 {
            if n & 1 == 1 {
                acc = Self::tidy(Self::chain(acc, pow));
            }
            n >>= 1;
            if n > 0 {
                pow = Self::tidy(Self::chain(pow, pow));
            }
        }
        acc
    }
    /// Interpolates two deltas (`t = 0` gives `a`): translations lerp, rotations nlerp.
    fn blend_motion(a: Self::Delta, b: Self::Delta, t: S) -> Self::Delta;
    /// The delta with its rotation renormalised (3D; the identity in 2D).
    fn tidy(d: Self::Delta) -> Self::Delta {
        d
    }
    /// `pose` with its translation and rotation replaced by `start`'s (its scale kept): how a
    /// player removes the root's motion from a sampled pose.
    fn pin(pose: Self, start: Self) -> Self;
}

/// A 3D root motion delta, in the root's parent space.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RootMotion3<S> {
    /// Translation moved.
    pub translation: Vec3<S>,
    /// Rotation turned (a unit quaternion, applied on the left).
    pub rotation: Quat<S>,
}

/// A 2D root motion delta, in the root's parent space.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RootMotion2<S> {
    /// Translation moved.
    pub translation: Vec2<S>,
    /// Angle turned, radians counter-clockwise.
    pub angle: S,
}

impl<S: Scalar> MotionJoint<S> for Transform3<S> {
    type Delta = RootMotion3<S>;
    const NO_MOTION: RootMotion3<S> = RootMotion3 { translation: Vec3::ZERO, rotation: Quat::IDENTITY };
    fn motion(from: Self, to: Self) -> RootMotion3<S> {
        RootMotion3 {
            translation: to.translation.sub(from.translation),
            rotation: to.rotation.normalize().mul(from.rotation.normalize().conjugate()),
        }
    }
    fn chain(first: RootMotion3<S>, then: RootMotion3<S>) -> RootMotion3<S> {
        RootMotion3 {
            translation: first.translation.add(then.translation),
            rotation: then.rotation.mul(first.rotation),
        }
    }
    fn blend_motion(a: RootMotion3<S>, b: RootMotion3<S>, t: S) -> RootMotion3<S> {
        RootMotion3 {
            translation: a.translation.lerp(b.translation, t),
            rotation: Quat::nlerp(a.rotation, b.rotation, t),
        }
    }
    fn tidy(d: RootMotion3<S>) -> RootMotion3<S> {
        RootMotion3 { translation: d.translation, rotation: d.rotation.normalize() }
    }
    fn pin(pose: Self, start: Self) -> Self {
        Transform3::new(start.translation, start.rotation, pose.scale)
    }
}

impl<S: Scalar> MotionJoint<S> for Transform2<S> {
    type Delta = RootMotion2<S>;
    const NO_MOTION: RootMotion2<S> = RootMotion2 { translation: Vec2::ZERO, angle: S::ZERO };
    fn motion(from: Self, to: Self) -> RootMotion2<S> {
        RootMotion2 { translation: to.translation.sub(from.translation), angle: to.angle.sub(from.angle) }
    }
    fn chain(first: RootMotion2<S>, then: RootMotion2<S>) -> RootMotion2<S> {
        RootMotion2 { translation: first.translation.add(then.translation), angle: first.angle.add(then.angle) }
    }
    fn blend_motion(a: RootMotion2<S>, b: RootMotion2<S>, t: S) -> RootMotion2<S> {
        RootMotion2 { translation: a.translation.lerp(b.translation, t), angle: a.angle.lerp(b.angle, t) }
    }
    fn pin(pose: Self, start: Self) -> Self {
        Transform2::new(start.translation, start.angle, pose.scale)
    }
}

/// A one-bone view of a skeleton: bone 0 is the inner skeleton's bone `bone` (as a root), so the
/// sampling job can sample just the root-motion bone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OneBoneSkeleton<'a, K> {
    pub(crate) inner: &'a K,
    pub(crate) bone: usize,
}

impl<S: Scalar, J: Joint<S>, K: SkeletonSource<S, J>> SkeletonSource<S, J> for OneBoneSkeleton<'_, K> {
    fn bone_count(&self) -> usize {
        usize::from(self.bone < self.inner.bone_count())
    }
    fn parent(&self, _i: usize) -> Option<usize> {
        None
    }
    fn rest(&self, i: usize) -> J {
        if i == 0 {
            self.inner.rest(self.bone)
        } else {
            J::IDENTITY
        }
    }
    fn lod(&self, i: usize) -> u8 {
        if i == 0 {
            self.inner.lod(self.bone)
        } else {
            0
        }
    }
}

/// A clip as the players sample it: never looping (the players place times in `[0, duration]`
/// themselves, so the end samples the end keys, not the start), optionally reduced to one bone
/// (bone 0 is the inner clip's bone `bone`), without events.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipView<'a, C> {
    pub(crate) inner: &'a C,
    pub(crate) bone: Option<usize>,
}

impl<S: Scalar, C: SkelClipSource<S>> SkelClipSource<S> for ClipView<'_, C> {
    type Scalars = C::Scalars;
    fn duration(&self) -> S {
        self.inner.duration()
    }
    fn looping(&self) -> bool {
        false
    }
    fn bone_count(&self) -> usize {
        match self.bone {
            Some(b) => usize::from(b < self.inner.bone_count()),
            None => self.inner.bone_count(),
        }
    }
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<C::Scalars>> {
        match self.bone {
            Some(b) if bone == 0 => self.inner.channel(b, kind),
            Some(_) => None,
            None => self.inner.channel(bone, kind),
        }
    }
    fn event_count(&self) -> usize {
        0
    }
    fn event(&self, _i: usize) -> Option<ClipEvent<S>> {
        None
    }
    /// The whole clip's key (its channels are the clip's); a one-bone view has none.
    fn cache_key(&self) -> Option<usize> {
        match self.bone {
            Some(_) => None,
            None => self.inner.cache_key(),
        }
    }
}
