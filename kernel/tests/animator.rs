//! The Animator against hand-computed values and hand-written event traces, in f32 and Q16.16.
//!
//! Times and `dt`s are binary fractions (0.25 s, 1/16 s...), exact in both scalar types, so keys are
//! crossed on the same updates in both. Interpolated values are compared with formulas written out
//! in f64 here, with stated tolerances: 1e-5 in f32, 4e-4 (26 steps of 2⁻¹⁶) in Q16.16 (the
//! InOutSine ease alone is within 2 steps, times the key span of 6, plus rounding).

use ossicle::animator::{
    sample_track, Animator, AnimatorError, Clip, ClipSource, Key, KeyValue, NodeTable, ScriptValue, SliceClips, Track,
    ValueKind, MAX_FULL_PASSES_PER_UPDATE,
};
use ossicle::color::Rgba8;
use ossicle::ease::Ease;
use ossicle::event::{Event, EventQueue};
use ossicle::math::Vec2;
use ossicle::scalar::{Scalar, ScalarEncoding, Q16};
use ossicle::sink::{property, PropertyId, PropertySink, PropertyValue, TargetId};

const ID: u32 = 3;
const COIN: u32 = 0;
const TOP: u32 = 50;
const A: u32 = 100;
const B: u32 = 101;
const C: u32 = 102;
const D: u32 = 103;

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

/// How far a value may be from the f64 reference. With the `fast-math` feature f32's sine is
/// micromath's, so Sine eases are within 2.5e-3 (see kernel/tests/ease_accuracy.rs), i.e. 1.5e-2 on
/// the coin's 6-pixel bob.
fn tol<S: Scalar>() -> f64 {
    if S::ENCODING == ScalarEncoding::Q16_16 {
        4e-4
    } else if cfg!(feature = "fast-math") {
        FAST_MATH_TOL
    } else {
        1e-5
    }
}

const FAST_MATH_TOL: f64 = 6.0 * 2.5e-3;

fn fkey<S: Scalar>(t: f64, v: f64) -> Key<S> {
    Key::new(s(t), KeyValue::Float(s(v)))
}
fn ekey<S: Scalar>(t: f64, name: u32) -> Key<S> {
    Key::new(s(t), KeyValue::Text(name))
}
fn ev(clip: u32, name: u32) -> Event {
    Event::AnimatorEvent { animator: ID, clip, name }
}
fn finished(clip: u32) -> Event {
    Event::ClipFinished { animator: ID, clip }
}

/// Records every write (and keeps the last values in a NodeTable).
struct Rec<S: Scalar> {
    writes: Vec<(TargetId, PropertyId, PropertyValue<S>)>,
}

impl<S: Scalar> Rec<S> {
    fn new() -> Self {
        Self { writes: Vec::new() }
    }
    fn count(&self, target: TargetId, prop: PropertyId) -> usize {
        self.writes.iter().filter(|w| w.0 == target && w.1 == prop).count()
    }
    fn last(&self, target: TargetId, prop: PropertyId) -> Option<PropertyValue<S>> {
        self.writes.iter().rev().find(|w| w.0 == target && w.1 == prop).map(|w| w.2)
    }
    fn last_f(&self, target: TargetId, prop: PropertyId) -> f64 {
        self.last(target, prop).and_then(|v| v.as_float()).map_or(f64::NAN, |v| v.to_f64())
    }
}

impl<S: Scalar> PropertySink<S> for Rec<S> {
    fn set(&mut self, target: TargetId, prop: PropertyId, value: PropertyValue<S>) {
        self.writes.push((target, prop, value));
    }
}

/// Runs one update and returns its events.
fn step<S: Scalar, Src: ClipSource<S>, K: PropertySink<S>>(
    a: &mut Animator<S>,
    src: &Src,
    sink: &mut K,
    dt: f64,
) -> Vec<Event> {
    let mut q: EventQueue<64> = EventQueue::new();
    a.update(s(dt), src, sink, &mut q);
    assert_eq!(q.dropped(), 0);
    q.drain().collect()
}

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!((got - want).abs() <= tol, "{what}: got {got}, want {want} (tolerance {tol})");
}

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod f32_tests { $( #[test] fn $name() { super::$name::<f32>(); } )* }
        mod q16_tests { $( #[test] fn $name() { super::$name::<super::Q16>(); } )* }
    };
}

both!(
    coin_bob_values_and_top_event,
    keys_at_zero_fire_on_play_and_restart,
    wrap_fires_keys_in_time_order,
    dt_spanning_several_loops,
    seek_and_apply_fire_nothing,
    clip_finished_once_with_last_value,
    pause_and_resume,
    play_same_clip_is_a_no_op,
    stop_reset_writes_first_keys,
    stepping_tracks_write_only_on_change,
    color_interpolates_per_channel,
    speed_zero_holds,
    zero_length_clips,
    keys_past_the_length,
    autoplay_and_errors,
    node_table_stores_every_property,
    segments_follow_the_first_keys_ease,
);

fn segments_follow_the_first_keys_ease<S: Scalar>() {
    // 0 -> 8 along InQuad (key 0's ease; key 1's OutQuad applies to the next segment), then
    // 8 -> 0 along OutQuad, then 0 -> 4 Linear (no ease given), a Vector track Linear.
    let x = [
        Key::eased(s::<S>(0.0), KeyValue::Float(s(0.0)), Ease::InQuad),
        Key::eased(s(1.0), KeyValue::Float(s(8.0)), Ease::OutQuad),
        fkey(2.0, 0.0),
        fkey(3.0, 4.0),
    ];
    let v = [
        Key::new(s::<S>(0.0), KeyValue::Vector(Vec2::new(s(0.0), s(10.0)))),
        Key::new(s(2.0), KeyValue::Vector(Vec2::new(s(4.0), s(-10.0)))),
    ];
    let tracks = [
        Track::new(0, property::POSITION_X, ValueKind::Float, &x),
        Track::new(1, property::SCALE, ValueKind::Vector, &v),
    ];
    let clips = [Clip::new("c", s(3.0), &tracks)];
    let src = SliceClips::new(&clips);
    let at = |t: f64| match sample_track(&src, 0, 0, s(t)) {
        Some((_, KeyValue::Float(v))) => v.to_f64(),
        _ => f64::NAN,
    };
    let in_quad = |u: f64| u * u;
    let out_quad = |u: f64| 1.0 - (1.0 - u) * (1.0 - u);
    for i in 0..=24 {
        let t = f64::from(i) / 8.0;
        let want = if t < 1.0 {
            8.0 * in_quad(t)
        } else if t < 2.0 {
            8.0 - 8.0 * out_quad(t - 1.0)
        } else {
            4.0 * (t - 2.0)
        };
        close(at(t), want, tol::<S>(), &format!("x at {t}"));
    }
    close(at(-1.0), 0.0, 0.0, "before the first key");
    close(at(5.0), 4.0, 0.0, "after the last key");
    assert_eq!(sample_track(&src, 0, 0, s(1.0)).map(|r| r.0), Some(1), "active key at its own time");
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.apply(&src, &mut rec, 0, s(0.5)).unwrap();
    assert_eq!(rec.last(1, property::SCALE), Some(PropertyValue::Vector(Vec2::new(s(1.0), s(5.0)))));
}

/// InOutSine, easings.net: `-(cos(πx) - 1) / 2`.
fn in_out_sine(x: f64) -> f64 {
    -((std::f64::consts::PI * x).cos() - 1.0) / 2.0
}

/// The coin's y at `t`: 0 -> -6 over [0, 0.5], -6 -> 0 over [0.5, 1], both InOutSine, looping.
fn coin_y(t: f64) -> f64 {
    let tau = t.rem_euclid(1.0);
    if tau < 0.5 {
        -6.0 * in_out_sine(tau / 0.5)
    } else {
        -6.0 + 6.0 * in_out_sine((tau - 0.5) / 0.5)
    }
}

fn coin_bob_values_and_top_event<S: Scalar>() {
    let y = [
        Key::eased(s(0.0), KeyValue::Float(s(0.0)), Ease::InOutSine),
        Key::eased(s(0.5), KeyValue::Float(s(-6.0)), Ease::InOutSine),
        fkey(1.0, 0.0),
    ];
    let top = [ekey::<S>(0.5, TOP)];
    let tracks = [Track::new(COIN, property::POSITION_Y, ValueKind::Float, &y), Track::events(&top)];
    let clips = [Clip::new("bob", s(1.0), &tracks).looping(true)];
    let src = SliceClips::new(&clips).with_autoplay(Some(0));
    let mut nodes: NodeTable<S, 1> = NodeTable::new();
    let mut a = Animator::new(ID);
    a.start(&src).unwrap();
    assert_eq!(step(&mut a, &src, &mut nodes, 0.0), vec![]);
    close(nodes.position(COIN).unwrap().y.to_f64(), 0.0, tol::<S>(), "t = 0");
    for i in 1..=40 {
        let t = f64::from(i) / 16.0;
        let events = step(&mut a, &src, &mut nodes, 1.0 / 16.0);
        // "top" at 0.5 and 1.5 (and 2.5): the updates ending exactly there.
        let want = if t.rem_euclid(1.0) == 0.5 { vec![ev(0, TOP)] } else { vec![] };
        assert_eq!(events, want, "t = {t}");
        close(nodes.position(COIN).unwrap().y.to_f64(), coin_y(t), tol::<S>(), &format!("y at t = {t}"));
        close(a.time().to_f64(), t.rem_euclid(1.0), 0.0, "time");
    }
    // Spot values written out: y(0.25) = -3, y(0.125) = -6 × (1 - cos(π/4)) / 2.
    assert!((coin_y(0.25) + 3.0).abs() < 1e-12);
    close(coin_y(0.125), -3.0 * (1.0 - std::f64::consts::FRAC_1_SQRT_2), 1e-12, "formula");
    assert!(a.is_playing() && !a.is_finished());
}

fn keys_at_zero_fire_on_play_and_restart<S: Scalar>() {
    let e = [ekey::<S>(0.0, A), ekey(0.25, B)];
    let tracks = [Track::events(&e)];
    let clips = [Clip::new("c", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.0), vec![ev(0, A)]);
    assert_eq!(step(&mut a, &src, &mut rec, 0.0), vec![]);
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![ev(0, B)]); // key exactly at the end time
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![]);
    a.play(&src, 0, true).unwrap();
    assert_eq!(a.time(), S::ZERO);
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![ev(0, A), ev(0, B)]);
    assert!(rec.writes.is_empty(), "event tracks write nothing");
}

fn wrap_fires_keys_in_time_order<S: Scalar>() {
    let e1 = [ekey::<S>(0.0, A), ekey(0.5, B), ekey(0.875, C)];
    let e2 = [ekey::<S>(0.875, D), ekey(1.0, D)];
    let tracks = [Track::events(&e1), Track::events(&e2)];
    let clips = [Clip::new("loop", s(1.0), &tracks).looping(true)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.75), vec![ev(0, A), ev(0, B)]);
    // 0.75 -> 1.25: (0.75, 1] gives C and D at 0.875 (track order), D at 1; then [0, 0.25]: A.
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![ev(0, C), ev(0, D), ev(0, D), ev(0, A)]);
    close(a.time().to_f64(), 0.25, 0.0, "time after the wrap");
    // 0.25 -> 1.0 exactly: B, C, D, D(at 1), then A at 0 of the next pass; time 0.
    assert_eq!(step(&mut a, &src, &mut rec, 0.75), vec![ev(0, B), ev(0, C), ev(0, D), ev(0, D), ev(0, A)]);
    assert_eq!(a.time(), S::ZERO);
    // The key at 0 fired already: 0 -> 0.5 fires only B.
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![ev(0, B)]);
    // A seek to the length of a looping clip is the end of a pass: the next update wraps first.
    a.seek(&src, &mut rec, s(1.0));
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![ev(0, A)]);
    a.seek(&src, &mut rec, s(0.0));
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![]);
}

fn dt_spanning_several_loops<S: Scalar>() {
    let e = [ekey::<S>(0.0, A), ekey(0.5, B)];
    let tracks = [Track::events(&e)];
    let clips = [Clip::new("loop", s(1.0), &tracks).looping(true)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![ev(0, A)]);
    // 0.25 -> 3.75: (0.25, 1]: B; two whole passes: A B, A B; [0, 0.75]: A B.
    let want = vec![ev(0, B), ev(0, A), ev(0, B), ev(0, A), ev(0, B), ev(0, A), ev(0, B)];
    assert_eq!(step(&mut a, &src, &mut rec, 3.5), want);
    close(a.time().to_f64(), 0.75, 0.0, "time");
    // 0.75 -> 100.75: (0.75, 1]: nothing; 99 whole passes, of which MAX_FULL_PASSES_PER_UPDATE fire
    // A B; then [0, 0.75]: A B.
    let got = step(&mut a, &src, &mut rec, 100.0);
    let passes = MAX_FULL_PASSES_PER_UPDATE as usize + 1;
    assert_eq!(got.len(), 2 * passes);
    assert!(got.chunks(2).all(|p| p == [ev(0, A), ev(0, B)]));
    close(a.time().to_f64(), 0.75, 0.0, "time");
}

fn seek_and_apply_fire_nothing<S: Scalar>() {
    let x = [fkey::<S>(0.0, 0.0), fkey(1.0, 8.0)];
    let e = [ekey::<S>(0.0, A), ekey(0.5, B)];
    let tracks = [Track::new(1, property::POSITION_X, ValueKind::Float, &x), Track::events(&e)];
    let clips = [Clip::new("c", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    // A seek right after play cancels the start events at 0.
    a.play(&src, 0, false).unwrap();
    a.seek(&src, &mut rec, s(0.25));
    close(rec.last_f(1, property::POSITION_X), 2.0, tol::<S>(), "seek writes");
    assert_eq!(step(&mut a, &src, &mut rec, 0.125), vec![]);
    // Seeking over the key at 0.5 fires nothing.
    a.seek(&src, &mut rec, s(0.75));
    close(rec.last_f(1, property::POSITION_X), 6.0, tol::<S>(), "seek writes");
    // apply writes any time's values, fires nothing, moves nothing.
    a.apply(&src, &mut rec, 0, s(0.5)).unwrap();
    close(rec.last_f(1, property::POSITION_X), 4.0, tol::<S>(), "apply writes");
    close(a.time().to_f64(), 0.75, 0.0, "apply leaves the time");
    // Clamped seek.
    a.seek(&src, &mut rec, s(-3.0));
    assert_eq!(a.time(), S::ZERO);
    a.seek(&src, &mut rec, s(0.75));
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![finished(0)]);
    close(rec.last_f(1, property::POSITION_X), 8.0, tol::<S>(), "end value");
    a.seek(&src, &mut rec, s(9.0));
    assert_eq!(a.time(), s(1.0));
    assert!(a.is_finished(), "a seek to the end of a finished clip keeps it finished");
    assert_eq!(a.apply(&src, &mut rec, 4, S::ZERO), Err(AnimatorError::NoSuchClip));
}

fn clip_finished_once_with_last_value<S: Scalar>() {
    let x = [fkey::<S>(0.0, 1.0), fkey(0.5, 3.0)];
    let tracks = [Track::new(2, property::ROTATION, ValueKind::Float, &x)];
    let clips = [Clip::new("a", s(0.5), &tracks), Clip::new("b", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play_named(&src, "b", false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![]);
    close(rec.last_f(2, property::ROTATION), 2.0, tol::<S>(), "t = 0.25");
    assert_eq!(step(&mut a, &src, &mut rec, 0.75), vec![finished(1)]);
    close(rec.last_f(2, property::ROTATION), 3.0, 0.0, "end value = last key");
    assert!(a.is_finished() && !a.is_playing());
    let writes = rec.writes.len();
    assert_eq!(step(&mut a, &src, &mut rec, 1.0), vec![]);
    a.play(&src, 1, false).unwrap(); // finished stays finished
    assert_eq!(step(&mut a, &src, &mut rec, 1.0), vec![]);
    assert_eq!(rec.writes.len(), writes, "a finished clip writes nothing");
    a.play(&src, 1, true).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 5.0), vec![finished(1)]);
    a.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![finished(0)]);
}

fn pause_and_resume<S: Scalar>() {
    let x = [fkey::<S>(0.0, 0.0), fkey(1.0, 4.0)];
    let e = [ekey::<S>(0.375, A)];
    let tracks = [Track::new(0, property::POSITION_X, ValueKind::Float, &x), Track::events(&e)];
    let clips = [Clip::new("c", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    step(&mut a, &src, &mut rec, 0.25);
    a.pause();
    assert!(a.is_paused() && !a.is_playing());
    let writes = rec.writes.len();
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![]);
    assert_eq!(rec.writes.len(), writes, "paused: no writes");
    close(a.time().to_f64(), 0.25, 0.0, "paused time");
    a.resume();
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![ev(0, A)]);
    close(rec.last_f(0, property::POSITION_X), 2.0, tol::<S>(), "t = 0.5");
    a.pause();
    a.play(&src, 0, false).unwrap(); // play resumes a paused clip
    assert!(a.is_playing());
    step(&mut a, &src, &mut rec, 0.25);
    close(a.time().to_f64(), 0.75, 0.0, "resumed by play");
}

fn play_same_clip_is_a_no_op<S: Scalar>() {
    let e = [ekey::<S>(0.0, A), ekey(0.5, B)];
    let tracks = [Track::events(&e)];
    let clips = [Clip::new("c", s(1.0), &tracks).looping(true), Clip::new("d", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    step(&mut a, &src, &mut rec, 0.25);
    a.play_named(&src, "c", false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.0), vec![], "no new start");
    close(a.time().to_f64(), 0.25, 0.0, "time goes on");
    a.play(&src, 0, true).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.0), vec![ev(0, A)], "restart fires keys at 0");
    a.play(&src, 1, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![ev(1, A), ev(1, B)], "another clip starts from 0");
}

fn stop_reset_writes_first_keys<S: Scalar>() {
    let x = [fkey::<S>(0.25, 5.0), fkey(1.0, 9.0)];
    let vis = [Key::new(s::<S>(0.0), KeyValue::Bool(false)), Key::new(s(0.5), KeyValue::Bool(true))];
    let e = [ekey::<S>(0.0, A)];
    let tracks = [
        Track::new(0, property::SCALE_X, ValueKind::Float, &x),
        Track::new(1, property::VISIBLE, ValueKind::Bool, &vis),
        Track::events(&e),
    ];
    let clips = [Clip::new("c", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    step(&mut a, &src, &mut rec, 0.0);
    step(&mut a, &src, &mut rec, 0.75);
    close(rec.last_f(0, property::SCALE_X), 5.0 + 4.0 * (0.5 / 0.75), tol::<S>(), "t = 0.75");
    assert_eq!(rec.last(1, property::VISIBLE), Some(PropertyValue::Bool(true)));
    let (sx, vis_writes) = (rec.count(0, property::SCALE_X), rec.count(1, property::VISIBLE));
    let mut q: EventQueue<4> = EventQueue::new();
    a.stop(&src, &mut rec, true);
    assert!(q.is_empty());
    assert_eq!(rec.count(0, property::SCALE_X), sx + 1);
    assert_eq!(rec.count(1, property::VISIBLE), vis_writes + 1);
    assert_eq!(rec.last(0, property::SCALE_X), Some(PropertyValue::Float(s(5.0))));
    assert_eq!(rec.last(1, property::VISIBLE), Some(PropertyValue::Bool(false)));
    assert_eq!(a.time(), S::ZERO);
    assert!(!a.is_playing() && !a.is_paused() && !a.is_finished());
    a.update(s(0.5), &src, &mut rec, &mut q);
    assert!(q.is_empty());
    a.resume(); // nothing after stop
    assert!(!a.is_playing());
    a.play(&src, 0, false).unwrap(); // play after stop starts over
    assert_eq!(step(&mut a, &src, &mut rec, 0.0), vec![ev(0, A)]);
    // stop without reset keeps the time and writes nothing.
    step(&mut a, &src, &mut rec, 0.5);
    let writes = rec.writes.len();
    a.stop(&src, &mut rec, false);
    assert_eq!(rec.writes.len(), writes);
    close(a.time().to_f64(), 0.5, 0.0, "stop keeps time");
}

fn stepping_tracks_write_only_on_change<S: Scalar>() {
    let stepped = [fkey::<S>(0.0, 0.0), fkey(0.5, 1.0), fkey(1.0, 2.0)];
    let moving = [fkey::<S>(0.0, 0.0), fkey(2.0, 4.0)];
    let flag = [Key::new(s::<S>(0.0), KeyValue::Bool(true)), Key::new(s(0.75), KeyValue::Bool(false))];
    let text = [Key::new(s::<S>(0.0), KeyValue::Text(10)), Key::new(s(0.5), KeyValue::Text(11))];
    let tracks = [
        Track::new(0, property::ROTATION, ValueKind::Float, &stepped).stepped(true),
        Track::new(0, property::POSITION_X, ValueKind::Float, &moving),
        Track::new(0, property::VISIBLE, ValueKind::Bool, &flag),
        Track::new(0, property::TEXT, ValueKind::Text, &text),
    ];
    let clips = [Clip::new("c", s(2.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    for i in 1..=12 {
        step(&mut a, &src, &mut rec, 0.125);
        let t = f64::from(i) * 0.125;
        // The step track holds each key: 0 before 0.5, 1 before 1, 2 after.
        let want = if t < 0.5 {
            0.0
        } else if t < 1.0 {
            1.0
        } else {
            2.0
        };
        close(rec.last_f(0, property::ROTATION), want, 0.0, &format!("step value at {t}"));
        close(rec.last_f(0, property::POSITION_X), 2.0 * t, tol::<S>(), "moving value");
    }
    // Writes: the first update, then at 0.5 and 1.0.
    assert_eq!(rec.count(0, property::ROTATION), 3);
    assert_eq!(rec.count(0, property::POSITION_X), 12);
    // Bool and Text step even without the flag: first update, then at 0.75 / 0.5.
    assert_eq!(rec.count(0, property::VISIBLE), 2);
    assert_eq!(rec.count(0, property::TEXT), 2);
    assert_eq!(rec.last(0, property::VISIBLE), Some(PropertyValue::Bool(false)));
    assert_eq!(rec.last(0, property::TEXT), Some(PropertyValue::Text(11)));
    // A Bool sampled between keys holds the first (no interpolation).
    assert_eq!(sample_track(&src, 0, 2, s(0.7)), Some((0, KeyValue::Bool(true))));
}

fn color_interpolates_per_channel<S: Scalar>() {
    let c = [
        Key::new(s(0.0), KeyValue::Color(Rgba8::new(0, 0, 0, 255))),
        Key::new(s(1.0), KeyValue::Color(Rgba8::new(255, 100, 11, 0))),
        Key::eased(s(2.0), KeyValue::Color(Rgba8::new(0, 0, 0, 0)), Ease::OutBack),
        Key::new(s(3.0), KeyValue::Color(Rgba8::new(200, 0, 0, 0))),
    ];
    let tracks = [Track::new(4, property::TINT, ValueKind::Color, &c)];
    let clips = [Clip::new("c", s(3.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    let color_at = |a: &mut Animator<S>, rec: &mut Rec<S>, t: f64| {
        a.apply(&src, rec, 0, s(t)).unwrap();
        rec.last(4, property::TINT).and_then(|v| v.as_color())
    };
    // Per channel a + (b - a) × u, rounded to nearest, ties away from zero:
    // u = 0.5: r 127.5 -> 128, g 50, b 5.5 -> 6, a 127.5 -> 128.
    assert_eq!(color_at(&mut a, &mut rec, 0.5), Some(Rgba8::new(128, 50, 6, 128)));
    // u = 0.25: r 63.75 -> 64, g 25, b 2.75 -> 3, a 191.25 -> 191.
    assert_eq!(color_at(&mut a, &mut rec, 0.25), Some(Rgba8::new(64, 25, 3, 191)));
    // OutBack overshoots: 1 + 2.70158 (u - 1)³ + 1.70158 (u - 1)² at u = 0.75 is 1.0641, so
    // r = 200 × 1.0641 = 212.8 -> 213, clamped nowhere; from (0,0,0,0) up only red moves.
    let ob = |u: f64| 1.0 + 2.70158 * (u - 1.0f64).powi(3) + 1.70158 * (u - 1.0f64).powi(2);
    let want = (200.0 * ob(0.75)).round() as u8;
    assert_eq!(want, 213);
    assert_eq!(color_at(&mut a, &mut rec, 2.75), Some(Rgba8::new(want, 0, 0, 0)));
    // Clamping: 255 -> 0 with OutBack would go below 0 for blue... use the clip's reverse: a clip
    // from 255 to 250 with OutBack exceeds 255 and clamps.
    let k = [
        Key::eased(s(0.0), KeyValue::Color(Rgba8::new(0, 250, 0, 0)), Ease::OutBack),
        Key::new(s(1.0), KeyValue::Color(Rgba8::new(0, 255, 0, 0))),
    ];
    let tr = [Track::new(4, property::TINT, ValueKind::Color, &k)];
    let cl = [Clip::new("k", s(1.0), &tr)];
    let src2 = SliceClips::new(&cl);
    let mut rec2: Rec<S> = Rec::new();
    a.apply(&src2, &mut rec2, 0, s(0.75)).unwrap();
    // 250 + 5 × 1.0641 = 255.3 -> 255 (clamped).
    assert!(250.0 + 5.0 * ob(0.75) > 255.0);
    assert_eq!(rec2.last(4, property::TINT), Some(PropertyValue::Color(Rgba8::new(0, 255, 0, 0))));
}

fn speed_zero_holds<S: Scalar>() {
    let x = [fkey::<S>(0.0, 0.0), fkey(1.0, 4.0)];
    let e = [ekey::<S>(0.0, A), ekey(0.25, B)];
    let tracks = [Track::new(0, property::POSITION_X, ValueKind::Float, &x), Track::events(&e)];
    let clips = [Clip::new("c", s(1.0), &tracks)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    a.set_speed(S::ZERO);
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![ev(0, A)], "keys at 0 still fire");
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![]);
    assert_eq!(a.time(), S::ZERO);
    assert!(a.is_playing());
    assert_eq!(rec.count(0, property::POSITION_X), 2, "moving tracks still write while playing");
    a.set_speed(s(-1.0));
    assert_eq!(a.speed(), S::ZERO, "negative speed is 0");
    step(&mut a, &src, &mut rec, 0.5);
    assert_eq!(a.time(), S::ZERO);
    a.set_speed(s(2.0));
    assert_eq!(step(&mut a, &src, &mut rec, 0.25), vec![ev(0, B)]);
    close(a.time().to_f64(), 0.5, 0.0, "double speed");
    close(rec.last_f(0, property::POSITION_X), 2.0, tol::<S>(), "value at 0.5");
    step(&mut a, &src, &mut rec, -1.0);
    close(a.time().to_f64(), 0.5, 0.0, "negative dt advances nothing");
}

fn zero_length_clips<S: Scalar>() {
    let x = [fkey::<S>(0.0, 7.0), fkey(1.0, 9.0)];
    let e = [ekey::<S>(0.0, A)];
    let tracks = [Track::new(0, property::POSITION_Y, ValueKind::Float, &x), Track::events(&e)];
    let clips = [Clip::new("once", S::ZERO, &tracks), Clip::new("hold", S::ZERO, &tracks).looping(true)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.0), vec![ev(0, A), finished(0)]);
    assert_eq!(rec.last(0, property::POSITION_Y), Some(PropertyValue::Float(s(7.0))));
    assert_eq!(step(&mut a, &src, &mut rec, 1.0), vec![]);
    a.play(&src, 1, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 0.5), vec![ev(1, A)]);
    assert_eq!(step(&mut a, &src, &mut rec, 5.0), vec![]);
    assert!(a.is_playing() && a.time() == S::ZERO);
}

fn keys_past_the_length<S: Scalar>() {
    let x = [fkey::<S>(0.0, 0.0), fkey(2.0, 10.0)];
    let e = [ekey::<S>(-0.5, A), ekey(1.0, B), ekey(1.5, C)];
    let tracks = [Track::new(0, property::POSITION_X, ValueKind::Float, &x), Track::events(&e)];
    let clips = [Clip::new("c", s(1.0), &tracks), Clip::new("l", s(1.0), &tracks).looping(true)];
    let src = SliceClips::new(&clips);
    let mut rec = Rec::new();
    let mut a = Animator::new(ID);
    a.play(&src, 0, false).unwrap();
    // The key before 0 and the one past the length never fire; the key at the length does.
    assert_eq!(step(&mut a, &src, &mut rec, 3.0), vec![ev(0, B), finished(0)]);
    // The value at the end is interpolated towards the key past it: 10 × 1/2.
    close(rec.last_f(0, property::POSITION_X), 5.0, tol::<S>(), "value at the length");
    a.play(&src, 1, false).unwrap();
    assert_eq!(step(&mut a, &src, &mut rec, 2.5), vec![ev(1, B), ev(1, B)]);
}

fn autoplay_and_errors<S: Scalar>() {
    let x = [fkey::<S>(0.0, 1.0)];
    let tracks = [Track::new(0, property::OPACITY, ValueKind::Float, &x)];
    let clips = [Clip::new("a", s(1.0), &tracks), Clip::new("b", s(1.0), &tracks)];
    let mut a: Animator<S> = Animator::new(ID);
    a.start(&SliceClips::new(&clips)).unwrap();
    assert_eq!(a.clip(), None, "no autoplay: nothing plays");
    let src = SliceClips::new(&clips).with_autoplay(Some(1));
    a.start(&src).unwrap();
    assert_eq!(a.clip(), Some(1));
    assert!(a.is_playing());
    assert_eq!(a.play(&src, 2, false), Err(AnimatorError::NoSuchClip));
    assert_eq!(a.play_named(&src, "zzz", false), Err(AnimatorError::NoSuchClip));
    assert_eq!(a.clip(), Some(1), "a refused play changes nothing");
    assert_eq!(AnimatorError::NoSuchClip.to_string(), "no such animator clip");
    assert_eq!(a.start(&SliceClips::new(&clips).with_autoplay(Some(9))), Err(AnimatorError::NoSuchClip));
    assert_eq!(Animator::<S>::BYTES, 24);
}

fn node_table_stores_every_property<S: Scalar>() {
    let mut t: NodeTable<S, 2, 3> = NodeTable::new();
    assert_eq!(t.scale(0), Some(Vec2::ONE));
    assert_eq!(t.tint(0), Some(Rgba8::WHITE));
    assert_eq!(t.visible(0), Some(true));
    assert_eq!(t.get(0, property::TEXT), None);
    let v = Vec2::new(s(1.5), s(-2.0));
    let sets: [(PropertyId, PropertyValue<S>); 13] = [
        (property::POSITION, PropertyValue::Vector(v)),
        (property::ROTATION, PropertyValue::Float(s(0.5))),
        (property::SCALE, PropertyValue::Vector(v)),
        (property::SCALE_Y, PropertyValue::Float(s(3.0))),
        (property::TINT, PropertyValue::Color(Rgba8::new(1, 2, 3, 4))),
        (property::VISIBLE, PropertyValue::Bool(false)),
        (property::Z_INDEX, PropertyValue::Int(-3)),
        (property::TEXT, PropertyValue::Text(77)),
        (property::COLOR, PropertyValue::Color(Rgba8::new(9, 8, 7, 6))),
        (property::ANIMATION, PropertyValue::Text(5)),
        (property::STATE, PropertyValue::Text(6)),
        (property::SCRIPT, PropertyValue::Float(s(2.5))),
        (property::SCRIPT + 2, PropertyValue::Bool(true)),
    ];
    for (p, val) in sets {
        t.set(1, p, val);
    }
    t.set(1, property::POSITION_X, PropertyValue::Float(s(4.0)));
    t.set(1, property::SCRIPT + 3, PropertyValue::Int(1)); // beyond M = 3: ignored
    t.set(2, property::ROTATION, PropertyValue::Float(s(1.0))); // unknown node: ignored
    t.set(1, property::ROTATION, PropertyValue::Bool(true)); // wrong kind: ignored
    assert_eq!(t.get(1, property::POSITION), Some(PropertyValue::Vector(Vec2::new(s(4.0), s(-2.0)))));
    assert_eq!(t.get(1, property::POSITION_Y), Some(PropertyValue::Float(s(-2.0))));
    assert_eq!(t.get(1, property::ROTATION), Some(PropertyValue::Float(s(0.5))));
    assert_eq!(t.get(1, property::SCALE), Some(PropertyValue::Vector(Vec2::new(s(1.5), s(3.0)))));
    assert_eq!(t.get(1, property::SCALE_X), Some(PropertyValue::Float(s(1.5))));
    assert_eq!(t.get(1, property::TINT), Some(PropertyValue::Color(Rgba8::new(1, 2, 3, 4))));
    assert_eq!(t.get(1, property::VISIBLE), Some(PropertyValue::Bool(false)));
    assert_eq!(t.get(1, property::Z_INDEX), Some(PropertyValue::Int(-3)));
    assert_eq!(t.get(1, property::TEXT), Some(PropertyValue::Text(77)));
    assert_eq!(t.get(1, property::COLOR), Some(PropertyValue::Color(Rgba8::new(9, 8, 7, 6))));
    assert_eq!(t.get(1, property::ANIMATION), Some(PropertyValue::Text(5)));
    assert_eq!(t.get(1, property::STATE), Some(PropertyValue::Text(6)));
    assert_eq!(t.get(1, property::SCRIPT), Some(PropertyValue::Float(s(2.5))));
    assert_eq!(t.get(1, property::SCRIPT + 1), None);
    assert_eq!(t.get(1, property::SCRIPT + 2), Some(PropertyValue::Bool(true)));
    assert_eq!(t.script(1, 2), Some(ScriptValue::Bool(true)));
    assert_eq!(t.get(1, property::SCRIPT + 3), None);
    assert_eq!(t.get(2, property::ROTATION), None);
    assert_eq!(t.get(1, property::USER), None);
    // opacity is the tint's alpha: 0.25 × 255 = 63.75 -> 64, read back as 64/255.
    t.set(1, property::OPACITY, PropertyValue::Float(s(0.25)));
    assert_eq!(t.tint(1), Some(Rgba8::new(1, 2, 3, 64)));
    let o = t.get(1, property::OPACITY).and_then(|v| v.as_float()).unwrap().to_f64();
    close(o, 64.0 / 255.0, 2f64.powi(-17), "opacity read back");
    t.set(1, property::OPACITY, PropertyValue::Float(s(7.0)));
    assert_eq!(t.tint(1).map(|c| c.a), Some(255), "opacity clamps to 1");
    // zIndex from a Float track rounds to nearest.
    t.set(1, property::Z_INDEX, PropertyValue::Float(s(2.5)));
    assert_eq!(t.z_index(1), Some(3));
    // Requests are taken once; a write of the same name requests again.
    assert_eq!(t.take_animation(1), Some(5));
    assert_eq!(t.take_animation(1), None);
    t.set(1, property::ANIMATION, PropertyValue::Text(5));
    assert_eq!(t.take_animation(1), Some(5));
    assert_eq!(t.take_state(1), Some(6));
    assert_eq!(t.take_state(1), None);
    assert_eq!(t.node(1).map(|n| n.state), Some(Some(6)));
    // Other nodes are untouched.
    assert_eq!(t.node(0), Some(&ossicle::animator::Node::new()));
    assert_eq!(NodeTable::<S, 1, 4>::NODE_BYTES, 60 + 12 * 4);
}

#[test]
fn q16_and_f32_coin_agree() {
    // The same clip in both types gives the same y within the Q16.16 tolerance.
    fn run<S: Scalar>() -> Vec<f64> {
        let y = [
            Key::eased(s::<S>(0.0), KeyValue::Float(s(0.0)), Ease::InOutSine),
            Key::eased(s(0.5), KeyValue::Float(s(-6.0)), Ease::InOutSine),
            fkey(1.0, 0.0),
        ];
        let tracks = [Track::new(COIN, property::POSITION_Y, ValueKind::Float, &y)];
        let clips = [Clip::new("bob", s(1.0), &tracks).looping(true)];
        let src = SliceClips::new(&clips);
        (0..40)
            .map(|i| sample_track(&src, 0, 0, s(f64::from(i) / 40.0)).unwrap().1)
            .map(|v| match v {
                KeyValue::Float(x) => x.to_f64(),
                _ => f64::NAN,
            })
            .collect()
    }
    for (a, b) in run::<f32>().iter().zip(run::<Q16>().iter()) {
        close(*b, *a, 4e-4 + if cfg!(feature = "fast-math") { FAST_MATH_TOL } else { 0.0 }, "f32 vs Q16");
    }
}
