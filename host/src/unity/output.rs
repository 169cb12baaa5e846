//! The stable JSON of `ossicle curves`:
//!
//! `{"clip": NAME, "curves": [{"index": I, "block": "streamed"|"dense"|"constant"|"editor",
//! "binding": {"path": HASH, "path_name": NAME|null, "type_id": T, "attribute": A, "component": C},
//! "keys": [{"time": T, "value": V, "in_slope": S, "out_slope": S}]}]}`, an infinite slope being
//! the string `"inf"` or `"-inf"`. A humanoid muscle curve's `path_name` is `"muscle #N"`; a path
//! no table entry names has `path_name` null. `"editor"` is the block of an editor `.anim` file's
//! curves (not a muscle-clip block).
//!
//! ```
//! use ossicle_host::unity::{output, typetree, PathTable};
//! let json = r#"{"m_Name": "c", "m_MuscleClip": {"m_StartTime": 0, "m_StopTime": 0,
//!   "m_Clip": {"m_StreamedClip": {"data": [], "curveCount": 0},
//!              "m_DenseClip": {"m_FrameCount": 0, "m_CurveCount": 0, "m_SampleRate": 30,
//!                              "m_BeginTime": 0, "m_SampleArray": []},
//!              "m_ConstantClip": {"data": [2.0]}}},
//!   "m_ClipBindingConstant": {"genericBindings": [{"path": 0, "attribute": 7, "typeID": 114,
//!     "customType": 0, "isPPtrCurve": 0}], "pptrCurveMapping": []}}"#;
//! let clip = typetree::read_clip_text(json).unwrap();
//! let text = output::curves_json(&clip, &PathTable::default());
//! let v: serde_json::Value = serde_json::from_str(&text).unwrap();
//! assert_eq!(v["curves"][0]["binding"]["path_name"], "");
//! assert_eq!(v["curves"][0]["keys"][0]["value"], 2.0);
//! ```

use super::{Clip, PathTable};
use serde::{Serialize, Serializer};

/// The document.
#[derive(Debug, Clone, Serialize)]
pub struct CurvesDocument {
    /// The clip's name.
    pub clip: String,
    /// Its curves.
    pub curves: Vec<CurveOut>,
}

/// One curve.
#[derive(Debug, Clone, Serialize)]
pub struct CurveOut {
    /// Its index.
    pub index: usize,
    /// Its block's name.
    pub block: &'static str,
    /// Its binding.
    pub binding: BindingOut,
    /// Its keys.
    pub keys: Vec<KeyOut>,
}

/// A curve's binding.
#[derive(Debug, Clone, Serialize)]
pub struct BindingOut {
    /// The path hash.
    pub path: u32,
    /// The path, `"muscle #N"`, or null when unresolved.
    pub path_name: Option<String>,
    /// The class ID.
    pub type_id: i64,
    /// The attribute.
    pub attribute: u32,
    /// The component.
    pub component: u8,
}

/// A key.
#[derive(Debug, Clone, Serialize)]
pub struct KeyOut {
    /// Seconds.
    pub time: f64,
    /// The value.
    pub value: f64,
    /// The in-slope.
    pub in_slope: Slope,
    /// The out-slope.
    pub out_slope: Slope,
}

/// A slope: a number, or `"inf"` / `"-inf"`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slope(pub f64);

impl Serialize for Slope {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 == f64::INFINITY {
            s.serialize_str("inf")
        } else if self.0 == f64::NEG_INFINITY {
            s.serialize_str("-inf")
        } else {
            s.serialize_f64(self.0)
        }
    }
}

/// The document of a clip, paths named through `table` (and the clip's own editor paths).
pub fn curves_document(clip: &Clip, table: &PathTable) -> CurvesDocument {
    let mut table = table.clone();
    for p in &clip.paths {
        table.insert(p);
    }
    let curves = clip
        .curves
        .iter()
        .map(|c| CurveOut {
            index: c.index,
            block: c.block.name(),
            binding: BindingOut {
                path: c.binding.path,
                path_name: c.binding.muscle_name().or_else(|| table.name(c.binding.path).map(str::to_string)),
                type_id: c.binding.type_id,
                attribute: c.binding.attribute,
                component: c.binding.component,
            },
            keys: c
                .keys
                .iter()
                .map(|k| KeyOut {
                    time: k.time,
                    value: k.value,
                    in_slope: Slope(k.in_slope),
                    out_slope: Slope(k.out_slope),
                })
                .collect(),
        })
        .collect();
    CurvesDocument { clip: clip.name.clone(), curves }
}

/// The document as pretty-printed JSON.
pub fn curves_json(clip: &Clip, table: &PathTable) -> String {
    // Serialising plain structs of strings and finite numbers cannot fail.
    serde_json::to_string_pretty(&curves_document(clip, table)).unwrap_or_default()
}
