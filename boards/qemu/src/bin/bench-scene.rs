//! Instruction-count benchmarks of scenes read in place from a blob, in f32 and Q16.16: the
//! Animator per track and the state machine per update with their definitions in flash
//! (`BlobClips`, `BlobMachine`), and a whole `Scene::update` of the castle.
//!
//! The protocol is `ossicle_qemu::bench`'s (markers, `bench <type> <name> <arity> <K>` lines), and
//! `scripts/bench/qemu-insns.sh` runs this binary after the others. Nothing is subtracted (arity 0):
//! the figure is count / K.
//!
//! - `animator.blob.N-float-track(s)`: what `bench-anim`'s `animator.N-float-track(s)` measures
//!   with an in-RAM `SliceClips`, with the clip read from the embedded blob of
//!   `scenes/bench.scene.xml` (`bench-scene-<type>.osb`): one `Animator` playing a looping 2 s clip
//!   of N Float tracks (keys at 0, 1 and 2 s, InOutQuad) into a sink that stores each value with
//!   volatile writes; `U` updates of 1/60 s after a first one; `K = U·N`: **per track update**.
//! - `statemachine.blob.5-transitions`: `bench-anim`'s `statemachine.5-transitions` (the issue's
//!   idle/run/jump machine, 3 parameters, 5 transitions, in a state where no transition holds, so
//!   every update checks every condition; `update_alone`), with the machine read from the blob;
//!   `K = U`: **per update**.
//! - `scene.castle.update`: `U` calls of `Scene::update(1/60 s)` on the castle
//!   (`samples/scenes/castle.scene.xml`, the scene image's blobs `castle-<type>.osb`) in a
//!   `Scene<S, 16, 4, 8>`, half a second in (the UI's Animator has finished; Props plays its 2 s
//!   loop of 3 tracks and an event track, the coin spins at 10 fps, the knight's Brain checks its 6
//!   transitions in `idle`), events into a queue that is not drained while measuring; `K = U`:
//!   **per scene update** (2 Animators, 2 sprite players, 1 machine, their writes into the node
//!   table).
//!
//! After each measurement the result is checked (still playing, no event, the state unchanged; the
//! scene's queue did not overflow), and a `bench-error` line is printed when it is not so.
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::write_volatile;
use ossicle_qemu::Aligned;

use ossicle::animator::Animator;
use ossicle::event::EventQueue;
use ossicle::scene::{BlobScene, Scene, SceneError};
use ossicle::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::statemachine::StateMachine;
use ossicle::{Asset, Scalar, Q16};
use ossicle_qemu::bench::{announce, bench_start, bench_stop, check};
use ossicle_qemu::{exit, line};

#[cfg(any(ossicle_scene_blobs_missing, ossicle_bench_scene_blobs_missing))]
compile_error!("the scene blobs to embed are missing: run `scripts/qemu/check.sh --blobs-only` (see build.rs)");

static BENCH_Q16: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/bench-scene-q16.osb")));
static BENCH_F32: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/bench-scene-f32.osb")));
static CASTLE_Q16: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/castle-q16.osb")));
static CASTLE_F32: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/castle-f32.osb")));

/// Updates per measurement.
const U: usize = 16;

/// The castle's runtime, as in the scene image.
type CastleScene<'a, S> = Scene<'a, S, 16, 4, 8>;

/// A sink that keeps the last value of each kind with volatile writes, as `bench-anim`'s.
struct StoreSink<S> {
    x: S,
    y: S,
    color: u32,
}

impl<S: Scalar> PropertySink<S> for StoreSink<S> {
    #[inline(always)]
    fn set(&mut self, _: TargetId, _: PropertyId, value: PropertyValue<S>) {
        // SAFETY: volatile writes to fields of `self`, which are valid and aligned.
        unsafe {
            match value {
                PropertyValue::Float(v) => write_volatile(&mut self.x, v),
                PropertyValue::Vector(v) => {
                    write_volatile(&mut self.x, v.x);
                    write_volatile(&mut self.y, v.y);
                }
                PropertyValue::Color(c) => write_volatile(&mut self.color, u32::from_le_bytes(c.to_array())),
                _ => {}
            }
        }
    }
}

/// The first scene of `blob`.
fn scene_of(blob: &[u8]) -> Option<(Asset<'_>, BlobScene<'_>)> {
    let asset = Asset::load(blob).ok()?;
    let scene = asset.scene(0)?;
    Some((asset, scene))
}

/// `U` updates of Animator `index` of the bench scene (its clip 0 has `tracks` Float tracks).
#[inline(never)]
fn animator<S: Scalar>(ty: &[u8], name: &str, blob: &[u8], index: usize, tracks: usize) {
    let Some((_, scene)) = scene_of(blob) else { return check(name, false) };
    let Ok(Some(clips)) = scene.clips::<S>(index) else { return check(name, false) };
    let mut sink = StoreSink { x: S::ZERO, y: S::ZERO, color: 0 };
    let mut events: EventQueue<4> = EventQueue::new();
    let mut a: Animator<S> = Animator::new(0);
    let ok = a.play(&clips, 0, false).is_ok();
    let dt = S::from_ratio(1, 60);
    a.update(dt, &clips, &mut sink, &mut events);
    announce(ty, name, 0, U * tracks);
    bench_start();
    for _ in 0..U {
        a.update(black_box(dt), &clips, &mut sink, &mut events);
    }
    bench_stop();
    check(name, ok && a.is_playing() && events.is_empty());
}

/// `U` updates of the bench scene's machine where no transition holds.
#[inline(never)]
fn machine<S: Scalar>(ty: &[u8], name: &str, blob: &[u8]) {
    let Some((_, scene)) = scene_of(blob) else { return check(name, false) };
    let Ok(Some(def)) = scene.machine::<S>(0) else { return check(name, false) };
    let mut events: EventQueue<4> = EventQueue::new();
    let Ok(mut sm) = StateMachine::<S, 4>::new(0, 0, &def) else { return check(name, false) };
    let dt = S::from_ratio(1, 60);
    sm.update_alone(dt, &def, &mut events);
    let _ = events.drain().count();
    announce(ty, name, 0, U);
    bench_start();
    for _ in 0..U {
        black_box(sm.update_alone(black_box(dt), &def, &mut events));
    }
    bench_stop();
    check(name, sm.current() == 0 && events.is_empty());
}

/// Sets the castle up (out of line, as in the scene image: `Scene::new`'s frame holds it while it
/// is built).
#[inline(never)]
fn make<'a, S: Scalar>(asset: &Asset<'a>, scene: BlobScene<'a>) -> Result<CastleScene<'a, S>, SceneError> {
    Scene::new(asset, scene)
}

/// `U` updates of the whole castle, half a second in.
#[inline(never)]
fn castle<S: Scalar>(ty: &[u8], blob: &[u8]) {
    let name = "scene.castle.update";
    let Some((asset, blob_scene)) = scene_of(blob) else { return check(name, false) };
    let mut made = make::<S>(&asset, blob_scene);
    let Ok(scene) = made.as_mut() else { return check(name, false) };
    let dt = S::from_ratio(1, 60);
    let mut events: EventQueue<64> = EventQueue::new();
    for _ in 0..30 {
        scene.update(dt, &mut events);
    }
    events.clear();
    announce(ty, name, 0, U);
    bench_start();
    for _ in 0..U {
        scene.update(black_box(dt), &mut events);
    }
    bench_stop();
    let brain = scene.blob().find_node("Brain").and_then(|n| scene.blob().machine_at(n));
    let idle = brain.and_then(|m| scene.machine(m)).is_some_and(|sm| sm.current() == 0);
    let props = scene.blob().find_node("Props").and_then(|n| scene.blob().animator_at(n));
    let playing = props.and_then(|a| scene.animator(a)).is_some_and(|a| a.is_playing());
    check(name, idle && playing && events.dropped() == 0);
}

fn suite<S: Scalar>(ty: &'static [u8], bench: &[u8], castle_blob: &[u8]) {
    animator::<S>(ty, "animator.blob.1-float-track", bench, 0, 1);
    animator::<S>(ty, "animator.blob.4-float-tracks", bench, 1, 4);
    machine::<S>(ty, "statemachine.blob.5-transitions", bench);
    castle::<S>(ty, castle_blob);
}

#[cortex_m_rt::entry]
fn main() -> ! {
    suite::<f32>(b"f32", &BENCH_F32.0, &CASTLE_F32.0);
    suite::<Q16>(b"q16", &BENCH_Q16.0, &CASTLE_Q16.0);
    line(&[b"bench done"]);
    exit(0)
}
