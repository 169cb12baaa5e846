#![feature(portable_simd)]

//! ossicle's structure-of-arrays blending and local-to-model jobs side by side with
//! [ozz-animation-rs](https://crates.io/crates/ozz-animation-rs) 0.11 (a Rust port of
//! ozz-animation's runtime: the same SoA layout and algorithms, SSE2 through `std::simd`, and, like
//! ossicle, deterministic: its normalisation is a square root and a division, not `rsqrtps`), on
//! the same machine, the same Mixamo poses and the same 70-bone skeleton.
//!
//! The inputs are those of the host bench's `f32_blob/<clip>/blend2_soa` and `l2m_soa_padded` rows
//! (`host/benches/skeleton.rs`): the three clips and Idle's skeleton in one lossless f32 blob built
//! by the host; pose A is the clip sampled at half its duration, pose B is Idle at 0.
//!
//! - `blend2`: two layers, B at 0.7 and A at 0.3, no masks (ossicle: `SoaBlendingJob::run`; ozz:
//!   `BlendingJob::run`, threshold 0.1 as ossicle's, so no rest-pose pass in either).
//! - `l2m`: the model matrices of A (ossicle: `SoaLocalToModelJob::run` into `Affine3A`s, 4×4
//!   columns; ozz: `LocalToModelJob::run` into `glam::Mat4`s).
//!
//! Each row is timed as the host bench's min mode does it: batches of about 20 µs for a second
//! after a warm-up, the fastest batch's time per run divided by 70 (ns per joint). The two
//! libraries' rows alternate, three rounds; the table gives each row's fastest and slowest round.
//!
//! Before timing, the two libraries' results are compared: the blended poses and the model
//! matrices must agree within a few f32 roundings (the printed maximum differences), so both
//! compute the same thing.
//!
//! `scripts/bench/ozz-rs.sh` (which installs the pinned nightly when it is missing), or
//! `cargo +nightly-2025-09-01 run --release` here. With `--check` it only compares the results
//! (the test script runs that). Fixtures: `OSSICLE_FIXTURES`, else `../../../shared/fixtures`;
//! without them it says so and exits 0, unless `OSSICLE_REQUIRE_FIXTURES=1`.

use glam::Mat4;
use ossicle::math::{Affine3A, Transform3};
use ossicle::skeleton::{
    BlendLayer, RotationInterp, SamplingContext, SamplingJob, SkelClipSource, SkeletonSource, SoaBlendingJob,
    SoaLocalToModelJob, SoaTransform3,
};
use ossicle::Asset;
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::Project;
use ossicle_host::write::{self, SkelOptions, WriteOptions};
use ozz_animation_rs::{Archive, BlendingJob, BlendingLayer, LocalToModelJob, Skeleton, SoaTransform};
use std::hint::black_box;
use std::path::PathBuf;
use std::simd::f32x4;
use std::time::{Duration, Instant};

const BONES: usize = 70;
const GROUPS: usize = BONES.div_ceil(4);
const CLIPS: [&str; 3] = ["Idle", "Jumping", "SlowRun"];
const ROUNDS: usize = 3;

fn fixtures() -> PathBuf {
    match std::env::var_os("OSSICLE_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures"),
    }
}

/// The three clips bound to Idle's skeleton in one lossless f32 blob, as the host bench builds it.
fn blob_bytes() -> Vec<u8> {
    let mut project = Project::default();
    for name in CLIPS {
        let path = fixtures().join("eva").join(format!("{name}.eva"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut p = ossicle_host::sources::eva::parse(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        if name != "Idle" {
            p.skeletons.clear();
            for c in &mut p.skel_clips {
                c.skeleton = Some("Idle".into());
            }
        }
        project.merge(p);
    }
    let opts = WriteOptions::new(ScalarEncoding::F32);
    write::write_blob_skeletal(&project, &opts, &SkelOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// `joints` as ozz's SoA groups (lanes past the last joint: identity transforms).
fn ozz_soa(joints: &[Transform3<f32>]) -> Vec<SoaTransform> {
    (0..joints.len().div_ceil(4))
        .map(|g| {
            let lane = |f: &dyn Fn(&Transform3<f32>) -> f32, pad: f32| {
                f32x4::from_array(std::array::from_fn(|l| joints.get(4 * g + l).map_or(pad, f)))
            };
            let mut t = SoaTransform::default();
            t.translation.x = lane(&|j| j.translation.x, 0.0);
            t.translation.y = lane(&|j| j.translation.y, 0.0);
            t.translation.z = lane(&|j| j.translation.z, 0.0);
            t.rotation.x = lane(&|j| j.rotation.x, 0.0);
            t.rotation.y = lane(&|j| j.rotation.y, 0.0);
            t.rotation.z = lane(&|j| j.rotation.z, 0.0);
            t.rotation.w = lane(&|j| j.rotation.w, 1.0);
            t.scale.x = lane(&|j| j.scale.x, 1.0);
            t.scale.y = lane(&|j| j.scale.y, 1.0);
            t.scale.z = lane(&|j| j.scale.z, 1.0);
            t
        })
        .collect()
}

/// An ozz skeleton with `skel`'s hierarchy and rest pose, read from an archive written here in
/// ozz's binary layout (little-endian tag byte, "ozz-skeleton", version 2, joint count, name bytes,
/// null-terminated names, parents as i16, the rest pose as SoA groups of 40 f32).
fn ozz_skeleton<K: SkeletonSource<f32, Transform3<f32>>>(skel: &K) -> Skeleton {
    let n = skel.bone_count();
    let names: Vec<String> = (0..n).map(|i| format!("joint{i}")).collect();
    let mut a = vec![1u8];
    a.extend_from_slice(b"ozz-skeleton\0");
    a.extend_from_slice(&2u32.to_le_bytes());
    a.extend_from_slice(&(n as u32).to_le_bytes());
    a.extend_from_slice(&(names.iter().map(|s| s.len() + 1).sum::<usize>() as u32).to_le_bytes());
    for s in &names {
        a.extend_from_slice(s.as_bytes());
        a.push(0);
    }
    for i in 0..n {
        a.extend_from_slice(&skel.parent(i).map_or(-1i16, |p| p as i16).to_le_bytes());
    }
    let rest: Vec<Transform3<f32>> = (0..n).map(|i| skel.rest(i)).collect();
    for g in ozz_soa(&rest) {
        let (t, r, s) = (g.translation, g.rotation, g.scale);
        for v in [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z] {
            for f in v.to_array() {
                a.extend_from_slice(&f.to_le_bytes());
            }
        }
    }
    let mut archive = Archive::from_vec(a).expect("archive");
    let skeleton = Skeleton::from_archive(&mut archive).expect("the skeleton archive reads back");
    assert_eq!(skeleton.num_joints(), n);
    skeleton
}

/// The fastest batch of `f` (one whole skeleton per call), in ns per joint (see the module docs).
fn time(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < Duration::from_millis(200) {
        f();
        calls += 1;
    }
    let per_batch = (calls / 10_000).max(1);
    let (mut best, run) = (f64::MAX, Instant::now());
    while run.elapsed() < Duration::from_secs(1) {
        let t = Instant::now();
        for _ in 0..per_batch {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / per_batch as f64);
    }
    best / BONES as f64
}

/// The largest difference between `a` and `b` relative to `max(1, |b|)`.
fn max_rel(a: impl IntoIterator<Item = f32>, b: impl IntoIterator<Item = f32>) -> f64 {
    a.into_iter().zip(b).map(|(x, y)| f64::from((x - y).abs()) / f64::from(y.abs()).max(1.0)).fold(0.0, f64::max)
}

/// Every number of the first `BONES` lanes of ozz's groups, bone by bone.
fn ozz_numbers(groups: &[SoaTransform]) -> Vec<f32> {
    (0..BONES)
        .flat_map(|i| {
            let (g, l) = (&groups[i / 4], i % 4);
            let (t, r, s) = (g.translation, g.rotation, g.scale);
            [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z].map(|v| v.to_array()[l])
        })
        .collect()
}

fn ossicle_numbers(groups: &[SoaTransform3<f32>]) -> Vec<f32> {
    let mut joints = [Transform3::<f32>::IDENTITY; BONES];
    SoaTransform3::unpack(groups, &mut joints).expect("unpack");
    joints
        .iter()
        .flat_map(|j| {
            let (t, r, s) = (j.translation, j.rotation, j.scale);
            [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z]
        })
        .collect()
}

struct Row {
    name: String,
    ossicle: Vec<f64>,
    ozz: Vec<f64>,
}

fn main() {
    let check_only = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("usage: ossicle-peer-ozz-rs [--check]   (unknown argument {other:?})");
            std::process::exit(2);
        }
    };
    let eva = fixtures().join("eva");
    if !eva.join("Idle.eva").is_file() {
        if std::env::var_os("OSSICLE_REQUIRE_FIXTURES").is_some_and(|v| v == "1") {
            eprintln!("error: the Mixamo fixtures are missing ({} has no Idle.eva)", eva.display());
            std::process::exit(1);
        }
        println!("skipped: the Mixamo fixtures are missing ({} has no Idle.eva; set OSSICLE_FIXTURES)", eva.display());
        return;
    }
    let bytes = blob_bytes();
    let asset = Asset::load(&bytes).expect("the blob loads");
    let skel = asset.skeleton_named("Idle").expect("Idle's skeleton");
    let idle = asset.skel_clip_named("Idle").expect("Idle");
    assert_eq!(skel.bone_count(), BONES);
    let ozz_skel = ozz_skeleton(&skel);
    let sample = |clip: &_, time: f32| {
        let mut pose = [Transform3::<f32>::IDENTITY; BONES];
        SamplingJob { skeleton: &skel, clip, time, rotation: RotationInterp::Nlerp, lod: u8::MAX }
            .run(&mut SamplingContext::<BONES>::new(), &mut pose)
            .expect("sampling runs");
        pose
    };
    let pose_b = sample(&idle, 0.0);
    let mut rows = Vec::new();
    for name in CLIPS {
        let clip = asset.skel_clip_named(name).expect("clip");
        let pose_a = sample(&clip, SkelClipSource::<f32>::duration(&clip) * 0.5);
        let (mut sa, mut sb) = ([SoaTransform3::<f32>::IDENTITY; GROUPS], [SoaTransform3::<f32>::IDENTITY; GROUPS]);
        SoaTransform3::pack(&pose_a, &mut sa).expect("pack");
        SoaTransform3::pack(&pose_b, &mut sb).expect("pack");
        let (za, zb) = (ozz_soa(&pose_a), ozz_soa(&pose_b));

        // Blend: B at 0.7, A at 0.3.
        let layers = [
            BlendLayer { pose: &sb[..], weight: 0.7f32, mask: None },
            BlendLayer { pose: &sa[..], weight: 0.3, mask: None },
        ];
        let soa_blend = SoaBlendingJob::new(&skel, &layers);
        let mut blended = [SoaTransform3::<f32>::IDENTITY; GROUPS];
        soa_blend.run(&mut blended).expect("ossicle blend");
        let mut ozz_blend: BlendingJob<&Skeleton, &[SoaTransform], Vec<SoaTransform>> = BlendingJob::default();
        ozz_blend.set_skeleton(&ozz_skel);
        ozz_blend.layers_mut().push(BlendingLayer::with_weight(&zb[..], 0.7));
        ozz_blend.layers_mut().push(BlendingLayer::with_weight(&za[..], 0.3));
        ozz_blend.set_output(vec![SoaTransform::default(); GROUPS]);
        ozz_blend.run().expect("ozz blend");
        let ozz_blended = ozz_numbers(ozz_blend.output().expect("output"));
        let d_blend = max_rel(ossicle_numbers(&blended), ozz_blended);
        assert!(d_blend < 1e-6, "{name}: the blended poses differ by {d_blend:e}");

        // Local-to-model of A.
        let soa_l2m = SoaLocalToModelJob::new(&skel);
        let mut model = [Affine3A::<f32>::IDENTITY; BONES];
        soa_l2m.run(&sa, &mut model).expect("ossicle l2m");
        let mut ozz_l2m: LocalToModelJob<&Skeleton, &[SoaTransform], Vec<Mat4>> = LocalToModelJob::default();
        ozz_l2m.set_skeleton(&ozz_skel);
        ozz_l2m.set_input(&za[..]);
        ozz_l2m.set_output(vec![Mat4::IDENTITY; BONES]);
        ozz_l2m.run().expect("ozz l2m");
        let ozz_model: Vec<f32> = ozz_l2m.output().expect("output").iter().flat_map(|m| m.to_cols_array()).collect();
        let d_l2m = max_rel(model.iter().flat_map(|m| m.to_cols_array()), ozz_model);
        assert!(d_l2m < 1e-6, "{name}: the model matrices differ by {d_l2m:e}");
        println!(
            "{name}: largest relative difference ossicle / ozz-animation-rs: blend {d_blend:.1e}, l2m {d_l2m:.1e}"
        );
        if check_only {
            continue;
        }

        let mut blend = Row { name: format!("{name}/blend2"), ossicle: vec![], ozz: vec![] };
        let mut l2m = Row { name: format!("{name}/l2m"), ossicle: vec![], ozz: vec![] };
        for _ in 0..ROUNDS {
            blend.ossicle.push(time(|| {
                let _ = black_box(soa_blend.run(black_box(&mut blended)));
            }));
            blend.ozz.push(time(|| {
                let _ = black_box(black_box(&mut ozz_blend).run());
            }));
            l2m.ossicle.push(time(|| {
                let _ = black_box(soa_l2m.run(black_box(&sa), &mut model));
            }));
            l2m.ozz.push(time(|| {
                let _ = black_box(black_box(&mut ozz_l2m).run());
            }));
        }
        rows.push(blend);
        rows.push(l2m);
    }
    if check_only {
        return;
    }
    let range = |v: &[f64]| {
        let (lo, hi) = v.iter().fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        format!("{lo:.2}–{hi:.2}")
    };
    println!();
    println!(
        "| f32, ns per joint (fastest batch; range over {ROUNDS} alternate rounds) | ossicle | ozz-animation-rs 0.11 |"
    );
    println!("| --- | ---: | ---: |");
    for r in &rows {
        println!("| {} | {} | {} |", r.name, range(&r.ossicle), range(&r.ozz));
    }
}
