//! Easing curves: Linear, Step, the Penner family and CSS-style cubic Bézier curves.
//!
//! [`ease`] maps a progress `t` to an eased progress. `t` is clamped to `[0, 1]`; the result is
//! exactly 0 at `t <= 0` and exactly 1 at `t >= 1`, and in between follows the published formulas
//! (easings.net). Back and Elastic overshoot: their results leave `[0, 1]` in between.
//!
//! Names parse the way the sources spell them ([`Ease::parse`]): `"InOutSine"`, `"inOutSine"`,
//! `"easeInOutSine"`, `"ease_in_out_sine"`, `"Sine.easeInOut"`, `"sineInOut"` are all
//! [`Ease::InOutSine`]; `"linear"`, `"step"`/`"stepped"`/`"constant"`, the CSS keywords `"ease"`,
//! `"ease-in"`, `"ease-out"`, `"ease-in-out"` and `"cubic-bezier(x1, y1, x2, y2)"` are understood too.
//!
//! ```
//! use ossicle::ease::{ease, Ease};
//! assert_eq!(ease(Ease::InQuad, 0.5f32), 0.25);
//! assert_eq!(Ease::<f32>::parse("easeInOutCubic"), Ok(Ease::InOutCubic));
//! let css = Ease::<f32>::parse("cubic-bezier(0.42, 0, 0.58, 1)").unwrap();
//! assert!((ease(css, 0.5f32) - 0.5).abs() < 1e-6);
//! ```

use core::fmt;

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

    /// The polynomial coefficients `(a, b, c)` of `a·s³ + b·s² + c·s` for control values `p1`, `p2`.
    fn coefficients(p1: S, p2: S) -> (S, S, S) {
        let three = S::from_i32(3);
        let c = three.mul(p1);
        let b = three.mul(p2.sub(p1)).sub(c);
        let a = S::ONE.sub(c).sub(b);
        (a, b, c)
    }

    /// The curve's y at the x = `t` (`t` already in `[0, 1]`).
    pub fn y_at(&self, t: S) -> S {
        let (ax, bx, cx) = Self::coefficients(self.x1, self.x2);
        let (ay, by, cy) = Self::coefficients(self.y1, self.y2);
        let x_of = |s: S| ax.mul(s).add(bx).mul(s).add(cx).mul(s);
        // Newton's method from s = t, then bisection if it did not converge (flat spots).
        let tolerance = S::EPSILON.mul(S::TWO);
        let mut s = t;
        let mut solved = false;
        for _ in 0..6 {
            let err = x_of(s).sub(t);
            if err.abs() <= tolerance {
                solved = true;
                break;
            }
            let slope = S::from_i32(3).mul(ax).mul(s).add(S::TWO.mul(bx)).mul(s).add(cx);
            if slope.abs() < S::from_ratio(1, 1000) {
                break;
            }
            s = s.sub(err.div(slope)).clamp01();
        }
        if !solved {
            let (mut lo, mut hi) = (S::ZERO, S::ONE);
            s = t;
            for _ in 0..24 {
                let x = x_of(s);
                if x.sub(t).abs() <= tolerance {
                    break;
                }
                if x < t {
                    lo = s;
                } else {
                    hi = s;
                }
                let mid = lo.add(hi).mul(S::HALF);
                if mid == s {
                    break;
                }
                s = mid;
            }
        }
        ay.mul(s).add(by).mul(s).add(cy).mul(s)
    }
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
        f.write_str(" (also spelled easeInOutSine, inOutSine, in_out_sine, Sine.easeInOut), the CSS keywords ease, ease-in, ease-out, ease-in-out, and cubic-bezier(x1, y1, x2, y2)")
    }
}

const FAMILIES: [&str; 10] = ["quad", "cubic", "quart", "quint", "sine", "expo", "circ", "back", "elastic", "bounce"];

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
        let name = name.trim();
        if let Some(args) =
            strip_prefix_ignore_case(name, "cubic-bezier").or_else(|| strip_prefix_ignore_case(name, "cubicbezier"))
        {
            return parse_bezier(args).ok_or(UnknownEase);
        }
        // Normalise: lower-case letters only ("Sine.easeInOut" -> "sineeaseinout").
        let mut buf = [0u8; 32];
        let mut len = 0;
        for c in name.bytes() {
            if c.is_ascii_alphabetic() {
                let slot = buf.get_mut(len).ok_or(UnknownEase)?;
                *slot = c.to_ascii_lowercase();
                len += 1;
            } else if !matches!(c, b'_' | b'-' | b'.' | b' ') {
                return Err(UnknownEase);
            }
        }
        let norm = core::str::from_utf8(buf.get(..len).ok_or(UnknownEase)?).map_err(|_| UnknownEase)?;
        let css = |x1: f32, y1: f32, x2: f32, y2: f32| {
            Ok(Ease::Bezier(CubicBezier::new(S::from_f32(x1), S::from_f32(y1), S::from_f32(x2), S::from_f32(y2))))
        };
        match norm {
            "linear" | "none" => return Ok(Ease::Linear),
            "step" | "steps" | "stepped" | "constant" | "hold" => return Ok(Ease::Step),
            "ease" => return css(0.25, 0.1, 0.25, 1.0),
            "easein" => return css(0.42, 0.0, 1.0, 1.0),
            "easeout" => return css(0.0, 0.0, 0.58, 1.0),
            "easeinout" => return css(0.42, 0.0, 0.58, 1.0),
            _ => {}
        }
        // Drop a leading "ease" ("easeInOutSine") or an inner one ("sineeaseinout").
        let rest = norm.strip_prefix("ease").unwrap_or(norm);
        let (direction, family) = split_direction_family(rest).ok_or(UnknownEase)?;
        let f = FAMILIES.iter().position(|&x| x == family).ok_or(UnknownEase)?;
        let d = match direction {
            "in" => 0,
            "out" => 1,
            "inout" => 2,
            _ => return Err(UnknownEase),
        };
        Self::NAMED.get(2 + 3 * f + d).copied().ok_or(UnknownEase)
    }
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    if head.eq_ignore_ascii_case(prefix) {
        s.get(prefix.len()..)
    } else {
        None
    }
}

/// `(direction, family)` from "inoutsine" or "sineinout" (an "ease" between them already removed
/// or removed here: "sineeaseinout").
fn split_direction_family(s: &str) -> Option<(&str, &str)> {
    for dir in ["inout", "in", "out"] {
        if let Some(family) = s.strip_prefix(dir) {
            if FAMILIES.contains(&family) {
                return Some((dir, family));
            }
        }
    }
    for family in FAMILIES {
        if let Some(dir) = s.strip_prefix(family) {
            let dir = dir.strip_prefix("ease").unwrap_or(dir);
            if matches!(dir, "in" | "out" | "inout") {
                return Some((dir, family));
            }
        }
    }
    None
}

/// Parses `(x1, y1, x2, y2)`.
fn parse_bezier<S: Scalar>(args: &str) -> Option<Ease<S>> {
    let inner = args.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut values = [0f32; 4];
    let mut parts = inner.split(',');
    for v in values.iter_mut() {
        *v = parts.next()?.trim().parse::<f32>().ok()?;
        if !v.is_finite() {
            return None;
        }
    }
    if parts.next().is_some() {
        return None;
    }
    let [x1, y1, x2, y2] = values;
    if !(0.0..=1.0).contains(&x1) || !(0.0..=1.0).contains(&x2) {
        return None;
    }
    Some(Ease::Bezier(CubicBezier::new(S::from_f32(x1), S::from_f32(y1), S::from_f32(x2), S::from_f32(y2))))
}

/// `t` eased by `curve`: `t` is clamped to `[0, 1]`, the result is exactly 0 at 0 and exactly 1 at 1.
pub fn ease<S: Scalar>(curve: Ease<S>, t: S) -> S {
    if t <= S::ZERO {
        return S::ZERO;
    }
    if t >= S::ONE {
        return S::ONE;
    }
    // NaN (f32) compares false both ways: treat it as the start.
    if t.partial_cmp(&t).is_none() {
        return S::ZERO;
    }
    let one = S::ONE;
    let two = S::TWO;
    let half = S::HALF;
    let lower = t < half;
    let u = one.sub(t);
    // p(x) for the power families
    let pow = |x: S, n: u32| {
        let mut r = x;
        for _ in 1..n {
            r = r.mul(x);
        }
        r
    };
    // In-out of a power curve: t < 1/2 ? 2^(n-1) t^n = (2t)^n / 2 : 1 - (2 - 2t)^n / 2. Powers of
    // values in [0, 1] so the Q16.16 rounding errors do not grow.
    let in_out_pow = |n: u32| {
        if lower {
            pow(two.mul(t), n).mul(half)
        } else {
            one.sub(pow(two.sub(two.mul(t)), n).mul(half))
        }
    };
    match curve {
        Ease::Linear => t,
        Ease::Step => S::ZERO,
        Ease::InQuad => pow(t, 2),
        Ease::OutQuad => one.sub(pow(u, 2)),
        Ease::InOutQuad => in_out_pow(2),
        Ease::InCubic => pow(t, 3),
        Ease::OutCubic => one.sub(pow(u, 3)),
        Ease::InOutCubic => in_out_pow(3),
        Ease::InQuart => pow(t, 4),
        Ease::OutQuart => one.sub(pow(u, 4)),
        Ease::InOutQuart => in_out_pow(4),
        Ease::InQuint => pow(t, 5),
        Ease::OutQuint => one.sub(pow(u, 5)),
        Ease::InOutQuint => in_out_pow(5),
        // 1 - cos(πt/2) = 2 sin²(πt/4): no cancellation near 0.
        Ease::InSine => {
            let s = t.mul(S::FRAC_PI_2).mul(half).sin();
            two.mul(s).mul(s)
        }
        Ease::OutSine => t.mul(S::FRAC_PI_2).sin(),
        // (1 - cos(πt)) / 2 = sin²(πt/2).
        Ease::InOutSine => {
            let s = t.mul(S::FRAC_PI_2).sin();
            s.mul(s)
        }
        Ease::InExpo => S::from_i32(10).mul(t).sub(S::from_i32(10)).exp2(),
        Ease::OutExpo => one.sub(S::from_i32(-10).mul(t).exp2()),
        Ease::InOutExpo => {
            if lower {
                S::from_i32(20).mul(t).sub(S::from_i32(10)).exp2().mul(half)
            } else {
                two.sub(S::from_i32(-20).mul(t).add(S::from_i32(10)).exp2()).mul(half)
            }
        }
        // √(1 - x²) as √((1 - x)(1 + x)): exact factors, so no cancellation near x = 1.
        Ease::InCirc => one.sub(one_minus_sq_sqrt(t)),
        Ease::OutCirc => one_minus_sq_sqrt(u),
        Ease::InOutCirc => {
            if lower {
                one.sub(one_minus_sq_sqrt(two.mul(t))).mul(half)
            } else {
                one_minus_sq_sqrt(two.mul(u)).add(one).mul(half)
            }
        }
        Ease::InBack => back_in(t, back_c1()),
        Ease::OutBack => one.sub(back_in(u, back_c1())),
        Ease::InOutBack => {
            let c2 = back_c1::<S>().mul(S::from_ratio(1525, 1000));
            if lower {
                back_in(two.mul(t), c2).mul(half)
            } else {
                one.sub(back_in(two.mul(u), c2).mul(half))
            }
        }
        Ease::InElastic => elastic_in(t),
        Ease::OutElastic => one.sub(elastic_in(u)),
        Ease::InOutElastic => {
            // c5 = 2π/4.5; 20t - 11.125 = 10(2t - 1) - 1.125.
            let c5 = S::TAU.mul(S::from_ratio(2, 9));
            if lower {
                let x = two.mul(t);
                let a = S::from_i32(10).mul(x).sub(S::from_i32(10)).exp2();
                let s = S::from_i32(10).mul(x).sub(S::from_ratio(89, 8)).mul(c5).sin();
                a.mul(s).mul(half).neg()
            } else {
                let x = two.mul(u);
                let a = S::from_i32(10).mul(x).sub(S::from_i32(10)).exp2();
                // sin((20t - 11.125)c5) with 20t = 20 - 10x: sin((8.875 - 10x)c5).
                let s = S::from_ratio(71, 8).sub(S::from_i32(10).mul(x)).mul(c5).sin();
                a.mul(s).mul(half).add(one)
            }
        }
        Ease::InBounce => one.sub(bounce_out(u)),
        Ease::OutBounce => bounce_out(t),
        Ease::InOutBounce => {
            if lower {
                one.sub(bounce_out(one.sub(two.mul(t)))).mul(half)
            } else {
                one.add(bounce_out(two.mul(t).sub(one))).mul(half)
            }
        }
        Ease::Bezier(b) => b.y_at(t),
    }
}

/// `√(1 - x²)` computed as `√((1 - x)(1 + x))`.
fn one_minus_sq_sqrt<S: Scalar>(x: S) -> S {
    S::ONE.sub(x).mul(S::ONE.add(x)).sqrt()
}

/// Penner's overshoot constant 1.70158.
fn back_c1<S: Scalar>() -> S {
    S::from_ratio(170_158, 100_000)
}

/// `(c + 1)·x³ - c·x²` = `x²·((c + 1)·x - c)`.
fn back_in<S: Scalar>(x: S, c: S) -> S {
    x.mul(x).mul(c.add(S::ONE).mul(x).sub(c))
}

/// `-2^(10x - 10) · sin((10x - 10.75)·2π/3)`.
fn elastic_in<S: Scalar>(x: S) -> S {
    let ten = S::from_i32(10);
    let a = ten.mul(x).sub(ten).exp2();
    // (10x - 10.75)·2π/3, with 2π/3 rounded once.
    let c4 = S::TAU.div(S::from_i32(3));
    let s = ten.mul(x).sub(S::from_ratio(43, 4)).mul(c4).sin();
    a.mul(s).neg()
}

/// Penner's OutBounce.
fn bounce_out<S: Scalar>(x: S) -> S {
    let n1 = S::from_ratio(121, 16); // 7.5625
    let d = |num: i32, den: i32| S::from_ratio(num, den);
    // Breakpoints 1/2.75, 2/2.75, 2.5/2.75 and offsets 1.5/2.75, 2.25/2.75, 2.625/2.75.
    if x < d(4, 11) {
        n1.mul(x).mul(x)
    } else if x < d(8, 11) {
        let y = x.sub(d(6, 11));
        n1.mul(y).mul(y).add(d(3, 4))
    } else if x < d(10, 11) {
        let y = x.sub(d(9, 11));
        n1.mul(y).mul(y).add(d(15, 16))
    } else {
        let y = x.sub(d(21, 22));
        n1.mul(y).mul(y).add(d(63, 64))
    }
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
        ] {
            assert_eq!(Ease::<f32>::parse(bad), Err(UnknownEase), "{bad:?}");
        }
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
