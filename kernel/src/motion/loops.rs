//! Loop modes, pass counts and the pass clock shared by motions and sequences.
//!
//! A motion (or sequence) plays one or more **passes** of its duration. `loops(count, mode)` follows
//! LitMotion's `WithLoops(count, type)`: `count` is the number of passes **in total** (1 plays once,
//! 3 plays three times), any negative count plays forever, and 0 plays once like 1.
//!
//! The clock keeps the time *within* the current pass and the index of the pass, never the total
//! time, so a motion that loops forever neither loses precision nor saturates (Q16.16 holds at most
//! 32767 s). An update whose `dt` spans several passes computes how many it crossed with one
//! remainder ([`Scalar::rem_euclid`], exact in both scalar types) and one multiplication: its cost
//! does not depend on how many passes were crossed.

use crate::Scalar;

/// How the passes of a looping motion follow each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LoopMode {
    /// Every pass plays from the start value to the end value.
    #[default]
    Restart,
    /// Passes alternate direction: the first plays start → end, the second end → start, and so on.
    /// The ease is applied to the pass's progress as played (the backward pass is the forward one
    /// mirrored in time).
    Yoyo,
    /// Every pass continues from where the previous one ended: pass `k` (from 0) plays from
    /// `start + k·(end − start)` to `start + (k + 1)·(end − start)`. Quaternions compose the rotation
    /// `end·start⁻¹` k times; colours saturate at 0 and 255; punch and shake, which end where they
    /// started, repeat unchanged.
    Incremental,
}

/// How the passes of a looping [`Sequence`](super::Sequence) follow each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SequenceLoopMode {
    /// Every pass plays the sequence forwards; at the start of each pass after the first, the items
    /// are rewound to their start values (latest item first), then play again.
    #[default]
    Restart,
    /// Passes alternate direction: the odd passes (the second, fourth...) play the sequence
    /// backwards, each item mirrored in time, so the items return to their start values.
    Yoyo,
}

/// The number of passes to play; 0 means forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Passes(u32);

impl Passes {
    /// One pass.
    pub(crate) const ONCE: Self = Self(1);

    /// From a LitMotion-style count: passes in total, negative for forever, 0 as 1.
    pub(crate) fn from_count(count: i32) -> Self {
        if count < 0 {
            Self(0)
        } else {
            Self(count.unsigned_abs().max(1))
        }
    }

    /// The index of the last pass, or `None` when playing forever.
    pub(crate) fn last(self) -> Option<u32> {
        self.0.checked_sub(1)
    }

    /// The number of passes, or `None` when playing forever.
    pub(crate) fn count(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0)
        }
    }
}

/// At most this many [`Event::MotionLooped`](crate::event::Event::MotionLooped) events are emitted
/// by one motion or sequence in one update. When an update crosses more loop boundaries than this,
/// only the events of the last ones are emitted (their `count` still says how many passes have
/// finished, so the gap is visible); this bounds the work of an update of a motion that loops
/// forever, whatever `dt` is.
pub const MAX_LOOP_EVENTS_PER_UPDATE: u32 = 8;

/// What one [`Clock::advance`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// How many loop boundaries were crossed (the passes entered are `pass_before + 1 ..=
    /// pass_before + crossed`).
    pub crossed: u32,
    /// Whether the last pass ended (the clock then sits at the end of the last pass).
    pub finished: bool,
}

/// The position of a motion or sequence: the pass index and the time within the pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Clock<S> {
    /// Seconds into the current pass, in `[0, duration]`; negative while a delay runs.
    pub time: S,
    /// The index of the current pass (the number of passes finished).
    pub pass: u32,
}

impl<S: Scalar> Clock<S> {
    /// A clock at the start of the first pass, `delay` seconds before it begins.
    pub(crate) fn new(delay: S) -> Self {
        Self { time: delay.neg(), pass: 0 }
    }

    /// Advances by `dt` (> 0) through passes of `duration` seconds (`inv_duration` = 1 / duration).
    ///
    /// Cost: one comparison while inside a pass; at a boundary one remainder and one product,
    /// however many passes `dt` spans.
    #[inline]
    pub(crate) fn advance(&mut self, dt: S, duration: S, inv_duration: S, passes: Passes) -> Step {
        self.time = self.time.add(dt);
        if self.time < duration {
            return Step { crossed: 0, finished: false };
        }
        let rest = self.time.rem_euclid(duration);
        // time − rest is a whole number of durations (exactly in Q16.16, nearly in f32): rounding the
        // ratio gives the count even when the reciprocal is a little off. At least one: time ≥ duration.
        let whole = u32::try_from(self.time.sub(rest).mul(inv_duration).round().floor_to_i32()).unwrap_or(1).max(1);
        match passes.last() {
            Some(last) if whole > last.saturating_sub(self.pass) => {
                let crossed = last.saturating_sub(self.pass);
                self.pass = last;
                self.time = duration;
                Step { crossed, finished: true }
            }
            _ => {
                self.pass = self.pass.saturating_add(whole);
                self.time = rest;
                Step { crossed: whole, finished: false }
            }
        }
    }
}

/// The loop counts to report for `crossed` boundaries entered after pass `before`: at most
/// [`MAX_LOOP_EVENTS_PER_UPDATE`] of them, the last ones, in order.
pub(crate) fn looped_counts(before: u32, crossed: u32) -> core::ops::RangeInclusive<u32> {
    if crossed == 0 {
        #[allow(clippy::reversed_empty_ranges)]
        return 1..=0;
    }
    let last = before.saturating_add(crossed);
    let first = last.saturating_sub(MAX_LOOP_EVENTS_PER_UPDATE - 1).max(before.saturating_add(1));
    first..=last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Q16;

    fn crossings<S: Scalar>() {
        let d = S::from_ratio(1, 2);
        let inv = S::TWO;
        let mut c = Clock::<S>::new(S::ZERO);
        assert_eq!(c.advance(S::from_ratio(1, 4), d, inv, Passes::from_count(3)), Step { crossed: 0, finished: false });
        // 0.25 + 1.0 = 1.25: two boundaries, 0.25 into the third pass.
        assert_eq!(c.advance(S::ONE, d, inv, Passes::from_count(3)), Step { crossed: 2, finished: false });
        assert_eq!((c.pass, c.time), (2, S::from_ratio(1, 4)));
        assert_eq!(c.advance(S::ONE, d, inv, Passes::from_count(3)), Step { crossed: 0, finished: true });
        assert_eq!((c.pass, c.time), (2, d));

        // Forever: 1000 passes in one step.
        let mut c = Clock::<S>::new(S::ZERO);
        let step = c.advance(S::from_i32(500), d, inv, Passes::from_count(-1));
        assert_eq!(step, Step { crossed: 1000, finished: false });
        assert_eq!((c.pass, c.time), (1000, S::ZERO));

        // Exactly at the end of the last pass finishes.
        let mut c = Clock::<S>::new(S::ZERO);
        assert_eq!(c.advance(S::ONE, d, inv, Passes::from_count(2)), Step { crossed: 1, finished: true });
    }

    #[test]
    fn clock_crossings_f32() {
        crossings::<f32>();
    }

    #[test]
    fn clock_crossings_q16() {
        crossings::<Q16>();
    }

    #[test]
    fn counts_and_event_ranges() {
        assert_eq!(Passes::from_count(0), Passes::ONCE);
        assert_eq!(Passes::from_count(1).last(), Some(0));
        assert_eq!(Passes::from_count(3).count(), Some(3));
        assert_eq!(Passes::from_count(-1).last(), None);
        assert_eq!(Passes::from_count(-7).count(), None);
        assert_eq!(looped_counts(0, 0).count(), 0);
        assert_eq!(looped_counts(0, 2).collect::<heapless::Vec<u32, 4>>().as_slice(), &[1, 2]);
        assert_eq!(looped_counts(3, 100).next(), Some(103 - MAX_LOOP_EVENTS_PER_UPDATE + 1));
        assert_eq!(looped_counts(3, 100).last(), Some(103));
        assert_eq!(looped_counts(u32::MAX - 1, 5).collect::<heapless::Vec<u32, 4>>().as_slice(), &[u32::MAX]);
    }
}
