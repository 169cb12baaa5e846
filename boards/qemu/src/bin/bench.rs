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
use ossicle_qemu::bench::{announce, bench_start, bench_stop, load};
use ossicle_qemu::{exit, line};

/// Calls per measurement.
const K: usize = 64;

// The suite (functions, inputs, order) shared with the host benchmark `kernel/benches/scalar.rs`.
#[path = "../../../../kernel/benches/common/scalar_suite.rs"]
#[allow(dead_code)]
mod scalar_suite;
use scalar_suite::{suite, Runner};

struct Bench {
    ty: &'static [u8],
}

impl Bench {
    fn announce(&mut self, name: &str, arity: u32) {
        announce(self.ty, name, arity, K);
    }
}

impl Runner for Bench {
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

#[cortex_m_rt::entry]
fn main() -> ! {
    suite::<f32, _>(&mut Bench { ty: b"f32" });
    suite::<Q16, _>(&mut Bench { ty: b"q16" });
    line(&[b"bench done"]);
    exit(0)
}
