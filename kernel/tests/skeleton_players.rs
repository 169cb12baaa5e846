//! Skeletal players: AnimPlayer events, crossfade, root motion, seek; blend spaces; one-shot
//! layers; sync markers; memory. Every test runs in f32 and Q16.16.
//!
//! Expected values are written out by hand (or computed here in `f64` from the documented
//! formulas), never by calling the code under test. Times are binary fractions (exact in both
//! types) except where a test says otherwise.
//!
//! Tolerances (absolute): `tol::<S>()` is 1e-5 in f32 and 2⁻¹³ ≈ 1.2e-4 in Q16.16 (a few roundings
//! of 2⁻¹⁶ in sampling, blending and normalising); translations of magnitude up to 25 use `25 ×`
//! that; the root-motion test with decimal times (0.9 s, 0.3 s) uses 2e-3 in Q16.16 (0.9 and 0.3
//! are rounded to 2⁻¹⁶, ×10 m/s); rotation angles `rot_tol::<S>()`: 4 × `tol`, or 2e-3 in f32
//! with the `fast-math` feature (micromath's sine, cosine and square root).

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

use ossicle::event::EventQueue;
use ossicle::math::{Quat, Transform2, Transform3, Vec2, Vec3};
use ossicle::skeleton::{
    collect_markers, sync_time, AnimPlayer, BlendSpace1D, BlendSpace2D, BlendSpaceError, ChannelData, ClipEvent,
    Interpolation, JobError, MarkerTrack, OneShot, PlayerError, Rig, RootMotionSettings, RotationInterp, SkelEvent,
    SliceSkelClip, SliceSkeleton, SliceTrack, SyncMarker, SyncPhase, MAX_FULL_PASSES_PER_UPDATE,
};
use ossicle::{Scalar, Q16};

// ---------------------------------------------------------------------------------------------
// Helpers

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

fn tol<S: Scalar>() -> f64 {
    if S::EPSILON.to_f64() > 1e-6 {
        1.0 / 8192.0
    } else {
        1e-5
    }
}

/// Rotation angles (radians): 4 × `tol`, or 2e-3 in f32 with the `fast-math` feature (micromath's
/// sine, cosine and square root: the quaternions built with `from_rotation_z`, and every nlerp's
/// normalisation, carry its error).
fn rot_tol<S: Scalar>() -> f64 {
    if S::EPSILON.to_f64() < 1e-6 && cfg!(feature = "fast-math") {
        2e-3
    } else {
        4.0 * tol::<S>()
    }
}

#[track_caller]
fn close<S: Scalar>(got: S, want: f64, tol: f64) {
    assert!((got.to_f64() - want).abs() <= tol, "got {}, want {want} (tol {tol})", got.to_f64());
}

fn lin<'a, S: Scalar>(times: &'a [S], values: &'a [S]) -> ChannelData<&'a [S]> {
    ChannelData { interpolation: Interpolation::Linear, times, values, tangents: &[] }
}

fn ev<S: Scalar>(time: f64, name: u16) -> ClipEvent<S> {
    ClipEvent { time: s(time), name }
}

type Q<S> = EventQueue<128, SkelEvent<S>>;

/// The clip events in the queue, as (name, clip) pairs, draining it; `Finished` as name 999.
fn drain<S: Scalar>(q: &mut Q<S>) -> Vec<(u16, u16)> {
    q.drain()
        .map(|e| match e {
            SkelEvent::Clip { clip, event, .. } => (event.name, clip),
            SkelEvent::Finished { clip, .. } => (999, clip),
        })
        .collect()
}

fn names<S: Scalar>(q: &mut Q<S>) -> Vec<u16> {
    drain(q).into_iter().map(|(n, _)| n).collect()
}

const A: u16 = 10; // at 0
const B: u16 = 11; // at 0.25
const C: u16 = 12; // at 0.5
const D: u16 = 13; // at 1.0 (the end)
const FIN: u16 = 999;

fn one_bone<S: Scalar>() -> ([u16; 1], [Transform3<S>; 1]) {
    ([u16::MAX], [Transform3::IDENTITY])
}

// ---------------------------------------------------------------------------------------------
// Events

fn events_forward<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let events = [ev::<S>(0.0, A), ev(0.25, B), ev(0.5, C), ev(1.0, D)];
    let clips = [SliceSkelClip { duration: S::ONE, looping: true, tracks: &[], events: &events }];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(3);
    let mut q = Q::<S>::new();
    p.play(&clips, 0).unwrap();
    // First update after play: [0, 0.25] includes the start.
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(names(&mut q), [A, B]);
    // (0.25, 0.5]: B at the start time is not pushed again.
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(names(&mut q), [C]);
    // (0.5, 1] then the wrap: [0, 0] → D then A, ending at time 0.
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [D, A]);
    assert_eq!(p.current(), Some((0, S::ZERO)));
    // (0, 0.375]: A not again.
    p.update(&rig, s(0.375), &mut q).unwrap();
    assert_eq!(names(&mut q), [B]);
    // One wrap: (0.375, 1] then [0, 0.25] (0.375 + 0.875 = 1.25).
    p.update(&rig, s(0.875), &mut q).unwrap();
    assert_eq!(names(&mut q), [C, D, A, B]);
    close(p.current().unwrap().1, 0.25, tol::<S>());
    // Two wraps: 0.25 + 2.5 = 2.75 → (0.25, 1], [0, 1], [0, 0.75].
    p.update(&rig, s(2.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [C, D, A, B, C, D, A, B, C]);
    close(p.current().unwrap().1, 0.75, tol::<S>());
    // The events carry the player id, the clip index and the event itself.
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(q.pop(), Some(SkelEvent::Clip { player: 3, clip: 0, event: events[3] }));
    assert_eq!(q.pop(), Some(SkelEvent::Clip { player: 3, clip: 0, event: events[0] }));
    assert_eq!(q.pop(), None);
    // Many wraps: whole passes beyond MAX_FULL_PASSES_PER_UPDATE push nothing. From 0 by 20.5:
    // (0, 1] = B C D, then 19 whole passes capped at 16 × (A B C D), then [0, 0.5] = A B C.
    p.update(&rig, s(20.5), &mut q).unwrap();
    let got = names(&mut q);
    let mut want = vec![B, C, D];
    for _ in 0..MAX_FULL_PASSES_PER_UPDATE {
        want.extend([A, B, C, D]);
    }
    want.extend([A, B, C]);
    assert_eq!(got, want);
    assert_eq!(q.dropped(), 0);
}

fn events_backward<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let events = [ev::<S>(0.0, A), ev(0.25, B), ev(0.5, C), ev(1.0, D)];
    let clips = [SliceSkelClip { duration: S::ONE, looping: true, tracks: &[], events: &events }];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    p.set_speed(S::NEG_ONE);
    p.play(&clips, 0).unwrap();
    // Backwards play starts at the end; first update [0.75, 1] includes it.
    assert_eq!(p.current(), Some((0, S::ONE)));
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(names(&mut q), [D]);
    // [0.25, 0.75): descending.
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [C, B]);
    // From 0.25 by −0.5: [0, 0.25) → A, wrap, [0.75, 1] → D.
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [A, D]);
    close(p.current().unwrap().1, 0.75, tol::<S>());
    // Two wraps: from 0.75 by −2 → [0, 0.75) = C B A, [0, 1] descending = D C B A, [0.75, 1] = D.
    p.update(&rig, s(2.0), &mut q).unwrap();
    assert_eq!(names(&mut q), [C, B, A, D, C, B, A, D]);
    close(p.current().unwrap().1, 0.75, tol::<S>());
    // Landing exactly on 0 backwards pushes A (end included) and does not wrap yet…
    p.update(&rig, s(0.75), &mut q).unwrap();
    assert_eq!(names(&mut q), [C, B, A]);
    assert_eq!(p.current(), Some((0, S::ZERO)));
    // …the next update wraps: [0, 0) is empty (A was pushed), then [0.5, 1] = D C.
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [D, C]);
}

fn events_non_looping_seek_and_pause<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let events = [ev::<S>(0.0, A), ev(0.25, B), ev(0.5, C), ev(1.0, D)];
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: false, tracks: &[], events: &events },
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &[], events: &events },
    ];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    p.play(&clips, 0).unwrap();
    p.update(&rig, s(0.75), &mut q).unwrap();
    assert_eq!(names(&mut q), [A, B, C]);
    // Reaching the end: (0.75, 1], then Finished once; the time clamps.
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [D, FIN]);
    assert_eq!(p.current(), Some((0, S::ONE)));
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert!(q.is_empty());

    // A seek emits nothing, and the seek's time is excluded from the next interval.
    p.play(&clips, 1).unwrap();
    p.seek(&clips, s(0.5)).unwrap();
    assert!(q.is_empty());
    p.update(&rig, S::ZERO, &mut q).unwrap();
    assert!(q.is_empty());
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(names(&mut q), [D, A]);
    // Seek wraps a looping clip's time: 2.25 → 0.25; and clamps a non-looping one.
    p.seek(&clips, s(2.25)).unwrap();
    close(p.current().unwrap().1, 0.25, tol::<S>());
    p.set_looping(Some(false));
    p.seek(&clips, s(2.25)).unwrap();
    assert_eq!(p.current(), Some((1, S::ONE)));
    // The loop override: the looping clip now ends.
    p.seek(&clips, s(0.75)).unwrap();
    p.update(&rig, s(1.0), &mut q).unwrap();
    assert_eq!(names(&mut q), [D, FIN]);
    p.set_looping(None);

    // Paused: nothing moves.
    p.play(&clips, 1).unwrap();
    p.pause();
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert!(q.is_empty() && p.current() == Some((1, S::ZERO)) && p.is_paused());
    p.resume();
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(names(&mut q), [A, B]);
    // Speed 2: 0.125 s of dt is 0.25 s of clip.
    p.set_speed(S::TWO);
    p.update(&rig, s(0.125), &mut q).unwrap();
    assert_eq!(names(&mut q), [C]);
    // Stop: nothing plays, updates push nothing.
    p.stop();
    p.update(&rig, s(0.5), &mut q).unwrap();
    assert!(q.is_empty() && p.current().is_none());
    assert_eq!(p.seek(&clips, S::ZERO), Err(PlayerError::NotPlaying));
}

// ---------------------------------------------------------------------------------------------
// Root motion

/// θ(u) of nlerp between the identity and 90° about Z, at u: 2·atan2(u·sin 45°, 1 − u + u·cos 45°).
fn nlerp_angle(u: f64) -> f64 {
    2.0 * (u * FRAC_PI_4.sin()).atan2(1.0 - u + u * FRAC_PI_4.cos())
}

fn quat_z_angle<S: Scalar>(q: Quat<S>) -> f64 {
    assert!(q.x.to_f64().abs() < 1e-3 && q.y.to_f64().abs() < 1e-3, "not about Z: {q:?}");
    2.0 * q.z.to_f64().atan2(q.w.to_f64())
}

fn root_motion_3d<S: Scalar>() {
    // Two bones: the root walks x 0 → 10 and turns 0 → 90° about Z over a 1 s loop; the child
    // sits 1 unit up, not animated.
    let parents = [u16::MAX, 0];
    let rest =
        [Transform3::<S>::IDENTITY, Transform3::new(Vec3::new(S::ZERO, S::ONE, S::ZERO), Quat::IDENTITY, Vec3::ONE)];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times = [S::ZERO, S::ONE];
    let xs = [S::ZERO, S::ZERO, S::ZERO, s(10.0), S::ZERO, S::ZERO];
    let q1 = Quat::<S>::from_rotation_z(s(FRAC_PI_2));
    let rots = [S::ZERO, S::ZERO, S::ZERO, S::ONE, q1.x, q1.y, q1.z, q1.w];
    let tracks = [SliceTrack { channels: [Some(lin(&times, &xs)), Some(lin(&times, &rots)), None] }, SliceTrack::NONE];
    let clips = [SliceSkelClip { duration: S::ONE, looping: true, tracks: &tracks, events: &[] }];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 2> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
    p.play(&clips, 0).unwrap();

    // The brief's case: from 0.9 by 0.3 → (10 − 9) + (2 − 0) = +3.0 (decimal times: looser).
    let dec_tol = if S::EPSILON.to_f64() > 1e-6 { 2e-3 } else { 1e-4 };
    p.seek(&clips, s(0.9)).unwrap();
    let m = p.update(&rig, s(0.3), &mut q).unwrap();
    close(m.translation.x, 3.0, dec_tol);
    close(m.translation.y, 0.0, dec_tol);
    let t0 = p.current().unwrap().1.to_f64();
    let want = nlerp_angle(1.0) - nlerp_angle(0.9) + nlerp_angle(t0) - nlerp_angle(0.0);
    assert!(
        (quat_z_angle(m.rotation) - want).abs() < dec_tol.max(rot_tol::<S>()),
        "{} vs {want}",
        quat_z_angle(m.rotation)
    );

    // No wrap: 0.25 → 0.75 gives +5 and θ(0.75) − θ(0.25).
    let t = 25.0 * tol::<S>();
    p.seek(&clips, s(0.25)).unwrap();
    let m = p.update(&rig, s(0.5), &mut q).unwrap();
    close(m.translation.x, 5.0, t);
    assert!((quat_z_angle(m.rotation) - (nlerp_angle(0.75) - nlerp_angle(0.25))).abs() < rot_tol::<S>());
    // Two wraps: 0.5 by 2.25 → 2.75: (10 − 5) + 10 + 7.5 = 22.5; rotation 90° per loop adds up.
    p.seek(&clips, s(0.5)).unwrap();
    let m = p.update(&rig, s(2.25), &mut q).unwrap();
    close(m.translation.x, 22.5, t);
    let want = (nlerp_angle(1.0) - nlerp_angle(0.5)) + FRAC_PI_2 + nlerp_angle(0.75);
    // 225° of turn: compare as a rotation (mod 2π) through the quaternion's half-angle.
    let got = quat_z_angle(m.rotation).rem_euclid(2.0 * std::f64::consts::PI);
    assert!((got - want.rem_euclid(2.0 * std::f64::consts::PI)).abs() < 2.0 * rot_tol::<S>(), "{got} vs {want}");
    // A seek reports nothing (and the next update measures from the seek's time).
    p.seek(&clips, s(0.125)).unwrap();
    let m = p.update(&rig, S::ZERO, &mut q).unwrap();
    assert_eq!(m.translation, Vec3::ZERO);
    let m = p.update(&rig, s(0.125), &mut q).unwrap();
    close(m.translation.x, 1.25, t);
    // Backwards: from 0.25 by −0.5: (0 − 2.5) + (7.5 − 10) = −5.
    p.set_speed(S::NEG_ONE);
    p.seek(&clips, s(0.25)).unwrap();
    let m = p.update(&rig, s(0.5), &mut q).unwrap();
    close(m.translation.x, -5.0, t);
    close(p.current().unwrap().1, 0.75, tol::<S>());
    // Non-looping (override): from 0.75 by 0.5 clamps at the end: +2.5.
    p.set_speed(S::ONE);
    p.set_looping(Some(false));
    p.seek(&clips, s(0.75)).unwrap();
    let m = p.update(&rig, s(0.5), &mut q).unwrap();
    close(m.translation.x, 2.5, t);
    p.set_looping(None);

    // The pose: without removal the root is where the clip puts it; with removal it stays at the
    // clip's start (x 0, no turn), the child untouched.
    p.seek(&clips, s(0.5)).unwrap();
    let mut pose = [Transform3::IDENTITY; 2];
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 5.0, t);
    assert!((quat_z_angle(pose[0].rotation) - nlerp_angle(0.5)).abs() < rot_tol::<S>());
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: true }));
    p.evaluate(&rig, &mut pose).unwrap();
    assert_eq!(pose[0].translation, Vec3::ZERO);
    assert_eq!(pose[0].rotation, Quat::IDENTITY);
    assert_eq!(pose[1], rest[1]);
    // Without root motion, updates report none.
    p.set_root_motion(None);
    let m = p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(m.translation, Vec3::ZERO);
    // A root bone outside the skeleton is refused.
    p.set_root_motion(Some(RootMotionSettings { bone: 2, remove: false }));
    assert_eq!(p.update(&rig, s(0.25), &mut q), Err(PlayerError::NoSuchBone { bone: 2 }));
    assert_eq!(p.evaluate(&rig, &mut pose), Err(PlayerError::NoSuchBone { bone: 2 }));
}

/// A root bone whose rest rotation is not of unit length (and not keyed) turns by nothing, and the
/// reported rotation is a unit quaternion, also over an update that wraps a short loop many
/// times: the per-loop delta `R · R⁻¹` is the identity only once normalised (`R · conj(R)` is
/// `|R|²`, and with components near 1e20 the product overflows f32 at once), and raised to the
/// number of loops by repeated squaring it left the f32 range (NaN).
fn root_motion_of_a_non_unit_rest_rotation_is_a_unit_rotation<S: Scalar>() {
    for (z, w) in [(2.0, 4.0), (-1e20, 1e20)] {
        let parents = [u16::MAX];
        let rot = Quat::from_xyzw(S::ZERO, S::ZERO, s(z), s(w));
        let rest = [Transform3::new(Vec3::ZERO, rot, Vec3::ONE)];
        let skel = SliceSkeleton::new(&parents, &rest).unwrap();
        let len = 1.0 / 256.0;
        let times = [S::ZERO, s(len)];
        let xs = [S::ZERO, S::ZERO, S::ZERO, S::ONE, S::ZERO, S::ZERO];
        let tracks = [SliceTrack { channels: [Some(lin(&times, &xs)), None, None] }];
        let clips = [SliceSkelClip { duration: s(len), looping: true, tracks: &tracks, events: &[] }];
        let rig = Rig::new(&skel, &clips);
        let mut q = Q::<S>::new();
        // A quarter loop (no wrap), 2.5 loops, and 256,000 loops.
        for dt in [len / 4.0, 2.5 * len, 1000.0] {
            let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
            p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
            p.play(&clips, 0).unwrap();
            let m = p.update(&rig, s(dt), &mut q).unwrap();
            let r = m.rotation;
            let t = 4.0 * tol::<S>();
            close(r.x, 0.0, t);
            close(r.y, 0.0, t);
            close(r.z, 0.0, t);
            close(r.w, 1.0, t);
            assert!(m.translation.x.to_f64().is_finite(), "dt {dt}: translation {:?}", m.translation);
        }
    }
}

/// An update that wraps a looping clip as often as a `u32` counts (a `dt` of `S::MAX`) reports a
/// finite root motion with a unit rotation: the per-loop rotation raised to that power by
/// repeated squaring must not let rounding (a product a little off unit length, squared 31 times)
/// grow out of range (it gave NaN in f32).
fn root_motion_over_a_huge_number_of_loops_is_a_unit_rotation<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times = [S::ZERO, s(6.0)];
    let a = Quat::from_xyzw(s(2.0), s(-4.0), s(-4.0), s(3.25)).normalize();
    let rots = [a.x, a.y, a.z, a.w, S::HALF, S::HALF, S::HALF, S::HALF];
    let tracks = [SliceTrack { channels: [None, Some(lin(&times, &rots)), None] }];
    let clips = [SliceSkelClip { duration: s(15.94140625), looping: true, tracks: &tracks, events: &[] }];
    let rig = Rig::new(&skel, &clips);
    let mut q = Q::<S>::new();
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
    p.play(&clips, 0).unwrap();
    p.update(&rig, s(0.001), &mut q).unwrap();
    let r = p.update(&rig, S::MAX, &mut q).unwrap().rotation;
    let len = [r.x, r.y, r.z, r.w].iter().map(|c| c.to_f64() * c.to_f64()).sum::<f64>().sqrt();
    assert!((len - 1.0).abs() <= 4.0 * tol::<S>(), "rotation {r:?}");
}

/// Rotation keys far off unit length (each a rotation times a factor near the top of the scalar's
/// range), played with slerp: halfway between the keys the pose is the rotations' midpoint, and at
/// the fastest speed there is the root motion is a unit quaternion and the pose finite. Slerp took
/// the keys' dot product as the cosine of their angle, and with components near 3e38 it overflowed
/// f32 (inf − inf: NaN pose and root motion; found by fuzz skel_player).
fn slerp_of_keys_off_unit_length_is_a_unit_rotation<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let k = if S::ENCODING == ossicle::scalar::ScalarEncoding::F32 { 2.98e38 } else { 16000.0 };
    let a = Quat::<S>::from_xyzw(s(0.0), s(-0.99), s(0.1), s(-0.1)).normalize();
    let b = Quat::<S>::from_xyzw(s(0.1), s(-0.1), s(-0.99), s(0.1)).normalize();
    let big = |q: Quat<S>| [q.x, q.y, q.z, q.w].map(|c| c.mul(s(k)));
    let (ka, kb) = (big(a), big(b));
    let times = [s(1.0), s(6.0)];
    let rots = [ka[0], ka[1], ka[2], ka[3], kb[0], kb[1], kb[2], kb[3]];
    let tracks = [SliceTrack { channels: [None, Some(lin(&times, &rots)), None] }];
    let clips = [SliceSkelClip { duration: s(16.0), looping: true, tracks: &tracks, events: &[] }];
    let rig = Rig::new(&skel, &clips);
    let unit = |r: Quat<S>, what: &str| {
        let len = [r.x, r.y, r.z, r.w].iter().map(|c| c.to_f64() * c.to_f64()).sum::<f64>().sqrt();
        assert!((len - 1.0).abs() <= rot_tol::<S>(), "{what}: {r:?}");
    };
    let mut q = Q::<S>::new();
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
    p.set_rotation_interp(RotationInterp::Slerp);
    p.play(&clips, 0).unwrap();
    let mut pose = [Transform3::IDENTITY];
    // At 3.5 s, halfway between the keys: the slerp of a and b at ½ (the nlerp, as it happens).
    p.seek(&clips, s(3.5)).unwrap();
    p.evaluate(&rig, &mut pose).unwrap();
    let mid = Quat::nlerp(a, b, S::HALF);
    for (got, want) in [pose[0].rotation.x, pose[0].rotation.y, pose[0].rotation.z, pose[0].rotation.w]
        .into_iter()
        .zip([mid.x, mid.y, mid.z, mid.w])
    {
        close(got, want.to_f64(), 2.0 * rot_tol::<S>());
    }
    p.set_speed(S::MAX);
    let m = p.update(&rig, s(0.25), &mut q).unwrap();
    unit(m.rotation, "root motion");
    // Wherever that leaves the player, the pose is finite (a key's own value, at or outside the
    // keys, is the key as given: off unit length).
    p.evaluate(&rig, &mut pose).unwrap();
    let r = pose[0].rotation;
    assert!([r.x, r.y, r.z, r.w].iter().all(|c| c.to_f64().is_finite()), "pose {r:?}");
}

fn root_motion_2d<S: Scalar>() {
    // 2D: the root moves (0, 0) → (8, −4) and turns 0 → 1 rad over a 2 s loop (angles lerp).
    let parents = [u16::MAX];
    let rest = [Transform2::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times = [S::ZERO, S::TWO];
    let xy = [S::ZERO, S::ZERO, s(8.0), s(-4.0)];
    let ang = [S::ZERO, S::ONE];
    let tracks = [SliceTrack { channels: [Some(lin(&times, &xy)), Some(lin(&times, &ang)), None] }];
    let clips = [SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] }];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform2<S>, 1> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: true }));
    p.play(&clips, 0).unwrap();
    p.seek(&clips, s(1.5)).unwrap();
    // 1.5 by 1.0 → 2.5: (8 − 6, −4 + 3) + (2 − 0, −1 − 0) = (4, −2); angle (1 − 0.75) + 0.25 = 0.5.
    let m = p.update(&rig, S::ONE, &mut q).unwrap();
    close(m.translation.x, 4.0, 10.0 * tol::<S>());
    close(m.translation.y, -2.0, 10.0 * tol::<S>());
    close(m.angle, 0.5, 4.0 * tol::<S>());
    let mut pose = [Transform2::IDENTITY; 1];
    p.evaluate(&rig, &mut pose).unwrap();
    assert_eq!(pose[0], Transform2::IDENTITY);
}

// ---------------------------------------------------------------------------------------------
// Crossfade

fn crossfade<S: Scalar>() {
    // Clip 0: x 0 → 4 over 1 s, rotation identity. Clip 1: x 0 → 8 over 1 s, 90° about Z held.
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times = [S::ZERO, S::ONE];
    let x4 = [S::ZERO, S::ZERO, S::ZERO, s(4.0), S::ZERO, S::ZERO];
    let x8 = [S::ZERO, S::ZERO, S::ZERO, s(8.0), S::ZERO, S::ZERO];
    let q1 = Quat::<S>::from_rotation_z(s(FRAC_PI_2));
    let rot = [q1.x, q1.y, q1.z, q1.w];
    let t0 = [S::ZERO];
    let tracks0 = [SliceTrack { channels: [Some(lin(&times, &x4)), None, None] }];
    let tracks1 = [SliceTrack { channels: [Some(lin(&times, &x8)), Some(lin(&t0, &rot)), None] }];
    let e0 = [ev::<S>(0.5, A)];
    let e1 = [ev::<S>(0.25, B)];
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tracks0, events: &e0 },
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tracks1, events: &e1 },
    ];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    let mut pose = [Transform3::IDENTITY; 1];
    let t = 10.0 * tol::<S>();
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
    p.play(&clips, 0).unwrap();
    p.update(&rig, s(0.25), &mut q).unwrap();
    p.crossfade(&clips, 1, S::ONE).unwrap();
    assert_eq!(p.fade_weight(), S::ZERO);
    assert_eq!(p.current(), Some((1, S::ZERO)));
    assert_eq!(p.outgoing(), Some((0, s(0.25))));
    // At w = 0 the pose is the outgoing clip's: x = 4 × 0.25 = 1.
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 1.0, t);
    // dt 0.5: clip 0 at 0.75 (x 3), clip 1 at 0.5 (x 4), w = 0.5: x = 0.5·3 + 0.5·4 = 3.5; the
    // rotation half-way between identity and 90°: 45°. Root motion: clip 0 moved 2, clip 1
    // moved 4 (and turned 0): blended 3. Events: the outgoing clip's A (0.5) first, then the
    // incoming clip's B ([0, 0.5] includes 0.25).
    let m = p.update(&rig, s(0.5), &mut q).unwrap();
    assert_eq!(drain(&mut q), [(A, 0), (B, 1)]);
    close(m.translation.x, 3.0, t);
    close(p.fade_weight(), 0.5, tol::<S>());
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 3.5, t);
    assert!((quat_z_angle(pose[0].rotation) - FRAC_PI_4).abs() < rot_tol::<S>());
    // dt 0.25: clip 0 at 1.0 → 0 (x 0), clip 1 at 0.75 (x 6), w = 0.75: x = 0.25·0 + 0.75·6 = 4.5;
    // the rotation: nlerp(identity, 90°, 0.75) = θ(0.75).
    p.update(&rig, s(0.25), &mut q).unwrap();
    close(p.fade_weight(), 0.75, tol::<S>());
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 4.5, t);
    assert!((quat_z_angle(pose[0].rotation) - nlerp_angle(0.75)).abs() < rot_tol::<S>());
    // dt 0.25: the fade completes, the outgoing clip is dropped; clip 1 at 1.0 → 0: x 0.
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(p.outgoing(), None);
    assert_eq!(p.fade_weight(), S::ONE);
    p.update(&rig, s(0.125), &mut q).unwrap();
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 1.0, t);
    // A zero-length crossfade is a play; a crossfade with nothing playing is a play.
    p.crossfade(&clips, 0, S::ZERO).unwrap();
    assert_eq!(p.outgoing(), None);
    p.stop();
    p.crossfade(&clips, 1, S::ONE).unwrap();
    assert_eq!((p.current(), p.outgoing()), (Some((1, S::ZERO)), None));
    // Stopped: the rest pose.
    p.stop();
    p.evaluate(&rig, &mut pose).unwrap();
    assert_eq!(pose[0], Transform3::IDENTITY);
}

fn crossfade_2d_and_refade<S: Scalar>() {
    // 2D: clip 0 holds angle 0 and x 0, clip 1 holds angle 1 and x 8, clip 2 holds angle −1, x −8.
    let parents = [u16::MAX];
    let rest = [Transform2::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let t0 = [S::ZERO];
    let (x0, x8, xm8) = ([S::ZERO, S::ZERO], [s(8.0), S::ZERO], [s(-8.0), S::ZERO]);
    let (a0, a1, am1) = ([S::ZERO], [S::ONE], [S::NEG_ONE]);
    let tr0 = [SliceTrack { channels: [Some(lin(&t0, &x0)), Some(lin(&t0, &a0)), None] }];
    let tr1 = [SliceTrack { channels: [Some(lin(&t0, &x8)), Some(lin(&t0, &a1)), None] }];
    let tr2 = [SliceTrack { channels: [Some(lin(&t0, &xm8)), Some(lin(&t0, &am1)), None] }];
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tr0, events: &[] },
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tr1, events: &[] },
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tr2, events: &[] },
    ];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform2<S>, 1> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    let mut pose = [Transform2::IDENTITY; 1];
    p.play(&clips, 0).unwrap();
    // Crossfade over 2 s; after 0.5 s, w = 0.25: x 2, angle 0.25.
    p.crossfade(&clips, 1, S::TWO).unwrap();
    p.update(&rig, S::HALF, &mut q).unwrap();
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 2.0, 10.0 * tol::<S>());
    close(pose[0].angle, 0.25, 4.0 * tol::<S>());
    // A crossfade during a crossfade: clip 0 (the older outgoing clip) is dropped; clip 1 fades
    // out against clip 2 over 1 s. After 0.25 s: w = 0.25: x 0.75·8 − 0.25·8 = 4, angle 0.5.
    p.crossfade(&clips, 2, S::ONE).unwrap();
    assert_eq!(p.outgoing().map(|o| o.0), Some(1));
    p.update(&rig, s(0.25), &mut q).unwrap();
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 4.0, 10.0 * tol::<S>());
    close(pose[0].angle, 0.5, 4.0 * tol::<S>());
}

fn events_non_looping_backward<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let events = [ev::<S>(0.0, A), ev(0.25, B), ev(0.5, C), ev(1.0, D)];
    let clips = [SliceSkelClip { duration: S::ONE, looping: false, tracks: &[], events: &events }];
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
    let mut q = Q::<S>::new();
    p.set_speed(s(-0.5));
    p.play(&clips, 0).unwrap();
    // From the end backwards at half speed: 0.5 s of dt is 0.25 s of clip: [0.75, 1] → D.
    p.update(&rig, S::HALF, &mut q).unwrap();
    assert_eq!(names(&mut q), [D]);
    // 2 s more: −1 clamps at 0: [0, 0.75) → C B A, then Finished.
    p.update(&rig, S::TWO, &mut q).unwrap();
    assert_eq!(names(&mut q), [C, B, A, FIN]);
    assert_eq!(p.current(), Some((0, S::ZERO)));
    p.update(&rig, S::ONE, &mut q).unwrap();
    assert!(q.is_empty());
    // Turned forwards again it plays on from 0 (A at 0 is excluded: it was the last interval's end).
    p.set_speed(S::ONE);
    p.update(&rig, s(0.25), &mut q).unwrap();
    assert_eq!(names(&mut q), [B]);
}

/// Events at one time crossed backwards come in descending index order even when the interval is
/// a single point: the first update after a `play` at 0 with the speed turned negative covers
/// `[0, 0]` (a non-looping clip stays at 0; a looping one then wraps to `[0.75, 1]`).
fn events_backward_at_a_single_time_descend<S: Scalar>() {
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    const A2: u16 = 20; // at 0, after A
    const D2: u16 = 23; // at 1, after D
    let events = [ev::<S>(0.0, A), ev(0.0, A2), ev(0.5, C), ev(1.0, D), ev(1.0, D2)];
    for looping in [false, true] {
        let clips = [SliceSkelClip { duration: S::ONE, looping, tracks: &[], events: &events }];
        let rig = Rig::new(&skel, &clips);
        let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(0);
        let mut q = Q::<S>::new();
        p.play(&clips, 0).unwrap();
        assert_eq!(p.current(), Some((0, S::ZERO)));
        p.set_speed(S::NEG_ONE);
        p.update(&rig, s(0.25), &mut q).unwrap();
        if looping {
            assert_eq!(names(&mut q), [A2, A, D2, D]);
            assert_eq!(p.current(), Some((0, s(0.75))));
        } else {
            assert_eq!(names(&mut q), [A2, A]);
            assert_eq!(p.current(), Some((0, S::ZERO)));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Blend spaces

fn blend_space_1d<S: Scalar>() {
    let pts = [s::<S>(-1.0), S::ZERO, S::TWO];
    let bs = BlendSpace1D::new(&pts).unwrap();
    let one = S::ONE;
    assert_eq!(bs.weights(s(-5.0)).as_slice(), &[(0, one)]);
    assert_eq!(bs.weights(s(-1.0)).as_slice(), &[(0, one)]);
    assert_eq!(bs.weights(S::ZERO).as_slice(), &[(1, one)]);
    // 0.5 between 0 and 2: u = 0.25.
    assert_eq!(bs.weights(S::HALF).as_slice(), &[(1, s(0.75)), (2, s(0.25))]);
    // −0.5 between −1 and 0: half each.
    assert_eq!(bs.weights(s(-0.5)).as_slice(), &[(0, S::HALF), (1, S::HALF)]);
    assert_eq!(bs.weights(S::TWO).as_slice(), &[(2, one)]);
    assert_eq!(bs.weights(s(7.0)).as_slice(), &[(2, one)]);
    let w = bs.weights(s(1.5));
    assert_eq!(w.weight(2), s(0.75));
    assert_eq!(w.weight(0), S::ZERO);
    assert_eq!(w.heaviest(), Some((2, s(0.75))));
    // One point: always it.
    let single = [S::ONE];
    assert_eq!(BlendSpace1D::new(&single).unwrap().weights(s(-3.0)).as_slice(), &[(0, one)]);
    assert_eq!(BlendSpace1D::<S>::new(&[]).unwrap_err(), BlendSpaceError::Empty);
    let bad = [S::ZERO, S::ONE, S::ONE];
    assert_eq!(BlendSpace1D::new(&bad).unwrap_err(), BlendSpaceError::NotSorted { index: 2 });
}

fn blend_space_2d<S: Scalar>() {
    let v = |x: f64, y: f64| Vec2::new(s::<S>(x), s::<S>(y));
    // The unit square split along its diagonal 0–2.
    let pts = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
    let tris = [[0u16, 1, 2], [0, 2, 3]];
    let bs = BlendSpace2D::new(&pts, &tris).unwrap();
    let h = S::HALF;
    let q = s::<S>(0.25);
    // Corners.
    assert_eq!(bs.weights(v(1.0, 1.0)).as_slice(), &[(2, S::ONE)]);
    assert_eq!(bs.weights(v(0.0, 1.0)).as_slice(), &[(3, S::ONE)]);
    // An edge's midpoint.
    assert_eq!(bs.weights(v(0.5, 0.0)).as_slice(), &[(0, h), (1, h)]);
    // Inside the first triangle: 0.25·(0,0) + 0.5·(1,0) + 0.25·(1,1) = (0.75, 0.25).
    assert_eq!(bs.weights(v(0.75, 0.25)).as_slice(), &[(0, q), (1, h), (2, q)]);
    // Inside the second: 0.25·(0,0) + 0.25·(1,1) + 0.5·(0,1) = (0.25, 0.75).
    assert_eq!(bs.weights(v(0.25, 0.75)).as_slice(), &[(0, q), (2, q), (3, h)]);
    // Outside, right of the edge 1–2: nearest point (1, 0.5), half each.
    assert_eq!(bs.weights(v(2.0, 0.5)).as_slice(), &[(1, h), (2, h)]);
    // Outside, beyond corner 0: all of point 0.
    assert_eq!(bs.weights(v(-1.0, -1.0)).as_slice(), &[(0, S::ONE)]);
    // Outside above the edge 2–3 at x = 0.25: nearest (0.25, 1): 0.75 of 3... the edge runs
    // 2 → 3 in triangle [0, 2, 3], u = 0.75 from point 2.
    assert_eq!(bs.weights(v(0.25, 3.0)).as_slice(), &[(2, q), (3, s(0.75))]);
    // Errors.
    assert_eq!(BlendSpace2D::new(&pts, &[[0, 1, 4]]).unwrap_err(), BlendSpaceError::BadIndex { triangle: 0 });
    let line = [v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)];
    assert_eq!(BlendSpace2D::new(&line, &[[0, 1, 2]]).unwrap_err(), BlendSpaceError::Degenerate { triangle: 0 });
    assert_eq!(BlendSpace2D::new(&pts, &[]).unwrap_err(), BlendSpaceError::Empty);
}

fn sync_phase<S: Scalar>() {
    let pts = [S::ZERO, S::ONE, S::TWO];
    let bs = BlendSpace1D::new(&pts).unwrap();
    let w = bs.weights(s(1.5)); // half of clip 1, half of clip 2
    let lengths = [S::ONE, s(0.75), S::HALF];
    let mut ph = SyncPhase::new();
    // Cycle 0.5·0.75 + 0.5·0.5 = 0.625 s; 0.3125 s is half a cycle.
    let cycle = ph.advance(s(0.3125), &w, &lengths);
    close(cycle, 0.625, tol::<S>());
    close(ph.phase(), 0.5, tol::<S>());
    close(ph.time_in(lengths[1]), 0.375, tol::<S>());
    close(ph.time_in(lengths[2]), 0.25, tol::<S>());
    // Wraps: another 0.46875 s (0.75 cycle) → phase 0.25.
    ph.advance(s(0.46875), &w, &lengths);
    close(ph.phase(), 0.25, tol::<S>());
    // Backwards by 0.3125 s: phase −0.25 → 0.75.
    ph.advance(s(-0.3125), &w, &lengths);
    close(ph.phase(), 0.75, tol::<S>());
    // No durations for a weighted point: nothing moves.
    assert_eq!(ph.advance(S::ONE, &w, &lengths[..1]), S::ZERO);
    close(ph.phase(), 0.75, tol::<S>());
}

/// A blend space played through the jobs: the clips sampled at the shared phase and blended with
/// the space's weights.
fn blend_space_pose<S: Scalar>() {
    use ossicle::skeleton::{BlendLayer, BlendingJob, SamplingContext, SamplingJob};
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    // Clip 0 (1 s): x 0 → 4. Clip 1 (0.5 s): x 0 → 8.
    let t1 = [S::ZERO, S::ONE];
    let th = [S::ZERO, S::HALF];
    let x4 = [S::ZERO, S::ZERO, S::ZERO, s(4.0), S::ZERO, S::ZERO];
    let x8 = [S::ZERO, S::ZERO, S::ZERO, s(8.0), S::ZERO, S::ZERO];
    let tr0 = [SliceTrack { channels: [Some(lin(&t1, &x4)), None, None] }];
    let tr1 = [SliceTrack { channels: [Some(lin(&th, &x8)), None, None] }];
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tr0, events: &[] },
        SliceSkelClip { duration: S::HALF, looping: true, tracks: &tr1, events: &[] },
    ];
    let pts = [S::ZERO, S::ONE];
    let w = BlendSpace1D::new(&pts).unwrap().weights(s(0.25)); // 0.75 of clip 0, 0.25 of clip 1
    let durations = [S::ONE, S::HALF];
    let mut ph = SyncPhase::new();
    // Cycle 0.75·1 + 0.25·0.5 = 0.875 s; advance 0.4375 s: phase 0.5.
    ph.advance(s(0.4375), &w, &durations);
    close(ph.phase(), 0.5, tol::<S>());
    let mut poses = [[Transform3::<S>::IDENTITY; 1]; 2];
    let mut ctx = [SamplingContext::<1>::new(), SamplingContext::<1>::new()];
    for (i, (pose, ctx)) in poses.iter_mut().zip(ctx.iter_mut()).enumerate() {
        SamplingJob::new(&skel, &clips[i], ph.time_in(durations[i])).run(ctx, pose).unwrap();
    }
    let layers: Vec<_> = w.as_slice().iter().map(|&(i, wt)| BlendLayer::new(&poses[usize::from(i)][..], wt)).collect();
    let mut out = [Transform3::IDENTITY; 1];
    BlendingJob::new(&skel, &layers).run(&mut out).unwrap();
    // Clip 0 at 0.5 s: x 2; clip 1 at 0.25 s: x 4; blended 0.75·2 + 0.25·4 = 2.5.
    close(out[0].translation.x, 2.5, 10.0 * tol::<S>());
}

fn blend_space_player<S: Scalar>() {
    use ossicle::skeleton::BlendSpacePlayer;
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    // Clip 0 (1 s): x 0 → 4, event A at 0.5. Clip 1 (0.5 s): x 0 → 8, event C at 0.375.
    let t1 = [S::ZERO, S::ONE];
    let th = [S::ZERO, S::HALF];
    let x4 = [S::ZERO, S::ZERO, S::ZERO, s(4.0), S::ZERO, S::ZERO];
    let x8 = [S::ZERO, S::ZERO, S::ZERO, s(8.0), S::ZERO, S::ZERO];
    let tr0 = [SliceTrack { channels: [Some(lin(&t1, &x4)), None, None] }];
    let tr1 = [SliceTrack { channels: [Some(lin(&th, &x8)), None, None] }];
    let e0 = [ev::<S>(0.5, A)];
    let e1 = [ev::<S>(0.375, C)];
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tr0, events: &e0 },
        SliceSkelClip { duration: S::HALF, looping: false, tracks: &tr1, events: &e1 },
    ];
    let rig = Rig::new(&skel, &clips);
    let pts = [S::ZERO, S::ONE];
    let space = BlendSpace1D::new(&pts).unwrap();
    let point_clips = [0u16, 1];
    let mut p: BlendSpacePlayer<S, Transform3<S>, 1> = BlendSpacePlayer::new(6);
    let mut q = Q::<S>::new();
    let mut pose = [Transform3::IDENTITY; 1];
    let t = 10.0 * tol::<S>();
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
    // No weights: nothing moves, the rest pose.
    assert_eq!(p.update(&rig, &point_clips, S::ONE, &mut q).unwrap().translation, Vec3::ZERO);
    p.evaluate(&rig, &point_clips, &mut pose).unwrap();
    assert_eq!(pose[0], Transform3::IDENTITY);
    // At 0.25: 0.75 of clip 0, 0.25 of clip 1; cycle 0.75·1 + 0.25·0.5 = 0.875 s.
    p.set_weights(space.weights(s(0.25)));
    p.update(&rig, &point_clips, s(0.4375), &mut q).unwrap();
    // (That first update ran from the start: phase 0 → 0.5; events of the heaviest clip, clip 0,
    // over [0, 0.5]: A.)
    assert_eq!(drain(&mut q), [(A, 0)]);
    close(p.phase().phase(), 0.5, tol::<S>());
    // Pose: clip 0 at 0.5 (x 2), clip 1 at 0.25 (x 4): 0.75·2 + 0.25·4 = 2.5.
    p.evaluate(&rig, &point_clips, &mut pose).unwrap();
    close(pose[0].translation.x, 2.5, t);
    // At 0.75: 0.25 and 0.75, cycle 0.25 + 0.375 = 0.625 s; 0.3125 s → phase 1 → 0 (a wrap).
    // Events: now clip 1's (heaviest), its interval 0.25 → 0.5 and round to 0: C (0.375).
    // Root motion: clip 0 from 0.5 across the end to 0: (4 − 2) + 0 = 2; clip 1 from 0.25 to the
    // end: (8 − 4) = 4 (the clip's own loop flag is ignored: blend spaces loop); blended
    // 2 + 0.75·(4 − 2) = 3.5.
    p.set_weights(space.weights(s(0.75)));
    let m = p.update(&rig, &point_clips, s(0.3125), &mut q).unwrap();
    assert_eq!(drain(&mut q), [(C, 1)]);
    close(p.phase().phase(), 0.0, tol::<S>());
    close(m.translation.x, 3.5, t);
    // One weight: that clip alone. At 0 → clip 0; seek to phase 0.25: x 1.
    p.set_weights(space.weights(S::ZERO));
    p.seek_phase(s(0.25));
    p.evaluate(&rig, &point_clips, &mut pose).unwrap();
    close(pose[0].translation.x, 1.0, t);
    // A weighted point without a clip.
    p.set_weights(space.weights(S::ONE));
    assert_eq!(p.evaluate(&rig, &point_clips[..1], &mut pose), Err(PlayerError::NoClipForPoint { point: 1 }));
    assert_eq!(
        p.update(&rig, &point_clips[..1], S::ONE, &mut q).map(|_| ()),
        Err(PlayerError::NoClipForPoint { point: 1 })
    );
}

// ---------------------------------------------------------------------------------------------
// One-shot

fn one_shot<S: Scalar>() {
    // Two bones at rest x = 0; the one-shot puts both at x = 4 (one key).
    let parents = [u16::MAX, 0];
    let rest = [Transform3::<S>::IDENTITY; 2];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let t0 = [S::ZERO];
    let x = [s(4.0), S::ZERO, S::ZERO];
    let track = SliceTrack { channels: [Some(lin(&t0, &x)), None, None] };
    let tracks = [track, track];
    let events = [ev::<S>(1.0, C)];
    let clips = [SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &events }];
    let rig = Rig::new(&skel, &clips);
    let mut shot: OneShot<S, Transform3<S>, 2> = OneShot::new(5);
    let mut q = Q::<S>::new();
    let base = [Transform3::<S>::IDENTITY; 2];
    let mask = [S::ONE, S::HALF];
    let mut out = [Transform3::IDENTITY; 2];
    // Inactive: the base pose.
    assert_eq!(shot.weight(&clips), S::ZERO);
    shot.apply(&rig, &base, Some(&mask), &mut out).unwrap();
    assert_eq!(out, base);
    // L = 2, fade in 0.5, fade out 1: w(t) = min(1, t/0.5, (2 − t)/1).
    shot.play(&clips, 0, S::HALF, S::ONE).unwrap();
    let expect = |shot: &mut OneShot<S, Transform3<S>, 2>, q: &mut Q<S>, dt: f64, w: f64| {
        shot.update(&clips, s(dt), q).unwrap();
        close(shot.weight(&clips), w, tol::<S>());
    };
    expect(&mut shot, &mut q, 0.0, 0.0);
    expect(&mut shot, &mut q, 0.25, 0.5);
    // The pose at w = 0.5: bone 0 (mask 1) base weight 0.5, shot 0.5 → x 2; bone 1 (mask 0.5)
    // base 0.75, shot 0.25 → x 1.
    shot.apply(&rig, &base, Some(&mask), &mut out).unwrap();
    close(out[0].translation.x, 2.0, 10.0 * tol::<S>());
    close(out[1].translation.x, 1.0, 10.0 * tol::<S>());
    // Without a mask every bone follows w.
    shot.apply(&rig, &base, None, &mut out).unwrap();
    close(out[1].translation.x, 2.0, 10.0 * tol::<S>());
    expect(&mut shot, &mut q, 0.25, 1.0);
    expect(&mut shot, &mut q, 0.5, 1.0);
    shot.apply(&rig, &base, Some(&mask), &mut out).unwrap();
    close(out[0].translation.x, 4.0, 10.0 * tol::<S>());
    close(out[1].translation.x, 2.0, 10.0 * tol::<S>());
    assert_eq!(names(&mut q), [C]); // crossed 1.0 s
    expect(&mut shot, &mut q, 0.5, 0.5);
    expect(&mut shot, &mut q, 0.25, 0.25);
    // Reaching the end: Finished (the clip's own loop flag is ignored), then inactive.
    shot.update(&clips, S::ONE, &mut q).unwrap();
    assert_eq!(q.pop(), Some(SkelEvent::Finished { player: 5, clip: 0 }));
    assert!(!shot.is_active());
    shot.apply(&rig, &base, Some(&mask), &mut out).unwrap();
    assert_eq!(out, base);
    // Overlapping fades: L 2, in 1.5, out 1.5: at t = 1, min(1/1.5, 1/1.5) = 2/3.
    shot.play(&clips, 0, s(1.5), s(1.5)).unwrap();
    shot.update(&clips, S::ONE, &mut q).unwrap();
    close(shot.weight(&clips), 2.0 / 3.0, tol::<S>());
    // No fades: weight 1 throughout.
    shot.play(&clips, 0, S::ZERO, S::ZERO).unwrap();
    close(shot.weight(&clips), 1.0, 0.0);
    // A short mask is refused.
    assert_eq!(
        shot.apply(&rig, &base, Some(&mask[..1]), &mut out),
        Err(PlayerError::Job(JobError::MaskTooSmall { needed: 2, got: 1 }))
    );
}

// ---------------------------------------------------------------------------------------------
// Sync markers

fn sync_markers<S: Scalar>() {
    const L: u16 = 1;
    const R: u16 = 2;
    const X: u16 = 3;
    let m = |t: f64, name: u16| SyncMarker { time: s::<S>(t), name };
    // Walk 1 s: L at 0.125, R at 0.625. Run 0.5 s: L at 0, R at 0.25.
    let walk_m = [m(0.125, L), m(0.625, R)];
    let run_m = [m(0.0, L), m(0.25, R)];
    let walk = MarkerTrack { markers: &walk_m, duration: S::ONE, looping: true };
    let run = MarkerTrack { markers: &run_m, duration: S::HALF, looping: true };
    // Walk at 0.25: 1/4 of L→R (0.125 → 0.625) → run at 0 + 0.25·0.25 = 0.0625.
    let r = sync_time(&walk, s(0.25), &run, S::ZERO);
    assert!(r.by_markers);
    close(r.time, 0.0625, tol::<S>());
    // Walk at 0.875: 1/2 of R→L across the loop end (0.625 → 1.125): run R→L spans
    // 0.25 → 0.5 (wrapping to 0): 0.25 + 0.5·0.25 = 0.375.
    let r = sync_time(&walk, s(0.875), &run, S::ZERO);
    assert!(r.by_markers);
    close(r.time, 0.375, tol::<S>());
    // Walk at 0.0625, before its first marker: still R→L, (0.0625 + 1 − 0.625)/0.5 = 0.875 of it:
    // run 0.25 + 0.875·0.25 = 0.46875.
    let r = sync_time(&walk, s(0.0625), &run, S::ZERO);
    close(r.time, 0.46875, tol::<S>());
    // A follower without the pair falls back to normalised time: walk at 0.25 → 0.25 × 0.5.
    let other_m = [m(0.0, X), m(0.25, R)];
    let other = MarkerTrack { markers: &other_m, duration: S::HALF, looping: true };
    let r = sync_time(&walk, s(0.25), &other, S::ZERO);
    assert!(!r.by_markers);
    close(r.time, 0.125, tol::<S>());
    // A non-looping leader after its last marker has no pair: fallback.
    let walk_once = MarkerTrack { markers: &walk_m, duration: S::ONE, looping: false };
    let r = sync_time(&walk_once, s(0.75), &run, S::ZERO);
    assert!(!r.by_markers);
    close(r.time, 0.375, tol::<S>());
    // No markers: fallback.
    let bare = MarkerTrack { markers: &[], duration: S::ONE, looping: true };
    assert!(!sync_time(&bare, s(0.5), &run, S::ZERO).by_markers);
    // Two candidate pairs: the one nearest the follower's current time wins.
    let twice_m = [m(0.0, L), m(0.25, R), m(0.5, L), m(0.75, R)];
    let twice = MarkerTrack { markers: &twice_m, duration: S::ONE, looping: true };
    let r = sync_time(&walk, s(0.25), &twice, s(0.5));
    close(r.time, 0.5625, tol::<S>());
    let r = sync_time(&walk, s(0.25), &twice, s(0.125));
    close(r.time, 0.0625, tol::<S>());
    // Markers from events whose names are in the marker set.
    let events = [ev::<S>(0.125, L), ev(0.25, 77), ev(0.625, R)];
    let clip = SliceSkelClip { duration: S::ONE, looping: true, tracks: &[], events: &events };
    let mut out = [m(0.0, 0); 4];
    assert_eq!(collect_markers(&clip, &[L, R], &mut out), 2);
    assert_eq!(&out[..2], &walk_m);
    assert_eq!(collect_markers(&clip, &[L, R], &mut out[..1]), 1);
}

fn players_follow_markers<S: Scalar>() {
    const L: u16 = 1;
    const R: u16 = 2;
    let (parents, rest) = one_bone::<S>();
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    // Clip 0: walk, 1 s, feet at 0.125 (L) and 0.625 (R). Clip 1: run, 0.5 s, feet at 0 and 0.25.
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &[], events: &[] },
        SliceSkelClip { duration: S::HALF, looping: true, tracks: &[], events: &[] },
    ];
    let rig = Rig::new(&skel, &clips);
    let m = |t: f64, name: u16| SyncMarker { time: s::<S>(t), name };
    let walk_m = [m(0.125, L), m(0.625, R)];
    let run_m = [m(0.0, L), m(0.25, R)];
    let walk = MarkerTrack { markers: &walk_m, duration: S::ONE, looping: true };
    let run = MarkerTrack { markers: &run_m, duration: S::HALF, looping: true };
    let mut leader: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(1);
    let mut follower: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(2);
    let mut q = Q::<S>::new();
    leader.play(&clips, 0).unwrap();
    follower.play(&clips, 1).unwrap();
    // Both advance 0.375 s: the leader at 0.375 (half of L→R), the follower at 0.375 by itself;
    // following puts it half-way between its L (0) and R (0.25): 0.125.
    leader.update(&rig, s(0.375), &mut q).unwrap();
    follower.update(&rig, s(0.375), &mut q).unwrap();
    assert!(follower.follow(&clips, &walk, leader.current().unwrap().1, &run).unwrap());
    close(follower.current().unwrap().1, 0.125, tol::<S>());
    // Another 0.5 s: the leader at 0.875 (half of R→L across the end): the follower at 0.375.
    leader.update(&rig, s(0.5), &mut q).unwrap();
    follower.update(&rig, s(0.5), &mut q).unwrap();
    assert!(follower.follow(&clips, &walk, leader.current().unwrap().1, &run).unwrap());
    close(follower.current().unwrap().1, 0.375, tol::<S>());
    // Unmatched markers: normalised time, 0.875 × 0.5.
    let other_m = [m(0.0, 9)];
    let other = MarkerTrack { markers: &other_m, duration: S::HALF, looping: true };
    assert!(!follower.follow(&clips, &walk, leader.current().unwrap().1, &other).unwrap());
    close(follower.current().unwrap().1, 0.4375, tol::<S>());
    follower.stop();
    assert_eq!(follower.follow(&clips, &walk, S::ZERO, &run), Err(PlayerError::NotPlaying));
}

/// The player on clips read in place from a blob (f32 or Q16.16 words, as the scalar type says):
/// events with names from the blob's string table, root motion across the loop end.
fn blob_clip<S: Scalar>() {
    use ossicle::asset::Asset;
    use ossicle_format::skeleton::{pack_channels, ChannelRecord, SkelClipBody, SkeletonBody, INTERP_LINEAR};
    use ossicle_format::BlobWriter;
    let le = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let word = |v: f64| S::from_f64(v).to_blob_bits();
    let mut w = BlobWriter::new(S::ENCODING);
    let (rig, root, walk) = (w.intern("rig"), w.intern("root"), w.intern("walk"));
    let (left, right) = (w.intern("left"), w.intern("right"));
    // One 3D bone (a root), rest: translation 0, rotation identity, scale 1.
    let bones = le(&[0xFFFF, root]);
    let rest = le(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0].map(word));
    w.add_skeleton(&SkeletonBody { name: rig, dimension: 3, bones: &bones, rest: &rest }).unwrap();
    // Translation x 0 → 10 over the 1 s loop: times at word 0, values at word 2.
    let info = ChannelRecord::make_info(2, INTERP_LINEAR, false);
    let (entries, channels) = pack_channels(&[[info, 0, 2, 0], [0; 4], [0; 4]]);
    let data = le(&[0.0, 1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0].map(word));
    let events = le(&[word(0.25), left, word(0.75), right]);
    w.add_skel_clip(&SkelClipBody {
        name: walk,
        skeleton: rig,
        dimension: 3,
        flags: 1,
        duration: word(1.0),
        sample_rate: word(30.0),
        bones: &entries,
        channels: &channels,
        data: &data,
        quant: &[],
        times: &[],
        time_index: &[],
        events: &events,
    })
    .unwrap();
    let bytes = w.finish().unwrap();
    let asset = Asset::load(&bytes).unwrap();
    let clips = [asset.skel_clip_named("walk").unwrap()];
    let skel = asset.skeleton_of(&clips[0]).unwrap();
    let rig = Rig::new(&skel, &clips);
    let mut p: AnimPlayer<S, Transform3<S>, 1> = AnimPlayer::new(4);
    let mut q = Q::<S>::new();
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: false }));
    p.play(&clips, 0).unwrap();
    p.seek(&clips, S::HALF).unwrap();
    // 0.5 by 0.75 → 1.25: (10 − 5) + (2.5 − 0) = 7.5; events "right" (0.75) then "left" (0.25).
    let m = p.update(&rig, s(0.75), &mut q).unwrap();
    close(m.translation.x, 7.5, 25.0 * tol::<S>());
    assert_eq!(drain(&mut q), [(right as u16, 0), (left as u16, 0)]);
    let mut pose = [Transform3::IDENTITY; 1];
    p.evaluate(&rig, &mut pose).unwrap();
    close(pose[0].translation.x, 2.5, 25.0 * tol::<S>());
}

// ---------------------------------------------------------------------------------------------
// Errors and robustness

fn errors_and_robustness<S: Scalar>() {
    let parents = [u16::MAX, 0, 1];
    let rest = [Transform3::<S>::IDENTITY; 3];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times = [S::ZERO, S::ONE];
    let xs = [S::ZERO, S::ZERO, S::ZERO, s(10.0), S::ZERO, S::ZERO];
    let tracks = [SliceTrack { channels: [Some(lin(&times, &xs)), None, None] }];
    let events = [ev::<S>(0.0, A), ev(0.5, C), ev(1.0, D)];
    let clips = [
        SliceSkelClip { duration: S::ONE, looping: true, tracks: &tracks, events: &events },
        SliceSkelClip { duration: S::ZERO, looping: true, tracks: &[], events: &[] },
        SliceSkelClip { duration: S::HALF, looping: false, tracks: &tracks, events: &events },
    ];
    let rig = Rig::new(&skel, &clips);
    let mut small: AnimPlayer<S, Transform3<S>, 2> = AnimPlayer::new(0);
    assert_eq!(small.play(&clips, 3), Err(PlayerError::NoSuchClip { clip: 3 }));
    assert_eq!(small.play(&clips, 1), Err(PlayerError::BadDuration { clip: 1 }));
    small.play(&clips, 0).unwrap();
    let mut pose = [Transform3::IDENTITY; 3];
    assert_eq!(small.evaluate(&rig, &mut pose), Err(PlayerError::TooManyBones { bones: 3, capacity: 2 }));
    let mut p: AnimPlayer<S, Transform3<S>, 3> = AnimPlayer::new(0);
    p.play(&clips, 0).unwrap();
    assert_eq!(p.evaluate(&rig, &mut pose[..2]), Err(PlayerError::Job(JobError::OutputTooSmall { needed: 3, got: 2 })));
    // A clip slice shorter than the one played from: refused, nothing changes.
    let mut q = EventQueue::<4, SkelEvent<S>>::new();
    let short = Rig::new(&skel, &clips[..0]);
    assert_eq!(p.update(&short, S::ONE, &mut q), Err(PlayerError::NoSuchClip { clip: 0 }));
    assert_eq!(p.current(), Some((0, S::ZERO)));
    // A pseudo-random sequence of calls with extreme values never panics, and times stay in range.
    p.set_root_motion(Some(RootMotionSettings { bone: 0, remove: true }));
    let mut x = 0x9E37_79B9u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let extremes = [0.0, -1.0, 1e-9, 0.5, 3.75, -40.0, 1e6, -1e6, 30000.0];
    for _ in 0..2000 {
        let r = next();
        let v = s::<S>(extremes[(r as usize >> 8) % extremes.len()]);
        match r % 9 {
            0 => {
                let _ = p.play(&clips, (r >> 4) as u16 % 4);
            }
            1 => {
                let _ = p.crossfade(&clips, (r >> 4) as u16 % 4, v);
            }
            2 => p.set_speed(v),
            3 => {
                let _ = p.seek(&clips, v);
            }
            4 => p.set_looping([None, Some(true), Some(false)][(r >> 4) as usize % 3]),
            5 => {
                let _ = p.evaluate(&rig, &mut pose);
            }
            6 => {
                if r & 0x100 == 0 {
                    p.pause()
                } else {
                    p.resume()
                }
            }
            _ => {
                let _ = p.update(&rig, v, &mut q);
                q.clear();
            }
        }
        if let Some((c, t)) = p.current() {
            let len = clips[usize::from(c)].duration;
            assert!(t >= S::ZERO && t <= len, "time {t:?} outside clip {c}");
        }
    }
    // The same for the blend-space player, the one-shot, the blend spaces and sync_time.
    use ossicle::skeleton::BlendSpacePlayer;
    let v2 = |x: f64, y: f64| Vec2::new(s::<S>(x), s::<S>(y));
    let pts = [v2(0.0, 0.0), v2(1.0, 0.0), v2(1.0, 1.0), v2(-2.0, 3.0)];
    let tris = [[0u16, 1, 2], [0, 2, 3]];
    let space = BlendSpace2D::new(&pts, &tris).unwrap();
    let mut bp: BlendSpacePlayer<S, Transform3<S>, 3> = BlendSpacePlayer::new(1);
    bp.set_root_motion(Some(RootMotionSettings { bone: 0, remove: true }));
    let mut shot: OneShot<S, Transform3<S>, 3> = OneShot::new(2);
    let point_clips = [0u16, 2, 0, 3];
    let base = [Transform3::<S>::IDENTITY; 3];
    let marks = [SyncMarker { time: s::<S>(0.25), name: 1 }, SyncMarker { time: s(0.5), name: 2 }];
    let track = MarkerTrack { markers: &marks, duration: S::ONE, looping: true };
    for _ in 0..2000 {
        let r = next();
        let v = s::<S>(extremes[(r as usize >> 8) % extremes.len()]);
        let u = s::<S>(extremes[(r as usize >> 16) % extremes.len()]);
        match r % 7 {
            0 => bp.set_weights(space.weights(Vec2::new(v, u))),
            1 => {
                let w = bp.weights();
                let sum: f64 = w.as_slice().iter().map(|p| p.1.to_f64()).sum();
                assert!(w.as_slice().is_empty() || (sum - 1.0).abs() < 0.01 || S::EPSILON.to_f64() > 1e-6, "{sum}");
                let _ = bp.update(&rig, &point_clips, v, &mut q);
                q.clear();
            }
            2 => {
                let _ = bp.evaluate(&rig, &point_clips, &mut pose);
            }
            3 => {
                let _ = shot.play(&clips, (r >> 4) as u16 % 4, v, u);
            }
            4 => {
                let _ = shot.update(&clips, v, &mut q);
                q.clear();
                let w = shot.weight(&clips);
                assert!(w >= S::ZERO && w <= S::ONE);
            }
            5 => {
                let _ = shot.apply(&rig, &base, None, &mut pose);
            }
            _ => {
                let r = sync_time(&track, v, &track, u);
                assert!(r.time >= S::ZERO && r.time <= S::ONE, "{:?}", r.time);
            }
        }
    }
    if S::EPSILON.to_f64() < 1e-6 {
        // f32 only: NaN and infinities.
        for v in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let v = S::from_f32(v);
            p.play(&clips, 0).unwrap();
            p.set_speed(v);
            p.seek(&clips, v).unwrap();
            p.update(&rig, v, &mut q).unwrap();
            p.evaluate(&rig, &mut pose).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Memory

#[test]
fn memory_figures() {
    use core::mem::size_of;
    // Per bone: two sampling contexts (12 bytes each) and two scratch poses.
    assert_eq!(size_of::<Transform3<f32>>(), 40);
    assert_eq!(size_of::<Transform3<Q16>>(), 40);
    assert_eq!(size_of::<Transform2<f32>>(), 20);
    let per_bone_3d = 2 * 12 + 2 * 40;
    let per_bone_2d = 2 * 12 + 2 * 20;
    assert_eq!(per_bone_3d, 104);
    assert_eq!(per_bone_2d, 64);
    assert_eq!(size_of::<AnimPlayer<f32, Transform3<f32>, 70>>(), 40 + 70 * 104);
    assert_eq!(size_of::<AnimPlayer<Q16, Transform3<Q16>, 70>>(), 40 + 70 * 104);
    assert_eq!(size_of::<AnimPlayer<f32, Transform3<f32>, 1>>(), 40 + 104);
    assert_eq!(size_of::<AnimPlayer<f32, Transform2<f32>, 70>>(), 40 + 70 * 64);
    assert_eq!(AnimPlayer::<f32, Transform3<f32>, 70>::STATE_BYTES, 40);
    assert_eq!(AnimPlayer::<Q16, Transform2<Q16>, 16>::STATE_BYTES, 40);
    // One-shot: context 12 + pose 40 + mask 4 = 56 per bone in 3D, 36 in 2D.
    assert_eq!(
        size_of::<OneShot<f32, Transform3<f32>, 70>>(),
        OneShot::<f32, Transform3<f32>, 70>::STATE_BYTES + 70 * 56
    );
    assert_eq!(
        size_of::<OneShot<Q16, Transform3<Q16>, 70>>(),
        OneShot::<Q16, Transform3<Q16>, 70>::STATE_BYTES + 70 * 56
    );
    assert_eq!(OneShot::<f32, Transform3<f32>, 70>::STATE_BYTES, 20);
    assert_eq!(size_of::<OneShot<f32, Transform2<f32>, 8>>(), 20 + 8 * 36);
    // Blend-space player: three contexts and three scratch poses: 156 per bone in 3D, 96 in 2D.
    use ossicle::skeleton::BlendSpacePlayer;
    assert_eq!(BlendSpacePlayer::<f32, Transform3<f32>, 70>::STATE_BYTES, 48);
    assert_eq!(size_of::<BlendSpacePlayer<f32, Transform3<f32>, 70>>(), 48 + 70 * 156);
    assert_eq!(size_of::<BlendSpacePlayer<Q16, Transform3<Q16>, 70>>(), 48 + 70 * 156);
    assert_eq!(size_of::<BlendSpacePlayer<f32, Transform2<f32>, 8>>(), 48 + 8 * 96);
}

// ---------------------------------------------------------------------------------------------
// Instantiations

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod f32_tests {
            $(#[test] fn $name() { super::$name::<f32>(); })*
        }
        mod q16_tests {
            $(#[test] fn $name() { super::$name::<ossicle::Q16>(); })*
        }
    };
}

both!(
    events_forward,
    events_backward,
    events_non_looping_seek_and_pause,
    root_motion_3d,
    root_motion_of_a_non_unit_rest_rotation_is_a_unit_rotation,
    root_motion_over_a_huge_number_of_loops_is_a_unit_rotation,
    slerp_of_keys_off_unit_length_is_a_unit_rotation,
    root_motion_2d,
    crossfade,
    crossfade_2d_and_refade,
    events_non_looping_backward,
    events_backward_at_a_single_time_descend,
    blend_space_1d,
    blend_space_2d,
    sync_phase,
    blend_space_pose,
    blend_space_player,
    one_shot,
    sync_markers,
    players_follow_markers,
    blob_clip,
    errors_and_robustness,
);
