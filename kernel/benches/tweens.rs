//! Update cost of tweens, motions, sequences and dynamics channels, per animated value.
//!
//! The headline group, `tween_64k`, runs 64,000 active float tweens: ossicle's `TweenPool` of
//! one-step tweens (f32 and Q16.16) side by side with the `tween` crate (a bare `Tweener` per
//! tween), the `keyframe` crate and a plain loop over arrays, all doing the same work: InOutQuad
//! from `from` to `to` over a duration between 1000 and 2000 s (so nothing ends during the
//! measurement), advanced by 1/60 s per update, each value stored into an array of floats.
//! `tween_4k` is the same with 4,000 tweens (everything stays in cache). The other groups report
//! ossicle's multi-step tweens, motions, sequences and dynamics channels separately.
//!
//! `cargo bench -p ossicle --bench tweens` — criterion prints the time of one update of the whole
//! group and, on the `thrpt` line, animated values per second; BENCHMARKS.md lists ns per value.

use criterion::{black_box, BenchmarkGroup, Criterion, Throughput};
use ossicle::dynamics::{Dynamics, Integrator, Params};
use ossicle::ease::Ease;
use ossicle::event::EventQueue;
use ossicle::motion::{LoopMode, Motion, MotionPool, Sequence, SequenceLoopMode, SequencePool};
use ossicle::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::tween::{Tween, TweenPool};
use ossicle::{Scalar, Q16};
use std::time::Duration;

const DT: f32 = 1.0 / 60.0;

fn from_to_duration(i: usize) -> (f32, f32, f32) {
    let from = (i % 97) as f32;
    let to = from + 10.0 + (i % 13) as f32;
    let duration = 1000.0 + (i % 1000) as f32;
    (from, to, duration)
}

/// Stores float writes in an array indexed by target (the same store every contender does).
struct ArraySink<S>(Vec<S>);

impl<S: Scalar> PropertySink<S> for ArraySink<S> {
    #[inline]
    fn set(&mut self, target: TargetId, _property: PropertyId, value: PropertyValue<S>) {
        if let (PropertyValue::Float(v), Some(slot)) = (value, self.0.get_mut(target as usize)) {
            *slot = v;
        }
    }
}

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn ossicle_tweens<S: Scalar, const N: usize>(g: &mut Group<'_>, name: &str) {
    let mut pool: Box<TweenPool<S, N, 1>> = Box::new(TweenPool::new());
    for i in 0..N {
        let (from, to, duration) = from_to_duration(i);
        let (from, to, duration) = (S::from_f32(from), S::from_f32(to), S::from_f32(duration));
        let t = Tween::<S, 1>::new().from_to(i as u32, 0, from, to, duration, Ease::InOutQuad);
        pool.start(&t, 0).expect("capacity is N");
    }
    let mut sink = ArraySink(vec![S::ZERO; N]);
    let mut events: EventQueue<64> = EventQueue::new();
    let dt = S::from_f32(DT);
    g.bench_function(name, |b| b.iter(|| pool.update(black_box(dt), &mut sink, &mut events)));
    black_box(&sink.0);
}

fn tween_crate(g: &mut Group<'_>, count: usize) {
    let mut tweeners: Vec<_> = (0..count)
        .map(|i| {
            let (from, to, duration) = from_to_duration(i);
            tween::Tweener::new(from, to, duration, tween::QuadInOut)
        })
        .collect();
    let mut values = vec![0f32; count];
    g.bench_function("tween_crate", |b| {
        b.iter(|| {
            let dt = black_box(DT);
            for (v, t) in values.iter_mut().zip(tweeners.iter_mut()) {
                *v = t.move_by(dt);
            }
        })
    });
    black_box(&values);
}

fn keyframe_crate(g: &mut Group<'_>, count: usize) {
    let setup: Vec<(f32, f32, f32)> = (0..count).map(from_to_duration).collect();
    let mut elapsed = vec![0f32; count];
    let mut values = vec![0f32; count];
    g.bench_function("keyframe_crate", |b| {
        b.iter(|| {
            let dt = black_box(DT);
            for ((v, e), &(from, to, duration)) in values.iter_mut().zip(elapsed.iter_mut()).zip(setup.iter()) {
                *e += dt;
                *v = keyframe::ease_with_scaled_time(keyframe::functions::EaseInOutQuad, from, to, *e, duration);
            }
        })
    });
    black_box(&values);
}

fn plain_loop(g: &mut Group<'_>, count: usize) {
    let setup: Vec<(f32, f32, f32)> = (0..count)
        .map(|i| {
            let (from, to, duration) = from_to_duration(i);
            (from, to - from, 1.0 / duration)
        })
        .collect();
    let mut elapsed = vec![0f32; count];
    let mut values = vec![0f32; count];
    g.bench_function("plain_loop", |b| {
        b.iter(|| {
            let dt = black_box(DT);
            for ((v, e), &(from, delta, inv)) in values.iter_mut().zip(elapsed.iter_mut()).zip(setup.iter()) {
                *e += dt;
                let t = (*e * inv).clamp(0.0, 1.0);
                let eased = if t < 0.5 { 2.0 * t * t } else { 1.0 - (-2.0 * t + 2.0) * (-2.0 * t + 2.0) / 2.0 };
                *v = from + delta * eased;
            }
        })
    });
    black_box(&values);
}

/// One float tween group of `N` tweens: ossicle f32 and Q16, the two crates and the plain loop.
fn tween_group<const N: usize>(c: &mut Criterion, name: &str) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    ossicle_tweens::<f32, N>(&mut g, "ossicle_f32");
    ossicle_tweens::<Q16, N>(&mut g, "ossicle_q16");
    tween_crate(&mut g, N);
    keyframe_crate(&mut g, N);
    plain_loop(&mut g, N);
    g.finish();
}

/// Tweens of four consecutive float steps (each 250–500 s), `N` of them: the cost per tween.
fn multi_step<S: Scalar, const N: usize>(g: &mut Group<'_>, name: &str) {
    let mut pool: Box<TweenPool<S, N, 4>> = Box::new(TweenPool::new());
    for i in 0..N {
        let (from, to, duration) = from_to_duration(i);
        let (from, to, d) = (S::from_f32(from), S::from_f32(to), S::from_f32(duration / 4.0));
        let t = Tween::<S, 4>::new()
            .from_to(i as u32, 0, from, to, d, Ease::InOutQuad)
            .to(i as u32, 0, from, d, Ease::OutCubic)
            .to(i as u32, 0, to, d, Ease::InOutSine)
            .to(i as u32, 0, from, d, Ease::Linear);
        pool.start(&t, 0).expect("capacity is N");
    }
    let mut sink = ArraySink(vec![S::ZERO; N]);
    let mut events: EventQueue<64> = EventQueue::new();
    let dt = S::from_f32(DT);
    g.bench_function(name, |b| b.iter(|| pool.update(black_box(dt), &mut sink, &mut events)));
    black_box(&sink.0);
}

/// `N` float motions (InOutQuad, looping Yoyo forever, 1000–2000 s a pass), bound to a target each.
fn motions<S: Scalar, const N: usize>(g: &mut Group<'_>, name: &str) {
    let mut pool: Box<MotionPool<S, N>> = Box::new(MotionPool::new());
    for i in 0..N {
        let (from, to, duration) = from_to_duration(i);
        let m = Motion::float(S::from_f32(from), S::from_f32(to), S::from_f32(duration))
            .ease(Ease::InOutQuad)
            .loops(-1, LoopMode::Yoyo)
            .bind(i as u32, 0);
        pool.start(m).expect("capacity is N");
    }
    let mut sink = ArraySink(vec![S::ZERO; N]);
    let mut events: EventQueue<64> = EventQueue::new();
    let dt = S::from_f32(DT);
    g.bench_function(name, |b| b.iter(|| pool.update(black_box(dt), &mut sink, &mut events)));
    black_box(&sink.0);
}

/// `N` sequences of 4 float motions each (append, append, join, insert), looping forever: the cost
/// per sequence.
fn sequences<S: Scalar, const N: usize>(g: &mut Group<'_>, name: &str) {
    let mut pool: Box<SequencePool<S, N, 4>> = Box::new(SequencePool::new());
    for i in 0..N {
        let (from, to, duration) = from_to_duration(i);
        let (from, to, d) = (S::from_f32(from), S::from_f32(to), S::from_f32(duration / 2.0));
        let target = (4 * i) as u32;
        let mut s: Sequence<S, 4> = Sequence::new();
        let m = |k: u32| Motion::float(from, to, d).ease(Ease::InOutQuad).bind(target + k, 0);
        s.append(m(0))
            .and_then(|s| s.append(m(1)))
            .and_then(|s| s.join(m(2)))
            .and_then(|s| s.insert(d, m(3)))
            .expect("4 items");
        s.loops(-1, SequenceLoopMode::Restart);
        pool.start(s).expect("capacity is N");
    }
    let mut sink = ArraySink(vec![S::ZERO; 4 * N]);
    let mut events: EventQueue<64> = EventQueue::new();
    let dt = S::from_f32(DT);
    g.bench_function(name, |b| b.iter(|| pool.update(black_box(dt), &mut sink, &mut events)));
    black_box(&sink.0);
}

/// `N` dynamics channels with `integrator`, following moving targets.
fn dynamics<S: Scalar, const N: usize>(g: &mut Group<'_>, name: &str, integrator: Integrator) {
    let params = Params::new(integrator, S::from_f32(3.0), S::from_f32(0.5), S::from_f32(1.0)).expect("valid");
    let mut d: Box<Dynamics<S, N>> = Box::new(Dynamics::new(params));
    for i in 0..N {
        d.add(i as u32, S::ZERO).expect("capacity is N");
        d.set_target(i as u32, S::from_f32((i % 50) as f32)).expect("added");
    }
    let dt = S::from_f32(DT);
    g.bench_function(name, |b| b.iter(|| d.update(black_box(dt))));
    black_box(&d);
}

fn benches() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    tween_group::<64_000>(&mut c, "tween_64k");
    tween_group::<4_000>(&mut c, "tween_4k");
    {
        let mut g = c.benchmark_group("tween4step_16k");
        g.throughput(Throughput::Elements(16_000));
        multi_step::<f32, 16_000>(&mut g, "ossicle_f32");
        multi_step::<Q16, 16_000>(&mut g, "ossicle_q16");
        g.finish();
    }
    {
        let mut g = c.benchmark_group("motion_16k");
        g.throughput(Throughput::Elements(16_000));
        motions::<f32, 16_000>(&mut g, "ossicle_f32");
        motions::<Q16, 16_000>(&mut g, "ossicle_q16");
        g.finish();
    }
    {
        let mut g = c.benchmark_group("sequence4_4k");
        g.throughput(Throughput::Elements(4_000));
        sequences::<f32, 4_000>(&mut g, "ossicle_f32");
        sequences::<Q16, 4_000>(&mut g, "ossicle_q16");
        g.finish();
    }
    {
        let mut g = c.benchmark_group("dynamics_4k");
        g.throughput(Throughput::Elements(4_000));
        for (label, integrator) in
            [("second_order", Integrator::SecondOrder), ("spring", Integrator::Spring), ("pd", Integrator::Pd)]
        {
            dynamics::<f32, 4_000>(&mut g, &format!("{label}_f32"), integrator);
            dynamics::<Q16, 4_000>(&mut g, &format!("{label}_q16"), integrator);
        }
        g.finish();
    }
    c.final_summary();
}

fn main() {
    // The pools are built on the stack before they move into their Boxes: give them room.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(benches)
        .expect("spawn the benchmark thread")
        .join()
        .expect("benchmark thread");
}
