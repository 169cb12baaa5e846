//! The EVA text reader against the real Mixamo exports in the shared fixtures (`eva/`), and every
//! refusal on small hand-written texts (each with the line it names).
//!
//! The expected values below were read by hand from the fixture files (line numbers given), not
//! produced by the reader. The fixtures are found like `tests/src/lib.rs` finds them:
//! `OSSICLE_FIXTURES`, else `<repo>/../shared/fixtures`; when absent the fixture tests say so and
//! pass, unless `OSSICLE_REQUIRE_FIXTURES=1`.

use ossicle_host::ir::{BoneTrackIr, Project, SkelClipIr, SkeletonIr, Transform3};
use ossicle_host::sources::{eva, parse_source};
use ossicle_host::HostError;
use std::path::Path;

mod common;
use common::fixtures;

// ---------------------------------------------------------------------------------------------
// Helpers

fn load(dir: &Path, name: &str) -> (SkeletonIr, SkelClipIr) {
    let path = dir.join("eva").join(format!("{name}.eva"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let p = eva::parse(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    split(p)
}

fn split(p: Project) -> (SkeletonIr, SkelClipIr) {
    assert_eq!((p.skeletons.len(), p.skel_clips.len()), (1, 1));
    assert!(p.sprites.is_empty() && p.scenes.is_empty() && p.tests.is_empty());
    (p.skeletons.into_iter().next().unwrap(), p.skel_clips.into_iter().next().unwrap())
}

fn parent_name<'a>(sk: &'a SkeletonIr, bone: &str) -> Option<&'a str> {
    let b = sk.bones.iter().find(|b| b.name == bone).unwrap_or_else(|| panic!("no bone {bone}"));
    b.parent.map(|p| sk.bones[p].name.as_str())
}

fn track<'a>(clip: &'a SkelClipIr, bone: &str) -> &'a BoneTrackIr {
    clip.tracks.iter().find(|t| t.bone == bone).unwrap_or_else(|| panic!("no track for {bone}"))
}

/// (translation, rotation, scale) key counts.
fn counts(t: &BoneTrackIr) -> (usize, usize, usize) {
    (t.translation.len(), t.rotation.len(), t.scale.len())
}

/// First and last keys of each channel: (time, values) as read from the file.
type Ends = [(f64, &'static [f64]); 6];

fn assert_ends(t: &BoneTrackIr, ends: Ends) {
    let got = [
        (t.translation[0].time, t.translation[0].value.to_vec()),
        (t.translation.last().unwrap().time, t.translation.last().unwrap().value.to_vec()),
        (t.rotation[0].time, t.rotation[0].value.to_vec()),
        (t.rotation.last().unwrap().time, t.rotation.last().unwrap().value.to_vec()),
        (t.scale[0].time, t.scale[0].value.to_vec()),
        (t.scale.last().unwrap().time, t.scale.last().unwrap().value.to_vec()),
    ];
    let want: Vec<(f64, Vec<f64>)> = ends.iter().map(|(t, v)| (*t, v.to_vec())).collect();
    assert_eq!(got.to_vec(), want, "track {}", t.bone);
}

/// Checks the shape every fixture shares: the Y Bot skeleton of 70 bones.
fn check_skeleton(sk: &SkeletonIr, name: &str) {
    assert_eq!(sk.name, name);
    assert_eq!(sk.bones.len(), 70);
    assert_eq!(sk.origin.place, "line 2");
    // `bone 0 -1 RootNode` .. `bone 69 0 Beta_Surface` (lines 3..=140).
    assert_eq!(sk.bones[0].name, "RootNode");
    assert_eq!(sk.bones[0].parent, None);
    assert_eq!(parent_name(sk, "mixamorig:Hips"), Some("RootNode"));
    assert_eq!(parent_name(sk, "mixamorig:Spine"), Some("mixamorig:Hips"));
    assert_eq!(parent_name(sk, "mixamorig:Head"), Some("mixamorig:Neck"));
    assert_eq!(parent_name(sk, "mixamorig:LeftShoulder"), Some("mixamorig:Spine2"));
    assert_eq!(parent_name(sk, "mixamorig:RightHandThumb1"), Some("mixamorig:RightHand"));
    assert_eq!(parent_name(sk, "mixamorig:LeftUpLeg"), Some("mixamorig:Hips"));
    assert_eq!(parent_name(sk, "mixamorig:LeftToeBase"), Some("mixamorig:LeftFoot"));
    assert_eq!(parent_name(sk, "Beta_Joints"), Some("RootNode"));
    assert_eq!(sk.bones[69].name, "Beta_Surface");
    assert_eq!(sk.bones.iter().filter(|b| b.parent.is_none()).count(), 1);
    for (i, b) in sk.bones.iter().enumerate() {
        assert!(b.parent.is_none_or(|p| p < i), "bone {i}");
    }
    // `bind 1 -8.67166e-19 103.991 2.07608 0 0 0 1 1 1 1` (line 6).
    assert_eq!(
        sk.bones[1].bind,
        Transform3 { translation: [-8.67166e-19, 103.991, 2.07608], rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] }
    );
    // `bind 12 27.8415 -8.94286e-05 3.74589e-05 0 0 0 1 1 1 1` (line 26).
    assert_eq!(sk.bones[12].name, "mixamorig:LeftForeArm");
    assert_eq!(sk.bones[12].bind.translation, [27.8415, -8.94286e-05, 3.74589e-05]);
}

/// Every channel's keys are strictly increasing and inside the clip.
fn check_times(clip: &SkelClipIr) {
    for t in &clip.tracks {
        let channels: [Vec<f64>; 3] = [
            t.translation.iter().map(|k| k.time).collect(),
            t.rotation.iter().map(|k| k.time).collect(),
            t.scale.iter().map(|k| k.time).collect(),
        ];
        for times in channels {
            assert!(times.windows(2).all(|w| w[0] < w[1]), "{}", t.bone);
            assert!(times.iter().all(|&x| (0.0..=clip.duration).contains(&x)), "{}", t.bone);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The fixtures

#[test]
fn idle_fixture() {
    let Some(dir) = fixtures() else { return };
    let (sk, clip) = load(&dir, "Idle");
    check_skeleton(&sk, "Idle");
    assert_eq!(clip.name, "Idle");
    assert_eq!(clip.skeleton.as_deref(), Some("Idle"));
    assert_eq!(clip.origin.place, "line 143");
    assert_eq!(clip.duration, 8.33333);
    assert!(clip.looping);
    // `rate 15` is stored as given, though the keys are 1/30 s apart.
    assert_eq!(clip.sample_rate, 15.0);
    assert_eq!(clip.tracks.len(), 52);
    // 22 tracks with 251 keys per channel, 30 (fingers) with a single key.
    assert_eq!(clip.tracks.iter().filter(|t| counts(t) == (251, 251, 251)).count(), 22);
    assert_eq!(clip.tracks.iter().filter(|t| counts(t) == (1, 1, 1)).count(), 30);
    assert_eq!(counts(track(&clip, "mixamorig:LeftHandThumb1")), (1, 1, 1));
    // The first track is bone 1 (line 147), in file order.
    assert_eq!(clip.tracks[0].bone, "mixamorig:Hips");
    let hips = track(&clip, "mixamorig:Hips");
    // Lines 148, 398, 399, 649, 650, 900.
    assert_ends(
        hips,
        [
            (0.0, &[0.142428, 103.394, 1.42217]),
            (8.33333, &[0.142428, 103.394, 1.42217]),
            (0.0, &[-0.031204, -0.046549, -0.0312123, 0.997941]),
            (8.33333, &[-0.031204, -0.046549, -0.0312123, 0.997941]),
            (0.0, &[1.0, 1.0, 1.0]),
            (8.33333, &[1.0, 1.0, 1.0]),
        ],
    );
    // Keys keep their own times: 1/30 s apart (to the file's 6 digits), not the stated 1/15 s.
    for (k, key) in hips.translation.iter().enumerate() {
        assert!((key.time - k as f64 / 30.0).abs() < 1e-5, "key {k} at {}", key.time);
    }
    // Lines 9255..=10008.
    assert_ends(
        track(&clip, "mixamorig:RightForeArm"),
        [
            (0.0, &[-27.8415, -3.30792e-05, 1.16763e-05]),
            (8.33333, &[-27.8415, -3.30792e-05, 1.16763e-05]),
            (0.0, &[-0.00244462, 0.0583277, 1.2751e-07, 0.998295]),
            (8.33333, &[-0.00244462, 0.0583277, 1.2751e-07, 0.998295]),
            (0.0, &[1.0, 1.0, 1.0]),
            (8.33333, &[1.0, 1.0, 1.0]),
        ],
    );
    check_times(&clip);
}

#[test]
fn jumping_fixture() {
    let Some(dir) = fixtures() else { return };
    let (sk, clip) = load(&dir, "Jumping");
    check_skeleton(&sk, "Jumping");
    assert_eq!((clip.name.as_str(), clip.skeleton.as_deref()), ("Jumping", Some("Jumping")));
    assert_eq!(clip.duration, 1.9);
    assert!(clip.looping);
    assert_eq!(clip.sample_rate, 15.0);
    assert_eq!(clip.tracks.len(), 44);
    // 42 tracks of 58 keys (1.9 s at 30 keys/s, both ends), bones 48 and 56 with one key.
    assert_eq!(clip.tracks.iter().filter(|t| counts(t) == (58, 58, 58)).count(), 42);
    assert_eq!(counts(track(&clip, "mixamorig:RightHandMiddle3")), (1, 1, 1));
    assert_eq!(counts(track(&clip, "mixamorig:RightHandThumb3")), (1, 1, 1));
    // Lines 148, 205, 206, 263, 264, 321.
    assert_ends(
        track(&clip, "mixamorig:Hips"),
        [
            (0.0, &[-0.817987, 96.9357, 0.0845793]),
            (1.9, &[-0.818236, 96.9364, 0.0861481]),
            (0.0, &[-0.0359877, -0.367591, -0.0144641, 0.929178]),
            (1.9, &[-0.0359834, -0.367619, -0.0144745, 0.929167]),
            (0.0, &[1.0, 1.0, 1.0]),
            (1.9, &[1.0, 1.0, 1.0]),
        ],
    );
    // Lines 3997..=4171.
    assert_ends(
        track(&clip, "mixamorig:RightForeArm"),
        [
            (0.0, &[-27.8415, -3.30792e-05, 1.16763e-05]),
            (1.9, &[-27.8415, -3.30792e-05, 1.16763e-05]),
            (0.0, &[-0.0291221, 0.359535, 0.0446794, 0.931606]),
            (1.9, &[-0.0291221, 0.359535, 0.0446794, 0.931606]),
            (0.0, &[1.0, 1.0, 1.0]),
            (1.9, &[1.0, 1.0, 1.0]),
        ],
    );
    check_times(&clip);
}

#[test]
fn slowrun_fixture_keeps_the_extra_keys() {
    let Some(dir) = fixtures() else { return };
    let (sk, clip) = load(&dir, "SlowRun");
    check_skeleton(&sk, "SlowRun");
    assert_eq!((clip.name.as_str(), clip.skeleton.as_deref()), ("SlowRun", Some("SlowRun")));
    assert_eq!(clip.duration, 0.733333);
    assert!(clip.looping);
    assert_eq!(clip.sample_rate, 15.0);
    assert_eq!(clip.tracks.len(), 52);
    // 50 tracks of 23 keys 1/30 s apart; the two forearms carry extra keys 3.3 ms apart near the end.
    assert_eq!(clip.tracks.iter().filter(|t| counts(t) == (23, 23, 23)).count(), 50);
    let regular: Vec<f64> = (0..=22).map(|k| k as f64 / 30.0).collect();
    for (a, b) in track(&clip, "mixamorig:Hips").rotation.iter().zip(&regular) {
        assert!((a.time - b).abs() < 1e-5);
    }
    // Track 12 (line 707: `track 12 30 30 30`) and track 36 (line 2058: `track 36 29 29 29`).
    let left = track(&clip, "mixamorig:LeftForeArm");
    let right = track(&clip, "mixamorig:RightForeArm");
    assert_eq!(counts(left), (30, 30, 30));
    assert_eq!(counts(right), (29, 29, 29));
    let tail_left = [0.7, 0.703333, 0.706667, 0.71, 0.713333, 0.716667, 0.72, 0.723333, 0.733333];
    let tail_right = [0.7, 0.703333, 0.706667, 0.71, 0.713333, 0.716667, 0.72, 0.733333];
    for (t, tail) in [(left, &tail_left[..]), (right, &tail_right[..])] {
        let times: [Vec<f64>; 3] = [
            t.translation.iter().map(|k| k.time).collect(),
            t.rotation.iter().map(|k| k.time).collect(),
            t.scale.iter().map(|k| k.time).collect(),
        ];
        for channel in times {
            assert_eq!(&channel[channel.len() - tail.len()..], tail, "{}", t.bone);
            assert_eq!(channel[0], 0.0);
        }
    }
    // Lines 2059, 2087, 2088, 2116, 2117, 2145.
    assert_ends(
        right,
        [
            (0.0, &[-27.8415, -3.30792e-05, 1.16763e-05]),
            (0.733333, &[-27.8415, -3.30792e-05, 1.16763e-05]),
            (0.0, &[1.58722e-07, 0.649058, 1.65798e-07, 0.760739]),
            (0.733333, &[7.54961e-08, 0.649058, 1.17544e-07, 0.760739]),
            (0.0, &[1.0, 1.0, 1.0]),
            (0.733333, &[1.0, 1.0, 1.0]),
        ],
    );
    // Lines 148, 170, 171, 193, 194, 216.
    assert_ends(
        track(&clip, "mixamorig:Hips"),
        [
            (0.0, &[-0.0734212, 86.8547, 1.98596]),
            (0.733333, &[-0.0723784, 86.8548, 1.98597]),
            (0.0, &[0.161636, -0.0339599, 0.0306931, 0.985788]),
            (0.733333, &[0.161636, -0.0339599, 0.0306929, 0.985788]),
            (0.0, &[1.0, 1.0, 1.0]),
            (0.733333, &[1.0, 1.0, 1.0]),
        ],
    );
    check_times(&clip);
}

#[test]
fn eva_files_go_through_parse_source_and_build_into_a_blob() {
    let Some(dir) = fixtures() else { return };
    let path = dir.join("eva/SlowRun.eva");
    let project = parse_source(&path, &std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let (sk, clip) = split(project.clone());
    assert_eq!((sk.name.as_str(), clip.tracks.len()), ("SlowRun", 52));
    let bytes = ossicle_host::write::write_blob(&project, ossicle_format::ScalarEncoding::F32).unwrap();
    let asset = ossicle::asset::Asset::load(&bytes).unwrap();
    let skel = asset.skeleton_named("SlowRun").unwrap();
    let c = asset.skel_clip_named("SlowRun").unwrap();
    assert_eq!((skel.bone_count(), c.skeleton_name()), (70, Some("SlowRun")));
}

// ---------------------------------------------------------------------------------------------
// A small hand-written file

/// Three bones, two tracks; line numbers in the comments.
const BASE: &str = "EVA 1
skeleton 3
bone 0 -1 root
bind 0 0 0 0 0 0 0 1 1 1 1
bone 1 0 hip
bind 1 0 1 0 0 0 0 1 1 1 1
bone 2 1 leg
bind 2 0 -1 0 0 0.6 0 0.8 1 2 1
clip walk
duration 1
loop 1
rate 30
track 1 2 2 1
p 0 0 1 0
p 1 0 2 0
r 0 0 0 0 1
r 0.5 0 0.6 0 0.8
s 0 1 1 1
track 2 1 0 0
p 0.25 0 -1 0
end
";
// Lines: 1 EVA, 2 skeleton, 3-8 bones and binds, 9 clip, 10 duration, 11 loop, 12 rate,
// 13 track 1, 14-15 p, 16-17 r, 18 s, 19 track 2, 20 p, 21 end.

fn parse(text: &str) -> Result<Project, HostError> {
    eva::parse(Path::new("dir/t.eva"), text.as_bytes())
}

/// BASE with line `n` (1-based) replaced by `new` (which may hold several lines, or none: "").
fn with(n: usize, new: &str) -> String {
    let mut lines: Vec<&str> = BASE.lines().collect();
    if new.is_empty() {
        lines.remove(n - 1);
    } else {
        lines[n - 1] = new;
    }
    lines.join("\n") + "\n"
}

#[track_caller]
fn refuse(text: &str, line: usize, needle: &str) {
    let err = match parse(text) {
        Ok(p) => panic!("accepted: {p:?}"),
        Err(e) => e,
    };
    assert_eq!(err.file, Path::new("dir/t.eva"), "{err}");
    assert_eq!(err.place, format!("line {line}"), "{err}");
    assert!(err.reason.contains(needle), "{err:?} does not say {needle:?}");
    assert!(err.to_string().starts_with(&format!("dir/t.eva:line {line}: ")), "{err}");
}

#[test]
fn the_base_text_parses() {
    let (sk, clip) = split(parse(BASE).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(sk.name, "t");
    assert_eq!(sk.origin.file, Path::new("dir/t.eva"));
    let bones: Vec<(&str, Option<usize>)> = sk.bones.iter().map(|b| (b.name.as_str(), b.parent)).collect();
    assert_eq!(bones, [("root", None), ("hip", Some(0)), ("leg", Some(1))]);
    assert_eq!(sk.bones[0].bind, Transform3::IDENTITY);
    assert_eq!(
        sk.bones[2].bind,
        Transform3 { translation: [0.0, -1.0, 0.0], rotation: [0.0, 0.6, 0.0, 0.8], scale: [1.0, 2.0, 1.0] }
    );
    assert_eq!(clip.name, "walk");
    assert_eq!(clip.skeleton.as_deref(), Some("t"));
    assert_eq!((clip.duration, clip.looping, clip.sample_rate), (1.0, true, 30.0));
    assert_eq!(clip.origin.place, "line 9");
    assert_eq!(clip.tracks.len(), 2);
    let hip = &clip.tracks[0];
    assert_eq!(hip.bone, "hip");
    assert_eq!(
        hip.translation.iter().map(|k| (k.time, k.value)).collect::<Vec<_>>(),
        [(0.0, [0.0, 1.0, 0.0]), (1.0, [0.0, 2.0, 0.0])]
    );
    assert_eq!(hip.rotation[1].time, 0.5);
    assert_eq!(hip.rotation[1].value, [0.0, 0.6, 0.0, 0.8]);
    assert_eq!(hip.scale.len(), 1);
    let leg = &clip.tracks[1];
    assert_eq!((leg.bone.as_str(), counts(leg)), ("leg", (1, 0, 0)));
    assert_eq!(leg.translation[0].time, 0.25);
}

#[test]
fn blank_lines_crlf_and_a_byte_order_mark_are_fine() {
    let spaced = format!("\u{feff}\n{}\n\n", BASE.replace('\n', "\r\n\r\n").replace(' ', " \t "));
    let (sk, clip) = split(parse(&spaced).unwrap_or_else(|e| panic!("{e}")));
    let (base_sk, base_clip) = split(parse(BASE).unwrap());
    assert_eq!((sk.bones, clip.tracks), (base_sk.bones, base_clip.tracks));
    // Line numbers count the blank lines: `skeleton 3` was line 2, now 4.
    assert_eq!((sk.origin.place.as_str(), clip.origin.place.as_str()), ("line 4", "line 18"));
    // No newline after `end`.
    assert!(parse(BASE.trim_end()).is_ok());
}

#[test]
fn quaternions_near_unit_length_are_kept_as_written() {
    let p = parse(&with(6, "bind 1 0 1 0 0 0 0 1.0009 1 1 1")).unwrap();
    assert_eq!(p.skeletons[0].bones[1].bind.rotation, [0.0, 0.0, 0.0, 1.0009]);
    let p = parse(&with(16, "r 0 0 0 0 0.9992")).unwrap();
    assert_eq!(p.skel_clips[0].tracks[0].rotation[0].value, [0.0, 0.0, 0.0, 0.9992]);
}

#[test]
fn refuses_bad_headers() {
    refuse("", 1, "truncated: the file ends where the header `EVA 1` was expected");
    refuse("\n\n", 3, "truncated");
    refuse(&with(1, "EVA 2"), 1, "unsupported EVA version `2`");
    refuse(&with(1, "EVB 1"), 1, "not an EVA file");
    refuse(&with(1, "EVA 1 x"), 1, "too many fields");
    refuse(&with(1, ""), 1, "not an EVA file");
    refuse("EVA 1\n", 2, "truncated: the file ends where `skeleton N` was expected");
    refuse(&with(2, "skeletons 3"), 2, "expected `skeleton N`, found `skeletons`");
    refuse(&with(2, "skeleton"), 2, "too few fields");
    refuse(&with(2, "skeleton three"), 2, "bone count `three` is not a whole number");
    refuse(&with(2, "skeleton -3"), 2, "not a whole number");
    refuse(&with(9, "clips walk"), 9, "expected `clip NAME`, found `clips`");
    refuse(&with(9, "clip walk fast"), 9, "too many fields");
    refuse(&with(10, "duration 0"), 10, "not positive");
    refuse(&with(10, "duration -1"), 10, "not positive");
    refuse(&with(10, "duration soon"), 10, "`soon` is not a number");
    refuse(&with(10, "duration inf"), 10, "not a finite number");
    refuse(&with(10, "loop 1"), 10, "expected `duration S`, found `loop`");
    refuse(&with(11, "loop 2"), 11, "loop flag is `2`, expected 0 or 1");
    refuse(&with(11, "loop yes"), 11, "expected 0 or 1");
    refuse(&with(12, "rate 0"), 12, "sample rate `0` is not positive");
    refuse(&with(12, "rate NaN"), 12, "not a finite number");
    refuse(&with(12, ""), 12, "expected `rate HZ`, found `track`");
}

#[test]
fn refuses_bad_counts_before_allocating() {
    refuse(&with(2, "skeleton 0"), 2, "no bones");
    refuse(&with(2, "skeleton 65537"), 2, "the bone count 65537 is over the limit of 65536");
    refuse(&with(2, "skeleton 18446744073709551616"), 2, "not a whole number");
    // Twelve bones need 24 lines; 19 follow.
    refuse(&with(2, "skeleton 12"), 2, "truncated: `skeleton 12` needs 24 `bone` and `bind` lines, but only 19");
    // Fewer bones than declared (the section ends at `clip`, line 9).
    refuse(&with(2, "skeleton 4"), 9, "wrong bone count: `skeleton 4` declares 4 bones, but only 3 were found");
    // More bones than declared.
    refuse(&with(2, "skeleton 2"), 7, "bone 2 is out of range: `skeleton 2` declares bones 0..=1");
    refuse(&with(13, "track 1 1000001 0 0"), 13, "translation key count 1000001 is over the limit of 1000000");
    refuse(&with(13, "track 1 2 2 99999999999999999999"), 13, "scale key count");
    refuse(&with(19, "track 2 50 0 0"), 19, "truncated: the track declares 50 + 0 + 0 = 50 key lines, but only 2");
    // Counts that fit the file but do not match the lines.
    refuse(&with(13, "track 1 3 2 1"), 16, "expected translation key `p t x y z` 3 of 3 of bone 1 (hip), found `r`");
    refuse(&with(13, "track 1 1 2 1"), 15, "expected rotation key `r t x y z w` 1 of 2 of bone 1 (hip), found `p`");
    refuse(&with(13, "track 1 2 2 2"), 19, "expected scale key `s t x y z` 2 of 2 of bone 1 (hip), found `track`");
    refuse(&with(13, "track 1 2 2 0"), 18, "expected `track BONE NP NR NS` or `end`, found `s`");
}

#[test]
fn refuses_bad_bones() {
    refuse(&with(5, "bone 2 0 hip"), 5, "bone 2 is out of order: expected bone 1");
    refuse(&with(5, "bone 0 0 hip"), 5, "bone 0 is declared twice (first at line 3)");
    refuse(&with(5, "bone x 0 hip"), 5, "the bone index `x` is not a whole number");
    refuse(&with(5, "bone 1 0"), 5, "too few fields");
    refuse(&with(5, "bone 1 0 left hip"), 5, "too many fields");
    refuse(&with(7, "bone 2 1 hip"), 7, "the bone name \"hip\" is used twice (first by bone 1)");
    refuse(&with(5, "bone 1 x hip"), 5, "the parent `x` is not an integer");
    refuse(&with(5, "bone 1 3 hip"), 5, "the parent `3` of bone 1 is not a bone");
    refuse(&with(5, "bone 1 -2 hip"), 5, "the parent `-2` of bone 1 is not a bone");
}

#[test]
fn refuses_parents_after_children_and_cycles() {
    // A parent that comes later (a valid tree in the wrong order).
    refuse(
        &with(5, "bone 1 2 hip"),
        5,
        "the parent 2 of bone 1 comes after it: parents must come before their children",
    );
    // A bone that is its own parent.
    refuse(&with(5, "bone 1 1 hip"), 5, "bone 1 is its own parent (a cycle)");
    // A two-bone cycle: hip's parent is leg and leg's parent (line 7) is hip; refused at the
    // forward reference.
    refuse(&with(5, "bone 1 2 hip"), 5, "this also rules out cycles");
    // A cycle through the root: root's parent is the leg.
    refuse(&with(3, "bone 0 2 root"), 3, "the parent 2 of bone 0 comes after it");
}

#[test]
fn refuses_bad_binds() {
    refuse(&with(8, "bind 5 0 -1 0 0 0 0 1 1 1 1"), 8, "bind for bone 5, which does not exist");
    refuse(&with(4, "bind 1 0 0 0 0 0 0 1 1 1 1"), 4, "bind for bone 1 before its `bone 1` line");
    refuse(&with(8, "bind 1 0 -1 0 0 0 0 1 1 1 1"), 8, "bone 1 has a second bind (the first is at line 6)");
    // A missing bind: the section ends at `clip` (now line 8).
    refuse(&with(8, ""), 8, "bone 2 (leg) has no `bind` line");
    refuse(&with(6, "bind 1 0 1 0 0 0 0 1 1 1"), 6, "too few fields");
    refuse(&with(6, "bind 1 0 1 0 0 0 0 1 1 1 1 1"), 6, "too many fields");
    refuse(&with(6, "bind 1 0 1,5 0 0 0 0 1 1 1 1"), 6, "`1,5` is not a number");
    refuse(&with(6, "bind 1 0 inf 0 0 0 0 1 1 1 1"), 6, "`inf` is not a finite number");
    refuse(&with(6, "bind 1 0 1 0 0 0 0 1 1 nan 1"), 6, "`nan` is not a finite number");
    refuse(&with(6, "bind 1 1e999 1 0 0 0 0 1 1 1 1"), 6, "`1e999` is not a finite number");
    refuse(&with(6, "bind 1 0 1 0 0 0 0 0 1 1 1"), 6, "the bind of bone 1 is a zero quaternion");
    refuse(&with(6, "bind 1 0 1 0 0 0 0 2 1 1 1"), 6, "not a unit quaternion: its length is 2");
    refuse(&with(6, "bind 1 0 1 0 0 0 0 1.0011 1 1 1"), 6, "not a unit quaternion");
}

#[test]
fn refuses_bad_tracks_and_keys() {
    refuse(&with(13, "track 3 2 2 1"), 13, "track for bone 3, which does not exist (the skeleton has 3 bones");
    refuse(&with(13, "track -1 2 2 1"), 13, "not a whole number");
    refuse(&with(19, "track 1 1 0 0"), 19, "bone 1 (hip) is tracked twice (its first track is at line 13)");
    refuse(&with(13, "track 1 2 2"), 13, "too few fields");
    refuse(&with(19, "foo 2 1 0 0"), 19, "expected `track BONE NP NR NS` or `end`, found `foo`");
    // Times.
    refuse(&with(15, "p 0 0 2 0"), 15, "key times must strictly increase: 0 does not come after");
    refuse(&with(15, "p -0.5 0 2 0"), 15, "the key time -0.5 is outside the clip [0, 1]");
    refuse(&with(14, "p -0.1 0 1 0"), 14, "outside the clip");
    refuse(&with(15, "p 1.5 0 2 0"), 15, "the key time 1.5 is outside the clip [0, 1]");
    refuse(&with(17, "r 0 0 0.6 0 0.8"), 17, "strictly increase");
    refuse(&with(20, "p nan 0 -1 0"), 20, "`nan` is not a finite number (the key time)");
    // Values.
    refuse(&with(14, "p 0 0 x 0"), 14, "`x` is not a number (expected a translation value of bone 1 (hip))");
    refuse(&with(14, "p 0 0 1"), 14, "too few fields");
    refuse(&with(14, "p 0 0 1 0 0"), 14, "too many fields");
    refuse(&with(18, "s 0 1 -inf 1"), 18, "`-inf` is not a finite number");
    refuse(&with(16, "r 0 0 0 0 0"), 16, "the rotation key of bone 1 (hip) is a zero quaternion");
    refuse(&with(16, "r 0 0 0 0 0.5"), 16, "not a unit quaternion");
    refuse(&with(16, "r 0 0 0 1"), 16, "too few fields");
    refuse(&with(16, "rr 0 0 0 0 1"), 16, "expected rotation key");
}

#[test]
fn refuses_truncation_and_text_after_end() {
    // No `end`: the error is at the line after the last.
    refuse(&with(21, ""), 21, "truncated: the file ends where `track BONE NP NR NS` or `end` was expected");
    refuse(&BASE.lines().take(12).collect::<Vec<_>>().join("\n"), 13, "truncated");
    refuse(&BASE.lines().take(8).collect::<Vec<_>>().join("\n"), 9, "the file ends where `clip NAME` was expected");
    refuse(&BASE.lines().take(5).collect::<Vec<_>>().join("\n"), 2, "truncated: `skeleton 3` needs 6");
    refuse(&format!("{BASE}p 0 0 0 0\n"), 22, "text after `end`: `p 0 0 0 0`");
    refuse(&format!("{BASE}\n\nend\n"), 24, "text after `end`");
    refuse(&with(21, "end now"), 21, "too many fields");
}

#[test]
fn refuses_text_that_is_not_utf8() {
    let mut bytes = BASE.as_bytes().to_vec();
    let at = BASE.find("hip").unwrap();
    bytes[at] = 0xff;
    let err = eva::parse(Path::new("dir/t.eva"), &bytes).unwrap_err();
    assert_eq!((err.place.as_str(), err.reason.as_str()), ("line 5", "not UTF-8 text"));
}
