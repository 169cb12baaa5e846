//! Editor AnimationClips (`.anim` YAML, and legacy clips in type-tree dumps): explicit keyframe
//! curves.
//!
//! Read: `m_PositionCurves`, `m_RotationCurves` (quaternion x, y, z, w), `m_EulerCurves` (degrees,
//! `m_RotationOrder`), `m_ScaleCurves` (vector keys: one key list, a `{x, y, z[, w]}` value and
//! slopes per key), then `m_FloatCurves`, then the per-component curves of `m_EditorCurves` and
//! `m_EulerEditorCurves` that none of the former already gives (`m_LocalPosition.x`, ...,
//! `localEulerAnglesRaw.x`, and float properties). Each key keeps `time`, `value`, `inSlope`,
//! `outSlope` (`Infinity` = a step) and its `tangentMode`, `weightedMode`, `inWeight`, `outWeight`.
//! `m_PPtrCurves` (object references by asset) are not read.
//!
//! Bindings: a curve's path hash is the CRC-32 of its `path`; Transform curves take attribute 1
//! (position), 2 (rotation), 3 (scale) or 4 (Euler, customType = the rotation order); a float
//! curve's attribute is the CRC-32 of its `attribute` name and its typeID its `classID`. When
//! `m_ClipBindingConstant.genericBindings` lists bindings, curves are put in its order (curves it
//! does not list follow, in file order), so that an editor clip and its built muscle clip number
//! their curves alike.
//!
//! ```
//! let yaml = "%YAML 1.1\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Bob\n  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: 0\n        value: 1\n        inSlope: 0\n        outSlope: Infinity\n      - time: 1\n        value: 2\n        inSlope: 0\n        outSlope: 0\n    attribute: m_Alpha\n    path: Body\n    classID: 212\n";
//! let clip = ossicle_host::unity::anim::read_clip(yaml).unwrap();
//! assert_eq!(clip.curves[0].keys[0].out_slope, f64::INFINITY);
//! assert_eq!(clip.curves[0].binding.attribute, ossicle_host::unity::crc32(b"m_Alpha"));
//! ```

use super::bindings::{Binding, BindingKind, GenericBinding, RotationOrder, TRANSFORM};
use super::typetree::{self, Node};
use super::{crc32, yaml, Block, Clip, Curve, Key, KeyModes, UnityError};

const EDITOR_FIELDS: [&str; 8] = [
    "m_PositionCurves",
    "m_RotationCurves",
    "m_EulerCurves",
    "m_ScaleCurves",
    "m_FloatCurves",
    "m_EditorCurves",
    "m_EulerEditorCurves",
    "m_PPtrCurves",
];

/// Whether an object has any editor-curve field.
pub(crate) fn has_editor_fields(data: &Node<'_>) -> bool {
    EDITOR_FIELDS.iter().any(|f| data.opt(f).is_some())
}

/// Whether any editor-curve array is non-empty.
pub(crate) fn has_editor_curves(data: &Node<'_>) -> Result<bool, UnityError> {
    for f in EDITOR_FIELDS {
        if let Some(n) = data.opt(f) {
            if !n.items()?.is_empty() {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Reads the AnimationClip of an editor `.anim` YAML file. Errors name the line and the field.
pub fn read_clip(text: &str) -> Result<Clip, UnityError> {
    let docs = yaml::parse(text)?;
    let doc = docs.iter().find(|d| d.class_id == Some(74) || d.value.get("AnimationClip").is_some()).ok_or_else(
        || match docs.first() {
            Some(d) => {
                let class = d.value.as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default();
                UnityError::yaml(
                    d.line,
                    format!(
                        "not an AnimationClip: the file's first document is {}{}",
                        if class.is_empty() { "not a Unity object".to_string() } else { format!("a {class}") },
                        d.class_id.map(|c| format!(" (--- !u!{c})")).unwrap_or_default()
                    ),
                )
            }
            None => UnityError::yaml(1, "no YAML document"),
        },
    )?;
    let root = Node::root(&doc.value, "");
    let data = root.get("AnimationClip").map_err(|e| doc.relocate(e))?;
    if !data.v.is_object() {
        return Err(doc.relocate(data.err("expected the AnimationClip's fields")));
    }
    let mut clip = typetree::read_clip_object(&data, false).map_err(|e| doc.relocate(e))?;
    if let Some(s) = data.opt("m_AnimationClipSettings") {
        let mut read = || -> Result<(), UnityError> {
            if let Some(t) = s.opt("m_StartTime") {
                clip.start_time = t.finite()?;
            }
            if let Some(t) = s.opt("m_StopTime") {
                clip.stop_time = t.finite()?;
            }
            if let Some(l) = s.opt("m_LoopTime") {
                clip.loop_time = l.bool()?;
            }
            Ok(())
        };
        read().map_err(|e| doc.relocate(e))?;
    }
    Ok(clip)
}

/// A curve read before ordering: its binding and where its generic binding would be.
struct Pending {
    binding: Binding,
    keys: Vec<Key>,
    modes: Vec<KeyModes>,
}

/// Reads the editor-curve arrays of a clip object into `clip.curves` (see the module's doc).
pub(crate) fn read_editor_curves(
    data: &Node<'_>,
    generic: &[GenericBinding],
    clip: &mut Clip,
) -> Result<(), UnityError> {
    let mut pending: Vec<Pending> = Vec::new();
    let vectors = [
        ("m_PositionCurves", 1u32, 3usize),
        ("m_RotationCurves", 2, 4),
        ("m_EulerCurves", 4, 3),
        ("m_ScaleCurves", 3, 3),
    ];
    for (field, attribute, n) in vectors {
        let Some(list) = data.opt(field) else { continue };
        for item in list.items()? {
            let path = item.opt("path").map(|p| p.text()).transpose()?.unwrap_or_default();
            let curve = item.get("curve")?;
            let (kind, custom_type) = match attribute {
                1 => (BindingKind::Position, 0),
                2 => (BindingKind::Rotation, 0),
                3 => (BindingKind::Scale, 0),
                _ => {
                    let order = curve.opt("m_RotationOrder").map(|o| o.i64()).transpose()?.unwrap_or(4);
                    match RotationOrder::from_unity(order) {
                        Some(o) => (BindingKind::Euler(o), order),
                        None => {
                            let at = curve.get("m_RotationOrder")?;
                            return Err(at.err(format!("rotation order {order} is not 0..=5")));
                        }
                    }
                }
            };
            let keys = curve.get("m_Curve")?.items()?;
            for component in 0..n {
                let (ks, modes) = read_keys(&keys, Some(component))?;
                clip.paths.push(path.clone());
                pending.push(Pending {
                    binding: Binding {
                        path: crc32(path.as_bytes()),
                        type_id: TRANSFORM,
                        attribute,
                        component: component as u8,
                        custom_type,
                        kind,
                        generic_index: usize::MAX,
                    },
                    keys: ks,
                    modes,
                });
            }
        }
    }
    for field in ["m_FloatCurves", "m_EditorCurves", "m_EulerEditorCurves"] {
        let Some(list) = data.opt(field) else { continue };
        for item in list.items()? {
            let path = item.opt("path").map(|p| p.text()).transpose()?.unwrap_or_default();
            let attr_name = item.get("attribute")?.text()?;
            let class_id = item.get("classID")?.i64()?;
            let binding = match (class_id, transform_component(&attr_name)) {
                (TRANSFORM, Some((attribute, component))) => {
                    let kind = match attribute {
                        1 => BindingKind::Position,
                        2 => BindingKind::Rotation,
                        3 => BindingKind::Scale,
                        _ => BindingKind::Euler(RotationOrder::Zxy),
                    };
                    let kind = match kind {
                        // The order of the matching Euler vector curve, if any, else Unity's default.
                        BindingKind::Euler(_) => pending
                            .iter()
                            .find(|p| p.binding.attribute == 4 && p.binding.path == crc32(path.as_bytes()))
                            .map_or(kind, |p| p.binding.kind),
                        k => k,
                    };
                    let custom_type = match kind {
                        BindingKind::Euler(o) => order_value(o),
                        _ => 0,
                    };
                    Binding {
                        path: crc32(path.as_bytes()),
                        type_id: TRANSFORM,
                        attribute,
                        component,
                        custom_type,
                        kind,
                        generic_index: usize::MAX,
                    }
                }
                _ => Binding {
                    path: crc32(path.as_bytes()),
                    type_id: class_id,
                    attribute: crc32(attr_name.as_bytes()),
                    component: 0,
                    custom_type: 0,
                    kind: BindingKind::Float,
                    generic_index: usize::MAX,
                },
            };
            // m_EditorCurves repeats curves the arrays above already give: keep the first.
            if pending.iter().any(|p| same_target(&p.binding, &binding)) {
                continue;
            }
            let (keys, modes) = read_keys(&item.get("curve")?.get("m_Curve")?.items()?, None)?;
            clip.paths.push(path.clone());
            pending.push(Pending { binding, keys, modes });
        }
    }
    // Generic bindings' order, unlisted curves after them.
    for p in &mut pending {
        p.binding.generic_index = generic
            .iter()
            .position(|g| {
                g.path == p.binding.path && g.type_id == p.binding.type_id && g.attribute == p.binding.attribute
            })
            .unwrap_or(usize::MAX);
        if let Some(g) = generic.get(p.binding.generic_index) {
            p.binding.custom_type = g.custom_type;
        }
    }
    pending.sort_by_key(|p| {
        (p.binding.generic_index, if p.binding.generic_index == usize::MAX { 0 } else { p.binding.component })
    });
    clip.paths.sort();
    clip.paths.dedup();
    for (index, p) in pending.into_iter().enumerate() {
        clip.curves.push(Curve { index, block: Block::Editor, binding: p.binding, keys: p.keys, modes: p.modes });
    }
    Ok(())
}

fn same_target(a: &Binding, b: &Binding) -> bool {
    a.path == b.path && a.type_id == b.type_id && a.attribute == b.attribute && a.component == b.component
}

fn order_value(o: RotationOrder) -> i64 {
    match o {
        RotationOrder::Xyz => 0,
        RotationOrder::Xzy => 1,
        RotationOrder::Yzx => 2,
        RotationOrder::Yxz => 3,
        RotationOrder::Zxy => 4,
        RotationOrder::Zyx => 5,
    }
}

/// `m_LocalPosition.x` -> (1, 0), `m_LocalRotation.w` -> (2, 3), `m_LocalScale.z` -> (3, 2),
/// `localEulerAnglesRaw.y` -> (4, 1).
fn transform_component(attr: &str) -> Option<(u32, u8)> {
    let (prop, comp) = attr.rsplit_once('.')?;
    let attribute = match prop {
        "m_LocalPosition" => 1,
        "m_LocalRotation" => 2,
        "m_LocalScale" => 3,
        "localEulerAnglesRaw" | "localEulerAngles" | "localEulerAnglesBaked" => 4,
        _ => return None,
    };
    let component = match comp {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        "w" if attribute == 2 => 3,
        _ => return None,
    };
    Some((attribute, component))
}

/// The keys of an `m_Curve` list: scalar keys, or `component` of vector keys.
fn read_keys(items: &[Node<'_>], component: Option<usize>) -> Result<(Vec<Key>, Vec<KeyModes>), UnityError> {
    fn pick<'a>(n: Node<'a>, component: Option<usize>) -> Result<Node<'a>, UnityError> {
        match component {
            Some(c) => n.get(["x", "y", "z", "w"].get(c).copied().unwrap_or("x")),
            None => Ok(n),
        }
    }
    let mut keys: Vec<Key> = Vec::with_capacity(items.len());
    let mut modes = Vec::with_capacity(items.len());
    for k in items {
        let time_node = k.get("time")?;
        let time = time_node.finite()?;
        if let Some(prev) = keys.last() {
            if time <= prev.time {
                return Err(time_node.err(format!("key time {time} is not after the previous key's {}", prev.time)));
            }
        }
        let value = pick(k.get("value")?, component)?.finite()?;
        let slope = |field: &str| -> Result<f64, UnityError> {
            match k.opt(field) {
                None => Ok(0.0),
                Some(n) => {
                    let n = pick(n, component)?;
                    let v = n.f64()?;
                    if v.is_nan() {
                        Err(n.err("a slope is NaN"))
                    } else {
                        Ok(v)
                    }
                }
            }
        };
        let weight = |field: &str| -> Result<f64, UnityError> {
            match k.opt(field) {
                None => Ok(1.0 / 3.0),
                Some(n) => match (&n.v, component) {
                    (serde_json::Value::Object(_), Some(_)) => pick(n, component)?.finite(),
                    _ => n.finite(),
                },
            }
        };
        keys.push(Key { time, value, in_slope: slope("inSlope")?, out_slope: slope("outSlope")? });
        modes.push(KeyModes {
            tangent_mode: k.opt("tangentMode").map(|n| n.i64()).transpose()?.unwrap_or(0),
            weighted_mode: k.opt("weightedMode").map(|n| n.i64()).transpose()?.unwrap_or(0),
            in_weight: weight("inWeight")?,
            out_weight: weight("outWeight")?,
        });
    }
    Ok((keys, modes))
}
