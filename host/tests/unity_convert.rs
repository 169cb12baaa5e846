//! Unity clips converted and built (issue 7, "Output"): Transform curves into skeletal channels
//! (Hermite keys with the decoded tangents, merged component keys split exactly, steps, Euler
//! baking), other curves into property tracks with cubic-bezier eases, `m_Events` into clip
//! events; the real fixtures end to end through `ossicle build` and `ossicle sample` (the kernel
//! evaluates the converted clip). Expectations are computed here, in f64, from the curves' own keys
//! with the Hermite formula written out below.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ossicle::asset::Asset;
use ossicle::ease::Ease;
use ossicle::skeleton::SkelClipSource;
use ossicle_host::ir::{ChannelInterp, ChannelKey, KeyTangents, Origin};
use ossicle_host::sources::scene::{TrackProperty, Value};
use ossicle_host::unity::bindings::{euler_to_quat, Binding, BindingKind, RotationOrder};
use ossicle_host::unity::convert::{convert, Converted, ROOT_BONE, STEP_RAMP};
use ossicle_host::unity::{crc32, Block, Clip, ClipEvent, Curve, Key, PPtr, PathTable};

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn unity_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("OSSICLE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
        .join("unity");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("OSSICLE_REQUIRE_FIXTURES").map_or(true, |v| v != "1"),
        "{} is missing (required because OSSICLE_REQUIRE_FIXTURES=1)",
        dir.display()
    );
    eprintln!("skipping: {} is missing", dir.display());
    None
}

/// The cubic Hermite segment from (t0, v0, out-slope m0) to (t1, v1, in-slope m1) at t.
fn hermite(t0: f64, v0: f64, m0: f64, t1: f64, v1: f64, m1: f64, t: f64) -> f64 {
    let dt = t1 - t0;
    let u = (t - t0) / dt;
    let h00 = (1.0 + 2.0 * u) * (1.0 - u) * (1.0 - u);
    let h10 = u * (1.0 - u) * (1.0 - u);
    let h01 = u * u * (3.0 - 2.0 * u);
    let h11 = u * u * (u - 1.0);
    h00 * v0 + h10 * dt * m0 + h01 * v1 + h11 * dt * m1
}

/// A Unity curve at `t` (clamped at the ends; a step holds).
fn curve_at(keys: &[Key], t: f64) -> f64 {
    if t <= keys[0].time {
        return keys[0].value;
    }
    for w in keys.windows(2) {
        if t <= w[1].time {
            if !w[0].out_slope.is_finite() || !w[1].in_slope.is_finite() {
                return if t == w[1].time { w[1].value } else { w[0].value };
            }
            return hermite(w[0].time, w[0].value, w[0].out_slope, w[1].time, w[1].value, w[1].in_slope, t);
        }
    }
    keys[keys.len() - 1].value
}

/// A converted channel (keys, interpolation, tangents) at `t`, component `c`.
fn channel_at<const N: usize>(
    keys: &[ChannelKey<N>],
    interp: ChannelInterp,
    tan: &[KeyTangents<N>],
    t: f64,
    c: usize,
) -> f64 {
    if t <= keys[0].time {
        return keys[0].value[c];
    }
    for (i, w) in keys.windows(2).enumerate() {
        if t <= w[1].time {
            let u = (t - w[0].time) / (w[1].time - w[0].time);
            return match interp {
                ChannelInterp::Step => {
                    if t == w[1].time {
                        w[1].value[c]
                    } else {
                        w[0].value[c]
                    }
                }
                ChannelInterp::Linear => w[0].value[c] + u * (w[1].value[c] - w[0].value[c]),
                ChannelInterp::Hermite => hermite(
                    w[0].time,
                    w[0].value[c],
                    tan[i].outgoing[c],
                    w[1].time,
                    w[1].value[c],
                    tan[i + 1].incoming[c],
                    t,
                ),
            };
        }
    }
    keys[keys.len() - 1].value[c]
}

fn key(time: f64, value: f64, in_slope: f64, out_slope: f64) -> Key {
    Key { time, value, in_slope, out_slope }
}

fn curve(
    index: usize,
    path: &str,
    kind: BindingKind,
    type_id: i64,
    attribute: u32,
    component: u8,
    keys: Vec<Key>,
) -> Curve {
    Curve {
        index,
        block: Block::Editor,
        binding: Binding {
            path: crc32(path.as_bytes()),
            type_id,
            attribute,
            component,
            custom_type: 0,
            kind,
            generic_index: index,
        },
        keys,
        modes: Vec::new(),
    }
}

fn clip(curves: Vec<Curve>, paths: &[&str]) -> Clip {
    Clip {
        name: "test".into(),
        sample_rate: 60.0,
        start_time: 0.0,
        stop_time: 1.0,
        loop_time: true,
        curves,
        pptr_mapping: Vec::new(),
        events: Vec::new(),
        value_array_delta: Vec::new(),
        paths: paths.iter().map(|p| p.to_string()).collect(),
    }
}

fn run(c: &Clip) -> Converted {
    convert(c, &PathTable::default(), &Origin::default(), &|_| None).unwrap_or_else(|e| panic!("convert: {e}"))
}

// ---------------------------------------------------------------------------------------------
// The real fixtures, end to end.

#[test]
fn real_clips_build_and_the_kernel_samples_the_editor_keys() {
    let Some(dir) = unity_dir() else { return };
    let sources = [
        dir.join("typetree-json/u2019.4.0f1_AnimationClip_Animation.json"),
        dir.join("typetree-json/u2022.1.20f1_AnimationClip_Animation.json"),
        dir.join("yaml/Animation.anim"),
    ];
    let tmp = tempfile::tempdir().unwrap();
    // The decoded x curve (the editor YAML's keys: 2.15 at 0 s, 6.44 at 0.5 s, 2.15 at 1 s, zero
    // slopes), to evaluate between keys.
    let decoded = ossicle_host::unity::read_source(&std::fs::read(&sources[2]).unwrap()).unwrap();
    let x = decoded.curves.iter().find(|c| c.binding.component == 0).expect("x curve");
    let times = [0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 1.0];
    let mut blobs = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        for scalar in ["f32", "q16"] {
            let out = tmp.path().join(format!("{i}-{scalar}.osb"));
            let o = ossicle(&["build", src.to_str().unwrap(), "-o", out.to_str().unwrap(), "--scalar", scalar]);
            assert!(o.status.success(), "{}: {}", src.display(), String::from_utf8_lossy(&o.stderr));
            let at: Vec<String> = times.iter().map(|t| t.to_string()).collect();
            let o = ossicle(&["sample", out.to_str().unwrap(), "--clip", "Animation", "--at", &at.join(","), "--json"]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let tol = if scalar == "f32" { 1e-5 } else { 2e-4 };
            for (s, &t) in v["samples"].as_array().unwrap().iter().zip(&times) {
                let bone = &s["bones"][0];
                assert_eq!(bone["name"], ROOT_BONE);
                let got = bone["translation"][0].as_f64().unwrap();
                let want = curve_at(&x.keys, t);
                assert!((got - want).abs() < tol, "{} {scalar}: x({t}) = {got}, expected {want}", src.display());
                for k in [1, 2] {
                    assert!(bone["translation"][k].as_f64().unwrap().abs() < tol);
                }
            }
            let bytes = std::fs::read(&out).unwrap();
            let asset = Asset::load(&bytes).unwrap();
            let c = asset.skel_clip_named("Animation").unwrap();
            // m_Events: two events (no function name) at 0.33333334 s and 0.75 s.
            let count = if scalar == "f32" {
                SkelClipSource::<f32>::event_count(&c)
            } else {
                SkelClipSource::<ossicle::Q16>::event_count(&c)
            };
            assert_eq!(count, 2);
            assert_eq!(c.event_name(0), Some(""));
            if scalar == "f32" {
                let t: Vec<f32> = (0..2).map(|i| SkelClipSource::<f32>::event(&c, i).unwrap().time).collect();
                assert_eq!(t, [0.333_333_34, 0.75]);
                assert!(SkelClipSource::<f32>::looping(&c) == decoded.loop_time);
            }
            blobs.push((scalar, bytes));
        }
    }
    // The 2019.4 and 2022.1 dumps of the same clip make the same blobs, byte for byte.
    assert_eq!(blobs[0].1, blobs[2].1, "f32 blobs of the two dumps differ");
    assert_eq!(blobs[1].1, blobs[3].1, "Q16.16 blobs of the two dumps differ");
    // Zero slopes at 0.25 s: the smoothstep midpoint, (2.15 + 6.44) / 2.
    assert!((curve_at(&x.keys, 0.25) - 4.295).abs() < 1e-6);
}

#[test]
fn unresolved_paths_are_all_named_and_resolve_with_a_paths_file() {
    let tmp = tempfile::tempdir().unwrap();
    // Two position bindings on paths the clip does not name (a built clip only has hashes).
    let mut c = clip(
        (0..3)
            .map(|k| curve(k, "Hips/Spine", BindingKind::Position, 4, 1, k as u8, vec![key(0.0, 1.0, 0.0, 0.0)]))
            .chain(
                (0..3)
                    .map(|k| curve(3 + k, "Hips", BindingKind::Position, 4, 1, k as u8, vec![key(0.0, 2.0, 0.0, 0.0)])),
            )
            .collect(),
        &[],
    );
    let e = convert(&c, &PathTable::default(), &Origin::default(), &|_| None).unwrap_err();
    for h in [crc32(b"Hips"), crc32(b"Hips/Spine")] {
        assert!(e.contains(&h.to_string()), "{e}");
    }
    assert!(e.contains("2 unresolved"), "{e}");
    let table = PathTable::from_paths(["Hips", "Hips/Spine"]);
    let conv = convert(&c, &table, &Origin::default(), &|_| None).unwrap();
    let sk = conv.skeleton.unwrap();
    let names: Vec<&str> = sk.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, [ROOT_BONE, "Hips", "Spine"]);
    assert_eq!(sk.bones.iter().map(|b| b.parent).collect::<Vec<_>>(), [None, Some(0), Some(1)]);
    // The same through the CLI: an editor YAML would name its paths, so write the built clip's
    // case as a type-tree-less check through `--unity-paths` on a YAML without path names is not
    // possible; instead, the paths file resolves a clip whose names were dropped.
    c.paths.clear();
    let paths = tmp.path().join("paths.txt");
    std::fs::write(&paths, "Hips\nHips/Spine\n").unwrap();
    let table = PathTable::parse(&std::fs::read(&paths).unwrap()).unwrap();
    assert!(convert(&c, &table, &Origin::default(), &|_| None).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Hand-built curves.

#[test]
fn component_keys_at_different_times_merge_exactly() {
    // x: keys at 0, 0.5, 1 with slopes; y: keys at 0, 0.3, 1; z: one key.
    let xk = vec![key(0.0, 0.0, 0.0, 4.0), key(0.5, 1.0, -2.0, -2.0), key(1.0, 0.5, 1.0, 1.0)];
    let yk = vec![key(0.0, 2.0, 0.0, -1.0), key(0.3, 1.0, 3.0, 3.0), key(1.0, 2.0, 0.0, 0.0)];
    let zk = vec![key(0.0, -1.0, 0.0, 0.0)];
    let curves = vec![
        curve(0, "", BindingKind::Position, 4, 1, 0, xk.clone()),
        curve(1, "", BindingKind::Position, 4, 1, 1, yk.clone()),
        curve(2, "", BindingKind::Position, 4, 1, 2, zk.clone()),
    ];
    let conv = run(&clip(curves, &[]));
    let c = conv.skel_clip.unwrap();
    let t = &c.tracks[0];
    assert_eq!(t.bone, ROOT_BONE);
    assert_eq!(t.interpolation[0], ChannelInterp::Hermite);
    let times: Vec<f64> = t.translation.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 0.3, 0.5, 1.0]);
    for i in 0..=100 {
        let tt = i as f64 / 100.0;
        for (comp, keys) in [&xk, &yk, &zk].iter().enumerate() {
            let got = channel_at(&t.translation, t.interpolation[0], &t.translation_tangents, tt, comp);
            let want = curve_at(keys, tt);
            assert!((got - want).abs() < 1e-12, "component {comp} at {tt}: {got} vs {want}");
        }
    }
}

#[test]
fn steps_dense_secants_and_mixed_channels() {
    // Scale: every segment a step (infinite out-slopes) -> Step.
    let step =
        |v: &[f64]| v.iter().enumerate().map(|(i, &x)| key(i as f64 * 0.5, x, 0.0, f64::INFINITY)).collect::<Vec<_>>();
    // Position: secant slopes (a dense block) -> Linear.
    let dense = |v: &[f64]| {
        let mut keys: Vec<Key> = v.iter().enumerate().map(|(i, &x)| key(i as f64 * 0.5, x, 0.0, 0.0)).collect();
        for i in 0..keys.len() - 1 {
            let s = (keys[i + 1].value - keys[i].value) / 0.5;
            keys[i].out_slope = s;
            keys[i + 1].in_slope = s;
        }
        keys
    };
    let mut curves = Vec::new();
    for (k, v) in [[1.0, 2.0, 3.0], [0.0, 5.0, 0.0], [1.0, 1.0, 1.0]].iter().enumerate() {
        curves.push(curve(k, "A", BindingKind::Scale, 4, 3, k as u8, step(v)));
        curves.push(curve(3 + k, "A", BindingKind::Position, 4, 1, k as u8, dense(v)));
    }
    // Rotation of B: x steps, w smooth (w = 1 with slopes 0.4 / -0.4 so the curve bulges).
    let rot = [
        vec![key(0.0, 0.0, 0.0, f64::INFINITY), key(1.0, 0.6, 0.0, 0.0)],
        vec![key(0.0, 0.0, 0.0, 0.0), key(1.0, 0.0, 0.0, 0.0)],
        vec![key(0.0, 0.0, 0.0, 0.0), key(1.0, 0.0, 0.0, 0.0)],
        vec![key(0.0, 1.0, 0.0, 0.4), key(1.0, 0.8, -0.4, 0.0)],
    ];
    for (k, keys) in rot.iter().enumerate() {
        curves.push(curve(6 + k, "A/B", BindingKind::Rotation, 4, 2, k as u8, keys.clone()));
    }
    let conv = run(&clip(curves, &["A", "A/B"]));
    let c = conv.skel_clip.unwrap();
    let a = c.tracks.iter().find(|t| t.bone == "A").unwrap();
    assert_eq!(a.interpolation, [ChannelInterp::Linear, ChannelInterp::Linear, ChannelInterp::Step]);
    assert!(a.scale_tangents.is_empty() && a.translation_tangents.is_empty());
    assert_eq!(a.scale.iter().map(|k| k.value[0]).collect::<Vec<_>>(), [1.0, 2.0, 3.0]);
    let b = c.tracks.iter().find(|t| t.bone == "B").unwrap();
    assert_eq!(b.interpolation[1], ChannelInterp::Hermite);
    // A ramp key STEP_RAMP before 1 s: x holds 0 until then, w follows its own cubic exactly.
    let times: Vec<f64> = b.rotation.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 1.0 - STEP_RAMP, 1.0]);
    for tt in [0.1, 0.5, 0.9, 0.998, 1.0 - STEP_RAMP] {
        let x = channel_at(&b.rotation, ChannelInterp::Hermite, &b.rotation_tangents, tt, 0);
        assert_eq!(x, 0.0, "x at {tt}");
        let w = channel_at(&b.rotation, ChannelInterp::Hermite, &b.rotation_tangents, tt, 3);
        assert!((w - curve_at(&rot[3], tt)).abs() < 1e-12, "w at {tt}");
    }
    let x_end = channel_at(&b.rotation, ChannelInterp::Hermite, &b.rotation_tangents, 1.0, 0);
    assert_eq!(x_end, 0.6);
    // Half-way through the ramp: half-way to the next value.
    let mid = channel_at(&b.rotation, ChannelInterp::Hermite, &b.rotation_tangents, 1.0 - STEP_RAMP / 2.0, 0);
    assert!((mid - 0.3).abs() < 1e-9, "{mid}");
    assert_eq!(c.skeleton, None);
    assert_eq!(conv.skeleton.unwrap().bones.len(), 3); // "/", A, B
}

/// The quaternion of Euler angles (degrees) applied about the axes in the order `order` names,
/// written independently of the converter: q = q_last · … · q_first.
fn euler(deg: [f64; 3], order: &str) -> [f64; 4] {
    let mut q = [0.0, 0.0, 0.0, 1.0];
    for axis in order.chars() {
        let i = match axis {
            'X' => 0,
            'Y' => 1,
            _ => 2,
        };
        let h = deg[i].to_radians() / 2.0;
        let mut r = [0.0, 0.0, 0.0, h.cos()];
        r[i] = h.sin();
        // r · q
        q = [
            r[3] * q[0] + r[0] * q[3] + r[1] * q[2] - r[2] * q[1],
            r[3] * q[1] - r[0] * q[2] + r[1] * q[3] + r[2] * q[0],
            r[3] * q[2] + r[0] * q[1] - r[1] * q[0] + r[2] * q[3],
            r[3] * q[3] - r[0] * q[0] - r[1] * q[1] - r[2] * q[2],
        ];
    }
    q
}

#[test]
fn euler_curves_bake_to_quaternions_in_each_rotation_order() {
    for (order, name) in [(RotationOrder::Zxy, "ZXY"), (RotationOrder::Xyz, "XYZ"), (RotationOrder::Yxz, "YXZ")] {
        let comps = [
            vec![key(0.0, 0.0, 0.0, 90.0), key(1.0, 90.0, 90.0, 0.0)],
            vec![key(0.0, 30.0, 0.0, 0.0), key(0.5, -45.0, 0.0, 0.0), key(1.0, 30.0, 0.0, 0.0)],
            vec![key(0.0, 10.0, 0.0, 0.0), key(1.0, 170.0, 0.0, 0.0)],
        ];
        let curves = comps
            .iter()
            .enumerate()
            .map(|(k, keys)| curve(k, "", BindingKind::Euler(order), 4, 4, k as u8, keys.clone()))
            .collect();
        let conv = run(&clip(curves, &[]));
        let t = &conv.skel_clip.unwrap().tracks[0];
        assert_eq!(t.interpolation[1], ChannelInterp::Linear);
        assert!(t.rotation.len() >= 61, "{name}: {} keys", t.rotation.len());
        assert!(conv.notes.iter().any(|n| n.contains("baked")), "{:?}", conv.notes);
        // Every baked key is the Euler curves' rotation at its time (up to sign), and the
        // converter's own conversion agrees with the one written here.
        for k in &t.rotation {
            let deg: [f64; 3] = std::array::from_fn(|c| curve_at(&comps[c], k.time));
            let want = euler(deg, name);
            assert!(euler_to_quat(deg, order).iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12), "{name}");
            let dot: f64 = k.value.iter().zip(want).map(|(a, b)| a * b).sum();
            assert!(dot.abs() > 1.0 - 1e-12, "{name} at {}: {:?} vs {want:?}", k.time, k.value);
        }
        // Consecutive keys on the same side (nlerp takes the short way).
        for w in t.rotation.windows(2) {
            assert!(w[0].value.iter().zip(w[1].value).map(|(a, b)| a * b).sum::<f64>() > 0.0);
        }
    }
}

#[test]
fn float_int_and_muscle_curves_become_eased_property_tracks() {
    let fk = vec![key(0.0, 1.0, 0.0, 3.0), key(0.4, 2.0, -1.0, -1.0), key(0.8, 2.0, 2.0, 2.0), key(1.0, 0.5, 0.0, 0.0)];
    let ik = vec![key(0.0, 3.0, 0.0, f64::INFINITY), key(0.5, 7.0, f64::INFINITY, f64::INFINITY)];
    let curves = vec![
        curve(0, "Body/Light", BindingKind::Float, 108, crc32(b"m_Intensity"), 0, fk.clone()),
        curve(1, "Body", BindingKind::Int, 114, crc32(b"count"), 0, ik),
        curve(2, "", BindingKind::Muscle, 95, 7, 0, vec![key(0.0, 0.25, 0.0, 0.0), key(1.0, 0.75, 0.0, 0.0)]),
    ];
    let mut c = clip(curves, &["Body", "Body/Light"]);
    c.events = vec![ClipEvent {
        time: 0.5,
        function_name: "Footstep".into(),
        string_parameter: "left".into(),
        float_parameter: 0.5,
        int_parameter: 2,
        object_parameter: PPtr { file_id: 0, path_id: 0 },
        message_options: 0,
    }];
    let conv = run(&c);
    assert!(conv.skel_clip.is_none());
    let scene = conv.scene.unwrap();
    let paths: Vec<&str> = scene.nodes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["/Animator", "/Animator/Body", "/Animator/Body/Light"]);
    let clip = &scene.animators[0].clips[0];
    let track = |field: &str| {
        clip.tracks
            .iter()
            .find(|t| t.property == TrackProperty::Script(field.to_string()))
            .unwrap_or_else(|| panic!("{field}"))
    };
    let light = track(&format!("attr_{:08x}", crc32(b"m_Intensity")));
    assert_eq!(light.target, Some(2));
    // Each segment's ease, applied by the kernel, gives the Hermite curve. The flat segment
    // 0.4 → 0.8 (2 to 2 with slopes) is split where its value differs.
    let value = |v: &Value| match v {
        Value::Float(x) => *x,
        other => panic!("{other:?}"),
    };
    assert_eq!(light.keys.len(), 5, "{:?}", light.keys);
    for w in light.keys.windows(2) {
        let (t0, v0, t1, v1) = (w[0].time, value(&w[0].value), w[1].time, value(&w[1].value));
        let ease = Ease::<f32>::parse(w[0].ease.as_deref().unwrap_or("linear")).unwrap();
        for u in [0.1, 0.25, 0.5, 0.75, 0.9] {
            let got = v0 + f64::from(ease.apply(u as f32)) * (v1 - v0);
            let want = curve_at(&fk, t0 + u * (t1 - t0));
            assert!((got - want).abs() < 2e-4, "segment {t0}..{t1} at u {u}: {got} vs {want} ({:?})", w[0].ease);
        }
    }
    let count = track(&format!("attr_{:08x}", crc32(b"count")));
    assert!(count.step && count.target == Some(1));
    assert_eq!(count.keys.iter().map(|k| value(&k.value)).collect::<Vec<_>>(), [3.0, 7.0]);
    let muscle = track("muscle_7");
    assert_eq!(muscle.target, Some(0));
    // Events go to the Animator clip when there is no skeletal clip.
    let events = clip.tracks.iter().find(|t| t.property == TrackProperty::Event).unwrap();
    assert_eq!(events.keys[0].value, Value::Text("Footstep(left, 0.5, 2)".into()));
    assert_eq!(events.keys[0].time, 0.5);
}

#[test]
fn a_clip_binds_to_an_eva_skeleton_in_the_same_build() {
    let tmp = tempfile::tempdir().unwrap();
    let figure = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/skeletal/figure.eva");
    // An editor clip moving figure.eva's spine (path root/hips/spine below the Animator).
    let yaml = r#"%YAML 1.1
--- !u!74 &7400000
AnimationClip:
  m_Name: Lean
  m_EditorCurves:
  - curve:
      m_Curve:
      - time: 0
        value: 0
        inSlope: 0
        outSlope: 0
      - time: 1
        value: 4
        inSlope: 0
        outSlope: 0
    attribute: m_LocalPosition.x
    path: root/hips/spine
    classID: 4
"#;
    let anim = tmp.path().join("lean.anim");
    std::fs::write(&anim, yaml).unwrap();
    let out = tmp.path().join("b.osb");
    let o = ossicle(&["build", figure.to_str().unwrap(), anim.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = ossicle(&["sample", out.to_str().unwrap(), "--clip", "Lean", "--at", "0.5", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let bones = v["samples"][0]["bones"].as_array().unwrap();
    let spine = bones.iter().find(|b| b["name"] == "spine").unwrap();
    // Zero slopes: the smoothstep midpoint, 2.
    assert!((spine["translation"][0].as_f64().unwrap() - 2.0).abs() < 1e-5, "{spine}");
    // y and z have no curve: held at figure.eva's bind pose of the spine.
    let project = ossicle_host::sources::load_sources(&[&figure]).unwrap();
    let bind = project.skeletons[0].bones.iter().find(|b| b.name == "spine").unwrap().bind;
    for k in [1, 2] {
        assert!((spine["translation"][k].as_f64().unwrap() - bind.translation[k]).abs() < 1e-5, "{spine}");
    }
    let o = ossicle(&["inspect", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("skelclip \"Lean\" of skeleton \"figure\""));
}

#[test]
fn float_curves_play_through_the_kernels_scene_runtime() {
    let tmp = tempfile::tempdir().unwrap();
    // A light's intensity: a Hermite segment (slopes 3 and -1) then a step.
    let yaml = r#"%YAML 1.1
--- !u!74 &7400000
AnimationClip:
  m_Name: Glow
  m_FloatCurves:
  - curve:
      m_Curve:
      - time: 0
        value: 1
        inSlope: 0
        outSlope: 3
      - time: 0.5
        value: 2
        inSlope: -1
        outSlope: Infinity
      - time: 1
        value: 0.5
        inSlope: 0
        outSlope: 0
    attribute: m_Intensity
    path: Body/Light
    classID: 108
"#;
    let anim = tmp.path().join("glow.anim");
    std::fs::write(&anim, yaml).unwrap();
    let script = tmp.path().join("glow.script");
    std::fs::write(&script, "update 0.125\nupdate 0.125\nupdate 0.125\nupdate 0.125\nupdate 0.375\n").unwrap();
    for scalar in ["f32", "q16"] {
        let out = tmp.path().join(format!("glow-{scalar}.osb"));
        let o = ossicle(&["build", anim.to_str().unwrap(), "-o", out.to_str().unwrap(), "--scalar", scalar]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = ossicle(&["trace", out.to_str().unwrap(), "--script", script.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        let property = format!("script.attr_{:08x}", crc32(b"m_Intensity"));
        let mut t = 0.0;
        for (line, dt) in text.lines().zip([0.125, 0.125, 0.125, 0.125, 0.375]) {
            t += dt;
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let w = &v["writes"][0];
            assert_eq!(
                (w["node"].as_str(), w["property"].as_str()),
                (Some("/Animator/Body/Light"), Some(property.as_str()))
            );
            let got = w["value"].as_f64().unwrap();
            // The Hermite curve up to 0.5 s, then the step holds 2 until 1 s.
            let want = if t <= 0.5 { hermite(0.0, 1.0, 3.0, 0.5, 2.0, -1.0, t) } else { 2.0 };
            let tol = if scalar == "f32" { 1e-5 } else { 1e-3 };
            assert!((got - want).abs() < tol, "{scalar} at {t}: {got} vs {want}");
        }
    }
}
