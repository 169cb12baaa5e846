//! Host benchmarks: time per call of every `Scalar` function, in f32 and Q16.16.
//!
//! `cargo bench -p ossicle --bench scalar -- --measurement-time 1 --warm-up-time 0.5`, or
//! `scripts/bench/host-ns.sh` for a table. Each iteration calls the function once on the next of 8
//! inputs (read through `black_box`); `<type>/loop1`, `loop2` and `loop3` time the same loop around
//! the identity, the overhead to subtract.
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ossicle::{Scalar, Q16};

const GENERAL: [f32; 8] = [0.3, 1.7, -2.2, 5.5, 0.9, -0.45, 3.1, 12.25];
const SECOND: [f32; 8] = [1.3, -0.7, 2.9, 0.35, -4.1, 7.0, 0.6, -1.9];
const POSITIVE: [f32; 8] = [0.3, 1.7, 2.2, 5.5, 0.9, 0.45, 3.1, 12.25];
const UNIT: [f32; 8] = [0.3, -0.7, 0.95, -0.1, 0.5, -0.99, 0.05, 0.8];
const EXPONENT: [f32; 8] = [-3.5, 0.25, 2.7, -0.9, 5.1, 1.0, -7.3, 3.3];

fn table<S: Scalar>(t: &[f32; 8]) -> [S; 8] {
    t.map(S::from_f32)
}

struct Suite<'a> {
    c: &'a mut Criterion,
    ty: &'static str,
}

impl Suite<'_> {
    fn unary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], f: impl Fn(S) -> R) {
        let mut i = 0usize;
        self.c.bench_function(&format!("{}/{}", self.ty, name), |b| {
            b.iter(|| {
                i = (i + 1) & 7;
                f(black_box(x[i]))
            })
        });
    }

    fn binary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], y: &[S; 8], f: impl Fn(S, S) -> R) {
        let mut i = 0usize;
        self.c.bench_function(&format!("{}/{}", self.ty, name), |b| {
            b.iter(|| {
                i = (i + 1) & 7;
                f(black_box(x[i]), black_box(y[i]))
            })
        });
    }

    fn ternary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], y: &[S; 8], z: &[S; 8], f: impl Fn(S, S, S) -> R) {
        let mut i = 0usize;
        self.c.bench_function(&format!("{}/{}", self.ty, name), |b| {
            b.iter(|| {
                i = (i + 1) & 7;
                f(black_box(x[i]), black_box(y[i]), black_box(z[i]))
            })
        });
    }
}

/// The same functions, inputs and order as the Cortex-M benchmark (`boards/qemu/src/bin/bench.rs`).
fn suite<S: Scalar>(c: &mut Criterion, ty: &'static str) {
    let b = &mut Suite { c, ty };
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

fn scalar(c: &mut Criterion) {
    suite::<f32>(c, "f32");
    suite::<Q16>(c, "q16");
}

criterion_group!(benches, scalar);
criterion_main!(benches);
