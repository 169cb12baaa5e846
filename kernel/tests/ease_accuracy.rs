//! Accuracy of the easing curves against the published formulas, computed independently in `f64`.
//!
//! The reference functions below are the formulas of easings.net (Andrey Sitnik and Ivan Solovev's
//! cheat sheet of Robert Penner's equations), written out in `f64` with the constants as published
//! (`c1 = 1.70158`, `c2 = c1 · 1.525`, `c4 = 2π/3`, `c5 = 2π/4.5`, `n1 = 7.5625`, `d1 = 2.75`). The
//! kernel is never asked to compute an expected value: each kernel result is compared with the
//! reference evaluated at the exact `f64` value of the kernel's input (every Q16.16 and every `f32`
//! value converts exactly).
//!
//! Bounds (absolute): `f32` within `1e-6`, Q16.16 within `2^-12` (16 steps of `2^-16`); cubic Bézier
//! curves: `f32` within `1e-5`, Q16.16 within `2^-12` (see `CubicBezier::y_at` for why `f32` is
//! looser there).
//!
//! Inputs: in Q16.16 every value in `[0, 1]` (all 65537 of them, which contains the 4097 evenly
//! spaced points `i/4096` and every neighbourhood of the breakpoints); in `f32` the 65537 points
//! `i/65536`, 4097 more between them, windows of ±512 ulps and decades of offsets (`10^-1`..`10^-7`)
//! around every breakpoint (`0`, `1`, `1/2`, Bounce's `4/11`, `8/11`, `10/11` and their images in
//! InBounce and InOutBounce), and 300 000 pseudo-random values (uniform, and log-spread down to
//! `2^-30` from 0 and from 1): about 390 000 in all.
//!
//! Run with `-- --nocapture` to see the measured maxima per curve.

use std::f64::consts::PI;

use ossicle::ease::{ease, CubicBezier, Ease, NAMES};
use ossicle::{Scalar, Q16};

// -------------------------------------------------------------------------------------------------
// The reference: easings.net, in f64
// -------------------------------------------------------------------------------------------------

const C1: f64 = 1.70158;
const C2: f64 = C1 * 1.525;
const C3: f64 = C1 + 1.0;
const C4: f64 = (2.0 * PI) / 3.0;
const C5: f64 = (2.0 * PI) / 4.5;
const N1: f64 = 7.5625;
const D1: f64 = 2.75;

fn out_bounce(x: f64) -> f64 {
    if x < 1.0 / D1 {
        N1 * x * x
    } else if x < 2.0 / D1 {
        let x = x - 1.5 / D1;
        N1 * x * x + 0.75
    } else if x < 2.5 / D1 {
        let x = x - 2.25 / D1;
        N1 * x * x + 0.9375
    } else {
        let x = x - 2.625 / D1;
        N1 * x * x + 0.984375
    }
}

/// easings.net's formula for the curve of this canonical name, at `x` in `[0, 1]`.
fn reference(name: &str, x: f64) -> f64 {
    match name {
        "Linear" => x,
        "Step" => {
            if x >= 1.0 {
                1.0
            } else {
                0.0
            }
        }
        "InQuad" => x * x,
        "OutQuad" => 1.0 - (1.0 - x) * (1.0 - x),
        "InOutQuad" => {
            if x < 0.5 {
                2.0 * x * x
            } else {
                1.0 - (-2.0 * x + 2.0).powi(2) / 2.0
            }
        }
        "InCubic" => x * x * x,
        "OutCubic" => 1.0 - (1.0 - x).powi(3),
        "InOutCubic" => {
            if x < 0.5 {
                4.0 * x * x * x
            } else {
                1.0 - (-2.0 * x + 2.0).powi(3) / 2.0
            }
        }
        "InQuart" => x * x * x * x,
        "OutQuart" => 1.0 - (1.0 - x).powi(4),
        "InOutQuart" => {
            if x < 0.5 {
                8.0 * x * x * x * x
            } else {
                1.0 - (-2.0 * x + 2.0).powi(4) / 2.0
            }
        }
        "InQuint" => x * x * x * x * x,
        "OutQuint" => 1.0 - (1.0 - x).powi(5),
        "InOutQuint" => {
            if x < 0.5 {
                16.0 * x * x * x * x * x
            } else {
                1.0 - (-2.0 * x + 2.0).powi(5) / 2.0
            }
        }
        "InSine" => 1.0 - ((x * PI) / 2.0).cos(),
        "OutSine" => ((x * PI) / 2.0).sin(),
        "InOutSine" => -((PI * x).cos() - 1.0) / 2.0,
        "InExpo" => {
            if x == 0.0 {
                0.0
            } else {
                2f64.powf(10.0 * x - 10.0)
            }
        }
        "OutExpo" => {
            if x == 1.0 {
                1.0
            } else {
                1.0 - 2f64.powf(-10.0 * x)
            }
        }
        "InOutExpo" => {
            if x == 0.0 {
                0.0
            } else if x == 1.0 {
                1.0
            } else if x < 0.5 {
                2f64.powf(20.0 * x - 10.0) / 2.0
            } else {
                (2.0 - 2f64.powf(-20.0 * x + 10.0)) / 2.0
            }
        }
        "InCirc" => 1.0 - (1.0 - x.powi(2)).sqrt(),
        "OutCirc" => (1.0 - (x - 1.0).powi(2)).sqrt(),
        "InOutCirc" => {
            if x < 0.5 {
                (1.0 - (1.0 - (2.0 * x).powi(2)).sqrt()) / 2.0
            } else {
                ((1.0 - (-2.0 * x + 2.0).powi(2)).sqrt() + 1.0) / 2.0
            }
        }
        "InBack" => C3 * x * x * x - C1 * x * x,
        "OutBack" => 1.0 + C3 * (x - 1.0).powi(3) + C1 * (x - 1.0).powi(2),
        "InOutBack" => {
            if x < 0.5 {
                ((2.0 * x).powi(2) * ((C2 + 1.0) * 2.0 * x - C2)) / 2.0
            } else {
                ((2.0 * x - 2.0).powi(2) * ((C2 + 1.0) * (x * 2.0 - 2.0) + C2) + 2.0) / 2.0
            }
        }
        "InElastic" => {
            if x == 0.0 {
                0.0
            } else if x == 1.0 {
                1.0
            } else {
                -(2f64.powf(10.0 * x - 10.0)) * ((x * 10.0 - 10.75) * C4).sin()
            }
        }
        "OutElastic" => {
            if x == 0.0 {
                0.0
            } else if x == 1.0 {
                1.0
            } else {
                2f64.powf(-10.0 * x) * ((x * 10.0 - 0.75) * C4).sin() + 1.0
            }
        }
        "InOutElastic" => {
            if x == 0.0 {
                0.0
            } else if x == 1.0 {
                1.0
            } else if x < 0.5 {
                -(2f64.powf(20.0 * x - 10.0) * ((20.0 * x - 11.125) * C5).sin()) / 2.0
            } else {
                (2f64.powf(-20.0 * x + 10.0) * ((20.0 * x - 11.125) * C5).sin()) / 2.0 + 1.0
            }
        }
        "InBounce" => 1.0 - out_bounce(1.0 - x),
        "OutBounce" => out_bounce(x),
        "InOutBounce" => {
            if x < 0.5 {
                (1.0 - out_bounce(1.0 - 2.0 * x)) / 2.0
            } else {
                (1.0 + out_bounce(2.0 * x - 1.0)) / 2.0
            }
        }
        other => panic!("no reference formula for {other}"),
    }
}

/// The kernel's curve of a canonical name (through the kernel's own table, but not its arithmetic).
fn curve<S: Scalar>(name: &str) -> Ease<S> {
    let i = NAMES.iter().position(|n| *n == name).unwrap_or_else(|| panic!("{name} not in NAMES"));
    Ease::<S>::NAMED[i]
}

// -------------------------------------------------------------------------------------------------
// Inputs
// -------------------------------------------------------------------------------------------------

/// Small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)` with 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Where some curve switches formula (in `t`).
fn breakpoints() -> Vec<f64> {
    let mut v = vec![0.0, 1.0, 0.5];
    for b in [4.0 / 11.0, 8.0 / 11.0, 10.0 / 11.0] {
        // OutBounce at b, InBounce at 1 - b, InOutBounce at (1 - b)/2 and (1 + b)/2.
        v.extend([b, 1.0 - b, (1.0 - b) / 2.0, (1.0 + b) / 2.0]);
    }
    v
}

/// A scalar type under test, with the inputs that exercise it and its bounds.
trait Under: Scalar {
    const LABEL: &'static str;
    /// The bound for the named curves.
    const NAMED_BOUND: f64;
    /// The bound for cubic Bézier curves.
    const BEZIER_BOUND: f64;
    /// How far a Bézier curve with non-decreasing control values may go down between two inputs:
    /// rounding noise of one result (see [`bezier_is_total`]).
    const BEZIER_MONOTONE_SLACK: f64;
    /// The inputs in `[0, 1]` to compare at.
    fn inputs() -> Vec<Self>;
    /// Whether the curve goes through an approximate sine or power of two: only `f32` with the
    /// `fast-math` feature, where micromath's `sin`/`exp2` are within about 1e-3 (see
    /// `ossicle::scalar::f32m`), so Sine, Expo and Elastic inherit that error and lose monotonicity.
    fn approximate(_name: &str) -> bool {
        false
    }
    /// The bound for named curve `name`.
    fn bound(name: &str) -> f64 {
        if Self::approximate(name) {
            // micromath's sine is within 1.1e-3 and its exp2 within 2.4e-3 relative.
            2.5e-3
        } else {
            Self::NAMED_BOUND
        }
    }
}

impl Under for Q16 {
    const LABEL: &'static str = "Q16.16";
    const NAMED_BOUND: f64 = 1.0 / 4096.0;
    const BEZIER_BOUND: f64 = 1.0 / 4096.0;
    const BEZIER_MONOTONE_SLACK: f64 = 0.0;
    fn inputs() -> Vec<Self> {
        // Every Q16.16 value in [0, 1].
        (0..=65536).map(<Q16 as Scalar>::from_q16_bits).collect()
    }
}

impl Under for f32 {
    const LABEL: &'static str = "f32";
    fn approximate(name: &str) -> bool {
        cfg!(feature = "fast-math") && ["Sine", "Expo", "Elastic"].iter().any(|f| name.contains(f))
    }
    const NAMED_BOUND: f64 = 1e-6;
    const BEZIER_BOUND: f64 = 1e-5;
    const BEZIER_MONOTONE_SLACK: f64 = f32::EPSILON as f64;
    fn inputs() -> Vec<Self> {
        let mut v: Vec<f32> = (0..=65536).map(|i| (f64::from(i) / 65536.0) as f32).collect();
        v.extend((0..4096).map(|i| ((f64::from(i) + 0.5) / 4096.0) as f32));
        for p in breakpoints() {
            let c = p as f32;
            // ±512 ulps.
            let mut up = c;
            let mut down = c;
            for _ in 0..512 {
                up = f32::from_bits(up.to_bits() + 1);
                down = if down > 0.0 { f32::from_bits(down.to_bits() - 1) } else { down };
                v.extend([up, down]);
            }
            v.push(c);
            for e in 1..=7 {
                for m in [1.0, 2.0, 5.0] {
                    let d = m * 10f64.powi(-e);
                    v.extend([(p + d) as f32, (p - d) as f32]);
                }
            }
        }
        let mut rng = Rng(0x0E45E);
        for _ in 0..100_000 {
            v.push(rng.unit() as f32);
            // Spread over magnitudes: near 0 and near 1.
            let tiny = 2f64.powf(-30.0 * rng.unit());
            v.extend([tiny as f32, (1.0 - tiny) as f32]);
        }
        v.retain(|t| (0.0..=1.0).contains(t));
        v
    }
}

/// The largest error seen and where.
#[derive(Clone, Copy, Debug)]
struct Worst {
    err: f64,
    at: f64,
    got: f64,
    want: f64,
}

impl Worst {
    fn new() -> Self {
        Worst { err: 0.0, at: 0.0, got: 0.0, want: 0.0 }
    }
    fn see(&mut self, at: f64, got: f64, want: f64) {
        let err = (got - want).abs();
        assert!(err.is_finite(), "non-finite result {got} (want {want}) at t = {at}");
        if err > self.err {
            *self = Worst { err, at, got, want };
        }
    }
}

fn report(label: &str, name: &str, w: &Worst, bound: f64) {
    println!(
        "{label:<7} {name:<14} max |error| {:.3e} (2^{:>7.2}, {:6.3} steps of 2^-16) at t = {:.9} (got {:.9}, want {:.9}); bound {bound:.3e}",
        w.err,
        w.err.log2(),
        w.err * 65536.0,
        w.at,
        w.got,
        w.want
    );
}

// -------------------------------------------------------------------------------------------------
// Named curves
// -------------------------------------------------------------------------------------------------

fn named_curves_match_easings_net<S: Under>() {
    let inputs = S::inputs();
    let mut failures = Vec::new();
    for name in NAMES {
        let c = curve::<S>(name);
        let mut w = Worst::new();
        for &t in &inputs {
            let x = t.to_f64();
            w.see(x, ease(c, t).to_f64(), reference(name, x));
        }
        report(S::LABEL, name, &w, S::bound(name));
        if w.err > S::bound(name) {
            failures.push((name, w));
        }
    }
    assert!(
        failures.is_empty(),
        "{} curves beyond their bound ({:e} unless approximate): {failures:?}",
        S::LABEL,
        S::NAMED_BOUND
    );
}

#[test]
fn named_curves_match_easings_net_f32() {
    named_curves_match_easings_net::<f32>();
}

#[test]
fn named_curves_match_easings_net_q16() {
    named_curves_match_easings_net::<Q16>();
}

// -------------------------------------------------------------------------------------------------
// Cubic Bézier curves
// -------------------------------------------------------------------------------------------------

/// `y` at `x = t` of the CSS curve through (0, 0), (x1, y1), (x2, y2), (1, 1), in `f64`: the
/// parameter `s` with `x(s) = t` found by bisection to `1e-15` (x(s) is non-decreasing for `x1`,
/// `x2` in `[0, 1]`), both coordinates evaluated in Bernstein form.
fn bezier_reference(x1: f64, y1: f64, x2: f64, y2: f64, t: f64) -> f64 {
    let bernstein = |p1: f64, p2: f64, s: f64| {
        let r = 1.0 - s;
        3.0 * r * r * s * p1 + 3.0 * r * s * s * p2 + s * s * s
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while hi - lo > 1e-15 {
        let mid = 0.5 * (lo + hi);
        if bernstein(x1, x2, mid) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    bernstein(y1, y2, 0.5 * (lo + hi))
}

/// CSS keywords, easings.net's CSS approximations and curves with steep or overshooting parts.
const BEZIERS: [(&str, [f64; 4]); 14] = [
    ("ease", [0.25, 0.1, 0.25, 1.0]),
    ("ease-in", [0.42, 0.0, 1.0, 1.0]),
    ("ease-out", [0.0, 0.0, 0.58, 1.0]),
    ("ease-in-out", [0.42, 0.0, 0.58, 1.0]),
    ("linear", [0.0, 0.0, 1.0, 1.0]),
    ("steep", [0.9, 0.0, 0.1, 1.0]),
    ("overshoot", [0.3, -0.5, 0.7, 1.5]),
    ("outBack", [0.34, 1.56, 0.64, 1.0]),
    ("inOutBack", [0.68, -0.6, 0.32, 1.6]),
    ("inExpo", [0.7, 0.0, 0.84, 0.0]),
    ("outExpo", [0.16, 1.0, 0.3, 1.0]),
    // Vertical tangents at an end: y grows like √x at 0 (outCirc) or like 1 - √(1 - x) at 1 (inCirc).
    ("outCirc", [0.0, 0.55, 0.45, 1.0]),
    ("inCirc", [0.55, 0.0, 1.0, 0.45]),
    ("flat-ends", [0.0, 1.0, 1.0, 0.0]),
];

fn bezier_matches_reference<S: Under>() {
    let inputs = S::inputs();
    let mut failures = Vec::new();
    for (name, [x1, y1, x2, y2]) in BEZIERS {
        let b = CubicBezier::new(S::from_f64(x1), S::from_f64(y1), S::from_f64(x2), S::from_f64(y2));
        // The curve as stored (control points rounded to S), exactly in f64.
        let (x1, y1, x2, y2) = (b.x1.to_f64(), b.y1.to_f64(), b.x2.to_f64(), b.y2.to_f64());
        let mut w = Worst::new();
        for &t in &inputs {
            let x = t.to_f64();
            w.see(x, ease(Ease::Bezier(b), t).to_f64(), bezier_reference(x1, y1, x2, y2, x));
        }
        report(S::LABEL, name, &w, S::BEZIER_BOUND);
        if w.err > S::BEZIER_BOUND {
            failures.push((name, w));
        }
    }
    assert!(failures.is_empty(), "{} Bézier curves beyond {:e}: {failures:?}", S::LABEL, S::BEZIER_BOUND);
}

#[test]
fn bezier_matches_an_f64_bisection_f32() {
    bezier_matches_reference::<f32>();
}

#[test]
fn bezier_matches_an_f64_bisection_q16() {
    bezier_matches_reference::<Q16>();
}

// -------------------------------------------------------------------------------------------------
// Shape: monotonicity, range, overshoot, exact ends
// -------------------------------------------------------------------------------------------------

/// The curves that never leave `[0, 1]` and never go down.
const MONOTONE: [&str; 23] = [
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
];

fn sorted_inputs<S: Under>() -> Vec<S> {
    let mut v = S::inputs();
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN among the inputs"));
    v.dedup();
    v
}

fn monotone_curves_never_go_down<S: Under>() {
    let inputs = sorted_inputs::<S>();
    for name in MONOTONE.into_iter().filter(|n| !S::approximate(n)) {
        let c = curve::<S>(name);
        let mut prev = S::ZERO;
        for &t in &inputs {
            let y = ease(c, t);
            assert!(y >= prev, "{} {name} goes down at t = {:?}: {:?} after {:?}", S::LABEL, t, y, prev);
            assert!(y <= S::ONE, "{} {name} above 1 at t = {t:?}: {y:?}", S::LABEL);
            prev = y;
        }
    }
}

#[test]
fn monotone_curves_never_go_down_f32() {
    monotone_curves_never_go_down::<f32>();
}

#[test]
fn monotone_curves_never_go_down_q16() {
    monotone_curves_never_go_down::<Q16>();
}

fn bounce_stays_in_range<S: Under>() {
    for name in ["InBounce", "OutBounce", "InOutBounce"] {
        let c = curve::<S>(name);
        for t in S::inputs() {
            let y = ease(c, t);
            assert!(y >= S::ZERO && y <= S::ONE, "{} {name} leaves [0, 1] at t = {t:?}: {y:?}", S::LABEL);
        }
    }
}

#[test]
fn bounce_stays_in_range_f32() {
    bounce_stays_in_range::<f32>();
}

#[test]
fn bounce_stays_in_range_q16() {
    bounce_stays_in_range::<Q16>();
}

/// Back and Elastic leave `[0, 1]`: In curves below 0, Out curves above 1, InOut both, by as much as
/// the published curves do.
fn back_and_elastic_overshoot<S: Under>() {
    // Hand-derived: x²((c + 1)x - c) has its minimum -4c³ / (27(c + 1)²) at x = 2c / (3(c + 1)).
    let back_min = |c: f64| -4.0 * c.powi(3) / (27.0 * (c + 1.0).powi(2));
    // The extremes of the published Elastic curves, from the reference at every input.
    let inputs = S::inputs();
    let extremes = |f: &dyn Fn(f64) -> f64| {
        inputs.iter().map(|t| f(t.to_f64())).fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)))
    };
    let cases: [(&str, Option<f64>, Option<f64>); 6] = [
        ("InBack", Some(back_min(C1)), None),
        ("OutBack", None, Some(1.0 - back_min(C1))),
        ("InOutBack", Some(back_min(C2) / 2.0), Some(1.0 - back_min(C2) / 2.0)),
        ("InElastic", Some(extremes(&|x| reference("InElastic", x)).0), None),
        ("OutElastic", None, Some(extremes(&|x| reference("OutElastic", x)).1)),
        (
            "InOutElastic",
            Some(extremes(&|x| reference("InOutElastic", x)).0),
            Some(extremes(&|x| reference("InOutElastic", x)).1),
        ),
    ];
    for (name, below, above) in cases {
        let c = curve::<S>(name);
        let (lo, hi) = inputs
            .iter()
            .map(|&t| ease(c, t).to_f64())
            .fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
        println!("{} {name:<13} range [{lo:.6}, {hi:.6}]", S::LABEL);
        match below {
            Some(m) => {
                assert!(m < -0.09, "{name}: published minimum {m}");
                assert!((lo - m).abs() <= S::bound(name), "{} {name}: minimum {lo}, published {m}", S::LABEL);
            }
            None => assert!(lo >= 0.0, "{} {name} goes below 0: {lo}", S::LABEL),
        }
        match above {
            Some(m) => {
                assert!(m > 1.09, "{name}: published maximum {m}");
                assert!((hi - m).abs() <= S::bound(name), "{} {name}: maximum {hi}, published {m}", S::LABEL);
            }
            None => assert!(hi <= 1.0, "{} {name} goes above 1: {hi}", S::LABEL),
        }
    }
}

#[test]
fn back_and_elastic_overshoot_f32() {
    back_and_elastic_overshoot::<f32>();
}

#[test]
fn back_and_elastic_overshoot_q16() {
    back_and_elastic_overshoot::<Q16>();
}

/// Every curve (the named ones and the Bézier curves above) is exactly 0 at and before 0 and exactly
/// 1 at and after 1.
fn ends_are_exact<S: Under>(outside: &[S], before: &[S]) {
    let beziers = BEZIERS.iter().map(|(_, [x1, y1, x2, y2])| {
        Ease::Bezier(CubicBezier::new(S::from_f64(*x1), S::from_f64(*y1), S::from_f64(*x2), S::from_f64(*y2)))
    });
    for c in Ease::<S>::NAMED.into_iter().chain(beziers) {
        assert_eq!(ease(c, S::ZERO), S::ZERO, "{} {c:?} at 0", S::LABEL);
        assert_eq!(ease(c, S::ONE), S::ONE, "{} {c:?} at 1", S::LABEL);
        for &t in before {
            assert_eq!(ease(c, t), S::ZERO, "{} {c:?} at {t:?}", S::LABEL);
        }
        for &t in outside {
            assert_eq!(ease(c, t), S::ONE, "{} {c:?} at {t:?}", S::LABEL);
        }
    }
}

#[test]
fn ends_are_exact_f32() {
    ends_are_exact::<f32>(
        &[1.0 + f32::EPSILON, 1.5, 1e30, f32::MAX, f32::INFINITY],
        &[-0.0, -1e-30, -0.5, f32::MIN, f32::NEG_INFINITY, f32::NAN],
    );
}

#[test]
fn ends_are_exact_q16() {
    let q = <Q16 as Scalar>::from_q16_bits;
    ends_are_exact::<Q16>(&[q(65537), q(1 << 20), q(i32::MAX)], &[q(-1), q(-(1 << 20)), q(i32::MIN)]);
}

/// Any control points: the solve terminates without overflow (the tests run with overflow checks),
/// the result is finite and inside the convex hull of the control values `0, y1, y2, 1` (plus the
/// bound), and where `0 <= y1 <= y2 <= 1` (so `y(s)` is non-decreasing) it never goes down as `t`
/// grows: not at all in Q16.16, by at most one ulp of 1 in `f32` (where the curve is flat, two
/// inputs a few ulps apart, such as the two sides of `1/2` where the `f32` solve switches to the
/// mirrored curve, can round the other way). Control points built without `CubicBezier::new`
/// (x outside `[0, 1]`) behave as clamped.
fn bezier_is_total<S: Under>() {
    let xs = [-3.0, 0.0, 1e-4, 0.1, 0.5, 0.9, 1.0 - 1e-4, 1.0, 7.0];
    let ys = [-30000.0, -2.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 3.0, 30000.0];
    let mut ts: Vec<S> = (0..=256).map(|i| S::from_f64(f64::from(i) / 256.0)).collect();
    ts.extend([S::EPSILON, S::ONE.sub(S::EPSILON), S::HALF.add(S::EPSILON), S::HALF.sub(S::EPSILON)]);
    ts.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    for &x1 in &xs {
        for &x2 in &xs {
            for &y1 in &ys {
                for &y2 in &ys {
                    let raw = CubicBezier {
                        x1: S::from_f64(x1),
                        y1: S::from_f64(y1),
                        x2: S::from_f64(x2),
                        y2: S::from_f64(y2),
                    };
                    let clamped = CubicBezier::new(raw.x1, raw.y1, raw.x2, raw.y2);
                    let (lo, hi) = (y1.min(y2).min(0.0), y1.max(y2).max(1.0));
                    let slack = S::BEZIER_BOUND * hi.abs().max(lo.abs());
                    let monotone = 0.0 <= y1 && y1 <= y2 && y2 <= 1.0;
                    let mut prev = S::ZERO;
                    for &t in &ts {
                        let y = raw.y_at(t);
                        assert_eq!(y, clamped.y_at(t), "{} {raw:?} at {t:?}: clamping differs", S::LABEL);
                        let v = y.to_f64();
                        assert!(
                            v.is_finite() && v >= lo - slack && v <= hi + slack,
                            "{} {raw:?} at {t:?}: {v} outside [{lo}, {hi}]",
                            S::LABEL
                        );
                        if monotone {
                            assert!(
                                y.to_f64() >= prev.to_f64() - S::BEZIER_MONOTONE_SLACK,
                                "{} {raw:?} goes down at {t:?}: {y:?} after {prev:?}",
                                S::LABEL
                            );
                        }
                        prev = y;
                    }
                }
            }
        }
    }
    // The curve whose dx/ds vanishes in the middle (y is a cube root of x there) still solves.
    let b = CubicBezier::new(S::ONE, S::ZERO, S::ZERO, S::ONE);
    let mid = b.y_at(S::HALF).to_f64();
    assert!((mid - 0.5).abs() <= S::BEZIER_BOUND, "{} (1, 0, 0, 1) at 1/2: {mid}", S::LABEL);
}

#[test]
fn bezier_is_total_f32() {
    bezier_is_total::<f32>();
}

#[test]
fn bezier_is_total_q16() {
    bezier_is_total::<Q16>();
}
