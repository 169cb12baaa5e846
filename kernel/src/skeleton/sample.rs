//! The sampling job: a clip at a time → a local pose, with per-instance key cursors.

use super::l2m::JobError;
use super::source::{
    BoneHandle, ChannelData, ChannelKind, Interpolation, Joint, Scalars, SkelClipSource, SkeletonSource,
};
use crate::scalar::Scalar;

mod direct;
pub use direct::DirectSamplingContext;

/// How the sampling job interpolates 3D rotation keys (2D angles are always lerped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RotationInterp {
    /// Normalised lerp on the shortest arc: cheaper, exact at the keys and half-way, not at
    /// constant angular speed.
    #[default]
    Nlerp,
    /// Spherical lerp on the shortest arc: constant angular speed.
    Slerp,
}

/// Per-instance key cursors for the sampling job: one `u32` per bone and channel, for up to `N`
/// bones.
///
/// **12 bytes per bone** (`size_of::<SamplingContext<N>>() == 12 · N`), so a 70-bone context is
/// 840 bytes. A context belongs to one playing instance (one clip at one time); two instances
/// sampling the same clip at different times each want their own, for speed (sharing one is still
/// correct, see [the cursors](SamplingJob#cursors)).
///
/// ```
/// use ossicle::skeleton::SamplingContext;
///
/// const CTX: SamplingContext<70> = SamplingContext::new();
/// assert_eq!(core::mem::size_of_val(&CTX), 12 * 70);
/// assert_eq!(CTX.capacity(), 70);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamplingContext<const N: usize> {
    cursors: [[u32; 3]; N],
}

impl<const N: usize> Default for SamplingContext<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> SamplingContext<N> {
    /// A context with every cursor at the first key.
    pub const fn new() -> Self {
        Self { cursors: [[0; 3]; N] }
    }

    /// Resets every cursor to the first key (after switching clips or seeking; optional, see
    /// [SamplingJob#cursors]).
    pub fn invalidate(&mut self) {
        self.cursors = [[0; 3]; N];
    }

    /// The number of bones it has cursors for (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }
}

/// Samples a clip at a time into a local pose (one joint per skeleton bone).
///
/// `K` is the skeleton ([`SkeletonSource`]), `C` the clip ([`SkelClipSource`]).
///
/// # Time
///
/// A time within `[0, duration]` is sampled as it is (so `t = duration` samples the clip's last
/// keys, in a looping clip too: every key is reproduced at its own time). A time outside is brought
/// into the clip: a **looping** clip wraps it with [`Scalar::rem_euclid`] into `[0, duration)`
/// (negative times count back from the end, `2·duration` samples the start); a **non-looping** clip
/// clamps it to `[0, duration]`. Players keep their own time in `[0, duration)` for looping clips. A non-finite f32 time
/// samples `t = 0`.
///
/// # Keys
///
/// Per channel, with keys at times `t₀ < t₁ < … < tₙ₋₁`:
/// - before `t₀` the first key's value is held, from `tₙ₋₁` on the last key's value is held; in a
///   looping clip, between the last key and `duration` the last key is held too (there is no
///   interpolation from the last key round to the first: a clip that should close the loop
///   smoothly carries a last key at `duration` equal to its first);
/// - at a key's own time the key's value is returned exactly, as stored (bit for bit);
/// - between keys `k` and `k + 1`, with `u = (t − tₖ) / (tₖ₊₁ − tₖ)`: [`Interpolation::Step`] holds
///   key `k`; [`Interpolation::Linear`] lerps component-wise (3D rotations by [`Quat::nlerp`] on
///   the shortest arc, or [`Quat::slerp`] with [`RotationInterp::Slerp`]; 2D angles as plain
///   numbers); [`Interpolation::Hermite`] evaluates
///   `h₀₀(u)·vₖ + h₁₀(u)·Δt·outₖ + h₀₁(u)·vₖ₊₁ + h₁₁(u)·Δt·inₖ₊₁` per component
///   (`Δt = tₖ₊₁ − tₖ`, tangents in value units per second), 3D rotations then normalised.
///
/// A bone the clip has no channel for takes the skeleton's rest value for that channel (a channel
/// without keys, which no valid source returns, samples as zeros; nothing panics). Bones whose [`SkeletonSource::lod`] is above the job's `lod` take their rest
/// pose.
///
/// # Cursors
///
/// A [`SamplingContext`] keeps, per bone and channel, the index of the key last used (a `u32`). A
/// forward step checks that key's bracket and walks forward at most a few keys (O(1) amortised for
/// playback); a time before the cursor, or further ahead, is a binary search. The cursor is only a
/// hint: every result depends on the time alone (the bracket of keys around a time is unique), so
/// sampling the same time twice gives bit-identical poses, whatever was sampled in between, and a
/// context last used with another clip gives correct results (stale cursors are clamped to the
/// clip's keys and searched from). [`SamplingContext::invalidate`] resets the cursors, which only
/// saves the first search.
///
/// A [`CachedSamplingContext`] (any [`SamplingState`] can be passed to `run`) also keeps each
/// channel's two keys around the time last sampled, decoded, with the same results: a time still
/// between them reads nothing from the clip, which matters most for clips read in place from a
/// blob with quantised or packed keys.
///
/// [`Quat::nlerp`]: crate::math::Quat::nlerp
/// [`Quat::slerp`]: crate::math::Quat::slerp
///
/// ```
/// use ossicle::math::{Transform3, Vec3};
/// use ossicle::skeleton::{
///     ChannelData, Interpolation, RotationInterp, SamplingContext, SamplingJob, SliceSkelClip, SliceSkeleton,
///     SliceTrack,
/// };
///
/// let parents = [u16::MAX];
/// let rest = [Transform3::<f32>::IDENTITY];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// // One bone whose translation goes from (0, 0, 0) at t = 0 to (2, 0, 0) at t = 1.
/// let times = [0.0f32, 1.0];
/// let values = [0.0f32, 0.0, 0.0, 2.0, 0.0, 0.0];
/// let translation =
///     ChannelData { interpolation: Interpolation::Linear, times: &times[..], values: &values[..], tangents: &[][..] };
/// let tracks = [SliceTrack { channels: [Some(translation), None, None] }];
/// let clip = SliceSkelClip { duration: 1.0, looping: false, tracks: &tracks, events: &[] };
///
/// let mut ctx = SamplingContext::<1>::new();
/// let mut pose = [Transform3::IDENTITY; 1];
/// let job =
///     SamplingJob { skeleton: &skeleton, clip: &clip, time: 0.25, rotation: RotationInterp::Nlerp, lod: u8::MAX };
/// job.run(&mut ctx, &mut pose).unwrap();
/// assert_eq!(pose[0].translation, Vec3::new(0.5, 0.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SamplingJob<'a, S, K, C> {
    /// The skeleton (bone count, rest pose, LODs).
    pub skeleton: &'a K,
    /// The clip.
    pub clip: &'a C,
    /// The time in seconds (wrapped or clamped into the clip, see [Time](SamplingJob#time)).
    pub time: S,
    /// How 3D rotation keys are interpolated.
    pub rotation: RotationInterp,
    /// The LOD limit: bones whose LOD is above it take their rest pose (`u8::MAX`: all bones).
    pub lod: u8,
}

impl<'a, S: Scalar, K, C: SkelClipSource<S>> SamplingJob<'a, S, K, C> {
    /// A job sampling `clip` at `time`, with nlerp rotations and every bone animated.
    pub fn new(skeleton: &'a K, clip: &'a C, time: S) -> Self {
        Self { skeleton, clip, time, rotation: RotationInterp::Nlerp, lod: u8::MAX }
    }

    /// Checks the inputs: the clip's duration is positive (not NaN), it has no more bones than the skeleton,
    /// and `ctx` and `output` hold at least one entry per skeleton bone.
    pub fn validate<J, X>(&self, ctx: &X, output: &[J]) -> Result<(), JobError>
    where
        J: Joint<S>,
        K: SkeletonSource<S, J>,
        X: SamplingState<S, J>,
    {
        let bones = self.skeleton.bone_count();
        if self.clip.duration().partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
            return Err(JobError::BadDuration);
        }
        if self.clip.bone_count() > bones {
            return Err(JobError::SkeletonMismatch { skeleton: bones, clip: self.clip.bone_count() });
        }
        if ctx.capacity() < bones {
            return Err(JobError::ContextTooSmall { needed: bones, got: ctx.capacity() });
        }
        if output.len() < bones {
            return Err(JobError::OutputTooSmall { needed: bones, got: output.len() });
        }
        Ok(())
    }

    /// Samples the clip into `output[..bone_count]`, updating the cursors (and, with a
    /// [`CachedSamplingContext`], the cached keys) in `ctx`. Errors as [`SamplingJob::validate`],
    /// before anything is written.
    pub fn run<J, X>(&self, ctx: &mut X, output: &mut [J]) -> Result<(), JobError>
    where
        J: Joint<S>,
        K: SkeletonSource<S, J>,
        X: SamplingState<S, J>,
    {
        self.validate(ctx, output)?;
        let duration = self.clip.duration();
        let inside = self.time >= S::ZERO && self.time <= duration;
        let t = if inside {
            self.time
        } else if self.clip.looping() {
            self.time.rem_euclid(duration)
        } else {
            self.time.clamp(S::ZERO, duration)
        };
        ctx.sample(self, t, output);
        Ok(())
    }

    /// Whether bone `i` is above the job's LOD limit (so takes its rest pose).
    #[inline(always)]
    fn above_lod<J: Joint<S>>(&self, i: usize) -> bool
    where
        K: SkeletonSource<S, J>,
    {
        self.lod != u8::MAX && self.skeleton.lod(i) > self.lod
    }

    /// `joint` with the rest values of the channels flagged in `missing`.
    #[inline(always)]
    fn fill_missing<J: Joint<S>>(&self, i: usize, mut joint: J, missing: [bool; 3]) -> J
    where
        K: SkeletonSource<S, J>,
    {
        if missing != [false; 3] {
            let rest = self.skeleton.rest(i);
            for (kind, missing) in ChannelKind::ALL.into_iter().zip(missing) {
                if missing {
                    joint.set_channel_values(kind, rest.channel_values(kind));
                }
            }
        }
        joint
    }
}

mod sealed {
    pub trait Sealed {}
}

/// What a [`SamplingJob`] keeps between runs for one playing instance: [`SamplingContext`] (key
/// cursors) or [`CachedSamplingContext`] (key cursors and the key pairs in use). Sealed: only
/// those two implement it.
pub trait SamplingState<S: Scalar, J: Joint<S>>: sealed::Sealed {
    /// A context with every cursor at the first key and nothing cached (what `new()` returns).
    const NEW: Self;

    /// The number of bones it has room for.
    fn capacity(&self) -> usize;

    /// Resets the cursors and drops anything cached (after switching clips or seeking; optional).
    fn invalidate(&mut self);

    /// Samples `job`'s clip at `t` (already brought into `[0, duration]`) into `output`; the job
    /// has validated the sizes. Called by [`SamplingJob::run`].
    #[doc(hidden)]
    fn sample<K, C>(&mut self, job: &SamplingJob<'_, S, K, C>, t: S, output: &mut [J])
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>;
}

impl<const N: usize> sealed::Sealed for SamplingContext<N> {}

impl<S: Scalar, J: Joint<S>, const N: usize> SamplingState<S, J> for SamplingContext<N> {
    const NEW: Self = Self::new();

    fn capacity(&self) -> usize {
        N
    }

    fn invalidate(&mut self) {
        SamplingContext::invalidate(self);
    }

    fn sample<K, C>(&mut self, job: &SamplingJob<'_, S, K, C>, t: S, output: &mut [J])
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        let bones = job.skeleton.bone_count();
        let slerp = job.rotation == RotationInterp::Slerp;
        let mut memo = Memo::NEW;
        for (i, (out, cursor)) in output.iter_mut().zip(self.cursors.iter_mut()).take(bones).enumerate() {
            if job.above_lod(i) {
                *out = job.skeleton.rest(i);
                continue;
            }
            *out = sample_bone(job, i, t, cursor, slerp, &mut memo);
        }
    }
}

/// Bone `i` sampled channel by channel with its cursors (what a [`SamplingContext`] does for each
/// bone).
#[inline(always)]
fn sample_bone<S, J, K, C>(
    job: &SamplingJob<'_, S, K, C>,
    i: usize,
    t: S,
    cursor: &mut [u32; 3],
    slerp: bool,
    memo: &mut Memo<S>,
) -> J
where
    S: Scalar,
    J: Joint<S>,
    K: SkeletonSource<S, J>,
    C: SkelClipSource<S>,
{
    let [ct, cr, cs] = cursor;
    // Each channel is fetched and sampled in turn (a blob's channel views are large to
    // keep around); the rest pose is read only for a bone missing a channel. Written out
    // per kind, so that each kind's widths and branches are constants in its copy.
    let mut joint = J::IDENTITY;
    let mut missing = [false; 3];
    match &job.clip.channel(i, ChannelKind::Translation) {
        Some(ch) => {
            let v = sample_channel::<S, C::Scalars, J>(ch, ChannelKind::Translation, t, ct, slerp, memo);
            joint.set_channel_values(ChannelKind::Translation, v);
        }
        None => missing[0] = true,
    }
    match &job.clip.channel(i, ChannelKind::Rotation) {
        Some(ch) => {
            let v = sample_channel::<S, C::Scalars, J>(ch, ChannelKind::Rotation, t, cr, slerp, memo);
            joint.set_channel_values(ChannelKind::Rotation, v);
        }
        None => missing[1] = true,
    }
    match &job.clip.channel(i, ChannelKind::Scale) {
        Some(ch) => {
            let v = sample_channel::<S, C::Scalars, J>(ch, ChannelKind::Scale, t, cs, slerp, memo);
            joint.set_channel_values(ChannelKind::Scale, v);
        }
        None => missing[2] = true,
    }
    job.fill_missing(i, joint, missing)
}

/// What a [`CachedSamplingContext`] knows of one channel of one bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Span {
    /// Nothing (a Hermite channel is never cached).
    Empty,
    /// The clip has no such channel: the rest pose.
    Missing,
    /// A single key: `a` at every time.
    Always,
    /// Before the first key (`t < hi`): `a`.
    Before,
    /// From the last key on (`lo <= t`): `a`.
    After,
    /// A Step bracket (`lo <= t < hi`): `a`.
    Hold,
    /// A Linear bracket (`lo <= t < hi`): `a` at `lo`, else `a` to `b` at `u = (t − lo) / (hi − lo)`.
    Lerp,
}

/// What a bone's three cached channels have in common: it picks the bone's path through a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Anything else: each channel is looked at in turn.
    Mixed,
    /// Three [`Span::Lerp`] channels with the same bracket: one bracket test, one `u` (the
    /// usual animated bone, keyed at the same times in every channel).
    Lerp,
    /// Three [`Span::Missing`] channels: the rest pose (a bone the clip does not animate).
    Rest,
    /// A [`Span::Lerp`] rotation, translation and scale [`Span::Missing`]: the rest pose with the
    /// rotation interpolated (the usual animated bone of a blob that leaves out rest channels).
    Rotation,
}

/// One bone's cached key pairs: the values at the start (`a`) and end (`b`) of each channel's
/// bracket, as joints, each channel's bracket, what the three have in common, and the bone's
/// [`BoneHandle`] (valid once a span has left [`Span::Empty`]: it is asked for then, and
/// [`CachedSamplingContext::invalidate`] resets every span to empty).
#[derive(Clone, Copy, Debug, PartialEq)]
struct BoneCache<S, J> {
    a: J,
    b: J,
    lo: [S; 3],
    hi: [S; 3],
    handle: BoneHandle,
    spans: [Span; 3],
    shape: Shape,
}

impl<S: Scalar, J: Joint<S>> BoneCache<S, J> {
    const EMPTY: Self = Self {
        a: J::IDENTITY,
        b: J::IDENTITY,
        lo: [S::ZERO; 3],
        hi: [S::ZERO; 3],
        handle: BoneHandle(0),
        spans: [Span::Empty; 3],
        shape: Shape::Mixed,
    };

    /// The shape of the three spans as they are now.
    #[inline(always)]
    fn shape_now(&self) -> Shape {
        let [l0, l1, l2] = self.lo;
        let [h0, h1, h2] = self.hi;
        match self.spans {
            [Span::Lerp, Span::Lerp, Span::Lerp] if l0 == l1 && l0 == l2 && h0 == h1 && h0 == h2 => Shape::Lerp,
            [Span::Missing, Span::Missing, Span::Missing] => Shape::Rest,
            [Span::Missing, Span::Lerp, Span::Missing] => Shape::Rotation,
            _ => Shape::Mixed,
        }
    }

    /// Channel `kind`'s span and bracket bounds.
    #[inline(always)]
    fn slot(&mut self, kind: ChannelKind) -> (&mut Span, &mut S, &mut S) {
        let [s0, s1, s2] = &mut self.spans;
        let [l0, l1, l2] = &mut self.lo;
        let [h0, h1, h2] = &mut self.hi;
        match kind {
            ChannelKind::Translation => (s0, l0, h0),
            ChannelKind::Rotation => (s1, l1, h1),
            ChannelKind::Scale => (s2, l2, h2),
        }
    }
}

/// A [`SamplingContext`] that also keeps, per bone and channel, the two keys around the time last
/// sampled, decoded: a sample whose time is still between them (most of forward playback) reads
/// nothing from the clip, which pays most for clips read in place from a blob (quantised or packed
/// values, index tables).
///
/// Results are bit-identical to [`SamplingContext`]'s: the cached keys are the values the clip
/// returns, interpolated by the same code. Hermite channels are not cached (they are sampled as
/// with [`SamplingContext`]).
///
/// The usual animated bone has its three channels keyed at the same times, Linear: the context
/// notes it, and samples such a bone with one bracket test and one interpolation parameter for
/// the three channels; forward playback past the bracket moves each channel on by one key (the
/// cached end key becomes the start, one time and one key are read). A bone the clip does not
/// animate takes the skeleton's rest pose without asking the clip.
///
/// Each bone's [`BoneHandle`] is kept too (asked for when the bone's channels
/// are first read): a forward step into the next bracket reads that key through it with
/// [`SkelClipSource::key`], without resolving the channel again.
///
/// **Memory**: `12 + 2·size_of::<J>() + 6·size_of::<S>() + 4 + 4` bytes per bone, rounded up to
/// 4, plus the clip's key (an `Option<usize>`: 8 bytes on a 32-bit target; the whole rounded up to
/// a `usize`'s alignment): **124 bytes per bone**
/// for [`Transform3`](crate::math::Transform3) (f32 or Q16.16) and 84 for
/// [`Transform2`](crate::math::Transform2); a 70-bone 3D context is 8,688 bytes on a
/// microcontroller (against 840 for a [`SamplingContext`]).
///
/// # The clip it belongs to
///
/// The cache belongs to one clip, recognised by [`SkelClipSource::cache_key`] (the address of its
/// data): sampling another clip with the context drops the cache first (and a source without a key
/// is sampled without caching). Call [`CachedSamplingContext::invalidate`] after changing a clip's
/// keys in place, or after reloading another blob at the same address.
///
/// ```
/// use ossicle::math::{Transform3, Vec3};
/// use ossicle::skeleton::{
///     CachedSamplingContext, ChannelData, Interpolation, SamplingJob, SliceSkelClip, SliceSkeleton, SliceTrack,
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
/// // Room for two bones (a context may have more than the skeleton needs).
/// let mut ctx = CachedSamplingContext::<f32, Transform3<f32>, 2>::new();
/// assert_eq!(core::mem::size_of_val(&ctx), 2 * 124 + core::mem::size_of::<Option<usize>>());
/// let mut pose = [Transform3::IDENTITY; 1];
/// for (t, x) in [(0.25, 0.5), (0.5, 1.0)] {
///     SamplingJob::new(&skeleton, &clip, t).run(&mut ctx, &mut pose).unwrap();
///     assert_eq!(pose[0].translation, Vec3::new(x, 0.0, 0.0));
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CachedSamplingContext<S, J, const N: usize> {
    /// The cache key of the clip the entries belong to (`None`: no entry is valid).
    clip: Option<usize>,
    /// The key cursors (what a plain context keeps).
    plain: SamplingContext<N>,
    cache: [BoneCache<S, J>; N],
}

impl<S: Scalar, J: Joint<S>, const N: usize> Default for CachedSamplingContext<S, J, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, J: Joint<S>, const N: usize> CachedSamplingContext<S, J, N> {
    /// A context with every cursor at the first key and nothing cached.
    pub const fn new() -> Self {
        Self { clip: None, plain: SamplingContext::new(), cache: [BoneCache::EMPTY; N] }
    }

    /// Drops the cached keys and resets the cursors.
    pub fn invalidate(&mut self) {
        self.clip = None;
        self.plain.invalidate();
        for e in &mut self.cache {
            e.spans = [Span::Empty; 3];
            e.shape = Shape::Mixed;
        }
    }

    /// The number of bones it has room for (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<S, J, const N: usize> sealed::Sealed for CachedSamplingContext<S, J, N> {}

impl<S: Scalar, J: Joint<S>, const N: usize> SamplingState<S, J> for CachedSamplingContext<S, J, N> {
    const NEW: Self = Self::new();

    fn capacity(&self) -> usize {
        N
    }

    fn invalidate(&mut self) {
        CachedSamplingContext::invalidate(self);
    }

    fn sample<K, C>(&mut self, job: &SamplingJob<'_, S, K, C>, t: S, output: &mut [J])
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        let key = job.clip.cache_key();
        if key.is_none() {
            // Nothing to recognise the clip by: sample as a plain context would.
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
        let mut memo = Memo::NEW;
        let slots = self.plain.cursors.iter_mut().zip(self.cache.iter_mut());
        // Zipped slices of one length: a plain counted loop.
        let n = bones.min(N).min(output.len());
        let output = output.get_mut(..n).unwrap_or_default();
        for (i, (out, (cursor, entry))) in output.iter_mut().zip(slots).enumerate() {
            if job.above_lod(i) {
                *out = job.skeleton.rest(i);
                continue;
            }
            let [ct, cr, cs] = cursor;
            // A bone whose channels all hit one bracket, or all take the rest pose: a straight path.
            match entry.shape {
                Shape::Lerp => {
                    let (lo, hi) = (entry.lo[0], entry.hi[0]);
                    let mut hit = lo <= t && t < hi;
                    if !hit && hi <= t {
                        // Forward playback into the next brackets: each channel moves on by one key
                        // (a channel that cannot is refilled below, the others then hit).
                        let stepped = step_key(job.clip, i, ChannelKind::Translation, t, ct, entry, &mut memo)
                            && step_key(job.clip, i, ChannelKind::Rotation, t, cr, entry, &mut memo)
                            && step_key(job.clip, i, ChannelKind::Scale, t, cs, entry, &mut memo);
                        // The new brackets start at the old shared end: shared if they end together.
                        let [h0, h1, h2] = entry.hi;
                        hit = stepped && h0 == h1 && h0 == h2;
                        if !hit {
                            entry.shape = Shape::Mixed;
                        }
                    }
                    if hit {
                        let (lo, hi) = (entry.lo[0], entry.hi[0]);
                        memo.hint = *cs as usize;
                        *out = if t == lo {
                            channels_of(&entry.a)
                        } else {
                            lerp_joint(&entry.a, &entry.b, memo.u(t, lo, hi), slerp)
                        };
                        continue;
                    }
                }
                Shape::Rest => {
                    // What `fill_missing` makes of three missing channels.
                    *out = channels_of(&job.skeleton.rest(i));
                    continue;
                }
                Shape::Rotation => {
                    let kind = ChannelKind::Rotation;
                    let (lo, hi) = (entry.lo[1], entry.hi[1]);
                    let mut hit = lo <= t && t < hi;
                    if !hit && hi <= t {
                        // Forward playback into the next bracket (as `Shape::Lerp` does).
                        hit = step_key(job.clip, i, kind, t, cr, entry, &mut memo);
                        if !hit {
                            entry.shape = Shape::Mixed;
                        }
                    }
                    if hit {
                        let (lo, hi) = (entry.lo[1], entry.hi[1]);
                        memo.hint = *cr as usize;
                        let (a, b) = (entry.a.channel_values(kind), entry.b.channel_values(kind));
                        let r = if t == lo {
                            a
                        } else if slerp {
                            J::interpolate_rotation(a, b, memo.u(t, lo, hi), true)
                        } else {
                            J::interpolate_rotation(a, b, memo.u(t, lo, hi), false)
                        };
                        // What `fill_missing` makes of the missing translation and scale.
                        let mut joint = channels_of(&job.skeleton.rest(i));
                        joint.set_channel_values(kind, r);
                        *out = joint;
                        continue;
                    }
                }
                Shape::Mixed => {}
            }
            let mut joint = J::IDENTITY;
            let mut missing = [false; 3];
            // Written out per kind (see `SamplingContext`'s loop).
            match sample_cached(job.clip, i, ChannelKind::Translation, t, ct, entry, slerp, &mut memo) {
                Some(v) => joint.set_channel_values(ChannelKind::Translation, v),
                None => missing[0] = true,
            }
            match sample_cached(job.clip, i, ChannelKind::Rotation, t, cr, entry, slerp, &mut memo) {
                Some(v) => joint.set_channel_values(ChannelKind::Rotation, v),
                None => missing[1] = true,
            }
            match sample_cached(job.clip, i, ChannelKind::Scale, t, cs, entry, slerp, &mut memo) {
                Some(v) => joint.set_channel_values(ChannelKind::Scale, v),
                None => missing[2] = true,
            }
            entry.shape = entry.shape_now();
            *out = job.fill_missing(i, joint, missing);
        }
    }
}

/// The joint with `a`'s three channels (what three hits at their brackets' starts give).
#[inline(always)]
fn channels_of<S: Scalar, J: Joint<S>>(a: &J) -> J {
    let mut joint = J::IDENTITY;
    joint.set_channel_values(ChannelKind::Translation, a.channel_values(ChannelKind::Translation));
    joint.set_channel_values(ChannelKind::Rotation, a.channel_values(ChannelKind::Rotation));
    joint.set_channel_values(ChannelKind::Scale, a.channel_values(ChannelKind::Scale));
    joint
}

/// Every channel of `a` to `b` at `u`, as three [`Span::Lerp`] hits inside their bracket give
/// (written out per kind, so that each kind's width is a constant).
#[inline(always)]
fn lerp_joint<S: Scalar, J: Joint<S>>(a: &J, b: &J, u: S, slerp: bool) -> J {
    let mut joint = J::IDENTITY;
    let (t, r, s) = (ChannelKind::Translation, ChannelKind::Rotation, ChannelKind::Scale);
    let wt = width::<S, J>(t);
    let ws = width::<S, J>(s);
    joint.set_channel_values(t, lerp_values(a.channel_values(t), b.channel_values(t), u, wt));
    // A constant `slerp` in each branch: the nlerp path does not prepare slerp's arguments.
    let (ra, rb) = (a.channel_values(r), b.channel_values(r));
    let rv = if slerp { J::interpolate_rotation(ra, rb, u, true) } else { J::interpolate_rotation(ra, rb, u, false) };
    joint.set_channel_values(r, rv);
    joint.set_channel_values(s, lerp_values(a.channel_values(s), b.channel_values(s), u, ws));
    joint
}

/// Channel `kind` of bone `bone` at `t` through the cache `e` (refilled from the clip when `t` is
/// outside its bracket); `None` when the clip has no such channel. Inlined into the job's loop
/// once per channel kind.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn sample_cached<S: Scalar, C: SkelClipSource<S>, J: Joint<S>>(
    clip: &C,
    bone: usize,
    kind: ChannelKind,
    t: S,
    cursor: &mut u32,
    e: &mut BoneCache<S, J>,
    slerp: bool,
    memo: &mut Memo<S>,
) -> Option<[S; 4]> {
    let (span, lo, hi) = e.slot(kind);
    let (span, lo, hi) = (*span, *lo, *hi);
    let hit = match span {
        Span::Lerp | Span::Hold => lo <= t && t < hi,
        Span::Before => t < hi,
        Span::After => lo <= t,
        Span::Always => true,
        Span::Missing => return None,
        Span::Empty => false,
    };
    if hit {
        memo.hint = *cursor as usize;
    } else {
        // By reference to the temporary: a blob's channel view is large to move.
        match &clip.channel(bone, kind) {
            None => {
                *e.slot(kind).0 = Span::Missing;
                return None;
            }
            Some(ch) if ch.interpolation == Interpolation::Hermite => {
                *e.slot(kind).0 = Span::Empty;
                return Some(sample_channel::<S, C::Scalars, J>(ch, kind, t, cursor, slerp, memo));
            }
            Some(ch) => {
                if span == Span::Empty {
                    // The first read of the channel (see `BoneCache`).
                    e.handle = clip.bone_handle(bone);
                }
                if !step(ch, kind, t, cursor, e, memo) {
                    refill(ch, kind, t, cursor, e, memo);
                }
            }
        }
    }
    let (span, lo, hi) = e.slot(kind);
    let (span, lo, hi) = (*span, *lo, *hi);
    let a = e.a.channel_values(kind);
    if span != Span::Lerp || t == lo {
        return Some(a);
    }
    let u = memo.u(t, lo, hi);
    let b = e.b.channel_values(kind);
    let w = width::<S, J>(kind);
    Some(if kind == ChannelKind::Rotation { J::interpolate_rotation(a, b, u, slerp) } else { lerp_values(a, b, u, w) })
}

/// Forward playback past a cached Step or Linear bracket into the next one: the cache `e` moves
/// on by one key (the cached end key becomes the start; the next key's time and values are read
/// with [`SkelClipSource::key`] through the channel's cached handle, without resolving the channel)
/// and `true` is returned; `false` (nothing changed) for anything else, which [`refill`] handles.
///
/// A cached bracket `[t_k, t_k+1)` is the cursor's (`cursor = k`, which [`refill`] leaves there
/// and hits do not move), so its `hi` is key `k + 1`'s time: a time in `[t_k+1, t_k+2)` is that
/// next bracket, the one [`locate`] finds from the cursor, and the cached end key its start: the
/// same keys as a [`refill`], at a fraction of the cost. Inlined once per channel kind.
#[inline(always)]
fn step_key<S: Scalar, C: SkelClipSource<S>, J: Joint<S>>(
    clip: &C,
    bone: usize,
    kind: ChannelKind,
    t: S,
    cursor: &mut u32,
    e: &mut BoneCache<S, J>,
    memo: &mut Memo<S>,
) -> bool {
    let handle = e.handle;
    let (span, _, hi) = e.slot(kind);
    if !(matches!(*span, Span::Lerp | Span::Hold) && *hi <= t) {
        return false;
    }
    let k1 = (*cursor as usize).wrapping_add(1);
    let Some((t2, b)) = clip.key(bone, kind, handle, k1.wrapping_add(1), width::<S, J>(kind)) else {
        // Past the last key.
        return false;
    };
    if t.partial_cmp(&t2) != Some(core::cmp::Ordering::Less) {
        // Past the next bracket too.
        return false;
    }
    move_on(kind, cursor, e, memo, k1, t2, b);
    true
}

/// The end of a forward step: the bracket of channel `kind` becomes `[hi, t2)` with the cached end
/// key as its start and `b` (key `k1 + 1`) as its end, the cursor at key `k1`.
#[inline(always)]
fn move_on<S: Scalar, J: Joint<S>>(
    kind: ChannelKind,
    cursor: &mut u32,
    e: &mut BoneCache<S, J>,
    memo: &mut Memo<S>,
    k1: usize,
    t2: S,
    b: [S; 4],
) {
    *cursor = k1 as u32;
    memo.hint = k1;
    let (_, lo, hi) = e.slot(kind);
    (*lo, *hi) = (*hi, t2);
    e.a.set_channel_values(kind, e.b.channel_values(kind));
    e.b.set_channel_values(kind, b);
}

/// [`step_key`] with the channel's view at hand (the path of a bone whose channels do not share
/// one bracket, which has resolved the channel already): the same keys read from `ch`.
#[inline(always)]
fn step<S: Scalar, A: Scalars<S>, J: Joint<S>>(
    ch: &ChannelData<A>,
    kind: ChannelKind,
    t: S,
    cursor: &mut u32,
    e: &mut BoneCache<S, J>,
    memo: &mut Memo<S>,
) -> bool {
    let (span, _, hi) = e.slot(kind);
    let forward = matches!(*span, Span::Lerp | Span::Hold) && *hi <= t;
    let k1 = (*cursor as usize).wrapping_add(1);
    let k2 = k1.wrapping_add(1);
    if !forward || k2 >= ch.times.len() {
        return false;
    }
    let t2 = ch.times.get(k2);
    if t.partial_cmp(&t2) != Some(core::cmp::Ordering::Less) {
        // Past the next bracket too.
        return false;
    }
    move_on(kind, cursor, e, memo, k1, t2, key_values(&ch.values, k2, width::<S, J>(kind)));
    true
}

/// Fills channel `kind` of the cache `e` with `ch`'s keys around `t` (a Step or Linear channel).
#[inline(never)]
fn refill<S: Scalar, A: Scalars<S>, J: Joint<S>>(
    ch: &ChannelData<A>,
    kind: ChannelKind,
    t: S,
    cursor: &mut u32,
    e: &mut BoneCache<S, J>,
    memo: &mut Memo<S>,
) {
    let w = width::<S, J>(kind);
    let n = ch.times.len();
    // The bracket after the cached one starts with the cached end key (forward playback).
    let (span, _, _) = e.slot(kind);
    let next = match *span {
        Span::Lerp | Span::Hold => Some((*cursor).wrapping_add(1) as usize),
        _ => None,
    };
    let bracket = locate(&ch.times, t, cursor, memo.hint);
    memo.hint = *cursor as usize;
    let (k, t0, t1) = match bracket {
        Bracket::Between(k, t0, t1) => (k, t0, t1),
        Bracket::Key(k) => {
            // A held key (one key, from the last key on, before the first), or key k's own time,
            // which starts the bracket [t_k, t_k+1): cache that bracket, whose value at t_k is key k.
            let last = k.saturating_add(1) >= n;
            let tk = if n < 2 { S::ZERO } else { ch.times.get(k) };
            let held = if n < 2 {
                Some((Span::Always, S::ZERO, S::ZERO))
            } else if last {
                Some((Span::After, tk, S::ZERO))
            } else if matches!(t.partial_cmp(&tk), Some(core::cmp::Ordering::Less) | None) {
                // Before the first key (or a NaN time, which no wrapped time is).
                Some((Span::Before, S::ZERO, tk))
            } else {
                None
            };
            if let Some((s, l, h)) = held {
                let v = key_values(&ch.values, k, w);
                let (span, lo, hi) = e.slot(kind);
                (*span, *lo, *hi) = (s, l, h);
                e.a.set_channel_values(kind, v);
                return;
            }
            (k, tk, ch.times.get(k.wrapping_add(1)))
        }
    };
    let (a, b) = if next == Some(k) {
        (e.b.channel_values(kind), key_values(&ch.values, k.wrapping_add(1), w))
    } else {
        ch.values.get4_pair(k.wrapping_mul(w), w)
    };
    let (span, lo, hi) = e.slot(kind);
    *span = if ch.interpolation == Interpolation::Step { Span::Hold } else { Span::Lerp };
    (*lo, *hi) = (t0, t1);
    e.a.set_channel_values(kind, a);
    e.b.set_channel_values(kind, b);
}

/// How many keys a forward step walks before it switches to a binary search.
const FORWARD_STEPS: usize = 4;

/// Where a time falls among a channel's keys.
enum Bracket<S> {
    /// Exactly key `k`'s value (before the first key, at a key, after the last, or a Step).
    Key(usize),
    /// Between keys `k` and `k + 1`, at times `t0 < t < t1`.
    Between(usize, S, S),
}

/// The largest `j` in `[lo, hi)` with `times[j] <= t`, and `times[j]`, given
/// `at_lo = times[lo] <= t < times[hi]` (`times[n]` counts as +∞). The loop runs `⌈log₂(hi − lo)⌉`
/// times whatever the keys are, and its data-dependent choices compile to conditional moves
/// (random seeks do not mispredict).
#[inline]
fn search<S: Scalar, A: Scalars<S>>(times: &A, t: S, mut lo: usize, mut at_lo: S, hi: usize) -> (usize, S) {
    let mut len = hi.saturating_sub(lo);
    while len > 1 {
        let half = len / 2;
        let mid = lo + half;
        let at_mid = times.get(mid);
        let le = at_mid <= t;
        lo = if le { mid } else { lo };
        at_lo = if le { at_mid } else { at_lo };
        len -= half;
    }
    (lo, at_lo)
}

/// Finds `t`'s bracket among `times`, starting from `*cursor` and leaving it at the bracket's first
/// key (always in `[0, n − 2]`, or 0 for a single key).
///
/// The fast path (playback: `t` still within the cursor's bracket) is one read of two key times and
/// two compares, then the next bracket (one more read), then the bracket `hint` (the one the
/// previous channel sampled found: channels are usually keyed at the same times, so after a seek
/// only the first channel searches); anything else goes to [`locate_from`]. The bracket of a time is
/// unique, so where it is found does not change the result.
#[inline(always)]
fn locate<S: Scalar, A: Scalars<S>>(times: &A, t: S, cursor: &mut u32, hint: usize) -> Bracket<S> {
    let n = times.len();
    if n < 2 {
        return Bracket::Key(0);
    }
    let k = (*cursor as usize).min(n - 2);
    let [t0, t1, ..] = times.get4(k, 2);
    if t0 <= t {
        if t < t1 {
            *cursor = k as u32;
            return if t == t0 { Bracket::Key(k) } else { Bracket::Between(k, t0, t1) };
        }
        // Playback crossing one key: the next bracket (when it is not the last key's).
        let k1 = k + 1;
        if k1 + 1 < n {
            let t2 = times.get(k1 + 1);
            if t < t2 {
                *cursor = k1 as u32;
                return if t == t1 { Bracket::Key(k1) } else { Bracket::Between(k1, t1, t2) };
            }
        }
    }
    let h = hint.min(n - 2);
    if h != k {
        let [h0, h1, ..] = times.get4(h, 2);
        if h0 <= t && t < h1 {
            *cursor = h as u32;
            return if t == h0 { Bracket::Key(h) } else { Bracket::Between(h, h0, h1) };
        }
    }
    locate_from(times, t, cursor, k, t0)
}

/// [`locate`] past its fast path: `k <= n − 2` is the clamped cursor and `t0 = times[k]`, with `n >= 2`.
#[inline(never)]
fn locate_from<S: Scalar, A: Scalars<S>>(times: &A, t: S, cursor: &mut u32, mut k: usize, mut t0: S) -> Bracket<S> {
    let n = times.len();
    let last = n.saturating_sub(1);
    if t < t0 {
        // Backwards (or a stale cursor): search the keys before it.
        let first = times.get(0);
        if k == 0 || t <= first {
            *cursor = 0;
            return Bracket::Key(0);
        }
        (k, t0) = search(times, t, 0, first, k);
    }
    // times[k] <= t: walk forward a few keys, then search.
    let mut steps = 0;
    loop {
        let t1 = times.get(k + 1);
        if t < t1 {
            *cursor = k as u32;
            return if t == t0 { Bracket::Key(k) } else { Bracket::Between(k, t0, t1) };
        }
        if k + 1 >= last {
            *cursor = last.saturating_sub(1) as u32;
            return Bracket::Key(last);
        }
        k += 1;
        t0 = t1;
        steps += 1;
        if steps == FORWARD_STEPS {
            // times[k] <= t: the answer is in [k, n).
            (k, t0) = search(times, t, k, t0, n);
            if k >= last {
                *cursor = last.saturating_sub(1) as u32;
                return Bracket::Key(last);
            }
        }
    }
}

/// The channel's components of key `k` (`w <= 4` of them; the rest 0).
///
/// `k < n` keys and `w <= 4`, so `k·w + 3` cannot overflow for any array that fits in memory; the
/// wrapping arithmetic keeps the hot path free of overflow checks, and a wrapped index could only
/// read zeros ([`Scalars::get`] past the end).
#[inline(always)]
fn key_values<S: Scalar, A: Scalars<S>>(values: &A, k: usize, w: usize) -> [S; 4] {
    values.get4(k.wrapping_mul(w), w)
}

/// Component-wise `a + (b − a)·u` for the first `w` components.
#[inline(always)]
fn lerp_values<S: Scalar>(a: [S; 4], b: [S; 4], u: S, w: usize) -> [S; 4] {
    let [a0, a1, a2, a3] = a;
    let [b0, b1, b2, b3] = b;
    let l = |c: usize, x: S, y: S| if c < w { x.lerp(y, u) } else { S::ZERO };
    [l(0, a0, b0), l(1, a1, b1), l(2, a2, b2), l(3, a3, b3)]
}

/// The last bracket's times and interpolation parameter `u = (t − t0) / (t1 − t0)` (at one
/// sampling time), reused when the next channel has the same bracket, and the last channel's cursor
/// (its bracket's first key), the next channel's [`locate`] hint. Starts at `t0 = t1`, which no
/// bracket has.
#[derive(Clone, Copy)]
struct Memo<S> {
    t0: S,
    t1: S,
    u: S,
    hint: usize,
}

impl<S: Scalar> Memo<S> {
    /// Nothing remembered yet.
    const NEW: Self = Self { t0: S::ZERO, t1: S::ZERO, u: S::ZERO, hint: 0 };

    /// `u = (t − t0) / (t1 − t0)` for the bracket `[t0, t1)` (remembered for the next channel).
    #[inline(always)]
    fn u(&mut self, t: S, t0: S, t1: S) -> S {
        if self.t0 == t0 && self.t1 == t1 {
            self.u
        } else {
            let u = t.sub(t0).div(t1.sub(t0));
            (self.t0, self.t1, self.u) = (t0, t1, u);
            u
        }
    }
}

/// The component count of channel `kind` for joint type `J`.
#[inline]
fn width<S: Scalar, J: Joint<S>>(kind: ChannelKind) -> usize {
    match kind {
        ChannelKind::Translation => J::WIDTHS[0],
        ChannelKind::Rotation => J::WIDTHS[1],
        ChannelKind::Scale => J::WIDTHS[2],
    }
}

/// One channel's value at `t` (already in `[0, duration]`). Inlined into the job's loop three
/// times, once per channel kind, so that the kind's branches and widths are constants there.
#[inline(always)]
fn sample_channel<S: Scalar, A: Scalars<S>, J: Joint<S>>(
    ch: &ChannelData<A>,
    kind: ChannelKind,
    t: S,
    cursor: &mut u32,
    slerp: bool,
    memo: &mut Memo<S>,
) -> [S; 4] {
    let w = width::<S, J>(kind);
    let bracket = locate(&ch.times, t, cursor, memo.hint);
    memo.hint = *cursor as usize;
    let (k, t0, t1) = match bracket {
        Bracket::Key(k) => return key_values(&ch.values, k, w),
        Bracket::Between(k, t0, t1) => (k, t0, t1),
    };
    let dt = t1.sub(t0);
    // A bone's channels are usually keyed at the same times: one division for all three.
    let u = memo.u(t, t0, t1);
    match ch.interpolation {
        Interpolation::Step => key_values(&ch.values, k, w),
        Interpolation::Linear => {
            let (a, b) = ch.values.get4_pair(k.wrapping_mul(w), w);
            if kind == ChannelKind::Rotation {
                J::interpolate_rotation(a, b, u, slerp)
            } else {
                lerp_values(a, b, u, w)
            }
        }
        Interpolation::Hermite => {
            let (a, b) = ch.values.get4_pair(k.wrapping_mul(w), w);
            // Per key: w in-tangent components, then w out-tangent components.
            let out0 = key_values(&ch.tangents, k.wrapping_mul(2).wrapping_add(1), w);
            let in1 = key_values(&ch.tangents, k.wrapping_mul(2).wrapping_add(2), w);
            let one = S::ONE;
            let v = one.sub(u);
            let u2 = u.mul(u);
            let v2 = v.mul(v);
            // h00 = (1 + 2u)(1 − u)², h10 = u(1 − u)², h01 = u²(3 − 2u), h11 = u²(u − 1).
            let h00 = u.mul_add(S::TWO, one).mul(v2);
            let h10 = u.mul(v2).mul(dt);
            let h01 = u2.mul(S::TWO.add(one).sub(u.mul(S::TWO)));
            let h11 = u2.mul(u.sub(one)).mul(dt);
            let mut r = a;
            for (((x, vb), o), i) in r.iter_mut().zip(b).zip(out0).zip(in1).take(w) {
                *x = h00.mul(*x).add(h10.mul(o)).add(h01.mul(vb)).add(h11.mul(i));
            }
            if kind == ChannelKind::Rotation {
                J::normalize_rotation(r)
            } else {
                r
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;

    /// Key times that count how many are read.
    #[derive(Clone, Copy)]
    struct Counting<'a> {
        data: &'a [f32],
        reads: &'a Cell<usize>,
    }

    impl Scalars<f32> for Counting<'_> {
        fn len(&self) -> usize {
            self.data.len()
        }
        fn get(&self, i: usize) -> f32 {
            self.reads.set(self.reads.get() + 1);
            self.data.get(i).copied().unwrap_or(0.0)
        }
    }

    fn bracket_of(b: Bracket<f32>) -> (usize, bool) {
        match b {
            Bracket::Key(k) => (k, true),
            Bracket::Between(k, _, _) => (k, false),
        }
    }

    #[test]
    fn forward_playback_reads_few_keys_and_seeks_search() {
        // 1024 keys, 0.1 s apart.
        let mut data = [0.0f32; 1024];
        for (i, t) in data.iter_mut().enumerate() {
            *t = i as f32 * 0.1;
        }
        let reads = Cell::new(0);
        let times = Counting { data: &data, reads: &reads };
        let mut cursor = 0u32;
        // Forward at 60 Hz over 100 s: each call reads the cursor's key and the next, plus one
        // more per key crossed (at most one per frame here): at most 4 reads per call.
        let mut worst = 0;
        for frame in 0..6000 {
            let t = frame as f32 / 60.0;
            reads.set(0);
            let (k, _) = bracket_of(locate(&times, t, &mut cursor, 0));
            worst = worst.max(reads.get());
            // The bracket is right: times[k] <= t < times[k + 1].
            assert!(data[k] <= t && t < data[k + 1], "t = {t}, k = {k}");
            assert_eq!(cursor as usize, k);
        }
        assert!(worst <= 4, "forward playback read {worst} keys in one call");
        // A seek far ahead: the forward walk gives up after FORWARD_STEPS keys and searches
        // (log2(1024) = 10 more reads), instead of walking ~400 keys.
        reads.set(0);
        let (k, exact) = bracket_of(locate(&times, 60.0, &mut cursor, 0));
        assert!(reads.get() <= 2 + FORWARD_STEPS + 11, "{} reads", reads.get());
        assert!((599..=600).contains(&k) && (exact == (data[k] == 60.0)), "k = {k}");
        // A seek backwards: a binary search of the keys before the cursor (after the two reads of
        // the cursor's bracket and the two of the hint's, wrong here).
        reads.set(0);
        let (k, _) = bracket_of(locate(&times, 12.34, &mut cursor, 0));
        assert_eq!(k, 123);
        assert!(reads.get() <= 2 + 2 + 1 + 11, "{} reads", reads.get());
        // Past the end and before the start: the end keys, cursor within [0, n − 2].
        assert!(matches!(locate(&times, 1e6, &mut cursor, 0), Bracket::Key(1023)));
        assert_eq!(cursor, 1022);
        assert!(matches!(locate(&times, -1.0, &mut cursor, 0), Bracket::Key(0)));
        assert_eq!(cursor, 0);
        // A stale cursor beyond the keys is clamped.
        let mut stale = u32::MAX;
        let (k, _) = bracket_of(locate(&times, 0.25, &mut stale, 0));
        assert_eq!(k, 2);
        assert_eq!(stale, 2);
        // A seek with the bracket of a channel keyed at the same times as its hint: no search (the
        // cursor's bracket, the next one, then the hinted one).
        let mut cursor = 10u32;
        reads.set(0);
        let (k, exact) = bracket_of(locate(&times, 73.45, &mut cursor, 734));
        assert_eq!((k, exact, cursor), (734, false, 734));
        assert!(reads.get() <= 5, "{} reads", reads.get());
        // A wrong hint (or one past the keys) only costs its two reads: the search still finds it.
        for hint in [0, 3, 900, usize::MAX] {
            let mut cursor = 10u32;
            let (k, _) = bracket_of(locate(&times, 73.45, &mut cursor, hint));
            assert_eq!((k, cursor), (734, 734), "hint {hint}");
        }
        // One key: always it.
        let one = Counting { data: &data[..1], reads: &reads };
        assert!(matches!(locate(&one, 5.0, &mut stale, 0), Bracket::Key(0)));
    }
}
