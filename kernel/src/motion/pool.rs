//! [`MotionPool`]: running motions in fixed-capacity storage.

use crate::color::Rgba8;
use crate::event::{Event, EventQueue};
use crate::math::{Quat, Vec2, Vec3};
use crate::pool::{Handle, Pool};
use crate::sink::{PropertySink, PropertyValue};
use crate::Scalar;

use super::error::MotionError;
use super::loops::{looped_counts, Clock, Step};
use super::spec::{Motion, ValueKind};

/// The tag of the handles of a [`MotionPool::new`] (`"MT"`), so that their bits in events differ
/// from a [`SequencePool`](super::SequencePool)'s ([`SEQUENCE_POOL_TAG`](super::SEQUENCE_POOL_TAG)).
pub const MOTION_POOL_TAG: u16 = 0x4D54;

/// A motion running in a [`MotionPool`]: the [`Motion`] and its clock (pass index and time in
/// the pass). Only reachable through the pool, by [`MotionHandle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunningMotion<S> {
    motion: Motion<S>,
    clock: Clock<S>,
}

impl<S: Scalar> RunningMotion<S> {
    fn value(&self) -> PropertyValue<S> {
        self.motion.sample(self.clock.pass, self.clock.time)
    }

    fn write<P: PropertySink<S> + ?Sized>(&self, sink: &mut P) {
        if let Some((target, property)) = self.motion.binding() {
            sink.set(target, property, self.value());
        }
    }
}

/// A handle to a motion in a [`MotionPool`]; stale once the motion ends, is completed or cancelled.
pub type MotionHandle<S> = Handle<RunningMotion<S>>;

/// Up to `N` running motions, stored inline (no allocation).
///
/// - [`start`](Self::start) a [`Motion`]; a full pool is an `Err`.
/// - [`update`](Self::update) advances every motion by `dt` seconds, writes bound values through
///   the sink, and reports loop boundaries ([`Event::MotionLooped`]) and ends
///   ([`Event::MotionCompleted`]) with the handle's bits. A motion that ends leaves the pool: its
///   handle becomes stale.
/// - [`complete`](Self::complete) jumps to the final value (for loops: the end of the last pass,
///   accumulated for Incremental; for a motion that loops forever: the end of the current pass),
///   writes it and emits [`Event::MotionCompleted`] (no `MotionLooped` for the passes skipped).
/// - [`cancel`](Self::cancel) stops the motion where it is (nothing is written) and emits
///   [`Event::MotionCancelled`].
/// - [`value`](Self::value) (and the typed [`float`](Self::float), [`vec2`](Self::vec2)...) read
///   the current value of a running motion, bound or not (during the delay: the start value).
///
/// The handles carry the pool's tag ([`MOTION_POOL_TAG`] by default), so a consumer of events can
/// tell motions from sequences with `Handle::<()>::from_bits(bits).tag()`.
///
/// **Cost of an update**, per running motion: one addition and a comparison to advance the clock,
/// one product for the progress (the reciprocal of the duration is precomputed), the ease, the
/// interpolation and the sink call. No division, except at a loop boundary (one remainder,
/// whatever the number of passes crossed). At most
/// [`MAX_LOOP_EVENTS_PER_UPDATE`](super::MAX_LOOP_EVENTS_PER_UPDATE) `MotionLooped` events per
/// motion and update (the last ones); in Q16.16 one update counts at most 32767 passes.
///
/// **Memory** (f32 and Q16.16 alike): 104 bytes per motion — a [`RunningMotion`] (100 bytes: the
/// 92-byte [`Motion`] and its clock) and the slot's generation — plus 12 bytes per pool
/// (`size_of::<MotionPool<S, N>>()` is `104 × N + 12`). The largest kinds (3D punch/shake,
/// quaternion) set the size; an [`Ease`](crate::ease::Ease) takes 20 of the bytes (it can hold a
/// Bézier curve).
///
/// ```
/// use ossicle::event::{Event, EventQueue};
/// use ossicle::motion::{LoopMode, Motion, MotionPool};
/// use ossicle::sink::NullSink;
///
/// let mut pool: MotionPool<f32, 8> = MotionPool::new();
/// let mut events: EventQueue<8> = EventQueue::new();
/// // Unbound ("run()"): read by handle.
/// let h = pool.start(Motion::float(0.0, 10.0, 1.0).loops(2, LoopMode::Yoyo))?;
/// pool.update(0.25, &mut NullSink, &mut events);
/// assert_eq!(pool.float(h)?, 2.5);
/// pool.update(1.0, &mut NullSink, &mut events); // into the backward pass
/// assert_eq!(pool.float(h)?, 7.5);
/// assert_eq!(events.pop(), Some(Event::MotionLooped { motion: h.to_bits(), count: 1 }));
/// pool.update(1.0, &mut NullSink, &mut events);
/// assert_eq!(events.pop(), Some(Event::MotionCompleted { motion: h.to_bits() }));
/// assert!(pool.value(h).is_err()); // finished: the handle is stale
/// # Ok::<(), ossicle::motion::MotionError>(())
/// ```
pub struct MotionPool<S, const N: usize> {
    pool: Pool<RunningMotion<S>, N>,
}

impl<S: Scalar, const N: usize> Default for MotionPool<S, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const N: usize> MotionPool<S, N> {
    /// An empty pool whose handles carry [`MOTION_POOL_TAG`].
    pub const fn new() -> Self {
        Self::with_tag(MOTION_POOL_TAG)
    }

    /// An empty pool whose handles carry `tag` (give every pool its own tag so handles are not
    /// mixed up and event sources can be told apart).
    pub const fn with_tag(tag: u16) -> Self {
        Self { pool: Pool::with_tag(tag) }
    }

    /// The number of running motions.
    pub fn len(&self) -> usize {
        self.pool.len()
    }

    /// Whether no motion runs.
    pub fn is_empty(&self) -> bool {
        self.pool.is_empty()
    }

    /// The capacity, `N`.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// The pool's tag.
    pub const fn tag(&self) -> u16 {
        self.pool.tag()
    }

    /// Starts `motion` (its delay, if any, first). Nothing is written until the next update.
    pub fn start(&mut self, motion: Motion<S>) -> Result<MotionHandle<S>, MotionError> {
        Ok(self.pool.insert(RunningMotion { motion, clock: Clock::new(motion.start_delay()) })?)
    }

    /// Whether `handle` refers to a running motion.
    pub fn is_active(&self, handle: MotionHandle<S>) -> bool {
        self.pool.contains(handle)
    }

    /// The motion `handle` refers to (as it was started).
    pub fn motion(&self, handle: MotionHandle<S>) -> Result<&Motion<S>, MotionError> {
        Ok(&self.pool.get(handle)?.motion)
    }

    /// How many passes the motion has finished (the index of its current pass).
    pub fn passes_finished(&self, handle: MotionHandle<S>) -> Result<u32, MotionError> {
        Ok(self.pool.get(handle)?.clock.pass)
    }

    /// The current value of the motion.
    pub fn value(&self, handle: MotionHandle<S>) -> Result<PropertyValue<S>, MotionError> {
        Ok(self.pool.get(handle)?.value())
    }

    fn typed<T>(
        &self,
        handle: MotionHandle<S>,
        expected: ValueKind,
        pick: impl FnOnce(PropertyValue<S>) -> Option<T>,
    ) -> Result<T, MotionError> {
        let m = self.pool.get(handle)?;
        let found = m.motion.value_kind();
        if found != expected {
            return Err(MotionError::WrongKind { expected, found });
        }
        pick(m.value()).ok_or(MotionError::WrongKind { expected, found })
    }

    /// The current value of a scalar motion (or punch / shake).
    pub fn float(&self, handle: MotionHandle<S>) -> Result<S, MotionError> {
        self.typed(handle, ValueKind::Float, |v| v.as_float())
    }

    /// The current value of a 2D vector motion.
    pub fn vec2(&self, handle: MotionHandle<S>) -> Result<Vec2<S>, MotionError> {
        self.typed(handle, ValueKind::Vec2, |v| v.as_vector())
    }

    /// The current value of a 3D vector motion.
    pub fn vec3(&self, handle: MotionHandle<S>) -> Result<Vec3<S>, MotionError> {
        self.typed(handle, ValueKind::Vec3, |v| match v {
            PropertyValue::Vector3(v) => Some(v),
            _ => None,
        })
    }

    /// The current value of a colour motion.
    pub fn color(&self, handle: MotionHandle<S>) -> Result<Rgba8, MotionError> {
        self.typed(handle, ValueKind::Color, |v| v.as_color())
    }

    /// The current value of a rotation motion.
    pub fn quat(&self, handle: MotionHandle<S>) -> Result<Quat<S>, MotionError> {
        self.typed(handle, ValueKind::Rotation, |v| match v {
            PropertyValue::Rotation(q) => Some(q),
            _ => None,
        })
    }

    /// Advances every motion by `dt` seconds (zero, negative or NaN: nothing happens), writes the
    /// values of the bound motions that are past their delay, and pushes loop and completion
    /// events. Motions that end leave the pool.
    pub fn update<P: PropertySink<S> + ?Sized, const E: usize>(
        &mut self,
        dt: S,
        sink: &mut P,
        events: &mut EventQueue<E>,
    ) {
        if dt.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
            return;
        }
        self.pool.retain(|handle, m| {
            let before = m.clock.pass;
            let step = m.clock.advance(dt, m.motion.duration(), m.motion.inv_duration(), m.motion.passes());
            if m.clock.time < S::ZERO {
                return true; // still in the delay
            }
            m.write(sink);
            report(events, handle.to_bits(), before, step);
            !step.finished
        });
    }

    /// Jumps to the final value, writes it (if bound), emits [`Event::MotionCompleted`] and removes
    /// the motion. For a motion that loops forever the final value is the end of the current pass.
    pub fn complete<P: PropertySink<S> + ?Sized, const E: usize>(
        &mut self,
        handle: MotionHandle<S>,
        sink: &mut P,
        events: &mut EventQueue<E>,
    ) -> Result<(), MotionError> {
        let mut m = self.pool.remove(handle)?;
        if let Some(last) = m.motion.passes().last() {
            m.clock.pass = last;
        }
        m.clock.time = m.motion.duration();
        m.write(sink);
        events.push(Event::MotionCompleted { motion: handle.to_bits() });
        Ok(())
    }

    /// Stops the motion where it is (nothing is written), emits [`Event::MotionCancelled`] and
    /// removes it.
    pub fn cancel<const E: usize>(
        &mut self,
        handle: MotionHandle<S>,
        events: &mut EventQueue<E>,
    ) -> Result<(), MotionError> {
        self.pool.remove(handle)?;
        events.push(Event::MotionCancelled { motion: handle.to_bits() });
        Ok(())
    }

    /// Removes every motion without writing or emitting anything (all handles become stale).
    pub fn clear(&mut self) {
        self.pool.clear();
    }
}

/// Pushes the `MotionLooped` events of `step` (at most the last
/// [`MAX_LOOP_EVENTS_PER_UPDATE`](super::MAX_LOOP_EVENTS_PER_UPDATE)) and then `MotionCompleted`.
pub(crate) fn report<const E: usize>(events: &mut EventQueue<E>, bits: u64, before: u32, step: Step) {
    for count in looped_counts(before, step.crossed) {
        events.push(Event::MotionLooped { motion: bits, count });
    }
    if step.finished {
        events.push(Event::MotionCompleted { motion: bits });
    }
}
