//! Sync markers: [`sync_time`] aligns a follower clip's phase with a leader's.

use super::clock::finite;
use super::player::{AnimPlayer, PlayerError};
use super::rootmotion::MotionJoint;
use super::sample::SamplingState;
use super::source::SkelClipSource;
use crate::scalar::Scalar;

/// A sync marker: a name (string id) at a time in a clip.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SyncMarker<S> {
    /// Seconds from the clip's start.
    pub time: S,
    /// The marker's name (a string id).
    pub name: u16,
}

/// A clip's markers (sorted by time, within `[0, duration]`), its length and loop flag.
#[derive(Clone, Copy, Debug)]
pub struct MarkerTrack<'a, S> {
    /// The markers, sorted by time.
    pub markers: &'a [SyncMarker<S>],
    /// The clip's length in seconds.
    pub duration: S,
    /// Whether the clip loops.
    pub looping: bool,
}

/// Where [`sync_time`] puts the follower.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SyncResult<S> {
    /// The follower's time.
    pub time: S,
    /// Whether markers placed it (false: normalised time).
    pub by_markers: bool,
}

/// Copies the events of `clip` whose names are in `names` into `out` as markers, in time order;
/// returns how many were written (at most `out.len()`; further ones are left out).
pub fn collect_markers<S: Scalar, C: SkelClipSource<S>>(clip: &C, names: &[u16], out: &mut [SyncMarker<S>]) -> usize {
    let mut n = 0;
    for i in 0..clip.event_count() {
        let Some(e) = clip.event(i) else { break };
        if names.contains(&e.name) {
            let Some(slot) = out.get_mut(n) else { break };
            *slot = SyncMarker { time: e.time, name: e.name };
            n += 1;
        }
    }
    n
}

/// The forward distance from `a` to `b` in a clip of length `len`, wrapping when `wrap`.
fn span<S: Scalar>(a: S, b: S, len: S, wrap: bool) -> S {
    let d = b.sub(a);
    if wrap {
        d.rem_euclid(len)
    } else {
        d
    }
}

impl<S: Scalar> MarkerTrack<'_, S> {
    fn get(&self, i: usize) -> Option<SyncMarker<S>> {
        self.markers.get(i).copied()
    }

    /// The pair `(a, b, start time, span)` around `t`, if any.
    fn pair_at(&self, t: S) -> Option<(usize, usize, S, S)> {
        let n = self.markers.len();
        let first = self.get(0)?;
        let idx = self.markers.partition_point(|m| m.time <= t);
        let (a, b) = if idx > 0 && idx < n {
            (idx - 1, idx)
        } else if self.looping {
            // Before the first marker or from the last one on: the pair across the loop end.
            (n - 1, 0)
        } else {
            return None;
        };
        let (ma, mb) = (self.get(a)?, self.get(b).unwrap_or(first));
        let s = if a == b { self.duration } else { span(ma.time, mb.time, self.duration, self.looping) };
        Some((a, b, ma.time, s))
    }
}

/// The follower's time that matches the leader's: keeps a follower clip's phase aligned with a
/// leader's (left foot down at the same moment in a walk and a run). `follower_time` is the
/// follower's current time, used to choose among several matching pairs.
///
///
/// Each clip carries markers: names (string ids) at times, sorted by time, in a
/// [`MarkerTrack`]. The caller supplies them (the blob format has only events; a caller can take
/// the events whose names are in its marker set with [`collect_markers`]).
///
/// # Rule
///
/// [`sync_time`] finds the leader's marker pair around its time: the last marker at or before it
/// (`A`) and the next one (`B`; in a looping clip the pair wraps: after the last marker comes the
/// first, and before the first marker the pair is last → first; one marker pairs with itself over
/// a whole cycle). The leader is at fraction `f = (t − t_A) / (t_B − t_A)` of that span (spans
/// measured forwards, across the loop end when wrapping; a span of 0 gives `f = 0`). In the
/// follower, every consecutive pair named `A` → `B` (wrapping likewise when it loops) is a
/// candidate, placed at the same fraction of its own span; the candidate nearest the follower's
/// current time wins (cyclic distance when it loops; the first of equal ones). When the leader
/// has no pair (no markers, or before the first / after the last marker of a non-looping clip) or
/// the follower has no such pair, the result falls back to normalised time:
/// `t_follower = t_leader / L_leader × L_follower` ([`SyncResult::by_markers`] is then false).
///
/// ```
/// use ossicle::skeleton::{sync_time, MarkerTrack, SyncMarker};
///
/// const LEFT: u16 = 1;
/// const RIGHT: u16 = 2;
/// // Walk (1 s): left foot at 0.1 s, right at 0.6 s. Run (0.5 s): left at 0.0 s, right at 0.2 s.
/// let walk = [SyncMarker { time: 0.1f32, name: LEFT }, SyncMarker { time: 0.6, name: RIGHT }];
/// let run = [SyncMarker { time: 0.0f32, name: LEFT }, SyncMarker { time: 0.2, name: RIGHT }];
/// let walk = MarkerTrack { markers: &walk, duration: 1.0, looping: true };
/// let run = MarkerTrack { markers: &run, duration: 0.5, looping: true };
/// // The walk at 0.35 s is half-way from left to right; so is the run at 0.1 s.
/// let r = sync_time(&walk, 0.35, &run, 0.0);
/// assert!(r.by_markers && (r.time - 0.1).abs() < 1e-6);
/// ```
pub fn sync_time<S: Scalar>(
    leader: &MarkerTrack<'_, S>,
    leader_time: S,
    follower: &MarkerTrack<'_, S>,
    follower_time: S,
) -> SyncResult<S> {
    let fallback = || {
        let f = if leader.duration > S::ZERO { leader_time.div(leader.duration).clamp01() } else { S::ZERO };
        SyncResult { time: f.mul(follower.duration), by_markers: false }
    };
    if !(finite(leader_time) && leader.duration > S::ZERO && follower.duration > S::ZERO) {
        return fallback();
    }
    let Some((a, b, ta, sp)) = leader.pair_at(leader_time) else { return fallback() };
    let (Some(name_a), Some(name_b)) = (leader.get(a).map(|m| m.name), leader.get(b).map(|m| m.name)) else {
        return fallback();
    };
    let into = span(ta, leader_time, leader.duration, leader.looping);
    let frac = if sp > S::ZERO { into.div(sp).clamp01() } else { S::ZERO };

    let n = follower.markers.len();
    let mut best: Option<(S, S)> = None;
    for j in 0..n {
        let Some(ma) = follower.get(j) else { break };
        if ma.name != name_a {
            continue;
        }
        let k = if j + 1 < n {
            j + 1
        } else if follower.looping {
            0
        } else {
            continue;
        };
        let Some(mb) = follower.get(k) else { continue };
        if mb.name != name_b {
            continue;
        }
        let fs = if j == k { follower.duration } else { span(ma.time, mb.time, follower.duration, follower.looping) };
        let mut t = ma.time.add(frac.mul(fs));
        t = if follower.looping { t.rem_euclid(follower.duration) } else { t.clamp(S::ZERO, follower.duration) };
        let mut dist = t.sub(follower_time).abs();
        if follower.looping {
            dist = dist.min(follower.duration.sub(dist).abs());
        }
        if best.is_none_or(|(bd, _)| dist < bd) {
            best = Some((dist, t));
        }
    }
    match best {
        Some((_, time)) => SyncResult { time, by_markers: true },
        None => fallback(),
    }
}

impl<S: Scalar, J: MotionJoint<S>, const N: usize, X: SamplingState<S, J>> AnimPlayer<S, J, N, X> {
    /// Moves this player's current clip to the time [`sync_time`] gives for a leader at
    /// `leader_time` (this player's own markers in `mine`, its current time choosing among several
    /// matching pairs), as a [`seek`](AnimPlayer::seek): no events, no root motion. Call it after
    /// both players' updates. Returns whether markers placed it (false: normalised time).
    ///
    /// ```
    /// use ossicle::math::Transform2;
    /// use ossicle::skeleton::{AnimPlayer, MarkerTrack, SliceSkelClip, SyncMarker};
    ///
    /// let clips = [SliceSkelClip::<f32> { duration: 0.5, looping: true, tracks: &[], events: &[] }];
    /// let walk = [SyncMarker { time: 0.0f32, name: 1 }, SyncMarker { time: 0.5, name: 2 }];
    /// let run = [SyncMarker { time: 0.0f32, name: 1 }, SyncMarker { time: 0.25, name: 2 }];
    /// let walk = MarkerTrack { markers: &walk, duration: 1.0, looping: true };
    /// let run = MarkerTrack { markers: &run, duration: 0.5, looping: true };
    /// let mut follower: AnimPlayer<f32, Transform2<f32>, 1> = AnimPlayer::new(1);
    /// follower.play(&clips, 0).unwrap();
    /// assert!(follower.follow(&clips, &walk, 0.75, &run).unwrap());
    /// assert_eq!(follower.current(), Some((0, 0.375)));
    /// ```
    pub fn follow<C: SkelClipSource<S>>(
        &mut self,
        clips: &[C],
        leader: &MarkerTrack<'_, S>,
        leader_time: S,
        mine: &MarkerTrack<'_, S>,
    ) -> Result<bool, PlayerError> {
        let Some((_, now)) = self.current() else { return Err(PlayerError::NotPlaying) };
        let r = sync_time(leader, leader_time, mine, now);
        self.seek(clips, r.time)?;
        Ok(r.by_markers)
    }
}
