//! Motions, punch/shake and sequences, in f32 and Q16.16.
//!
//! Every expected value is computed here in `f64` from the documented formulas (the published ease
//! formulas, `from + (to − from)·ease(p)`, the punch/shake formula of `ossicle::motion::vibration`,
//! quaternion angles), never by calling the code under test. Times and durations are binary
//! fractions, exact in both scalar types, so the expectations need no rounding of their inputs.
//!
//! Tolerances (absolute):
//! - interpolated values: `(4 × range + 2)` units of the type's resolution near 1 (2⁻¹⁶ in Q16.16,
//!   2⁻²³ in f32), i.e. a few roundings of the ease and the interpolation, scaled by `to − from`;
//!   with the `fast-math` feature, f32 sine eases add micromath's sine error (`2.5e-3 × range`);
//! - rotations: 4 × 2⁻¹⁴ in Q16.16 (sin/cos/atan2 and a normalisation), 1e-5 in f32;
//! - punch/shake: `strength × 2⁻¹⁴` in Q16.16 (a sine, an `exp2` and a few products, each within
//!   about 2⁻¹⁶; measured 1.1 × 2⁻¹⁶ × strength), `strength × 1e-6` in f32 (measured 1.6e-7;
//!   `2e-2` with the `fast-math` feature's sine).

use std::collections::HashMap;
use std::f64::consts::PI;

use ossicle::color::Rgba8;
use ossicle::ease::Ease;
use ossicle::event::{Event, EventQueue};
use ossicle::math::{Quat, Vec2, Vec3};
use ossicle::motion::{
    LoopMode, Motion, MotionError, MotionPool, RunningMotion, Sequence, SequenceLoopMode, SequencePool, ShakeNoise,
    ValueKind, MAX_LOOP_EVENTS_PER_UPDATE, MOTION_POOL_TAG, SEQUENCE_POOL_TAG,
};
use ossicle::pool::{Handle, PoolError};
use ossicle::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::{Scalar, Q16};

// ---------------------------------------------------------------------------------------------
// Helpers

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

fn is_q16<S: Scalar>() -> bool {
    S::EPSILON.to_f64() > 1e-6
}

/// Tolerance for an interpolated value over a range of `range`.
fn tol<S: Scalar>(range: f64) -> f64 {
    let unit = if is_q16::<S>() { 1.0 / 65536.0 } else { 1.0 / 8_388_608.0 };
    (4.0 * range.abs() + 2.0) * unit
}

/// Tolerance for a value over a range of `range` eased by a sine curve: as [`tol`], plus, with the
/// `fast-math` feature in f32, micromath's sine error (1.1e-3, doubled by InOutSine's square).
fn tol_sine_ease<S: Scalar>(range: f64) -> f64 {
    let fast = if cfg!(feature = "fast-math") && !is_q16::<S>() { 2.5e-3 * range.abs() } else { 0.0 };
    tol::<S>(range) + fast
}

fn tol_rot<S: Scalar>() -> f64 {
    if is_q16::<S>() {
        4.0 / 16384.0
    } else if cfg!(feature = "fast-math") {
        2e-2
    } else {
        1e-5
    }
}

fn tol_vib<S: Scalar>(strength: f64) -> f64 {
    strength.abs()
        * if is_q16::<S>() {
            1.0 / 16384.0
        } else if cfg!(feature = "fast-math") {
            2e-2
        } else {
            1e-6
        }
}

#[track_caller]
fn close(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "got {got}, want {want} (difference {:e}, tolerance {tol:e})",
        (got - want).abs()
    );
}

#[track_caller]
fn float<S: Scalar>(v: Option<PropertyValue<S>>) -> f64 {
    match v {
        Some(PropertyValue::Float(x)) => x.to_f64(),
        other => panic!("expected a Float, got {other:?}"),
    }
}

#[track_caller]
fn vec2<S: Scalar>(v: Option<PropertyValue<S>>) -> [f64; 2] {
    match v {
        Some(PropertyValue::Vector(x)) => [x.x.to_f64(), x.y.to_f64()],
        other => panic!("expected a Vector, got {other:?}"),
    }
}

#[track_caller]
fn vec3<S: Scalar>(v: Option<PropertyValue<S>>) -> [f64; 3] {
    match v {
        Some(PropertyValue::Vector3(x)) => [x.x.to_f64(), x.y.to_f64(), x.z.to_f64()],
        other => panic!("expected a Vector3, got {other:?}"),
    }
}

#[track_caller]
fn close_n<const K: usize>(got: [f64; K], want: [f64; K], tol: f64) {
    for i in 0..K {
        assert!((got[i] - want[i]).abs() <= tol, "got {got:?}, want {want:?} (component {i}, tolerance {tol:e})");
    }
}

/// Asserts a rotation equals `want` = `[x, y, z, w]` up to sign (q and −q are the same rotation).
#[track_caller]
fn close_quat<S: Scalar>(got: Quat<S>, want: [f64; 4], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64(), got.z.to_f64(), got.w.to_f64()];
    let d = |sign: f64| (0..4).map(|i| (g[i] - sign * want[i]).abs()).fold(0.0, f64::max);
    assert!(d(1.0).min(d(-1.0)) <= tol, "got {g:?}, want ±{want:?} (tolerance {tol:e})");
}

/// `[x, y, z, w]` of the rotation by `deg` degrees about Z.
fn rot_z(deg: f64) -> [f64; 4] {
    let h = deg.to_radians() / 2.0;
    [0.0, 0.0, h.sin(), h.cos()]
}

fn quat_z<S: Scalar>(deg: f64) -> Quat<S> {
    let [x, y, z, w] = rot_z(deg);
    Quat::from_xyzw(s(x), s(y), s(z), s(w))
}

// Published ease formulas (easings.net), in f64.
fn out_quad(p: f64) -> f64 {
    1.0 - (1.0 - p) * (1.0 - p)
}
fn in_out_sine(p: f64) -> f64 {
    -((PI * p).cos() - 1.0) / 2.0
}
fn in_quad(p: f64) -> f64 {
    p * p
}

/// Records the last value written to each (target, property) and counts the writes.
struct Recorder<S: Scalar> {
    values: HashMap<(TargetId, PropertyId), PropertyValue<S>>,
    writes: usize,
}

impl<S: Scalar> Recorder<S> {
    fn new() -> Self {
        Self { values: HashMap::new(), writes: 0 }
    }
    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        self.values.get(&(target, property)).copied()
    }
    /// The last value of property `p` of target 0.
    fn p(&self, p: PropertyId) -> Option<PropertyValue<S>> {
        self.get(0, p)
    }
}

impl<S: Scalar> PropertySink<S> for Recorder<S> {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        self.values.insert((target, property), value);
        self.writes += 1;
    }
}

type Events = EventQueue<64>;

fn drain(events: &mut Events) -> Vec<Event> {
    events.drain().collect()
}

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod f32_tests {
            $( #[test] fn $name() { super::$name::<f32>(); } )*
        }
        mod q16_tests {
            $( #[test] fn $name() { super::$name::<ossicle::Q16>(); } )*
        }
    };
}

both!(
    values_midway,
    colour_rounds_to_nearest,
    quaternion_shortest_arc,
    yoyo_loops,
    incremental_loops,
    complete_jumps_to_final_value,
    cancel_stops_where_it_is,
    delay_writes_nothing_then_starts,
    forever_loops_large_dt_is_bounded,
    punch_matches_formula_and_ends_at_from,
    shake_is_deterministic_bounded_and_matches_formula,
    sequence_timeline_cursor_and_duration,
    sequence_restart_loop,
    sequence_yoyo_loop,
    sequence_large_dt_crosses_two_passes,
    sequence_complete_and_cancel,
    sequence_item_with_delay_and_loops,
    sequence_overlapping_items_latest_start_wins,
    stale_handles_and_full_pools,
);

// ---------------------------------------------------------------------------------------------
// Typed motions

fn values_midway<S: Scalar>() {
    let mut pool: MotionPool<S, 8> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    // Float 2 → 10 over 2 s: Linear, and OutQuad.
    let lin = pool.start(Motion::float(s(2.0), s(10.0), s(2.0)).bind(0, 1)).unwrap();
    let quad = pool.start(Motion::float(s(2.0), s(10.0), s(2.0)).ease(Ease::OutQuad).bind(0, 2)).unwrap();
    // Vec2 (−4, 1) → (4, 9) over 1 s, InOutSine; Vec3 (1, 2, 3) → (3, −2, 11) over 4 s, Linear.
    let v2 = Motion::vec2(Vec2::new(s(-4.0), s(1.0)), Vec2::new(s(4.0), s(9.0)), s(1.0)).ease(Ease::InOutSine);
    let v2 = pool.start(v2.bind(0, 3)).unwrap();
    let v3 = Motion::vec3(Vec3::new(s(1.0), s(2.0), s(3.0)), Vec3::new(s(3.0), s(-2.0), s(11.0)), s(4.0));
    let v3 = pool.start(v3.bind(0, 4)).unwrap();
    // An unbound motion: read by handle only.
    let free =
        pool.start(Motion::vec3(Vec3::ZERO, Vec3::new(s(8.0), s(8.0), s(8.0)), s(1.0)).ease(Ease::InQuad)).unwrap();

    pool.update(s(0.25), &mut sink, &mut ev);
    pool.update(s(0.25), &mut sink, &mut ev); // t = 0.5
    let t = 0.5;
    close(float(sink.p(1)), 2.0 + 8.0 * (t / 2.0), tol::<S>(8.0));
    close(float(sink.p(2)), 2.0 + 8.0 * out_quad(t / 2.0), tol::<S>(8.0));
    let e = in_out_sine(t); // = 0.5 at the midpoint
    close_n(vec2(sink.p(3)), [-4.0 + 8.0 * e, 1.0 + 8.0 * e], tol_sine_ease::<S>(8.0));
    close_n(vec3(sink.p(4)), [1.0 + 2.0 * t / 4.0, 2.0 - 4.0 * t / 4.0, 3.0 + 8.0 * t / 4.0], tol::<S>(8.0));
    // By handle, the same values; typed accessors.
    close(pool.float(lin).unwrap().to_f64(), 4.0, tol::<S>(8.0));
    close(pool.float(quad).unwrap().to_f64(), 2.0 + 8.0 * out_quad(0.25), tol::<S>(8.0));
    assert_eq!(pool.value(v2).unwrap(), sink.p(3).unwrap());
    let f = pool.vec3(free).unwrap();
    close_n([f.x.to_f64(), f.y.to_f64(), f.z.to_f64()], [8.0 * in_quad(0.5); 3], tol::<S>(8.0));
    assert_eq!(sink.values.len(), 4, "the unbound motion writes nothing");

    // At t = 0.75, InOutSine is off the midpoint: 0.8535533905932737.
    pool.update(s(0.25), &mut sink, &mut ev);
    let e = in_out_sine(0.75);
    close_n(vec2(sink.p(3)), [-4.0 + 8.0 * e, 1.0 + 8.0 * e], tol_sine_ease::<S>(8.0));
    assert!(ev.is_empty());

    // The wrong typed accessor is an error naming both kinds.
    assert_eq!(pool.vec2(lin), Err(MotionError::WrongKind { expected: ValueKind::Vec2, found: ValueKind::Float }));
    assert_eq!(pool.float(v3), Err(MotionError::WrongKind { expected: ValueKind::Float, found: ValueKind::Vec3 }));
    assert!(pool.color(v2).is_err() && pool.quat(v2).is_err());
}

fn colour_rounds_to_nearest<S: Scalar>() {
    // channel = clamp(round_half_up(from + (to − from)·ease(p)), 0, 255)
    fn want(from: [u8; 4], to: [u8; 4], e: f64) -> Rgba8 {
        let c = |i: usize| {
            let v = f64::from(from[i]) + (f64::from(to[i]) - f64::from(from[i])) * e;
            (v + 0.5).floor().clamp(0.0, 255.0) as u8
        };
        Rgba8::new(c(0), c(1), c(2), c(3))
    }
    let from = [0u8, 10, 255, 0];
    let to = [255u8, 11, 0, 255];
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let m = Motion::color(Rgba8::from_array(from), Rgba8::from_array(to), s(1.0)).bind(5, 8);
    let h = pool.start(m).unwrap();
    let q =
        pool.start(Motion::color(Rgba8::from_array(from), Rgba8::from_array(to), s(1.0)).ease(Ease::InQuad)).unwrap();
    pool.update(s(0.25), &mut sink, &mut ev);
    // 63.75 → 64, 10.25 → 10, 191.25 → 191, 63.75 → 64.
    assert_eq!(sink.get(5, 8), Some(PropertyValue::Color(want(from, to, 0.25))));
    assert_eq!(want(from, to, 0.25), Rgba8::new(64, 10, 191, 64));
    // InQuad(¼) = 1/16: 15.9375 → 16, 10.0625 → 10, 239.0625 → 239.
    assert_eq!(pool.color(q).unwrap(), want(from, to, in_quad(0.25)));
    pool.update(s(0.25), &mut sink, &mut ev);
    // Halves round up: 127.5 → 128, 10.5 → 11, 127.5 → 128.
    assert_eq!(pool.color(h).unwrap(), Rgba8::new(128, 11, 128, 128));
    assert_eq!(pool.color(h).unwrap(), want(from, to, 0.5));
    pool.update(s(0.5), &mut sink, &mut ev);
    assert_eq!(sink.get(5, 8), Some(PropertyValue::Color(Rgba8::from_array(to))));
}

fn quaternion_shortest_arc<S: Scalar>() {
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    // 10° → 350° about Z: the short way is through 0°, −20° in all (not +340°).
    let short = pool.start(Motion::quat(quat_z(10.0), quat_z(350.0), s(1.0)).bind(0, 1)).unwrap();
    // 0° → 120°: constant angular speed (slerp), eased OutQuad.
    let wide = pool.start(Motion::quat(Quat::IDENTITY, quat_z(120.0), s(1.0))).unwrap();
    let eased = pool.start(Motion::quat(Quat::IDENTITY, quat_z(120.0), s(1.0)).ease(Ease::OutQuad)).unwrap();
    pool.update(s(0.25), &mut sink, &mut ev);
    match sink.p(1) {
        Some(PropertyValue::Rotation(q)) => close_quat(q, rot_z(10.0 - 20.0 * 0.25), tol_rot::<S>()),
        other => panic!("expected a rotation, got {other:?}"),
    }
    close_quat(pool.quat(wide).unwrap(), rot_z(120.0 * 0.25), tol_rot::<S>());
    close_quat(pool.quat(eased).unwrap(), rot_z(120.0 * out_quad(0.25)), tol_rot::<S>());
    pool.update(s(0.25), &mut sink, &mut ev);
    close_quat(pool.quat(short).unwrap(), rot_z(0.0), tol_rot::<S>());
    close_quat(pool.quat(wide).unwrap(), rot_z(60.0), tol_rot::<S>());
    pool.update(s(0.5), &mut sink, &mut ev);
    match sink.p(1) {
        Some(PropertyValue::Rotation(q)) => close_quat(q, rot_z(-10.0), tol_rot::<S>()),
        other => panic!("expected a rotation, got {other:?}"),
    }
}

fn yoyo_loops<S: Scalar>() {
    // 0 → 10 over 1 s, OutQuad, 4 passes: forward, backward, forward, backward.
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let h = pool
        .start(Motion::float(s(0.0), s(10.0), s(1.0)).ease(Ease::OutQuad).loops(4, LoopMode::Yoyo).bind(0, 1))
        .unwrap();
    let bits = h.to_bits();
    // Backward passes play the forward curve mirrored in time: value = 10·OutQuad(1 − p).
    pool.update(s(0.25), &mut sink, &mut ev);
    close(float(sink.p(1)), 10.0 * out_quad(0.25), tol::<S>(10.0));
    pool.update(s(1.0), &mut sink, &mut ev); // t = 1.25: pass 1 (backward), p = 0.25
    close(float(sink.p(1)), 10.0 * out_quad(0.75), tol::<S>(10.0));
    assert_eq!(drain(&mut ev), vec![Event::MotionLooped { motion: bits, count: 1 }]);
    assert_eq!(pool.passes_finished(h), Ok(1));
    // One dt crossing two boundaries (into passes 2 and 3): t = 3.5, pass 3 (backward), p = 0.5.
    pool.update(s(2.25), &mut sink, &mut ev);
    close(float(sink.p(1)), 10.0 * out_quad(0.5), tol::<S>(10.0));
    assert_eq!(
        drain(&mut ev),
        vec![Event::MotionLooped { motion: bits, count: 2 }, Event::MotionLooped { motion: bits, count: 3 }]
    );
    pool.update(s(0.125), &mut sink, &mut ev); // t = 3.625: p = 0.625, mirrored 0.375
    close(float(sink.p(1)), 10.0 * out_quad(0.375), tol::<S>(10.0));
    // The end of the 4th (backward) pass: exactly the start value, then completion.
    pool.update(s(1.0), &mut sink, &mut ev);
    assert_eq!(sink.p(1), Some(PropertyValue::Float(s(0.0))));
    assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: bits }]);
    assert!(!pool.is_active(h));
    assert!(pool.is_empty());
}

fn incremental_loops<S: Scalar>() {
    let mut pool: MotionPool<S, 8> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    // 1 → 3 over 0.5 s, 5 passes: pass k plays 1 + 2k → 3 + 2k.
    let f = pool.start(Motion::float(s(1.0), s(3.0), s(0.5)).loops(5, LoopMode::Incremental).bind(0, 1)).unwrap();
    // Vec2 (0, 0) → (1, −2), InOutSine, 3 passes.
    let v = Motion::vec2(Vec2::ZERO, Vec2::new(s(1.0), s(-2.0)), s(0.5)).ease(Ease::InOutSine);
    let v = pool.start(v.loops(3, LoopMode::Incremental).bind(0, 2)).unwrap();
    // Rotation 0° → 30° about Z, 3 passes: 0 → 30 → 60 → 90.
    let q = pool.start(Motion::quat(Quat::IDENTITY, quat_z(30.0), s(0.5)).loops(3, LoopMode::Incremental)).unwrap();
    // Colour channel 0 → 100, 3 passes: saturates at 255.
    let c = Motion::color(Rgba8::new(0, 0, 0, 0), Rgba8::new(100, 0, 0, 0), s(0.5)).loops(3, LoopMode::Incremental);
    let c = pool.start(c).unwrap();

    pool.update(s(0.125), &mut sink, &mut ev); // pass 0, p = 0.25
    close(float(sink.p(1)), 1.0 + 2.0 * 0.25, tol::<S>(2.0));
    pool.update(s(0.5), &mut sink, &mut ev); // t = 0.625: pass 1, p = 0.25
    close(float(sink.p(1)), 1.0 + 2.0 * 0.25 + 2.0, tol::<S>(4.0));
    let e = in_out_sine(0.25);
    close_n(vec2(sink.p(2)), [e + 1.0, -2.0 * e - 2.0], tol_sine_ease::<S>(4.0));
    close_quat(pool.quat(q).unwrap(), rot_z(30.0 + 30.0 * 0.25), tol_rot::<S>());
    assert_eq!(pool.color(c).unwrap(), Rgba8::new(125, 0, 0, 0)); // 25 + 100
    let looped: Vec<Event> =
        [f, v, q, c].iter().map(|h| Event::MotionLooped { motion: h.to_bits(), count: 1 }).collect();
    assert_eq!(drain(&mut ev), looped);
    // Crossing two boundaries at once: t = 1.625 → pass 3, p = 0.25.
    pool.update(s(1.0), &mut sink, &mut ev);
    close(float(sink.p(1)), 1.0 + 2.0 * 0.25 + 3.0 * 2.0, tol::<S>(8.0));
    assert_eq!(pool.passes_finished(f), Ok(3));
    let fb = f.to_bits();
    let vb = v.to_bits();
    let got = drain(&mut ev);
    // f: into passes 2 and 3. v, q, c (3 passes): into pass 2 and finished at t = 1.5.
    assert_eq!(got.iter().filter(|e| matches!(e, Event::MotionLooped { motion, .. } if *motion == fb)).count(), 2);
    assert!(got.contains(&Event::MotionLooped { motion: fb, count: 3 }));
    assert!(got.contains(&Event::MotionLooped { motion: vb, count: 2 }));
    assert!(got.contains(&Event::MotionCompleted { motion: vb }));
    // The final values of the 3-pass motions: 3 × the step.
    close_n(vec2(sink.p(2)), [3.0, -6.0], tol::<S>(6.0));
    assert!(!pool.is_active(q) && !pool.is_active(c));
    // complete(): the value at the end of the last pass, accumulated: 3 + 4 × 2 = 11.
    pool.complete(f, &mut sink, &mut ev).unwrap();
    close(float(sink.p(1)), 11.0, tol::<S>(10.0));
    assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: fb }]);

    // Colour and rotation finals through complete().
    let c = Motion::color(Rgba8::new(0, 0, 0, 0), Rgba8::new(100, 0, 0, 0), s(0.5)).loops(3, LoopMode::Incremental);
    let c = pool.start(c.bind(0, 3)).unwrap();
    pool.complete(c, &mut sink, &mut ev).unwrap();
    assert_eq!(sink.p(3), Some(PropertyValue::Color(Rgba8::new(255, 0, 0, 0)))); // 300 saturates
    let q = Motion::quat(Quat::IDENTITY, quat_z(30.0), s(0.5)).loops(3, LoopMode::Incremental);
    let q = pool.start(q.bind(0, 4)).unwrap();
    pool.complete(q, &mut sink, &mut ev).unwrap();
    match sink.p(4) {
        Some(PropertyValue::Rotation(r)) => close_quat(r, rot_z(90.0), tol_rot::<S>()),
        other => panic!("expected a rotation, got {other:?}"),
    }
}

fn complete_jumps_to_final_value<S: Scalar>() {
    let mut pool: MotionPool<S, 8> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let m = |p: PropertyId| Motion::float(s(2.0), s(6.0), s(1.0)).bind(0, p);
    let restart = pool.start(m(1).loops(3, LoopMode::Restart)).unwrap();
    let yoyo_even = pool.start(m(2).loops(2, LoopMode::Yoyo)).unwrap();
    let yoyo_odd = pool.start(m(3).loops(3, LoopMode::Yoyo)).unwrap();
    let forever = pool.start(m(4).loops(-1, LoopMode::Yoyo)).unwrap();
    let delayed = pool.start(m(5).delay(s(10.0))).unwrap();
    pool.update(s(1.25), &mut sink, &mut ev); // everyone (but the delayed) in pass 1, p = 0.25
    drain(&mut ev);
    for h in [restart, yoyo_even, yoyo_odd, forever, delayed] {
        pool.complete(h, &mut sink, &mut ev).unwrap();
        assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: h.to_bits() }]);
        assert!(!pool.is_active(h));
        assert_eq!(pool.value(h), Err(MotionError::Pool(PoolError::Stale { index: h.index(), generation: 0 })));
    }
    // Exact end values: the last pass of Restart ends at `to`; Yoyo with an even count at `from`,
    // odd at `to`; a forever Yoyo at the end of its current (backward) pass: `from`; the delayed one
    // at `to` without ever playing.
    assert_eq!(sink.p(1), Some(PropertyValue::Float(s(6.0))));
    assert_eq!(sink.p(2), Some(PropertyValue::Float(s(2.0))));
    assert_eq!(sink.p(3), Some(PropertyValue::Float(s(6.0))));
    assert_eq!(sink.p(4), Some(PropertyValue::Float(s(2.0))));
    assert_eq!(sink.p(5), Some(PropertyValue::Float(s(6.0))));
    assert!(pool.is_empty());
    // Completing again: stale.
    assert!(matches!(pool.complete(restart, &mut sink, &mut ev), Err(MotionError::Pool(PoolError::Stale { .. }))));
    assert!(ev.is_empty());
}

fn cancel_stops_where_it_is<S: Scalar>() {
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let h = pool.start(Motion::float(s(0.0), s(8.0), s(1.0)).ease(Ease::OutQuad).bind(0, 1)).unwrap();
    pool.update(s(0.375), &mut sink, &mut ev);
    let at = float(sink.p(1));
    close(at, 8.0 * out_quad(0.375), tol::<S>(8.0));
    close(pool.float(h).unwrap().to_f64(), at, 0.0);
    let writes = sink.writes;
    pool.cancel(h, &mut ev).unwrap();
    assert_eq!(drain(&mut ev), vec![Event::MotionCancelled { motion: h.to_bits() }]);
    // Nothing more is written: the property stays where the motion stopped.
    assert_eq!(sink.writes, writes);
    pool.update(s(1.0), &mut sink, &mut ev);
    assert_eq!(sink.writes, writes);
    assert_eq!(float(sink.p(1)), at);
    assert!(ev.is_empty(), "a cancelled motion emits nothing more");
    assert!(matches!(pool.value(h), Err(MotionError::Pool(PoolError::Stale { .. }))));
    assert!(matches!(pool.cancel(h, &mut ev), Err(MotionError::Pool(PoolError::Stale { .. }))));
}

fn delay_writes_nothing_then_starts<S: Scalar>() {
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let h = pool.start(Motion::float(s(4.0), s(8.0), s(1.0)).delay(s(0.5)).bind(0, 1)).unwrap();
    // The delay only delays the first pass.
    let looped = pool
        .start(Motion::float(s(0.0), s(1.0), s(0.25)).delay(s(0.5)).loops(3, LoopMode::Restart).bind(0, 2))
        .unwrap();
    pool.update(s(0.25), &mut sink, &mut ev);
    assert_eq!(sink.writes, 0, "nothing is written during the delay");
    assert_eq!(pool.float(h), Ok(s(4.0)), "the value by handle is the start value during the delay");
    pool.update(s(0.5), &mut sink, &mut ev); // 0.25 s after the delay
    close(float(sink.p(1)), 5.0, tol::<S>(4.0));
    assert_eq!(sink.p(2), Some(PropertyValue::Float(s(0.0)))); // pass 1 begins at 0.75 exactly
    assert_eq!(drain(&mut ev), vec![Event::MotionLooped { motion: looped.to_bits(), count: 1 }]);
    pool.update(s(0.375), &mut sink, &mut ev); // 1.125: looped at pass 2, 0.125 s in
    close(float(sink.p(2)), 0.5, tol::<S>(1.0));
    assert_eq!(drain(&mut ev), vec![Event::MotionLooped { motion: looped.to_bits(), count: 2 }]);
    // Negative delays count as 0.
    let m = Motion::<S>::float(s(0.0), s(1.0), s(1.0)).delay(s(-3.0));
    assert_eq!(m.start_delay(), s(0.0));
    // A dt that is zero, negative or NaN does nothing.
    let writes = sink.writes;
    pool.update(s(0.0), &mut sink, &mut ev);
    pool.update(s(-1.0), &mut sink, &mut ev);
    assert_eq!(sink.writes, writes);
}

fn forever_loops_large_dt_is_bounded<S: Scalar>() {
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let h = pool.start(Motion::float(s(0.0), s(4.0), s(0.5)).loops(-1, LoopMode::Restart).bind(0, 1)).unwrap();
    let y = pool.start(Motion::float(s(0.0), s(4.0), s(0.5)).loops(-1, LoopMode::Yoyo).bind(0, 2)).unwrap();
    // 1000.125 s: 2000 boundaries, then 0.125 s into pass 2000 (forward for Yoyo: even).
    pool.update(s(1000.125), &mut sink, &mut ev);
    close(float(sink.p(1)), 1.0, tol::<S>(4.0));
    close(float(sink.p(2)), 1.0, tol::<S>(4.0));
    assert_eq!(pool.passes_finished(h), Ok(2000));
    assert_eq!(pool.passes_finished(y), Ok(2000));
    // Only the last MAX_LOOP_EVENTS_PER_UPDATE boundaries are reported, in order, per motion.
    let counts: Vec<u32> = drain(&mut ev)
        .into_iter()
        .filter_map(|e| match e {
            Event::MotionLooped { motion, count } if motion == h.to_bits() => Some(count),
            _ => None,
        })
        .collect();
    let first = 2000 - MAX_LOOP_EVENTS_PER_UPDATE + 1;
    assert_eq!(counts, (first..=2000).collect::<Vec<u32>>());
    // Then on, one pass at a time again.
    pool.update(s(0.5), &mut sink, &mut ev);
    close(float(sink.p(2)), 4.0 - 1.0, tol::<S>(4.0)); // pass 2001, backward
    assert_eq!(drain(&mut ev).len(), 2);
}

// ---------------------------------------------------------------------------------------------
// Punch and shake

/// The documented punch/shake offset factor: `sin(2π f τ) · e^(−2π ζ f τ) · (1 − τ/D)`.
fn vib(f: f64, zeta: f64, d: f64, tau: f64) -> f64 {
    (2.0 * PI * f * tau).sin() * (-2.0 * PI * zeta * f * tau).exp() * (1.0 - tau / d)
}

/// Independent re-implementation of the documented noise: lowbias32 and the mapping to [-1, 1).
fn noise(seed: u32, cycle: u32, component: u32) -> f64 {
    fn mix(mut x: u32) -> u32 {
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb_352d);
        x ^= x >> 15;
        x = x.wrapping_mul(0x846c_a68b);
        x ^= x >> 16;
        x
    }
    let h = mix(mix(cycle.wrapping_mul(4).wrapping_add(component)) ^ seed);
    f64::from(h >> 15) / 65536.0 - 1.0
}

fn punch_matches_formula_and_ends_at_from<S: Scalar>() {
    let (f, zeta, d) = (18.0, 0.125, 0.375);
    let mut pool: MotionPool<S, 4> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let p = Motion::punch(s(5.0), s(12.0), s(d)).frequency(s(f)).damping_ratio(s(zeta)).bind(0, 1);
    let p = pool.start(p).unwrap();
    let v = Motion::punch_vec3(Vec3::new(s(1.0), s(-2.0), s(0.0)), Vec3::new(s(2.0), s(-4.0), s(8.0)), s(d));
    let v = pool.start(v.frequency(s(f)).damping_ratio(s(zeta)).bind(0, 2)).unwrap();
    // ζ = 0: no decay, only the taper; with an ease warping time (InQuad).
    let u = Motion::punch(s(0.0), s(3.0), s(0.5)).frequency(s(4.0)).damping_ratio(s(0.0)).ease(Ease::InQuad);
    let u = pool.start(u.bind(0, 3)).unwrap();
    let dt = 1.0 / 64.0;
    let mut max_seen = 0.0f64;
    for k in 1..24 {
        pool.update(s(dt), &mut sink, &mut ev);
        let tau = k as f64 * dt;
        let a = vib(f, zeta, d, tau);
        close(float(sink.p(1)), 5.0 + 12.0 * a, tol_vib::<S>(12.0));
        close_n(vec3(sink.p(2)), [1.0 + 2.0 * a, -2.0 - 4.0 * a, 8.0 * a], tol_vib::<S>(8.0));
        max_seen = max_seen.max((float(sink.p(1)) - 5.0).abs());
        let e = in_quad(tau / 0.5);
        close(float(sink.p(3)), 3.0 * vib(4.0, 0.0, 0.5, e * 0.5), tol_vib::<S>(3.0));
    }
    assert!(max_seen > 6.0, "the punch does move (max offset {max_seen})");
    // 24/64 = 0.375: the end, exactly `from`.
    pool.update(s(dt), &mut sink, &mut ev);
    assert_eq!(sink.p(1), Some(PropertyValue::Float(s(5.0))));
    assert_eq!(sink.p(2), Some(PropertyValue::Vector3(Vec3::new(s(1.0), s(-2.0), s(0.0)))));
    assert_eq!(
        drain(&mut ev),
        vec![Event::MotionCompleted { motion: p.to_bits() }, Event::MotionCompleted { motion: v.to_bits() }]
    );
    assert!(pool.is_active(u));
    pool.complete(u, &mut sink, &mut ev).unwrap();
    assert_eq!(sink.p(3), Some(PropertyValue::Float(s(0.0))));
    // A punch that loops ends every pass at `from` (Incremental adds nothing).
    let l = Motion::<S>::punch(s(5.0), s(12.0), s(0.25)).loops(3, LoopMode::Incremental);
    assert_eq!(l.value_at(s(0.5)), PropertyValue::Float(s(5.0)));
    assert_eq!(l.value_at(s(0.75)), PropertyValue::Float(s(5.0)));
    let t = 0.25 + 3.0 / 64.0;
    close(float(Some(l.value_at(s(t)))), 5.0 + 12.0 * vib(10.0, 0.1, 0.25, 3.0 / 64.0), tol_vib::<S>(12.0));
}

fn shake_is_deterministic_bounded_and_matches_formula<S: Scalar>() {
    let (f, zeta, d) = (20.0, 0.0625, 0.5);
    let run = |seed: u32| -> Vec<PropertyValue<S>> {
        let mut pool: MotionPool<S, 2> = MotionPool::new();
        let mut sink = Recorder::<S>::new();
        let mut ev = Events::new();
        let m = Motion::shake_vec2(Vec2::new(s(10.0), s(-1.0)), Vec2::new(s(2.0), s(3.0)), s(d));
        pool.start(m.frequency(s(f)).damping_ratio(s(zeta)).seed(seed).bind(0, 1)).unwrap();
        (0..32)
            .map(|_| {
                pool.update(s(1.0 / 64.0), &mut sink, &mut ev);
                sink.p(1).unwrap()
            })
            .collect()
    };
    let a = run(7);
    let b = run(7);
    let c = run(8);
    // Same seed: the same values, bit for bit (in Q16.16 this is the integer-only guarantee).
    assert_eq!(a, b);
    if is_q16::<S>() {
        let bits = |v: &[PropertyValue<S>]| -> Vec<(i32, i32)> {
            v.iter().map(|p| vec2(Some(*p))).map(|[x, y]| (s::<S>(x).to_q16_bits(), s::<S>(y).to_q16_bits())).collect()
        };
        assert_eq!(bits(&a), bits(&b));
    }
    // Another seed: different values (at every sample strictly inside a cycle).
    let differ = a.iter().zip(&c).filter(|(x, y)| x != y).count();
    assert!(differ >= 28, "only {differ} of 32 samples differ between seeds 7 and 8");
    // The formula, and the bound |offset| ≤ strength per component.
    let slack = if is_q16::<S>() { 4.0 / 65536.0 } else { 1e-6 };
    for (k, v) in a.iter().enumerate() {
        let tau = (k + 1) as f64 / 64.0;
        let cycle = (f * tau).floor() as u32;
        let [x, y] = vec2(Some(*v));
        let w = vib(f, zeta, d, tau);
        close(x, 10.0 + 2.0 * noise(7, cycle, 0) * w, tol_vib::<S>(2.0));
        close(y, -1.0 + 3.0 * noise(7, cycle, 1) * w, tol_vib::<S>(3.0));
        assert!((x - 10.0).abs() <= 2.0 + slack && (y + 1.0).abs() <= 3.0 + slack, "{x}, {y} out of bounds");
    }
    // Ends exactly at `from`.
    assert_eq!(a.last(), Some(&PropertyValue::Vector(Vec2::new(s(10.0), s(-1.0)))));
    // The noise itself: a multiple of 2^-16 in [-1, 1), the documented hash, and the same in both types.
    let n = ShakeNoise::new(7);
    for cycle in 0..64 {
        for comp in 0..3 {
            let v: S = n.unit(cycle, comp);
            assert_eq!(v.to_f64(), noise(7, cycle, comp));
            assert_eq!(v.to_f64(), f64::from(n.unit::<f32>(cycle, comp)));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sequences

/// The sequence of the timing tests (target 0; property = letter):
/// - A: x (1) 0 → 1 over 1 s, appended: [0, 1]
/// - interval 0.5 s: cursor 1.5
/// - B: y (2) 0 → 2 over 1 s, appended: [1.5, 2.5]
/// - C: z (3) 0 → 4 over 0.5 s, joined with B: [1.5, 2.0]
/// - D: w (4) 10 → 20 over 0.5 s, inserted at 0.25: [0.25, 0.75]
fn timeline<S: Scalar>() -> Sequence<S, 4> {
    let mut seq = Sequence::new();
    seq.append(Motion::float(s(0.0), s(1.0), s(1.0)).bind(0, 1)).unwrap();
    assert_eq!(seq.cursor(), s(1.0));
    seq.append_interval(s(0.5));
    assert_eq!(seq.cursor(), s(1.5));
    seq.append(Motion::float(s(0.0), s(2.0), s(1.0)).bind(0, 2)).unwrap();
    assert_eq!(seq.cursor(), s(2.5));
    seq.join(Motion::float(s(0.0), s(4.0), s(0.5)).bind(0, 3)).unwrap();
    assert_eq!(seq.cursor(), s(2.5));
    seq.insert(s(0.25), Motion::float(s(10.0), s(20.0), s(0.5)).bind(0, 4)).unwrap();
    assert_eq!(seq.cursor(), s(2.5));
    assert_eq!(seq.duration(), s(2.5));
    assert_eq!(seq.len(), 4);
    seq
}

/// Asserts the four properties of the timeline (None: never written).
#[track_caller]
fn check<S: Scalar>(sink: &Recorder<S>, want: [Option<f64>; 4]) {
    for (i, w) in want.iter().enumerate() {
        let p = i as PropertyId + 1;
        match w {
            Some(w) => close(float(sink.p(p)), *w, tol::<S>(10.0)),
            None => assert_eq!(sink.p(p), None, "property {p} should not have been written"),
        }
    }
}

fn sequence_timeline_cursor_and_duration<S: Scalar>() {
    timeline::<S>();
    // join after an interval starts where the interval started; a longer join moves the cursor.
    let mut seq: Sequence<S, 4> = Sequence::new();
    seq.append(Motion::float(s(0.0), s(1.0), s(0.5))).unwrap();
    seq.append_interval(s(0.25)).join(Motion::float(s(0.0), s(1.0), s(1.0)).bind(0, 1)).unwrap();
    assert_eq!(seq.cursor(), s(1.5)); // 0.5 + 1.0
    seq.append_interval(s(-2.0)); // negative: 0
    assert_eq!(seq.cursor(), s(1.5));
    // insert beyond the cursor lengthens the duration, not the cursor.
    seq.insert(s(3.0), Motion::float(s(0.0), s(1.0), s(0.5))).unwrap();
    assert_eq!(seq.cursor(), s(1.5));
    assert_eq!(seq.duration(), s(3.5));
    // An interval at the end counts in the duration.
    let mut seq: Sequence<S, 2> = Sequence::new();
    seq.append(Motion::float(s(0.0), s(1.0), s(0.5))).unwrap().append_interval(s(0.75));
    assert_eq!(seq.duration(), s(1.25));
    // The joined item of the first sequence plays at [0.5, 1.5].
    let mut seq: Sequence<S, 4> = Sequence::new();
    seq.append(Motion::float(s(0.0), s(1.0), s(0.5))).unwrap();
    seq.append_interval(s(0.25)).join(Motion::float(s(0.0), s(1.0), s(1.0)).bind(0, 1)).unwrap();
    let mut pool: SequencePool<S, 1, 4> = SequencePool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    pool.start(seq).unwrap();
    pool.update(s(0.25), &mut sink, &mut ev);
    assert_eq!(sink.p(1), None);
    pool.update(s(0.5), &mut sink, &mut ev); // 0.75: 0.25 into the joined item
    close(float(sink.p(1)), 0.25, tol::<S>(1.0));
}

fn sequence_restart_loop<S: Scalar>() {
    let mut seq = timeline::<S>();
    seq.loops(2, SequenceLoopMode::Restart);
    let mut pool: SequencePool<S, 2, 4> = SequencePool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let h = pool.start(seq).unwrap();
    let bits = h.to_bits();
    pool.update(s(0.5), &mut sink, &mut ev);
    check(&sink, [Some(0.5), None, None, Some(15.0)]);
    pool.update(s(0.75), &mut sink, &mut ev); // 1.25: A and D ended, B and C not begun
    check(&sink, [Some(1.0), None, None, Some(20.0)]);
    pool.update(s(0.75), &mut sink, &mut ev); // 2.0: B half, C just ended
    check(&sink, [Some(1.0), Some(1.0), Some(4.0), Some(20.0)]);
    assert!(ev.is_empty());
    pool.update(s(1.0), &mut sink, &mut ev); // 3.0: pass 1 at 0.5, everything rewound then replayed
    check(&sink, [Some(0.5), Some(0.0), Some(0.0), Some(15.0)]);
    assert_eq!(drain(&mut ev), vec![Event::MotionLooped { motion: bits, count: 1 }]);
    assert_eq!(pool.position(h), Ok((1, s(0.5))));
    pool.update(s(1.5), &mut sink, &mut ev); // 4.5: pass 1 at 2.0
    check(&sink, [Some(1.0), Some(1.0), Some(4.0), Some(20.0)]);
    pool.update(s(0.5), &mut sink, &mut ev); // 5.0: the end
    check(&sink, [Some(1.0), Some(2.0), Some(4.0), Some(20.0)]);
    assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: bits }]);
    assert!(!pool.is_active(h));
    // Sequence events are told from motion events by the handle's tag.
    assert_eq!(Handle::<()>::from_bits(bits).tag(), SEQUENCE_POOL_TAG);
    assert_ne!(SEQUENCE_POOL_TAG, MOTION_POOL_TAG);
}

fn sequence_yoyo_loop<S: Scalar>() {
    let mut seq = timeline::<S>();
    seq.loops(2, SequenceLoopMode::Yoyo);
    let mut pool: SequencePool<S, 2, 4> = SequencePool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let h = pool.start(seq).unwrap();
    let bits = h.to_bits();
    pool.update(s(0.5), &mut sink, &mut ev);
    check(&sink, [Some(0.5), None, None, Some(15.0)]);
    pool.update(s(1.5), &mut sink, &mut ev); // 2.0
    check(&sink, [Some(1.0), Some(1.0), Some(4.0), Some(20.0)]);
    // 3.25: pass 1 (backwards) 0.75 s in: timeline time 2.5 − 0.75 = 1.75.
    pool.update(s(1.25), &mut sink, &mut ev);
    check(&sink, [Some(1.0), Some(0.5), Some(2.0), Some(20.0)]);
    assert_eq!(drain(&mut ev), vec![Event::MotionLooped { motion: bits, count: 1 }]);
    pool.update(s(0.75), &mut sink, &mut ev); // timeline 1.0: B and C back at their starts
    check(&sink, [Some(1.0), Some(0.0), Some(0.0), Some(20.0)]);
    pool.update(s(0.5), &mut sink, &mut ev); // timeline 0.5
    check(&sink, [Some(0.5), Some(0.0), Some(0.0), Some(15.0)]);
    pool.update(s(0.5), &mut sink, &mut ev); // the end: timeline 0
    check(&sink, [Some(0.0), Some(0.0), Some(0.0), Some(10.0)]);
    assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: bits }]);
}

fn sequence_large_dt_crosses_two_passes<S: Scalar>() {
    for mode in [SequenceLoopMode::Yoyo, SequenceLoopMode::Restart] {
        let mut seq = timeline::<S>();
        seq.loops(-1, mode);
        let mut pool: SequencePool<S, 1, 4> = SequencePool::new();
        let mut sink = Recorder::<S>::new();
        let mut ev = Events::new();
        let h = pool.start(seq).unwrap();
        pool.update(s(0.5), &mut sink, &mut ev);
        // 5.5: two boundaries at once, pass 2 (forward in both modes) at 0.5.
        pool.update(s(5.0), &mut sink, &mut ev);
        check(&sink, [Some(0.5), Some(0.0), Some(0.0), Some(15.0)]);
        let bits = h.to_bits();
        assert_eq!(
            drain(&mut ev),
            vec![Event::MotionLooped { motion: bits, count: 1 }, Event::MotionLooped { motion: bits, count: 2 }]
        );
        // 7.75: pass 3 at 0.25 (Yoyo: backwards, timeline 2.25; Restart: timeline 0.25).
        pool.update(s(2.25), &mut sink, &mut ev);
        match mode {
            SequenceLoopMode::Yoyo => check(&sink, [Some(1.0), Some(1.5), Some(4.0), Some(20.0)]),
            SequenceLoopMode::Restart => check(&sink, [Some(0.25), Some(0.0), Some(0.0), Some(10.0)]),
        }
        assert_eq!(pool.position(h), Ok((3, s(0.25))));
        assert_eq!(drain(&mut ev), vec![Event::MotionLooped { motion: bits, count: 3 }]);
        // A huge dt: bounded work, at most MAX_LOOP_EVENTS_PER_UPDATE events.
        pool.update(s(2500.0), &mut sink, &mut ev); // 1000 more passes
        assert_eq!(pool.position(h), Ok((1003, s(0.25))));
        assert_eq!(drain(&mut ev).len() as u32, MAX_LOOP_EVENTS_PER_UPDATE);
    }
}

fn sequence_complete_and_cancel<S: Scalar>() {
    let mut pool: SequencePool<S, 4, 4> = SequencePool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    // Yoyo with 2 passes completes at the start values; Restart with 3 at the end values.
    let mut yoyo = timeline::<S>();
    yoyo.loops(2, SequenceLoopMode::Yoyo);
    let h = pool.start(yoyo).unwrap();
    pool.update(s(0.5), &mut sink, &mut ev);
    pool.complete(h, &mut sink, &mut ev).unwrap();
    check(&sink, [Some(0.0), Some(0.0), Some(0.0), Some(10.0)]);
    assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: h.to_bits() }]);
    assert!(matches!(pool.complete(h, &mut sink, &mut ev), Err(MotionError::Pool(PoolError::Stale { .. }))));

    let mut restart = timeline::<S>();
    restart.loops(3, SequenceLoopMode::Restart);
    let mut sink = Recorder::<S>::new();
    let h = pool.start(restart).unwrap();
    pool.update(s(0.5), &mut sink, &mut ev);
    pool.complete(h, &mut sink, &mut ev).unwrap();
    check(&sink, [Some(1.0), Some(2.0), Some(4.0), Some(20.0)]);
    drain(&mut ev);

    // Cancel: everything stays where it is.
    let mut sink = Recorder::<S>::new();
    let h = pool.start(timeline::<S>()).unwrap();
    pool.update(s(2.0), &mut sink, &mut ev);
    let writes = sink.writes;
    pool.cancel(h, &mut ev).unwrap();
    assert_eq!(drain(&mut ev), vec![Event::MotionCancelled { motion: h.to_bits() }]);
    pool.update(s(1.0), &mut sink, &mut ev);
    assert_eq!(sink.writes, writes);
    check(&sink, [Some(1.0), Some(1.0), Some(4.0), Some(20.0)]);
    assert!(ev.is_empty());
    assert!(!pool.is_active(h));
}

fn sequence_item_with_delay_and_loops<S: Scalar>() {
    // An item with its own delay (0.25) and 2 Yoyo passes of 0.5 s occupies [0.5 + 0.25, 1.75].
    let mut seq: Sequence<S, 2> = Sequence::new();
    seq.append_interval(s(0.5));
    let item = Motion::float(s(0.0), s(8.0), s(0.5)).delay(s(0.25)).loops(2, LoopMode::Yoyo).bind(0, 1);
    seq.append(item).unwrap();
    assert_eq!(seq.cursor(), s(1.75));
    // A forever item is refused; so is one item too many.
    assert_eq!(
        seq.append(Motion::float(s(0.0), s(1.0), s(1.0)).loops(-1, LoopMode::Restart)).err(),
        Some(MotionError::EndlessItem)
    );
    seq.append(Motion::float(s(0.0), s(1.0), s(0.25))).unwrap();
    assert_eq!(
        seq.append(Motion::float(s(0.0), s(1.0), s(1.0))).err(),
        Some(MotionError::SequenceFull { capacity: 2 })
    );
    let mut pool: SequencePool<S, 1, 2> = SequencePool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    pool.start(seq).unwrap();
    pool.update(s(0.625), &mut sink, &mut ev);
    assert_eq!(sink.p(1), None, "the item's own delay holds it back");
    pool.update(s(0.25), &mut sink, &mut ev); // 0.875: 0.125 into pass 0
    close(float(sink.p(1)), 2.0, tol::<S>(8.0));
    pool.update(s(0.5), &mut sink, &mut ev); // 1.375: 0.125 into pass 1 (backwards)
    close(float(sink.p(1)), 6.0, tol::<S>(8.0));
    pool.update(s(0.5), &mut sink, &mut ev); // past its end: exactly its final value
    assert_eq!(sink.p(1), Some(PropertyValue::Float(s(0.0))));
}

fn sequence_overlapping_items_latest_start_wins<S: Scalar>() {
    // Three items on the same property, added out of start order:
    // P 0 → 1 at [0, 1], Q 5 → 6 at [0.5, 1.5], R 100 → 101 at [0.25, 0.75] (added last).
    let mut seq: Sequence<S, 3> = Sequence::new();
    seq.append(Motion::float(s(0.0), s(1.0), s(1.0)).bind(0, 1)).unwrap();
    seq.insert(s(0.5), Motion::float(s(5.0), s(6.0), s(1.0)).bind(0, 1)).unwrap();
    seq.insert(s(0.25), Motion::float(s(100.0), s(101.0), s(0.5)).bind(0, 1)).unwrap();
    seq.loops(2, SequenceLoopMode::Yoyo);
    assert_eq!(seq.duration(), s(1.5));
    let mut pool: SequencePool<S, 1, 3> = SequencePool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    pool.start(seq).unwrap();
    // Forwards, rendered by start time: P, R, Q: the latest start (Q) wins.
    pool.update(s(0.625), &mut sink, &mut ev);
    close(float(sink.p(1)), 5.125, tol::<S>(1.0));
    assert_eq!(sink.writes, 3);
    // Backwards at timeline 0.625, rendered Q, R, P: the earliest start (P) wins.
    pool.update(s(1.75), &mut sink, &mut ev);
    close(float(sink.p(1)), 0.625, tol::<S>(1.0));
}

// ---------------------------------------------------------------------------------------------
// Handles and capacity

fn stale_handles_and_full_pools<S: Scalar>() {
    let mut pool: MotionPool<S, 2> = MotionPool::new();
    let mut sink = Recorder::<S>::new();
    let mut ev = Events::new();
    let a = pool.start(Motion::float(s(0.0), s(1.0), s(0.5))).unwrap();
    let b = pool.start(Motion::float(s(0.0), s(1.0), s(1.0))).unwrap();
    assert_eq!(
        pool.start(Motion::float(s(0.0), s(1.0), s(1.0))),
        Err(MotionError::Pool(PoolError::Full { capacity: 2 }))
    );
    pool.update(s(0.5), &mut sink, &mut ev); // a finishes and leaves
    assert_eq!(drain(&mut ev), vec![Event::MotionCompleted { motion: a.to_bits() }]);
    let c = pool.start(Motion::float(s(5.0), s(6.0), s(1.0))).unwrap();
    assert_eq!(c.index(), a.index(), "the slot is reused");
    // The old handle never sees the new motion.
    assert_eq!(pool.value(a), Err(MotionError::Pool(PoolError::Stale { index: a.index(), generation: 0 })));
    assert_eq!(pool.float(c), Ok(s(5.0)));
    assert!(pool.is_active(b) && pool.is_active(c) && !pool.is_active(a));
    assert!(matches!(pool.complete(a, &mut sink, &mut ev), Err(MotionError::Pool(PoolError::Stale { .. }))));
    assert!(matches!(pool.cancel(a, &mut ev), Err(MotionError::Pool(PoolError::Stale { .. }))));
    assert!(ev.is_empty());
    // A handle from another motion pool (another tag) is foreign.
    let mut other: MotionPool<S, 2> = MotionPool::with_tag(9);
    let o = other.start(Motion::float(s(0.0), s(1.0), s(1.0))).unwrap();
    assert_eq!(pool.value(o), Err(MotionError::Pool(PoolError::Foreign { expected: MOTION_POOL_TAG, found: 9 })));
    assert_eq!(Handle::<()>::from_bits(b.to_bits()).tag(), MOTION_POOL_TAG);

    // Sequence pools: full, and stale after the end.
    let mut seqs: SequencePool<S, 1, 4> = SequencePool::new();
    let h = seqs.start(timeline::<S>()).unwrap();
    assert_eq!(seqs.start(timeline::<S>()).err(), Some(MotionError::Pool(PoolError::Full { capacity: 1 })));
    seqs.update(s(3.0), &mut sink, &mut ev);
    assert!(!seqs.is_active(h));
    assert!(matches!(seqs.position(h), Err(MotionError::Pool(PoolError::Stale { .. }))));
    assert!(matches!(seqs.cancel(h, &mut ev), Err(MotionError::Pool(PoolError::Stale { .. }))));
    assert!(seqs.start(timeline::<S>()).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Not generic

#[test]
fn memory_per_motion_and_sequence_item() {
    use core::mem::size_of;
    // The figures documented on Motion, MotionPool and Sequence.
    assert_eq!(size_of::<Motion<f32>>(), 92);
    assert_eq!(size_of::<Motion<Q16>>(), 92);
    assert_eq!(size_of::<RunningMotion<f32>>(), 100);
    assert_eq!(size_of::<RunningMotion<Q16>>(), 100);
    assert_eq!(size_of::<MotionPool<f32, 10>>(), 104 * 10 + 12);
    assert_eq!(size_of::<MotionPool<Q16, 10>>(), 104 * 10 + 12);
    // 100 bytes per item, plus at most 36 (cursor, duration, loops, item count, padding).
    assert_eq!(size_of::<Sequence<f32, 12>>() - size_of::<Sequence<f32, 2>>(), 100 * 10);
    assert_eq!(size_of::<Sequence<Q16, 12>>() - size_of::<Sequence<Q16, 2>>(), 100 * 10);
    for overhead in [size_of::<Sequence<f32, 1>>() - 100, size_of::<Sequence<f32, 2>>() - 200] {
        assert!(overhead <= 36, "{overhead}");
    }
}

#[test]
fn error_messages() {
    let e = MotionError::WrongKind { expected: ValueKind::Color, found: ValueKind::Float };
    assert_eq!(e.to_string(), "the motion produces a Float value, not a Color value");
    assert_eq!(MotionError::SequenceFull { capacity: 3 }.to_string(), "the sequence is full (3 items)");
    assert!(MotionError::Pool(PoolError::Full { capacity: 2 }).to_string().contains("pool is full"));
    assert!(MotionError::EndlessItem.to_string().contains("forever"));
}

#[test]
fn nan_dt_does_nothing_in_f32() {
    let mut pool: MotionPool<f32, 1> = MotionPool::new();
    let mut sink = Recorder::<f32>::new();
    let mut ev = Events::new();
    let h = pool.start(Motion::float(0.0, 1.0, 1.0).bind(0, 1)).unwrap();
    pool.update(f32::NAN, &mut sink, &mut ev);
    pool.update(f32::INFINITY, &mut sink, &mut ev);
    // +∞ ends the motion at its end value.
    assert_eq!(sink.p(1), Some(PropertyValue::Float(1.0)));
    assert!(!pool.is_active(h));
    let f = pool.start(Motion::float(0.0, 1.0, 1.0).loops(-1, LoopMode::Yoyo)).unwrap();
    pool.update(f32::INFINITY, &mut sink, &mut ev);
    assert!(pool.is_active(f));
    assert!(pool.float(f).unwrap().is_finite());
}

#[test]
fn q16_zero_and_tiny_durations_and_huge_values_do_not_panic() {
    let q = |v: f64| <Q16 as Scalar>::from_f64(v);
    let mut pool: MotionPool<Q16, 4> = MotionPool::new();
    let mut sink = Recorder::<Q16>::new();
    let mut ev = Events::new();
    let z = pool.start(Motion::float(q(0.0), q(30000.0), q(0.0)).loops(3, LoopMode::Incremental).bind(0, 1)).unwrap();
    let big = pool
        .start(Motion::vec2(Vec2::splat(Q16::MIN), Vec2::splat(Q16::MAX), Q16::MAX).loops(-1, LoopMode::Incremental))
        .unwrap();
    let shake = Motion::shake_vec3(Vec3::splat(Q16::MAX), Vec3::splat(Q16::MAX), q(1.0))
        .frequency(Q16::MAX)
        .damping_ratio(Q16::MAX);
    let shake = pool.start(shake.loops(-1, LoopMode::Yoyo)).unwrap();
    for _ in 0..3 {
        pool.update(Q16::MAX, &mut sink, &mut ev);
    }
    // The zero-duration motion (1/1024 s) finished at its saturated final value.
    assert!(!pool.is_active(z));
    assert_eq!(sink.p(1), Some(PropertyValue::Float(Q16::MAX)));
    assert!(pool.value(big).is_ok() && pool.value(shake).is_ok());
}
