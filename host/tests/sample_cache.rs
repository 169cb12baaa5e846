//! The kernel's `CachedSamplingContext` and `DirectSamplingContext` on real blobs: Mixamo's Idle, Jumping and SlowRun built
//! by the `ossicle` CLI (lossless, and SlowRun reduced and quantised: packed rotations, 16-bit
//! values, indexed times), in f32 and Q16.16, sampled forward at 60 Hz, at 1.5× speed, backwards
//! and at scattered times. Every pose must equal, bit for bit, the pose a plain `SamplingContext`
//! gives (whose values `sample_cli.rs` checks against the source keys).
//!
//! Needs the fixtures (`eva/`); without them the test says so and passes, unless
//! `OSSICLE_REQUIRE_FIXTURES=1`.

mod common;

use std::path::Path;
use std::process::Command;

use common::fixtures;
use ossicle::math::Transform3;
use ossicle::skeleton::{
    BlobSkelClip, BlobSkeleton, CachedSamplingContext, DirectSamplingContext, RotationInterp, SamplingContext,
    SamplingJob, SkelClipSource,
};
use ossicle::{Asset, Scalar, Q16};

const BONES: usize = 70;

fn build(eva: &Path, out: &Path, scalar: &str, reduced: bool) -> Vec<u8> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ossicle"));
    cmd.arg("build").arg(eva).arg("-o").arg(out).args(["--scalar", scalar]);
    if reduced {
        cmd.args(["--reduce", "0.01", "--quantize"]);
    }
    let status = cmd.output().expect("runs ossicle");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    std::fs::read(out).expect("blob written")
}

/// The times: forward at 60 Hz over two loops, at 1.5× speed, backwards, then scattered.
fn schedule(duration: f64) -> Vec<f64> {
    let mut ts: Vec<f64> = (0..).map(|i| f64::from(i) / 60.0).take_while(|&t| t < 2.0 * duration).collect();
    ts.extend((0..).map(|i| f64::from(i) * 1.5 / 60.0).take_while(|&t| t < duration));
    ts.extend((0..).map(|i| duration - f64::from(i) / 60.0).take_while(|&t| t > 0.0));
    let mut x = 0x9E37_79B9u32;
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        ts.push(f64::from(x) / f64::from(u32::MAX) * duration);
    }
    ts
}

fn same_poses<S: Scalar>(label: &str, skel: &BlobSkeleton<'_>, clip: &BlobSkelClip<'_>) -> usize {
    let mut plain = Box::new(SamplingContext::<BONES>::new());
    let mut cached = Box::new(CachedSamplingContext::<S, Transform3<S>, BONES>::new());
    let mut direct = Box::new(DirectSamplingContext::<S, Transform3<S>, BONES>::new());
    let (mut a, mut b) = ([Transform3::<S>::IDENTITY; BONES], [Transform3::<S>::IDENTITY; BONES]);
    let mut c = b;
    let duration = SkelClipSource::<S>::duration(clip).to_f64();
    let times = schedule(duration);
    for (i, &t) in times.iter().enumerate() {
        let rotation = if i % 7 == 3 { RotationInterp::Slerp } else { RotationInterp::Nlerp };
        // Every bone of these skeletons has LOD 0: a limit of 0 takes the jobs' LOD path and
        // changes nothing.
        let lod = if i % 11 == 5 { 0 } else { u8::MAX };
        let job = SamplingJob { skeleton: skel, clip, time: S::from_f64(t), rotation, lod };
        job.run(&mut *plain, &mut a).unwrap();
        job.run(&mut *cached, &mut b).unwrap();
        job.run(&mut *direct, &mut c).unwrap();
        assert_eq!(a, b, "{label} at t = {t} (cached)");
        assert_eq!(a, c, "{label} at t = {t} (direct)");
    }
    times.len()
}

fn check_blob<S: Scalar>(label: &str, bytes: &[u8], name: &str) {
    let asset = Asset::load(bytes).expect("loads");
    let clip = asset.skel_clip_named(name).expect("clip");
    let skel = asset.skeleton_of(&clip).expect("skeleton");
    clip.check::<S>().unwrap();
    let n = same_poses::<S>(label, &skel, &clip);
    // Two loops at 60 Hz, one at 90 Hz, one backwards and 300 seeks: over 400 samples for the
    // shortest clip (SlowRun, 0.77 s).
    assert!(n > 400, "{label}: {n} samples");
}

#[test]
fn cached_and_direct_sampling_equal_plain_sampling_on_mixamo_blobs() {
    let Some(fx) = fixtures() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (name, reduced) in [("Idle", false), ("Jumping", false), ("SlowRun", false), ("SlowRun", true)] {
        let eva = fx.join("eva").join(format!("{name}.eva"));
        for scalar in ["f32", "q16"] {
            let out = dir.path().join(format!("{name}-{scalar}-{reduced}.osb"));
            let bytes = build(&eva, &out, scalar, reduced);
            let label = format!("{name} {scalar}{}", if reduced { " reduced" } else { "" });
            if scalar == "f32" {
                check_blob::<f32>(&label, &bytes, name);
            } else {
                check_blob::<Q16>(&label, &bytes, name);
            }
        }
    }
}
