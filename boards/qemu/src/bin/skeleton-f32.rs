//! The skeletal conformance image in f32 (`ossicle_qemu::skeltrace`): the stick figure and SlowRun
//! (lossless, and reduced and quantised) read in place from the embedded `f32` blobs.
#![no_std]
#![no_main]

use ossicle_qemu::skeltrace::{main as run, FIGURE, SLOWRUN, SLOWRUN_RQ};
use ossicle_qemu::Aligned;

#[cfg(ossicle_skeleton_blobs_missing)]
compile_error!(
    "the stick figure's blobs to embed are missing: run `scripts/qemu/check.sh --blobs-only` (see build.rs)"
);

static FIGURE_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/figure-f32.osb")));
static SLOWRUN_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/slowrun-f32.osb")));
static SLOWRUN_RQ_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/slowrun-f32-rq.osb")));

#[cortex_m_rt::entry]
fn main() -> ! {
    run::<f32>(b"f32", &[(FIGURE, &FIGURE_BLOB.0), (SLOWRUN, &SLOWRUN_BLOB.0), (SLOWRUN_RQ, &SLOWRUN_RQ_BLOB.0)])
}
