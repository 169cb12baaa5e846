//! Type-tree JSON dumps (UnityPy `read_typetree()`): AnimationClips, AnimatorControllers, `m_TOS`.
//!
//! Both shapes are read: the `{"_source": {...}, "data": {...}}` wrapper (with `_source.class`
//! checked) or the object alone, and `m_MuscleClip.m_Clip.data.{m_StreamedClip, ...}` or
//! `m_MuscleClip.m_Clip.{m_StreamedClip, ...}` (dumpers that flatten the OffsetPtr's `data`).
//! Python's `json` writes non-finite floats as bare `NaN` / `Infinity` / `-Infinity`; they are
//! accepted. Every error names the JSON pointer of the offending value.
//!
//! ```
//! let json = r#"{"m_Name": "c", "m_MuscleClip": {"m_StartTime": 0, "m_StopTime": 1,
//!   "m_Clip": {"m_StreamedClip": {"data": [], "curveCount": 0},
//!              "m_DenseClip": {"m_FrameCount": 0, "m_CurveCount": 0, "m_SampleRate": 30,
//!                              "m_BeginTime": 0, "m_SampleArray": []},
//!              "m_ConstantClip": {"data": [1.5]}}},
//!   "m_ClipBindingConstant": {"genericBindings": [{"path": 0, "attribute": 7, "typeID": 114,
//!     "customType": 0, "isPPtrCurve": 0}], "pptrCurveMapping": []}}"#;
//! let clip = ossicle_host::unity::typetree::read_clip_text(json).unwrap();
//! assert_eq!(clip.curves[0].keys[1].value, 1.5);
//! ```

use super::bindings::{self, BindingKind, GenericBinding};
use super::muscle::{self, MuscleInput, ValueKind};
use super::{ClipEvent, Curve, PPtr, PathTable, UnityError};
use crate::unity::Clip;
use serde_json::Value;

/// A JSON value and its pointer.
#[derive(Clone, Copy)]
pub(crate) struct J<'a> {
    pub v: &'a Value,
    ptr: &'a str,
}

/// Owned pointer storage for [`J`] children (pointers are built as strings).
pub(crate) struct Node<'a> {
    pub v: &'a Value,
    pub ptr: String,
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl<'a> Node<'a> {
    pub fn root(v: &'a Value, ptr: &str) -> Self {
        Node { v, ptr: ptr.to_string() }
    }

    fn j(&self) -> J<'_> {
        J { v: self.v, ptr: &self.ptr }
    }

    pub fn err(&self, reason: impl Into<String>) -> UnityError {
        UnityError::json(self.ptr.clone(), reason)
    }

    /// A field that must be there.
    pub fn get(&self, key: &str) -> Result<Node<'a>, UnityError> {
        self.opt(key).ok_or_else(|| match self.v {
            Value::Object(_) => self.err(format!("missing field `{key}`")),
            other => self.err(format!("expected an object with `{key}`, found {}", kind(other))),
        })
    }

    /// A field that may be absent (or null).
    pub fn opt(&self, key: &str) -> Option<Node<'a>> {
        match self.v.get(key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(Node { v, ptr: format!("{}/{}", self.ptr, escape(key)) }),
        }
    }

    /// The items of an array.
    pub fn items(&self) -> Result<Vec<Node<'a>>, UnityError> {
        match self.v {
            Value::Array(a) => {
                Ok(a.iter().enumerate().map(|(i, v)| Node { v, ptr: format!("{}/{i}", self.ptr) }).collect())
            }
            other => Err(self.err(format!("expected an array, found {}", kind(other)))),
        }
    }

    /// An array of numbers read by `read` (item pointers are built only for an error).
    pub fn array<T>(&self, read: impl Fn(&Node<'a>) -> Result<T, UnityError>) -> Result<Vec<T>, UnityError> {
        let Value::Array(a) = self.v else {
            return Err(self.err(format!("expected an array, found {}", kind(self.v))));
        };
        let mut out = Vec::with_capacity(a.len());
        for (i, v) in a.iter().enumerate() {
            let item = Node { v, ptr: String::new() };
            match read(&item) {
                Ok(x) => out.push(x),
                Err(_) => return read(&Node { v, ptr: format!("{}/{i}", self.ptr) }).map(|_| out),
            }
        }
        Ok(out)
    }

    pub fn f64(&self) -> Result<f64, UnityError> {
        number(self.j())
    }

    pub fn finite(&self) -> Result<f64, UnityError> {
        let v = self.f64()?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(self.err(format!("{v} is not finite")))
        }
    }

    pub fn i64(&self) -> Result<i64, UnityError> {
        let v = self.f64()?;
        match self.v.as_i64() {
            Some(i) => Ok(i),
            None if v.fract() == 0.0 && v.abs() < 9.0e18 => Ok(v as i64),
            None => match self.v.as_u64() {
                Some(u) => Ok(u as i64),
                None => Err(self.err(format!("expected an integer, found {v}"))),
            },
        }
    }

    /// An unsigned 32-bit integer (a negative i32 is taken as its bits, as dumpers of signed
    /// fields write them).
    pub fn u32(&self) -> Result<u32, UnityError> {
        let i = self.i64()?;
        if (0..=i64::from(u32::MAX)).contains(&i) {
            Ok(i as u32)
        } else if (i64::from(i32::MIN)..0).contains(&i) {
            Ok(i as i32 as u32)
        } else {
            Err(self.err(format!("{i} does not fit 32 bits")))
        }
    }

    /// A float as stored in an f32 slot (its bits).
    pub fn f32_bits(&self) -> Result<u32, UnityError> {
        Ok((self.f64()? as f32).to_bits())
    }

    pub fn bool(&self) -> Result<bool, UnityError> {
        match self.v {
            Value::Bool(b) => Ok(*b),
            _ => match self.i64() {
                Ok(0) => Ok(false),
                Ok(1) => Ok(true),
                _ => Err(self.err(format!("expected a boolean (true/false or 0/1), found {}", self.v))),
            },
        }
    }

    pub fn str(&self) -> Result<&'a str, UnityError> {
        match self.v {
            Value::String(s) => Ok(s),
            other => Err(self.err(format!("expected a string, found {}", kind(other)))),
        }
    }

    /// A string, numbers written as they are (YAML `m_Name: 12` reads as a number in JSON dumps).
    pub fn text(&self) -> Result<String, UnityError> {
        match self.v {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(self.err(format!("expected a string, found {}", kind(other)))),
        }
    }

    pub fn pptr(&self) -> Result<PPtr, UnityError> {
        let file = self.opt("m_FileID").or_else(|| self.opt("fileID"));
        let path = self.opt("m_PathID").or_else(|| self.opt("pathID"));
        match (file, path) {
            (Some(f), p) => Ok(PPtr { file_id: f.i64()?, path_id: p.map(|p| p.i64()).transpose()?.unwrap_or(0) }),
            (None, _) => Err(self.err("expected an object reference {m_FileID, m_PathID}")),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn number(j: J<'_>) -> Result<f64, UnityError> {
    match j.v {
        Value::Number(n) => n.as_f64().ok_or_else(|| UnityError::json(j.ptr, "not a number")),
        Value::String(s) => match s.trim() {
            "Infinity" | "inf" | "+inf" | ".inf" | "+Infinity" => Ok(f64::INFINITY),
            "-Infinity" | "-inf" | "-.inf" => Ok(f64::NEG_INFINITY),
            "NaN" | "nan" | ".nan" => Ok(f64::NAN),
            t => t.parse::<f64>().map_err(|_| UnityError::json(j.ptr, format!("expected a number, found {s:?}"))),
        },
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        other => Err(UnityError::json(j.ptr, format!("expected a number, found {}", kind(other)))),
    }
}

/// Python's bare `NaN`, `Infinity`, `-Infinity` tokens (outside strings) as strings, so that
/// serde_json reads them.
fn quote_non_finite(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("NaN") && !text.contains("Infinity") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let token = ["-Infinity", "Infinity", "NaN"].into_iter().find(|t| rest.starts_with(t));
        if let Some(t) = token {
            out.push('"');
            out.push_str(t);
            out.push('"');
            rest = &rest[t.len()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.into()
}

/// Parses JSON text (bare non-finite tokens accepted).
pub fn parse_json(text: &str) -> Result<Value, UnityError> {
    serde_json::from_str(&quote_non_finite(text)).map_err(|e| UnityError::File {
        reason: format!("not JSON: {} (line {} column {})", super::strip_at_line(&e.to_string()), e.line(), e.column()),
    })
}

/// The Unity version of a wrapped dump (`_source.unity_version`).
fn unity_version(root: &Value) -> Option<(u32, u32, u32)> {
    let v = root.get("_source")?.get("unity_version")?.as_str()?;
    let mut parts = v.split('.');
    let year = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch: String = parts.next().unwrap_or("0").chars().take_while(char::is_ascii_digit).collect();
    Some((year, minor, patch.parse().unwrap_or(0)))
}

/// Whether a Unity version writes `curveCount` as two u16 (`curveCount`, `discreteCurveCount`):
/// 2022.3.19f1 and later 2022.3, 2023.2.8f1 and later, 2023.3 / 6000 on.
pub fn splits_curve_count(version: (u32, u32, u32)) -> bool {
    match version {
        (2022, 3, p) => p >= 19,
        (2023, 2, p) => p >= 8,
        (2023, m, _) => m >= 3,
        (y, _, _) => y > 2023,
    }
}

/// The object a dump describes, after checking its class: the `data` of a wrapped dump, or the
/// root. `class` is the expected class name (`AnimationClip`, ...).
fn unwrap_dump<'a>(root: &'a Value, class: &str) -> Result<Node<'a>, UnityError> {
    let r = Node::root(root, "");
    if !root.is_object() {
        return Err(r.err(format!("expected a type-tree JSON object of an {class}, found {}", kind(root))));
    }
    if let Some(src) = r.opt("_source") {
        if let Some(c) = src.opt("class") {
            let found = c.str()?;
            if found != class {
                return Err(c.err(format!("JSON of another class: this dump is of a {found}, not an {class}")));
            }
        }
        return r.get("data");
    }
    match r.opt("data") {
        Some(d) if d.v.is_object() && root.get("m_Name").is_none() => Ok(d),
        _ => Ok(r),
    }
}

/// Reads an AnimationClip from type-tree JSON text.
pub fn read_clip_text(text: &str) -> Result<Clip, UnityError> {
    let root = parse_json(text)?;
    read_clip(&root)
}

/// Reads an AnimationClip dump (see the module's doc).
pub fn read_clip(root: &Value) -> Result<Clip, UnityError> {
    let data = unwrap_dump(root, "AnimationClip")?;
    if data.opt("m_MuscleClip").is_none() && !super::anim::has_editor_fields(&data) {
        let other = if data.opt("m_AnimationClips").is_some() || data.opt("m_Controller").is_some() {
            " (it looks like an AnimatorController or Animator)"
        } else {
            ""
        };
        return Err(data.err(format!(
            "JSON of another class{other}: an AnimationClip has `m_MuscleClip` or editor curves (`m_PositionCurves`, \
             ...)"
        )));
    }
    let split = unity_version(root).is_some_and(splits_curve_count);
    read_clip_object(&data, split)
}

/// Reads the clip object itself (`data` of a dump, or a YAML document's `AnimationClip`).
/// `split_counts`: the dump's Unity version packs `discreteCurveCount` into `curveCount`'s high
/// 16 bits when the field itself is absent.
pub(crate) fn read_clip_object(data: &Node<'_>, split_counts: bool) -> Result<Clip, UnityError> {
    let name = match data.opt("m_Name") {
        Some(n) => n.text()?,
        None => String::new(),
    };
    let sample_rate = data.opt("m_SampleRate").map(|n| n.finite()).transpose()?.unwrap_or(60.0);
    let generic = read_generic_bindings(data)?;
    let pptr_mapping = match data.opt("m_ClipBindingConstant").and_then(|b| b.opt("pptrCurveMapping")) {
        Some(m) => m.items()?.iter().map(Node::pptr).collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let events = read_events(data)?;
    let muscle = match data.opt("m_MuscleClip") {
        Some(mc) => Some(read_muscle_input(&mc, split_counts)?),
        None => None,
    };
    let muscle_curves = muscle.as_ref().map_or(0, |(m, ..)| m.total_curves());
    let mut clip = Clip {
        name,
        sample_rate,
        start_time: 0.0,
        stop_time: 0.0,
        loop_time: false,
        curves: Vec::new(),
        pptr_mapping,
        events,
        value_array_delta: Vec::new(),
        paths: Vec::new(),
    };
    if let Some((input, loop_time, delta)) = muscle.as_ref() {
        clip.start_time = input.start_time;
        clip.stop_time = input.stop_time;
        clip.loop_time = *loop_time;
        clip.value_array_delta = delta.clone();
    }
    match muscle {
        Some((input, ..)) if muscle_curves > 0 || !super::anim::has_editor_curves(data)? => {
            let place = data
                .opt("m_ClipBindingConstant")
                .and_then(|b| b.opt("genericBindings"))
                .map_or_else(|| format!("{}/m_ClipBindingConstant", data.ptr), |g| g.ptr);
            let per_curve = if generic.is_empty() && input.total_curves() > 0 {
                return Err(UnityError::json(
                    place,
                    format!("genericBindings take 0 curves, but there are {}", input.describe_counts()),
                ));
            } else {
                bindings::expand(&generic, input.total_curves(), &input.describe_counts())?
            };
            let kinds: Vec<ValueKind> = per_curve
                .iter()
                .map(|b| match b.kind {
                    BindingKind::Int => ValueKind::Int,
                    BindingKind::PPtr => ValueKind::PPtr,
                    _ => ValueKind::Float,
                })
                .collect();
            let decoded = muscle::decode(&input, &kinds)?;
            for (index, ((block, keys), binding)) in decoded.into_iter().zip(per_curve).enumerate() {
                clip.curves.push(Curve { index, block, binding, keys, modes: Vec::new() });
            }
            check_pptr_indices(&clip, data)?;
        }
        _ => super::anim::read_editor_curves(data, &generic, &mut clip)?,
    }
    Ok(clip)
}

/// Object-reference keys must index `pptrCurveMapping` (or be negative: none).
fn check_pptr_indices(clip: &Clip, data: &Node<'_>) -> Result<(), UnityError> {
    for c in clip.curves.iter().filter(|c| c.binding.kind == BindingKind::PPtr) {
        for k in &c.keys {
            if k.value >= clip.pptr_mapping.len() as f64 {
                let ptr = format!("{}/m_ClipBindingConstant/pptrCurveMapping", data.ptr);
                return Err(UnityError::json(
                    ptr,
                    format!(
                        "curve {}'s key at {} s indexes entry {} of pptrCurveMapping, which has {} entries",
                        c.index,
                        k.time,
                        k.value,
                        clip.pptr_mapping.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `m_ClipBindingConstant.genericBindings` (absent = none).
pub(crate) fn read_generic_bindings(data: &Node<'_>) -> Result<Vec<GenericBinding>, UnityError> {
    let Some(list) = data.opt("m_ClipBindingConstant").and_then(|b| b.opt("genericBindings")) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for b in list.items()? {
        let type_id = match b.opt("typeID").or_else(|| b.opt("classID")) {
            Some(t) => t.i64()?,
            None => return Err(b.err("missing field `typeID` (or `classID` before Unity 5.6)")),
        };
        out.push(GenericBinding {
            path: b.get("path")?.u32()?,
            attribute: b.get("attribute")?.u32()?,
            type_id,
            custom_type: b.opt("customType").map(|c| c.i64()).transpose()?.unwrap_or(0),
            is_pptr: b.opt("isPPtrCurve").map(|c| c.bool()).transpose()?.unwrap_or(false),
            is_int: b.opt("isIntCurve").map(|c| c.bool()).transpose()?.unwrap_or(false),
            place: b.ptr.clone(),
        });
    }
    Ok(out)
}

/// `m_Events`.
pub(crate) fn read_events(data: &Node<'_>) -> Result<Vec<ClipEvent>, UnityError> {
    let Some(list) = data.opt("m_Events") else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for e in list.items()? {
        let text = |k: &str| e.opt(k).map(|n| n.text()).transpose().map(Option::unwrap_or_default);
        out.push(ClipEvent {
            time: e.get("time")?.finite()?,
            function_name: text("functionName")?,
            string_parameter: text("data")?,
            float_parameter: e.opt("floatParameter").map(|n| n.f64()).transpose()?.unwrap_or(0.0),
            int_parameter: e.opt("intParameter").map(|n| n.i64()).transpose()?.unwrap_or(0),
            object_parameter: match e.opt("objectReferenceParameter") {
                Some(o) => o.pptr()?,
                None => PPtr { file_id: 0, path_id: 0 },
            },
            message_options: e.opt("messageOptions").map(|n| n.i64()).transpose()?.unwrap_or(0),
        });
    }
    Ok(out)
}

/// Reads `m_MuscleClip` into the decoder's input, plus `m_LoopTime` and `m_ValueArrayDelta`.
/// The decoder's input, `m_LoopTime` and `m_ValueArrayDelta`.
type MuscleParts = (MuscleInput, bool, Vec<(f64, f64)>);

fn read_muscle_input(mc: &Node<'_>, split_counts: bool) -> Result<MuscleParts, UnityError> {
    let clip = mc.get("m_Clip")?;
    let blocks = match clip.opt("data") {
        Some(d) if d.v.is_object() => d,
        _ => clip,
    };
    let streamed = blocks.get("m_StreamedClip")?;
    let words = streamed.get("data")?.array(Node::u32)?;
    let cc = streamed.get("curveCount")?;
    let (curve_count, discrete_curve_count) = match streamed.opt("discreteCurveCount") {
        Some(d) => {
            let (c, d) = (cc.i64()?, d.i64()?);
            let c = u16::try_from(c)
                .map_err(|_| cc.err(format!("curveCount {c} is not a u16 beside discreteCurveCount")))?;
            let d = u16::try_from(d).map_err(|_| {
                streamed.get("discreteCurveCount").map_or_else(|e| e, |n| n.err(format!("{d} is not a u16")))
            })?;
            (u32::from(c), u32::from(d))
        }
        None => {
            let c = cc.i64()?;
            let c = u32::try_from(c).map_err(|_| cc.err(format!("negative or oversized curve count {c}")))?;
            if split_counts {
                (c & 0xFFFF, c >> 16)
            } else {
                (c, 0)
            }
        }
    };
    let dense = blocks.get("m_DenseClip")?;
    let count = |field: &str| -> Result<i64, UnityError> {
        let n = dense.get(field)?;
        let v = n.i64()?;
        if v < 0 {
            return Err(
                n.err(format!("negative {} {v}", if field == "m_FrameCount" { "frame count" } else { "curve count" }))
            );
        }
        Ok(v)
    };
    let (dense_frame_count, dense_curve_count) = (count("m_FrameCount")?, count("m_CurveCount")?);
    let samples = dense.get("m_SampleArray")?.array(Node::f32_bits)?;
    let constant = blocks.get("m_ConstantClip")?.get("data")?.array(Node::f32_bits)?;
    let start_time = mc.opt("m_StartTime").map(|n| n.finite()).transpose()?.unwrap_or(0.0);
    let stop_time = mc.opt("m_StopTime").map(|n| n.finite()).transpose()?.unwrap_or(start_time);
    let loop_time = mc.opt("m_LoopTime").map(|n| n.bool()).transpose()?.unwrap_or(false);
    let mut delta = Vec::new();
    if let Some(d) = mc.opt("m_ValueArrayDelta") {
        for item in d.items()? {
            delta.push((item.get("m_Start")?.f64()?, item.get("m_Stop")?.f64()?));
        }
    }
    let input = MuscleInput {
        streamed_words: words,
        curve_count,
        discrete_curve_count,
        dense_frame_count,
        dense_curve_count,
        dense_sample_rate: dense.get("m_SampleRate")?.f64()? as f32,
        dense_begin_time: dense.get("m_BeginTime")?.f64()? as f32,
        dense_samples: samples,
        constant,
        start_time,
        stop_time,
        pointer: blocks.ptr.clone(),
    };
    Ok((input, loop_time, delta))
}

/// The clips an AnimatorController lists (`m_AnimationClips`), in order, null references left out
/// and repeats kept.
pub fn read_controller_clips(root: &Value) -> Result<Vec<PPtr>, UnityError> {
    let data = unwrap_dump(root, "AnimatorController")?;
    let list = data.get("m_AnimationClips")?;
    let mut out = Vec::new();
    for item in list.items()? {
        let p = item.pptr()?;
        if !p.is_null() {
            out.push(p);
        }
    }
    Ok(out)
}

/// An `m_TOS` table (Avatar or AnimatorController dump): `[[hash, name], ...]` or
/// `[{"first": hash, "second": name}, ...]`.
pub fn read_tos(root: &Value) -> Result<PathTable, UnityError> {
    let r = Node::root(root, "");
    let data = match (r.opt("_source"), r.opt("data")) {
        (_, Some(d)) if d.v.is_object() && d.v.get("m_TOS").is_some() => d,
        _ => r,
    };
    let tos = data.get("m_TOS")?;
    let mut t = PathTable::from_paths(std::iter::empty::<&str>());
    for e in tos.items()? {
        let (h, n) = match e.v {
            Value::Array(_) => {
                let pair = e.items()?;
                match pair.as_slice() {
                    [h, n] => (h.u32()?, n.text()?),
                    _ => return Err(e.err("expected a [hash, name] pair")),
                }
            }
            _ => (e.get("first")?.u32()?, e.get("second")?.text()?),
        };
        t.insert_hashed(h, &n);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_non_finite_tokens_read() {
        let v = parse_json(r#"{"a": [NaN, Infinity, -Infinity], "s": "NaN Infinity \" NaN"}"#).unwrap();
        let n = Node::root(&v, "");
        let items = n.get("a").unwrap().items().unwrap();
        assert!(items[0].f64().unwrap().is_nan());
        assert_eq!(items[1].f64().unwrap(), f64::INFINITY);
        assert_eq!(items[2].f64().unwrap(), f64::NEG_INFINITY);
        assert_eq!(n.get("s").unwrap().str().unwrap(), "NaN Infinity \" NaN");
    }

    #[test]
    fn split_versions() {
        assert!(!splits_curve_count((2022, 3, 18)));
        assert!(splits_curve_count((2022, 3, 19)));
        assert!(!splits_curve_count((2023, 2, 7)));
        assert!(splits_curve_count((2023, 2, 8)));
        assert!(!splits_curve_count((2023, 1, 20)));
        assert!(splits_curve_count((6000, 0, 0)));
        assert!(!splits_curve_count((2019, 4, 0)));
    }
}
