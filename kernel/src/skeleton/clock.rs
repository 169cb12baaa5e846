//! Playheads: how an update moves a clip's time, which clip events it crosses, and which root
//! poses its root motion is measured between. Shared by [`AnimPlayer`](super::AnimPlayer) and
//! [`OneShot`](super::OneShot).

use super::rootmotion::MotionJoint;
use super::source::{ClipEvent, SkelClipSource};
use crate::event::EventQueue;
use crate::scalar::Scalar;

/// At most this many whole passes of a looping clip emit their events in one update (the first
/// and last partial passes always do); root motion counts every pass.
pub const MAX_FULL_PASSES_PER_UPDATE: u32 = 16;

/// What the skeletal players push into the caller's [`EventQueue`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SkelEvent<S> {
    /// A clip event was crossed.
    Clip {
        /// The id the caller gave the player.
        player: u16,
        /// The clip's index in the caller's clip slice.
        clip: u16,
        /// The event (its time in the clip, its name's string id).
        event: ClipEvent<S>,
    },
    /// A non-looping clip reached its end (or its start, played backwards); a one-shot finished.
    Finished {
        /// The id the caller gave the player.
        player: u16,
        /// The clip's index.
        clip: u16,
    },
}

/// Whether `x` is finite (always true in Q16.16).
pub(crate) fn finite<S: Scalar>(x: S) -> bool {
    x.abs() <= S::MAX
}

/// One clip's time: which clip, where, and whether the next update includes the start point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Playhead<S> {
    pub(crate) clip: u16,
    pub(crate) time: S,
    /// Set by a (re)start: the next update's interval includes its start time.
    pub(crate) fresh: bool,
}

/// What one update did to a playhead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Step<S> {
    /// Time before.
    pub(crate) from: S,
    /// Time after.
    pub(crate) to: S,
    /// Moving forwards (`to` after `from` in clip time, loops aside).
    pub(crate) forward: bool,
    /// Loop boundaries crossed (0 without a wrap).
    pub(crate) wraps: u32,
    /// The start time belongs to the interval (first update after a start).
    pub(crate) include_from: bool,
    /// A non-looping clip reached its end (forwards) or start (backwards) in this step.
    pub(crate) ended: bool,
    /// The clip's length.
    pub(crate) len: S,
}

/// Moves `t0` by `delta` on a clip of length `len > 0`: looping clips wrap with `rem_euclid`,
/// others clamp to `[0, len]`. A non-finite `delta` moves nothing.
pub(crate) fn advance<S: Scalar>(t0: S, delta: S, len: S, looping: bool, fresh: bool) -> Step<S> {
    let delta = if finite(delta) { delta } else { S::ZERO };
    let forward = delta >= S::ZERO;
    let mut step = Step { from: t0, to: t0, forward, wraps: 0, include_from: fresh, ended: false, len };
    if delta == S::ZERO {
        return step;
    }
    let raw = t0.add(delta);
    if !looping {
        step.to = raw.clamp(S::ZERO, len);
        step.ended = if forward { step.to >= len && t0 < len } else { step.to <= S::ZERO && t0 > S::ZERO };
        return step;
    }
    if forward && raw < len || !forward && raw >= S::ZERO {
        step.to = raw;
        return step;
    }
    let t1 = raw.rem_euclid(len);
    // `raw − t1` is a whole number of lengths; rounding absorbs the division's error.
    let k = if forward { raw.sub(t1) } else { t1.sub(raw) }.div(len).round().floor_to_i32();
    let k = u32::try_from(k).unwrap_or(0);
    if k == 0 {
        // Backwards by less than the resolution below 0: lands on 0 without wrapping.
        step.to = S::ZERO;
        return step;
    }
    step.to = t1;
    step.wraps = k;
    step
}

/// A piece of a step: clip time from `from` to `to` (either direction), `to` included, `from`
/// included when `incl_from`, run `repeat` times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Piece<S> {
    pub(crate) from: S,
    pub(crate) to: S,
    pub(crate) incl_from: bool,
    pub(crate) repeat: u32,
}

impl<S: Scalar> Step<S> {
    /// The step's pieces in the order they are run (at most three).
    pub(crate) fn pieces(&self) -> [Option<Piece<S>>; 3] {
        let (start, end) = if self.forward { (S::ZERO, self.len) } else { (self.len, S::ZERO) };
        if self.wraps == 0 {
            if self.from == self.to && !self.include_from {
                return [None, None, None];
            }
            return [Some(Piece { from: self.from, to: self.to, incl_from: self.include_from, repeat: 1 }), None, None];
        }
        let first = Piece { from: self.from, to: end, incl_from: self.include_from, repeat: 1 };
        let whole = (self.wraps > 1).then_some(Piece { from: start, to: end, incl_from: true, repeat: self.wraps - 1 });
        let last = Piece { from: start, to: self.to, incl_from: true, repeat: 1 };
        [Some(first), whole, Some(last)]
    }

    /// Pushes, in the order crossed, every event of `clip` in the step's pieces (whole passes
    /// capped at [`MAX_FULL_PASSES_PER_UPDATE`]), then `Finished` if a non-looping clip ended.
    pub(crate) fn emit<C: SkelClipSource<S>, const Q: usize>(
        &self,
        clip: &C,
        player: u16,
        clip_id: u16,
        events: &mut EventQueue<Q, SkelEvent<S>>,
    ) {
        for piece in self.pieces().into_iter().flatten() {
            for _ in 0..piece.repeat.min(MAX_FULL_PASSES_PER_UPDATE) {
                emit_piece(clip, piece, self.forward, player, clip_id, events);
            }
        }
        if self.ended {
            events.push(SkelEvent::Finished { player, clip: clip_id });
        }
    }

    /// The root motion of the step, from the root pose at a clip time (`root_at` is called at
    /// most four times: at `from`, `to`, and at 0 and the length when the step wraps).
    pub(crate) fn root_motion<J: MotionJoint<S>, E>(
        &self,
        mut root_at: impl FnMut(S) -> Result<J, E>,
    ) -> Result<J::Delta, E> {
        if self.wraps == 0 {
            if self.from == self.to {
                return Ok(J::NO_MOTION);
            }
            return Ok(J::tidy(J::motion(root_at(self.from)?, root_at(self.to)?)));
        }
        let (start, end) = if self.forward { (S::ZERO, self.len) } else { (self.len, S::ZERO) };
        let r_from = root_at(self.from)?;
        let r_to = root_at(self.to)?;
        let r_start = root_at(start)?;
        let r_end = root_at(end)?;
        let first = J::motion(r_from, r_end);
        let whole = J::repeat(J::motion(r_start, r_end), self.wraps - 1);
        let last = J::motion(r_start, r_to);
        Ok(J::tidy(J::chain(J::chain(first, whole), last)))
    }
}

/// Pushes the events of one piece, in the direction of travel (`forward`: ascending, else
/// descending; a piece of a single time, `from == to`, takes the step's direction too).
fn emit_piece<S: Scalar, C: SkelClipSource<S>, const Q: usize>(
    clip: &C,
    piece: Piece<S>,
    forward: bool,
    player: u16,
    clip_id: u16,
    events: &mut EventQueue<Q, SkelEvent<S>>,
) {
    let n = clip.event_count();
    let push = |events: &mut EventQueue<Q, SkelEvent<S>>, event: ClipEvent<S>| {
        events.push(SkelEvent::Clip { player, clip: clip_id, event });
    };
    if forward {
        // Ascending: the first event at or after `from` (after, when `from` is excluded).
        let first = partition(clip, n, |t| if piece.incl_from { t < piece.from } else { t <= piece.from });
        for i in first..n {
            let Some(e) = clip.event(i) else { break };
            if e.time > piece.to {
                break;
            }
            push(events, e);
        }
    } else {
        // Descending: from the last event at or before `from` (before, when excluded) down to `to`.
        let end = partition(clip, n, |t| if piece.incl_from { t <= piece.from } else { t < piece.from });
        for i in (0..end).rev() {
            let Some(e) = clip.event(i) else { break };
            if e.time < piece.to {
                break;
            }
            push(events, e);
        }
    }
}

/// The number of leading events (sorted by time) whose time satisfies `pred` (a predicate true
/// for a prefix), by binary search.
fn partition<S: Scalar, C: SkelClipSource<S>>(clip: &C, n: usize, pred: impl Fn(S) -> bool) -> usize {
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match clip.event(mid) {
            Some(e) if pred(e.time) => lo = mid + 1,
            _ => hi = mid,
        }
    }
    lo
}

/// A playable clip's length and loop flag, or `None` when the index is out of range or the length
/// is not positive and finite.
pub(crate) fn clip_info<S: Scalar, C: SkelClipSource<S>>(
    clips: &[C],
    clip: u16,
    looping: Option<bool>,
) -> Option<(S, bool)> {
    let c = clips.get(usize::from(clip))?;
    let len = c.duration();
    (len > S::ZERO && finite(len)).then(|| (len, looping.unwrap_or_else(|| c.looping())))
}

/// `time` brought into a clip: wrapped into `[0, len)` when looping, clamped to `[0, len]`
/// otherwise (a non-finite time gives 0).
pub(crate) fn place<S: Scalar>(time: S, len: S, looping: bool) -> S {
    if !finite(time) {
        S::ZERO
    } else if looping {
        time.rem_euclid(len)
    } else {
        time.clamp(S::ZERO, len)
    }
}
