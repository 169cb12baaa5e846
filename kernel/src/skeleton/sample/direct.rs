//! [`DirectSamplingContext`]: key cursors plus, per bone, where its keys are, so that a bone
//! whose channels share their key times is sampled with one bracket search per run of times and a
//! direct read of its key pairs.

use super::{
    key_values, lerp_values, locate, sample_bone, sealed, width, Bracket, Memo, RotationInterp, SamplingContext,
    SamplingJob, SamplingState,
};
use crate::math::Transform3;
use crate::scalar::{Scalar, ScalarEncoding};
use crate::skeleton::soa::{normalize_f32x4, normalize_lanes, soa_count, SoaQuat, SoaTransform3};
use crate::skeleton::source::{ChannelKind, DirectTimes, Joint, Scalars, SkelClipSource, SkeletonSource};
use wide::{f32x4, CmpEq, CmpLt};

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
/// pose, 40 bytes for [`Transform3`]; 48 with a
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
        self.sample_to(job, t, output);
    }
}

impl<S: Scalar, J: Joint<S>, const N: usize> DirectSamplingContext<S, J, N> {
    /// [`SamplingState::sample`] into `output`: a slice of joints, or SoA groups
    /// ([`SamplingJob::run_soa`]).
    #[inline(always)]
    fn sample_to<K, C, O>(&mut self, job: &SamplingJob<'_, S, K, C>, t: S, output: &mut O)
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
        O: Out<S, J> + ?Sized,
    {
        let keys = job.clip.cache_key().zip(job.skeleton.cache_key());
        let bones = job.skeleton.bone_count();
        let slerp = job.rotation == RotationInterp::Slerp;
        let mut memo = Memo::NEW;
        if keys.is_none() {
            // Nothing to recognise the clip or the skeleton by: sample as a plain context would.
            self.keys = None;
            output.plain(&mut self.plain, job, t);
            return;
        }
        if self.keys != keys {
            self.invalidate();
            self.keys = keys;
        }
        let lod = job.lod != u8::MAX;
        // The last two runs located (a clip's few odd bones need not make the others search again).
        let mut run = Run::NONE;
        let mut other = Run::NONE;
        let cursors = &mut self.plain.cursors;
        let n = bones.min(N).min(output.joints());
        let (Some(output), Some(plans)) = (output.first(n), self.plans.get_mut(..n)) else { return };
        if self.planned < n {
            // What the source says of each bone, once per clip (and skeleton): every plan of the
            // bones sampled is made before the loop below.
            for (i, plan) in plans.iter_mut().enumerate().skip(self.planned) {
                *plan = plan_of(job, i);
            }
            self.planned = n;
        }
        let mut i = 0;
        while let Some(plan) = plans.get(i) {
            let kind = plan.kind;
            if lod && job.above_lod(i) {
                // The skeleton's rest pose (the plan's has the single-key channels' values).
                output.put(i, job.skeleton.rest(i));
                i += 1;
                continue;
            }
            if kind == REST {
                output.put(i, plan.rest);
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
                if found && output.write(i, |out| read_direct(job.clip, plan, &run, slerp, out)) {
                    i += 1;
                    if !slerp && !lod && (O::EVERY_TAKE || matches!(run.take, Take::Between(_))) {
                        // The usual clip: a row of bones whose rotation alone is animated, on
                        // this run; nlerp between two keys (a loop of its own: fewer registers
                        // live, fewer spills).
                        i = output.rotations(job.clip, &run, i, plans);
                    }
                    continue;
                }
            }
            // Channel by channel (a bone the source cannot describe, or could not read).
            let mut spare = [0; 3];
            let cursor = cursors.get_mut(i).unwrap_or(&mut spare);
            output.put(i, sample_bone(job, i, t, cursor, slerp, &mut memo));
            i += 1;
        }
    }
}

/// Where [`DirectSamplingContext::sample_to`] writes the bones it samples: a slice of joints
/// (`[J]`, bone `i` at `i`) or SoA groups ([`SoaOut`], bone `i` in lane `i % 4` of group `i / 4`).
trait Out<S: Scalar, J: Joint<S>> {
    /// Whether [`Out::rotations`] takes runs at a key too (not only between two keys).
    const EVERY_TAKE: bool;
    /// The number of bones it holds.
    fn joints(&self) -> usize;
    /// The first `n` bones (`None` when it holds fewer).
    fn first(&mut self, n: usize) -> Option<&mut Self>;
    /// Writes bone `i` (nothing past the last bone).
    fn put(&mut self, i: usize, joint: J);
    /// Writes bone `i` through `f`, which starts from what the slot holds (a slice's joint in
    /// place; for SoA groups a copy of the identity, written to the lanes after) and tells
    /// whether it wrote the bone: false (and bone `i` left to be written again) when it did not,
    /// or when there is no bone `i`.
    fn write(&mut self, i: usize, f: impl FnOnce(&mut J) -> bool) -> bool;
    /// From bone `i` on, the bones whose plan is [`ROTATION`] on `run` (between two keys at `u`),
    /// and the [`REST`] bones among them; returns the first bone it did not sample.
    /// Samples `job` at `t` as a plain context does (a source without cache keys).
    fn plain<K, C, const M: usize>(&mut self, ctx: &mut SamplingContext<M>, job: &SamplingJob<'_, S, K, C>, t: S)
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>;
    /// (A slice of joints takes only a run between two keys, the others bone by bone.)
    fn rotations<C: SkelClipSource<S>>(&mut self, clip: &C, run: &Run<S>, i: usize, plans: &[Plan<J>]) -> usize;
}

impl<S: Scalar, J: Joint<S>> Out<S, J> for [J] {
    const EVERY_TAKE: bool = false;
    #[inline(always)]
    fn joints(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn first(&mut self, n: usize) -> Option<&mut Self> {
        self.get_mut(..n)
    }
    fn plain<K, C, const M: usize>(&mut self, ctx: &mut SamplingContext<M>, job: &SamplingJob<'_, S, K, C>, t: S)
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        SamplingState::<S, J>::sample(ctx, job, t, self);
    }
    #[inline(always)]
    fn put(&mut self, i: usize, joint: J) {
        if let Some(out) = self.get_mut(i) {
            *out = joint;
        }
    }
    #[inline(always)]
    fn write(&mut self, i: usize, f: impl FnOnce(&mut J) -> bool) -> bool {
        self.get_mut(i).is_some_and(f)
    }
    #[inline(always)]
    fn rotations<C: SkelClipSource<S>>(&mut self, clip: &C, run: &Run<S>, i: usize, plans: &[Plan<J>]) -> usize {
        match run.take {
            Take::Between(u) => rotations(clip, run, u, i, self, plans),
            _ => i,
        }
    }
}

/// A [`DirectSamplingContext`] for sampling into structure-of-arrays groups
/// ([`SamplingJob::run_soa`]): the same plans and cursors, plus the bones' rest poses in
/// [`SoaTransform3`] groups, so that a group of bones whose rotation alone is animated (or none
/// of whose channels is) is written as its rest group with the rotations in place, without
/// transposing four rest poses on every run. The results are [`SamplingJob::run`]'s with a
/// [`DirectSamplingContext`] followed by [`SoaTransform3::pack`], bit for bit.
///
/// **Memory**: a [`DirectSamplingContext`] and 40 bytes per bone (the rest groups): **116 bytes
/// per bone** (8,120 bytes for 70 bones on x86-64 with f32). What it belongs to, and when to call
/// [`SoaSamplingContext::invalidate`], as for a [`DirectSamplingContext`].
#[derive(Clone, Debug, PartialEq)]
pub struct SoaSamplingContext<S, const N: usize> {
    pub(in crate::skeleton) direct: DirectSamplingContext<S, Transform3<S>, N>,
    /// The rest groups: group `g`'s 40 numbers (as [`SoaTransform3`] lays them out: translation
    /// x, y, z, rotation x, y, z, w, scale x, y, z, four lanes each) in rows `4g..4g + 4`, for
    /// the groups `0..made` (whole groups of bones `0..N` only).
    rest: [[S; 10]; N],
    made: usize,
}

impl<S: Scalar, const N: usize> Default for SoaSamplingContext<S, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const N: usize> SoaSamplingContext<S, N> {
    /// A context with every cursor at the first key and no layout known.
    pub const fn new() -> Self {
        Self { direct: DirectSamplingContext::new(), rest: [[S::ZERO; 10]; N], made: 0 }
    }

    /// Forgets the layouts and rest poses, and resets the cursors.
    pub fn invalidate(&mut self) {
        self.direct.invalidate();
        self.made = 0;
    }

    /// The number of bones it has room for (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }

    /// [`SamplingJob::run_soa`]'s work: bones `0..bones` sampled into `output`'s lanes (the job
    /// has validated the sizes), then the lanes of the last group past the last bone set to the
    /// identity.
    pub(in crate::skeleton) fn sample_soa<K, C>(
        &mut self,
        job: &SamplingJob<'_, S, K, C>,
        t: S,
        output: &mut [SoaTransform3<S>],
    ) where
        K: SkeletonSource<S, Transform3<S>>,
        C: SkelClipSource<S>,
    {
        let keys = job.clip.cache_key().zip(job.skeleton.cache_key());
        if keys.is_none() || keys != self.direct.keys {
            // New plans (or none): the rest groups are made again from them.
            self.made = 0;
        }
        let mut out = SoaOut { groups: output, rest: &mut self.rest, made: &mut self.made };
        self.direct.sample_to(job, t, &mut out);
        let bones = job.skeleton.bone_count();
        for i in bones..soa_count(bones).wrapping_mul(4) {
            out.put(i, Transform3::IDENTITY);
        }
    }
}

/// SoA groups as an [`Out`]: bone `i` in lane `i % 4` of group `i / 4`, with the context's rest
/// groups.
struct SoaOut<'a, S> {
    groups: &'a mut [SoaTransform3<S>],
    rest: &'a mut [[S; 10]],
    made: &'a mut usize,
}

/// Rest group `g` (lanes `4g..4g + 4` of `plans`) as stored in `rest` (rows `4g..4g + 4`: the
/// group's 40 numbers, ten lanes of four); the groups up to it are made from the plans the first
/// time (every plan is made before the loop that asks). `None` for a group that `rest` does not
/// hold whole.
#[inline(always)]
fn rest_chunk<S: Scalar>(
    rest: &mut [[S; 10]],
    made: &mut usize,
    g: usize,
    plans: &[Plan<Transform3<S>>],
) -> Option<[[S; 4]; 10]> {
    if g >= *made {
        make_rest_groups(rest, plans, *made, g + 1);
        *made = g + 1;
    }
    let at = g.wrapping_mul(4);
    let rows: &[[S; 10]; 4] = rest.get(at..at.wrapping_add(4))?.try_into().ok()?;
    // Written out (constant positions): the ten lanes are 16-byte loads.
    let [[a0, a1, a2, a3, a4, a5, a6, a7, a8, a9], [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9], [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9], [d0, d1, d2, d3, d4, d5, d6, d7, d8, d9]] =
        *rows;
    Some([
        [a0, a1, a2, a3],
        [a4, a5, a6, a7],
        [a8, a9, b0, b1],
        [b2, b3, b4, b5],
        [b6, b7, b8, b9],
        [c0, c1, c2, c3],
        [c4, c5, c6, c7],
        [c8, c9, d0, d1],
        [d2, d3, d4, d5],
        [d6, d7, d8, d9],
    ])
}

/// Rest groups `from..to` into `rest` (four rows of ten per group: its ten lanes of four in
/// order), from the plans' rest poses (those of whole groups that both hold).
#[cold]
#[inline(never)]
fn make_rest_groups<S: Scalar>(rest: &mut [[S; 10]], plans: &[Plan<Transform3<S>>], from: usize, to: usize) {
    let groups = rest.chunks_exact_mut(4).zip(plans.chunks_exact(4));
    for (rows, four) in groups.skip(from).take(to.saturating_sub(from)) {
        if let [p0, p1, p2, p3] = four {
            let r = SoaTransform3::from_joints([p0.rest, p1.rest, p2.rest, p3.rest]);
            let (t, q, s) = (r.translation, r.rotation, r.scale);
            let lanes = [t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z];
            for (c, v) in rows.as_flattened_mut().iter_mut().zip(lanes.iter().flatten()) {
                *c = *v;
            }
        }
    }
}

impl<S: Scalar> Out<S, Transform3<S>> for SoaOut<'_, S> {
    const EVERY_TAKE: bool = true;
    #[inline(always)]
    fn joints(&self) -> usize {
        self.groups.len().saturating_mul(4)
    }
    #[inline(always)]
    fn first(&mut self, n: usize) -> Option<&mut Self> {
        (n <= self.joints()).then_some(self)
    }
    fn plain<K, C, const M: usize>(&mut self, ctx: &mut SamplingContext<M>, job: &SamplingJob<'_, S, K, C>, t: S)
    where
        K: SkeletonSource<S, Transform3<S>>,
        C: SkelClipSource<S>,
    {
        let bones = job.skeleton.bone_count().min(self.joints());
        let slerp = job.rotation == RotationInterp::Slerp;
        let mut memo = Memo::NEW;
        for (i, cursor) in ctx.cursors.iter_mut().take(bones).enumerate() {
            let joint =
                if job.above_lod(i) { job.skeleton.rest(i) } else { sample_bone(job, i, t, cursor, slerp, &mut memo) };
            self.put(i, joint);
        }
    }
    #[inline(always)]
    fn put(&mut self, i: usize, joint: Transform3<S>) {
        if let Some(group) = self.groups.get_mut(i / 4) {
            group.set_joint(i % 4, joint);
        }
    }
    #[inline(always)]
    fn write(&mut self, i: usize, f: impl FnOnce(&mut Transform3<S>) -> bool) -> bool {
        let mut joint = Transform3::IDENTITY;
        let done = f(&mut joint);
        if done {
            self.put(i, joint);
        }
        done
    }
    #[inline(always)]
    fn rotations<C: SkelClipSource<S>>(
        &mut self,
        clip: &C,
        run: &Run<S>,
        i: usize,
        plans: &[Plan<Transform3<S>>],
    ) -> usize {
        rotations_soa(clip, run, i, self, plans)
    }
}

/// [`rotations`] into SoA groups: four bones that start a group and are all [`ROTATION`] bones
/// on `run` or [`REST`] bones are written as their stored rest group, in f32 with the rotations
/// of the [`ROTATION`] bones computed together on [`f32x4`] lanes ([`group_rotations`]: the same
/// bits as `nlerp_quat`); other bones (and in Q16.16 every group with an animated bone) one by
/// one, as [`rotations`].
#[inline(always)]
fn rotations_soa<S, C>(
    clip: &C,
    run: &Run<S>,
    mut i: usize,
    output: &mut SoaOut<'_, S>,
    plans: &[Plan<Transform3<S>>],
) -> usize
where
    S: Scalar,
    C: SkelClipSource<S>,
{
    let kind = ChannelKind::Rotation;
    let on = |p: &Plan<Transform3<S>>| p.kind == ROTATION && p.run == run.id;
    loop {
        if i % 4 == 0 {
            if let Some(lanes) = plans.get(i..i + 4).and_then(|p| <&[_; 4]>::try_from(p).ok()) {
                let g = i / 4;
                if lanes.iter().all(|p| on(p) || p.kind == REST) {
                    let SoaOut { groups, rest, made } = output;
                    if let (Some(stored), Some(out)) = (rest_chunk(rest, made, g, plans), groups.get_mut(g)) {
                        let [tx, ty, tz, qx, qy, qz, qw, sx, sy, sz] = stored;
                        let still = [qx, qy, qz, qw];
                        let animated = lanes.map(|p| p.kind == ROTATION);
                        let rotation = if animated == [false; 4] {
                            Some(still)
                        } else if S::ENCODING == ScalarEncoding::F32 {
                            group_rotations(clip, run, lanes, still)
                        } else {
                            // Q16.16 bone by bone below (measured faster than a group's four
                            // nlerps written lane by lane: BENCHMARKS.md, session 12).
                            None
                        };
                        if let Some([rx, ry, rz, rw]) = rotation {
                            // Written field by field, straight from the stored rest group.
                            (out.translation.x, out.translation.y, out.translation.z) = (tx, ty, tz);
                            (out.rotation.x, out.rotation.y, out.rotation.z, out.rotation.w) = (rx, ry, rz, rw);
                            (out.scale.x, out.scale.y, out.scale.z) = (sx, sy, sz);
                            i += 4;
                            continue;
                        }
                    }
                }
            }
        }
        let Some(plan) = plans.get(i) else { break };
        if plan.kind == REST {
            output.put(i, plan.rest);
            i += 1;
            continue;
        }
        if !on(plan) {
            break;
        }
        let [_, values, _] = plan.values;
        let Some((a, b)) = clip.direct_pair(values, run.pair, 4) else { break };
        let mut joint = plan.rest;
        joint
            .set_channel_values(kind, pick(a, b, run.take, |a, b, u| Transform3::interpolate_rotation(a, b, u, false)));
        output.put(i, joint);
        i += 1;
    }
    i
}

/// The rotation lanes of a group in f32: `still` (the rest rotations) where a bone is not a
/// [`ROTATION`] bone, elsewhere its keys nlerped (or taken) with `nlerp_quat`'s operations on
/// [`f32x4`] lanes, so the same bits. `None` when a key pair cannot be read.
#[inline(always)]
fn group_rotations<S: Scalar, C: SkelClipSource<S>>(
    clip: &C,
    run: &Run<S>,
    lanes: &[Plan<Transform3<S>>; 4],
    still: [[S; 4]; 4],
) -> Option<[[S; 4]; 4]> {
    let f = |v: [S; 4]| f32x4::from(v.map(S::to_f32));
    let mut a = [f32x4::from([0.0, 0.0, 0.0, 1.0]); 4];
    let mut b = a;
    let mut animated = [0.0f32; 4];
    for (((p, a), b), m) in lanes.iter().zip(&mut a).zip(&mut b).zip(&mut animated) {
        if p.kind == ROTATION {
            let [_, values, _] = p.values;
            let (ka, kb) = clip.direct_pair(values, run.pair, 4)?;
            (*a, *b, *m) = (f(ka), f(kb), 1.0);
        }
    }
    let keep = f32x4::from(animated).cmp_eq(f32x4::ZERO);
    let q = match run.take {
        Take::Between(u) => {
            let [ax, ay, az, aw] = f32x4::transpose(a);
            let [bx, by, bz, bw] = f32x4::transpose(b);
            // `dot_negative(a, b)`: `a.dot(b) < 0`, summed as `Quat::dot` does.
            let flip = (ax * bx + ay * by + az * bz + aw * bw).cmp_lt(f32x4::ZERO);
            let side = |c: f32x4| flip.blend(-c, c);
            let uu = f32x4::splat(u.to_f32());
            // `a.lerp(b, u)` per component: a + (b − a)·u.
            let l = |a: f32x4, b: f32x4| a + (side(b) - a) * uu;
            let q = [l(ax, bx), l(ay, by), l(az, bz), l(aw, bw)];
            match normalize_f32x4(q) {
                Some(n) => n,
                None => {
                    let back = |v: f32x4| v.to_array().map(|c| S::from_blob_bits(c.to_bits()));
                    let [x, y, z, w] = q;
                    let n = normalize_lanes(SoaQuat { x: back(x), y: back(y), z: back(z), w: back(w) });
                    [f(n.x), f(n.y), f(n.z), f(n.w)]
                }
            }
        }
        // A key as it is.
        Take::First => f32x4::transpose(a),
        Take::Second => f32x4::transpose(b),
    };
    let [sx, sy, sz, sw] = still;
    let out = |v: f32x4, s: [S; 4]| keep.blend(f(s), v).to_array().map(|c| S::from_blob_bits(c.to_bits()));
    let [x, y, z, w] = q;
    Some([out(x, sx), out(y, sy), out(z, sz), out(w, sw)])
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
