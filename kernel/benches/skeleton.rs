//! Skeletal jobs per joint: sampling (forward at 60 Hz, random seek), two-layer blending,
//! local-to-model and a full frame, on a synthetic 70-bone 3D clip (every bone animated in
//! translation, rotation and scale, linear keys 1/30 s apart over 4 s, like the Mixamo clips), in
//! f32 and Q16.16, with in-RAM slice sources.
//!
//! `cargo bench -p ossicle --bench skeleton` — criterion's `thrpt` line reads in joints per second
//! (1e9 / ns per joint).

use criterion::{black_box, Criterion, Throughput};
use ossicle::math::{Quat, Transform3, Vec3};
use ossicle::skeleton::{
    BlendLayer, BlendingJob, ChannelData, Interpolation, LocalToModelJob, SamplingContext, SamplingJob, SliceSkelClip,
    SliceSkeleton, SliceTrack,
};
use ossicle::{Scalar, Q16};
use std::time::Duration;

const BONES: usize = 70;
const KEYS: usize = 121; // 4 s at 30 keys per second
const DURATION: f64 = 4.0;

struct Data<S> {
    parents: Vec<u16>,
    rest: Vec<Transform3<S>>,
    times: Vec<S>,
    values: Vec<[Vec<S>; 3]>,
}

fn data<S: Scalar>() -> Data<S> {
    let parents = (0..BONES).map(|i| if i == 0 { u16::MAX } else { ((i - 1) / 2) as u16 }).collect();
    let rest = (0..BONES)
        .map(|i| Transform3::new(Vec3::new(S::ZERO, S::from_f64(10.0 + i as f64), S::ZERO), Quat::IDENTITY, Vec3::ONE))
        .collect();
    let times = (0..KEYS).map(|k| S::from_f64(k as f64 / 30.0)).collect();
    let values = (0..BONES)
        .map(|b| {
            let mut t = Vec::new();
            let mut r = Vec::new();
            let mut s = Vec::new();
            for k in 0..KEYS {
                let x = (b * 7 + k) as f64 * 0.05;
                t.extend([x.sin() * 5.0, 10.0 + x.cos(), (x * 0.3).sin()].map(S::from_f64));
                // About the axis (1, 1, 1)/√3 by x radians: a unit quaternion.
                let (sn, cs) = (x * 0.5).sin_cos();
                let a = sn / 3f64.sqrt();
                r.extend([a, a, a, cs].map(S::from_f64));
                s.extend([1.0 + 0.1 * x.sin(); 3].map(S::from_f64));
            }
            [t, r, s]
        })
        .collect();
    Data { parents, rest, times, values }
}

// Out-of-line wrappers, so that a profiler (`valgrind --tool=callgrind --toggle-collect=...`) can
// count the instructions of each job.
#[inline(never)]
fn bench_sample<S: Scalar>(
    job: &SamplingJob<'_, S, SliceSkeleton<'_, Transform3<S>>, SliceSkelClip<'_, S>>,
    ctx: &mut SamplingContext<BONES>,
    out: &mut [Transform3<S>],
) {
    job.run(ctx, out).unwrap();
}

#[inline(never)]
fn bench_blend<S: Scalar>(
    job: &BlendingJob<'_, S, Transform3<S>, SliceSkeleton<'_, Transform3<S>>>,
    out: &mut [Transform3<S>],
) {
    job.run(out).unwrap();
}

#[inline(never)]
fn bench_l2m<S: Scalar>(
    job: &LocalToModelJob<'_, S, Transform3<S>, SliceSkeleton<'_, Transform3<S>>>,
    local: &[Transform3<S>],
    out: &mut [Transform3<S>],
) {
    job.run(local, out).unwrap();
}

fn bench<S: Scalar>(c: &mut Criterion, ty: &str) {
    let d = data::<S>();
    let skeleton = SliceSkeleton::new(&d.parents, &d.rest).unwrap();
    let tracks: Vec<SliceTrack<'_, S>> = d
        .values
        .iter()
        .map(|v| SliceTrack {
            channels: [0, 1, 2].map(|c| {
                Some(ChannelData {
                    interpolation: Interpolation::Linear,
                    times: &d.times[..],
                    values: &v[c][..],
                    tangents: &[][..],
                })
            }),
        })
        .collect();
    let clip = SliceSkelClip { duration: S::from_f64(DURATION), looping: true, tracks: &tracks, events: &[] };
    clip.check::<Transform3<S>>().unwrap();

    let mut g = c.benchmark_group(format!("skeleton/{ty}"));
    g.throughput(Throughput::Elements(BONES as u64));
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(500));

    let mut ctx = SamplingContext::<BONES>::new();
    let mut pose_a = [Transform3::<S>::IDENTITY; BONES];
    let mut pose_b = [Transform3::<S>::IDENTITY; BONES];
    let dt = S::from_f64(1.0 / 60.0);
    let mut t = S::ZERO;
    g.bench_function("sample_forward_60hz", |b| {
        b.iter(|| {
            t = t.add(dt).rem_euclid(clip.duration);
            bench_sample(&SamplingJob::new(&skeleton, &clip, black_box(t)), &mut ctx, &mut pose_a);
        })
    });
    // Pseudo-random times.
    let seeks: Vec<S> =
        (0..64u32).map(|i| S::from_f64(f64::from(i.wrapping_mul(2_654_435_761) % 4000) / 1000.0)).collect();
    let mut i = 0;
    g.bench_function("sample_random_seek", |b| {
        b.iter(|| {
            i = (i + 1) & 63;
            bench_sample(&SamplingJob::new(&skeleton, &clip, black_box(seeks[i])), &mut ctx, &mut pose_a);
        })
    });
    let mut ctx_b = SamplingContext::<BONES>::new();
    SamplingJob::new(&skeleton, &clip, S::from_f64(1.3)).run(&mut ctx, &mut pose_a).unwrap();
    SamplingJob::new(&skeleton, &clip, S::from_f64(2.1)).run(&mut ctx_b, &mut pose_b).unwrap();
    let mut local = [Transform3::<S>::IDENTITY; BONES];
    {
        let layers = [BlendLayer::new(&pose_a[..], S::from_f64(0.3)), BlendLayer::new(&pose_b[..], S::from_f64(0.7))];
        let job = BlendingJob::new(&skeleton, &layers);
        g.bench_function("blend_two_layers", |b| b.iter(|| bench_blend(&job, black_box(&mut local))));
    }
    let mut model = [Transform3::<S>::IDENTITY; BONES];
    let l2m = LocalToModelJob::new(&skeleton);
    g.bench_function("local_to_model", |b| b.iter(|| bench_l2m(&l2m, black_box(&local), &mut model)));
    let mut t = S::ZERO;
    g.bench_function("full_frame", |b| {
        b.iter(|| {
            t = t.add(dt).rem_euclid(clip.duration);
            let t2 = t.add(S::ONE).rem_euclid(clip.duration);
            SamplingJob::new(&skeleton, &clip, black_box(t)).run(&mut ctx, &mut pose_a).unwrap();
            SamplingJob::new(&skeleton, &clip, black_box(t2)).run(&mut ctx_b, &mut pose_b).unwrap();
            let layers =
                [BlendLayer::new(&pose_a[..], S::from_f64(0.3)), BlendLayer::new(&pose_b[..], S::from_f64(0.7))];
            BlendingJob::new(&skeleton, &layers).run(&mut local).unwrap();
            l2m.run(&local, &mut model).unwrap();
        })
    });
    g.finish();
    black_box(&model);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench::<f32>(&mut c, "f32");
    bench::<Q16>(&mut c, "q16");
    c.final_summary();
}
