//! The skeletal conformance images (`src/bin/skeleton-q16.rs`, `src/bin/skeleton-f32.rs`, one per
//! scalar type: both types' code and blobs do not fit one image's flash on the M0): each loads
//! host-built blobs (embedded) and runs the kernel's skeletal trace
//! ([`ossicle::skeleton::trace::run`]: sampling forward, backwards and scattered, two-layer blending
//! with a mask, slerp and an additive layer, local-to-model, on a fixed schedule), printing each
//! trace through semihosting exactly as the runner writes it on the host:
//!
//! ```text
//! skeleton-trace figure q16 begin
//! skeleton bones 17 steps 72
//! step 0 t 00000000 a … b … blend … model …
//! …
//! end 5d3c0a19
//! skeleton-trace figure q16 end
//! …
//! stack: 11000 of 16384 bytes used (traces 10900, …)
//! ok
//! ```
//!
//! The runs: `figure` (the sample stick figure, `samples/skeletal`: clip A `walk`, clip B `wave`,
//! 17 bones; always embedded), `slowrun` (Mixamo's SlowRun, lossless, A = B = `SlowRun`, 70 bones)
//! and `slowrun-rq` (SlowRun `--reduce 0.01 --quantize`); the SlowRun blobs are embedded only when
//! the fixtures were there when the blobs were built (`skeleton-trace slowrun q16 skipped`
//! otherwise). `tests/tests/qemu_skeleton.rs` requires every trace to equal the host's, line for
//! line.
//!
//! QEMU's exit status is 0 when every run completed, 10 + the first failed run's number otherwise
//! (1 figure, 2 slowrun, 3 slowrun-rq), 30 when less than 1 KiB of the stack stayed unused. Like
//! `ossicle-qemu`, a release build links only if no panic is reachable (the panic handler calls an
//! undefined function): these images are also the never-panic proof of the blob skeletal readers,
//! the jobs and the trace runner.
//!
//! Memory: the runner's [`TraceWork`] for 70 bones (10,360 bytes) on the stack.

use ossicle::skeleton::trace::{self, TraceWork};
use ossicle::{Asset, Scalar};

use crate::{check_stack, exit, line, stack_usage, Lines};

/// The largest skeleton the runs take (SlowRun's 70 bones).
const BONES: usize = 70;

/// One run: its label, the clips A and B, and its number in the exit status.
pub struct Run {
    /// Its label in the output.
    pub label: &'static [u8],
    /// Clip A's name.
    pub a: &'static str,
    /// Clip B's name.
    pub b: &'static str,
    /// Its number in the exit status.
    pub code: u32,
}

/// The stick figure's run.
pub const FIGURE: Run = Run { label: b"figure", a: "walk", b: "wave", code: 1 };
/// SlowRun's run (lossless).
pub const SLOWRUN: Run = Run { label: b"slowrun", a: "SlowRun", b: "SlowRun", code: 2 };
/// SlowRun's run (reduced and quantised).
pub const SLOWRUN_RQ: Run = Run { label: b"slowrun-rq", a: "SlowRun", b: "SlowRun", code: 3 };

/// Runs the trace of `run` on `blob` in `S`, between `skeleton-trace <label> <type> begin` and
/// `… end` lines (`… skipped` when the blob is empty: not embedded). False when it failed (the
/// reason is printed).
#[inline(never)]
fn trace_one<S: Scalar>(ty: &[u8], run: &Run, blob: &[u8]) -> bool {
    if blob.is_empty() {
        line(&[b"skeleton-trace ", run.label, b" ", ty, b" skipped"]);
        return true;
    }
    line(&[b"skeleton-trace ", run.label, b" ", ty, b" begin"]);
    let fail = |why: &[u8]| {
        line(&[b"skeleton-trace ", run.label, b" ", ty, b" error: ", why]);
        false
    };
    let Ok(asset) = Asset::load(blob) else { return fail(b"the blob does not load") };
    let (Some(a), Some(b)) = (asset.skel_clip_named(run.a), asset.skel_clip_named(run.b)) else {
        return fail(b"a clip is missing");
    };
    let Some(skeleton) = asset.skeleton_of(&a) else { return fail(b"clip A's skeleton is missing") };
    if a.check::<S>().is_err() || b.check::<S>().is_err() || skeleton.check::<S>().is_err() {
        return fail(b"the blob's scalars are not the run's");
    }
    let mut work = TraceWork::<S, BONES>::NEW;
    let mut out = Lines::new();
    let result = trace::run(&skeleton, &a, &b, &mut work, &mut out);
    out.flush();
    match result {
        Ok(_) => {
            line(&[b"skeleton-trace ", run.label, b" ", ty, b" end"]);
            true
        }
        Err(_) => fail(b"a job refused its inputs"),
    }
}

/// `runs` in `S`; the first failed run's code.
#[inline(never)]
pub fn all<S: Scalar>(ty: &[u8], runs: &[(Run, &[u8])]) -> Option<u32> {
    let mut failed = None;
    for (run, blob) in runs {
        if !trace_one::<S>(ty, run, blob) && failed.is_none() {
            failed = Some(run.code);
        }
    }
    failed
}

/// Runs `runs` in `S` and ends the emulation (see the module docs for the status).
pub fn main<S: Scalar>(ty: &[u8], runs: &[(Run, &[u8])]) -> ! {
    let failed = all::<S>(ty, runs);
    let (size, used) = stack_usage();
    check_stack(size, (b"traces", used), (b"total", used));
    match failed {
        None => {
            line(&[b"ok"]);
            exit(0)
        }
        Some(code) => exit(10 + code),
    }
}
