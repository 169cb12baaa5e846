//! The skeletal jobs (sampling, blending, local-to-model) against hand-computed poses, in f32 and
//! Q16.16.
//!
//! Expected values are written out in `f64` in each test. Tolerances: f32 1e-5 for arithmetic on
//! values of magnitude about 1 (1e-4 on values up to 100), Q16.16 a few steps of 2⁻¹⁶ (4 × 2⁻¹⁶
//! for arithmetic, 4 × 2⁻¹⁴ once a square root or trigonometry is involved); slerp goes through
//! atan2 and sin/cos, so with the `fast-math` feature f32 gets 2e-2 there.

use ossicle::math::{Quat, Transform2, Transform3, Vec2, Vec3};
use ossicle::skeleton::{
    AdditiveReference, BlendLayer, BlendingJob, ChannelData, Interpolation, JobError, LocalToModelJob, RotationInterp,
    SamplingContext, SamplingJob, SliceSkelClip, SliceSkeleton, SliceTrack,
};
use ossicle::{Scalar, Q16};

// ---------------------------------------------------------------------------------------------
// Helpers

const ROOT: u16 = u16::MAX;

fn is_f32<S: Scalar>() -> bool {
    S::EPSILON.to_f64() == f64::from(f32::EPSILON)
}

/// Arithmetic on values of magnitude about 1.
fn tol<S: Scalar>() -> f64 {
    if is_f32::<S>() {
        1e-5
    } else {
        4.0 / 65536.0
    }
}

/// Results through a square root (normalisation) or trigonometry.
fn tol_trig<S: Scalar>() -> f64 {
    if is_f32::<S>() {
        if cfg!(feature = "fast-math") {
            2e-2
        } else {
            1e-5
        }
    } else {
        4.0 / 16384.0
    }
}

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

fn v3<S: Scalar>(x: f64, y: f64, z: f64) -> Vec3<S> {
    Vec3::new(s(x), s(y), s(z))
}

fn v2<S: Scalar>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(s(x), s(y))
}

fn q<S: Scalar>(v: [f64; 4]) -> Quat<S> {
    Quat::from_xyzw(s(v[0]), s(v[1]), s(v[2]), s(v[3]))
}

fn t3<S: Scalar>(t: [f64; 3], r: [f64; 4], sc: [f64; 3]) -> Transform3<S> {
    Transform3::new(v3(t[0], t[1], t[2]), q(r), v3(sc[0], sc[1], sc[2]))
}

fn t2<S: Scalar>(t: [f64; 2], a: f64, sc: [f64; 2]) -> Transform2<S> {
    Transform2::new(v2(t[0], t[1]), s(a), v2(sc[0], sc[1]))
}

fn sv<S: Scalar>(v: &[f64]) -> Vec<S> {
    v.iter().map(|&x| s(x)).collect()
}

/// Rotation about Z by `a` radians, in f64.
fn rotz(a: f64) -> [f64; 4] {
    [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()]
}

/// Rotation about X by `a` radians, in f64.
fn rotx(a: f64) -> [f64; 4] {
    [(a / 2.0).sin(), 0.0, 0.0, (a / 2.0).cos()]
}

/// Hamilton product in f64.
fn qmul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

fn qnorm(a: [f64; 4]) -> [f64; 4] {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]).sqrt();
    [a[0] / l, a[1] / l, a[2] / l, a[3] / l]
}

#[track_caller]
fn close<S: Scalar>(got: S, want: f64, tol: f64) {
    let g = got.to_f64();
    assert!((g - want).abs() <= tol, "got {g}, want {want} (difference {:e}, tolerance {tol:e})", (g - want).abs());
}

#[track_caller]
fn close3<S: Scalar>(got: Vec3<S>, want: [f64; 3], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64(), got.z.to_f64()];
    for i in 0..3 {
        assert!((g[i] - want[i]).abs() <= tol, "got {g:?}, want {want:?} (tolerance {tol:e})");
    }
}

#[track_caller]
fn close2<S: Scalar>(got: Vec2<S>, want: [f64; 2], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64()];
    for i in 0..2 {
        assert!((g[i] - want[i]).abs() <= tol, "got {g:?}, want {want:?} (tolerance {tol:e})");
    }
}

/// Quaternion equality up to tolerance (same sign: the jobs' results are compared as stored).
#[track_caller]
fn closeq<S: Scalar>(got: Quat<S>, want: [f64; 4], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64(), got.z.to_f64(), got.w.to_f64()];
    for i in 0..4 {
        assert!((g[i] - want[i]).abs() <= tol, "got {g:?}, want {want:?} (tolerance {tol:e})");
    }
}

fn channel<'a, S: Scalar>(
    interpolation: Interpolation,
    times: &'a [S],
    values: &'a [S],
    tangents: &'a [S],
) -> Option<ChannelData<&'a [S]>> {
    Some(ChannelData { interpolation, times, values, tangents })
}

macro_rules! both {
    ($name:ident) => {
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
    };
}

// ---------------------------------------------------------------------------------------------
// Sampling

/// Linear translation, Step scale, a channel absent (rotation) and a bone absent take the rest
/// pose; times before the first key, after the last and beyond the clip clamp (non-looping).
fn sampling_linear_step_and_rest<S: Scalar>() {
    let parents = [ROOT, 0];
    let rest = [t3::<S>([5.0, 6.0, 7.0], rotx(0.3), [1.0, 1.0, 1.0]), t3([1.0, 0.0, 0.0], rotz(0.2), [2.0, 2.0, 2.0])];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let tt = sv::<S>(&[0.5, 1.5, 3.5]);
    let tv = sv::<S>(&[0.0, 0.0, 0.0, 2.0, 4.0, -6.0, 2.0, 0.0, 0.0]);
    let st = sv::<S>(&[0.0, 2.0]);
    let svv = sv::<S>(&[1.0, 1.0, 1.0, 3.0, 3.0, 3.0]);
    let tracks = [SliceTrack {
        channels: [channel(Interpolation::Linear, &tt, &tv, &[]), None, channel(Interpolation::Step, &st, &svv, &[])],
    }];
    let clip = SliceSkelClip { duration: s(4.0), looping: false, tracks: &tracks, events: &[] };
    clip.check::<Transform3<S>>().unwrap();
    let mut ctx = SamplingContext::<2>::new();
    let mut pose = [Transform3::<S>::IDENTITY; 2];
    // (time, translation, scale)
    let cases: [(f64, [f64; 3], f64); 9] = [
        (0.0, [0.0, 0.0, 0.0], 1.0),  // before the first translation key: hold it
        (1.0, [1.0, 2.0, -3.0], 1.0), // half-way between keys 0 and 1; scale steps at key 0
        (1.5, [2.0, 4.0, -6.0], 1.0), // on key 1
        (1.99, [2.0, 4.0 - 4.0 * 0.49 / 2.0, -6.0 + 6.0 * 0.49 / 2.0], 1.0),
        (2.5, [2.0, 2.0, -3.0], 3.0), // half-way between keys 1 and 2; scale on its last key
        (3.5, [2.0, 0.0, 0.0], 3.0),  // on the last key
        (3.9, [2.0, 0.0, 0.0], 3.0),  // after it
        (10.0, [2.0, 0.0, 0.0], 3.0), // clamped to the duration
        (-1.0, [0.0, 0.0, 0.0], 1.0), // clamped to 0
    ];
    let big = if is_f32::<S>() { 1e-5 } else { 8.0 / 65536.0 };
    for (time, tr, sc) in cases {
        let job = SamplingJob::new(&skel, &clip, s::<S>(time));
        job.run(&mut ctx, &mut pose).unwrap();
        close3(pose[0].translation, tr, big);
        close3(pose[0].scale, [sc; 3], 0.0);
        assert_eq!(pose[0].rotation, rest[0].rotation, "absent channel: rest value");
        assert_eq!(pose[1], rest[1], "absent bone: rest pose");
    }
}
both!(sampling_linear_step_and_rest);

/// Looping clips wrap with rem_euclid; between the last key and the duration the last key holds;
/// t = duration (inside the clip) samples the last keys, 2·duration wraps to the start. 2D: angles lerp as plain numbers.
fn sampling_loop_wrap_2d<S: Scalar>() {
    let parents = [ROOT];
    let rest = [t2::<S>([9.0, 9.0], 0.7, [1.0, 1.0])];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let tt = sv::<S>(&[0.25, 1.0, 1.5]);
    let tv = sv::<S>(&[0.0, 0.0, 1.0, -1.0, 3.0, 5.0]);
    let at = sv::<S>(&[0.0, 2.0]);
    let av = sv::<S>(&[3.0, -3.0]);
    let tracks = [SliceTrack {
        channels: [channel(Interpolation::Linear, &tt, &tv, &[]), channel(Interpolation::Linear, &at, &av, &[]), None],
    }];
    let clip = SliceSkelClip { duration: s(2.0), looping: true, tracks: &tracks, events: &[] };
    clip.check::<Transform2<S>>().unwrap();
    let mut ctx = SamplingContext::<1>::new();
    let mut pose = [Transform2::<S>::IDENTITY; 1];
    // (time, translation, angle)
    let cases: [(f64, [f64; 2], f64); 8] = [
        (2.5, [1.0 / 3.0, -1.0 / 3.0], 3.0 - 6.0 * 0.25), // wraps to 0.5: u = 0.25 / 0.75
        (-0.75, [2.0, 2.0], 3.0 - 6.0 * 0.625),           // wraps to 1.25
        (2.0, [3.0, 5.0], -3.0),                          // t = duration: the last keys
        (4.0, [0.0, 0.0], 3.0),                           // 2·duration: wraps to the start
        (1.75, [3.0, 5.0], 3.0 - 6.0 * 0.875),            // between the last key and the duration
        (4.1, [0.0, 0.0], 3.0 - 6.0 * 0.05),              // wraps to 0.1
        (1.0, [1.0, -1.0], 0.0),                          // angle through 0, not through π
        (0.0, [0.0, 0.0], 3.0),
    ];
    for (time, tr, angle) in cases {
        SamplingJob::new(&skel, &clip, s::<S>(time)).run(&mut ctx, &mut pose).unwrap();
        close2(pose[0].translation, tr, 2.0 * tol::<S>());
        close(pose[0].angle, angle, 2.0 * tol::<S>());
        assert_eq!(pose[0].scale, rest[0].scale);
    }
}
both!(sampling_loop_wrap_2d);

/// Hermite: h00·v0 + h10·dt·out0 + h01·v1 + h11·dt·in1, per component; 3D rotations normalised.
fn sampling_hermite<S: Scalar>() {
    let parents = [ROOT];
    let rest = [Transform3::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times = [1.0, 3.0];
    let tt = sv::<S>(&times);
    let v0 = [1.0, 0.0, -2.0];
    let v1 = [2.0, 4.0, 1.0];
    let in0 = [9.0, 9.0, 9.0];
    let out0 = [0.5, -1.0, 0.0];
    let in1 = [2.0, 0.0, -0.75];
    let out1 = [7.0, 7.0, 7.0];
    let tv = sv::<S>(&[v0, v1].concat());
    let tg = sv::<S>(&[in0, out0, in1, out1].concat());
    // Rotation: from the identity to rotZ(1), with angular-ish tangents on z.
    let r0 = rotz(0.0);
    let r1 = rotz(1.0);
    let rin0 = [0.0; 4];
    let rout0 = [0.0, 0.0, 0.25, 0.0];
    let rin1 = [0.0, 0.1, 0.2, -0.05];
    let rout1 = [0.0; 4];
    let rv = sv::<S>(&[r0, r1].concat());
    let rg = sv::<S>(&[rin0, rout0, rin1, rout1].concat());
    let tracks = [SliceTrack {
        channels: [
            channel(Interpolation::Hermite, &tt, &tv, &tg),
            channel(Interpolation::Hermite, &tt, &rv, &rg),
            None,
        ],
    }];
    let clip = SliceSkelClip { duration: s(4.0), looping: false, tracks: &tracks, events: &[] };
    clip.check::<Transform3<S>>().unwrap();
    let mut ctx = SamplingContext::<1>::new();
    let mut pose = [Transform3::<S>::IDENTITY];
    let hermite = |u: f64, a: f64, o: f64, b: f64, i: f64| {
        let dt = 2.0;
        let h00 = 2.0 * u * u * u - 3.0 * u * u + 1.0;
        let h10 = u * u * u - 2.0 * u * u + u;
        let h01 = -2.0 * u * u * u + 3.0 * u * u;
        let h11 = u * u * u - u * u;
        h00 * a + h10 * dt * o + h01 * b + h11 * dt * i
    };
    for time in [1.5, 2.0, 2.9] {
        let u = (time - 1.0) / 2.0;
        SamplingJob::new(&skel, &clip, s::<S>(time)).run(&mut ctx, &mut pose).unwrap();
        let want: Vec<f64> = (0..3).map(|c| hermite(u, v0[c], out0[c], v1[c], in1[c])).collect();
        close3(pose[0].translation, [want[0], want[1], want[2]], 4.0 * tol::<S>());
        let r: Vec<f64> = (0..4).map(|c| hermite(u, r0[c], rout0[c], r1[c], rin1[c])).collect();
        closeq(pose[0].rotation, qnorm([r[0], r[1], r[2], r[3]]), tol_trig::<S>());
    }
    // u = 0.25, by hand: h00 = 27/32, h10 = 9/64, h01 = 5/32, h11 = −3/64; x = 27/32 + 9/64·2·0.5
    // + 5/32·2 + (−3/64)·2·2 = 0.84375 + 0.140625 + 0.3125 − 0.1875 = 1.109375.
    SamplingJob::new(&skel, &clip, s::<S>(1.5)).run(&mut ctx, &mut pose).unwrap();
    close(pose[0].translation.x, 1.109375, 4.0 * tol::<S>());
    // On the keys: the stored values, exactly.
    SamplingJob::new(&skel, &clip, s::<S>(3.0)).run(&mut ctx, &mut pose).unwrap();
    assert_eq!(pose[0].translation, v3(v1[0], v1[1], v1[2]));
    assert_eq!(pose[0].rotation, q(r1));
}
both!(sampling_hermite);

/// Rotations: nlerp on the shortest arc (the second key is stored negated), or slerp.
fn sampling_nlerp_slerp<S: Scalar>() {
    let parents = [ROOT];
    let rest = [Transform3::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let tt = sv::<S>(&[0.0, 1.0]);
    let b = rotz(core::f64::consts::FRAC_PI_2).map(|c| -c);
    let rv = sv::<S>(&[[0.0, 0.0, 0.0, 1.0], b].concat());
    let tracks = [SliceTrack { channels: [None, channel(Interpolation::Linear, &tt, &rv, &[]), None] }];
    let clip = SliceSkelClip { duration: s(1.0), looping: false, tracks: &tracks, events: &[] };
    let mut ctx = SamplingContext::<1>::new();
    let mut pose = [Transform3::<S>::IDENTITY];
    let (sn, cs) = (core::f64::consts::FRAC_1_SQRT_2, core::f64::consts::FRAC_1_SQRT_2);
    // Half-way: nlerp and slerp both give rotZ(π/4).
    let mut job = SamplingJob::new(&skel, &clip, s::<S>(0.5));
    job.run(&mut ctx, &mut pose).unwrap();
    closeq(pose[0].rotation, rotz(core::f64::consts::FRAC_PI_4), tol_trig::<S>());
    // A quarter of the way: nlerp normalises the chord point, slerp follows the arc.
    job.time = s(0.25);
    job.run(&mut ctx, &mut pose).unwrap();
    let nl = qnorm([0.0, 0.0, 0.25 * sn, 0.75 + 0.25 * cs]);
    closeq(pose[0].rotation, nl, tol_trig::<S>());
    job.rotation = RotationInterp::Slerp;
    job.run(&mut ctx, &mut pose).unwrap();
    let sl = rotz(core::f64::consts::FRAC_PI_8);
    closeq(pose[0].rotation, sl, tol_trig::<S>());
    assert!((nl[2] - sl[2]).abs() > 1e-3, "the two differ at a quarter");

    // Keys a few degrees apart (the usual case, normalised without a square root): as accurate
    // as a plain normalisation.
    let k0 = qmul(rotz(0.2), rotx(0.1));
    let k1 = qmul(rotz(0.4), rotx(0.22)); // 2⁻⁸ > 1 − |q|² ≈ 0.003 half-way
    let rv = sv::<S>(&[k0, k1].concat());
    let tracks = [SliceTrack { channels: [None, channel(Interpolation::Linear, &tt, &rv, &[]), None] }];
    let clip = SliceSkelClip { duration: s(1.0), looping: false, tracks: &tracks, events: &[] };
    for u in [0.1, 0.3, 0.5, 0.85] {
        SamplingJob::new(&skel, &clip, s::<S>(u)).run(&mut ctx, &mut pose).unwrap();
        let want = qnorm([0, 1, 2, 3].map(|c| k0[c] + (k1[c] - k0[c]) * u));
        let tight = if is_f32::<S>() { 2e-7 } else { 3.0 / 65536.0 };
        closeq(pose[0].rotation, want, tight);
    }
}
both!(sampling_nlerp_slerp);

/// Every key is reproduced bit for bit at its own time (Step, Linear, Hermite; quaternion keys are
/// not renormalised).
fn sampling_reproduces_keys<S: Scalar>() {
    let parents = [ROOT];
    let rest = [Transform3::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let times: Vec<f64> = (0..12).map(|i| f64::from(i) * 0.1 + if i % 3 == 1 { 0.0371 } else { 0.0 }).collect();
    let tt = sv::<S>(&times);
    let tv: Vec<S> = (0..36).map(|i| s(f64::from(i).sin() * 3.7)).collect();
    let rv: Vec<S> = (0..12).flat_map(|i| qnorm(rotx(f64::from(i) * 0.4)).map(|c| s::<S>(c * 0.999_97))).collect();
    let sg: Vec<S> = (0..72).map(|i| s(f64::from(i % 5) - 2.0)).collect();
    let svv: Vec<S> = (0..36).map(|i| s(1.0 + f64::from(i % 7) * 0.125)).collect();
    let tracks = [SliceTrack {
        channels: [
            channel(Interpolation::Linear, &tt, &tv, &[]),
            channel(Interpolation::Linear, &tt, &rv, &[]),
            channel(Interpolation::Hermite, &tt, &svv, &sg),
        ],
    }];
    let clip = SliceSkelClip { duration: s(1.2), looping: true, tracks: &tracks, events: &[] };
    clip.check::<Transform3<S>>().unwrap();
    let mut ctx = SamplingContext::<1>::new();
    let mut pose = [Transform3::<S>::IDENTITY];
    // Forwards, then backwards (different cursor paths).
    let order: Vec<usize> = (0..12).chain((0..12).rev()).collect();
    for k in order {
        SamplingJob::new(&skel, &clip, tt[k]).run(&mut ctx, &mut pose).unwrap();
        let j = pose[0];
        let base = 3 * k;
        assert_eq!([j.translation.x, j.translation.y, j.translation.z], [tv[base], tv[base + 1], tv[base + 2]]);
        let r = 4 * k;
        assert_eq!([j.rotation.x, j.rotation.y, j.rotation.z, j.rotation.w], [rv[r], rv[r + 1], rv[r + 2], rv[r + 3]]);
        assert_eq!([j.scale.x, j.scale.y, j.scale.z], [svv[base], svv[base + 1], svv[base + 2]]);
    }
}
both!(sampling_reproduces_keys);

/// Forward playback, seeks backwards and far ahead, repeated times and a context used for another
/// clip: every pose equals the one a fresh context gives (bit for bit) and the linear formula.
fn sampling_cursor<S: Scalar>() {
    let parents = [ROOT, 0];
    let rest = [Transform2::<S>::IDENTITY; 2];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    // 40 keys, irregular spacing; bone 0: x = k², y = −k; bone 1 angle = k / 2.
    let times: Vec<f64> = (0..40).map(|k| f64::from(k) * 0.1 + if k % 2 == 1 { 0.03 } else { 0.0 }).collect();
    let tt = sv::<S>(&times);
    let tv: Vec<S> = (0..40).flat_map(|k| [s::<S>(f64::from(k * k) / 16.0), s(-f64::from(k))]).collect();
    let av: Vec<S> = (0..40).map(|k| s(f64::from(k) / 2.0)).collect();
    let tracks = [
        SliceTrack { channels: [channel(Interpolation::Linear, &tt, &tv, &[]), None, None] },
        SliceTrack { channels: [None, channel(Interpolation::Linear, &tt, &av, &[]), None] },
    ];
    let clip = SliceSkelClip { duration: s(4.0), looping: false, tracks: &tracks, events: &[] };
    clip.check::<Transform2<S>>().unwrap();
    // Another clip with 3 keys, to leave stale cursors behind it and to be sampled with them.
    let t3k = sv::<S>(&[0.0, 0.2, 3.95]);
    let v3k = sv::<S>(&[0.0, 0.0, 1.0, 1.0, 5.0, 5.0]);
    let other_tracks = [SliceTrack { channels: [channel(Interpolation::Linear, &t3k, &v3k, &[]), None, None] }];
    let other = SliceSkelClip { duration: s(4.0), looping: false, tracks: &other_tracks, events: &[] };

    let expect = |t: f64| -> ([f64; 2], f64) {
        let t = t.clamp(0.0, 4.0);
        let k = times.iter().rposition(|&x| x <= t).unwrap_or(0);
        if k + 1 >= times.len() {
            let k = times.len() - 1;
            return ([(k * k) as f64 / 16.0, -(k as f64)], k as f64 / 2.0);
        }
        let u = (t - times[k]) / (times[k + 1] - times[k]);
        let (a, b) = ((k * k) as f64 / 16.0, ((k + 1) * (k + 1)) as f64 / 16.0);
        ([a + (b - a) * u, -(k as f64) - u], (k as f64 + u) / 2.0)
    };
    let mut ctx = SamplingContext::<2>::new();
    let mut pose = [Transform2::<S>::IDENTITY; 2];
    let mut fresh_pose = [Transform2::<S>::IDENTITY; 2];
    let mut times_seq: Vec<f64> = (0..250).map(|i| f64::from(i) / 60.0).collect(); // forward playback
    times_seq.extend([1.0, 1.0, 0.05, 3.99, 0.5, 0.5, 2.77, 0.0, 5.0, 3.91, 3.92, 1.13, 1.13]);
    // Q16.16 keys and times are rounded: the tolerance allows for the key values (up to 97) moving
    // by a rounded u, |Δu| ≲ 2⁻¹⁶ / 0.07.
    let tol_v = if is_f32::<S>() { 1e-4 } else { 100.0 * 2.0f64.powi(-16) / 0.07 + 8.0 * 2.0f64.powi(-16) };
    for &t in &times_seq {
        SamplingJob::new(&skel, &clip, s::<S>(t)).run(&mut ctx, &mut pose).unwrap();
        let mut fresh = SamplingContext::<2>::new();
        SamplingJob::new(&skel, &clip, s::<S>(t)).run(&mut fresh, &mut fresh_pose).unwrap();
        assert_eq!(pose, fresh_pose, "t = {t}: same pose whatever the cursor");
        let (tr, angle) = expect(s::<S>(t).to_f64());
        close2(pose[0].translation, tr, tol_v);
        close(pose[1].angle, angle, tol_v);
    }
    // The context was left near the end of the 40-key clip: sampling the 3-key clip with it, then
    // the 40-key clip again after the 3-key clip, gives correct poses.
    for t in [3.0, 0.1, 3.97] {
        let mut fresh = SamplingContext::<2>::new();
        SamplingJob::new(&skel, &other, s::<S>(t)).run(&mut ctx, &mut pose).unwrap();
        SamplingJob::new(&skel, &other, s::<S>(t)).run(&mut fresh, &mut fresh_pose).unwrap();
        assert_eq!(pose, fresh_pose);
        SamplingJob::new(&skel, &clip, s::<S>(t)).run(&mut ctx, &mut pose).unwrap();
        let (tr, angle) = expect(s::<S>(t).to_f64());
        close2(pose[0].translation, tr, tol_v);
        close(pose[1].angle, angle, tol_v);
    }
    // 3-key clip at 3.0: between 0.2 (1, 1) and 3.95 (5, 5).
    SamplingJob::new(&skel, &other, s::<S>(3.0)).run(&mut ctx, &mut pose).unwrap();
    let u = (3.0 - 0.2) / 3.75;
    close2(pose[0].translation, [1.0 + 4.0 * u, 1.0 + 4.0 * u], 10.0 * tol::<S>());
    ctx.invalidate();
    let before = pose;
    SamplingJob::new(&skel, &other, s::<S>(3.0)).run(&mut ctx, &mut pose).unwrap();
    assert_eq!(pose, before);
}
both!(sampling_cursor);

/// Bones above the LOD limit take their rest pose; errors are reported before writing.
fn sampling_lod_and_errors<S: Scalar>() {
    let parents = [ROOT, 0];
    let rest = [t3::<S>([1.0, 2.0, 3.0], rotx(0.5), [1.0; 3]), t3([4.0, 5.0, 6.0], rotz(0.5), [2.0; 3])];
    let lods = [0u8, 2];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let tt = sv::<S>(&[0.0]);
    let tv = sv::<S>(&[7.0, 8.0, 9.0]);
    let track = SliceTrack { channels: [channel(Interpolation::Linear, &tt, &tv, &[]), None, None] };
    let tracks = [track, track];
    let clip = SliceSkelClip { duration: s(1.0), looping: false, tracks: &tracks, events: &[] };
    let mut ctx = SamplingContext::<2>::new();
    let mut pose = [Transform3::<S>::IDENTITY; 2];
    let mut job = SamplingJob::new(&skel, &clip, s::<S>(0.5));
    job.lod = 1;
    job.run(&mut ctx, &mut pose).unwrap();
    assert_eq!(pose[0].translation, v3(7.0, 8.0, 9.0));
    assert_eq!(pose[0].rotation, rest[0].rotation);
    assert_eq!(pose[1], rest[1]);
    job.lod = 2;
    job.run(&mut ctx, &mut pose).unwrap();
    assert_eq!(pose[1].translation, v3(7.0, 8.0, 9.0));

    let mut small = [Transform3::<S>::IDENTITY; 1];
    assert_eq!(job.run(&mut ctx, &mut small), Err(JobError::OutputTooSmall { needed: 2, got: 1 }));
    assert_eq!(small[0], Transform3::IDENTITY);
    let mut ctx1 = SamplingContext::<1>::new();
    assert_eq!(job.run(&mut ctx1, &mut pose), Err(JobError::ContextTooSmall { needed: 2, got: 1 }));
    let three = [track, track, track];
    let big = SliceSkelClip { duration: s(1.0), looping: false, tracks: &three, events: &[] };
    let job3 = SamplingJob::new(&skel, &big, S::ZERO);
    assert_eq!(job3.validate(&ctx, &pose), Err(JobError::SkeletonMismatch { skeleton: 2, clip: 3 }));
    let zero = SliceSkelClip { duration: S::ZERO, looping: true, tracks: &tracks, events: &[] };
    assert_eq!(SamplingJob::new(&skel, &zero, S::ZERO).run(&mut ctx, &mut pose), Err(JobError::BadDuration));
}
both!(sampling_lod_and_errors);

// ---------------------------------------------------------------------------------------------
// Blending

/// Two layers: weighted averages, the second rotation (stored negated) brought to the first's side.
fn blend_two_layers_3d<S: Scalar>() {
    let parents = [ROOT];
    let rest = [Transform3::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let c = core::f64::consts::FRAC_1_SQRT_2;
    let a = [t3::<S>([4.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3])];
    let b = [t3::<S>([0.0, 8.0, 0.0], [0.0, 0.0, -c, -c], [3.0; 3])];
    let layers = [BlendLayer::new(&a[..], s::<S>(0.25)), BlendLayer::new(&b[..], s(0.75))];
    let mut out = [Transform3::<S>::IDENTITY];
    BlendingJob::new(&skel, &layers).run(&mut out).unwrap();
    close3(out[0].translation, [1.0, 6.0, 0.0], tol::<S>());
    close3(out[0].scale, [2.5; 3], tol::<S>());
    closeq(out[0].rotation, qnorm([0.0, 0.0, 0.75 * c, 0.25 + 0.75 * c]), tol_trig::<S>());
    // The same weights not summing to 1 (0.5 and 1.5): the same average.
    let layers = [BlendLayer::new(&a[..], s::<S>(0.5)), BlendLayer::new(&b[..], s(1.5))];
    BlendingJob::new(&skel, &layers).run(&mut out).unwrap();
    close3(out[0].translation, [1.0, 6.0, 0.0], tol::<S>());
    close3(out[0].scale, [2.5; 3], tol::<S>());
    closeq(out[0].rotation, qnorm([0.0, 0.0, 0.75 * c, 0.25 + 0.75 * c]), tol_trig::<S>());
}
both!(blend_two_layers_3d);

/// Under the threshold the rest pose fills the remaining weight; no layer at all gives the rest.
fn blend_threshold_fill<S: Scalar>() {
    let parents = [ROOT];
    let rest = [t3::<S>([0.0, 0.0, 5.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3])];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let r = rotz(1.0);
    let a = [t3::<S>([10.0, 0.0, 0.0], r, [2.0; 3])];
    let layers = [BlendLayer::new(&a[..], s::<S>(0.3))];
    let mut out = [Transform3::<S>::IDENTITY];
    let mut job = BlendingJob::new(&skel, &layers);
    job.threshold = S::ONE;
    job.run(&mut out).unwrap();
    // 0.3·layer + 0.7·rest.
    let t10 = if is_f32::<S>() { 1e-5 } else { 16.0 / 65536.0 };
    close3(out[0].translation, [3.0, 0.0, 3.5], t10);
    close3(out[0].scale, [1.3; 3], tol::<S>());
    closeq(out[0].rotation, qnorm([0.0, 0.0, 0.3 * r[2], 0.3 * r[3] + 0.7]), tol_trig::<S>());
    // Above the threshold (0.1, the default): the layer alone.
    job.threshold = s(0.1);
    job.run(&mut out).unwrap();
    // Q16.16: 0.3 is rounded, and 10 × w / w loses a little.
    close3(out[0].translation, [10.0, 0.0, 0.0], t10);
    closeq(out[0].rotation, r, tol_trig::<S>());
    // No contributing layer (weights 0 and −1 are skipped): the rest pose.
    let layers = [BlendLayer::new(&a[..], S::ZERO), BlendLayer::new(&a[..], S::NEG_ONE)];
    let job = BlendingJob::new(&skel, &layers);
    job.run(&mut out).unwrap();
    close3(out[0].translation, [0.0, 0.0, 5.0], t10);
    close3(out[0].scale, [1.0; 3], tol::<S>());
    closeq(out[0].rotation, [0.0, 0.0, 0.0, 1.0], tol::<S>());
    let none: [BlendLayer<'_, S, Transform3<S>>; 0] = [];
    BlendingJob::new(&skel, &none).run(&mut out).unwrap();
    close3(out[0].translation, [0.0, 0.0, 5.0], t10);
}
both!(blend_threshold_fill);

/// Per-bone masks multiply the layer weight.
fn blend_masks<S: Scalar>() {
    let parents = [ROOT, 0];
    let rest = [Transform2::<S>::IDENTITY; 2];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let a = [t2::<S>([3.0, 0.0], 0.0, [1.0, 1.0]), t2([100.0, 100.0], 2.0, [9.0, 9.0])];
    let b = [t2::<S>([0.0, 6.0], 0.6, [4.0, 1.0]), t2([1.0, 2.0], -0.4, [0.5, 2.0])];
    let ma = sv::<S>(&[1.0, 0.0]);
    let mb = sv::<S>(&[0.5, 1.0]);
    let layers = [
        BlendLayer { pose: &a[..], weight: S::ONE, mask: Some(&ma[..]) },
        BlendLayer { pose: &b[..], weight: S::ONE, mask: Some(&mb[..]) },
    ];
    let mut out = [Transform2::<S>::IDENTITY; 2];
    BlendingJob::new(&skel, &layers).run(&mut out).unwrap();
    // Bone 0: (a + 0.5·b) / 1.5. Bone 1: b alone.
    close2(out[0].translation, [2.0, 2.0], tol::<S>());
    close(out[0].angle, 0.2, tol::<S>());
    close2(out[0].scale, [2.0, 1.0], tol::<S>());
    assert_eq!(out[1], b[1]);
}
both!(blend_masks);

/// 2D angles: the weighted average of shortest differences from the first contributing layer.
fn blend_angles_2d<S: Scalar>() {
    let parents = [ROOT];
    let rest = [Transform2::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let a = [t2::<S>([0.0, 2.0], 3.0, [1.0, 2.0])];
    let b = [t2::<S>([4.0, 0.0], -3.0, [3.0, 2.0])];
    let layers = [BlendLayer::new(&a[..], S::HALF), BlendLayer::new(&b[..], S::HALF)];
    let mut out = [Transform2::<S>::IDENTITY];
    BlendingJob::new(&skel, &layers).run(&mut out).unwrap();
    close2(out[0].translation, [2.0, 1.0], tol::<S>());
    close2(out[0].scale, [2.0, 2.0], tol::<S>());
    // −3 − 3 = −6 wraps to 2π − 6; half of it added to 3: 3 + π − 3 = π (across ±π, not through 0).
    close(out[0].angle, core::f64::consts::PI, tol::<S>());
    // With weights 0.25 / 0.75 and the other layer first: ref −3, diff 6 − 2π.
    let layers = [BlendLayer::new(&b[..], s::<S>(0.25)), BlendLayer::new(&a[..], s(0.75))];
    BlendingJob::new(&skel, &layers).run(&mut out).unwrap();
    close(out[0].angle, -3.0 + 0.75 * (6.0 - core::f64::consts::TAU), tol::<S>());
}
both!(blend_angles_2d);

/// Additive layers with an identity reference, in 3D.
fn blend_additive_identity_3d<S: Scalar>() {
    let parents = [ROOT];
    let rest = [Transform3::<S>::IDENTITY];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let pr = rotx(0.7);
    let p = [t3::<S>([1.0, 1.0, 1.0], pr, [2.0, 2.0, 2.0])];
    let d = [t3::<S>([2.0, 0.0, -4.0], rotz(1.0), [3.0, 1.0, 0.5])];
    let layers = [BlendLayer::new(&p[..], S::ONE)];
    let additive = [BlendLayer::new(&d[..], S::HALF)];
    let mut out = [Transform3::<S>::IDENTITY];
    let mut job = BlendingJob::new(&skel, &layers);
    job.additive = &additive;
    job.run(&mut out).unwrap();
    close3(out[0].translation, [2.0, 1.0, -1.0], tol::<S>());
    // nlerp(identity, rotZ(1), ½) = rotZ(½) (half-way nlerp is on the arc).
    closeq(out[0].rotation, qmul(pr, rotz(0.5)), tol_trig::<S>());
    close3(out[0].scale, [2.0 * 2.0, 2.0, 2.0 * 0.75], tol::<S>());
    // Weight 1: the delta as it is. A masked-out or non-positive additive layer does nothing.
    let m0 = sv::<S>(&[0.0]);
    let additive = [
        BlendLayer::new(&d[..], S::ONE),
        BlendLayer { pose: &d[..], weight: S::ONE, mask: Some(&m0[..]) },
        BlendLayer::new(&d[..], S::NEG_ONE),
    ];
    job.additive = &additive;
    job.run(&mut out).unwrap();
    close3(out[0].translation, [3.0, 1.0, -3.0], tol::<S>());
    closeq(out[0].rotation, qmul(pr, rotz(1.0)), tol_trig::<S>());
    close3(out[0].scale, [6.0, 2.0, 1.0], tol::<S>());
}
both!(blend_additive_identity_3d);

/// Additive layers with the bind pose as reference: the delta is rest⁻¹ ∘ pose per channel.
fn blend_additive_bind_pose<S: Scalar>() {
    let parents = [ROOT];
    let rr = rotx(0.4);
    let rest = [t3::<S>([1.0, 2.0, 3.0], rr, [2.0, 2.0, 2.0])];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let pr = rotz(-0.3);
    let p = [t3::<S>([0.0, 0.0, 1.0], pr, [1.0, 1.0, 1.0])];
    let a = [t3::<S>([1.5, 2.0, 3.0], qmul(rr, rotz(0.6)), [3.0, 2.0, 1.0])];
    let layers = [BlendLayer::new(&p[..], S::ONE)];
    let additive = [BlendLayer::new(&a[..], S::ONE)];
    let mut out = [Transform3::<S>::IDENTITY];
    let mut job = BlendingJob::new(&skel, &layers);
    job.additive = &additive;
    job.additive_reference = AdditiveReference::BindPose;
    job.run(&mut out).unwrap();
    close3(out[0].translation, [0.5, 0.0, 1.0], tol::<S>());
    closeq(out[0].rotation, qmul(pr, rotz(0.6)), tol_trig::<S>());
    close3(out[0].scale, [1.5, 1.0, 0.5], tol::<S>());
    // 2D: translation difference, angle difference (not wrapped), scale ratio; weight ½.
    let rest2 = [t2::<S>([1.0, 1.0], 0.5, [2.0, 4.0])];
    let skel2 = SliceSkeleton::new(&parents, &rest2).unwrap();
    let p2 = [t2::<S>([0.0, 0.0], 1.0, [1.0, 1.0])];
    let a2 = [t2::<S>([3.0, 0.0], 3.0, [3.0, 2.0])];
    let layers2 = [BlendLayer::new(&p2[..], S::ONE)];
    let additive2 = [BlendLayer::new(&a2[..], S::HALF)];
    let mut out2 = [Transform2::<S>::IDENTITY];
    let mut job2 = BlendingJob::new(&skel2, &layers2);
    job2.additive = &additive2;
    job2.additive_reference = AdditiveReference::BindPose;
    job2.run(&mut out2).unwrap();
    close2(out2[0].translation, [1.0, -0.5], tol::<S>());
    close(out2[0].angle, 1.0 + 0.5 * 2.5, tol::<S>());
    close2(out2[0].scale, [1.0 + 0.5 * 0.5, 1.0 - 0.5 * 0.5], tol::<S>());
    // Identity reference in 2D: the pose is the delta.
    job2.additive_reference = AdditiveReference::Identity;
    job2.run(&mut out2).unwrap();
    close2(out2[0].translation, [1.5, 0.0], tol::<S>());
    close(out2[0].angle, 2.5, tol::<S>());
    close2(out2[0].scale, [2.0, 1.5], tol::<S>());
}
both!(blend_additive_bind_pose);

/// LOD and errors.
fn blend_lod_and_errors<S: Scalar>() {
    let parents = [ROOT, 0];
    let rest = [t2::<S>([1.0, 1.0], 0.5, [2.0, 4.0]), t2([7.0, 7.0], -1.0, [1.0, 1.0])];
    let lods = [0u8, 5];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let a = [t2::<S>([3.0, 0.0], 0.0, [1.0, 1.0]); 2];
    let layers = [BlendLayer::new(&a[..], S::ONE)];
    let mut out = [Transform2::<S>::IDENTITY; 2];
    let mut job = BlendingJob::new(&skel, &layers);
    job.lod = 4;
    job.run(&mut out).unwrap();
    assert_eq!(out[0], a[0]);
    assert_eq!(out[1], rest[1]);

    let mut small = [Transform2::<S>::IDENTITY; 1];
    assert_eq!(job.run(&mut small), Err(JobError::OutputTooSmall { needed: 2, got: 1 }));
    job.threshold = S::ZERO;
    assert_eq!(job.run(&mut out), Err(JobError::BadThreshold));
    job.threshold = S::ONE;
    let short = [layers[0], BlendLayer::new(&a[..1], S::ONE)];
    job.layers = &short;
    assert_eq!(job.validate(&out), Err(JobError::InputTooSmall { needed: 2, got: 1 }));
    let m = sv::<S>(&[1.0]);
    let masked = [BlendLayer { pose: &a[..], weight: S::ONE, mask: Some(&m[..]) }];
    job.layers = &layers;
    job.additive = &masked;
    assert_eq!(job.validate(&out), Err(JobError::MaskTooSmall { needed: 2, got: 1 }));
}
both!(blend_lod_and_errors);

// ---------------------------------------------------------------------------------------------
// Local to model

fn l2m_3d<S: Scalar>() {
    // 0 (root) → 1 → 2, and 3 another root.
    let parents = [ROOT, 0, 1, ROOT];
    let r90 = rotz(core::f64::consts::FRAC_PI_2);
    let rest = [Transform3::<S>::IDENTITY; 4];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap();
    let local = [
        t3::<S>([1.0, 0.0, 0.0], r90, [2.0; 3]),
        t3([1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
        t3([0.0, 1.0, 0.0], r90, [1.0; 3]),
        t3([0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
    ];
    let mut model = [Transform3::<S>::IDENTITY; 4];
    let mut job = LocalToModelJob::new(&skel);
    job.root = t3([0.0, 0.0, 10.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
    job.run(&local, &mut model).unwrap();
    let tt = tol_trig::<S>();
    // model1 = (1, 0, 10) + R90·(2·(1, 0, 0)) = (1, 2, 10); model2 = (1, 2, 10) + R90·(2·(0, 1, 0)).
    close3(model[0].translation, [1.0, 0.0, 10.0], tt);
    close3(model[1].translation, [1.0, 2.0, 10.0], 2.0 * tt);
    close3(model[2].translation, [-1.0, 2.0, 10.0], 4.0 * tt);
    close3(model[3].translation, [0.0, 0.0, 13.0], tol::<S>());
    closeq(model[2].rotation, rotz(core::f64::consts::PI), tt);
    close3(model[2].scale, [2.0; 3], tol::<S>());

    // A sub-range: bones 1..3 from the given model transform of bone 0; 0 and 3 untouched.
    let sentinel = t3::<S>([5.0, 5.0, 5.0], [0.0, 0.0, 0.0, 1.0], [3.0; 3]);
    let mut model = [sentinel; 4];
    job.from = 1;
    job.to = 3;
    job.run(&local, &mut model).unwrap();
    assert_eq!(model[0], sentinel);
    assert_eq!(model[3], sentinel);
    close3(model[1].translation, [8.0, 5.0, 5.0], tol::<S>());
    close3(model[2].translation, [8.0, 8.0, 5.0], tol::<S>());
    close3(model[2].scale, [3.0; 3], tol::<S>());

    // `to` past the end is clamped; errors.
    job.to = 1000;
    job.run(&local, &mut model).unwrap();
    close3(model[3].translation, [0.0, 0.0, 13.0], tol::<S>());
    job.from = 5;
    assert_eq!(job.run(&local, &mut model), Err(JobError::BadRange { from: 5, to: 4 }));
    job.from = 0;
    assert_eq!(job.run(&local[..3], &mut model), Err(JobError::InputTooSmall { needed: 4, got: 3 }));
    assert_eq!(job.run(&local, &mut model[..2]), Err(JobError::OutputTooSmall { needed: 4, got: 2 }));
    job.to = 2;
    job.run(&local[..2], &mut model[..2]).unwrap();
}
both!(l2m_3d);

fn l2m_2d_lod<S: Scalar>() {
    let parents = [ROOT, 0, 1];
    let half_pi = core::f64::consts::FRAC_PI_2;
    let rest = [Transform2::<S>::IDENTITY, Transform2::IDENTITY, t2([0.0, 2.0], 0.0, [1.0, 1.0])];
    let lods = [0u8, 0, 3];
    let skel = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let local = [
        t2::<S>([1.0, 1.0], half_pi, [2.0, 2.0]),
        t2([3.0, 0.0], half_pi, [1.0, 1.0]),
        t2([0.0, 1.0], 0.25, [0.5, 0.5]),
    ];
    let mut model = [Transform2::<S>::IDENTITY; 3];
    let mut job = LocalToModelJob::new(&skel);
    job.run(&local, &mut model).unwrap();
    let tt = tol_trig::<S>();
    // model1 = (1, 1) + R90·(6, 0) = (1, 7), angle π; model2 = (1, 7) + Rπ·(0, 2) = (1, 5).
    close2(model[1].translation, [1.0, 7.0], 8.0 * tt);
    close(model[1].angle, core::f64::consts::PI, tol::<S>());
    close2(model[2].translation, [1.0, 5.0], 8.0 * tt);
    close(model[2].angle, core::f64::consts::PI + 0.25, tol::<S>());
    close2(model[2].scale, [1.0, 1.0], tol::<S>());
    // LOD 2: bone 2 uses its rest pose: (1, 7) + Rπ·(2·(0, 2)) = (1, 3).
    job.lod = 2;
    job.run(&local, &mut model).unwrap();
    close2(model[2].translation, [1.0, 3.0], 8.0 * tt);
    close(model[2].angle, core::f64::consts::PI, tol::<S>());
    close2(model[2].scale, [2.0, 2.0], tol::<S>());
}
both!(l2m_2d_lod);

#[test]
fn job_error_display() {
    let errors = [
        JobError::OutputTooSmall { needed: 3, got: 1 },
        JobError::InputTooSmall { needed: 3, got: 1 },
        JobError::MaskTooSmall { needed: 3, got: 1 },
        JobError::ContextTooSmall { needed: 3, got: 1 },
        JobError::SkeletonMismatch { skeleton: 2, clip: 5 },
        JobError::BadDuration,
        JobError::BadThreshold,
        JobError::BadRange { from: 4, to: 2 },
    ];
    let texts: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(texts[0], "output pose too small: 3 joints needed, 1 given");
    assert_eq!(texts[4], "clip animates 5 bones but the skeleton has 2");
    for (i, a) in texts.iter().enumerate() {
        assert!(!a.is_empty());
        for b in &texts[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // The documented bytes per bone: context 12, joints 40 (3D) and 20 (2D) in both scalar types.
    assert_eq!(core::mem::size_of::<SamplingContext<70>>(), 840);
    assert_eq!(core::mem::size_of::<Transform3<f32>>(), 40);
    assert_eq!(core::mem::size_of::<Transform3<Q16>>(), 40);
    assert_eq!(core::mem::size_of::<Transform2<f32>>(), 20);
    assert_eq!(core::mem::size_of::<Transform2<Q16>>(), 20);
}
