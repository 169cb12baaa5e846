//! [`AnimPlayer`]: plays skeletal clips on top of the jobs (the rules are on the type).

use super::blend::{BlendLayer, BlendingJob};
use super::clock::{advance, clip_info, finite, place, Playhead, SkelEvent};
use super::l2m::JobError;
use super::rootmotion::{ClipView, MotionJoint, OneBoneSkeleton};
use super::sample::{RotationInterp, SamplingContext, SamplingJob, SamplingState};
use super::source::{SkelClipSource, SkeletonSource};
use crate::event::EventQueue;
use crate::scalar::Scalar;

/// A skeleton and the clips played on it, by reference: what the players read.
#[derive(Debug)]
pub struct Rig<'a, K, C> {
    /// The skeleton.
    pub skeleton: &'a K,
    /// The clips, addressed by index.
    pub clips: &'a [C],
}

impl<K, C> Clone for Rig<'_, K, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, C> Copy for Rig<'_, K, C> {}

impl<'a, K, C> Rig<'a, K, C> {
    /// A rig from a skeleton and its clips.
    pub const fn new(skeleton: &'a K, clips: &'a [C]) -> Self {
        Self { skeleton, clips }
    }
}

/// Which bone carries the root motion, and whether the player removes it from the pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RootMotionSettings {
    /// The root-motion bone's skeleton index.
    pub bone: u16,
    /// Whether sampled poses keep this bone at its translation and rotation at clip time 0.
    pub remove: bool,
}

/// Why a player call was refused (nothing was changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PlayerError {
    /// The clip index is past the end of the clip slice.
    NoSuchClip {
        /// The index.
        clip: u16,
    },
    /// The clip's duration is not positive (or not finite).
    BadDuration {
        /// The index.
        clip: u16,
    },
    /// The root-motion bone is not in the skeleton.
    NoSuchBone {
        /// The bone.
        bone: u16,
    },
    /// The skeleton has more bones than the player's capacity `N`.
    TooManyBones {
        /// The skeleton's bone count.
        bones: usize,
        /// The player's capacity.
        capacity: usize,
    },
    /// The call needs a playing clip and none is.
    NotPlaying,
    /// A blend space point has no entry in the point-to-clip slice.
    NoClipForPoint {
        /// The point.
        point: u16,
    },
    /// A job refused its inputs (for example an output pose shorter than the skeleton).
    Job(JobError),
}

impl From<JobError> for PlayerError {
    fn from(e: JobError) -> Self {
        PlayerError::Job(e)
    }
}

impl core::fmt::Display for PlayerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlayerError::NoSuchClip { clip } => write!(f, "no clip {clip} in the clip slice"),
            PlayerError::BadDuration { clip } => write!(f, "clip {clip} has a duration that is not positive"),
            PlayerError::NoSuchBone { bone } => write!(f, "root-motion bone {bone} is not in the skeleton"),
            PlayerError::TooManyBones { bones, capacity } => {
                write!(f, "skeleton has {bones} bones, the player holds {capacity}")
            }
            PlayerError::NotPlaying => f.write_str("no clip is playing"),
            PlayerError::NoClipForPoint { point } => write!(f, "blend space point {point} has no clip"),
            PlayerError::Job(e) => write!(f, "job refused: {e}"),
        }
    }
}

/// A clip's length and effective loop flag, or the error.
pub(crate) fn clip_len<S: Scalar, C: SkelClipSource<S>>(
    clips: &[C],
    clip: u16,
    looping: Option<bool>,
) -> Result<(S, bool), PlayerError> {
    if usize::from(clip) >= clips.len() {
        return Err(PlayerError::NoSuchClip { clip });
    }
    clip_info(clips, clip, looping).ok_or(PlayerError::BadDuration { clip })
}

/// Samples the root-motion bone of `clip` at `time` (clamped into the clip).
pub(crate) fn sample_root<S, J, K, C>(
    skeleton: &K,
    clip: &C,
    bone: usize,
    time: S,
    rotation: RotationInterp,
    lod: u8,
) -> Result<J, JobError>
where
    S: Scalar,
    J: MotionJoint<S>,
    K: SkeletonSource<S, J>,
    C: SkelClipSource<S>,
{
    let one_skel = OneBoneSkeleton { inner: skeleton, bone };
    let one_clip = ClipView { inner: clip, bone: Some(bone) };
    let mut ctx = SamplingContext::<1>::new();
    let mut out = [J::IDENTITY];
    SamplingJob { skeleton: &one_skel, clip: &one_clip, time, rotation, lod }.run(&mut ctx, &mut out)?;
    Ok(out[0])
}

/// Samples `clip` at `time` into `out` (times are placed by the caller, so the clip is sampled
/// without wrapping), then pins the root when asked.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sample_pose<S, J, K, C, X>(
    skeleton: &K,
    clip: &C,
    time: S,
    rotation: RotationInterp,
    lod: u8,
    root: Option<RootMotionSettings>,
    ctx: &mut X,
    out: &mut [J],
) -> Result<(), PlayerError>
where
    S: Scalar,
    J: MotionJoint<S>,
    K: SkeletonSource<S, J>,
    C: SkelClipSource<S>,
    X: SamplingState<S, J>,
{
    let view = ClipView { inner: clip, bone: None };
    SamplingJob { skeleton, clip: &view, time, rotation, lod }.run(ctx, out)?;
    if let Some(RootMotionSettings { bone, remove: true }) = root {
        let bone = usize::from(bone);
        let start = sample_root::<S, J, K, C>(skeleton, clip, bone, S::ZERO, rotation, lod)?;
        if let Some(j) = out.get_mut(bone) {
            *j = J::pin(*j, start);
        }
    }
    Ok(())
}

/// Plays skeletal clips: one at a time, or two during a crossfade.
///
/// `S` is the scalar, `J` the joint ([`Transform3`](crate::math::Transform3) or
/// [`Transform2`](crate::math::Transform2)), `N` the largest skeleton it plays (bones).
///
///
/// # Clips are indices
///
/// A player names clips by their index (`u16`) in a slice of clips the caller owns (`&[C]`, any
/// [`SkelClipSource`]; blob clip views or [`SliceSkelClip`](super::SliceSkelClip)s), passed with
/// the skeleton as a [`Rig`] to every call that reads clips. The player holds no reference, so it
/// has no lifetime, can live in a `static` or a pool next to the assets it plays, and many players
/// share one clip slice. Pass the same slice every time: an index past its end is a
/// [`PlayerError::NoSuchClip`], never a panic. Clips read from a blob are small views (a few
/// slices each), collected once into an array or a `heapless::Vec` the caller keeps; the keys stay
/// in the blob.
///
/// # Time
///
/// - [`update`](AnimPlayer::update)`(dt)` moves the clip time by `dt × speed` (`dt` in seconds; a
///   negative or non-finite `dt` counts as 0; a paused player does nothing). A looping clip wraps
///   with `rem_euclid` into `[0, L)`, a non-looping one clamps to `[0, L]` and pushes
///   [`SkelEvent::Finished`] once when it reaches its end (its start, backwards).
/// - [`play`](AnimPlayer::play) starts a clip at 0, or at its end `L` when the speed is negative.
/// - [`seek`](AnimPlayer::seek) moves the current clip's time (wrapped or clamped as above) and
///   emits nothing: no events, no root motion (the next update measures from the seek's time).
/// - The loop flag is the clip's, unless [`set_looping`](AnimPlayer::set_looping) overrides it.
///
/// # Events: half-open intervals in the direction of travel
///
/// An update from `t0` to `t1` pushes, as [`SkelEvent::Clip`], every clip event whose time is in
/// `(t0, t1]` playing forwards, `[t1, t0)` backwards, in the order they are crossed (by time, then
/// by index; descending backwards). So an event exactly at the update's start time is not pushed
/// again (it was pushed by the update that ended there), one exactly at its end time is. The first
/// update after a `play` or `crossfade` includes its start time (`[0, t1]`, or `[t1, L]`
/// backwards), so events at the clip's start are pushed once; a `seek` does not.
///
/// Crossing the end of a looping clip forwards `k` times pushes `(t0, L]`, then `[0, L]` for each
/// of the `k − 1` whole passes, then `[0, t1]` (backwards: `[0, t0)`, `[0, L]` descending per
/// whole pass, `[t1, L]`). An event at `L` and one at 0 are both pushed at each wrap. At most
/// [`MAX_FULL_PASSES_PER_UPDATE`](super::MAX_FULL_PASSES_PER_UPDATE) whole passes push their
/// events in one update (root motion counts all of them). During a crossfade the outgoing clip's
/// events come first, then the incoming clip's. A full queue drops and counts events
/// ([`EventQueue::dropped`]).
///
/// # Crossfade
///
/// [`crossfade`](AnimPlayer::crossfade)`(clip, d)` starts `clip` (as `play`) while the current
/// clip keeps playing as the outgoing one. The incoming weight is `w = elapsed / d`, where
/// `elapsed` is the real time (`dt` summed, not scaled by the speed) since the crossfade; both
/// clips advance and [`evaluate`](AnimPlayer::evaluate) samples both and blends them with
/// [`BlendingJob`] weights `1 − w` (outgoing) and `w` (incoming). The update that brings `w` to 1
/// drops the outgoing clip. A crossfade during a crossfade drops the older outgoing clip at once
/// (the pose may jump); a `d` that is not positive is a `play`.
///
/// # Root motion
///
/// With [`set_root_motion`](AnimPlayer::set_root_motion), `update` returns the root bone's motion
/// over the update, as defined in [`MotionJoint`] (3D [`RootMotion3`](super::RootMotion3), 2D
/// [`RootMotion2`](super::RootMotion2)): compensated at loop wraps, nothing for a seek. During a
/// crossfade the two clips' motions are interpolated with the incoming weight `w` reached at the
/// end of the update (the update that ends the crossfade reports the incoming clip's motion
/// alone). With `remove`, `evaluate` replaces the root's translation and rotation, in
/// each sampled clip, by their values at the clip's time 0 (scale is kept), so the motion is
/// carried by the character, not by the pose. Without root motion, `update` returns
/// [`MotionJoint::NO_MOTION`]. Root poses are sampled one bone at a time (a one-bone view of the
/// skeleton and clip given to the [`SamplingJob`]): at most four per clip and update, and one
/// per clip and `evaluate` with `remove` (the start pose).
///
/// # Memory
///
/// An `AnimPlayer<S, J, N>` holds two [`SamplingContext`]s and two scratch poses (for the two
/// clips of a crossfade) for up to `N` bones, and its playback state. `AnimPlayer<S, J, N, X>`
/// holds two contexts of type `X` instead: `AnimPlayer<S, J, N, CachedSamplingContext<S, J, N>>`
/// samples with [`CachedSamplingContext`](super::CachedSamplingContext)s (the same poses, fewer reads
/// of the clips, 2 × 108 more bytes per bone in 3D). With the default contexts, per bone
/// `2 × 12 + 2 × size_of::<J>()` bytes, that is **104 bytes** for `Transform3` and **64 bytes**
/// for `Transform2` (f32 or Q16.16 alike), plus [`AnimPlayer::STATE_BYTES`] = 40 bytes
/// (padding included; `kernel/tests/skeleton_players.rs` checks these with `size_of`). A 70-bone
/// 3D player is 7,320 bytes; the output pose is the caller's.
///
/// # Example
///
/// ```
/// use ossicle::event::EventQueue;
/// use ossicle::math::{Transform3, Vec3};
/// use ossicle::skeleton::{
///     AnimPlayer, ChannelData, ClipEvent, Interpolation, Rig, RootMotionSettings, SkelEvent, SliceSkelClip,
///     SliceSkeleton, SliceTrack,
/// };
///
/// let parents = [u16::MAX];
/// let rest = [Transform3::<f32>::IDENTITY];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// // "walk": the root goes from x = 0 to x = 10 over a 1 s loop; a "step" event at 0.5 s.
/// let times = [0.0f32, 1.0];
/// let xs = [0.0f32, 0.0, 0.0, 10.0, 0.0, 0.0];
/// let ch = ChannelData { interpolation: Interpolation::Linear, times: &times[..], values: &xs[..], tangents: &[][..] };
/// let tracks = [SliceTrack { channels: [Some(ch), None, None] }];
/// const STEP: u16 = 3;
/// let events = [ClipEvent { time: 0.5f32, name: STEP }];
/// let clips = [SliceSkelClip { duration: 1.0, looping: true, tracks: &tracks, events: &events }];
/// let rig = Rig::new(&skeleton, &clips);
///
/// let mut player: AnimPlayer<f32, Transform3<f32>, 1> = AnimPlayer::new(7);
/// player.set_root_motion(Some(RootMotionSettings { bone: 0, remove: true }));
/// player.play(&clips, 0).unwrap();
/// let mut q: EventQueue<4, SkelEvent<f32>> = EventQueue::new();
/// player.update(&rig, 0.25, &mut q).unwrap();
/// // From 0.25 s across the loop end to 0.25 s again: +10 m, and the step at 0.5 s.
/// let motion = player.update(&rig, 1.0, &mut q).unwrap();
/// assert!((motion.translation.x - 10.0).abs() < 1e-5);
/// assert_eq!(q.pop(), Some(SkelEvent::Clip { player: 7, clip: 0, event: events[0] }));
/// // The root's motion is removed from the pose: it stays at the clip's start.
/// let mut pose = [Transform3::IDENTITY; 1];
/// player.evaluate(&rig, &mut pose).unwrap();
/// assert_eq!(pose[0].translation, Vec3::ZERO);
/// ```
#[derive(Clone, Debug)]
pub struct AnimPlayer<S, J, const N: usize, X = SamplingContext<N>> {
    id: u16,
    looping: Option<bool>,
    paused: bool,
    rotation: RotationInterp,
    lod: u8,
    root: Option<RootMotionSettings>,
    speed: S,
    fade: S,
    fade_len: S,
    cur: Option<Playhead<S>>,
    prev: Option<Playhead<S>>,
    ctx: [X; 2],
    scratch: [[J; N]; 2],
}

impl<S: Scalar, J: MotionJoint<S>, const N: usize, X: SamplingState<S, J>> AnimPlayer<S, J, N, X> {
    /// The bytes of playback state besides the two contexts and the per-bone arrays (see
    /// [`AnimPlayer`]).
    pub const STATE_BYTES: usize =
        core::mem::size_of::<Self>() - 2 * core::mem::size_of::<X>() - 2 * N * core::mem::size_of::<J>();

    /// A stopped player; `id` goes into its events.
    pub const fn new(id: u16) -> Self {
        Self {
            id,
            looping: None,
            paused: false,
            rotation: RotationInterp::Nlerp,
            lod: u8::MAX,
            root: None,
            speed: S::ONE,
            fade: S::ZERO,
            fade_len: S::ZERO,
            cur: None,
            prev: None,
            ctx: [X::NEW, X::NEW],
            scratch: [[J::IDENTITY; N]; 2],
        }
    }

    /// The id given to [`AnimPlayer::new`].
    pub fn id(&self) -> u16 {
        self.id
    }

    fn start_time(&self, len: S) -> S {
        if self.speed < S::ZERO {
            len
        } else {
            S::ZERO
        }
    }

    /// Plays `clip` from its start (its end when the speed is negative), dropping any crossfade.
    /// The first update includes the start time in its event interval.
    pub fn play<C: SkelClipSource<S>>(&mut self, clips: &[C], clip: u16) -> Result<(), PlayerError> {
        let (len, _) = clip_len(clips, clip, self.looping)?;
        self.cur = Some(Playhead { clip, time: self.start_time(len), fresh: true });
        self.prev = None;
        self.fade = S::ZERO;
        self.fade_len = S::ZERO;
        for c in &mut self.ctx {
            c.invalidate();
        }
        Ok(())
    }

    /// Starts `clip` as [`play`](Self::play) does and fades the current clip out over `duration`
    /// seconds (see [`AnimPlayer`]). Without a playing clip, or with a `duration` that
    /// is not positive, this is `play`.
    pub fn crossfade<C: SkelClipSource<S>>(&mut self, clips: &[C], clip: u16, duration: S) -> Result<(), PlayerError> {
        let (len, _) = clip_len(clips, clip, self.looping)?;
        let Some(cur) = self.cur else { return self.play(clips, clip) };
        if !(duration > S::ZERO && finite(duration)) {
            return self.play(clips, clip);
        }
        self.prev = Some(cur);
        self.cur = Some(Playhead { clip, time: self.start_time(len), fresh: true });
        self.fade = S::ZERO;
        self.fade_len = duration;
        self.ctx.swap(0, 1);
        if let Some(c) = self.ctx.first_mut() {
            c.invalidate();
        }
        Ok(())
    }

    /// Stops: no clip plays, [`evaluate`](Self::evaluate) gives the rest pose.
    pub fn stop(&mut self) {
        self.cur = None;
        self.prev = None;
    }

    /// Pauses: updates do nothing (the crossfade pauses too) until [`resume`](Self::resume).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Resumes after [`pause`](Self::pause).
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Whether paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Sets the speed (1 is normal, negative plays backwards, 0 holds; not finite counts as 0).
    pub fn set_speed(&mut self, speed: S) {
        self.speed = if finite(speed) { speed } else { S::ZERO };
    }

    /// The speed.
    pub fn speed(&self) -> S {
        self.speed
    }

    /// Overrides the clips' loop flag (`None`: each clip's own).
    pub fn set_looping(&mut self, looping: Option<bool>) {
        self.looping = looping;
    }

    /// Sets the root-motion bone and whether it is removed from the pose (`None`: no root motion).
    pub fn set_root_motion(&mut self, root: Option<RootMotionSettings>) {
        self.root = root;
    }

    /// How 3D rotation keys are interpolated (nlerp by default).
    pub fn set_rotation_interp(&mut self, rotation: RotationInterp) {
        self.rotation = rotation;
    }

    /// The LOD limit given to the jobs (`u8::MAX`, the default: every bone).
    pub fn set_lod(&mut self, lod: u8) {
        self.lod = lod;
    }

    /// Moves the current clip to `time` (wrapped into `[0, L)` when looping, clamped to `[0, L]`
    /// otherwise). Emits nothing: no events now or for the interval skipped, no root motion; the
    /// seek's time is excluded from the next update's events. An outgoing clip is not moved.
    pub fn seek<C: SkelClipSource<S>>(&mut self, clips: &[C], time: S) -> Result<(), PlayerError> {
        let Some(cur) = self.cur else { return Err(PlayerError::NotPlaying) };
        let (len, looping) = clip_len(clips, cur.clip, self.looping)?;
        self.cur = Some(Playhead { clip: cur.clip, time: place(time, len, looping), fresh: false });
        Ok(())
    }

    /// The current clip and its time, if one plays.
    pub fn current(&self) -> Option<(u16, S)> {
        self.cur.map(|p| (p.clip, p.time))
    }

    /// The outgoing clip of a crossfade and its time.
    pub fn outgoing(&self) -> Option<(u16, S)> {
        self.prev.map(|p| (p.clip, p.time))
    }

    /// The current clip's weight: `elapsed / duration` during a crossfade, 1 otherwise.
    pub fn fade_weight(&self) -> S {
        if self.prev.is_some() {
            self.fade.div(self.fade_len).clamp01()
        } else {
            S::ONE
        }
    }

    /// The current clip's normalised time (`time / L`, in `[0, 1]`), if one plays.
    pub fn normalized_time<C: SkelClipSource<S>>(&self, clips: &[C]) -> Option<S> {
        let cur = self.cur?;
        let (len, _) = clip_len(clips, cur.clip, self.looping).ok()?;
        Some(cur.time.div(len).clamp01())
    }

    /// Advances the playing clips by `dt` seconds (times the speed), pushes the clip events
    /// crossed into `events`, and returns the root motion (see [`AnimPlayer`]).
    pub fn update<K, C, const Q: usize>(
        &mut self,
        rig: &Rig<'_, K, C>,
        dt: S,
        events: &mut EventQueue<Q, SkelEvent<S>>,
    ) -> Result<J::Delta, PlayerError>
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        let Some(cur) = self.cur else { return Ok(J::NO_MOTION) };
        if self.paused {
            return Ok(J::NO_MOTION);
        }
        if let Some(r) = self.root {
            if usize::from(r.bone) >= rig.skeleton.bone_count() {
                return Err(PlayerError::NoSuchBone { bone: r.bone });
            }
        }
        // Check both clips before changing anything.
        let cur_info = clip_len(rig.clips, cur.clip, self.looping)?;
        let prev_info = match self.prev {
            Some(p) => Some((p, clip_len(rig.clips, p.clip, self.looping)?)),
            None => None,
        };
        let dt = if dt > S::ZERO && finite(dt) { dt } else { S::ZERO };
        let delta = dt.mul(self.speed);
        let (rotation, lod, root, id) = (self.rotation, self.lod, self.root, self.id);

        let mut run = |head: Playhead<S>, (len, looping): (S, bool)| -> Result<(Playhead<S>, J::Delta), PlayerError> {
            let clip = rig.clips.get(usize::from(head.clip)).ok_or(PlayerError::NoSuchClip { clip: head.clip })?;
            let step = advance(head.time, delta, len, looping, head.fresh);
            let motion = match root {
                Some(r) => step.root_motion::<J, JobError>(|t| {
                    sample_root::<S, J, K, C>(rig.skeleton, clip, usize::from(r.bone), t, rotation, lod)
                })?,
                None => J::NO_MOTION,
            };
            step.emit(clip, id, head.clip, events);
            Ok((Playhead { clip: head.clip, time: step.to, fresh: false }, motion))
        };

        let prev_motion = match prev_info {
            Some((p, info)) => Some(run(p, info)?),
            None => None,
        };
        let (new_cur, cur_motion) = run(cur, cur_info)?;
        self.cur = Some(new_cur);
        let mut motion = cur_motion;
        if let Some((new_prev, prev_motion)) = prev_motion {
            self.fade = self.fade.add(dt);
            if self.fade >= self.fade_len {
                self.prev = None;
            } else {
                self.prev = Some(new_prev);
                motion = J::tidy(J::blend_motion(prev_motion, cur_motion, self.fade_weight()));
            }
        }
        Ok(motion)
    }

    /// Writes the local pose of the playing clips into `output` (at least one joint per skeleton
    /// bone): the current clip sampled at its time, blended with the outgoing one during a
    /// crossfade; the rest pose when stopped.
    pub fn evaluate<K, C>(&mut self, rig: &Rig<'_, K, C>, output: &mut [J]) -> Result<(), PlayerError>
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        let bones = rig.skeleton.bone_count();
        if bones > N {
            return Err(PlayerError::TooManyBones { bones, capacity: N });
        }
        if output.len() < bones {
            return Err(PlayerError::Job(JobError::OutputTooSmall { needed: bones, got: output.len() }));
        }
        if let Some(r) = self.root {
            if usize::from(r.bone) >= bones {
                return Err(PlayerError::NoSuchBone { bone: r.bone });
            }
        }
        let Some(cur) = self.cur else {
            for (i, j) in output.iter_mut().take(bones).enumerate() {
                *j = rig.skeleton.rest(i);
            }
            return Ok(());
        };
        let clip_of = |clip: u16| rig.clips.get(usize::from(clip)).ok_or(PlayerError::NoSuchClip { clip });
        let w = self.fade_weight();
        let (rotation, lod, root) = (self.rotation, self.lod, self.root);
        let [ctx_cur, ctx_prev] = &mut self.ctx;
        let [pose_cur, pose_prev] = &mut self.scratch;
        match self.prev {
            Some(prev) if w < S::ONE => {
                let (c, p) = (clip_of(cur.clip)?, clip_of(prev.clip)?);
                sample_pose(rig.skeleton, c, cur.time, rotation, lod, root, ctx_cur, pose_cur)?;
                sample_pose(rig.skeleton, p, prev.time, rotation, lod, root, ctx_prev, pose_prev)?;
                let layers = [BlendLayer::new(&pose_prev[..], S::ONE.sub(w)), BlendLayer::new(&pose_cur[..], w)];
                let mut job = BlendingJob::new(rig.skeleton, &layers);
                job.lod = lod;
                job.run(output)?;
            }
            _ => sample_pose(rig.skeleton, clip_of(cur.clip)?, cur.time, rotation, lod, root, ctx_cur, output)?,
        }
        Ok(())
    }
}
