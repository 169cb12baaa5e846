//! [`DirectSamplingContext`]: key cursors plus, per bone, where its keys are, so that a bone
//! whose channels share their key times is sampled with one bracket search per run of times and a
//! direct read of its key pairs.

use super::{
    key_values, lerp_values, locate, sample_bone, sealed, width, Bracket, Memo, RotationInterp, SamplingContext,
    SamplingJob, SamplingState,
};
use crate::scalar::Scalar;
use crate::skeleton::source::{ChannelKind, DirectTimes, Joint, Scalars, SkelClipSource, SkeletonSource};

/// A [`SamplingContext`] that also remembers, per bone, where the clip keeps its keys (the
/// source's [`DirectBone`](crate::skeleton::DirectBone)): a bone whose channels are Linear and keyed at the same times is
/// sampled by reading its two key pairs in place, and the bracket of those times is found once
/// for every bone that shares them (the usual clip: every animated bone keyed at the same sample
/// times), and a row of bones whose rotation alone is animated (the others at rest) in a loop of
/// its own. The keys stay where the clip keeps them (only each bone's rest pose is copied, once),
/// so a forward step into the next keys costs nothing more, and a seek costs one search per run.
///
/// Results are bit-identical to [`SamplingContext`]'s: the same keys are read and interpolated by
/// the same code. A bone the source cannot describe so (Step or Hermite channels, quantised or
/// packed values, channels keyed at different times, a source without a layout such as
/// [`SliceSkelClip`](crate::skeleton::SliceSkelClip)) is sampled channel by channel, as a
/// [`SamplingContext`] samples it. A bone without channels takes the rest pose without asking the
/// clip again.
///
/// **Memory**: per bone 12 bytes of cursors and a 64-byte plan (24 bytes of layout and the rest
/// pose, 40 bytes for [`Transform3`](crate::math::Transform3); 48 with a
/// [`Transform2`](crate::math::Transform2)), plus the keys of the clip and skeleton it belongs
/// to (an `Option<(usize, usize)>`, 12 bytes on a 32-bit target) and a count (a `usize`), the
/// whole rounded up to 8: **76 bytes per bone** in 3D (60 in 2D), 5,336 bytes for 70 bones on a microcontroller (a
/// [`SamplingContext`] is 12 per bone, a
/// [`CachedSamplingContext`](super::CachedSamplingContext) 124).
///
/// # What it belongs to
///
/// The layouts and rest poses belong to one clip and one skeleton, recognised by
/// [`SkelClipSource::cache_key`] and [`SkeletonSource::cache_key`] (the addresses of their data):
/// sampling another clip or skeleton with the context starts over, and a source without a key is
/// sampled as with a [`SamplingContext`]. Call [`DirectSamplingContext::invalidate`] after
/// changing a clip or a skeleton in place, or after reloading another blob at the same address.
///
/// ```
/// use ossicle::math::{Transform3, Vec3};
/// use ossicle::skeleton::{
///     ChannelData, DirectSamplingContext, Interpolation, SamplingJob, SliceSkelClip, SliceSkeleton, SliceTrack,
/// };
///
/// let parents = [u16::MAX];
/// let rest = [Transform3::<f32>::IDENTITY];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// let times = [0.0f32, 1.0];
/// let values = [0.0f32, 0.0, 0.0, 2.0, 0.0, 0.0];
/// let translation =
///     ChannelData { interpolation: Interpolation::Linear, times: &times[..], values: &values[..], tangents: &[][..] };
/// let tracks = [SliceTrack { channels: [Some(translation), None, None] }];
/// let clip = SliceSkelClip { duration: 1.0, looping: false, tracks: &tracks, events: &[] };
///
/// let mut ctx = DirectSamplingContext::<f32, Transform3<f32>, 2>::new();
/// let mut pose = [Transform3::IDENTITY; 1];
/// SamplingJob::new(&skeleton, &clip, 0.25).run(&mut ctx, &mut pose).unwrap();
/// assert_eq!(pose[0].translation, Vec3::new(0.5, 0.0, 0.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DirectSamplingContext<S, J, const N: usize> {
    /// The cache keys of the clip and of the skeleton the plans belong to (`None`: no plan is
    /// valid).
    keys: Option<(usize, usize)>,
    /// The key cursors (what a plain context keeps; a run's first bone keeps the run's).
    plain: SamplingContext<N>,
    plans: [Plan<J>; N],
    /// The plans made: those of bones `0..planned`.
    planned: usize,
    _scalar: core::marker::PhantomData<S>,
}

/// What the context knows of one bone: 24 bytes and its rest pose.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plan<J> {
    /// What to do: [`UNKNOWN`], [`REST`], [`CHANNELS`], or (1 to 7) read directly the channels
    /// of this mask ([`DirectBone::mask`](crate::skeleton::DirectBone::mask)).
    kind: u8,
    /// [`DirectBone::values`](crate::skeleton::DirectBone::values).
    values: [u32; 3],
    /// The run of key times, [`DirectBone::times`](super::super::source::DirectBone::times) in one number: `at` in bits 0-31, `keys` in
    /// bits 32-62 and `indexed` in bit 63 (never [`NO_RUN`], `keys` being at least 2).
    run: u64,
    /// The bone's rest pose as the skeleton gives it, with each single-key channel's value in
    /// place of its own (the channels a direct bone does not read).
    rest: J,
}

/// [`Plan::kind`]: no channels, the rest pose.
const REST: u8 = 8;
/// [`Plan::kind`]: the rotation alone read directly (the usual animated bone of a clip whose
/// other channels are the rest pose).
const ROTATION: u8 = 0b010;
/// [`Plan::kind`]: channel by channel.
const CHANNELS: u8 = 9;
/// [`Plan::kind`]: not asked yet.
const UNKNOWN: u8 = 0;

impl<J: Copy> Plan<J> {
    /// Nothing known yet (`rest` is a placeholder).
    const fn unknown(rest: J) -> Self {
        Self { kind: UNKNOWN, values: [0; 3], run: NO_RUN, rest }
    }

    /// The run's times as the source described them.
    #[inline(always)]
    fn times(&self) -> DirectTimes {
        DirectTimes { at: self.run as u32, keys: (self.run >> 32) as u32 & 0x7FFF_FFFF, indexed: self.run >> 63 != 0 }
    }
}

/// The plan of bone `i`: what the source says of it ([`SkelClipSource::direct_bone`]) and its
/// rest pose, with the value of each single-key channel in place of the rest pose's (channel by
/// channel when the source says nothing, or something no direct read can use: fewer than 2 keys,
/// or 2^31 keys or more).
fn plan_of<S, J, K, C>(job: &SamplingJob<'_, S, K, C>, i: usize) -> Plan<J>
where
    S: Scalar,
    J: Joint<S>,
    K: SkeletonSource<S, J>,
    C: SkelClipSource<S>,
{
    let mut rest = job.skeleton.rest(i);
    let channels = Plan { kind: CHANNELS, ..Plan::unknown(rest) };
    let Some(d) = job.clip.direct_bone(i, J::WIDTHS) else { return channels };
    for kind in ChannelKind::ALL {
        if d.constant & (1 << kind.index()) != 0 {
            // A single key: its value at every time (as `sample_channel` reads it), kept with the
            // rest pose.
            match job.clip.channel(i, kind) {
                Some(ch) if ch.times.len() == 1 => {
                    rest.set_channel_values(kind, key_values(&ch.values, 0, width::<S, J>(kind)))
                }
                _ => return channels,
            }
        }
    }
    let mask = d.mask & 0b111 & !d.constant;
    if mask == 0 {
        return Plan { kind: REST, ..Plan::unknown(rest) };
    }
    if !(2..1 << 31).contains(&d.times.keys) {
        return channels;
    }
    Plan {
        kind: mask,
        values: d.values,
        run: u64::from(d.times.at) | u64::from(d.times.keys) << 32 | u64::from(d.times.indexed) << 63,
        rest,
    }
}

/// Where the sampling time falls in the run of key times last located: the key pair
/// `(pair, pair + 1)` and what to take of it.
#[derive(Clone, Copy)]
struct Run<S> {
    /// [`Plan::run`] of the bones it serves.
    id: u64,
    pair: usize,
    take: Take<S>,
}

impl<S> Run<S> {
    /// No run.
    const NONE: Self = Self { id: NO_RUN, pair: 0, take: Take::First };
}

#[derive(Clone, Copy)]
enum Take<S> {
    /// The first key of the pair, as it is.
    First,
    /// The second key of the pair, as it is (the last key).
    Second,
    /// Between the keys at `u`.
    Between(S),
}

impl<S: Scalar, J: Joint<S>, const N: usize> Default for DirectSamplingContext<S, J, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, J: Joint<S>, const N: usize> DirectSamplingContext<S, J, N> {
    /// A context with every cursor at the first key and no layout known.
    pub const fn new() -> Self {
        Self {
            keys: None,
            plain: SamplingContext::new(),
            // Every byte of a new context is 0 (`UNKNOWN`, `NO_RUN`, `None`, zero cursors, and
            // `BLEND_ZERO` as the placeholder rest pose): it costs no initialiser in flash.
            plans: [Plan::unknown(J::BLEND_ZERO); N],
            planned: 0,
            _scalar: core::marker::PhantomData,
        }
    }

    /// Forgets the layouts and rest poses, and resets the cursors.
    pub fn invalidate(&mut self) {
        self.keys = None;
        self.planned = 0;
        self.plain.invalidate();
    }

    /// The number of bones it has room for (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<S, J, const N: usize> sealed::Sealed for DirectSamplingContext<S, J, N> {}

impl<S: Scalar, J: Joint<S>, const N: usize> SamplingState<S, J> for DirectSamplingContext<S, J, N> {
    const NEW: Self = Self::new();

    fn capacity(&self) -> usize {
        N
    }

    fn invalidate(&mut self) {
        DirectSamplingContext::invalidate(self);
    }

    fn sample<K, C>(&mut self, job: &SamplingJob<'_, S, K, C>, t: S, output: &mut [J])
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        let keys = job.clip.cache_key().zip(job.skeleton.cache_key());
        if keys.is_none() {
            // Nothing to recognise the clip or the skeleton by: sample as a plain context would.
            SamplingState::<S, J>::sample(&mut self.plain, job, t, output);
            self.keys = None;
            return;
        }
        if self.keys != keys {
            self.invalidate();
            self.keys = keys;
        }
        let bones = job.skeleton.bone_count();
        let slerp = job.rotation == RotationInterp::Slerp;
        let lod = job.lod != u8::MAX;
        let mut memo = Memo::NEW;
        // The last two runs located (a clip's few odd bones need not make the others search again).
        let mut run = Run::NONE;
        let mut other = Run::NONE;
        let cursors = &mut self.plain.cursors;
        // Slices of one length: a plain counted loop.
        let n = bones.min(N).min(output.len());
        let (Some(output), Some(plans)) = (output.get_mut(..n), self.plans.get_mut(..n)) else { return };
        if self.planned < n {
            // What the source says of each bone, once per clip (and skeleton): every plan of the
            // bones sampled is made before the loop below.
            for (i, plan) in plans.iter_mut().enumerate().skip(self.planned) {
                *plan = plan_of(job, i);
            }
            self.planned = n;
        }
        let mut i = 0;
        while let (Some(out), Some(plan)) = (output.get_mut(i), plans.get_mut(i)) {
            let kind = plan.kind;
            if lod && job.above_lod(i) {
                // The skeleton's rest pose (the plan's has the single-key channels' values).
                *out = job.skeleton.rest(i);
                i += 1;
                continue;
            }
            if kind == REST {
                *out = plan.rest;
                i += 1;
                continue;
            }
            if kind < REST {
                let found = run.id == plan.run || {
                    if other.id == plan.run {
                        core::mem::swap(&mut run, &mut other);
                    } else {
                        other = run;
                        run = locate_run(job.clip, plan, t, cursors.get_mut(i), &mut memo).unwrap_or(Run::NONE);
                    }
                    run.id == plan.run
                };
                if found && read_direct(job.clip, plan, &run, slerp, out) {
                    i += 1;
                    if let (Take::Between(u), false, false) = (run.take, slerp, lod) {
                        // The usual clip: a row of bones whose rotation alone is animated, on
                        // this run; nlerp between two keys (a loop of its own: fewer registers
                        // live, fewer spills).
                        i = rotations(job.clip, &run, u, i, output, plans);
                    }
                    continue;
                }
            }
            // Channel by channel (a bone the source cannot describe, or could not read).
            let mut spare = [0; 3];
            let cursor = cursors.get_mut(i).unwrap_or(&mut spare);
            *out = sample_bone(job, i, t, cursor, slerp, &mut memo);
            i += 1;
        }
    }
}

/// From bone `i` on, the bones whose plan is [`ROTATION`] on `run` (whose take is between two
/// keys at `u`): the rest pose with the rotation nlerped, as [`read_direct`] does for them, and
/// the bones without channels ([`REST`]) among them; returns the first bone it did not sample.
#[inline(always)]
fn rotations<S, J, C>(clip: &C, run: &Run<S>, u: S, mut i: usize, output: &mut [J], plans: &[Plan<J>]) -> usize
where
    S: Scalar,
    J: Joint<S>,
    C: SkelClipSource<S>,
{
    let kind = ChannelKind::Rotation;
    let w = width::<S, J>(kind);
    while let (Some(out), Some(plan)) = (output.get_mut(i), plans.get(i)) {
        if plan.kind == REST {
            *out = plan.rest;
            i += 1;
            continue;
        }
        if plan.kind != ROTATION || plan.run != run.id {
            break;
        }
        let [_, values, _] = plan.values;
        let Some((a, b)) = clip.direct_pair(values, run.pair, w) else { break };
        *out = plan.rest;
        out.set_channel_values(kind, J::interpolate_rotation(a, b, u, false));
        i += 1;
    }
    i
}

/// No run (what `Run::id` starts as: no plan has it, its key count being 0).
const NO_RUN: u64 = 0;

/// A bone read directly as `plan` says into `out`, with its keys' bracket `run`; false when the
/// source could not (`out` is then partly written: the caller samples the bone again).
#[inline(always)]
fn read_direct<S, J, C>(clip: &C, plan: &Plan<J>, run: &Run<S>, slerp: bool, out: &mut J) -> bool
where
    S: Scalar,
    J: Joint<S>,
    C: SkelClipSource<S>,
{
    let mask = plan.kind;
    if mask != 0b111 {
        *out = plan.rest;
    }
    let (pair, take) = (run.pair, run.take);
    let [vt, vr, vs] = plan.values;
    // Written out per kind, so that each kind's width is a constant.
    if mask & 1 != 0 {
        let kind = ChannelKind::Translation;
        let w = width::<S, J>(kind);
        let Some((a, b)) = clip.direct_pair(vt, pair, w) else { return false };
        out.set_channel_values(kind, pick(a, b, take, |a, b, u| lerp_values(a, b, u, w)));
    }
    if mask & 2 != 0 {
        let kind = ChannelKind::Rotation;
        let Some((a, b)) = clip.direct_pair(vr, pair, width::<S, J>(kind)) else { return false };
        // A constant `slerp` in each branch (see `lerp_joint`).
        let v = if slerp {
            pick(a, b, take, |a, b, u| J::interpolate_rotation(a, b, u, true))
        } else {
            pick(a, b, take, |a, b, u| J::interpolate_rotation(a, b, u, false))
        };
        out.set_channel_values(kind, v);
    }
    if mask & 4 != 0 {
        let kind = ChannelKind::Scale;
        let w = width::<S, J>(kind);
        let Some((a, b)) = clip.direct_pair(vs, pair, w) else { return false };
        out.set_channel_values(kind, pick(a, b, take, |a, b, u| lerp_values(a, b, u, w)));
    }
    true
}

/// The key pair `(a, b)` as `take` says: `a` or `b` as they are, or `between(a, b, u)`.
#[inline(always)]
fn pick<S: Scalar>(a: [S; 4], b: [S; 4], take: Take<S>, between: impl Fn([S; 4], [S; 4], S) -> [S; 4]) -> [S; 4] {
    match take {
        Take::First => a,
        Take::Second => b,
        Take::Between(u) => between(a, b, u),
    }
}

/// Finds `t` among the key times of `plan`'s run (from the bone's rotation cursor, as a
/// [`SamplingContext`] finds a channel's bracket), as the pair to read and what to take of it.
#[inline(never)]
fn locate_run<S: Scalar, C: SkelClipSource<S>, J: Copy>(
    clip: &C,
    plan: &Plan<J>,
    t: S,
    cursor: Option<&mut [u32; 3]>,
    memo: &mut Memo<S>,
) -> Option<Run<S>> {
    let times = plan.times();
    let view = clip.direct_times(times)?;
    let [_, cr, _] = cursor?;
    let bracket = locate(&view, t, cr, memo.hint);
    memo.hint = *cr as usize;
    let (pair, take) = match bracket {
        // `keys >= 2` (a direct bone's), so the last key is the second of the last pair.
        Bracket::Key(k) if k.wrapping_add(1) >= times.keys as usize => (k.wrapping_sub(1), Take::Second),
        Bracket::Key(k) => (k, Take::First),
        Bracket::Between(k, t0, t1) => (k, Take::Between(memo.u(t, t0, t1))),
    };
    Some(Run { id: plan.run, pair, take })
}
