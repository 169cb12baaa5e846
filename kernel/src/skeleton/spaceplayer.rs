//! [`BlendSpacePlayer`]: plays the clips of a blend space in sync, with events and root motion.

use super::blend::{BlendLayer, BlendingJob};
use super::blendspace::{BlendWeights, SyncPhase};
use super::clock::{advance, finite, SkelEvent};
use super::l2m::JobError;
use super::player::{clip_len, sample_pose, sample_root, PlayerError, Rig, RootMotionSettings};
use super::rootmotion::MotionJoint;
use super::sample::{RotationInterp, SamplingContext, SamplingState};
use super::source::{SkelClipSource, SkeletonSource};
use crate::event::EventQueue;
use crate::scalar::Scalar;

/// Plays the clips of a blend space ([`BlendSpace1D`](super::BlendSpace1D) or
/// [`BlendSpace2D`](super::BlendSpace2D)) in sync: the weights come from the space
/// ([`set_weights`](Self::set_weights), each frame as the parameter moves), the clips from the
/// caller's `point_clips` (point `i` plays clip `point_clips[i]` of the [`Rig`]).
///
/// # Rules
///
/// - **Time**: a shared [`SyncPhase`]; [`update`](Self::update)`(dt)` moves it by
///   `dt × speed / L`, `L` the weighted cycle length `Σ wᵢ·Lᵢ / Σ wᵢ` of the weighted clips
///   (blend-space clips always loop). Each weighted clip is at `phase × Lᵢ`.
/// - **Events**: only the heaviest clip's (the first of equal weights), by the rules of
///   [`AnimPlayer`](super::AnimPlayer) over that clip's interval `phase₀·L → phase₁·L` (the first
///   update after [`start`](Self::start) includes its start time).
/// - **Root motion**: each weighted clip's motion over its own interval (as
///   [`AnimPlayer`](super::AnimPlayer) measures it, loop wraps compensated), interpolated by the
///   weights (translations weighted average; rotations by successive nlerps, `d₀` then `d₁` at
///   `w₁ / (w₀ + w₁)`, then `d₂` at `w₂ / (w₀ + w₁ + w₂)`). `remove` pins the root of every
///   sampled clip to its start pose.
/// - **Pose**: [`evaluate`](Self::evaluate) samples each weighted clip at its time and blends them
///   with the weights through a [`BlendingJob`]; with one weight it samples that clip alone;
///   with none, the rest pose.
///
/// # Memory
///
/// Three [`SamplingContext`]s (or, as `BlendSpacePlayer<S, J, N, X>`, three contexts of type `X`,
/// such as [`CachedSamplingContext`](super::CachedSamplingContext)) and three scratch poses (a 2D
/// blend space weights at most three points): per bone `3 × 12 + 3 × size_of::<J>()` bytes, **156** in 3D and **96** in 2D (f32 or
/// Q16.16), plus [`BlendSpacePlayer::STATE_BYTES`] (48 bytes; checked in
/// `kernel/tests/skeleton_players.rs`).
///
/// ```
/// use ossicle::event::EventQueue;
/// use ossicle::math::Transform2;
/// use ossicle::skeleton::{BlendSpace1D, BlendSpacePlayer, Rig, SliceSkelClip, SliceSkeleton};
///
/// let parents = [u16::MAX];
/// let rest = [Transform2::<f32>::IDENTITY];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// let clips = [
///     SliceSkelClip { duration: 1.0f32, looping: true, tracks: &[], events: &[] },
///     SliceSkelClip { duration: 0.5, looping: true, tracks: &[], events: &[] },
/// ];
/// let rig = Rig::new(&skeleton, &clips);
/// let speeds = [1.0f32, 3.0];
/// let space = BlendSpace1D::new(&speeds).unwrap();
/// let mut player: BlendSpacePlayer<f32, Transform2<f32>, 1> = BlendSpacePlayer::new(0);
/// player.set_weights(space.weights(2.0)); // half and half: a 0.75 s cycle
/// let mut q: EventQueue<4, _> = EventQueue::new();
/// player.update(&rig, &[0, 1], 0.375, &mut q).unwrap();
/// assert_eq!(player.phase().phase(), 0.5);
/// ```
#[derive(Clone, Debug)]
pub struct BlendSpacePlayer<S, J, const N: usize, X = SamplingContext<N>> {
    id: u16,
    fresh: bool,
    rotation: RotationInterp,
    lod: u8,
    root: Option<RootMotionSettings>,
    speed: S,
    phase: SyncPhase<S>,
    weights: BlendWeights<S>,
    ctx: [X; 3],
    scratch: [[J; N]; 3],
}

impl<S: Scalar, J: MotionJoint<S>, const N: usize, X: SamplingState<S, J>> BlendSpacePlayer<S, J, N, X> {
    /// The bytes of state besides the three contexts and the per-bone arrays.
    pub const STATE_BYTES: usize =
        core::mem::size_of::<Self>() - 3 * core::mem::size_of::<X>() - 3 * N * core::mem::size_of::<J>();

    /// A player at phase 0 without weights; `id` goes into its events.
    pub const fn new(id: u16) -> Self {
        Self {
            id,
            fresh: true,
            rotation: RotationInterp::Nlerp,
            lod: u8::MAX,
            root: None,
            speed: S::ONE,
            phase: SyncPhase::new(),
            weights: BlendWeights::EMPTY,
            ctx: [X::NEW, X::NEW, X::NEW],
            scratch: [[J::IDENTITY; N]; 3],
        }
    }

    /// Restarts at phase 0; the next update includes the start time in its events.
    pub fn start(&mut self) {
        self.phase = SyncPhase::new();
        self.fresh = true;
    }

    /// Sets the weights (from [`BlendSpace1D::weights`](super::BlendSpace1D::weights) or
    /// [`BlendSpace2D::weights`](super::BlendSpace2D::weights)).
    pub fn set_weights(&mut self, weights: BlendWeights<S>) {
        self.weights = weights;
    }

    /// The weights.
    pub fn weights(&self) -> BlendWeights<S> {
        self.weights
    }

    /// The shared phase.
    pub fn phase(&self) -> SyncPhase<S> {
        self.phase
    }

    /// Moves the phase (wrapped into `[0, 1)`), emitting nothing.
    pub fn seek_phase(&mut self, phase: S) {
        self.phase.set_phase(phase);
        self.fresh = false;
    }

    /// Sets the speed (negative plays backwards; not finite counts as 0).
    pub fn set_speed(&mut self, speed: S) {
        self.speed = if finite(speed) { speed } else { S::ZERO };
    }

    /// Sets the root-motion bone and whether it is removed from the pose.
    pub fn set_root_motion(&mut self, root: Option<RootMotionSettings>) {
        self.root = root;
    }

    /// How 3D rotation keys are interpolated.
    pub fn set_rotation_interp(&mut self, rotation: RotationInterp) {
        self.rotation = rotation;
    }

    /// The LOD limit given to the jobs.
    pub fn set_lod(&mut self, lod: u8) {
        self.lod = lod;
    }

    /// The clip of each weighted point and its length, checked.
    fn clips_of<C: SkelClipSource<S>>(
        &self,
        clips: &[C],
        point_clips: &[u16],
    ) -> Result<[(u16, S, S); 3], PlayerError> {
        let mut out = [(0u16, S::ZERO, S::ZERO); 3];
        for (slot, &(point, w)) in out.iter_mut().zip(self.weights.as_slice()) {
            let clip = *point_clips.get(usize::from(point)).ok_or(PlayerError::NoClipForPoint { point })?;
            let (len, _) = clip_len(clips, clip, Some(true))?;
            *slot = (clip, len, w);
        }
        Ok(out)
    }

    /// Advances the phase by `dt` seconds (times the speed), pushes the heaviest clip's events
    /// and returns the blended root motion (see [`BlendSpacePlayer`]).
    pub fn update<K, C, const Q: usize>(
        &mut self,
        rig: &Rig<'_, K, C>,
        point_clips: &[u16],
        dt: S,
        events: &mut EventQueue<Q, SkelEvent<S>>,
    ) -> Result<J::Delta, PlayerError>
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        if let Some(r) = self.root {
            if usize::from(r.bone) >= rig.skeleton.bone_count() {
                return Err(PlayerError::NoSuchBone { bone: r.bone });
            }
        }
        let slots = self.clips_of(rig.clips, point_clips)?;
        let n = self.weights.as_slice().len();
        if n == 0 {
            return Ok(J::NO_MOTION);
        }
        let dt = if dt > S::ZERO && finite(dt) { dt } else { S::ZERO };
        let mut durations = [S::ZERO; 3];
        // Re-index the weights by slot so `SyncPhase::advance` reads `durations[slot]`.
        let mut pairs = [(0u16, S::ZERO); 3];
        for (k, (slot, pair)) in slots.iter().zip(pairs.iter_mut()).enumerate().take(n) {
            if let Some(d) = durations.get_mut(k) {
                *d = slot.1;
            }
            *pair = (k as u16, slot.2);
        }
        let local = BlendWeights::from_pairs(pairs, n);
        let phase0 = self.phase.phase();
        let cycle = self.phase.advance(dt.mul(self.speed), &local, &durations);
        let dphi = if cycle > S::ZERO { dt.mul(self.speed).div(cycle) } else { S::ZERO };
        let heaviest = self.weights.heaviest().map(|(p, _)| p);
        let (rotation, lod, root, fresh) = (self.rotation, self.lod, self.root, self.fresh);
        let mut motion: Option<(J::Delta, S)> = None;
        for (&(point, _), &(clip_id, len, w)) in self.weights.as_slice().iter().zip(slots.iter()) {
            let clip = rig.clips.get(usize::from(clip_id)).ok_or(PlayerError::NoSuchClip { clip: clip_id })?;
            let step = advance(phase0.mul(len), dphi.mul(len), len, true, fresh);
            if let Some(r) = root {
                let d = step.root_motion::<J, JobError>(|t| {
                    sample_root::<S, J, K, C>(rig.skeleton, clip, usize::from(r.bone), t, rotation, lod)
                })?;
                motion = Some(match motion {
                    None => (d, w),
                    Some((acc, total)) => {
                        let sum = total.add(w);
                        (J::blend_motion(acc, d, w.div(sum)), sum)
                    }
                });
            }
            if Some(point) == heaviest {
                step.emit(clip, self.id, clip_id, events);
            }
        }
        self.fresh = false;
        Ok(motion.map_or(J::NO_MOTION, |(d, _)| J::tidy(d)))
    }

    /// Writes the blended local pose into `output` (see [`BlendSpacePlayer`]).
    pub fn evaluate<K, C>(
        &mut self,
        rig: &Rig<'_, K, C>,
        point_clips: &[u16],
        output: &mut [J],
    ) -> Result<(), PlayerError>
    where
        K: SkeletonSource<S, J>,
        C: SkelClipSource<S>,
    {
        let bones = rig.skeleton.bone_count();
        if bones > N {
            return Err(PlayerError::TooManyBones { bones, capacity: N });
        }
        if output.len() < bones {
            return Err(JobError::OutputTooSmall { needed: bones, got: output.len() }.into());
        }
        if let Some(r) = self.root {
            if usize::from(r.bone) >= bones {
                return Err(PlayerError::NoSuchBone { bone: r.bone });
            }
        }
        let slots = self.clips_of(rig.clips, point_clips)?;
        let n = self.weights.as_slice().len();
        let (rotation, lod, root, phase) = (self.rotation, self.lod, self.root, self.phase);
        let clip_of = |clip: u16| rig.clips.get(usize::from(clip)).ok_or(PlayerError::NoSuchClip { clip });
        match (n, slots) {
            (0, _) => {
                for (i, j) in output.iter_mut().take(bones).enumerate() {
                    *j = rig.skeleton.rest(i);
                }
            }
            (1, [(clip, len, _), ..]) => {
                let [ctx, ..] = &mut self.ctx;
                sample_pose(rig.skeleton, clip_of(clip)?, phase.time_in(len), rotation, lod, root, ctx, output)?;
            }
            _ => {
                for ((ctx, pose), &(clip, len, _)) in
                    self.ctx.iter_mut().zip(self.scratch.iter_mut()).zip(&slots).take(n)
                {
                    sample_pose(rig.skeleton, clip_of(clip)?, phase.time_in(len), rotation, lod, root, ctx, pose)?;
                }
                let [p0, p1, p2] = &self.scratch;
                let [s0, s1, s2] = slots;
                let layers =
                    [BlendLayer::new(&p0[..], s0.2), BlendLayer::new(&p1[..], s1.2), BlendLayer::new(&p2[..], s2.2)];
                let mut job = BlendingJob::new(rig.skeleton, layers.get(..n).unwrap_or(&layers));
                job.lod = lod;
                job.run(output)?;
            }
        }
        Ok(())
    }
}
