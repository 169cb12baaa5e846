//! The skeletal benchmarks (`ossicle_qemu::skel`) in f32, on SlowRun read in place from the embedded
//! blobs `slowrun-f32.osb` (lossless) and `slowrun-f32-rq.osb` (`--reduce 0.01 --quantize`).
#![no_std]
#![no_main]

use ossicle_qemu::Aligned;

// Not under clippy: `check.sh --lint` lints every binary, with or without the fixtures.
#[cfg(all(ossicle_skel_blobs_missing, not(clippy)))]
compile_error!(
    "the SlowRun blobs to embed are missing: run `scripts/qemu/check.sh --blobs-only` with the fixtures in \
     ../shared/fixtures or OSSICLE_FIXTURES (see build.rs)"
);

static LOSSLESS: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/slowrun-f32.osb")));
static REDUCED: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/slowrun-f32-rq.osb")));

#[cortex_m_rt::entry]
fn main() -> ! {
    ossicle_qemu::skel::run::<f32>(b"f32", &LOSSLESS.0, &REDUCED.0)
}
