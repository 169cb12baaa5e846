//! Host benchmarks: time per call of every `Scalar` function, in f32 and Q16.16.
//!
//! `cargo bench -p ossicle --bench scalar -- --measurement-time 1 --warm-up-time 0.5`, or
//! `scripts/bench/host-ns.sh` for a table. Each iteration calls the function once on the next of 8
//! inputs (read through `black_box`); `<type>/loop1`, `loop2` and `loop3` time the same loop around
//! the identity, the overhead to subtract.
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ossicle::{Scalar, Q16};

#[path = "common/scalar_suite.rs"]
mod scalar_suite;
use scalar_suite::{suite, Runner};

struct Suite<'a> {
    c: &'a mut Criterion,
    ty: &'static str,
}

impl Runner for Suite<'_> {
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

fn scalar(c: &mut Criterion) {
    suite::<f32, _>(&mut Suite { c, ty: "f32" });
    suite::<Q16, _>(&mut Suite { c, ty: "q16" });
}

criterion_group!(benches, scalar);
criterion_main!(benches);
