//! Easing curves: Linear, Step, the Penner family and CSS-style cubic Bézier curves.
//!
//! [`ease`] maps a progress `t` to an eased progress. `t` is clamped to `[0, 1]`; the result is
//! exactly 0 at `t <= 0` and exactly 1 at `t >= 1`, and in between follows the published formulas
//! (easings.net). Back and Elastic overshoot: their results leave `[0, 1]` in between.
//!
//! Names parse the way the sources spell them ([`Ease::parse`]), ignoring case, `_`, `-`, `.` and
//! spaces: `"InOutSine"` (Odin, DOTween, LitMotion), `"inOutSine"`, `"easeInOutSine"` (easings.net,
//! LeanTween, iTween), `"ease_in_out_sine"`, `"Sine.easeInOut"` (Phaser, Tweener), `"sineInOut"`
//! (CreateJS), `"Sinusoidal.InOut"` (tween.js) and `"Sine_In_Out"` are all [`Ease::InOutSine`];
//! tween.js' and Odin `core:math/ease`'s long family names (`Quadratic`, `Quartic`, `Quintic`,
//! `Sinusoidal`, `Exponential`, `Circular`) are understood; `"linear"` (also `"Linear.None"`,
//! `"Linear.easeNone"`), `"step"`/`"stepped"` (Spine)/`"constant"`, the CSS keywords `"ease"`,
//! `"ease-in"`, `"ease-out"`, `"ease-in-out"` and `"cubic-bezier(x1, y1, x2, y2)"` too.
//!
//! # Accuracy
//!
//! `kernel/tests/ease_accuracy.rs` compares every curve with the easings.net formulas written out
//! independently in `f64` (Bézier curves: with an `f64` bisection), evaluated at the exact value of
//! the input, at every Q16.16 input in `[0, 1]` and at about 390 000 `f32` inputs (a dense grid,
//! windows of ulps around every breakpoint, values near 0 and 1). It asserts `1e-6` in `f32` and
//! `2^-12` (16 steps of `2^-16`) in Q16.16 for the named curves, `1e-5` and `2^-12` for the
//! Bézier curves (see [`CubicBezier::y_at`]). Measured maximum absolute errors (`f32`, and Q16.16
//! in steps of `2^-16`; 0.5 is what rounding the exact value gives):
//!
//! | curve | f32 | Q16.16 | | curve | f32 | Q16.16 |
//! |---|---:|---:|---|---|---:|---:|
//! | Linear | 0 | 0 | | InOutSine | 1.5e-7 | 1.96 |
//! | Step | 0 | 0 | | InExpo | 3.0e-8 | 0.50 |
//! | InQuad | 3.0e-8 | 0.50 | | OutExpo | 6.4e-8 | 0.50 |
//! | OutQuad | 8.8e-8 | 0.50 | | InOutExpo | 4.5e-8 | 0.50 |
//! | InOutQuad | 4.5e-8 | 0.50 | | InCirc | 5.4e-8 | 3.78 |
//! | InCubic | 5.9e-8 | 0.97 | | OutCirc | 5.3e-8 | 3.78 |
//! | OutCubic | 1.4e-7 | 0.97 | | InOutCirc | 5.6e-8 | 2.39 |
//! | InOutCubic | 5.9e-8 | 0.74 | | InBack | 1.7e-7 | 1.42 |
//! | InQuart | 8.9e-8 | 1.44 | | OutBack | 2.9e-7 | 1.42 |
//! | OutQuart | 2.0e-7 | 1.44 | | InOutBack | 1.1e-7 | 1.71 |
//! | InOutQuart | 7.3e-8 | 1.42 | | InElastic | 1.6e-7 | 1.42 |
//! | InQuint | 1.1e-7 | 1.76 | | OutElastic | 1.6e-7 | 1.46 |
//! | OutQuint | 2.5e-7 | 1.76 | | InOutElastic | 1.2e-7 | 1.26 |
//! | InOutQuint | 8.1e-8 | 1.74 | | InBounce | 1.7e-7 | 0.53 |
//! | InSine | 2.1e-7 | 3.12 | | OutBounce | 9.4e-8 | 0.53 |
//! | OutSine | 7.5e-8 | 1.02 | | InOutBounce | 8.9e-8 | 0.77 |
//!
//! Cubic Bézier curves (control points as stored in each type): the CSS keywords `ease`, `ease-in`,
//! `ease-out`, `ease-in-out`, and `(0.3, -0.5, 0.7, 1.5)`, `(0.34, 1.56, 0.64, 1)`,
//! `(0.68, -0.6, 0.32, 1.6)`, `(0.7, 0, 0.84, 0)`, `(0.16, 1, 0.3, 1)`, `(0, 0.55, 0.45, 1)`,
//! `(0.55, 0, 1, 0.45)`, `(0, 1, 1, 0)`: `f32` at most 3.7e-7, Q16.16 at most 0.52 steps; the
//! steep `(0.9, 0, 0.1, 1)` (`dy/dx` = 10 in the middle): `f32` 8.6e-7, Q16.16 0.50 steps.
//!
//! The curves without overshoot (Linear, Step, Quad to Circ) never go down in either type, also
//! after rounding (tested over the same inputs), and Bounce stays in `[0, 1]`.
//!
//! ```
//! use ossicle::ease::{ease, Ease};
//! assert_eq!(ease(Ease::InQuad, 0.5f32), 0.25);
//! assert_eq!(Ease::<f32>::parse("easeInOutCubic"), Ok(Ease::InOutCubic));
//! let css = Ease::<f32>::parse("cubic-bezier(0.42, 0, 0.58, 1)").unwrap();
//! assert!((ease(css, 0.5f32) - 0.5).abs() < 1e-6);
//! ```

use core::fmt;

use crate::scalar::ScalarEncoding;
use crate::Scalar;

/// A cubic Bézier easing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), as
/// CSS `cubic-bezier(x1, y1, x2, y2)`. `x1` and `x2` are clamped to `[0, 1]` so the curve is a
/// function of x; `y1` and `y2` may leave `[0, 1]` (overshoot).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CubicBezier<S> {
    /// First control point, x.
    pub x1: S,
    /// First control point, y.
    pub y1: S,
    /// Second control point, x.
    pub x2: S,
    /// Second control point, y.
    pub y2: S,
}

impl<S: Scalar> CubicBezier<S> {
    /// The curve with these control points (`x1`, `x2` clamped to `[0, 1]`).
    pub fn new(x1: S, y1: S, x2: S, y2: S) -> Self {
        Self { x1: x1.clamp01(), y1, x2: x2.clamp01(), y2 }
    }

    /// The curve's y at x = `t`, for `t` in `[0, 1]` (clamped; NaN is 0). [`ease`] with
    /// [`Ease::Bezier`] calls this for `t` strictly between 0 and 1.
    ///
    /// The parameter `s` of the point with `x(s) = t` is found by Newton's method safeguarded by
    /// bisection (every step stays inside a bracket of the root, and a step that does not at least
    /// halve the previous one is replaced by a bisection), which converges for any control points
    /// (`x(s)` is non-decreasing when `x1`, `x2` are in `[0, 1]`; they are clamped here too, so a
    /// curve built without [`CubicBezier::new`] is handled alike), stops once the residual is at
    /// the noise floor of `x(s)`, and never runs more than 64 iterations; typical CSS curves need 3
    /// to 5. Nothing in it can panic or overflow, for any control points and any `t`.
    ///
    /// - Q16.16 solves in integers (`s` and `x` with 28 fraction bits, exact coefficients), so the
    ///   result is the exact curve's value (through the control points as stored) rounded, plus
    ///   `|dy/dx|` times an `x` error of a few `2^-28`: within `2^-12` wherever `|dy/dx| <= 2^13`
    ///   and `|y1|`, `|y2| <= 256`; measured at most 0.52 steps of `2^-16` on the curves of the
    ///   module docs. Bit-identical on every target.
    /// - `f32` solves in `f32`, from the end nearer to `t` (by the curve's point symmetry, so that
    ///   curves with a vertical tangent at an end, like `cubic-bezier(0, 0.55, 0.45, 1)`, are solved
    ///   in the variable that is small there). `x(s)` is known to a few ulps, and the error of `y`
    ///   is that times `|dy/dx|` plus the rounding of `y`: measured at most 8.6e-7 (on
    ///   `(0.9, 0, 0.1, 1)`, where `dy/dx` reaches 10), and `kernel/tests/ease_accuracy.rs` asserts
    ///   `1e-5`, which leaves room for curves ten times steeper than that.
    ///
    /// Where `dx/ds` vanishes inside the curve (`x1 = 1, x2 = 0` at its middle) `y` is a cube root
    /// of `x` there, and no bound on `dy/dx` holds: the result is still within the convex hull of
    /// the control values and the solve still terminates.
    ///
    /// Cost: a Newton iteration is about 5 multiplications (and in Q16.16 two 32-bit divisions near
    /// the root, one 64-bit division further away); measured over a grid of 4.8 million
    /// (control points, `t`) pairs, Q16.16 takes 4.4 iterations on average and at most 17.
    pub fn y_at(&self, t: S) -> S {
        let (x1, x2) = (self.x1.clamp01(), self.x2.clamp01());
        let t = t.clamp01();
        if matches!(S::ENCODING, ScalarEncoding::Q16_16) {
            // The integer solver; `to_q16_bits`/`from_q16_bits` are exact for Q16.16.
            let y = bezier_q16(
                x1.to_q16_bits(),
                self.y1.to_q16_bits(),
                x2.to_q16_bits(),
                self.y2.to_q16_bits(),
                t.to_q16_bits(),
            );
            return S::from_q16_bits(y);
        }
        let one = S::ONE;
        if t > S::HALF {
            // The point reflection (x, y) -> (1 - x, 1 - y) maps the curve onto itself, with the
            // control points (1 - x2, 1 - y2) and (1 - x1, 1 - y1).
            let y = bezier_float(one.sub(x2), one.sub(x1), one.sub(self.y2), one.sub(self.y1), one.sub(t));
            one.sub(y)
        } else {
            bezier_float(x1, x2, self.y1, self.y2, t)
        }
    }
}

/// The most iterations of the safeguarded Newton solves: each pair of iterations at least halves the
/// bracket, so 64 is enough for the 28 fraction bits of the Q16.16 solve and for `f32` down to `s`
/// of about `2^-32` (below which `y` is within `2^-30` of 0 anyway).
const BEZIER_MAX_ITERATIONS: u32 = 64;

/// `y(s)` where `x(s) = t` for the cubic Bézier with control x `x1`, `x2` in `[0, 1]` and y `y1`,
/// `y2`, `t` in `[0, 1]`, in the scalar type (f32).
fn bezier_float<S: Scalar>(x1: S, x2: S, y1: S, y2: S, t: S) -> S {
    // x(s) = ((a·s + b)·s + c)·s with c = 3·x1, b = 3·(x2 - x1) - c, a = 1 - c - b.
    let three = S::from_i32(3);
    let cx = three.mul(x1);
    let bx = three.mul(x2.sub(x1)).sub(cx);
    let ax = S::ONE.sub(cx).sub(bx);
    let (mut lo, mut hi) = (S::ZERO, S::ONE);
    let mut s = t;
    let mut last_step = S::ONE;
    for _ in 0..BEZIER_MAX_ITERATIONS {
        let e = ax.mul(s).add(bx).mul(s).add(cx).mul(s).sub(t);
        if e == S::ZERO {
            break;
        }
        if e < S::ZERO {
            lo = s;
        } else {
            hi = s;
        }
        let slope = three.mul(ax).mul(s).add(bx.add(bx)).mul(s).add(cx);
        let step = e.div(slope);
        let newton = s.sub(step);
        if newton == s {
            // The step is below the resolution of s.
            break;
        }
        // Newton's step if it stays inside the bracket and at most halves the previous step, or is
        // within a few ulps of s (the residual is then at the noise floor of x(s)); a NaN or
        // infinite step (zero slope) fails the comparisons and bisects.
        let small = step.abs() <= s.mul(S::EPSILON).mul(S::from_i32(4));
        let next =
            if slope > S::ZERO && newton > lo && newton < hi && (small || step.add(step).abs() <= last_step.abs()) {
                last_step = step;
                newton
            } else {
                let mid = lo.add(hi).mul(S::HALF);
                last_step = hi.sub(lo);
                mid
            };
        if next == s {
            break;
        }
        s = next;
    }
    // y(s) in Bernstein form: 3·(1 - s)²·s·y1 + 3·(1 - s)·s²·y2 + s³ (no large coefficients).
    let r = S::ONE.sub(s);
    let rs3 = three.mul(r).mul(s);
    rs3.mul(r).mul(y1).add(rs3.mul(s).mul(y2)).add(s.mul(s).mul(s))
}

/// One in Q28, the fixed-point format of the Q16.16 Bézier solve.
const Q28_ONE: i64 = 1 << 28;

/// The Q16.16 Bézier solve on raw bits, in integers: `s` and `x` in Q28 (i64), coefficients exact.
///
/// Ranges (`x1`, `x2` in `[0, 2^16]`, `t` in `[0, 2^16]`, `s` in `[0, 2^28]`): the x coefficients
/// `c = 3·x1`, `b = 3·(x2 - x1) - c`, `a = 2^16 - c - b` are within `±6·2^16`, so every product
/// below stays under `2^62` (noted at each). `y1`, `y2` are any `i32`; `y` is computed in Bernstein
/// form with weights at most `2^28`, so its sum stays under `2^61`, and the result saturates.
fn bezier_q16(x1: i32, y1: i32, x2: i32, y2: i32, t: i32) -> i32 {
    let (x1, x2) = (i64::from(x1.clamp(0, 1 << 16)), i64::from(x2.clamp(0, 1 << 16)));
    let t = i64::from(t.clamp(0, 1 << 16)) << 12;
    let cx = 3 * x1;
    let bx = 3 * (x2 - x1) - cx;
    let ax = (1 << 16) - cx - bx;
    // x(s) in Q28: |a·s| < 2^46; a·s + b = s + 3·x2·(1 - s) - 3·x1·(2 - s) is within ±6 (±6·2^28),
    // times s < 2^59; (a·s + b)·s + c = s² + 3·x2·s·(1 - s) + 3·x1·(1 - s)² is in [0, 4], times
    // s < 2^61.
    let x_of = |s: i64| {
        let v = ((ax * s) >> 16) + (bx << 12);
        let v = ((v * s) >> 28) + (cx << 12);
        (v * s) >> 28
    };
    // dx/ds in Q28: |3a·s| < 2^48; |3a·s + 2b| <= 24·2^28, times s < 2^61.
    let slope_of = |s: i64| {
        let v = ((3 * ax * s) >> 16) + (bx << 13);
        ((v * s) >> 28) + (cx << 12)
    };
    let (mut lo, mut hi) = (0i64, Q28_ONE);
    let mut s = t;
    let mut last_step = Q28_ONE;
    for _ in 0..BEZIER_MAX_ITERATIONS {
        // |e| <= 2^28 + 3. x_of truncates three times, so it is at most 3 units below the exact
        // x(s): closer than that, Newton's steps would only follow the truncation noise.
        let e = x_of(s) - t;
        if e.abs() <= 3 {
            break;
        }
        if e < 0 {
            lo = s;
        } else {
            hi = s;
        }
        if hi - lo <= 1 {
            break;
        }
        let slope = slope_of(s);
        // The Newton step e·2^28 / slope (Q28, rounded towards zero). Where the slope is at least
        // 2^-6, in 32-bit divisions (cheaper than a 64-bit one on a Cortex-M): with the slope to 14
        // fraction bits, den in [2^8, 3·2^14], within 2^-8 of the exact slope (so each Newton step
        // still gains at least 8 bits), and |e| <= 2^28 + 3 < 2^31, the step is
        // (e / den)·2^14 + ((e % den)·2^14) / den with |e % den|·2^14 < 2^31. Flatter: one 64-bit
        // division (e·2^28 < 2^57). `checked_*` only guard the compiler's view: divisors are positive.
        let step = if slope <= 0 {
            None
        } else if slope >= 1 << 22 {
            let (e, den) = (e as i32, (slope >> 14) as i32);
            match (e.checked_div(den), e.checked_rem(den)) {
                (Some(q), Some(r)) => (r << 14).checked_div(den).map(|f| i64::from(q) * (1 << 14) + i64::from(f)),
                _ => None,
            }
        } else {
            (e << 28).checked_div(slope)
        };
        s = match step {
            // The root is less than one unit away.
            Some(0) => break,
            // Newton's step, if it stays inside the bracket and at most halves the previous step
            // (a step of one unit is always taken: the residual is then at the noise floor).
            Some(d) if s - d > lo && s - d < hi && 2 * d.abs() <= last_step.max(2) => {
                last_step = d.abs();
                s - d
            }
            _ => {
                last_step = hi - lo;
                lo + (hi - lo) / 2
            }
        };
    }
    // y(s) = 3·r²·s·y1 + 3·r·s²·y2 + s³ in Q28 weights (each <= 2^28), y in Q16: products < 2^59.
    let r = Q28_ONE - s;
    let rs3 = (3 * r * s) >> 28; // 3·r·s < 2^58
    let w1 = (rs3 * r) >> 28;
    let w2 = (rs3 * s) >> 28;
    let w3 = (((s * s) >> 28) * s) >> 28;
    let y = w1 * i64::from(y1) + w2 * i64::from(y2) + (w3 << 16);
    // Round to Q16.16 (half up) and saturate.
    let y = (y + (1 << 27)) >> 28;
    y.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// An easing curve.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[allow(missing_docs)] // the names are the published curves'
pub enum Ease<S> {
    /// `t`.
    #[default]
    Linear,
    /// 0 until `t` reaches 1, then 1 (holds the start value for the whole segment).
    Step,
    InQuad,
    OutQuad,
    InOutQuad,
    InCubic,
    OutCubic,
    InOutCubic,
    InQuart,
    OutQuart,
    InOutQuart,
    InQuint,
    OutQuint,
    InOutQuint,
    InSine,
    OutSine,
    InOutSine,
    InExpo,
    OutExpo,
    InOutExpo,
    InCirc,
    OutCirc,
    InOutCirc,
    InBack,
    OutBack,
    InOutBack,
    InElastic,
    OutElastic,
    InOutElastic,
    InBounce,
    OutBounce,
    InOutBounce,
    /// A CSS-style cubic Bézier curve.
    Bezier(CubicBezier<S>),
}

/// The names [`Ease::parse`] accepts for the named curves, in their canonical spelling.
pub const NAMES: [&str; 32] = [
    "Linear",
    "Step",
    "InQuad",
    "OutQuad",
    "InOutQuad",
    "InCubic",
    "OutCubic",
    "InOutCubic",
    "InQuart",
    "OutQuart",
    "InOutQuart",
    "InQuint",
    "OutQuint",
    "InOutQuint",
    "InSine",
    "OutSine",
    "InOutSine",
    "InExpo",
    "OutExpo",
    "InOutExpo",
    "InCirc",
    "OutCirc",
    "InOutCirc",
    "InBack",
    "OutBack",
    "InOutBack",
    "InElastic",
    "OutElastic",
    "InOutElastic",
    "InBounce",
    "OutBounce",
    "InOutBounce",
];

/// A name [`Ease::parse`] does not know. `Display` lists the valid names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UnknownEase;

impl fmt::Display for UnknownEase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown easing; valid names are ")?;
        for (i, n) in NAMES.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
        }
        f.write_str(" (also spelled easeInOutSine, inOutSine, in_out_sine, Sine.easeInOut, sineInOut, Sinusoidal.InOut), the CSS keywords ease, ease-in, ease-out, ease-in-out, and cubic-bezier(x1, y1, x2, y2)")
    }
}

/// Every spelling of a Penner family (lower case) and the family's index in [`NAMES`] order (quad,
/// cubic, quart, quint, sine, expo, circ, back, elastic, bounce).
const FAMILY_SPELLINGS: [(&str, usize); 16] = [
    ("quad", 0),
    ("cubic", 1),
    ("quart", 2),
    ("quint", 3),
    ("sine", 4),
    ("expo", 5),
    ("circ", 6),
    ("back", 7),
    ("elastic", 8),
    ("bounce", 9),
    // tween.js ("Quadratic.InOut") and Odin's core:math/ease ("Quadratic_In_Out").
    ("quadratic", 0),
    ("quartic", 2),
    ("quintic", 3),
    ("sinusoidal", 4),
    ("exponential", 5),
    ("circular", 6),
];

impl<S: Scalar> Ease<S> {
    /// The named curves, in the order of [`NAMES`].
    pub const NAMED: [Ease<S>; 32] = [
        Ease::Linear,
        Ease::Step,
        Ease::InQuad,
        Ease::OutQuad,
        Ease::InOutQuad,
        Ease::InCubic,
        Ease::OutCubic,
        Ease::InOutCubic,
        Ease::InQuart,
        Ease::OutQuart,
        Ease::InOutQuart,
        Ease::InQuint,
        Ease::OutQuint,
        Ease::InOutQuint,
        Ease::InSine,
        Ease::OutSine,
        Ease::InOutSine,
        Ease::InExpo,
        Ease::OutExpo,
        Ease::InOutExpo,
        Ease::InCirc,
        Ease::OutCirc,
        Ease::InOutCirc,
        Ease::InBack,
        Ease::OutBack,
        Ease::InOutBack,
        Ease::InElastic,
        Ease::OutElastic,
        Ease::InOutElastic,
        Ease::InBounce,
        Ease::OutBounce,
        Ease::InOutBounce,
    ];

    /// The curve's canonical name (`"InOutSine"`), or `"CubicBezier"`.
    pub fn name(&self) -> &'static str {
        match self {
            Ease::Bezier(_) => "CubicBezier",
            named => Self::NAMED.iter().position(|e| e == named).and_then(|i| NAMES.get(i).copied()).unwrap_or(""),
        }
    }

    /// `t` eased by this curve (see [`ease`]).
    #[inline]
    pub fn apply(self, t: S) -> S {
        ease(self, t)
    }

    /// Parses a curve name as the sources spell it (see the module docs).
    pub fn parse(name: &str) -> Result<Self, UnknownEase> {
        // Bytes throughout: `str::trim` and `core::str::from_utf8` keep panic paths the optimiser
        // cannot remove, which would break a firmware's never-panic link.
        let name = name.as_bytes().trim_ascii();
        if let Some(args) =
            strip_prefix_ignore_case(name, b"cubic-bezier").or_else(|| strip_prefix_ignore_case(name, b"cubicbezier"))
        {
            return parse_bezier(args).ok_or(UnknownEase);
        }
        // Normalise: lower-case letters only ("Sine.easeInOut" -> "sineeaseinout").
        let mut buf = [0u8; 32];
        let mut len = 0;
        for &c in name {
            if c.is_ascii_alphabetic() {
                let slot = buf.get_mut(len).ok_or(UnknownEase)?;
                *slot = c.to_ascii_lowercase();
                len += 1;
            } else if !matches!(c, b'_' | b'-' | b'.' | b' ') {
                return Err(UnknownEase);
            }
        }
        let norm = buf.get(..len).ok_or(UnknownEase)?;
        let css = |x1: f32, y1: f32, x2: f32, y2: f32| {
            Ok(Ease::Bezier(CubicBezier::new(S::from_f32(x1), S::from_f32(y1), S::from_f32(x2), S::from_f32(y2))))
        };
        match norm {
            // "Linear.None" (tween.js), "Linear.easeNone" / "easeNone" (GSAP 2), "easeLinear".
            b"linear" | b"none" | b"linearnone" | b"lineareasenone" | b"easenone" | b"easelinear" => {
                return Ok(Ease::Linear)
            }
            b"step" | b"steps" | b"stepped" | b"constant" | b"hold" => return Ok(Ease::Step),
            b"ease" => return css(0.25, 0.1, 0.25, 1.0),
            b"easein" => return css(0.42, 0.0, 1.0, 1.0),
            b"easeout" => return css(0.0, 0.0, 0.58, 1.0),
            b"easeinout" => return css(0.42, 0.0, 0.58, 1.0),
            _ => {}
        }
        // Drop a leading "ease" ("easeInOutSine") or an inner one ("sineeaseinout").
        let rest = norm.strip_prefix(b"ease").unwrap_or(norm);
        let (d, f) = split_direction_family(rest).ok_or(UnknownEase)?;
        Self::NAMED.get(2 + 3 * f + d).copied().ok_or(UnknownEase)
    }
}

fn strip_prefix_ignore_case<'a>(s: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = s.get(..prefix.len())?;
    if head.eq_ignore_ascii_case(prefix) {
        s.get(prefix.len()..)
    } else {
        None
    }
}

/// The family index in [`FAMILY_SPELLINGS`] of a lower-case family name.
fn family_index(name: &[u8]) -> Option<usize> {
    FAMILY_SPELLINGS.iter().find(|(spelling, _)| spelling.as_bytes() == name).map(|(_, f)| *f)
}

/// `(direction, family)` indices (direction: in 0, out 1, in-out 2) from "inoutsine" or "sineinout"
/// (an "ease" between them already removed or removed here: "sineeaseinout").
fn split_direction_family(s: &[u8]) -> Option<(usize, usize)> {
    for (dir, d) in [(&b"inout"[..], 2), (&b"in"[..], 0), (&b"out"[..], 1)] {
        if let Some(f) = s.strip_prefix(dir).and_then(family_index) {
            return Some((d, f));
        }
    }
    for (family, f) in FAMILY_SPELLINGS {
        if let Some(dir) = s.strip_prefix(family.as_bytes()) {
            let d = match dir.strip_prefix(b"ease").unwrap_or(dir) {
                b"in" => 0,
                b"out" => 1,
                b"inout" => 2,
                _ => continue,
            };
            return Some((d, f));
        }
    }
    None
}

/// Parses a decimal number as CSS writes them (`-0.42`, `.9`, `1.`, `1e-2`, `+3`) into `f32`.
///
/// Hand-written rather than `str::parse::<f32>`: core's float parser keeps bounds checks the
/// optimiser cannot prove away, so a firmware calling [`Ease::parse`] would fail the never-panic
/// link check. (For the same reason the parsers trim with `trim_ascii`, not `trim`, whose Unicode
/// whitespace table lookup keeps a reachable panic.) The value is `mantissa / 10^k` (or `× 10^k`) with `10^k` exact in `f64` for
/// `k <= 22`, so it is correctly rounded to `f64` before the conversion to `f32` whenever the
/// significant digits fit 17 decimal digits and the exponent is moderate; extra digits are dropped
/// (an error below 1e-17 relative). Numbers beyond `±1e38` are refused.
pub(crate) fn parse_decimal(b: &[u8]) -> Option<f32> {
    parse_decimal_checked(b).ok()
}

/// Why [`parse_decimal_checked`] refused a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecimalError {
    /// The word is not a decimal number.
    Syntax,
    /// The word is a decimal number beyond `f32`'s range.
    Range,
}

/// [`parse_decimal`], saying whether a refused word is not a decimal or one beyond `f32`'s range.
pub(crate) fn parse_decimal_checked(b: &[u8]) -> Result<f32, DecimalError> {
    let mut i = 0usize;
    let negative = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let mut mantissa: u64 = 0;
    let mut exp10: i32 = 0;
    let mut digits = 0u32;
    let mut seen_dot = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                if mantissa < 10_000_000_000_000_000 {
                    mantissa = mantissa * 10 + u64::from(c - b'0');
                    if seen_dot {
                        exp10 -= 1;
                    }
                } else if !seen_dot {
                    exp10 += 1; // a dropped integer digit still scales the value
                }
                digits = digits.saturating_add(1);
            }
            b'.' if !seen_dot => seen_dot = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return Err(DecimalError::Syntax);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let exp_negative = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let mut e: i32 = 0;
        let mut exp_digits = 0u32;
        while let Some(&c) = b.get(i) {
            if !c.is_ascii_digit() {
                break;
            }
            e = e.saturating_mul(10).saturating_add(i32::from(c - b'0'));
            exp_digits += 1;
            i += 1;
        }
        if exp_digits == 0 {
            return Err(DecimalError::Syntax);
        }
        exp10 = exp10.saturating_add(if exp_negative { -e } else { e });
    }
    if i != b.len() {
        return Err(DecimalError::Syntax);
    }
    let magnitude = if mantissa == 0 {
        0.0
    } else if exp10 > 60 {
        return Err(DecimalError::Range);
    } else if exp10 < -400 {
        0.0
    } else {
        // 10^|exp10| in at most two exact factors of up to 10^22 (beyond, rounding is harmless here).
        let pow10 = |k: u32| -> f64 {
            let mut p = 1.0f64;
            for _ in 0..k.min(22) {
                p *= 10.0;
            }
            p
        };
        let k = exp10.unsigned_abs();
        let mut v = mantissa as f64;
        let mut left = k;
        while left > 0 {
            let step = left.min(22);
            v = if exp10 < 0 { v / pow10(step) } else { v * pow10(step) };
            left -= step;
        }
        v
    };
    if magnitude > f64::from(f32::MAX) {
        return Err(DecimalError::Range);
    }
    let v = magnitude as f32;
    Ok(if negative { -v } else { v })
}

/// Parses `(x1, y1, x2, y2)`.
fn parse_bezier<S: Scalar>(args: &[u8]) -> Option<Ease<S>> {
    let inner = args.trim_ascii().strip_prefix(b"(")?.strip_suffix(b")")?;
    let mut values = [0f32; 4];
    let mut rest = inner;
    for (k, v) in values.iter_mut().enumerate() {
        // The k-th comma-separated field; the last one must take the rest.
        let end = if k == 3 { rest.len() } else { rest.iter().position(|&c| c == b',')? };
        let (field, tail) = rest.split_at_checked(end)?;
        *v = parse_decimal(field.trim_ascii())?;
        if !v.is_finite() {
            return None;
        }
        rest = tail.get(1..).unwrap_or(&[]);
    }
    let [x1, y1, x2, y2] = values;
    if !(0.0..=1.0).contains(&x1) || !(0.0..=1.0).contains(&x2) {
        return None;
    }
    Some(Ease::Bezier(CubicBezier::new(S::from_f32(x1), S::from_f32(y1), S::from_f32(x2), S::from_f32(y2))))
}

/// `t` eased by `curve`: `t` is clamped to `[0, 1]`, the result is exactly 0 at 0 and exactly 1 at 1.
///
/// Accuracy against the published formulas in `f64` (measured over every Q16.16 input and dense
/// `f32` samples by `kernel/tests/ease_accuracy.rs`): within `1e-6` in `f32` and `2^-12` in Q16.16
/// for every named curve (with the `fast-math` feature, the `f32` Sine, Expo and Elastic curves use
/// micromath's `sin`/`exp2` and are within `2.5e-3`); for [`CubicBezier`] curves see
/// [`CubicBezier::y_at`].
///
/// Each formula is written so that it loses no precision near the ends: the "out" half of a curve is
/// computed from `u = 1 - t`, which is exact in Q16.16 and in `f32` wherever the curve is steep, and
/// never as `1 - in(1 - t)` where that would amplify a rounding error.
pub fn ease<S: Scalar>(curve: Ease<S>, t: S) -> S {
    // Two comparisons cover every case: t <= 0 and NaN (f32, false in every comparison) give 0.
    match t.partial_cmp(&S::ZERO) {
        Some(core::cmp::Ordering::Greater) => {}
        _ => return S::ZERO,
    }
    if t >= S::ONE {
        return S::ONE;
    }
    let one = S::ONE;
    let half = S::HALF;
    // Closures, so that a curve computes only what it uses (with a software f32, as on a Cortex-M0,
    // the optimiser does not remove unused float operations).
    // Whether t is in the first half.
    let lower = || t < half;
    // The distance to the end: exact in Q16.16, and in f32 for t >= 1/2.
    let u = || one.sub(t);
    // |2t - 1|: how far from the middle, for the in-out curves written around it.
    let w = || if lower() { one.sub(t.add(t)) } else { t.add(t).sub(one) };
    match curve {
        Ease::Linear => t,
        Ease::Step => S::ZERO,
        Ease::InQuad => t.mul(t),
        Ease::OutQuad => {
            let u = u();
            one.sub(u.mul(u))
        }
        // 2x² = (2x)·x: doubling is exact, so each power costs one rounding.
        Ease::InOutQuad => in_out(t, |x| x.add(x).mul(x)),
        Ease::InCubic => t.mul(t).mul(t),
        Ease::OutCubic => {
            let u = u();
            one.sub(u.mul(u).mul(u))
        }
        // 4x³ = (2x)²·x
        Ease::InOutCubic => in_out(t, |x| {
            let d = x.add(x);
            d.mul(d).mul(x)
        }),
        Ease::InQuart => {
            let q = t.mul(t);
            q.mul(q)
        }
        Ease::OutQuart => {
            let u = u();
            let q = u.mul(u);
            one.sub(q.mul(q))
        }
        // 8x⁴ = 2·(2x²)²
        Ease::InOutQuart => in_out(t, |x| {
            let a = x.add(x).mul(x);
            a.add(a).mul(a)
        }),
        Ease::InQuint => {
            let q = t.mul(t);
            q.mul(q).mul(t)
        }
        Ease::OutQuint => {
            let u = u();
            let q = u.mul(u);
            one.sub(q.mul(q).mul(u))
        }
        // 16x⁵ = 2·(2x²)²·(2x)
        Ease::InOutQuint => in_out(t, |x| {
            let d = x.add(x);
            let a = d.mul(x);
            a.add(a).mul(a).mul(d)
        }),
        // 1 - cos(πt/2) = 2 sin²(πt/4): no cancellation near 0.
        Ease::InSine => {
            let s = t.mul(quarter_pi()).sin();
            s.add(s).mul(s)
        }
        Ease::OutSine => t.mul(S::FRAC_PI_2).sin(),
        // (1 - cos(πt)) / 2 = sin²(πt/2).
        Ease::InOutSine => {
            let s = t.mul(S::FRAC_PI_2).sin();
            s.mul(s)
        }
        // 2^(10t - 10) = 2^(-10u).
        Ease::InExpo => S::from_i32(-10).mul(u()).exp2(),
        Ease::OutExpo => one.sub(S::from_i32(-10).mul(t).exp2()),
        // 2^(20t - 10) / 2 = 2^(-10w - 1) below 1/2, and 1 - 2^(-10w - 1) above.
        Ease::InOutExpo => {
            let e = S::from_i32(-10).mul(w()).sub(one).exp2();
            if lower() {
                e
            } else {
                one.sub(e)
            }
        }
        Ease::InCirc => circ_in(t),
        Ease::OutCirc => circ_out(t),
        // (1 - √(1 - (2t)²)) / 2 below 1/2, (1 + √(1 - (2t - 2)²)) / 2 above.
        Ease::InOutCirc => {
            if lower() {
                circ_in(t.add(t)).mul(half)
            } else {
                circ_out(t.add(t).sub(one)).mul(half).add(half)
            }
        }
        Ease::InBack => back_in(t, back_c1(), back_c1_plus_1()),
        Ease::OutBack => one.sub(back_in(u(), back_c1(), back_c1_plus_1())),
        // The lower half is back_in(2x, c2) / 2 = 2x²·((c2 + 1)·2x - c2).
        Ease::InOutBack => in_out(t, |x| {
            let d = x.add(x);
            d.mul(x).mul(back_c2_plus_1::<S>().mul(d).sub(back_c2()))
        }),
        // -2^(10t - 10)·sin((10t - 10.75)·c4) = 2^(-10u)·sin((10u + 0.75)·c4).
        Ease::InElastic => {
            let ten_u = S::from_i32(10).mul(u());
            ten_u.neg().exp2().mul(ten_u.add(S::from_ratio(3, 4)).mul(elastic_c4()).sin())
        }
        Ease::OutElastic => {
            let ten_t = S::from_i32(10).mul(t);
            ten_t.neg().exp2().mul(ten_t.sub(S::from_ratio(3, 4)).mul(elastic_c4()).sin()).add(one)
        }
        // Below 1/2: -2^(20t - 10)·sin((20t - 11.125)·c5) / 2 = 2^(-10w - 1)·sin((10w + 1.125)·c5);
        // above: 1 + 2^(-20t + 10)·sin((20t - 11.125)·c5) / 2 = 1 + 2^(-10w - 1)·sin((10w - 1.125)·c5).
        Ease::InOutElastic => {
            let ten_w = S::from_i32(10).mul(w());
            let a = ten_w.add(one).neg().exp2();
            let phase = S::from_ratio(9, 8);
            if lower() {
                a.mul(ten_w.add(phase).mul(elastic_c5()).sin())
            } else {
                a.mul(ten_w.sub(phase).mul(elastic_c5()).sin()).add(one)
            }
        }
        Ease::InBounce => one.sub(bounce_out(u())),
        Ease::OutBounce => bounce_out(t),
        // (1 ∓ bounce_out(w)) / 2.
        Ease::InOutBounce => {
            let b = bounce_out(w()).mul(half);
            if lower() {
                half.sub(b)
            } else {
                half.add(b)
            }
        }
        Ease::Bezier(b) => b.y_at(t),
    }
}

/// An in-out curve from its lower half `f(x)` (for `x` in `[0, 1/2]`): `f(t)` below 1/2, `1 - f(u)`
/// with `u = 1 - t` (exact) above.
#[inline(always)]
fn in_out<S: Scalar>(t: S, f: impl Fn(S) -> S) -> S {
    if t < S::HALF {
        f(t)
    } else {
        S::ONE.sub(f(S::ONE.sub(t)))
    }
}

// The constants below are functions so that they are generic; `from_ratio`, `mul` and `div` of
// constants fold at compile time in optimised builds (checked in the Cortex-M0 disassembly: the
// Q16.16 `ease` contains no division), so none of them costs anything per call.

/// π/4.
#[inline(always)]
fn quarter_pi<S: Scalar>() -> S {
    S::FRAC_PI_2.mul(S::HALF)
}

/// Penner's overshoot constant `c1` = 1.70158.
#[inline(always)]
fn back_c1<S: Scalar>() -> S {
    S::from_ratio(170_158, 100_000)
}

/// `c1 + 1`, rounded once.
#[inline(always)]
fn back_c1_plus_1<S: Scalar>() -> S {
    S::from_ratio(270_158, 100_000)
}

/// InOutBack's `c2` = `c1 · 1.525` = 2.5949095.
#[inline(always)]
fn back_c2<S: Scalar>() -> S {
    S::from_ratio(25_949_095, 10_000_000)
}

/// `c2 + 1`, rounded once.
#[inline(always)]
fn back_c2_plus_1<S: Scalar>() -> S {
    S::from_ratio(35_949_095, 10_000_000)
}

/// Elastic's angular step `c4` = 2π/3 (Q16.16: 137258 / 65536, correctly rounded).
#[inline(always)]
fn elastic_c4<S: Scalar>() -> S {
    S::TAU.div(S::from_i32(3))
}

/// InOutElastic's `c5` = 2π/4.5 = 4π/9 (Q16.16: 91506 / 65536, correctly rounded).
#[inline(always)]
fn elastic_c5<S: Scalar>() -> S {
    S::TAU.mul(S::TWO).div(S::from_i32(9))
}

/// `1 - √(1 - x²)` for `x` in `[0, 1]`, as `1 - √(1 - x²)` below 1/2 and `1 - √(2v - v²)` with
/// `v = 1 - x` (exact) above: the radicand never cancels, and every operation is monotone in `x`
/// (`2v - v²` grows with `v` even after rounding, as `v <= 1/2`), so the rounded curve never goes
/// down in either scalar type.
#[inline(always)]
fn circ_in<S: Scalar>(x: S) -> S {
    let radicand = if x < S::HALF {
        S::ONE.sub(x.mul(x))
    } else {
        let v = S::ONE.sub(x);
        v.add(v).sub(v.mul(v))
    };
    S::ONE.sub(radicand.sqrt())
}

/// `√(1 - (x - 1)²)` for `x` in `[0, 1]`, as `√(2x - x²)` below 1/2 and `√(1 - v²)` with
/// `v = 1 - x` above (see [`circ_in`]).
#[inline(always)]
fn circ_out<S: Scalar>(x: S) -> S {
    let radicand = if x < S::HALF {
        x.add(x).sub(x.mul(x))
    } else {
        let v = S::ONE.sub(x);
        S::ONE.sub(v.mul(v))
    };
    radicand.sqrt()
}

/// `x²·((c + 1)·x - c)`, Penner's InBack with overshoot `c` (`c1 = c + 1` passed rounded once).
#[inline(always)]
fn back_in<S: Scalar>(x: S, c: S, c1: S) -> S {
    x.mul(x).mul(c1.mul(x).sub(c))
}

/// Penner's OutBounce, four parabolas `7.5625·(x - a)² + b` with breakpoints at 1/2.75, 2/2.75,
/// 2.5/2.75. In terms of `z = 11x` (exact in Q16.16) `7.5625·x²` is `z²/16` and the breakpoints and
/// offsets are integers: `z < 4`, `(z - 6)²/16 + 3/4`, `(z - 9)²/16 + 15/16`, `(z - 10.5)²/16 +
/// 63/64`. So the branch taken is exactly the published one for every Q16.16 input, and every
/// constant is exact in both scalar types.
#[inline(always)]
fn bounce_out<S: Scalar>(x: S) -> S {
    let z = S::from_i32(11).mul(x);
    let (y, b) = if z < S::from_i32(4) {
        (z, S::ZERO)
    } else if z < S::from_i32(8) {
        (z.sub(S::from_i32(6)), S::from_ratio(3, 4))
    } else if z < S::from_i32(10) {
        (z.sub(S::from_i32(9)), S::from_ratio(15, 16))
    } else {
        (z.sub(S::from_ratio(21, 2)), S::from_ratio(63, 64))
    };
    y.mul(y).mul(S::from_ratio(1, 16)).add(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Q16;

    #[test]
    fn names_parse_in_every_spelling() {
        for (name, curve) in NAMES.iter().zip(Ease::<f32>::NAMED) {
            assert_eq!(Ease::<f32>::parse(name), Ok(curve), "{name}");
            assert_eq!(curve.name(), *name);
        }
        for spelling in [
            "InOutSine",
            "inOutSine",
            "easeInOutSine",
            "ease_in_out_sine",
            "Sine.easeInOut",
            "sineInOut",
            "IN_OUT_SINE",
            "in-out-sine",
        ] {
            assert_eq!(Ease::<f32>::parse(spelling), Ok(Ease::InOutSine), "{spelling}");
        }
        // DragonBones/EVEngine/Odin/DOTween/CreateJS/Phaser/tween.js/GSAP 2 spellings.
        for (spelling, curve) in [
            ("quadInOut", Ease::InOutQuad),
            ("QuadInOut", Ease::InOutQuad),
            ("Quad.easeOut", Ease::OutQuad),
            ("easeOutBounce", Ease::OutBounce),
            ("Linear", Ease::Linear),
            ("linear", Ease::Linear),
            ("Linear.None", Ease::Linear),
            ("Linear.easeNone", Ease::Linear),
            ("Quadratic.InOut", Ease::InOutQuad),
            ("Quadratic_In_Out", Ease::InOutQuad),
            ("Cubic_In", Ease::InCubic),
            ("Quartic.Out", Ease::OutQuart),
            ("Quintic_In_Out", Ease::InOutQuint),
            ("Sinusoidal.In", Ease::InSine),
            ("Exponential.Out", Ease::OutExpo),
            ("Circular.InOut", Ease::InOutCirc),
            ("Elastic.easeIn", Ease::InElastic),
            ("backOut", Ease::OutBack),
            ("inOutExponential", Ease::InOutExpo),
            ("  OutCirc  ", Ease::OutCirc),
        ] {
            assert_eq!(Ease::<f32>::parse(spelling), Ok(curve), "{spelling}");
        }
        assert_eq!(Ease::<f32>::parse("outQuad"), Ok(Ease::OutQuad));
        assert_eq!(Ease::<f32>::parse("easeInOutCubic"), Ok(Ease::InOutCubic));
        assert_eq!(Ease::<f32>::parse("stepped"), Ok(Ease::Step));
        assert_eq!(Ease::<f32>::parse("ease-in-out"), Ok(Ease::Bezier(CubicBezier::new(0.42, 0.0, 0.58, 1.0))));
        assert_eq!(
            Ease::<f32>::parse("cubic-bezier(0.1, -0.5, .9, 1.5)"),
            Ok(Ease::Bezier(CubicBezier::new(0.1, -0.5, 0.9, 1.5)))
        );
        for bad in [
            "",
            "InOutSin",
            "inoutsinee",
            "cubic-bezier(1, 2, 3)",
            "cubic-bezier(1.5, 0, 0, 1)",
            "cubic-bezier(0,0,1,1,1)",
            "bounce",
            "inout",
            "sine",
            "ease in out sine and more words than fit",
            "quadra.InOut",
            "Quadratic",
            "InOutQuadratics",
            "in out",
            "InOut\u{e9}Sine",
            "cubic-bezier(0, 0, 1, NaN)",
            "cubic-bezier(0, 0, 1, inf)",
            "cubic-bezier 0, 0, 1, 1",
        ] {
            assert_eq!(Ease::<f32>::parse(bad), Err(UnknownEase), "{bad:?}");
        }
    }

    #[test]
    fn decimals_parse_like_core_without_its_panic_paths() {
        for text in [
            "0",
            "1",
            "-0.5",
            ".9",
            "1.",
            "+3",
            "0.42",
            "0.58",
            "1e-2",
            "2.5E+1",
            "-1.5e0",
            "0.1",
            "0.25",
            "3.14159265",
            "1e38",
            "123456789012345678901234",
            "0.00000000000000000000001",
        ] {
            assert_eq!(parse_decimal(text.as_bytes()), text.parse::<f32>().ok(), "{text}");
        }
        for bad in
            ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "1,5", "0x10", "inf", "NaN", "1 ", " 1", "--1", "1e99999999999"]
        {
            assert_eq!(parse_decimal(bad.as_bytes()), None, "{bad:?}");
        }
        assert_eq!(parse_decimal(b"1e-99999999999"), Some(0.0));
        // Why a word is refused: not a decimal, or a decimal beyond f32's range (3.4e38).
        for big in ["1e99999999999", "1e39", "-3.5e38", "340282360000000000000000000000000000001"] {
            assert_eq!(parse_decimal_checked(big.as_bytes()), Err(DecimalError::Range), "{big:?}");
        }
        for bad in ["", "-", "e5", "1e", "1.2.3", "inf", "NaN", "1 "] {
            assert_eq!(parse_decimal_checked(bad.as_bytes()), Err(DecimalError::Syntax), "{bad:?}");
        }
        assert_eq!(parse_decimal_checked(b"-3.4e38"), Ok(-3.4e38));
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        extern crate std;
        let msg = std::format!("{UnknownEase}");
        for n in NAMES {
            assert!(msg.contains(n), "{n}");
        }
        assert!(msg.contains("cubic-bezier("));
    }

    #[test]
    fn ends_are_exact_and_t_is_clamped() {
        for curve in Ease::<f32>::NAMED {
            assert_eq!(ease(curve, 0.0f32), 0.0, "{curve:?}");
            assert_eq!(ease(curve, 1.0f32), 1.0, "{curve:?}");
            assert_eq!(ease(curve, -3.0f32), 0.0, "{curve:?}");
            assert_eq!(ease(curve, 7.0f32), 1.0, "{curve:?}");
            assert_eq!(ease(curve, f32::NAN), 0.0, "{curve:?}");
        }
        for curve in Ease::<Q16>::NAMED {
            assert_eq!(ease(curve, Q16::ZERO), <Q16 as Scalar>::ZERO, "{curve:?}");
            assert_eq!(ease(curve, <Q16 as Scalar>::ONE), <Q16 as Scalar>::ONE, "{curve:?}");
            assert_eq!(ease(curve, Q16::MIN), <Q16 as Scalar>::ZERO, "{curve:?}");
            assert_eq!(ease(curve, Q16::MAX), <Q16 as Scalar>::ONE, "{curve:?}");
        }
    }

    #[test]
    fn step_holds_until_the_end() {
        assert_eq!(ease(Ease::Step, 0.999f32), 0.0);
        assert_eq!(ease(Ease::Step, 1.0f32), 1.0);
    }
}
