//! State machine behaviour against hand-written traces, in f32 and Q16.16.
//!
//! Tolerances: times built from binary fractions (0.25, 0.125, 0.5) are exact in both types and
//! compared exactly; times built from 0.1 s steps are compared within 1e-6 (f32) / 2⁻¹⁵ (Q16.16,
//! where 0.1 is 6554 / 65536, so two steps are 2 units of 2⁻¹⁶ off at most).

use ossicle::event::{Event, EventQueue};
use ossicle::sprite::{Frames, SliceSource, SpriteAnimation, SpritePlayer};
use ossicle::statemachine::*;
use ossicle::{Scalar, Q16};

const M: u32 = 9; // machine id
const PLAYER: u32 = 4;

// The example: parameters, states and transitions by index.
const SPEED: usize = 0;
const GROUNDED: usize = 1;
const JUMP: usize = 2;
const IDLE: usize = 0;
const RUN: usize = 1;
const JUMPING: usize = 2;

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

fn tol<S: Scalar>() -> f64 {
    if S::EPSILON.to_f64() < 1e-6 {
        1e-6
    } else {
        1.0 / 32768.0
    }
}

fn assert_time<S: Scalar, const P: usize>(sm: &StateMachine<S, P>, expected: f64) {
    let got = sm.time_in_state().to_f64();
    assert!((got - expected).abs() <= tol::<S>(), "time in state {got}, expected {expected}");
}

fn entered(state: usize) -> Event {
    Event::StateEntered { machine: M, state: state as u32 }
}

fn exited(state: usize) -> Event {
    Event::StateExited { machine: M, state: state as u32 }
}

/// Drains the queue, keeping only state machine events.
fn machine_events<const N: usize>(q: &mut EventQueue<N>) -> Vec<Event> {
    q.drain().filter(|e| matches!(e, Event::StateEntered { .. } | Event::StateExited { .. })).collect()
}

fn sprites<S: Scalar>() -> [SpriteAnimation<'static, S>; 4] {
    [
        SpriteAnimation::new("idle", Frames::Range { start: 0, end: 1 }, s(4.0)).looping(true),
        SpriteAnimation::new("run", Frames::Range { start: 2, end: 5 }, s(8.0)).looping(true),
        // Non-looping: 3 frames at 4 fps end after 0.75 s.
        SpriteAnimation::new("jump", Frames::Range { start: 6, end: 8 }, s(4.0)),
        SpriteAnimation::new("attack", Frames::Range { start: 9, end: 10 }, s(4.0)),
    ]
}

/// Runs `f` with the example machine (`speed > 10`, `speed <= 10`, `* -> jump` on the
/// trigger, `jump -> idle` when grounded after 0.2).
fn with_example<S: Scalar>(f: impl FnOnce(&SliceMachine<'_, S>)) {
    let params = [ParamDef::float("speed", S::ZERO), ParamDef::bool("grounded", true), ParamDef::trigger("jump")];
    let states = [
        StateDef::new("idle").animation(0).name_id(100),
        StateDef::new("run").animation(1).name_id(101),
        StateDef::new("jump").animation(2).name_id(102),
    ];
    let fast = [Clause::Compare { param: SPEED, op: CompareOp::Gt, value: s(10.0) }];
    let slow = [Clause::Compare { param: SPEED, op: CompareOp::Le, value: s(10.0) }];
    let jump = [Clause::Param(JUMP)];
    let grounded = [Clause::Param(GROUNDED)];
    let transitions = [
        TransitionDef::new(TransitionFrom::State(IDLE), RUN).when(&fast),
        TransitionDef::new(TransitionFrom::State(RUN), IDLE).when(&slow),
        TransitionDef::new(TransitionFrom::Any, JUMPING).when(&jump),
        TransitionDef::new(TransitionFrom::State(JUMPING), IDLE).when(&grounded).after(s(0.2)),
    ];
    f(&SliceMachine::new(&params, &states, &transitions, IDLE));
}

fn example_trace<S: Scalar>() {
    with_example::<S>(|def| {
        let anims = sprites::<S>();
        let src = SliceSource::new(&anims);
        let mut player = SpritePlayer::new(PLAYER);
        let mut sm: StateMachine<S, 4> = StateMachine::new(M, def.start_state(), def).unwrap();
        let mut q: EventQueue<32> = EventQueue::new();
        let dt = s::<S>(0.1);
        assert_eq!(sm.value(GROUNDED), Some(ParamValue::Bool(true)), "default");
        assert!(sm.entry_pending());

        // 1: enters idle, plays its animation, advances by dt; nothing holds (speed 0 ≤ 10 is run's).
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), None);
        assert_eq!(machine_events(&mut q), [entered(IDLE)]);
        assert!(sm.is(IDLE) && sm.current() == IDLE);
        assert_time(&sm, 0.1);
        assert_eq!(player.current(), Some(0));

        // 2: speed 12 and the trigger both set in idle: idle -> run (listed first) wins over * -> jump,
        // and the trigger, which idle -> run does not use, stays set.
        sm.set_float(SPEED, s(12.0)).unwrap();
        sm.set_trigger(JUMP).unwrap();
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), Some(0));
        assert_eq!(machine_events(&mut q), [exited(IDLE), entered(RUN)]);
        assert!(sm.is(RUN));
        assert_time(&sm, 0.0); // the rest of dt is not given to the new state
        assert_eq!(sm.value(JUMP), Some(ParamValue::Trigger(true)));
        assert_eq!(player.current(), Some(1));

        // 3: in run, * -> jump holds (it already held at the end of update 2, but one transition per
        // update): now it is taken, and its trigger cleared.
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), Some(2));
        assert_eq!(machine_events(&mut q), [exited(RUN), entered(JUMPING)]);
        assert_eq!(sm.value(JUMP), Some(ParamValue::Trigger(false)));
        assert_eq!(player.current(), Some(2));

        // 4: 0.1 s in jump: grounded, but `after 0.2` not yet.
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), None);
        assert!(machine_events(&mut q).is_empty());
        assert_time(&sm, 0.1);

        // 5: 0.2 s in jump (time including this dt): jump -> idle.
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), Some(3));
        assert_eq!(machine_events(&mut q), [exited(JUMPING), entered(IDLE)]);
        assert_eq!(player.current(), Some(0));

        // 6: speed still 12: idle -> run.
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), Some(0));
        assert_eq!(machine_events(&mut q), [exited(IDLE), entered(RUN)]);
        assert!(sm.is(RUN));

        // 7: speed exactly 10: run -> idle (speed <= 10).
        sm.set_float_named(def, "speed", s(10.0)).unwrap();
        assert_eq!(sm.update(dt, def, Some((&mut player, &src)), &mut q), Some(1));
        assert_eq!(machine_events(&mut q), [exited(RUN), entered(IDLE)]);
        assert_eq!(q.dropped(), 0);
    });
}

#[test]
fn example_trace_f32() {
    example_trace::<f32>();
}

#[test]
fn example_trace_q16() {
    example_trace::<Q16>();
}

/// `*` never re-enters the state it leads to; a trigger an untaken (or unrelated) transition
/// names stays set.
fn any_does_not_reenter<S: Scalar>() {
    with_example::<S>(|def| {
        let mut sm: StateMachine<S, 3> = StateMachine::new(M, JUMPING, def).unwrap();
        let mut q: EventQueue<16> = EventQueue::new();
        sm.set_bool_named(def, "grounded", false).unwrap();
        assert_eq!(sm.update_alone(s(0.5), def, &mut q), None);
        assert_eq!(machine_events(&mut q), [entered(JUMPING)]);
        sm.set_trigger_named(def, "jump").unwrap();
        assert_eq!(sm.update_alone(s(0.5), def, &mut q), None, "* -> jump from jump");
        assert!(machine_events(&mut q).is_empty());
        assert_time(&sm, 1.0);
        assert_eq!(sm.value(JUMP), Some(ParamValue::Trigger(true)));

        // jump -> idle does not use the trigger: it stays set, and takes idle to jump next.
        sm.set_bool(GROUNDED, true).unwrap();
        assert_eq!(sm.update_alone(s(0.25), def, &mut q), Some(3));
        assert_eq!(sm.value(JUMP), Some(ParamValue::Trigger(true)));
        assert_eq!(sm.update_alone(s(0.25), def, &mut q), Some(2));
        assert_eq!(sm.value(JUMP), Some(ParamValue::Trigger(false)));
        assert_eq!(machine_events(&mut q), [exited(JUMPING), entered(IDLE), exited(IDLE), entered(JUMPING)]);
    });
}

#[test]
fn any_does_not_reenter_f32() {
    any_does_not_reenter::<f32>();
}

#[test]
fn any_does_not_reenter_q16() {
    any_does_not_reenter::<Q16>();
}

/// `after` compares the time including this update's dt, and is taken at exactly the boundary.
fn after_boundary<S: Scalar>() {
    let states = [StateDef::new("a"), StateDef::new("b")];
    let transitions = [TransitionDef::new(TransitionFrom::State(0), 1).after(s(0.5))];
    let def = SliceMachine::<S>::new(&[], &states, &transitions, 0);
    let mut sm: StateMachine<S, 0> = StateMachine::new(M, 0, &def).unwrap();
    let mut q: EventQueue<8> = EventQueue::new();
    assert_eq!(sm.update_alone(s(0.25), &def, &mut q), None);
    assert_eq!(sm.update_alone(s(0.125), &def, &mut q), None);
    assert_eq!(sm.time_in_state(), s(0.375));
    // 0.375 + 0.125 = 0.5 exactly: taken (time ≥ after).
    assert_eq!(sm.update_alone(s(0.125), &def, &mut q), Some(0));
    assert!(sm.is(1));
    assert_eq!(sm.time_in_state(), S::ZERO);

    // A single update whose dt crosses `after` from 0 also takes it (condition checked after adding dt).
    let mut sm2: StateMachine<S, 0> = StateMachine::new(M, 0, &def).unwrap();
    assert_eq!(sm2.update_alone(s(0.5), &def, &mut q), Some(0));
    // A negative dt advances nothing.
    let mut sm3: StateMachine<S, 0> = StateMachine::new(M, 0, &def).unwrap();
    assert_eq!(sm3.update_alone(s(-1.0), &def, &mut q), None);
    assert_eq!(sm3.time_in_state(), S::ZERO);
}

#[test]
fn after_boundary_f32() {
    after_boundary::<f32>();
}

#[test]
fn after_boundary_q16() {
    after_boundary::<Q16>();
}

/// The issue's `after="0.2"` at exactly 0.2 in one update.
fn after_point_two<S: Scalar>() {
    with_example::<S>(|def| {
        let mut sm: StateMachine<S, 3> = StateMachine::new(M, JUMPING, def).unwrap();
        let mut q: EventQueue<8> = EventQueue::new();
        assert_eq!(sm.update_alone(S::ZERO, def, &mut q), None);
        assert_eq!(sm.update_alone(s(0.2), def, &mut q), Some(3));
    });
}

#[test]
fn after_point_two_f32() {
    after_point_two::<f32>();
}

#[test]
fn after_point_two_q16() {
    after_point_two::<Q16>();
}

/// `on_finished` with a real sprite player: a non-looping animation's end lets the transition go.
fn on_finished<S: Scalar>() {
    let anims = sprites::<S>();
    let src = SliceSource::new(&anims);
    let states = [StateDef::new("idle").animation(0), StateDef::new("attack").animation(2)];
    let transitions = [TransitionDef::new(TransitionFrom::State(1), 0).on_finished(true)];
    let def = SliceMachine::<S>::new(&[], &states, &transitions, 1);
    let mut sm: StateMachine<S, 1> = StateMachine::new(M, 1, &def).unwrap();
    let mut player = SpritePlayer::new(PLAYER);
    let mut q: EventQueue<64> = EventQueue::new();
    let dt = s::<S>(0.25);
    assert_eq!(sm.update(S::ZERO, &def, Some((&mut player, &src)), &mut q), None);
    assert_eq!(player.current(), Some(2));
    // 3 frames at 4 fps: the sprite ends after 0.75 s; the machine updates after the sprite.
    for k in 1..=3 {
        player.update(&src, dt, &mut q);
        let got = sm.update(dt, &def, Some((&mut player, &src)), &mut q);
        if k < 3 {
            assert!(!player.is_finished());
            assert_eq!(got, None, "update {k}");
        } else {
            assert_eq!(got, Some(0), "update {k}");
        }
    }
    assert!(sm.is(0));
    assert_eq!(player.current(), Some(0));
    assert!(!player.is_finished());

    // Without a target, or with the player finished on another animation, it never holds.
    let mut alone: StateMachine<S, 1> = StateMachine::new(M, 1, &def).unwrap();
    assert_eq!(alone.update_alone(s(10.0), &def, &mut q), None);
    let mut other = SpritePlayer::new(PLAYER);
    other.play(&src, 3, false).unwrap(); // attack: non-looping, not state 1's animation
    other.update(&src, s(5.0), &mut q);
    assert!(other.is_finished());
    // Entered without a target: the player still shows its finished animation 3, not state 1's 2.
    let mut sm2: StateMachine<S, 1> = StateMachine::new(M, 1, &def).unwrap();
    assert_eq!(sm2.update_alone(S::ZERO, &def, &mut q), None);
    assert_eq!(sm2.update(s(10.0), &def, Some((&mut other, &src)), &mut q), None);
    assert_eq!(other.current(), Some(3));
    // Travel back into state 1 with the target: animation 2 restarts, so not finished yet.
    sm2.travel(1).unwrap();
    assert_eq!(sm2.update(s(10.0), &def, Some((&mut other, &src)), &mut q), None);
    assert_eq!(other.current(), Some(2));
    assert!(!other.is_finished());
    other.update(&src, s(0.75), &mut q);
    assert_eq!(sm2.update(S::ZERO, &def, Some((&mut other, &src)), &mut q), Some(0));
}

#[test]
fn on_finished_f32() {
    on_finished::<f32>();
}

#[test]
fn on_finished_q16() {
    on_finished::<Q16>();
}

/// Travel goes now (also to the current state); the next update emits exit + enter, restarts the
/// animation and advances the new state by its whole dt.
fn travel<S: Scalar>() {
    with_example::<S>(|def| {
        let anims = sprites::<S>();
        let src = SliceSource::new(&anims);
        let mut player = SpritePlayer::new(PLAYER);
        let mut sm: StateMachine<S, 3> = StateMachine::new(M, RUN, def).unwrap();
        let mut q: EventQueue<64> = EventQueue::new();
        sm.set_float(SPEED, s(20.0)).unwrap();
        sm.update(s(0.25), def, Some((&mut player, &src)), &mut q);
        player.update(&src, s(0.25), &mut q); // 8 fps: frame 2
        assert_eq!(player.frame(), Some(2));
        q.clear();

        assert_eq!(sm.travel(RUN), Ok(()));
        assert!(sm.is(RUN) && sm.entry_pending());
        assert_eq!(sm.time_in_state(), S::ZERO);
        assert_eq!(sm.update(s(0.125), def, Some((&mut player, &src)), &mut q), None);
        assert_eq!(machine_events(&mut q), [exited(RUN), entered(RUN)]);
        assert_eq!(sm.time_in_state(), s(0.125));
        assert_eq!(player.current(), Some(1));
        assert_eq!(player.frame(), Some(0), "restarted");
        player.update(&src, S::ZERO, &mut q);
        assert!(q.iter().any(|e| *e == Event::SpriteStarted { player: PLAYER, animation: 1 }));
        q.clear();

        // Two travels before an update: exit the state last entered once, enter the last.
        sm.travel_named(def, "jump").unwrap();
        sm.travel(IDLE).unwrap();
        sm.set_float(SPEED, S::ZERO).unwrap();
        assert_eq!(sm.update(S::ZERO, def, Some((&mut player, &src)), &mut q), None);
        assert_eq!(machine_events(&mut q), [exited(RUN), entered(IDLE)]);
        assert_eq!(player.current(), Some(0));

        // Before the first update a travel replaces the start state: no exit.
        let mut fresh: StateMachine<S, 3> = StateMachine::new(M, IDLE, def).unwrap();
        fresh.travel(JUMPING).unwrap();
        fresh.set_bool(GROUNDED, false).unwrap();
        fresh.update_alone(S::ZERO, def, &mut q);
        assert_eq!(machine_events(&mut q), [entered(JUMPING)]);

        assert_eq!(sm.travel(3), Err(MachineError::NoSuchState));
        assert_eq!(sm.travel_named(def, "fly"), Err(MachineError::NoSuchState));
        assert!(sm.is(IDLE));
    });
}

#[test]
fn travel_f32() {
    travel::<f32>();
}

#[test]
fn travel_q16() {
    travel::<Q16>();
}

/// Bools compare as 1 and 0; `!name`; a Trigger in a comparison is false; clause on an unknown
/// parameter is false.
fn conditions<S: Scalar>() {
    let params = [ParamDef::bool("flag", false), ParamDef::trigger("t")];
    let states = [StateDef::new("a"), StateDef::new("b"), StateDef::new("c")];
    let is_one = [Clause::Compare { param: 0, op: CompareOp::Eq, value: S::ONE }];
    let below_half = [
        Clause::Compare { param: 0, op: CompareOp::Lt, value: s(0.5) },
        Clause::NotParam(0),
        Clause::Compare { param: 0, op: CompareOp::Ne, value: S::ONE },
        Clause::Compare { param: 0, op: CompareOp::Ge, value: S::ZERO },
    ];
    let trig_cmp = [Clause::Compare { param: 1, op: CompareOp::Ge, value: S::ZERO }];
    let unknown = [Clause::Param(7)];
    let transitions = [
        TransitionDef::new(TransitionFrom::State(0), 2).when(&trig_cmp),
        TransitionDef::new(TransitionFrom::State(0), 2).when(&unknown),
        TransitionDef::new(TransitionFrom::State(0), 1).when(&is_one),
        TransitionDef::new(TransitionFrom::State(1), 0).when(&below_half),
    ];
    let def = SliceMachine::new(&params, &states, &transitions, 0);
    let mut sm: StateMachine<S, 2> = StateMachine::new(M, 0, &def).unwrap();
    let mut q: EventQueue<16> = EventQueue::new();
    sm.set_trigger(1).unwrap();
    assert_eq!(sm.update_alone(s(0.25), &def, &mut q), None, "flag false, trigger comparison false");
    sm.set_bool(0, true).unwrap();
    assert_eq!(sm.update_alone(s(0.25), &def, &mut q), Some(2));
    assert_eq!(sm.update_alone(s(0.25), &def, &mut q), None, "flag true: not < 0.5");
    sm.set_bool(0, false).unwrap();
    assert_eq!(sm.update_alone(s(0.25), &def, &mut q), Some(3));
    assert!(sm.is(0));
    // The trigger was never used by a taken transition.
    assert_eq!(sm.value(1), Some(ParamValue::Trigger(true)));
}

#[test]
fn conditions_f32() {
    conditions::<f32>();
}

#[test]
fn conditions_q16() {
    conditions::<Q16>();
}

/// A trigger named by a `!t` clause counts as used; only the taken transition's triggers clear.
fn trigger_clearing<S: Scalar>() {
    let params = [ParamDef::trigger("a"), ParamDef::trigger("b"), ParamDef::trigger("c")];
    let states = [StateDef::new("x"), StateDef::new("y")];
    let when = [Clause::Param(0), Clause::NotParam(1)];
    let back = [Clause::Param(2)];
    let transitions = [
        TransitionDef::new(TransitionFrom::State(0), 1).when(&when),
        TransitionDef::new(TransitionFrom::State(1), 0).when(&back),
    ];
    let def = SliceMachine::new(&params, &states, &transitions, 0);
    let mut sm: StateMachine<S, 3> = StateMachine::new(M, 0, &def).unwrap();
    let mut q: EventQueue<16> = EventQueue::new();
    sm.set_trigger(0).unwrap();
    sm.set_trigger(2).unwrap();
    assert_eq!(sm.update_alone(S::ZERO, &def, &mut q), Some(0));
    assert_eq!(sm.value(0), Some(ParamValue::Trigger(false)));
    assert_eq!(sm.value(1), Some(ParamValue::Trigger(false)));
    assert_eq!(sm.value(2), Some(ParamValue::Trigger(true)), "c is not used by x -> y");
    assert_eq!(sm.update_alone(S::ZERO, &def, &mut q), Some(1));
    assert_eq!(sm.value(2), Some(ParamValue::Trigger(false)));
    sm.set_trigger(2).unwrap();
    sm.clear_trigger(2).unwrap();
    assert_eq!(sm.value(2), Some(ParamValue::Trigger(false)));
}

#[test]
fn trigger_clearing_f32() {
    trigger_clearing::<f32>();
}

#[test]
fn trigger_clearing_q16() {
    trigger_clearing::<Q16>();
}

/// Crossfade and exit time are stored and readable through the source.
fn crossfade_exit_time<S: Scalar>() {
    let states = [StateDef::new("a"), StateDef::new("b")];
    let transitions = [
        TransitionDef::new(TransitionFrom::State(0), 1).crossfade(s(0.15)).exit_time(s(0.9)),
        TransitionDef::new(TransitionFrom::Any, 0),
    ];
    let def = SliceMachine::<S>::new(&[], &states, &transitions, 0);
    let t0 = def.transition(0).unwrap();
    assert_eq!(t0.crossfade, s(0.15));
    assert_eq!(t0.exit_time, Some(s(0.9)));
    assert_eq!((t0.from, t0.to, t0.clause_count, t0.on_finished), (TransitionFrom::State(0), 1, 0, false));
    let t1 = def.transition(1).unwrap();
    assert_eq!((t1.crossfade, t1.exit_time), (S::ZERO, None));
    assert_eq!(def.transition(2), None);
    assert_eq!(def.clause(0, 0), None);
    // Exit time does not gate the transition in this runtime.
    let mut sm: StateMachine<S, 0> = StateMachine::new(M, 0, &def).unwrap();
    let mut q: EventQueue<8> = EventQueue::new();
    assert_eq!(sm.update_alone(S::ZERO, &def, &mut q), Some(0));
}

#[test]
fn crossfade_exit_time_f32() {
    crossfade_exit_time::<f32>();
}

#[test]
fn crossfade_exit_time_q16() {
    crossfade_exit_time::<Q16>();
}

/// Parameter errors and the source's lookups.
fn params_and_errors<S: Scalar>() {
    with_example::<S>(|def| {
        assert_eq!(
            StateMachine::<S, 2>::new(M, 0, def).err(),
            Some(MachineError::TooManyParams { needed: 3, capacity: 2 })
        );
        assert_eq!(StateMachine::<S, 3>::new(M, 3, def).err(), Some(MachineError::NoSuchState));
        let mut sm: StateMachine<S, 8> = StateMachine::new(M, 0, def).unwrap();
        assert_eq!(sm.param_count(), 3);
        assert_eq!(sm.set_bool(SPEED, true), Err(MachineError::WrongKind { kind: ParamKind::Float }));
        assert_eq!(sm.set_float(GROUNDED, S::ONE), Err(MachineError::WrongKind { kind: ParamKind::Bool }));
        assert_eq!(sm.set_float(JUMP, S::ONE), Err(MachineError::WrongKind { kind: ParamKind::Trigger }));
        assert_eq!(sm.set_trigger(3), Err(MachineError::NoSuchParam), "slot beyond the definition");
        assert_eq!(sm.set_float_named(def, "sped", S::ONE), Err(MachineError::NoSuchParam));
        assert_eq!(sm.value(3), None);
        assert_eq!(sm.value(SPEED), Some(ParamValue::Float(S::ZERO)));
        assert_eq!(def.state(2), Some(StateInfo { name_id: 102, animation: Some(2) }));
        assert_eq!(def.param(1), Some(ParamInfo { kind: ParamKind::Bool, default: S::ONE }));
        assert_eq!(def.find_param("jump"), Some(JUMP));
        assert_eq!(sm.id(), M);
        let mut q: EventQueue<4> = EventQueue::new();
        sm.set_float(SPEED, s(11.0)).unwrap();
        sm.update_alone(S::ZERO, def, &mut q);
        sm.set_bool(GROUNDED, false).unwrap();
        sm.reset_params(def);
        assert_eq!(sm.value(SPEED), Some(ParamValue::Float(S::ZERO)));
        assert_eq!(sm.value(GROUNDED), Some(ParamValue::Bool(true)));
    });
    let msg = MachineError::TooManyParams { needed: 3, capacity: 2 }.to_string();
    assert_eq!(msg, "the machine has 3 parameters but room for 2");
    assert_eq!(MachineError::WrongKind { kind: ParamKind::Bool }.to_string(), "the parameter is a Bool");
}

#[test]
fn params_and_errors_f32() {
    params_and_errors::<f32>();
}

#[test]
fn params_and_errors_q16() {
    params_and_errors::<Q16>();
}

#[test]
fn memory() {
    // 4 (id) + 4 (current) + 4 (state count) + 4 (param count) + 4 (time) + 8 (pending exit)
    // + 4·P (values) + P (kinds) + 1 (pending entry), rounded up to 4: 29 + 5·P.
    assert_eq!(StateMachine::<f32, 4>::BYTES, 52);
    assert_eq!(StateMachine::<Q16, 4>::BYTES, 52);
    assert_eq!(StateMachine::<f32, 0>::BYTES, 32);
    assert_eq!(StateMachine::<Q16, 8>::BYTES, 72);
}
