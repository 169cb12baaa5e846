#![feature(portable_simd)]

//! ossicle's sampling, structure-of-arrays blending and local-to-model jobs, and a whole frame of
//! them, side by side with [ozz-animation-rs](https://crates.io/crates/ozz-animation-rs) 0.11 (a
//! Rust port of ozz-animation's runtime: the same SoA layout and algorithms, SSE2 through
//! `std::simd`, and, like ossicle, deterministic: its normalisation is a square root and a
//! division, not `rsqrtps`), on the same machine, the same Mixamo clips and the same 70-bone
//! skeleton.
//!
//! The inputs are those of the host bench's `f32_blob/<clip>/...` rows (`host/benches/skeleton.rs`):
//! the three clips and Idle's skeleton in one lossless f32 blob built by the host. For the blend
//! and local-to-model rows, pose A is the clip sampled at half its duration, pose B is Idle at 0.
//!
//! - `blend2`: two layers, B at 0.7 and A at 0.3, no masks (ossicle: `SoaBlendingJob::run`; ozz:
//!   `BlendingJob::run`, threshold 0.1 as ossicle's, so no rest-pose pass in either).
//! - `l2m`: the model matrices of A (ossicle: `SoaLocalToModelJob::run` into `Affine3A`s, 4×4
//!   columns; ozz: `LocalToModelJob::run` into `glam::Mat4`s).
//! - `sample_fwd`: one sampling job per run, the time advancing by 1/60 s and wrapping at the
//!   clip's end, one persistent context (ossicle: `SamplingJob::run` with a
//!   `DirectSamplingContext` into `Transform3`s, the host bench's `sample_fwd_direct`; ozz:
//!   `SamplingJob::run` with its `SamplingContext` into SoA transforms, at the time divided by
//!   the duration, the ratio ozz samples at).
//! - `frame`: the host bench's `frame_soa_direct_padded`: the clip and Idle each sampled forward
//!   at 60 Hz (a context each, both times wrapping), Idle at 0.7 and the clip at 0.3 blended,
//!   local-to-model (ossicle: two `SamplingJob`s into `Transform3`s, both packed into SoA groups,
//!   `SoaBlendingJob`, `SoaLocalToModelJob` into `Affine3A`s; ozz: two `SamplingJob`s into SoA
//!   transforms, `BlendingJob`, `LocalToModelJob` into `Mat4`s, the jobs sharing their buffers
//!   through `Rc<RefCell<_>>`, the crate's default).
//!
//! About ozz's sampling rows: ozz-animation-rs 0.11's `SamplingJob` never clears its context's
//! "outdated" flags after decompressing the SoA key pairs they mark (the C++ original resets them
//! as it goes), so from the first run on every run decompresses all key pairs of all three
//! channels, whether or not a key changed: sampling at a fixed time costs it as much as playback
//! (about 32 ns per joint on this VM), and decompression is most of its sampling time (some 85%
//! under `perf`). The rows measure the crate as published; C++ ozz-animation does not pay that.
//!
//! ozz samples ozz runtime animations written here from the clips' IR (module `ozz_anim`): every
//! source key kept, laid out as ozz's offline `AnimationBuilder` lays out a raw animation it does
//! not optimise (no key reduction; keys added at 0 and at the duration; bones without keys hold
//! their bind pose). That is lossless as far as ozz goes: its runtime format quantises every key
//! (translations and scales to halves, rotations to three 15-bit components), where ossicle's blob
//! keeps the f32s, so the sampled poses agree within that quantisation, not bit for bit.
//!
//! Each row is timed as the host bench's min mode does it: batches of about 20 µs for a second
//! after a warm-up, the fastest batch's time per run divided by 70 (ns per joint). The two
//! libraries' rows alternate, three rounds; the table gives each row's fastest and slowest round.
//!
//! Before timing, the two libraries' results are compared (with `--check`, only that): the blended
//! poses and the model matrices of the same input poses must agree within a few f32 roundings;
//! the sampled poses, at every key time of the clip and midway between key times (forward, then
//! backward) and over 60 Hz playback past the clip's end, within ozz's quantisation (translations
//! and scales: 2⁻¹¹ of the track's largest component, a half's rounding; rotation components,
//! signs aligned: 1e-4); the frames' model matrices over 60 Hz playback, within that quantisation
//! carried down the bone chains. The maximum differences are printed.
//!
//! `scripts/bench/ozz-rs.sh` (which installs the pinned nightly when it is missing), or
//! `cargo +nightly-2025-09-01 run --release` here. With `--check` it only compares the results
//! (the test script runs that). Fixtures: `OSSICLE_FIXTURES`, else `../../../shared/fixtures`;
//! without them it says so and exits 0, unless `OSSICLE_REQUIRE_FIXTURES=1`.

mod ozz_anim;

use glam::Mat4;
use ossicle::math::{Affine3A, Transform3};
use ossicle::skeleton::{
    BlendLayer, BlobSkelClip, BlobSkeleton, DirectSamplingContext, RotationInterp, SamplingContext, SamplingJob,
    SkelClipSource, SkeletonSource, SoaBlendingJob, SoaLocalToModelJob, SoaTransform3,
};
use ossicle::Asset;
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::{Project, SkelClipIr, SkeletonIr};
use ossicle_host::write::{self, SkelOptions, WriteOptions};
use ozz_anim::Written;
use ozz_animation_rs::{
    Animation, Archive, BlendingJob, BlendingLayer, LocalToModelJob, SamplingContext as OzzSamplingContext,
    SamplingJob as OzzSamplingJob, Skeleton, SoaTransform,
};
use std::cell::RefCell;
use std::hint::black_box;
use std::path::PathBuf;
use std::rc::Rc;
use std::simd::f32x4;
use std::time::{Duration, Instant};

const BONES: usize = 70;
const GROUPS: usize = BONES.div_ceil(4);
const CLIPS: [&str; 3] = ["Idle", "Jumping", "SlowRun"];
const ROUNDS: usize = 3;
/// The playback step of `sample_fwd` and `frame`.
const DT: f32 = 1.0 / 60.0;
/// Bounds on the frames' model-matrix differences (see [`compare_models`]): the sampled poses'
/// quantisation carried down chains of up to a dozen bones gives about 3e-4 in both; a wiring
/// mistake (times, weights, clips) gives 1e-2 and more.
const FRAME_LINEAR: f64 = 1e-3;
const FRAME_TRANSLATION: f64 = 1e-3;

fn fixtures() -> PathBuf {
    match std::env::var_os("OSSICLE_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures"),
    }
}

/// The three clips bound to Idle's skeleton, as the host bench loads them.
fn project() -> Project {
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
    project
}

/// `project` in one lossless f32 blob, as the host bench builds it.
fn blob_bytes(project: &Project) -> Vec<u8> {
    let opts = WriteOptions::new(ScalarEncoding::F32);
    write::write_blob_skeletal(project, &opts, &SkelOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// `t + dt`, wrapped into `[0, duration)` (the host bench's `advance`).
fn advance(t: f32, dt: f32, duration: f32) -> f32 {
    let t = t + dt;
    if t >= duration {
        t - duration
    } else {
        t
    }
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

/// The blob skeleton's bones are the IR's, in the same order (the ozz tracks follow the IR's).
fn check_bone_order(skel: &BlobSkeleton<'_>, ir: &SkeletonIr) {
    assert_eq!(SkeletonSource::<f32, Transform3<f32>>::bone_count(skel), ir.bones.len());
    for (i, b) in ir.bones.iter().enumerate() {
        assert_eq!(SkeletonSource::<f32, Transform3<f32>>::parent(skel, i), b.parent, "bone {i}'s parent");
        let rest: Transform3<f32> = skel.rest(i);
        let t = rest.translation;
        assert_eq!([t.x, t.y, t.z], b.bind.translation.map(|v| v as f32), "bone {i}'s rest translation");
    }
}

/// The largest differences between ossicle's and ozz's sampled poses (see [`compare_sampling`]).
#[derive(Default)]
struct SampleDiffs {
    /// Translation / scale components: the difference divided by the track's largest component.
    translation: f64,
    scale: f64,
    /// Rotation components, after aligning the signs of the two quaternions (q and −q are the
    /// same rotation; ozz flips its keys into one hemisphere, ossicle keeps them as sourced).
    rotation: f64,
    samples: usize,
}

/// Each bone of ossicle's `pose` against its lane of ozz's `groups`, the largest differences kept
/// in `d`; panics beyond ozz's quantisation (see the module docs).
fn compare_pose(what: &str, pose: &[Transform3<f32>], groups: &[SoaTransform], w: &Written, d: &mut SampleDiffs) {
    // A half's rounding (2⁻¹¹ of the value at most, 2⁻²⁵ in the subnormal range), and some f32
    // roundings of the interpolation (whose factor ozz computes from ratios of the duration).
    const HALF: f64 = 1.0 / 2048.0;
    let bound = |m: f64| HALF * m * (1.0 + 1e-3) + 2f64.powi(-25) + 1e-6 * m;
    for (i, j) in pose.iter().enumerate() {
        let (g, l) = (&groups[i / 4], i % 4);
        let (t, r, s) = (g.translation, g.rotation, g.scale);
        let lane = |v: f32x4| f64::from(v.to_array()[l]);
        let channel = |a: [f32; 3], b: [f64; 3], m: f32, out: &mut f64, name: &str| {
            let m = f64::from(m);
            for (x, y) in a.iter().zip(b) {
                let e = (f64::from(*x) - y).abs();
                assert!(e <= bound(m), "{what}: bone {i} {name}: ossicle {a:?}, ozz {b:?} (track's largest {m})");
                *out = out.max(if m > 0.0 { e / m } else { e });
            }
        };
        let (jt, js) = (j.translation, j.scale);
        channel(
            [jt.x, jt.y, jt.z],
            [lane(t.x), lane(t.y), lane(t.z)],
            w.translation_magnitude[i],
            &mut d.translation,
            "translation",
        );
        channel([js.x, js.y, js.z], [lane(s.x), lane(s.y), lane(s.z)], w.scale_magnitude[i], &mut d.scale, "scale");
        let a = [j.rotation.x, j.rotation.y, j.rotation.z, j.rotation.w].map(f64::from);
        let b = [lane(r.x), lane(r.y), lane(r.z), lane(r.w)];
        let sign = if a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
        let e = a.iter().zip(b).map(|(x, y)| (x - sign * y).abs()).fold(0.0, f64::max);
        assert!(e <= 1e-4, "{what}: bone {i} rotation: ossicle {a:?}, ozz {b:?}");
        d.rotation = d.rotation.max(e);
    }
    d.samples += 1;
}

/// Samples `clip` (ossicle, from the blob) and `w`'s animation (ozz) at every key time of
/// `clip_ir` and midway between key times, in increasing order then in decreasing order, then over
/// 60 Hz playback from 0 to half a second past the clip's end (wrapping), one persistent context
/// per library (ossicle's the `DirectSamplingContext` the timed rows use), and compares the poses.
fn compare_sampling(
    skel: &BlobSkeleton<'_>,
    clip: &BlobSkelClip<'_>,
    clip_ir: &SkelClipIr,
    w: &Written,
) -> SampleDiffs {
    let duration = SkelClipSource::<f32>::duration(clip);
    assert_eq!(duration, clip_ir.duration as f32);
    assert_eq!(w.animation.duration(), duration);
    let mut keys: Vec<f32> = vec![0.0, duration];
    for t in &clip_ir.tracks {
        keys.extend(t.translation.iter().map(|k| k.time as f32));
        keys.extend(t.rotation.iter().map(|k| k.time as f32));
        keys.extend(t.scale.iter().map(|k| k.time as f32));
    }
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let mut times: Vec<f32> = keys.windows(2).map(|k| (k[0] + k[1]) * 0.5).chain(keys.iter().copied()).collect();
    times.sort_by(f32::total_cmp);
    let backward: Vec<f32> = times.iter().rev().copied().collect();
    times.extend(backward);
    let mut t = 0.0;
    for _ in 0..((duration + 0.5) / DT) as usize {
        times.push(t);
        t = advance(t, DT, duration);
    }

    let mut ctx = Box::new(DirectSamplingContext::<f32, Transform3<f32>, BONES>::new());
    let mut pose = [Transform3::<f32>::IDENTITY; BONES];
    let mut ozz: OzzSamplingJob<&Animation, Vec<SoaTransform>, OzzSamplingContext> = OzzSamplingJob::default();
    ozz.set_animation(&w.animation);
    ozz.set_context(OzzSamplingContext::from_animation(&w.animation));
    ozz.set_output(vec![SoaTransform::default(); GROUPS]);
    let mut d = SampleDiffs::default();
    for (n, &time) in times.iter().enumerate() {
        SamplingJob { skeleton: skel, clip, time, rotation: RotationInterp::Nlerp, lod: u8::MAX }
            .run(&mut *ctx, &mut pose)
            .expect("ossicle sampling");
        ozz.set_ratio(time / duration);
        ozz.run().expect("ozz sampling");
        let what = format!("{} at {time} s (sample {n})", clip_ir.name);
        compare_pose(&what, &pose, ozz.output().expect("output"), w, &mut d);
    }
    d
}

/// The largest differences between two poses' model matrices: of the 3×3 parts' elements, and of
/// the translations' components divided by the largest translation component of ozz's pose (its
/// extent: quantisation errors add up down the bone chains in absolute terms, so a component near
/// zero says nothing relative to itself).
fn compare_models(ossicle: &[Affine3A<f32>], ozz: &[Mat4]) -> (f64, f64) {
    let extent = ozz.iter().flat_map(|m| m.w_axis.truncate().to_array()).fold(0f32, |e, v| e.max(v.abs()));
    let (mut linear, mut translation) = (0f64, 0f64);
    for (a, b) in ossicle.iter().zip(ozz) {
        let (a, b) = (a.to_cols_array(), b.to_cols_array());
        for c in 0..4 {
            for r in 0..4 {
                let e = f64::from((a[4 * c + r] - b[4 * c + r]).abs());
                if c == 3 && r < 3 {
                    translation = translation.max(e / f64::from(extent));
                } else {
                    linear = linear.max(e);
                }
            }
        }
    }
    (linear, translation)
}

/// ossicle's frame, as the host bench's `frame_soa_direct_padded` runs it (see the module docs).
struct OssicleFrame<'a> {
    skel: &'a BlobSkeleton<'a>,
    clip: &'a BlobSkelClip<'a>,
    idle: &'a BlobSkelClip<'a>,
    ctx_a: Box<DirectSamplingContext<f32, Transform3<f32>, BONES>>,
    ctx_b: Box<DirectSamplingContext<f32, Transform3<f32>, BONES>>,
    pa: [Transform3<f32>; BONES],
    pb: [Transform3<f32>; BONES],
    sa: [SoaTransform3<f32>; GROUPS],
    sb: [SoaTransform3<f32>; GROUPS],
    blended: [SoaTransform3<f32>; GROUPS],
    model: [Affine3A<f32>; BONES],
    t: f32,
    ti: f32,
}

impl<'a> OssicleFrame<'a> {
    fn new(skel: &'a BlobSkeleton<'a>, clip: &'a BlobSkelClip<'a>, idle: &'a BlobSkelClip<'a>) -> Self {
        let ctx = || Box::new(DirectSamplingContext::<f32, Transform3<f32>, BONES>::new());
        Self {
            skel,
            clip,
            idle,
            ctx_a: ctx(),
            ctx_b: ctx(),
            pa: [Transform3::IDENTITY; BONES],
            pb: [Transform3::IDENTITY; BONES],
            sa: [SoaTransform3::IDENTITY; GROUPS],
            sb: [SoaTransform3::IDENTITY; GROUPS],
            blended: [SoaTransform3::IDENTITY; GROUPS],
            model: [Affine3A::IDENTITY; BONES],
            t: 0.0,
            ti: 0.0,
        }
    }

    fn step(&mut self) {
        let (skel, clip, idle) = (self.skel, self.clip, self.idle);
        let _ = SamplingJob { skeleton: skel, clip, time: self.t, rotation: RotationInterp::Nlerp, lod: u8::MAX }
            .run(&mut *self.ctx_a, &mut self.pa);
        let _ =
            SamplingJob { skeleton: skel, clip: idle, time: self.ti, rotation: RotationInterp::Nlerp, lod: u8::MAX }
                .run(&mut *self.ctx_b, &mut self.pb);
        let _ = SoaTransform3::pack(&self.pa, &mut self.sa);
        let _ = SoaTransform3::pack(&self.pb, &mut self.sb);
        let layers = [
            BlendLayer { pose: &self.sb[..], weight: 0.7f32, mask: None },
            BlendLayer { pose: &self.sa[..], weight: 0.3, mask: None },
        ];
        let _ = SoaBlendingJob::new(skel, &layers).run(&mut self.blended);
        let _ = black_box(SoaLocalToModelJob::new(skel).run(&self.blended, &mut self.model));
        self.t = advance(self.t, DT, SkelClipSource::<f32>::duration(clip));
        self.ti = advance(self.ti, DT, SkelClipSource::<f32>::duration(idle));
    }
}

type Shared<T> = Rc<RefCell<Vec<T>>>;

/// ozz's frame: the same steps through ozz's jobs (see the module docs).
struct OzzFrame<'a> {
    sample_a: OzzSamplingJob<&'a Animation, Shared<SoaTransform>, OzzSamplingContext>,
    sample_b: OzzSamplingJob<&'a Animation, Shared<SoaTransform>, OzzSamplingContext>,
    blend: BlendingJob<&'a Skeleton, Shared<SoaTransform>, Shared<SoaTransform>>,
    l2m: LocalToModelJob<&'a Skeleton, Shared<SoaTransform>, Vec<Mat4>>,
    t: f32,
    ti: f32,
}

impl<'a> OzzFrame<'a> {
    fn new(skel: &'a Skeleton, clip: &'a Animation, idle: &'a Animation) -> Self {
        let buffer = || Rc::new(RefCell::new(vec![SoaTransform::default(); GROUPS]));
        let (pa, pb, blended) = (buffer(), buffer(), buffer());
        let sampling = |anim: &'a Animation, out: &Shared<SoaTransform>| {
            let mut job = OzzSamplingJob::default();
            job.set_animation(anim);
            job.set_context(OzzSamplingContext::from_animation(anim));
            job.set_output(out.clone());
            job
        };
        let (sample_a, sample_b) = (sampling(clip, &pa), sampling(idle, &pb));
        let mut blend = BlendingJob::default();
        blend.set_skeleton(skel);
        blend.layers_mut().push(BlendingLayer::with_weight(pb, 0.7));
        blend.layers_mut().push(BlendingLayer::with_weight(pa, 0.3));
        blend.set_output(blended.clone());
        let mut l2m = LocalToModelJob::default();
        l2m.set_skeleton(skel);
        l2m.set_input(blended);
        l2m.set_output(vec![Mat4::IDENTITY; BONES]);
        Self { sample_a, sample_b, blend, l2m, t: 0.0, ti: 0.0 }
    }

    fn step(&mut self) {
        let (duration, idle_duration) = (
            self.sample_a.animation().expect("animation").duration(),
            self.sample_b.animation().expect("animation").duration(),
        );
        self.sample_a.set_ratio(self.t / duration);
        let _ = self.sample_a.run();
        self.sample_b.set_ratio(self.ti / idle_duration);
        let _ = self.sample_b.run();
        let _ = self.blend.run();
        let _ = black_box(self.l2m.run());
        self.t = advance(self.t, DT, duration);
        self.ti = advance(self.ti, DT, idle_duration);
    }
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
    let project = project();
    let bytes = blob_bytes(&project);
    let asset = Asset::load(&bytes).expect("the blob loads");
    let skel = asset.skeleton_named("Idle").expect("Idle's skeleton");
    let idle = asset.skel_clip_named("Idle").expect("Idle");
    assert_eq!(skel.bone_count(), BONES);
    let skel_ir = project.skeletons.iter().find(|s| s.name == "Idle").expect("Idle's skeleton IR");
    check_bone_order(&skel, skel_ir);
    let ozz_skel = ozz_skeleton(&skel);
    let clip_ir = |name: &str| project.skel_clips.iter().find(|c| c.name == name).expect("clip IR");
    let ozz_clips: Vec<Written> = CLIPS.iter().map(|&name| ozz_anim::ozz_animation(skel_ir, clip_ir(name))).collect();
    let ozz_idle = &ozz_clips[0].animation;
    let sample = |clip: &_, time: f32| {
        let mut pose = [Transform3::<f32>::IDENTITY; BONES];
        SamplingJob { skeleton: &skel, clip, time, rotation: RotationInterp::Nlerp, lod: u8::MAX }
            .run(&mut SamplingContext::<BONES>::new(), &mut pose)
            .expect("sampling runs");
        pose
    };
    let pose_b = sample(&idle, 0.0);
    let mut rows = Vec::new();
    for (name, written) in CLIPS.into_iter().zip(&ozz_clips) {
        let clip = asset.skel_clip_named(name).expect("clip");
        let duration = SkelClipSource::<f32>::duration(&clip);
        let pose_a = sample(&clip, duration * 0.5);
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

        // Sampling: ossicle's blob clip against ozz's animation of the same keys.
        let ds = compare_sampling(&skel, &clip, clip_ir(name), written);
        println!(
            "{name}: sampling, {} poses, largest difference ossicle / ozz-animation-rs: translation {:.1e}, \
             scale {:.1e} (of the track's largest component; a half's rounding: {:.1e}), rotation {:.1e} \
             (ozz animation: {} / {} / {} translation / rotation / scale keys, {} key times)",
            ds.samples,
            ds.translation,
            ds.scale,
            1.0 / 2048.0,
            ds.rotation,
            written.keys[0],
            written.keys[1],
            written.keys[2],
            written.timepoints,
        );

        // Frame: the two pipelines over 60 Hz playback, model matrices compared.
        let mut ossicle_frame = OssicleFrame::new(&skel, &clip, &idle);
        let mut ozz_frame = OzzFrame::new(&ozz_skel, &written.animation, ozz_idle);
        let (mut d_linear, mut d_translation) = (0f64, 0f64);
        for _ in 0..((duration + 0.5) / DT) as usize {
            ossicle_frame.step();
            ozz_frame.step();
            let (l, t) = compare_models(&ossicle_frame.model, ozz_frame.l2m.output().expect("output"));
            (d_linear, d_translation) = (d_linear.max(l), d_translation.max(t));
        }
        assert!(
            d_linear <= FRAME_LINEAR && d_translation <= FRAME_TRANSLATION,
            "{name}: the frames' model matrices differ by {d_linear:e} (3×3), {d_translation:e} (translations)"
        );
        println!(
            "{name}: frame, largest difference of the model matrices ossicle / ozz-animation-rs: 3×3 part \
             {d_linear:.1e}, translations {d_translation:.1e} of the pose's extent"
        );
        if check_only {
            continue;
        }

        let mut blend = Row { name: format!("{name}/blend2"), ossicle: vec![], ozz: vec![] };
        let mut l2m = Row { name: format!("{name}/l2m"), ossicle: vec![], ozz: vec![] };
        let mut fwd = Row { name: format!("{name}/sample_fwd"), ossicle: vec![], ozz: vec![] };
        let mut frame = Row { name: format!("{name}/frame"), ossicle: vec![], ozz: vec![] };
        let mut ctx = Box::new(DirectSamplingContext::<f32, Transform3<f32>, BONES>::new());
        let mut out = [Transform3::<f32>::IDENTITY; BONES];
        let mut ozz_sample: OzzSamplingJob<&Animation, Vec<SoaTransform>, OzzSamplingContext> =
            OzzSamplingJob::default();
        ozz_sample.set_animation(&written.animation);
        ozz_sample.set_context(OzzSamplingContext::from_animation(&written.animation));
        ozz_sample.set_output(vec![SoaTransform::default(); GROUPS]);
        let (mut t, mut t_ozz) = (0f32, 0f32);
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
            fwd.ossicle.push(time(|| {
                let now = t;
                t = advance(t, DT, duration);
                let job = SamplingJob {
                    skeleton: &skel,
                    clip: &clip,
                    time: now,
                    rotation: RotationInterp::Nlerp,
                    lod: u8::MAX,
                };
                let _ = black_box(job.run(&mut *ctx, &mut out));
            }));
            fwd.ozz.push(time(|| {
                let now = t_ozz;
                t_ozz = advance(t_ozz, DT, duration);
                ozz_sample.set_ratio(now / duration);
                let _ = black_box(black_box(&mut ozz_sample).run());
            }));
            frame.ossicle.push(time(|| ossicle_frame.step()));
            frame.ozz.push(time(|| ozz_frame.step()));
        }
        rows.extend([blend, l2m, fwd, frame]);
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
