//! Unity AnimationClips (issue 7, phase 1): the real fixtures decode alike from the 2019.4 and
//! 2022.1 dumps and from the editor YAML; hand-built dumps cover every block, step, count and
//! binding rule; every bad input is an error naming its field; `ossicle curves` prints the stable
//! JSON shape.
//!
//! Expected values are written out by hand (cubic segments evaluated in the comments, quaternions
//! multiplied out on paper, CRC-32 values from Python's `zlib.crc32`), not computed with the code
//! under test.

#![allow(clippy::approx_constant)]

mod common;

use common::fixtures;
use ossicle_host::unity::bindings::{euler_to_quat, expand, BindingKind, GenericBinding, RotationOrder};
use ossicle_host::unity::{self, crc32, Block, Clip, Key, PathTable, UnityError};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn unity_dir() -> Option<PathBuf> {
    fixtures().map(|f| f.join("unity"))
}

fn read_clip(path: &Path) -> Clip {
    let bytes = std::fs::read(path).expect("read fixture");
    unity::read_source(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

const PRE: f32 = f32::MIN;
const END: f32 = f32::INFINITY;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn assert_key(k: &Key, time: f64, value: f64, in_slope: f64, out_slope: f64, tol: f64) {
    let ok = |a: f64, b: f64| if b.is_infinite() { a == b } else { close(a, b, tol) };
    assert!(
        ok(k.time, time) && ok(k.value, value) && ok(k.in_slope, in_slope) && ok(k.out_slope, out_slope),
        "key {k:?}, expected time {time} value {value} in {in_slope} out {out_slope} (±{tol})"
    );
}

// ---------------------------------------------------------------------------------------------
// Real fixtures.

#[test]
fn real_dumps_of_both_versions_decode_identically_and_match_the_editor_yaml() {
    let Some(dir) = unity_dir() else { return };
    let c19 = read_clip(&dir.join("typetree-json/u2019.4.0f1_AnimationClip_Animation.json"));
    let c22 = read_clip(&dir.join("typetree-json/u2022.1.20f1_AnimationClip_Animation.json"));
    assert_eq!(c19, c22, "the 2019.4 and 2022.1 builds of one clip decode to the same curves");
    assert_eq!(c22.name, "Animation");
    assert_eq!((c22.start_time, c22.stop_time, c22.sample_rate), (0.0, 1.0, 60.0));
    assert_eq!(c22.curves.len(), 3);
    for (i, c) in c22.curves.iter().enumerate() {
        assert_eq!(c.index, i);
        assert_eq!(c.block, Block::Streamed);
        assert_eq!((c.binding.path, c.binding.type_id, c.binding.attribute), (0, 4, 1));
        assert_eq!(c.binding.component as usize, i);
        assert_eq!(c.binding.kind, BindingKind::Position);
    }
    // Local position x: 2.15 at 0 s, 6.44 at 0.5 s, 2.15 at 1 s, flat tangents. The segment from
    // 0 s is c = (-68.64, 51.48, 0, 2.15): at dt = 0.5, 2.15 + 51.48·0.25 - 68.64·0.125 = 6.44
    // and its slope 3·(-68.64)·0.25 + 2·51.48·0.5 = 0. Values are the f32 nearest (±1e-6).
    let x = &c22.curves[0].keys;
    assert_eq!(x.len(), 3);
    assert_key(&x[0], 0.0, 2.15, 0.0, 0.0, 1e-6);
    assert_key(&x[1], 0.5, 6.44, 0.0, 0.0, 1e-6);
    assert_key(&x[2], 1.0, 2.15, 0.0, 0.0, 1e-6);
    for c in &c22.curves[1..] {
        assert_eq!(c.keys.len(), 3);
        for (k, t) in c.keys.iter().zip([0.0, 0.5, 1.0]) {
            assert_key(k, t, 0.0, 0.0, 0.0, 0.0);
        }
    }
    // m_ValueArrayDelta: each curve's start and stop value.
    assert_eq!(c22.value_array_delta.len(), 3);
    for (c, (start, stop)) in c22.curves.iter().zip(&c22.value_array_delta) {
        assert_eq!(c.keys.first().map(|k| k.value), Some(*start));
        assert_eq!(c.keys.last().map(|k| k.value), Some(*stop));
    }
    assert_eq!(c22.value_array_delta[0], (2.1500000953674316, 2.1500000953674316));
    // Events at 1/3 s and 0.75 s with empty names.
    assert_eq!(c22.events.len(), 2);
    assert!(close(c22.events[0].time, 1.0 / 3.0, 1e-7) && c22.events[1].time == 0.75);
    assert!(c22.events.iter().all(|e| e.function_name.is_empty() && e.object_parameter.is_null()));

    // The editor YAML it was built from: the same curves, keys and bindings.
    let y = read_clip(&dir.join("yaml/Animation.anim"));
    assert_eq!(y.name, "Animation");
    assert_eq!((y.start_time, y.stop_time, y.sample_rate), (0.0, 1.0, 60.0));
    assert_eq!(y.curves.len(), 3);
    for (a, b) in y.curves.iter().zip(&c22.curves) {
        assert_eq!(a.block, Block::Editor);
        assert_eq!(a.binding.path, b.binding.path);
        assert_eq!((a.binding.type_id, a.binding.attribute, a.binding.component), (4, 1, b.binding.component));
        assert_eq!(a.keys.len(), b.keys.len());
        for (ka, kb) in a.keys.iter().zip(&b.keys) {
            assert_eq!(ka.time, kb.time);
            assert!(close(ka.value, kb.value, 1e-6), "{ka:?} vs {kb:?}");
            assert!(close(ka.in_slope, kb.in_slope, 1e-5) && close(ka.out_slope, kb.out_slope, 1e-5));
        }
    }
    assert_eq!(y.curves[0].keys.iter().map(|k| k.value).collect::<Vec<_>>(), vec![2.15, 6.44, 2.15]);
    // Between keys both evaluate the same cubic: at 0.25 s, 2.15 - 68.64·0.25³ + 51.48·0.25² =
    // 4.295 (Hermite of flat tangents: the midpoint), at 0.75 s the same by symmetry.
    for t in [0.25, 0.75] {
        assert!(close(c22.curves[0].evaluate(t).unwrap(), 4.295, 1e-5));
        assert!(close(y.curves[0].evaluate(t).unwrap(), 4.295, 1e-12));
    }
    assert_eq!(y.curves[0].modes.len(), 3);
    assert!(y.curves[0].modes.iter().all(|m| m.tangent_mode == 0 && m.weighted_mode == 0));
    assert_eq!(y.events.len(), 2);
    assert_eq!(y.events[0].time, 0.33333334);
}

#[test]
fn legacy_clips_and_the_controller() {
    let Some(dir) = unity_dir() else { return };
    let legacy = read_clip(&dir.join("typetree-json/u2022.1.20f1_AnimationClip_LegacyAnimation.json"));
    assert_eq!((legacy.name.as_str(), legacy.curves.len()), ("LegacyAnimation", 0));
    let legacy = read_clip(&dir.join("yaml/LegacyAnimation.anim"));
    assert_eq!((legacy.name.as_str(), legacy.curves.len(), legacy.stop_time), ("LegacyAnimation", 0, 1.0));

    // The controller lists the clip the Animation dump is (its _source.path_id).
    for v in ["u2019.4.0f1", "u2022.1.20f1"] {
        let text =
            std::fs::read_to_string(dir.join(format!("typetree-json/{v}_AnimatorController_AnimatorControlle.json")))
                .unwrap();
        let root: Value = serde_json::from_str(&text).unwrap();
        let clips = unity::typetree::read_controller_clips(&root).unwrap();
        assert_eq!(clips, vec![unity::PPtr { file_id: 0, path_id: 3275523228701995130 }]);
        // Its m_TOS resolves "Base Layer" by its hash.
        let tos = unity::typetree::read_tos(&root).unwrap();
        assert_eq!(tos.name(756556552), Some("Base Layer"));
    }
    // A clip dump is not a controller.
    let clip: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("typetree-json/u2022.1.20f1_AnimationClip_Animation.json")).unwrap(),
    )
    .unwrap();
    let e = unity::typetree::read_controller_clips(&clip).unwrap_err();
    assert_eq!(e.place(), "/_source/class");
    assert!(e.reason().contains("JSON of another class"), "{e}");
}

#[test]
fn controller_clip_list_keeps_repeats_and_drops_nulls() {
    let root = json!({"m_Name": "c", "m_AnimationClips": [
        {"m_FileID": 0, "m_PathID": 5}, {"m_FileID": 0, "m_PathID": 0},
        {"m_FileID": 0, "m_PathID": 5}, {"m_FileID": 1, "m_PathID": 9}]});
    let clips = unity::typetree::read_controller_clips(&root).unwrap();
    let ids: Vec<(i64, i64)> = clips.iter().map(|p| (p.file_id, p.path_id)).collect();
    assert_eq!(ids, vec![(0, 5), (0, 5), (1, 9)]);
}

#[test]
fn cli_prints_the_stable_shape() {
    let Some(dir) = unity_dir() else { return };
    let src = dir.join("typetree-json/u2022.1.20f1_AnimationClip_Animation.json");
    let o = ossicle(&["curves", s(&src), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let top: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(top, ["clip", "curves"]);
    assert_eq!(v["clip"], "Animation");
    let c = &v["curves"][0];
    let mut keys: Vec<&String> = c.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["binding", "block", "index", "keys"]);
    assert_eq!(c["block"], "streamed");
    assert_eq!(c["binding"], json!({"path": 0, "path_name": "", "type_id": 4, "attribute": 1, "component": 0}));
    assert_eq!(c["keys"][1], json!({"time": 0.5, "value": 6.440000057220459, "in_slope": 0.0, "out_slope": 0.0}));
    // The YAML gives the same document but for the block and the values' f32 rounding.
    let o = ossicle(&["curves", s(&dir.join("yaml/Animation.anim")), "--json"]);
    assert!(o.status.success());
    let y: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(y["curves"][0]["block"], "editor");
    assert_eq!(y["curves"][0]["keys"][1]["value"], 6.44);
    assert_eq!(y["curves"].as_array().unwrap().len(), 3);
}

#[test]
fn cli_errors_name_file_and_field_and_print_nothing() {
    let Some(dir) = unity_dir() else { return };
    // A controller dump given as a clip.
    let src = dir.join("typetree-json/u2022.1.20f1_AnimatorController_AnimatorControlle.json");
    let o = ossicle(&["curves", s(&src), "--json"]);
    assert!(!o.status.success());
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{}:/_source/class: JSON of another class: this dump is of a AnimatorController",
            s(&src)
        )),
        "{err}"
    );
    // The editor controller YAML.
    let src = dir.join("yaml/AnimatorControlle.controller");
    let o = ossicle(&["curves", s(&src)]);
    assert!(!o.status.success() && o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(":line 3: not an AnimationClip: the file's first document is a AnimatorStateMachine"),
        "{err}"
    );
    // The AssetBundle.
    let src = dir.join("bundle-2022.1.20f1/assetbundle");
    let o = ossicle(&["curves", s(&src)]);
    assert!(!o.status.success() && o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("an AssetBundle: dump its AnimationClip"));
}

// ---------------------------------------------------------------------------------------------
// Hand-built dumps.

/// A transform-free binding of one float curve on `path`.
fn float_binding(path: u32, attribute: u32) -> Value {
    json!({"path": path, "attribute": attribute, "script": {"m_FileID": 0, "m_PathID": 0},
           "typeID": 114, "customType": 0, "isPPtrCurve": 0, "isIntCurve": 0})
}

struct Dump {
    words: Vec<u32>,
    curve_count: Value,
    discrete: Option<u32>,
    dense: Value,
    constant: Vec<f32>,
    bindings: Vec<Value>,
    start: f64,
    stop: f64,
    version: &'static str,
    pptr: Vec<Value>,
}

impl Default for Dump {
    fn default() -> Self {
        Dump {
            words: Vec::new(),
            curve_count: json!(0),
            discrete: None,
            dense: json!({"m_FrameCount": 0, "m_CurveCount": 0, "m_SampleRate": 30.0, "m_BeginTime": 0.0,
                          "m_SampleArray": []}),
            constant: Vec::new(),
            bindings: Vec::new(),
            start: 0.0,
            stop: 1.0,
            version: "2022.1.20f1",
            pptr: Vec::new(),
        }
    }
}

impl Dump {
    /// UnityPy's shape: `{"_source", "data"}` and `m_Clip.data`.
    fn nested(&self) -> Value {
        let mut streamed = json!({"data": self.words, "curveCount": self.curve_count});
        if let Some(d) = self.discrete {
            streamed["discreteCurveCount"] = json!(d);
        }
        json!({
            "_source": {"unity_version": self.version, "class": "AnimationClip", "class_id": 74},
            "data": {
                "m_Name": "hand",
                "m_SampleRate": 30.0,
                "m_MuscleClip": {
                    "m_Clip": {"data": {"m_StreamedClip": streamed, "m_DenseClip": self.dense,
                                        "m_ConstantClip": {"data": self.constant}}},
                    "m_StartTime": self.start, "m_StopTime": self.stop, "m_LoopTime": false,
                    "m_ValueArrayDelta": []
                },
                "m_ClipBindingConstant": {"genericBindings": self.bindings, "pptrCurveMapping": self.pptr},
                "m_Events": [{"time": 0.5, "functionName": "Step", "data": "left",
                              "objectReferenceParameter": {"m_FileID": 0, "m_PathID": 0},
                              "floatParameter": 1.5, "intParameter": 3, "messageOptions": 1}]
            }
        })
    }

    /// Another dumper's shape: no wrapper, no `m_Clip.data` level.
    fn flat(&self) -> Value {
        let mut v = self.nested()["data"].clone();
        let blocks = v["m_MuscleClip"]["m_Clip"]["data"].clone();
        v["m_MuscleClip"]["m_Clip"] = blocks;
        v
    }

    fn decode(&self) -> Result<Clip, UnityError> {
        let a = unity::typetree::read_clip(&self.nested());
        let b = unity::typetree::read_clip(&self.flat());
        match (&a, &b) {
            (Ok(x), Ok(y)) => assert_eq!(x, y, "the nested and flattened shapes decode alike"),
            (Err(x), Err(y)) => {
                assert_eq!(x.reason(), y.reason());
                // The flat shape's pointers lack `/data` at the root and in `m_Clip`.
                assert_eq!(x.place().replacen("/data", "", 1).replace("/m_Clip/data", "/m_Clip"), y.place());
            }
            _ => panic!("shapes disagree: {a:?} vs {b:?}"),
        }
        a
    }
}

const SP: &str = "/data/m_MuscleClip/m_Clip/data/m_StreamedClip";

#[test]
fn streamed_cubic_segments_give_values_and_both_slopes() {
    // One curve: before 0 s hold 1; from 0 s c = (1, -2, 3, 1) until the key at 2 s; the key at 2 s
    // c = (0, 0, -1, 3) lasts to the end.
    // value(2) = ((1·2 - 2)·2 + 3)·2 + 1 = 7, so the 2 s key stores 7; slope at dt = 2:
    // 3·1·4 + 2·(-2)·2 + 3 = 7.
    let words = vec![
        f(PRE),
        1,
        0,
        0,
        0,
        0,
        f(1.0),
        f(0.0),
        1,
        0,
        f(1.0),
        f(-2.0),
        f(3.0),
        f(1.0),
        f(2.0),
        1,
        0,
        0,
        0,
        f(-1.0),
        f(7.0),
        f(END),
        0,
    ];
    let d = Dump { words, curve_count: json!(1), bindings: vec![float_binding(0, 7)], stop: 2.0, ..Dump::default() };
    let clip = d.decode().unwrap();
    let k = &clip.curves[0].keys;
    assert_eq!(k.len(), 2);
    // The -f32::MAX segment is flat at 1 (c0..c2 = 0): in-slope 0 at the first key.
    assert_key(&k[0], 0.0, 1.0, 0.0, 3.0, 0.0);
    assert_key(&k[1], 2.0, 7.0, 7.0, -1.0, 0.0);
    // The keys' Hermite segment is the stored cubic: v(0.5) = ((0.5 - 2)·0.5 + 3)·0.5 + 1 = 2.125,
    // v(1.5) = ((1.5 - 2)·1.5 + 3)·1.5 + 1 = 4.375; held at 7 after the last key.
    let c = &clip.curves[0];
    assert!(close(c.evaluate(0.5).unwrap(), 2.125, 1e-12) && close(c.evaluate(1.5).unwrap(), 4.375, 1e-12));
    assert_eq!((c.evaluate(-1.0), c.evaluate(3.0)), (Some(1.0), Some(7.0)));
    // Events.
    assert_eq!(clip.events.len(), 1);
    let e = &clip.events[0];
    assert_eq!((e.time, e.function_name.as_str(), e.string_parameter.as_str()), (0.5, "Step", "left"));
    assert_eq!((e.float_parameter, e.int_parameter, e.message_options), (1.5, 3, 1));
}

#[test]
fn the_first_frames_segment_is_evaluated_in_f64() {
    // A -f32::MAX segment with c2 = 1e-30: at 0 s, dt = 3.4028234663852886e38, so the first key's
    // in-slope is c2 + 2·c1·dt + 3·c0·dt² = 1e-30 (c0 = c1 = 0) — and with c1 = 1e-40 (subnormal)
    // it is 2·1e-40·3.4028e38 + 1e-30 ≈ 0.0680565; in f32, dt² alone would overflow.
    let c1 = 1e-40f32;
    let words = vec![f(PRE), 1, 0, 0, f(c1), f(1e-30), f(4.0), f(0.0), 1, 0, 0, 0, 0, f(4.0), f(END), 0];
    let d = Dump { words, curve_count: json!(1), bindings: vec![float_binding(0, 7)], ..Dump::default() };
    let clip = d.decode().unwrap();
    let k = &clip.curves[0].keys;
    assert_eq!(k.len(), 1);
    let expected = 2.0 * f64::from(c1) * 3.4028234663852886e38 + f64::from(1e-30f32);
    assert!(close(expected, 0.068056, 1e-5));
    assert_key(&k[0], 0.0, 4.0, expected, 0.0, 1e-12);
}

#[test]
fn steps_and_flat_segments() {
    // Curve 0: 1 at 0 s, zero c0..c2, then 5 at 1 s: a step (out +inf). Then 5 at 2 s with zero
    // c0..c2 after 5: flat (out 0), not a step.
    let words = vec![
        f(PRE),
        1,
        0,
        0,
        0,
        0,
        f(1.0),
        f(0.0),
        1,
        0,
        0,
        0,
        0,
        f(1.0),
        f(1.0),
        1,
        0,
        0,
        0,
        0,
        f(5.0),
        f(2.0),
        1,
        0,
        0,
        0,
        0,
        f(5.0),
        f(END),
        0,
    ];
    let d = Dump { words, curve_count: json!(1), bindings: vec![float_binding(0, 7)], stop: 2.0, ..Dump::default() };
    let k = &d.decode().unwrap().curves[0].keys;
    assert_key(&k[0], 0.0, 1.0, 0.0, f64::INFINITY, 0.0);
    assert_key(&k[1], 1.0, 5.0, 0.0, 0.0, 0.0);
    assert_key(&k[2], 2.0, 5.0, 0.0, 0.0, 0.0);
    let c = &d.decode().unwrap().curves[0];
    assert_eq!((c.evaluate(0.999), c.evaluate(1.0), c.evaluate(1.5)), (Some(1.0), Some(5.0), Some(5.0)));
}

#[test]
fn non_finite_coefficients_are_steps() {
    let nan = f32::NAN.to_bits();
    let inf = f(f32::INFINITY);
    // Curve 0: c1 NaN from 0 s; curve 1: c0 +inf from 0 s; both reach another value at 1 s.
    let words = vec![
        f(PRE),
        2,
        0,
        0,
        0,
        0,
        f(0.0),
        1,
        0,
        0,
        0,
        f(0.0),
        f(0.0),
        2,
        0,
        0,
        nan,
        0,
        f(0.0),
        1,
        inf,
        0,
        f(2.0),
        f(0.0),
        f(1.0),
        2,
        0,
        0,
        0,
        0,
        f(3.0),
        1,
        0,
        0,
        0,
        f(3.0),
        f(END),
        0,
    ];
    let d = Dump {
        words,
        curve_count: json!(2),
        bindings: vec![float_binding(0, 7), float_binding(0, 8)],
        ..Dump::default()
    };
    let clip = d.decode().unwrap();
    for c in &clip.curves {
        assert_key(&c.keys[0], 0.0, 0.0, 0.0, f64::INFINITY, 0.0);
        // The in-slope after a non-finite segment is undefined: 0.
        assert_key(&c.keys[1], 1.0, 3.0, 0.0, 0.0, 0.0);
    }
}

#[test]
fn duplicate_indices_in_a_frame_keep_the_last() {
    let words = vec![
        f(PRE),
        1,
        0,
        0,
        0,
        0,
        f(9.0),
        f(0.0),
        3,
        0,
        0,
        0,
        0,
        f(1.0),
        0,
        0,
        0,
        0,
        f(2.0),
        0,
        0,
        0,
        f(0.5),
        f(3.0),
        f(END),
        0,
    ];
    let d = Dump { words, curve_count: json!(1), bindings: vec![float_binding(0, 7)], ..Dump::default() };
    let k = &d.decode().unwrap().curves[0].keys;
    assert_eq!(k.len(), 1);
    assert_key(&k[0], 0.0, 3.0, 0.0, 0.5, 0.0);
}

#[test]
fn split_curve_counts_and_a_discrete_curve_keyed_only_in_the_first_frame() {
    // curveCount 1 (continuous) + discreteCurveCount 1, then one constant curve. The discrete
    // curve (index 1, an int curve: the integer's bits in c3) is keyed only in the -f32::MAX frame:
    // one key at the clip's start (0.25 s).
    let words = vec![
        f(PRE),
        2,
        0,
        0,
        0,
        0,
        f(1.0),
        1,
        0,
        0,
        0,
        (-7i32) as u32,
        f(0.25),
        1,
        0,
        0,
        0,
        f(2.0),
        f(1.0),
        f(1.0),
        1,
        0,
        0,
        0,
        0,
        f(3.0),
        f(END),
        0,
    ];
    let mut int_binding = float_binding(0, 8);
    int_binding["isIntCurve"] = json!(1);
    let bindings = vec![float_binding(0, 7), int_binding, float_binding(0, 9)];
    let check = |clip: &Clip| {
        assert_eq!(clip.curves.len(), 3);
        assert_eq!(
            clip.curves.iter().map(|c| c.block).collect::<Vec<_>>(),
            [Block::Streamed, Block::Streamed, Block::Constant]
        );
        assert_key(&clip.curves[0].keys[0], 0.25, 1.0, 0.0, 2.0, 0.0);
        assert_key(&clip.curves[0].keys[1], 1.0, 3.0, 2.0, 0.0, 0.0);
        assert_eq!(clip.curves[1].binding.kind, BindingKind::Int);
        assert_eq!(clip.curves[1].keys, vec![Key { time: 0.25, value: -7.0, in_slope: 0.0, out_slope: 0.0 }]);
        assert_key(&clip.curves[2].keys[0], 0.25, 0.5, 0.0, 0.0, 0.0);
    };
    // The two u16 fields.
    let d = Dump {
        words: words.clone(),
        curve_count: json!(1),
        discrete: Some(1),
        constant: vec![0.5],
        bindings: bindings.clone(),
        start: 0.25,
        version: "2022.3.20f1",
        ..Dump::default()
    };
    check(&d.decode().unwrap());
    // A dumper that wrote the pair as one u32 (discrete count in the high 16 bits), in a version
    // that splits it.
    // (Only the wrapped shape names its version.)
    let d = Dump { curve_count: json!(1 | (1 << 16)), discrete: None, ..d };
    check(&unity::typetree::read_clip(&d.nested()).unwrap());
    // The same u32 in a version that does not split it is 65537 curves: the bindings do not match.
    let d = Dump { version: "2022.3.18f1", ..d };
    let e = unity::typetree::read_clip(&d.nested()).unwrap_err();
    assert_eq!(e.place(), "/data/m_ClipBindingConstant/genericBindings");
    assert!(e.reason().contains("65538 curves in the muscle clip (streamed 65537 + dense 0 + constant 1)"), "{e}");
}

#[test]
fn dense_frame_major_with_a_begin_time() {
    // 2 curves × 3 frames at 10 Hz from 0.5 s: sample[f·2 + c].
    let dense = json!({"m_FrameCount": 3, "m_CurveCount": 2, "m_SampleRate": 10.0, "m_BeginTime": 0.5,
                       "m_SampleArray": [1.0, 10.0, 2.0, 20.0, 4.0, 10.0]});
    let d = Dump { dense, bindings: vec![float_binding(0, 1), float_binding(0, 2)], ..Dump::default() };
    let clip = d.decode().unwrap();
    assert_eq!(clip.curves.len(), 2);
    let (a, b) = (&clip.curves[0].keys, &clip.curves[1].keys);
    assert!(clip.curves.iter().all(|c| c.block == Block::Dense));
    // Secants: curve 0 (1 -> 2 -> 4) slopes 10 and 20 per second; curve 1 (10 -> 20 -> 10) 100, -100.
    let tol = 1e-9;
    assert_key(&a[0], 0.5, 1.0, 0.0, 10.0, tol);
    assert_key(&a[1], 0.6, 2.0, 10.0, 20.0, tol);
    assert_key(&a[2], 0.7, 4.0, 20.0, 0.0, tol);
    assert_key(&b[0], 0.5, 10.0, 0.0, 100.0, tol);
    assert_key(&b[1], 0.6, 20.0, 100.0, -100.0, tol);
    assert_key(&b[2], 0.7, 10.0, -100.0, 0.0, tol);
}

#[test]
fn constant_curves_key_start_and_stop() {
    let d = Dump {
        constant: vec![3.5, -1.0],
        bindings: vec![float_binding(0, 1), float_binding(0, 2)],
        start: 0.5,
        stop: 2.0,
        ..Dump::default()
    };
    let clip = d.decode().unwrap();
    for (c, v) in clip.curves.iter().zip([3.5, -1.0]) {
        assert_eq!(c.block, Block::Constant);
        assert_eq!(
            c.keys,
            vec![
                Key { time: 0.5, value: v, in_slope: 0.0, out_slope: 0.0 },
                Key { time: 2.0, value: v, in_slope: 0.0, out_slope: 0.0 }
            ]
        );
    }
}

#[test]
fn blocks_number_curves_streamed_dense_constant() {
    let words = vec![f(PRE), 1, 0, 0, 0, 0, f(1.0), f(END), 0];
    let dense = json!({"m_FrameCount": 1, "m_CurveCount": 1, "m_SampleRate": 30.0, "m_BeginTime": 0.0,
                       "m_SampleArray": [2.0]});
    let d = Dump {
        words,
        curve_count: json!(1),
        dense,
        constant: vec![3.0],
        bindings: vec![float_binding(1, 1), float_binding(2, 2), float_binding(3, 3)],
        ..Dump::default()
    };
    let clip = d.decode().unwrap();
    let got: Vec<(usize, Block, u32, f64)> =
        clip.curves.iter().map(|c| (c.index, c.block, c.binding.path, c.keys[0].value)).collect();
    assert_eq!(got, [(0, Block::Streamed, 1, 1.0), (1, Block::Dense, 2, 2.0), (2, Block::Constant, 3, 3.0)]);
}

#[test]
fn object_reference_curves_index_the_mapping() {
    // Index 1 from 0 s, index -1 (none) from 0.5 s.
    let words =
        vec![f(PRE), 1, 0, 0, 0, 0, f(1.0), f(0.0), 1, 0, 0, 0, 0, f(1.0), f(0.5), 1, 0, 0, 0, 0, f(-1.0), f(END), 0];
    let mut b = float_binding(0, 0);
    b["typeID"] = json!(212);
    b["isPPtrCurve"] = json!(1);
    let pptr = vec![json!({"m_FileID": 0, "m_PathID": 11}), json!({"m_FileID": 0, "m_PathID": 22})];
    let d = Dump { words: words.clone(), curve_count: json!(1), bindings: vec![b.clone()], pptr, ..Dump::default() };
    let clip = d.decode().unwrap();
    assert_eq!(clip.curves[0].binding.kind, BindingKind::PPtr);
    assert_eq!(clip.curves[0].keys.iter().map(|k| k.value).collect::<Vec<_>>(), [1.0, -1.0]);
    assert_eq!(clip.curves[0].keys[0].out_slope, f64::INFINITY);
    assert_eq!(clip.pptr_mapping[1].path_id, 22);
    // An index past the mapping.
    let d = Dump { words, curve_count: json!(1), bindings: vec![b], pptr: vec![], ..Dump::default() };
    let e = d.decode().unwrap_err();
    assert_eq!(e.place(), "/data/m_ClipBindingConstant/pptrCurveMapping");
    assert!(e.reason().contains("indexes entry 1 of pptrCurveMapping, which has 0 entries"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Bindings.

fn gb(type_id: i64, attribute: u32, custom_type: i64) -> GenericBinding {
    GenericBinding { type_id, attribute, custom_type, place: "/b".into(), ..GenericBinding::default() }
}

#[test]
fn every_binding_size_rule() {
    let cases: [(GenericBinding, usize, BindingKind); 9] = [
        (gb(4, 1, 0), 3, BindingKind::Position),
        (gb(4, 2, 0), 4, BindingKind::Rotation),
        (gb(4, 3, 0), 3, BindingKind::Scale),
        (gb(4, 4, 4), 3, BindingKind::Euler(RotationOrder::Zxy)),
        // Decided by typeID only: a Transform position with customType 8 and path 0 is 3 curves...
        (gb(4, 1, 8), 3, BindingKind::Position),
        // ...and attribute 1 of another class is one curve.
        (gb(95, 1, 0), 1, BindingKind::Float),
        (gb(95, 17, 8), 1, BindingKind::Muscle),
        (GenericBinding { is_pptr: true, ..gb(212, 5, 0) }, 1, BindingKind::PPtr),
        (GenericBinding { is_int: true, ..gb(114, 5, 0) }, 1, BindingKind::Int),
    ];
    for (b, n, kind) in cases {
        let out = expand(std::slice::from_ref(&b), n, "test curves").unwrap_or_else(|e| panic!("{b:?}: {e}"));
        assert_eq!(out.len(), n, "{b:?}");
        assert!(out.iter().enumerate().all(|(i, c)| c.kind == kind && c.component as usize == i), "{out:?}");
    }
    assert_eq!(expand(&[gb(95, 17, 8)], 1, "").unwrap()[0].muscle_name().as_deref(), Some("muscle #17"));
    // Unknown Transform attribute, unknown typeID, bad Euler order: errors naming the field.
    let e = expand(&[gb(4, 5, 0)], 3, "").unwrap_err();
    assert!(e.to_string().starts_with("/b: attribute 5 of a Transform binding (typeID 4)"), "{e}");
    let e = expand(&[gb(9999, 1, 0)], 1, "").unwrap_err();
    assert!(e.to_string().starts_with("/b: typeID 9999 is not a known Unity class ID"), "{e}");
    let e = expand(&[gb(4, 4, 6)], 3, "").unwrap_err();
    assert!(e.to_string().starts_with("/b: customType 6 of a Transform Euler binding"), "{e}");
    // Totals.
    let e = expand(&[gb(4, 2, 0)], 3, "3 curves").unwrap_err();
    assert!(e.reason().contains("more curves than 3 curves"), "{e}");
    let e = expand(&[gb(4, 1, 0)], 4, "4 curves").unwrap_err();
    assert_eq!(e.to_string(), "/: genericBindings take 3 curves, but there are 4 curves");
}

#[test]
fn old_class_id_field_is_read() {
    let words = vec![f(PRE), 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, f(END), 0];
    let b = json!({"path": 0, "attribute": 3, "classID": 4, "customType": 0, "isPPtrCurve": 0});
    let d = Dump { words, curve_count: json!(3), bindings: vec![b], ..Dump::default() };
    let clip = d.decode().unwrap();
    assert!(clip.curves.iter().all(|c| c.binding.kind == BindingKind::Scale));
}

/// Rotates `v` about `axis` by `deg` degrees (a rotation matrix, right-handed).
fn rotate_axis(v: [f64; 3], axis: usize, deg: f64) -> [f64; 3] {
    let (s, c) = deg.to_radians().sin_cos();
    let [x, y, z] = v;
    match axis {
        0 => [x, c * y - s * z, s * y + c * z],
        1 => [c * x + s * z, y, -s * x + c * z],
        _ => [c * x - s * y, s * x + c * y, z],
    }
}

fn rotate_quat(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    // v' = v + 2w(u × v) + 2 u × (u × v)
    let [x, y, z, w] = q;
    let u = [x, y, z];
    let cross =
        |a: [f64; 3], b: [f64; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    let t = cross(u, v).map(|c| 2.0 * c);
    let ut = cross(u, t);
    [v[0] + w * t[0] + ut[0], v[1] + w * t[1] + ut[1], v[2] + w * t[2] + ut[2]]
}

#[test]
fn euler_bindings_in_several_rotation_orders() {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let close4 = |a: [f64; 4], b: [f64; 4]| a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-12);
    // Single axes.
    assert!(close4(euler_to_quat([90.0, 0.0, 0.0], RotationOrder::Xyz), [h, 0.0, 0.0, h]));
    assert!(close4(euler_to_quat([0.0, 0.0, 180.0], RotationOrder::Zxy), [0.0, 0.0, 1.0, 0.0]));
    // x = 90, y = 90: XYZ is qz·qy·qx = qy·qx = (½, ½, -½, ½); YXZ is qz·qx·qy = qx·qy = (½, ½, ½, ½);
    // ZXY (Unity's default) is qy·qx·qz = qy·qx.
    assert!(close4(euler_to_quat([90.0, 90.0, 0.0], RotationOrder::Xyz), [0.5, 0.5, -0.5, 0.5]));
    assert!(close4(euler_to_quat([90.0, 90.0, 0.0], RotationOrder::Yxz), [0.5, 0.5, 0.5, 0.5]));
    assert!(close4(euler_to_quat([90.0, 90.0, 0.0], RotationOrder::Zxy), [0.5, 0.5, -0.5, 0.5]));
    // x = 90, z = 90: ZXY is qy·qx·qz = qx·qz = (½, -½, ½, ½); XZY is qy·qz·qx = qz·qx = (½, ½, ½, ½).
    assert!(close4(euler_to_quat([90.0, 0.0, 90.0], RotationOrder::Zxy), [0.5, -0.5, 0.5, 0.5]));
    assert!(close4(euler_to_quat([90.0, 0.0, 90.0], RotationOrder::Xzy), [0.5, 0.5, 0.5, 0.5]));
    // Every order on general angles: the quaternion rotates a vector as the three axis rotations
    // applied one after another in that order.
    let orders = [
        (0, RotationOrder::Xyz, [0, 1, 2]),
        (1, RotationOrder::Xzy, [0, 2, 1]),
        (2, RotationOrder::Yzx, [1, 2, 0]),
        (3, RotationOrder::Yxz, [1, 0, 2]),
        (4, RotationOrder::Zxy, [2, 0, 1]),
        (5, RotationOrder::Zyx, [2, 1, 0]),
    ];
    let angles = [23.0, -71.0, 140.0];
    for (value, order, axes) in orders {
        assert_eq!(RotationOrder::from_unity(value), Some(order));
        let q = euler_to_quat(angles, order);
        assert!(((q.iter().map(|c| c * c).sum::<f64>()) - 1.0).abs() < 1e-12);
        let v = [0.3, -1.2, 2.5];
        let mut expect = v;
        for a in axes {
            expect = rotate_axis(expect, a, angles[a]);
        }
        let got = rotate_quat(q, v);
        assert!(got.iter().zip(&expect).all(|(a, b)| (a - b).abs() < 1e-12), "{order:?}: {got:?} vs {expect:?}");
        // And a Euler binding with that customType.
        let out = expand(&[gb(4, 4, value)], 3, "").unwrap();
        assert!(out.iter().all(|b| b.kind == BindingKind::Euler(order)));
    }
    assert_eq!(RotationOrder::from_unity(6), None);
}

#[test]
fn euler_curves_of_a_dump_convert_with_their_binding_order() {
    // Constant Euler angles (90, 90, 0) on two transforms: customType 3 (YXZ) and 0 (XYZ). By hand
    // (see above): YXZ = qx·qy = (½, ½, ½, ½), XYZ = qy·qx = (½, ½, -½, ½).
    let euler = |path: u32, order: i64| json!({"path": path, "attribute": 4, "typeID": 4, "customType": order, "isPPtrCurve": 0});
    let d = Dump {
        constant: vec![90.0, 90.0, 0.0, 90.0, 90.0, 0.0],
        bindings: vec![euler(1, 3), euler(2, 0)],
        ..Dump::default()
    };
    let clip = d.decode().unwrap();
    for (chunk, expect) in clip.curves.chunks(3).zip([[0.5, 0.5, 0.5, 0.5], [0.5, 0.5, -0.5, 0.5]]) {
        let BindingKind::Euler(order) = chunk[0].binding.kind else { panic!("{:?}", chunk[0].binding) };
        assert!(chunk.iter().all(|c| c.binding.kind == BindingKind::Euler(order)));
        let deg = [chunk[0].keys[0].value, chunk[1].keys[0].value, chunk[2].keys[0].value];
        let q = euler_to_quat(deg, order);
        assert!(q.iter().zip(&expect).all(|(a, b)| (a - b).abs() < 1e-12), "{order:?}: {q:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Paths.

#[test]
fn crc32_of_paths() {
    assert_eq!(crc32(b""), 0);
    assert_eq!(crc32(b"Hand_L"), 552_982_707);
    // Values from Python's zlib.crc32 of the UTF-8 bytes.
    assert_eq!(crc32("Hüfte".as_bytes()), 2_433_340_476);
    assert_eq!(crc32("Körper/Hand_L".as_bytes()), 3_833_634_148);
    assert_eq!(crc32(b"Hips/Spine"), 2_351_022_798);
}

#[test]
fn unresolved_hashes_are_reported() {
    let spine = 2_351_022_798u32; // "Hips/Spine"
    let missing = 1_058_882_117u32; // "Missing"
    let d = Dump {
        constant: vec![1.0, 2.0, 3.0, 4.0],
        bindings: vec![
            float_binding(spine, 1),
            float_binding(missing, 2),
            float_binding(0, 3),
            float_binding(missing, 4),
        ],
        ..Dump::default()
    };
    let clip = d.decode().unwrap();
    let table = PathTable::from_paths(["Hips", "Hips/Spine"]);
    assert_eq!(clip.unresolved(&table), vec![missing]);
    assert_eq!(clip.unresolved(&PathTable::default()), vec![missing, spine]);
    let doc = unity::output::curves_document(&clip, &table);
    let names: Vec<Option<&str>> = doc.curves.iter().map(|c| c.binding.path_name.as_deref()).collect();
    assert_eq!(names, [Some("Hips/Spine"), None, Some(""), None]);

    // The CLI: a paths file, names in the JSON, the unresolved hash on stderr.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("clip.json");
    std::fs::write(&src, d.nested().to_string()).unwrap();
    let paths = dir.path().join("paths.txt");
    std::fs::write(&paths, "Hips\nHips/Spine\n").unwrap();
    let o = ossicle(&["curves", s(&src), "--paths", s(&paths), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["curves"][0]["binding"]["path_name"], "Hips/Spine");
    assert_eq!(v["curves"][1]["binding"]["path_name"], Value::Null);
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), format!("note: 1 unresolved path hashes: {missing}"));
    // An m_TOS table in a JSON dump works as the paths file.
    let tos = dir.path().join("avatar.json");
    std::fs::write(&tos, json!({"data": {"m_TOS": [[spine, "Hips/Spine"], [missing, "Missing"]]}}).to_string())
        .unwrap();
    let o = ossicle(&["curves", s(&src), "--paths", s(&tos)]);
    assert!(o.status.success() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["curves"][1]["binding"]["path_name"], "Missing");
}

#[test]
fn skeleton_hierarchy_paths_resolve() {
    let Some(fx) = fixtures() else { return };
    let eva = fx.join("eva/SlowRun.eva");
    let bytes = std::fs::read(&eva).unwrap();
    let project = ossicle_host::sources::eva::parse(&eva, &bytes).unwrap();
    let table = PathTable::from_skeleton(&project.skeletons[0]);
    // Python zlib.crc32: with the root's name and without it (the root as the Animator's object).
    assert_eq!(table.name(3_545_095_670), Some("RootNode/mixamorig:Hips/mixamorig:Spine"));
    assert_eq!(table.name(3_756_728_238), Some("mixamorig:Hips/mixamorig:Spine"));
    assert_eq!(table.name(4_263_932_985), Some("RootNode"));
    // Through the CLI.
    let d = Dump { constant: vec![1.0], bindings: vec![float_binding(3_756_728_238, 1)], ..Dump::default() };
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("clip.json");
    std::fs::write(&src, d.nested().to_string()).unwrap();
    let o = ossicle(&["curves", s(&src), "--skeleton", s(&eva), "--json"]);
    assert!(o.status.success() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["curves"][0]["binding"]["path_name"], "mixamorig:Hips/mixamorig:Spine");
}

// ---------------------------------------------------------------------------------------------
// Bad input: each error names its field.

fn bad(d: &Dump, place: &str, reason: &str) {
    let e = d.decode().unwrap_err();
    assert_eq!(e.place(), place, "{e}");
    assert!(e.reason().contains(reason), "`{}` does not contain `{reason}`", e.reason());
}

#[test]
fn bad_streamed_words() {
    let one = || vec![float_binding(0, 1)];
    // Words that do not form whole frames: a key count of 1 with 4 words after it.
    let d = Dump { words: vec![f(0.0), 1, 0, 0, 0, 0], curve_count: json!(1), bindings: one(), ..Dump::default() };
    bad(
        &d,
        &format!("{SP}/data/1"),
        "do not form whole frames: frame 0 (time 0) has 1 keys, which need 5 words, but 4 remain",
    );
    // A lone time word.
    let d = Dump { words: vec![f(0.0), 0, f(1.0)], curve_count: json!(1), bindings: one(), ..Dump::default() };
    bad(&d, &format!("{SP}/data/2"), "do not form whole frames: frame 1 starts at word 2");
    // A negative key count.
    let d = Dump { words: vec![f(0.0), (-2i32) as u32], curve_count: json!(1), bindings: one(), ..Dump::default() };
    bad(&d, &format!("{SP}/data/1"), "negative key count -2");
    // An index past the curve count, and a negative one.
    let d = Dump { words: vec![f(0.0), 1, 1, 0, 0, 0, 0], curve_count: json!(1), bindings: one(), ..Dump::default() };
    bad(&d, &format!("{SP}/data/2"), "curve index 1 is past the curve count (streamed curveCount 1)");
    let d = Dump {
        words: vec![f(0.0), 1, u32::MAX, 0, 0, 0, 0],
        curve_count: json!(1),
        bindings: one(),
        ..Dump::default()
    };
    bad(&d, &format!("{SP}/data/2"), "curve index -1 is negative");
    // A non-finite float value.
    let d = Dump {
        words: vec![f(0.0), 1, 0, 0, 0, 0, f(f32::INFINITY)],
        curve_count: json!(1),
        bindings: one(),
        ..Dump::default()
    };
    bad(&d, &format!("{SP}/data/6"), "is not finite");
    // Frames going back in time.
    let d = Dump { words: vec![f(1.0), 0, f(0.5), 0], curve_count: json!(1), bindings: one(), ..Dump::default() };
    bad(&d, &format!("{SP}/data/2"), "frame 1's time 0.5 is before the previous frame's 1");
    // A word that is not a u32.
    let mut v = Dump { words: vec![f(0.0), 0, 0], curve_count: json!(1), bindings: one(), ..Dump::default() }.nested();
    v["data"]["m_MuscleClip"]["m_Clip"]["data"]["m_StreamedClip"]["data"][1] = json!("x");
    let e = unity::typetree::read_clip(&v).unwrap_err();
    assert_eq!((e.place(), e.reason()), (format!("{SP}/data/1"), "expected a number, found \"x\""));
    v["data"]["m_MuscleClip"]["m_Clip"]["data"]["m_StreamedClip"]["data"][1] = json!(4294967296u64);
    let e = unity::typetree::read_clip(&v).unwrap_err();
    assert_eq!((e.place(), e.reason()), (format!("{SP}/data/1"), "4294967296 does not fit 32 bits"));
    // A negative curveCount.
    let d = Dump { curve_count: json!(-1), bindings: one(), ..Dump::default() };
    bad(&d, &format!("{SP}/curveCount"), "negative or oversized curve count -1");
}

#[test]
fn cli_refuses_a_bad_dump_with_its_pointer() {
    let d = Dump {
        words: vec![f(0.0), 1, 0, 0, 0, 0],
        curve_count: json!(1),
        bindings: vec![float_binding(0, 1)],
        ..Dump::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.json");
    std::fs::write(&src, d.nested().to_string()).unwrap();
    let o = ossicle(&["curves", s(&src), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        format!(
            "error: {}:{SP}/data/1: the words do not form whole frames: frame 0 (time 0) has 1 keys, which need 5 \
             words, but 4 remain",
            s(&src)
        )
    );
}

#[test]
fn bad_binding_totals_and_types() {
    let words = vec![f(PRE), 1, 0, 0, 0, 0, f(1.0), f(END), 0];
    // Two bindings for one curve.
    let d = Dump {
        words: words.clone(),
        curve_count: json!(1),
        bindings: vec![float_binding(0, 1), float_binding(0, 2)],
        ..Dump::default()
    };
    bad(
        &d,
        "/data/m_ClipBindingConstant/genericBindings/1",
        "genericBindings take more curves than 1 curves in the muscle clip",
    );
    // A position binding (3 curves) for one curve.
    let mut pos = float_binding(0, 1);
    pos["typeID"] = json!(4);
    let d = Dump { words: words.clone(), curve_count: json!(1), bindings: vec![pos], ..Dump::default() };
    bad(&d, "/data/m_ClipBindingConstant/genericBindings/0", "genericBindings take more curves than 1 curves");
    // No bindings for one curve.
    let d = Dump { words: words.clone(), curve_count: json!(1), bindings: vec![], ..Dump::default() };
    bad(&d, "/data/m_ClipBindingConstant/genericBindings", "genericBindings take 0 curves, but there are 1 curves");
    // Too few: 1 binding for 2 constant curves.
    let d = Dump { constant: vec![1.0, 2.0], bindings: vec![float_binding(0, 1)], ..Dump::default() };
    bad(&d, "/data/m_ClipBindingConstant/genericBindings", "genericBindings take 1 curves, but there are 2 curves");
    // Unknown typeID and Transform attribute.
    let mut b = float_binding(0, 1);
    b["typeID"] = json!(9999);
    let d = Dump { constant: vec![1.0], bindings: vec![b], ..Dump::default() };
    bad(&d, "/data/m_ClipBindingConstant/genericBindings/0", "typeID 9999 is not a known Unity class ID");
    let mut b = float_binding(0, 9);
    b["typeID"] = json!(4);
    let d = Dump { constant: vec![1.0, 1.0, 1.0], bindings: vec![b], ..Dump::default() };
    bad(&d, "/data/m_ClipBindingConstant/genericBindings/0", "attribute 9 of a Transform binding (typeID 4)");
    // A binding without typeID.
    let d = Dump { constant: vec![1.0], bindings: vec![json!({"path": 0, "attribute": 1})], ..Dump::default() };
    bad(&d, "/data/m_ClipBindingConstant/genericBindings/0", "missing field `typeID` (or `classID` before Unity 5.6)");
}

#[test]
fn bad_dense_blocks() {
    let b = || vec![float_binding(0, 1)];
    let dense = |v: Value| {
        let mut d = json!({"m_FrameCount": 2, "m_CurveCount": 1, "m_SampleRate": 10.0, "m_BeginTime": 0.0,
                           "m_SampleArray": [1.0, 2.0]});
        for (k, x) in v.as_object().unwrap() {
            d[k] = x.clone();
        }
        d
    };
    let dp = "/data/m_MuscleClip/m_Clip/data/m_DenseClip";
    let d = Dump { dense: dense(json!({"m_SampleArray": [1.0, 2.0, 3.0]})), bindings: b(), ..Dump::default() };
    bad(&d, &format!("{dp}/m_SampleArray"), "has 3 samples, but m_FrameCount 2 × m_CurveCount 1 = 2");
    let d = Dump { dense: dense(json!({"m_FrameCount": -1})), bindings: b(), ..Dump::default() };
    bad(&d, &format!("{dp}/m_FrameCount"), "negative frame count -1");
    let d = Dump { dense: dense(json!({"m_SampleRate": 0.0})), bindings: b(), ..Dump::default() };
    bad(&d, &format!("{dp}/m_SampleRate"), "sample rate 0 is not positive");
    let d = Dump { dense: dense(json!({"m_CurveCount": -3})), bindings: b(), ..Dump::default() };
    bad(&d, &format!("{dp}/m_CurveCount"), "negative curve count -3");
    // A missing field names the object.
    let d = Dump { dense: json!({"m_FrameCount": 0}), bindings: vec![], ..Dump::default() };
    bad(&d, dp, "missing field `m_CurveCount`");
}

#[test]
fn json_of_another_class_and_not_json() {
    // Wrapped with another class.
    let mut v = Dump::default().nested();
    v["_source"]["class"] = json!("Avatar");
    let e = unity::typetree::read_clip(&v).unwrap_err();
    assert_eq!(e.place(), "/_source/class");
    assert!(e.reason().contains("JSON of another class: this dump is of a Avatar"), "{e}");
    // Flattened controller.
    let e = unity::typetree::read_clip(&json!({"m_Name": "c", "m_AnimationClips": []})).unwrap_err();
    assert_eq!(e.place(), "/");
    assert!(e.reason().contains("JSON of another class (it looks like an AnimatorController or Animator)"), "{e}");
    // Not JSON at all.
    let e = unity::read_source(b"{\"m_Name\": ").unwrap_err();
    assert!(e.reason().starts_with("not JSON: EOF while parsing"), "{e}");
    let e = unity::read_source(b"hello").unwrap_err();
    assert!(e.reason().contains("neither a type-tree JSON dump"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Editor YAML.

const YAML_HEAD: &str =
    "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Hand\n";

#[test]
fn editor_yaml_curves_of_every_kind() {
    let text = format!(
        "{YAML_HEAD}  m_RotationCurves:
  - curve:
      serializedVersion: 2
      m_Curve:
      - serializedVersion: 3
        time: 0
        value: {{x: 0, y: 0, z: 0, w: 1}}
        inSlope: {{x: 0, y: 0, z: 0, w: 0}}
        outSlope: {{x: Infinity, y: 0, z: 0, w: 0}}
        tangentMode: 0
        weightedMode: 0
        inWeight: {{x: 0.33333334, y: 0.33333334, z: 0.33333334, w: 0.33333334}}
        outWeight: {{x: 0.33333334, y: 0.33333334, z: 0.33333334, w: 0.33333334}}
      m_PreInfinity: 2
      m_PostInfinity: 2
      m_RotationOrder: 4
    path: Körper/Hand_L
  m_EulerCurves:
  - curve:
      m_Curve:
      - time: 0
        value: {{x: 90, y: 0, z: 0}}
        inSlope: {{x: 0, y: 0, z: 0}}
        outSlope: {{x: 0, y: 0, z: 0}}
      m_RotationOrder: 2
    path: Arm
  m_PositionCurves: []
  m_ScaleCurves: []
  m_FloatCurves:
  - curve:
      m_Curve:
      - time: 0.25
        value: 1
        inSlope: -Infinity
        outSlope: 2
        tangentMode: 1
        weightedMode: 3
        inWeight: 0.5
        outWeight: 0.25
    attribute: m_Color.a
    path: 'Body: main'
    classID: 212
    script: {{fileID: 0}}
  m_EditorCurves:
  - curve:
      m_Curve:
      - time: 0.25
        value: 1
        inSlope: 0
        outSlope: 0
    attribute: m_Color.a
    path: 'Body: main'
    classID: 212
  - curve:
      m_Curve:
      - time: 0
        value: 3
        inSlope: 0
        outSlope: 0
    attribute: m_LocalScale.y
    path: Arm
    classID: 4
  m_ClipBindingConstant:
    genericBindings: []
    pptrCurveMapping: []
"
    );
    let clip = unity::anim::read_clip(&text).unwrap();
    assert_eq!(clip.name, "Hand");
    // Rotation x, y, z, w; Euler x, y, z; float; the scale y from m_EditorCurves (the m_Color.a copy
    // there is dropped).
    assert_eq!(clip.curves.len(), 9);
    let rot = &clip.curves[0..4];
    assert!(rot.iter().all(|c| c.binding.kind == BindingKind::Rotation && c.binding.path == 3_833_634_148));
    assert_eq!(rot[0].keys[0].out_slope, f64::INFINITY);
    assert_eq!(rot[3].keys[0].value, 1.0);
    assert_eq!(rot[0].modes[0].in_weight, 0.33333334);
    let euler = &clip.curves[4..7];
    assert!(euler
        .iter()
        .all(|c| c.binding.kind == BindingKind::Euler(RotationOrder::Yzx) && c.binding.custom_type == 2));
    assert_eq!(euler[0].keys[0].value, 90.0);
    let float = &clip.curves[7];
    assert_eq!(
        (float.binding.type_id, float.binding.attribute, float.binding.path),
        (212, crc32(b"m_Color.a"), crc32(b"Body: main"))
    );
    assert_key(&float.keys[0], 0.25, 1.0, f64::NEG_INFINITY, 2.0, 0.0);
    assert_eq!((float.modes[0].tangent_mode, float.modes[0].weighted_mode), (1, 3));
    assert_eq!((float.modes[0].in_weight, float.modes[0].out_weight), (0.5, 0.25));
    let scale = &clip.curves[8];
    assert_eq!(
        (scale.binding.kind, scale.binding.component, scale.binding.path),
        (BindingKind::Scale, 1, crc32(b"Arm"))
    );
    // The clip names its own paths.
    assert!(clip.unresolved(&PathTable::default()).is_empty());
    // The JSON shape writes -inf as a string.
    let v: Value = serde_json::from_str(&unity::output::curves_json(&clip, &PathTable::default())).unwrap();
    assert_eq!(v["curves"][7]["keys"][0]["in_slope"], "-inf");
    assert_eq!(v["curves"][0]["keys"][0]["out_slope"], "inf");
    assert_eq!(v["curves"][0]["binding"]["path_name"], "Körper/Hand_L");
}

#[test]
fn editor_yaml_follows_generic_binding_order() {
    let text = format!(
        "{YAML_HEAD}  m_PositionCurves:
  - curve:
      m_Curve:
      - time: 0
        value: {{x: 1, y: 2, z: 3}}
    path: A
  m_FloatCurves:
  - curve:
      m_Curve:
      - time: 0
        value: 7
    attribute: m_Alpha
    path: B
    classID: 225
  m_ClipBindingConstant:
    genericBindings:
    - path: {b}
      attribute: {alpha}
      typeID: 225
      customType: 0
      isPPtrCurve: 0
    - path: {a}
      attribute: 1
      typeID: 4
      customType: 0
      isPPtrCurve: 0
    pptrCurveMapping: []
",
        a = crc32(b"A"),
        b = crc32(b"B"),
        alpha = 1_574_349_066u32 // zlib.crc32(b"m_Alpha")
    );
    let clip = unity::anim::read_clip(&text).unwrap();
    let got: Vec<(usize, u32, u8, f64)> =
        clip.curves.iter().map(|c| (c.index, c.binding.path, c.binding.component, c.keys[0].value)).collect();
    assert_eq!(
        got,
        [(0, crc32(b"B"), 0, 7.0), (1, crc32(b"A"), 0, 1.0), (2, crc32(b"A"), 1, 2.0), (3, crc32(b"A"), 2, 3.0)]
    );
}

#[test]
fn editor_yaml_errors_name_line_and_field() {
    let bad_time = format!(
        "{YAML_HEAD}  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: soon\n        value: 1\n    attribute: a\n    path: p\n    classID: 114\n"
    );
    let e = unity::anim::read_clip(&bad_time).unwrap_err();
    assert_eq!(
        e,
        UnityError::yaml(9, "AnimationClip.m_FloatCurves[0].curve.m_Curve[0].time: expected a number, found \"soon\"")
    );
    let back = format!(
        "{YAML_HEAD}  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: 1\n        value: 1\n      - time: 0.5\n        value: 2\n    attribute: a\n    path: p\n    classID: 114\n"
    );
    let e = unity::anim::read_clip(&back).unwrap_err();
    assert_eq!(e.place(), "line 11");
    assert!(e.reason().ends_with("m_Curve[1].time: key time 0.5 is not after the previous key's 1"), "{e}");
    let no_class =
        format!("{YAML_HEAD}  m_FloatCurves:\n  - curve:\n      m_Curve: []\n    attribute: a\n    path: p\n");
    let e = unity::anim::read_clip(&no_class).unwrap_err();
    assert_eq!(e, UnityError::yaml(7, "AnimationClip.m_FloatCurves[0]: missing field `classID`"));
    let syntax = format!("{YAML_HEAD}  m_Bounds:\n    m_Center: {{x: 0, y: 0\n");
    let e = unity::anim::read_clip(&syntax).unwrap_err();
    assert_eq!(e, UnityError::yaml(7, "unterminated flow mapping `{`"));
    // Through the CLI: FILE:line N: reason.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.anim");
    std::fs::write(&p, &bad_time).unwrap();
    let o = ossicle(&["curves", s(&p)]);
    assert!(!o.status.success() && o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        format!(
            "error: {}:line 9: AnimationClip.m_FloatCurves[0].curve.m_Curve[0].time: expected a number, found \"soon\"",
            s(&p)
        )
    );
}
