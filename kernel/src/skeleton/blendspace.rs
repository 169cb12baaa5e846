//! Blend spaces ([`BlendSpace1D`], [`BlendSpace2D`]): a parameter → clip weights; [`SyncPhase`]
//! plays a blend space's clips in sync by normalised time.

use super::clock::finite;
use crate::math::Vec2;
use crate::scalar::Scalar;

/// Up to three `(point index, weight)` pairs with positive weights.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BlendWeights<S> {
    entries: [(u16, S); 3],
    len: u8,
}

impl<S: Scalar> BlendWeights<S> {
    /// No weights.
    pub const EMPTY: Self = Self { entries: [(0, S::ZERO); 3], len: 0 };

    pub(crate) fn from_pairs(pairs: [(u16, S); 3], n: usize) -> Self {
        let mut w = Self::EMPTY;
        for &(i, x) in pairs.iter().take(n) {
            if x > S::ZERO {
                if let Some(slot) = w.entries.get_mut(usize::from(w.len)) {
                    *slot = (i, x);
                    w.len += 1;
                }
            }
        }
        w
    }

    /// The pairs, in point order for 1D, triangle (or edge) order for 2D.
    pub fn as_slice(&self) -> &[(u16, S)] {
        self.entries.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// Point `point`'s weight (0 when it has none).
    pub fn weight(&self, point: u16) -> S {
        self.as_slice().iter().find(|(i, _)| *i == point).map_or(S::ZERO, |&(_, w)| w)
    }

    /// The pair with the largest weight (the first of equal ones).
    pub fn heaviest(&self) -> Option<(u16, S)> {
        self.as_slice().iter().copied().fold(None, |best, e| match best {
            Some((_, bw)) if bw >= e.1 => best,
            _ => Some(e),
        })
    }
}

/// Why a blend space was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BlendSpaceError {
    /// No points (or, in 2D, no triangles).
    Empty,
    /// More than 65,535 points.
    TooManyPoints,
    /// 1D points are not strictly increasing (or not finite): the first bad index.
    NotSorted {
        /// The index.
        index: u16,
    },
    /// A triangle names a point past the end.
    BadIndex {
        /// The triangle.
        triangle: u16,
    },
    /// A triangle has no area (its points are on a line).
    Degenerate {
        /// The triangle.
        triangle: u16,
    },
}

impl core::fmt::Display for BlendSpaceError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BlendSpaceError::Empty => f.write_str("blend space has no points or no triangles"),
            BlendSpaceError::TooManyPoints => f.write_str("blend space has more than 65535 points"),
            BlendSpaceError::NotSorted { index } => write!(f, "1D blend space point {index} is not after the previous"),
            BlendSpaceError::BadIndex { triangle } => {
                write!(f, "triangle {triangle} names a point that does not exist")
            }
            BlendSpaceError::Degenerate { triangle } => write!(f, "triangle {triangle} has no area"),
        }
    }
}

/// A 1D blend space: strictly increasing points on a parameter line; its weights serve as
/// [`BlendLayer`](super::BlendLayer) weights.
///
/// [`BlendSpace1D`] holds strictly increasing points on a line. A value `v` between points `i` and
/// `i + 1` gives them `1 − u` and `u`, `u = (v − pᵢ) / (pᵢ₊₁ − pᵢ)`; a value at or before the
/// first point gives the first point 1, at or after the last gives the last 1 (clamped).
///
/// See [`SyncPhase`] for playing the clips of a blend space in sync.
#[derive(Clone, Copy, Debug)]
pub struct BlendSpace1D<'a, S> {
    points: &'a [S],
}

impl<'a, S: Scalar> BlendSpace1D<'a, S> {
    /// A blend space over `points` (at least one, strictly increasing, finite).
    pub fn new(points: &'a [S]) -> Result<Self, BlendSpaceError> {
        if points.is_empty() {
            return Err(BlendSpaceError::Empty);
        }
        if points.len() > usize::from(u16::MAX) {
            return Err(BlendSpaceError::TooManyPoints);
        }
        let mut prev: Option<S> = None;
        for (i, &p) in points.iter().enumerate() {
            if !finite(p) || prev.is_some_and(|q| p <= q) {
                return Err(BlendSpaceError::NotSorted { index: i as u16 });
            }
            prev = Some(p);
        }
        Ok(Self { points })
    }

    /// The points.
    pub fn points(&self) -> &'a [S] {
        self.points
    }

    /// The weights at `value` (a non-finite value counts as the first point).
    pub fn weights(&self, value: S) -> BlendWeights<S> {
        let one = |i: usize| BlendWeights::from_pairs([(i as u16, S::ONE), (0, S::ZERO), (0, S::ZERO)], 1);
        let n = self.points.len();
        let (Some(&first), Some(&last)) = (self.points.first(), self.points.last()) else {
            return BlendWeights::EMPTY;
        };
        if !finite(value) || value <= first {
            return one(0);
        }
        if value >= last {
            return one(n - 1);
        }
        // The last point at or before `value` (exists: value > first), and the next one.
        let i = self.points.partition_point(|&p| p <= value).saturating_sub(1);
        let (Some(&a), Some(&b)) = (self.points.get(i), self.points.get(i + 1)) else { return one(i) };
        let u = value.sub(a).div(b.sub(a)).clamp01();
        BlendWeights::from_pairs([(i as u16, S::ONE.sub(u)), ((i + 1) as u16, u), (0, S::ZERO)], 2)
    }
}

/// A 2D blend space: points and the triangles over them; its weights serve as
/// [`BlendLayer`](super::BlendLayer) weights.
///
/// [`BlendSpace2D`] holds points and triangles the caller gives (index triples; any triangulation,
/// for example Delaunay, computed offline). A parameter inside a triangle (edges included) gets
/// that triangle's barycentric weights (the first such triangle in the slice). A parameter outside
/// every triangle is moved to the nearest point of the triangulated area, which lies on one of the
/// triangles' edges (the first nearest edge in triangle order, edges `ab`, `bc`, `ca`), and its two
/// end points share the weight linearly along the edge (`1 − u`, `u`).
///
/// Weights that come out as 0 are left out; the others sum to 1 (to rounding). In Q16.16 keep the
/// coordinates within ±100 so that the cross products fit.
///
/// ```
/// use ossicle::math::Vec2;
/// use ossicle::skeleton::BlendSpace2D;
///
/// let points = [Vec2::new(0.0f32, 0.0), Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)];
/// let triangles = [[0u16, 1, 2]];
/// let space = BlendSpace2D::new(&points, &triangles).unwrap();
/// let w = space.weights(Vec2::new(0.5, 0.5));
/// assert_eq!(w.as_slice(), &[(0, 0.5), (1, 0.25), (2, 0.25)]);
/// // Outside: (3, -1) is nearest to (2, 0), all of point 1.
/// assert_eq!(space.weights(Vec2::new(3.0, -1.0)).as_slice(), &[(1, 1.0)]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BlendSpace2D<'a, S> {
    points: &'a [Vec2<S>],
    triangles: &'a [[u16; 3]],
}

impl<'a, S: Scalar> BlendSpace2D<'a, S> {
    /// A blend space over `points` and `triangles` (index triples into `points`, each with an
    /// area; at least one).
    pub fn new(points: &'a [Vec2<S>], triangles: &'a [[u16; 3]]) -> Result<Self, BlendSpaceError> {
        if points.is_empty() || triangles.is_empty() {
            return Err(BlendSpaceError::Empty);
        }
        if points.len() > usize::from(u16::MAX) || triangles.len() > usize::from(u16::MAX) {
            return Err(BlendSpaceError::TooManyPoints);
        }
        let space = Self { points, triangles };
        for (t, tri) in triangles.iter().enumerate() {
            let triangle = t as u16;
            let Some([a, b, c]) = space.corners(tri) else { return Err(BlendSpaceError::BadIndex { triangle }) };
            if b.sub(a).cross(c.sub(a)) == S::ZERO {
                return Err(BlendSpaceError::Degenerate { triangle });
            }
        }
        Ok(space)
    }

    fn corners(&self, tri: &[u16; 3]) -> Option<[Vec2<S>; 3]> {
        let p = |i: u16| self.points.get(usize::from(i)).copied();
        Some([p(tri[0])?, p(tri[1])?, p(tri[2])?])
    }

    /// The points.
    pub fn points(&self) -> &'a [Vec2<S>] {
        self.points
    }

    /// The triangles.
    pub fn triangles(&self) -> &'a [[u16; 3]] {
        self.triangles
    }

    /// The weights at `p` (a non-finite parameter counts as point 0).
    pub fn weights(&self, p: Vec2<S>) -> BlendWeights<S> {
        if !(finite(p.x) && finite(p.y)) {
            return BlendWeights::from_pairs([(0, S::ONE), (0, S::ZERO), (0, S::ZERO)], 1);
        }
        for tri in self.triangles {
            let Some([a, b, c]) = self.corners(tri) else { continue };
            let (v0, v1, v2) = (b.sub(a), c.sub(a), p.sub(a));
            let d = v0.cross(v1);
            let l1 = v2.cross(v1).div(d);
            let l2 = v0.cross(v2).div(d);
            let l0 = S::ONE.sub(l1).sub(l2);
            if l0 >= S::ZERO && l1 >= S::ZERO && l2 >= S::ZERO {
                return BlendWeights::from_pairs([(tri[0], l0), (tri[1], l1), (tri[2], l2)], 3);
            }
        }
        // Outside: the nearest point on any triangle's edges.
        let mut best: Option<(S, u16, u16, S)> = None;
        for tri in self.triangles {
            let Some([a, b, c]) = self.corners(tri) else { continue };
            for (ia, ib, pa, pb) in [(tri[0], tri[1], a, b), (tri[1], tri[2], b, c), (tri[2], tri[0], c, a)] {
                let e = pb.sub(pa);
                let len2 = e.dot(e);
                let u = if len2 > S::ZERO { p.sub(pa).dot(e).div(len2).clamp01() } else { S::ZERO };
                let q = pa.lerp(pb, u);
                let d = p.sub(q);
                let dist = d.dot(d);
                if best.is_none_or(|(bd, ..)| dist < bd) {
                    best = Some((dist, ia, ib, u));
                }
            }
        }
        match best {
            Some((_, ia, ib, u)) => BlendWeights::from_pairs([(ia, S::ONE.sub(u)), (ib, u), (0, S::ZERO)], 2),
            None => BlendWeights::EMPTY,
        }
    }
}

/// A blend space's shared normalised phase: plays its clips in sync.
///
/// The clips of a blend space have different lengths; they play in sync by a shared normalised
/// phase `φ` in `[0, 1)`: clip `i` is sampled at `φ · Lᵢ`. [`SyncPhase::advance`] moves `φ` by
/// `dt / L`, where `L = Σ wᵢ·Lᵢ / Σ wᵢ` is the weighted cycle length, so a 50/50 blend of a 1 s walk
/// and a 0.5 s run takes 0.75 s per cycle. Sample each weighted clip with a
/// [`SamplingJob`](super::SamplingJob) and blend the poses with the weights through a
/// [`BlendingJob`](super::BlendingJob).
///
/// ```
/// use ossicle::skeleton::{BlendSpace1D, SyncPhase};
///
/// // Walk at 1 m/s, jog at 3 m/s, run at 6 m/s; at 4.5 m/s: half jog, half run.
/// let speeds = [1.0f32, 3.0, 6.0];
/// let space = BlendSpace1D::new(&speeds).unwrap();
/// let w = space.weights(4.5);
/// assert_eq!(w.as_slice(), &[(1, 0.5), (2, 0.5)]);
///
/// // Jog and run cycles last 0.8 s and 0.6 s: the blended cycle lasts 0.7 s.
/// let lengths = [1.0f32, 0.8, 0.6];
/// let mut phase = SyncPhase::new();
/// let cycle = phase.advance(0.35, &w, &lengths);
/// assert!((cycle - 0.7).abs() < 1e-6);
/// assert!((phase.phase() - 0.5).abs() < 1e-6);
/// assert!((phase.time_in(0.6) - 0.3).abs() < 1e-6); // the run clip is sampled at 0.3 s
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SyncPhase<S> {
    phase: S,
}

impl<S: Scalar> SyncPhase<S> {
    /// Phase 0.
    pub const fn new() -> Self {
        Self { phase: S::ZERO }
    }

    /// The phase, in `[0, 1)`.
    pub fn phase(&self) -> S {
        self.phase
    }

    /// Sets the phase (wrapped into `[0, 1)`; not finite gives 0).
    pub fn set_phase(&mut self, phase: S) {
        self.phase = if finite(phase) { phase.rem_euclid(S::ONE) } else { S::ZERO };
    }

    /// The time at which to sample a clip of length `duration`: `phase · duration`.
    pub fn time_in(&self, duration: S) -> S {
        self.phase.mul(duration)
    }

    /// Advances by `dt` seconds (negative plays backwards) at the weighted cycle length of the
    /// clips (`durations[i]` is point `i`'s clip length), which it returns; nothing moves when
    /// that length is not positive (no weights, or a weighted point without a duration).
    pub fn advance(&mut self, dt: S, weights: &BlendWeights<S>, durations: &[S]) -> S {
        let (mut sum, mut total) = (S::ZERO, S::ZERO);
        for &(i, w) in weights.as_slice() {
            let Some(&d) = durations.get(usize::from(i)) else { return S::ZERO };
            sum = sum.add(w.mul(d));
            total = total.add(w);
        }
        if total.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
            return S::ZERO;
        }
        let cycle = sum.div(total);
        if cycle > S::ZERO && finite(cycle) && finite(dt) {
            self.phase = self.phase.add(dt.div(cycle)).rem_euclid(S::ONE);
        }
        cycle
    }
}
