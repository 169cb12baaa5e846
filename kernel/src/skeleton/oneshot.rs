//! [`OneShot`]: a clip played once over a base pose, faded in and out, on a bone mask.

use super::blend::{BlendLayer, BlendingJob};
use super::clock::{advance, finite, Playhead, SkelEvent};
use super::l2m::JobError;
use super::player::{clip_len, sample_pose, PlayerError, Rig};
use super::rootmotion::MotionJoint;
use super::sample::{RotationInterp, SamplingContext, SamplingState};
use super::source::{SkelClipSource, SkeletonSource};
use crate::event::EventQueue;
use crate::scalar::Scalar;

/// A one-shot layer: a clip played once over a base pose, faded in and out, on a bone mask (a
/// wave, a hit reaction on the upper body while the legs keep walking).
///
///
/// # Weight
///
/// At clip time `t` of a one-shot of length `L` with fade-in `a` and fade-out `b` seconds, the
/// weight is `w(t) = min(1, t / a, (L − t) / b)` clamped to `[0, 1]` (a fade of 0 or less is no
/// fade: its term is 1). So the weight ramps linearly from 0 to 1 over the first `a` seconds, holds,
/// and ramps back to 0 over the last `b`; when `a + b > L` the ramps meet below 1.
///
/// # Blend
///
/// [`apply`](OneShot::apply) writes, per bone `i` with mask value `mᵢ` (1 without a mask), the
/// [`BlendingJob`] average of the base pose with weight `1 − w·mᵢ` and the one-shot's pose with
/// weight `w·mᵢ`: masked bones follow the one-shot as far as `w` goes, unmasked bones (`mᵢ = 0`)
/// keep the base pose. Mask values belong in `[0, 1]`.
///
/// # Time and events
///
/// [`update`](OneShot::update) moves the clip time forwards by `dt` (never looping, whatever the
/// clip says) and pushes the clip events crossed, as [`AnimPlayer`](super::AnimPlayer) does
/// (`[0, t1]` on the first update, `(t0, t1]` after), then [`SkelEvent::Finished`] when the end is
/// reached; from then on the one-shot is inactive and `apply` copies the base pose.
///
/// # Memory
///
/// A `OneShot<S, J, N>` holds a [`SamplingContext`] (12 bytes per bone; a
/// [`CachedSamplingContext`](super::CachedSamplingContext) with `OneShot<S, J, N, X>`), a scratch pose
/// (`size_of::<J>()` per bone) and the base layer's mask (`size_of::<S>()` per bone): **56 bytes
/// per bone** in 3D, **36** in 2D (f32 or Q16.16), plus a few words of state
/// ([`OneShot::STATE_BYTES`] = 20 bytes).
///
/// ```
/// use ossicle::event::EventQueue;
/// use ossicle::math::Transform2;
/// use ossicle::skeleton::{OneShot, SliceSkelClip};
///
/// let clips = [SliceSkelClip::<f32> { duration: 2.0, looping: false, tracks: &[], events: &[] }];
/// let mut shot: OneShot<f32, Transform2<f32>, 4> = OneShot::new(1);
/// shot.play(&clips, 0, 0.5, 1.0).unwrap();
/// let mut q: EventQueue<4, _> = EventQueue::new();
/// shot.update(&clips, 0.25, &mut q).unwrap();
/// assert_eq!(shot.weight(&clips), 0.5); // 0.25 s into a 0.5 s fade-in
/// shot.update(&clips, 1.25, &mut q).unwrap();
/// assert_eq!(shot.weight(&clips), 0.5); // 0.5 s before the end of a 1 s fade-out
/// ```
#[derive(Clone, Debug)]
pub struct OneShot<S, J, const N: usize, X = SamplingContext<N>> {
    id: u16,
    lod: u8,
    rotation: RotationInterp,
    head: Option<Playhead<S>>,
    fade_in: S,
    fade_out: S,
    ctx: X,
    pose: [J; N],
    mask: [S; N],
}

/// `w(t)` of [`OneShot`]'s documentation.
fn ramp<S: Scalar>(t: S, len: S, fade_in: S, fade_out: S) -> S {
    let up = if fade_in > S::ZERO { t.div(fade_in) } else { S::ONE };
    let down = if fade_out > S::ZERO { len.sub(t).div(fade_out) } else { S::ONE };
    S::ONE.min(up).min(down).clamp01()
}

impl<S: Scalar, J: MotionJoint<S>, const N: usize, X: SamplingState<S, J>> OneShot<S, J, N, X> {
    /// The bytes of state besides the context and the per-bone arrays.
    pub const STATE_BYTES: usize = core::mem::size_of::<Self>()
        - core::mem::size_of::<X>()
        - N * (core::mem::size_of::<J>() + core::mem::size_of::<S>());

    /// An inactive one-shot; `id` goes into its events.
    pub const fn new(id: u16) -> Self {
        Self {
            id,
            lod: u8::MAX,
            rotation: RotationInterp::Nlerp,
            head: None,
            fade_in: S::ZERO,
            fade_out: S::ZERO,
            ctx: X::NEW,
            pose: [J::IDENTITY; N],
            mask: [S::ZERO; N],
        }
    }

    /// Starts `clip` from its beginning with fade-in and fade-out durations in seconds
    /// (restarting it if one plays).
    pub fn play<C: SkelClipSource<S>>(
        &mut self,
        clips: &[C],
        clip: u16,
        fade_in: S,
        fade_out: S,
    ) -> Result<(), PlayerError> {
        clip_len(clips, clip, Some(false))?;
        let clean = |x: S| if finite(x) { x } else { S::ZERO };
        self.head = Some(Playhead { clip, time: S::ZERO, fresh: true });
        self.fade_in = clean(fade_in);
        self.fade_out = clean(fade_out);
        self.ctx.invalidate();
        Ok(())
    }

    /// Stops at once (no fade, no event).
    pub fn stop(&mut self) {
        self.head = None;
    }

    /// The playing clip and its time.
    pub fn current(&self) -> Option<(u16, S)> {
        self.head.map(|h| (h.clip, h.time))
    }

    /// Whether a clip plays.
    pub fn is_active(&self) -> bool {
        self.head.is_some()
    }

    /// The LOD limit given to the jobs (`u8::MAX`, the default: every bone).
    pub fn set_lod(&mut self, lod: u8) {
        self.lod = lod;
    }

    /// How 3D rotation keys are interpolated.
    pub fn set_rotation_interp(&mut self, rotation: RotationInterp) {
        self.rotation = rotation;
    }

    /// The current weight `w(t)` (0 when inactive or when the clip index is bad).
    pub fn weight<C: SkelClipSource<S>>(&self, clips: &[C]) -> S {
        let Some(h) = self.head else { return S::ZERO };
        match clip_len(clips, h.clip, Some(false)) {
            Ok((len, _)) => ramp(h.time, len, self.fade_in, self.fade_out),
            Err(_) => S::ZERO,
        }
    }

    /// Advances by `dt` seconds (negative or not finite: 0), pushing the events crossed.
    pub fn update<C: SkelClipSource<S>, const Q: usize>(
        &mut self,
        clips: &[C],
        dt: S,
        events: &mut EventQueue<Q, SkelEvent<S>>,
    ) -> Result<(), PlayerError> {
        let Some(h) = self.head else { return Ok(()) };
        let (len, _) = clip_len(clips, h.clip, Some(false))?;
        let Some(clip) = clips.get(usize::from(h.clip)) else { return Err(PlayerError::NoSuchClip { clip: h.clip }) };
        let dt = if dt > S::ZERO && finite(dt) { dt } else { S::ZERO };
        let step = advance(h.time, dt, len, false, h.fresh);
        step.emit(clip, self.id, h.clip, events);
        self.head = if step.to >= len { None } else { Some(Playhead { clip: h.clip, time: step.to, fresh: false }) };
        Ok(())
    }

    /// Writes `base` with the one-shot blended over it on `mask` (per-bone weights, `None` for
    /// all bones) into `output` (see [`OneShot`]); a copy of `base` when inactive.
    pub fn apply<K, C>(
        &mut self,
        rig: &Rig<'_, K, C>,
        base: &[J],
        mask: Option<&[S]>,
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
        if base.len() < bones {
            return Err(JobError::InputTooSmall { needed: bones, got: base.len() }.into());
        }
        if output.len() < bones {
            return Err(JobError::OutputTooSmall { needed: bones, got: output.len() }.into());
        }
        if let Some(m) = mask {
            if m.len() < bones {
                return Err(JobError::MaskTooSmall { needed: bones, got: m.len() }.into());
            }
        }
        let w = self.weight(rig.clips);
        let Some(h) = self.head.filter(|_| w > S::ZERO) else {
            for (o, b) in output.iter_mut().zip(base).take(bones) {
                *o = *b;
            }
            return Ok(());
        };
        let clip = rig.clips.get(usize::from(h.clip)).ok_or(PlayerError::NoSuchClip { clip: h.clip })?;
        sample_pose(rig.skeleton, clip, h.time, self.rotation, self.lod, None, &mut self.ctx, &mut self.pose)?;
        for (i, m) in self.mask.iter_mut().enumerate().take(bones) {
            let mi = mask.and_then(|m| m.get(i).copied()).unwrap_or(S::ONE);
            *m = S::ONE.sub(w.mul(mi).clamp01());
        }
        let layers = [
            BlendLayer { pose: base, weight: S::ONE, mask: Some(&self.mask[..]) },
            BlendLayer { pose: &self.pose[..], weight: w, mask },
        ];
        let mut job = BlendingJob::new(rig.skeleton, &layers);
        job.lod = self.lod;
        job.run(output)?;
        Ok(())
    }
}
