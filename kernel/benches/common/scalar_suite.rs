//! The `Scalar` benchmark suite shared by the host benchmark (`kernel/benches/scalar.rs`, criterion)
//! and the Cortex-M one (`boards/qemu/src/bin/bench.rs`, instruction counts), so both measure the
//! same functions on the same inputs in the same order. Core only: it is compiled into the firmware.

use ossicle::Scalar;

/// Inputs of general functions.
pub const GENERAL: [f32; 8] = [0.3, 1.7, -2.2, 5.5, 0.9, -0.45, 3.1, 12.25];
/// Second operands.
pub const SECOND: [f32; 8] = [1.3, -0.7, 2.9, 0.35, -4.1, 7.0, 0.6, -1.9];
/// Positive inputs (sqrt, rem_euclid's modulus, clamp's upper bound).
pub const POSITIVE: [f32; 8] = [0.3, 1.7, 2.2, 5.5, 0.9, 0.45, 3.1, 12.25];
/// Inputs in [-1, 1] (acos, asin, lerp's t, clamp's lower bound).
pub const UNIT: [f32; 8] = [0.3, -0.7, 0.95, -0.1, 0.5, -0.99, 0.05, 0.8];
/// Exponents for exp2.
pub const EXPONENT: [f32; 8] = [-3.5, 0.25, 2.7, -0.9, 5.1, 1.0, -7.3, 3.3];

/// A table converted to `S`.
pub fn table<S: Scalar>(t: &[f32; 8]) -> [S; 8] {
    let mut out = [S::ZERO; 8];
    for (o, v) in out.iter_mut().zip(t.iter()) {
        *o = S::from_f32(*v);
    }
    out
}

/// Measures one function of one, two or three arguments over the 8 inputs of its tables.
pub trait Runner {
    /// A one-argument function.
    fn unary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], f: impl Fn(S) -> R);
    /// A two-argument function.
    fn binary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], y: &[S; 8], f: impl Fn(S, S) -> R);
    /// A three-argument function.
    fn ternary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], y: &[S; 8], z: &[S; 8], f: impl Fn(S, S, S) -> R);
}

/// Every `Scalar` function, after the empty loops `loop1`..`loop3` (the overhead to subtract).
pub fn suite<S: Scalar, B: Runner>(b: &mut B) {
    let g = table::<S>(&GENERAL);
    let s = table::<S>(&SECOND);
    let p = table::<S>(&POSITIVE);
    let u = table::<S>(&UNIT);
    let e = table::<S>(&EXPONENT);

    b.unary("loop1", &g, |a| a);
    b.binary("loop2", &g, &s, |a, _| a);
    b.ternary("loop3", &g, &s, &u, |a, _, _| a);

    b.binary("add", &g, &s, S::add);
    b.binary("sub", &g, &s, S::sub);
    b.binary("mul", &g, &s, S::mul);
    b.binary("div", &g, &s, S::div);
    b.unary("recip", &g, S::recip);
    b.ternary("mul_add", &g, &s, &u, S::mul_add);
    b.unary("neg", &g, S::neg);
    b.unary("abs", &g, S::abs);
    b.binary("min", &g, &s, S::min);
    b.binary("max", &g, &s, S::max);
    b.ternary("clamp", &g, &u, &p, S::clamp);
    b.unary("floor", &g, S::floor);
    b.unary("ceil", &g, S::ceil);
    b.unary("round", &g, S::round);
    b.unary("trunc", &g, S::trunc);
    b.unary("fract", &g, S::fract);
    b.unary("floor_to_i32", &g, S::floor_to_i32);
    b.binary("rem_euclid", &g, &p, S::rem_euclid);
    b.ternary("lerp", &g, &s, &u, S::lerp);
    b.unary("sqrt", &p, S::sqrt);
    b.binary("hypot", &g, &s, S::hypot);
    b.ternary("hypot3", &g, &s, &u, S::hypot3);
    b.unary("sin", &g, S::sin);
    b.unary("cos", &g, S::cos);
    b.unary("sin_cos", &g, S::sin_cos);
    b.binary("atan2", &g, &s, S::atan2);
    b.unary("acos", &u, S::acos);
    b.unary("asin", &u, S::asin);
    b.unary("exp2", &e, S::exp2);
    b.unary("from_f32", &GENERAL, S::from_f32);
    b.unary("to_f32", &g, S::to_f32);
}
