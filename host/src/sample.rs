//! `ossicle sample`: a skeletal clip evaluated by the kernel at given times, as JSON.
//!
//! The document's shape is stable (users script it):
//!
//! ```text
//! {"clip": NAME, "space": "local"|"model", "samples": [
//!   {"time": T, "bones": [{"name": BONE, "translation": [x, y, z], "rotation": [x, y, z, w], "scale": [x, y, z]}, …]}, …]}
//! ```
//!
//! with every bone of the clip's skeleton in skeleton order. 2D skeletons give `"translation": [x, y]`,
//! `"angle"` in degrees (counter-clockwise) and `"scale": [x, y]`. Numbers are the kernel's values
//! printed with the fewest digits that read back to the same `f32` or Q16.16 value (angles are
//! converted to degrees in f64).
//!
//! The pose is the kernel's: [`SamplingJob`] at each time in the order given (one sampling context,
//! so the cursors move as they would in a game), then for `model` space [`LocalToModelJob`] from the
//! identity. Times within `[0, duration]` are sampled as they are (`duration` itself gives the last
//! keys, in a looping clip too); a looping clip wraps times outside that into `[0, duration)`, a
//! non-looping one clamps them.

use ossicle::math::{Transform2, Transform3};
use ossicle::skeleton::{
    Joint, LocalToModelJob, RotationInterp, SamplingContext, SamplingJob, SkelClipSource, SkeletonSource,
};
use ossicle::Scalar;
use serde_json::{json, Map, Number, Value};

/// The most bones `ossicle sample` evaluates (the kernel's sampling context is sized at compile
/// time; the host's is this big).
pub const MAX_BONES: usize = 4096;

/// Which space poses are reported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Each bone relative to its parent.
    Local,
    /// Each bone relative to the skeleton's root space.
    Model,
}

impl Space {
    /// The name the JSON uses.
    pub fn name(self) -> &'static str {
        match self {
            Space::Local => "local",
            Space::Model => "model",
        }
    }
}

/// A scalar as a JSON number with the fewest digits that read back to the same value.
fn num<S: Scalar>(v: S) -> Value {
    let mut text = String::new();
    if v.write_decimal(&mut text).is_err() {
        return Value::Null;
    }
    text.parse::<f64>().ok().and_then(Number::from_f64).map_or(Value::Null, Value::Number)
}

fn f64num(v: f64) -> Value {
    Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// How one joint type prints.
pub trait JointJson<S: Scalar>: Joint<S> {
    /// Adds this joint's fields to a bone object.
    fn fields(&self, bone: &mut Map<String, Value>);
}

impl<S: Scalar> JointJson<S> for Transform3<S> {
    fn fields(&self, bone: &mut Map<String, Value>) {
        let (t, q, s) = (self.translation, self.rotation, self.scale);
        bone.insert("translation".into(), json!([num(t.x), num(t.y), num(t.z)]));
        bone.insert("rotation".into(), json!([num(q.x), num(q.y), num(q.z), num(q.w)]));
        bone.insert("scale".into(), json!([num(s.x), num(s.y), num(s.z)]));
    }
}

impl<S: Scalar> JointJson<S> for Transform2<S> {
    fn fields(&self, bone: &mut Map<String, Value>) {
        let (t, s) = (self.translation, self.scale);
        bone.insert("translation".into(), json!([num(t.x), num(t.y)]));
        bone.insert("angle".into(), f64num(self.angle.to_f64().to_degrees()));
        bone.insert("scale".into(), json!([num(s.x), num(s.y)]));
    }
}

/// Samples `clip` on `skeleton` at each of `times` (seconds) and returns the JSON document.
/// `names` are the skeleton's bone names in order. Errors say what is wrong (too many bones, a
/// job refusing its inputs).
pub fn sample<S, J, K, C>(
    clip_name: &str,
    skeleton: &K,
    clip: &C,
    names: &[String],
    times: &[f64],
    space: Space,
) -> Result<Value, String>
where
    S: Scalar,
    J: JointJson<S>,
    K: SkeletonSource<S, J>,
    C: SkelClipSource<S>,
{
    let bones = skeleton.bone_count();
    if bones > MAX_BONES {
        return Err(format!("the skeleton has {bones} bones; `ossicle sample` evaluates at most {MAX_BONES}"));
    }
    if names.len() != bones {
        return Err(format!("{} bone names for {bones} bones", names.len()));
    }
    // A time the blob's scalars cannot hold would be sampled at the nearest one they can (Q16.16
    // saturates at ±32768 s) or at a non-finite time (f32): refused instead, naming it.
    let (lo, hi) = (S::MIN.to_f64(), S::MAX.to_f64());
    if let Some((i, t)) = times.iter().enumerate().find(|(_, t)| !(lo..=hi).contains(*t)) {
        let kind = if S::ENCODING == ossicle::scalar::ScalarEncoding::Q16_16 { "Q16.16" } else { "f32" };
        let show = |v: f64| if v.abs() >= 1e9 { format!("{v:e}") } else { format!("{v}") };
        return Err(format!(
            "--at: time {} ({} s) is outside what the blob's {kind} scalars hold ({} to {} s)",
            i + 1,
            show(*t),
            show(lo),
            show(hi)
        ));
    }
    let mut ctx = Box::new(SamplingContext::<MAX_BONES>::new());
    let mut local = vec![J::IDENTITY; bones];
    let mut model = vec![J::IDENTITY; bones];
    let mut samples = Vec::with_capacity(times.len());
    for &time in times {
        let t = S::from_f64(time);
        let job = SamplingJob { skeleton, clip, time: t, rotation: RotationInterp::Nlerp, lod: u8::MAX };
        job.run(&mut *ctx, &mut local).map_err(|e| format!("sampling at {time} s: {e}"))?;
        let pose = match space {
            Space::Local => &local,
            Space::Model => {
                LocalToModelJob::new(skeleton)
                    .run(&local, &mut model)
                    .map_err(|e| format!("local-to-model at {time} s: {e}"))?;
                &model
            }
        };
        let bones: Vec<Value> = pose
            .iter()
            .zip(names)
            .map(|(j, name)| {
                let mut bone = Map::new();
                bone.insert("name".into(), Value::String(name.clone()));
                j.fields(&mut bone);
                Value::Object(bone)
            })
            .collect();
        samples.push(json!({"time": num(t), "bones": bones}));
    }
    Ok(json!({"clip": clip_name, "space": space.name(), "samples": samples}))
}

/// Parses `--at T1,T2,…`: finite numbers of seconds, at least one.
pub fn parse_times(text: &str) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for (i, part) in text.split(',').enumerate() {
        let p = part.trim();
        match p.parse::<f64>() {
            Ok(t) if t.is_finite() => out.push(t),
            _ => return Err(format!("--at: time {} is {p:?}, not a finite number of seconds", i + 1)),
        }
    }
    Ok(out)
}

/// `ossicle sample BLOB --clip NAME --at T1,T2,… --space local|model`: loads the blob, finds the
/// clip and its skeleton and samples it in the blob's scalar type. Errors name the blob.
pub fn sample_blob(
    blob_path: &std::path::Path,
    bytes: &[u8],
    clip_name: &str,
    times: &[f64],
    space: Space,
) -> Result<Value, crate::HostError> {
    use crate::HostError;
    use ossicle::skeleton::Dimension;
    use ossicle::Q16;
    use ossicle_format::ScalarEncoding;
    let asset = crate::inspect::load(blob_path, bytes)?;
    let clip = asset.skel_clip_named(clip_name).ok_or_else(|| {
        let names: Vec<&str> = asset.skel_clips().map(|c| c.name()).collect();
        HostError::file(
            blob_path,
            format!(
                "no skeletal clip {clip_name:?} in the blob (clips: {})",
                if names.is_empty() { "none".into() } else { names.join(", ") }
            ),
        )
    })?;
    let skeleton = asset.skeleton_of(&clip).ok_or_else(|| {
        HostError::file(
            blob_path,
            format!("clip {clip_name:?}: its skeleton {:?} is not in the blob", clip.skeleton_name()),
        )
    })?;
    let names: Vec<String> =
        (0..skeleton.bone_count()).map(|i| skeleton.bone_name(i).unwrap_or_default().to_string()).collect();
    let err = |e: String| HostError::file(blob_path, format!("clip {clip_name:?}: {e}"));
    match (asset.encoding(), skeleton.dimension()) {
        (ScalarEncoding::F32, Dimension::D3) => {
            sample::<f32, Transform3<f32>, _, _>(clip_name, &skeleton, &clip, &names, times, space).map_err(err)
        }
        (ScalarEncoding::F32, Dimension::D2) => {
            sample::<f32, Transform2<f32>, _, _>(clip_name, &skeleton, &clip, &names, times, space).map_err(err)
        }
        (ScalarEncoding::Q16_16, Dimension::D3) => {
            sample::<Q16, Transform3<Q16>, _, _>(clip_name, &skeleton, &clip, &names, times, space).map_err(err)
        }
        (ScalarEncoding::Q16_16, Dimension::D2) => {
            sample::<Q16, Transform2<Q16>, _, _>(clip_name, &skeleton, &clip, &names, times, space).map_err(err)
        }
    }
}
