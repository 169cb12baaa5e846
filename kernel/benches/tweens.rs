//! Tween update cost with 64,000 active float tweens: ossicle's `TweenPool` (f32 and Q16.16) side by
//! side with the `tween` crate (a bare `Tweener` per tween), the `keyframe` crate and a plain loop
//! over arrays, all doing the same work: an InOutQuad float from `from` to `to` over a duration
//! between 1000 and 2000 s (so no tween ends during the measurement), advanced by 1/60 s per
//! update, each value stored into an array of 64,000 floats.
//!
//! `cargo bench -p ossicle --bench tweens` (criterion reports time per update of all 64,000
//! tweens; divide by 64,000 for the cost per tween, or read the "thrpt" line: elements/s).

use criterion::{black_box, Criterion, Throughput};
use ossicle::ease::Ease;
use ossicle::event::EventQueue;
use ossicle::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::tween::{Tween, TweenPool};
use ossicle::{Scalar, Q16};
use std::time::Duration;

const COUNT: usize = 64_000;
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

fn ossicle_pool<S: Scalar>(c: &mut Criterion, name: &str) {
    let mut pool: Box<TweenPool<S, COUNT, 1>> = Box::new(TweenPool::new());
    for i in 0..COUNT {
        let (from, to, duration) = from_to_duration(i);
        let t = Tween::<S, 1>::new().from_to(
            i as u32,
            0,
            S::from_f32(from),
            S::from_f32(to),
            S::from_f32(duration),
            Ease::InOutQuad,
        );
        pool.start(&t, 0).expect("capacity is COUNT");
    }
    let mut sink = ArraySink(vec![S::ZERO; COUNT]);
    let mut events: EventQueue<64> = EventQueue::new();
    let dt = S::from_f32(DT);
    c.bench_function(name, |b| {
        b.iter(|| {
            pool.update(black_box(dt), &mut sink, &mut events);
        })
    });
    black_box(&sink.0);
}

fn tween_crate(c: &mut Criterion) {
    let mut tweeners: Vec<_> = (0..COUNT)
        .map(|i| {
            let (from, to, duration) = from_to_duration(i);
            tween::Tweener::new(from, to, duration, tween::QuadInOut)
        })
        .collect();
    let mut values = vec![0f32; COUNT];
    c.bench_function("tween_crate", |b| {
        b.iter(|| {
            for (v, t) in values.iter_mut().zip(tweeners.iter_mut()) {
                *v = t.move_by(black_box(DT));
            }
        })
    });
    black_box(&values);
}

fn keyframe_crate(c: &mut Criterion) {
    let setup: Vec<(f32, f32, f32)> = (0..COUNT).map(from_to_duration).collect();
    let mut elapsed = vec![0f32; COUNT];
    let mut values = vec![0f32; COUNT];
    c.bench_function("keyframe_crate", |b| {
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

fn plain_loop(c: &mut Criterion) {
    let setup: Vec<(f32, f32, f32)> = (0..COUNT)
        .map(|i| {
            let (from, to, duration) = from_to_duration(i);
            (from, to - from, 1.0 / duration)
        })
        .collect();
    let mut elapsed = vec![0f32; COUNT];
    let mut values = vec![0f32; COUNT];
    c.bench_function("plain_loop", |b| {
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

fn benches() {
    let mut c = Criterion::default().configure_from_args().measurement_time(Duration::from_secs(3));
    {
        let mut g = c.benchmark_group("tween_update_64k");
        g.throughput(Throughput::Elements(COUNT as u64));
        drop(g);
    }
    ossicle_pool::<f32>(&mut c, "ossicle_f32");
    ossicle_pool::<Q16>(&mut c, "ossicle_q16");
    tween_crate(&mut c);
    keyframe_crate(&mut c);
    plain_loop(&mut c);
    c.final_summary();
}

fn main() {
    // The 64,000-tween pool is built on the stack before it moves into its Box: give it room.
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(benches)
        .expect("spawn the benchmark thread")
        .join()
        .expect("benchmark thread");
}
