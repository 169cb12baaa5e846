//! The `ossicle` CLI with skeletal sources: the Mixamo EVA fixtures build directly (f32, Q16.16,
//! quantised); `export-evac` of a lossless f32 blob gives back exactly the source keys (as f32);
//! EVA -> blob -> EVAC -> blob again (bound to the EVA's skeleton) keeps every key; Q16.16 and
//! quantised blobs stay within their stated steps; `inspect` lists skeletons and clips; bad
//! inputs fail with one line naming the file and the place, exit 1, the existing output untouched.
//!
//! Fixtures are found like the other host tests find them (`OSSICLE_FIXTURES`, else
//! `../shared/fixtures`); without them the fixture tests say so and pass, unless
//! `OSSICLE_REQUIRE_FIXTURES=1`. The small hand-written `tests/data/two_bones.eva` needs nothing.

use ossicle_format::skeleton::TimeTable;
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::{BoneTrackIr, ChannelKey, Project, SkelClipIr, SkeletonIr};
use ossicle_host::sources::{eva, evac};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::fixtures;

const CLIPS: [&str; 3] = ["Idle", "Jumping", "SlowRun"];

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
}

/// A failed run: exit code 1, one line on stderr starting with `error: `, containing every piece.
fn assert_fails(o: &Output, expect: &[&str]) {
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    for e in expect {
        assert!(err.contains(e), "{err:?} lacks {e:?}");
    }
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn eva_path(dir: &Path, name: &str) -> PathBuf {
    dir.join("eva").join(format!("{name}.eva"))
}

fn parse_eva(path: &Path) -> (SkeletonIr, SkelClipIr) {
    let p: Project = eva::parse(path, &std::fs::read(path).unwrap()).unwrap();
    (p.skeletons.into_iter().next().unwrap(), p.skel_clips.into_iter().next().unwrap())
}

/// The blob's skeleton and clip `clip`, decoded through the kernel's readers.
fn decode(blob: &Path, clip: &str) -> (SkeletonIr, SkelClipIr) {
    let bytes = std::fs::read(blob).unwrap();
    let asset = ossicle::asset::Asset::load(&bytes).unwrap();
    let c = asset.skel_clip_named(clip).unwrap();
    let sk = asset.skeleton_of(&c).unwrap();
    (
        ossicle_host::skeletal::decode_skeleton(blob, &sk).unwrap(),
        ossicle_host::skeletal::decode_clip(blob, &asset, &c).unwrap(),
    )
}

/// The tracks with at least one key, by bone name.
fn animated(clip: &SkelClipIr) -> Vec<&BoneTrackIr> {
    let mut t: Vec<&BoneTrackIr> = clip
        .tracks
        .iter()
        .filter(|t| !(t.translation.is_empty() && t.rotation.is_empty() && t.scale.is_empty()))
        .collect();
    t.sort_by(|a, b| a.bone.cmp(&b.bone));
    t
}

fn f32_keys<const N: usize>(keys: &[ChannelKey<N>]) -> Vec<(f32, [f32; N])> {
    keys.iter().map(|k| (k.time as f32, k.value.map(|v| v as f32))).collect()
}

/// Every key of `got` equals the source's as f32, bit for bit (times and values).
fn assert_keys_f32_exact(source: &SkelClipIr, got: &SkelClipIr) {
    let (a, b) = (animated(source), animated(got));
    assert_eq!(a.len(), b.len(), "animated tracks");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.bone, y.bone);
        let bits = |v: Vec<(f32, Vec<f32>)>| -> Vec<(u32, Vec<u32>)> {
            v.into_iter().map(|(t, c)| (t.to_bits(), c.iter().map(|f| f.to_bits()).collect())).collect()
        };
        let l = |k: Vec<(f32, [f32; 3])>| k.into_iter().map(|(t, v)| (t, v.to_vec())).collect::<Vec<_>>();
        let r = |k: Vec<(f32, [f32; 4])>| k.into_iter().map(|(t, v)| (t, v.to_vec())).collect::<Vec<_>>();
        assert_eq!(bits(l(f32_keys(&x.translation))), bits(l(f32_keys(&y.translation))), "{} translation", x.bone);
        assert_eq!(bits(r(f32_keys(&x.rotation))), bits(r(f32_keys(&y.rotation))), "{} rotation", x.bone);
        assert_eq!(bits(l(f32_keys(&x.scale))), bits(l(f32_keys(&y.scale))), "{} scale", x.bone);
    }
}

/// A channel's keys as (time, components).
type Keys = Vec<(f64, Vec<f64>)>;

/// Every key of `got` is within `tol(channel, component range)` of the source's, same times
/// within `time_tol`.
fn assert_keys_within(source: &SkelClipIr, got: &SkelClipIr, time_tol: f64, tol: &dyn Fn(usize, f64) -> f64) {
    let (a, b) = (animated(source), animated(got));
    assert_eq!(a.len(), b.len());
    let mut worst = 0.0f64;
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.bone, y.bone);
        let chans: [(Keys, Keys); 3] = [
            (
                x.translation.iter().map(|k| (k.time, k.value.to_vec())).collect(),
                y.translation.iter().map(|k| (k.time, k.value.to_vec())).collect(),
            ),
            (
                x.rotation.iter().map(|k| (k.time, k.value.to_vec())).collect(),
                y.rotation.iter().map(|k| (k.time, k.value.to_vec())).collect(),
            ),
            (
                x.scale.iter().map(|k| (k.time, k.value.to_vec())).collect(),
                y.scale.iter().map(|k| (k.time, k.value.to_vec())).collect(),
            ),
        ];
        for (c, (src, dec)) in chans.iter().enumerate() {
            assert_eq!(src.len(), dec.len(), "{} channel {c}", x.bone);
            let width = src.first().map_or(0, |k| k.1.len());
            for j in 0..width {
                let lo = src.iter().map(|k| k.1[j]).fold(f64::INFINITY, f64::min);
                let hi = src.iter().map(|k| k.1[j]).fold(f64::NEG_INFINITY, f64::max);
                let bound = tol(src.len(), hi - lo);
                for (k, (s, d)) in src.iter().zip(dec).enumerate() {
                    assert!((s.0 - d.0).abs() <= time_tol, "{} channel {c} key {k} time {} vs {}", x.bone, s.0, d.0);
                    let e = (s.1[j] - d.1[j]).abs();
                    worst = worst.max(e / bound);
                    assert!(
                        e <= bound,
                        "{} channel {c} key {k} component {j}: {} vs {} (bound {bound})",
                        x.bone,
                        s.1[j],
                        d.1[j]
                    );
                }
            }
        }
    }
    assert!(worst > 0.0, "the comparison compared nothing lossy");
}

/// `clip` as a blob of `encoding` stores it: without its rest channels (every key the bone's bind
/// value as the encoding's words, a single key or a translation or scale with no f32 `-0.0`
/// component; see `write::skeleton`'s "Encoding"). A rotation channel of several keys all equal
/// to the bind rotation would depend on the kernel's normalisation: these fixtures have none.
fn stored(clip: &SkelClipIr, sk: &SkeletonIr, encoding: ScalarEncoding) -> SkelClipIr {
    let words = |v: &[f64]| v.iter().map(|&x| encoding.encode_f64(x).unwrap()).collect::<Vec<u32>>();
    let neg_zero =
        |v: &[f64]| encoding == ScalarEncoding::F32 && v.iter().any(|&x| (x as f32).to_bits() == 0x8000_0000);
    let mut out = clip.clone();
    for t in &mut out.tracks {
        let bind = &sk.bones.iter().find(|b| b.name == t.bone).unwrap().bind;
        let rest = |keys: &[&[f64]], b: &[f64], rotation: bool| {
            let all = keys.iter().all(|k| words(k) == words(b));
            assert!(!(all && rotation && keys.len() > 1), "{}: a rotation channel at the bind rotation", t.bone);
            all && (keys.len() == 1 || !neg_zero(b))
        };
        let tk: Vec<&[f64]> = t.translation.iter().map(|k| &k.value[..]).collect();
        if rest(&tk, &bind.translation, false) {
            t.translation.clear();
        }
        let rk: Vec<&[f64]> = t.rotation.iter().map(|k| &k.value[..]).collect();
        if rest(&rk, &bind.rotation, true) {
            t.rotation.clear();
        }
        let sk_: Vec<&[f64]> = t.scale.iter().map(|k| &k.value[..]).collect();
        if rest(&sk_, &bind.scale, false) {
            t.scale.clear();
        }
    }
    out
}

/// Q16.16 rounds to the nearest 2^-16: half a step.
const Q16_HALF_STEP: f64 = 0.5 / 65536.0;

#[test]
fn the_fixtures_build_directly_and_inspect_lists_them() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in CLIPS {
        let src = eva_path(&dir, name);
        let (sk, source) = parse_eva(&src);
        for (label, extra) in
            [("f32", &["--scalar", "f32"][..]), ("q16", &["--scalar", "q16"]), ("quant", &["--quantize"])]
        {
            // What the blob stores (the rest channels left out; --quantize compares f32 words).
            let enc = if label == "q16" { ScalarEncoding::Q16_16 } else { ScalarEncoding::F32 };
            let clip = stored(&source, &sk, enc);
            let keys: usize = clip.tracks.iter().map(|t| t.translation.len() + t.rotation.len() + t.scale.len()).sum();
            let tracks = animated(&clip).len();
            let channels = |c: &SkelClipIr| -> usize {
                c.tracks
                    .iter()
                    .flat_map(|t| [t.translation.len(), t.rotation.len(), t.scale.len()])
                    .filter(|&n| n > 0)
                    .count()
            };
            let rest = channels(&source) - channels(&clip);
            let out = tmp.path().join(format!("{name}-{label}.osb"));
            let mut args = vec!["build", "-o", s(&out), s(&src)];
            args.extend(extra);
            let o = ossicle(&args);
            ok(&o);
            let err = stderr(&o);
            assert!(err.contains(&format!("skeleton {name}: 70 bones")), "{err}");
            assert!(err.contains(&format!("skelclip {name} (skeleton {name}): {tracks} tracks, {keys} keys")), "{err}");
            assert!(err.contains(&format!(" quantised channels, {rest} rest channels")), "{err}");
            let o = ossicle(&["inspect", s(&out), "--json"]);
            ok(&o);
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(v["version"], ossicle_format::FORMAT_VERSION);
            assert_eq!(v["skeletons"][0]["name"], name);
            assert_eq!(v["skeletons"][0]["bones"].as_array().unwrap().len(), sk.bones.len());
            assert_eq!(v["skeletons"][0]["bones"][1]["name"], "mixamorig:Hips");
            assert_eq!(v["skeletons"][0]["bones"][1]["parent"], 0);
            let c = &v["skel_clips"][0];
            assert_eq!((c["name"].as_str(), c["skeleton"].as_str()), (Some(name), Some(name)));
            assert_eq!((c["tracks"].as_u64(), c["keys"].as_u64()), (Some(tracks as u64), Some(keys as u64)));
            assert_eq!(c["looping"], true);
            assert_eq!(c["quantized_channels"].as_u64().unwrap() > 0, label == "quant");
            let text = ossicle(&["inspect", s(&out)]);
            ok(&text);
            let text = String::from_utf8_lossy(&text.stdout).into_owned();
            assert!(text.contains(&format!("skeleton \"{name}\" (3d): 70 bones")), "{text}");
            assert!(text.contains(&format!("{tracks} tracks")) && text.contains(&format!("{keys} keys")), "{text}");
            // The skeleton reads back as the EVA's bind pose (f32 exact / Q16.16 half a step).
            let (dsk, _) = decode(&out, name);
            assert_eq!(dsk.bones.len(), sk.bones.len());
            for (a, b) in sk.bones.iter().zip(&dsk.bones) {
                assert_eq!((&a.name, a.parent), (&b.name, b.parent));
                let av = a.bind.translation.iter().chain(&a.bind.rotation).chain(&a.bind.scale);
                let bv = b.bind.translation.iter().chain(&b.bind.rotation).chain(&b.bind.scale);
                for (x, y) in av.zip(bv) {
                    if label == "f32" {
                        assert_eq!(*x as f32, *y as f32, "bone {}", a.name);
                    } else {
                        assert!((x - y).abs() <= Q16_HALF_STEP, "bone {}: {x} vs {y}", a.name);
                    }
                }
            }
        }
    }
}

#[test]
fn export_evac_of_a_lossless_f32_blob_gives_the_source_keys() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in CLIPS {
        let src = eva_path(&dir, name);
        let (sk, source) = parse_eva(&src);
        // The rest channels have no record: every other source key comes back.
        let clip = stored(&source, &sk, ScalarEncoding::F32);
        let blob = tmp.path().join(format!("{name}.osb"));
        ok(&ossicle(&["build", "-o", s(&blob), s(&src), "--scalar", "f32"]));
        let out = tmp.path().join(format!("{name}.evac"));
        ok(&ossicle(&["export-evac", s(&blob), "--clip", name, "-o", s(&out)]));
        let back = evac::read(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!((back.name.as_str(), back.looping), (name, true));
        assert_eq!((back.duration as f32, back.sample_rate), (clip.duration as f32, 15.0));
        assert_keys_f32_exact(&clip, &back);
    }
}

#[test]
fn eva_to_evac_and_back_onto_the_eva_skeleton_keeps_every_key() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in CLIPS {
        let src = eva_path(&dir, name);
        let (sk, source) = parse_eva(&src);
        let clip = stored(&source, &sk, ScalarEncoding::F32);
        let blob = tmp.path().join(format!("{name}.osb"));
        ok(&ossicle(&["build", "-o", s(&blob), s(&src), "--scalar", "f32"]));
        let evac_file = tmp.path().join(format!("{name}.evac"));
        let renamed = format!("{name}FromEvac");
        ok(&ossicle(&["export-evac", s(&blob), "--clip", name, "--name", &renamed, "-o", s(&evac_file)]));
        // The EVAC clip binds to the skeleton of the EVA file built with it.
        let both = tmp.path().join(format!("{name}-both.osb"));
        let o = ossicle(&["build", "-o", s(&both), s(&src), s(&evac_file), "--scalar", "f32"]);
        ok(&o);
        assert!(stderr(&o).contains(&format!("skelclip {renamed} (skeleton {name})")), "{}", stderr(&o));
        let (_, from_evac) = decode(&both, &renamed);
        assert_eq!(from_evac.skeleton.as_deref(), Some(name));
        assert_keys_f32_exact(&clip, &from_evac);
        // And the EVA's own clip in the same blob is the same too.
        let (_, own) = decode(&both, name);
        assert_keys_f32_exact(&clip, &own);
        // Q16.16: every key within half a step of the EVAC's f32 value, which is within 4e-6 (half
        // an f32 ulp at 128) of the source's (times too).
        let q = tmp.path().join(format!("{name}-q16.osb"));
        ok(&ossicle(&["build", "-o", s(&q), s(&src), s(&evac_file), "--scalar", "q16"]));
        let (_, q_clip) = decode(&q, &renamed);
        let tol = Q16_HALF_STEP + 4e-6;
        let q_stored = stored(&source, &sk, ScalarEncoding::Q16_16);
        assert_keys_within(&stored(&clip, &sk, ScalarEncoding::Q16_16), &q_clip, tol, &|_, _| tol);
        let (_, q_own) = decode(&q, name);
        assert_keys_within(&q_stored, &q_own, Q16_HALF_STEP, &|_, _| Q16_HALF_STEP);
    }
}

#[test]
fn quantised_blobs_stay_within_one_quantisation_step() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in CLIPS {
        let src = eva_path(&dir, name);
        let (sk, source) = parse_eva(&src);
        for scalar in ["f32", "q16"] {
            let enc = if scalar == "f32" { ScalarEncoding::F32 } else { ScalarEncoding::Q16_16 };
            let clip = stored(&source, &sk, enc);
            let blob = tmp.path().join(format!("{name}-{scalar}-quant.osb"));
            ok(&ossicle(&["build", "-o", s(&blob), s(&src), "--scalar", scalar, "--quantize"]));
            let (_, got) = decode(&blob, name);
            // Quantised channels (≥ 5 keys): within half a step of extent / 65535, plus the
            // rounding of min and extent to the encoding (f32: 1e-5 relative of the range's
            // magnitude is far above it; Q16.16: a few 2^-16). Shorter channels stay raw.
            let (time_tol, word_tol) = if scalar == "f32" { (1e-6, 2e-5) } else { (Q16_HALF_STEP, 3.0 / 65536.0) };
            assert_keys_within(&clip, &got, time_tol, &|n, extent| {
                if n >= 5 {
                    0.5 * extent / 65535.0 + word_tol
                } else {
                    word_tol
                }
            });
        }
    }
}

#[test]
fn the_two_bone_eva_builds_and_round_trips() {
    let tmp = tempfile::tempdir().unwrap();
    let src = data("two_bones.eva");
    let (sk0, source) = parse_eva(&src);
    // The root's one rotation key (0, 0, 0, 1) is its bind rotation: a rest channel, no record.
    let clip = stored(&source, &sk0, ScalarEncoding::F32);
    assert!(clip.tracks.iter().find(|t| t.bone == "root").unwrap().rotation.is_empty());
    let blob = tmp.path().join("two.osb");
    ok(&ossicle(&["build", "-o", s(&blob), s(&src), "--scalar", "f32"]));
    let (sk, got) = decode(&blob, "wave");
    assert_eq!((sk.name.as_str(), sk.bones.len(), sk.bones[1].parent), ("two_bones", 2, Some(0)));
    assert_eq!(sk.bones[1].bind.rotation, [0.0, 0.0, 0.6f32 as f64, 0.8f32 as f64]);
    assert_keys_f32_exact(&clip, &got);
    // Hand-read: arm rotation key 2 is (0, 0, 0.7071068, 0.7071068) at 0.4 s.
    let arm = got.tracks.iter().find(|t| t.bone == "arm").unwrap();
    assert_eq!(arm.rotation[2].time, 0.4f32 as f64);
    let h = f64::from("0.7071068".parse::<f32>().unwrap()); // as written in the file
    assert_eq!(arm.rotation[2].value, [0.0, 0.0, h, h]);
    assert_eq!(arm.scale.len(), 2);
    // Quantised Q16.16: translation x of root (0, 1, 2, 1, 0) over [0, 2]: q = 0, 32768 (rounded
    // to the nearest decoded value), 65535, ...: 1 decodes to 0 + (32767 or 32768) × 131072 / 65535.
    let q = tmp.path().join("two-q.osb");
    ok(&ossicle(&["build", "-o", s(&q), s(&src), "--quantize"]));
    let (_, got) = decode(&q, "wave");
    let root = got.tracks.iter().find(|t| t.bone == "root").unwrap();
    let xs: Vec<f64> = root.translation.iter().map(|k| k.value[0]).collect();
    assert_eq!(xs[0], 0.0);
    assert_eq!(xs[2], 2.0);
    assert!((xs[1] - 1.0).abs() <= 1.0 / 65536.0, "{}", xs[1]);
}

#[test]
fn the_fuzz_seeds_load_with_one_skeleton_and_one_clip() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/skel_blob");
    let mut n = 0;
    for e in std::fs::read_dir(&seeds).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        let asset = ossicle::asset::Asset::load(&bytes).unwrap();
        assert_eq!((asset.skeletons().count(), asset.skel_clips().count()), (1, 1));
        n += 1;
    }
    assert!(n >= 2);
}

// ---------------------------------------------------------------------------------------------
// Bad input

const OLD: &[u8] = b"previous output";

fn old_output(dir: &Path) -> PathBuf {
    let p = dir.join("out.osb");
    std::fs::write(&p, OLD).unwrap();
    p
}

fn untouched(p: &Path) {
    assert_eq!(std::fs::read(p).unwrap(), OLD, "{} was changed", p.display());
}

fn write_evac(dir: &Path, name: &str, bones: &[&str], value: f64) -> PathBuf {
    let clip = SkelClipIr {
        name: name.into(),
        duration: 1.0,
        sample_rate: 30.0,
        looping: false,
        tracks: bones
            .iter()
            .map(|b| BoneTrackIr::linear(*b, vec![ChannelKey { time: 0.0, value: [value, 0.0, 0.0] }], vec![], vec![]))
            .collect(),
        skeleton: None,
        origin: Default::default(),
        events: vec![],
    };
    let p = dir.join(format!("{name}.evac"));
    std::fs::write(&p, evac::write(&clip).unwrap()).unwrap();
    p
}

#[test]
fn bad_builds_fail_with_one_line_naming_the_file_and_leave_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = old_output(dir);
    let two = data("two_bones.eva");
    // A second copy of the skeleton under another name, for "several skeletons".
    let other = dir.join("other.eva");
    std::fs::copy(&two, &other).unwrap();
    let text = std::fs::read_to_string(&two).unwrap().replace("clip wave", "clip wave2");
    std::fs::write(&other, text).unwrap();

    // An EVAC clip and no skeleton in the build.
    let good = write_evac(dir, "lift", &["arm"], 1.0);
    assert_fails(&ossicle(&["build", "-o", s(&out), s(&good)]), &["lift.evac", "\"lift\"", "defines none", "EVA"]);
    untouched(&out);
    // Several skeletons and no --skeleton: the choices are named.
    let o = ossicle(&["build", "-o", s(&out), s(&two), s(&other), s(&good)]);
    assert_fails(&o, &["lift.evac", "two_bones (", "other (", "--skeleton NAME"]);
    untouched(&out);
    // --skeleton of a skeleton the build lacks.
    let o = ossicle(&["build", "-o", s(&out), s(&two), s(&good), "--skeleton", "nope"]);
    assert_fails(&o, &["--skeleton", "\"nope\"", "two_bones"]);
    untouched(&out);
    // ... and with --skeleton it builds.
    let fine = dir.join("fine.osb");
    ok(&ossicle(&["build", "-o", s(&fine), s(&two), s(&other), s(&good), "--skeleton", "other"]));
    // A track naming a bone the skeleton lacks: the EVAC file, the byte of the track, the bone.
    let bad = write_evac(dir, "reach", &["arm", "hand"], 1.0);
    let o = ossicle(&["build", "-o", s(&out), s(&two), s(&bad)]);
    assert_fails(&o, &["reach.evac", "byte ", "\"hand\"", "two_bones"]);
    untouched(&out);
    // Two tracks for one bone.
    let twice = write_evac(dir, "twice", &["arm", "arm"], 1.0);
    assert_fails(
        &ossicle(&["build", "-o", s(&out), s(&two), s(&twice)]),
        &["twice.evac", "\"arm\"", "already animated"],
    );
    untouched(&out);
    // A clip name used twice.
    let dup = write_evac(dir, "wave", &["arm"], 1.0);
    assert_fails(
        &ossicle(&["build", "-o", s(&out), s(&two), s(&dup)]),
        &["wave.evac", "\"wave\"", "already defined", "--name"],
    );
    untouched(&out);
    // The same skeleton twice (one EVA file given twice).
    assert_fails(
        &ossicle(&["build", "-o", s(&out), s(&two), s(&two)]),
        &["two_bones.eva", "line 2", "already defined"],
    );
    untouched(&out);
    // A value Q16.16 cannot hold (40000 cm): the file, the clip, the bone, the key; f32 builds it.
    let far = write_evac(dir, "far", &["arm"], 40000.0);
    let o = ossicle(&["build", "-o", s(&out), s(&two), s(&far), "--scalar", "q16"]);
    assert_fails(&o, &["far.evac", "clip \"far\"", "bone \"arm\"", "translation key 0", "40000", "q16", "-32768"]);
    untouched(&out);
    ok(&ossicle(&["build", "-o", s(&fine), s(&two), s(&far), "--scalar", "f32"]));
    // A bind pose Q16.16 cannot hold.
    let big = dir.join("big.eva");
    std::fs::write(&big, std::fs::read_to_string(&two).unwrap().replace("bind 1 0 2 0", "bind 1 0 99999 0")).unwrap();
    assert_fails(&ossicle(&["build", "-o", s(&out), s(&big)]), &["big.eva", "line 2", "\"big\"", "\"arm\"", "99999"]);
    untouched(&out);
}

#[test]
fn bad_reduce_options_are_refused_as_the_options_not_the_source() {
    let tmp = tempfile::tempdir().unwrap();
    let out = old_output(tmp.path());
    let two = data("two_bones.eva");
    for (args, expect) in [
        (["--reduce", "NaN", "--reduce-distance", "3"], "--reduce: NaN is not a finite number ≥ 0"),
        (["--reduce", "inf", "--reduce-distance", "3"], "--reduce: inf is not a finite number ≥ 0"),
        (["--reduce", "-1", "--reduce-distance", "3"], "--reduce: -1 is not a finite number ≥ 0"),
        (["--reduce", "0.1", "--reduce-distance", "0"], "--reduce-distance: 0 is not a finite number > 0"),
        (["--reduce", "0.1", "--reduce-distance", "-2"], "--reduce-distance: -2 is not a finite number > 0"),
        (["--reduce", "0.1", "--reduce-distance", "nan"], "--reduce-distance: NaN is not a finite number > 0"),
    ] {
        let mut all = vec!["build", "-o", s(&out), s(&two)];
        all.extend(args);
        let o = ossicle(&all);
        assert_fails(&o, &[expect]);
        assert!(!stderr(&o).contains("two_bones.eva"), "{args:?}: blames the source: {}", stderr(&o));
        untouched(&out);
    }
    ok(&ossicle(&["build", "-o", s(&out), s(&two), "--reduce", "0"]));
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let eva = dir.join("two_bones.eva");
    std::fs::copy(data("two_bones.eva"), &eva).unwrap();
    let source = std::fs::read(&eva).unwrap();
    // build -o SOURCE SOURCE: the EVA file is not replaced by the blob, nor through another path
    // to it or a second input.
    let blob = dir.join("two.osb");
    ok(&ossicle(&["build", "-o", s(&blob), s(&eva)]));
    let evac = dir.join("wave2.evac");
    ok(&ossicle(&["export-evac", s(&blob), "--clip", "wave", "--name", "wave2", "-o", s(&evac)]));
    let exported = std::fs::read(&evac).unwrap();
    let dotted = dir.join(".").join("two_bones.eva");
    for args in [
        vec!["build", "-o", s(&eva), s(&eva)],
        vec!["build", "-o", s(&dotted), s(&eva)],
        vec!["build", "-o", s(&evac), s(&eva), s(&evac)],
    ] {
        assert_fails(&ossicle(&args), &["the output is also an input", "choose another output path"]);
        assert_eq!(std::fs::read(&eva).unwrap(), source, "{args:?} replaced the EVA source");
        assert_eq!(std::fs::read(&evac).unwrap(), exported, "{args:?} replaced the EVAC source");
    }
    // export-evac BLOB -o BLOB: the blob is kept.
    let bytes = std::fs::read(&blob).unwrap();
    assert_fails(
        &ossicle(&["export-evac", s(&blob), "--clip", "wave", "-o", s(&blob)]),
        &["two.osb", "the output is also an input"],
    );
    assert_eq!(std::fs::read(&blob).unwrap(), bytes, "export-evac replaced its blob");
    // A hard link to an input is that input.
    let link = dir.join("link.osb");
    std::fs::hard_link(&blob, &link).unwrap();
    assert_fails(
        &ossicle(&["export-evac", s(&blob), "--clip", "wave", "-o", s(&link)]),
        &["link.osb", "the output is also an input"],
    );
    assert_eq!(std::fs::read(&blob).unwrap(), bytes);
}

#[test]
fn bad_exports_fail_with_one_line_and_leave_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = old_output(dir);
    let blob = dir.join("two.osb");
    ok(&ossicle(&["build", "-o", s(&blob), s(&data("two_bones.eva"))]));
    // An unknown clip: the blob's clips are listed.
    assert_fails(
        &ossicle(&["export-evac", s(&blob), "--clip", "run", "-o", s(&out)]),
        &["two.osb", "\"run\"", "clips: wave"],
    );
    untouched(&out);
    // A blob without skeletal clips.
    let sprite_only = dir.join("empty.osb");
    let mut w = ossicle_format::BlobWriter::new(ossicle_format::ScalarEncoding::F32);
    w.add_test_section("t", &[0]).unwrap();
    std::fs::write(&sprite_only, w.finish().unwrap()).unwrap();
    assert_fails(
        &ossicle(&["export-evac", s(&sprite_only), "--clip", "wave", "-o", s(&out)]),
        &["empty.osb", "no skeletal clips"],
    );
    untouched(&out);
    // Not a blob.
    let junk = dir.join("junk.osb");
    std::fs::write(&junk, b"not a blob at all").unwrap();
    assert_fails(&ossicle(&["export-evac", s(&junk), "--clip", "wave", "-o", s(&out)]), &["junk.osb", "OSCL"]);
    untouched(&out);
    // A 2D clip is refused.
    let flat = dir.join("flat.osb");
    std::fs::write(&flat, blob_2d()).unwrap();
    assert_fails(
        &ossicle(&["export-evac", s(&flat), "--clip", "sway", "-o", s(&out)]),
        &["flat.osb", "\"sway\"", "2D"],
    );
    untouched(&out);
    let o = ossicle(&["inspect", s(&flat)]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("skeleton \"flat\" (2d): 1 bones"));
}

/// A blob with a one-bone 2D skeleton `flat` and a clip `sway` (one angle key), written by hand.
fn blob_2d() -> Vec<u8> {
    use ossicle_format::skeleton::{pack_channels, ChannelRecord, SkelClipBody, SkeletonBody, INTERP_LINEAR};
    let le = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut w = ossicle_format::BlobWriter::new(ossicle_format::ScalarEncoding::F32);
    let (flat, root, sway) = (w.intern("flat"), w.intern("root"), w.intern("sway"));
    let bones = le(&[0xFFFF, root]);
    let rest = le(&[0.0f32, 0.0, 0.0, 1.0, 1.0].map(f32::to_bits));
    w.add_skeleton(&SkeletonBody { name: flat, dimension: 2, bones: &bones, rest: &rest }).unwrap();
    let (entries, channels) =
        pack_channels(&[[0; 4], [ChannelRecord::make_info(1, INTERP_LINEAR, false), 0, 1, 0], [0; 4]]);
    let data = le(&[0.0f32, 0.5].map(f32::to_bits));
    w.add_skel_clip(&SkelClipBody {
        name: sway,
        skeleton: flat,
        dimension: 2,
        flags: 0,
        duration: 1f32.to_bits(),
        sample_rate: 0,
        bones: &entries,
        channels: &channels,
        data: &data,
        quant: &[],
        times: &[],
        time_index: &[],
        events: &[],
    })
    .unwrap();
    w.finish().unwrap()
}

/// The v5 clip layout on the fixtures: records only for animated channels; a reduced clip's key
/// times as one byte per key into a table of its distinct times (each an exact source time); a
/// lossless clip's the same way or as shared runs of raw words, whichever is smaller.
#[test]
fn the_fixtures_store_records_for_animated_channels_and_reduced_times_as_indices() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in CLIPS {
        let src = eva_path(&dir, name);
        let (_, source) = parse_eva(&src);
        for (label, reduce) in [("lossless", false), ("reduced", true)] {
            let out = tmp.path().join(format!("{name}-{label}.osb"));
            let mut args = vec!["build", "-o", s(&out), s(&src), "--scalar", "f32"];
            if reduce {
                args.extend(["--reduce", "0.01", "--quantize"]);
            }
            ok(&ossicle(&args));
            let (_, clip) = decode(&out, name);
            let channels: Vec<Vec<f64>> = clip
                .tracks
                .iter()
                .flat_map(|t| {
                    [
                        t.translation.iter().map(|k| k.time).collect::<Vec<f64>>(),
                        t.rotation.iter().map(|k| k.time).collect(),
                        t.scale.iter().map(|k| k.time).collect(),
                    ]
                })
                .filter(|t| !t.is_empty())
                .collect();
            let keys: usize = channels.iter().map(Vec::len).sum();
            let mut distinct: Vec<f64> = channels.iter().flatten().copied().collect();
            distinct.sort_by(f64::total_cmp);
            distinct.dedup();
            let bytes = std::fs::read(&out).unwrap();
            let asset = ossicle::asset::Asset::load(&bytes).unwrap();
            let c = asset.skel_clip_named(name).unwrap();
            let sec = c.section();
            assert_eq!((sec.bone_count(), sec.record_count()), (70, channels.len()), "{name} {label}");
            // Every decoded time is a source key time, as f32; in a grid table (format version 7,
            // reduced only: the reducer moved the times onto 1/30 s) within a thousandth of a
            // frame of one, and exactly j/30 in f32.
            let grid = matches!(sec.time_table(), TimeTable::Grid { .. });
            assert!(!grid || reduce, "{name} {label}: Mixamo's times are not exactly on a grid");
            let source_times: Vec<f32> =
                source.tracks.iter().flat_map(|t| t.rotation.iter().map(|k| k.time as f32)).collect();
            for &t in &distinct {
                if grid {
                    let j = (t * 30.0).round();
                    assert_eq!(t as f32, j as f32 / 30.0, "{name} {label}: {t} on the grid");
                    let near = source_times.iter().any(|&s| (f64::from(s) - t).abs() <= 1e-3 / 30.0 + 1e-6);
                    assert!(near, "{name} {label}: {t} near a source time");
                } else {
                    assert!(source_times.contains(&(t as f32)), "{name} {label}: {t}");
                }
            }
            // The table (when used) is the clip's distinct key times, or a grid holding them all; a
            // reduced clip always uses one.
            let table: Vec<f64> = sec.time_table().iter().map(|w| f64::from(f32::from_bits(w))).collect();
            if reduce || !table.is_empty() {
                assert!(table.len() <= 256 && !sec.wide_index());
                if grid {
                    assert!(distinct.iter().all(|t| table.contains(t)), "{name} {label}");
                    assert_eq!(table.len(), (distinct.last().unwrap() * 30.0).round() as usize + 1);
                } else {
                    assert_eq!(table, distinct, "{name} {label}");
                }
                assert!(sec.time_index_len() <= keys, "{name} {label}: at most one index byte per key");
            }
            if reduce {
                // Table bytes plus index and bitmap bytes: under half a byte per key (format version
                // 6 needed over one: a word per table entry and a byte per key).
                let time_bytes = sec.body().times.len() + sec.time_index_bytes().len();
                assert!(2 * time_bytes < keys, "{name}: {time_bytes} bytes of times for {keys} keys");
            }
        }
    }
}
