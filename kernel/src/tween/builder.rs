//! Building a tween: an allocation-free list of steps with its loop count and speed.

use super::error::TweenError;
use super::step::Step;
use super::value::{Action, TweenValue};
use crate::ease::Ease;
use crate::sink::{PropertyId, TargetId};
use crate::Scalar;

/// A tween being built: up to `STEPS` steps, stored inline, with its loop count and speed.
///
/// Every builder method is infallible and returns the tween, so steps chain; adding more than
/// `STEPS` steps is recorded and reported as [`TweenError::TooManySteps`] by
/// [`TweenPool::start`](super::TweenPool::start) (or [`Tween::check`]). A built tween can be
/// started any number of times.
///
/// Steps run in order. [`to`](Self::to) starts from wherever the value is when the step begins
/// (read from the sink), [`from_to`](Self::from_to) jumps to its start first, [`delay`](Self::delay)
/// waits, [`call`](Self::call) emits an event, and [`parallel`](Self::parallel) makes the next
/// step run together with the previous one.
///
/// ```
/// use ossicle::ease::Ease;
/// use ossicle::math::Vec2;
/// use ossicle::color::Rgba8;
/// use ossicle::sink::property::{POSITION, TINT};
/// use ossicle::tween::Tween;
///
/// const COIN: u32 = 7;
/// // The coin pops up while fading out, then says it is done (event id 1); plays twice.
/// let pop = Tween::<f32, 4>::new()
///     .to(COIN, POSITION, Vec2::new(0.0, -24.0), 0.4, Ease::OutBack)
///     .parallel()
///     .to(COIN, TINT, Rgba8::new(255, 255, 255, 0), 0.4, Ease::Linear)
///     .call(1)
///     .loops(1);
/// assert_eq!(pop.len(), 3);
/// assert_eq!(pop.pass_duration(), 0.4);
/// assert!(pop.check().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[must_use = "a tween does nothing until it is started in a TweenPool"]
pub struct Tween<S: Scalar, const STEPS: usize> {
    pub(crate) steps: [Step<S>; STEPS],
    pub(crate) len: u16,
    /// Steps added, including those that did not fit.
    pub(crate) requested: usize,
    pub(crate) parallel_next: bool,
    pub(crate) loops: i32,
    pub(crate) speed: S,
}

impl<S: Scalar, const STEPS: usize> Default for Tween<S, STEPS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const STEPS: usize> Tween<S, STEPS> {
    const CAPACITY_FITS: () = assert!(STEPS <= u16::MAX as usize, "a tween holds at most 65535 steps");

    /// A tween with no steps, playing once at speed 1.
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::CAPACITY_FITS;
        Self { steps: [Step::EMPTY; STEPS], len: 0, requested: 0, parallel_next: false, loops: 0, speed: S::ONE }
    }

    fn push(mut self, mut step: Step<S>) -> Self {
        self.requested = self.requested.saturating_add(1);
        step.parallel = self.parallel_next && self.len > 0;
        self.parallel_next = false;
        if let Some(slot) = self.steps.get_mut(usize::from(self.len)) {
            *slot = step;
            self.len += 1; // < STEPS <= u16::MAX
        }
        self
    }

    /// Adds a step that moves `property` of `target` to `value` over `duration` seconds along
    /// `ease`, starting from wherever the value is when the step begins (on every pass).
    ///
    /// The start is read with [`PropertySink::get`](crate::sink::PropertySink::get) when the step
    /// begins. If the sink does not know the value (returns `None`, as write-only sinks do) or
    /// reports a value of another kind, the step starts at its end: it holds `value` for its
    /// duration. Use [`from_to`](Self::from_to) with sinks that cannot report values.
    ///
    /// `value` is a scalar (written as `PropertyValue::Float`), a [`Vec2`](crate::math::Vec2)
    /// (`Vector`) or an [`Rgba8`](crate::color::Rgba8) (`Color`, per channel, see
    /// [`lerp_rgba8`](super::lerp_rgba8)). A negative or NaN duration counts as 0; a zero-length
    /// step writes its end value as soon as it begins.
    pub fn to<V: TweenValue<S>>(
        self,
        target: TargetId,
        property: PropertyId,
        value: V,
        duration: S,
        ease: Ease<S>,
    ) -> Self {
        self.push(Step::new(V::action(value, value), duration, ease, target, property))
    }

    /// Adds a step like [`to`](Self::to) that starts at `from`: the value jumps to `from` when the
    /// step begins, and again on each loop.
    pub fn from_to<V: TweenValue<S>>(
        self,
        target: TargetId,
        property: PropertyId,
        from: V,
        to: V,
        duration: S,
        ease: Ease<S>,
    ) -> Self {
        let mut step = Step::new(V::action(from, to), duration, ease, target, property);
        step.from_given = true;
        self.push(step)
    }

    /// Adds a pause of `seconds` (negative or NaN counts as 0).
    pub fn delay(self, seconds: S) -> Self {
        self.push(Step::new(Action::Delay, seconds, Ease::Linear, 0, 0))
    }

    /// Adds a step that emits [`Event::TweenCall`](crate::event::Event::TweenCall) with `id` when it
    /// is reached: once per pass, including each loop. It takes no time.
    pub fn call(self, id: u32) -> Self {
        self.push(Step::new(Action::Call(id), S::ZERO, Ease::Linear, 0, 0))
    }

    /// Makes the next step added run together with the last one. Consecutive parallel steps form
    /// a group that begins together and ends with its longest step; groups run one after another.
    /// Does nothing when the tween has no steps yet (and calling it twice is calling it once).
    pub fn parallel(mut self) -> Self {
        self.parallel_next = self.len > 0;
        self
    }

    /// Sets how many more times the tween plays after the first pass: 0 plays once, `n` plays
    /// `n` extra times, -1 (or any negative number) forever. Each loop begins its steps again from
    /// the values as they are then (`to` steps read their start again, `from_to` steps jump back).
    pub fn loops(mut self, n: i32) -> Self {
        self.loops = n.max(-1);
        self
    }

    /// Sets how fast the tween plays: its time is `dt × speed` (1: as built, 0: holds). Negative and
    /// NaN speeds count as 0; +∞ as the largest finite value.
    pub fn speed(mut self, speed: S) -> Self {
        self.speed = sanitize_speed(speed);
        self
    }

    /// The number of steps stored (at most `STEPS`).
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the tween has no steps.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The step capacity, `STEPS`.
    pub const fn capacity(&self) -> usize {
        STEPS
    }

    /// The loop count set with [`loops`](Self::loops) (-1: forever).
    pub const fn loop_count(&self) -> i32 {
        self.loops
    }

    /// `Ok` if every step added fitted, else [`TweenError::TooManySteps`].
    pub fn check(&self) -> Result<(), TweenError> {
        if self.requested > STEPS {
            Err(TweenError::TooManySteps { capacity: STEPS, requested: self.requested })
        } else {
            Ok(())
        }
    }

    /// The seconds one pass lasts at speed 1: the sum over its groups of each group's longest step
    /// (saturating at the largest finite value).
    pub fn pass_duration(&self) -> S {
        pass_duration(self.steps.get(..self.len()).unwrap_or(&[]))
    }
}

/// Speeds are in `[0, S::MAX]`; NaN is 0.
pub(crate) fn sanitize_speed<S: Scalar>(speed: S) -> S {
    speed.clamp(S::ZERO, S::MAX)
}

/// The sum over the groups of `steps` of their longest step.
pub(crate) fn pass_duration<S: Scalar>(steps: &[Step<S>]) -> S {
    let mut total = S::ZERO;
    let mut group = S::ZERO;
    for step in steps {
        if !step.parallel {
            total = total.add(group).min(S::MAX);
            group = S::ZERO;
        }
        group = group.max(step.duration);
    }
    total.add(group).min(S::MAX)
}
