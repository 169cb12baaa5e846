//! Skeletal animation end to end, across targets: the QEMU images `skeleton-q16` and `skeleton-f32`
//! (`boards/qemu/src/skeltrace.rs`) loads host-built blobs and runs the kernel's skeletal trace
//! (`ossicle::skeleton::trace::run`: sampling forward, backwards and scattered, two-layer blending
//! with a bone mask, slerp and an additive layer, local-to-model) in Q16.16 and f32 on the
//! Cortex-M4F and the Cortex-M0. This test runs the same trace on the host and requires every
//! machine's to equal it line for line: every joint of every pose hashed at every step, and the last
//! model pose word for word. Q16.16 is integer arithmetic; f32 uses IEEE-754 basic operations
//! (square roots included) and the same libm code for slerp on every target, so f32 is required to
//! match exactly too (the documented tolerance for f32 is zero; see docs/skeletal.md).
//!
//! The runs: `figure` (samples/skeletal: clips `walk` and `wave`), `slowrun` (Mixamo's SlowRun,
//! lossless) and `slowrun-rq` (SlowRun `--reduce 0.01 --quantize`). There is one image per
//! scalar type (`skeleton-q16`, `skeleton-f32`): both do not fit the M0's flash together.
//!
//! The host's trace is also checked on its own, against an independent reference: the last step's
//! model pose is recomputed here in f64 from the source keys (linear keys, nlerp and slerp on the
//! shortest arc, the blend rule with the mask, composition down the hierarchy).
//!
//! `scripts/qemu/check.sh` builds the blobs, runs the images and runs this test with:
//!
//! - `OSSICLE_QEMU_SKELETON_OUTPUTS`: the image's outputs, `:`-separated (the file stem names the
//!   machine in messages);
//! - `OSSICLE_FIGURE_Q16`, `OSSICLE_FIGURE_F32`, `OSSICLE_SKEL_Q16`, `OSSICLE_SKEL_F32`,
//!   `OSSICLE_SKEL_Q16_RQ`, `OSSICLE_SKEL_F32_RQ`: the blobs the image embedded (when unset, the
//!   lossless ones are built here as `ossicle build` builds them; the reduced ones need the CLI);
//! - `OSSICLE_REQUIRE_QEMU=1`: missing outputs are a failure instead of a skip. With
//!   `OSSICLE_REQUIRE_FIXTURES=1`, a SlowRun run the image skipped is a failure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ossicle::skeleton::trace::{self, TraceWork};
use ossicle::{Asset, Scalar, Q16};
use ossicle_conformance::{fixtures, fixtures_required, repo_root};
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::{ChannelKey, Project, SkelClipIr, SkeletonIr};
use ossicle_host::write::{write_blob_skeletal, SkelOptions, WriteOptions};

/// The figure's sources.
const FIGURE: [&str; 3] = ["samples/skeletal/figure.eva", "samples/skeletal/idle.evac", "samples/skeletal/wave.evac"];

/// A run: label, clip A, clip B, the blob variables (Q16.16, f32), reduced.
struct Run {
    label: &'static str,
    a: &'static str,
    b: &'static str,
    vars: [&'static str; 2],
    reduced: bool,
}

const RUNS: [Run; 3] = [
    Run { label: "figure", a: "walk", b: "wave", vars: ["OSSICLE_FIGURE_Q16", "OSSICLE_FIGURE_F32"], reduced: false },
    Run {
        label: "slowrun",
        a: "SlowRun",
        b: "SlowRun",
        vars: ["OSSICLE_SKEL_Q16", "OSSICLE_SKEL_F32"],
        reduced: false,
    },
    Run {
        label: "slowrun-rq",
        a: "SlowRun",
        b: "SlowRun",
        vars: ["OSSICLE_SKEL_Q16_RQ", "OSSICLE_SKEL_F32_RQ"],
        reduced: true,
    },
];

const TYPES: [(&str, ScalarEncoding); 2] = [("q16", ScalarEncoding::Q16_16), ("f32", ScalarEncoding::F32)];

/// The run's source files (None: SlowRun without the fixtures).
fn sources(run: &Run) -> Option<Vec<PathBuf>> {
    if run.label == "figure" {
        Some(FIGURE.iter().map(|p| repo_root().join(p)).collect())
    } else {
        Some(vec![fixtures()?.join("eva/SlowRun.eva")])
    }
}

fn project(paths: &[PathBuf]) -> Project {
    ossicle_host::sources::load_sources(paths).unwrap_or_else(|e| panic!("{paths:?}: {e}"))
}

/// The blob of `run` in `encoding`: the one the image embedded (its variable), or a lossless one
/// built here. None when there is nothing to build it from.
fn blob(run: &Run, var: &str, encoding: ScalarEncoding) -> Option<Vec<u8>> {
    if let Some(path) = std::env::var_os(var) {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
        }
    }
    if run.reduced {
        return None;
    }
    let project = project(&sources(run)?);
    let bytes = write_blob_skeletal(&project, &WriteOptions::new(encoding), &SkelOptions::default())
        .unwrap_or_else(|e| panic!("{}: build: {e}", run.label))
        .0;
    Some(bytes)
}

/// The host's trace of `run` on `blob` in `S`.
fn host_trace<S: Scalar>(run: &Run, blob: &[u8]) -> String {
    let asset = Asset::load(blob).unwrap_or_else(|e| panic!("{}: load: {e}", run.label));
    let a = asset.skel_clip_named(run.a).unwrap_or_else(|| panic!("{}: no clip {}", run.label, run.a));
    let b = asset.skel_clip_named(run.b).unwrap_or_else(|| panic!("{}: no clip {}", run.label, run.b));
    let skeleton = asset.skeleton_of(&a).expect("clip A's skeleton");
    let mut work = Box::new(TraceWork::<S, 70>::NEW);
    let mut out = String::new();
    trace::run(&skeleton, &a, &b, &mut work, &mut out).unwrap_or_else(|e| panic!("{}: trace: {e}\n{out}", run.label));
    out
}

fn host_trace_of(run: &Run, ty: &str, blob: &[u8]) -> String {
    if ty == "q16" {
        host_trace::<Q16>(run, blob)
    } else {
        host_trace::<f32>(run, blob)
    }
}

/// A machine's output: (label, type) → Some(lines between begin and end) or None (skipped).
fn machine_traces(text: &str, file: &Path) -> HashMap<(String, String), Option<Vec<String>>> {
    let mut out = HashMap::new();
    let mut current: Option<((String, String), Vec<String>)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("skeleton-trace ") {
            let words: Vec<&str> = rest.split(' ').collect();
            let key = (words[0].to_string(), words.get(1).copied().unwrap_or("").to_string());
            match words.get(2).copied() {
                Some("begin") => current = Some((key, Vec::new())),
                Some("end") => {
                    let (k, lines) =
                        current.take().unwrap_or_else(|| panic!("{}: `{line}` without begin", file.display()));
                    assert_eq!(k, key, "{}: `{line}` ends another run", file.display());
                    out.insert(k, Some(lines));
                }
                Some("skipped") => {
                    out.insert(key, None);
                }
                _ => panic!("{}: {line}", file.display()),
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line.to_string());
        }
    }
    assert!(current.is_none(), "{}: a trace did not end (the run failed?):\n{text}", file.display());
    out
}

fn outputs() -> Vec<PathBuf> {
    match std::env::var_os("OSSICLE_QEMU_SKELETON_OUTPUTS") {
        Some(v) => std::env::split_paths(&v).collect(),
        None => Vec::new(),
    }
}

#[test]
fn qemu_traces_equal_the_host_line_for_line() {
    let files = outputs();
    if files.is_empty() {
        assert!(
            std::env::var("OSSICLE_REQUIRE_QEMU").map_or(true, |v| v != "1"),
            "OSSICLE_REQUIRE_QEMU=1 but OSSICLE_QEMU_SKELETON_OUTPUTS is not set"
        );
        eprintln!("skipping: no QEMU outputs (scripts/qemu/check.sh runs this test with them)");
        return;
    }
    for file in &files {
        let machine = file.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(text.lines().any(|l| l == "ok"), "{machine}: the image did not finish:\n{text}");
        let traces = machine_traces(&text, file);
        for run in &RUNS {
            for ((ty, encoding), var) in TYPES.iter().zip(run.vars) {
                // One image per type: `skeleton-q16-m0` holds the Q16.16 traces.
                if !machine.contains(&format!("-{ty}-")) {
                    continue;
                }
                let key = (run.label.to_string(), ty.to_string());
                let Some(got) = traces.get(&key) else { panic!("{machine}: no {} {ty} trace:\n{text}", run.label) };
                let Some(got) = got else {
                    assert!(
                        run.label == "figure" || !fixtures_required(),
                        "{machine}: the {} {ty} run was skipped (no SlowRun blob) although OSSICLE_REQUIRE_FIXTURES=1",
                        run.label
                    );
                    assert_ne!(run.label, "figure", "{machine}: the figure run was skipped");
                    eprintln!("{machine}: {} {ty} skipped (no fixtures)", run.label);
                    continue;
                };
                let bytes = blob(run, var, *encoding).unwrap_or_else(|| {
                    panic!("{machine}: {} {ty}: the blob the image embedded ({var}) is not there", run.label)
                });
                let host = host_trace_of(run, ty, &bytes);
                let host: Vec<&str> = host.lines().collect();
                assert_eq!(
                    got.len(),
                    host.len(),
                    "{machine}: {} {ty}: {} lines, the host has {}",
                    run.label,
                    got.len(),
                    host.len()
                );
                for (n, (g, h)) in got.iter().zip(&host).enumerate() {
                    assert_eq!(g, h, "{machine}: {} {ty}: line {} differs from the host's", run.label, n + 1);
                }
                eprintln!("{machine}: {} {ty}: {} lines equal to the host's", run.label, host.len());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The independent reference: the trace's last step, in f64 from the source keys.

type Q = [f64; 4];

fn qmul(a: Q, b: Q) -> Q {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

fn dot(a: Q, b: Q) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn normalize(q: Q) -> Q {
    let n = dot(q, q).sqrt();
    q.map(|c| c / n)
}

fn rotate(q: Q, v: [f64; 3]) -> [f64; 3] {
    let r = qmul(qmul(q, [v[0], v[1], v[2], 0.0]), [-q[0], -q[1], -q[2], q[3]]);
    [r[0], r[1], r[2]]
}

/// Linear interpolation of a channel at `t` (keys sorted; clamped at the ends); rotations by nlerp
/// or slerp on the shortest arc.
fn channel<const N: usize>(keys: &[ChannelKey<N>], t: f64, rotation: Option<bool>) -> [f64; N] {
    let first = &keys[0];
    if t <= first.time {
        return first.value;
    }
    let Some(i) = keys.windows(2).position(|w| t < w[1].time) else { return keys[keys.len() - 1].value };
    let (k0, k1) = (&keys[i], &keys[i + 1]);
    let u = (t - k0.time) / (k1.time - k0.time);
    let mut b = k1.value;
    let Some(slerp) = rotation else {
        let mut out = k0.value;
        for (o, b) in out.iter_mut().zip(b) {
            *o += (b - *o) * u;
        }
        return out;
    };
    let a = k0.value;
    let d: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    if d < 0.0 {
        b = b.map(|c| -c);
    }
    let mut out = [0.0; N];
    if slerp {
        let (a4, b4) = (normalize(a[..4].try_into().unwrap()), normalize(b[..4].try_into().unwrap()));
        let theta = dot(a4, b4).clamp(-1.0, 1.0).acos();
        let (wa, wb) = if theta < 1e-9 {
            (1.0 - u, u)
        } else {
            (((1.0 - u) * theta).sin() / theta.sin(), (u * theta).sin() / theta.sin())
        };
        for (k, o) in out.iter_mut().enumerate() {
            *o = wa * a4[k] + wb * b4[k];
        }
    } else {
        for (k, o) in out.iter_mut().enumerate() {
            *o = a[k] + (b[k] - a[k]) * u;
        }
    }
    let n = out.iter().map(|c| c * c).sum::<f64>().sqrt();
    out.map(|c| c / n)
}

/// The local pose of `clip` at `t` (wrapped or clamped as the sampling job does), f64.
fn sample(skel: &SkeletonIr, clip: &SkelClipIr, t: f64, slerp: bool) -> Vec<ossicle_host::ir::Transform3> {
    let t = if (0.0..=clip.duration).contains(&t) {
        t
    } else if clip.looping {
        t.rem_euclid(clip.duration)
    } else {
        t.clamp(0.0, clip.duration)
    };
    skel.bones
        .iter()
        .map(|bone| {
            let mut x = bone.bind;
            if let Some(track) = clip.tracks.iter().find(|tr| tr.bone == bone.name) {
                if !track.translation.is_empty() {
                    x.translation = channel(&track.translation, t, None);
                }
                if !track.rotation.is_empty() {
                    x.rotation = channel(&track.rotation, t, Some(slerp));
                }
                if !track.scale.is_empty() {
                    x.scale = channel(&track.scale, t, None);
                }
            }
            x
        })
        .collect()
}

/// The trace's last step (71): A at `t`, B at `t + e/2` by slerp, blended with A at 0.5 and B at
/// 0.5 · mask[i] (mask (i mod 3)/2; every total is ≥ 0.5, above the threshold: no rest fill; no
/// additive layer at step 71), then composed down the hierarchy.
fn reference_last_step(skel: &SkeletonIr, a: &SkelClipIr, b: &SkelClipIr, t: f64) -> Vec<ossicle_host::ir::Transform3> {
    let pa = sample(skel, a, t, false);
    let pb = sample(skel, b, t + b.duration / 2.0, true);
    let mut model: Vec<ossicle_host::ir::Transform3> = Vec::new();
    for (i, bone) in skel.bones.iter().enumerate() {
        let (wa, wb) = (0.5, 0.5 * (i % 3) as f64 / 2.0);
        let (x, y) = (&pa[i], &pb[i]);
        let total = wa + wb;
        let mix3 = |p: [f64; 3], q: [f64; 3]| [0, 1, 2].map(|k| (wa * p[k] + wb * q[k]) / total);
        let sign = if dot(x.rotation, y.rotation) < 0.0 { -1.0 } else { 1.0 };
        let r = normalize([0, 1, 2, 3].map(|k| wa * x.rotation[k] + sign * wb * y.rotation[k]));
        let local = ossicle_host::ir::Transform3 {
            translation: mix3(x.translation, y.translation),
            rotation: r,
            scale: mix3(x.scale, y.scale),
        };
        let m = match bone.parent {
            None => local,
            Some(p) => {
                let parent = &model[p];
                let scaled = [0, 1, 2].map(|k| parent.scale[k] * local.translation[k]);
                let moved = rotate(parent.rotation, scaled);
                ossicle_host::ir::Transform3 {
                    translation: [0, 1, 2].map(|k| parent.translation[k] + moved[k]),
                    rotation: qmul(parent.rotation, local.rotation),
                    scale: [0, 1, 2].map(|k| parent.scale[k] * local.scale[k]),
                }
            }
        };
        model.push(m);
    }
    model
}

/// The value of blob bits in `ty`.
fn value(ty: &str, bits: u32) -> f64 {
    if ty == "q16" {
        f64::from(bits as i32) / 65536.0
    } else {
        f64::from(f32::from_bits(bits))
    }
}

#[test]
fn host_trace_matches_an_f64_reference() {
    for run in RUNS.iter().filter(|r| !r.reduced) {
        let Some(paths) = sources(run) else { continue };
        let project = project(&paths);
        let skel = &project.skeletons[0];
        let clip = |name: &str| project.skel_clips.iter().find(|c| c.name == name).expect("clip");
        let (a, b) = (clip(run.a), clip(run.b));
        for ((ty, encoding), var) in TYPES.into_iter().zip(run.vars) {
            let bytes = blob(run, var, encoding).expect("lossless blob");
            let text = host_trace_of(run, ty, &bytes);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], format!("skeleton bones {} steps {}", skel.bones.len(), trace::STEPS));
            let steps: Vec<Vec<&str>> =
                lines.iter().filter(|l| l.starts_with("step ")).map(|l| l.split(' ').collect()).collect();
            assert_eq!(steps.len(), trace::STEPS as usize);
            // The poses move: the model hashes are not all one.
            let distinct: std::collections::HashSet<&str> = steps.iter().map(|s| s[11]).collect();
            assert!(
                distinct.len() > 60,
                "{} {ty}: only {} distinct model poses in 72 steps",
                run.label,
                distinct.len()
            );
            // Step 71's time, as the trace printed it: d·7/12 + 1/120.
            let last = &steps[71];
            let t = value(ty, u32::from_str_radix(last[3], 16).expect("hex time"));
            let expected_t = a.duration * 7.0 / 12.0 + 1.0 / 120.0;
            assert!((t - expected_t).abs() < 1e-4, "{} {ty}: step 71 at {t}, expected {expected_t}", run.label);
            let reference = reference_last_step(skel, a, b, t);
            let joints: Vec<Vec<f64>> = lines
                .iter()
                .filter_map(|l| l.strip_prefix("joint "))
                .map(|l| l.split(' ').skip(1).map(|w| value(ty, u32::from_str_radix(w, 16).expect("hex"))).collect())
                .collect();
            assert_eq!(joints.len(), skel.bones.len());
            // Q16.16: values rounded to 1/65536 at every step through a hierarchy up to ~10 deep,
            // in centimetres up to ~150: 0.01 (seen: 6.2e-3); f32: ~1e-7 relative, 2e-4 (seen: 2.1e-5).
            let (tol_t, tol_r) = if ty == "q16" { (1e-2, 5e-4) } else { (2e-4, 2e-6) };
            let mut worst = (0.0f64, 0.0f64);
            for (i, (got, want)) in joints.iter().zip(&reference).enumerate() {
                let name = &skel.bones[i].name;
                // The reference's quaternion may be the negated one.
                let sign = if dot(got[3..7].try_into().unwrap(), want.rotation) < 0.0 { -1.0 } else { 1.0 };
                for k in 0..3 {
                    let d = (got[k] - want.translation[k]).abs();
                    worst.0 = worst.0.max(d);
                    assert!(
                        d < tol_t,
                        "{} {ty}: {name} translation[{k}] {} vs {}",
                        run.label,
                        got[k],
                        want.translation[k]
                    );
                    let d = (got[7 + k] - want.scale[k]).abs();
                    assert!(d < tol_r, "{} {ty}: {name} scale[{k}] {} vs {}", run.label, got[7 + k], want.scale[k]);
                }
                for k in 0..4 {
                    let d = (sign * got[3 + k] - want.rotation[k]).abs();
                    worst.1 = worst.1.max(d);
                    assert!(
                        d < tol_r,
                        "{} {ty}: {name} rotation[{k}] {} vs {}",
                        run.label,
                        got[3 + k],
                        want.rotation[k]
                    );
                }
            }
            eprintln!(
                "{} {ty}: last model pose within {:.2e} (translation), {:.2e} (rotation) of f64",
                run.label, worst.0, worst.1
            );
        }
    }
}
