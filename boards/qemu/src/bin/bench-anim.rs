//! Instruction-count benchmarks of the animation code, in f32 and Q16.16: every ease curve, and the
//! per-object cost of updating tweens, motions, sequences and dynamics channels.
//!
//! The protocol is `ossicle_qemu::bench`'s (markers, `bench <type> <name> <arity> <K>` lines), and
//! `scripts/bench/qemu-insns.sh` runs this binary after `bench`:
//!
//! - ease curves (`ease.<curve>`, arity 1): `K` calls of `ease(curve, t)`; the empty loop `loop1`
//!   is subtracted. The progress values are read with volatile loads, every result goes through
//!   `core::hint::black_box`, and the curve is read through `black_box` on every call, so `ease`
//!   dispatches on it at run time as a tween does.
//! - updates (`tween.*`, `motion.*`, `sequence.*`, `dynamics.*`, arity 0): `U` updates of a pool
//!   of `M` identical objects, every one running and past its first update, so `K = U·M` and nothing
//!   is subtracted: the figure per object update includes the pool's own loop. Values go to a
//!   [`StoreSink`], which stores each value with volatile writes (so it must be computed), unless
//!   the name ends in `.null` ([`NullSink`]: the optimiser may then drop the value's computation).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::write_volatile;

use ossicle::color::Rgba8;
use ossicle::dynamics::{Dynamics, Integrator, Params};
use ossicle::ease::{ease, CubicBezier, Ease, NAMES};
use ossicle::event::EventQueue;
use ossicle::math::Vec2;
use ossicle::motion::{Motion, MotionPool, Sequence, SequencePool};
use ossicle::sink::{property, NullSink, PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::tween::{Tween, TweenPool};
use ossicle::{Scalar, Q16};
use ossicle_qemu::bench::{announce, bench_start, bench_stop, check, load, table};
use ossicle_qemu::{exit, line};

/// Calls per measurement.
const K: usize = 64;

/// Objects per pool in the update benchmarks.
const M: usize = 16;

/// Updates per measurement in the update benchmarks.
const U: usize = 16;

/// Progress values in (0, 1), both halves, for the ease curves.
const PROGRESS: [f32; 8] = [0.05, 0.2, 0.35, 0.5, 0.62, 0.77, 0.9, 0.97];

/// A sink that keeps the last value of each kind with volatile writes (one or two stores), so the
/// value has to be computed; it ignores targets and properties.
struct StoreSink<S> {
    x: S,
    y: S,
    color: u32,
}

impl<S: Scalar> StoreSink<S> {
    fn new() -> Self {
        Self { x: S::ZERO, y: S::ZERO, color: 0 }
    }
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

struct Bench {
    ty: &'static [u8],
}

impl Bench {
    /// The empty loop of the ease benchmarks (`loop1`).
    #[inline(never)]
    fn unary<S: Scalar>(&mut self, name: &str, x: &[S; 8]) {
        announce(self.ty, name, 1, K);
        bench_start();
        for i in 0..K {
            black_box(load(x, i));
        }
        bench_stop();
    }

    /// `K` evaluations of `curve` (read through `black_box` each time) at the progress values.
    #[inline(never)]
    fn ease<S: Scalar>(&mut self, name: &[&str], curve: Ease<S>, t: &[S; 8]) {
        let mut buf = [0u8; 48];
        let name = join(&mut buf, name);
        announce(self.ty, name, 1, K);
        bench_start();
        for i in 0..K {
            black_box(ease(*black_box(&curve), load(t, i)));
        }
        bench_stop();
    }

    /// `U` updates of a pool of `M` copies of `tween`, after one update that begins them.
    #[inline(never)]
    fn tweens<S: Scalar, const STEPS: usize, K2: PropertySink<S>>(
        &mut self,
        name: &str,
        tween: &Tween<S, STEPS>,
        sink: &mut K2,
    ) {
        let mut pool: TweenPool<S, M, STEPS> = TweenPool::new();
        let mut events: EventQueue<4> = EventQueue::new();
        for _ in 0..M {
            let _ = pool.start(tween, 0);
        }
        let dt = S::from_ratio(1, 60);
        pool.update(dt, sink, &mut events);
        announce(self.ty, name, 0, U * M);
        bench_start();
        for _ in 0..U {
            pool.update(black_box(dt), sink, &mut events);
        }
        bench_stop();
        check(name, pool.len() == M && events.is_empty());
    }

    /// `U` updates of a pool of `M` copies of `motion`, after a first update.
    #[inline(never)]
    fn motions<S: Scalar>(&mut self, name: &str, motion: Motion<S>) {
        let mut pool: MotionPool<S, M> = MotionPool::new();
        let mut events: EventQueue<4> = EventQueue::new();
        let mut sink = StoreSink::new();
        for _ in 0..M {
            let _ = pool.start(motion);
        }
        let dt = S::from_ratio(1, 60);
        pool.update(dt, &mut sink, &mut events);
        announce(self.ty, name, 0, U * M);
        bench_start();
        for _ in 0..U {
            pool.update(black_box(dt), &mut sink, &mut events);
        }
        bench_stop();
        check(name, pool.len() == M && events.is_empty());
    }

    /// `U` updates of a pool of `N` copies of `sequence`, after a first update (per sequence).
    #[inline(never)]
    fn sequences<S: Scalar, const N: usize, const ITEMS: usize>(&mut self, name: &str, sequence: &Sequence<S, ITEMS>) {
        let mut pool: SequencePool<S, N, ITEMS> = SequencePool::new();
        let mut events: EventQueue<4> = EventQueue::new();
        let mut sink = StoreSink::new();
        for _ in 0..N {
            let _ = pool.start(sequence.clone());
        }
        let dt = S::from_ratio(1, 60);
        pool.update(dt, &mut sink, &mut events);
        announce(self.ty, name, 0, U * N);
        bench_start();
        for _ in 0..U {
            pool.update(black_box(dt), &mut sink, &mut events);
        }
        bench_stop();
        check(name, pool.len() == N && events.is_empty());
    }

    /// `U` updates of `M` channels of one integrator (3 Hz, ζ = 1/2, r = 1), each moving towards a
    /// target 100 away (still moving: at most 0.3 s in, short of 200 after its overshoot).
    #[inline(never)]
    fn dynamics<S: Scalar>(&mut self, name: &str, integrator: Integrator) {
        let Ok(params) = Params::new(integrator, S::from_i32(3), S::HALF, S::ONE) else {
            check(name, false);
            return;
        };
        let mut d: Dynamics<S, M> = Dynamics::new(params);
        for id in 0..M as u32 {
            let _ = d.add(id, S::ZERO);
            let _ = d.set_target(id, S::from_i32(100));
        }
        let dt = S::from_ratio(1, 60);
        d.update(dt);
        announce(self.ty, name, 0, U * M);
        bench_start();
        for _ in 0..U {
            d.update(black_box(dt));
        }
        bench_stop();
        check(name, d.len() == M && d.value(0).is_ok_and(|y| y > S::ZERO && y < S::from_i32(200)));
    }
}

impl Bench {
    /// `U` updates of one Animator playing a looping 2 s clip of `T` Float tracks (keys at 0, 1 and
    /// 2 s, InOutQuad) into a storing sink: the figure is per track update (count / (U·T)).
    #[inline(never)]
    fn animator<S: Scalar, const T: usize>(&mut self, name: &str) {
        use ossicle::animator::{Animator, Clip, Key, KeyValue, SliceClips, Track, ValueKind};
        let keys = [
            Key::eased(S::ZERO, KeyValue::Float(S::ZERO), Ease::InOutQuad),
            Key::eased(S::ONE, KeyValue::Float(S::from_i32(100)), Ease::InOutQuad),
            Key::new(S::TWO, KeyValue::Float(S::ZERO)),
        ];
        let tracks: [Track<'_, S>; T] =
            core::array::from_fn(|k| Track::new(0, property::USER + k as u32, ValueKind::Float, &keys));
        let clips = [Clip::new("loop", S::TWO, &tracks).looping(true)];
        let src = SliceClips::new(&clips);
        let mut sink = StoreSink::new();
        let mut events: EventQueue<4> = EventQueue::new();
        let mut a: Animator<S> = Animator::new(0);
        let ok = a.play(&src, 0, false).is_ok();
        let dt = S::from_ratio(1, 60);
        a.update(dt, &src, &mut sink, &mut events);
        announce(self.ty, name, 0, U * T);
        bench_start();
        for _ in 0..U {
            a.update(black_box(dt), &src, &mut sink, &mut events);
        }
        bench_stop();
        check(name, ok && a.is_playing() && events.is_empty());
    }

    /// `U` updates of the idle/run/jump state machine (3 parameters, 5 transitions) in a
    /// state where no transition holds, so every update checks every transition's condition; the
    /// figure is per update.
    #[inline(never)]
    fn machine<S: Scalar>(&mut self, name: &str) {
        use ossicle::statemachine::{
            Clause, CompareOp, ParamDef, SliceMachine, StateDef, StateMachine, TransitionDef, TransitionFrom,
        };
        let params = [ParamDef::float("speed", S::ZERO), ParamDef::bool("grounded", true), ParamDef::trigger("jump")];
        let states = [StateDef::new("idle"), StateDef::new("run"), StateDef::new("jump")];
        let fast = [Clause::Compare { param: 0, op: CompareOp::Gt, value: S::from_i32(10) }];
        let slow = [Clause::Compare { param: 0, op: CompareOp::Le, value: S::from_i32(10) }];
        let jump = [Clause::Param(2), Clause::Param(1)];
        let land = [Clause::Param(1)];
        let transitions = [
            TransitionDef::new(TransitionFrom::State(1), 0).when(&slow),
            TransitionDef::new(TransitionFrom::State(2), 0).when(&land).after(S::HALF),
            TransitionDef::new(TransitionFrom::Any, 2).when(&jump),
            TransitionDef::new(TransitionFrom::State(0), 1).when(&fast),
            TransitionDef::new(TransitionFrom::State(2), 1).on_finished(true),
        ];
        let def = SliceMachine::new(&params, &states, &transitions, 0);
        let mut events: EventQueue<4> = EventQueue::new();
        let Ok(mut sm) = StateMachine::<S, 4>::new(0, 0, &def) else {
            check(name, false);
            return;
        };
        let dt = S::from_ratio(1, 60);
        sm.update_alone(dt, &def, &mut events);
        let _ = events.drain().count();
        announce(self.ty, name, 0, U);
        bench_start();
        for _ in 0..U {
            black_box(sm.update_alone(black_box(dt), &def, &mut events));
        }
        bench_stop();
        check(name, sm.current() == 0 && events.is_empty());
    }
}

/// `parts` concatenated into `buf` (truncated to fit).
fn join<'a>(buf: &'a mut [u8; 48], parts: &[&str]) -> &'a str {
    let mut n = 0;
    for b in parts.iter().flat_map(|p| p.bytes()) {
        if let Some(slot) = buf.get_mut(n) {
            *slot = b;
            n += 1;
        }
    }
    core::str::from_utf8(buf.get(..n).unwrap_or(&[])).unwrap_or("?")
}

/// Every ease curve: the named ones and three cubic Bézier curves.
fn ease_suite<S: Scalar>(b: &mut Bench) {
    let t = table::<S>(&PROGRESS);
    for (curve, name) in Ease::<S>::NAMED.iter().zip(NAMES.iter()) {
        b.ease(&["ease.", name], *curve, &t);
    }
    let f = S::from_f32;
    let beziers = [
        ("ease.Bezier-ease", (0.25, 0.1, 0.25, 1.0)),
        ("ease.Bezier-ease-in-out", (0.42, 0.0, 0.58, 1.0)),
        ("ease.Bezier-overshoot", (0.68, -0.6, 0.32, 1.6)),
    ];
    for (name, (x1, y1, x2, y2)) in beziers {
        b.ease(&[name], Ease::Bezier(CubicBezier::new(f(x1), f(y1), f(x2), f(y2))), &t);
    }
}

/// Per-object update costs.
fn update_suite<S: Scalar>(b: &mut Bench) {
    let ten = S::from_i32(10);
    let hundred = S::from_i32(100);
    let one = Tween::<S, 1>::new();
    let float = |e| one.clone().from_to(0, property::POSITION_X, S::ZERO, hundred, ten, e);
    b.tweens("tween.float.InOutQuad", &float(Ease::InOutQuad), &mut StoreSink::new());
    b.tweens("tween.float.InOutQuad.null", &float(Ease::InOutQuad), &mut NullSink);
    b.tweens("tween.float.OutQuad", &float(Ease::OutQuad), &mut StoreSink::new());
    b.tweens("tween.float.Linear", &float(Ease::Linear), &mut StoreSink::new());
    let v = Vec2::new(hundred, S::from_i32(-50));
    let vec2 = one.clone().from_to(0, property::POSITION, Vec2::ZERO, v, ten, Ease::InOutQuad);
    b.tweens("tween.vec2.InOutQuad", &vec2, &mut StoreSink::new());
    let color = one.clone().from_to(0, property::TINT, Rgba8::new(0, 0, 0, 255), Rgba8::WHITE, ten, Ease::InOutQuad);
    b.tweens("tween.color.InOutQuad", &color, &mut StoreSink::new());
    // Four float steps one after another (the first runs), and four in parallel.
    let mut serial = Tween::<S, 4>::new();
    let mut parallel = Tween::<S, 4>::new();
    for k in 0..4 {
        let to = S::from_i32(k + 1);
        serial = serial.from_to(0, property::USER + k as u32, S::ZERO, to, ten, Ease::InOutQuad);
        if k > 0 {
            parallel = parallel.parallel();
        }
        parallel = parallel.from_to(0, property::USER + k as u32, S::ZERO, to, ten, Ease::InOutQuad);
    }
    b.tweens("tween.4-steps.InOutQuad", &serial, &mut StoreSink::new());
    b.tweens("tween.4-parallel.InOutQuad", &parallel, &mut StoreSink::new());

    let motion = Motion::float(S::ZERO, hundred, ten).ease(Ease::InOutQuad).bind(0, property::POSITION_X);
    b.motions("motion.float.InOutQuad", motion);

    // A sequence of four float items, two running at a time (pairs joined).
    let mut seq: Sequence<S, 4> = Sequence::new();
    for k in 0..4u32 {
        let m = Motion::float(S::ZERO, hundred, ten).ease(Ease::InOutQuad).bind(0, property::USER + k);
        let _ = if k % 2 == 0 { seq.append(m) } else { seq.join(m) };
    }
    b.sequences::<S, 4, 4>("sequence.4-items.InOutQuad", &seq);

    b.dynamics::<S>("dynamics.secondOrder", Integrator::SecondOrder);
    b.dynamics::<S>("dynamics.spring", Integrator::Spring);
    b.dynamics::<S>("dynamics.pd", Integrator::Pd);

    b.animator::<S, 1>("animator.1-float-track");
    b.animator::<S, 4>("animator.4-float-tracks");
    b.machine::<S>("statemachine.5-transitions");
}

fn suite<S: Scalar>(ty: &'static [u8], b: &mut Bench) {
    b.ty = ty;
    let g = table::<S>(&PROGRESS);
    // The empty loop, subtracted from the ease curves.
    b.unary("loop1", &g);
    ease_suite::<S>(b);
    update_suite::<S>(b);
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut b = Bench { ty: b"" };
    suite::<f32>(b"f32", &mut b);
    suite::<Q16>(b"q16", &mut b);
    line(&[b"bench done"]);
    exit(0)
}
