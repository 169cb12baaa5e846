//! Blobs with scene sections: whatever `Asset::load` accepts, the scene runtime and the trace runner
//! run without panicking (every index in a validated scene section may still point anywhere the
//! checks allow: huge key counts, empty clips, machines without transitions...).
//!
//! Each input is loaded as it is and with its header's length and CRC repaired, so the fuzzer
//! reaches the scene section parser behind the checksum. Seeds: blobs built from the two
//! XML examples (fuzz/seeds/scene_blob).
#![no_main]

#[path = "repair.rs"]
mod repair;

use libfuzzer_sys::fuzz_target;
use ossicle::event::EventQueue;
use ossicle::scene::{trace, Scene};
use ossicle::{asset::Asset, Scalar, Q16};

const SCRIPT: &str = "update 0.1\nupdate 0.5 3\nupdate 100\nupdate 0\n";

fn run<S: Scalar>(asset: &Asset<'_>) {
    for blob_scene in asset.scenes() {
        let Ok(mut scene) = Scene::<S, 32, 8, 8>::new(asset, blob_scene) else { continue };
        let mut out = String::new();
        let _ = trace::run(&mut scene, SCRIPT, &mut out);
        let mut q: EventQueue<16> = EventQueue::new();
        scene.update(S::from_f32(0.25), &mut q);
        for i in 0..blob_scene.animator_count() {
            if let Some((a, clips, nodes)) = scene.animator_parts(i) {
                a.seek(&clips, nodes, S::from_f32(0.5));
                let _ = a.apply(&clips, nodes, 0, S::ONE);
                a.stop(&clips, nodes, true);
            }
        }
    }
}

fn exercise(data: &[u8]) {
    if let Ok(asset) = Asset::load(data) {
        run::<f32>(&asset);
        run::<Q16>(&asset);
    }
}

fuzz_target!(|data: &[u8]| {
    exercise(data);
    if let Some(fixed) = repair::repaired(data) {
        exercise(&fixed);
    }
});
