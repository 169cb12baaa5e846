//! The harness of the instruction-count benchmarks (`src/bin/bench.rs`, `src/bin/bench-anim.rs`):
//! the marker functions the TCG plugin counts between, the announcement line, and inputs the
//! compiler cannot see through.
//!
//! Protocol: before each measurement a benchmark prints `bench <type> <name> <arity> <K>` through
//! semihosting, then runs between [`bench_start`] and [`bench_stop`]. The plugin
//! `scripts/qemu/plugin/insn_count.c` prints one `insns N` line per `bench_stop`, and
//! `scripts/bench/qemu-insns.sh` pairs the two streams: per-call figure = (N − baseline) / K, where
//! the baseline is the empty loop `loop<arity>` of the same type (none for arity 0). A line
//! `bench-error <name>` means a benchmark did not measure what it should; the script then fails.

use core::ptr::read_volatile;

use ossicle::Scalar;

use crate::{dec, line};

/// Marker: the plugin starts counting at this function's first instruction.
#[no_mangle]
#[inline(never)]
pub extern "C" fn bench_start() {
    // SAFETY: a no-op instruction; the asm block keeps the function (and its address) distinct.
    unsafe { core::arch::asm!("nop", options(nomem, nostack, preserves_flags)) }
}

/// Marker: the plugin stops counting at this function's first instruction (its body differs from
/// `bench_start`'s, so identical-code folding cannot merge the two).
#[no_mangle]
#[inline(never)]
pub extern "C" fn bench_stop() {
    // SAFETY: no-op instructions, as in `bench_start`.
    unsafe { core::arch::asm!("nop", "nop", options(nomem, nostack, preserves_flags)) }
}

/// Prints `bench <ty> <name> <arity> <k>`.
pub fn announce(ty: &[u8], name: &str, arity: u32, k: usize) {
    let mut a = [0u8; 10];
    let mut kb = [0u8; 10];
    line(&[b"bench ", ty, b" ", name.as_bytes(), b" ", dec(arity, &mut a), b" ", dec(k as u32, &mut kb)]);
}

/// Prints `bench-error <name>` when `ok` is false.
pub fn check(name: &str, ok: bool) {
    if !ok {
        line(&[b"bench-error ", name.as_bytes()]);
    }
}

/// The values of `t` in `S`.
pub fn table<S: Scalar>(t: &[f32; 8]) -> [S; 8] {
    let mut out = [S::ZERO; 8];
    for (o, v) in out.iter_mut().zip(t.iter()) {
        *o = S::from_f32(*v);
    }
    out
}

/// Reads `t[i % 8]` so the compiler cannot know the value.
#[inline(always)]
pub fn load<S: Scalar>(t: &[S; 8], i: usize) -> S {
    match t.get(i & 7) {
        // SAFETY: `v` is a valid reference to an initialised `S`.
        Some(v) => unsafe { read_volatile(v) },
        None => S::ZERO,
    }
}
