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
//! curves: `f32` within `1e-5`, Q16.16 within `2^-12` (see [`bezier_matches_an_f64_bisection`]).
//!
//! Inputs: in Q16.16 every value in `[0, 1]` (all 65537 of them, which contains the 4097 evenly
//! spaced points `i/4096` and every neighbourhood of the breakpoints); in `f32` the 65537 points
//! `i/65536`, 4097 more between them, windows of ±512 ulps and decades of offsets (`10^-1`..`10^-7`)
//! around every breakpoint (`0`, `1`, `1/2`, Bounce's `4/11`, `8/11`, `10/11` and their images in
//! InBounce and InOutBounce), and 200 000 pseudo-random values spread over all magnitudes.
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
    /// The inputs in `[0, 1]` to compare at.
    fn inputs() -> Vec<Self>;
}

impl Under for Q16 {
    const LABEL: &'static str = "Q16.16";
    const NAMED_BOUND: f64 = 1.0 / 4096.0;
    const BEZIER_BOUND: f64 = 1.0 / 4096.0;
    fn inputs() -> Vec<Self> {
        // Every Q16.16 value in [0, 1].
        (0..=65536).map(<Q16 as Scalar>::from_q16_bits).collect()
    }
}

impl Under for f32 {
    const LABEL: &'static str = "f32";
    const NAMED_BOUND: f64 = 1e-6;
    const BEZIER_BOUND: f64 = 1e-5;
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
        report(S::LABEL, name, &w, S::NAMED_BOUND);
        if w.err > S::NAMED_BOUND {
            failures.push((name, w));
        }
    }
    assert!(failures.is_empty(), "{} curves beyond {:e}: {failures:?}", S::LABEL, S::NAMED_BOUND);
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
const BEZIERS: [(&str, [f64; 4]); 11] = [
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
    for name in MONOTONE {
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
