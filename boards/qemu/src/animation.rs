//! The animation scenarios of the conformance workload: ease curves, tweens, motions, sequences and
//! procedural dynamics, each folded into its own checksum.
//!
//! A submodule of [`workload`](super) (and compiled with it into the firmware and the host test
//! `tests/tests/qemu.rs`): it depends only on `ossicle` and `core`, and every scenario is a fixed
//! script of calls — no input from the blob — so the checksums depend only on the kernel's
//! arithmetic. Values reach the checksum through a [`FoldSink`] (every `(target, property, value)`
//! written), the events through [`fold_events`], and results read back by handle, errors included
//! (as codes), through the `fold_*` helpers.
//!
//! RAM: everything lives on the stack, one scenario at a time; the largest is the tween scenario
//! (a `TweenPool<S, 6, 6>`, 2.4 KB, and its builders). See `boards/qemu/README.md` for the measured
//! stack peak.

use ossicle::color::Rgba8;
use ossicle::dynamics::{Dynamics, DynamicsError, Integrator, Params};
use ossicle::ease::{ease, CubicBezier, Ease};
use ossicle::event::{Event, EventQueue};
use ossicle::math::{Quat, Vec2, Vec3};
use ossicle::motion::{
    LoopMode, Motion, MotionError, MotionHandle, MotionPool, Sequence, SequenceLoopMode, SequencePool,
};
use ossicle::pool::PoolError;
use ossicle::sink::{property, PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::tween::{Tween, TweenError, TweenHandle, TweenPool};
use ossicle::Scalar;

use super::Checksum;

/// How many `(target, property)` values a [`FoldSink`] remembers (for `get`).
pub const SINK_SLOTS: usize = 12;

/// `num / den` in `S`.
fn r<S: Scalar>(num: i32, den: i32) -> S {
    S::from_ratio(num, den)
}

/// `n` in `S`.
fn i<S: Scalar>(n: i32) -> S {
    S::from_i32(n)
}

/// Folds a property value: a tag for its kind, then its components' bits.
pub fn fold_value<S: Scalar>(ck: &mut Checksum, v: &PropertyValue<S>) {
    match *v {
        PropertyValue::Float(x) => {
            ck.word(1);
            ck.scalar(x);
        }
        PropertyValue::Vector(p) => {
            ck.word(2);
            ck.scalar(p.x);
            ck.scalar(p.y);
        }
        PropertyValue::Vector3(p) => {
            ck.word(3);
            ck.scalar(p.x);
            ck.scalar(p.y);
            ck.scalar(p.z);
        }
        PropertyValue::Rotation(q) => {
            ck.word(4);
            ck.scalar(q.x);
            ck.scalar(q.y);
            ck.scalar(q.z);
            ck.scalar(q.w);
        }
        PropertyValue::Color(c) => {
            ck.word(5);
            ck.word(u32::from_le_bytes(c.to_array()));
        }
        PropertyValue::Bool(b) => {
            ck.word(6);
            ck.flag(b);
        }
        PropertyValue::Int(n) => {
            ck.word(7);
            ck.word(n as u32);
        }
        PropertyValue::Text(id) => {
            ck.word(8);
            ck.word(id);
        }
    }
}

/// A property sink of fixed capacity: folds every `(target, property, value)` it receives into its
/// checksum, and remembers the last value of up to [`SINK_SLOTS`] properties so that tween `to`
/// steps can read where they start. A property beyond the capacity is folded, counted, and not
/// remembered (its `get` is `None`).
pub struct FoldSink<S: Scalar> {
    ck: Checksum,
    slots: [Option<(TargetId, PropertyId, PropertyValue<S>)>; SINK_SLOTS],
    writes: u32,
    overflow: u32,
}

impl<S: Scalar> FoldSink<S> {
    /// An empty sink.
    pub fn new() -> Self {
        Self { ck: Checksum::new(), slots: [None; SINK_SLOTS], writes: 0, overflow: 0 }
    }

    /// Stores `value` without folding it (the scene's value before any animation).
    pub fn preset(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        self.store(target, property, value);
    }

    fn store(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        let mut free = None;
        for slot in self.slots.iter_mut() {
            match slot {
                Some((t, p, v)) if *t == target && *p == property => {
                    *v = value;
                    return;
                }
                None if free.is_none() => free = Some(slot),
                _ => {}
            }
        }
        match free {
            Some(slot) => *slot = Some((target, property, value)),
            None => self.overflow = self.overflow.wrapping_add(1),
        }
    }

    /// The checksum of everything written, with the number of writes and of unremembered values.
    pub fn finish(&self) -> u32 {
        let mut c = self.ck;
        c.word(self.writes);
        c.word(self.overflow);
        c.value()
    }
}

impl<S: Scalar> Default for FoldSink<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar> PropertySink<S> for FoldSink<S> {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        self.writes = self.writes.wrapping_add(1);
        self.ck.word(target);
        self.ck.word(property);
        fold_value(&mut self.ck, &value);
        self.store(target, property, value);
    }

    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        self.slots.iter().flatten().find(|(t, p, _)| *t == target && *p == property).map(|(_, _, v)| *v)
    }
}

fn fold_u64(ck: &mut Checksum, v: u64) {
    ck.word(v as u32);
    ck.word((v >> 32) as u32);
}

/// Folds one event: a tag per variant, then its fields.
pub fn fold_event(ck: &mut Checksum, e: &Event) {
    match *e {
        Event::Custom { source, id } => {
            ck.word(0xA0);
            ck.word(source);
            ck.word(id);
        }
        Event::TweenCall { tween, id } => {
            ck.word(0xA1);
            fold_u64(ck, tween);
            ck.word(id);
        }
        Event::TweenLooped { tween, count } => {
            ck.word(0xA2);
            fold_u64(ck, tween);
            ck.word(count);
        }
        Event::TweenCompleted { tween } => {
            ck.word(0xA3);
            fold_u64(ck, tween);
        }
        Event::MotionLooped { motion, count } => {
            ck.word(0xA4);
            fold_u64(ck, motion);
            ck.word(count);
        }
        Event::MotionCompleted { motion } => {
            ck.word(0xA5);
            fold_u64(ck, motion);
        }
        Event::MotionCancelled { motion } => {
            ck.word(0xA6);
            fold_u64(ck, motion);
        }
        Event::SpriteAnimationChanged { player, animation } => fold_words(ck, &[0xB0, player, animation]),
        Event::SpriteStarted { player, animation } => fold_words(ck, &[0xB1, player, animation]),
        Event::SpriteFrameChanged { player, animation, frame } => fold_words(ck, &[0xB2, player, animation, frame]),
        Event::SpriteFrameEvent { player, animation, frame, name } => {
            fold_words(ck, &[0xB3, player, animation, frame, name])
        }
        Event::SpriteLooped { player, animation, count } => fold_words(ck, &[0xB4, player, animation, count]),
        Event::SpriteEnded { player, animation } => fold_words(ck, &[0xB5, player, animation]),
        Event::SpriteStopped { player, animation } => fold_words(ck, &[0xB6, player, animation]),
        Event::AnimatorEvent { animator, clip, name } => fold_words(ck, &[0xC0, animator, clip, name]),
        Event::ClipFinished { animator, clip } => fold_words(ck, &[0xC1, animator, clip]),
        Event::StateEntered { machine, state } => fold_words(ck, &[0xC2, machine, state]),
        Event::StateExited { machine, state } => fold_words(ck, &[0xC3, machine, state]),
        _ => ck.word(0xAF),
    }
}

fn fold_words(ck: &mut Checksum, words: &[u32]) {
    for &w in words {
        ck.word(w);
    }
}

/// Drains `events` into the checksum (in order), then folds how many were dropped so far.
pub fn fold_events<const Q: usize>(ck: &mut Checksum, events: &mut EventQueue<Q>) {
    let mut n = 0u32;
    while let Some(e) = events.pop() {
        fold_event(ck, &e);
        n = n.wrapping_add(1);
    }
    ck.word(n);
    ck.word(events.dropped());
}

fn pool_error_code(e: &PoolError) -> u32 {
    match e {
        PoolError::Full { .. } => 0xE1,
        PoolError::Stale { .. } => 0xE2,
        PoolError::Foreign { .. } => 0xE3,
        PoolError::OutOfRange { .. } => 0xE4,
    }
}

fn fold_tween_error(ck: &mut Checksum, e: &TweenError) {
    match *e {
        TweenError::TooManySteps { capacity, requested } => {
            ck.word(0xF1);
            ck.word(capacity as u32);
            ck.word(requested as u32);
        }
        TweenError::PoolFull { capacity } => {
            ck.word(0xF2);
            ck.word(capacity as u32);
        }
        TweenError::Handle(p) => {
            ck.word(0xF3);
            ck.word(pool_error_code(&p));
        }
        TweenError::NoSuchStep { index, steps } => {
            ck.word(0xF4);
            ck.word(index as u32);
            ck.word(steps as u32);
        }
        TweenError::NotAValue { index } => {
            ck.word(0xF5);
            ck.word(index as u32);
        }
        TweenError::NotStarted { index } => {
            ck.word(0xF6);
            ck.word(index as u32);
        }
    }
}

fn fold_motion_error(ck: &mut Checksum, e: &MotionError) {
    match *e {
        MotionError::Pool(p) => {
            ck.word(0xD1);
            ck.word(pool_error_code(&p));
        }
        MotionError::WrongKind { expected, found } => {
            ck.word(0xD2);
            ck.word(expected as u32);
            ck.word(found as u32);
        }
        MotionError::SequenceFull { capacity } => {
            ck.word(0xD3);
            ck.word(capacity as u32);
        }
        MotionError::EndlessItem => ck.word(0xD4),
    }
}

fn fold_dynamics_error(ck: &mut Checksum, e: &DynamicsError) {
    match *e {
        DynamicsError::Full { capacity } => {
            ck.word(0xB1);
            ck.word(capacity as u32);
        }
        DynamicsError::Duplicate { id } => {
            ck.word(0xB2);
            ck.word(id);
        }
        DynamicsError::UnknownChannel { id } => {
            ck.word(0xB3);
            ck.word(id);
        }
        DynamicsError::InvalidFrequency => ck.word(0xB4),
        DynamicsError::InvalidDamping => ck.word(0xB5),
        DynamicsError::InvalidResponse => ck.word(0xB6),
    }
}

/// Folds `Ok` (a marker, then what `ok` folds) or the error's code.
fn fold_tween<T>(ck: &mut Checksum, r: Result<T, TweenError>, ok: impl FnOnce(&mut Checksum, T)) {
    match r {
        Ok(v) => {
            ck.word(0x0C);
            ok(ck, v);
        }
        Err(e) => fold_tween_error(ck, &e),
    }
}

fn fold_motion<T>(ck: &mut Checksum, r: Result<T, MotionError>, ok: impl FnOnce(&mut Checksum, T)) {
    match r {
        Ok(v) => {
            ck.word(0x0C);
            ok(ck, v);
        }
        Err(e) => fold_motion_error(ck, &e),
    }
}

fn fold_dynamics<T>(ck: &mut Checksum, r: Result<T, DynamicsError>, ok: impl FnOnce(&mut Checksum, T)) {
    match r {
        Ok(v) => {
            ck.word(0x0C);
            ok(ck, v);
        }
        Err(e) => fold_dynamics_error(ck, &e),
    }
}

fn fold_curve<S: Scalar>(ck: &mut Checksum, curve: &Ease<S>) {
    match curve {
        Ease::Bezier(b) => {
            ck.word(0xBE);
            ck.scalar(b.x1);
            ck.scalar(b.y1);
            ck.scalar(b.x2);
            ck.scalar(b.y2);
        }
        named => {
            let index = Ease::<S>::NAMED.iter().position(|e| e == named).unwrap_or(usize::MAX);
            ck.word(index as u32);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Ease curves.

/// Every named curve and four Bézier curves at 207 points of `[-0.015, 1.015]` (steps of 1/200),
/// at the values just inside the ends, and at every workload input (clamped by `ease`: MIN, MAX,
/// NaN in f32), with each curve's name.
#[inline(never)]
pub fn ease_ops<S: Scalar>(xs: &[S], ck: &mut Checksum) {
    let beziers = [
        CubicBezier::new(r(25, 100), r(10, 100), r(25, 100), S::ONE), // CSS `ease`
        CubicBezier::new(r(42, 100), S::ZERO, r(58, 100), S::ONE),    // CSS `ease-in-out`
        CubicBezier::new(r(68, 100), r(-60, 100), r(32, 100), r(160, 100)), // overshoot both ways
        CubicBezier::new(r(9, 10), S::ZERO, r(1, 10), S::ONE),        // steep middle (dy/dx = 10)
    ];
    let curves = Ease::<S>::NAMED.iter().copied().chain(beziers.iter().map(|b| Ease::Bezier(*b)));
    for curve in curves {
        fold_curve(ck, &curve);
        fold_name(ck, curve.name());
        for k in -3..=203 {
            ck.scalar(ease(curve, r(k, 200)));
        }
        let edges = [S::EPSILON, S::ONE.sub(S::EPSILON), S::HALF, r(1, 3), r(2, 3)];
        for t in edges.iter().chain(xs.iter()) {
            ck.scalar(ease(curve, *t));
        }
    }

    // Name parsing, as sources spell curves (its number parser is the kernel's own, so the
    // never-panic link covers it): each result (curve and a sample, or the error) is folded.
    let names = [
        "easeInOutSine",
        "Sine.easeInOut",
        "outQuad",
        "in_out_bounce",
        "stepped",
        "ease-in-out",
        "cubic-bezier(0.25, 0.1, 0.25, 1)",
        "cubic-bezier(.68,-0.6,.32,1.6e0)",
        "cubic-bezier(1.5, 0, 0, 1)",
        "InOutSin",
        "",
    ];
    for name in names {
        match Ease::<S>::parse(name) {
            Ok(curve) => {
                fold_curve(ck, &curve);
                ck.scalar(ease(curve, r(37, 100)));
            }
            Err(_) => ck.word(0xE0E0_E0E0),
        }
    }
}

fn fold_name(ck: &mut Checksum, name: &str) {
    ck.word(name.len() as u32);
    for b in name.bytes() {
        ck.word(u32::from(b));
    }
}

// ---------------------------------------------------------------------------------------------
// Tweens.

/// Targets of the scenarios.
const T1: TargetId = 1;
const T2: TargetId = 2;
const T3: TargetId = 3;
const T4: TargetId = 4;
const T5: TargetId = 5;
const T6: TargetId = 6;
const T7: TargetId = 7;

/// The tween pool of the scenario: 6 tweens of up to 6 steps (2412 bytes).
type Tweens<S> = TweenPool<S, 6, 6>;

fn fold_tween_state<S: Scalar>(ck: &mut Checksum, pool: &Tweens<S>, handles: &[Option<TweenHandle>]) {
    ck.word(pool.len() as u32);
    for h in handles.iter().flatten() {
        ck.flag(pool.is_running(*h));
        fold_tween(ck, pool.loops_done(*h), |c, n| c.word(n));
        fold_tween(ck, pool.current_step(*h), |c, n| c.word(n as u32));
        fold_tween(ck, pool.is_paused(*h), |c, b| c.flag(b));
        fold_tween(ck, pool.speed(*h), |c, s| c.scalar(s));
        for step in 0..7 {
            fold_tween(ck, pool.value(*h, step), |c, v| fold_value(c, &v));
        }
    }
}

/// A: jumps to 0, runs to 100; a call; a delay; then x back to -40 while the tint fades;
/// plays 3 times.
#[inline(never)]
fn tween_a<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new()
        .from_to(T1, property::POSITION_X, S::ZERO, i(100), S::HALF, Ease::OutQuad)
        .call(11)
        .delay(r(1, 4))
        .to(T1, property::POSITION_X, i::<S>(-40), r(3, 10), Ease::InOutCubic)
        .parallel()
        .to(T1, property::TINT, Rgba8::new(255, 0, 0, 128), r(1, 5), Ease::Linear)
        .call(12)
        .loops(2)
}

/// B: Vec2 position and scale from wherever they are, forever (killed by its owner later).
#[inline(never)]
fn tween_b<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new()
        .to(T2, property::POSITION, Vec2::new(i(30), i(-20)), r(2, 5), Ease::InOutBack)
        .to(T2, property::SCALE, Vec2::new(S::TWO, r(3, 2)), r(1, 5), Ease::OutElastic)
        .call(21)
        .loops(-1)
}

/// C: opacity 1 -> 0 at double speed, with a call at the end.
#[inline(never)]
fn tween_c<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new().from_to(T3, property::OPACITY, S::ONE, S::ZERO, S::ONE, Ease::InSine).call(31).speed(S::TWO)
}

/// D: a delay, a call, a rotation from an unknown value (holds its end), a call it never
/// reaches (killed before).
#[inline(never)]
fn tween_d<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new().delay(r(1, 10)).call(41).to(T4, property::ROTATION, S::PI, r(3, 5), Ease::OutBounce).call(42)
}

/// E: a colour and a scale, loops 3 extra times; large updates cross several passes.
#[inline(never)]
fn tween_e<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new()
        .from_to(T5, property::TINT, Rgba8::new(0, 0, 0, 255), Rgba8::new(255, 128, 64, 0), r(7, 10), Ease::InOutQuad)
        .call(51)
        .from_to(T5, property::SCALE_X, r::<S>(1, 2), r(3, 2), r(1, 10), Ease::OutExpo)
        .loops(3)
}

/// F: parallel steps of different lengths, one of zero length, and a call; plays twice.
#[inline(never)]
fn tween_f<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new()
        .from_to(T6, property::SCALE_Y, S::ZERO, S::ONE, r(1, 10), Ease::InCirc)
        .parallel()
        .from_to(T6, property::POSITION_Y, i::<S>(10), i(20), r(3, 10), Ease::OutQuint)
        .parallel()
        .to(T6, property::ROTATION, S::NEG_ONE, S::ZERO, Ease::Linear)
        .call(61)
        .loops(1)
}

/// G: seven steps in a tween of six.
#[inline(never)]
fn tween_g<S: Scalar>() -> Tween<S, 6> {
    Tween::<S, 6>::new().delay(S::ONE).delay(S::ONE).delay(S::ONE).delay(S::ONE).delay(S::ONE).delay(S::ONE).call(71)
}

/// Builds tween `which` of the scenario, folds its length and pass duration, and starts it. Out of
/// line, so that one builder at a time is on the stack (each is about 380 bytes).
#[inline(never)]
fn start_tween<S: Scalar>(
    pool: &mut Tweens<S>,
    which: u8,
    owner: u32,
    ck: &mut Checksum,
) -> Result<TweenHandle, TweenError> {
    let tween = match which {
        b'A' => tween_a(),
        b'B' => tween_b(),
        b'C' => tween_c(),
        b'D' => tween_d(),
        b'E' => tween_e(),
        b'F' => tween_f(),
        _ => tween_g(),
    };
    ck.word(tween.len() as u32);
    ck.scalar(tween.pass_duration());
    fold_tween(ck, tween.check(), |_, ()| {});
    pool.start(&tween, owner)
}

/// A [`TweenPool`] scenario: `to` (reading the sink, or holding its end when the sink does not
/// know the value), `from_to`, `delay`, `call`, parallel groups, finite and endless loops, Vec2 and
/// colour values, pause/resume, speed, kill (before a call), kill by owner, a full pool, a tween
/// with too many steps, stale handles, and large `dt`s that cross several steps and loops in one
/// update. Every value written, every event and the state read by handle are folded.
#[inline(never)]
pub fn tween_ops<S: Scalar>(ck: &mut Checksum) {
    let mut pool: Tweens<S> = TweenPool::new();
    let mut sink = FoldSink::<S>::new();
    let mut events: EventQueue<40> = EventQueue::new();
    // The scene before animation: T2's position and scale, T1's tint (T4's rotation is unknown).
    sink.preset(T2, property::POSITION, PropertyValue::Vector(Vec2::new(i(5), r(-5, 2))));
    sink.preset(T2, property::SCALE, PropertyValue::Vector(Vec2::new(S::ONE, S::ONE)));
    sink.preset(T1, property::TINT, PropertyValue::Color(Rgba8::new(255, 255, 255, 255)));

    // G: seven steps in a tween of six, refused; then A to F, and A again, which does not fit.
    let refused = start_tween(&mut pool, b'G', 7, ck);
    fold_tween(ck, refused, |_, _| {});
    // Slots 0-6: the tweens started now; 7, 8: started later, in slots freed by then.
    let mut handles: [Option<TweenHandle>; 9] = [None; 9];
    for (slot, (which, owner)) in
        handles.iter_mut().zip([(b'A', 1), (b'B', 2), (b'C', 1), (b'D', 3), (b'E', 4), (b'F', 4), (b'A', 5)])
    {
        let r = start_tween(&mut pool, which, owner, ck);
        fold_tween(ck, r, |c, h| {
            c.word(u32::from(h.index()));
            c.word(h.generation());
        });
        *slot = r.ok();
    }
    fold_tween_state(ck, &pool, &handles);

    let [ha, hb, _, hd, ..] = handles;
    let frame = r::<S>(1, 60);
    for step in 0..40u32 {
        let dt = match step {
            0 => S::ZERO, // begins every tween: first calls, `to` starts
            1..=9 => frame,
            10 => r(1, 10),
            11 => r(1, 4),
            12..=19 => r(1, 30),
            20 => r(5, 2), // crosses several steps and passes of A, B, E at once
            21..=23 => r(1, 20),
            24 => i(20), // B (speed 1/2, 0.6 s passes): more loop boundaries than are simulated one by one
            25..=30 => r(1, 20),
            31 => S::NEG_ONE, // counts as 0
            _ => r(3, 10),
        };
        match step {
            5 => {
                if let Some(h) = ha {
                    fold_tween(ck, pool.pause(h), |_, ()| {});
                }
            }
            8 => {
                if let Some(h) = ha {
                    fold_tween(ck, pool.resume(h), |_, ()| {});
                }
                if let Some(h) = hb {
                    fold_tween(ck, pool.set_speed(h, r(1, 2)), |_, ()| {});
                }
            }
            // D has fired call 41 (at 0.1 s) and is inside its rotation: killed before call 42.
            11 => {
                if let Some(h) = hd {
                    fold_tween(ck, pool.kill(h), |_, ()| {});
                    fold_tween(ck, pool.kill(h), |_, ()| {}); // stale now
                }
            }
            26 => {
                ck.word(pool.kill_owner(2) as u32);
                ck.word(pool.kill_owner(99) as u32);
                // The freed slots are reused: the old handles stay stale.
                for (k, which) in [(7usize, b'E'), (8, b'F')] {
                    let r = start_tween(&mut pool, which, 6, ck);
                    fold_tween(ck, r, |c, h| {
                        c.word(u32::from(h.index()));
                        c.word(h.generation());
                    });
                    if let Some(slot) = handles.get_mut(k) {
                        *slot = r.ok();
                    }
                }
            }
            33 => {
                if let Some(Some(h)) = handles.get(8) {
                    fold_tween(ck, pool.set_speed(*h, S::NEG_ONE), |_, ()| {}); // counts as 0: holds
                }
            }
            36 => {
                if let Some(Some(h)) = handles.get(8) {
                    fold_tween(ck, pool.set_speed(*h, i(3)), |_, ()| {});
                }
            }
            _ => {}
        }
        ck.scalar(dt);
        pool.update(dt, &mut sink, &mut events);
        fold_events(ck, &mut events);
        fold_tween_state(ck, &pool, &handles);
    }
    // Kill what is left (the other handles are stale), then every handle is stale.
    for h in handles.iter().flatten() {
        fold_tween(ck, pool.kill(*h), |_, ()| {});
    }
    pool.kill_all();
    fold_tween_state(ck, &pool, &handles);
    ck.word(sink.finish());
}

// ---------------------------------------------------------------------------------------------
// Motions.

type Motions<S> = MotionPool<S, 8>;

fn fold_motion_values<S: Scalar>(ck: &mut Checksum, pool: &Motions<S>, handles: &[Option<MotionHandle<S>>]) {
    ck.word(pool.len() as u32);
    for h in handles.iter().flatten() {
        ck.flag(pool.is_active(*h));
        fold_motion(ck, pool.passes_finished(*h), |c, n| c.word(n));
        fold_motion(ck, pool.value(*h), |c, v| fold_value(c, &v));
    }
}

/// A [`MotionPool`] scenario: float, Vec2, Vec3, colour and quaternion motions with eases, delays
/// and Restart, Yoyo and Incremental loops (and one forever); punch and shake (1D, 2D, 3D) with
/// frequencies, damping ratios and seeds; `complete` (also of an endless motion) and `cancel`; a
/// full pool, typed reads of the wrong kind, stale handles; large `dt`s crossing several passes.
#[inline(never)]
pub fn motion_ops<S: Scalar>(ck: &mut Checksum) {
    let mut pool: Motions<S> = MotionPool::new();
    let mut sink = FoldSink::<S>::new();
    let mut events: EventQueue<24> = EventQueue::new();

    let q_from = Quat::from_axis_angle(Vec3::new(S::ZERO, S::ONE, S::ZERO), r(1, 2));
    let q_to = Quat::from_axis_angle(Vec3::new(S::ONE, S::ONE, S::ZERO), r(5, 2));
    let motions = [
        Motion::float(S::ZERO, i(10), S::HALF)
            .ease(Ease::OutQuad)
            .loops(3, LoopMode::Restart)
            .bind(T1, property::POSITION_X),
        Motion::vec2(Vec2::new(S::ZERO, S::ZERO), Vec2::new(i(4), i(-8)), r(2, 5))
            .ease(Ease::InOutSine)
            .delay(r(1, 10))
            .loops(4, LoopMode::Yoyo)
            .bind(T2, property::POSITION),
        Motion::vec3(Vec3::new(S::ONE, S::TWO, r(-1, 2)), Vec3::new(i(3), S::ZERO, r(1, 4)), r(3, 10))
            .ease(Ease::InOutExpo)
            .loops(3, LoopMode::Incremental)
            .bind(T3, property::USER),
        Motion::color(Rgba8::new(10, 20, 30, 255), Rgba8::new(250, 0, 128, 0), r(3, 5))
            .ease(Ease::InCubic)
            .loops(2, LoopMode::Incremental)
            .bind(T4, property::TINT),
        Motion::quat(q_from, q_to, S::ONE).ease(Ease::OutBack).loops(-1, LoopMode::Yoyo).bind(T5, property::USER + 1),
        Motion::punch(S::ZERO, i(12), r(2, 5)).frequency(i(18)).damping_ratio(r(3, 10)).bind(T6, property::ROTATION),
        Motion::shake_vec2(Vec2::new(S::ONE, S::TWO), Vec2::new(i(5), i(3)), r(4, 5))
            .frequency(i(12))
            .damping_ratio(r(1, 10))
            .seed(0x00C0_FFEE)
            .bind(T7, property::POSITION),
        Motion::shake(S::ZERO, S::TWO, S::HALF).seed(7).ease(Ease::OutQuad), // unbound: read by handle
        Motion::float(S::ONE, S::ZERO, S::ONE),                              // the ninth: the pool is full
    ];
    let mut handles = [None; 9];
    for (slot, m) in handles.iter_mut().zip(motions.iter()) {
        ck.word(m.value_kind() as u32);
        fold_motion(ck, m.total_duration().ok_or(MotionError::EndlessItem), |c, d| c.scalar(d));
        fold_value(ck, &m.value_at(r(1, 3)));
        let r = pool.start(*m);
        fold_motion(ck, r, |c, h| c.word(h.generation()));
        *slot = r.ok();
    }
    // The shake's first values straight from the spec, and the typed reads (two of the wrong kind).
    let [h_float, h_vec2, h_vec3, h_color, h_quat, h_punch, _, h_shake, _] = handles;
    if let (Some(hf), Some(h2), Some(h3), Some(hc), Some(hq)) = (h_float, h_vec2, h_vec3, h_color, h_quat) {
        fold_motion(ck, pool.float(hf), |c, v| c.scalar(v));
        fold_motion(ck, pool.vec2(h2), |c, v| {
            c.scalar(v.x);
            c.scalar(v.y)
        });
        fold_motion(ck, pool.vec3(h3), |c, v| c.scalar(v.z));
        fold_motion(ck, pool.color(hc), |c, v| c.word(u32::from_le_bytes(v.to_array())));
        fold_motion(ck, pool.quat(hq), |c, v| c.scalar(v.w));
        fold_motion(ck, pool.vec2(hf), |c, v| c.scalar(v.x)); // wrong kind
        fold_motion(ck, pool.float(hq), |c, v| c.scalar(v)); // wrong kind
    }
    fold_motion_values(ck, &pool, &handles);

    let frame = r::<S>(1, 60);
    for step in 0..30u32 {
        let dt = match step {
            0..=11 => frame,
            12 => r(1, 5),
            13 => r(7, 20),
            14..=19 => r(1, 30),
            20 => r(17, 10), // several passes at once
            21..=25 => r(1, 20),
            26 => S::ZERO, // nothing happens
            _ => r(3, 5),
        };
        match step {
            13 => {
                if let Some(h) = h_vec3 {
                    fold_motion(ck, pool.cancel(h, &mut events), |_, ()| {});
                    fold_motion(ck, pool.cancel(h, &mut events), |_, ()| {}); // stale
                }
            }
            18 => {
                if let Some(h) = h_quat {
                    // Loops forever: completes at the end of the current pass.
                    fold_motion(ck, pool.complete(h, &mut sink, &mut events), |_, ()| {});
                }
                // Room again: a 3D punch and a 3D shake.
                let punch = Motion::punch_vec3(Vec3::ZERO, Vec3::new(S::ONE, S::TWO, i(-3)), S::ONE)
                    .frequency(i(6))
                    .damping_ratio(S::ZERO)
                    .bind(T3, property::USER + 2);
                let shake = Motion::shake_vec3(Vec3::ONE, Vec3::new(i(4), i(4), S::ONE), r(6, 5))
                    .frequency(i(20))
                    .damping_ratio(r(1, 2))
                    .seed(2)
                    .loops(2, LoopMode::Incremental)
                    .bind(T5, property::USER + 3);
                for m in [punch, shake] {
                    fold_motion(ck, pool.start(m), |c, h| c.word(h.generation()));
                }
            }
            10 => {
                if let Some(h) = h_shake {
                    fold_motion(ck, pool.complete(h, &mut sink, &mut events), |_, ()| {});
                }
            }
            23 => {
                if let Some(h) = h_punch {
                    fold_motion(ck, pool.complete(h, &mut sink, &mut events), |_, ()| {});
                    // ended: stale
                }
            }
            _ => {}
        }
        ck.scalar(dt);
        pool.update(dt, &mut sink, &mut events);
        fold_events(ck, &mut events);
        fold_motion_values(ck, &pool, &handles);
    }
    ck.word(pool.len() as u32);
    pool.clear();
    fold_motion_values(ck, &pool, &handles);
    ck.word(sink.finish());
}

// ---------------------------------------------------------------------------------------------
// Sequences.

/// A [`SequencePool`] scenario: `append`, `append_interval`, `join`, `insert` (cursor and duration
/// folded as they go), items with delays and loops of their own, a sequence looping with Restart
/// and one with Yoyo, a full sequence, an endless item, a full pool, `complete`, `cancel`, stale
/// handles, large `dt`s crossing several passes.
#[inline(never)]
pub fn sequence_ops<S: Scalar>(ck: &mut Checksum) {
    let mut pool: SequencePool<S, 2, 5> = SequencePool::new();
    let mut sink = FoldSink::<S>::new();
    let mut events: EventQueue<24> = EventQueue::new();

    let mut one: Sequence<S, 5> = Sequence::new();
    let steps: [Result<(), MotionError>; 5] = [
        one.append(Motion::float(S::ZERO, S::ONE, r(3, 10)).bind(T1, property::POSITION_X)).map(|_| ()),
        Ok(one.append_interval(r(1, 10))).map(|_| ()),
        one.join(Motion::float(i(5), i(-5), r(1, 5)).ease(Ease::InQuad).bind(T2, property::POSITION_X)).map(|_| ()),
        one.append(
            Motion::vec2(Vec2::new(S::ZERO, S::ONE), Vec2::new(i(8), i(-2)), r(1, 4))
                .ease(Ease::OutBounce)
                .bind(T3, property::POSITION),
        )
        .map(|_| ()),
        one.insert(
            r(1, 20),
            Motion::color(Rgba8::new(0, 0, 0, 0), Rgba8::new(200, 100, 50, 255), r(1, 5)).bind(T4, property::TINT),
        )
        .map(|_| ()),
    ];
    for s in steps {
        fold_motion(ck, s, |_, ()| {});
        ck.scalar(one.cursor());
        ck.scalar(one.duration());
    }
    one.loops(3, SequenceLoopMode::Restart);

    let mut two: Sequence<S, 5> = Sequence::new();
    let steps: [Result<(), MotionError>; 5] = [
        two.append(
            Motion::float(i(-3), i(3), r(2, 5)).ease(Ease::InOutQuart).delay(r(1, 10)).bind(T5, property::ROTATION),
        )
        .map(|_| ()),
        two.join(
            Motion::punch(S::ZERO, S::TWO, r(3, 10))
                .frequency(i(10))
                .damping_ratio(r(1, 5))
                .bind(T6, property::SCALE_X),
        )
        .map(|_| ()),
        two.append(
            Motion::float(S::ZERO, i(4), r(1, 10))
                .loops(2, LoopMode::Yoyo)
                .ease(Ease::OutCirc)
                .bind(T7, property::OPACITY),
        )
        .map(|_| ()),
        two.append(Motion::float(S::ZERO, S::ONE, S::ONE).loops(-1, LoopMode::Restart)).map(|_| ()), // endless
        two.insert(S::NEG_ONE, Motion::shake(S::ONE, S::HALF, r(1, 5)).seed(99).bind(T7, property::SCALE_Y))
            .map(|_| ()),
    ];
    for s in steps {
        fold_motion(ck, s, |_, ()| {});
        ck.scalar(two.cursor());
        ck.scalar(two.duration());
    }
    two.loops(4, SequenceLoopMode::Yoyo);
    // A fifth item fills `two`; a sixth does not fit.
    for at in [r(1, 2), S::ONE] {
        let m = Motion::float(S::ZERO, S::ONE, r(1, 10)).bind(T1, property::OPACITY);
        fold_motion(ck, two.insert(at, m).map(|_| ()), |_, ()| {});
    }
    ck.word(one.len() as u32);
    ck.word(two.len() as u32);
    ck.word(one.pass_count().unwrap_or(0));
    ck.word(two.pass_count().unwrap_or(0));

    let mut three = one.clone();
    three.loops(2, SequenceLoopMode::Yoyo);
    let h1 = pool.start(one.clone());
    let h2 = pool.start(two);
    fold_motion(ck, h1, |c, h| c.word(h.generation()));
    fold_motion(ck, h2, |c, h| c.word(h.generation()));
    fold_motion(ck, pool.start(one), |c, h| c.word(h.generation())); // full
    let mut handles = [h1.ok(), h2.ok(), None];

    let frame = r::<S>(1, 60);
    for step in 0..32u32 {
        let dt = match step {
            0..=14 => frame,
            15 => r(1, 2),
            16..=20 => r(1, 15),
            21 => r(7, 5), // ends `one` (2.25 s) and crosses two passes of `two`
            22..=29 => r(1, 10),
            _ => r(2, 5),
        };
        match step {
            22 => {
                // `one`'s slot is free again: its copy, looping Yoyo.
                let h = pool.start(three.clone());
                fold_motion(ck, h, |c, h| c.word(h.generation()));
                handles[2] = h.ok();
            }
            24 => {
                if let Some(h) = handles[1] {
                    fold_motion(ck, pool.complete(h, &mut sink, &mut events), |_, ()| {});
                    fold_motion(ck, pool.complete(h, &mut sink, &mut events), |_, ()| {});
                    // stale
                }
            }
            28 => {
                if let Some(h) = handles[2] {
                    fold_motion(ck, pool.cancel(h, &mut events), |_, ()| {});
                }
                if let Some(h) = handles[0] {
                    fold_motion(ck, pool.cancel(h, &mut events), |_, ()| {}); // ended: stale
                }
            }
            _ => {}
        }
        ck.scalar(dt);
        pool.update(dt, &mut sink, &mut events);
        fold_events(ck, &mut events);
        ck.word(pool.len() as u32);
        for h in handles.iter().flatten() {
            ck.flag(pool.is_active(*h));
            fold_motion(ck, pool.position(*h), |c, (pass, time)| {
                c.word(pass);
                c.scalar(time);
            });
        }
    }
    ck.word(sink.finish());
}

// ---------------------------------------------------------------------------------------------
// Dynamics.

/// A [`Dynamics`] scenario: channels of each integrator (second order with overshoot and with
/// anticipation, under-, critically and over-damped springs, PD), bound and unbound, following
/// targets set with and without velocity, `set`, `impulse`, parameter changes, time steps from
/// 1/240 s to 3 s, 330 updates; errors (duplicate, full, unknown channel, invalid parameters) and
/// integrator names.
#[inline(never)]
pub fn dynamics_ops<S: Scalar>(ck: &mut Checksum) {
    let mut sink = FoldSink::<S>::new();
    for name in ["secondOrder", "spring", "PD", "second_order", "verlet"] {
        match Integrator::parse(name) {
            Ok(integrator) => ck.word(integrator as u32 + 1),
            Err(_) => ck.word(0xEE),
        }
    }
    let invalid = [
        Params::new(Integrator::Spring, S::ZERO, S::ONE, S::ZERO),
        Params::new(Integrator::Spring, S::ONE, S::NEG_ONE, S::ZERO),
        Params::from_angular(Integrator::Pd, S::NEG_ONE, S::ONE, S::ZERO),
        Params::from_angular(Integrator::Pd, S::TAU, S::HALF, S::ZERO),
    ];
    for p in invalid {
        fold_dynamics(ck, p, |c, p| {
            c.scalar(p.frequency());
            c.scalar(p.angular_frequency());
        });
    }
    let params = |integrator, f: S, z: S, resp: S| Params::new(integrator, f, z, resp);
    let set = [
        (10, params(Integrator::SecondOrder, S::TWO, S::HALF, S::TWO)),
        (11, params(Integrator::SecondOrder, i(3), r(1, 2), S::NEG_ONE)),
        (12, params(Integrator::Spring, i(3), r(3, 10), S::ZERO)),
        (13, params(Integrator::Spring, r(3, 2), S::ONE, S::ZERO)),
        (14, params(Integrator::Spring, S::ONE, r(5, 2), S::ZERO)),
        (15, params(Integrator::Pd, i(4), S::ONE, S::ZERO)),
    ];
    let Ok(defaults) = params(Integrator::Pd, S::TWO, r(7, 10), S::ZERO) else {
        ck.word(0xDEAD);
        return;
    };
    let mut dynamics: Dynamics<S, 6> = Dynamics::new(defaults);
    for (id, p) in set {
        fold_dynamics(ck, p, |c, p| {
            c.word(p.integrator() as u32);
            c.scalar(p.angular_frequency());
            match p.stable_dt_limit() {
                Some(limit) => c.scalar(limit),
                None => c.word(0x5AB1E),
            }
        });
        if let Ok(p) = p {
            fold_dynamics(ck, dynamics.add_with(id, i(id as i32 - 12), p), |_, ()| {});
        }
    }
    fold_dynamics(ck, dynamics.add(10, S::ZERO), |_, ()| {}); // duplicate
    fold_dynamics(ck, dynamics.add(16, S::ZERO), |_, ()| {}); // full
    fold_dynamics(ck, dynamics.set_target(99, S::ONE), |_, ()| {}); // unknown
    for (id, target, property) in
        [(10, T1, property::POSITION_X), (12, T2, property::POSITION_X), (15, T3, property::ROTATION)]
    {
        fold_dynamics(ck, dynamics.bind(id, target, property), |_, ()| {});
    }

    let fold_channels = |ck: &mut Checksum, d: &Dynamics<S, 6>| {
        for (id, y) in d.iter() {
            ck.word(id);
            ck.scalar(y);
            fold_dynamics(ck, d.velocity(id), |c, v| c.scalar(v));
            fold_dynamics(ck, d.target(id), |c, x| c.scalar(x));
        }
    };

    for step in 0..330u32 {
        match step {
            0 => {
                for (id, x) in [(10, i(100)), (11, i(-50)), (12, i(250)), (13, S::ONE), (14, i(-7)), (15, i(30))] {
                    fold_dynamics(ck, dynamics.set_target(id, x), |_, ()| {});
                }
            }
            60 => {
                fold_dynamics(ck, dynamics.impulse(12, i(-400)), |_, ()| {});
                fold_dynamics(ck, dynamics.impulse(15, i(80)), |_, ()| {});
                fold_dynamics(ck, dynamics.set(13, i(-20)), |_, ()| {});
            }
            90 => {
                fold_dynamics(ck, dynamics.set_target_with_velocity(11, i(40), i(25)), |_, ()| {});
                fold_dynamics(ck, dynamics.set_target_with_velocity(15, i(-30), i(-60)), |_, ()| {});
                fold_dynamics(ck, dynamics.unbind(12), |_, ()| {});
            }
            150 => {
                // Frequencies change, keeping the velocity; one channel changes integrator.
                if let Ok(p) = params(Integrator::SecondOrder, i(5), r(1, 5), r(3, 2)) {
                    fold_dynamics(ck, dynamics.set_params(10, p), |_, ()| {});
                }
                fold_dynamics(ck, dynamics.set_integrator(14, Integrator::Pd), |_, ()| {});
                fold_dynamics(ck, dynamics.remove(13), |_, ()| {});
                fold_dynamics(ck, dynamics.add(13, i(3)), |_, ()| {}); // with the defaults
                fold_dynamics(ck, dynamics.set_target(13, i(-3)), |_, ()| {});
            }
            240 => {
                if let Ok(p) = params(Integrator::Spring, S::TWO, S::ONE, S::ZERO) {
                    dynamics.set_params_all(p);
                }
                for (id, x) in [(10, i(-100)), (11, S::ZERO), (12, i(500)), (14, i(7))] {
                    fold_dynamics(ck, dynamics.set_target(id, x), |_, ()| {});
                }
            }
            _ => {}
        }
        let dt = match step {
            0..=119 => r(1, 60),
            120..=179 => r(1, 240),
            180..=199 => r(1, 15),
            200 => S::HALF,
            201 => i(3), // long steps: must stay stable
            202..=239 => r(1, 30),
            _ => r(1, 60),
        };
        dynamics.update_with_sink(dt, &mut sink);
        fold_channels(ck, &dynamics);
    }
    ck.word(dynamics.len() as u32);
    dynamics.clear();
    ck.word(dynamics.len() as u32);
    ck.word(sink.finish());
}

// ---------------------------------------------------------------------------------------------
// Sprite player.

/// The sprite player over an in-RAM source: every play mode, repeats, per-frame durations, frame
/// events, a speed curve, queue / play_once, pause / stop / set_frame, negative speed and a huge dt;
/// every event, the frame shown and `next_change` folded after each update.
#[inline(never)]
pub fn sprite_ops<S: Scalar>(ck: &mut Checksum) {
    use ossicle::sprite::{
        CurveInterpolation, Frames, PlayMode, SliceSource, SpeedCurve, SpeedKey, SpriteAnimation, SpritePlayer,
    };
    let durations = [r::<S>(1, 10), r(1, 4), r(1, 20), r(3, 10)];
    let hit: [&[u32]; 4] = [&[], &[7], &[], &[8, 9]];
    let anims = [
        SpriteAnimation::new("idle", Frames::Range { start: 0, end: 3 }, S::from_i32(8)).looping(true),
        SpriteAnimation::new("walk", Frames::List(&[4, 5, 4, 6]), S::ZERO)
            .durations(&durations)
            .events(&hit)
            .looping(true),
        SpriteAnimation::new("jump", Frames::Range { start: 7, end: 9 }, S::from_i32(12))
            .repeat(2)
            .mode(PlayMode::PingPong),
        SpriteAnimation::new("land", Frames::Range { start: 10, end: 12 }, S::from_i32(10)).mode(PlayMode::Reverse),
        SpriteAnimation::new("spin", Frames::Range { start: 13, end: 16 }, S::from_i32(15))
            .mode(PlayMode::PingPongReverse)
            .looping(true),
        SpriteAnimation::new("hold", Frames::Range { start: 17, end: 17 }, S::ZERO),
    ];
    let src = SliceSource::new(&anims);
    let keys = [SpeedKey::new(S::ZERO, S::ONE), SpeedKey::new(S::ONE, S::TWO), SpeedKey::new(S::TWO, S::HALF)];
    let mut events: EventQueue<32> = EventQueue::new();
    let mut player: SpritePlayer<'_, S> = SpritePlayer::new(3);
    let dts = [r::<S>(1, 60), r(1, 30), r(7, 100), S::ZERO, r(1, 4), r(3, 2)];
    let step = |player: &mut SpritePlayer<'_, S>, events: &mut EventQueue<32>, ck: &mut Checksum, n: usize| {
        for k in 0..n {
            let dt = dts.get(k % dts.len()).copied().unwrap_or(S::ZERO);
            player.update(&src, dt, events);
            fold_events(ck, events);
            ck.word(player.frame().map_or(0xFFFF, |f| f));
            ck.word(player.source_frame(&src).map_or(0xFFFF, |f| f));
            match player.next_change(&src) {
                Some(t) => ck.scalar(t),
                None => ck.word(0xDEAD),
            }
        }
    };
    for (i, name) in ["idle", "walk", "jump", "land", "spin", "hold", "missing"].iter().enumerate() {
        match player.play_named(&src, name, i % 2 == 0) {
            Ok(()) => ck.word(1),
            Err(_) => ck.word(0xE5),
        }
        step(&mut player, &mut events, ck, 12);
    }
    // Replaying the current animation does nothing; restart does.
    let _ = player.play(&src, 1, false);
    let _ = player.play(&src, 1, false);
    step(&mut player, &mut events, ck, 3);
    let _ = player.play(&src, 1, true);
    step(&mut player, &mut events, ck, 3);
    // Queue after a non-looping animation, play_once back to a looping one.
    let _ = player.play(&src, 2, true);
    let _ = player.queue(&src, 0);
    step(&mut player, &mut events, ck, 10);
    let _ = player.play_once(&src, 3);
    step(&mut player, &mut events, ck, 10);
    // Pause, resume, set_frame, stop, negative and zero speed, a speed curve, a huge dt.
    player.pause();
    step(&mut player, &mut events, ck, 2);
    player.resume();
    player.set_frame(&src, 2);
    step(&mut player, &mut events, ck, 3);
    player.set_speed(S::NEG_ONE);
    step(&mut player, &mut events, ck, 8);
    player.set_speed(S::ZERO);
    step(&mut player, &mut events, ck, 2);
    player.set_speed(S::ONE);
    player.set_speed_curve(Some(SpeedCurve { keys: &keys, interpolation: CurveInterpolation::Cubic, looping: true }));
    let _ = player.play(&src, 4, true);
    step(&mut player, &mut events, ck, 12);
    player.update(&src, S::from_i32(500), &mut events);
    fold_events(ck, &mut events);
    ck.word(player.loop_count());
    player.stop(&src);
    step(&mut player, &mut events, ck, 2);
    let _ = player.play(&src, 9, true);
    step(&mut player, &mut events, ck, 1);

    // The dirty-rectangle list a sprite renderer feeds: clipping, merging, full-screen fallback.
    use ossicle::sprite::{DirtyRects, Rect};
    let mut dirty: DirtyRects<4> = DirtyRects::new(Rect { x: 0, y: 0, w: 160, h: 128 });
    let rects = [
        Rect { x: -10, y: 5, w: 30, h: 20 },
        Rect { x: 20, y: 5, w: 10, h: 10 },
        Rect { x: 100, y: 100, w: 100, h: 100 },
        Rect { x: 50, y: 60, w: 0, h: 9 },
        Rect { x: 60, y: 30, w: 5, h: 5 },
        Rect { x: 80, y: 10, w: 4, h: 4 },
        Rect { x: i32::MAX, y: i32::MIN, w: u32::MAX, h: u32::MAX },
        Rect { x: 120, y: 40, w: 8, h: 8 },
    ];
    for (k, r) in rects.iter().enumerate() {
        if k % 3 == 2 {
            ck.word(u32::from(dirty.try_add(*r).is_ok()));
        } else {
            dirty.add(*r);
        }
        ck.word(dirty.len() as u32);
        ck.word(u32::from(dirty.is_full_screen()));
        ck.word(dirty.area() as u32);
        for d in dirty.iter() {
            fold_words(ck, &[d.x as u32, d.y as u32, d.w, d.h]);
        }
    }
    if let Some(b) = dirty.bounds() {
        fold_words(ck, &[b.x as u32, b.y as u32, b.w, b.h]);
    }
}

/// The Animator: the coin bob (InOutSine position.y keys, a "top" event key), a UI clip
/// with Vector, Color, Bool and Text tracks into a `NodeTable` and into a folding sink, played,
/// paused, sought, applied, restarted and stopped with reset; every value written and every event
/// is folded.
pub fn animator_ops<S: Scalar>(ck: &mut Checksum) {
    use ossicle::animator::{Animator, Clip, Key, KeyValue, NodeTable, SliceClips, Track, ValueKind};
    use ossicle::color::Rgba8;
    use ossicle::ease::Ease;
    use ossicle::math::Vec2;
    use ossicle::sink::property;
    let f = |t: S, v: S| Key::new(t, KeyValue::Float(v));
    let y = [
        Key::eased(S::ZERO, KeyValue::Float(S::ZERO), Ease::InOutSine),
        Key::eased(S::HALF, KeyValue::Float(S::from_i32(-6)), Ease::InOutSine),
        f(S::ONE, S::ZERO),
    ];
    let top = [Key::new(S::HALF, KeyValue::Text(21)), Key::new(S::ZERO, KeyValue::Text(22))];
    let top = [top[1], top[0]];
    let pos = [
        Key::eased(S::ZERO, KeyValue::Vector(Vec2::new(S::from_i32(-80), S::from_i32(8))), Ease::OutCubic),
        Key::new(r(2, 5), KeyValue::Vector(Vec2::new(S::from_i32(8), S::from_i32(8)))),
    ];
    let tint = [
        Key::eased(S::ZERO, KeyValue::Color(Rgba8::new(255, 255, 255, 0)), Ease::OutBack),
        Key::new(r(2, 5), KeyValue::Color(Rgba8::new(255, 208, 64, 255))),
    ];
    let shown = [Key::new(S::ZERO, KeyValue::Bool(false)), Key::new(r(1, 5), KeyValue::Bool(true))];
    let text = [Key::new(S::ZERO, KeyValue::Text(30)), Key::new(r(3, 10), KeyValue::Text(31))];
    let done = [Key::new(r(2, 5), KeyValue::Text(23))];
    let bob = [Track::new(0, property::POSITION_Y, ValueKind::Float, &y), Track::events(&top)];
    let panel = [
        Track::new(1, property::POSITION, ValueKind::Vector, &pos),
        Track::new(1, property::TINT, ValueKind::Color, &tint),
        Track::new(1, property::VISIBLE, ValueKind::Bool, &shown),
        Track::new(2, property::TEXT, ValueKind::Text, &text),
        Track::new(2, property::SCRIPT, ValueKind::Float, &y).stepped(true),
        Track::events(&done),
    ];
    let clips = [Clip::new("bob", S::ONE, &bob).looping(true), Clip::new("in", r(2, 5), &panel)];
    let src = SliceClips::new(&clips).with_autoplay(Some(0));
    let mut nodes: NodeTable<S, 3> = NodeTable::new();
    let mut sink = FoldSink::<S>::new();
    let mut events: EventQueue<32> = EventQueue::new();
    let mut a: Animator<S> = Animator::new(5);
    ck.flag(a.start(&src).is_ok());
    let dts = [r::<S>(1, 16), r(1, 60), r(7, 100), S::ZERO, r(1, 3), r(5, 2)];
    for (i, &dt) in dts.iter().cycle().take(30).enumerate() {
        a.update(dt, &src, &mut nodes, &mut events);
        a.update(S::ZERO, &src, &mut sink, &mut events);
        if let Some(p) = nodes.position(0) {
            ck.scalar(p.y);
        }
        match i {
            7 => a.pause(),
            9 => a.resume(),
            12 => {
                ck.flag(a.play_named(&src, "in", false).is_ok());
            }
            18 => a.seek(&src, &mut sink, r(1, 10)),
            20 => ck.flag(a.apply(&src, &mut sink, 0, r(3, 4)).is_ok()),
            22 => {
                ck.flag(a.play(&src, 1, true).is_ok());
            }
            25 => a.set_speed(r(1, 2)),
            27 => a.stop(&src, &mut sink, true),
            28 => {
                ck.flag(a.play(&src, 0, false).is_ok());
            }
            _ => {}
        }
        ck.flag(a.is_playing());
        ck.flag(a.is_finished());
        ck.scalar(a.time());
        fold_events(ck, &mut events);
    }
    for n in 0..3u32 {
        if let Some(c) = nodes.tint(n) {
            ck.word(u32::from_le_bytes([c.r, c.g, c.b, c.a]));
        }
        ck.flag(nodes.visible(n).unwrap_or(false));
        ck.word(nodes.text(n).unwrap_or(u32::MAX));
    }
    ck.flag(a.play(&src, 9, false).is_err());
    ck.word(sink.finish());
}

/// State machines: the idle/run/jump machine driving a sprite player (first match wins, one
/// transition per update, trigger clearing, `after`, `*`, `onFinished`, travel), with every event,
/// transition index, time in state and parameter folded.
pub fn statemachine_ops<S: Scalar>(ck: &mut Checksum) {
    use ossicle::sprite::{Frames, SliceSource, SpriteAnimation, SpritePlayer};
    use ossicle::statemachine::{
        Clause, CompareOp, ParamDef, ParamValue, SliceMachine, StateDef, StateMachine, TransitionDef, TransitionFrom,
    };
    let anims = [
        SpriteAnimation::new("idle", Frames::Range { start: 0, end: 1 }, S::from_i32(4)).looping(true),
        SpriteAnimation::new("run", Frames::Range { start: 2, end: 5 }, S::from_i32(8)).looping(true),
        SpriteAnimation::new("jump", Frames::Range { start: 6, end: 8 }, S::from_i32(4)),
    ];
    let sprites = SliceSource::new(&anims);
    let params = [ParamDef::float("speed", S::ZERO), ParamDef::bool("grounded", true), ParamDef::trigger("jump")];
    let states =
        [StateDef::new("idle").animation(0), StateDef::new("run").animation(1), StateDef::new("jump").animation(2)];
    let fast = [Clause::Compare { param: 0, op: CompareOp::Gt, value: S::from_i32(10) }];
    let slow = [Clause::Compare { param: 0, op: CompareOp::Le, value: S::from_i32(10) }];
    let jump = [Clause::Param(2), Clause::Compare { param: 1, op: CompareOp::Eq, value: S::ONE }];
    let land = [Clause::Param(1)];
    let transitions = [
        TransitionDef::new(TransitionFrom::State(0), 1).when(&fast),
        TransitionDef::new(TransitionFrom::State(1), 0).when(&slow),
        TransitionDef::new(TransitionFrom::Any, 2).when(&jump),
        TransitionDef::new(TransitionFrom::State(2), 0).when(&land).after(r(1, 5)),
        TransitionDef::new(TransitionFrom::State(2), 0).on_finished(true),
    ];
    let def = SliceMachine::new(&params, &states, &transitions, 0);
    let mut player: SpritePlayer<'_, S> = SpritePlayer::new(4);
    let mut events: EventQueue<32> = EventQueue::new();
    let Ok(mut sm) = StateMachine::<S, 4>::new(9, 0, &def) else {
        ck.word(0xDEAD);
        return;
    };
    let dt = r::<S>(1, 10);
    for i in 0..40u32 {
        match i {
            2 => ck.flag(sm.set_float(0, S::from_i32(12)).is_ok()),
            3 => ck.flag(sm.set_trigger(2).is_ok()),
            6 => ck.flag(sm.set_bool(1, false).is_ok()),
            8 => ck.flag(sm.set_trigger(2).is_ok()),
            12 => ck.flag(sm.set_bool(1, true).is_ok()),
            20 => ck.flag(sm.set_float(0, S::from_i32(3)).is_ok()),
            25 => ck.flag(sm.travel(1).is_ok()),
            30 => ck.flag(sm.travel(sm.current()).is_ok()),
            33 => ck.flag(sm.set_float_named(&def, "speed", S::from_i32(-2)).is_ok()),
            _ => {}
        }
        player.update(&sprites, dt, &mut events);
        let taken = sm.update(dt, &def, Some((&mut player, &sprites)), &mut events);
        ck.word(taken.map_or(u32::MAX, |t| t as u32));
        ck.word(sm.current() as u32);
        ck.scalar(sm.time_in_state());
        for p in 0..3 {
            match sm.value(p) {
                Some(ParamValue::Float(v)) => ck.scalar(v),
                Some(ParamValue::Bool(b)) | Some(ParamValue::Trigger(b)) => ck.flag(b),
                None => ck.word(0xFFFF),
            }
        }
        fold_events(ck, &mut events);
    }
    ck.flag(sm.set_float(2, S::ONE).is_err());
    ck.flag(sm.travel(7).is_err());
    if let Some(t) = ossicle::statemachine::MachineSource::transition(&def, 3) {
        ck.scalar(t.after);
        ck.scalar(t.crossfade);
    }
}
