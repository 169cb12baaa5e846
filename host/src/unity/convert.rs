//! Decoded Unity curves → ossicle's IR: Transform curves become a skeletal clip (Hermite keys with
//! the decoded tangents), float, int, object-reference and muscle curves become property tracks of
//! a scene Animator, `m_Events` become clip events.
//!
//! # Skeletal channels
//!
//! The curves of one Transform binding (position x, y, z; rotation x, y, z, w; scale x, y, z) become
//! one channel. Their keys are merged: the channel has a key at every time any component has one,
//! and a component without a key there gets one on its own curve (the cubic split at that time:
//! its value and its derivative as both tangents), so the merged channel evaluates to exactly the
//! same values as the component curves. Times are shifted so the clip starts at 0
//! (`m_StartTime`), the duration is `m_StopTime − m_StartTime`; when that is not positive (an editor
//! clip without clip settings) the last key's time, or `1 / m_SampleRate` for a single pose.
//!
//! - A channel whose segments are all steps (an infinite out- or in-slope, or non-finite
//!   coefficients, which the decoder reports as infinite slopes) or flat is stored with Step
//!   interpolation.
//! - A channel whose slopes are all the secants of their segments (a dense block's samples) is
//!   stored Linear.
//! - Otherwise it is Hermite. A step segment inside a Hermite channel is approximated: the value
//!   holds until [`STEP_RAMP`] seconds (at most a quarter of the segment) before the next key, then
//!   ramps linearly to it. Quaternion components are interpolated each on its own curve and the
//!   result normalised, as Unity does.
//! - Euler curves (Transform attribute 4) are evaluated on their own curves (Unity interpolates
//!   the angles) and baked into linear quaternion keys at every key time and at least
//!   [`EULER_BAKE_RATE`] samples per second (the clip's rate when higher), each on the side of its
//!   predecessor; between samples the result is an nlerp of the true rotation (error shrinking with
//!   the square of the interval).
//!
//! # Bones
//!
//! A Transform path names its bone by its last segment (`Hips/Spine` → `Spine`), the path `""` (the
//! Animator's own object) by [`ROOT_BONE`]. When the build has no skeleton of its own, the Unity
//! clip brings one: every animated path and its ancestors, parents before children, in the bind
//! pose of the identity (a Unity clip carries no bind pose), named after the clip. With a skeleton
//! in the build (an EVA file), the clip binds to it by bone name like an EVAC clip (`--skeleton`
//! picks one of several).
//!
//! # Property tracks
//!
//! Curves on other components become tracks of an Animator in a scene named after the clip: the
//! Animator node stands for the Animator's own object (path `""`), a node per other path below it
//! (kind `Node3D`). A float curve animates `script.attr_XXXXXXXX` (the attribute's CRC-32 in hex:
//! built clips only keep the hash), a muscle curve `script.muscle_N`; int and object-reference
//! curves (the `pptrCurveMapping` index, negative = none) hold each key until the next. Hermite
//! segments become `cubic-bezier(1/3, y1, 2/3, y2)` eases (x = t exactly, y the Hermite cubic);
//! a segment with equal end values and non-zero slopes is split where its value differs. Events go
//! to the skeletal clip when there is one, else to the Animator clip's event track, named
//! `function` or, with parameters, `function(string, float, int)`.

use super::bindings::{euler_to_quat, BindingKind, RotationOrder};
use super::{Clip, Curve, Key, PathTable};
use crate::ir::{BoneIr, BoneTrackIr, ChannelInterp, ChannelKey, KeyTangents, Origin, SkelClipIr, SkelEventIr};
use crate::ir::{SkeletonIr, Transform3};
use crate::sources::scene::{AnimatorIr, ClipIr, KeyIr, SceneIr, SceneNode, TrackIr, TrackProperty, Value, ValueKind};
use std::collections::BTreeMap;

/// The bone name of the path `""`, the Animator's own object.
pub const ROOT_BONE: &str = "/";
/// How long before the next key a step inside a Hermite channel ramps (seconds).
pub const STEP_RAMP: f64 = 1e-3;
/// The lowest rate Euler curves are baked at (samples per second).
pub const EULER_BAKE_RATE: f64 = 60.0;
/// The most keys a baked Euler channel may get.
const MAX_BAKED_KEYS: usize = 1_000_000;

/// What a Unity clip converts to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Converted {
    /// The skeletal clip of its Transform curves (tracks named by bone), if it has any.
    pub skel_clip: Option<SkelClipIr>,
    /// The skeleton its Transform paths make (for builds without a skeleton of their own).
    pub skeleton: Option<SkeletonIr>,
    /// The scene with the Animator of its other curves, if it has any.
    pub scene: Option<SceneIr>,
    /// What was approximated or left out, one line each.
    pub notes: Vec<String>,
}

/// Converts `clip` (from `origin`) with its paths resolved by `table`; a Transform binding missing
/// some components (an editor clip animating `m_LocalPosition.x` alone) holds the others at the bind
/// pose of the bone in `bind` (the identity when `bind` has none). Errors, naming the path or curve:
/// unresolved path hashes (all of them), a path with both quaternion and Euler curves, two paths
/// ending in the same bone name.
pub fn convert(
    clip: &Clip,
    table: &PathTable,
    origin: &Origin,
    bind: &dyn Fn(&str) -> Option<Transform3>,
) -> Result<Converted, String> {
    let mut table = table.clone();
    for p in &clip.paths {
        table.insert(p);
    }
    let unresolved = clip.unresolved(&table);
    if !unresolved.is_empty() {
        let list: Vec<String> = unresolved.iter().map(|h| format!("{h} (0x{h:08x})")).collect();
        return Err(format!(
            "clip {:?}: {} unresolved path hash(es): {}; give the hierarchy with --unity-paths FILE (paths, one \
             per line, or an Avatar/AnimatorController dump with m_TOS) or a skeleton (EVA) in the same build",
            clip.name,
            unresolved.len(),
            list.join(", ")
        ));
    }
    let start = clip.start_time;
    let mut duration = clip.stop_time - start;
    let mut notes = Vec::new();
    if duration.is_nan() || duration <= 0.0 {
        // No clip settings (an editor clip without m_AnimationClipSettings): the last key's time,
        // as Unity measures such a clip; a single pose lasts one frame.
        let last = clip
            .curves
            .iter()
            .flat_map(|c| c.keys.iter().map(|k| k.time))
            .filter(|t| t.is_finite())
            .fold(start, f64::max);
        duration = if last > start {
            last - start
        } else {
            1.0 / if clip.sample_rate > 0.0 { clip.sample_rate } else { 60.0 }
        };
        notes.push(format!("clip {:?}: no stop time after the start: duration set to {duration} s", clip.name));
    }
    for c in &clip.curves {
        let weighted = c.modes.iter().filter(|m| m.weighted_mode != 0).count();
        if weighted > 0 {
            notes.push(format!(
                "curve {}: {weighted} key(s) with weighted tangents converted as unweighted (Hermite)",
                c.index
            ));
        }
    }
    let path_of = |c: &Curve| table.name(c.binding.path).unwrap_or("").to_string();

    // Transform curves by path and kind.
    let mut groups: BTreeMap<String, TransformCurves<'_>> = BTreeMap::new();
    let mut others: Vec<&Curve> = Vec::new();
    for c in &clip.curves {
        let slot = match c.binding.kind {
            BindingKind::Position => Some((0, 3)),
            BindingKind::Rotation => Some((1, 4)),
            BindingKind::Scale => Some((2, 3)),
            BindingKind::Euler(_) => Some((3, 3)),
            _ => None,
        };
        let Some((kind, width)) = slot else {
            others.push(c);
            continue;
        };
        let g = groups.entry(path_of(c)).or_default();
        let comp = usize::from(c.binding.component);
        if comp >= width {
            return Err(format!("curve {}: component {comp} of a {width}-component binding", c.index));
        }
        if let BindingKind::Euler(order) = c.binding.kind {
            g.order = Some(order);
        }
        g.curves[kind][comp] = Some(c);
    }

    let mut converted = Converted::default();
    if !groups.is_empty() {
        let mut tracks = Vec::new();
        let mut bones: BTreeMap<String, String> = BTreeMap::new(); // bone name -> path
        for (path, g) in &groups {
            let bone = bone_name(path);
            if let Some(other) = bones.insert(bone.to_string(), path.clone()) {
                return Err(format!("paths {other:?} and {path:?} both end in bone name {bone:?}"));
            }
            let what = |k: usize| format!("path {path:?} {}", ["position", "rotation", "scale", "Euler rotation"][k]);
            let rest = bind(bone).unwrap_or(Transform3::IDENTITY);
            let mut missing: Vec<String> = Vec::new();
            let mut comps = |k: usize, w: usize| -> Result<Option<Vec<Vec<Key>>>, String> {
                let present: Vec<Option<&Curve>> = g.curves[k].iter().take(w).copied().collect();
                if present.iter().all(Option::is_none) {
                    return Ok(None);
                }
                let mut out = Vec::with_capacity(w);
                for (c, p) in present.iter().enumerate() {
                    match p {
                        Some(curve) => out.push(curve.keys.clone()),
                        None => {
                            let v = match k {
                                0 => rest.translation[c],
                                1 => rest.rotation[c],
                                2 => rest.scale[c],
                                _ => 0.0,
                            };
                            missing
                                .push(format!("{}: no curve for component {c}: held at {v} (the bind pose)", what(k)));
                            out.push(vec![Key { time: start, value: v, in_slope: 0.0, out_slope: 0.0 }]);
                        }
                    }
                }
                Ok(Some(out))
            };
            let (position, quaternion, euler, scale) = (comps(0, 3)?, comps(1, 4)?, comps(3, 3)?, comps(2, 3)?);
            notes.append(&mut missing);
            let mut t = BoneTrackIr { bone: bone.to_string(), ..BoneTrackIr::default() };
            if let Some(p) = position {
                let ch = assemble::<3>(&slices(&p), start, duration);
                (t.translation, t.interpolation[0], t.translation_tangents) = ch.into_ir();
            }
            match (quaternion, euler) {
                (Some(_), Some(_)) => return Err(format!("path {path:?}: both quaternion and Euler rotation curves")),
                (Some(r), None) => {
                    let ch = assemble::<4>(&slices(&r), start, duration);
                    (t.rotation, t.interpolation[1], t.rotation_tangents) = ch.into_ir();
                }
                (None, Some(e)) => {
                    let order = g.order.unwrap_or(RotationOrder::Zxy);
                    t.rotation = bake_euler(&slices(&e), order, start, duration, clip.sample_rate)
                        .map_err(|why| format!("{}: {why}", what(3)))?;
                    notes.push(format!(
                        "{}: baked to {} linear quaternion keys (order {:?})",
                        what(3),
                        t.rotation.len(),
                        order
                    ));
                }
                (None, None) => {}
            }
            if let Some(s) = scale {
                let ch = assemble::<3>(&slices(&s), start, duration);
                (t.scale, t.interpolation[2], t.scale_tangents) = ch.into_ir();
            }
            tracks.push(t);
        }
        converted.skeleton = Some(skeleton_of(&clip.name, groups.keys(), origin));
        converted.skel_clip = Some(SkelClipIr {
            name: clip.name.clone(),
            duration,
            sample_rate: clip.sample_rate.max(0.0),
            looping: clip.loop_time,
            tracks,
            events: Vec::new(),
            skeleton: None,
            origin: origin.clone(),
        });
    }
    let events: Vec<SkelEventIr> = clip
        .events
        .iter()
        .map(|e| SkelEventIr { time: (e.time - start).clamp(0.0, duration), name: event_name(e) })
        .collect();
    if !others.is_empty() || (converted.skel_clip.is_none() && !events.is_empty()) {
        let scene = scene_of(clip, &others, &table, start, duration, origin, &events, converted.skel_clip.is_none());
        converted.scene = Some(scene);
    }
    if let Some(c) = converted.skel_clip.as_mut() {
        c.events = events;
    }
    converted.notes = notes;
    Ok(converted)
}

/// The Transform curves of one path: `curves[kind][component]` (kind 0 position, 1 quaternion, 2
/// scale, 3 Euler).
#[derive(Default)]
struct TransformCurves<'a> {
    curves: [[Option<&'a Curve>; 4]; 4],
    order: Option<RotationOrder>,
}

/// The key slices of component curves.
fn slices(v: &[Vec<Key>]) -> Vec<&[Key]> {
    v.iter().map(Vec::as_slice).collect()
}

/// The bone a path names.
pub fn bone_name(path: &str) -> &str {
    if path.is_empty() {
        ROOT_BONE
    } else {
        path.rsplit('/').next().unwrap_or(path)
    }
}

/// The skeleton of `paths` and their ancestors: [`ROOT_BONE`] first, parents before children, in the
/// identity pose.
fn skeleton_of<'a>(name: &str, paths: impl Iterator<Item = &'a String>, origin: &Origin) -> SkeletonIr {
    let mut all: Vec<String> = vec![String::new()];
    for p in paths {
        let mut prefix = String::new();
        for seg in p.split('/').filter(|s| !s.is_empty()) {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(seg);
            if !all.contains(&prefix) {
                all.push(prefix.clone());
            }
        }
    }
    // Parents before children: shorter paths first, then by name (stable, deterministic).
    all.sort_by(|a, b| depth(a).cmp(&depth(b)).then_with(|| a.cmp(b)));
    let bones = all
        .iter()
        .map(|p| {
            let parent = if p.is_empty() {
                None
            } else {
                let up = p.rsplit_once('/').map_or("", |(a, _)| a);
                all.iter().position(|q| q == up)
            };
            BoneIr { name: bone_name(p).to_string(), parent, bind: Transform3::IDENTITY }
        })
        .collect();
    SkeletonIr { name: name.to_string(), bones, origin: origin.clone() }
}

/// A path's depth: 0 for `""`, 1 for `Hips`, 2 for `Hips/Spine`.
fn depth(path: &str) -> usize {
    if path.is_empty() {
        0
    } else {
        1 + path.matches('/').count()
    }
}

/// A channel assembled from component curves.
struct Assembled<const N: usize> {
    times: Vec<f64>,
    values: Vec<[f64; N]>,
    tangents: Vec<KeyTangents<N>>,
    interp: ChannelInterp,
}

impl<const N: usize> Assembled<N> {
    fn into_ir(self) -> (Vec<ChannelKey<N>>, ChannelInterp, Vec<KeyTangents<N>>) {
        let keys = self.times.iter().zip(&self.values).map(|(&time, &value)| ChannelKey { time, value }).collect();
        let tangents = if self.interp == ChannelInterp::Hermite { self.tangents } else { Vec::new() };
        (keys, self.interp, tangents)
    }
}

/// Whether the segment from `a` to `b` is a step.
fn is_step(a: &Key, b: &Key) -> bool {
    !a.out_slope.is_finite() || !b.in_slope.is_finite()
}

/// A component's value and slopes at `t` on its own curve: at a key, that key's; between keys, the
/// cubic's value and derivative (a step segment: the held value, slopes 0 then a step); before the
/// first and after the last key, the end value with zero slopes. Also whether the segment leaving
/// `t` is a step.
fn at(keys: &[Key], t: f64) -> (f64, f64, f64, bool) {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return (0.0, 0.0, 0.0, false) };
    if t < first.time {
        return (first.value, 0.0, 0.0, false);
    }
    if t > last.time {
        return (last.value, 0.0, 0.0, false);
    }
    let i = keys.partition_point(|k| k.time <= t).saturating_sub(1);
    let k0 = &keys[i];
    let next = keys.get(i + 1);
    if k0.time == t {
        let step = next.is_some_and(|n| is_step(k0, n));
        return (k0.value, k0.in_slope, k0.out_slope, step);
    }
    let Some(k1) = next else { return (k0.value, 0.0, 0.0, false) };
    if is_step(k0, k1) {
        return (k0.value, 0.0, 0.0, true);
    }
    let (v, d) = hermite(k0, k1, t);
    (v, d, d, false)
}

/// The cubic Hermite segment from `a` to `b` at `t`: value and derivative.
fn hermite(a: &Key, b: &Key, t: f64) -> (f64, f64) {
    let dt = b.time - a.time;
    let u = (t - a.time) / dt;
    let (u2, u3) = (u * u, u * u * u);
    let v = (2.0 * u3 - 3.0 * u2 + 1.0) * a.value
        + (u3 - 2.0 * u2 + u) * dt * a.out_slope
        + (-2.0 * u3 + 3.0 * u2) * b.value
        + (u3 - u2) * dt * b.in_slope;
    let d = ((6.0 * u2 - 6.0 * u) * a.value
        + (3.0 * u2 - 4.0 * u + 1.0) * dt * a.out_slope
        + (-6.0 * u2 + 6.0 * u) * b.value
        + (3.0 * u2 - 2.0 * u) * dt * b.in_slope)
        / dt;
    (v, d)
}

/// Merges `N` component curves into one channel (see the module docs), times shifted by `start`
/// and kept within `[0, duration]`.
fn assemble<const N: usize>(comps: &[&[Key]], start: f64, duration: f64) -> Assembled<N> {
    let mut times: Vec<f64> = comps.iter().flat_map(|k| k.iter().map(|k| k.time)).collect();
    times.retain(|t| t.is_finite() && (start..=start + duration).contains(t));
    times.sort_by(f64::total_cmp);
    times.dedup();
    if times.is_empty() {
        times.push(start);
    }
    // Per time and component: value, in, out, step leaving.
    let samples: Vec<[(f64, f64, f64, bool); N]> = times
        .iter()
        .map(|&t| std::array::from_fn(|c| comps.get(c).map_or((0.0, 0.0, 0.0, false), |k| at(k, t))))
        .collect();
    let n = times.len();
    let flat = |i: usize, c: usize| {
        let (a, b) = (samples[i][c], samples[i + 1][c]);
        a.0 == b.0 && a.2 == 0.0 && b.1 == 0.0
    };
    let all_step = (0..n.saturating_sub(1)).all(|i| (0..N).all(|c| samples[i][c].3 || flat(i, c)));
    let values: Vec<[f64; N]> = samples.iter().map(|s| std::array::from_fn(|c| s[c].0)).collect();
    let shifted: Vec<f64> = times.iter().map(|t| t - start).collect();
    if all_step {
        return Assembled { times: shifted, values, tangents: Vec::new(), interp: ChannelInterp::Step };
    }
    let secant = |i: usize, c: usize| (values[i + 1][c] - values[i][c]) / (times[i + 1] - times[i]);
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    let linear = (0..n.saturating_sub(1)).all(|i| {
        (0..N)
            .all(|c| !samples[i][c].3 && near(samples[i][c].2, secant(i, c)) && near(samples[i + 1][c].1, secant(i, c)))
    });
    if linear {
        return Assembled { times: shifted, values, tangents: Vec::new(), interp: ChannelInterp::Linear };
    }
    // Hermite, with each step segment ramping over its last STEP_RAMP seconds.
    let mut out =
        Assembled::<N> { times: Vec::new(), values: Vec::new(), tangents: Vec::new(), interp: ChannelInterp::Hermite };
    let slope = |x: f64| if x.is_finite() { x } else { 0.0 };
    for i in 0..n {
        let s = &samples[i];
        let mut incoming: [f64; N] = std::array::from_fn(|c| slope(s[c].1));
        if i > 0 && (0..N).any(|c| samples[i - 1][c].3) {
            // The end of a ramp: step components arrive with the ramp's slope.
            let ramp = STEP_RAMP.min((times[i] - times[i - 1]) / 4.0);
            for c in 0..N {
                if samples[i - 1][c].3 {
                    incoming[c] = (s[c].0 - samples[i - 1][c].0) / ramp;
                }
            }
        }
        let outgoing: [f64; N] = std::array::from_fn(|c| if s[c].3 { 0.0 } else { slope(s[c].2) });
        out.times.push(times[i] - start);
        out.values.push(values[i]);
        out.tangents.push(KeyTangents { incoming, outgoing });
        if i + 1 < n && (0..N).any(|c| s[c].3) {
            let ramp = STEP_RAMP.min((times[i + 1] - times[i]) / 4.0);
            let t = times[i + 1] - ramp;
            let mut value = [0.0; N];
            let mut inc = [0.0; N];
            let mut outg = [0.0; N];
            for c in 0..N {
                if s[c].3 {
                    value[c] = s[c].0;
                    inc[c] = 0.0;
                    outg[c] = (samples[i + 1][c].0 - s[c].0) / ramp;
                } else {
                    let (v, d, _, _) = at(comps[c], t);
                    (value[c], inc[c], outg[c]) = (v, d, d);
                }
            }
            out.times.push(t - start);
            out.values.push(value);
            out.tangents.push(KeyTangents { incoming: inc, outgoing: outg });
        }
    }
    out
}

/// Euler curves (degrees) baked to linear quaternion keys (see the module docs).
fn bake_euler(
    comps: &[&[Key]],
    order: RotationOrder,
    start: f64,
    duration: f64,
    rate: f64,
) -> Result<Vec<ChannelKey<4>>, String> {
    let rate = rate.max(EULER_BAKE_RATE);
    let steps = (duration * rate).ceil();
    if !(steps.is_finite() && steps < MAX_BAKED_KEYS as f64) {
        return Err(format!("{duration} s at {rate} Hz is over {MAX_BAKED_KEYS} keys"));
    }
    let mut times: Vec<f64> = (0..=steps as usize).map(|i| (i as f64 / rate).min(duration)).collect();
    times.extend(comps.iter().flat_map(|k| k.iter().map(|k| k.time - start)).filter(|t| (0.0..=duration).contains(t)));
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    let mut keys: Vec<ChannelKey<4>> = Vec::with_capacity(times.len());
    for t in times {
        let deg: [f64; 3] = std::array::from_fn(|c| comps.get(c).map_or(0.0, |k| at(k, t + start).0));
        let mut q = euler_to_quat(deg, order);
        if let Some(prev) = keys.last() {
            if q.iter().zip(prev.value).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                q = q.map(|x| -x);
            }
        }
        keys.push(ChannelKey { time: t, value: q });
    }
    Ok(keys)
}

/// An event's name: `function`, or `function(string, float, int)` when a parameter is set.
fn event_name(e: &super::ClipEvent) -> String {
    if e.string_parameter.is_empty() && e.float_parameter == 0.0 && e.int_parameter == 0 {
        e.function_name.clone()
    } else {
        format!("{}({}, {}, {})", e.function_name, e.string_parameter, e.float_parameter, e.int_parameter)
    }
}

/// The scene holding the Animator of the non-Transform curves (and the events when `with_events`).
#[allow(clippy::too_many_arguments)]
fn scene_of(
    clip: &Clip,
    curves: &[&Curve],
    table: &PathTable,
    start: f64,
    duration: f64,
    origin: &Origin,
    events: &[SkelEventIr],
    with_events: bool,
) -> SceneIr {
    let place = origin.place.clone();
    let mut nodes = vec![SceneNode {
        name: "Animator".into(),
        kind: "Animator".into(),
        parent: None,
        path: "/Animator".into(),
        sprite: None,
        src: None,
        animation: None,
        place: place.clone(),
        props: Vec::new(),
    }];
    let mut node_of = |path: &str| -> usize {
        let mut parent = 0;
        let mut full = String::from("/Animator");
        for seg in path.split('/').filter(|s| !s.is_empty()) {
            full.push('/');
            full.push_str(seg);
            parent = match nodes.iter().position(|n| n.path == full) {
                Some(i) => i,
                None => {
                    nodes.push(SceneNode {
                        name: seg.to_string(),
                        kind: "Node3D".into(),
                        parent: Some(parent),
                        path: full.clone(),
                        sprite: None,
                        src: None,
                        animation: None,
                        place: place.clone(),
                        props: Vec::new(),
                    });
                    nodes.len() - 1
                }
            };
        }
        parent
    };
    let mut tracks = Vec::new();
    for c in curves {
        let path = table.name(c.binding.path).unwrap_or("");
        let target = node_of(path);
        let (field, step) = match c.binding.kind {
            BindingKind::Muscle => (format!("muscle_{}", c.binding.attribute), false),
            BindingKind::Int | BindingKind::PPtr => (format!("attr_{:08x}", c.binding.attribute), true),
            _ => (format!("attr_{:08x}", c.binding.attribute), false),
        };
        let keys = if step {
            step_keys(&c.keys, start, duration, &place)
        } else {
            eased_keys(&c.keys, start, duration, &place)
        };
        tracks.push(TrackIr {
            target: Some(target),
            property: TrackProperty::Script(field),
            kind: ValueKind::Float,
            step,
            keys,
            place: format!("{place}, curve {}", c.index),
        });
    }
    if with_events && !events.is_empty() {
        tracks.push(TrackIr {
            target: None,
            property: TrackProperty::Event,
            kind: ValueKind::Text,
            step: true,
            keys: events
                .iter()
                .map(|e| KeyIr { time: e.time, value: Value::Text(e.name.clone()), ease: None, place: place.clone() })
                .collect(),
            place: format!("{place}, m_Events"),
        });
    }
    // Keep the Animator's node first: the nodes are depth-first already (children appended under
    // existing parents come after them), but a later sibling's child may follow another subtree;
    // reorder depth-first.
    let nodes = depth_first(nodes, &mut tracks);
    SceneIr {
        name: clip.name.clone(),
        nodes,
        animators: vec![AnimatorIr {
            node: 0,
            autoplay: Some(0),
            clips: vec![ClipIr { name: clip.name.clone(), length: duration, looping: clip.loop_time, tracks }],
            place: place.clone(),
        }],
        machines: Vec::new(),
        file: origin.file.clone(),
        place,
    }
}

/// `nodes` reordered depth-first (parents before children, each subtree together), the tracks'
/// targets renumbered.
fn depth_first(nodes: Vec<SceneNode>, tracks: &mut [TrackIr]) -> Vec<SceneNode> {
    let mut order = Vec::with_capacity(nodes.len());
    fn visit(i: usize, nodes: &[SceneNode], order: &mut Vec<usize>) {
        order.push(i);
        for (j, n) in nodes.iter().enumerate() {
            if n.parent == Some(i) {
                visit(j, nodes, order);
            }
        }
    }
    visit(0, &nodes, &mut order);
    let mut new_index = vec![0; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    for t in tracks.iter_mut() {
        t.target = t.target.map(|i| new_index[i]);
    }
    order
        .iter()
        .map(|&old| {
            let mut n = nodes[old].clone();
            n.parent = n.parent.map(|p| new_index[p]);
            n
        })
        .collect()
}

/// Keys that hold until the next (int and object-reference curves).
fn step_keys(keys: &[Key], start: f64, duration: f64, place: &str) -> Vec<KeyIr> {
    let mut out: Vec<KeyIr> = keys
        .iter()
        .filter(|k| (start..=start + duration).contains(&k.time))
        .map(|k| KeyIr {
            time: k.time - start,
            value: Value::Float(k.value),
            ease: Some("step".into()),
            place: place.into(),
        })
        .collect();
    if out.is_empty() {
        out.push(KeyIr {
            time: 0.0,
            value: Value::Float(at(keys, start).0),
            ease: Some("step".into()),
            place: place.into(),
        });
    }
    out
}

/// Keys with per-segment eases reproducing the Hermite curve (see the module docs).
fn eased_keys(keys: &[Key], start: f64, duration: f64, place: &str) -> Vec<KeyIr> {
    let inside: Vec<Key> = keys.iter().filter(|k| (start..=start + duration).contains(&k.time)).copied().collect();
    let mut out = Vec::new();
    let key = |t: f64, v: f64, ease: Option<String>| KeyIr {
        time: t - start,
        value: Value::Float(v),
        ease,
        place: place.into(),
    };
    if inside.is_empty() {
        out.push(key(start, at(keys, start).0, None));
        return out;
    }
    for (i, k) in inside.iter().enumerate() {
        let Some(next) = inside.get(i + 1) else {
            out.push(key(k.time, k.value, None));
            break;
        };
        if is_step(k, next) {
            out.push(key(k.time, k.value, Some("step".into())));
            continue;
        }
        let dv = next.value - k.value;
        if dv == 0.0 && (k.out_slope != 0.0 || next.in_slope != 0.0) {
            // Split where the value differs from the ends (a non-constant cubic has at most
            // three roots in [0, 1], and 0 and 1 are two of them).
            let t = [0.5, 1.0 / 3.0, 2.0 / 3.0]
                .iter()
                .map(|u| k.time + u * (next.time - k.time))
                .find(|&t| hermite(k, next, t).0 != k.value)
                .unwrap_or(k.time + 0.5 * (next.time - k.time));
            let (v, d) = hermite(k, next, t);
            let mid = Key { time: t, value: v, in_slope: d, out_slope: d };
            out.push(key(k.time, k.value, Some(bezier(k, &mid))));
            out.push(key(t, v, Some(bezier(&mid, next))));
        } else {
            out.push(key(k.time, k.value, Some(bezier(k, next))));
        }
    }
    out
}

/// The ease of the Hermite segment from `a` to `b` (values differ, or both slopes are 0): with
/// x1 = 1/3 and x2 = 2/3 a cubic Bézier's x is its parameter, so its y is the Hermite cubic
/// normalised to [0, 1].
fn bezier(a: &Key, b: &Key) -> String {
    let dt = b.time - a.time;
    let dv = b.value - a.value;
    if dv == 0.0 {
        return "linear".into();
    }
    let y1 = a.out_slope * dt / (3.0 * dv);
    let y2 = 1.0 - b.in_slope * dt / (3.0 * dv);
    let secant = dv / dt;
    if (a.out_slope - secant).abs() <= 1e-12 * secant.abs().max(1.0)
        && (b.in_slope - secant).abs() <= 1e-12 * secant.abs().max(1.0)
    {
        return "linear".into();
    }
    format!("cubic-bezier({}, {y1}, {}, {y2})", 1.0 / 3.0, 2.0 / 3.0)
}
