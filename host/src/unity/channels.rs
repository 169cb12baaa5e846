//! Transform curves grouped into per-object channels (a step towards phase 2, which turns them into
//! skeletal clip channels): each Transform binding's component curves become one channel of vector
//! keys at the union of the components' key times, with each component's Hermite tangents.
//!
//! A component without a key at one of those times is evaluated there ([`Curve::evaluate`] and
//! [`Curve::derivative`]): splitting a cubic Hermite segment at an inner time and keying the value
//! and derivative there leaves the curve unchanged, and a stepped segment stays stepped (the new
//! key's out-slope is +inf). A component the clip does not animate takes the caller's default
//! value (the bind pose) with zero slopes. Euler channels can be sampled into quaternion keys
//! ([`euler_to_rotation_keys`]).
//!
//! ```
//! use ossicle_host::unity::channels::transform_channels;
//! use ossicle_host::unity::typetree;
//! let json = r#"{"m_Name": "c", "m_MuscleClip": {"m_StartTime": 0, "m_StopTime": 1,
//!   "m_Clip": {"m_StreamedClip": {"data": [], "curveCount": 0},
//!              "m_DenseClip": {"m_FrameCount": 0, "m_CurveCount": 0, "m_SampleRate": 30,
//!                              "m_BeginTime": 0, "m_SampleArray": []},
//!              "m_ConstantClip": {"data": [1, 2, 3]}}},
//!   "m_ClipBindingConstant": {"genericBindings": [{"path": 7, "attribute": 1, "typeID": 4,
//!     "customType": 0, "isPPtrCurve": 0}], "pptrCurveMapping": []}}"#;
//! let clip = typetree::read_clip_text(json).unwrap();
//! let ch = transform_channels(&clip, |_, _, _| 0.0);
//! assert_eq!(ch[0].path, 7);
//! assert_eq!(ch[0].translation[1].value, [1.0, 2.0, 3.0]);
//! ```

use super::bindings::{euler_to_quat, BindingKind, RotationOrder};
use super::{Clip, Curve};

/// The most samples [`euler_to_rotation_keys`] takes.
pub const MAX_SAMPLES: usize = 1 << 20;

/// A key of a vector channel: per component a value and Hermite slopes (`+inf` out-slope = step).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorKey<const N: usize> {
    /// Seconds.
    pub time: f64,
    /// Per component.
    pub value: [f64; N],
    /// Per component.
    pub in_slope: [f64; N],
    /// Per component.
    pub out_slope: [f64; N],
}

/// The Transform channels of one animated object (path hash).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransformChannels {
    /// The path hash.
    pub path: u32,
    /// Local position keys (empty when not animated).
    pub translation: Vec<VectorKey<3>>,
    /// Local rotation quaternion keys x, y, z, w (empty when not animated).
    pub rotation: Vec<VectorKey<4>>,
    /// Local scale keys.
    pub scale: Vec<VectorKey<3>>,
    /// Euler angle keys in degrees, with their rotation order.
    pub euler: Option<(RotationOrder, Vec<VectorKey<3>>)>,
}

impl Curve {
    /// The curve's derivative at `t`: the slope of [`Curve::evaluate`]'s curve there, 0 outside the
    /// keys and inside a step (and where it overflows f64), a key's out-slope at that key. `None`
    /// without keys.
    pub fn derivative(&self, t: f64) -> Option<f64> {
        let first = self.keys.first()?;
        let last = self.keys.last()?;
        if t < first.time || t > last.time {
            return Some(0.0);
        }
        if let Some(k) = self.keys.iter().find(|k| k.time == t) {
            return Some(k.out_slope);
        }
        let i = self.keys.partition_point(|k| k.time <= t);
        let (a, b) = (self.keys.get(i.checked_sub(1)?)?, self.keys.get(i)?);
        if !a.out_slope.is_finite() || !b.in_slope.is_finite() {
            return Some(0.0);
        }
        let h = b.time - a.time;
        let s = (t - a.time) / h;
        let d00 = 6.0 * s * s - 6.0 * s;
        let d10 = 3.0 * s * s - 4.0 * s + 1.0;
        let d01 = -d00;
        let d11 = 3.0 * s * s - 2.0 * s;
        let d = (d00 * a.value + d01 * b.value) / h + d10 * a.out_slope + d11 * b.in_slope;
        Some(if d.is_finite() { d } else { 0.0 })
    }

    /// The key this curve has at `t` as (value, in-slope, out-slope), or the curve split there.
    fn key_at(&self, t: f64) -> (f64, f64, f64) {
        if let Some(k) = self.keys.iter().find(|k| k.time == t) {
            return (k.value, k.in_slope, k.out_slope);
        }
        let value = self.evaluate(t).unwrap_or(0.0);
        // Inside a step the split key continues the step.
        let i = self.keys.partition_point(|k| k.time <= t);
        let stepped = match (i.checked_sub(1).and_then(|j| self.keys.get(j)), self.keys.get(i)) {
            (Some(a), Some(b)) => !a.out_slope.is_finite() || !b.in_slope.is_finite(),
            _ => false,
        };
        if stepped {
            (value, 0.0, f64::INFINITY)
        } else {
            let d = self.derivative(t).unwrap_or(0.0);
            (value, d, d)
        }
    }
}

/// Merges component curves (`None` = not animated: `default(component)`) into vector keys.
fn merge<const N: usize>(curves: [Option<&Curve>; N], default: impl Fn(usize) -> f64) -> Vec<VectorKey<N>> {
    let mut times: Vec<f64> = curves.iter().flatten().flat_map(|c| c.keys.iter().map(|k| k.time)).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
        .into_iter()
        .map(|time| {
            let mut k = VectorKey { time, value: [0.0; N], in_slope: [0.0; N], out_slope: [0.0; N] };
            for (c, curve) in curves.iter().enumerate() {
                let (v, i, o) = match curve {
                    Some(curve) => curve.key_at(time),
                    None => (default(c), 0.0, 0.0),
                };
                k.value[c] = v;
                k.in_slope[c] = i;
                k.out_slope[c] = o;
            }
            k
        })
        .collect()
}

/// Groups a clip's Transform curves by path into channels (in order of first appearance).
/// `default(path, attribute, component)` gives the value of a component the clip does not animate
/// (attribute 1 position, 2 rotation, 3 scale, 4 Euler).
pub fn transform_channels(clip: &Clip, default: impl Fn(u32, u32, usize) -> f64) -> Vec<TransformChannels> {
    let mut paths: Vec<u32> = Vec::new();
    for c in &clip.curves {
        let transform = matches!(
            c.binding.kind,
            BindingKind::Position | BindingKind::Rotation | BindingKind::Scale | BindingKind::Euler(_)
        );
        if transform && !paths.contains(&c.binding.path) {
            paths.push(c.binding.path);
        }
    }
    paths
        .into_iter()
        .map(|path| {
            let find = |attribute: u32, component: usize| {
                clip.curves.iter().find(|c| {
                    c.binding.path == path
                        && c.binding.type_id == super::bindings::TRANSFORM
                        && c.binding.attribute == attribute
                        && usize::from(c.binding.component) == component
                })
            };
            let any = |attribute: u32, n: usize| (0..n).any(|c| find(attribute, c).is_some());
            let mut ch = TransformChannels { path, ..TransformChannels::default() };
            if any(1, 3) {
                ch.translation = merge([find(1, 0), find(1, 1), find(1, 2)], |c| default(path, 1, c));
            }
            if any(2, 4) {
                ch.rotation = merge([find(2, 0), find(2, 1), find(2, 2), find(2, 3)], |c| default(path, 2, c));
            }
            if any(3, 3) {
                ch.scale = merge([find(3, 0), find(3, 1), find(3, 2)], |c| default(path, 3, c));
            }
            if any(4, 3) {
                let order = (0..3)
                    .find_map(|c| match find(4, c).map(|c| c.binding.kind) {
                        Some(BindingKind::Euler(o)) => Some(o),
                        _ => None,
                    })
                    .unwrap_or(RotationOrder::Zxy);
                ch.euler = Some((order, merge([find(4, 0), find(4, 1), find(4, 2)], |c| default(path, 4, c))));
            }
            ch
        })
        .collect()
}

/// Euler keys (degrees) sampled into quaternion keys: at every key time and every `1/sample_rate`
/// seconds between, each angle evaluated on its Hermite segment, converted with the rotation order,
/// kept in one hemisphere (each quaternion the sign nearer the previous one), slopes the secants
/// between samples (piecewise linear; a stepped Euler segment gives a stepped quaternion segment).
/// A non-positive or non-finite `sample_rate` samples at the keys only; at most [`MAX_SAMPLES`]
/// samples are taken in all (later segments get fewer).
pub fn euler_to_rotation_keys(keys: &[VectorKey<3>], order: RotationOrder, sample_rate: f64) -> Vec<VectorKey<4>> {
    let mut times: Vec<f64> = keys.iter().map(|k| k.time).collect();
    if sample_rate.is_finite() && sample_rate > 0.0 {
        let mut budget = MAX_SAMPLES.saturating_sub(times.len());
        for w in keys.windows(2) {
            let (a, b) = (w[0].time, w[1].time);
            let n = ((b - a) * sample_rate).ceil().min(budget as f64 + 1.0).max(1.0) as usize;
            budget = budget.saturating_sub(n - 1);
            times.extend((1..n).map(|i| a + (b - a) * i as f64 / n as f64));
        }
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    // Each component as a curve, to evaluate between keys.
    let component = |c: usize| -> Vec<super::Key> {
        keys.iter()
            .map(|k| super::Key { time: k.time, value: k.value[c], in_slope: k.in_slope[c], out_slope: k.out_slope[c] })
            .collect()
    };
    let comps: Vec<Vec<super::Key>> = (0..3).map(component).collect();
    let eval = |c: usize, t: f64| -> f64 {
        let curve = Curve {
            index: 0,
            block: super::Block::Editor,
            binding: super::Binding {
                path: 0,
                type_id: 4,
                attribute: 4,
                component: c as u8,
                custom_type: 0,
                kind: BindingKind::Euler(order),
                generic_index: 0,
            },
            keys: comps.get(c).cloned().unwrap_or_default(),
            modes: Vec::new(),
        };
        curve.evaluate(t).unwrap_or(0.0)
    };
    let stepped_at = |t: f64| -> bool {
        let i = keys.partition_point(|k| k.time <= t);
        match (i.checked_sub(1).and_then(|j| keys.get(j)), keys.get(i)) {
            (Some(a), Some(b)) => (0..3).any(|c| !a.out_slope[c].is_finite() || !b.in_slope[c].is_finite()),
            _ => false,
        }
    };
    let mut out: Vec<VectorKey<4>> = Vec::with_capacity(times.len());
    for t in times {
        let mut q = euler_to_quat([eval(0, t), eval(1, t), eval(2, t)], order);
        if let Some(prev) = out.last() {
            let dot: f64 = q.iter().zip(&prev.value).map(|(a, b)| a * b).sum();
            if dot < 0.0 {
                q = q.map(|c| -c);
            }
        }
        out.push(VectorKey { time: t, value: q, in_slope: [0.0; 4], out_slope: [0.0; 4] });
    }
    for i in 1..out.len() {
        let (a, b) = (out[i - 1], out[i]);
        let stepped = stepped_at(a.time);
        for c in 0..4 {
            let secant = (b.value[c] - a.value[c]) / (b.time - a.time);
            out[i - 1].out_slope[c] = if stepped { f64::INFINITY } else { secant };
            out[i].in_slope[c] = if stepped { 0.0 } else { secant };
        }
    }
    out
}
