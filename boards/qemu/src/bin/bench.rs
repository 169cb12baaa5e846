//! Instruction-count benchmarks of every `Scalar` function, in f32 and Q16.16 (the ease curves and
//! the animation updates are in `bench-anim.rs`, a binary of their own, so that adding them does not
//! change how the optimiser inlines the functions measured here).
//!
//! For each function the firmware prints `bench <type> <name> <arity> <K>` through semihosting and then
//! calls it `K` times between the marker functions `bench_start` and `bench_stop` (see
//! `ossicle_qemu::bench`). The TCG plugin `scripts/qemu/plugin/insn_count.c` counts the instructions
//! executed between the two markers and prints one `insns N` line per `bench_stop`;
//! `scripts/bench/qemu-insns.sh` pairs the two streams and subtracts the empty loop of the same arity
//! (`loop1`, `loop2`, `loop3`), giving instructions per call.
//!
//! Inputs are read with volatile loads from small tables and every result goes through
//! `core::hint::black_box`, so nothing is constant-folded or removed.
#![no_std]
#![no_main]

use core::hint::black_box;

use ossicle::{Scalar, Q16};
use ossicle_qemu::bench::{announce, bench_start, bench_stop, load, table};
use ossicle_qemu::{exit, line};

/// Calls per measurement.
const K: usize = 64;

const GENERAL: [f32; 8] = [0.3, 1.7, -2.2, 5.5, 0.9, -0.45, 3.1, 12.25];
const SECOND: [f32; 8] = [1.3, -0.7, 2.9, 0.35, -4.1, 7.0, 0.6, -1.9];
const POSITIVE: [f32; 8] = [0.3, 1.7, 2.2, 5.5, 0.9, 0.45, 3.1, 12.25];
const UNIT: [f32; 8] = [0.3, -0.7, 0.95, -0.1, 0.5, -0.99, 0.05, 0.8];
const EXPONENT: [f32; 8] = [-3.5, 0.25, 2.7, -0.9, 5.1, 1.0, -7.3, 3.3];

struct Bench {
    ty: &'static [u8],
}

impl Bench {
    fn announce(&mut self, name: &str, arity: u32) {
        announce(self.ty, name, arity, K);
    }

    #[inline(never)]
    fn unary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], f: impl Fn(S) -> R) {
        self.announce(name, 1);
        bench_start();
        for i in 0..K {
            black_box(f(load(x, i)));
        }
        bench_stop();
    }

    #[inline(never)]
    fn binary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], y: &[S; 8], f: impl Fn(S, S) -> R) {
        self.announce(name, 2);
        bench_start();
        for i in 0..K {
            black_box(f(load(x, i), load(y, i)));
        }
        bench_stop();
    }

    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn ternary<S: Scalar, R>(&mut self, name: &str, x: &[S; 8], y: &[S; 8], z: &[S; 8], f: impl Fn(S, S, S) -> R) {
        self.announce(name, 3);
        bench_start();
        for i in 0..K {
            black_box(f(load(x, i), load(y, i), load(z, i)));
        }
        bench_stop();
    }
}

fn suite<S: Scalar>(ty: &'static [u8], b: &mut Bench) {
    b.ty = ty;
    let g = table::<S>(&GENERAL);
    let s = table::<S>(&SECOND);
    let p = table::<S>(&POSITIVE);
    let u = table::<S>(&UNIT);
    let e = table::<S>(&EXPONENT);

    // The empty loops, subtracted from the functions of the same arity.
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

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut b = Bench { ty: b"" };
    suite::<f32>(b"f32", &mut b);
    suite::<Q16>(b"q16", &mut b);
    line(&[b"bench done"]);
    exit(0)
}
