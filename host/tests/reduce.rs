//! Keyframe reduction, its error metric and 16-bit quantisation (`ossicle_host::reduce`), against
//! expectations worked out by hand on small skeletons, and on the real Mixamo fixtures (`eva/`).
//!
//! The fixtures are found like `tests/eva.rs` finds them: `OSSICLE_FIXTURES`, else
//! `<repo>/../shared/fixtures`; when absent the fixture tests say so and pass, unless
//! `OSSICLE_REQUIRE_FIXTURES=1`. `cargo test --release -p ossicle-host --test reduce -- --ignored
//! --nocapture` prints the figures for the three fixtures.

use ossicle_host::ir::{BoneIr, BoneTrackIr, ChannelKey, Origin, SkelClipIr, SkeletonIr, Transform3};
use ossicle_host::reduce::{
    compose, key_count, local_to_model, measure_error, pack_rotation, packed_dropped, quantize_channel, quantize_clip,
    recover_packed, reduce, reduce_quantized, sample_local, sample_times, snap_to_grid, storage_model, ErrorStats,
    ReduceOptions,
};
use ossicle_host::sources::eva;
use std::path::Path;

mod common;
use common::fixtures;

// ---------------------------------------------------------------------------------------------
// Helpers

const D: f64 = 3.0;

fn bone(name: &str, parent: Option<usize>, t: [f64; 3]) -> BoneIr {
    BoneIr { name: name.into(), parent, bind: Transform3 { translation: t, ..Transform3::IDENTITY } }
}

fn skeleton(bones: Vec<BoneIr>) -> SkeletonIr {
    SkeletonIr { name: "test".into(), bones, origin: Origin::default() }
}

fn clip(tracks: Vec<BoneTrackIr>) -> SkelClipIr {
    SkelClipIr {
        name: "c".into(),
        duration: 1.0,
        sample_rate: 30.0,
        looping: false,
        tracks,
        skeleton: None,
        origin: Origin::default(),
        events: vec![],
    }
}

fn track(bone: &str) -> BoneTrackIr {
    BoneTrackIr::linear(bone, vec![], vec![], vec![])
}

fn key<const N: usize>(time: f64, value: [f64; N]) -> ChannelKey<N> {
    ChannelKey { time, value }
}

/// The rotation by `angle` radians about Z.
fn rot_z(angle: f64) -> [f64; 4] {
    [0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos()]
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    assert!(close(a, b, tol), "{a:?} vs {b:?} (tolerance {tol})");
}

/// Root at the origin with a child `l` along X, and a grandchild another `l` along X.
fn chain(l: f64) -> SkeletonIr {
    skeleton(vec![
        bone("root", None, [0.0; 3]),
        bone("child", Some(0), [l, 0.0, 0.0]),
        bone("tip", Some(1), [l, 0.0, 0.0]),
    ])
}

/// A clip holding the root's rotation at `q` (two keys, 0 and 1 s).
fn root_rotation(q: [f64; 4]) -> SkelClipIr {
    let mut t = track("root");
    t.rotation = vec![key(0.0, q), key(1.0, q)];
    clip(vec![t])
}

// ---------------------------------------------------------------------------------------------
// Sampling and local-to-model

#[test]
fn samples_linearly_holds_outside_and_uses_bind_elsewhere() {
    let sk = skeleton(vec![bone("a", None, [1.0, 2.0, 3.0]), bone("b", Some(0), [4.0, 5.0, 6.0])]);
    let mut t = track("a");
    t.translation = vec![key(0.5, [0.0, 0.0, 0.0]), key(1.0, [10.0, -20.0, 4.0])];
    t.scale = vec![key(0.25, [2.0, 2.0, 2.0])];
    let c = clip(vec![t]);
    // Halfway: (5, -10, 2); a quarter of the way at 0.625 s: (2.5, -5, 1).
    let p = sample_local(&sk, &c, 0.75).unwrap();
    assert_close(&p[0].translation, &[5.0, -10.0, 2.0], 1e-12);
    assert_close(&sample_local(&sk, &c, 0.625).unwrap()[0].translation, &[2.5, -5.0, 1.0], 1e-12);
    // Before the first key and after the last: held.
    assert_close(&sample_local(&sk, &c, 0.0).unwrap()[0].translation, &[0.0; 3], 0.0);
    assert_close(&sample_local(&sk, &c, 3.0).unwrap()[0].translation, &[10.0, -20.0, 4.0], 0.0);
    // A single key holds everywhere; rotation without keys and bone `b` without a track: bind.
    assert_eq!(p[0].scale, [2.0; 3]);
    assert_eq!(p[0].rotation, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(p[1], sk.bones[1].bind);
}

#[test]
fn rotations_nlerp_on_the_shortest_arc_and_are_normalised() {
    let sk = skeleton(vec![bone("a", None, [0.0; 3])]);
    let mut t = track("a");
    // 0° to 90° about Z, the second key given as its negation (same rotation): the midpoint is
    // 45° about Z, not the long way round.
    let q90 = rot_z(std::f64::consts::FRAC_PI_2);
    t.rotation = vec![key(0.0, [0.0, 0.0, 0.0, 1.0]), key(1.0, q90.map(|x| -x))];
    let c = clip(vec![t]);
    let mid = sample_local(&sk, &c, 0.5).unwrap()[0].rotation;
    assert_close(&mid, &rot_z(std::f64::consts::FRAC_PI_4), 1e-12);
    // nlerp at a quarter: normalise (1 - 1/4, 1/4 · q90) by hand.
    let (s, c45) = (std::f64::consts::FRAC_PI_4.sin(), std::f64::consts::FRAC_PI_4.cos());
    let (z, w) = (0.25 * s, 0.75 + 0.25 * c45);
    let len = (z * z + w * w).sqrt();
    assert_close(&sample_local(&sk, &c, 0.25).unwrap()[0].rotation, &[0.0, 0.0, z / len, w / len], 1e-12);
    // A key of length 2 is normalised when sampled.
    let c2 = root_rotation([0.0, 0.0, 0.0, 2.0]);
    let sk2 = skeleton(vec![bone("root", None, [0.0; 3])]);
    assert_eq!(sample_local(&sk2, &c2, 0.3).unwrap()[0].rotation, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn local_to_model_composes_with_the_kernel_rule() {
    let sk = skeleton(vec![bone("p", None, [0.0; 3]), bone("c", Some(0), [0.0; 3])]);
    let parent =
        Transform3 { translation: [1.0, 2.0, 3.0], rotation: rot_z(std::f64::consts::FRAC_PI_2), scale: [2.0; 3] };
    let child = Transform3 {
        translation: [1.0, 0.0, 0.0],
        rotation: rot_z(std::f64::consts::FRAC_PI_2),
        scale: [0.5, 1.0, 3.0],
    };
    let m = local_to_model(&sk, &[parent, child]).unwrap();
    assert_eq!(m[0], parent);
    // (1, 2, 3) + Rz(90°)·(2·1, 0, 0) = (1, 4, 3); 180° about Z; scale (1, 2, 6).
    assert_close(&m[1].translation, &[1.0, 4.0, 3.0], 1e-12);
    assert_close(&m[1].rotation, &[0.0, 0.0, 1.0, 0.0], 1e-12);
    assert_close(&m[1].scale, &[1.0, 2.0, 6.0], 0.0);
    assert_eq!(compose(&parent, &child), m[1]);
    // A pose of the wrong length is an error, not a panic.
    assert!(local_to_model(&sk, &[parent]).is_err());
}

/// The kernel's own `f32` `Transform3::mul` and `Transform3::lerp` (nlerp on the shortest arc)
/// agree with `compose` and `sample_local` within `f32` precision on assorted transforms: the host
/// measures what the kernel will play.
#[test]
fn agrees_with_the_kernel_f32_math() {
    use ossicle::math::{Quat, Transform3 as K, Vec3};
    let to_k = |t: &Transform3| {
        let f = |v: [f64; 3]| Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32);
        let q = t.rotation;
        K::new(f(t.translation), Quat::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32), f(t.scale))
    };
    let from_k = |k: K<f32>| -> Vec<f64> {
        let (t, q, s) = (k.translation, k.rotation, k.scale);
        [t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z].iter().map(|&v| f64::from(v)).collect()
    };
    let flat =
        |t: &Transform3| -> Vec<f64> { t.translation.iter().chain(&t.rotation).chain(&t.scale).copied().collect() };
    let norm = |q: [f64; 4]| {
        let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        q.map(|x| x / l)
    };
    let transforms = [
        Transform3 { translation: [1.0, -2.0, 0.5], rotation: norm([0.1, 0.7, -0.2, 0.6]), scale: [1.0, 1.0, 1.0] },
        Transform3 { translation: [-3.0, 0.25, 4.0], rotation: norm([-0.5, 0.1, 0.3, -0.8]), scale: [2.0, 2.0, 2.0] },
        Transform3 { translation: [0.0, 10.0, -1.0], rotation: norm([0.9, -0.1, 0.0, 0.2]), scale: [0.5, 1.5, 1.0] },
    ];
    let sk = skeleton(vec![bone("a", None, [0.0; 3])]);
    for a in &transforms {
        for b in &transforms {
            assert!(close(&flat(&compose(a, b)), &from_k(to_k(a).mul(to_k(b))), 2e-5), "{a:?} ∘ {b:?}");
            let mut t = track("a");
            t.translation = vec![key(0.0, a.translation), key(1.0, b.translation)];
            t.rotation = vec![key(0.0, a.rotation), key(1.0, b.rotation)];
            t.scale = vec![key(0.0, a.scale), key(1.0, b.scale)];
            let c = clip(vec![t]);
            for u in [0.0, 0.3, 0.5, 0.9, 1.0] {
                let host = sample_local(&sk, &c, u).unwrap()[0];
                let kernel = K::lerp(to_k(a), to_k(b), u as f32);
                // The same rotation: q and -q are equal rotations, and nlerp may return either
                // sign at u = 1 depending on the first key, so compare up to sign.
                let (h, k) = (flat(&host), from_k(kernel));
                let flipped: Vec<f64> =
                    k.iter().enumerate().map(|(i, &v)| if (3..7).contains(&i) { -v } else { v }).collect();
                assert!(close(&h, &k, 2e-5) || close(&h, &flipped, 2e-5), "{u}: {h:?} vs {k:?}");
            }
        }
    }
}

#[test]
fn sample_times_are_key_times_and_midpoints() {
    let mut a = track("root");
    a.translation = vec![key(0.0, [0.0; 3]), key(1.0, [0.0; 3])];
    a.rotation = vec![key(0.5, [0.0, 0.0, 0.0, 1.0])];
    assert_eq!(sample_times(&clip(vec![a])), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    assert_eq!(sample_times(&clip(vec![])), vec![0.0]);
}

// ---------------------------------------------------------------------------------------------
// The error metric against hand-computed errors

#[test]
fn rotating_the_root_moves_a_child_vertex_by_two_r_sin_half_theta() {
    // Root rotated by θ about Z. The child sits at (L, 0, 0); its X vertex at (L + D, 0, 0) is
    // L + D from the axis and moves by 2(L + D)·sin(θ/2), its Y vertex (L, D, 0) by
    // 2·√(L² + D²)·sin(θ/2) (smaller), its Z vertex (L, 0, D) by 2L·sin(θ/2). The tip at 2L
    // moves by 2(2L + D)·sin(θ/2): the worst.
    let (l, theta) = (10.0, 0.01f64);
    let sk = chain(l);
    let original = root_rotation([0.0, 0.0, 0.0, 1.0]);
    let rotated = root_rotation(rot_z(theta));
    let s = measure_error(&sk, &original, &rotated, D, 0.1).unwrap();
    let half = (theta / 2.0).sin();
    assert!((s.max - 2.0 * (2.0 * l + D) * half).abs() < 1e-12, "{s:?}");
    assert_eq!(s.worst.0, "tip");
    // 3 samples (0, 0.5, 1) × 3 bones; errors are root 2D·sin, child 2(L+D)·sin, tip 2(2L+D)·sin.
    assert_eq!(s.samples, 9);
    let errors = [2.0 * D * half, 2.0 * (l + D) * half, 2.0 * (2.0 * l + D) * half];
    let under = errors.iter().filter(|&&e| e <= 0.1).count() as f64 / 3.0;
    assert!((s.under_threshold_share - under).abs() < 1e-12, "{s:?} vs {errors:?}");
    assert!((s.p99 - errors[2]).abs() < 1e-12);
}

#[test]
fn translating_and_scaling_the_root_moves_every_vertex_by_hand_computed_amounts() {
    let l = 10.0;
    let sk = chain(l);
    let original = clip(vec![]);
    // Translating the root by (3, 4, 0) moves every vertex of every bone by 5.
    let mut t = track("root");
    t.translation = vec![key(0.0, [3.0, 4.0, 0.0])];
    let s = measure_error(&sk, &original, &clip(vec![t]), D, 5.0 + 1e-9).unwrap();
    assert!((s.max - 5.0).abs() < 1e-12 && s.p99 == s.max && s.under_threshold_share == 1.0, "{s:?}");
    // Scaling the root by 1.001: the tip's X vertex at 2L + D moves by (2L + D)·0.001.
    let mut t = track("root");
    t.scale = vec![key(0.0, [1.001; 3])];
    let s = measure_error(&sk, &original, &clip(vec![t]), D, 0.0).unwrap();
    assert!((s.max - (2.0 * l + D) * 0.001).abs() < 1e-12, "{s:?}");
    assert_eq!(s.worst.0, "tip");
    // Only the identical samples count as under a threshold of 0: none here.
    assert_eq!(s.under_threshold_share, 0.0);
}

// ---------------------------------------------------------------------------------------------
// Reduction

/// A 3-bone chain with one track on `root` over 11 keys 0.1 s apart: translation on a straight
/// line, scale constant, and rotation keys on the straight 4D line from `qa` to `qb` (not
/// normalised: the kernel normalises after interpolating, so piecewise nlerp through these keys is
/// exactly the nlerp from the first to the last; unit keys sampled from that nlerp would not be,
/// since nlerp is not at constant speed).
#[test]
fn linear_channels_keep_only_their_end_keys() {
    let sk = chain(10.0);
    let mut t = track("root");
    let (qa, qb) = (rot_z(0.0), rot_z(1.2));
    for i in 0..=10 {
        let u = i as f64 / 10.0;
        t.translation.push(key(u, [2.0 * u, 0.0, -u]));
        t.rotation.push(key(u, [0, 1, 2, 3].map(|k| qa[k] + (qb[k] - qa[k]) * u)));
        t.scale.push(key(u, [1.5, 1.5, 1.5]));
    }
    let c = clip(vec![t]);
    let (r, s) = reduce(&sk, &c, &ReduceOptions { max_error_cm: 1e-6, ..Default::default() }).unwrap();
    let rt = &r.tracks[0];
    assert_eq!(rt.translation.iter().map(|k| k.time).collect::<Vec<_>>(), vec![0.0, 1.0]);
    assert_eq!(rt.rotation.iter().map(|k| k.time).collect::<Vec<_>>(), vec![0.0, 1.0]);
    // The constant scale collapses to one key (it is not the bind value 1, so it stays).
    assert_eq!(rt.scale, vec![key(0.0, [1.5; 3])]);
    assert!(s.max <= 1e-6, "{s:?}");
    assert_eq!(key_count(&r), 5);
}

#[test]
fn channels_at_the_bind_value_are_dropped_and_empty_tracks_removed() {
    let sk = chain(10.0);
    let mut t = track("child");
    // The child's bind translation (10, 0, 0), within 1e-9, and identity rotation and scale.
    t.translation = vec![key(0.0, [10.0, 0.0, 1e-9]), key(0.5, [10.0, 0.0, 0.0]), key(1.0, [10.0, 0.0, 0.0])];
    t.rotation = vec![key(0.0, [0.0, 0.0, 0.0, 1.0]), key(1.0, [0.0, 0.0, 0.0, 1.0])];
    t.scale = vec![key(0.0, [1.0; 3])];
    let (r, s) = reduce(&sk, &clip(vec![t]), &ReduceOptions::default()).unwrap();
    assert!(r.tracks.is_empty(), "{r:?}");
    assert!(s.max <= 1e-9 * (1.0 + 1e-6), "{s:?}");
}

/// A parent bump that is invisible at the parent's own vertices but not at its child's.
///
/// The root rotates about Z: keys at 0, 0.5 and 1 s with angles 0, θ, 0. Without the middle key
/// the root holds 0°, so at 0.5 s the root's own vertices move by at most 2D·sin(θ/2) (its X and Y
/// vertices), while the child at L = 100 along X has its X vertex at L + D from the axis, moved by
/// 2(L + D)·sin(θ/2). With θ chosen so that the first is 0.003 and the second 0.103, a bound of
/// 0.01 must keep the key: only the propagated error shows it.
#[test]
fn an_error_propagated_to_a_child_is_caught() {
    let l = 100.0;
    let sk = skeleton(vec![bone("root", None, [0.0; 3]), bone("child", Some(0), [l, 0.0, 0.0])]);
    let theta = 2.0 * (0.0015f64 / D).asin(); // 2D·sin(θ/2) = 0.003
    let mut t = track("root");
    t.rotation = vec![key(0.0, rot_z(0.0)), key(0.5, rot_z(theta)), key(1.0, rot_z(0.0))];
    let c = clip(vec![t.clone()]);

    // By hand: the error of dropping the middle key, at 0.5 s.
    let mut without = t.clone();
    without.rotation.remove(1);
    let s = measure_error(&sk, &c, &clip(vec![without.clone()]), D, 0.01).unwrap();
    let child_err = 2.0 * (l + D) * (theta / 2.0).sin();
    assert!((s.max - child_err).abs() < 1e-12 && s.worst == ("child".to_string(), 0.5), "{s:?}");
    // The root's own error is under the bound: a check of the root alone would drop the key.
    let root_only = skeleton(vec![bone("root", None, [0.0; 3])]);
    let s_root = measure_error(&root_only, &c, &clip(vec![without]), D, 0.01).unwrap();
    assert!((s_root.max - 0.003).abs() < 1e-12, "{s_root:?}");

    let opts = ReduceOptions { max_error_cm: 0.01, ..Default::default() };
    let (r, s) = reduce(&sk, &c, &opts).unwrap();
    assert_eq!(r.tracks[0].rotation.len(), 3, "the middle key must stay: {r:?}");
    assert!(s.max <= 0.01);
    // With the child gone the same bound drops the bump (and then the whole channel: identity is
    // the bind rotation).
    let (r, s) = reduce(&root_only, &c, &opts).unwrap();
    assert!(r.tracks.is_empty(), "{r:?}");
    assert!((s.max - 0.003).abs() < 1e-12);
    // And a bound above the child's error drops it too.
    let (r, _) = reduce(&sk, &c, &ReduceOptions { max_error_cm: 0.11, ..Default::default() }).unwrap();
    assert!(r.tracks.is_empty(), "{r:?}");
}

/// Removing a child's key after its parent's: the errors add up through the chain, and the final
/// check is over the whole clip, so the bound holds for the result.
#[test]
fn errors_of_parent_and_child_together_stay_within_the_bound() {
    let l = 10.0;
    let sk = chain(l);
    let mut root = track("root");
    let mut child = track("child");
    // Both rotate about Z with a small wiggle on every key; each alone could be simplified more
    // than the bound allows for both.
    for i in 0..=30 {
        let t = i as f64 / 30.0;
        let wiggle = if i % 2 == 0 { 1.0 } else { -1.0 } * 5e-5;
        root.rotation.push(key(t, rot_z(0.3 * t + wiggle)));
        child.rotation.push(key(t, rot_z(-0.2 * t + wiggle)));
    }
    let c = clip(vec![root, child]);
    for bound in [0.005, 0.01, 0.02, 0.05] {
        let (r, s) = reduce(&sk, &c, &ReduceOptions { max_error_cm: bound, ..Default::default() }).unwrap();
        let again = measure_error(&sk, &c, &r, D, bound).unwrap();
        assert_eq!(s, again);
        assert!(s.max <= bound, "bound {bound}: {s:?}");
        assert_eq!(s.under_threshold_share, 1.0);
        assert!(key_count(&r) < key_count(&c));
    }
}

#[test]
fn local_tolerances_limit_what_goes() {
    // A leaf with a translation bump of 0.005 at 0.5 s: the model bound of 0.01 lets it go, a
    // position tolerance of 0.004 keeps it.
    let sk = skeleton(vec![bone("root", None, [0.0; 3])]);
    let mut t = track("root");
    t.translation = vec![key(0.0, [1.0, 0.0, 0.0]), key(0.5, [1.0, 0.005, 0.0]), key(1.0, [1.0, 0.0, 0.0])];
    let c = clip(vec![t]);
    let (r, _) = reduce(&sk, &c, &ReduceOptions::default()).unwrap();
    assert_eq!(key_count(&r), 1);
    let (r, _) = reduce(&sk, &c, &ReduceOptions { position_tolerance: 0.004, ..Default::default() }).unwrap();
    assert_eq!(key_count(&r), 3);
    // Rotation: a bump of 0.1° (error at 3 cm: 2·3·sin(0.05°) = 0.0052) goes under 0.01 unless
    // the rotation tolerance is 0.05°.
    let mut t = track("root");
    let th = 0.1f64.to_radians();
    t.rotation = vec![key(0.0, rot_z(0.0)), key(0.5, rot_z(th)), key(1.0, rot_z(0.0))];
    let c = clip(vec![t]);
    assert_eq!(key_count(&reduce(&sk, &c, &ReduceOptions::default()).unwrap().0), 0);
    let opts = ReduceOptions { rotation_tolerance_deg: 0.05, ..Default::default() };
    assert_eq!(key_count(&reduce(&sk, &c, &opts).unwrap().0), 3);
    // Scale: 1.001 (0.003 at 3 cm) against a scale tolerance of 0.0005.
    let mut t = track("root");
    t.scale = vec![key(0.0, [1.0; 3]), key(0.5, [1.001; 3]), key(1.0, [1.0; 3])];
    let c = clip(vec![t]);
    assert_eq!(key_count(&reduce(&sk, &c, &ReduceOptions::default()).unwrap().0), 0);
    let opts = ReduceOptions { scale_tolerance: 0.0005, ..Default::default() };
    assert_eq!(key_count(&reduce(&sk, &c, &opts).unwrap().0), 3);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let sk = chain(1.0);
    let opts = ReduceOptions::default();
    // A track for a bone the skeleton does not have.
    let e = reduce(&sk, &clip(vec![track("nope")]), &opts).unwrap_err();
    assert!(e.reason.contains("`nope`"), "{e}");
    assert!(sample_local(&sk, &clip(vec![track("nope")]), 0.0).is_err());
    assert!(measure_error(&sk, &clip(vec![]), &clip(vec![track("nope")]), D, 0.01).is_err());
    // Two tracks for one bone.
    let e = reduce(&sk, &clip(vec![track("root"), track("root")]), &opts).unwrap_err();
    assert!(e.reason.contains("two tracks"), "{e}");
    // A parent after its child.
    let bad = skeleton(vec![bone("a", Some(1), [0.0; 3]), bone("b", None, [0.0; 3])]);
    assert!(reduce(&bad, &clip(vec![]), &opts).is_err());
    assert!(local_to_model(&bad, &[Transform3::IDENTITY; 2]).is_err());
    // Times not increasing, non-finite values.
    let mut t = track("root");
    t.translation = vec![key(0.5, [0.0; 3]), key(0.5, [1.0; 3])];
    assert!(reduce(&sk, &clip(vec![t]), &opts).is_err());
    let mut t = track("root");
    t.scale = vec![key(0.0, [f64::NAN; 3])];
    assert!(reduce(&sk, &clip(vec![t]), &opts).is_err());
    // No bones, no tracks: nothing to measure, no panic.
    let (r, s) = reduce(&skeleton(vec![]), &clip(vec![]), &opts).unwrap();
    assert!(r.tracks.is_empty() && s.samples == 0 && s.max == 0.0 && s.under_threshold_share == 1.0);
    // Options out of range.
    for o in [
        ReduceOptions { max_error_cm: -1.0, ..opts },
        ReduceOptions { max_error_cm: f64::NAN, ..opts },
        ReduceOptions { vertex_distance: 0.0, ..opts },
        ReduceOptions { rotation_tolerance_deg: f64::NAN, ..opts },
    ] {
        assert!(reduce(&sk, &clip(vec![]), &o).is_err(), "{o:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Quantisation

#[test]
fn quantisation_follows_the_formula_and_its_bound() {
    // A deterministic spread of values (a small LCG), one constant component.
    let mut x = 12345u64;
    let mut next = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let values: Vec<[f64; 3]> = (0..1000).map(|_| [next() * 200.0 - 100.0, 7.25, next() * 1e-3]).collect();
    let q = quantize_channel(&values);
    assert_eq!(q.q.len(), values.len());
    assert_eq!(q.extent[1], 0.0);
    assert_eq!(q.min[1], 7.25);
    for i in [0, 2] {
        let lo = values.iter().map(|v| v[i]).fold(f64::INFINITY, f64::min);
        let hi = values.iter().map(|v| v[i]).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!((q.min[i], q.extent[i]), (lo, hi - lo));
        // The smallest value quantises to 0, the largest to 65535.
        assert!(q.q.iter().any(|k| k[i] == 0) && q.q.iter().any(|k| k[i] == 65535));
    }
    for (v, (k, d)) in values.iter().zip(q.q.iter().zip(q.dequantize())) {
        for i in 0..3 {
            // The documented formula, exactly.
            let want = if q.extent[i] == 0.0 { q.min[i] } else { q.min[i] + f64::from(k[i]) * q.extent[i] / 65535.0 };
            assert_eq!(d[i], want);
            // Half a step (plus f64 rounding).
            assert!((d[i] - v[i]).abs() <= q.extent[i] / 131070.0 * (1.0 + 1e-9) + 1e-15, "{i}: {v:?} {d:?}");
        }
    }
    // Empty input: nothing, no panic.
    let e = quantize_channel::<4>(&[]);
    assert!(e.q.is_empty() && e.min == [0.0; 4] && e.extent == [0.0; 4]);
}

#[test]
fn quantised_clip_error_is_measured_with_the_kernel_normalisation() {
    // A root rotating 0..90° about Z over 11 keys: quantised components move by at most
    // extent / 131070 = sin(45°) / 131070 each (x, y stay 0; z, w span 0..0.7071 and 0.7071..1).
    // The renormalised quaternion's angle error is then tiny: the root's vertex error at D is below
    // 2·D·(|Δz| + |Δw|) ≤ 2·3·2·0.7071/131070 = 6.5e-5 (a loose hand bound).
    let sk = skeleton(vec![bone("root", None, [0.0; 3])]);
    let mut t = track("root");
    for i in 0..=10 {
        let u = i as f64 / 10.0;
        t.rotation.push(key(u, rot_z(u * std::f64::consts::FRAC_PI_2)));
    }
    let c = clip(vec![t]);
    let qc = quantize_clip(&c);
    assert_eq!(
        qc.tracks[0].rotation.iter().map(|k| k.time).collect::<Vec<_>>(),
        c.tracks[0].rotation.iter().map(|k| k.time).collect::<Vec<_>>()
    );
    let s = measure_error(&sk, &c, &qc, D, 1e-3).unwrap();
    assert!(s.max > 0.0 && s.max < 6.5e-5, "{s:?}");
    // The keys themselves: each component within extent/131070.
    for (a, b) in c.tracks[0].rotation.iter().zip(&qc.tracks[0].rotation) {
        for i in 0..4 {
            assert!((a.value[i] - b.value[i]).abs() <= (0.5f64.sqrt()) / 131070.0 + 1e-15);
        }
    }
}

#[test]
fn packed_rotations_follow_the_layout_and_are_recovered_exactly() {
    // 0..90° about Z, 11 keys: x = y = 0, z in [0, sin 45°], w in [cos 45°, 1]; w is dropped
    // (its smallest magnitude, 0.7071, is the largest), and half of the keys are negated first
    // (the same rotations): packing makes every w positive again.
    let values: Vec<[f64; 4]> = (0..=10)
        .map(|i| {
            let q = rot_z(i as f64 / 10.0 * std::f64::consts::FRAC_PI_2);
            if i % 2 == 1 {
                q.map(|x| -x)
            } else {
                q
            }
        })
        .collect();
    assert_eq!(packed_dropped(&values), 3);
    for bits in [2u8, 8, 16] {
        let p = pack_rotation(&values, 3, [bits, bits, bits]).expect("packs");
        assert_eq!((p.params.dropped, p.params.bits), (3, [bits; 3]));
        // x, y: the range [0, 0]; z: whole 2^-15 units around [0, sin 45°] = [0, 23171].
        assert_eq!((p.params.min, p.params.extent), ([0, 0, 0], [0, 0, 23171]));
        let step = 23171.0 / 32768.0 / f64::from((1u32 << bits) - 1);
        for (v, d) in values.iter().zip(p.values()) {
            let s = if v[3] < 0.0 { -1.0 } else { 1.0 };
            assert_eq!((d[0], d[1]), (0.0, 0.0));
            // The nearest step, or one more where the range must stay recoverable.
            assert!((d[2] - s * v[2]).abs() <= 1.5 * step + 1e-9, "{bits}: {d:?} vs {v:?}");
            // w = √(1 − z²) to 2^-30.
            assert!((d[3] - (1.0 - d[2] * d[2]).sqrt()).abs() <= 2.0 / 1073741824.0, "{d:?}");
            assert!(d[3] > 0.0);
        }
        // The writer finds an encoding that decodes to exactly these values, no wider.
        let back = recover_packed(&p.values()).expect("recovered");
        assert_eq!(back.values(), p.values());
        assert!(back.params.key_bits() <= usize::from(bits), "{:?}", back.params);
    }
    // Values off the 2^-30 grid, or empty, are not packed values; the identity is, in 0 bits.
    assert!(recover_packed(&[[0.0, 0.0, 0.1234567, 0.99]]).is_none());
    assert!(recover_packed(&[]).is_none());
    let id = recover_packed(&[[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]]).expect("identity");
    // Dropping x, y or z would store w = 1.0, past an i16 minimum (32767 units): w is dropped.
    assert_eq!((id.params.dropped, id.params.key_bits()), (3, 0));
    assert_eq!(id.values(), vec![[0.0, 0.0, 0.0, 1.0]; 2]);
}

// ---------------------------------------------------------------------------------------------
// The Mixamo fixtures

fn load(dir: &Path, name: &str) -> (SkeletonIr, SkelClipIr) {
    let path = dir.join("eva").join(format!("{name}.eva"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let p = eva::parse(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((p.skeletons.len(), p.skel_clips.len()), (1, 1));
    (p.skeletons.into_iter().next().unwrap(), p.skel_clips.into_iter().next().unwrap())
}

/// Keeps the first `n` keys of every channel (debug builds reduce a subset to stay quick).
fn truncate(clip: &SkelClipIr, n: usize) -> SkelClipIr {
    let mut c = clip.clone();
    for t in &mut c.tracks {
        t.translation.truncate(n);
        t.rotation.truncate(n);
        t.scale.truncate(n);
    }
    c
}

fn check_fixture(name: &str) -> Option<(usize, usize, ErrorStats)> {
    let dir = fixtures()?;
    let (sk, full) = load(&dir, name);
    // Debug builds: the first 60 keys of every channel (2 s); release: all of them.
    let c = if cfg!(debug_assertions) { truncate(&full, 60) } else { full };
    let opts = ReduceOptions::default();
    let (r, s) = reduce(&sk, &c, &opts).unwrap();
    assert!(s.max <= 0.01, "{name}: {s:?}");
    assert_eq!(s.under_threshold_share, 1.0);
    assert_eq!(s.samples, sample_times(&c).len() * 70);
    // Independently of the reducer's caches: measured afresh, and first/last keys kept.
    assert_eq!(measure_error(&sk, &c, &r, D, 0.01).unwrap(), s);
    for t in &r.tracks {
        let o = c.tracks.iter().find(|o| o.bone == t.bone).unwrap();
        for (red, orig) in [(&t.translation, &o.translation), (&t.scale, &o.scale)] {
            if red.len() > 1 {
                assert_eq!((red.first(), red.last()), (orig.first(), orig.last()));
            }
        }
        if t.rotation.len() > 1 {
            assert_eq!((t.rotation.first(), t.rotation.last()), (o.rotation.first(), o.rotation.last()));
        }
    }
    let (before, after) = (key_count(&c), key_count(&r));
    eprintln!("{name}: {before} keys -> {after}, max error {:.6}, p99 {:.6}", s.max, s.p99);
    assert!(after * 2 < before, "{name}: {before} -> {after}");
    // Reduced for quantised storage: the quantised result meets the bound too.
    let (rq, sq) = reduce_quantized(&sk, &c, &opts).unwrap();
    assert!(sq.max <= 0.01, "{name}: {sq:?}");
    assert_eq!(measure_error(&sk, &c, &storage_model(&rq), D, 0.01).unwrap(), sq);
    assert!(key_count(&rq) * 2 < before);
    // Every rotation channel is stored packed (the writer recovers the encoding).
    for t in &rq.tracks {
        let values: Vec<[f64; 4]> = t.rotation.iter().map(|k| k.value).collect();
        assert!(values.is_empty() || recover_packed(&values).is_some(), "{name} {}", t.bone);
    }
    Some((before, after, s))
}

#[test]
fn idle_reduces_within_a_tenth_of_a_millimetre() {
    check_fixture("Idle");
}

#[test]
fn jumping_reduces_within_a_tenth_of_a_millimetre() {
    check_fixture("Jumping");
}

#[test]
fn slowrun_reduces_within_a_tenth_of_a_millimetre() {
    check_fixture("SlowRun");
}

/// Prints the figures for the report: `cargo test --release -p ossicle-host --test reduce --
/// --ignored --nocapture`.
#[test]
#[ignore]
fn print_fixture_figures() {
    let Some(dir) = fixtures() else { return };
    println!("vertex distance {D} cm; error columns in cm; `under` = share of (bone, time) samples <= the bound");
    println!(
        "{:<8} {:<30} {:>6} {:>6} {:>5} {:>9} {:>9} {:>7} {:>6}  worst",
        "clip", "variant", "keys", "after", "ratio", "max", "p99", "under", "secs"
    );
    for name in ["Idle", "Jumping", "SlowRun"] {
        let (sk, c) = load(&dir, name);
        let row = |variant: &str, r: &SkelClipIr, s: &ErrorStats, secs: f64| {
            let (before, after) = (key_count(&c), key_count(r));
            println!(
                "{name:<8} {variant:<30} {before:>6} {after:>6} {:>5.1} {:>9.6} {:>9.6} {:>7.4} {secs:>6.2}  {} @ {}",
                before as f64 / after as f64,
                s.max,
                s.p99,
                s.under_threshold_share,
                s.worst.0,
                s.worst.1
            );
        };
        let q = quantize_clip(&c);
        row("quantised only (0.01)", &q, &measure_error(&sk, &c, &q, D, 0.01).unwrap(), 0.0);
        for bound in [0.01, 0.1] {
            let opts = ReduceOptions { max_error_cm: bound, ..Default::default() };
            let start = std::time::Instant::now();
            let (r, s) = reduce(&sk, &c, &opts).unwrap();
            let secs = start.elapsed().as_secs_f64();
            row(&format!("(a) reduced ({bound})"), &r, &s, secs);
            let rq = quantize_clip(&r);
            row(&format!("(b) reduced+quantised ({bound})"), &rq, &measure_error(&sk, &c, &rq, D, bound).unwrap(), 0.0);
            let start = std::time::Instant::now();
            let (r, s) = reduce_quantized(&sk, &c, &opts).unwrap();
            let secs = start.elapsed().as_secs_f64();
            row(&format!("(c) reduce_quantized ({bound})"), &r, &s, secs);
        }
    }
}

#[test]
fn times_printed_to_six_digits_snap_to_their_grid_and_others_do_not() {
    // Keys at k/30 s as Mixamo prints them (%g, 6 significant digits), duration 0.1 (exact).
    let mut t = track("a");
    t.translation = ["0", "0.0333333", "0.0666667", "0.1"]
        .iter()
        .map(|s| key(s.parse::<f64>().unwrap(), [0.0, 0.0, 0.0]))
        .collect();
    t.rotation = vec![key(0.0333333, [0.0, 0.0, 0.0, 1.0])];
    let mut c = clip(vec![t.clone()]);
    c.duration = 0.1;
    let (snapped, rate) = snap_to_grid(&c).unwrap();
    assert_eq!(rate, 30);
    let times: Vec<f64> = snapped.tracks[0].translation.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 1.0 / 30.0, 2.0 / 30.0, 3.0 / 30.0]);
    assert_eq!((snapped.tracks[0].rotation[0].time, snapped.duration), (1.0 / 30.0, 3.0 / 30.0));
    // Off by 0.002 of a step (67 µs at 30/s): over the 0.001 allowed.
    let mut off = t.clone();
    off.translation[2].time = 2.002 / 30.0;
    assert!(snap_to_grid(&clip(vec![off])).is_none());
    // A duration off the grid: by 0.15 and 0.003 steps; by 0.0003 it snaps (to 0.1).
    for (duration, snaps) in [(0.105, false), (0.1001, false), (0.10001, true)] {
        let mut c = clip(vec![t.clone()]);
        c.duration = duration;
        assert_eq!(snap_to_grid(&c).map(|(s, _)| s.duration), snaps.then_some(0.1), "{duration}");
    }
}
