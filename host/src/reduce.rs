//! Keyframe reduction of skeletal clips with a model-space error bound, the error metric it is
//! checked with, and 16-bit quantisation of keys.
//!
//! Everything here works on the host IR ([`SkeletonIr`], [`SkelClipIr`]) in `f64`.
//!
//! # Sampling
//!
//! [`sample_local`] evaluates a clip the way the kernel's linear channels do: translation and scale
//! are interpolated component-wise, rotations by nlerp on the shortest arc (the second key is
//! negated when the two keys' dot product is negative, then the component-wise lerp is
//! normalised). Before a channel's first key its first value holds, after its last key its last
//! value holds, and a channel with a single key holds that key everywhere. A bone without a track,
//! or a channel without keys, takes its bind (rest) value. Every sampled rotation is normalised (a
//! zero quaternion becomes the identity), as the kernel normalises when it interpolates.
//!
//! [`local_to_model`] composes parent ∘ child with the kernel's TRS rule ([`compose`]):
//! translation `parent.t + parent.q·(parent.s ⊙ child.t)`, rotation `parent.q·child.q`, scale
//! `parent.s ⊙ child.s`.
//!
//! # Error metric (as ACL measures it)
//!
//! Each bone carries three virtual vertices at distance `D` ([`ReduceOptions::vertex_distance`],
//! [`DEFAULT_VERTEX_DISTANCE`] = 3 units, i.e. 3 cm for Mixamo data) along its local X, Y and Z axes
//! (ACL's "shell" points). At a time `t` the error of a bone is the largest of the three distances
//! between the vertex transformed by the **original** model-space transform and by the
//! **reduced** one; the model-space transforms come through the whole hierarchy, so an error in a
//! parent shows in all of its descendants.
//!
//! The times sampled ([`sample_times`]) are every distinct key time of the original clip (all
//! bones, all channels) and the midpoint between each two consecutive ones (a clip without keys is
//! sampled at 0). One *sample* is one (bone, time) pair: every bone of the skeleton at every sampled
//! time. [`ErrorStats`] summarises them.
//!
//! # Reduction
//!
//! [`reduce`] is greedy, channel by channel, bones in skeleton order (parents first), channels in
//! the order translation, rotation, scale, in four passes over the clip with a growing share of the
//! bound (¼, ½, ¾, all of it; so that a parent does not spend the whole budget where its
//! descendants still need some). For each channel with keys each pass tries, in turn:
//!
//! 1. dropping the channel (the bone then uses its bind value for it);
//! 2. collapsing it to its first key (the kernel holds a single key everywhere);
//! 3. removing interior keys one by one, left to right: with `p` the last key kept so far and `n`
//!    the key after the candidate, the candidate goes when the straight (nlerp) segment `p → n` is
//!    good enough. The first and last keys are always kept in this step.
//!
//! A change is accepted only when, at every sampled time it affects (all of them for 1 and 2, those
//! strictly between `p` and `n` for 3), every vertex of the bone **and of all of its descendants**,
//! evaluated with the clip as reduced so far, stays within the pass's share of
//! [`ReduceOptions::max_error_cm`] of the original; and the changed channel stays within its local
//! tolerance ([`ReduceOptions::position_tolerance`], [`ReduceOptions::rotation_tolerance_deg`],
//! [`ReduceOptions::scale_tolerance`]) of the original channel at those times. Because every
//! accepted change is checked against the current state of the whole clip, the bound holds for the
//! result at every sampled time, error propagated through the hierarchy included. The returned
//! [`ErrorStats`] are measured afresh on the result by [`measure_error`].
//!
//! Between sampled times the error is not checked. Within one interval between consecutive
//! original key times, an original translation or scale channel and its reduced version are both
//! linear in time, so their difference peaks at a key time: for a bone's own translation and scale
//! the key times are exact. Rotations (nlerp) and the composition through the hierarchy are not
//! linear, so for them the key times and midpoints are a dense check, not a proof.
//!
//! [`reduce_quantized`] reduces for a clip that will be stored quantised: part of the bound for
//! removing keys, the rest for storing rotations as packed smallest-three keys ([`PackedKeys`],
//! format version 6) with per-channel bit widths chosen by the same model-space check, on the
//! values exactly as the kernel decodes them (see [`storage_model`]).
//!
//! # Quantisation
//!
//! [`quantize_channel`] stores each component of a channel as a `u16` over the channel's own
//! range: `min` = the smallest value, `extent` = largest − smallest,
//! `q = round((v − min) / extent · 65535)` (rounding to nearest, clamped to `0 ..= 65535`; `q = 0`
//! when `extent` is 0), and **dequantised value = `min + q · extent / 65535`** (`min` when
//! `extent` is 0). The error per component is at most `extent / 131070` (half a step), plus `f64`
//! rounding. [`quantize_clip`] replaces every key value with its dequantised value (times are kept
//! as they are), so the effect of quantisation, alone or after reduction, is measured with the same
//! metric. Quantised quaternions are not renormalised here: the kernel (and [`sample_local`])
//! normalises them.
//!
//! # Packed rotations
//!
//! [`pack_rotation`] stores a rotation channel as smallest-three keys: the dropped component
//! ([`packed_dropped`]: the one whose smallest magnitude over the keys is largest) is rebuilt from
//! the other three, which each get a range of whole 2^-15 units and a width of 0–16 bits.
//! [`PackedKeys::values`] decodes with the format's integer formula
//! (`ossicle_format::skeleton::PackedRotation::decode`), so the reducer measures exactly the
//! values the kernel reads (up to the final rounding to f32 or Q16.16, the same as for any stored
//! value). The blob writer gets the decoded keys in the reduced clip's IR and finds the encoding
//! again with [`recover_packed`].

use crate::error::HostError;
use crate::ir::{ChannelKey, SkelClipIr, SkeletonIr, Transform3};
use crate::write::skeleton::QUANTIZE_MIN_KEYS;
use ossicle_format::skeleton::{PackedRotation, PACKED_MAX_BITS, PACKED_RANGE_ONE, PACKED_VALUE_ONE};
use std::collections::HashMap;
use std::ops::Range;

/// The default distance of the virtual vertices from their bone: 3 units (3 cm in Mixamo data).
pub const DEFAULT_VERTEX_DISTANCE: f64 = 3.0;

/// The default model-space error bound: 0.01 units (0.1 mm in Mixamo data) at 3 units.
pub const DEFAULT_MAX_ERROR: f64 = 0.01;

/// The passes [`reduce`] makes over the clip, each with this share of the bound: a first pass at a
/// quarter of it keeps one bone from spending the whole budget where a descendant still needs some
/// (on Idle this removes about 12 % more keys than a single pass; the others are unchanged).
const PASSES: [f64; 4] = [0.25, 0.5, 0.75, 1.0];

/// The largest quantised value: quantised components are `0 ..= QUANT_MAX`.
pub const QUANT_MAX: u16 = u16::MAX;

/// How far [`reduce`] may move things.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReduceOptions {
    /// The model-space bound: the largest distance any virtual vertex of any bone may move, in the
    /// clip's units (centimetres for Mixamo). Finite and ≥ 0.
    pub max_error_cm: f64,
    /// The largest change of a bone's local translation (distance, clip units). `f64::INFINITY`
    /// (the default) leaves the decision to the model-space bound alone, as ACL does.
    pub position_tolerance: f64,
    /// The largest change of a bone's local rotation, in degrees (the angle of the rotation between
    /// original and reduced). Default `f64::INFINITY`.
    pub rotation_tolerance_deg: f64,
    /// The largest change of any component of a bone's local scale. Default `f64::INFINITY`.
    pub scale_tolerance: f64,
    /// The distance of the virtual vertices from their bone along its local X, Y and Z axes.
    /// Finite and > 0.
    pub vertex_distance: f64,
}

impl Default for ReduceOptions {
    /// 0.01 at 3 (0.1 mm at 3 cm for Mixamo data), no local tolerances.
    fn default() -> Self {
        Self {
            max_error_cm: DEFAULT_MAX_ERROR,
            position_tolerance: f64::INFINITY,
            rotation_tolerance_deg: f64::INFINITY,
            scale_tolerance: f64::INFINITY,
            vertex_distance: DEFAULT_VERTEX_DISTANCE,
        }
    }
}

/// The model-space error of a reduced (or quantised) clip against its original, over every
/// (bone, sampled time) pair; see the [module documentation](self#error-metric-as-acl-measures-it).
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorStats {
    /// The largest vertex error.
    pub max: f64,
    /// The 99th percentile (nearest rank: the smallest error that at least 99 % of the samples do
    /// not exceed).
    pub p99: f64,
    /// The share (0 ..= 1) of samples whose error is at most the threshold given.
    pub under_threshold_share: f64,
    /// How many (bone, time) samples were measured.
    pub samples: usize,
    /// Where the largest error is: the bone's name and the time (the first such sample).
    pub worst: (String, f64),
}

// ---------------------------------------------------------------------------------------------
// Small f64 math

/// The Hamilton product a · b of quaternions (x, y, z, w) (also `unity::bindings::quat_mul`).
pub(crate) fn qmul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The unit quaternion in the direction of `q`; zero (or non-finite length) gives the identity.
fn qnormalize(q: [f64; 4]) -> [f64; 4] {
    let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if len > 0.0 && len.is_finite() {
        [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// The columns of the rotation matrix of a unit quaternion (the images of X, Y and Z).
fn rotation_columns(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [x, y, z, w] = q;
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)],
        [2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)],
        [2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let [cx, cy, cz] = rotation_columns(q);
    [0, 1, 2].map(|i| cx[i] * v[0] + cy[i] * v[1] + cz[i] * v[2])
}

/// `p` transformed as a point by `tr`: `translation + rotation·(scale ⊙ p)` (the kernel's rule).
pub fn transform_point(tr: &Transform3, p: [f64; 3]) -> [f64; 3] {
    let v = rotate(tr.rotation, [0, 1, 2].map(|i| tr.scale[i] * p[i]));
    [0, 1, 2].map(|i| tr.translation[i] + v[i])
}

/// `child` expressed in the space of `parent` with the kernel's TRS rule: translation
/// `parent.t + parent.q·(parent.s ⊙ child.t)`, rotation `parent.q·child.q`, scale
/// `parent.s ⊙ child.s`.
pub fn compose(parent: &Transform3, child: &Transform3) -> Transform3 {
    Transform3 {
        translation: transform_point(parent, child.translation),
        rotation: qmul(parent.rotation, child.rotation),
        scale: [0, 1, 2].map(|i| parent.scale[i] * child.scale[i]),
    }
}

/// The three virtual vertices of a bone with model-space transform `m`, at distance `d` along its
/// local X, Y and Z axes.
fn shell_points(m: &Transform3, d: f64) -> [[f64; 3]; 3] {
    let cols = rotation_columns(m.rotation);
    [0, 1, 2].map(|k| {
        let s = d * m.scale[k];
        [0, 1, 2].map(|i| m.translation[i] + s * cols[k][i])
    })
}

/// The largest squared distance between corresponding shell points.
fn shell_error_sq(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> f64 {
    let mut worst = 0.0f64;
    for k in 0..3 {
        let d = [0, 1, 2].map(|i| a[k][i] - b[k][i]);
        let e = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        // NaN counts as the worst possible error.
        if e.is_nan() {
            return f64::INFINITY;
        }
        worst = worst.max(e);
    }
    worst
}

/// Interpolates two channel values; `rot` selects nlerp on the shortest arc (not normalised here:
/// [`put`] normalises rotations).
fn lerp_value<const N: usize>(a: &[f64; N], b: &[f64; N], u: f64, rot: bool) -> [f64; N] {
    let sign = if rot && a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
    let mut out = [0.0; N];
    for i in 0..N {
        out[i] = a[i] + (sign * b[i] - a[i]) * u;
    }
    out
}

/// The value of a channel at `t` (see the [module documentation](self#sampling)); `None` without
/// keys. Rotations are not normalised here.
fn sample_channel<const N: usize>(keys: &[ChannelKey<N>], t: f64, rot: bool) -> Option<[f64; N]> {
    let first = keys.first()?;
    let last = keys.last()?;
    // A NaN time holds the first key too.
    if t <= first.time || t.is_nan() {
        return Some(first.value);
    }
    if t >= last.time {
        return Some(last.value);
    }
    let i = keys.partition_point(|k| k.time <= t);
    match (keys.get(i.wrapping_sub(1)), keys.get(i)) {
        (Some(a), Some(b)) => Some(segment_value(a, b, t, rot)),
        _ => Some(last.value),
    }
}

/// The value at `t` of the straight segment from key `a` to key `b`.
fn segment_value<const N: usize>(a: &ChannelKey<N>, b: &ChannelKey<N>, t: f64, rot: bool) -> [f64; N] {
    let span = b.time - a.time;
    let u = if span > 0.0 { ((t - a.time) / span).clamp(0.0, 1.0) } else { 0.0 };
    lerp_value(&a.value, &b.value, u, rot)
}

/// Which channel of a transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chan {
    T,
    R,
    S,
}

/// Writes a channel value into a transform (rotations normalised).
fn put<const N: usize>(tr: &mut Transform3, c: Chan, v: &[f64; N]) {
    match c {
        Chan::T => tr.translation.iter_mut().zip(v).for_each(|(d, s)| *d = *s),
        Chan::S => tr.scale.iter_mut().zip(v).for_each(|(d, s)| *d = *s),
        Chan::R => {
            let mut q = [0.0; 4];
            q.iter_mut().zip(v).for_each(|(d, s)| *d = *s);
            tr.rotation = qnormalize(q);
        }
    }
}

fn bind_value<const N: usize>(bind: &Transform3, c: Chan) -> [f64; N] {
    let src: &[f64] = match c {
        Chan::T => &bind.translation,
        Chan::R => &bind.rotation,
        Chan::S => &bind.scale,
    };
    let mut out = [0.0; N];
    out.iter_mut().zip(src).for_each(|(d, s)| *d = *s);
    out
}

// ---------------------------------------------------------------------------------------------
// Binding a clip to a skeleton

fn err(clip: &SkelClipIr, reason: impl Into<String>) -> HostError {
    HostError::at(&clip.origin.file, clip.origin.place.clone(), reason)
}

/// Checks the skeleton's parent order and finds each bone's track in `clip` (by name).
fn bind_tracks(skel: &SkeletonIr, clip: &SkelClipIr) -> Result<Vec<Option<usize>>, HostError> {
    for (i, b) in skel.bones.iter().enumerate() {
        if let Some(p) = b.parent {
            if p >= i {
                return Err(err(
                    clip,
                    format!(
                        "skeleton `{}`: bone {i} `{}` has parent {p}, which does not come before it",
                        skel.name, b.name
                    ),
                ));
            }
        }
    }
    let index: HashMap<&str, usize> = skel.bones.iter().enumerate().map(|(i, b)| (b.name.as_str(), i)).collect();
    let mut of_bone = vec![None; skel.bones.len()];
    for (ti, track) in clip.tracks.iter().enumerate() {
        let Some(&b) = index.get(track.bone.as_str()) else {
            return Err(err(
                clip,
                format!(
                    "clip `{}`: track for `{}`, a bone skeleton `{}` does not have",
                    clip.name, track.bone, skel.name
                ),
            ));
        };
        if of_bone[b].is_some() {
            return Err(err(clip, format!("clip `{}`: two tracks for bone `{}`", clip.name, track.bone)));
        }
        of_bone[b] = Some(ti);
    }
    Ok(of_bone)
}

fn check_keys<const N: usize>(
    clip: &SkelClipIr,
    bone: &str,
    what: &str,
    keys: &[ChannelKey<N>],
) -> Result<(), HostError> {
    for (i, k) in keys.iter().enumerate() {
        if !k.time.is_finite() || k.value.iter().any(|v| !v.is_finite()) {
            return Err(err(clip, format!("clip `{}`, bone `{bone}`: {what} key {i} is not finite", clip.name)));
        }
        if i > 0 && keys.get(i - 1).is_some_and(|p| p.time >= k.time) {
            return Err(err(
                clip,
                format!("clip `{}`, bone `{bone}`: {what} key times are not strictly increasing at key {i}", clip.name),
            ));
        }
    }
    Ok(())
}

/// Checks that key times are finite and strictly increasing and values finite.
fn check_clip(clip: &SkelClipIr) -> Result<(), HostError> {
    for t in &clip.tracks {
        check_keys(clip, &t.bone, "translation", &t.translation)?;
        check_keys(clip, &t.bone, "rotation", &t.rotation)?;
        check_keys(clip, &t.bone, "scale", &t.scale)?;
    }
    Ok(())
}

fn sample_bound(skel: &SkeletonIr, clip: &SkelClipIr, of_bone: &[Option<usize>], t: f64, out: &mut Vec<Transform3>) {
    out.clear();
    for (b, bone) in skel.bones.iter().enumerate() {
        let mut tr = bone.bind;
        tr.rotation = qnormalize(tr.rotation);
        if let Some(track) = of_bone.get(b).copied().flatten().and_then(|i| clip.tracks.get(i)) {
            if let Some(v) = sample_channel(&track.translation, t, false) {
                put(&mut tr, Chan::T, &v);
            }
            if let Some(v) = sample_channel(&track.rotation, t, true) {
                put(&mut tr, Chan::R, &v);
            }
            if let Some(v) = sample_channel(&track.scale, t, false) {
                put(&mut tr, Chan::S, &v);
            }
        }
        out.push(tr);
    }
}

fn model_in_place(skel: &SkeletonIr, local: &[Transform3], out: &mut Vec<Transform3>) {
    out.clear();
    for (i, (bone, l)) in skel.bones.iter().zip(local).enumerate() {
        let m = match bone.parent.filter(|&p| p < i).and_then(|p| out.get(p)) {
            Some(parent) => compose(parent, l),
            None => *l,
        };
        out.push(m);
    }
}

/// The local pose of every bone of `skel` (in skeleton order) at time `t` of `clip`, sampled as
/// the kernel samples linear channels (see the [module documentation](self#sampling)).
///
/// Errors when a track names a bone the skeleton does not have, two tracks name the same bone, or
/// a bone's parent does not come before it.
pub fn sample_local(skel: &SkeletonIr, clip: &SkelClipIr, t: f64) -> Result<Vec<Transform3>, HostError> {
    let of_bone = bind_tracks(skel, clip)?;
    let mut out = Vec::with_capacity(skel.bones.len());
    sample_bound(skel, clip, &of_bone, t, &mut out);
    Ok(out)
}

/// The model-space pose from a local pose (one transform per bone, in skeleton order): each bone
/// composed under its parent's model transform with [`compose`]; roots keep their local transform.
///
/// Errors when `local` does not have one transform per bone or a bone's parent does not come
/// before it.
pub fn local_to_model(skel: &SkeletonIr, local: &[Transform3]) -> Result<Vec<Transform3>, HostError> {
    if local.len() != skel.bones.len() {
        return Err(HostError::at(
            &skel.origin.file,
            skel.origin.place.clone(),
            format!("skeleton `{}` has {} bones, the pose {}", skel.name, skel.bones.len(), local.len()),
        ));
    }
    if let Some((i, b)) = skel.bones.iter().enumerate().find(|(i, b)| b.parent.is_some_and(|p| p >= *i)) {
        return Err(HostError::at(
            &skel.origin.file,
            skel.origin.place.clone(),
            format!("skeleton `{}`: bone {i} `{}`'s parent does not come before it", skel.name, b.name),
        ));
    }
    let mut out = Vec::with_capacity(local.len());
    model_in_place(skel, local, &mut out);
    Ok(out)
}

/// The times the error is measured at: every distinct key time of `clip` (all tracks and
/// channels), sorted, and the midpoint between each two consecutive ones. `[0.0]` for a clip
/// without keys. Non-finite times are left out.
pub fn sample_times(clip: &SkelClipIr) -> Vec<f64> {
    let mut keys: Vec<f64> = clip
        .tracks
        .iter()
        .flat_map(|t| {
            t.translation
                .iter()
                .map(|k| k.time)
                .chain(t.rotation.iter().map(|k| k.time))
                .chain(t.scale.iter().map(|k| k.time))
        })
        .filter(|t| t.is_finite())
        .collect();
    keys.sort_by(f64::total_cmp);
    keys.dedup();
    if keys.is_empty() {
        return vec![0.0];
    }
    let mut out = Vec::with_capacity(keys.len() * 2);
    for w in keys.windows(2) {
        out.push(w[0]);
        out.push(0.5 * (w[0] + w[1]));
    }
    out.extend(keys.last());
    out
}

/// Summarises per-sample errors (`errors[s * bones + b]`).
fn stats(skel: &SkeletonIr, times: &[f64], errors: &[f64], threshold: f64) -> ErrorStats {
    let nb = skel.bones.len().max(1);
    let mut worst_i = 0;
    let mut max = 0.0f64;
    for (i, &e) in errors.iter().enumerate() {
        if e > max {
            max = e;
            worst_i = i;
        }
    }
    let mut sorted = errors.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let p99 = if n == 0 { 0.0 } else { sorted[((n * 99).div_ceil(100)).clamp(1, n) - 1] };
    let under = errors.iter().filter(|&&e| e <= threshold).count();
    let bone = skel.bones.get(worst_i % nb).map(|b| b.name.clone()).unwrap_or_default();
    let time = times.get(worst_i / nb).copied().unwrap_or(0.0);
    ErrorStats {
        max,
        p99,
        under_threshold_share: if n == 0 { 1.0 } else { under as f64 / n as f64 },
        samples: n,
        worst: (bone, time),
    }
}

/// The model-space vertex error of `changed` against `original` (both bound to `skel` by bone
/// name), at the times [`sample_times`] gives for `original`, with vertices at `vertex_distance`;
/// `threshold` is the bound [`ErrorStats::under_threshold_share`] counts against. See the
/// [module documentation](self#error-metric-as-acl-measures-it).
///
/// Errors when either clip does not bind to the skeleton (see [`sample_local`]).
pub fn measure_error(
    skel: &SkeletonIr,
    original: &SkelClipIr,
    changed: &SkelClipIr,
    vertex_distance: f64,
    threshold: f64,
) -> Result<ErrorStats, HostError> {
    let a = bind_tracks(skel, original)?;
    let b = bind_tracks(skel, changed)?;
    let times = sample_times(original);
    let nb = skel.bones.len();
    let mut errors = Vec::with_capacity(times.len() * nb);
    let (mut la, mut lb, mut ma, mut mb) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for &t in &times {
        sample_bound(skel, original, &a, t, &mut la);
        sample_bound(skel, changed, &b, t, &mut lb);
        model_in_place(skel, &la, &mut ma);
        model_in_place(skel, &lb, &mut mb);
        for (x, y) in ma.iter().zip(&mb) {
            let e = shell_error_sq(&shell_points(x, vertex_distance), &shell_points(y, vertex_distance));
            errors.push(e.sqrt());
        }
    }
    Ok(stats(skel, &times, &errors, threshold))
}

/// The number of keys in a clip (all tracks, all channels).
pub fn key_count(clip: &SkelClipIr) -> usize {
    clip.tracks.iter().map(|t| t.translation.len() + t.rotation.len() + t.scale.len()).sum()
}

// ---------------------------------------------------------------------------------------------
// Reduction

struct Reducer<'a> {
    skel: &'a SkeletonIr,
    /// Scratch: the descendants of the bone being changed, in skeleton order (parents first).
    members: Vec<usize>,
    /// Scratch: for each of `members`, where its parent's model is among the sample's new models:
    /// 0 for the bone being changed, `j + 1` for `members[j]`.
    member_parent: Vec<usize>,
    /// Scratch, one per bone: whether it is the changed bone or one of its descendants, and its
    /// place among the new models.
    in_sub: Vec<Option<usize>>,
    times: Vec<f64>,
    nb: usize,
    /// Original local transforms, `[s * nb + b]`.
    orig_local: Vec<Transform3>,
    /// Original shell points, `[s * nb + b]`.
    orig_pts: Vec<[[f64; 3]; 3]>,
    /// Local transforms of the clip as reduced so far.
    red_local: Vec<Transform3>,
    /// Model transforms of the clip as reduced so far.
    red_model: Vec<Transform3>,
    d: f64,
    bound_sq: f64,
    opts: ReduceOptions,
    /// Scratch: for the trial's samples, the bone's new local and the subtree's new models.
    new_local: Vec<Transform3>,
    new_model: Vec<Transform3>,
}

impl<'a> Reducer<'a> {
    /// Needs a skeleton whose parents come before their children (checked by [`bind_tracks`]).
    fn new(skel: &'a SkeletonIr, clip: &SkelClipIr, of_bone: &[Option<usize>], opts: &ReduceOptions) -> Self {
        let nb = skel.bones.len();
        let times = sample_times(clip);
        let mut orig_local = Vec::with_capacity(times.len() * nb);
        let mut orig_pts = Vec::with_capacity(times.len() * nb);
        let mut red_model = Vec::with_capacity(times.len() * nb);
        let (mut l, mut m) = (Vec::new(), Vec::new());
        for &t in &times {
            sample_bound(skel, clip, of_bone, t, &mut l);
            model_in_place(skel, &l, &mut m);
            orig_local.extend_from_slice(&l);
            orig_pts.extend(m.iter().map(|x| shell_points(x, opts.vertex_distance)));
            red_model.extend_from_slice(&m);
        }
        Self {
            skel,
            members: Vec::new(),
            member_parent: Vec::new(),
            in_sub: vec![None; nb],
            times,
            nb,
            red_local: orig_local.clone(),
            orig_local,
            orig_pts,
            red_model,
            d: opts.vertex_distance,
            bound_sq: opts.max_error_cm * opts.max_error_cm,
            opts: *opts,
            new_local: Vec::new(),
            new_model: Vec::new(),
        }
    }

    /// Sample indices with times strictly between `a` and `b`.
    fn between(&self, a: f64, b: f64) -> Range<usize> {
        let lo = self.times.partition_point(|&t| t <= a);
        let hi = self.times.partition_point(|&t| t < b);
        lo..hi.max(lo)
    }

    /// Whether the channel change (`value(t)` for channel `c` of bone `b` at the samples `range`)
    /// keeps the bone and its subtree within the bounds; applies it to the caches when it does.
    fn try_change<const N: usize>(
        &mut self,
        b: usize,
        c: Chan,
        range: Range<usize>,
        value: impl Fn(f64) -> [f64; N],
    ) -> bool {
        let nb = self.nb;
        let parent = self.skel.bones[b].parent;
        // The bone's descendants: bones after it whose parent is in the subtree.
        self.members.clear();
        self.member_parent.clear();
        self.in_sub[b] = Some(0);
        for (x, bone) in self.skel.bones.iter().enumerate().skip(b + 1) {
            if let Some(slot) = bone.parent.and_then(|p| self.in_sub[p]) {
                self.members.push(x);
                self.member_parent.push(slot);
                self.in_sub[x] = Some(self.members.len());
            }
        }
        self.in_sub[b] = None;
        for &x in &self.members {
            self.in_sub[x] = None;
        }
        let sub_len = self.members.len() + 1;
        let mut new_local = std::mem::take(&mut self.new_local);
        let mut new_model = std::mem::take(&mut self.new_model);
        new_local.clear();
        new_model.clear();
        let rot_tol = (self.opts.rotation_tolerance_deg.to_radians() * 0.5).min(std::f64::consts::FRAC_PI_2).cos();
        let mut ok = true;
        'samples: for s in range.clone() {
            let base = s * nb;
            let mut local = self.red_local[base + b];
            put(&mut local, c, &value(self.times[s]));
            // Local tolerances against the original channel.
            let o = &self.orig_local[base + b];
            let within = match c {
                Chan::T => {
                    let d: f64 = (0..3).map(|i| (local.translation[i] - o.translation[i]).powi(2)).sum();
                    d.sqrt() <= self.opts.position_tolerance
                }
                Chan::R => {
                    let dot: f64 = (0..4).map(|i| local.rotation[i] * o.rotation[i]).sum();
                    self.opts.rotation_tolerance_deg.is_infinite() || dot.abs() >= rot_tol
                }
                Chan::S => (0..3).all(|i| (local.scale[i] - o.scale[i]).abs() <= self.opts.scale_tolerance),
            };
            if !within {
                ok = false;
                break;
            }
            let m = match parent {
                Some(p) => compose(&self.red_model[base + p], &local),
                None => local,
            };
            if shell_error_sq(&shell_points(&m, self.d), &self.orig_pts[base + b]) > self.bound_sq {
                ok = false;
                break;
            }
            new_local.push(local);
            let start = new_model.len();
            new_model.push(m);
            for (&x, &pj) in self.members.iter().zip(&self.member_parent) {
                // The parent is `b` (0) or an earlier member, already computed.
                let mx = compose(&new_model[start + pj], &self.red_local[base + x]);
                if shell_error_sq(&shell_points(&mx, self.d), &self.orig_pts[base + x]) > self.bound_sq {
                    ok = false;
                    break 'samples;
                }
                new_model.push(mx);
            }
        }
        if ok {
            for (j, s) in range.enumerate() {
                let base = s * nb;
                self.red_local[base + b] = new_local[j];
                let models = &new_model[j * sub_len..(j + 1) * sub_len];
                self.red_model[base + b] = models[0];
                for (k, &x) in self.members.iter().enumerate() {
                    self.red_model[base + x] = models[k + 1];
                }
            }
        }
        self.new_local = new_local;
        self.new_model = new_model;
        ok
    }

    fn reduce_channel<const N: usize>(&mut self, b: usize, c: Chan, keys: &[ChannelKey<N>]) -> Vec<ChannelKey<N>> {
        let rot = c == Chan::R;
        let all = 0..self.times.len();
        let (Some(&first), Some(&last)) = (keys.first(), keys.last()) else { return Vec::new() };
        let bind: [f64; N] = bind_value(&self.skel.bones[b].bind, c);
        if self.try_change(b, c, all.clone(), |_| bind) {
            return Vec::new();
        }
        if keys.len() == 1 {
            return keys.to_vec();
        }
        if self.try_change(b, c, all, |_| first.value) {
            return vec![first];
        }
        let mut kept = vec![first];
        for i in 1..keys.len() - 1 {
            let p = *kept.last().unwrap_or(&first);
            let n = keys[i + 1];
            let range = self.between(p.time, n.time);
            if !self.try_change(b, c, range, |t| segment_value(&p, &n, t, rot)) {
                kept.push(keys[i]);
            }
        }
        kept.push(last);
        kept
    }
}

/// Removes keys from `clip` while every virtual vertex of every bone stays within
/// `opts.max_error_cm` of the original in model space (through the hierarchy), and every changed
/// channel within its local tolerance; returns the reduced clip and its error measured afresh by
/// [`measure_error`] (threshold `opts.max_error_cm`). See the [module documentation](self#reduction).
///
/// Channels that can be dropped are removed (the bone uses its bind value), channels that can be
/// held are collapsed to their first key, and tracks left without any keys are removed. Everything
/// but the tracks (name, duration, rate, loop flag, skeleton, origin) is copied as it is.
///
/// Time and memory: the original and current poses are cached at every sampled time (312
/// bytes per bone per sampled time: 35,070 samples, about 11 MB, for Idle's 70 bones × 501 times);
/// each tried change costs the samples it affects × the bone's subtree. The three Mixamo clips
/// take 0.01–0.15 s each in a release build.
///
/// Errors when the clip does not bind to the skeleton (see [`sample_local`]), a channel's times
/// are not strictly increasing, a key is not finite, or an option is out of range
/// (`max_error_cm` not finite or negative, `vertex_distance` not finite or ≤ 0, a tolerance NaN or
/// negative).
pub fn reduce(
    skel: &SkeletonIr,
    clip: &SkelClipIr,
    opts: &ReduceOptions,
) -> Result<(SkelClipIr, ErrorStats), HostError> {
    if !(opts.max_error_cm.is_finite() && opts.max_error_cm >= 0.0) {
        return Err(err(clip, format!("reduce: max error {} is not a finite number ≥ 0", opts.max_error_cm)));
    }
    if !(opts.vertex_distance.is_finite() && opts.vertex_distance > 0.0) {
        return Err(err(clip, format!("reduce: vertex distance {} is not a finite number > 0", opts.vertex_distance)));
    }
    for (name, v) in [
        ("position", opts.position_tolerance),
        ("rotation", opts.rotation_tolerance_deg),
        ("scale", opts.scale_tolerance),
    ] {
        if v.is_nan() || v < 0.0 {
            return Err(err(clip, format!("reduce: {name} tolerance {v} is not a number ≥ 0")));
        }
    }
    check_clip(clip)?;
    // The error model evaluates keys linearly: Step and Hermite channels are not reduced.
    if let Some(t) = clip.tracks.iter().find(|t| !t.is_linear()) {
        return Err(err(
            clip,
            format!(
                "reduce: bone {:?} has step or Hermite keys (interpolation {:?}): keyframe reduction handles \
                 linear channels only; build without --reduce",
                t.bone,
                t.interpolation.map(|i| i.name())
            ),
        ));
    }
    let of_bone = bind_tracks(skel, clip)?;
    let mut r = Reducer::new(skel, clip, &of_bone, opts);
    let mut tracks = clip.tracks.clone();
    for frac in PASSES {
        r.bound_sq = (frac * opts.max_error_cm).powi(2);
        for (b, ti) in of_bone.iter().enumerate() {
            let Some(track) = ti.and_then(|i| tracks.get_mut(i)) else { continue };
            track.translation = r.reduce_channel(b, Chan::T, &track.translation);
            track.rotation = r.reduce_channel(b, Chan::R, &track.rotation);
            track.scale = r.reduce_channel(b, Chan::S, &track.scale);
        }
    }
    let mut out = clip.clone();
    out.tracks = tracks
        .into_iter()
        .filter(|t| !(t.translation.is_empty() && t.rotation.is_empty() && t.scale.is_empty()))
        .collect();
    let stats = measure_error(skel, clip, &out, opts.vertex_distance, opts.max_error_cm)?;
    Ok((out, stats))
}

/// How many times the fallback of [`reduce_quantized`] tightens the bound before giving up on
/// reduction.
const QUANTIZED_TRIES: usize = 8;

/// The shares of the bound [`reduce_quantized`] tries for key removal (the rest is left to packed
/// rotation storage); it keeps the smallest result.
const KEY_SHARES: [f64; 3] = [0.6, 0.75, 0.9];

/// The passes of the bit-width search: pass `p` allows `k + (1 − k)·p` of the bound after key removal
/// at share `k` (as [`PASSES`], so a parent does not spend what its descendants need).
const WIDTH_PASSES: [f64; 3] = [0.5, 0.75, 1.0];

impl Reducer<'_> {
    /// Replaces the current state (locals and models at every sampled time) by `clip`'s.
    fn set_state(&mut self, clip: &SkelClipIr) -> Result<(), HostError> {
        let of_bone = bind_tracks(self.skel, clip)?;
        let (mut l, mut m) = (Vec::new(), Vec::new());
        for (s, &t) in self.times.iter().enumerate() {
            sample_bound(self.skel, clip, &of_bone, t, &mut l);
            model_in_place(self.skel, &l, &mut m);
            let at = s * self.nb..(s + 1) * self.nb;
            self.red_local[at.clone()].copy_from_slice(&l);
            self.red_model[at].copy_from_slice(&m);
        }
        Ok(())
    }

    /// Whether bone `b`'s rotation stored as `packed` (at `times`) keeps the bound; applies it
    /// when it does.
    fn try_packed(&mut self, b: usize, times: &[f64], packed: &PackedKeys) -> bool {
        let keys: Vec<ChannelKey<4>> =
            times.iter().zip(packed.values()).map(|(&time, value)| ChannelKey { time, value }).collect();
        let all = 0..self.times.len();
        self.try_change(b, Chan::R, all, |t| sample_channel(&keys, t, true).unwrap_or([0.0, 0.0, 0.0, 1.0]))
    }
}

/// A rotation channel's key times, values and dropped component.
type RotationKeys = (Vec<f64>, Vec<[f64; 4]>, u8);

/// `reduced` (a reduction of `clip`) with its rotation channels stored as packed smallest-three
/// keys ([`pack_rotation`]) at the fewest bits per component that keep every vertex within
/// `opts.max_error_cm` of `clip` (everything else as [`storage_model`] stores it); a channel
/// that does not fit the bound even at 16 bits is left as it is. `None` when the reduction itself
/// is over the bound as stored.
fn pack_rotations(
    skel: &SkeletonIr,
    clip: &SkelClipIr,
    reduced: &SkelClipIr,
    key_share: f64,
    opts: &ReduceOptions,
) -> Result<Option<SkelClipIr>, HostError> {
    let of_orig = bind_tracks(skel, clip)?;
    let of_red = bind_tracks(skel, reduced)?;
    let mut r = Reducer::new(skel, clip, &of_orig, opts);
    let stored = storage_model(reduced);
    if measure_error(skel, clip, &stored, opts.vertex_distance, opts.max_error_cm)?.max > opts.max_error_cm {
        return Ok(None);
    }
    r.set_state(&stored)?;
    let channels: Vec<Option<RotationKeys>> = of_red
        .iter()
        .map(|ti| {
            let track = ti.and_then(|i| reduced.tracks.get(i))?;
            if track.rotation.is_empty() {
                return None;
            }
            let values: Vec<[f64; 4]> = track.rotation.iter().map(|k| k.value).collect();
            let dropped = packed_dropped(&values);
            Some((track.rotation.iter().map(|k| k.time).collect(), values, dropped))
        })
        .collect();
    let attempt = |r: &mut Reducer<'_>, b: usize, bits: [u8; 3]| -> Option<PackedKeys> {
        let (times, values, dropped) = channels.get(b)?.as_ref()?;
        let p = pack_rotation(values, *dropped, bits)?;
        r.try_packed(b, times, &p).then_some(p)
    };
    // Every channel at 16 bits first (within the whole bound), so that no parent spends the
    // budget before its descendants are stored at all. A channel that does not fit even so (its
    // dropped component comes near 0, where reconstructing it is ill-conditioned) stays as it is:
    // the writer stores it 16-bit quantised or raw, as the state already models.
    r.bound_sq = opts.max_error_cm.powi(2);
    let mut chosen: Vec<Option<PackedKeys>> = vec![None; skel.bones.len()];
    for b in 0..skel.bones.len() {
        if channels[b].is_some() {
            chosen[b] = attempt(&mut r, b, [PACKED_MAX_BITS; 3]);
        }
    }
    for pass in WIDTH_PASSES {
        r.bound_sq = ((key_share + (1.0 - key_share) * pass) * opts.max_error_cm).powi(2);
        for (b, slot) in chosen.iter_mut().enumerate() {
            let Some(mut best) = slot.clone() else { continue };
            // The fewest uniform bits that pass (below the widest current one), by bisection;
            // then each component alone, one bit at a time. A passing trial is the new state.
            let (mut lo, mut hi) = (0u8, best.params.bits.iter().copied().max().unwrap_or(0));
            while lo < hi {
                let mid = (lo + hi) / 2;
                match attempt(&mut r, b, [mid; 3]) {
                    Some(p) => {
                        best = p;
                        hi = mid;
                    }
                    None => lo = mid + 1,
                }
            }
            for j in 0..3 {
                while best.params.bits[j] > 0 {
                    let mut bits = best.params.bits;
                    bits[j] -= 1;
                    match attempt(&mut r, b, bits) {
                        Some(p) => best = p,
                        None => break,
                    }
                }
            }
            *slot = Some(best);
        }
    }
    let mut out = reduced.clone();
    for (b, ti) in of_red.iter().enumerate() {
        let Some(track) = ti.and_then(|i| out.tracks.get_mut(i)) else { continue };
        if track.rotation.is_empty() {
            continue;
        }
        let Some(p) = &chosen[b] else { continue };
        for (k, v) in track.rotation.iter_mut().zip(p.values()) {
            k.value = v;
        }
    }
    Ok(Some(out))
}

/// How far (in grid steps) a key time may lie from a uniform grid for [`snap_to_grid`] to move it
/// there: a thousandth of a step (33 µs at 30 Hz; times printed to 6 significant digits, as
/// Mixamo's exports are, lie within 0.00015 steps of theirs).
pub const GRID_SNAP_STEPS: f64 = 1e-3;

/// `clip` with every key time, and its duration, moved to the uniform grid `k / rate` they all lie
/// within [`GRID_SNAP_STEPS`] of, and that rate; `None` when they do not (or the rate would be
/// over 65,535 per second, or a grid has over 65,536 entries). The rate is the nearest integer to
/// the inverse of the smallest gap between distinct key times. The blob writer stores such times
/// as a grid (format version 7) instead of a table of time words.
pub fn snap_to_grid(clip: &SkelClipIr) -> Option<(SkelClipIr, u32)> {
    let mut times: Vec<f64> = clip
        .tracks
        .iter()
        .flat_map(|t| {
            let tr = t.translation.iter().map(|k| k.time);
            tr.chain(t.rotation.iter().map(|k| k.time)).chain(t.scale.iter().map(|k| k.time)).collect::<Vec<_>>()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let gap = times.windows(2).map(|p| p[1] - p[0]).fold(f64::INFINITY, f64::min);
    let rate = (1.0 / gap).round();
    if !(1.0..=65_535.0).contains(&rate) {
        return None;
    }
    let snap = |t: f64| -> Option<f64> {
        let j = (t * rate).round();
        ((t * rate - j).abs() <= GRID_SNAP_STEPS && (0.0..65_536.0).contains(&j)).then_some(j / rate)
    };
    let duration = snap(clip.duration)?;
    let mut out = clip.clone();
    out.duration = duration;
    for t in &mut out.tracks {
        let keys = t.translation.iter_mut().map(|k| &mut k.time);
        let keys =
            keys.chain(t.rotation.iter_mut().map(|k| &mut k.time)).chain(t.scale.iter_mut().map(|k| &mut k.time));
        for time in keys {
            *time = snap(*time).filter(|&s| s <= duration)?;
        }
    }
    Some((out, rate as u32))
}

/// An estimate of a clip's stored bytes with `--quantize` (records, times, values), to compare
/// reductions.
fn stored_bytes(clip: &SkelClipIr) -> usize {
    // Key times: one index byte per key, or a bitmap over the clip's distinct times when smaller.
    let mut distinct: Vec<u64> = clip
        .tracks
        .iter()
        .flat_map(|t| {
            let times = t.translation.iter().map(|k| k.time).chain(t.scale.iter().map(|k| k.time));
            times.chain(t.rotation.iter().map(|k| k.time)).map(f64::to_bits).collect::<Vec<_>>()
        })
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    let times = |n: usize| n.min(distinct.len().div_ceil(8));
    // The time table: a grid's rate and length, or a word per distinct time.
    let mut bytes =
        if snap_to_grid(clip).is_some_and(|(c, _)| c.duration == clip.duration) { 8 } else { 4 * distinct.len() };
    for t in &clip.tracks {
        for n in [t.translation.len(), t.scale.len()] {
            if n > 0 {
                bytes += 16 + times(n) + if n >= QUANTIZE_MIN_KEYS { 6 * n + 24 } else { 12 * n };
            }
        }
        let values: Vec<[f64; 4]> = t.rotation.iter().map(|k| k.value).collect();
        let n = values.len();
        bytes += match recover_packed(&values) {
            Some(p) => 32 + times(n) + p.params.stream_len(n).unwrap_or(0),
            None if values.is_empty() => 0,
            None => 16 + times(n) + n * 8 + 32,
        };
    }
    bytes
}

/// [`reduce`] for a clip that will be stored quantised (`ossicle build --quantize`): the result's
/// error is measured on what the blob stores ([`storage_model`]: rotations as packed
/// smallest-three keys decoded exactly as the kernel decodes them, translations and scales of
/// [`QUANTIZE_MIN_KEYS`] keys or more 16-bit quantised), against `clip`, with threshold
/// `opts.max_error_cm`.
///
/// For each share of the bound in 0.6, 0.75, 0.9 it removes keys with [`reduce`] at that share,
/// then chooses each rotation channel's packed bit widths (bones parents first, in three passes
/// at ½, ¾ and all of the bound: the fewest uniform bits by bisection, then each component one
/// bit lower while it passes); every trial is checked, as in [`reduce`], at every sampled time
/// on the bone and its descendants against the original. It returns the smallest result whose
/// measured error is within the bound. Its rotation keys are the decoded packed values (exact
/// multiples of 2^-30, the dropped component ≥ 0), from which the blob writer recovers the same
/// packed encoding ([`recover_packed`]).
///
/// It does this for `clip` and, when its key times all lie within [`GRID_SNAP_STEPS`] of a
/// uniform grid, for `clip` with its times moved there ([`snap_to_grid`]: the writer then stores
/// the time table as a grid, 8 bytes instead of a word per time), keeping the smallest; the error
/// is always measured against `clip` at its own times, so the move counts against the bound.
///
/// When no share works it falls back to 16-bit storage of every channel: reduces with
/// `opts.max_error_cm`, tightened by 15 % while the [`quantize_clip`] model exceeds it (at most 8
/// tries), else returns `clip` itself, unreduced, with the error of its quantised version, which
/// may then exceed the bound: check [`ErrorStats::max`].
///
/// Errors as [`reduce`] does.
pub fn reduce_quantized(
    skel: &SkeletonIr,
    clip: &SkelClipIr,
    opts: &ReduceOptions,
) -> Result<(SkelClipIr, ErrorStats), HostError> {
    let bound = opts.max_error_cm;
    let mut best: Option<(usize, SkelClipIr, ErrorStats)> = None;
    let snapped = snap_to_grid(clip);
    let bases = std::iter::once(clip).chain(snapped.as_ref().map(|(c, _)| c));
    for (base, share) in bases.flat_map(|b| KEY_SHARES.map(|s| (b, s))) {
        let (r, _) = reduce(skel, base, &ReduceOptions { max_error_cm: bound * share, ..*opts })?;
        let Some(packed) = pack_rotations(skel, clip, &r, share, opts)? else { continue };
        let s = measure_error(skel, clip, &storage_model(&packed), opts.vertex_distance, bound)?;
        let size = stored_bytes(&packed);
        if s.max <= bound && best.as_ref().is_none_or(|(b, _, _)| size < *b) {
            best = Some((size, packed, s));
        }
    }
    if let Some((_, r, s)) = best {
        return Ok((r, s));
    }
    let mut tight = bound;
    for _ in 0..QUANTIZED_TRIES {
        let (r, _) = reduce(skel, clip, &ReduceOptions { max_error_cm: tight, ..*opts })?;
        let s = measure_error(skel, clip, &quantize_clip(&r), opts.vertex_distance, bound)?;
        if s.max <= bound {
            return Ok((r, s));
        }
        tight *= 0.85;
    }
    let s = measure_error(skel, clip, &quantize_clip(clip), opts.vertex_distance, bound)?;
    Ok((clip.clone(), s))
}

/// What `ossicle build --quantize` stores for `clip`, as values: a rotation channel whose keys
/// are packed values ([`recover_packed`] finds their encoding) as it is, every other channel of
/// [`QUANTIZE_MIN_KEYS`] keys or more through [`quantize_channel`] (the 16-bit model), shorter
/// channels as they are (stored raw).
pub fn storage_model(clip: &SkelClipIr) -> SkelClipIr {
    fn model<const N: usize>(keys: &mut Vec<ChannelKey<N>>) {
        if keys.len() >= QUANTIZE_MIN_KEYS {
            *keys = quantize_keys(keys);
        }
    }
    let mut out = clip.clone();
    for t in &mut out.tracks {
        model(&mut t.translation);
        model(&mut t.scale);
        let values: Vec<[f64; 4]> = t.rotation.iter().map(|k| k.value).collect();
        if recover_packed(&values).is_none() {
            model(&mut t.rotation);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Quantisation

/// A channel quantised to 16 bits per component over its own range: component `i` of key `k` is
/// `min[i] + q[k][i] · extent[i] / 65535` (see [`Quantized::dequantize_key`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Quantized<const N: usize> {
    /// The smallest value of each component.
    pub min: [f64; N],
    /// Largest minus smallest value of each component (0 for a constant component).
    pub extent: [f64; N],
    /// The quantised keys, one per input value.
    pub q: Vec<[u16; N]>,
}

impl<const N: usize> Quantized<N> {
    /// The value of quantised key `q`: `min + q · extent / 65535` per component (`min` when the
    /// extent is 0).
    pub fn dequantize_key(&self, q: &[u16; N]) -> [f64; N] {
        let mut out = self.min;
        for i in 0..N {
            if self.extent[i] != 0.0 {
                out[i] = self.min[i] + f64::from(q[i]) * self.extent[i] / f64::from(QUANT_MAX);
            }
        }
        out
    }

    /// Every key dequantised, in order.
    pub fn dequantize(&self) -> Vec<[f64; N]> {
        self.q.iter().map(|q| self.dequantize_key(q)).collect()
    }
}

/// Quantises a channel's values to 16 bits per component over each component's own range:
/// `min` = smallest, `extent` = largest − smallest, `q = round((v − min) / extent · 65535)`
/// (to nearest, clamped to `0 ..= 65535`; 0 when the extent is 0). Dequantising
/// ([`Quantized::dequantize_key`]) gives `min + q · extent / 65535`, within `extent / 131070` of
/// the input (plus `f64` rounding). An empty input gives zero ranges and no keys. Non-finite inputs
/// do not panic but give meaningless results (the IR's values are finite).
pub fn quantize_channel<const N: usize>(values: &[[f64; N]]) -> Quantized<N> {
    let mut min = [0.0; N];
    let mut extent = [0.0; N];
    if let Some(first) = values.first() {
        min = *first;
        let mut max = *first;
        for v in values {
            for i in 0..N {
                min[i] = min[i].min(v[i]);
                max[i] = max[i].max(v[i]);
            }
        }
        for i in 0..N {
            extent[i] = max[i] - min[i];
        }
    }
    let scale = f64::from(QUANT_MAX);
    let q = values
        .iter()
        .map(|v| {
            let mut out = [0u16; N];
            for i in 0..N {
                if extent[i] != 0.0 {
                    // `as` saturates (and maps NaN to 0); the clamp keeps the intent visible.
                    out[i] = ((v[i] - min[i]) / extent[i] * scale).round().clamp(0.0, scale) as u16;
                }
            }
            out
        })
        .collect();
    Quantized { min, extent, q }
}

fn quantize_keys<const N: usize>(keys: &[ChannelKey<N>]) -> Vec<ChannelKey<N>> {
    let values: Vec<[f64; N]> = keys.iter().map(|k| k.value).collect();
    let quant = quantize_channel(&values);
    keys.iter().zip(quant.dequantize()).map(|(k, value)| ChannelKey { time: k.time, value }).collect()
}

/// `clip` with every channel quantised by [`quantize_channel`] and dequantised again (key times
/// unchanged, quaternions not renormalised), to measure the effect of 16-bit storage with
/// [`measure_error`].
pub fn quantize_clip(clip: &SkelClipIr) -> SkelClipIr {
    let mut out = clip.clone();
    for t in &mut out.tracks {
        t.translation = quantize_keys(&t.translation);
        t.rotation = quantize_keys(&t.rotation);
        t.scale = quantize_keys(&t.scale);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Packed rotations

/// A rotation channel as packed smallest-three keys (format version 6,
/// `ossicle_format::skeleton::PackedRotation`): the parameters and each key's quantised stored
/// components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedKeys {
    /// Dropped component, bit widths, ranges.
    pub params: PackedRotation,
    /// Per key, the quantised stored components.
    pub q: Vec<[u32; 3]>,
}

impl PackedKeys {
    /// Every key decoded exactly as the kernel decodes it (`PackedRotation::decode`, units of
    /// 2^-30), as `f64` (exact).
    pub fn values(&self) -> Vec<[f64; 4]> {
        let one = PACKED_VALUE_ONE as f64;
        self.q.iter().map(|&q| self.params.decode(q).map(|v| f64::from(v) / one)).collect()
    }

    /// The keys' bit stream (key `k` at bits `k·K ..`, component 0 lowest).
    pub fn stream(&self) -> Vec<u8> {
        let n = self.q.len();
        let mut out = vec![0u8; self.params.stream_len(n).unwrap_or(0)];
        let mut at = 0usize;
        for q in &self.q {
            for (&v, &b) in q.iter().zip(&self.params.bits) {
                for i in 0..usize::from(b) {
                    if v >> i & 1 == 1 {
                        out[(at + i) / 8] |= 1 << ((at + i) % 8);
                    }
                }
                at += usize::from(b);
            }
        }
        out
    }
}

/// The stored components' indices for dropped component `d`.
fn stored_of(d: u8) -> [usize; 3] {
    match d {
        0 => [1, 2, 3],
        1 => [0, 2, 3],
        2 => [0, 1, 3],
        _ => [0, 1, 2],
    }
}

/// The component to drop from a rotation channel: the one whose smallest magnitude over the keys
/// is largest (the first of equals), so the reconstructed one is never small.
pub fn packed_dropped(values: &[[f64; 4]]) -> u8 {
    let mut best = (3u8, f64::NEG_INFINITY);
    for i in 0..4u8 {
        let m = values.iter().map(|v| v[usize::from(i)].abs()).fold(f64::INFINITY, f64::min);
        if m > best.1 {
            best = (i, m);
        }
    }
    best.0
}

/// The quantised value of `x` (units of 2^-30) for component `j` of `p`: the `q` whose decoded
/// value is nearest.
fn nearest_q(p: &PackedRotation, j: usize, x: f64) -> u32 {
    let bits = p.bits[j];
    if bits == 0 {
        return 0;
    }
    let d = (1u64 << bits) - 1;
    let base = f64::from(p.min[j]) * f64::from(PACKED_RANGE_ONE);
    let ext = f64::from(p.extent[j]) * f64::from(PACKED_RANGE_ONE);
    let guess = if ext > 0.0 { ((x - base) / ext * d as f64).round().clamp(0.0, d as f64) as u32 } else { 0 };
    [guess.saturating_sub(1), guess, (guess + 1).min(d as u32)]
        .into_iter()
        .min_by(|&a, &b| (p.component(j, a) as f64 - x).abs().total_cmp(&(p.component(j, b) as f64 - x).abs()))
        .unwrap_or(guess)
}

/// A rotation channel packed with dropped component `dropped` and `bits` per stored component:
/// each key negated when its dropped component is negative (the same rotation), each stored
/// component's range the smallest of whole 2^-15 units holding its values (a 0-bit component is
/// the unit nearest its mid-range), each value the nearest decodable one. `None` when a range does
/// not fit the parameters, or when the decoded keys would not give back these parameters under
/// [`recover_packed`] (the writer's recovery), so a caller can try other widths.
pub fn pack_rotation(values: &[[f64; 4]], dropped: u8, bits: [u8; 3]) -> Option<PackedKeys> {
    let d = usize::from(dropped & 3);
    let one = PACKED_VALUE_ONE as f64;
    let unit = f64::from(PACKED_RANGE_ONE);
    let aligned: Vec<[f64; 4]> =
        values.iter().map(|v| if v[d] < 0.0 { v.map(|x| -x * one) } else { v.map(|x| x * one) }).collect();
    let stored = stored_of(dropped);
    let mut p = PackedRotation { dropped: dropped & 3, bits, ..PackedRotation::default() };
    for (j, &i) in stored.iter().enumerate() {
        let lo = aligned.iter().map(|v| v[i]).fold(f64::INFINITY, f64::min) / unit;
        let hi = aligned.iter().map(|v| v[i]).fold(f64::NEG_INFINITY, f64::max) / unit;
        // `lo`, `hi` in units of 2^-15.
        let (min, ext) =
            if bits[j] == 0 { (((lo + hi) / 2.0).round(), 0.0) } else { (lo.floor(), hi.ceil() - lo.floor()) };
        if !(-32768.0..=32767.0).contains(&min) || !(0.0..=65535.0).contains(&ext) || min + ext > unit {
            return None;
        }
        p.min[j] = min as i16;
        p.extent[j] = ext as u16;
    }
    p.check().ok()?;
    let mut q: Vec<[u32; 3]> = aligned.iter().map(|v| [0, 1, 2].map(|j| nearest_q(&p, j, v[stored[j]]))).collect();
    // Keep the range recoverable: the key with the smallest value decodes below the next unit up,
    // the largest above the unit below the top.
    for (j, &i) in stored.iter().enumerate() {
        if bits[j] == 0 {
            continue;
        }
        let top = (1u32 << bits[j]) - 1;
        let (lo_unit, hi_unit) = (i64::from(p.min[j]), i64::from(p.min[j]) + i64::from(p.extent[j]));
        let unit_i = i64::from(PACKED_RANGE_ONE);
        let argmin = (0..aligned.len()).min_by(|&a, &b| aligned[a][i].total_cmp(&aligned[b][i]));
        let argmax = (0..aligned.len()).max_by(|&a, &b| aligned[a][i].total_cmp(&aligned[b][i]));
        if let Some(k) = argmin {
            while q[k][j] > 0 && p.component(j, q[k][j]) >= (lo_unit + 1) * unit_i {
                q[k][j] -= 1;
            }
        }
        if let Some(k) = argmax {
            while q[k][j] < top && p.component(j, q[k][j]) <= (hi_unit - 1) * unit_i {
                q[k][j] += 1;
            }
        }
    }
    let packed = PackedKeys { params: p, q };
    recover_packed(&packed.values())?;
    Some(packed)
}

/// Finds the packed encoding whose decoded keys are exactly `values` (as [`PackedKeys::values`]
/// gives them: multiples of 2^-30, the dropped component ≥ 0), with the fewest bits per key;
/// `None` when there is none. Each stored component's range is the smallest of whole 2^-15 units
/// holding its values, its width the fewest bits that reproduce them. This is how the blob writer
/// recognises a channel [`reduce_quantized`] packed.
pub fn recover_packed(values: &[[f64; 4]]) -> Option<PackedKeys> {
    if values.is_empty() {
        return None;
    }
    let one = PACKED_VALUE_ONE as f64;
    let mut ints: Vec<[i64; 4]> = Vec::with_capacity(values.len());
    for v in values {
        let mut out = [0i64; 4];
        for (o, &x) in out.iter_mut().zip(v) {
            let s = x * one;
            if s.fract() != 0.0 || s.abs() > one {
                return None;
            }
            *o = s as i64;
        }
        ints.push(out);
    }
    let unit = i64::from(PACKED_RANGE_ONE);
    let mut best: Option<PackedKeys> = None;
    'drop: for dropped in 0..4u8 {
        let d = usize::from(dropped);
        if ints.iter().any(|v| v[d] < 0) {
            continue;
        }
        let stored = stored_of(dropped);
        let mut p = PackedRotation { dropped, ..PackedRotation::default() };
        let mut q = vec![[0u32; 3]; ints.len()];
        for (j, &i) in stored.iter().enumerate() {
            let lo = ints.iter().map(|v| v[i]).min().unwrap_or(0);
            let hi = ints.iter().map(|v| v[i]).max().unwrap_or(0);
            if lo == hi && lo.rem_euclid(unit) == 0 {
                let Ok(min) = i16::try_from(lo.div_euclid(unit)) else { continue 'drop };
                p.min[j] = min;
                continue;
            }
            let (min, max) = (lo.div_euclid(unit), (hi + unit - 1).div_euclid(unit));
            let (Ok(min), Ok(ext)) = (i16::try_from(min), u16::try_from(max - min)) else { continue 'drop };
            p.min[j] = min;
            p.extent[j] = ext;
            let mut found = false;
            for bits in 1..=PACKED_MAX_BITS {
                p.bits[j] = bits;
                if ints.iter().zip(q.iter_mut()).all(|(v, qk)| {
                    qk[j] = nearest_q(&p, j, v[i] as f64);
                    p.component(j, qk[j]) == v[i]
                }) {
                    found = true;
                    break;
                }
            }
            if !found {
                continue 'drop;
            }
        }
        if p.check().is_err() {
            continue;
        }
        if !ints.iter().zip(&q).all(|(v, &qk)| p.decode(qk).iter().zip(v).all(|(&a, &b)| i64::from(a) == b)) {
            continue;
        }
        if best.as_ref().is_none_or(|b| p.key_bits() < b.params.key_bits()) {
            best = Some(PackedKeys { params: p, q });
        }
    }
    best
}
