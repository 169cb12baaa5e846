//! Tween semantics (issue 3, "Tweens" and "Storage and events"), each checked against values
//! computed independently in f64 by hand or by formula, in f32 and in Q16.16.
//!
//! Most times and durations are dyadic (0.25, 0.5, 1, 2...), so both scalar types represent every
//! intermediate exactly and the expected values hold to within `tol` (f32: 1e-6 relative; Q16: two
//! steps of 2⁻¹⁶). Where a time is not dyadic the test states the error bound it allows.

use std::collections::HashMap;

use ossicle::color::Rgba8;
use ossicle::ease::Ease;
use ossicle::event::{Event, EventQueue};
use ossicle::math::Vec2;
use ossicle::pool::PoolError;
use ossicle::sink::property::{POSITION, POSITION_X, POSITION_Y, SCALE_X, TINT};
use ossicle::sink::{NullSink, PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::tween::{
    lerp_rgba8, Tween, TweenError, TweenHandle, TweenPool, LOOPS_SIMULATED_PER_UPDATE, TWEEN_POOL_TAG,
};
use ossicle::{Scalar, Q16};

/// Per-type tolerance for values that both types compute exactly up to the last rounding.
trait Tol: Scalar {
    fn tol(expected: f64) -> f64;
}
impl Tol for f32 {
    fn tol(expected: f64) -> f64 {
        1e-6 * expected.abs().max(1.0)
    }
}
impl Tol for Q16 {
    fn tol(_: f64) -> f64 {
        2.0 / 65536.0
    }
}

/// Runs a generic test for f32 and for Q16.
macro_rules! both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn f32() {
                super::$name::<f32>();
            }
            #[test]
            fn q16() {
                super::$name::<ossicle::Q16>();
            }
        }
    )*};
}

fn v<S: Scalar>(x: f64) -> S {
    S::from_f64(x)
}

fn v2<S: Scalar>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(v(x), v(y))
}

const A: TargetId = 1;
const B: TargetId = 2;
const X: PropertyId = POSITION_X;
const Y: PropertyId = POSITION_Y;

/// A sink that stores values per (target, property), logs every write, and can be write-only.
struct Rec<S: Scalar> {
    values: HashMap<(TargetId, PropertyId), PropertyValue<S>>,
    log: Vec<(TargetId, PropertyId, PropertyValue<S>)>,
    write_only: bool,
}

impl<S: Scalar> Rec<S> {
    fn new() -> Self {
        Self { values: HashMap::new(), log: Vec::new(), write_only: false }
    }
    fn with(mut self, t: TargetId, p: PropertyId, value: PropertyValue<S>) -> Self {
        self.values.insert((t, p), value);
        self
    }
    fn float(&self, t: TargetId, p: PropertyId) -> f64 {
        match self.values.get(&(t, p)) {
            Some(PropertyValue::Float(x)) => x.to_f64(),
            other => panic!("no float at ({t}, {p}): {other:?}"),
        }
    }
    /// The writes so far, as (target, property, f64) for float writes; clears the log.
    fn take_floats(&mut self) -> Vec<(TargetId, PropertyId, f64)> {
        self.log
            .drain(..)
            .map(|(t, p, v)| match v {
                PropertyValue::Float(x) => (t, p, x.to_f64()),
                other => panic!("not a float write: {other:?}"),
            })
            .collect()
    }
}

impl<S: Scalar> PropertySink<S> for Rec<S> {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        self.values.insert((target, property), value);
        self.log.push((target, property, value));
    }
    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        if self.write_only {
            None
        } else {
            self.values.get(&(target, property)).copied()
        }
    }
}

fn float<S: Scalar>(t: TargetId, p: PropertyId, x: f64) -> Rec<S> {
    Rec::new().with(t, p, PropertyValue::Float(v(x)))
}

#[track_caller]
fn assert_close<S: Tol>(got: f64, want: f64) {
    assert!((got - want).abs() <= S::tol(want), "got {got}, want {want} (tolerance {})", S::tol(want));
}

/// Asserts a list of float writes, value by value within the tolerance.
#[track_caller]
fn assert_writes<S: Tol>(got: &[(TargetId, PropertyId, f64)], want: &[(TargetId, PropertyId, f64)]) {
    assert_eq!(got.len(), want.len(), "writes {got:?}, want {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0, g.1), (w.0, w.1), "writes {got:?}, want {want:?}");
        assert_close::<S>(g.2, w.2);
    }
}

fn drain<const Q: usize>(q: &mut EventQueue<Q>) -> Vec<Event> {
    q.drain().collect()
}

fn call(h: TweenHandle, id: u32) -> Event {
    Event::TweenCall { tween: h.to_bits(), id }
}
fn looped(h: TweenHandle, count: u32) -> Event {
    Event::TweenLooped { tween: h.to_bits(), count }
}
fn completed(h: TweenHandle) -> Event {
    Event::TweenCompleted { tween: h.to_bits() }
}

/// An ease formula in f64.
type Curve = fn(f64) -> f64;

fn quad_in(t: f64) -> f64 {
    t * t
}
fn quad_out(t: f64) -> f64 {
    1.0 - (1.0 - t) * (1.0 - t)
}
fn quad_in_out(t: f64) -> f64 {
    if t < 0.5 {
        2.0 * t * t
    } else {
        1.0 - (-2.0 * t + 2.0).powi(2) / 2.0
    }
}

both!(
    large_dt_crosses_every_step_in_order,
    update_by_update_matches_the_formula,
    non_dyadic_duration_within_reciprocal_bound,
    loops_from_to_vs_to,
    loops_crossed_in_one_update_are_all_counted,
    forever_loop_with_huge_dt_is_bounded_and_keeps_phase,
    finite_loops_beyond_the_simulated_limit_complete,
    zero_length_passes,
    kill_before_a_call_never_fires,
    stale_handles_after_completion_and_kill,
    pool_full_and_too_many_steps,
    kill_owner_kills_only_its_tweens,
    parallel_groups_end_with_their_longest_step,
    parallel_call_fires_when_its_group_begins,
    speed_and_pause,
    colour_rounding,
    colour_tween_through_the_sink,
    vec2_tweens,
    delay_negative_counts_as_zero,
    unknown_start_holds_the_end_value,
    zero_duration_steps_complete_immediately,
    first_update_begins_the_tween_even_with_zero_dt,
    value_by_handle,
    full_event_queue_counts_drops,
    bad_dt_and_speed_count_as_zero,
);

/// A large dt runs every crossed step in order: each value step ends at its end value (written
/// once), each call fires, in order; then the same tween in smaller updates.
fn large_dt_crosses_every_step_in_order<S: Tol>() {
    let tween = Tween::<S, 8>::new()
        .to(A, X, v::<S>(10.0), v(1.0), Ease::Linear)
        .call(1)
        .from_to(A, Y, v::<S>(0.0), v(4.0), v(0.5), Ease::InQuad)
        .call(2)
        .delay(v(0.25))
        .to(A, X, v::<S>(2.0), v(0.5), Ease::InQuad)
        .call(3);
    assert_close::<S>(tween.pass_duration().to_f64(), 1.0 + 0.5 + 0.25 + 0.5);

    let mut pool: TweenPool<S, 4, 8> = TweenPool::new();
    let mut events: EventQueue<16> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let h = pool.start(&tween, 0).unwrap();
    pool.update(v(10.0), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 1), call(h, 2), call(h, 3), completed(h)]);
    // Exactly the end values, each written once, in step order.
    let writes = sink.take_floats();
    assert_eq!(writes, vec![(A, X, 10.0), (A, Y, 4.0), (A, X, 2.0)]);
    assert!(!pool.is_running(h));
    assert!(pool.is_empty());

    // The same tween in three updates.
    let mut sink = float::<S>(A, X, 0.0);
    let h = pool.start(&tween, 0).unwrap();
    // 1.5 s: step 0 ends at 1.0 (x = 10), call 1, from_to y ends at 1.5 (y = 4), call 2, the delay
    // begins with nothing left over.
    pool.update(v(1.5), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 1), call(h, 2)]);
    assert_writes::<S>(&sink.take_floats(), &[(A, X, 10.0), (A, Y, 4.0)]);
    assert_eq!(pool.current_step(h).unwrap(), 4);
    // +0.5 s: the delay ends 0.25 s in; the last `to` reads x = 10 and is 0.25 s into its 0.5 s:
    // t = 0.5, InQuad 0.25, x = 10 + (2 - 10) × 0.25 = 8.
    pool.update(v(0.5), &mut sink, &mut events);
    assert!(events.is_empty());
    assert_writes::<S>(&sink.take_floats(), &[(A, X, 8.0)]);
    // +0.25 s: it ends exactly at 2, then call 3 and completion.
    pool.update(v(0.25), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 3), completed(h)]);
    assert_eq!(sink.take_floats(), vec![(A, X, 2.0)]);
}

/// Frame by frame, a `to` step with each ease family used here follows `from + (to - from)·ease(t)`.
fn update_by_update_matches_the_formula<S: Tol>() {
    let mut pool: TweenPool<S, 4, 1> = TweenPool::new();
    let mut events: EventQueue<4> = EventQueue::new();
    let cases: [(Ease<S>, Curve); 4] =
        [(Ease::Linear, |t| t), (Ease::InQuad, quad_in), (Ease::OutQuad, quad_out), (Ease::InOutQuad, quad_in_out)];
    for (curve, f) in cases {
        let (from, to, dur) = (3.0, -5.0, 2.0);
        let mut sink = float::<S>(A, X, from);
        pool.start(&Tween::new().to(A, X, v::<S>(to), v(dur), curve), 0).unwrap();
        pool.update(v(0.0), &mut sink, &mut events);
        assert_close::<S>(sink.float(A, X), from);
        for k in 1..=16 {
            pool.update(v(0.125), &mut sink, &mut events);
            let t = (k as f64 * 0.125 / dur).min(1.0);
            assert_close::<S>(sink.float(A, X), from + (to - from) * f(t));
        }
        assert_eq!(sink.float(A, X), to, "{curve:?} ends exactly");
        assert!(pool.is_empty());
        events.clear();
    }
}

/// A 0.3 s step updated in steps of 0.1 s (neither is exact in binary). f32: the float error of
/// `elapsed × (1/0.3)`, a few ulps. Q16: each dt is rounded (≤ 2⁻¹⁷ each, three so far), the
/// reciprocal is rounded (≤ 2⁻¹⁷, times elapsed ≤ 0.3), the product and the lerp are rounded
/// (2⁻¹⁷ each, the lerp's scaled by the range): bound on t is 3·2⁻¹⁷/0.3 + 0.3·2⁻¹⁷ + 2⁻¹⁷.
fn non_dyadic_duration_within_reciprocal_bound<S: Tol>() {
    let q = 2f64.powi(-17);
    let range = 6.0;
    let tol = if S::ENCODING == ossicle::scalar::ScalarEncoding::Q16_16 {
        range * (3.0 * q / 0.3 + 0.3 * q + q) + q
    } else {
        1e-5
    };
    let mut pool: TweenPool<S, 1, 1> = TweenPool::new();
    let mut events: EventQueue<4> = EventQueue::new();
    let mut sink = Rec::<S>::new();
    pool.start(&Tween::new().from_to(A, X, v::<S>(1.0), v(1.0 + range), v(0.3), Ease::Linear), 0).unwrap();
    for k in 1..=2 {
        pool.update(v(0.1), &mut sink, &mut events);
        let want = 1.0 + range * (k as f64 * 0.1 / 0.3);
        let got = sink.float(A, X);
        assert!((got - want).abs() <= tol, "step {k}: got {got}, want {want} ± {tol}");
    }
    pool.update(v(0.1), &mut sink, &mut events);
    pool.update(v(0.1), &mut sink, &mut events);
    assert_eq!(sink.float(A, X), 1.0 + range);
    assert_eq!(drain(&mut events).len(), 1);
}

/// Each loop begins again from the values as they are then: a `to` step re-reads its start (the
/// previous pass ended at 0), a `from_to` step jumps back to its start.
fn loops_from_to_vs_to<S: Tol>() {
    let mut pool: TweenPool<S, 2, 2> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let to =
        Tween::new().to(A, X, v::<S>(10.0), v(1.0), Ease::Linear).to(A, X, v::<S>(0.0), v(1.0), Ease::Linear).loops(1);
    let from_to = Tween::new()
        .from_to(B, X, v::<S>(5.0), v(10.0), v(1.0), Ease::Linear)
        .to(B, X, v::<S>(0.0), v(1.0), Ease::Linear)
        .loops(1);
    let mut sink = float::<S>(A, X, 5.0).with(B, X, PropertyValue::Float(v(5.0)));
    let ha = pool.start(&to, 0).unwrap();
    let hb = pool.start(&from_to, 0).unwrap();
    // (time, expected A.x, expected B.x), by hand:
    // pass 1: A 5 -> 10 over [0, 1], 10 -> 0 over [1, 2]; B 5 -> 10, 10 -> 0 (same values).
    // pass 2: A starts at 0 (where pass 1 left it): 0 -> 10, 10 -> 0; B jumps to 5: 5 -> 10, 10 -> 0.
    let expected = [(0.5, 7.5, 7.5), (1.5, 5.0, 5.0), (2.0, 0.0, 5.0), (2.5, 5.0, 7.5), (3.5, 5.0, 5.0)];
    let mut now = 0.0;
    for (time, a, b) in expected {
        pool.update(v(time - now), &mut sink, &mut events);
        now = time;
        assert_close::<S>(sink.float(A, X), a);
        assert_close::<S>(sink.float(B, X), b);
        if time == 2.0 {
            // The boundary was reached at 2.0: both looped, and pass 2 began in the same update.
            assert_eq!(drain(&mut events), vec![looped(ha, 1), looped(hb, 1)]);
            assert_eq!(pool.loops_done(ha).unwrap(), 1);
        }
    }
    pool.update(v(0.5), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![completed(ha), completed(hb)]);
    assert_eq!((sink.float(A, X), sink.float(B, X)), (0.0, 0.0));
}

/// Every loop crossed within one update is counted, with its calls, in order.
fn loops_crossed_in_one_update_are_all_counted<S: Tol>() {
    let mut pool: TweenPool<S, 1, 4> = TweenPool::new();
    let mut events: EventQueue<16> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let t = Tween::new().call(1).from_to(A, X, v::<S>(0.0), v(1.0), v(0.25), Ease::Linear).call(2).loops(2);
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(10.0), &mut sink, &mut events);
    let pass = |n| vec![call(h, 1), call(h, 2), looped(h, n)];
    let mut want = [pass(1), pass(2)].concat();
    want.extend([call(h, 1), call(h, 2), completed(h)]);
    assert_eq!(drain(&mut events), want);
    // Each crossed pass wrote the step's end value, once per pass.
    assert_eq!(sink.take_floats(), vec![(A, X, 1.0); 3]);
}

/// A forever loop with a huge dt: the first LOOPS_SIMULATED_PER_UPDATE boundaries run one by one,
/// the remaining whole passes are counted arithmetically, and the phase in the pass is exact.
fn forever_loop_with_huge_dt_is_bounded_and_keeps_phase<S: Tol>() {
    let mut pool: TweenPool<S, 1, 2> = TweenPool::new();
    let mut events: EventQueue<64> = EventQueue::new();
    let mut sink = Rec::<S>::new();
    let t = Tween::new().from_to(A, X, v::<S>(0.0), v(1.0), v(0.25), Ease::Linear).call(7).loops(-1);
    let h = pool.start(&t, 0).unwrap();
    // 1000.125 s = 4000 passes of 0.25 s and 0.125 s into the next.
    pool.update(v(1000.125), &mut sink, &mut events);
    let sim = LOOPS_SIMULATED_PER_UPDATE;
    assert_eq!(sim, 16);
    let mut want: Vec<Event> = (1..=sim).flat_map(|n| [call(h, 7), looped(h, n)]).collect();
    want.push(looped(h, 4000));
    assert_eq!(drain(&mut events), want);
    assert_eq!(pool.loops_done(h).unwrap(), 4000);
    assert_close::<S>(sink.float(A, X), 0.5); // 0.125 / 0.25 of 0 -> 1
    assert_eq!(sink.log.len(), sim as usize + 1, "16 simulated passes wrote their end, then the partial pass");
    // And it goes on from there as if every pass had run: the pass ends at 1 and the next one
    // begins at once, its from_to jumping back to 0.
    sink.log.clear();
    pool.update(v(0.125), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 7), looped(h, 4001)]);
    assert_eq!(sink.take_floats(), vec![(A, X, 1.0), (A, X, 0.0)]);
    pool.update(v(0.0625), &mut sink, &mut events);
    assert_close::<S>(sink.float(A, X), 0.25);
    assert!(pool.is_running(h));
}

/// A finite loop count beyond the simulated limit still completes within one update; its last
/// pass runs normally (its call fires, then TweenCompleted).
fn finite_loops_beyond_the_simulated_limit_complete<S: Tol>() {
    let mut pool: TweenPool<S, 1, 2> = TweenPool::new();
    let mut events: EventQueue<64> = EventQueue::new();
    let mut sink = Rec::<S>::new();
    let t = Tween::new().from_to(A, X, v::<S>(0.0), v(1.0), v(0.25), Ease::Linear).call(7).loops(100);
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(1000.0), &mut sink, &mut events);
    let mut want: Vec<Event> = (1..=16).flat_map(|n| [call(h, 7), looped(h, n)]).collect();
    // 101 passes in all: 16 simulated, 84 counted (passes 17..100), the 101st runs.
    want.extend([looped(h, 100), call(h, 7), completed(h)]);
    assert_eq!(drain(&mut events), want);
    assert_eq!(sink.float(A, X), 1.0);
    assert!(!pool.is_running(h));
}

/// A pass of zero length: finite loops all run within one update; forever plays one pass per update.
fn zero_length_passes<S: Tol>() {
    let mut pool: TweenPool<S, 2, 1> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let h = pool.start(&Tween::new().call(3).loops(-1), 0).unwrap();
    for n in 1..=3 {
        pool.update(v(1.0), &mut NullSink, &mut events);
        assert_eq!(drain(&mut events), vec![call(h, 3), looped(h, n)]);
    }
    pool.kill(h).unwrap();
    let h = pool.start(&Tween::new().call(4).loops(2), 0).unwrap();
    pool.update(v(0.0), &mut NullSink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 4), looped(h, 1), call(h, 4), looped(h, 2), call(h, 4), completed(h)]);
    // An empty tween completes at its first update.
    let h = pool.start(&Tween::new(), 0).unwrap();
    pool.update(v(0.0), &mut NullSink, &mut events);
    assert_eq!(drain(&mut events), vec![completed(h)]);
    // Many zero-length loops: 16 simulated, then counted, then the last pass.
    let h = pool.start(&Tween::new().call(5).loops(1000), 0).unwrap();
    pool.update(v(0.0), &mut NullSink, &mut events);
    let mut want: Vec<Event> = (1..=16).flat_map(|n| [call(h, 5), looped(h, n)]).collect();
    want.extend([looped(h, 1000), call(h, 5), completed(h)]);
    let mut events64: EventQueue<64> = EventQueue::new();
    let h2 = pool.start(&Tween::new().call(5).loops(1000), 0).unwrap();
    pool.update(v(0.0), &mut NullSink, &mut events64);
    assert_eq!(events.dropped(), (want.len() - 8) as u32);
    let want2: Vec<Event> = want
        .iter()
        .map(|e| match *e {
            Event::TweenCall { id, .. } => call(h2, id),
            Event::TweenLooped { count, .. } => looped(h2, count),
            _ => completed(h2),
        })
        .collect();
    assert_eq!(drain(&mut events64), want2);
}

/// Killing a tween before its call: the call never fires, nothing more is written, no completion.
fn kill_before_a_call_never_fires<S: Tol>() {
    let mut pool: TweenPool<S, 2, 2> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let h = pool.start(&Tween::new().to(A, X, v::<S>(1.0), v(1.0), Ease::Linear).call(9), 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    assert_close::<S>(sink.float(A, X), 0.5);
    sink.log.clear();
    pool.kill(h).unwrap();
    pool.update(v(1.0), &mut sink, &mut events);
    pool.update(v(1.0), &mut sink, &mut events);
    assert!(events.is_empty());
    assert!(sink.log.is_empty());
    assert_close::<S>(sink.float(A, X), 0.5); // stopped where it was
}

/// A handle to a completed or killed tween is an error, also after its slot is reused.
fn stale_handles_after_completion_and_kill<S: Tol>() {
    let mut pool: TweenPool<S, 1, 1> = TweenPool::with_tag(5);
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let done = pool.start(&Tween::new().to(A, X, v::<S>(1.0), v(0.5), Ease::Linear), 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![completed(done)]);
    let stale = TweenError::Handle(PoolError::Stale { index: 0, generation: done.generation() });
    assert!(!pool.is_running(done));
    assert_eq!(pool.value(done, 0), Err(stale));
    assert_eq!(pool.pause(done), Err(stale));
    assert_eq!(pool.kill(done), Err(stale));

    // The slot is reused by another tween with another generation; the old handle still fails.
    let other = pool.start(&Tween::new().to(B, Y, v::<S>(4.0), v(1.0), Ease::Linear), 0).unwrap();
    assert_eq!(other.index(), done.index());
    assert_eq!(other.generation(), done.generation() + 1);
    assert_eq!(pool.value(done, 0), Err(stale));
    assert_eq!(pool.set_speed(done, v(2.0)), Err(stale));
    assert_eq!(pool.value(other, 0), Err(TweenError::NotStarted { index: 0 }));

    pool.kill(other).unwrap();
    let killed = TweenError::Handle(PoolError::Stale { index: 0, generation: other.generation() });
    assert_eq!(pool.resume(other), Err(killed));
    assert_eq!(pool.loops_done(other), Err(killed));
    assert_eq!(pool.kill(other), Err(killed));

    // A handle from another pool (another tag) is refused.
    let mut foreign: TweenPool<S, 1, 1> = TweenPool::new();
    let f = foreign.start(&Tween::new().delay(v(1.0)), 0).unwrap();
    assert_eq!(pool.kill(f), Err(TweenError::Handle(PoolError::Foreign { expected: 5, found: TWEEN_POOL_TAG })));
    // Handles are 8 bytes and round-trip through their bits.
    assert_eq!(core::mem::size_of::<TweenHandle>(), 8);
    assert_eq!(TweenHandle::from_bits(f.to_bits()), f);
}

/// Starting a tween in a full pool is an error; so is starting one that overflowed its steps.
fn pool_full_and_too_many_steps<S: Tol>() {
    let mut pool: TweenPool<S, 2, 2> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let short = Tween::new().delay(v(0.5));
    let long = Tween::new().delay(v(2.0));
    pool.start(&short, 0).unwrap();
    let keep = pool.start(&long, 0).unwrap();
    assert_eq!(pool.start(&long, 0), Err(TweenError::PoolFull { capacity: 2 }));
    assert_eq!(pool.len(), 2);
    pool.update(v(0.5), &mut NullSink, &mut events);
    assert_eq!(pool.len(), 1);
    let again = pool.start(&long, 0).unwrap();
    assert!(pool.is_running(keep) && pool.is_running(again));

    let too_long = Tween::<S, 2>::new().call(1).call(2).call(3);
    assert_eq!(too_long.len(), 2);
    assert_eq!(too_long.check(), Err(TweenError::TooManySteps { capacity: 2, requested: 3 }));
    let mut roomy: TweenPool<S, 2, 2> = TweenPool::new();
    assert_eq!(roomy.start(&too_long, 0), Err(TweenError::TooManySteps { capacity: 2, requested: 3 }));
    assert!(roomy.is_empty());
    assert_eq!(TweenError::TooManySteps { capacity: 2, requested: 3 }.to_string(), "tween has 3 steps but room for 2");
    assert_eq!(TweenError::PoolFull { capacity: 2 }.to_string(), "tween pool is full (2 tweens running)");
}

/// Killing an owner kills its tweens (their calls never fire) and leaves the others running.
fn kill_owner_kills_only_its_tweens<S: Tol>() {
    let mut pool: TweenPool<S, 4, 2> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let t = Tween::new().delay(v(1.0)).call(1);
    let a1 = pool.start(&t, 10).unwrap();
    let b = pool.start(&t, 20).unwrap();
    let a2 = pool.start(&t, 10).unwrap();
    assert_eq!(pool.owner(a2).unwrap(), 10);
    pool.update(v(0.5), &mut NullSink, &mut events);
    assert_eq!(pool.kill_owner(10), 2);
    assert!(!pool.is_running(a1) && !pool.is_running(a2) && pool.is_running(b));
    assert_eq!(pool.kill_owner(10), 0);
    pool.update(v(0.5), &mut NullSink, &mut events);
    assert_eq!(drain(&mut events), vec![call(b, 1), completed(b)]);
}

/// A parallel group begins together and ends with its longest step; a shorter step writes its end
/// value once, when it ends; the next group begins when the longest ends.
fn parallel_groups_end_with_their_longest_step<S: Tol>() {
    let mut pool: TweenPool<S, 1, 8> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0).with(A, Y, PropertyValue::Float(v(0.0)));
    let t = Tween::new()
        .to(A, X, v::<S>(4.0), v(1.0), Ease::Linear)
        .parallel()
        .to(A, Y, v::<S>(8.0), v(2.0), Ease::Linear)
        .parallel()
        .delay(v(0.5))
        .call(5)
        .to(A, X, v::<S>(0.0), v(1.0), Ease::Linear);
    // Groups: [x 1 s, y 2 s, delay 0.5 s] = 2 s, [call] = 0, [x 1 s] = 1 s.
    assert_close::<S>(t.pass_duration().to_f64(), 3.0);
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    assert_writes::<S>(&sink.take_floats(), &[(A, X, 2.0), (A, Y, 2.0)]);
    pool.update(v(0.75), &mut sink, &mut events); // 1.25 s: x ended at 1 s (written once), y = 5
    assert_writes::<S>(&sink.take_floats(), &[(A, X, 4.0), (A, Y, 5.0)]);
    pool.update(v(0.5), &mut sink, &mut events); // 1.75 s: only y runs
    assert_writes::<S>(&sink.take_floats(), &[(A, Y, 7.0)]);
    assert!(events.is_empty(), "the call waits for the group's longest step");
    assert_eq!(pool.current_step(h).unwrap(), 0);
    pool.update(v(0.75), &mut sink, &mut events); // 2.5 s: y ended at 2 s, call 5, x 4 -> 0 at 0.5 s
    assert_eq!(drain(&mut events), vec![call(h, 5)]);
    assert_writes::<S>(&sink.take_floats(), &[(A, Y, 8.0), (A, X, 2.0)]);
    assert_eq!(pool.current_step(h).unwrap(), 4);

    // parallel() before the first step does nothing, and a trailing parallel() neither.
    let t = Tween::<S, 4>::new().parallel().to(A, X, v::<S>(1.0), v(1.0), Ease::Linear).to(
        A,
        Y,
        v::<S>(1.0),
        v(1.0),
        Ease::Linear,
    );
    assert_close::<S>(t.pass_duration().to_f64(), 2.0);
    let t = t.parallel();
    assert_close::<S>(t.pass_duration().to_f64(), 2.0);
}

/// A call made parallel to a step fires when that step's group begins.
fn parallel_call_fires_when_its_group_begins<S: Tol>() {
    let mut pool: TweenPool<S, 1, 4> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let h =
        pool.start(&Tween::new().to(A, X, v::<S>(1.0), v(1.0), Ease::Linear).parallel().call(3).call(4), 0).unwrap();
    pool.update(v(0.0), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 3)]);
    pool.update(v(1.0), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 4), completed(h)]);
}

/// Speed multiplies time; 0 and negative speeds hold; a paused tween writes nothing.
fn speed_and_pause<S: Tol>() {
    let mut pool: TweenPool<S, 1, 1> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let h = pool.start(&Tween::new().to(A, X, v::<S>(8.0), v(2.0), Ease::Linear).speed(v(2.0)), 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events); // 1 s of tween time
    assert_close::<S>(sink.float(A, X), 4.0);
    pool.pause(h).unwrap();
    assert!(pool.is_paused(h).unwrap());
    sink.log.clear();
    pool.update(v(1.0), &mut sink, &mut events);
    assert!(sink.log.is_empty());
    assert!(pool.is_running(h));
    pool.resume(h).unwrap();
    pool.set_speed(h, v(0.5)).unwrap();
    pool.update(v(1.0), &mut sink, &mut events); // 1.5 s of tween time
    assert_close::<S>(sink.float(A, X), 6.0);
    pool.set_speed(h, v(-3.0)).unwrap();
    assert_eq!(pool.speed(h).unwrap(), S::ZERO);
    pool.update(v(100.0), &mut sink, &mut events);
    assert_close::<S>(sink.float(A, X), 6.0);
    pool.set_speed(h, v(1.0)).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    assert_eq!(sink.float(A, X), 8.0);
    assert_eq!(drain(&mut events), vec![completed(h)]);
}

/// Colour channels: `round(a + (b − a)·e)`, ties away from zero (up), clamped to 0..255.
fn colour_rounding<S: Tol>() {
    let from = Rgba8::new(0, 255, 10, 0);
    let to = Rgba8::new(255, 0, 20, 3);
    // By hand at e = 0.5: 127.5 -> 128, 127.5 -> 128, 15, 1.5 -> 2.
    assert_eq!(lerp_rgba8(from, to, v::<S>(0.5)), Rgba8::new(128, 128, 15, 2));
    // At e = 0.25: 63.75 -> 64, 191.25 -> 191, 12.5 -> 13, 0.75 -> 1.
    assert_eq!(lerp_rgba8(from, to, v::<S>(0.25)), Rgba8::new(64, 191, 13, 1));
    // Every e = k/64 (exact in both types) against the f64 formula (f64::round: ties away from 0).
    let reference = |a: u8, b: u8, e: f64| (a as f64 + (b as f64 - a as f64) * e).round().clamp(0.0, 255.0) as u8;
    for k in 0..=64 {
        let e = k as f64 / 64.0;
        let got = lerp_rgba8(from, to, v::<S>(e));
        let want = Rgba8::new(reference(0, 255, e), reference(255, 0, e), reference(10, 20, e), reference(0, 3, e));
        assert_eq!(got, want, "e = {e}");
    }
    // Overshoot is clamped: OutBack(0.5) = 1 + 2.70158·(−0.5)³ + 1.70158·(−0.5)² = 1.0876975.
    let e = 1.0 + 2.70158 * (-0.125) + 1.70158 * 0.25;
    assert!((e - 1.0876975f64).abs() < 1e-12);
    let eased = ossicle::ease::ease(Ease::<S>::OutBack, v(0.5));
    let c = lerp_rgba8(Rgba8::new(100, 200, 255, 0), Rgba8::new(200, 255, 0, 0), eased);
    // 100 + 100e = 208.77 -> 209; 200 + 55e = 259.8 -> 255; 255 − 255e = −22.4 -> 0.
    assert_eq!(c, Rgba8::new(209, 255, 0, 0));
}

/// A colour `to` step reads its start from the sink and writes rounded channels.
fn colour_tween_through_the_sink<S: Tol>() {
    let mut pool: TweenPool<S, 1, 1> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = Rec::<S>::new().with(B, TINT, PropertyValue::Color(Rgba8::new(0, 0, 0, 255)));
    let h = pool.start(&Tween::new().to(B, TINT, Rgba8::new(255, 100, 1, 0), v(1.0), Ease::Linear), 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    // 127.5 -> 128, 50, 0.5 -> 1, 127.5 -> 128.
    let want = PropertyValue::Color(Rgba8::new(128, 50, 1, 128));
    assert_eq!(sink.values[&(B, TINT)], want);
    assert_eq!(pool.value(h, 0).unwrap(), want);
    pool.update(v(0.5), &mut sink, &mut events);
    assert_eq!(sink.values[&(B, TINT)], PropertyValue::Color(Rgba8::new(255, 100, 1, 0)));
}

/// Vec2 steps interpolate both components with the step's ease.
fn vec2_tweens<S: Tol>() {
    let mut pool: TweenPool<S, 1, 2> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = Rec::<S>::new().with(A, POSITION, PropertyValue::Vector(v2(2.0, 2.0)));
    let t = Tween::new().to(A, POSITION, v2::<S>(4.0, -8.0), v(1.0), Ease::OutQuad).from_to(
        A,
        POSITION,
        v2::<S>(0.0, 0.0),
        v2(-2.0, 6.0),
        v(0.5),
        Ease::Linear,
    );
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    // OutQuad(0.5) = 0.75: (2 + 2·0.75, 2 − 10·0.75) = (3.5, −5.5).
    let check = |value: PropertyValue<S>, x: f64, y: f64| match value {
        PropertyValue::Vector(p) => {
            assert_close::<S>(p.x.to_f64(), x);
            assert_close::<S>(p.y.to_f64(), y);
        }
        other => panic!("not a vector: {other:?}"),
    };
    check(sink.values[&(A, POSITION)], 3.5, -5.5);
    check(pool.value(h, 0).unwrap(), 3.5, -5.5);
    pool.update(v(0.75), &mut sink, &mut events); // step 1 at 0.25 of 0.5: (−1, 3)
    check(sink.values[&(A, POSITION)], -1.0, 3.0);
    check(pool.value(h, 0).unwrap(), 4.0, -8.0);
    check(pool.value(h, 1).unwrap(), -1.0, 3.0);
}

/// A negative delay counts as 0 (and, in f32, a NaN one too).
fn delay_negative_counts_as_zero<S: Tol>() {
    let mut pool: TweenPool<S, 1, 4> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let t =
        Tween::new().delay(v(-1.0)).call(1).delay(S::from_f32(f32::NAN)).to(A, X, v::<S>(1.0), v(1.0), Ease::Linear);
    assert_close::<S>(t.pass_duration().to_f64(), 1.0);
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(0.0), &mut sink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 1)]);
    pool.update(v(0.25), &mut sink, &mut events);
    assert_close::<S>(sink.float(A, X), 0.25);
}

/// A `to` step whose start the sink does not know (write-only sink, or a value of another kind)
/// starts at its end: it holds the end value for its duration.
fn unknown_start_holds_the_end_value<S: Tol>() {
    let mut pool: TweenPool<S, 2, 1> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 1.0).with(A, POSITION, PropertyValue::Float(v(1.0)));
    sink.write_only = true;
    pool.start(&Tween::new().to(A, X, v::<S>(5.0), v(1.0), Ease::Linear), 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    assert_eq!(sink.float(A, X), 5.0);
    sink.write_only = false;
    // A float where the step animates a vector: another kind, so also unknown.
    let h = pool.start(&Tween::new().to(A, POSITION, v2::<S>(3.0, 4.0), v(1.0), Ease::Linear), 0).unwrap();
    pool.update(v(0.25), &mut sink, &mut events);
    assert_eq!(sink.values[&(A, POSITION)], PropertyValue::Vector(v2(3.0, 4.0)));
    assert_eq!(pool.value(h, 0).unwrap(), PropertyValue::Vector(v2(3.0, 4.0)));
}

/// Zero-length value steps write their end value as soon as they begin.
fn zero_duration_steps_complete_immediately<S: Tol>() {
    let mut pool: TweenPool<S, 1, 3> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0);
    let t = Tween::new().to(A, X, v::<S>(3.0), v(0.0), Ease::Linear).from_to(
        A,
        Y,
        v::<S>(1.0),
        v(2.0),
        v(-1.0),
        Ease::Linear,
    );
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(0.0), &mut sink, &mut events);
    assert_eq!(sink.take_floats(), vec![(A, X, 3.0), (A, Y, 2.0)]);
    assert_eq!(drain(&mut events), vec![completed(h)]);
}

/// A tween begins at the first update after `start`, even with `dt = 0`: from_to jumps to its start.
fn first_update_begins_the_tween_even_with_zero_dt<S: Tol>() {
    let mut pool: TweenPool<S, 1, 1> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, SCALE_X, 9.0);
    let h = pool.start(&Tween::new().from_to(A, SCALE_X, v::<S>(0.5), v(1.5), v(1.0), Ease::InOutQuad), 0).unwrap();
    assert_eq!(pool.value(h, 0), Err(TweenError::NotStarted { index: 0 }));
    assert!(sink.log.is_empty());
    pool.update(v(0.0), &mut sink, &mut events);
    assert_eq!(sink.take_floats(), vec![(A, SCALE_X, 0.5)]);
    pool.update(v(0.25), &mut sink, &mut events); // InOutQuad(0.25) = 2·0.0625 = 0.125
    assert_close::<S>(sink.float(A, SCALE_X), 0.5 + 0.125);
}

/// Values by handle: the step's current value while it runs, its end once it ended, the previous
/// pass's end for a step not yet reached in a later pass; typed errors otherwise.
fn value_by_handle<S: Tol>() {
    let mut pool: TweenPool<S, 1, 4> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = float::<S>(A, X, 0.0).with(A, Y, PropertyValue::Float(v(0.0)));
    let t = Tween::new()
        .to(A, X, v::<S>(2.0), v(1.0), Ease::Linear)
        .delay(v(0.5))
        .from_to(A, Y, v::<S>(1.0), v(3.0), v(1.0), Ease::Linear)
        .call(1)
        .loops(1);
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(0.25), &mut sink, &mut events);
    assert_eq!(pool.value(h, 0).unwrap(), PropertyValue::Float(v(0.5)));
    assert_eq!(pool.value(h, 1), Err(TweenError::NotAValue { index: 1 }));
    assert_eq!(pool.value(h, 3), Err(TweenError::NotAValue { index: 3 }));
    assert_eq!(pool.value(h, 2), Err(TweenError::NotStarted { index: 2 }));
    assert_eq!(pool.value(h, 4), Err(TweenError::NoSuchStep { index: 4, steps: 4 }));
    pool.update(v(1.5), &mut sink, &mut events); // 1.75 s: step 2 at 0.25 s: 1.5
    assert_eq!(pool.value(h, 0).unwrap(), PropertyValue::Float(v(2.0)));
    assert_eq!(pool.value(h, 2).unwrap(), PropertyValue::Float(v(1.5)));
    pool.update(v(1.0), &mut sink, &mut events); // 2.75 s: pass 2, step 0 at 0.25 s from x = 2
    assert_eq!(drain(&mut events), vec![call(h, 1), looped(h, 1)]);
    assert_eq!(pool.value(h, 0).unwrap(), PropertyValue::Float(v(2.0)));
    assert_eq!(pool.value(h, 2).unwrap(), PropertyValue::Float(v(3.0)), "last pass's end");
    pool.pause(h).unwrap();
    assert_eq!(pool.value(h, 0).unwrap(), PropertyValue::Float(v(2.0)));
}

/// A full event queue keeps the oldest events and counts the ones it dropped.
fn full_event_queue_counts_drops<S: Tol>() {
    let mut pool: TweenPool<S, 1, 4> = TweenPool::new();
    let mut events: EventQueue<2> = EventQueue::new();
    let h = pool.start(&Tween::new().call(1).call(2).call(3).call(4), 0).unwrap();
    pool.update(v(0.0), &mut NullSink, &mut events);
    assert_eq!(drain(&mut events), vec![call(h, 1), call(h, 2)]);
    assert_eq!(events.dropped(), 3); // calls 3 and 4, and the completion
}

/// Negative or NaN dt and negative speed count as 0; any negative loop count is forever.
fn bad_dt_and_speed_count_as_zero<S: Tol>() {
    let mut pool: TweenPool<S, 1, 1> = TweenPool::new();
    let mut events: EventQueue<8> = EventQueue::new();
    let mut sink = Rec::<S>::new();
    let t = Tween::new().from_to(A, X, v::<S>(0.0), v(4.0), v(1.0), Ease::Linear).loops(-7);
    assert_eq!(t.loop_count(), -1);
    let h = pool.start(&t, 0).unwrap();
    pool.update(v(0.5), &mut sink, &mut events);
    pool.update(v(-3.0), &mut sink, &mut events);
    pool.update(S::from_f32(f32::NAN), &mut sink, &mut events);
    assert_close::<S>(sink.float(A, X), 2.0);
    pool.kill(h).unwrap();
    pool.start(&t.speed(v(-1.0)), 0).unwrap();
    pool.update(v(10.0), &mut sink, &mut events);
    assert_eq!(sink.float(A, X), 0.0);
    assert!(events.is_empty());
}

/// Memory per step and per tween, as documented on `TweenPool`.
#[test]
fn memory_per_step_and_tween() {
    fn report<S: Scalar>(name: &str) {
        let step = TweenPool::<S, 1, 1>::STEP_BYTES;
        let one = TweenPool::<S, 1, 1>::TWEEN_BYTES;
        let four = TweenPool::<S, 1, 4>::TWEEN_BYTES;
        let pool_64x1 = core::mem::size_of::<TweenPool<S, 64, 1>>();
        let pool_3x4 = core::mem::size_of::<TweenPool<S, 3, 4>>();
        println!("{name}: step {step} B, 1-step tween {one} B, 4-step tween {four} B, pool<64, 1> {pool_64x1} B, pool<3, 4> {pool_3x4} B");
        assert_eq!(step, 60);
        assert_eq!(one, 36 + 60);
        assert_eq!(four, 36 + 4 * 60);
        assert_eq!(pool_64x1, 64 * (one + 4) + 12);
        assert_eq!(pool_3x4, 3 * (four + 4) + 12);
    }
    report::<f32>("f32");
    report::<Q16>("Q16");
}
