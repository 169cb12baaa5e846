//! Accuracy of the transcendental functions of [`Scalar`] against `f64`, over their whole domain.
//!
//! Q16.16 functions are sampled densely: every input in the ranges where the functions are most used
//! (`[-4π, 4π]` for `sin`/`cos`, `[-1, 1]` exhaustively for `acos`/`asin`, `[-2, 2]` for `exp2`,
//! `[0, 16]` for `sqrt`), the whole `i32` input range with a prime stride, windows around the points
//! where the implementation switches branches (multiples of π/2, octants of `atan2`, rounding
//! boundaries of `sqrt`, integer exponents of `exp2`) and the edge bits `i32::MIN`/`i32::MAX`.
//! Errors are in units of one Q16.16 step (`2^-16`); the bounds asserted here are the ones documented
//! in `kernel/src/scalar/q16.rs` and `kernel/src/scalar/f32m.rs`.
//!
//! Every call goes through the trait: `I16F16` has inherent methods of the same names that panic.
//!
//! Run with `-- --nocapture` to see the measured maxima.

use ossicle::scalar::q16::PI_BITS;
use ossicle::scalar::{Scalar, Q16};

const STEPS_PER_UNIT: f64 = 65536.0;

fn q(bits: i32) -> Q16 {
    <Q16 as Scalar>::from_q16_bits(bits)
}

fn val(bits: i32) -> f64 {
    f64::from(bits) / STEPS_PER_UNIT
}

/// Small deterministic generator (SplitMix64), so the tests need no dependency and are reproducible.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn next_i32(&mut self) -> i32 {
        (self.next_u64() >> 32) as u32 as i32
    }
    /// A random `i32` with a random magnitude (log-uniform number of significant bits).
    fn spread_i32(&mut self) -> i32 {
        let v = self.next_i32();
        let shift = (self.next_u64() % 32) as u32;
        v >> shift
    }
    /// Uniform in `[lo, hi]`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }
}

/// The largest error seen and where.
#[derive(Debug, Clone, Copy)]
struct Worst {
    err: f64,
    at: (i64, i64),
}

impl Worst {
    fn new() -> Self {
        Worst { err: 0.0, at: (0, 0) }
    }
    fn see(&mut self, err: f64, at: (i64, i64)) {
        assert!(!err.is_nan(), "NaN error at {at:?}");
        if err > self.err {
            self.err = err;
            self.at = at;
        }
    }
}

/// Error of a Q16.16 result in steps of `2^-16`.
fn steps(got: Q16, reference: f64) -> f64 {
    (f64::from(Scalar::to_q16_bits(got)) - reference * STEPS_PER_UNIT).abs()
}

/// Every input of the whole `i32` range with a prime stride, plus the edges.
fn whole_range(stride: usize) -> impl Iterator<Item = i32> {
    (i32::MIN..=i32::MAX).step_by(stride).chain([i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX - 1, i32::MAX])
}

/// Windows of `±half` steps around `center` (saturating at the `i32` edges).
fn window(center: i64, half: i64) -> impl Iterator<Item = i32> {
    (center - half..=center + half).filter_map(|v| i32::try_from(v).ok())
}

fn report(name: &str, w: Worst) {
    println!(
        "{name:<24} max error {:.6} steps of 2^-16 (= 2^{:.2}) at {:?}",
        w.err,
        (w.err / STEPS_PER_UNIT).log2(),
        w.at
    );
}

// ---------------------------------------------------------------------------------------------
// Q16.16
// ---------------------------------------------------------------------------------------------

/// Documented bound of `q16::sin`/`cos`/`sin_cos` (steps of `2^-16`).
const Q16_SIN_COS_BOUND: f64 = 0.5005;
/// Documented bound of `q16::atan2`.
const Q16_ATAN2_BOUND: f64 = 0.5005;
/// Documented bound of `q16::asin`/`acos`.
const Q16_ASIN_ACOS_BOUND: f64 = 0.5005;
/// Documented bound of `q16::exp2`: this many steps of `2^-16`...
const Q16_EXP2_BOUND: f64 = 0.5005;
/// ...plus this fraction of the result (the Q31 polynomial's own relative error).
const Q16_EXP2_REL_BOUND: f64 = 1.0 / (1u64 << 38) as f64;

fn check_sin_cos(x: i32, ws: &mut Worst, wc: &mut Worst) {
    let a = q(x);
    let s = <Q16 as Scalar>::sin(a);
    let c = <Q16 as Scalar>::cos(a);
    assert_eq!(<Q16 as Scalar>::sin_cos(a), (s, c), "sin_cos({x}) differs");
    let r = val(x);
    ws.see(steps(s, r.sin()), (i64::from(x), 0));
    wc.see(steps(c, r.cos()), (i64::from(x), 0));
}

#[test]
fn q16_sin_cos() {
    let (mut ws, mut wc) = (Worst::new(), Worst::new());
    // Every input in [-4π, 4π].
    let four_pi = (4.0 * std::f64::consts::PI * STEPS_PER_UNIT) as i32 + 1;
    for x in -four_pi..=four_pi {
        check_sin_cos(x, &mut ws, &mut wc);
    }
    // The whole range.
    for x in whole_range(8191) {
        check_sin_cos(x, &mut ws, &mut wc);
    }
    // Around multiples of π/2, small and up to the largest angles.
    let half_pi = std::f64::consts::FRAC_PI_2 * STEPS_PER_UNIT;
    let max_k = (32768.0 * STEPS_PER_UNIT / half_pi) as i64;
    let ks = (-64..=64).chain((max_k - 64..=max_k).flat_map(|k| [k, -k]));
    for k in ks.chain((1..=max_k).step_by(997)) {
        for x in window((k as f64 * half_pi).round() as i64, 48) {
            check_sin_cos(x, &mut ws, &mut wc);
        }
    }
    // Large angles, 10000..32767 rad, both signs: random dense windows.
    let mut rng = Rng(1);
    for _ in 0..1500 {
        let center = rng.range(10_000 << 16, (32_768 << 16) - 1);
        for x in window(center, 32) {
            check_sin_cos(x, &mut ws, &mut wc);
            check_sin_cos(x.saturating_neg(), &mut ws, &mut wc);
        }
    }
    // Exact values.
    assert_eq!(<Q16 as Scalar>::sin(<Q16 as Scalar>::ZERO), <Q16 as Scalar>::ZERO);
    assert_eq!(<Q16 as Scalar>::cos(<Q16 as Scalar>::ZERO), <Q16 as Scalar>::ONE);
    assert_eq!(<Q16 as Scalar>::sin(<Q16 as Scalar>::FRAC_PI_2), <Q16 as Scalar>::ONE);
    assert_eq!(<Q16 as Scalar>::cos(<Q16 as Scalar>::PI), <Q16 as Scalar>::NEG_ONE);
    report("q16 sin", ws);
    report("q16 cos", wc);
    assert!(ws.err <= Q16_SIN_COS_BOUND, "sin: {ws:?}");
    assert!(wc.err <= Q16_SIN_COS_BOUND, "cos: {wc:?}");
}

fn check_atan2(y: i32, x: i32, w: &mut Worst) {
    let got = <Q16 as Scalar>::atan2(q(y), q(x));
    let reference = if x == 0 && y == 0 { 0.0 } else { f64::from(y).atan2(f64::from(x)) };
    w.see(steps(got, reference), (i64::from(y), i64::from(x)));
    // The range is (-π, π] (-PI_BITS is -3.1415863 > -π: the rounded result next to the negative
    // x axis), and the positive x axis gives π.
    let b = Scalar::to_q16_bits(got);
    assert!((-PI_BITS..=PI_BITS).contains(&b), "atan2({y}, {x}) = {b}");
    if y == 0 && x < 0 {
        assert_eq!(b, PI_BITS, "atan2(0, {x})");
    }
}

#[test]
fn q16_atan2() {
    let mut w = Worst::new();
    let edges =
        [0, 1, -1, 2, -2, 3, 65536, -65536, 123_456_789, -987_654_321, i32::MAX, i32::MAX - 1, i32::MIN, i32::MIN + 1];
    for &y in &edges {
        for &x in &edges {
            check_atan2(y, x, &mut w);
        }
    }
    // Every pair of small values.
    for y in -100..=100 {
        for x in -100..=100 {
            check_atan2(y, x, &mut w);
        }
    }
    // Dense circles of many radii: every octant, and both sides of every branch point.
    for &radius in &[5.0, 100.0, 1000.0, 65536.0, 1e6, 3e7, 1e9, 2_147_483_000.0] {
        for i in 0..20_000 {
            let t = f64::from(i) / 20_000.0 * std::f64::consts::TAU;
            let (s, c) = t.sin_cos();
            check_atan2((radius * s).round() as i32, (radius * c).round() as i32, &mut w);
        }
    }
    // Random pairs of every magnitude.
    let mut rng = Rng(2);
    for _ in 0..300_000 {
        let (y, x) = (rng.spread_i32(), rng.spread_i32());
        check_atan2(y, x, &mut w);
    }
    assert_eq!(<Q16 as Scalar>::atan2(<Q16 as Scalar>::ZERO, <Q16 as Scalar>::ZERO), <Q16 as Scalar>::ZERO);
    assert_eq!(<Q16 as Scalar>::atan2(<Q16 as Scalar>::ZERO, <Q16 as Scalar>::NEG_ONE), <Q16 as Scalar>::PI);
    assert_eq!(<Q16 as Scalar>::atan2(<Q16 as Scalar>::ONE, <Q16 as Scalar>::ZERO), <Q16 as Scalar>::FRAC_PI_2);
    report("q16 atan2", w);
    assert!(w.err <= Q16_ATAN2_BOUND, "atan2: {w:?}");
}

#[test]
fn q16_asin_acos() {
    let (mut ws, mut wc) = (Worst::new(), Worst::new());
    // Every input in [-1, 1].
    // Separately: within 2^-8 of ±1, where asin/acos are steepest.
    let (mut ws_edge, mut wc_edge) = (Worst::new(), Worst::new());
    for x in -65536..=65536 {
        let r = val(x);
        let s = <Q16 as Scalar>::asin(q(x));
        let c = <Q16 as Scalar>::acos(q(x));
        let (es, ec) = (steps(s, r.asin()), steps(c, r.acos()));
        ws.see(es, (i64::from(x), 0));
        wc.see(ec, (i64::from(x), 0));
        if x.abs() >= 65536 - 256 {
            ws_edge.see(es, (i64::from(x), 0));
            wc_edge.see(ec, (i64::from(x), 0));
        }
    }
    report("q16 asin near ±1", ws_edge);
    report("q16 acos near ±1", wc_edge);
    // Outside, the argument is clamped.
    let (s1, c1) = (<Q16 as Scalar>::asin(<Q16 as Scalar>::ONE), <Q16 as Scalar>::acos(<Q16 as Scalar>::ONE));
    let (sm1, cm1) = (<Q16 as Scalar>::asin(<Q16 as Scalar>::NEG_ONE), <Q16 as Scalar>::acos(<Q16 as Scalar>::NEG_ONE));
    assert_eq!((s1, c1), (<Q16 as Scalar>::FRAC_PI_2, <Q16 as Scalar>::ZERO));
    assert_eq!((sm1, cm1), (Scalar::neg(<Q16 as Scalar>::FRAC_PI_2), <Q16 as Scalar>::PI));
    for x in whole_range(65_521) {
        if x > 65536 {
            assert_eq!(<Q16 as Scalar>::asin(q(x)), s1);
            assert_eq!(<Q16 as Scalar>::acos(q(x)), c1);
        } else if x < -65536 {
            assert_eq!(<Q16 as Scalar>::asin(q(x)), sm1);
            assert_eq!(<Q16 as Scalar>::acos(q(x)), cm1);
        }
    }
    report("q16 asin", ws);
    report("q16 acos", wc);
    assert!(ws.err <= Q16_ASIN_ACOS_BOUND, "asin: {ws:?}");
    assert!(wc.err <= Q16_ASIN_ACOS_BOUND, "acos: {wc:?}");
}

/// Records the absolute error in steps, and the excess over half a step relative to the result.
fn check_exp2(x: i32, w: &mut Worst, wrel: &mut Worst) {
    let got = <Q16 as Scalar>::exp2(q(x));
    let r = val(x).exp2();
    let ref_steps = r * STEPS_PER_UNIT;
    if ref_steps >= f64::from(i32::MAX) + 0.5 {
        assert_eq!(got, <Q16 as Scalar>::MAX, "exp2({x}) should saturate");
        return;
    }
    let err = steps(got, r);
    w.see(err, (i64::from(x), 0));
    if ref_steps > 0.0 {
        wrel.see((err - 0.5).max(0.0) / ref_steps, (i64::from(x), 0));
    }
    assert!(err <= Q16_EXP2_BOUND + Q16_EXP2_REL_BOUND * ref_steps, "exp2({x}): {err} steps");
}

#[test]
fn q16_exp2() {
    let (mut w, mut wrel) = (Worst::new(), Worst::new());
    // Every input in [-2, 2].
    for x in -(2 << 16)..=(2 << 16) {
        check_exp2(x, &mut w, &mut wrel);
    }
    // Every input right below the saturation point and around every integer exponent.
    for x in (15 << 16) - 4096..(15 << 16) {
        check_exp2(x, &mut w, &mut wrel);
    }
    for n in -20..=15 {
        for x in window(n << 16, 64) {
            check_exp2(x, &mut w, &mut wrel);
        }
    }
    // The whole range where the result is neither 0 nor saturated, by stride, and all the rest.
    for x in (-(18 << 16)..(15 << 16)).step_by(7) {
        check_exp2(x, &mut w, &mut wrel);
    }
    for x in whole_range(65_521) {
        check_exp2(x, &mut w, &mut wrel);
    }
    assert_eq!(<Q16 as Scalar>::exp2(<Q16 as Scalar>::ZERO), <Q16 as Scalar>::ONE);
    assert_eq!(<Q16 as Scalar>::exp2(<Q16 as Scalar>::ONE), <Q16 as Scalar>::TWO);
    assert_eq!(<Q16 as Scalar>::exp2(<Q16 as Scalar>::NEG_ONE), <Q16 as Scalar>::HALF);
    assert_eq!(<Q16 as Scalar>::exp2(q(15 << 16)), <Q16 as Scalar>::MAX);
    assert_eq!(<Q16 as Scalar>::exp2(<Q16 as Scalar>::MAX), <Q16 as Scalar>::MAX);
    assert_eq!(<Q16 as Scalar>::exp2(<Q16 as Scalar>::MIN), <Q16 as Scalar>::ZERO);
    assert_eq!(<Q16 as Scalar>::exp2(q(-18 << 16)), <Q16 as Scalar>::ZERO);
    report("q16 exp2", w);
    println!(
        "q16 exp2 excess over half a step, relative to the result: max {:e} = 2^{:.2} at {:?}",
        wrel.err,
        wrel.err.log2(),
        wrel.at
    );
}

/// Whether `r` is `√n` rounded to nearest, exactly (in `u128`): `(2r − 1)² <= 4n <= (2r + 1)²`.
fn is_rounded_sqrt(n: u128, r: i32) -> bool {
    let Ok(r) = u128::try_from(r) else {
        return false;
    };
    let lo = (2 * r).saturating_sub(1);
    lo * lo <= 4 * n && 4 * n <= (2 * r + 1) * (2 * r + 1)
}

fn check_sqrt(x: i32, w: &mut Worst, wrel: &mut Worst) {
    let got = <Q16 as Scalar>::sqrt(q(x));
    if x < 0 {
        assert_eq!(got, <Q16 as Scalar>::ZERO, "sqrt({x})");
        return;
    }
    let bits = Scalar::to_q16_bits(got);
    assert!(is_rounded_sqrt(u128::from(x as u32) << 16, bits), "sqrt({x}) = {bits} is not correctly rounded");
    let r = val(x).sqrt();
    let err = steps(got, r);
    w.see(err, (i64::from(x), 0));
    // The stated bound: 2^-15 relative, or half a step absolute (results below 2^-2 cannot be within
    // 2^-15 relative once rounded to a multiple of 2^-16).
    let rel = if r > 0.0 { err / (r * STEPS_PER_UNIT) } else { 0.0 };
    assert!(rel <= 1.0 / 32768.0 || err <= 0.5, "sqrt({x}): {err}");
    if r >= 0.25 {
        wrel.see(rel, (i64::from(x), 0));
    }
}

#[test]
fn q16_sqrt() {
    let (mut w, mut wrel) = (Worst::new(), Worst::new());
    for x in 0..=(16 << 16) {
        check_sqrt(x, &mut w, &mut wrel);
    }
    for x in whole_range(997) {
        check_sqrt(x, &mut w, &mut wrel);
    }
    // Around the rounding boundaries: x·2^16 close to (r + 1/2)².
    let mut rng = Rng(3);
    for _ in 0..20_000 {
        let r = rng.range(0, 11_863_283); // √(2^47)
        let boundary = ((2 * r + 1) * (2 * r + 1) / 4) >> 16;
        for x in window(boundary, 2) {
            check_sqrt(x, &mut w, &mut wrel);
        }
    }
    report("q16 sqrt", w);
    println!("q16 sqrt relative (r >= 1/4): max {:e} = 2^{:.2}", wrel.err, wrel.err.log2());
    assert!(w.err <= 0.5 + 1e-9, "sqrt: {w:?}");
    assert!(wrel.err <= 1.0 / 32768.0, "sqrt relative: {wrel:?}");
}

#[test]
fn q16_hypot() {
    let mut w = Worst::new();
    let mut rng = Rng(4);
    let mut check = |v: &[i32]| {
        let a = q(v[0]);
        let b = q(v[1]);
        let got = match v.len() {
            2 => <Q16 as Scalar>::hypot(a, b),
            3 => <Q16 as Scalar>::hypot3(a, b, q(v[2])),
            _ => <Q16 as Scalar>::hypot4(a, b, q(v[2]), q(v[3])),
        };
        let sum: u128 = v.iter().map(|&c| u128::from(c.unsigned_abs()) * u128::from(c.unsigned_abs())).sum();
        let bits = Scalar::to_q16_bits(got);
        let exact_root = (sum as f64).sqrt();
        if exact_root >= f64::from(i32::MAX) + 0.5 {
            assert_eq!(got, <Q16 as Scalar>::MAX, "hypot{v:?} should saturate");
        } else {
            // The squares are Q32.32: the root of their sum is directly in Q16.16 bits.
            assert!(is_rounded_sqrt(sum, bits), "hypot{v:?} = {bits} not correctly rounded");
            w.see((f64::from(bits) - exact_root).abs(), (i64::from(v[0]), i64::from(v[1])));
        }
    };
    for _ in 0..100_000 {
        let v = [rng.spread_i32(), rng.spread_i32(), rng.spread_i32(), rng.spread_i32()];
        check(&v[..2]);
        check(&v[..3]);
        check(&v);
    }
    for &e in &[0, 1, -1, 65536, i32::MAX, i32::MIN] {
        for &f in &[0, 1, -1, 65536, i32::MAX, i32::MIN] {
            check(&[e, f]);
            check(&[e, f, e]);
            check(&[e, f, e, f]);
        }
    }
    assert_eq!(<Q16 as Scalar>::hypot(q(3 << 16), q(-4 << 16)), q(5 << 16));
    assert_eq!(
        <Q16 as Scalar>::hypot4(<Q16 as Scalar>::MIN, <Q16 as Scalar>::MIN, <Q16 as Scalar>::MIN, <Q16 as Scalar>::MIN),
        <Q16 as Scalar>::MAX
    );
    report("q16 hypot", w);
    assert!(w.err <= 0.5 + 1e-6, "hypot: {w:?}");
}

// ---------------------------------------------------------------------------------------------
// f32
// ---------------------------------------------------------------------------------------------

/// Error of an `f32` result in units in the last place of the (f32-rounded) reference.
fn ulps(got: f32, reference: f64) -> f64 {
    let r = reference as f32;
    let exp = if r == 0.0 || !r.is_normal() {
        -149 // subnormal spacing
    } else {
        ((r.to_bits() >> 23) & 0xFF) as i32 - 127 - 23
    };
    (f64::from(got) - reference).abs() / 2f64.powi(exp)
}

/// `f32` inputs: a dense uniform grid of `[lo, hi]` plus random values in it.
fn f32_inputs(lo: f32, hi: f32, n: u32, seed: u64) -> impl Iterator<Item = f32> {
    let mut rng = Rng(seed);
    let grid = (0..=n).map(move |i| lo + (hi - lo) * (i as f32 / n as f32));
    let random = (0..n).map(move |_| {
        let t = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * t
    });
    grid.chain(random)
}

/// Maximum errors of the f32 functions: (absolute, ulps) over a domain.
#[derive(Debug, Default)]
struct F32Worst {
    abs: f64,
    rel: f64,
    ulps: f64,
    at: f32,
    at2: f32,
}

impl F32Worst {
    fn see(&mut self, got: f32, reference: f64, at: f32, at2: f32) {
        assert!(!got.is_nan(), "NaN at ({at}, {at2})");
        let abs = (f64::from(got) - reference).abs();
        let u = ulps(got, reference);
        if u > self.ulps {
            self.ulps = u;
            self.at = at;
            self.at2 = at2;
        }
        self.abs = self.abs.max(abs);
        if reference != 0.0 {
            self.rel = self.rel.max(abs / reference.abs());
        }
    }
    fn report(&self, name: &str) {
        println!(
            "f32 {name:<22} abs {:.3e} rel {:.3e} ulps {:.3} (worst ulps at {}, {})",
            self.abs, self.rel, self.ulps, self.at, self.at2
        );
    }
}

struct F32Errors {
    sin: F32Worst,
    cos: F32Worst,
    sin_large: F32Worst,
    cos_large: F32Worst,
    atan2: F32Worst,
    asin: F32Worst,
    acos: F32Worst,
    sqrt: F32Worst,
    exp2: F32Worst,
    hypot: F32Worst,
    hypot4: F32Worst,
}

fn measure_f32() -> F32Errors {
    let mut e = F32Errors {
        sin: F32Worst::default(),
        cos: F32Worst::default(),
        sin_large: F32Worst::default(),
        cos_large: F32Worst::default(),
        atan2: F32Worst::default(),
        asin: F32Worst::default(),
        acos: F32Worst::default(),
        sqrt: F32Worst::default(),
        exp2: F32Worst::default(),
        hypot: F32Worst::default(),
        hypot4: F32Worst::default(),
    };
    let tau = std::f32::consts::TAU;
    for x in f32_inputs(-16.0 * tau, 16.0 * tau, 200_000, 10) {
        let r = f64::from(x);
        let (s, c) = <f32 as Scalar>::sin_cos(x);
        assert_eq!(s.to_bits(), <f32 as Scalar>::sin(x).to_bits(), "sin_cos({x})");
        assert_eq!(c.to_bits(), <f32 as Scalar>::cos(x).to_bits(), "sin_cos({x})");
        e.sin.see(s, r.sin(), x, 0.0);
        e.cos.see(c, r.cos(), x, 0.0);
    }
    for x in f32_inputs(-32768.0, 32768.0, 100_000, 11) {
        let r = f64::from(x);
        e.sin_large.see(<f32 as Scalar>::sin(x), r.sin(), x, 0.0);
        e.cos_large.see(<f32 as Scalar>::cos(x), r.cos(), x, 0.0);
    }
    let mut rng = Rng(12);
    for i in 0..200_000 {
        // Points on circles of radius 2^-10 .. 2^10 (dense angles), then random pairs.
        let (y, x) = if i < 100_000 {
            let t = f64::from(i % 10_000) / 10_000.0 * std::f64::consts::TAU;
            let radius = 2f64.powi((i / 10_000) * 2 - 10);
            ((radius * t.sin()) as f32, (radius * t.cos()) as f32)
        } else {
            let m = |r: &mut Rng| (r.next_i32() as f32 / 2e9) * 2f32.powi((r.next_u64() % 20) as i32 - 10);
            (m(&mut rng), m(&mut rng))
        };
        e.atan2.see(<f32 as Scalar>::atan2(y, x), f64::from(y).atan2(f64::from(x)), y, x);
    }
    for x in f32_inputs(-1.0, 1.0, 200_000, 13).chain([-1.0, 1.0, 0.0]) {
        let r = f64::from(x);
        e.asin.see(<f32 as Scalar>::asin(x), r.asin(), x, 0.0);
        e.acos.see(<f32 as Scalar>::acos(x), r.acos(), x, 0.0);
    }
    for x in f32_inputs(0.0, 4.0, 100_000, 14).chain(f32_inputs(0.0, 32768.0, 100_000, 15)) {
        e.sqrt.see(<f32 as Scalar>::sqrt(x), f64::from(x).sqrt(), x, 0.0);
    }
    for x in f32_inputs(-20.0, 20.0, 200_000, 16) {
        e.exp2.see(<f32 as Scalar>::exp2(x), f64::from(x).exp2(), x, 0.0);
    }
    let mut rng = Rng(17);
    let mut m = || (rng.next_i32() as f32 / 2e9) * 2f32.powi((rng.next_u64() % 40) as i32 - 20);
    for _ in 0..100_000 {
        let (a, b, c, d) = (m(), m(), m(), m());
        let (a64, b64, c64, d64) = (f64::from(a), f64::from(b), f64::from(c), f64::from(d));
        e.hypot.see(<f32 as Scalar>::hypot(a, b), a64.hypot(b64), a, b);
        let r4 = (a64 * a64 + b64 * b64 + c64 * c64 + d64 * d64).sqrt();
        e.hypot4.see(<f32 as Scalar>::hypot4(a, b, c, d), r4, a, b);
    }
    e.sin.report("sin [-32π, 32π]");
    e.cos.report("cos [-32π, 32π]");
    e.sin_large.report("sin [-32768, 32768]");
    e.cos_large.report("cos [-32768, 32768]");
    e.atan2.report("atan2");
    e.asin.report("asin");
    e.acos.report("acos");
    e.sqrt.report("sqrt [0, 32768]");
    e.exp2.report("exp2 [-20, 20]");
    e.hypot.report("hypot");
    e.hypot4.report("hypot4");
    e
}

#[cfg(not(feature = "fast-math"))]
#[test]
fn f32_libm() {
    let e = measure_f32();
    // libm (musl): sqrt correctly rounded, sin/cos/asin/acos/exp2 within 1 ulp, atan2 within 2 ulps
    // (measured: 0.500, 0.501, 0.70, 0.89, 0.501 and 1.30 ulp; see f32m.rs); hypot 0.83 ulp and the
    // chained hypot4 1.41 ulp.
    for (name, w, bound) in [
        ("sin", &e.sin, 1.0),
        ("cos", &e.cos, 1.0),
        ("sin large", &e.sin_large, 1.0),
        ("cos large", &e.cos_large, 1.0),
        ("atan2", &e.atan2, 2.0),
        ("asin", &e.asin, 1.0),
        ("acos", &e.acos, 1.0),
        ("sqrt", &e.sqrt, 0.5),
        ("exp2", &e.exp2, 1.0),
        ("hypot", &e.hypot, 1.0),
        ("hypot4", &e.hypot4, 2.0),
    ] {
        assert!(w.ulps <= bound, "{name}: {w:?}");
    }
}

#[cfg(feature = "fast-math")]
#[test]
fn f32_micromath() {
    let e = measure_f32();
    // micromath: absolute errors for the angles, relative for sqrt and exp2 (see f32m.rs).
    for (name, got, bound) in [
        ("sin", e.sin.abs, 1.2e-3),
        ("cos", e.cos.abs, 1.2e-3),
        ("sin large", e.sin_large.abs, 5e-3),
        ("cos large", e.cos_large.abs, 5e-3),
        ("atan2", e.atan2.abs, 2.9e-3),
        ("asin", e.asin.abs, 1.9e-2),
        ("acos", e.acos.abs, 2.9e-2),
        ("exp2", e.exp2.rel, 2.4e-3),
        // sqrt and hypot are libm's in both configurations.
        ("sqrt (ulps)", e.sqrt.ulps, 0.5),
        ("hypot (ulps)", e.hypot.ulps, 1.0),
        ("hypot4 (ulps)", e.hypot4.ulps, 2.0),
    ] {
        assert!(got <= bound, "{name}: {got}");
    }
}
