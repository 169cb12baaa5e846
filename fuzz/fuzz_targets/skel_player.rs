//! The skeletal players driven by arbitrary operation sequences, in f32 and Q16.16, 3D or 2D:
//! `AnimPlayer` (play, crossfade with any duration, stop, pause/resume, speed, seek, loop
//! override, root motion with and without `remove`, rotation interpolation, LOD, update with any
//! `dt`, evaluate), `OneShot` (play with any fades, update, apply on a mask, stop),
//! `BlendSpace1D` / `BlendSpace2D` (any points: unsorted, duplicated, collinear; any triangles;
//! parameters anywhere, outside the hull too) feeding a `BlendSpacePlayer` (update, evaluate, seek
//! phase, speed, root motion), `SyncPhase::advance`, `sync_time` and `AnimPlayer::follow` on
//! markers collected from clip events (matching and non-matching names). Clips (1–3, a few keys
//! per channel, Step/Linear/Hermite, events with equal times and at both ends) and skeletons (1–5
//! bones for players of capacity 4) are built from the input; their durations may be 0, negative,
//! tiny or huge.
//!
//! Checked, besides never panicking (in both scalar types):
//! - a player's current and outgoing times stay in `[0, L]`, its fade weight and normalised time
//!   in `[0, 1]`; a one-shot's time in `[0, L)`, its weight in `[0, 1]`; a blend-space phase in
//!   `[0, 1)`; `sync_time` lands in `[0, L_follower]` and falls back to normalised time when no
//!   marker name is shared;
//! - blend-space weights: 1–2 (1D, adjacent points) or 1–3 (2D) entries, positive, naming existing
//!   points, summing to 1 (to rounding; 2D with finite points);
//! - events of an `AnimPlayer` update outside a crossfade (and of a one-shot update) are exactly
//!   the clip events in the documented half-open interval, in the order crossed, then `Finished`
//!   (looping clips checked when the step is under a quarter of the clip); otherwise every event
//!   names the player and a playing clip and is one of that clip's events;
//! - in f32, with finite clip data and rest poses (3D rotations of any finite size, other values
//!   within ±1e6; whatever `dt`, speed, seek time or fade: the docs make non-finite ones count as
//!   0), evaluated poses, one-shot outputs and root-motion deltas are finite.
//!
//! Seeds: none needed (`cargo fuzz run skel_player`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle::event::EventQueue;
use ossicle::math::{Transform2, Transform3, Vec2};
use ossicle::skeleton::Rig;
use ossicle::skeleton::{
    collect_markers, sync_time, AnimPlayer, BlendSpace1D, BlendSpace2D, BlendSpacePlayer, BlendWeights, ChannelData,
    ChannelKind, ClipEvent, Interpolation, MarkerTrack, MotionJoint, OneShot, RootMotion2, RootMotion3,
    RootMotionSettings, RotationInterp, SkelEvent, SliceSkelClip, SliceSkeleton, SliceTrack, SyncMarker, SyncPhase,
};
use ossicle::{Scalar, Q16};
use ossicle_fuzz::Words;

/// The players' capacity (skeletons have 1 to 5 bones, so some are too big).
const N: usize = 4;
/// The event queue's capacity: more than two clips' events over the capped passes of one update.
const Q: usize = 512;

fn finite<S: Scalar>(v: S) -> bool {
    v.to_f64().is_finite()
}

/// A time, speed, duration or parameter: zero, small, moderate, negative, huge, the extremes,
/// the resolution, raw bits (any f32 pattern: NaN, infinities), f32 specials, clip-ish multiples.
fn special<S: Scalar>(w: &mut Words<'_>) -> S {
    let sel = w.byte();
    match sel % 12 {
        0 => S::ZERO,
        1 => S::from_ratio(i32::from(w.byte() % 64) + 1, 64),
        2 => S::from_ratio((w.word() % 8001) as i32 - 4000, 1000),
        3 => S::from_ratio(-(i32::from(w.byte() % 64) + 1), 64),
        4 => S::from_i32(if sel & 0x80 != 0 { -1_000_000 } else { 1_000_000 }),
        5 => S::MAX,
        6 => S::MIN,
        7 => S::EPSILON,
        8 => S::from_blob_bits(w.word()),
        9 => {
            // Q16.16 gets the saturating conversions of the same values.
            let v = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 1e-30, 3.4e38, -3.4e38, 1e-3];
            S::from_f32(v[usize::from(w.byte() % 8)])
        }
        10 => S::from_ratio(i32::from(w.byte() % 25) - 8, 4),
        _ => S::from_ratio(1, 60),
    }
}

/// A tame value in `[-k, k]` (k = `range` / 4).
fn moderate<S: Scalar>(w: &mut Words<'_>, range: i32) -> S {
    S::from_ratio(i32::from(w.byte()) % (2 * range + 1) - range, 4)
}

/// One channel's keys, owned.
struct Chan<S> {
    interpolation: Interpolation,
    times: Vec<S>,
    values: Vec<S>,
    tangents: Vec<S>,
}

struct ClipData<S> {
    duration: S,
    looping: bool,
    tracks: Vec<[Option<Chan<S>>; 3]>,
    events: Vec<ClipEvent<S>>,
}

fn channel_value<S: Scalar>(w: &mut Words<'_>, kind: usize, width: usize, wild: bool, out: &mut Vec<S>) {
    let mut v: Vec<S> = (0..width)
        .map(|_| if wild && w.byte().is_multiple_of(8) { S::from_blob_bits(w.word()) } else { moderate(w, 16) })
        .collect();
    if kind == 1 && width == 4 && v.iter().all(|&x| x == S::ZERO) {
        v[3] = S::ONE;
    }
    out.extend(v);
}

fn duration<S: Scalar>(w: &mut Words<'_>) -> S {
    match w.byte() % 12 {
        0..=5 => S::from_ratio(i32::from(w.byte()) * 16 + 1, 256),
        6 => S::EPSILON,
        7 => S::from_i32(100_000),
        8 => S::ZERO,
        9 => S::from_ratio(-1, 2),
        10 => S::from_blob_bits(w.word()),
        _ => S::from_ratio(1, 3),
    }
}

fn clip_data<S: Scalar, J: Probe<S>>(w: &mut Words<'_>, bones: usize, wild: bool) -> ClipData<S> {
    let duration = duration::<S>(w);
    let flags = w.byte();
    let looping = flags & 1 != 0;
    let tracks_n = (bones + usize::from(flags >> 1 & 3)).saturating_sub(1);
    let mut tracks = Vec::new();
    for _ in 0..tracks_n {
        let mut track: [Option<Chan<S>>; 3] = [None, None, None];
        for (c, slot) in track.iter_mut().enumerate() {
            let b = w.byte();
            if b.is_multiple_of(3) {
                continue;
            }
            let interpolation = match (b >> 2) % 3 {
                0 => Interpolation::Step,
                1 => Interpolation::Linear,
                _ => Interpolation::Hermite,
            };
            let keys = usize::from((b >> 4) % 4) + 1;
            // Strictly increasing fractions of the duration, the first at 0 or later.
            let mut frac = i32::from(w.byte() % 3);
            let mut times = Vec::new();
            for _ in 0..keys {
                times.push(duration.mul(S::from_ratio(frac.min(16), 16)));
                frac += i32::from(w.byte() % 6) + 1;
            }
            let width = J::WIDTHS[c];
            let mut values = Vec::new();
            for _ in 0..keys {
                channel_value(w, c, width, wild, &mut values);
            }
            let mut tangents = Vec::new();
            if interpolation == Interpolation::Hermite {
                for _ in 0..2 * keys * width {
                    tangents.push(moderate(w, 16));
                }
            }
            *slot = Some(Chan { interpolation, times, values, tangents });
        }
        tracks.push(track);
    }
    let n_events = usize::from(w.byte() % 7);
    let mut events = Vec::new();
    let mut frac = 0;
    for _ in 0..n_events {
        let b = w.byte();
        // Equal times (step 0) happen; the last may sit at the end.
        frac = (frac + i32::from(b % 5)).min(16);
        events.push(ClipEvent { time: duration.mul(S::from_ratio(frac, 16)), name: u16::from(b >> 5) });
    }
    ClipData { duration, looping, tracks, events }
}

/// Joint types with a finiteness test for their root-motion deltas.
trait Probe<S: Scalar>: MotionJoint<S> {
    fn delta_finite(d: &Self::Delta) -> bool;
}

impl<S: Scalar> Probe<S> for Transform3<S> {
    fn delta_finite(d: &RootMotion3<S>) -> bool {
        let (t, r) = (d.translation, d.rotation);
        [t.x, t.y, t.z, r.x, r.y, r.z, r.w].into_iter().all(finite)
    }
}

impl<S: Scalar> Probe<S> for Transform2<S> {
    fn delta_finite(d: &RootMotion2<S>) -> bool {
        [d.translation.x, d.translation.y, d.angle].into_iter().all(finite)
    }
}

fn pose_finite<S: Scalar, J: Probe<S>>(pose: &[J]) -> bool {
    pose.iter().all(|j| ChannelKind::ALL.iter().all(|&k| j.channel_values(k).into_iter().all(finite)))
}

fn valid_len<S: Scalar>(clip: &SliceSkelClip<'_, S>) -> Option<S> {
    let l = clip.duration;
    (l > S::ZERO && finite(l)).then_some(l)
}

/// The events `clip` pushes for a step from `t0` to `t1` as documented (see `AnimPlayer`).
#[allow(clippy::too_many_arguments)]
fn expected<S: Scalar>(
    clip: &SliceSkelClip<'_, S>,
    player: u16,
    clip_id: u16,
    t0: S,
    t1: S,
    forward: bool,
    wrapped: bool,
    fresh: bool,
    ended: bool,
) -> Vec<SkelEvent<S>> {
    let len = clip.duration;
    let ev = |e: &ClipEvent<S>| SkelEvent::Clip { player, clip: clip_id, event: *e };
    let mut out = Vec::new();
    let asc = |lo: S, lo_incl: bool, hi: S, out: &mut Vec<SkelEvent<S>>| {
        out.extend(clip.events.iter().filter(|e| (e.time > lo || lo_incl && e.time == lo) && e.time <= hi).map(ev))
    };
    let desc = |hi: S, hi_incl: bool, lo: S, out: &mut Vec<SkelEvent<S>>| {
        out.extend(
            clip.events.iter().rev().filter(|e| (e.time < hi || hi_incl && e.time == hi) && e.time >= lo).map(ev),
        )
    };
    match (forward, wrapped) {
        (true, false) => asc(t0, fresh, t1, &mut out),
        (false, false) => desc(t0, fresh, t1, &mut out),
        (true, true) => {
            asc(t0, fresh, len, &mut out);
            asc(S::ZERO, true, t1, &mut out);
        }
        (false, true) => {
            desc(t0, fresh, S::ZERO, &mut out);
            desc(len, true, t1, &mut out);
        }
    }
    if ended {
        out.push(SkelEvent::Finished { player, clip: clip_id });
    }
    out
}

fn drain<S: Scalar>(q: &mut EventQueue<Q, SkelEvent<S>>) -> Vec<SkelEvent<S>> {
    assert_eq!(q.dropped(), 0, "the queue is large enough");
    let mut v = Vec::new();
    while let Some(e) = q.pop() {
        v.push(e);
    }
    v
}

/// Every event names `player`, one of `clips_playing`, and is one of that clip's events.
fn check_generic<S: Scalar>(got: &[SkelEvent<S>], clips: &[SliceSkelClip<'_, S>], player: u16, playing: &[u16]) {
    for e in got {
        match *e {
            SkelEvent::Clip { player: p, clip, event } => {
                assert_eq!(p, player);
                assert!(playing.contains(&clip), "event of clip {clip}, playing {playing:?}");
                let c = &clips[usize::from(clip)];
                assert!(c.events.contains(&event), "{event:?} is not an event of clip {clip}");
            }
            SkelEvent::Finished { player: p, clip } => {
                assert_eq!(p, player);
                assert!(playing.contains(&clip), "finished clip {clip}, playing {playing:?}");
            }
        }
    }
}

fn check_weights<S: Scalar>(w: &BlendWeights<S>, points: usize, max: usize, check_sum: bool) {
    let s = w.as_slice();
    assert!(s.len() <= max);
    let mut sum = 0.0f64;
    for &(i, x) in s {
        assert!(usize::from(i) < points, "weight for point {i} of {points}");
        assert!(x > S::ZERO, "weight {x:?} not positive");
        sum += x.to_f64();
    }
    if check_sum {
        assert!(!s.is_empty(), "no weights");
        let tol = if S::EPSILON.to_f64() > 1e-6 { 4.0 / 65536.0 } else { 1e-4 };
        assert!((sum - 1.0).abs() <= tol, "weights {s:?} sum to {sum}");
    }
}

/// Times of the animation player within its clips.
fn check_player<S: Scalar, J: Probe<S>>(p: &AnimPlayer<S, J, N>, clips: &[SliceSkelClip<'_, S>]) {
    for (clip, t) in p.current().into_iter().chain(p.outgoing()) {
        let len = valid_len(&clips[usize::from(clip)]).expect("a playing clip has a valid length");
        assert!(t >= S::ZERO && t <= len, "time {t:?} outside [0, {len:?}]");
    }
    let fw = p.fade_weight();
    assert!(fw >= S::ZERO && fw <= S::ONE, "fade weight {fw:?}");
    if let Some(n) = p.normalized_time(clips) {
        assert!(n >= S::ZERO && n <= S::ONE, "normalised time {n:?}");
    }
}

fn run<S: Scalar, J: Probe<S>>(data: &[u8]) {
    let mut w = Words(data);
    let head = w.byte();
    let wild = head & 0x80 != 0;
    let bones = usize::from(head % 5) + 1;
    let parents: Vec<u16> = (0..bones)
        .map(|i| {
            let p = w.byte();
            if i == 0 || p % 4 == 0 {
                u16::MAX
            } else {
                u16::from(p) % i as u16
            }
        })
        .collect();
    let rest: Vec<J> = (0..bones)
        .map(|_| {
            let mut j = J::IDENTITY;
            for (c, &k) in ChannelKind::ALL.iter().enumerate() {
                if w.byte() % 2 == 0 {
                    let mut v = Vec::new();
                    channel_value(&mut w, c, J::WIDTHS[c], wild, &mut v);
                    v.resize(4, S::ZERO);
                    j.set_channel_values(k, [v[0], v[1], v[2], v[3]]);
                }
            }
            j
        })
        .collect();
    let Ok(skeleton) = SliceSkeleton::new(&parents, &rest) else { return };

    let n_clips = usize::from(w.byte() % 3) + 1;
    let datas: Vec<ClipData<S>> = (0..n_clips).map(|_| clip_data::<S, J>(&mut w, bones, wild)).collect();
    let tracks: Vec<Vec<SliceTrack<'_, S>>> = datas
        .iter()
        .map(|d| {
            d.tracks
                .iter()
                .map(|t| SliceTrack {
                    channels: [0, 1, 2].map(|c| {
                        t[c].as_ref().map(|ch| ChannelData {
                            interpolation: ch.interpolation,
                            times: &ch.times[..],
                            values: &ch.values[..],
                            tangents: &ch.tangents[..],
                        })
                    }),
                })
                .collect()
        })
        .collect();
    let clips: Vec<SliceSkelClip<'_, S>> = datas
        .iter()
        .zip(&tracks)
        .map(|(d, t)| SliceSkelClip { duration: d.duration, looping: d.looping, tracks: t, events: &d.events })
        .collect();
    // The invariants on values hold for valid clips (or clips the players refuse: bad durations)
    // with finite data.
    let valid = clips.iter().all(|c| valid_len(c).is_none() || c.check::<J>().is_ok());
    // Finite data: 3D rotations of any finite size (they are normalised), other values within
    // ±1e6 (differences of values near the f32 limit overflow: a true result out of range).
    let in_range = |c: usize, v: S| finite(v) && (J::WIDTHS[c] == 4 || v.to_f64().abs() <= 1e6);
    let data_finite = rest.iter().all(|j| {
        ChannelKind::ALL.iter().enumerate().all(|(c, &k)| j.channel_values(k).into_iter().all(|v| in_range(c, v)))
    }) && datas.iter().all(|d| {
        d.tracks.iter().all(|t| {
            t.iter().enumerate().all(|(c, ch)| {
                ch.as_ref().is_none_or(|ch| ch.values.iter().chain(&ch.tangents).all(|&v| in_range(c, v)))
            })
        })
    });
    let tame = valid && data_finite;
    let rig = Rig::new(&skeleton, &clips[..]);
    let clip_id = |w: &mut Words<'_>| u16::from(w.byte() % (n_clips as u8 + 1));

    let mut player: AnimPlayer<S, J, N> = AnimPlayer::new(1);
    let mut follower: AnimPlayer<S, J, N> = AnimPlayer::new(2);
    let mut shot: OneShot<S, J, N> = OneShot::new(3);
    let mut space: BlendSpacePlayer<S, J, N> = BlendSpacePlayer::new(4);
    let mut q: EventQueue<Q, SkelEvent<S>> = EventQueue::new();
    let mut pose = vec![J::IDENTITY; bones];
    let mut base = rest.clone();
    let mut fresh = false;
    let mut shot_fresh = false;
    let mut looping_override: Option<bool> = None;
    let mut points_n = 1usize;
    let mut point_clips: Vec<u16> = (0..3).map(|i| (i % n_clips) as u16).collect();
    let mut last_weights = BlendWeights::<S>::EMPTY;

    for _ in 0..256 {
        if w.is_empty() {
            break;
        }
        let op = w.byte();
        match op % 24 {
            0 => {
                if player.play(&clips, clip_id(&mut w)).is_ok() {
                    fresh = true;
                }
            }
            1 => {
                let c = clip_id(&mut w);
                if player.crossfade(&clips, c, special(&mut w)).is_ok() {
                    fresh = true;
                }
            }
            2 => player.stop(),
            3 => player.pause(),
            4 => player.resume(),
            5 => player.set_speed(special(&mut w)),
            6 => {
                if player.seek(&clips, special(&mut w)).is_ok() {
                    fresh = false;
                }
            }
            7 => {
                looping_override = [None, Some(true), Some(false)][usize::from(w.byte() % 3)];
                player.set_looping(looping_override);
            }
            8..=10 => {
                let dt: S = special(&mut w);
                let before = (player.current(), player.outgoing(), player.is_paused());
                let r = player.update(&rig, dt, &mut q);
                let got = drain(&mut q);
                match r {
                    Ok(motion) => {
                        if tame {
                            assert!(J::delta_finite(&motion), "root motion {motion:?} not finite");
                        }
                        let playing: Vec<u16> = before.0.into_iter().chain(before.1).map(|(c, _)| c).collect();
                        check_generic(&got, &clips, 1, &playing);
                        if let ((Some((c, t0)), None, false), Some((c1, t1))) = (before, player.current()) {
                            assert_eq!(c, c1);
                            let clip = &clips[usize::from(c)];
                            let len = clip.duration;
                            let looping = looping_override.unwrap_or(clip.looping);
                            let dt = if dt > S::ZERO && finite(dt) { dt } else { S::ZERO };
                            let delta = dt.mul(player.speed());
                            let delta = if finite(delta) { delta } else { S::ZERO };
                            let forward = delta >= S::ZERO;
                            let small = delta.abs().to_f64() < len.to_f64() / 4.0;
                            if tame && (!looping || small) {
                                let wrapped = looping && if forward { t1 < t0 } else { t1 > t0 };
                                let ended = !looping
                                    && if forward { t1 >= len && t0 < len } else { t1 <= S::ZERO && t0 > S::ZERO };
                                let want = expected(clip, 1, c, t0, t1, forward, wrapped, fresh, ended);
                                assert_eq!(got, want, "events from {t0:?} to {t1:?} (delta {delta:?}, fresh {fresh})");
                            }
                            fresh = false;
                        } else if before.0.is_some() && !before.2 {
                            fresh = false;
                        }
                    }
                    Err(_) => assert!(got.is_empty(), "a refused update pushed events"),
                }
            }
            11 | 12 => {
                if player.evaluate(&rig, &mut pose).is_ok() {
                    if tame {
                        assert!(pose_finite::<S, J>(&pose), "pose {pose:?} not finite");
                    }
                    base.clone_from(&pose);
                }
            }
            13 => {
                let b = w.byte();
                let root =
                    (b & 1 != 0).then_some(RootMotionSettings { bone: u16::from(b >> 2) % 6, remove: b & 2 != 0 });
                player.set_root_motion(root);
                space.set_root_motion(root);
            }
            14 => {
                let b = w.byte();
                let r = if b & 1 != 0 { RotationInterp::Slerp } else { RotationInterp::Nlerp };
                let lod = if b & 2 != 0 { b >> 2 } else { u8::MAX };
                player.set_rotation_interp(r);
                player.set_lod(lod);
                shot.set_rotation_interp(r);
                shot.set_lod(lod);
                space.set_rotation_interp(r);
                space.set_lod(lod);
            }
            15 => {
                let c = clip_id(&mut w);
                let (a, b) = (special(&mut w), special(&mut w));
                if shot.play(&clips, c, a, b).is_ok() {
                    shot_fresh = true;
                }
            }
            16 => {
                let dt: S = special(&mut w);
                let before = shot.current();
                let r = shot.update(&clips, dt, &mut q);
                let got = drain(&mut q);
                if let (Ok(()), Some((c, t0))) = (r, before) {
                    let clip = &clips[usize::from(c)];
                    let len = clip.duration;
                    let t1 = shot.current().map_or(len, |(c1, t1)| {
                        assert_eq!(c, c1);
                        t1
                    });
                    if tame {
                        let want = expected(clip, 3, c, t0, t1, true, false, shot_fresh, !shot.is_active());
                        assert_eq!(got, want, "one-shot events from {t0:?} to {t1:?} (fresh {shot_fresh})");
                    }
                    check_generic(&got, &clips, 3, &[c]);
                    shot_fresh = false;
                } else {
                    assert!(got.is_empty());
                }
            }
            17 => {
                let mask: Option<Vec<S>> = (w.byte() % 2 == 0).then(|| {
                    (0..bones)
                        .map(|_| if wild { special(&mut w) } else { S::from_ratio(i32::from(w.byte() % 5), 4) })
                        .collect()
                });
                let mut out = vec![J::IDENTITY; bones];
                if shot.apply(&rig, &base, mask.as_deref(), &mut out).is_ok() && tame && !wild {
                    assert!(pose_finite::<S, J>(&base) && pose_finite::<S, J>(&out), "one-shot output {out:?}");
                }
            }
            18 => shot.stop(),
            19 => {
                // A 1D blend space: sorted, duplicated or unsorted points.
                let n = usize::from(w.byte() % 5) + 1;
                let mut v = S::from_ratio(i32::from(w.byte() % 9) - 4, 1);
                let points: Vec<S> = (0..n)
                    .map(|_| {
                        let b = w.byte();
                        let p = v;
                        v = match b % 8 {
                            0 => v,
                            1 => v.sub(S::ONE),
                            2 => S::from_blob_bits(w.word()),
                            _ => v.add(S::from_ratio(i32::from(b), 64)),
                        };
                        p
                    })
                    .collect();
                if let Ok(bs) = BlendSpace1D::new(&points) {
                    let x: S = special(&mut w);
                    let wts = bs.weights(x);
                    check_weights(&wts, n, 2, true);
                    if let [(a, _), (b, _)] = wts.as_slice() {
                        assert_eq!(*a + 1, *b, "1D weights on adjacent points");
                    }
                    points_n = n;
                    last_weights = wts;
                    space.set_weights(wts);
                }
            }
            20 => {
                // A 2D blend space: duplicated and collinear points, any triangles.
                let n = usize::from(w.byte() % 6) + 1;
                let mut tame_points = true;
                let points: Vec<Vec2<S>> = (0..n)
                    .map(|_| {
                        let b = w.byte();
                        if wild && b % 16 == 0 {
                            tame_points = false;
                            Vec2::new(special(&mut w), special(&mut w))
                        } else {
                            Vec2::new(moderate(&mut w, 400), moderate(&mut w, 400))
                        }
                    })
                    .collect();
                let t = usize::from(w.byte() % 4) + 1;
                let tris: Vec<[u16; 3]> =
                    (0..t).map(|_| [0; 3].map(|_: u16| u16::from(w.byte()) % (n as u16 + 1))).collect();
                if let Ok(bs) = BlendSpace2D::new(&points, &tris) {
                    let p = if w.byte() % 2 == 0 {
                        Vec2::new(special(&mut w), special(&mut w))
                    } else {
                        Vec2::new(moderate(&mut w, 800), moderate(&mut w, 800))
                    };
                    // Points within ±100, as the docs ask for Q16.16: the weights sum to 1.
                    let wts = bs.weights(p);
                    check_weights(&wts, n, 3, tame_points);
                    points_n = n;
                    last_weights = wts;
                    space.set_weights(wts);
                }
            }
            21 => {
                for (k, c) in point_clips.iter_mut().enumerate() {
                    if w.byte() % 2 == 0 {
                        *c = clip_id(&mut w);
                    } else {
                        *c = (k % n_clips) as u16;
                    }
                }
                if points_n > point_clips.len() {
                    point_clips.resize(points_n, 0);
                }
            }
            22 => {
                let dt: S = special(&mut w);
                match w.byte() % 6 {
                    0 => space.start(),
                    1 => space.seek_phase(dt),
                    2 => space.set_speed(dt),
                    3 | 4 => {
                        let r = space.update(&rig, &point_clips, dt, &mut q);
                        let got = drain(&mut q);
                        match r {
                            Ok(motion) => {
                                if tame {
                                    assert!(J::delta_finite(&motion), "blend-space root motion {motion:?}");
                                }
                                let heaviest = space.weights().heaviest().map(|(p, _)| point_clips[usize::from(p)]);
                                check_generic(&got, &clips, 4, &heaviest.into_iter().collect::<Vec<_>>());
                            }
                            Err(_) => assert!(got.is_empty()),
                        }
                    }
                    _ => {
                        if space.evaluate(&rig, &point_clips, &mut pose).is_ok() && tame {
                            assert!(pose_finite::<S, J>(&pose), "blend-space pose {pose:?} not finite");
                        }
                    }
                }
                let ph = space.phase().phase();
                assert!(ph >= S::ZERO && ph < S::ONE, "phase {ph:?}");
                // The phase on its own, with the clips' durations (any).
                let durations: Vec<S> =
                    point_clips.iter().map(|&c| clips.get(usize::from(c)).map_or(S::ONE, |c| c.duration)).collect();
                let mut phase = SyncPhase::new();
                phase.set_phase(special(&mut w));
                let _ = phase.advance(dt, &last_weights, &durations);
                let ph = phase.phase();
                assert!(ph >= S::ZERO && ph < S::ONE, "sync phase {ph:?}");
            }
            _ => {
                // Sync markers from the clips' events (names in a chosen set), leader the player.
                let names: Vec<u16> = (0..usize::from(w.byte() % 4)).map(|_| u16::from(w.byte() % 8)).collect();
                let (lc, fc) = (usize::from(w.byte()) % n_clips, usize::from(w.byte()) % n_clips);
                let mut lm = [SyncMarker { time: S::ZERO, name: 0 }; 8];
                let mut fm = [SyncMarker { time: S::ZERO, name: 0 }; 8];
                let ln = collect_markers(&clips[lc], &names, &mut lm);
                let fnn = collect_markers(&clips[fc], &names, &mut fm);
                let lt = MarkerTrack { markers: &lm[..ln], duration: clips[lc].duration, looping: clips[lc].looping };
                let ft = MarkerTrack { markers: &fm[..fnn], duration: clips[fc].duration, looping: clips[fc].looping };
                let leader_time = match player.current() {
                    Some((_, t)) if w.byte() % 2 == 0 => t,
                    _ => special(&mut w),
                };
                let ftime: S = special(&mut w);
                let r = sync_time(&lt, leader_time, &ft, ftime);
                if valid_len(&clips[fc]).is_some() && valid_len(&clips[lc]).is_some() && tame {
                    assert!(r.time >= S::ZERO && r.time <= ft.duration, "sync time {r:?}");
                    let shared = lt.markers.iter().any(|m| ft.markers.iter().any(|f| f.name == m.name));
                    assert!(shared || !r.by_markers, "placed by markers without a shared name");
                }
                if w.byte() % 2 == 0 {
                    let _ = follower.play(&clips, fc as u16);
                }
                let _ = follower.follow(&clips, &lt, leader_time, &ft);
                check_player(&follower, &clips);
            }
        }
        check_player(&player, &clips);
        if let Some((c, t)) = shot.current() {
            let len = valid_len(&clips[usize::from(c)]).expect("a one-shot's clip has a valid length");
            assert!(t >= S::ZERO && t < len, "one-shot time {t:?} outside [0, {len:?})");
        }
        let sw = shot.weight(&clips);
        assert!(sw >= S::ZERO && sw <= S::ONE, "one-shot weight {sw:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    if kind & 1 == 0 {
        run::<f32, Transform3<f32>>(rest);
        run::<Q16, Transform3<Q16>>(rest);
    } else {
        run::<f32, Transform2<f32>>(rest);
        run::<Q16, Transform2<Q16>>(rest);
    }
});
