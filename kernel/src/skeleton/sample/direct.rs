//! [`DirectSamplingContext`]: key cursors plus, per bone, where its keys are, so that a bone
//! whose channels share their key times is sampled with one bracket search per run of times and a
//! direct read of its key pairs.

use super::{
    lerp_values, locate, sample_bone, sealed, width, Bracket, Memo, RotationInterp, SamplingContext, SamplingJob,
    SamplingState,
};
use crate::scalar::Scalar;
use crate::skeleton::source::{ChannelKind, DirectBone, DirectTimes, Joint, SkelClipSource, SkeletonSource};

/// A [`SamplingContext`] that also remembers, per bone, where the clip keeps its keys (the
/// source's [`DirectBone`]): a bone whose channels are Linear and keyed at the same times is
/// sampled by reading its two key pairs in place, and the bracket of those times is found once
/// for every bone that shares them (the usual clip: every animated bone keyed at the same sample
/// times). Nothing is copied out of the clip, so it costs little RAM, and a seek costs what a
/// forward step costs plus one search.
///
/// Results are bit-identical to [`SamplingContext`]'s: the same keys are read and interpolated by
/// the same code. A bone the source cannot describe so (Step or Hermite channels, quantised or
/// packed values, channels keyed at different times, a source without a layout such as
/// [`SliceSkelClip`](crate::skeleton::SliceSkelClip)) is sampled channel by channel, as a
/// [`SamplingContext`] samples it. A bone without channels takes the rest pose without asking the
/// clip again.
///
/// Which clip the remembered layout belongs to is recognised by
/// [`SkelClipSource::cache_key`], as for a [`CachedSamplingContext`](super::CachedSamplingContext):
/// sampling another clip with the context starts over (a source without a cache key is sampled as
/// with a [`SamplingContext`]). Call [`DirectSamplingContext::invalidate`] after changing a clip's
/// layout in place, or after reloading another blob at the same address.
///
/// **Memory**: 12 bytes of cursors and 24 of layout per bone, plus the clip's key (an
/// `Option<usize>`, 8 bytes on a 32-bit target): **36 bytes per bone**, 2,528 bytes for 70 bones
/// on a microcontroller (a [`SamplingContext`] is 12 per bone, a
/// [`CachedSamplingContext`](super::CachedSamplingContext) 124).
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
/// let mut ctx = DirectSamplingContext::<2>::new();
/// let mut pose = [Transform3::IDENTITY; 1];
/// SamplingJob::new(&skeleton, &clip, 0.25).run(&mut ctx, &mut pose).unwrap();
/// assert_eq!(pose[0].translation, Vec3::new(0.5, 0.0, 0.0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectSamplingContext<const N: usize> {
    /// The cache key of the clip the plans belong to (`None`: no plan is valid).
    clip: Option<usize>,
    /// The key cursors (what a plain context keeps; a run's first bone keeps the run's).
    plain: SamplingContext<N>,
    plans: [Plan; N],
}

/// What the context knows of one bone: 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    state: State,
    /// [`DirectBone::mask`].
    mask: u8,
    /// [`DirectTimes::indexed`].
    indexed: bool,
    /// [`DirectTimes::at`].
    at: u32,
    /// [`DirectTimes::keys`].
    keys: u32,
    /// [`DirectBone::values`].
    values: [u32; 3],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Not asked yet.
    Unknown,
    /// No channels: the rest pose.
    Rest,
    /// Read directly.
    Direct,
    /// Channel by channel.
    Channels,
}

impl Plan {
    const UNKNOWN: Self = Self { state: State::Unknown, mask: 0, indexed: false, at: 0, keys: 0, values: [0; 3] };

    /// The plan of what the source said of the bone.
    fn of(direct: Option<DirectBone>) -> Self {
        match direct {
            None => Self { state: State::Channels, ..Self::UNKNOWN },
            Some(d) if d.mask & 0b111 == 0 => Self { state: State::Rest, ..Self::UNKNOWN },
            Some(d) => Self {
                state: State::Direct,
                mask: d.mask & 0b111,
                indexed: d.times.indexed,
                at: d.times.at,
                keys: d.times.keys,
                values: d.values,
            },
        }
    }

    #[inline(always)]
    fn times(&self) -> DirectTimes {
        DirectTimes { at: self.at, keys: self.keys, indexed: self.indexed }
    }
}

/// Where the sampling time falls in the run of key times last located: the key pair
/// `(pair, pair + 1)` and what to take of it.
#[derive(Clone, Copy)]
struct Run<S> {
    times: Option<DirectTimes>,
    pair: usize,
    take: Take<S>,
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

impl<const N: usize> Default for DirectSamplingContext<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> DirectSamplingContext<N> {
    /// A context with every cursor at the first key and no layout known.
    pub const fn new() -> Self {
        Self { clip: None, plain: SamplingContext::new(), plans: [Plan::UNKNOWN; N] }
    }

    /// Forgets the layouts and resets the cursors.
    pub fn invalidate(&mut self) {
        self.clip = None;
        self.plain.invalidate();
        self.plans = [Plan::UNKNOWN; N];
    }

    /// The number of bones it has room for (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<const N: usize> sealed::Sealed for DirectSamplingContext<N> {}

impl<S: Scalar, J: Joint<S>, const N: usize> SamplingState<S, J> for DirectSamplingContext<N> {
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
        let key = job.clip.cache_key();
        if key.is_none() {
            SamplingState::<S, J>::sample(&mut self.plain, job, t, output);
            self.clip = None;
            return;
        }
        if self.clip != key {
            self.invalidate();
            self.clip = key;
        }
        let bones = job.skeleton.bone_count();
        let slerp = job.rotation == RotationInterp::Slerp;
        let widths = [ChannelKind::Translation, ChannelKind::Rotation, ChannelKind::Scale].map(width::<S, J>);
        let mut memo = Memo::NEW;
        let mut run = Run { times: None, pair: 0, take: Take::First };
        let slots = self.plain.cursors.iter_mut().zip(self.plans.iter_mut());
        for (i, (out, (cursor, plan))) in output.iter_mut().zip(slots).take(bones).enumerate() {
            if job.above_lod(i) {
                *out = job.skeleton.rest(i);
                continue;
            }
            if plan.state == State::Unknown {
                *plan = Plan::of(job.clip.direct_bone(i, widths));
            }
            *out = match plan.state {
                State::Rest => job.skeleton.rest(i),
                State::Direct => match sample_direct(job, i, t, cursor, plan, &mut run, slerp, &mut memo) {
                    Some(joint) => joint,
                    None => sample_bone(job, i, t, cursor, slerp, &mut memo),
                },
                _ => sample_bone(job, i, t, cursor, slerp, &mut memo),
            };
        }
    }
}

/// Bone `i` read directly as `plan` says (`None` when the source cannot: the caller samples it
/// channel by channel).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn sample_direct<S, J, K, C>(
    job: &SamplingJob<'_, S, K, C>,
    i: usize,
    t: S,
    cursor: &mut [u32; 3],
    plan: &Plan,
    run: &mut Run<S>,
    slerp: bool,
    memo: &mut Memo<S>,
) -> Option<J>
where
    S: Scalar,
    J: Joint<S>,
    K: SkeletonSource<S, J>,
    C: SkelClipSource<S>,
{
    let times = plan.times();
    if run.times != Some(times) {
        *run = locate_run(job.clip, times, t, cursor, memo)?;
    }
    let mut joint = if plan.mask == 0b111 { J::IDENTITY } else { job.skeleton.rest(i) };
    let (pair, take) = (run.pair, run.take);
    let [vt, vr, vs] = plan.values;
    // Written out per kind, so that each kind's width is a constant.
    if plan.mask & 1 != 0 {
        let kind = ChannelKind::Translation;
        let w = width::<S, J>(kind);
        let (a, b) = job.clip.direct_pair(vt, pair, w)?;
        joint.set_channel_values(kind, pick(a, b, take, |a, b, u| lerp_values(a, b, u, w)));
    }
    if plan.mask & 2 != 0 {
        let kind = ChannelKind::Rotation;
        let (a, b) = job.clip.direct_pair(vr, pair, width::<S, J>(kind))?;
        // A constant `slerp` in each branch (see `lerp_joint`).
        let v = if slerp {
            pick(a, b, take, |a, b, u| J::interpolate_rotation(a, b, u, true))
        } else {
            pick(a, b, take, |a, b, u| J::interpolate_rotation(a, b, u, false))
        };
        joint.set_channel_values(kind, v);
    }
    if plan.mask & 4 != 0 {
        let kind = ChannelKind::Scale;
        let w = width::<S, J>(kind);
        let (a, b) = job.clip.direct_pair(vs, pair, w)?;
        joint.set_channel_values(kind, pick(a, b, take, |a, b, u| lerp_values(a, b, u, w)));
    }
    Some(joint)
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

/// Finds `t` among the run `times` (from the bone's rotation cursor, as a [`SamplingContext`]
/// finds a channel's bracket), as the pair to read and what to take of it.
#[inline(never)]
fn locate_run<S: Scalar, C: SkelClipSource<S>>(
    clip: &C,
    times: DirectTimes,
    t: S,
    cursor: &mut [u32; 3],
    memo: &mut Memo<S>,
) -> Option<Run<S>> {
    let view = clip.direct_times(times)?;
    let [_, cr, _] = cursor;
    let bracket = locate(&view, t, cr, memo.hint);
    memo.hint = *cr as usize;
    let (pair, take) = match bracket {
        // `keys >= 2` (a direct bone's), so the last key is the second of the last pair.
        Bracket::Key(k) if k.wrapping_add(1) >= times.keys as usize => (k.wrapping_sub(1), Take::Second),
        Bracket::Key(k) => (k, Take::First),
        Bracket::Between(k, t0, t1) => (k, Take::Between(memo.u(t, t0, t1))),
    };
    Some(Run { times: Some(times), pair, take })
}
