//! Skeletal jobs on the real Mixamo clips (`../shared/fixtures/eva/{Idle,Jumping,SlowRun}.eva`, 70
//! bones): forward sampling at 60 Hz, random seek, two-layer blending, local-to-model and a full
//! frame (two samples, blend, local-to-model), in f32 and Q16.16, with the clip read in place from a
//! lossless blob built by the host (`blob`) and from in-RAM slices (`ram`). All three clips play on
//! Idle's skeleton (the same 70-bone Y Bot).
//!
//! `cargo bench -p ossicle-host --bench skeleton` (or `scripts/bench/skeleton-ns.sh`, which turns
//! criterion's medians into ns per joint). Each iteration processes the whole skeleton once; the
//! figure per joint is the iteration's median divided by 70.
//!
//! - `sample_fwd`: one `SamplingJob::run` per iteration, the time advancing by 1/60 s (wrapping at
//!   the clip's end), one persistent `SamplingContext` (the cursors move forward).
//! - `sample_seek`: one `SamplingJob::run` per iteration at the next of 1,024 pseudo-random times
//!   (a fixed xorshift sequence over the clip), so every cursor is moved by a binary search.
//! - `blend2`: one `BlendingJob::run` of two layers (Idle at 0.7 and the clip at 0.3, no masks).
//! - `l2m`: one `LocalToModelJob::run` of a sampled pose.
//! - `frame`: two forward samples (the clip and Idle), a two-layer blend, local-to-model.
//! - `blend2_soa`, `l2m_soa`, `frame_soa`: `blend2`, `l2m` and `frame` through the
//!   structure-of-arrays jobs (`SoaBlendingJob`; `SoaLocalToModelJob`, which writes model
//!   matrices; the frame packs its two sampled poses into SoA groups first).
//! - `sample_fwd_cached`, `frame_cached`: `sample_fwd` and `frame` with `CachedSamplingContext`s
//!   (the key pairs in use kept decoded; a step inside a bracket reads nothing from the clip).
//! - `sample_fwd_direct`, `sample_seek_direct`, `frame_direct`: `sample_fwd`, `sample_seek` and
//!   `frame` with `DirectSamplingContext`s (each bone's key layout and rest pose kept; one bracket
//!   search per run of shared key times, key pairs read in place). In-RAM slices have no layout,
//!   so the RAM rows measure the context's channel-by-channel fallback.
//! - `pack_soa`: one `SoaTransform3::pack` of a sampled pose (the frame rows' SoA rows do two).
//! - `frame_soa_direct`: `frame_soa` with `DirectSamplingContext`s.
//! - `l2m_soa_padded`, `frame_soa_direct_padded`: `l2m_soa` and `frame_soa_direct` with the model
//!   matrices as `Affine3A`s (padded 4×4 columns) instead of `Affine3`s.
//!
//! With `OSSICLE_SKEL_MIN=FILTERS` in the environment, the rows whose full name contains one of the
//! comma-separated FILTERS (all rows when empty) are not measured by criterion but timed in short
//! batches, printing `group/clip/row ns-per-joint` from the fastest batch: the figure to use on a
//! shared machine, where other processes inflate criterion's means (e.g.
//! `OSSICLE_SKEL_MIN=f32_blob/Idle/blend2 cargo bench -p ossicle-host --bench skeleton`).
//!
//! With `OSSICLE_SKEL_DIGEST=1` in the environment it benchmarks nothing: it prints, per scalar
//! type, source (RAM, blob) and clip, an FNV-1a digest of the raw bits of every pose the jobs above
//! produce (sampling forward and by seeks, blending with and without masks and additive layers,
//! local-to-model; a second line per clip: `SoaLocalToModelJob`'s matrices), so that an optimisation can be checked to leave every result bit-identical
//! (and checks that `CachedSamplingContext`s and `DirectSamplingContext`s give the same sampled
//! poses as plain contexts, and that `SoaLocalToModelJob`'s `Affine3A` output holds its `Affine3`
//! output's numbers bit for bit, with a fourth row of exactly (0, 0, 0, 1)):
//! `OSSICLE_SKEL_DIGEST=1 cargo bench -p ossicle-host --bench skeleton`, before and after, and diff.

use criterion::{black_box, BenchmarkGroup, Criterion};
use ossicle::math::{Affine3, Affine3A, Quat, Transform3, Vec3};
use ossicle::skeleton::{
    AdditiveReference, BlendLayer, BlendingJob, CachedSamplingContext, ChannelData, DirectSamplingContext,
    Interpolation, LocalToModelJob, ModelMatrix, RotationInterp, SamplingContext, SamplingJob, SamplingState,
    SkelClipSource, SkeletonSource, SliceSkelClip, SliceSkeleton, SliceTrack, SoaBlendingJob, SoaLocalToModelJob,
    SoaTransform3,
};
use ossicle::{Asset, Scalar, Q16};
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::{Project, SkelClipIr, SkeletonIr};
use ossicle_host::write::{self, SkelOptions, WriteOptions};
use std::path::PathBuf;
use std::time::Duration;

const BONES: usize = 70;
const GROUPS: usize = BONES.div_ceil(4);
type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn fixtures() -> PathBuf {
    if let Some(dir) = std::env::var_os("OSSICLE_FIXTURES") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures")
}

fn load(name: &str) -> (SkeletonIr, SkelClipIr) {
    let path = fixtures().join("eva").join(format!("{name}.eva"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut project = ossicle_host::sources::eva::parse(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    (project.skeletons.remove(0), project.skel_clips.remove(0))
}

/// One channel's (times, values), or none.
type Channel<S> = Option<(Vec<S>, Vec<S>)>;

/// A skeleton and clip as owned scalar arrays, viewed as slices.
struct RamClip<S> {
    parents: Vec<u16>,
    rest: Vec<Transform3<S>>,
    duration: S,
    /// Per bone, per channel: (times, values).
    channels: Vec<[Channel<S>; 3]>,
}

impl<S: Scalar> RamClip<S> {
    fn new(skel: &SkeletonIr, clip: &SkelClipIr) -> Self {
        let s = |v: f64| S::from_f64(v);
        let parents = skel.bones.iter().map(|b| b.parent.map_or(u16::MAX, |p| p as u16)).collect();
        let rest = skel
            .bones
            .iter()
            .map(|b| {
                let t = b.bind.translation;
                let q = b.bind.rotation;
                let k = b.bind.scale;
                Transform3::new(
                    Vec3::new(s(t[0]), s(t[1]), s(t[2])),
                    Quat::from_xyzw(s(q[0]), s(q[1]), s(q[2]), s(q[3])),
                    Vec3::new(s(k[0]), s(k[1]), s(k[2])),
                )
            })
            .collect();
        let mut channels: Vec<[Channel<S>; 3]> = (0..skel.bones.len()).map(|_| [None, None, None]).collect();
        for track in &clip.tracks {
            let bone = skel.bones.iter().position(|b| b.name == track.bone).expect("bone");
            fn flat<S: Scalar, const N: usize>(keys: &[ossicle_host::ir::ChannelKey<N>]) -> Option<(Vec<S>, Vec<S>)> {
                if keys.is_empty() {
                    return None;
                }
                let times = keys.iter().map(|k| S::from_f64(k.time)).collect();
                let values = keys.iter().flat_map(|k| k.value.iter().map(|&v| S::from_f64(v))).collect();
                Some((times, values))
            }
            channels[bone] = [flat(&track.translation), flat(&track.rotation), flat(&track.scale)];
        }
        Self { parents, rest, duration: S::from_f64(clip.duration), channels }
    }

    fn tracks(&self) -> Vec<SliceTrack<'_, S>> {
        self.channels
            .iter()
            .map(|chs| SliceTrack {
                channels: chs.each_ref().map(|c| {
                    c.as_ref().map(|(t, v)| ChannelData {
                        interpolation: Interpolation::Linear,
                        times: t.as_slice(),
                        values: v.as_slice(),
                        tangents: &[][..],
                    })
                }),
            })
            .collect()
    }
}

fn xorshift_times(duration: f64) -> Vec<f64> {
    let mut x: u32 = 0x9E37_79B9;
    (0..1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            f64::from(x) / f64::from(u32::MAX) * duration
        })
        .collect()
}

/// `t + dt`, wrapped back by `duration` once it reaches it (forward playback of a looping clip).
fn advance<S: Scalar>(t: S, dt: S, duration: S) -> S {
    let t = t.add(dt);
    if t >= duration {
        t.sub(duration)
    } else {
        t
    }
}

/// FNV-1a over the blob bits of every component of a pose.
fn digest_pose<S: Scalar>(h: &mut u64, pose: &[Transform3<S>]) {
    for j in pose {
        let (t, r, s) = (j.translation, j.rotation, j.scale);
        for v in [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z] {
            for b in v.to_blob_bits().to_le_bytes() {
                *h = (*h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
}

/// The digest lines of one clip (see the module docs).
fn digest_clip<S: Scalar, K, C>(label: &str, skel: &K, clip: &C, idle: &C)
where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
{
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;
    let duration = clip.duration();
    let dt = S::from_ratio(1, 60);
    let mut ctx = Box::new(SamplingContext::<BONES>::new());
    let mut ctx_i = Box::new(SamplingContext::<BONES>::new());
    // The same samples through cached contexts must give the same poses, bit for bit.
    let mut cached = Box::new(CachedSamplingContext::<S, Transform3<S>, BONES>::new());
    let mut cached_i = Box::new(CachedSamplingContext::<S, Transform3<S>, BONES>::new());
    let mut direct = Box::new(DirectSamplingContext::<S, Transform3<S>, BONES>::new());
    let mut direct_i = Box::new(DirectSamplingContext::<S, Transform3<S>, BONES>::new());
    let mut pc = [Transform3::<S>::IDENTITY; BONES];
    let (mut pa, mut pb) = ([Transform3::<S>::IDENTITY; BONES], [Transform3::<S>::IDENTITY; BONES]);
    let (mut blended, mut model) = ([Transform3::<S>::IDENTITY; BONES], [Transform3::<S>::IDENTITY; BONES]);
    let mask: Vec<S> = (0..BONES).map(|i| S::from_ratio((i % 5) as i32, 4)).collect();
    let (mut hs, mut hk, mut hb, mut hm, mut hl) = (SEED, SEED, SEED, SEED, SEED);
    // The SoA local-to-model job's matrices (their own digest line).
    let (mut soa_model, mut hls) = ([Affine3::<S>::IDENTITY; BONES], SEED);
    let mut soa_padded = [Affine3A::<S>::IDENTITY; BONES];
    let mut t = S::ZERO;
    for frame in 0..600 {
        let sample = |c: &C, time: S, ctx: &mut SamplingContext<BONES>, out: &mut [Transform3<S>]| {
            let rotation = if frame % 7 == 3 { RotationInterp::Slerp } else { RotationInterp::Nlerp };
            let _ = SamplingJob { skeleton: skel, clip: c, time, rotation, lod: u8::MAX }.run(ctx, out);
        };
        let rotation = if frame % 7 == 3 { RotationInterp::Slerp } else { RotationInterp::Nlerp };
        sample(clip, t, &mut ctx, &mut pa);
        digest_pose(&mut hs, &pa);
        let _ = SamplingJob { skeleton: skel, clip, time: t, rotation, lod: u8::MAX }.run(&mut *cached, &mut pc);
        assert!(pc == pa, "{label}: the cached context differs at frame {frame}");
        let _ = SamplingJob { skeleton: skel, clip, time: t, rotation, lod: u8::MAX }.run(&mut *direct, &mut pc);
        assert!(pc == pa, "{label}: the direct context differs at frame {frame}");
        sample(idle, t.mul(S::from_ratio(3, 2)), &mut ctx_i, &mut pb);
        digest_pose(&mut hs, &pb);
        let ti = t.mul(S::from_ratio(3, 2));
        let _ =
            SamplingJob { skeleton: skel, clip: idle, time: ti, rotation, lod: u8::MAX }.run(&mut *cached_i, &mut pc);
        assert!(pc == pb, "{label}: the cached context differs on Idle at frame {frame}");
        let _ =
            SamplingJob { skeleton: skel, clip: idle, time: ti, rotation, lod: u8::MAX }.run(&mut *direct_i, &mut pc);
        assert!(pc == pb, "{label}: the direct context differs on Idle at frame {frame}");
        let w = S::from_ratio(frame % 13, 12);
        let layers = [
            BlendLayer { pose: &pb[..], weight: S::ONE.sub(w), mask: None },
            BlendLayer { pose: &pa[..], weight: w, mask: None },
        ];
        let mut job = BlendingJob::new(skel, &layers);
        let _ = job.run(&mut blended);
        digest_pose(&mut hb, &blended);
        // The SoA blending job must give the same pose, bit for bit.
        let (sa, sb) = (packed(&pa), packed(&pb));
        let soa_layers = [
            BlendLayer { pose: &sb[..], weight: S::ONE.sub(w), mask: None },
            BlendLayer { pose: &sa[..], weight: w, mask: None },
        ];
        let mut soa_job = SoaBlendingJob::new(skel, &soa_layers);
        let mut soa_out = [SoaTransform3::<S>::IDENTITY; GROUPS];
        let mut unpacked = [Transform3::<S>::IDENTITY; BONES];
        let _ = soa_job.run(&mut soa_out);
        let _ = SoaTransform3::unpack(&soa_out, &mut unpacked);
        assert!(unpacked == blended, "{label}: the SoA blend differs at frame {frame}");
        let _ = LocalToModelJob::new(skel).run(&blended, &mut model);
        digest_pose(&mut hl, &model);
        // Masks, a light total (rest fill), additive layers and a LOD limit.
        let masked = [
            BlendLayer { pose: &pb[..], weight: w.mul(S::HALF), mask: Some(&mask[..]) },
            BlendLayer { pose: &pa[..], weight: S::from_ratio(1, 20), mask: None },
        ];
        let additive = [BlendLayer { pose: &pa[..], weight: S::from_ratio(1, 3), mask: None }];
        job.layers = if frame % 2 == 0 { &masked[..] } else { &layers[1..] };
        job.additive = &additive;
        job.additive_reference = if frame % 3 == 0 { AdditiveReference::Identity } else { AdditiveReference::BindPose };
        job.lod = if frame % 5 == 0 { 0 } else { u8::MAX };
        let _ = job.run(&mut blended);
        digest_pose(&mut hm, &blended);
        let soa_masked = [
            BlendLayer { pose: &sb[..], weight: w.mul(S::HALF), mask: Some(&mask[..]) },
            BlendLayer { pose: &sa[..], weight: S::from_ratio(1, 20), mask: None },
        ];
        let soa_additive = [BlendLayer { pose: &sa[..], weight: S::from_ratio(1, 3), mask: None }];
        soa_job.layers = if frame % 2 == 0 { &soa_masked[..] } else { &soa_layers[1..] };
        soa_job.additive = &soa_additive;
        soa_job.additive_reference = job.additive_reference;
        soa_job.lod = job.lod;
        let _ = soa_job.run(&mut soa_out);
        let _ = SoaTransform3::unpack(&soa_out, &mut unpacked);
        assert!(unpacked == blended, "{label}: the SoA masked/additive blend differs at frame {frame}");
        let mut l2m = LocalToModelJob::new(skel);
        l2m.from = frame as usize % 9;
        let _ = l2m.run(&blended, &mut model);
        digest_pose(&mut hl, &model);
        let mut soa_l2m = SoaLocalToModelJob::new(skel);
        soa_l2m.from = l2m.from;
        let _ = soa_l2m.run(&packed(&blended), &mut soa_model);
        // The padded output must hold the same twelve numbers, bit for bit.
        let _ = soa_l2m.run(&packed(&blended), &mut soa_padded);
        for (i, (m, a)) in soa_model.iter().zip(&soa_padded).enumerate() {
            // The sixteen numbers (the fourth row (0, 0, 0, 1) included).
            let bits = |a: &Affine3A<S>| a.to_cols_array().map(S::to_blob_bits);
            assert!(
                bits(&Affine3A::from(*m)) == bits(a),
                "{label}: the padded output differs at frame {frame}, bone {i}"
            );
        }
        for m in &soa_model {
            let (x, y, z, t) = (m.x_axis, m.y_axis, m.z_axis, m.translation);
            for v in [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z, t.x, t.y, t.z] {
                for b in v.to_blob_bits().to_le_bytes() {
                    hls = (hls ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        t = advance(t, dt, duration);
    }
    for (i, time) in xorshift_times(duration.to_f64() * 1.25).into_iter().enumerate() {
        let time = S::from_f64(time - duration.to_f64() * 0.125);
        let rotation = if i % 5 == 0 { RotationInterp::Slerp } else { RotationInterp::Nlerp };
        let _ = SamplingJob { skeleton: skel, clip, time, rotation, lod: u8::MAX }.run(&mut *ctx, &mut pa);
        digest_pose(&mut hk, &pa);
        let _ = SamplingJob { skeleton: skel, clip, time, rotation, lod: u8::MAX }.run(&mut *cached, &mut pc);
        assert!(pc == pa, "{label}: the cached context differs at seek {i}");
        let _ = SamplingJob { skeleton: skel, clip, time, rotation, lod: u8::MAX }.run(&mut *direct, &mut pc);
        assert!(pc == pa, "{label}: the direct context differs at seek {i}");
    }
    println!("{label}: sample {hs:016x} seek {hk:016x} blend {hb:016x} blend_masked_additive {hm:016x} l2m {hl:016x}");
    println!("{label}: l2m_soa {hls:016x}");
}

fn run_clip<S: Scalar, K, C>(g: &mut Group<'_>, label: &str, skel: &K, clip: &C, idle: &C)
where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
{
    let duration = clip.duration();
    bench_fwd(g, &format!("{label}/sample_fwd"), skel, clip, || Box::new(SamplingContext::<BONES>::new()));
    bench_seek(g, &format!("{label}/sample_seek"), skel, clip, || Box::new(SamplingContext::<BONES>::new()));
    let mut a = [Transform3::<S>::IDENTITY; BONES];
    let mut bpose = [Transform3::<S>::IDENTITY; BONES];
    let half = duration.mul(S::HALF);
    let _ = SamplingJob { skeleton: skel, clip, time: half, rotation: RotationInterp::Nlerp, lod: u8::MAX }
        .run(&mut SamplingContext::<BONES>::new(), &mut a);
    let _ = SamplingJob { skeleton: skel, clip: idle, time: S::ZERO, rotation: RotationInterp::Nlerp, lod: u8::MAX }
        .run(&mut SamplingContext::<BONES>::new(), &mut bpose);
    {
        let mut out = [Transform3::<S>::IDENTITY; BONES];
        let layers = [
            BlendLayer { pose: &bpose[..], weight: S::from_ratio(7, 10), mask: None },
            BlendLayer { pose: &a[..], weight: S::from_ratio(3, 10), mask: None },
        ];
        let job = BlendingJob::new(skel, &layers);
        row(g, &format!("{label}/blend2"), || {
            let _ = black_box(job.run(black_box(&mut out)));
        });
    }
    {
        let mut out = [Transform3::<S>::IDENTITY; BONES];
        let job = LocalToModelJob::new(skel);
        row(g, &format!("{label}/l2m"), || {
            let _ = black_box(job.run(black_box(&a), &mut out));
        });
    }
    let (sa, sb) = (packed(&a), packed(&bpose));
    {
        let mut out = [SoaTransform3::<S>::IDENTITY; GROUPS];
        let layers = [
            BlendLayer { pose: &sb[..], weight: S::from_ratio(7, 10), mask: None },
            BlendLayer { pose: &sa[..], weight: S::from_ratio(3, 10), mask: None },
        ];
        let job = SoaBlendingJob::new(skel, &layers);
        row(g, &format!("{label}/blend2_soa"), || {
            let _ = black_box(job.run(black_box(&mut out)));
        });
    }
    {
        let mut out = [SoaTransform3::<S>::IDENTITY; GROUPS];
        row(g, &format!("{label}/pack_soa"), || {
            let _ = black_box(SoaTransform3::pack(black_box(&a), &mut out));
        });
    }
    {
        let mut out = [Affine3::<S>::IDENTITY; BONES];
        let job = SoaLocalToModelJob::new(skel);
        row(g, &format!("{label}/l2m_soa"), || {
            let _ = black_box(job.run(black_box(&sa), &mut out));
        });
    }
    {
        let mut out = [Affine3A::<S>::IDENTITY; BONES];
        let job = SoaLocalToModelJob::new(skel);
        row(g, &format!("{label}/l2m_soa_padded"), || {
            let _ = black_box(job.run(black_box(&sa), &mut out));
        });
    }
    bench_frame(g, &format!("{label}/frame"), skel, clip, idle, || Box::new(SamplingContext::<BONES>::new()));
    bench_frame_soa::<S, _, _, _, Affine3<S>>(g, &format!("{label}/frame_soa"), skel, clip, idle, || {
        Box::new(SamplingContext::<BONES>::new())
    });
    bench_fwd(g, &format!("{label}/sample_fwd_cached"), skel, clip, || {
        Box::new(CachedSamplingContext::<S, Transform3<S>, BONES>::new())
    });
    bench_frame(g, &format!("{label}/frame_cached"), skel, clip, idle, || {
        Box::new(CachedSamplingContext::<S, Transform3<S>, BONES>::new())
    });
    let direct = || Box::new(DirectSamplingContext::<S, Transform3<S>, BONES>::new());
    bench_fwd(g, &format!("{label}/sample_fwd_direct"), skel, clip, direct);
    bench_seek(g, &format!("{label}/sample_seek_direct"), skel, clip, direct);
    bench_frame(g, &format!("{label}/frame_direct"), skel, clip, idle, direct);
    bench_frame_soa::<S, _, _, _, Affine3<S>>(g, &format!("{label}/frame_soa_direct"), skel, clip, idle, direct);
    bench_frame_soa::<S, _, _, _, Affine3A<S>>(
        g,
        &format!("{label}/frame_soa_direct_padded"),
        skel,
        clip,
        idle,
        direct,
    );
}

/// Sampling at the next of 1,024 pseudo-random times per iteration, one persistent context made
/// by `context`.
fn bench_seek<S: Scalar, K, C, X>(g: &mut Group<'_>, name: &str, skel: &K, clip: &C, context: impl Fn() -> Box<X>)
where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    let times: Vec<S> = xorshift_times(clip.duration().to_f64()).into_iter().map(S::from_f64).collect();
    let mut i = 0usize;
    bench_sampling(g, name, skel, clip, context, || {
        i = i.wrapping_add(1);
        times[(i - 1) & 1023]
    });
}

/// Forward sampling at 60 Hz with one persistent context made by `context`.
fn bench_fwd<S: Scalar, K, C, X>(g: &mut Group<'_>, name: &str, skel: &K, clip: &C, context: impl Fn() -> Box<X>)
where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    let (dt, duration) = (S::from_ratio(1, 60), clip.duration());
    let mut t = S::ZERO;
    bench_sampling(g, name, skel, clip, context, || {
        let now = t;
        t = advance(t, dt, duration);
        now
    });
}

/// One `SamplingJob::run` per iteration at the time `next_time` gives, one persistent context made
/// by `context` (the loop of [`bench_fwd`] and [`bench_seek`]).
fn bench_sampling<S: Scalar, K, C, X>(
    g: &mut Group<'_>,
    name: &str,
    skel: &K,
    clip: &C,
    context: impl Fn() -> Box<X>,
    mut next_time: impl FnMut() -> S,
) where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    let mut ctx = context();
    let mut out = [Transform3::<S>::IDENTITY; BONES];
    row(g, name, || {
        let time = next_time();
        let job = SamplingJob { skeleton: skel, clip, time, rotation: RotationInterp::Nlerp, lod: u8::MAX };
        let _ = black_box(job.run(&mut *ctx, &mut out));
    });
}

/// Full frames at 60 Hz (`clip` and `idle` sampled forward, each with a context made by
/// `context`, blended 0.3 / 0.7, local-to-model).
fn bench_frame<S: Scalar, K, C, X>(
    g: &mut Group<'_>,
    name: &str,
    skel: &K,
    clip: &C,
    idle: &C,
    context: impl Fn() -> Box<X>,
) where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    let mut blended = [Transform3::<S>::IDENTITY; BONES];
    let mut model = [Transform3::<S>::IDENTITY; BONES];
    frames(g, name, skel, clip, idle, context, |pa, pb| {
        let layers = [
            BlendLayer { pose: &pb[..], weight: S::from_ratio(7, 10), mask: None },
            BlendLayer { pose: &pa[..], weight: S::from_ratio(3, 10), mask: None },
        ];
        let _ = BlendingJob::new(skel, &layers).run(&mut blended);
        let _ = black_box(LocalToModelJob::new(skel).run(&blended, &mut model));
    });
}

/// `pose` packed into SoA groups.
fn packed<S: Scalar>(pose: &[Transform3<S>; BONES]) -> [SoaTransform3<S>; GROUPS] {
    let mut out = [SoaTransform3::IDENTITY; GROUPS];
    let _ = SoaTransform3::pack(pose, &mut out);
    out
}

/// [`bench_frame`] through the structure-of-arrays jobs: two forward samples (into
/// `Transform3` poses), packed into SoA groups, `SoaBlendingJob`, `SoaLocalToModelJob` (model
/// matrices of type `M`).
fn bench_frame_soa<S: Scalar, K, C, X, M: ModelMatrix<S> + Default>(
    g: &mut Group<'_>,
    name: &str,
    skel: &K,
    clip: &C,
    idle: &C,
    context: impl Fn() -> Box<X>,
) where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    let mut sa = [SoaTransform3::<S>::IDENTITY; GROUPS];
    let mut sb = [SoaTransform3::<S>::IDENTITY; GROUPS];
    let mut blended = [SoaTransform3::<S>::IDENTITY; GROUPS];
    let mut model = [M::default(); BONES];
    frames(g, name, skel, clip, idle, context, |pa, pb| {
        let _ = SoaTransform3::pack(pa, &mut sa);
        let _ = SoaTransform3::pack(pb, &mut sb);
        let layers = [
            BlendLayer { pose: &sb[..], weight: S::from_ratio(7, 10), mask: None },
            BlendLayer { pose: &sa[..], weight: S::from_ratio(3, 10), mask: None },
        ];
        let _ = SoaBlendingJob::new(skel, &layers).run(&mut blended);
        let _ = black_box(SoaLocalToModelJob::new(skel).run(&blended, &mut model));
    });
}

/// The frame loop of [`bench_frame`] and [`bench_frame_soa`]: per iteration `clip` and `idle`
/// sampled forward at 60 Hz (a context each, made by `context`), then `rest` of the two poses
/// (the clip's first).
fn frames<S: Scalar, K, C, X>(
    g: &mut Group<'_>,
    name: &str,
    skel: &K,
    clip: &C,
    idle: &C,
    context: impl Fn() -> Box<X>,
    mut rest: impl FnMut(&[Transform3<S>; BONES], &[Transform3<S>; BONES]),
) where
    K: SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    let dt = S::from_ratio(1, 60);
    let duration = clip.duration();
    let mut ctx_a = context();
    let mut ctx_b = context();
    let mut pa = [Transform3::<S>::IDENTITY; BONES];
    let mut pb = [Transform3::<S>::IDENTITY; BONES];
    let idle_duration = idle.duration();
    let (mut t, mut ti) = (S::ZERO, S::ZERO);
    row(g, name, || {
        let _ = SamplingJob { skeleton: skel, clip, time: t, rotation: RotationInterp::Nlerp, lod: u8::MAX }
            .run(&mut *ctx_a, &mut pa);
        let _ = SamplingJob { skeleton: skel, clip: idle, time: ti, rotation: RotationInterp::Nlerp, lod: u8::MAX }
            .run(&mut *ctx_b, &mut pb);
        rest(&pa, &pb);
        t = advance(t, dt, duration);
        ti = advance(ti, dt, idle_duration);
    });
}

fn digest_ram<S: Scalar>(ty: &str) {
    let (skel_ir, idle_ir) = load("Idle");
    let idle_ram = RamClip::<S>::new(&skel_ir, &idle_ir);
    let idle_tracks = idle_ram.tracks();
    let idle = SliceSkelClip { duration: idle_ram.duration, looping: true, tracks: &idle_tracks, events: &[] };
    let skel = SliceSkeleton::new(&idle_ram.parents, &idle_ram.rest).expect("skeleton");
    for name in ["Idle", "Jumping", "SlowRun"] {
        let (s, clip_ir) = load(name);
        let r = RamClip::<S>::new(&s, &clip_ir);
        let tracks = r.tracks();
        let clip = SliceSkelClip { duration: r.duration, looping: true, tracks: &tracks, events: &[] };
        digest_clip::<S, _, _>(&format!("{ty}_ram/{name}"), &skel, &clip, &idle);
    }
}

fn digest_blob<S: Scalar>(ty: &str, encoding: ScalarEncoding) {
    let bytes = blob_bytes(encoding);
    let asset = Asset::load(&bytes).expect("blob loads");
    let skel = asset.skeleton_named("Idle").expect("skeleton");
    let idle = asset.skel_clip_named("Idle").expect("Idle");
    for name in ["Idle", "Jumping", "SlowRun"] {
        let clip = asset.skel_clip_named(name).expect("clip");
        digest_clip::<S, _, _>(&format!("{ty}_blob/{name}"), &skel, &clip, &idle);
    }
}

fn ram<S: Scalar>(c: &mut Criterion, ty: &str) {
    let (skel_ir, idle_ir) = load("Idle");
    let idle_ram = RamClip::<S>::new(&skel_ir, &idle_ir);
    let idle_tracks = idle_ram.tracks();
    let idle = SliceSkelClip { duration: idle_ram.duration, looping: true, tracks: &idle_tracks, events: &[] };
    let skel = SliceSkeleton::new(&idle_ram.parents, &idle_ram.rest).expect("skeleton");
    let mut g = c.benchmark_group(format!("{ty}_ram"));
    set_group(&format!("{ty}_ram"));
    g.measurement_time(Duration::from_secs(1)).warm_up_time(Duration::from_millis(300));
    for name in ["Idle", "Jumping", "SlowRun"] {
        let (s, clip_ir) = load(name);
        let r = RamClip::<S>::new(&s, &clip_ir);
        let tracks = r.tracks();
        let clip = SliceSkelClip { duration: r.duration, looping: true, tracks: &tracks, events: &[] };
        run_clip::<S, _, _>(&mut g, name, &skel, &clip, &idle);
    }
    g.finish();
}

/// The three clips (and the Idle skeleton) in one lossless blob of `encoding`, built by the host.
fn blob_bytes(encoding: ScalarEncoding) -> Vec<u8> {
    let mut project = Project::default();
    for name in ["Idle", "Jumping", "SlowRun"] {
        let path = fixtures().join("eva").join(format!("{name}.eva"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut p = ossicle_host::sources::eva::parse(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        if name != "Idle" {
            // One skeleton for all three (the same Y Bot): bind the other clips to Idle's.
            p.skeletons.clear();
            for c in &mut p.skel_clips {
                c.skeleton = Some("Idle".into());
            }
        }
        project.merge(p);
    }
    let opts = WriteOptions::new(encoding);
    let (bytes, _) =
        write::write_blob_skeletal(&project, &opts, &SkelOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    bytes
}

fn blob<S: Scalar>(c: &mut Criterion, ty: &str, encoding: ScalarEncoding) {
    let bytes = blob_bytes(encoding);
    let asset = Asset::load(&bytes).expect("blob loads");
    let skel = asset.skeleton_named("Idle").expect("skeleton");
    let idle = asset.skel_clip_named("Idle").expect("Idle");
    let mut g = c.benchmark_group(format!("{ty}_blob"));
    set_group(&format!("{ty}_blob"));
    g.measurement_time(Duration::from_secs(1)).warm_up_time(Duration::from_millis(300));
    for name in ["Idle", "Jumping", "SlowRun"] {
        let clip = asset.skel_clip_named(name).expect("clip");
        run_clip::<S, _, _>(&mut g, name, &skel, &clip, &idle);
    }
    g.finish();
}

thread_local! {
    /// The name of the group whose rows are being run (for the rows' full names in min mode).
    static GROUP: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

fn set_group(name: &str) {
    GROUP.with(|g| *g.borrow_mut() = name.to_owned());
}

/// With `OSSICLE_SKEL_MIN` set: its comma-separated filters (a row runs when its full name,
/// `group/clip/row`, contains one of them; an empty value runs every row).
fn min_mode() -> Option<Vec<String>> {
    let v = std::env::var("OSSICLE_SKEL_MIN").ok()?;
    Some(v.split(',').filter(|f| !f.is_empty()).map(str::to_owned).collect())
}

/// One bench row: `f` is one iteration (one whole skeleton). Normally measured by criterion; in
/// min mode (`OSSICLE_SKEL_MIN`, see the module docs) timed here in batches of about 20 µs for
/// about a second after a warm-up, printing the fastest batch's time per iteration / 70 (ns per
/// joint). Preemption by other processes only makes batches slower, so on a busy machine the
/// minimum is far steadier than criterion's mean (which is what decides an A/B there).
fn row(g: &mut Group<'_>, name: &str, mut f: impl FnMut()) {
    let Some(filters) = min_mode() else {
        g.bench_function(name, |b| b.iter(&mut f));
        return;
    };
    let full = format!("{}/{name}", GROUP.with(|g| g.borrow().clone()));
    if !filters.is_empty() && !filters.iter().any(|x| full.contains(x.as_str())) {
        return;
    }
    let start = std::time::Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < Duration::from_millis(200) {
        f();
        calls += 1;
    }
    // Calls per 20 µs (the warm-up ran 200 ms).
    let per_batch = (calls / 10_000).max(1);
    let (mut best, run) = (f64::MAX, std::time::Instant::now());
    while run.elapsed() < Duration::from_secs(1) {
        let t = std::time::Instant::now();
        for _ in 0..per_batch {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / per_batch as f64);
    }
    println!("{full} {:.2}", best / BONES as f64);
}

fn main() {
    if std::env::var_os("OSSICLE_SKEL_DIGEST").is_some() {
        digest_ram::<f32>("f32");
        digest_ram::<Q16>("q16");
        digest_blob::<f32>("f32", ScalarEncoding::F32);
        digest_blob::<Q16>("q16", ScalarEncoding::Q16_16);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    ram::<f32>(&mut c, "f32");
    ram::<Q16>(&mut c, "q16");
    blob::<f32>(&mut c, "f32", ScalarEncoding::F32);
    blob::<Q16>(&mut c, "q16", ScalarEncoding::Q16_16);
    c.final_summary();
}
