//! The sprite player against hand-computed frame sequences, events and times, in f32 and Q16.16.
//!
//! Frame durations are binary fractions (0.25 s, 0.5 s...), exact in both scalar types, so frame
//! boundaries land on the same updates in both; times are compared with a stated tolerance.

use ossicle::event::{Event, EventQueue};
use ossicle::scalar::{Scalar, Q16};
use ossicle::sprite::{
    CurveInterpolation, FrameRect, Frames, Grid, PlayMode, Rect, SliceSource, SpeedCurve, SpeedKey, SpriteAnimation,
    SpriteError, SpritePlayer, SpriteSource, MAX_STEPS_PER_UPDATE,
};

const P: u32 = 9;

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

fn changed(a: u32) -> Event {
    Event::SpriteAnimationChanged { player: P, animation: a }
}
fn started(a: u32) -> Event {
    Event::SpriteStarted { player: P, animation: a }
}
fn fc(a: u32, frame: u32) -> Event {
    Event::SpriteFrameChanged { player: P, animation: a, frame }
}
fn fe(a: u32, frame: u32, name: u32) -> Event {
    Event::SpriteFrameEvent { player: P, animation: a, frame, name }
}
fn looped(a: u32, count: u32) -> Event {
    Event::SpriteLooped { player: P, animation: a, count }
}
fn ended(a: u32) -> Event {
    Event::SpriteEnded { player: P, animation: a }
}
fn stopped(a: u32) -> Event {
    Event::SpriteStopped { player: P, animation: a }
}

/// Runs one update and returns its events.
fn step<S: Scalar, Src: SpriteSource<S>>(p: &mut SpritePlayer<'_, S>, src: &Src, dt: f64) -> Vec<Event> {
    let mut q: EventQueue<64> = EventQueue::new();
    p.update(src, s(dt), &mut q);
    assert_eq!(q.dropped(), 0);
    q.drain().collect()
}

/// The frames shown after each of `count` updates of `dt`.
fn frames_over<S: Scalar, Src: SpriteSource<S>>(
    p: &mut SpritePlayer<'_, S>,
    src: &Src,
    dt: f64,
    count: usize,
) -> Vec<u32> {
    (0..count)
        .map(|_| {
            step(p, src, dt);
            p.frame().unwrap_or(u32::MAX)
        })
        .collect()
}

fn approx<S: Scalar>(got: Option<S>, want: f64, tol: f64) {
    let g = got.map(|v| v.to_f64());
    assert!(g.is_some_and(|g| (g - want).abs() <= tol), "got {g:?}, want {want}");
}

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod f32_tests { $( #[test] fn $name() { super::$name::<f32>(); } )* }
        mod q16_tests { $( #[test] fn $name() { super::$name::<super::Q16>(); } )* }
    };
}

both!(
    forward_range_at_fps,
    explicit_sequence_with_durations_and_events,
    ping_pong_loops_without_doubling_turn_frames,
    ping_pong_reverse_and_reverse,
    repeat_counts_passes_and_ping_pong_directions,
    fps_zero_holds,
    play_again_is_a_no_op_unless_restart,
    pause_resume_stop_set_frame,
    speed_double_negative_and_frozen,
    backwards_non_looping_starts_at_end_and_ends_at_first,
    queue_plays_after_the_end_with_leftover_time,
    queue_on_looping_switches_at_the_end_of_the_pass,
    play_once_returns_to_previous,
    huge_dt_skips_whole_loops,
    huge_dt_non_looping_ends,
    huge_dt_backwards_skips_whole_loops,
    tiny_durations_are_bounded,
    event_order_in_one_update,
    speed_curve_values,
    speed_curve_drives_the_player,
    next_change_with_a_curve_and_pause,
    play_after_stop_plays_paused_stays_paused,
    set_frame_in_ping_pong_reverse,
    errors,
);

fn forward_range_at_fps<S: Scalar>() {
    let anims = [SpriteAnimation::new("run", Frames::Range { start: 2, end: 5 }, s::<S>(4.0))];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    assert_eq!(p.frame(), None);
    p.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![changed(0), started(0), fc(0, 0)]);
    assert_eq!(p.source_frame(&src), Some(2));
    approx(p.next_change(&src), 0.25, 1e-6);
    // 0.3 s: frame 1 (from 0.25), 0.05 s into it; the next change at 0.5.
    assert_eq!(step(&mut p, &src, 0.3), vec![fc(0, 1)]);
    approx(p.next_change(&src), 0.2, 1e-4);
    // 0.8 s: frames 2 (0.5) and 3 (0.75) both shown.
    assert_eq!(step(&mut p, &src, 0.5), vec![fc(0, 2), fc(0, 3)]);
    assert_eq!(p.source_frame(&src), Some(5));
    // On the last frame of a non-looping animation the frame never changes again.
    assert_eq!(p.next_change(&src), None);
    // 1.05 s: past the end at 1.0.
    assert_eq!(step(&mut p, &src, 0.25), vec![ended(0)]);
    assert!(p.is_finished() && !p.is_playing());
    assert_eq!(p.frame(), Some(3));
    assert_eq!(step(&mut p, &src, 1.0), vec![]);
    p.resume();
    assert!(!p.is_playing());
}

fn explicit_sequence_with_durations_and_events<S: Scalar>() {
    let durations = [s::<S>(0.5), s(0.25), s(0.25), s(1.0)];
    let events: [&[u32]; 4] = [&[], &[10, 11], &[], &[12]];
    let anims = [SpriteAnimation::new("seq", Frames::List(&[1, 2, 1, 3]), S::ZERO)
        .durations(&durations)
        .events(&events)
        .looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play_named(&src, "seq", false).unwrap();
    step(&mut p, &src, 0.0);
    // t = 1.0: frame 1 at 0.5 (events 10, 11), frame 2 at 0.75, frame 3 at 1.0 (event 12).
    assert_eq!(step(&mut p, &src, 1.0), vec![fc(0, 1), fe(0, 1, 10), fe(0, 1, 11), fc(0, 2), fc(0, 3), fe(0, 3, 12)]);
    assert_eq!(p.source_frame(&src), Some(3));
    approx(p.next_change(&src), 1.0, 1e-6);
    // t = 2.0: frame 0 again, the first loop.
    assert_eq!(step(&mut p, &src, 1.0), vec![fc(0, 0), looped(0, 1)]);
    assert_eq!(p.source_frame(&src), Some(1));
    // t = 2.6: frame 1 again with its events.
    assert_eq!(step(&mut p, &src, 0.6), vec![fc(0, 1), fe(0, 1, 10), fe(0, 1, 11)]);
    // Frame 2 shows source frame 1, like frame 0: no pixel duplicated.
    assert_eq!(step(&mut p, &src, 0.2), vec![fc(0, 2)]);
    assert_eq!(p.source_frame(&src), Some(1));
}

fn ping_pong_loops_without_doubling_turn_frames<S: Scalar>() {
    let anims = [SpriteAnimation::new("pp", Frames::Range { start: 0, end: 2 }, s::<S>(4.0))
        .mode(PlayMode::PingPong)
        .looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    assert_eq!(frames_over(&mut p, &src, 0.25, 8), vec![1, 2, 1, 0, 1, 2, 1, 0]);
    assert_eq!(p.loop_count(), 2);
    // The Looped of a pass comes after the FrameChanged of the frame that begins the next pass.
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    assert_eq!(
        step(&mut p, &src, 1.0),
        vec![changed(0), started(0), fc(0, 0), fc(0, 1), fc(0, 2), fc(0, 1), fc(0, 0), looped(0, 1)]
    );
}

fn ping_pong_reverse_and_reverse<S: Scalar>() {
    let anims = [
        SpriteAnimation::new("ppr", Frames::Range { start: 0, end: 2 }, s::<S>(4.0))
            .mode(PlayMode::PingPongReverse)
            .looping(true),
        SpriteAnimation::new("rev", Frames::Range { start: 10, end: 13 }, s::<S>(4.0)).mode(PlayMode::Reverse),
    ];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    assert_eq!(p.frame(), Some(2));
    assert_eq!(frames_over(&mut p, &src, 0.25, 6), vec![1, 0, 1, 2, 1, 0]);
    p.play(&src, 1, false).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![changed(1), started(1), fc(1, 3)]);
    assert_eq!(p.source_frame(&src), Some(13));
    assert_eq!(step(&mut p, &src, 1.0), vec![fc(1, 2), fc(1, 1), fc(1, 0), ended(1)]);
    assert_eq!(p.source_frame(&src), Some(10));
}

fn repeat_counts_passes_and_ping_pong_directions<S: Scalar>() {
    let fwd = |r| SpriteAnimation::new("f", Frames::Range { start: 0, end: 2 }, s::<S>(4.0)).repeat(r);
    let pp = |r| fwd(r).mode(PlayMode::PingPong);
    let one = SpriteAnimation::new("one", Frames::List(&[4]), s::<S>(4.0)).mode(PlayMode::PingPong).repeat(3);
    let anims = [fwd(0), fwd(1), fwd(2), pp(0), pp(1), pp(2), pp(3), pp(2).mode(PlayMode::PingPongReverse), one];
    let src = SliceSource::new(&anims);
    // (animation, frames shown after each 0.25 s until the end, passes boundaries crossed)
    let cases: [(usize, &[u32], u32); 9] = [
        (0, &[1, 2], 0),
        (1, &[1, 2], 0),
        (2, &[1, 2, 0, 1, 2], 1),
        (3, &[1, 2], 0),
        (4, &[1, 2], 0),
        (5, &[1, 2, 1, 0], 0),
        (6, &[1, 2, 1, 0, 1, 2], 1),
        (7, &[1, 0, 1, 2], 0),
        // One frame, three directions (Aseprite shows it three times): 0.75 s, two boundaries.
        (8, &[0, 0], 2),
    ];
    for (a, want, loops) in cases {
        let mut p = SpritePlayer::new(P);
        p.play(&src, a, false).unwrap();
        step(&mut p, &src, 0.0);
        let got = frames_over(&mut p, &src, 0.25, want.len());
        assert_eq!(got, want, "animation {a}");
        assert!(!p.is_finished(), "animation {a}");
        assert_eq!(step(&mut p, &src, 0.25), vec![ended(a as u32)], "animation {a}");
        assert_eq!(p.loop_count(), loops, "animation {a}");
    }
}

fn fps_zero_holds<S: Scalar>() {
    let durations = [s::<S>(0.5), S::ZERO];
    let anims = [
        SpriteAnimation::new("still", Frames::Range { start: 0, end: 3 }, S::ZERO).looping(true),
        SpriteAnimation::new("partly", Frames::Range { start: 0, end: 3 }, S::ZERO).durations(&durations),
    ];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    assert_eq!(step(&mut p, &src, 100.0), vec![]);
    assert_eq!(p.frame(), Some(0));
    assert_eq!(p.next_change(&src), None);
    // Frame 0 lasts 0.5 s, frame 1 has no duration and fps is 0: it holds.
    p.play(&src, 1, false).unwrap();
    step(&mut p, &src, 0.0);
    assert_eq!(step(&mut p, &src, 100.0), vec![fc(1, 1)]);
    assert_eq!(step(&mut p, &src, 100.0), vec![]);
    assert_eq!(p.frame(), Some(1));
    assert_eq!(p.next_change(&src), None);
}

fn play_again_is_a_no_op_unless_restart<S: Scalar>() {
    let anims = [
        SpriteAnimation::new("a", Frames::Range { start: 0, end: 3 }, s::<S>(4.0)).looping(true),
        SpriteAnimation::new("b", Frames::Range { start: 4, end: 5 }, s::<S>(4.0)),
    ];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.6);
    assert_eq!(p.frame(), Some(2));
    for _ in 0..3 {
        p.play_named(&src, "a", false).unwrap();
        assert_eq!(step(&mut p, &src, 0.0), vec![]);
    }
    assert_eq!(p.frame(), Some(2));
    p.play(&src, 0, true).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![started(0), fc(0, 0)]);
    p.play(&src, 1, false).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![changed(1), started(1), fc(1, 0)]);
    assert_eq!(p.previous(), Some(0));
    assert_eq!(p.current(), Some(1));
    // A finished animation replays only with restart.
    step(&mut p, &src, 1.0);
    assert!(p.is_finished());
    p.play(&src, 1, false).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![]);
    p.play(&src, 1, true).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![started(1), fc(1, 0)]);
    assert!(p.is_playing());
}

fn pause_resume_stop_set_frame<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 3 }, s::<S>(4.0)).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.3);
    p.pause();
    assert_eq!(p.next_change(&src), None);
    assert_eq!(step(&mut p, &src, 5.0), vec![]);
    assert_eq!(p.frame(), Some(1));
    p.resume();
    // 0.05 s into frame 1 before the pause: 0.2 s more reaches frame 2.
    approx(p.next_change(&src), 0.2, 1e-4);
    assert_eq!(step(&mut p, &src, 0.21), vec![fc(0, 2)]);
    p.stop(&src);
    assert_eq!(step(&mut p, &src, 1.0), vec![fc(0, 0), stopped(0)]);
    assert!(!p.is_playing());
    assert_eq!(p.frame(), Some(0));
    p.set_frame(&src, 99);
    assert_eq!(step(&mut p, &src, 0.0), vec![fc(0, 3)]);
    p.set_frame(&src, 3);
    assert_eq!(step(&mut p, &src, 0.0), vec![]);
    p.resume();
    // set_frame starts the frame's time afresh.
    approx(p.next_change(&src), 0.25, 1e-6);
    assert_eq!(step(&mut p, &src, 0.25), vec![fc(0, 0), looped(0, 1)]);
}

fn speed_double_negative_and_frozen<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 2 }, s::<S>(4.0)).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    p.set_speed(S::TWO);
    approx(p.next_change(&src), 0.125, 1e-6);
    assert_eq!(step(&mut p, &src, 0.25), vec![fc(0, 1), fc(0, 2)]);
    p.set_speed(S::ZERO);
    assert_eq!(p.next_change(&src), None);
    assert_eq!(step(&mut p, &src, 10.0), vec![]);
    p.set_speed(S::NEG_ONE);
    // At the start of frame 2: going back, frame 1 shows at once.
    approx(p.next_change(&src), 0.0, 1e-6);
    assert_eq!(step(&mut p, &src, 0.1), vec![fc(0, 1)]);
    // 0.15 s left in frame 1 going back (it entered at its end).
    approx(p.next_change(&src), 0.15, 1e-4);
    // 0.45 s: 0.15 s back to frame 0 (entered at its end), 0.25 s through it to frame 2 (wrapping),
    // 0.05 s into frame 2 from its end.
    assert_eq!(step(&mut p, &src, 0.45), vec![fc(0, 0), fc(0, 2), looped(0, 1)]);
    approx(p.next_change(&src), 0.2, 1e-4);
}

fn backwards_non_looping_starts_at_end_and_ends_at_first<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 2 }, s::<S>(4.0)).repeat(2)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.set_speed(S::NEG_ONE);
    p.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![changed(0), started(0), fc(0, 2)]);
    // The last frame shows for its whole duration before the first step back.
    approx(p.next_change(&src), 0.25, 1e-6);
    assert_eq!(step(&mut p, &src, 0.2), vec![]);
    assert_eq!(step(&mut p, &src, 0.05), vec![fc(0, 1)]);
    p.play(&src, 0, true).unwrap();
    step(&mut p, &src, 0.0);
    // Two passes backwards: 2 1 0 | 2 1 0, starting at the last frame's end.
    assert_eq!(frames_over(&mut p, &src, 0.25, 5), vec![1, 0, 2, 1, 0]);
    assert_eq!(p.next_change(&src), None);
    assert_eq!(step(&mut p, &src, 0.25), vec![ended(0)]);
}

fn queue_plays_after_the_end_with_leftover_time<S: Scalar>() {
    let anims = [
        SpriteAnimation::new("jump", Frames::Range { start: 0, end: 1 }, s::<S>(4.0)),
        SpriteAnimation::new("land", Frames::Range { start: 2, end: 5 }, s::<S>(4.0)),
    ];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    p.queue(&src, 1).unwrap();
    assert_eq!(p.queued(), Some(1));
    step(&mut p, &src, 0.0);
    // Jump ends at 0.5; 0.3 s more of land: its frame 1 (at 0.25 into it).
    assert_eq!(step(&mut p, &src, 0.8), vec![fc(0, 1), ended(0), changed(1), started(1), fc(1, 0), fc(1, 1)]);
    approx(p.next_change(&src), 0.2, 1e-4);
    assert_eq!(p.queued(), None);
    // Queueing while nothing plays, or after the end, plays at once.
    step(&mut p, &src, 5.0);
    assert!(p.is_finished());
    p.queue(&src, 0).unwrap();
    assert_eq!(step(&mut p, &src, 0.0), vec![changed(0), started(0), fc(0, 0)]);
}

fn queue_on_looping_switches_at_the_end_of_the_pass<S: Scalar>() {
    let anims = [
        SpriteAnimation::new("idle", Frames::Range { start: 0, end: 2 }, s::<S>(4.0)).looping(true),
        SpriteAnimation::new("walk", Frames::Range { start: 3, end: 4 }, s::<S>(4.0)).looping(true),
    ];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.3);
    p.queue(&src, 1).unwrap();
    // The pass of idle ends at 0.75.
    assert_eq!(step(&mut p, &src, 0.5), vec![fc(0, 2), ended(0), changed(1), started(1), fc(1, 0)]);
}

fn play_once_returns_to_previous<S: Scalar>() {
    let anims = [
        SpriteAnimation::new("idle", Frames::Range { start: 0, end: 1 }, s::<S>(4.0)).looping(true),
        SpriteAnimation::new("attack", Frames::Range { start: 2, end: 3 }, s::<S>(4.0)).looping(true),
    ];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.1);
    p.play_once(&src, 1).unwrap();
    assert_eq!(p.queued(), Some(0));
    // attack (looping, but played once): frames 0, 1, then idle at 0.5.
    assert_eq!(
        step(&mut p, &src, 0.6),
        vec![changed(1), started(1), fc(1, 0), fc(1, 1), ended(1), changed(0), started(0), fc(0, 0)]
    );
    assert!(p.is_playing());
    // idle loops again (the once flag does not carry over).
    assert_eq!(step(&mut p, &src, 0.4), vec![fc(0, 1), fc(0, 0), looped(0, 1)]);
}

fn huge_dt_skips_whole_loops<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 2 }, s::<S>(4.0)).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    // 1000.1 s: one pass stepped (frames 1, 2, 0 and Looped 1), then floor(999.35 / 0.75) = 1332
    // whole passes skipped (Looped 1333), then 0.35 s: frame 1, 0.1 s into it.
    let ev = step(&mut p, &src, 1000.1);
    assert_eq!(ev, vec![fc(0, 1), fc(0, 2), fc(0, 0), looped(0, 1), looped(0, 1333), fc(0, 1)]);
    assert_eq!(p.loop_count(), 1333);
    // Q16: 1000.1 is stored as 65542554 / 65536, 0.1 s within 2^-15.
    approx(Some(p.elapsed_in_frame()), 0.1, 1e-4);
    approx(p.next_change(&src), 0.15, 1e-4);
}

fn huge_dt_backwards_skips_whole_loops<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 2 }, s::<S>(4.0)).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.set_speed(S::NEG_ONE);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    // From the end of frame 2: 0.25 s to frame 1, 0.5 to frame 0, 0.75 to frame 2 (Looped 1);
    // 999.35 s left: 1332 passes of 0.75 skipped (Looped 1333), 0.35 s: frame 1, 0.15 s left in it.
    let ev = step(&mut p, &src, 1000.1);
    assert_eq!(ev, vec![fc(0, 1), fc(0, 0), fc(0, 2), looped(0, 1), looped(0, 1333), fc(0, 1)]);
    approx(p.next_change(&src), 0.15, 1e-4);
}

fn huge_dt_non_looping_ends<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 1 }, s::<S>(4.0)).repeat(1000)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    // 1000 passes of 0.5 s = 500 s; after one stepped pass (frames 1, 0, Looped 1), 998 are
    // skipped (the last pass is never skipped), leaving 0.5 s... at 600 s: frames 1, ended.
    let ev = step(&mut p, &src, 600.0);
    assert_eq!(ev, vec![fc(0, 1), fc(0, 0), looped(0, 1), looped(0, 999), fc(0, 1), ended(0)]);
    assert!(p.is_finished());
    assert_eq!(p.frame(), Some(1));
}

fn tiny_durations_are_bounded<S: Scalar>() {
    // Q16's smallest duration is 2^-16 s; f32 goes far smaller. A huge dt still ends the update.
    let durations = [S::EPSILON, S::EPSILON];
    let anims =
        [SpriteAnimation::new("a", Frames::Range { start: 0, end: 1 }, S::ZERO).durations(&durations).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    let mut q: EventQueue<8> = EventQueue::new();
    p.update(&src, s(30000.0), &mut q);
    assert!(q.len() + q.dropped() as usize <= MAX_STEPS_PER_UPDATE as usize * 3);
    assert!(p.loop_count() > 1000);
}

fn event_order_in_one_update<S: Scalar>() {
    let events: [&[u32]; 1] = [&[5, 6]];
    let anims = [SpriteAnimation::new("pop", Frames::List(&[7]), s::<S>(2.0)).events(&events)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut p, &src, 1.0), vec![changed(0), started(0), fc(0, 0), fe(0, 0, 5), fe(0, 0, 6), ended(0)]);
    p.play(&src, 0, true).unwrap();
    p.stop(&src);
    assert_eq!(step(&mut p, &src, 1.0), vec![started(0), fc(0, 0), fe(0, 0, 5), fe(0, 0, 6), stopped(0)]);
}

fn speed_curve_values<S: Scalar>() {
    let tol = 2e-4;
    let lin = [SpeedKey::new(s::<S>(0.0), s(1.0)), SpeedKey::new(s(1.0), s(3.0))];
    let c = SpeedCurve::new(&lin, CurveInterpolation::Linear, false);
    approx(Some(c.value_at(s(0.5))), 2.0, tol);
    approx(Some(c.value_at(s(-1.0))), 1.0, tol);
    approx(Some(c.value_at(s(7.0))), 3.0, tol);
    // Smoothstep at u = 0.25: 0.25² × (3 − 0.5) = 0.15625 → 1 + 2 × 0.15625.
    let c = SpeedCurve::new(&lin, CurveInterpolation::Smooth, false);
    approx(Some(c.value_at(s(0.25))), 1.3125, tol);
    // Looping over [0, 1]: 1.25 is 0.25.
    let c = SpeedCurve::new(&lin, CurveInterpolation::Linear, true);
    approx(Some(c.value_at(s(1.25))), 1.5, tol);
    // Catmull-Rom through 0, 1, 3, 2 at times 0, 1, 2, 3.
    let cub = [
        SpeedKey::new(s::<S>(0.0), s(0.0)),
        SpeedKey::new(s(1.0), s(1.0)),
        SpeedKey::new(s(2.0), s(3.0)),
        SpeedKey::new(s(3.0), s(2.0)),
    ];
    let c = SpeedCurve::new(&cub, CurveInterpolation::Cubic, false);
    // Middle segment, u = 0.5: ½(2·1 + (3 − 0)·½ + (0 − 5 + 12 − 2)·¼ + (−0 + 3 − 9 + 2)·⅛) = 2.125.
    approx(Some(c.value_at(s(1.5))), 2.125, tol);
    // First segment (p0 = p1 = 0), u = 0.5: ½((1 − 0)·½ + (0 − 0 + 4 − 3)·¼ + (0 + 0 − 3 + 3)·⅛) = 0.375.
    approx(Some(c.value_at(s(0.5))), 0.375, tol);
    // Through the keys.
    approx(Some(c.value_at(s(2.0))), 3.0, tol);
    let empty: [SpeedKey<S>; 0] = [];
    approx(Some(SpeedCurve::new(&empty, CurveInterpolation::Cubic, true).value_at(s(3.0))), 1.0, 0.0);
}

fn speed_curve_drives_the_player<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 15 }, s::<S>(4.0))];
    let src = SliceSource::new(&anims);
    let keys = [SpeedKey::new(s::<S>(0.0), s(0.0)), SpeedKey::new(s(1.0), s(2.0))];
    let mut p = SpritePlayer::new(P);
    p.set_speed_curve(Some(SpeedCurve::new(&keys, CurveInterpolation::Linear, false)));
    p.play(&src, 0, false).unwrap();
    // First second: the curve sampled at 0.5 is 1 → 1 s of animation: frame 4.
    step(&mut p, &src, 1.0);
    assert_eq!(p.frame(), Some(4));
    // Next second: sampled at 1.5 (after the last key: 2) → 2 s more, 3 s in all: frame 12.
    step(&mut p, &src, 1.0);
    assert_eq!(p.frame(), Some(12));
    // The curve's clock stops at its last key; base speed 0.5 halves it.
    approx(Some(p.speed_curve_time()), 1.0, 0.0);
    p.set_speed(S::HALF);
    approx(Some(p.effective_speed()), 1.0, 1e-6);
    step(&mut p, &src, 0.5);
    assert_eq!(p.frame(), Some(14));
}

fn next_change_with_a_curve_and_pause<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 15 }, s::<S>(4.0))];
    let src = SliceSource::new(&anims);
    let keys = [SpeedKey::new(s::<S>(0.0), s(0.0)), SpeedKey::new(s(2.0), s(2.0))];
    let mut p = SpritePlayer::new(P);
    p.set_speed_curve(Some(SpeedCurve::new(&keys, CurveInterpolation::Linear, false)));
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    // Speed 0 now, but the curve rises: wake at its next key (2 s), not never.
    approx(p.next_change(&src), 2.0, 1e-6);
    // 1 s sampled at 0.5 (speed 0.5): 0.5 s of animation, exactly two frames.
    assert_eq!(step(&mut p, &src, 1.0), vec![fc(0, 1), fc(0, 2)]);
    // Now speed 1 at the clock's 1 s: the frame's 0.25 s, before the key at 2 s.
    approx(p.next_change(&src), 0.25, 1e-4);
    // Paused: no change expected, and the curve's clock does not run.
    p.pause();
    assert_eq!(p.next_change(&src), None);
    step(&mut p, &src, 5.0);
    approx(Some(p.speed_curve_time()), 1.0, 1e-6);
    p.resume();
    approx(p.next_change(&src), 0.25, 1e-4);
}

fn play_after_stop_plays_paused_stays_paused<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 3 }, s::<S>(4.0)).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.3);
    p.pause();
    p.play(&src, 0, false).unwrap();
    assert_eq!(step(&mut p, &src, 1.0), vec![]);
    assert!(!p.is_playing());
    p.stop(&src);
    step(&mut p, &src, 0.0);
    p.play(&src, 0, false).unwrap();
    assert!(p.is_playing());
    assert_eq!(step(&mut p, &src, 0.3), vec![started(0), fc(0, 0), fc(0, 1)]);
}

fn set_frame_in_ping_pong_reverse<S: Scalar>() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 2 }, s::<S>(4.0))
        .mode(PlayMode::PingPongReverse)
        .looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.1);
    // Frame 0 first shows at the turn of the pass (2 1 [0] 1): from there 1, then 2 starts a pass.
    p.set_frame(&src, 0);
    assert_eq!(step(&mut p, &src, 0.0), vec![fc(0, 0)]);
    assert_eq!(step(&mut p, &src, 0.5), vec![fc(0, 1), fc(0, 2), looped(0, 1)]);
}

fn errors<S: Scalar>() {
    let anims = [SpriteAnimation::new("empty", Frames::List(&[]), s::<S>(4.0))];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    assert_eq!(p.play(&src, 0, false), Err(SpriteError::EmptyAnimation));
    assert_eq!(p.play(&src, 1, false), Err(SpriteError::NoSuchAnimation));
    assert_eq!(p.play_named(&src, "nope", false), Err(SpriteError::NoSuchAnimation));
    assert_eq!(p.queue(&src, 3), Err(SpriteError::NoSuchAnimation));
    assert_eq!(p.play_once(&src, 0), Err(SpriteError::EmptyAnimation));
    assert_eq!(SpriteError::NoSuchAnimation.to_string(), "no such sprite animation");
    // Nothing current: every call is harmless.
    p.stop(&src);
    p.set_frame(&src, 3);
    p.resume();
    assert_eq!(step(&mut p, &src, 1.0), vec![]);
    assert_eq!(p.next_change(&src), None);
    // A player whose source lost its animation does nothing.
    let other = [SpriteAnimation::new("x", Frames::Range { start: 0, end: 1 }, s::<S>(4.0))];
    let big = SliceSource::new(&other);
    p.play(&big, 0, false).unwrap();
    let none: [SpriteAnimation<'_, S>; 0] = [];
    let gone = SliceSource::new(&none);
    step(&mut p, &gone, 1.0);
    assert_eq!(p.next_change(&gone), None);
}

#[test]
fn grid_cells() {
    // 3 × 2 cells of a 100 × 50 sheet, margin 2, spacing 1: (100 − 4 − 2) / 3 = 31, (50 − 4 − 1) / 2 = 22.
    let g = Grid::from_sheet(100, 50, 3, 2, 2, 1).unwrap();
    assert_eq!((g.cell_w, g.cell_h, g.cell_count()), (31, 22, 6));
    assert_eq!(g.cell(0), Some(Rect { x: 2, y: 2, w: 31, h: 22 }));
    assert_eq!(g.cell(2), Some(Rect { x: 2 + 2 * 32, y: 2, w: 31, h: 22 }));
    assert_eq!(g.cell(3), Some(Rect { x: 2, y: 2 + 23, w: 31, h: 22 }));
    assert_eq!(g.cell(6), None);
    assert_eq!(Grid::from_sheet(100, 50, 0, 2, 0, 0), None);
    assert_eq!(Grid::from_sheet(3, 50, 4, 2, 0, 0), None);
    assert_eq!(Grid::from_sheet(10, 10, 2, 2, 6, 0), None);
    let f = g.frame(4).unwrap();
    assert_eq!(f.dest(10, 20), Rect { x: 10, y: 20, w: 31, h: 22 });
    assert_eq!(f.sheet_rect(), g.cell(4).unwrap());
}

#[test]
fn trimmed_frames_do_not_jitter() {
    // Two 32 × 32 frames trimmed differently: a pixel at (12, 25) of the untrimmed frame must land
    // at (sx + 12, sy + 25) for both.
    let a = FrameRect { x: 0, y: 0, w: 10, h: 12, offset_x: 5, offset_y: 20, source_w: 32, source_h: 32 };
    let b = FrameRect { x: 10, y: 0, w: 20, h: 30, offset_x: 8, offset_y: 1, source_w: 32, source_h: 32 };
    let (sx, sy) = (100, -50);
    for f in [a, b] {
        let d = f.dest(sx, sy);
        let (px, py) = (12 - f.offset_x as i32, 25 - f.offset_y as i32); // the pixel inside the stored part
        assert_eq!((d.x + px, d.y + py), (sx + 12, sy + 25));
        // Mirrored, the pixel lands at (31 − 12, 31 − 25) of the frame.
        let m = f.dest_flipped(sx, sy, true, true);
        let (mx, my) = (f.w as i32 - 1 - px, f.h as i32 - 1 - py);
        assert_eq!((m.x + mx, m.y + my), (sx + 31 - 12, sy + 31 - 25));
    }
    assert_eq!(a.dest(i32::MAX, 0).x, i32::MAX);
}

#[test]
fn frames_selection() {
    assert_eq!(Frames::Range { start: 5, end: 2 }.len(), 4);
    assert_eq!(Frames::Range { start: 5, end: 2 }.get(3), Some(2));
    assert_eq!(Frames::Range { start: 5, end: 2 }.get(4), None);
    assert_eq!(Frames::List(&[1, 2, 1, 3]).get(3), Some(3));
    assert!(Frames::List(&[]).is_empty());
}

#[test]
fn player_is_small_and_copy() {
    fn copy<T: Copy>() {}
    copy::<SpritePlayer<'static, f32>>();
    copy::<SpritePlayer<'static, Q16>>();
    #[cfg(target_pointer_width = "64")]
    assert_eq!((SpritePlayer::<f32>::BYTES, SpritePlayer::<Q16>::BYTES), (88, 88));
}

#[test]
fn nan_speed_advances_nothing() {
    let anims = [SpriteAnimation::new("a", Frames::Range { start: 0, end: 2 }, 4.0f32).looping(true)];
    let src = SliceSource::new(&anims);
    let mut p = SpritePlayer::new(P);
    p.play(&src, 0, false).unwrap();
    step(&mut p, &src, 0.0);
    p.set_speed(f32::NAN);
    assert_eq!(step(&mut p, &src, 1.0), vec![]);
    p.set_speed(1.0);
    let mut q: EventQueue<8> = EventQueue::new();
    p.update(&src, f32::NAN, &mut q);
    p.update(&src, f32::NEG_INFINITY, &mut q);
    assert!(q.is_empty());
    assert_eq!(step(&mut p, &src, -3.0), vec![]);
    assert_eq!(p.frame(), Some(0));
}

/// A source claiming `u32::MAX` events on its only frame.
struct Chatty;
impl SpriteSource<f32> for Chatty {
    fn animation_count(&self) -> usize {
        1
    }
    fn animation(&self, index: usize) -> Option<ossicle::sprite::AnimationInfo> {
        (index == 0).then_some(ossicle::sprite::AnimationInfo {
            frame_count: 1,
            looping: true,
            repeat: 0,
            mode: PlayMode::Forward,
        })
    }
    fn find(&self, _: &str) -> Option<usize> {
        None
    }
    fn frame(&self, _: usize, frame: u32) -> Option<ossicle::sprite::FrameRef<f32>> {
        (frame == 0).then_some(ossicle::sprite::FrameRef { source: 0, duration: Some(1.0), event_count: u32::MAX })
    }
    fn frame_event(&self, _: usize, _: u32, event: u32) -> Option<u32> {
        Some(event)
    }
}

#[test]
fn event_names_per_frame_are_capped() {
    let mut p = SpritePlayer::new(P);
    p.play(&Chatty, 0, false).unwrap();
    let mut q: EventQueue<256> = EventQueue::new();
    p.update(&Chatty, 0.0, &mut q);
    let names = q.iter().filter(|e| matches!(e, Event::SpriteFrameEvent { .. })).count();
    assert_eq!(names, ossicle::sprite::MAX_EVENTS_PER_FRAME as usize);
}
