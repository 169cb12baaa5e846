//! The scene firmware, a second image beside `ossicle-qemu` (whose flash is nearly full on the M0):
//! runs the castle scene (`samples/scenes/castle.scene.xml`, host-built in Q16.16 and f32, embedded)
//! with the kernel's scene runtime and its trace runner (`ossicle::scene::trace::run`) over the
//! embedded script (`samples/scenes/castle.script`), and prints the trace through semihosting, line
//! by line, exactly as `ossicle trace` prints it on the host:
//!
//! ```text
//! scene q16 bytes 1234 capacity 16 nodes 4 controllers 8 params
//! trace q16 begin
//! {"step":1,"op":"update 0.1","time":0.1,"writes":[...],"events":[...]}
//! ...
//! trace q16 end: 72 steps
//! scene f32 bytes ...
//! trace f32 begin
//! ...
//! trace f32 end: 72 steps
//! stack: 5000 of 16384 bytes used (q16 4000, f32 5000)
//! ok
//! ```
//!
//! `tests/tests/qemu_scene.rs` requires the lines between `trace <type> begin` and `trace <type> end`
//! to equal the host's trace of the same blob and script, line for line.
//!
//! QEMU's exit status is 0 when both runs completed, 10 + the error code when the Q16.16 run failed
//! and 20 + the error code when the f32 run failed ([`SceneRunError::code`]), 30 when less than
//! 1 KiB of the stack stayed unused. Like `ossicle-qemu`, a release build links only if no panic is
//! reachable (the panic handler calls an undefined function), so this image is also the never-panic
//! proof of the scene runtime, the blob scene views and the trace runner.
#![no_std]
#![no_main]

use ossicle::scene::trace::{self, TraceErrorKind};
use ossicle::scene::{BlobScene, Scene, SceneError};
use ossicle::{Asset, Scalar, Q16};
use ossicle_qemu::Aligned;
use ossicle_qemu::{check_stack, dec, exit, line, repaint_stack, stack_usage, Lines};

#[cfg(ossicle_scene_blobs_missing)]
compile_error!(
    "the scene blobs or the script to embed are missing: run `scripts/qemu/check.sh --blobs-only` (see build.rs)"
);

static CASTLE_Q16: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/castle-q16.osb")));
static CASTLE_F32: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/castle-f32.osb")));
static SCRIPT: &str = include_str!(concat!(env!("OUT_DIR"), "/castle.script"));

/// The scene's capacities: nodes (the castle has 12), Animators / machines / sprite players each
/// (2, 1, 2), parameters per machine (4).
const NODES: usize = 16;
const CONTROLLERS: usize = 4;
const PARAMS: usize = 8;

/// The scene runtime this firmware uses.
type CastleScene<'a, S> = Scene<'a, S, NODES, CONTROLLERS, PARAMS>;

/// Why a run failed.
#[derive(Clone, Copy, Debug)]
enum SceneRunError {
    /// The blob did not load.
    Load,
    /// The blob holds no scene.
    NoScene,
    /// The scene does not fit the runtime (or its scalars are not the run's).
    Scene,
    /// The trace stopped at a script line.
    Trace,
}

impl SceneRunError {
    /// The error's code in QEMU's exit status.
    fn code(self) -> u8 {
        match self {
            SceneRunError::Load => 1,
            SceneRunError::NoScene => 2,
            SceneRunError::Scene => 3,
            SceneRunError::Trace => 4,
        }
    }
}

/// The name of a trace error's kind (the runner's `Display` would pull in `core::fmt`'s `Debug` of
/// strings; the line number and this say enough).
fn kind_name(kind: &TraceErrorKind<'_>) -> &'static [u8] {
    match kind {
        TraceErrorKind::UnknownCommand(_) => b"unknown command",
        TraceErrorKind::Usage(_) => b"usage",
        TraceErrorKind::BadNumber(_) => b"bad number",
        TraceErrorKind::NumberTooLarge(_) => b"number too large",
        TraceErrorKind::BadCount(_) => b"bad repeat count",
        TraceErrorKind::NoAnimator(_) => b"no such Animator",
        TraceErrorKind::NoMachine(_) => b"no such StateMachine",
        TraceErrorKind::NoSprite(_) => b"no such sprite",
        TraceErrorKind::NoClip(_) => b"no such clip",
        TraceErrorKind::NoParam(_) => b"no such parameter",
        TraceErrorKind::NoState(_) => b"no such state",
        TraceErrorKind::NoAnimation(_) => b"no such animation",
        TraceErrorKind::WrongKind { .. } => b"wrong parameter kind",
        TraceErrorKind::TooManyEvents => b"too many events in a step",
        TraceErrorKind::Write => b"write",
    }
}

/// Loads the castle from `blob`, runs the script against it and prints the trace; returns the
/// number of steps.
#[inline(never)]
fn run<S: Scalar>(ty: &[u8], blob: &[u8]) -> Result<u32, SceneRunError> {
    let (mut a, mut b, mut c, mut d) = ([0u8; 10], [0u8; 10], [0u8; 10], [0u8; 10]);
    line(&[
        b"scene ",
        ty,
        b" bytes ",
        dec(CastleScene::<S>::BYTES as u32, &mut a),
        b" capacity ",
        dec(NODES as u32, &mut b),
        b" nodes ",
        dec(CONTROLLERS as u32, &mut c),
        b" controllers ",
        dec(PARAMS as u32, &mut d),
        b" params",
    ]);
    let asset = Asset::load(blob).map_err(|_| SceneRunError::Load)?;
    let blob_scene = asset.scene(0).ok_or(SceneRunError::NoScene)?;
    // The scene stays in the `Result` it was made in: moving it out would copy it on the stack.
    let mut made = make::<S>(&asset, blob_scene);
    let scene = made.as_mut().map_err(|_| SceneRunError::Scene)?;
    line(&[b"trace ", ty, b" begin"]);
    match trace(scene) {
        Ok(steps) => {
            line(&[b"trace ", ty, b" end: ", dec(steps, &mut a), b" steps"]);
            Ok(steps)
        }
        Err(e) => {
            let n = u32::try_from(e.line).unwrap_or(u32::MAX);
            line(&[b"trace ", ty, b" error: script line ", dec(n, &mut a), b": ", kind_name(&e.kind)]);
            Err(SceneRunError::Trace)
        }
    }
}

/// Sets the scene up (out of line: `Scene::new`'s own frame holds it while it is built).
#[inline(never)]
fn make<'a, S: Scalar>(asset: &Asset<'a>, blob_scene: BlobScene<'a>) -> Result<CastleScene<'a, S>, SceneError> {
    Scene::new(asset, blob_scene)
}

/// Runs the script against `scene`, printing the trace (out of line: the runner's frame is not
/// added to the one that holds the scene).
#[inline(never)]
fn trace<S: Scalar>(scene: &mut CastleScene<'_, S>) -> Result<u32, trace::TraceError<'static>> {
    let mut out = Lines::new();
    let result = trace::run(scene, SCRIPT, &mut out);
    out.flush();
    result
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let q16 = run::<Q16>(b"q16", &CASTLE_Q16.0);
    let (_, q16_used) = stack_usage();
    repaint_stack();
    let f32 = run::<f32>(b"f32", &CASTLE_F32.0);
    let (size, f32_used) = stack_usage();
    check_stack(size, (b"q16", q16_used), (b"f32", f32_used));
    match (q16, f32) {
        (Ok(_), Ok(_)) => {
            line(&[b"ok"]);
            exit(0)
        }
        (Err(e), _) => exit(10 + u32::from(e.code())),
        (_, Err(e)) => exit(20 + u32::from(e.code())),
    }
}
