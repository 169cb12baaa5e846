//! Unity AnimationClips (issue 7): decoding to curves, and converting them for the blob ([`convert`]).
//!
//! Two inputs give the same [`Clip`]:
//!
//! - a type-tree JSON dump of a built clip (UnityPy's `read_typetree()`, either with the
//!   `{"_source", "data"}` wrapper and the `m_Clip.data` level, or flattened), whose curves live in
//!   `m_MuscleClip` ([`typetree::read_clip`], decoded by [`muscle::decode`]);
//! - an editor `.anim` YAML file, whose curves are explicit keyframes ([`anim::read_clip`], read by
//!   the small YAML reader [`yaml`]).
//!
//! Each decoded [`Curve`] carries its [`Binding`] (path hash, type ID, attribute, component), its
//! [`Key`]s (time, value, in/out slope; an infinite out-slope is a step) and the block it came from.
//! [`bindings`] expands `m_ClipBindingConstant.genericBindings` into per-curve bindings, resolves path
//! hashes ([`crc32`]) against user-supplied paths ([`PathTable`]), and converts Euler rotations to
//! quaternions. [`output::curves_json`] is the stable JSON of `ossicle curves`. See docs/unity.md.
//!
//! ```
//! use ossicle_host::unity::{crc32, PathTable};
//! assert_eq!(crc32(b"Hand_L"), 552_982_707);
//! let table = PathTable::from_paths(["Hips", "Hips/Spine"]);
//! assert_eq!(table.name(crc32(b"Hips/Spine")), Some("Hips/Spine"));
//! ```

pub mod anim;
pub mod bindings;
pub mod convert;
pub mod muscle;
pub mod output;
pub mod typetree;
pub mod yaml;

use crate::error::HostError;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

pub use bindings::{Binding, BindingKind, RotationOrder};

/// An error reading or decoding a Unity source: where (a JSON pointer or a YAML line) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnityError {
    /// In a type-tree JSON dump, at a JSON pointer (RFC 6901, e.g.
    /// `/data/m_MuscleClip/m_Clip/data/m_StreamedClip/data/7`).
    Json {
        /// The JSON pointer of the offending value (or of the object missing a field).
        pointer: String,
        /// What is wrong.
        reason: String,
    },
    /// In a YAML file (editor `.anim`), at a 1-based line.
    Yaml {
        /// The line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// In a text file of paths (one per line), at a 1-based line.
    Paths {
        /// The line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// About the file as a whole (not JSON, not YAML, an AssetBundle, ...).
    File {
        /// What is wrong.
        reason: String,
    },
}

impl UnityError {
    /// A JSON error at `pointer`.
    pub fn json(pointer: impl Into<String>, reason: impl Into<String>) -> Self {
        UnityError::Json { pointer: pointer.into(), reason: reason.into() }
    }

    /// A YAML error at `line`.
    pub fn yaml(line: usize, reason: impl Into<String>) -> Self {
        UnityError::Yaml { line, reason: reason.into() }
    }

    /// The place: the JSON pointer (`""` is the whole document, shown as `/`), `line N`, or empty.
    pub fn place(&self) -> String {
        match self {
            UnityError::Json { pointer, .. } if pointer.is_empty() => "/".into(),
            UnityError::Json { pointer, .. } => pointer.clone(),
            UnityError::Yaml { line, .. } | UnityError::Paths { line, .. } => format!("line {line}"),
            UnityError::File { .. } => String::new(),
        }
    }

    /// The reason alone.
    pub fn reason(&self) -> &str {
        match self {
            UnityError::Json { reason, .. }
            | UnityError::Yaml { reason, .. }
            | UnityError::Paths { reason, .. }
            | UnityError::File { reason } => reason,
        }
    }

    /// As a host error about `file` (`FILE:PLACE: REASON`).
    pub fn into_host(self, file: &Path) -> HostError {
        let place = self.place();
        if place.is_empty() {
            HostError::file(file, self.reason())
        } else {
            HostError::at(file, place, self.reason())
        }
    }
}

impl fmt::Display for UnityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = self.place();
        if place.is_empty() {
            write!(f, "{}", self.reason())
        } else {
            write!(f, "{place}: {}", self.reason())
        }
    }
}

impl std::error::Error for UnityError {}

/// Where a curve came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Block {
    /// `m_MuscleClip`'s streamed block (cubic segments between keys).
    Streamed,
    /// The dense block (samples at a fixed rate, piecewise linear).
    Dense,
    /// The constant block (one value).
    Constant,
    /// An editor `.anim` file's keyframe curves (not a muscle-clip block).
    Editor,
}

impl Block {
    /// The name in `ossicle curves` JSON: `streamed`, `dense`, `constant` or `editor`.
    pub fn name(self) -> &'static str {
        match self {
            Block::Streamed => "streamed",
            Block::Dense => "dense",
            Block::Constant => "constant",
            Block::Editor => "editor",
        }
    }
}

/// One key of a decoded curve: a Hermite key. An infinite `out_slope` (or `in_slope` of the next
/// key) makes the segment a step that holds this key's value until the next key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key {
    /// Seconds.
    pub time: f64,
    /// The value (for int curves the integer, for object-reference curves the `pptrCurveMapping`
    /// index).
    pub value: f64,
    /// The slope arriving at this key (units per second); may be ±infinity, never NaN.
    pub in_slope: f64,
    /// The slope leaving this key; `+inf` for a step; never NaN.
    pub out_slope: f64,
}

/// Editor-only tangent data of a key (editor YAML keys carry it; decoded muscle-clip keys do not).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyModes {
    /// Unity's `tangentMode` bit field.
    pub tangent_mode: i64,
    /// Unity's `weightedMode` (0 none, 1 in, 2 out, 3 both).
    pub weighted_mode: i64,
    /// `inWeight` (1/3 when unweighted).
    pub in_weight: f64,
    /// `outWeight`.
    pub out_weight: f64,
}

/// One decoded curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Its index in the clip (streamed, then dense, then constant).
    pub index: usize,
    /// The block it came from.
    pub block: Block,
    /// What it animates.
    pub binding: Binding,
    /// Its keys, times strictly increasing.
    pub keys: Vec<Key>,
    /// Per key, the editor's tangent data (empty for muscle-clip curves).
    pub modes: Vec<KeyModes>,
}

impl Curve {
    /// The curve's value at `t` seconds, as Unity evaluates an unweighted curve: cubic Hermite
    /// between keys (values and slopes), a step where the left key's out-slope or the right key's
    /// in-slope is infinite, the end keys' values before the first and after the last key. `None`
    /// for a curve without keys. Tangent weights (`KeyModes`) are not applied. Where slopes are so
    /// large that the cubic overflows f64, the left key's value.
    ///
    /// ```
    /// use ossicle_host::unity::{Block, Curve, Key};
    /// # use ossicle_host::unity::{Binding, BindingKind};
    /// # let binding = Binding { path: 0, type_id: 114, attribute: 0, component: 0, custom_type: 0,
    /// #     kind: BindingKind::Float, generic_index: 0 };
    /// let keys = vec![
    ///     Key { time: 0.0, value: 0.0, in_slope: 0.0, out_slope: 1.0 },
    ///     Key { time: 2.0, value: 2.0, in_slope: 1.0, out_slope: 0.0 },
    /// ];
    /// let c = Curve { index: 0, block: Block::Streamed, binding, keys, modes: vec![] };
    /// assert_eq!(c.evaluate(0.5), Some(0.5));
    /// assert_eq!(c.evaluate(9.0), Some(2.0));
    /// ```
    pub fn evaluate(&self, t: f64) -> Option<f64> {
        let first = self.keys.first()?;
        let last = self.keys.last()?;
        if t <= first.time {
            return Some(first.value);
        }
        if t >= last.time {
            return Some(last.value);
        }
        let i = self.keys.partition_point(|k| k.time <= t);
        let (a, b) = (self.keys.get(i.checked_sub(1)?)?, self.keys.get(i)?);
        if !a.out_slope.is_finite() || !b.in_slope.is_finite() {
            return Some(a.value);
        }
        let h = b.time - a.time;
        let s = (t - a.time) / h;
        let (s2, s3) = (s * s, s * s * s);
        let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
        let h10 = s3 - 2.0 * s2 + s;
        let h01 = -2.0 * s3 + 3.0 * s2;
        let h11 = s3 - s2;
        let v = h00 * a.value + h10 * h * a.out_slope + h01 * b.value + h11 * h * b.in_slope;
        // Slopes so large that the Hermite overflows f64: hold the left key's value.
        Some(if v.is_finite() { v } else { a.value })
    }
}

/// An object reference (`PPtr`): `m_FileID` and `m_PathID`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PPtr {
    /// The file (0 = the same serialized file).
    pub file_id: i64,
    /// The object in it (0 with file 0 = null).
    pub path_id: i64,
}

impl PPtr {
    /// Whether it is the null reference (both zero).
    pub fn is_null(&self) -> bool {
        self.file_id == 0 && self.path_id == 0
    }
}

/// An AnimationEvent (`m_Events`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClipEvent {
    /// Seconds.
    pub time: f64,
    /// The function it calls.
    pub function_name: String,
    /// Its string parameter (`data`).
    pub string_parameter: String,
    /// Its float parameter.
    pub float_parameter: f64,
    /// Its int parameter.
    pub int_parameter: i64,
    /// Its object parameter.
    pub object_parameter: PPtr,
    /// `messageOptions` (0 = require a receiver).
    pub message_options: i64,
}

/// A decoded AnimationClip.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// `m_Name`.
    pub name: String,
    /// `m_SampleRate` (frames per second).
    pub sample_rate: f64,
    /// Start of the clip (seconds; `m_MuscleClip.m_StartTime` or `m_AnimationClipSettings.m_StartTime`).
    pub start_time: f64,
    /// End of the clip (seconds).
    pub stop_time: f64,
    /// Whether it loops (`m_LoopTime`).
    pub loop_time: bool,
    /// The curves in binding order.
    pub curves: Vec<Curve>,
    /// `pptrCurveMapping`: the objects object-reference curves index.
    pub pptr_mapping: Vec<PPtr>,
    /// `m_Events`.
    pub events: Vec<ClipEvent>,
    /// `m_ValueArrayDelta` (start and stop value per curve) when the source has it.
    pub value_array_delta: Vec<(f64, f64)>,
    /// The paths an editor clip names (their hashes resolve to them).
    pub paths: Vec<String>,
}

impl Clip {
    /// Every binding path hash no entry of `table` names (sorted, each once).
    pub fn unresolved(&self, table: &PathTable) -> Vec<u32> {
        let mut table = table.clone();
        for p in &self.paths {
            table.insert(p);
        }
        let mut v: Vec<u32> = self
            .curves
            .iter()
            .filter(|c| !matches!(c.binding.kind, BindingKind::Muscle))
            .map(|c| c.binding.path)
            .filter(|h| table.name(*h).is_none())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// zlib's CRC-32 (the one Unity hashes transform paths and attribute names with).
///
/// ```
/// assert_eq!(ossicle_host::unity::crc32(b""), 0);
/// ```
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// A table from path hashes to paths: `""` (the Animator's own object, hash 0) is always in it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathTable {
    names: HashMap<u32, String>,
}

impl PathTable {
    /// The table of the given paths (GameObject names below the Animator joined by `/`).
    pub fn from_paths<I, S>(paths: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut t = PathTable::default();
        t.insert("");
        for p in paths {
            t.insert(p.as_ref());
        }
        t
    }

    /// Adds one path.
    pub fn insert(&mut self, path: &str) {
        self.names.entry(crc32(path.as_bytes())).or_insert_with(|| path.to_string());
    }

    /// Adds every entry of `other`.
    pub fn merge(&mut self, other: &PathTable) {
        for (h, name) in &other.names {
            self.names.entry(*h).or_insert_with(|| name.clone());
        }
    }

    /// Adds a hash with its name as given (an `m_TOS` entry), without checking the hash.
    pub fn insert_hashed(&mut self, hash: u32, path: &str) {
        self.names.entry(hash).or_insert_with(|| path.to_string());
    }

    /// The path of a hash.
    pub fn name(&self, hash: u32) -> Option<&str> {
        if hash == 0 {
            return Some("");
        }
        self.names.get(&hash).map(String::as_str)
    }

    /// How many paths it holds (besides `""`).
    pub fn len(&self) -> usize {
        self.names.keys().filter(|h| **h != 0).count()
    }

    /// Whether it holds no path besides `""`.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The hierarchy paths of a skeleton's bones: each bone's name joined to its ancestors' with
    /// `/`, root first (`Root/Hips`, `Root/Hips/Spine`, ...), and the same paths without the root's
    /// name (`Hips`, `Hips/Spine`: the root taken as the Animator's own object).
    pub fn from_skeleton(skeleton: &crate::ir::SkeletonIr) -> Self {
        // Per bone: (full path, path below the root or None for a root).
        let mut paths: Vec<(String, Option<String>)> = Vec::with_capacity(skeleton.bones.len());
        for b in &skeleton.bones {
            let p = match b.parent.and_then(|p| paths.get(p)) {
                Some((full, below)) => (
                    format!("{full}/{}", b.name),
                    Some(match below {
                        Some(below) => format!("{below}/{}", b.name),
                        None => b.name.clone(),
                    }),
                ),
                None => (b.name.clone(), None),
            };
            paths.push(p);
        }
        PathTable::from_paths(paths.into_iter().flat_map(|(full, below)| std::iter::once(full).chain(below)))
    }

    /// A paths file: one path per line (a trailing `\r` and a byte-order mark dropped, blank lines
    /// skipped), or a type-tree JSON dump holding an `m_TOS` table (an Avatar's or an
    /// AnimatorController's: `[[hash, name], ...]` or `[{"first", "second"}, ...]`).
    pub fn parse(bytes: &[u8]) -> Result<Self, UnityError> {
        let text = std::str::from_utf8(bytes).map_err(|e| UnityError::Paths {
            line: bytes.get(..e.valid_up_to()).unwrap_or_default().iter().filter(|&&b| b == b'\n').count() + 1,
            reason: "not UTF-8 text".into(),
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim_start().starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(text).map_err(|e| UnityError::Paths {
                line: e.line(),
                reason: format!("not JSON: {}", strip_at_line(&e.to_string())),
            })?;
            return typetree::read_tos(&v);
        }
        let mut t = PathTable::default();
        t.insert("");
        for line in text.lines() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if !line.trim().is_empty() {
                t.insert(line);
            }
        }
        Ok(t)
    }
}

/// Converts the Unity clips `project` holds ([`crate::ir::Project::unity`]) into skeletal clips,
/// skeletons and scenes ([`convert::convert`]), resolving their path hashes against `table`, every
/// skeleton of the project (its bones' hierarchy paths, [`PathTable::from_skeleton`]) and the paths
/// an editor clip names. A clip's skeletal part binds, like an EVAC clip, to the build's skeleton
/// (`--skeleton` picks one of several); in a build without a skeleton it brings its own (named
/// after the clip). What was approximated goes to `project.notes`.
pub fn resolve(project: &mut crate::ir::Project, mut table: PathTable) -> Result<(), HostError> {
    let sources = std::mem::take(&mut project.unity);
    if sources.is_empty() {
        return Ok(());
    }
    for sk in &project.skeletons {
        table.merge(&PathTable::from_skeleton(sk));
    }
    let had_skeleton = !project.skeletons.is_empty();
    for src in sources {
        // Bind poses by bone name, from the build's skeletons (the first that has the bone).
        let bind =
            |bone: &str| project.skeletons.iter().flat_map(|s| s.bones.iter()).find(|b| b.name == bone).map(|b| b.bind);
        let c = convert::convert(&src.clip, &table, &src.origin, &bind)
            .map_err(|why| HostError::file(&src.origin.file, why))?;
        if let Some(mut clip) = c.skel_clip {
            if !had_skeleton {
                if let Some(sk) = c.skeleton {
                    if project.skeletons.iter().any(|s| s.name == sk.name) {
                        return Err(HostError::file(
                            &src.origin.file,
                            format!("clip {:?}: a skeleton of that name is already in the build", clip.name),
                        ));
                    }
                    clip.skeleton = Some(sk.name.clone());
                    project.skeletons.push(sk);
                }
            }
            project.skel_clips.push(clip);
        }
        if let Some(scene) = c.scene {
            if project.scenes.iter().any(|s| s.name == scene.name) {
                return Err(HostError::file(
                    &src.origin.file,
                    format!("clip {:?}: a scene of that name is already in the build", scene.name),
                ));
            }
            project.scenes.push(scene);
        }
        project.notes.extend(c.notes.into_iter().map(|n| format!("{}: {n}", src.origin.file.display())));
    }
    Ok(())
}

/// serde_json's message without its " at line L column C" suffix.
pub(crate) fn strip_at_line(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg.get(..i).unwrap_or(msg).to_string(),
        None => msg.to_string(),
    }
}

/// The largest source `ossicle curves` reads.
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a clip from a source's bytes: a type-tree JSON dump (text starting with `{`) or an editor
/// YAML file (`%YAML` or `---`). An AssetBundle or serialized file is refused with a hint.
///
/// ```
/// use ossicle_host::unity::{read_source, Block, UnityError};
/// let anim = b"%YAML 1.1\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Idle\n  m_PositionCurves:\n  - curve:\n      m_Curve:\n      - time: 0\n        value: {x: 1, y: 2, z: 3}\n    path: Hips\n";
/// let clip = read_source(anim).unwrap();
/// assert_eq!((clip.name.as_str(), clip.curves.len()), ("Idle", 3));
/// assert_eq!((clip.curves[2].block, clip.curves[2].keys[0].value), (Block::Editor, 3.0));
///
/// let e = read_source(br#"{"m_Name": "x", "m_AnimationClips": []}"#).unwrap_err();
/// assert!(matches!(e, UnityError::Json { .. }));
/// assert!(e.to_string().starts_with("/: JSON of another class"));
/// ```
pub fn read_source(bytes: &[u8]) -> Result<Clip, UnityError> {
    if bytes.starts_with(b"UnityFS") || bytes.starts_with(b"UnityWeb") || bytes.starts_with(b"UnityRaw") {
        return Err(UnityError::File {
            reason: "an AssetBundle: dump its AnimationClip with UnityPy's read_typetree() to JSON first \
                     (docs/unity.md)"
                .into(),
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| UnityError::File {
        reason: format!("not UTF-8 text (byte {}): not a type-tree JSON dump or an editor .anim file", e.valid_up_to()),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let head = text.trim_start();
    if head.starts_with('{') {
        typetree::read_clip_text(text)
    } else if head.starts_with("%YAML") || head.starts_with("---") {
        anim::read_clip(text)
    } else {
        Err(UnityError::File {
            reason: "neither a type-tree JSON dump (`{...}`) nor an editor YAML file (`%YAML 1.1`)".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_zlib_check_values() {
        // The standard CRC-32 check value of "123456789" and the issue's "Hand_L".
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b"Hand_L"), 552_982_707);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn path_table_from_text_and_json() {
        let t = PathTable::parse(b"\xef\xbb\xbfHips\r\n\nHips/Spine\n").unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t.name(crc32(b"Hips")), Some("Hips"));
        assert_eq!(t.name(0), Some(""));
        let t = PathTable::parse(br#"{"data": {"m_TOS": [[552982707, "Hand_L"], [0, ""]]}}"#).unwrap();
        assert_eq!(t.name(552_982_707), Some("Hand_L"));
        let e = PathTable::parse(br#"{"data": {"m_Name": "x"}}"#).unwrap_err();
        assert!(e.to_string().contains("m_TOS"), "{e}");
    }
}
