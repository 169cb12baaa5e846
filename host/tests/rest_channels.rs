//! Rest channels: a channel whose every key is the bone's rest (bind) value, word for word, and
//! that the kernel samples to exactly those words, gets no record in the blob (a channel without
//! one samples the skeleton's rest pose). Hand-made IR: a two-bone skeleton whose `arm` has the
//! bind pose translation (1, 0.5, -2), rotation (0, 0, 0.6, 0.8), scale (1, 1, 1).

use ossicle::math::Transform3 as KTransform3;
use ossicle::skeleton::{ChannelKind, RotationInterp, SamplingContext, SamplingJob, SkelClipSource, SkeletonSource};
use ossicle::{Asset, Scalar, Q16};
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::{
    BoneIr, BoneTrackIr, ChannelInterp, ChannelKey, KeyTangents, Project, SkelClipIr, SkeletonIr, Transform3,
};
use ossicle_host::write::skeleton::SkelClipReport;
use ossicle_host::write::{self, SkelOptions, WriteOptions};

const T: [f64; 3] = [1.0, 0.5, -2.0];
const R: [f64; 4] = [0.0, 0.0, 0.6, 0.8];
const S1: [f64; 3] = [1.0, 1.0, 1.0];
/// Key times of every channel (7 keys: enough to be quantised).
const TIMES: [f64; 7] = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5];

fn skeleton() -> SkeletonIr {
    SkeletonIr {
        name: "sk".into(),
        bones: vec![
            BoneIr { name: "root".into(), parent: None, bind: Transform3::IDENTITY },
            BoneIr { name: "arm".into(), parent: Some(0), bind: Transform3 { translation: T, rotation: R, scale: S1 } },
        ],
        origin: Default::default(),
    }
}

fn keys<const N: usize>(f: impl Fn(usize) -> [f64; N]) -> Vec<ChannelKey<N>> {
    TIMES.iter().enumerate().map(|(k, &time)| ChannelKey { time, value: f(k) }).collect()
}

/// The root's translation moves (so the clip always has a record); `arm` gets `arm`.
fn project(arm: BoneTrackIr) -> Project {
    let root = BoneTrackIr::linear("root", keys(|k| [k as f64, 0.0, 0.0]), vec![], vec![]);
    Project {
        skeletons: vec![skeleton()],
        skel_clips: vec![SkelClipIr {
            name: "c".into(),
            duration: 1.5,
            sample_rate: 4.0,
            looping: false,
            tracks: vec![root, arm],
            skeleton: None,
            origin: Default::default(),
            events: vec![],
        }],
        ..Project::default()
    }
}

fn build(p: &Project, encoding: ScalarEncoding, quantize: bool) -> (Vec<u8>, SkelClipReport) {
    let skel = SkelOptions { quantize, skeleton: None };
    let (bytes, report) = write::write_blob_skeletal(p, &WriteOptions::new(encoding), &skel).unwrap();
    (bytes, report.skel_clips[0].clone())
}

/// Which of `arm`'s channels (translation, rotation, scale) have a record (read as the blob's
/// scalar type: a blob read as the other type has no channels).
fn arm_records(bytes: &[u8]) -> [bool; 3] {
    let asset = Asset::load(bytes).unwrap();
    let clip = asset.skel_clip_named("c").unwrap();
    let has = |k| {
        let f = SkelClipSource::<f32>::channel(&clip, 1, k).is_some();
        let q = SkelClipSource::<Q16>::channel(&clip, 1, k).is_some();
        assert!(!(f && q), "a channel read as both f32 and Q16.16");
        f || q
    };
    // The root's translation always has one.
    assert!(
        SkelClipSource::<f32>::channel(&clip, 0, ChannelKind::Translation).is_some()
            || SkelClipSource::<Q16>::channel(&clip, 0, ChannelKind::Translation).is_some()
    );
    [has(ChannelKind::Translation), has(ChannelKind::Rotation), has(ChannelKind::Scale)]
}

/// `arm`'s sampled (translation, rotation, scale) words at `time`, with `rotation`.
fn sample_arm<S: Scalar>(bytes: &[u8], time: f64, rotation: RotationInterp) -> Vec<u32> {
    let asset = Asset::load(bytes).unwrap();
    let clip = asset.skel_clip_named("c").unwrap();
    let skel = asset.skeleton_of(&clip).unwrap();
    assert_eq!(SkeletonSource::<S, KTransform3<S>>::bone_count(&skel), 2);
    let mut ctx = SamplingContext::<2>::new();
    let mut out = [KTransform3::<S>::IDENTITY; 2];
    let job = SamplingJob { skeleton: &skel, clip: &clip, time: S::from_f64(time), rotation, lod: u8::MAX };
    job.run(&mut ctx, &mut out).unwrap();
    let a = out[1];
    [a.translation.x, a.translation.y, a.translation.z]
        .into_iter()
        .chain([a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w])
        .chain([a.scale.x, a.scale.y, a.scale.z])
        .map(|v| v.to_blob_bits())
        .collect()
}

/// The rest pose of `arm` as the build's words.
fn rest_words(encoding: ScalarEncoding) -> Vec<u32> {
    T.iter().chain(&R).chain(&S1).map(|&v| encoding.encode_f64(v).unwrap()).collect()
}

/// Sample times: every key time, and between keys.
fn sample_times() -> Vec<f64> {
    let mut t: Vec<f64> = TIMES.to_vec();
    t.extend([0.1, 0.3, 0.6, 0.9, 1.1, 1.4]);
    t
}

/// An `arm` track whose three channels are all exactly the rest pose, `interp`olated.
fn rest_arm(interp: ChannelInterp) -> BoneTrackIr {
    let mut arm = BoneTrackIr::linear("arm", keys(|_| T), keys(|_| R), keys(|_| S1));
    arm.interpolation = [interp; 3];
    arm
}

#[test]
fn a_rest_equal_linear_channel_has_no_record_and_samples_the_rest_words() {
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        let (bytes, report) = build(&project(rest_arm(ChannelInterp::Linear)), encoding, false);
        // 0.6, 0.8 rounded to f32 / Q16.16 is within 2^-17 of unit length and the kernel's
        // normalisation gives it back (checked below by the samples); the rotation goes too.
        assert_eq!(arm_records(&bytes), [false, false, false], "{encoding:?}");
        assert_eq!(report.rest_channels, 3);
        // Stored: the root's translation only.
        assert_eq!((report.tracks, report.keys), (1, TIMES.len()));
        for t in sample_times() {
            for rot in [RotationInterp::Nlerp, RotationInterp::Slerp] {
                let got = match encoding {
                    ScalarEncoding::F32 => sample_arm::<f32>(&bytes, t, rot),
                    ScalarEncoding::Q16_16 => sample_arm::<Q16>(&bytes, t, rot),
                };
                assert_eq!(got, rest_words(encoding), "{encoding:?} at {t} ({rot:?})");
            }
        }
    }
}

#[test]
fn the_same_clip_with_records_samples_the_same_words() {
    // Independent of the encoder's decision: the same keys, one ulp of the first translation key
    // off (so every channel is kept: translation differs, and the others are compared through
    // the kernel's interpolation of the stored keys), sample to the rest words away from key 0.
    let ulp = f64::from(f32::from_bits(1.0f32.to_bits() + 1));
    let mut arm = rest_arm(ChannelInterp::Linear);
    arm.translation[0].value[0] = ulp;
    let (bytes, report) = build(&project(arm), ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [true, false, false]);
    assert_eq!(report.rest_channels, 2);
    let rest = rest_words(ScalarEncoding::F32);
    for t in [0.25, 0.3, 0.6, 1.4, 1.5] {
        assert_eq!(sample_arm::<f32>(&bytes, t, RotationInterp::Nlerp), rest, "at {t}");
    }
    // At key 0 the translation is the key's.
    let got = sample_arm::<f32>(&bytes, 0.0, RotationInterp::Nlerp);
    assert_eq!(got[0], (ulp as f32).to_bits());
}

#[test]
fn a_channel_one_ulp_off_the_rest_in_one_key_is_kept() {
    for c in 0..3 {
        let mut arm = rest_arm(ChannelInterp::Linear);
        let up = |v: f64| f64::from(f32::from_bits((v as f32).to_bits() + 1));
        match c {
            0 => arm.translation[3].value[1] = up(T[1]),
            1 => arm.rotation[3].value[3] = up(R[3]),
            _ => arm.scale[3].value[2] = up(S1[2]),
        }
        let (bytes, report) = build(&project(arm), ScalarEncoding::F32, false);
        let mut expect = [false; 3];
        expect[c] = true;
        assert_eq!(arm_records(&bytes), expect, "channel {c}");
        assert_eq!(report.rest_channels, 2);
        assert_eq!((report.tracks, report.keys), (2, 2 * TIMES.len()));
    }
}

#[test]
fn a_hermite_rest_equal_channel_is_kept() {
    let mut arm = rest_arm(ChannelInterp::Hermite);
    let zero = |n: usize| (0..n).map(|_| KeyTangents { incoming: [0.0; 3], outgoing: [0.0; 3] }).collect::<Vec<_>>();
    arm.translation_tangents = zero(TIMES.len());
    arm.scale_tangents = zero(TIMES.len());
    arm.rotation_tangents = (0..TIMES.len()).map(|_| KeyTangents { incoming: [0.0; 4], outgoing: [0.0; 4] }).collect();
    let (bytes, report) = build(&project(arm), ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [true, true, true]);
    assert_eq!(report.rest_channels, 0);
}

#[test]
fn step_channels_and_single_keys_are_dropped() {
    let (bytes, report) = build(&project(rest_arm(ChannelInterp::Step)), ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [false, false, false]);
    assert_eq!(report.rest_channels, 3);
    let one = BoneTrackIr::linear(
        "arm",
        vec![ChannelKey { time: 0.5, value: T }],
        vec![ChannelKey { time: 0.5, value: R }],
        vec![ChannelKey { time: 0.5, value: S1 }],
    );
    let (bytes, report) = build(&project(one), ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [false, false, false]);
    assert_eq!(report.rest_channels, 3);
}

#[test]
fn an_f32_negative_zero_rest_component_keeps_a_linear_channel() {
    // The kernel's lerp a + (a − a)·u gives +0.0 for a = −0.0: the stored channel samples +0.0
    // between keys, the rest pose −0.0, so the channel is kept (a Step one goes).
    let mut p = project(rest_arm(ChannelInterp::Linear));
    p.skeletons[0].bones[1].bind.translation = [-0.0, 0.5, -2.0];
    for tr in &mut p.skel_clips[0].tracks[1].translation {
        tr.value = [-0.0, 0.5, -2.0];
    }
    let (bytes, _) = build(&p, ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [true, false, false]);
    assert_eq!(sample_arm::<f32>(&bytes, 0.1, RotationInterp::Nlerp)[0], 0.0f32.to_bits());
    assert_eq!(sample_arm::<f32>(&bytes, 0.0, RotationInterp::Nlerp)[0], (-0.0f32).to_bits());
    // Q16.16 has one zero: dropped there.
    let (bytes, _) = build(&p, ScalarEncoding::Q16_16, false);
    assert_eq!(arm_records(&bytes), [false, false, false]);
}

#[test]
fn an_unnormalised_rest_rotation_keeps_a_linear_rotation_channel() {
    // (0, 0, 0.6, 0.8) scaled by 1.25: nlerp normalises it between keys, the rest pose is as is.
    let q = [0.0, 0.0, 0.75, 1.0];
    let mut p = project(rest_arm(ChannelInterp::Linear));
    p.skeletons[0].bones[1].bind.rotation = q;
    for k in &mut p.skel_clips[0].tracks[1].rotation {
        k.value = q;
    }
    let (bytes, report) = build(&p, ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [false, true, false]);
    assert_eq!(report.rest_channels, 2);
    let mid = sample_arm::<f32>(&bytes, 0.1, RotationInterp::Nlerp);
    assert_eq!(&mid[3..7], &[0.0f32, 0.0, 0.6, 0.8].map(|v: f32| v.to_bits()));
}

#[test]
fn q16_compares_the_q16_words() {
    // 2^-18 off the rest value rounds to the rest's Q16.16 word (a step is 2^-16): dropped in
    // Q16.16, kept in f32.
    let mut arm = rest_arm(ChannelInterp::Linear);
    let off = T[1] + 1.0 / 262_144.0;
    arm.translation[2].value[1] = off;
    let p = project(arm);
    let (bytes, report) = build(&p, ScalarEncoding::Q16_16, false);
    assert_eq!(arm_records(&bytes), [false, false, false]);
    assert_eq!(report.rest_channels, 3);
    // The report's error is that of the dropped key: 2^-18 from the rest word.
    assert_eq!(report.max_error[0], 1.0 / 262_144.0);
    let (bytes, report) = build(&p, ScalarEncoding::F32, false);
    assert_eq!(arm_records(&bytes), [true, false, false]);
    assert_eq!(report.rest_channels, 2);
    // 2^-15 off is another Q16.16 word: kept.
    let mut arm = rest_arm(ChannelInterp::Linear);
    arm.translation[2].value[1] = T[1] + 1.0 / 32_768.0;
    let (bytes, report) = build(&project(arm), ScalarEncoding::Q16_16, false);
    assert_eq!(arm_records(&bytes), [true, false, false], "{report:?}");
}

#[test]
fn quantised_builds_drop_on_the_raw_words() {
    // With --quantize the check runs on the raw words before quantising: a rest channel goes (it
    // samples the exact rest words, where quantising would only come near them), one ulp off stays
    // and is quantised.
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        let (bytes, report) = build(&project(rest_arm(ChannelInterp::Linear)), encoding, true);
        assert_eq!(arm_records(&bytes), [false, false, false]);
        assert_eq!(report.rest_channels, 3);
        // The root's translation (7 keys) is quantised.
        assert_eq!(report.quantized_channels, 1);
        for t in sample_times() {
            let got = match encoding {
                ScalarEncoding::F32 => sample_arm::<f32>(&bytes, t, RotationInterp::Nlerp),
                ScalarEncoding::Q16_16 => sample_arm::<Q16>(&bytes, t, RotationInterp::Nlerp),
            };
            assert_eq!(got, rest_words(encoding), "{encoding:?} at {t}");
        }
    }
    let mut arm = rest_arm(ChannelInterp::Linear);
    arm.scale[3].value[2] = f64::from(f32::from_bits(1.0f32.to_bits() + 1));
    let (bytes, report) = build(&project(arm), ScalarEncoding::F32, true);
    assert_eq!(arm_records(&bytes), [false, false, true]);
    assert_eq!((report.rest_channels, report.quantized_channels), (2, 2));
}
