//! Where the skeletal jobs read skeletons and clips from: the [`SkeletonSource`] and
//! [`SkelClipSource`] traits, their in-RAM implementations [`SliceSkeleton`] and [`SliceSkelClip`],
//! and the [`Joint`] trait that lets one set of jobs serve 3D ([`Transform3`]) and 2D
//! ([`Transform2`]) skeletons.
//!
//! Everything is addressed by index and read through small `Copy` views, so a blob read in place
//! from flash (word-addressed, nothing copied to RAM) implements the traits as well as the slices
//! here do. Values are read through [`Scalars`], which a blob implements by decoding words (raw
//! scalars, or 16-bit quantised values with a per-channel range).

use crate::math::{Quat, Transform2, Transform3, Vec2, Vec3};
use crate::scalar::wide::{UnitFactor, SPLIT};
use crate::scalar::Scalar;

/// A read-only array of scalars: a slice in RAM, or words in a blob.
///
/// `get` past the end returns zero (the sources validate their lengths at load; the jobs never
/// read out of range, and this keeps the read path free of panics and of `Option` checks).
pub trait Scalars<S: Scalar>: Copy {
    /// The number of scalars.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Scalar `i`, or zero past the end.
    fn get(&self, i: usize) -> S;

    /// Scalars `first..first + count` (`count <= 4`; a larger count reads 4) in the first `count`
    /// entries, the rest zero; as `count` calls of [`Scalars::get`] (zero past the end). The
    /// sampling job reads every key (and every pair of key times) through this, so a source that
    /// overrides it reads a whole key behind one range check.
    #[inline(always)]
    fn get4(&self, first: usize, count: usize) -> [S; 4] {
        let at = |c: usize| if c < count { self.get(first.wrapping_add(c)) } else { S::ZERO };
        [at(0), at(1), at(2), at(3)]
    }

    /// Two consecutive runs of `count` scalars (`count <= 4`; a larger count reads 4): `first..`
    /// and `first + count..`, as two calls of [`Scalars::get4`] (zero past the end). The sampling
    /// job reads the two keys around a time through this, so a source that overrides it reads both
    /// behind one range check. Added with a default, so existing sources need not implement it.
    #[inline(always)]
    fn get4_pair(&self, first: usize, count: usize) -> ([S; 4], [S; 4]) {
        let count = count.min(4);
        (self.get4(first, count), self.get4(first.wrapping_add(count), count))
    }
}

impl<S: Scalar> Scalars<S> for &[S] {
    #[inline]
    fn len(&self) -> usize {
        <[S]>::len(self)
    }
    #[inline]
    fn get(&self, i: usize) -> S {
        match <[S]>::get(self, i) {
            Some(v) => *v,
            None => S::ZERO,
        }
    }
    /// One range check for the whole run (the per-scalar path only at the slice's end).
    #[inline(always)]
    fn get4(&self, first: usize, count: usize) -> [S; 4] {
        let count = count.min(4);
        let mut out = [S::ZERO; 4];
        match first.checked_add(count).and_then(|end| <[S]>::get(self, first..end)) {
            Some(run) => {
                for (o, v) in out.iter_mut().zip(run) {
                    *o = *v;
                }
            }
            None => {
                for (c, o) in out.iter_mut().enumerate().take(count) {
                    *o = self.get(first.wrapping_add(c));
                }
            }
        }
        out
    }
    /// One range check for both runs (the per-scalar path only at the slice's end).
    #[inline(always)]
    fn get4_pair(&self, first: usize, count: usize) -> ([S; 4], [S; 4]) {
        let count = count.min(4);
        let run = first.checked_add(count.wrapping_mul(2)).and_then(|end| <[S]>::get(self, first..end));
        match run {
            Some(run) => {
                let (mut a, mut b) = ([S::ZERO; 4], [S::ZERO; 4]);
                let (ra, rb) = run.split_at(count);
                for (o, v) in a.iter_mut().zip(ra) {
                    *o = *v;
                }
                for (o, v) in b.iter_mut().zip(rb) {
                    *o = *v;
                }
                (a, b)
            }
            None => (self.get4(first, count), self.get4(first.wrapping_add(count), count)),
        }
    }
}

/// Which of a bone's three channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ChannelKind {
    /// Translation: 3 components in 3D, 2 in 2D.
    Translation,
    /// Rotation: a quaternion (x, y, z, w) in 3D, an angle in radians in 2D.
    Rotation,
    /// Scale: 3 components in 3D, 2 in 2D.
    Scale,
}

impl ChannelKind {
    /// The three kinds, in storage order.
    pub const ALL: [ChannelKind; 3] = [ChannelKind::Translation, ChannelKind::Rotation, ChannelKind::Scale];

    /// Its index in storage order (translation 0, rotation 1, scale 2).
    pub const fn index(self) -> usize {
        match self {
            ChannelKind::Translation => 0,
            ChannelKind::Rotation => 1,
            ChannelKind::Scale => 2,
        }
    }
}

/// How a channel moves between two keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Interpolation {
    /// Holds each key's value until the next key.
    Step,
    /// Linear (component-wise; quaternions by nlerp on the shortest arc, or slerp when asked).
    #[default]
    Linear,
    /// Cubic Hermite with each key's in and out tangents (value units per second).
    Hermite,
}

/// One channel of one bone: its keys, read through `A`.
///
/// With `w` components per key (see [`Joint::WIDTHS`]) and `n = times.len()` keys:
/// `values` holds `n·w` scalars, key after key; `tangents` is empty unless the interpolation is
/// [`Interpolation::Hermite`], then it holds `2·n·w` scalars, per key its `w` in-tangent
/// components then its `w` out-tangent components. Times are seconds from the clip's start,
/// strictly increasing, within `[0, duration]`. A channel has at least one key.
#[derive(Clone, Copy, Debug)]
pub struct ChannelData<A> {
    /// How values move between keys.
    pub interpolation: Interpolation,
    /// Key times.
    pub times: A,
    /// Key values.
    pub values: A,
    /// Hermite tangents (empty otherwise).
    pub tangents: A,
}

/// A source's compact reference to one bone's channels, from [`SkelClipSource::bone_handle`], for
/// [`SkelClipSource::key`]: a number whose meaning the source chooses (a blob: the bone's entry,
/// where its channel records start; the default: 0, unused). `Copy`, 4 bytes, so a
/// [`CachedSamplingContext`](super::CachedSamplingContext) keeps one per bone and reads the next
/// key of forward playback through it without resolving the channel again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BoneHandle(pub u32);

/// The key times a bone's directly read channels share (see [`DirectBone`]): a reference the
/// source chooses (a blob: where the channel records point, and whether they index the clip's time
/// table), and their count (≥ 2). Two bones with equal `DirectTimes` have the same key times, so a
/// [`DirectSamplingContext`](super::DirectSamplingContext) finds the bracket once for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DirectTimes {
    /// Where the times are (source-defined).
    pub at: u32,
    /// The number of keys (≥ 2).
    pub keys: u32,
    /// A second source-defined distinction (a blob: the times are indices into its time table).
    pub indexed: bool,
}

/// How a source lays out one bone's keys when they can be read without resolving its channels,
/// from [`SkelClipSource::direct_bone`]: the channels in `mask` are Linear, keyed at the same
/// `times`, with their values at `values[c]` ([`SkelClipSource::direct_pair`] reads a key pair
/// there); the channels in `constant` have a single key; a channel in neither has no keys (the
/// bone's rest pose). A
/// [`DirectSamplingContext`](super::DirectSamplingContext) keeps one per bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DirectBone {
    /// Bit `c` (0 translation, 1 rotation, 2 scale): channel `c` is read directly.
    pub mask: u8,
    /// Bit `c`: channel `c` has a single key, so it is that key's value at every time (read once
    /// with [`SkelClipSource::channel`], kept with the rest pose). Not in `mask`.
    pub constant: u8,
    /// The key times of every channel in `mask` (unused when `mask` is 0).
    pub times: DirectTimes,
    /// Per channel, where its values are (source-defined; unused for channels not in `mask`).
    pub values: [u32; 3],
}

/// A clip event: a name (a string id: an index into the blob's string table, or into the
/// caller's own name table for in-RAM clips) at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClipEvent<S> {
    /// Seconds from the clip's start, within `[0, duration]`.
    pub time: S,
    /// Its name's string id.
    pub name: u16,
}

/// A skeleton: bones in an order where every parent comes before its children.
///
/// `J` is the joint transform: [`Transform3`] for 3D skeletons, [`Transform2`] for 2D ones.
pub trait SkeletonSource<S: Scalar, J: Joint<S>> {
    /// The number of bones.
    fn bone_count(&self) -> usize;
    /// Bone `i`'s parent (always `< i`), `None` for a root or past the end.
    fn parent(&self, i: usize) -> Option<usize>;
    /// Bone `i`'s rest (bind) pose relative to its parent; the identity past the end.
    fn rest(&self, i: usize) -> J;
    /// Bone `i`'s level of detail: the jobs given a LOD limit `l` leave bones with `lod > l` at
    /// their rest pose. 0 (always animated) unless the source says otherwise.
    fn lod(&self, _i: usize) -> u8 {
        0
    }
    /// Bone `i`'s name as a string id, if the source names its bones.
    fn name_id(&self, _i: usize) -> Option<u16> {
        None
    }
    /// A number that identifies this skeleton's rest pose while it lives (the address of its
    /// data), so that a [`DirectSamplingContext`](super::DirectSamplingContext) can keep the rest
    /// pose it read and tell this skeleton from another; `None` (the default) disables that
    /// context's layout for the source. Two sources with the same key must have the same rest poses
    /// and levels of detail.
    fn cache_key(&self) -> Option<usize> {
        None
    }
}

/// A skeletal clip: per bone up to three channels, and events.
///
/// Bones are the skeleton's, by index; a bone or channel without keys keeps its rest pose.
pub trait SkelClipSource<S: Scalar> {
    /// How scalars are read.
    type Scalars: Scalars<S>;
    /// Length in seconds (> 0).
    fn duration(&self) -> S;
    /// Whether it loops.
    fn looping(&self) -> bool;
    /// The number of bones it has channels for (the skeleton's bone count, or fewer).
    fn bone_count(&self) -> usize;
    /// Bone `bone`'s channel `kind`, or `None` when it has no keys.
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<Self::Scalars>>;
    /// A handle to bone `bone`'s channels for [`SkelClipSource::key`] (asked for by a
    /// [`CachedSamplingContext`](super::CachedSamplingContext) when it first reads one of the
    /// bone's channels). The default is `BoneHandle(0)`, which the default `key` does not use.
    #[inline]
    fn bone_handle(&self, _bone: usize) -> BoneHandle {
        BoneHandle::default()
    }
    /// Key `k` of bone `bone`'s channel `kind`, read through `handle` (which
    /// [`SkelClipSource::bone_handle`] gave for that bone of this source): its time and its first
    /// `width` value components (`width <= 4`; the rest 0), exactly as [`SkelClipSource::channel`]'s
    /// view reads them (`times.get(k)`, `values.get4(k·width, width)`); `None` when the channel has
    /// no keys or `k` is past its last key.
    ///
    /// The default resolves the channel with [`SkelClipSource::channel`] and reads it; a source
    /// whose `channel` costs more than a read (a blob decoding its bone entry and channel record,
    /// and building views) overrides both methods, so that forward playback with a
    /// [`CachedSamplingContext`](super::CachedSamplingContext) reads the next key directly.
    #[inline]
    fn key(&self, bone: usize, kind: ChannelKind, _handle: BoneHandle, k: usize, width: usize) -> Option<(S, [S; 4])> {
        let ch = self.channel(bone, kind)?;
        if k >= ch.times.len() {
            return None;
        }
        Some((ch.times.get(k), ch.values.get4(k.wrapping_mul(width), width)))
    }
    /// Bone `bone`'s keys as a [`DirectBone`], when every channel the bone has is either a single
    /// key or Linear, keyed at the same times as the bone's other such channels (at least two
    /// keys) and readable with [`SkelClipSource::direct_pair`],
    /// for a joint type whose channels have `widths` components (`[3, 4, 3]` for
    /// [`Transform3`], `[2, 1, 2]` for [`Transform2`]); a bone without channels gives an empty
    /// mask. `None` (the default) for anything else: the bone is sampled channel by channel.
    ///
    /// A source that overrides it overrides [`SkelClipSource::direct_times`] and
    /// [`SkelClipSource::direct_pair`] too, and gives [`SkelClipSource::cache_key`] (the
    /// [`DirectSamplingContext`](super::DirectSamplingContext) keeps what it returns per bone).
    #[inline]
    fn direct_bone(&self, _bone: usize, _widths: [usize; 3]) -> Option<DirectBone> {
        None
    }
    /// The key times `times` of a [`DirectBone`] this source gave, as
    /// [`SkelClipSource::channel`]'s view of them reads them (`None` by default).
    #[inline]
    fn direct_times(&self, _times: DirectTimes) -> Option<Self::Scalars> {
        None
    }
    /// Keys `k` and `k + 1` of a channel of a [`DirectBone`] this source gave, whose values are
    /// at `values`: each key's first `width` components (the rest 0), exactly as
    /// [`SkelClipSource::channel`]'s view reads them (`values.get4_pair(k·width, width)`); `None`
    /// when they are not there (the default). Only what `direct_bone` gave, read with the same
    /// scalar type, is meaningful: other arguments may give any values (never a panic).
    #[inline]
    fn direct_pair(&self, _values: u32, _k: usize, _width: usize) -> Option<([S; 4], [S; 4])> {
        None
    }
    /// A number that identifies this clip's keys while they live (the address of its data), so
    /// that a [`CachedSamplingContext`](super::CachedSamplingContext) can tell the clip it cached
    /// keys of from another; `None` (the default) disables that cache for the source. Two sources
    /// with the same key must have the same channels.
    fn cache_key(&self) -> Option<usize> {
        None
    }
    /// The number of events.
    fn event_count(&self) -> usize {
        0
    }
    /// Event `i` (events are sorted by time), or `None` past the end.
    fn event(&self, _i: usize) -> Option<ClipEvent<S>> {
        None
    }
}

/// A joint transform the jobs work on: [`Transform3`] (translation, quaternion, scale) or
/// [`Transform2`] (translation, angle, scale). The 2D path never touches a quaternion.
pub trait Joint<S: Scalar>: Copy + PartialEq + core::fmt::Debug {
    /// Components per key of each channel, in [`ChannelKind`] order: `[3, 4, 3]` in 3D,
    /// `[2, 1, 2]` in 2D.
    const WIDTHS: [usize; 3];
    /// The identity transform.
    const IDENTITY: Self;
    /// `child` expressed in `parent`'s space (the local-to-model step).
    fn compose(parent: Self, child: Self) -> Self;

    /// The blending accumulator's starting value: every component 0 (including the rotation).
    const BLEND_ZERO: Self;

    /// Channel `kind`'s components in key order (the first `WIDTHS[kind]` entries; the rest 0):
    /// 3D translation `[x, y, z, 0]`, rotation `[x, y, z, w]`, scale `[x, y, z, 0]`; 2D
    /// translation `[x, y, 0, 0]`, rotation `[angle, 0, 0, 0]`, scale `[x, y, 0, 0]`.
    fn channel_values(&self, kind: ChannelKind) -> [S; 4];

    /// Sets channel `kind` from components laid out as [`Joint::channel_values`] returns them.
    fn set_channel_values(&mut self, kind: ChannelKind, v: [S; 4]);

    /// Interpolates two rotation key values at `t` in `[0, 1]`: 3D nlerp on the shortest arc (as
    /// [`Quat::nlerp`], normalised without a square root when the keys are close), or
    /// [`Quat::slerp`] when `slerp`; 2D a plain lerp of the angles as numbers (keyed angles
    /// are unwrapped by the host, so 3.0 to −3.0 turns the long way, through 0).
    fn interpolate_rotation(a: [S; 4], b: [S; 4], t: S, slerp: bool) -> [S; 4];

    /// Makes a rotation computed component-wise (a Hermite spline) valid: 3D normalises the
    /// quaternion; 2D leaves the angle as it is.
    fn normalize_rotation(r: [S; 4]) -> [S; 4];

    /// Blending: `acc` plus `weight` times `pose`, with `pose`'s rotation taken on `reference`'s side
    /// (3D: the quaternion negated when its dot product with `reference`'s is negative; 2D: the
    /// angle accumulated as its shortest difference from `reference`'s, in `[−π, π)`).
    /// `reference` is the first pose that contributes to the bone.
    fn blend_accumulate(acc: Self, reference: Self, pose: Self, weight: S) -> Self;

    /// Blending: the first contributor's term, `blend_accumulate(BLEND_ZERO, pose, pose, weight)`
    /// (the pose is its own reference). Implementations may skip work that cannot change the
    /// result (3D: a quaternion's dot product with itself is never negative), never change it.
    #[inline(always)]
    fn blend_first(pose: Self, weight: S) -> Self {
        Self::blend_accumulate(Self::BLEND_ZERO, pose, pose, weight)
    }

    /// Blending: the weighted average from the accumulated sum and the total weight (`> 0`):
    /// translation and scale divided by `total`; 3D rotation normalised; 2D angle
    /// `reference.angle + acc.angle / total`.
    fn blend_finish(acc: Self, reference: Self, total: S) -> Self;

    /// Additive blending: `pose` as a delta from `reference` (`reference⁻¹ ∘ pose` per channel):
    /// translation `pose − reference`, rotation `reference⁻¹ · pose` (2D: the angle difference, not
    /// wrapped), scale `pose / reference` component-wise (1 where `reference`'s component is 0).
    fn additive_delta(reference: Self, pose: Self) -> Self;

    /// Additive blending: `base` with `weight` of the delta `delta` applied: translation
    /// `+= weight·delta`, rotation `base · nlerp(identity, delta, weight)` (2D: angle
    /// `+= weight·delta`), scale `*= lerp(1, delta, weight)` component-wise. A weight of exactly 1
    /// applies the delta's rotation as it is.
    fn additive_apply(base: Self, delta: Self, weight: S) -> Self;
}

/// `d` wrapped into `[−π, π)` (only computed when outside `[−π, π]`).
#[inline]
fn wrap_angle<S: Scalar>(d: S) -> S {
    if d.abs() <= S::PI {
        d
    } else {
        d.add(S::PI).rem_euclid(S::TAU).sub(S::PI)
    }
}

/// `a / b`, or 1 when `b` is 0 (scale ratios).
#[inline]
fn ratio<S: Scalar>(a: S, b: S) -> S {
    if b == S::ZERO {
        S::ONE
    } else {
        a.div(b)
    }
}

/// `q / |q|` for the sampling and blending hot paths, where `q` is a lerp or a weighted sum of unit
/// quaternions. Its squared length `n²` is usually within 2⁻⁸ of 1 (keys a few degrees apart):
/// then `1/|q|` is two Newton steps from 1 (`y ← y·(3 − n²·y²)/2`, relative error below 1e-10
/// before rounding, so as good as `1 / sqrt` in f32 and in Q16.16) — a few multiplications, no
/// square root and no division (software routines on a Cortex-M0). In Q16.16 the same holds with
/// four steps within 2⁻² of 1 (blending poses some way apart). Within `(1/64, 64)` (poses far
/// apart) it is one square root and one reciprocal (with the `fast-math` feature, whose f32 square
/// root is up to 6 % off, refined by three Newton steps). Otherwise (or for NaN) it is
/// [`Quat::normalize`] (accurate for any magnitude; the zero quaternion gives the identity).
///
/// In Q16.16 without a long multiply (the Cortex-M0, `wide::SPLIT`), the first case (within 2⁻⁸
/// of unit length, components at most 1) is computed by `wide::quat_normalize_near_bits`: the same
/// operations with each product specialised to the ranges the case guarantees, so the same bits
/// for a fraction of the instructions (elsewhere the general code is kept: the products are cheap
/// there, and the Cortex-M4F benchmark image has no flash to spare for a second copy).
#[inline(always)]
fn normalize_quat<S: Scalar>(q: Quat<S>) -> Quat<S> {
    if S::ENCODING == crate::scalar::ScalarEncoding::Q16_16 && SPLIT {
        let bits = [q.x.to_q16_bits(), q.y.to_q16_bits(), q.z.to_q16_bits(), q.w.to_q16_bits()];
        if let Some([x, y, z, w]) = crate::scalar::wide::quat_normalize_near_bits(bits) {
            return Quat::from_xyzw(S::from_q16_bits(x), S::from_q16_bits(y), S::from_q16_bits(z), S::from_q16_bits(w));
        }
    }
    normalize_quat_general(q)
}

/// [`normalize_quat`] without the Q16.16 shortcut (every case through [`Scalar`] operations).
#[inline(always)]
fn normalize_quat_general<S: Scalar>(q: Quat<S>) -> Quat<S> {
    let n2 = q.dot(q);
    let d = n2.sub(S::ONE);
    // One Newton step for 1/√n²: y·(3 − n²·y²)/2.
    let step = |y: S| y.mul(S::from_ratio(3, 2).sub(S::HALF.mul(n2).mul(y.mul(y))));
    let inv = if d.abs() < S::from_ratio(1, 256) {
        step(S::ONE.sub(d.mul(S::HALF))) // (3 − n²)/2 is the first step from y = 1
    } else if S::ENCODING == crate::scalar::ScalarEncoding::Q16_16 && d.abs() < S::from_ratio(1, 4) {
        // Q16.16 (software square root and division): four steps from y = 1 instead. The relative
        // error 1 − y·|q| goes 0.134 → 0.027 → 1.1e-3 → 1.8e-6 → 5e-12 at n² = 3/4, the worst case.
        step(step(step(S::ONE.sub(d.mul(S::HALF)))))
    } else if n2 > S::from_ratio(1, 64) && n2 < S::from_i32(64) {
        let y = n2.sqrt().recip();
        if cfg!(feature = "fast-math") {
            // micromath's square root is up to 6 % off: three steps bring it to f32 precision.
            step(step(step(y)))
        } else {
            y
        }
    } else {
        return normalize_far(q.x, q.y, q.z, q.w);
    };
    Quat::from_xyzw(q.x.mul(inv), q.y.mul(inv), q.z.mul(inv), q.w.mul(inv))
}

/// [`Quat::normalize`], out of line and taking its components by value, so that the rare far case
/// of [`normalize_quat`] does not make the hot path keep the quaternion in memory.
#[cold]
#[inline(never)]
fn normalize_far<S: Scalar>(x: S, y: S, z: S, w: S) -> Quat<S> {
    Quat::from_xyzw(x, y, z, w).normalize()
}

/// `a · b < 0` (whether `b` is on the far hemisphere from `a`). In Q16.16 without a long multiply
/// (`wide::SPLIT`) decided from a coarse estimate of the dot product when that is certain
/// (`wide::quat_dot_negative`: the same answer), computing the dot product only when it is near 0.
#[inline(always)]
fn dot_negative<S: Scalar>(a: Quat<S>, b: Quat<S>) -> bool {
    if S::ENCODING == crate::scalar::ScalarEncoding::Q16_16 && SPLIT {
        let bits = |q: Quat<S>| [q.x.to_q16_bits(), q.y.to_q16_bits(), q.z.to_q16_bits(), q.w.to_q16_bits()];
        if let Some(negative) = crate::scalar::wide::quat_dot_negative(bits(a), bits(b)) {
            return negative;
        }
    }
    a.dot(b) < S::ZERO
}

/// Normalised lerp on the shortest arc, as [`Quat::nlerp`], normalised by [`normalize_quat`].
#[inline(always)]
fn nlerp_quat<S: Scalar>(a: Quat<S>, b: Quat<S>, t: S) -> Quat<S> {
    let b = if dot_negative(a, b) { b.neg() } else { b };
    normalize_quat(Quat::from_xyzw(a.x.lerp(b.x, t), a.y.lerp(b.y, t), a.z.lerp(b.z, t), a.w.lerp(b.w, t)))
}

/// Q16.16 `acc + pose·weight` as the blending jobs accumulate it (translation and scale times
/// `weight`, the rotation times `uq`, which is `weight` or its negation), with the weight prepared
/// once ([`UnitFactor`], `|weight| < 1`): the same bits as the [`Scalar`] operations of
/// `blend_accumulate` and `blend_first`, in fewer instructions on a Cortex-M0 (used only where
/// `wide::SPLIT`). A scale of exactly 1 (the usual one) times the weight is the weight (no
/// rounding).
#[inline(always)]
fn weighted_q16<S: Scalar>(
    acc: Transform3<S>,
    pose: Transform3<S>,
    u: UnitFactor,
    uq: UnitFactor,
    weight: S,
) -> Transform3<S> {
    let m = |f: UnitFactor, x: S, a: S| S::from_q16_bits(f.mul_add(x.to_q16_bits(), a.to_q16_bits()));
    let (t, q, s) = (pose.translation, pose.rotation, pose.scale);
    let (at, aq, a_s) = (acc.translation, acc.rotation, acc.scale);
    let scale = if s == Vec3::ONE {
        Vec3::new(weight.add(a_s.x), weight.add(a_s.y), weight.add(a_s.z))
    } else {
        Vec3::new(m(u, s.x, a_s.x), m(u, s.y, a_s.y), m(u, s.z, a_s.z))
    };
    Transform3::new(
        Vec3::new(m(u, t.x, at.x), m(u, t.y, at.y), m(u, t.z, at.z)),
        Quat::from_xyzw(m(uq, q.x, aq.x), m(uq, q.y, aq.y), m(uq, q.z, aq.z), m(uq, q.w, aq.w)),
        scale,
    )
}

#[inline]
fn quat_of<S: Scalar>(v: [S; 4]) -> Quat<S> {
    let [x, y, z, w] = v;
    Quat::from_xyzw(x, y, z, w)
}

#[inline]
fn quat_values<S: Scalar>(q: Quat<S>) -> [S; 4] {
    [q.x, q.y, q.z, q.w]
}

impl<S: Scalar> Joint<S> for Transform3<S> {
    const WIDTHS: [usize; 3] = [3, 4, 3];
    const IDENTITY: Self = Transform3::IDENTITY;
    const BLEND_ZERO: Self =
        Transform3::new(Vec3::ZERO, Quat::from_xyzw(S::ZERO, S::ZERO, S::ZERO, S::ZERO), Vec3::ZERO);
    #[inline(always)]
    fn compose(parent: Self, child: Self) -> Self {
        parent.mul(child)
    }
    #[inline(always)]
    fn channel_values(&self, kind: ChannelKind) -> [S; 4] {
        match kind {
            ChannelKind::Translation => [self.translation.x, self.translation.y, self.translation.z, S::ZERO],
            ChannelKind::Rotation => quat_values(self.rotation),
            ChannelKind::Scale => [self.scale.x, self.scale.y, self.scale.z, S::ZERO],
        }
    }
    #[inline(always)]
    fn set_channel_values(&mut self, kind: ChannelKind, v: [S; 4]) {
        let [x, y, z, _] = v;
        match kind {
            ChannelKind::Translation => self.translation = Vec3::new(x, y, z),
            ChannelKind::Rotation => self.rotation = quat_of(v),
            ChannelKind::Scale => self.scale = Vec3::new(x, y, z),
        }
    }
    #[inline(always)]
    fn interpolate_rotation(a: [S; 4], b: [S; 4], t: S, slerp: bool) -> [S; 4] {
        let (a, b) = (quat_of(a), quat_of(b));
        quat_values(if slerp { Quat::slerp(a, b, t) } else { nlerp_quat(a, b, t) })
    }
    #[inline(always)]
    fn normalize_rotation(r: [S; 4]) -> [S; 4] {
        quat_values(normalize_quat(quat_of(r)))
    }
    #[inline(always)]
    fn blend_accumulate(acc: Self, reference: Self, pose: Self, weight: S) -> Self {
        let q = pose.rotation;
        let flip = dot_negative(q, reference.rotation);
        if S::ENCODING == crate::scalar::ScalarEncoding::Q16_16 && SPLIT {
            if let Some(u) = UnitFactor::new(weight.to_q16_bits()) {
                return weighted_q16(acc, pose, u, if flip { u.neg() } else { u }, weight);
            }
        }
        let w = if flip { weight.neg() } else { weight };
        let r = acc.rotation;
        Transform3::new(
            pose.translation.scale(weight).add(acc.translation),
            Quat::from_xyzw(q.x.mul_add(w, r.x), q.y.mul_add(w, r.y), q.z.mul_add(w, r.z), q.w.mul_add(w, r.w)),
            pose.scale.scale(weight).add(acc.scale),
        )
    }
    #[inline(always)]
    fn blend_first(pose: Self, weight: S) -> Self {
        // As `blend_accumulate(BLEND_ZERO, pose, pose, weight)`: `q · q` is a sum of squares (each
        // product rounds to a non-negative value in Q16.16, and saturating sums of them stay
        // non-negative; in f32 it is non-negative or NaN), so the weight is never negated. The
        // zero terms are still added, which keeps f32's `-0.0 + 0.0 = +0.0`.
        if S::ENCODING == crate::scalar::ScalarEncoding::Q16_16 && SPLIT {
            if let Some(u) = UnitFactor::new(weight.to_q16_bits()) {
                return weighted_q16(Self::BLEND_ZERO, pose, u, u, weight);
            }
        }
        let z = S::ZERO;
        let q = pose.rotation;
        Transform3::new(
            pose.translation.scale(weight).add(Vec3::ZERO),
            Quat::from_xyzw(
                q.x.mul_add(weight, z),
                q.y.mul_add(weight, z),
                q.z.mul_add(weight, z),
                q.w.mul_add(weight, z),
            ),
            pose.scale.scale(weight).add(Vec3::ZERO),
        )
    }
    #[inline(always)]
    fn blend_finish(acc: Self, _reference: Self, total: S) -> Self {
        if total == S::ONE {
            return Transform3::new(acc.translation, normalize_quat(acc.rotation), acc.scale);
        }
        let (t, s, r) = (acc.translation, acc.scale, acc.rotation);
        // The rotation sum is brought near unit length first, so that Q16.16 normalises a
        // quaternion of full precision rather than a short one (small weights).
        let inv = total.recip();
        Transform3::new(
            Vec3::new(t.x.div(total), t.y.div(total), t.z.div(total)),
            normalize_quat(Quat::from_xyzw(r.x.mul(inv), r.y.mul(inv), r.z.mul(inv), r.w.mul(inv))),
            Vec3::new(s.x.div(total), s.y.div(total), s.z.div(total)),
        )
    }
    #[inline(always)]
    fn additive_delta(reference: Self, pose: Self) -> Self {
        let (p, r) = (pose.scale, reference.scale);
        Transform3::new(
            pose.translation.sub(reference.translation),
            reference.rotation.conjugate().mul(pose.rotation),
            Vec3::new(ratio(p.x, r.x), ratio(p.y, r.y), ratio(p.z, r.z)),
        )
    }
    #[inline(always)]
    fn additive_apply(base: Self, delta: Self, weight: S) -> Self {
        let rotation =
            if weight == S::ONE { delta.rotation } else { nlerp_quat(Quat::IDENTITY, delta.rotation, weight) };
        let d = delta.scale;
        Transform3::new(
            delta.translation.scale(weight).add(base.translation),
            base.rotation.mul(rotation),
            base.scale.mul_elem(Vec3::new(
                S::ONE.lerp(d.x, weight),
                S::ONE.lerp(d.y, weight),
                S::ONE.lerp(d.z, weight),
            )),
        )
    }
}

impl<S: Scalar> Joint<S> for Transform2<S> {
    const WIDTHS: [usize; 3] = [2, 1, 2];
    const IDENTITY: Self = Transform2::IDENTITY;
    const BLEND_ZERO: Self = Transform2::new(Vec2::ZERO, S::ZERO, Vec2::ZERO);
    #[inline]
    fn compose(parent: Self, child: Self) -> Self {
        parent.mul(child)
    }
    #[inline]
    fn channel_values(&self, kind: ChannelKind) -> [S; 4] {
        match kind {
            ChannelKind::Translation => [self.translation.x, self.translation.y, S::ZERO, S::ZERO],
            ChannelKind::Rotation => [self.angle, S::ZERO, S::ZERO, S::ZERO],
            ChannelKind::Scale => [self.scale.x, self.scale.y, S::ZERO, S::ZERO],
        }
    }
    #[inline]
    fn set_channel_values(&mut self, kind: ChannelKind, v: [S; 4]) {
        let [x, y, _, _] = v;
        match kind {
            ChannelKind::Translation => self.translation = Vec2::new(x, y),
            ChannelKind::Rotation => self.angle = x,
            ChannelKind::Scale => self.scale = Vec2::new(x, y),
        }
    }
    #[inline]
    fn interpolate_rotation(a: [S; 4], b: [S; 4], t: S, _slerp: bool) -> [S; 4] {
        let [a, ..] = a;
        let [b, ..] = b;
        [a.lerp(b, t), S::ZERO, S::ZERO, S::ZERO]
    }
    #[inline]
    fn normalize_rotation(r: [S; 4]) -> [S; 4] {
        r
    }
    #[inline]
    fn blend_accumulate(acc: Self, reference: Self, pose: Self, weight: S) -> Self {
        Transform2::new(
            pose.translation.scale(weight).add(acc.translation),
            wrap_angle(pose.angle.sub(reference.angle)).mul_add(weight, acc.angle),
            pose.scale.scale(weight).add(acc.scale),
        )
    }
    #[inline]
    fn blend_finish(acc: Self, reference: Self, total: S) -> Self {
        if total == S::ONE {
            return Transform2::new(acc.translation, reference.angle.add(acc.angle), acc.scale);
        }
        let (t, s) = (acc.translation, acc.scale);
        Transform2::new(
            Vec2::new(t.x.div(total), t.y.div(total)),
            reference.angle.add(acc.angle.div(total)),
            Vec2::new(s.x.div(total), s.y.div(total)),
        )
    }
    #[inline]
    fn additive_delta(reference: Self, pose: Self) -> Self {
        let (p, r) = (pose.scale, reference.scale);
        Transform2::new(
            pose.translation.sub(reference.translation),
            pose.angle.sub(reference.angle),
            Vec2::new(ratio(p.x, r.x), ratio(p.y, r.y)),
        )
    }
    #[inline]
    fn additive_apply(base: Self, delta: Self, weight: S) -> Self {
        let d = delta.scale;
        Transform2::new(
            delta.translation.scale(weight).add(base.translation),
            delta.angle.mul_add(weight, base.angle),
            base.scale.mul_elem(Vec2::new(S::ONE.lerp(d.x, weight), S::ONE.lerp(d.y, weight))),
        )
    }
}

/// A skeleton in RAM: parents (`u16::MAX` for a root) and rest poses, optionally LODs and names.
///
/// ```
/// use ossicle::math::{Transform3, Vec3, Quat};
/// use ossicle::skeleton::{SkeletonSource, SliceSkeleton};
///
/// let parents = [u16::MAX, 0, 1];
/// let rest = [Transform3::<f32>::IDENTITY; 3];
/// let skel = SliceSkeleton::new(&parents, &rest).unwrap();
/// assert_eq!(SkeletonSource::<f32, Transform3<f32>>::parent(&skel, 2), Some(1));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SliceSkeleton<'a, J> {
    parents: &'a [u16],
    rest: &'a [J],
    lods: &'a [u8],
    names: &'a [u16],
}

/// Why a [`SliceSkeleton`] was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SkeletonError {
    /// `parents` and `rest` (or `lods`, `names` when given) differ in length.
    LengthMismatch,
    /// Bone `bone`'s parent is not before it (this also rules out cycles).
    ParentNotBefore {
        /// The bone.
        bone: u16,
    },
    /// More than `u16::MAX - 1` bones.
    TooManyBones,
}

impl core::fmt::Display for SkeletonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SkeletonError::LengthMismatch => f.write_str("skeleton arrays differ in length"),
            SkeletonError::ParentNotBefore { bone } => {
                write!(f, "bone {bone}'s parent does not come before it (parents must precede children)")
            }
            SkeletonError::TooManyBones => f.write_str("a skeleton holds at most 65534 bones"),
        }
    }
}

impl<'a, J> SliceSkeleton<'a, J> {
    /// A skeleton from parent indices (`u16::MAX` = root) and rest poses; checks that every
    /// parent comes before its child.
    pub fn new(parents: &'a [u16], rest: &'a [J]) -> Result<Self, SkeletonError> {
        if parents.len() != rest.len() {
            return Err(SkeletonError::LengthMismatch);
        }
        if parents.len() >= usize::from(u16::MAX) {
            return Err(SkeletonError::TooManyBones);
        }
        for (i, &p) in parents.iter().enumerate() {
            if p != u16::MAX && usize::from(p) >= i {
                return Err(SkeletonError::ParentNotBefore { bone: i as u16 });
            }
        }
        Ok(Self { parents, rest, lods: &[], names: &[] })
    }

    /// The same skeleton with per-bone LODs (see [`SkeletonSource::lod`]).
    pub fn with_lods(self, lods: &'a [u8]) -> Result<Self, SkeletonError> {
        if lods.len() != self.parents.len() {
            return Err(SkeletonError::LengthMismatch);
        }
        Ok(Self { lods, ..self })
    }

    /// The same skeleton with per-bone name ids.
    pub fn with_names(self, names: &'a [u16]) -> Result<Self, SkeletonError> {
        if names.len() != self.parents.len() {
            return Err(SkeletonError::LengthMismatch);
        }
        Ok(Self { names, ..self })
    }
}

impl<S: Scalar, J: Joint<S>> SkeletonSource<S, J> for SliceSkeleton<'_, J> {
    #[inline]
    fn bone_count(&self) -> usize {
        self.parents.len()
    }
    #[inline]
    fn parent(&self, i: usize) -> Option<usize> {
        match self.parents.get(i) {
            Some(&p) if p != u16::MAX => Some(usize::from(p)),
            _ => None,
        }
    }
    #[inline]
    fn rest(&self, i: usize) -> J {
        match self.rest.get(i) {
            Some(j) => *j,
            None => J::IDENTITY,
        }
    }
    fn lod(&self, i: usize) -> u8 {
        self.lods.get(i).copied().unwrap_or(0)
    }
    fn name_id(&self, i: usize) -> Option<u16> {
        self.names.get(i).copied()
    }
    /// The address of the rest poses (`None` for no bones).
    fn cache_key(&self) -> Option<usize> {
        if self.rest.is_empty() {
            None
        } else {
            Some(self.rest.as_ptr() as usize)
        }
    }
}

/// One bone's channels in a [`SliceSkelClip`], each `None` when not animated.
#[derive(Clone, Copy, Debug)]
pub struct SliceTrack<'a, S> {
    /// Translation, rotation, scale (in [`ChannelKind`] order).
    pub channels: [Option<ChannelData<&'a [S]>>; 3],
}

impl<S> SliceTrack<'_, S> {
    /// A bone without keys.
    pub const NONE: Self = Self { channels: [None, None, None] };
}

/// A skeletal clip in RAM: one [`SliceTrack`] per bone, and events sorted by time.
///
/// The slices are taken as given; [`SliceSkelClip::check`] validates them against a joint type.
#[derive(Clone, Copy, Debug)]
pub struct SliceSkelClip<'a, S> {
    /// Length in seconds.
    pub duration: S,
    /// Whether it loops.
    pub looping: bool,
    /// Per bone, by skeleton index.
    pub tracks: &'a [SliceTrack<'a, S>],
    /// Events, sorted by time.
    pub events: &'a [ClipEvent<S>],
}

/// Why a [`SliceSkelClip`] is not valid for a joint type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ClipError {
    /// The duration is not positive.
    BadDuration,
    /// A channel has no keys, or its values or tangents have the wrong length.
    BadLength {
        /// The bone.
        bone: u16,
        /// The channel (0 translation, 1 rotation, 2 scale).
        channel: u8,
    },
    /// A channel's times are not strictly increasing within `[0, duration]`.
    BadTimes {
        /// The bone.
        bone: u16,
        /// The channel.
        channel: u8,
    },
    /// Events are not sorted by time within `[0, duration]`.
    BadEvents,
}

impl core::fmt::Display for ClipError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ClipError::BadDuration => f.write_str("clip duration must be positive"),
            ClipError::BadLength { bone, channel } => {
                write!(f, "bone {bone} channel {channel}: no keys, or values/tangents of the wrong length")
            }
            ClipError::BadTimes { bone, channel } => {
                write!(f, "bone {bone} channel {channel}: key times must increase strictly within [0, duration]")
            }
            ClipError::BadEvents => f.write_str("clip events must be sorted by time within [0, duration]"),
        }
    }
}

impl<S: Scalar> SliceSkelClip<'_, S> {
    /// Checks every channel's lengths and times for joint type `J`, and the events.
    pub fn check<J: Joint<S>>(&self) -> Result<(), ClipError> {
        if self.duration <= S::ZERO {
            return Err(ClipError::BadDuration);
        }
        for (b, track) in self.tracks.iter().enumerate() {
            let bone = b as u16;
            for (c, ch) in track.channels.iter().enumerate() {
                let Some(ch) = ch else { continue };
                let channel = c as u8;
                let w = J::WIDTHS.get(c).copied().unwrap_or(0);
                let n = ch.times.len();
                let tangents_ok = match ch.interpolation {
                    Interpolation::Hermite => {
                        Some(ch.tangents.len()) == n.checked_mul(w).and_then(|x| x.checked_mul(2))
                    }
                    _ => ch.tangents.is_empty(),
                };
                if n == 0 || Some(ch.values.len()) != n.checked_mul(w) || !tangents_ok {
                    return Err(ClipError::BadLength { bone, channel });
                }
                let mut prev: Option<S> = None;
                for &t in ch.times {
                    let ordered = match prev {
                        Some(p) => t > p,
                        None => t >= S::ZERO,
                    };
                    if !ordered || t > self.duration {
                        return Err(ClipError::BadTimes { bone, channel });
                    }
                    prev = Some(t);
                }
            }
        }
        let mut prev = S::ZERO;
        for e in self.events {
            if e.time < prev || e.time > self.duration {
                return Err(ClipError::BadEvents);
            }
            prev = e.time;
        }
        Ok(())
    }
}

impl<'a, S: Scalar> SkelClipSource<S> for SliceSkelClip<'a, S> {
    type Scalars = &'a [S];
    fn duration(&self) -> S {
        self.duration
    }
    fn looping(&self) -> bool {
        self.looping
    }
    fn bone_count(&self) -> usize {
        self.tracks.len()
    }
    #[inline]
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<&'a [S]>> {
        self.tracks.get(bone)?.channels.get(kind.index()).copied().flatten()
    }
    /// The address of its tracks (`None` without tracks).
    fn cache_key(&self) -> Option<usize> {
        if self.tracks.is_empty() {
            None
        } else {
            Some(self.tracks.as_ptr() as usize)
        }
    }
    fn event_count(&self) -> usize {
        self.events.len()
    }
    fn event(&self, i: usize) -> Option<ClipEvent<S>> {
        self.events.get(i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Q16;

    use crate::math::testutil::Xs;
    fn quat(b: [i32; 4]) -> Quat<Q16> {
        Quat::from_xyzw(Q16::from_bits(b[0]), Q16::from_bits(b[1]), Q16::from_bits(b[2]), Q16::from_bits(b[3]))
    }

    /// The Q16.16 shortcut of `blend_first` and `blend_accumulate` (weights of magnitude below 1,
    /// prepared once; ±1 and beyond take the general path) gives the bits of the general
    /// operations, written out here as the general path computes them: on poses with any
    /// translations (also saturating ones), unit and other rotations, unit and other scales, and
    /// weights of both signs.
    #[test]
    fn q16_weighted_accumulation_is_bit_identical() {
        let general = |acc: Transform3<Q16>, reference: Transform3<Q16>, pose: Transform3<Q16>, weight: Q16| {
            let q = pose.rotation;
            let w = if q.dot(reference.rotation) < Q16::ZERO { Scalar::neg(weight) } else { weight };
            let r = acc.rotation;
            Transform3::new(
                pose.translation.scale(weight).add(acc.translation),
                // Through the trait (`I16F16` has an inherent `mul_add` of its own).
                Quat::from_xyzw(
                    Scalar::mul_add(q.x, w, r.x),
                    Scalar::mul_add(q.y, w, r.y),
                    Scalar::mul_add(q.z, w, r.z),
                    Scalar::mul_add(q.w, w, r.w),
                ),
                pose.scale.scale(weight).add(acc.scale),
            )
        };
        let mut x = Xs(0x0BAD_CAFE);
        let word = |x: &mut Xs, shift: u32| Q16::from_bits((x.next() as i32) >> shift);
        for i in 0..200_000 {
            let shift = [0, 4, 10, 15][i % 4];
            let weight = Q16::from_bits(match i % 7 {
                0 => 0x1_0000,
                1 => -0x1_0000,
                2 => 0,
                _ => (x.next() as i32) >> 15,
            });
            let t = |x: &mut Xs| Vec3::new(word(x, shift), word(x, shift), word(x, shift));
            let q = |x: &mut Xs| Quat::from_xyzw(word(x, 15), word(x, 15), word(x, 15), word(x, 15));
            let scale = |x: &mut Xs| if x.next() % 2 == 0 { Vec3::ONE } else { t(x) };
            let pose = Transform3::new(t(&mut x), q(&mut x), scale(&mut x));
            let acc = Transform3::new(t(&mut x), q(&mut x), t(&mut x));
            let reference = Transform3::new(t(&mut x), q(&mut x), t(&mut x));
            let got = Transform3::blend_accumulate(acc, reference, pose, weight);
            assert_eq!(got, general(acc, reference, pose, weight), "{acc:?} {reference:?} {pose:?} {weight:?}");
            let zero = <Transform3<Q16> as Joint<Q16>>::BLEND_ZERO;
            assert_eq!(Transform3::blend_first(pose, weight), general(zero, pose, pose, weight), "{pose:?} {weight:?}");
        }
    }

    /// `dot_negative`'s estimate, when it decides, agrees with the sign of the dot product: on
    /// unit quaternions at any angle (also nearly orthogonal ones, where it must not decide wrongly),
    /// and on any words.
    #[test]
    fn q16_dot_sign_estimate_agrees_with_the_dot_product() {
        let mut x = Xs(0x7777_1357);
        let mut decided = 0;
        for i in 0..1_000_000 {
            let b = |x: &mut Xs, shift: u32| [0; 4].map(|_: i32| (x.next() as i32) >> shift);
            let (a, c) = match i % 3 {
                0 => (b(&mut x, 15), b(&mut x, 15)),
                1 => {
                    // Nearly orthogonal: c = a rotated a quarter turn in one plane, plus noise.
                    let a = b(&mut x, 16);
                    let shift = 20 + x.next() % 8;
                    let n = b(&mut x, shift);
                    (a, [-a[1] + n[0], a[0] + n[1], -a[3] + n[2], a[2] + n[3]])
                }
                _ => (b(&mut x, i as u32 % 17), b(&mut x, 14)),
            };
            if let Some(negative) = crate::scalar::wide::quat_dot_negative(a, c) {
                decided += 1;
                assert_eq!(negative, quat(a).dot(quat(c)) < Q16::ZERO, "{a:?} · {c:?}");
            }
            assert_eq!(dot_negative(quat(a), quat(c)), quat(a).dot(quat(c)) < Q16::ZERO, "{a:?} · {c:?}");
        }
        assert!(decided > 300_000, "{decided}");
    }

    /// The Q16.16 shortcut of `normalize_quat` gives the bits of the general path, on quaternions
    /// near unit length (lerps of unit quaternions, sums of weighted ones), on the edges of its
    /// cases (`|n² − 1|` of 255 and 256 steps, of 2^14 − 1 and 2^14, components of exactly ±1),
    /// and away from them.
    #[test]
    fn q16_near_unit_normalisation_is_bit_identical() {
        let check = |b: [i32; 4]| {
            let q = quat(b);
            assert_eq!(normalize_quat(q), normalize_quat_general(q), "{b:?}");
        };
        for b in [
            [0, 0, 0, 0x1_0000],
            [0, 0, 0, -0x1_0000],
            [0x1_0000, 0, 0, 0],
            [0x1_0000, 1, 0, 0],
            [0x1_0000, 0x1_0000, 0, 0],
            [0, 0, 0, 0x1_0001],
            [0, 0, 0, 0],
            [0, 0, 0, 0xFF80], // n² = 65280: d = −256, outside
            [0, 0, 0, 0xFF81], // d = −254
            [0, 0, 0, 56755],  // n² = 49151: d = −16385, outside
            [0, 0, 0, 56756],  // n² = 49152: d = −16384, outside
            [0, 0, 0, 56757],  // n² = 49154: d = −16382, the second case
            [0, 0, 45000, 56000],
            [0, 0, 0x1_0000, 0x4000],
            [0, 0, 0x1_0000, 0x7000],
            [0, 0, 0x7FFF, 0xDDB3],
            [i32::MIN, 0, 0, 0],
            [46341, 46341, 0, 0],
            [-46341, 46341, -1, 2],
        ] {
            check(b);
        }
        let mut x = Xs(0x1234_5678);
        let (mut near, mut mid) = (0, 0);
        for _ in 0..300_000 {
            // A random direction, scaled to a length within 1/384 of 1 (n² within about 1/192),
            // or (one in three) within 1/6 of 1 (the second case, |n² − 1| < 1/4, and beyond).
            let v: [f64; 4] = core::array::from_fn(|_| f64::from(x.next() as i32) / 2_147_483_648.0);
            let n = v.iter().map(|c| c * c).sum::<f64>().sqrt().max(1e-9);
            let spread = if x.next() % 3 == 0 { 6.0 } else { 384.0 };
            let len = 1.0 + (f64::from(x.next() as i32) / 2_147_483_648.0) / spread;
            let b = v.map(|c| (c / n * len * 65536.0).round() as i32);
            let q = quat(b);
            let n2 = q.dot(q).to_bits() - 0x1_0000;
            if n2.abs() < 256 {
                near += 1;
            } else if n2.abs() < 0x4000 {
                mid += 1;
            }
            check(b);
            // Small perturbations of the components, and arbitrary words.
            check(b.map(|c| c.wrapping_add((x.next() >> 29) as i32 - 4)));
            check([x.next() as i32 >> 14, x.next() as i32 >> 14, x.next() as i32 >> 15, x.next() as i32 >> 15]);
        }
        assert!(near > 130_000 && mid > 60_000, "{near} {mid}");
    }
}
