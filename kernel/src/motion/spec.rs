//! [`Motion`]: what a motion animates and how, built by value, then started in a
//! [`MotionPool`](super::MotionPool) or added to a [`Sequence`](super::Sequence).

use crate::color::Rgba8;
use crate::ease::{ease, Ease};
use crate::math::{Quat, Vec2, Vec3};
use crate::sink::{PropertyId, PropertyValue, TargetId};
use crate::Scalar;

use super::loops::{LoopMode, Passes};
use super::vibration::{Dims, ShakeNoise, Vibration};

/// The shortest duration a motion has: 1/1024 s. Shorter (or zero, or negative) durations are
/// raised to it, so that `1 / duration` stays representable in Q16.16 (a zero-length motion still
/// ends on the first update that reaches it).
pub const MIN_DURATION_RECIP: i32 = 1024;

/// Which kind of value a motion produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ValueKind {
    /// A scalar ([`PropertyValue::Float`]).
    Float,
    /// A 2D vector ([`PropertyValue::Vector`]).
    Vec2,
    /// A 3D vector ([`PropertyValue::Vector3`]).
    Vec3,
    /// A colour ([`PropertyValue::Color`]).
    Color,
    /// A rotation ([`PropertyValue::Rotation`]).
    Rotation,
}

/// The values a motion interpolates.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind<S> {
    Float {
        from: S,
        to: S,
    },
    Vec2 {
        from: Vec2<S>,
        to: Vec2<S>,
    },
    Vec3 {
        from: Vec3<S>,
        to: Vec3<S>,
    },
    Color {
        from: Rgba8,
        to: Rgba8,
    },
    /// `to` is stored on the same hemisphere as `from` (the shortest arc).
    Quat {
        from: Quat<S>,
        to: Quat<S>,
    },
    Vibration(Vibration<S>),
}

/// A motion, LitMotion style: a typed value from one value to another over a duration with an
/// ease, or a punch / shake; with a delay, loops, and optionally bound to a property.
///
/// Build it by value, then start it in a [`MotionPool`](super::MotionPool) (or add it to a
/// [`Sequence`](super::Sequence)). Setters that do not apply to a kind (`frequency` on a colour
/// motion) are ignored.
///
/// - **Scalars and vectors** interpolate linearly: `from + (to − from)·ease(p)`.
/// - **Colours** interpolate each 8-bit channel in the scalar type and round to nearest (halves
///   up): `channel = clamp(round(from + (to − from)·ease(p)), 0, 255)`, so `0 → 255` at
///   `p = ½` is 128.
/// - **Quaternions** use [`Quat::slerp`] along the shortest arc (constant angular speed; `to` is
///   negated at build time when `from · to < 0`); the result is normalised.
/// - **Punch and shake**: see [the formulas](super::vibration). Defaults: 10 Hz, damping ratio 0.1,
///   seed 0.
///
/// `p` is the progress of the current pass, `time / duration`, computed with a reciprocal
/// precomputed here (no division when the motion updates); it is exactly 1 at the end of a pass.
///
/// Memory: 92 bytes in f32 and in Q16.16 (see [`MotionPool`](super::MotionPool) for the per-slot
/// size).
///
/// ```
/// use ossicle::ease::Ease;
/// use ossicle::motion::{LoopMode, Motion};
/// use ossicle::sink::{property, PropertyValue};
/// let m = Motion::float(0.0f32, 200.0, 0.5)
///     .ease(Ease::OutQuad)
///     .delay(0.125)
///     .loops(2, LoopMode::Yoyo)
///     .bind(7, property::POSITION_X);
/// // Sampled directly at 0.125 + 0.25 s (half of the first pass): OutQuad(½) = ¾.
/// assert_eq!(m.value_at(0.375), PropertyValue::Float(150.0));
/// // In the second (backward) pass, 0.375 s in: OutQuad(1 − ¾) = 7/16.
/// assert_eq!(m.value_at(0.125 + 0.5 + 0.375), PropertyValue::Float(87.5));
/// assert_eq!(m.total_duration(), Some(1.125));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<S> {
    kind: Kind<S>,
    ease: Ease<S>,
    duration: S,
    inv_duration: S,
    delay: S,
    passes: Passes,
    mode: LoopMode,
    bound: bool,
    target: TargetId,
    property: PropertyId,
}

impl<S: Scalar> Motion<S> {
    fn with_kind(kind: Kind<S>, duration: S) -> Self {
        let min = S::from_ratio(1, MIN_DURATION_RECIP);
        let duration = duration.max(min);
        Self {
            kind,
            ease: Ease::Linear,
            duration,
            inv_duration: duration.recip(),
            delay: S::ZERO,
            passes: Passes::ONCE,
            mode: LoopMode::Restart,
            bound: false,
            target: 0,
            property: 0,
        }
    }

    /// A scalar from `from` to `to` over `duration` seconds.
    pub fn float(from: S, to: S, duration: S) -> Self {
        Self::with_kind(Kind::Float { from, to }, duration)
    }

    /// A 2D vector from `from` to `to` over `duration` seconds.
    pub fn vec2(from: Vec2<S>, to: Vec2<S>, duration: S) -> Self {
        Self::with_kind(Kind::Vec2 { from, to }, duration)
    }

    /// A 3D vector from `from` to `to` over `duration` seconds.
    pub fn vec3(from: Vec3<S>, to: Vec3<S>, duration: S) -> Self {
        Self::with_kind(Kind::Vec3 { from, to }, duration)
    }

    /// A colour from `from` to `to` over `duration` seconds (channels rounded to nearest).
    pub fn color(from: Rgba8, to: Rgba8, duration: S) -> Self {
        Self::with_kind(Kind::Color { from, to }, duration)
    }

    /// A rotation from `from` to `to` over `duration` seconds, along the shortest arc (both are
    /// normalised). With [`LoopMode::Incremental`], passes after the first also compute the axis and
    /// angle of the step rotation on every update (an `acos` and a square root more).
    pub fn quat(from: Quat<S>, to: Quat<S>, duration: S) -> Self {
        let from = from.normalize();
        let to = to.normalize();
        let to = if from.dot(to) < S::ZERO { to.neg() } else { to };
        Self::with_kind(Kind::Quat { from, to }, duration)
    }

    fn vibration(from: Vec3<S>, strength: Vec3<S>, dims: Dims, shake: bool, duration: S) -> Self {
        Self::with_kind(Kind::Vibration(Vibration::new(from, strength, dims, shake)), duration)
    }

    /// A punch of a scalar: a damped sine of amplitude `strength` around `from`, ending at `from`.
    pub fn punch(from: S, strength: S, duration: S) -> Self {
        let z = S::ZERO;
        Self::vibration(Vec3::new(from, z, z), Vec3::new(strength, z, z), Dims::One, false, duration)
    }

    /// A punch of a 2D vector (the same sine on both components, scaled by `strength`).
    pub fn punch_vec2(from: Vec2<S>, strength: Vec2<S>, duration: S) -> Self {
        Self::vibration(from.extend(S::ZERO), strength.extend(S::ZERO), Dims::Two, false, duration)
    }

    /// A punch of a 3D vector.
    pub fn punch_vec3(from: Vec3<S>, strength: Vec3<S>, duration: S) -> Self {
        Self::vibration(from, strength, Dims::Three, false, duration)
    }

    /// A shake of a scalar: a punch whose every vibration cycle is scaled by a seeded random
    /// factor in `[-1, 1)` (seed 0 unless [`Motion::seed`] sets one).
    pub fn shake(from: S, strength: S, duration: S) -> Self {
        let z = S::ZERO;
        Self::vibration(Vec3::new(from, z, z), Vec3::new(strength, z, z), Dims::One, true, duration)
    }

    /// A shake of a 2D vector (an independent random factor per component and cycle).
    pub fn shake_vec2(from: Vec2<S>, strength: Vec2<S>, duration: S) -> Self {
        Self::vibration(from.extend(S::ZERO), strength.extend(S::ZERO), Dims::Two, true, duration)
    }

    /// A shake of a 3D vector.
    pub fn shake_vec3(from: Vec3<S>, strength: Vec3<S>, duration: S) -> Self {
        Self::vibration(from, strength, Dims::Three, true, duration)
    }

    /// The easing curve (default [`Ease::Linear`]). For punch and shake it warps time.
    pub fn ease(mut self, ease: Ease<S>) -> Self {
        self.ease = ease;
        self
    }

    /// Waits `seconds` before the first pass (negative counts as 0). Nothing is written while the
    /// delay runs; [`MotionPool::value`](super::MotionPool::value) reports the start value.
    pub fn delay(mut self, seconds: S) -> Self {
        self.delay = seconds.max(S::ZERO);
        self
    }

    /// Plays `count` passes in total, as LitMotion's `WithLoops(count, mode)`: 1 (the default)
    /// plays once, 3 plays three times, any negative count forever, and 0 once like 1.
    pub fn loops(mut self, count: i32, mode: LoopMode) -> Self {
        self.passes = Passes::from_count(count);
        self.mode = mode;
        self
    }

    /// Writes the values to `property` of `target` through the sink passed to `update`. An
    /// unbound motion is only read by handle.
    pub fn bind(mut self, target: TargetId, property: PropertyId) -> Self {
        self.bound = true;
        self.target = target;
        self.property = property;
        self
    }

    /// Punch and shake: vibrations per second (default 10; negative counts as 0).
    pub fn frequency(mut self, hz: S) -> Self {
        if let Kind::Vibration(v) = &mut self.kind {
            v.set_shape(hz, v.damping_ratio);
        }
        self
    }

    /// Punch and shake: the damping ratio ζ (default 0.1; negative counts as 0): the amplitude
    /// shrinks by `e^(−2πζ)` every vibration cycle, on top of the linear taper to 0 at the end.
    pub fn damping_ratio(mut self, ratio: S) -> Self {
        if let Kind::Vibration(v) = &mut self.kind {
            v.set_shape(v.frequency, ratio);
        }
        self
    }

    /// Shake: the seed of its random factors (the same seed gives the same shake).
    pub fn seed(mut self, seed: u32) -> Self {
        if let Kind::Vibration(v) = &mut self.kind {
            v.noise = ShakeNoise::new(seed);
        }
        self
    }

    /// The duration of one pass, in seconds.
    pub fn duration(&self) -> S {
        self.duration
    }

    /// The delay before the first pass, in seconds.
    pub fn start_delay(&self) -> S {
        self.delay
    }

    /// The number of passes, or `None` for forever.
    pub fn pass_count(&self) -> Option<u32> {
        self.passes.count()
    }

    /// The loop mode.
    pub fn loop_mode(&self) -> LoopMode {
        self.mode
    }

    /// The bound `(target, property)`, if any.
    pub fn binding(&self) -> Option<(TargetId, PropertyId)> {
        if self.bound {
            Some((self.target, self.property))
        } else {
            None
        }
    }

    /// The kind of value this motion produces.
    pub fn value_kind(&self) -> ValueKind {
        match self.kind {
            Kind::Float { .. } => ValueKind::Float,
            Kind::Vec2 { .. } => ValueKind::Vec2,
            Kind::Vec3 { .. } => ValueKind::Vec3,
            Kind::Color { .. } => ValueKind::Color,
            Kind::Quat { .. } => ValueKind::Rotation,
            Kind::Vibration(v) => match v.dims {
                Dims::One => ValueKind::Float,
                Dims::Two => ValueKind::Vec2,
                Dims::Three => ValueKind::Vec3,
            },
        }
    }

    /// `delay + passes × duration` in seconds, or `None` when it loops forever.
    pub fn total_duration(&self) -> Option<S> {
        Some(self.delay.add(self.active_duration()?))
    }

    /// `passes × duration` in seconds (the time after the delay), or `None` when it loops forever.
    pub fn active_duration(&self) -> Option<S> {
        let passes = self.passes.count()?;
        Some(self.duration.mul(S::from_i32(i32::try_from(passes).unwrap_or(i32::MAX))))
    }

    pub(crate) fn inv_duration(&self) -> S {
        self.inv_duration
    }

    pub(crate) fn passes(&self) -> Passes {
        self.passes
    }

    /// The value `elapsed` seconds after the motion started (delay included): the start value
    /// during the delay, the final value (the end of the last pass) from the total duration on. For
    /// a motion that loops forever the passes go on (in Q16.16, for up to 32767 passes: `elapsed`
    /// itself cannot exceed 32767 s; a [`MotionPool`](super::MotionPool) keeps no total time and
    /// has no such limit).
    pub fn value_at(&self, elapsed: S) -> PropertyValue<S> {
        self.sample_active(elapsed.sub(self.delay))
    }

    /// The value `u` seconds after the delay.
    pub(crate) fn sample_active(&self, u: S) -> PropertyValue<S> {
        if u <= S::ZERO {
            return self.sample(0, S::ZERO);
        }
        if let (Some(last), Some(length)) = (self.passes.last(), self.active_duration()) {
            if u >= length {
                return self.sample(last, self.duration);
            }
        }
        let n = u.mul(self.inv_duration).floor_to_i32().max(0);
        let n = u32::try_from(n).unwrap_or(0);
        match self.passes.last() {
            Some(last) if n > last => return self.sample(last, self.duration),
            _ => {}
        }
        let time = u.sub(S::from_i32(i32::try_from(n).unwrap_or(i32::MAX)).mul(self.duration));
        // The product's rounding can leave `time` a hair outside the pass: take the pass boundary.
        if time >= self.duration {
            match self.passes.last() {
                Some(last) if n >= last => self.sample(last, self.duration),
                _ => self.sample(n.saturating_add(1), S::ZERO),
            }
        } else {
            self.sample(n, time.max(S::ZERO))
        }
    }

    /// The value at `time` seconds into pass `pass` (negative time: the start of the pass).
    #[inline]
    pub(crate) fn sample(&self, pass: u32, time: S) -> PropertyValue<S> {
        let mut p = if time >= self.duration { S::ONE } else { time.mul(self.inv_duration).clamp01() };
        if self.mode == LoopMode::Yoyo && pass & 1 == 1 {
            p = S::ONE.sub(p);
        }
        let e = ease(self.ease, p);
        // Passes completed before this one, for Incremental.
        let k = if self.mode == LoopMode::Incremental && pass > 0 {
            Some(S::from_i32(i32::try_from(pass).unwrap_or(i32::MAX)))
        } else {
            None
        };
        match self.kind {
            Kind::Float { from, to } => {
                let v = from.lerp(to, e);
                PropertyValue::Float(match k {
                    Some(k) => v.add(to.sub(from).mul(k)),
                    None => v,
                })
            }
            Kind::Vec2 { from, to } => {
                let v = from.lerp(to, e);
                PropertyValue::Vector(match k {
                    Some(k) => v.add(to.sub(from).scale(k)),
                    None => v,
                })
            }
            Kind::Vec3 { from, to } => {
                let v = from.lerp(to, e);
                PropertyValue::Vector3(match k {
                    Some(k) => v.add(to.sub(from).scale(k)),
                    None => v,
                })
            }
            Kind::Color { from, to } => {
                let k = k.unwrap_or(S::ZERO);
                let c = |a: u8, b: u8| -> u8 {
                    let (a, b) = (S::from_i32(i32::from(a)), S::from_i32(i32::from(b)));
                    let v = a.lerp(b, e).add(b.sub(a).mul(k));
                    // Clamped to 0..=255, so the cast is exact.
                    v.round().floor_to_i32().clamp(0, 255) as u8
                };
                PropertyValue::Color(Rgba8::new(c(from.r, to.r), c(from.g, to.g), c(from.b, to.b), c(from.a, to.a)))
            }
            Kind::Quat { from, to } => {
                let q = Quat::slerp(from, to, e);
                PropertyValue::Rotation(match k {
                    Some(k) => {
                        // The step rotation `to·from⁻¹`, applied k times: about its axis by k × its angle.
                        let (axis, angle) = to.mul(from.conjugate()).normalize().to_axis_angle();
                        Quat::from_axis_angle(axis, angle.mul(k)).mul(q).normalize()
                    }
                    None => q,
                })
            }
            Kind::Vibration(v) => {
                let tau = e.mul(self.duration);
                let x = v.at(tau, e);
                match v.dims {
                    Dims::One => PropertyValue::Float(x.x),
                    Dims::Two => PropertyValue::Vector(x.truncate()),
                    Dims::Three => PropertyValue::Vector3(x),
                }
            }
        }
    }
}
