//! Speed curves: keys `(time, value)` in a caller-owned slice, interpolated linearly, with
//! smoothstep, or with a Catmull-Rom spline, on their own clock.

use crate::scalar::Scalar;
use core::cmp::Ordering;

/// How a [`SpeedCurve`] interpolates between two keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CurveInterpolation {
    /// `v0 + (v1 - v0) × u`, with `u` the fraction of the segment's time.
    #[default]
    Linear,
    /// Smoothstep: `u` replaced by `u² (3 − 2u)` (zero slope at every key).
    Smooth,
    /// Uniform Catmull-Rom through the key values: the tangent at key `i` is
    /// `(v[i+1] − v[i−1]) / 2` per segment (in segment units, whatever the keys' spacing in time);
    /// the first and last key use themselves as their missing neighbour.
    Cubic,
}

/// One key of a speed curve: at `time` (seconds on the curve's own clock) the speed factor is `value`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SpeedKey<S> {
    /// Seconds on the curve's clock.
    pub time: S,
    /// The speed factor at that time.
    pub value: S,
}

impl<S> SpeedKey<S> {
    /// A key.
    pub const fn new(time: S, value: S) -> Self {
        Self { time, value }
    }
}

/// A speed curve over caller-owned keys, sorted by time (unsorted keys give a defined but
/// meaningless value, never a panic).
///
/// Before the first key the value is the first key's, after the last key the last key's; an empty
/// curve is 1. A looping curve repeats the span from its first to its last key's time.
///
/// ```
/// use ossicle::sprite::{CurveInterpolation, SpeedCurve, SpeedKey};
/// let keys = [SpeedKey::new(0.0f32, 1.0), SpeedKey::new(2.0, 3.0)];
/// let curve = SpeedCurve::new(&keys, CurveInterpolation::Linear, false);
/// assert_eq!(curve.value_at(1.0), 2.0);
/// assert_eq!(curve.value_at(5.0), 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedCurve<'k, S> {
    /// The keys, sorted by time.
    pub keys: &'k [SpeedKey<S>],
    /// How values between keys are interpolated.
    pub interpolation: CurveInterpolation,
    /// Whether the curve's clock wraps from its last key back to its first.
    pub looping: bool,
}

impl<'k, S: Scalar> SpeedCurve<'k, S> {
    /// A curve over `keys`.
    pub const fn new(keys: &'k [SpeedKey<S>], interpolation: CurveInterpolation, looping: bool) -> Self {
        Self { keys, interpolation, looping }
    }

    /// The time span from the first key to the last (0 with fewer than two keys).
    pub fn span(&self) -> S {
        match (self.keys.first(), self.keys.last()) {
            (Some(a), Some(b)) if b.time > a.time => b.time.sub(a.time),
            _ => S::ZERO,
        }
    }

    /// Maps a clock time into the curve's domain: wrapped for a looping curve, clamped to the last
    /// key's time otherwise (so a clock kept with this never grows without bound).
    pub fn wrap_time(&self, t: S) -> S {
        let (Some(first), Some(last)) = (self.keys.first(), self.keys.last()) else {
            return S::ZERO;
        };
        let span = self.span();
        if self.looping && span > S::ZERO {
            first.time.add(t.sub(first.time).rem_euclid(span))
        } else if t > last.time {
            last.time
        } else {
            t
        }
    }

    /// The clock time from `t` to the next key strictly after it (for a looping curve, wrapping
    /// round); `None` past the last key of a non-looping curve, or with fewer than two keys.
    pub fn time_to_next_key(&self, t: S) -> Option<S> {
        if self.keys.len() < 2 {
            return None;
        }
        let w = self.wrap_time(t);
        let next = self.keys.iter().find(|k| k.time > w)?;
        // A clock before the first key reaches it after `first.time − t` (w is t there).
        Some(next.time.sub(w))
    }

    /// The curve's value at clock time `t`.
    pub fn value_at(&self, t: S) -> S {
        let t = self.wrap_time(t);
        let keys = self.keys;
        let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
            return S::ONE;
        };
        if t.partial_cmp(&first.time) != Some(Ordering::Greater) {
            return first.value;
        }
        if t.partial_cmp(&last.time) != Some(Ordering::Less) {
            return last.value;
        }
        // The segment i..i+1 with keys[i].time <= t < keys[i+1].time.
        let mut i = 0usize;
        for (j, pair) in keys.windows(2).enumerate() {
            if let [a, b] = pair {
                if t >= a.time && t < b.time {
                    i = j;
                    break;
                }
            }
        }
        let (Some(k1), Some(k2)) = (keys.get(i), keys.get(i.wrapping_add(1))) else {
            return last.value;
        };
        let len = k2.time.sub(k1.time);
        let u = if len > S::ZERO { t.sub(k1.time).div(len).clamp01() } else { S::ZERO };
        match self.interpolation {
            CurveInterpolation::Linear => k1.value.lerp(k2.value, u),
            CurveInterpolation::Smooth => {
                let s = u.mul(u).mul(S::from_i32(3).sub(S::TWO.mul(u)));
                k1.value.lerp(k2.value, s)
            }
            CurveInterpolation::Cubic => {
                let p0 = i.checked_sub(1).and_then(|j| keys.get(j)).map_or(k1.value, |k| k.value);
                let p3 = keys.get(i.saturating_add(2)).map_or(k2.value, |k| k.value);
                catmull_rom(p0, k1.value, k2.value, p3, u)
            }
        }
    }
}

/// Uniform Catmull-Rom between `p1` and `p2`:
/// `½ (2p1 + (p2 − p0) u + (2p0 − 5p1 + 4p2 − p3) u² + (3p1 − p0 − 3p2 + p3) u³)`.
fn catmull_rom<S: Scalar>(p0: S, p1: S, p2: S, p3: S, u: S) -> S {
    let three = S::from_i32(3);
    let a = S::TWO.mul(p1);
    let b = p2.sub(p0);
    let c = S::TWO.mul(p0).sub(S::from_i32(5).mul(p1)).add(S::from_i32(4).mul(p2)).sub(p3);
    let d = three.mul(p1).sub(p0).sub(three.mul(p2)).add(p3);
    // Horner: a + u (b + u (c + u d))
    let inner = d.mul(u).add(c).mul(u).add(b).mul(u).add(a);
    inner.mul(S::HALF)
}
