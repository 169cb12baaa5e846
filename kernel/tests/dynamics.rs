//! Procedural dynamics against independent `f64` references, in `f32` and Q16.16.
//!
//! The references below are written from the published formulas, not from the kernel's code:
//! t3ssel8r's update with `k1`, `k2`, `k3`, `ẏ` and the `k2` clamp as in the video; the textbook
//! solution of the damped oscillator (`A·e^{s1 t} + B·e^{s2 t}`, `e^{-ζωt}(a·cos + b·sin)`,
//! `e^{-ωt}(a + b·t)`); the PD controller's acceleration integrated by semi-implicit Euler. The
//! kernel keeps its velocity as `ẏ/ω`, never forms `k1..k3` and evaluates the spring by series or
//! closed form; the references share none of that.
//!
//! Inputs (f, ζ, r, dt, targets) are first rounded to the scalar type, and the reference is run on
//! the rounded values, so the comparison measures the kernel's arithmetic, not the rounding of
//! 1/240 to Q16.16.
//!
//! Trajectory tolerances are relative to the peak |value| of the reference trajectory (targets
//! within ±1000, swings of up to 2000 that overshoot to about ±4700 undamped), over the grid
//! f 0.5/2/4/10 Hz × ζ 0/0.3/0.5/1/1.5/2 × r −2/−0.5/0/1/2 × dt 1/240, 1/60, 1/30, 1/15 s (PD only
//! below 0.9× its stability limit), 3 s each; measured worst cases in brackets:
//! - f32: 2e-6 damped [9.2e-7 spring, 6.3e-7 second-order and PD], 2e-5 undamped over 30
//!   periods [7.2e-6];
//! - Q16.16: 1e-4 damped [3.3e-5 spring, 2.0e-5 second-order, 5.9e-6 PD], 2e-4 undamped over 30
//!   periods [6.9e-5 second-order and PD, 5.7e-5 spring; mostly the phase drift from ω = 2πf
//!   carrying 2π's Q16.16 rounding, 5.4e-7 relative].

use ossicle::dynamics::{ChannelId, Dynamics, DynamicsError, Integrator, Params, INTEGRATOR_NAMES};
use ossicle::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::{Scalar, Q16};
use std::f64::consts::PI;

// ---------------------------------------------------------------------------------------------
// Helpers and references

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

/// `v` rounded to `S` and back.
fn qz<S: Scalar>(v: f64) -> f64 {
    S::from_f64(v).to_f64()
}

fn params<S: Scalar>(i: Integrator, f: f64, z: f64, r: f64) -> Params<S> {
    Params::new(i, s(f), s(z), s(r)).expect("valid parameters")
}

/// One channel at rest at `y0` with these parameters.
fn single<S: Scalar>(i: Integrator, f: f64, z: f64, r: f64, y0: f64) -> Dynamics<S, 1> {
    let mut d = Dynamics::new(params::<S>(i, f, z, r));
    d.add(0, s(y0)).expect("room for one channel");
    d
}

fn value<S: Scalar, const N: usize>(d: &Dynamics<S, N>, id: ChannelId) -> f64 {
    d.value(id).expect("channel exists").to_f64()
}

fn velocity<S: Scalar, const N: usize>(d: &Dynamics<S, N>, id: ChannelId) -> f64 {
    d.velocity(id).expect("channel exists").to_f64()
}

/// t3ssel8r's second-order dynamics in f64, exactly as published (position first, then velocity
/// with `k2_stable = max(k2, T²/2 + T·k1/2, T·k1)`), `ẋ` estimated from the target's change unless
/// given. Returns `y` after each update.
struct SecondOrderRef {
    k1: f64,
    k2: f64,
    k3: f64,
    y: f64,
    yd: f64,
    xp: f64,
    clamp: bool,
}

impl SecondOrderRef {
    fn new(f: f64, z: f64, r: f64, y0: f64) -> Self {
        let k1 = z / (PI * f);
        let k2 = 1.0 / ((2.0 * PI * f) * (2.0 * PI * f));
        let k3 = r * z / (2.0 * PI * f);
        Self { k1, k2, k3, y: y0, yd: 0.0, xp: y0, clamp: true }
    }

    fn update(&mut self, t: f64, x: f64, xd: Option<f64>) -> f64 {
        let xd = xd.unwrap_or((x - self.xp) / t);
        self.xp = x;
        let k2_stable =
            if self.clamp { self.k2.max(t * t / 2.0 + t * self.k1 / 2.0).max(t * self.k1) } else { self.k2 };
        self.y += t * self.yd;
        self.yd += t * (x + self.k3 * xd - self.y - self.k1 * self.yd) / k2_stable;
        self.y
    }
}

/// Unit-mass PD in f64: `ẏ += T·(Kp·(x − y) + Kd·(ẋ − ẏ))`, then `y += T·ẏ`.
struct PdRef {
    kp: f64,
    kd: f64,
    y: f64,
    yd: f64,
    xp: f64,
}

impl PdRef {
    fn new(f: f64, z: f64, y0: f64) -> Self {
        let w = 2.0 * PI * f;
        Self { kp: w * w, kd: 2.0 * z * w, y: y0, yd: 0.0, xp: y0 }
    }

    fn update(&mut self, t: f64, x: f64) -> f64 {
        let xd = (x - self.xp) / t;
        self.xp = x;
        self.yd += t * (self.kp * (x - self.y) + self.kd * (xd - self.yd));
        self.y += t * self.yd;
        self.y
    }
}

/// The exact solution of `ë = −ω²·e − 2ζω·ė` after `t` seconds from `(e0, ė0)`: `(e, ė)`.
fn oscillator(w: f64, z: f64, e0: f64, v0: f64, t: f64) -> (f64, f64) {
    if z < 1.0 {
        // e = e^{-ζωt}(a·cos ω_d t + b·sin ω_d t), ω_d = ω√(1 − ζ²)
        let wd = w * (1.0 - z * z).sqrt();
        let (a, b) = (e0, (v0 + z * w * e0) / wd);
        let ex = (-z * w * t).exp();
        let (sn, cs) = (wd * t).sin_cos();
        let e = ex * (a * cs + b * sn);
        (e, -z * w * e + ex * wd * (b * cs - a * sn))
    } else if z == 1.0 {
        // e = e^{-ωt}(e0 + (ė0 + ω·e0)·t)
        let ex = (-w * t).exp();
        let b = v0 + w * e0;
        (ex * (e0 + b * t), ex * (b - w * (e0 + b * t)))
    } else {
        // e = A·e^{s1 t} + B·e^{s2 t}, s1,2 = −ω(ζ ∓ √(ζ² − 1))
        let q = (z * z - 1.0).sqrt();
        let (s1, s2) = (-w * (z - q), -w * (z + q));
        let a = (v0 - s2 * e0) / (s1 - s2);
        let b = e0 - a;
        let (p1, p2) = ((s1 * t).exp(), (s2 * t).exp());
        (a * p1 + b * p2, a * s1 * p1 + b * s2 * p2)
    }
}

/// The target in the trajectory tests: a step from −1000 (the start) to 1000, a step to −500 at
/// 1 s, then from 2 s a sine between −900 and 500.
fn target_at(t: f64) -> f64 {
    if t < 1.0 {
        1000.0
    } else if t < 2.0 {
        -500.0
    } else {
        -200.0 + 700.0 * (3.0 * t).sin()
    }
}

/// Runs the kernel for `seconds` with the target of [`target_at`] and returns `y` after each update.
fn kernel_trajectory<S: Scalar>(i: Integrator, f: f64, z: f64, r: f64, dt: f64, seconds: f64) -> Vec<f64> {
    let mut d = single::<S>(i, f, z, r, -1000.0);
    let (dts, dtq) = (s::<S>(dt), qz::<S>(dt));
    (0..(seconds / dt) as usize)
        .map(|k| {
            d.set_target(0, s(target_at(k as f64 * dtq))).unwrap();
            d.update(dts);
            value(&d, 0)
        })
        .collect()
}

/// The same in f64 with the reference of integrator `i`, on the rounded inputs.
fn reference_trajectory<S: Scalar>(i: Integrator, f: f64, z: f64, r: f64, dt: f64, seconds: f64) -> Vec<f64> {
    let (f, z, r, t) = (qz::<S>(f), qz::<S>(z), qz::<S>(r), qz::<S>(dt));
    let n = (seconds / dt) as usize;
    let w = 2.0 * PI * f;
    let mut so = SecondOrderRef::new(f, z, r, -1000.0);
    let mut pd = PdRef::new(f, z, -1000.0);
    let (mut y, mut v) = (-1000.0, 0.0);
    (0..n)
        .map(|k| {
            let x = target_at(k as f64 * t);
            match i {
                Integrator::SecondOrder => so.update(t, x, None),
                Integrator::Pd => pd.update(t, x),
                Integrator::Spring => {
                    let (e, ev) = oscillator(w, z, y - x, v, t);
                    y = x + e;
                    v = ev;
                    y
                }
            }
        })
        .collect()
}

/// Largest `|kernel − reference| / peak |reference|` over the parameter grid of the issue
/// (f 0.5–10 Hz, ζ 0–2, r −2..2, dt 1/240–1/15 s), for damped (`ζ > 0`) or undamped runs.
fn worst_relative_error<S: Scalar>(i: Integrator, damped: bool) -> (f64, String) {
    let mut worst = (0.0, String::new());
    let dampings: &[f64] = if damped { &[0.3, 0.5, 1.0, 1.5, 2.0] } else { &[0.0] };
    for &f in &[0.5, 2.0, 4.0, 10.0] {
        for &z in dampings {
            for &r in &[-2.0, -0.5, 0.0, 1.0, 2.0] {
                for &dt in &[1.0 / 240.0, 1.0 / 60.0, 1.0 / 30.0, 1.0 / 15.0] {
                    if i == Integrator::Pd {
                        let p = params::<S>(i, f, z, r);
                        // Beyond the documented stability limit the reference diverges too.
                        if qz::<S>(dt) >= 0.9 * p.stable_dt_limit().unwrap().to_f64() {
                            continue;
                        }
                    }
                    let got = kernel_trajectory::<S>(i, f, z, r, dt, 3.0);
                    let want = reference_trajectory::<S>(i, f, z, r, dt, 3.0);
                    let peak = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                    let err = got.iter().zip(&want).fold(0.0f64, |m, (a, b)| m.max((a - b).abs())) / peak;
                    assert!(err.is_finite());
                    if err > worst.0 {
                        worst = (err, format!("{i} f {f} ζ {z} r {r} dt {dt}"));
                    }
                }
            }
        }
    }
    worst
}

fn check_against_reference<S: Scalar>(i: Integrator, damped_tol: f64, undamped_tol: f64) {
    let (err, at) = worst_relative_error::<S>(i, true);
    println!("{:?} damped: worst relative error {err:.2e} at {at}", S::ENCODING);
    assert!(err <= damped_tol, "damped: relative error {err:e} at {at}");
    let (err, at) = worst_relative_error::<S>(i, false);
    println!("{:?} undamped: worst relative error {err:.2e} at {at}", S::ENCODING);
    assert!(err <= undamped_tol, "undamped: relative error {err:e} at {at}");
}

// ---------------------------------------------------------------------------------------------
// Second-order system

#[test]
fn second_order_follows_the_published_discrete_scheme_f32() {
    check_against_reference::<f32>(Integrator::SecondOrder, 2e-6, 2e-5);
}

#[test]
fn second_order_follows_the_published_discrete_scheme_q16() {
    check_against_reference::<Q16>(Integrator::SecondOrder, 1e-4, 2e-4);
}

/// With a small step the discrete scheme approaches the continuous step response: the step of
/// the target is an impulse `k3·ẋ`, so `ẏ(0+) = A·k3/k2 = A·rζω`, then the oscillator settles at
/// `A`. Semi-implicit Euler is first order: the error stays below `h·A` (`h = ωT`; measured in
/// f64 up to 0.38·h·A at these parameters).
fn second_order_small_steps_approach_the_continuous_response<S: Scalar>() {
    let dt = 1.0 / 4096.0; // exact in f32 and Q16.16
    let amplitude = 100.0;
    for &(f, z, r) in &[(2.0, 0.3, 0.0), (2.0, 0.3, 1.0), (2.0, 1.0, -1.0), (2.0, 1.5, 2.0), (1.0, 0.5, -2.0)] {
        let w = 2.0 * PI * f;
        let mut d = single::<S>(Integrator::SecondOrder, f, z, r, 0.0);
        d.set_target(0, s(amplitude)).unwrap();
        let mut n = 0;
        for &t in &[0.05, 0.1, 0.25, 0.5, 1.0, 2.0] {
            while (n as f64) * dt < t - 1e-12 {
                d.update(s(dt));
                n += 1;
            }
            let (e, _) = oscillator(w, z, -amplitude, r * z * w * amplitude, t);
            let want = amplitude + e;
            let got = value(&d, 0);
            let tol = w * dt * amplitude;
            assert!((got - want).abs() <= tol, "f {f} ζ {z} r {r} t {t}: {got} vs {want} (tol {tol})");
        }
    }
}

#[test]
fn second_order_small_steps_approach_the_continuous_response_f32() {
    second_order_small_steps_approach_the_continuous_response::<f32>();
}

#[test]
fn second_order_small_steps_approach_the_continuous_response_q16() {
    second_order_small_steps_approach_the_continuous_response::<Q16>();
}

/// dt = 0.5 s at f = 10 Hz (ωT = 31.4, far beyond the unclamped limit `√(4k2 + k1²) − k1`): the
/// clamped scheme stays within the targets' range and settles, while the unclamped f64 scheme
/// explodes (so the clamp is what this test exercises).
fn second_order_is_stable_for_large_steps<S: Scalar>(tol: f64) {
    let (f, dt) = (10.0, 0.5);
    for &z in &[0.0, 0.5, 1.0, 2.0] {
        for &r in &[-2.0, 0.0, 2.0] {
            let mut d = single::<S>(Integrator::SecondOrder, f, z, r, 0.0);
            let mut reference = SecondOrderRef::new(f, z, r, 0.0);
            let mut unclamped = SecondOrderRef::new(f, z, r, 0.0);
            unclamped.clamp = false;
            let mut worst_unclamped = 0.0f64;
            for k in 0..400 {
                let x = if k < 20 {
                    1000.0
                } else if k < 40 {
                    -1000.0
                } else {
                    400.0
                };
                d.set_target(0, s(x)).unwrap();
                d.update(s(dt));
                let want = reference.update(dt, x, None);
                worst_unclamped = worst_unclamped.max(unclamped.update(dt, x, None).abs());
                let got = value(&d, 0);
                // Bounded: within twice the largest target swing (undamped it alternates between
                // the previous value and its mirror image, 2x − y).
                assert!(got.abs() <= 3000.0, "ζ {z} r {r} step {k}: {got}");
                assert!((got - want).abs() <= tol, "ζ {z} r {r} step {k}: {got} vs {want}");
            }
            assert!(worst_unclamped > 1e30, "the unclamped scheme should diverge ({worst_unclamped})");
            if z > 0.0 {
                assert!((value(&d, 0) - 400.0).abs() < 0.5, "ζ {z} r {r}: settles, got {}", value(&d, 0));
            }
        }
    }
}

#[test]
fn second_order_is_stable_for_large_steps_f32() {
    second_order_is_stable_for_large_steps::<f32>(5e-3);
}

#[test]
fn second_order_is_stable_for_large_steps_q16() {
    second_order_is_stable_for_large_steps::<Q16>(0.25);
}

/// r < 0 anticipates: the value first moves away from the target (t3ssel8r's "anticipation"),
/// by as much as the f64 reference says, then settles at the target. With r = 0 it never does.
fn negative_response_anticipates<S: Scalar>(tol: f64) {
    let (f, z, dt) = (2.0, 0.5, 1.0 / 60.0);
    for &r in &[-1.5, -0.5, 0.0] {
        let mut d = single::<S>(Integrator::SecondOrder, f, z, r, 0.0);
        let mut reference = SecondOrderRef::new(qz::<S>(f), qz::<S>(z), qz::<S>(r), 0.0);
        d.set_target(0, s(100.0)).unwrap();
        let (mut lowest, mut lowest_ref) = (0.0f64, 0.0f64);
        for _ in 0..300 {
            d.update(s(dt));
            lowest = lowest.min(value(&d, 0));
            lowest_ref = lowest_ref.min(reference.update(qz::<S>(dt), 100.0, None));
        }
        if r < 0.0 {
            // ẏ(0+) = rζω·100 < 0 (the first update sees ẋ = 100/T).
            assert!(lowest_ref < -0.5, "reference dips ({lowest_ref})");
            assert!((lowest - lowest_ref).abs() <= tol, "r {r}: dip {lowest} vs {lowest_ref}");
        } else {
            assert_eq!(lowest, 0.0, "r = 0 never moves away");
        }
        assert!((value(&d, 0) - 100.0).abs() < 0.01, "settles at the target");
    }
}

#[test]
fn negative_response_anticipates_f32() {
    negative_response_anticipates::<f32>(1e-5);
}

#[test]
fn negative_response_anticipates_q16() {
    negative_response_anticipates::<Q16>(1e-4);
}

/// A ramp target `x = c·t`: in steady state the published scheme lags by exactly
/// `(k1 − k3)·c = (2ζ − rζ)·c/ω` (the continuous system's lag too), whether `ẋ` is estimated or
/// given. With r = 2 the lag vanishes.
fn second_order_ramp_lag<S: Scalar>(tol: f64, tol_velocity: f64) {
    let (f, z, dt, c) = (2.0, 0.7, 1.0 / 64.0, 30.0);
    for &r in &[0.0, 1.0, 2.0, -1.0] {
        for given in [false, true] {
            let mut d = single::<S>(Integrator::SecondOrder, f, z, r, 0.0);
            let mut x = 0.0;
            for _ in 0..640 {
                x += c * dt;
                if given {
                    d.set_target_with_velocity(0, s(x), s(c)).unwrap();
                } else {
                    d.set_target(0, s(x)).unwrap();
                }
                d.update(s(dt));
            }
            let w = 2.0 * PI * qz::<S>(f);
            let (k1, k3) = (2.0 * qz::<S>(z) / w, qz::<S>(r) * qz::<S>(z) / w);
            let lag = x - value(&d, 0);
            assert!((lag - (k1 - k3) * c).abs() <= tol, "r {r} given {given}: lag {lag} vs {}", (k1 - k3) * c);
            assert!((velocity(&d, 0) - c).abs() <= tol_velocity, "moves with the target: {}", velocity(&d, 0));
        }
    }
}

#[test]
fn second_order_ramp_lag_f32() {
    second_order_ramp_lag::<f32>(5e-5, 5e-4);
}

#[test]
fn second_order_ramp_lag_q16() {
    second_order_ramp_lag::<Q16>(2e-4, 2e-3);
}

// ---------------------------------------------------------------------------------------------
// Closed-form spring

#[test]
fn spring_follows_the_exact_solution_step_by_step_f32() {
    check_against_reference::<f32>(Integrator::Spring, F32_SPRING.0, F32_SPRING.1);
}

#[test]
fn spring_follows_the_exact_solution_step_by_step_q16() {
    check_against_reference::<Q16>(Integrator::Spring, 1e-4, 2e-4);
}

/// One update of any length lands on the analytic solution, for each damping regime (the
/// closed form is exact for any dt), and so do many short updates covering the same time.
fn spring_is_exact_for_any_step<S: Scalar>(tol: f64) {
    let (f, y0, x, v0) = (1.5, 40.0, -60.0, 250.0);
    // ζ 0.99 and 1.01 at t = 0.3 s take the closed form's series for cos and sin(x)/x near
    // critical damping; long steps the closed form, short ones the propagator's Taylor series.
    for &z in &[0.0, 0.2, 0.7, 0.99, 1.0, 1.01, 1.6, 3.0] {
        let w = 2.0 * PI * qz::<S>(f);
        for &t in &[0.01, 0.05, 0.2, 0.3, 0.5, 0.7, 1.5, 3.0] {
            let (e, ev) = oscillator(w, qz::<S>(z), y0 - x, v0, t);
            let mut once = single::<S>(Integrator::Spring, f, z, 0.0, y0);
            once.impulse(0, s(v0)).unwrap();
            once.set_target(0, s(x)).unwrap();
            once.update(s(t));
            let (got, gotv) = (value(&once, 0), velocity(&once, 0));
            assert!((got - (x + e)).abs() <= tol * 100.0, "ζ {z} t {t}: {got} vs {}", x + e);
            assert!((gotv - ev).abs() <= tol * 100.0 * w, "ζ {z} t {t}: velocity {gotv} vs {ev}");
        }
        // 1.5 s as 90 updates of 1/60 s.
        let mut many = single::<S>(Integrator::Spring, f, z, 0.0, y0);
        many.impulse(0, s(v0)).unwrap();
        many.set_target(0, s(x)).unwrap();
        for _ in 0..90 {
            many.update(s(1.0 / 60.0));
        }
        let (e, _) = oscillator(w, qz::<S>(z), y0 - x, v0, 90.0 * qz::<S>(1.0 / 60.0));
        assert!((value(&many, 0) - (x + e)).abs() <= tol * 100.0, "ζ {z}: {} vs {}", value(&many, 0), x + e);
    }
}

/// f32 tolerances of the spring tests (damped relative, undamped relative, exact-step absolute per
/// unit): libm's by default; with the `fast-math` feature the spring's exponential and sine/cosine
/// come from micromath (errors around 1e-3, see `ossicle::scalar::f32m`), which bounds its accuracy.
#[cfg(not(feature = "fast-math"))]
const F32_SPRING: (f64, f64, f64) = (2e-6, 2e-5, 5e-7);
#[cfg(feature = "fast-math")]
const F32_SPRING: (f64, f64, f64) = (5e-3, 5e-2, 2e-3);

#[test]
fn spring_is_exact_for_any_step_f32() {
    spring_is_exact_for_any_step::<f32>(F32_SPRING.2);
}

#[test]
fn spring_is_exact_for_any_step_q16() {
    spring_is_exact_for_any_step::<Q16>(1e-4);
}

/// A huge step settles exactly on the target with zero velocity (any damping above 0).
fn spring_settles_in_one_huge_step<S: Scalar>() {
    for &z in &[0.05, 0.5, 1.0, 2.0, 8.0] {
        let mut d = single::<S>(Integrator::Spring, 3.0, z, 0.0, -900.0);
        d.impulse(0, s(5000.0)).unwrap();
        d.set_target(0, s(725.5)).unwrap();
        d.update(s(1000.0));
        assert_eq!(value(&d, 0), 725.5, "ζ {z}");
        assert_eq!(velocity(&d, 0), 0.0, "ζ {z}");
    }
}

#[test]
fn spring_settles_in_one_huge_step_f32() {
    spring_settles_in_one_huge_step::<f32>();
}

#[test]
fn spring_settles_in_one_huge_step_q16() {
    spring_settles_in_one_huge_step::<Q16>();
}

// ---------------------------------------------------------------------------------------------
// PD controller

#[test]
fn pd_follows_its_f64_simulation_f32() {
    check_against_reference::<f32>(Integrator::Pd, 2e-6, 2e-5);
}

#[test]
fn pd_follows_its_f64_simulation_q16() {
    check_against_reference::<Q16>(Integrator::Pd, 1e-4, 2e-4);
}

/// Steady state: a constant target is reached with zero velocity; a ramp `x = c·t` is followed
/// with the value one step ahead (`y − x = c·T`: the position update uses the new velocity, the
/// acceleration the previous position), which vanishes as T → 0. In both types the value can
/// rest up to about `ζ·ulp/(ωT)` short of the target (2e-4 at 250 with ζ = 2 here; ulp = 1.5e-5
/// at 250 in f32 and Q16.16 alike) with a velocity of a few 1e-4: a position step below half an
/// ulp does not move it.
fn pd_steady_state<S: Scalar>(tol: f64) {
    let tol_velocity = 2e-3;
    let (f, dt) = (3.0, 1.0 / 120.0);
    for &z in &[0.3, 1.0, 2.0] {
        let mut d = single::<S>(Integrator::Pd, f, z, 0.0, -700.0);
        d.set_target(0, s(250.0)).unwrap();
        for _ in 0..1200 {
            d.update(s(dt));
        }
        assert!((value(&d, 0) - 250.0).abs() <= tol, "ζ {z}: {}", value(&d, 0));
        assert!(velocity(&d, 0).abs() <= tol_velocity, "ζ {z}: velocity {}", velocity(&d, 0));

        let c = -45.0;
        let mut x = 250.0;
        for _ in 0..1200 {
            x += c * qz::<S>(dt);
            d.set_target(0, s(x)).unwrap();
            d.update(s(dt));
        }
        let lead = value(&d, 0) - x;
        assert!((lead - c * qz::<S>(dt)).abs() <= tol, "ζ {z}: lead {lead} vs {}", c * dt);
        assert!((velocity(&d, 0) - c).abs() <= tol_velocity, "ζ {z}: velocity {}", velocity(&d, 0));
    }
}

#[test]
fn pd_steady_state_f32() {
    pd_steady_state::<f32>(5e-4);
}

#[test]
fn pd_steady_state_q16() {
    pd_steady_state::<Q16>(2e-3);
}

/// The documented stability limit `ωT < 2(√(1 + ζ²) − ζ)`: just below it a disturbance decays,
/// just above it grows.
#[test]
fn pd_stability_limit_is_where_the_documentation_says() {
    for &z in &[0.2, 0.5, 1.0, 2.0] {
        let f = 5.0;
        let p = params::<f32>(Integrator::Pd, f, z, 0.0);
        let limit = p.stable_dt_limit().unwrap() as f64;
        let formula = 2.0 * ((1.0 + z * z).sqrt() - z) / (2.0 * PI * f);
        assert!((limit - formula).abs() <= 1e-6 * formula, "ζ {z}: {limit} vs {formula}");
        for (scale, grows) in [(0.95, false), (1.05, true)] {
            let mut d = single::<f32>(Integrator::Pd, f, z, 0.0, 1.0);
            d.set_target(0, 0.0).unwrap();
            let mut grew = false;
            for _ in 0..2000 {
                d.update((limit * scale) as f32);
                grew |= value(&d, 0).abs() > 10.0;
            }
            let end = value(&d, 0).abs();
            if grows {
                assert!(grew, "ζ {z} at {scale}×limit: {end}");
            } else {
                assert!(!grew && end < 0.1, "ζ {z} at {scale}×limit: {end}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Channel operations

/// `set` snaps the value, clears the velocity and the target's history: the channel stays put,
/// and a later `set_target` moves it exactly as a fresh channel at that value.
fn set_clears_velocity<S: Scalar>() {
    for i in Integrator::ALL {
        let p = params::<S>(i, 2.0, 0.4, -1.0);
        let mut d: Dynamics<S, 2> = Dynamics::new(p);
        d.add(1, s(0.0)).unwrap();
        d.set_target(1, s(300.0)).unwrap();
        for _ in 0..10 {
            d.update(s(1.0 / 60.0));
        }
        assert!(velocity(&d, 1).abs() > 10.0, "{i}: moving before set");
        d.set(1, s(5.0)).unwrap();
        assert_eq!(value(&d, 1), 5.0);
        assert_eq!(velocity(&d, 1), 0.0);
        assert_eq!(d.target(1).unwrap(), s(5.0));
        for _ in 0..30 {
            d.update(s(1.0 / 60.0));
        }
        assert_eq!(value(&d, 1), 5.0, "{i}: stays where it was set");
        assert_eq!(velocity(&d, 1), 0.0);

        d.add(2, s(5.0)).unwrap();
        d.set_target(1, s(-80.0)).unwrap();
        d.set_target(2, s(-80.0)).unwrap();
        for _ in 0..40 {
            d.update(s(1.0 / 60.0));
            assert_eq!(d.value(1), d.value(2), "{i}: same as a fresh channel");
        }
    }
}

#[test]
fn set_clears_velocity_f32() {
    set_clears_velocity::<f32>();
}

#[test]
fn set_clears_velocity_q16() {
    set_clears_velocity::<Q16>();
}

/// `impulse` adds velocity: read back at once, the first second-order step moves by `T·v`, and
/// the spring then follows the analytic solution from that velocity.
fn impulse_adds_velocity<S: Scalar>(tol: f64) {
    for i in Integrator::ALL {
        let mut d = single::<S>(i, 1.0, 0.5, 0.0, 10.0);
        d.impulse(0, s(120.0)).unwrap();
        d.impulse(0, s(-20.0)).unwrap();
        assert!((velocity(&d, 0) - 100.0).abs() <= tol, "{i}: {}", velocity(&d, 0));
        if i == Integrator::SecondOrder {
            d.update(s(1.0 / 50.0));
            assert!((value(&d, 0) - (10.0 + 100.0 * qz::<S>(1.0 / 50.0))).abs() <= tol, "{}", value(&d, 0));
        }
    }
    let mut d = single::<S>(Integrator::Spring, 1.0, 0.5, 0.0, 10.0);
    d.impulse(0, s(100.0)).unwrap();
    for _ in 0..25 {
        d.update(s(1.0 / 50.0));
    }
    let (e, _) = oscillator(2.0 * PI, 0.5, 0.0, 100.0, 25.0 * qz::<S>(1.0 / 50.0));
    assert!((value(&d, 0) - (10.0 + e)).abs() <= tol, "{} vs {}", value(&d, 0), 10.0 + e);
}

#[test]
fn impulse_adds_velocity_f32() {
    impulse_adds_velocity::<f32>(1e-4);
}

#[test]
fn impulse_adds_velocity_q16() {
    impulse_adds_velocity::<Q16>(2e-3);
}

/// A step of 0 (or less) changes nothing, and the target's change is seen by the next real step
/// exactly as if the empty step had not happened.
fn zero_step_changes_nothing<S: Scalar>() {
    for i in Integrator::ALL {
        let p = params::<S>(i, 4.0, 0.6, 1.5);
        let mut a: Dynamics<S, 1> = Dynamics::new(p);
        let mut b: Dynamics<S, 1> = Dynamics::new(p);
        a.add(0, s(3.0)).unwrap();
        b.add(0, s(3.0)).unwrap();
        a.impulse(0, s(7.0)).unwrap();
        b.impulse(0, s(7.0)).unwrap();
        a.set_target(0, s(50.0)).unwrap();
        b.set_target(0, s(50.0)).unwrap();
        let before = (a.value(0), a.velocity(0));
        a.update(S::ZERO);
        a.update(s(-0.5));
        assert_eq!((a.value(0), a.velocity(0)), before, "{i}");
        for _ in 0..20 {
            a.update(s(1.0 / 30.0));
            b.update(s(1.0 / 30.0));
            assert_eq!(a.value(0), b.value(0), "{i}");
        }
    }
}

#[test]
fn zero_step_changes_nothing_f32() {
    zero_step_changes_nothing::<f32>();
}

#[test]
fn zero_step_changes_nothing_q16() {
    zero_step_changes_nothing::<Q16>();
}

/// Changing the parameters keeps the physical velocity.
fn set_params_keeps_velocity<S: Scalar>(tol: f64) {
    let mut d = single::<S>(Integrator::Spring, 2.0, 0.3, 0.0, 0.0);
    d.impulse(0, s(64.0)).unwrap();
    d.set_params(0, params::<S>(Integrator::SecondOrder, 7.0, 1.0, 0.5)).unwrap();
    assert!((velocity(&d, 0) - 64.0).abs() <= tol, "{}", velocity(&d, 0));
    assert_eq!(d.params(0).unwrap().integrator(), Integrator::SecondOrder);
    d.set_integrator(0, Integrator::Pd).unwrap();
    assert_eq!(d.params(0).unwrap().integrator(), Integrator::Pd);
    assert_eq!(d.params(0).unwrap().frequency(), s(7.0));
    d.add(1, s(0.0)).unwrap_err(); // capacity 1
    let all = params::<S>(Integrator::Spring, 0.5, 2.0, 0.0);
    d.set_params_all(all);
    assert_eq!(d.params(0).unwrap(), all);
    assert_eq!(d.defaults(), all);
    assert!((velocity(&d, 0) - 64.0).abs() <= tol, "{}", velocity(&d, 0));
}

#[test]
fn set_params_keeps_velocity_f32() {
    set_params_keeps_velocity::<f32>(1e-4);
}

#[test]
fn set_params_keeps_velocity_q16() {
    set_params_keeps_velocity::<Q16>(2e-3);
}

fn capacity_and_ids<S: Scalar>() {
    let p = params::<S>(Integrator::Spring, 1.0, 1.0, 0.0);
    let mut d: Dynamics<S, 2> = Dynamics::new(p);
    assert_eq!(d.capacity(), 2);
    assert!(d.is_empty());
    d.add(10, s(1.0)).unwrap();
    assert_eq!(d.add(10, s(2.0)), Err(DynamicsError::Duplicate { id: 10 }));
    d.add(20, s(2.0)).unwrap();
    assert_eq!(d.add(30, s(3.0)), Err(DynamicsError::Full { capacity: 2 }));
    assert_eq!(d.add_with(30, s(3.0), p), Err(DynamicsError::Full { capacity: 2 }));
    assert_eq!(d.len(), 2);
    let ids: Vec<(ChannelId, S)> = d.iter().collect();
    assert_eq!(ids, vec![(10, s(1.0)), (20, s(2.0))]);

    let unknown = Err(DynamicsError::UnknownChannel { id: 99 });
    assert_eq!(d.set(99, s(0.0)), unknown);
    assert_eq!(d.set_target(99, s(0.0)), unknown);
    assert_eq!(d.set_target_with_velocity(99, s(0.0), s(1.0)), unknown);
    assert_eq!(d.impulse(99, s(1.0)), unknown);
    assert_eq!(d.value(99), Err(DynamicsError::UnknownChannel { id: 99 }));
    assert_eq!(d.velocity(99), Err(DynamicsError::UnknownChannel { id: 99 }));
    assert_eq!(d.target(99), Err(DynamicsError::UnknownChannel { id: 99 }));
    assert_eq!(d.params(99), Err(DynamicsError::UnknownChannel { id: 99 }));
    assert_eq!(d.set_params(99, p), unknown);
    assert_eq!(d.set_integrator(99, Integrator::Pd), unknown);
    assert_eq!(d.bind(99, 0, 0), unknown);
    assert_eq!(d.unbind(99), unknown);
    assert_eq!(d.remove(99), unknown);
    assert!(!d.contains(99));

    d.remove(10).unwrap();
    assert_eq!(d.value(10), Err(DynamicsError::UnknownChannel { id: 10 }));
    d.add(30, s(3.0)).unwrap();
    let ids: Vec<ChannelId> = d.iter().map(|(id, _)| id).collect();
    assert_eq!(ids, vec![20, 30]);
    d.clear();
    assert!(d.is_empty());
}

#[test]
fn capacity_and_ids_f32() {
    capacity_and_ids::<f32>();
}

#[test]
fn capacity_and_ids_q16() {
    capacity_and_ids::<Q16>();
}

#[derive(Default)]
struct Recorder(Vec<(TargetId, PropertyId, f64)>);

impl<S: Scalar> PropertySink<S> for Recorder {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        if let Some(v) = value.as_float() {
            self.0.push((target, property, v.to_f64()));
        }
    }
}

fn bound_channels_write_through_the_sink<S: Scalar>() {
    let p = params::<S>(Integrator::SecondOrder, 2.0, 0.5, 0.0);
    let mut d: Dynamics<S, 3> = Dynamics::new(p);
    d.add(1, s(0.0)).unwrap();
    d.add(2, s(0.0)).unwrap();
    d.add(3, s(9.0)).unwrap();
    d.bind(1, 40, 2).unwrap();
    d.bind(3, 41, 9).unwrap();
    d.set_target(1, s(10.0)).unwrap();
    d.set_target(2, s(10.0)).unwrap();
    let mut sink = Recorder::default();
    d.update_with_sink(s(0.1), &mut sink);
    d.update_with_sink(s(0.1), &mut sink);
    let y1 = value(&d, 1);
    assert!(y1 > 0.0);
    assert_eq!(sink.0.len(), 4);
    assert_eq!(sink.0[2], (40, 2, y1));
    assert_eq!(sink.0[3], (41, 9, 9.0));
    d.update_with_sink(S::ZERO, &mut sink);
    assert_eq!(sink.0.len(), 4, "nothing written without a step");
    d.unbind(3).unwrap();
    d.update_with_sink(s(0.1), &mut sink);
    assert_eq!(sink.0.len(), 5);
    assert_eq!(sink.0[4].0, 40);
}

#[test]
fn bound_channels_write_through_the_sink_f32() {
    bound_channels_write_through_the_sink::<f32>();
}

#[test]
fn bound_channels_write_through_the_sink_q16() {
    bound_channels_write_through_the_sink::<Q16>();
}

fn invalid_parameters_are_refused<S: Scalar>() {
    let p = |f: f64, z: f64| Params::<S>::new(Integrator::Spring, s(f), s(z), S::ZERO);
    assert_eq!(p(0.0, 1.0), Err(DynamicsError::InvalidFrequency));
    assert_eq!(p(-2.0, 1.0), Err(DynamicsError::InvalidFrequency));
    assert_eq!(p(1.0, -0.1), Err(DynamicsError::InvalidDamping));
    assert_eq!(
        Params::<S>::from_angular(Integrator::Pd, S::ZERO, S::ONE, S::ZERO),
        Err(DynamicsError::InvalidFrequency)
    );
    let a = Params::<S>::from_angular(Integrator::Pd, s(2.0 * PI), S::ONE, S::ZERO).unwrap();
    assert!((a.frequency().to_f64() - 1.0).abs() < 1e-4);
    assert!(p(0.5, 0.0).is_ok());
}

#[test]
fn invalid_parameters_are_refused_f32() {
    invalid_parameters_are_refused::<f32>();
    let nan = Params::<f32>::new(Integrator::Pd, f32::NAN, 1.0, 0.0);
    assert_eq!(nan, Err(DynamicsError::InvalidFrequency));
    assert_eq!(Params::<f32>::new(Integrator::Pd, f32::INFINITY, 1.0, 0.0), Err(DynamicsError::InvalidFrequency));
    assert_eq!(Params::<f32>::new(Integrator::Pd, 1.0, f32::NAN, 0.0), Err(DynamicsError::InvalidDamping));
    assert_eq!(Params::<f32>::new(Integrator::Pd, 1.0, 1.0, f32::INFINITY), Err(DynamicsError::InvalidResponse));
}

#[test]
fn invalid_parameters_are_refused_q16() {
    invalid_parameters_are_refused::<Q16>();
    // The smallest Q16.16 frequency still gives ω > 0.
    assert!(Params::<Q16>::new(Integrator::Pd, Q16::from_bits(1), Q16::ONE, Q16::ZERO).is_ok());
}

#[test]
fn integrator_names_parse() {
    for (i, name) in Integrator::ALL.iter().zip(INTEGRATOR_NAMES) {
        assert_eq!(Integrator::parse(name), Ok(*i));
        assert_eq!(i.name(), name);
        assert_eq!(name.parse::<Integrator>(), Ok(*i));
    }
    for (name, i) in [
        ("SecondOrder", Integrator::SecondOrder),
        ("second_order", Integrator::SecondOrder),
        (" second-order ", Integrator::SecondOrder),
        ("SPRING", Integrator::Spring),
        ("PD", Integrator::Pd),
    ] {
        assert_eq!(Integrator::parse(name), Ok(i), "{name}");
    }
    for bad in ["", "second", "secondOrderX", "p.d", "verlet", "springspringspring"] {
        let err = Integrator::parse(bad).unwrap_err();
        assert_eq!(err.to_string(), "unknown integrator; valid names are secondOrder, spring, pd", "{bad}");
    }
}

#[test]
fn errors_display() {
    assert_eq!(DynamicsError::Full { capacity: 4 }.to_string(), "dynamics are full (4 channels in use)");
    assert_eq!(DynamicsError::UnknownChannel { id: 7 }.to_string(), "no dynamics channel has id 7");
    assert_eq!(DynamicsError::Duplicate { id: 7 }.to_string(), "dynamics channel 7 already exists");
    assert!(DynamicsError::InvalidFrequency.to_string().contains("frequency"));
}

/// Extreme inputs (the whole Q16.16 range, huge and tiny steps, saturating values, integrators
/// switched mid-motion) never panic; `cargo test` runs this with overflow checks on.
fn extreme_inputs_never_panic<S: Scalar>() {
    let mut seed = 0x9E37_79B9u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let pick = |r: u32, options: &[f64]| options[r as usize % options.len()];
    let frequencies = [1.0 / 65536.0, 0.01, 0.5, 10.0, 500.0, 30000.0];
    let dampings = [0.0, 1e-4, 0.999, 1.0, 1.001, 2.0, 300.0, 30000.0];
    let responses = [-30000.0, -2.0, 0.0, 2.0, 30000.0];
    let steps = [0.0, 1.0 / 65536.0, 1.0 / 60.0, 0.5, 100.0, 32767.0];
    let values = [-32768.0, -1000.0, 0.0, 1e-4, 1000.0, 32767.0];
    for _ in 0..3000 {
        let i = Integrator::ALL[next() as usize % 3];
        let p = params::<S>(i, pick(next(), &frequencies), pick(next(), &dampings), pick(next(), &responses));
        let mut d: Dynamics<S, 1> = Dynamics::new(p);
        d.add(0, s(pick(next(), &values))).unwrap();
        for _ in 0..8 {
            match next() % 4 {
                0 => d.set_target(0, s(pick(next(), &values))).unwrap(),
                1 => d.set_target_with_velocity(0, s(pick(next(), &values)), s(pick(next(), &values))).unwrap(),
                2 => d.impulse(0, s(pick(next(), &values))).unwrap(),
                _ => d.set_params(0, p.with_integrator(Integrator::ALL[next() as usize % 3])).unwrap(),
            }
            d.update(s(pick(next(), &steps)));
            let _ = (d.value(0).unwrap(), d.velocity(0).unwrap());
        }
    }
}

#[test]
fn extreme_inputs_never_panic_f32() {
    extreme_inputs_never_panic::<f32>();
}

#[test]
fn extreme_inputs_never_panic_q16() {
    extreme_inputs_never_panic::<Q16>();
}
