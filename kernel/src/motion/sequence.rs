//! Sequences: motions scheduled by time, built by value ([`Sequence`]) and run in a
//! [`SequencePool`].

use heapless::Vec;

use crate::event::{Event, EventQueue};
use crate::pool::{Handle, Pool};
use crate::sink::PropertySink;
use crate::Scalar;

use super::error::MotionError;
use super::loops::{Clock, Passes, SequenceLoopMode};
use super::pool::report;
use super::spec::{Motion, MIN_DURATION_RECIP};

/// The tag of the handles of a [`SequencePool::new`] (`"SQ"`).
pub const SEQUENCE_POOL_TAG: u16 = 0x5351;

/// One item of a [`Sequence`]: a motion and the interval it occupies.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Item<S> {
    /// When the motion's first pass begins (its start time plus its delay).
    start: S,
    /// `passes × duration`.
    length: S,
    motion: Motion<S>,
}

impl<S: Scalar> Item<S> {
    fn end(&self) -> S {
        self.start.add(self.length)
    }
}

/// Motions scheduled by time, with at most `ITEMS` items, stored inline; build it, then start it
/// in a [`SequencePool`].
///
/// # Timeline
///
/// Each item is a [`Motion`] placed at a start time; it occupies `[start + delay, start + delay +
/// passes × duration]` (its own delay shifts it, its own finite loops lengthen it; a motion that
/// loops forever is refused).
///
/// - [`append`](Sequence::append) places a motion at the [`cursor`](Sequence::cursor) and moves the
///   cursor to its end;
/// - [`join`](Sequence::join) places a motion at the start of the last appended item (or interval),
///   so both run together; the cursor moves to the later of the two ends;
/// - [`insert`](Sequence::insert) places a motion at an absolute time; the cursor does not move;
/// - [`append_interval`](Sequence::append_interval) moves the cursor (an empty item: a following
///   `join` starts where the interval started, as in DOTween);
/// - [`duration`](Sequence::duration) is the cursor or the end of the latest item, whichever is later.
///
/// # Playing
///
/// An update moves the sequence's time from `t₀` to `t₁` and renders every item whose interval
/// meets `[t₀, t₁]`, at its own time `t₁ − start` clamped to its interval, in order of start time
/// (latest first when playing backwards). So an item that was passed gets exactly its end value,
/// an item not yet reached is not touched, and when two items animate the same property the one
/// that starts later wins (the one that starts earlier, when playing backwards). Items' own events are not reported: the
/// sequence emits `MotionLooped`, `MotionCompleted` and `MotionCancelled` with its handle's bits,
/// tagged [`SEQUENCE_POOL_TAG`] by default (a [`MotionPool`](super::MotionPool)'s are tagged
/// [`MOTION_POOL_TAG`](super::MOTION_POOL_TAG)).
///
/// Loops ([`Sequence::loops`], counted like motions': passes in total, negative for forever):
/// [`SequenceLoopMode::Restart`] plays every pass forwards and, at the start of every pass after the
/// first, rewinds all items to their start values (latest first); [`SequenceLoopMode::Yoyo`] plays
/// odd passes backwards. An update that spans several passes renders at most the end of the
/// current pass, one whole pass (the one before the pass it lands in, when that is not the current
/// one) and the start of the landing pass: bounded work whatever `dt` is.
///
/// # Memory
///
/// Memory (f32 and Q16.16 alike): 100 bytes per item (a 92-byte [`Motion`], its start and length)
/// plus at most 36 bytes for the cursor, duration, loop settings, item count and padding.
///
/// ```
/// use ossicle::motion::{Motion, Sequence};
/// let mut seq: Sequence<f32, 4> = Sequence::new();
/// seq.append(Motion::float(0.0, 1.0, 0.3))?;     // [0, 0.3]
/// seq.append_interval(0.1);                        // cursor 0.4
/// seq.join(Motion::float(0.0, 1.0, 0.3))?;        // [0.3, 0.6]: with the interval
/// seq.insert(0.05, Motion::float(1.0, 0.0, 0.2))?; // [0.05, 0.25]
/// assert_eq!(seq.cursor(), 0.6);
/// assert_eq!(seq.duration(), 0.6);
/// assert_eq!(seq.len(), 3);
/// # Ok::<(), ossicle::motion::MotionError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence<S, const ITEMS: usize> {
    /// Sorted by `start`, stable (equal starts keep the order they were added in).
    items: Vec<Item<S>, ITEMS>,
    cursor: S,
    last_start: S,
    duration: S,
    passes: Passes,
    mode: SequenceLoopMode,
}

impl<S: Scalar, const ITEMS: usize> Default for Sequence<S, ITEMS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const ITEMS: usize> Sequence<S, ITEMS> {
    /// An empty sequence that plays once.
    pub const fn new() -> Self {
        Self {
            items: Vec::new(),
            cursor: S::ZERO,
            last_start: S::ZERO,
            duration: S::ZERO,
            passes: Passes::ONCE,
            mode: SequenceLoopMode::Restart,
        }
    }

    /// Adds `motion` starting at `at` (≥ 0) and returns its end.
    fn add(&mut self, at: S, motion: Motion<S>) -> Result<S, MotionError> {
        let length = motion.active_duration().ok_or(MotionError::EndlessItem)?;
        if self.items.is_full() {
            return Err(MotionError::SequenceFull { capacity: ITEMS });
        }
        let start = at.add(motion.start_delay());
        let item = Item { start, length, motion };
        let end = item.end();
        // Insert before the first item that starts later, by swapping the new item along the tail
        // and pushing the last one (no index that could be out of bounds).
        let mut carried = item;
        for slot in self.items.iter_mut().skip_while(|i| i.start <= start) {
            core::mem::swap(slot, &mut carried);
        }
        self.items.push(carried).map_err(|_| MotionError::SequenceFull { capacity: ITEMS })?;
        self.duration = self.duration.max(end);
        Ok(end)
    }

    /// Places `motion` at the cursor and moves the cursor to its end.
    pub fn append(&mut self, motion: Motion<S>) -> Result<&mut Self, MotionError> {
        let at = self.cursor;
        let end = self.add(at, motion)?;
        self.last_start = at;
        self.cursor = end;
        Ok(self)
    }

    /// Places `motion` where the last appended item (or interval) starts, to run with it; the
    /// cursor moves to the later of the two ends.
    pub fn join(&mut self, motion: Motion<S>) -> Result<&mut Self, MotionError> {
        let end = self.add(self.last_start, motion)?;
        self.cursor = self.cursor.max(end);
        Ok(self)
    }

    /// Places `motion` at `at_seconds` (negative counts as 0); the cursor does not move.
    pub fn insert(&mut self, at_seconds: S, motion: Motion<S>) -> Result<&mut Self, MotionError> {
        self.add(at_seconds.max(S::ZERO), motion)?;
        Ok(self)
    }

    /// Moves the cursor by `seconds` (negative counts as 0): a gap before the next append.
    pub fn append_interval(&mut self, seconds: S) -> &mut Self {
        self.last_start = self.cursor;
        self.cursor = self.cursor.add(seconds.max(S::ZERO));
        self.duration = self.duration.max(self.cursor);
        self
    }

    /// Plays `count` passes in total (1 by default; negative: forever; 0 as 1), in `mode`.
    pub fn loops(&mut self, count: i32, mode: SequenceLoopMode) -> &mut Self {
        self.passes = Passes::from_count(count);
        self.mode = mode;
        self
    }

    /// Where the next [`append`](Self::append) starts, in seconds.
    pub fn cursor(&self) -> S {
        self.cursor
    }

    /// The length of one pass, in seconds: the cursor or the end of the latest item.
    pub fn duration(&self) -> S {
        self.duration
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the sequence has no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The number of passes, or `None` for forever.
    pub fn pass_count(&self) -> Option<u32> {
        self.passes.count()
    }

    /// Renders the items met when the sequence's local time moves from `from` to `to`.
    fn sweep<P: PropertySink<S> + ?Sized>(&self, from: S, to: S, sink: &mut P) {
        let render = |item: &Item<S>, sink: &mut P| {
            if let Some((target, property)) = item.motion.binding() {
                // Past the end, u is exactly the item's length: its final value.
                let u = to.sub(item.start).clamp(S::ZERO, item.length);
                sink.set(target, property, item.motion.sample_active(u));
            }
        };
        if to >= from {
            for item in self.items.iter().filter(|i| i.start <= to && i.end() >= from) {
                render(item, sink);
            }
        } else {
            for item in self.items.iter().rev().filter(|i| i.start <= from && i.end() >= to) {
                render(item, sink);
            }
        }
    }
}

/// A sequence running in a [`SequencePool`]: its items, clock and the reciprocal of its duration.
#[derive(Clone, Debug, PartialEq)]
pub struct RunningSequence<S, const ITEMS: usize> {
    seq: Sequence<S, ITEMS>,
    /// The duration used for playing (at least 1/1024 s).
    duration: S,
    inv_duration: S,
    clock: Clock<S>,
}

impl<S: Scalar, const ITEMS: usize> RunningSequence<S, ITEMS> {
    /// Whether pass `pass` plays backwards.
    fn backwards(&self, pass: u32) -> bool {
        self.seq.mode == SequenceLoopMode::Yoyo && pass & 1 == 1
    }

    /// Local (timeline) time of `time` seconds into pass `pass`.
    fn local(&self, pass: u32, time: S) -> S {
        if self.backwards(pass) {
            self.duration.sub(time)
        } else {
            time
        }
    }

    /// Plays pass `pass` from `t0` to `t1` seconds into it.
    fn play<P: PropertySink<S> + ?Sized>(&self, pass: u32, t0: S, t1: S, sink: &mut P) {
        self.seq.sweep(self.local(pass, t0), self.local(pass, t1), sink);
    }

    /// Enters pass `pass` (> 0): a Restart pass rewinds every item to its start first.
    fn enter<P: PropertySink<S> + ?Sized>(&self, pass: u32, sink: &mut P) {
        if pass > 0 && self.seq.mode == SequenceLoopMode::Restart {
            self.seq.sweep(self.duration, S::ZERO, sink);
        }
    }

    /// Renders the move from `time_before` in pass `before` to the clock's position, where
    /// `before + crossed` is the clock's pass.
    fn render_move<P: PropertySink<S> + ?Sized>(&self, before: u32, time_before: S, crossed: u32, sink: &mut P) {
        let now = self.clock.pass;
        if crossed == 0 {
            self.play(now, time_before, self.clock.time, sink);
            return;
        }
        self.play(before, time_before, self.duration, sink);
        let previous = now.saturating_sub(1);
        if previous > before {
            // Every item is rendered by a whole pass, so the passes before it do not matter.
            self.enter(previous, sink);
            self.play(previous, S::ZERO, self.duration, sink);
        }
        self.enter(now, sink);
        self.play(now, S::ZERO, self.clock.time, sink);
    }
}

/// A handle to a sequence in a [`SequencePool`]; stale once the sequence ends, is completed or
/// cancelled.
pub type SequenceHandle<S, const ITEMS: usize> = Handle<RunningSequence<S, ITEMS>>;

/// Up to `N` running sequences of at most `ITEMS` items each, stored inline (no allocation).
///
/// [`start`](Self::start) takes a [`Sequence`] by value; [`update`](Self::update) plays every
/// sequence by `dt`, writing its bound items through the sink (see [`Sequence`] for the rules) and emitting
/// `MotionLooped` / `MotionCompleted` with the sequence's handle bits; [`complete`](Self::complete)
/// renders every item at its final value (the end of the last pass: with Yoyo and an even count,
/// the start values) and emits `MotionCompleted`; [`cancel`](Self::cancel) stops every item where
/// it is and emits `MotionCancelled`.
///
/// Memory per slot: the [`Sequence`], 16 bytes of clock, duration and reciprocal
/// ([`RunningSequence`]), and the slot's generation (4 bytes, before padding).
///
/// ```
/// use ossicle::event::{Event, EventQueue};
/// use ossicle::motion::{Motion, Sequence, SequenceLoopMode, SequencePool};
/// use ossicle::sink::{PropertySink, PropertyValue, TargetId, PropertyId};
///
/// struct X(f32);
/// impl PropertySink<f32> for X {
///     fn set(&mut self, _: TargetId, _: PropertyId, v: PropertyValue<f32>) {
///         if let Some(v) = v.as_float() { self.0 = v; }
///     }
/// }
/// let mut seq: Sequence<f32, 2> = Sequence::new();
/// seq.append(Motion::float(0.0, 1.0, 1.0).bind(0, 1))?;
/// seq.append(Motion::float(1.0, 3.0, 1.0).bind(0, 1))?;
/// seq.loops(2, SequenceLoopMode::Yoyo);
/// let mut pool: SequencePool<f32, 4, 2> = SequencePool::new();
/// let mut events: EventQueue<4> = EventQueue::new();
/// let h = pool.start(seq)?;
/// let mut x = X(0.0);
/// pool.update(1.5, &mut x, &mut events);
/// assert_eq!(x.0, 2.0);
/// pool.update(1.0, &mut x, &mut events); // 0.5 s into the backward pass
/// assert_eq!(x.0, 2.0);
/// assert_eq!(events.pop(), Some(Event::MotionLooped { motion: h.to_bits(), count: 1 }));
/// pool.update(2.0, &mut x, &mut events);
/// assert_eq!(x.0, 0.0);
/// assert_eq!(events.pop(), Some(Event::MotionCompleted { motion: h.to_bits() }));
/// # Ok::<(), ossicle::motion::MotionError>(())
/// ```
pub struct SequencePool<S, const N: usize, const ITEMS: usize> {
    pool: Pool<RunningSequence<S, ITEMS>, N>,
}

impl<S: Scalar, const N: usize, const ITEMS: usize> Default for SequencePool<S, N, ITEMS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const N: usize, const ITEMS: usize> SequencePool<S, N, ITEMS> {
    /// An empty pool whose handles carry [`SEQUENCE_POOL_TAG`].
    pub const fn new() -> Self {
        Self::with_tag(SEQUENCE_POOL_TAG)
    }

    /// An empty pool whose handles carry `tag`.
    pub const fn with_tag(tag: u16) -> Self {
        Self { pool: Pool::with_tag(tag) }
    }

    /// The number of running sequences.
    pub fn len(&self) -> usize {
        self.pool.len()
    }

    /// Whether no sequence runs.
    pub fn is_empty(&self) -> bool {
        self.pool.is_empty()
    }

    /// The pool's tag.
    pub const fn tag(&self) -> u16 {
        self.pool.tag()
    }

    /// Starts `sequence` (nothing is written until the next update). A sequence shorter than
    /// 1/1024 s (an empty one) plays for 1/1024 s.
    pub fn start(&mut self, sequence: Sequence<S, ITEMS>) -> Result<SequenceHandle<S, ITEMS>, MotionError> {
        let duration = sequence.duration.max(S::from_ratio(1, MIN_DURATION_RECIP));
        Ok(self.pool.insert(RunningSequence {
            seq: sequence,
            duration,
            inv_duration: duration.recip(),
            clock: Clock::new(S::ZERO),
        })?)
    }

    /// Whether `handle` refers to a running sequence.
    pub fn is_active(&self, handle: SequenceHandle<S, ITEMS>) -> bool {
        self.pool.contains(handle)
    }

    /// The pass index (passes finished) and the seconds into the current pass.
    pub fn position(&self, handle: SequenceHandle<S, ITEMS>) -> Result<(u32, S), MotionError> {
        let s = self.pool.get(handle)?;
        Ok((s.clock.pass, s.clock.time))
    }

    /// Plays every sequence by `dt` seconds (zero, negative or NaN: nothing happens).
    pub fn update<P: PropertySink<S> + ?Sized, const E: usize>(
        &mut self,
        dt: S,
        sink: &mut P,
        events: &mut EventQueue<E>,
    ) {
        if dt.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
            return;
        }
        self.pool.retain(|handle, s| {
            let (before, time_before) = (s.clock.pass, s.clock.time);
            let step = s.clock.advance(dt, s.duration, s.inv_duration, s.seq.passes);
            s.render_move(before, time_before, step.crossed, sink);
            report(events, handle.to_bits(), before, step);
            !step.finished
        });
    }

    /// Renders every item at its final value (the end of the last pass; for a sequence that loops
    /// forever, the end of the current one), emits `MotionCompleted` and removes the sequence.
    pub fn complete<P: PropertySink<S> + ?Sized, const E: usize>(
        &mut self,
        handle: SequenceHandle<S, ITEMS>,
        sink: &mut P,
        events: &mut EventQueue<E>,
    ) -> Result<(), MotionError> {
        let mut s = self.pool.remove(handle)?;
        let (before, time_before) = (s.clock.pass, s.clock.time);
        let last = s.seq.passes.last().unwrap_or(before).max(before);
        s.clock = Clock { pass: last, time: s.duration };
        s.render_move(before, time_before, last.saturating_sub(before), sink);
        events.push(Event::MotionCompleted { motion: handle.to_bits() });
        Ok(())
    }

    /// Stops the sequence where it is (nothing is written), emits `MotionCancelled` and removes it.
    pub fn cancel<const E: usize>(
        &mut self,
        handle: SequenceHandle<S, ITEMS>,
        events: &mut EventQueue<E>,
    ) -> Result<(), MotionError> {
        self.pool.remove(handle)?;
        events.push(Event::MotionCancelled { motion: handle.to_bits() });
        Ok(())
    }

    /// Removes every sequence without writing or emitting anything.
    pub fn clear(&mut self) {
        self.pool.clear();
    }
}
