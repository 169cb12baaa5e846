//! A running tween: where it is in its steps, and how an update moves it on.
//!
//! Time model: the tween runs one *group* of steps at a time (a step and the parallel steps after
//! it). `elapsed` is the time into the current group. An update adds `dt × speed`; while that stays
//! below the group's length only the group's steps are written (the hot path). Otherwise the slow
//! path ([`Playing::advance`]) finishes the group, begins the next ones (reading `to` starts,
//! emitting calls) with the time left over, and handles the end of a pass (loop or complete).

use super::builder::{pass_duration, Tween};
use super::error::TweenError;
use super::step::Step;
use super::value::Action;
use crate::event::{Event, EventQueue};
use crate::scalar::ScalarEncoding;
use crate::sink::{PropertySink, PropertyValue};
use crate::Scalar;

/// Loop boundaries a tween crosses one by one in a single update, with every call and
/// `TweenLooped` event; see [`TweenPool::update`](super::TweenPool::update) for what happens beyond.
pub const LOOPS_SIMULATED_PER_UPDATE: u32 = 16;

/// `group_duration` of a group that has not begun yet (it is below any `elapsed`, which is >= 0,
/// so the hot path's `elapsed < group_duration` test sends the tween to the slow path).
fn not_begun<S: Scalar>() -> S {
    S::NEG_ONE
}

/// A tween in a pool: its steps and its position in them.
#[derive(Clone, Debug)]
pub struct Playing<S: Scalar, const STEPS: usize> {
    steps: [Step<S>; STEPS],
    /// Seconds into the current group.
    elapsed: S,
    /// The current group's length (its longest step), or negative before the group has begun.
    group_duration: S,
    /// `dt` multiplier, in `[0, MAX]`.
    speed: S,
    /// One pass's length: the sum of the groups' lengths.
    pass_duration: S,
    /// Extra passes after the first; negative: forever.
    loops: i32,
    /// Passes finished so far.
    passes: u32,
    /// Its owner id.
    owner: u32,
    /// Number of steps.
    len: u16,
    /// First step of the current group.
    group: u16,
    /// One past the last step of the current group (valid once the group has begun).
    group_end: u16,
    paused: bool,
}

impl<S: Scalar, const STEPS: usize> Playing<S, STEPS> {
    /// A tween ready to begin its first group at the next update.
    pub(crate) fn new(tween: &Tween<S, STEPS>, owner: u32) -> Result<Self, TweenError> {
        tween.check()?;
        Ok(Self {
            steps: tween.steps,
            elapsed: S::ZERO,
            group_duration: not_begun(),
            speed: tween.speed,
            pass_duration: pass_duration(tween.steps.get(..usize::from(tween.len)).unwrap_or(&[])),
            loops: tween.loops,
            passes: 0,
            owner,
            len: tween.len,
            group: 0,
            group_end: 0,
            paused: false,
        })
    }

    pub(crate) fn owner(&self) -> u32 {
        self.owner
    }
    pub(crate) fn is_paused(&self) -> bool {
        self.paused
    }
    pub(crate) fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }
    pub(crate) fn speed(&self) -> S {
        self.speed
    }
    pub(crate) fn set_speed(&mut self, speed: S) {
        self.speed = speed;
    }
    pub(crate) fn passes(&self) -> u32 {
        self.passes
    }
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }
    /// The first step of the group running now (or about to begin).
    pub(crate) fn group(&self) -> usize {
        usize::from(self.group)
    }

    fn forever(&self) -> bool {
        self.loops < 0
    }

    /// The value step `index` wrote last.
    pub(crate) fn value(&self, index: usize) -> Result<PropertyValue<S>, TweenError> {
        let step = self
            .steps
            .get(index)
            .filter(|_| index < self.len())
            .ok_or(TweenError::NoSuchStep { index, steps: self.len() })?;
        if matches!(step.action, Action::Delay | Action::Call(_)) {
            return Err(TweenError::NotAValue { index });
        }
        let begun = self.group_duration >= S::ZERO;
        let group = self.group();
        let in_group = begun && index >= group && index < usize::from(self.group_end);
        let value = if index < group {
            step.action.end() // finished in this pass
        } else if in_group {
            step.value_at(self.elapsed)
        } else if self.passes > 0 {
            step.action.end() // not reached in this pass: it holds what it wrote last pass
        } else {
            None
        };
        value.ok_or(TweenError::NotStarted { index })
    }

    /// Moves the tween on by `dt` seconds (already `>= 0`, finite or +∞ in f32). Returns `false`
    /// when the tween completed (and emitted `TweenCompleted`).
    #[inline(always)]
    pub(crate) fn update<K: PropertySink<S> + ?Sized, const Q: usize>(
        &mut self,
        dt: S,
        sink: &mut K,
        events: &mut EventQueue<Q>,
        bits: u64,
    ) -> bool {
        if self.paused {
            return true;
        }
        let prev = self.elapsed;
        let now = prev.add(dt.mul(self.speed));
        self.elapsed = now;
        if now < self.group_duration {
            // Hot path: inside the current group.
            self.write_group(prev, now, sink);
            return true;
        }
        self.advance(prev, sink, events, bits)
    }

    /// Writes the current group's values for the time `now`: interpolated for steps still
    /// running, the exact end value for steps that ended after `prev` (use a negative `prev` when
    /// the group has just begun, so zero-length steps write too), nothing for steps ended before.
    #[inline(always)]
    fn write_group<K: PropertySink<S> + ?Sized>(&self, prev: S, now: S, sink: &mut K) {
        let (first, end) = (usize::from(self.group), usize::from(self.group_end));
        if end == first + 1 {
            // A group of one step (the common case): no slice, no loop.
            if let Some(step) = self.steps.get(first) {
                if now < step.duration {
                    step.write_at(now, sink);
                } else if prev < step.duration {
                    step.write_end(sink);
                }
            }
            return;
        }
        let group = self.steps.get(first..end).unwrap_or(&[]);
        for step in group {
            if now < step.duration {
                step.write_at(now, sink);
            } else if prev < step.duration {
                step.write_end(sink);
            }
        }
    }

    /// Begins the group at `self.group`: finds its end and length, reads the starts of its `to`
    /// steps and emits its calls, in step order.
    fn begin_group<K: PropertySink<S> + ?Sized, const Q: usize>(
        &mut self,
        sink: &mut K,
        events: &mut EventQueue<Q>,
        bits: u64,
    ) {
        let start = usize::from(self.group);
        let len = self.len();
        let mut end = start.saturating_add(1);
        while end < len && self.steps.get(end).is_some_and(|s| s.parallel) {
            end += 1;
        }
        let mut longest = S::ZERO;
        for step in self.steps.get_mut(start..end.min(len)).unwrap_or(&mut []) {
            match step.action {
                Action::Call(id) => {
                    events.push(Event::TweenCall { tween: bits, id });
                }
                Action::Delay => {}
                _ if step.from_given => {}
                _ => {
                    let current = sink.get(step.target, step.property);
                    step.action.set_start(current);
                }
            }
            longest = longest.max(step.duration);
        }
        self.group_end = u16::try_from(end.min(len)).unwrap_or(self.len);
        self.group_duration = longest;
    }

    /// The slow path: the current group ends in this update (or has not begun). `prev` is the
    /// group time before this update.
    #[cold]
    fn advance<K: PropertySink<S> + ?Sized, const Q: usize>(
        &mut self,
        mut prev: S,
        sink: &mut K,
        events: &mut EventQueue<Q>,
        bits: u64,
    ) -> bool {
        let mut boundaries: u32 = 0;
        loop {
            if self.group >= self.len {
                // A pass ended.
                self.passes = self.passes.saturating_add(1);
                let more = self.forever() || i64::from(self.passes) <= i64::from(self.loops);
                if !more {
                    events.push(Event::TweenCompleted { tween: bits });
                    return false;
                }
                events.push(Event::TweenLooped { tween: bits, count: self.passes });
                self.group = 0;
                self.group_duration = not_begun();
                if self.pass_duration <= S::ZERO && self.forever() {
                    // A zero-length pass repeated forever: one pass per update.
                    self.elapsed = S::ZERO;
                    return true;
                }
                boundaries = boundaries.saturating_add(1);
                if boundaries >= LOOPS_SIMULATED_PER_UPDATE {
                    self.skip_whole_passes(events, bits);
                }
                continue;
            }
            if self.group_duration < S::ZERO {
                self.begin_group(sink, events, bits);
                prev = S::NEG_ONE;
            }
            let now = self.elapsed;
            self.write_group(prev, now, sink);
            if now < self.group_duration {
                return true;
            }
            // The group ended: the next one begins with the time left over.
            self.elapsed = now.sub(self.group_duration).max(S::ZERO);
            self.group = self.group_end;
            self.group_duration = not_begun();
        }
    }

    /// At a loop boundary, after [`LOOPS_SIMULATED_PER_UPDATE`] boundaries in one update: skips
    /// the whole passes the time left covers (all of them when forever; for a finite count, all
    /// but the last pass, which then runs normally). Their values need no simulation: after a
    /// whole pass every value step has ended at its end value, the same after one pass or many.
    /// Their calls are not emitted; one `TweenLooped` with the new count stands for them.
    fn skip_whole_passes<const Q: usize>(&mut self, events: &mut EventQueue<Q>, bits: u64) {
        let (whole, rest) = split_passes(self.elapsed, self.pass_duration);
        let skip = if self.forever() {
            whole
        } else {
            // Passes still to play, the one beginning now included: loops + 1 - passes >= 1.
            let remaining = (i64::from(self.loops) + 1 - i64::from(self.passes)).max(1);
            let keep_last = u32::try_from(remaining - 1).unwrap_or(u32::MAX);
            whole.min(keep_last)
        };
        if skip == 0 {
            return;
        }
        self.elapsed = if skip == whole { rest } else { minus_passes(self.elapsed, self.pass_duration, skip) };
        self.passes = self.passes.saturating_add(skip);
        events.push(Event::TweenLooped { tween: bits, count: self.passes });
    }
}

/// `(k, r − k·p)` with `k = ⌊r / p⌋` (saturating at `u32::MAX`) for `r >= 0`; `(u32::MAX, r)`
/// when `p <= 0`. Exact in Q16.16 (integer division of the raw bits); f32 through f64.
fn split_passes<S: Scalar>(r: S, p: S) -> (u32, S) {
    if p <= S::ZERO {
        return (u32::MAX, r);
    }
    if is_q16::<S>() {
        let (rb, pb) = (r.to_q16_bits().max(0), p.to_q16_bits().max(1));
        // checked_*: no panic path for the never-panic link check (rb >= 0, pb >= 1 anyway).
        let k = u32::try_from(rb.checked_div(pb).unwrap_or(0)).unwrap_or(u32::MAX);
        (k, S::from_q16_bits(rb.checked_rem(pb).unwrap_or(0)))
    } else {
        let rest = r.rem_euclid(p);
        // r − rest is a whole number of passes; the f64 quotient rounds to it.
        let k = ((r.to_f64() - rest.to_f64()) / p.to_f64() + 0.5).max(0.0);
        let k = if k >= f64::from(u32::MAX) { u32::MAX } else { k as u32 };
        (k, rest)
    }
}

/// `r − k·p` for `k <= ⌊r / p⌋` (so the result is in `[0, r]`).
fn minus_passes<S: Scalar>(r: S, p: S, k: u32) -> S {
    if is_q16::<S>() {
        let v = i64::from(r.to_q16_bits()) - i64::from(p.to_q16_bits()).saturating_mul(i64::from(k));
        S::from_q16_bits(i32::try_from(v.max(0)).unwrap_or(i32::MAX))
    } else {
        S::from_f64((r.to_f64() - p.to_f64() * f64::from(k)).max(0.0))
    }
}

/// Whether `S` is Q16.16 (exact integer paths) rather than f32.
fn is_q16<S: Scalar>() -> bool {
    S::ENCODING == ScalarEncoding::Q16_16
}
