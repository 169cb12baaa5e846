//! `ossicle sample` against the real Mixamo clips: every source key comes back at its own time
//! (exactly in a lossless f32 blob, within Q16.16's step in a Q16.16 blob), linear interpolation
//! between keys, bones without keys at their bind pose, model space equal to composing the local
//! output, and the JSON shape the issue fixes.
//!
//! The expected values are the source file's numbers (read with the EVA reader, which
//! host/tests/eva.rs checks against hand-read lines), interpolated here in f64 — not the kernel's
//! arithmetic.

#![allow(clippy::needless_range_loop, clippy::type_complexity)]

mod common;

use common::fixtures;
use ossicle_format::skeleton::TimeTable;
use ossicle_host::ir::{BoneTrackIr, ChannelKey, SkelClipIr, SkeletonIr};
use ossicle_host::write::skeleton::clip_bytes;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn load(path: &Path) -> (SkeletonIr, SkelClipIr) {
    let bytes = std::fs::read(path).expect("read fixture");
    let mut p = ossicle_host::sources::eva::parse(path, &bytes).expect("parse fixture");
    (p.skeletons.remove(0), p.skel_clips.remove(0))
}

fn build(inputs: &[&Path], out: &Path, scalar: &str) {
    let mut args = vec!["build"];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["-o", s(out), "--scalar", scalar]);
    let o = ossicle(&args);
    assert!(o.status.success(), "build failed: {}", stderr(&o));
}

/// Runs `ossicle sample` and returns the parsed document.
fn sample(blob: &Path, clip: &str, times: &[f64], space: &str) -> Value {
    let at: Vec<String> = times.iter().map(|t| format!("{t}")).collect();
    let at = at.join(",");
    let o = ossicle(&["sample", s(blob), "--clip", clip, "--at", &at, "--space", space, "--json"]);
    assert!(o.status.success(), "sample failed: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON: {e}"))
}

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number")).collect()
}

/// The value of a channel at `t` by linear interpolation in f64 (quaternions: shortest-arc nlerp of
/// the normalised keys, then normalised), holding the ends; at a key's own time (and when holding)
/// the key's value as written; `None` when the channel has no keys.
fn linear<const N: usize>(keys: &[ChannelKey<N>], t: f64, quat: bool) -> Option<[f64; N]> {
    let first = keys.first()?;
    if t <= first.time {
        return Some(first.value);
    }
    let last = keys.last()?;
    if t >= last.time {
        return Some(last.value);
    }
    if let Some(k) = keys.iter().find(|k| k.time == t) {
        return Some(k.value);
    }
    let prep = |v: [f64; N]| {
        if quat {
            let n = v.iter().map(|c| c * c).sum::<f64>().sqrt();
            v.map(|c| c / n)
        } else {
            v
        }
    };
    let i = keys.iter().position(|k| k.time > t)? - 1;
    let (a, b) = (prep(keys[i].value), prep(keys[i + 1].value));
    let u = (t - keys[i].time) / (keys[i + 1].time - keys[i].time);
    let dot: f64 = (0..N).map(|k| a[k] * b[k]).sum();
    let sign = if quat && dot < 0.0 { -1.0 } else { 1.0 };
    let mut out = [0.0; N];
    for k in 0..N {
        out[k] = a[k] + (sign * b[k] - a[k]) * u;
    }
    Some(prep(out))
}

/// Expected local pose of every bone at `t`: (translation, rotation, scale).
fn expected(skel: &SkeletonIr, clip: &SkelClipIr, t: f64) -> Vec<([f64; 3], [f64; 4], [f64; 3])> {
    skel.bones
        .iter()
        .map(|b| {
            let track: Option<&BoneTrackIr> = clip.tracks.iter().find(|tr| tr.bone == b.name);
            let tr = track.and_then(|tr| linear(&tr.translation, t, false)).unwrap_or(b.bind.translation);
            let q = track.and_then(|tr| linear(&tr.rotation, t, true)).unwrap_or(b.bind.rotation);
            let sc = track.and_then(|tr| linear(&tr.scale, t, false)).unwrap_or(b.bind.scale);
            (tr, q, sc)
        })
        .collect()
}

/// The clip as a blob stores it: every time and value through `r` (the scalar's rounding;
/// quaternions are stored as written).
fn rounded(clip: &SkelClipIr, r: fn(f64) -> f64) -> SkelClipIr {
    let mut c = clip.clone();
    for tr in &mut c.tracks {
        for k in &mut tr.translation {
            k.time = r(k.time);
            k.value = k.value.map(r);
        }
        for k in &mut tr.rotation {
            k.time = r(k.time);
            k.value = k.value.map(r);
        }
        for k in &mut tr.scale {
            k.time = r(k.time);
            k.value = k.value.map(r);
        }
    }
    c
}

/// Q16.16 rounding (to nearest).
fn q16r(v: f64) -> f64 {
    (v * 65536.0).round() / 65536.0
}

/// All distinct key times of a clip, sorted.
fn key_times(clip: &SkelClipIr) -> Vec<f64> {
    let mut t: Vec<f64> = clip
        .tracks
        .iter()
        .flat_map(|tr| {
            tr.translation
                .iter()
                .map(|k| k.time)
                .chain(tr.rotation.iter().map(|k| k.time))
                .chain(tr.scale.iter().map(|k| k.time))
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t.dedup();
    t
}

/// f32 rounding of an expected value, as a lossless f32 blob stores it.
fn f32r(v: f64) -> f64 {
    f64::from(v as f32)
}

/// Compares one sampled bone against the expectation; `exact` demands f32 equality.
/// With tolerance 0 the comparison is exact after `round` (the printed numbers are the fewest
/// digits that read back to the same f32 or Q16.16 value).
fn check_bone(
    got: &Value,
    want: &([f64; 3], [f64; 4], [f64; 3]),
    name: &str,
    what: &str,
    tol: (f64, f64),
    round: fn(f64) -> f64,
) {
    assert_eq!(got["name"].as_str(), Some(name), "{what}: bone order");
    let t = f64s(&got["translation"]);
    let r = f64s(&got["rotation"]);
    let sc = f64s(&got["scale"]);
    assert_eq!((t.len(), r.len(), sc.len()), (3, 4, 3), "{what} {name}: component counts");
    // Rotations q and -q are the same; compare on the sign of the expected w.
    let dot: f64 = (0..4).map(|k| r[k] * want.1[k]).sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    // Exact (tolerance 0) compares as f32: the output prints each f32 with its shortest digits.
    let close = |a: f64, b: f64, tol: f64| if tol == 0.0 { round(a) == round(b) } else { (a - b).abs() <= tol };
    for k in 0..3 {
        assert!(close(t[k], want.0[k], tol.0), "{what} {name}: translation[{k}] {} != {}", t[k], want.0[k]);
        assert!(close(sc[k], want.2[k], tol.1), "{what} {name}: scale[{k}] {} != {}", sc[k], want.2[k]);
    }
    for k in 0..4 {
        assert!(close(sign * r[k], want.1[k], tol.1), "{what} {name}: rotation[{k}] {} != {}", r[k], want.1[k]);
    }
}

/// Tolerance 0 (exact) when every channel of the bone either has a key at `t` or holds an end
/// value there; otherwise a few f32 ulps of the values (translation in cm, rotation components).
fn exactness(clip: &SkelClipIr, bone: &str, t: f64) -> (f64, f64) {
    let Some(tr) = clip.tracks.iter().find(|tr| tr.bone == bone) else { return (0.0, 0.0) };
    fn on_key<const N: usize>(keys: &[ChannelKey<N>], t: f64) -> bool {
        match (keys.first(), keys.last()) {
            (Some(f), Some(l)) => t <= f.time || t >= l.time || keys.iter().any(|k| k.time == t),
            _ => true,
        }
    }
    if on_key(&tr.translation, t) && on_key(&tr.rotation, t) && on_key(&tr.scale, t) {
        (0.0, 0.0)
    } else {
        (1e-4, 2e-6)
    }
}

const CLIPS: [&str; 3] = ["Idle", "Jumping", "SlowRun"];

fn fixture(dir: &Path, name: &str) -> PathBuf {
    dir.join("eva").join(format!("{name}.eva"))
}

#[test]
fn lossless_f32_blobs_reproduce_every_source_key_exactly() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    for name in CLIPS {
        let src = fixture(&dir, name);
        let (skel, clip) = load(&src);
        let blob = tmp.path().join(format!("{name}.osb"));
        build(&[&src], &blob, "f32");
        let times = key_times(&clip);
        let doc = sample(&blob, &clip.name, &times, "local");
        assert_eq!(doc["clip"].as_str(), Some(clip.name.as_str()));
        assert_eq!(doc["space"].as_str(), Some("local"));
        let samples = doc["samples"].as_array().expect("samples");
        assert_eq!(samples.len(), times.len());
        for (sample, &t) in samples.iter().zip(&times) {
            assert_eq!(sample["time"].as_f64().map(|x| x as f32), Some(t as f32), "{name}: sample times in order");
            let bones = sample["bones"].as_array().expect("bones");
            assert_eq!(bones.len(), skel.bones.len(), "{name}: every bone of the skeleton");
            for ((got, want), bone) in bones.iter().zip(expected(&skel, &clip, t)).zip(&skel.bones) {
                // At a key's own time the stored key comes back unchanged: the f32 rounding of the
                // source number as written. A channel without a key at this time (SlowRun's
                // forearms carry extra keys) is interpolated: a few ulps.
                check_bone(got, &want, &bone.name, &format!("{name} t={t}"), exactness(&clip, &bone.name, t), f32r);
            }
        }
    }
}

#[test]
fn samples_between_keys_interpolate_linearly() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    for name in CLIPS {
        let src = fixture(&dir, name);
        let (skel, clip) = load(&src);
        let times: Vec<f64> = key_times(&clip).windows(2).map(|w| w[0] + (w[1] - w[0]) * 0.37).collect();
        // Expectations from the stored (rounded) keys at the stored (rounded) time; what is left is
        // the kernel's arithmetic: a few ulps of f32, a few steps of Q16.16 scaled by the values.
        let rules: [(&str, fn(f64) -> f64, (f64, f64)); 2] = [("f32", f32r, (1e-4, 2e-6)), ("q16", q16r, (6e-4, 2e-4))];
        for (scalar, r, tol) in rules {
            let blob = tmp.path().join(format!("{name}-{scalar}.osb"));
            build(&[&src], &blob, scalar);
            let stored = rounded(&clip, r);
            let doc = sample(&blob, &clip.name, &times, "local");
            for (sample, &t) in doc["samples"].as_array().expect("samples").iter().zip(&times) {
                let bones = sample["bones"].as_array().expect("bones");
                for ((got, want), bone) in bones.iter().zip(expected(&skel, &stored, r(t))).zip(&skel.bones) {
                    check_bone(got, &want, &bone.name, &format!("{name} {scalar} t={t}"), tol, r);
                }
            }
        }
    }
}

#[test]
fn q16_blobs_reproduce_source_keys_within_the_step() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = fixture(&dir, "SlowRun");
    let (skel, clip) = load(&src);
    let blob = tmp.path().join("SlowRun-q16.osb");
    build(&[&src], &blob, "q16");
    let times = key_times(&clip);
    let stored = rounded(&clip, q16r);
    let doc = sample(&blob, &clip.name, &times, "local");
    for (sample, &t) in doc["samples"].as_array().expect("samples").iter().zip(&times) {
        let bones = sample["bones"].as_array().expect("bones");
        // At a key's own (rounded) time the stored key comes back: the source number rounded to
        // the nearest step (quaternions normalised, then rounded).
        for ((got, want), bone) in bones.iter().zip(expected(&skel, &stored, q16r(t))).zip(&skel.bones) {
            let tol = exactness(&stored, &bone.name, q16r(t));
            let tol = if tol.0 == 0.0 { tol } else { (6e-4, 2e-4) };
            check_bone(got, &want, &bone.name, &format!("SlowRun q16 t={t}"), tol, q16r);
        }
    }
}

#[test]
fn model_space_composes_the_local_pose_through_the_hierarchy() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = fixture(&dir, "Jumping");
    let (skel, clip) = load(&src);
    let blob = tmp.path().join("Jumping.osb");
    build(&[&src], &blob, "f32");
    let times = [0.0, 0.61, clip.duration];
    let local = sample(&blob, &clip.name, &times, "local");
    let model = sample(&blob, &clip.name, &times, "model");
    assert_eq!(model["space"].as_str(), Some("model"));
    let rot = |q: &[f64], v: [f64; 3]| {
        // v + 2w(u×v) + 2u×(u×v)
        let u = [q[0], q[1], q[2]];
        let w = q[3];
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        };
        let c1 = cross(u, v);
        let c2 = cross(u, c1);
        [v[0] + 2.0 * (w * c1[0] + c2[0]), v[1] + 2.0 * (w * c1[1] + c2[1]), v[2] + 2.0 * (w * c1[2] + c2[2])]
    };
    let qmul = |a: &[f64], b: &[f64]| {
        [
            a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
        ]
    };
    for (ls, ms) in local["samples"].as_array().unwrap().iter().zip(model["samples"].as_array().unwrap()) {
        let lb = ls["bones"].as_array().unwrap();
        let mb = ms["bones"].as_array().unwrap();
        let mut want: Vec<([f64; 3], [f64; 4], [f64; 3])> = Vec::new();
        for (i, bone) in skel.bones.iter().enumerate() {
            let (t, r, sc) = (f64s(&lb[i]["translation"]), f64s(&lb[i]["rotation"]), f64s(&lb[i]["scale"]));
            let m = match bone.parent {
                None => ([t[0], t[1], t[2]], [r[0], r[1], r[2], r[3]], [sc[0], sc[1], sc[2]]),
                Some(p) => {
                    let (pt, pr, ps) = want[p];
                    let v = rot(&pr, [ps[0] * t[0], ps[1] * t[1], ps[2] * t[2]]);
                    (
                        [pt[0] + v[0], pt[1] + v[1], pt[2] + v[2]],
                        qmul(&pr, &r),
                        [ps[0] * sc[0], ps[1] * sc[1], ps[2] * sc[2]],
                    )
                }
            };
            want.push(m);
            check_bone(&mb[i], &m, &bone.name, "model", (2e-3, 1e-5), f32r);
        }
    }
}

#[test]
fn sample_errors_name_the_problem() {
    let Some(dir) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = fixture(&dir, "SlowRun");
    let blob = tmp.path().join("SlowRun.osb");
    build(&[&src], &blob, "f32");
    let fails = |args: &[&str], expect: &str| {
        let o = ossicle(args);
        assert_eq!(o.status.code(), Some(1), "{args:?} should fail: {}", String::from_utf8_lossy(&o.stdout));
        let e = stderr(&o);
        assert!(e.contains(expect), "{args:?}: {e:?} should mention {expect:?}");
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
    };
    fails(&["sample", s(&blob), "--clip", "Nope", "--at", "0", "--json"], "Nope");
    fails(&["sample", s(&blob), "--clip", "SlowRun", "--at", "0,abc", "--json"], "abc");
    fails(&["sample", s(&blob), "--clip", "SlowRun", "--at", "0,inf", "--json"], "inf");
    fails(&["sample", s(&tmp.path().join("missing.osb")), "--clip", "x", "--at", "0", "--json"], "missing.osb");
    // Times the blob's scalars cannot hold: beyond f32's range, and beyond Q16.16's ±32768 s
    // (which would otherwise be sampled at 32767.99998 s, the nearest Q16.16 time).
    fails(
        &["sample", s(&blob), "--clip", "SlowRun", "--at", "0,1e39", "--json"],
        "time 2 (1e39 s) is outside what the blob's f32 scalars hold (-3.4028234663852886e38 to 3.4028234663852886e38 s)",
    );
    let q16 = tmp.path().join("SlowRun.q16.osb");
    build(&[&src], &q16, "q16");
    fails(
        &["sample", s(&q16), "--clip", "SlowRun", "--at", "1,40000", "--json"],
        "time 2 (40000 s) is outside what the blob's Q16.16 scalars hold (-32768 to 32767.9999",
    );
    fails(&["sample", s(&q16), "--clip", "SlowRun", "--at", "-32768.5", "--json"], "time 1 (-32768.5 s)");
    // The range's ends are accepted (sampled on the loop).
    let o = ossicle(&["sample", s(&q16), "--clip", "SlowRun", "--at", "-32768,32767.99", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// The model-space position of a virtual vertex `v` of a sampled bone (translation + rotation·(scale ⊙ v)).
fn vertex(bone: &Value, v: [f64; 3]) -> [f64; 3] {
    let t = f64s(&bone["translation"]);
    let q = f64s(&bone["rotation"]);
    let sc = f64s(&bone["scale"]);
    let p = [sc[0] * v[0], sc[1] * v[1], sc[2] * v[2]];
    let u = [q[0], q[1], q[2]];
    let cross =
        |a: [f64; 3], b: [f64; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    let c1 = cross(u, p);
    let c2 = cross(u, c1);
    [0, 1, 2].map(|k| t[k] + p[k] + 2.0 * (q[3] * c1[k] + c2[k]))
}

#[test]
fn reduced_quantised_blobs_stay_within_the_bound_as_the_kernel_evaluates_them() {
    // `build --reduce 0.01 --quantize`: the kernel's model-space pose of the reduced, quantised
    // clip (rotations as packed smallest-three keys, format version 6; key times as bitmaps, a
    // grid time table where the reducer moved the times onto Mixamo's 1/30 s grid, the compact
    // layout: format version 7) against its pose of the lossless clip, at every source key time
    // and midpoint: vertices 3 cm along each bone's axes move at most 0.01 cm (plus f32 rounding of
    // poses 100 cm from the origin: 1e-4).
    let Some(dir) = fixtures() else { return };
    // (name, source keys, whether its times end up on a grid: Jumping's 58-entry word table is
    // smaller than what snapping costs it in keys.)
    // The clip sections must also be no larger than ozz-animation's optimised builds of the same
    // clips (issue 6), whose error is ~20 times this bound.
    let clips = [("SlowRun", 3627, true, 10_900), ("Jumping", 7314, false, 19_700), ("Idle", 16656, true, 8_400)];
    for (name, source_keys, grid, ozz) in clips {
        let tmp = tempfile::tempdir().expect("tempdir");
        let src = fixture(&dir, name);
        let (_, clip) = load(&src);
        let lossless = tmp.path().join("lossless.osb");
        let reduced = tmp.path().join("reduced.osb");
        build(&[&src], &lossless, "f32");
        let o = ossicle(&["build", s(&src), "-o", s(&reduced), "--scalar", "f32", "--reduce", "0.01", "--quantize"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(&format!("reduced {name}: {source_keys} -> ")), "{}", stderr(&o));
        let small = std::fs::metadata(&reduced).unwrap().len();
        let big = std::fs::metadata(&lossless).unwrap().len();
        assert!(small * 2 < big, "reduced {small} bytes vs lossless {big}");
        // Every animated rotation is stored packed.
        let bytes = std::fs::read(&reduced).unwrap();
        let blob = ossicle_format::Blob::parse(&bytes).unwrap();
        assert_eq!(blob.header().version, 7);
        let c = blob.skel_clips().next().unwrap();
        assert!(c.compact(), "{name}: compact layout");
        let table = c.time_table();
        assert_eq!(matches!(table, TimeTable::Grid { rate: 30, .. }), grid, "{name}: {table:?}");
        let channels: Vec<_> = (0..c.bone_count()).flat_map(|b| (0..3).filter_map(move |k| c.channel(b, k))).collect();
        let bitmaps = channels.iter().filter(|r| r.bitmap_times()).count();
        assert!(bitmaps > 0 && channels.iter().all(|r| r.indexed_times()), "{name}: {bitmaps} bitmaps");
        let rotations: Vec<_> = (0..c.bone_count()).filter_map(|b| c.channel(b, 1)).collect();
        let packed = rotations.iter().filter(|r| r.packed_rotation()).count();
        // A one-key channel stays raw when packing would not be smaller (16 + 0 bytes vs 16).
        let single = rotations.iter().filter(|r| !r.packed_rotation() && r.key_count() == 1).count();
        assert!(packed > 0 && packed + single == rotations.len(), "{name}: {packed} + {single} of {}", rotations.len());
        // Where the clip section's bytes go (BENCHMARKS.md, "Blob size").
        let body = (0..blob.section_count())
            .find_map(|i| blob.section(i).filter(|(k, _)| *k == ossicle_format::SectionKind::SkelClip))
            .unwrap()
            .1;
        let split = clip_bytes(&c, body.len());
        eprintln!("{name}: clip section {} bytes: {split:?}", body.len());
        assert_eq!(split.total(), body.len());
        assert_eq!((split.bone_entries, split.records), (2 * c.bone_count(), 8 * channels.len()));
        assert_eq!(split.packed_params, 16 * packed);
        assert_eq!(split.time_table, if grid { 8 } else { 4 * table.len() });
        assert!(body.len() <= ozz, "{name}: clip section {} bytes, ozz {ozz}", body.len());
        let keys = key_times(&clip);
        let mut times = keys.clone();
        times.extend(keys.windows(2).map(|w| (w[0] + w[1]) / 2.0));
        let a = sample(&lossless, name, &times, "model");
        let b = sample(&reduced, name, &times, "model");
        let mut worst = 0.0f64;
        for (sa, sb) in a["samples"].as_array().unwrap().iter().zip(b["samples"].as_array().unwrap()) {
            for (ba, bb) in sa["bones"].as_array().unwrap().iter().zip(sb["bones"].as_array().unwrap()) {
                for axis in [[3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0]] {
                    let (pa, pb) = (vertex(ba, axis), vertex(bb, axis));
                    let d = ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2) + (pa[2] - pb[2]).powi(2)).sqrt();
                    worst = worst.max(d);
                }
            }
        }
        assert!(worst <= 0.0101, "{name}: worst vertex error {worst} cm");
        assert!(worst > 0.0, "a reduced clip that changes nothing reduced nothing");
    }
}
