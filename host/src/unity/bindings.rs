//! `m_ClipBindingConstant.genericBindings`: how many curves each binding takes, what each curve
//! animates, and Euler rotations as quaternions.
//!
//! A Transform binding (typeID 4; `classID` in files older than Unity 5.6) takes 3 curves for
//! attribute 1 (local position x, y, z), 4 for 2 (rotation quaternion x, y, z, w), 3 for 3 (scale)
//! and 3 for 4 (Euler angles in degrees, rotation order in `customType`); every other binding takes
//! one curve. Transform or not is decided by the typeID alone, never by `customType` or by the path.
//!
//! ```
//! use ossicle_host::unity::bindings::{expand, GenericBinding};
//! let position = GenericBinding { type_id: 4, attribute: 1, ..GenericBinding::default() };
//! let float = GenericBinding { type_id: 114, attribute: 12345, ..GenericBinding::default() };
//! let curves = expand(&[position, float], 4, "the clip's 4 curves").unwrap();
//! assert_eq!(curves.len(), 4);
//! assert_eq!((curves[2].component, curves[3].attribute), (2, 12345));
//! ```

use super::UnityError;

/// The Transform class ID.
pub const TRANSFORM: i64 = 4;
/// The Animator class ID (humanoid muscle curves bind to it with `customType` 8).
pub const ANIMATOR: i64 = 95;
/// `customType` of a humanoid muscle binding on the Animator.
pub const CUSTOM_MUSCLE: i64 = 8;

/// Unity class IDs of objects whose properties clips animate (Unity's ClassIDReference): a binding
/// with any other typeID is refused, since its curve count would be a guess.
pub const KNOWN_TYPE_IDS: &[(i64, &str)] = &[
    (1, "GameObject"),
    (4, "Transform"),
    (8, "Behaviour"),
    (20, "Camera"),
    (23, "MeshRenderer"),
    (25, "Renderer"),
    (33, "MeshFilter"),
    (50, "Rigidbody2D"),
    (54, "Rigidbody"),
    (56, "Collider"),
    (57, "Joint"),
    (58, "CircleCollider2D"),
    (59, "HingeJoint"),
    (60, "PolygonCollider2D"),
    (61, "BoxCollider2D"),
    (64, "MeshCollider"),
    (65, "BoxCollider"),
    (66, "CompositeCollider2D"),
    (68, "EdgeCollider2D"),
    (70, "CapsuleCollider2D"),
    (81, "AudioListener"),
    (82, "AudioSource"),
    (92, "GUITexture"),
    (95, "Animator"),
    (96, "TrailRenderer"),
    (102, "TextMesh"),
    (108, "Light"),
    (111, "Animation"),
    (114, "MonoBehaviour"),
    (119, "Projector"),
    (120, "LineRenderer"),
    (122, "Halo"),
    (123, "LensFlare"),
    (124, "FlareLayer"),
    (135, "SphereCollider"),
    (136, "CapsuleCollider"),
    (137, "SkinnedMeshRenderer"),
    (143, "CharacterController"),
    (146, "WheelCollider"),
    (153, "ConfigurableJoint"),
    (161, "AudioReverbZone"),
    (164, "AudioReverbFilter"),
    (165, "AudioHighPassFilter"),
    (166, "AudioChorusFilter"),
    (167, "AudioEchoFilter"),
    (168, "AudioLowPassFilter"),
    (169, "AudioDistortionFilter"),
    (180, "AudioBehaviour"),
    (182, "WindZone"),
    (183, "Cloth"),
    (192, "OcclusionArea"),
    (195, "NavMeshAgent"),
    (198, "ParticleSystem"),
    (199, "ParticleSystemRenderer"),
    (205, "LODGroup"),
    (208, "NavMeshObstacle"),
    (210, "SortingGroup"),
    (212, "SpriteRenderer"),
    (215, "ReflectionProbe"),
    (220, "LightProbeGroup"),
    (222, "CanvasRenderer"),
    (223, "Canvas"),
    (224, "RectTransform"),
    (225, "CanvasGroup"),
    (226, "BillboardRenderer"),
    (227, "BillboardAsset"),
    (229, "SpringJoint2D"),
    (231, "DistanceJoint2D"),
    (233, "HingeJoint2D"),
    (245, "SliderJoint2D"),
    (320, "PlayableDirector"),
    (328, "VideoPlayer"),
    (331, "SpriteMask"),
    (19_719_996, "TilemapCollider2D"),
    (73_398_921, "VFXRenderer"),
    (483_693_784, "TilemapRenderer"),
    (1_839_735_485, "Tilemap"),
    (2_083_052_967, "VisualEffect"),
];

/// The class name of a known typeID.
pub fn type_name(type_id: i64) -> Option<&'static str> {
    KNOWN_TYPE_IDS.iter().find(|(id, _)| *id == type_id).map(|(_, n)| *n)
}

/// A Euler rotation order (Unity's `RotationOrder`, the order the axis rotations apply in: `ZXY`
/// rotates about z first, then x, then y, i.e. q = qy · qx · qz).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RotationOrder {
    /// 0.
    Xyz,
    /// 1.
    Xzy,
    /// 2.
    Yzx,
    /// 3.
    Yxz,
    /// 4, Unity's default.
    Zxy,
    /// 5.
    Zyx,
}

impl RotationOrder {
    /// The order of Unity's value 0 to 5.
    pub fn from_unity(v: i64) -> Option<Self> {
        Some(match v {
            0 => RotationOrder::Xyz,
            1 => RotationOrder::Xzy,
            2 => RotationOrder::Yzx,
            3 => RotationOrder::Yxz,
            4 => RotationOrder::Zxy,
            5 => RotationOrder::Zyx,
            _ => return None,
        })
    }

    /// The axes (0 x, 1 y, 2 z) in the order they apply.
    pub fn axes(self) -> [usize; 3] {
        match self {
            RotationOrder::Xyz => [0, 1, 2],
            RotationOrder::Xzy => [0, 2, 1],
            RotationOrder::Yzx => [1, 2, 0],
            RotationOrder::Yxz => [1, 0, 2],
            RotationOrder::Zxy => [2, 0, 1],
            RotationOrder::Zyx => [2, 1, 0],
        }
    }
}

/// Euler angles in degrees (x, y, z) to a unit quaternion (x, y, z, w): the axis rotations applied
/// in `order` (the first applied is the rightmost factor).
///
/// ```
/// use ossicle_host::unity::bindings::{euler_to_quat, RotationOrder};
/// let q = euler_to_quat([0.0, 90.0, 0.0], RotationOrder::Zxy);
/// let h = std::f64::consts::FRAC_1_SQRT_2;
/// assert!((q[1] - h).abs() < 1e-12 && (q[3] - h).abs() < 1e-12);
/// ```
pub fn euler_to_quat(degrees: [f64; 3], order: RotationOrder) -> [f64; 4] {
    let mut q = [0.0, 0.0, 0.0, 1.0];
    for axis in order.axes() {
        let half = degrees[axis].to_radians() * 0.5;
        let mut r = [0.0, 0.0, 0.0, half.cos()];
        r[axis] = half.sin();
        q = quat_mul(r, q);
    }
    q
}

/// The Hamilton product a · b of quaternions (x, y, z, w).
pub fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    crate::reduce::qmul(a, b)
}

/// One entry of `genericBindings`, as read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GenericBinding {
    /// CRC-32 of the target's path.
    pub path: u32,
    /// The attribute: for Transform 1 to 4, for a muscle its index, otherwise a property hash.
    pub attribute: u32,
    /// The class ID of the animated component (`typeID`, or `classID` before Unity 5.6).
    pub type_id: i64,
    /// `customType` (Euler rotation order for Transform attribute 4, 8 for muscles, ...).
    pub custom_type: i64,
    /// `isPPtrCurve`: an object-reference curve.
    pub is_pptr: bool,
    /// `isIntCurve`: an int curve (the integer's bits in the value).
    pub is_int: bool,
    /// Where it was read (a JSON pointer, or `line N`), for errors.
    pub place: String,
}

/// What one curve animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BindingKind {
    /// Transform local position (component 0..3 = x, y, z).
    Position,
    /// Transform local rotation quaternion (component 0..4 = x, y, z, w).
    Rotation,
    /// Transform local scale.
    Scale,
    /// Transform Euler angles in degrees, in this rotation order.
    Euler(RotationOrder),
    /// A float property.
    Float,
    /// An int property (`isIntCurve`).
    Int,
    /// An object reference (`isPPtrCurve`): the value indexes `pptrCurveMapping`.
    PPtr,
    /// A humanoid muscle (typeID 95, customType 8): "muscle #attribute".
    Muscle,
}

/// The binding of one curve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// CRC-32 of the target's path.
    pub path: u32,
    /// The class ID.
    pub type_id: i64,
    /// The attribute.
    pub attribute: u32,
    /// Which component of a multi-curve binding (0 otherwise).
    pub component: u8,
    /// `customType`.
    pub custom_type: i64,
    /// What it is.
    pub kind: BindingKind,
    /// The index of its entry in `genericBindings`.
    pub generic_index: usize,
}

impl Binding {
    /// "muscle #N" for a humanoid muscle curve.
    pub fn muscle_name(&self) -> Option<String> {
        matches!(self.kind, BindingKind::Muscle).then(|| format!("muscle #{}", self.attribute))
    }
}

/// The kind and curve count of one generic binding.
pub fn classify(b: &GenericBinding) -> Result<(BindingKind, usize), UnityError> {
    let err = |reason: String| place_error(&b.place, reason);
    if type_name(b.type_id).is_none() {
        return Err(err(format!(
            "typeID {} is not a known Unity class ID of an animatable component (Transform is 4)",
            b.type_id
        )));
    }
    if b.type_id == TRANSFORM {
        return Ok(match b.attribute {
            1 => (BindingKind::Position, 3),
            2 => (BindingKind::Rotation, 4),
            3 => (BindingKind::Scale, 3),
            4 => match RotationOrder::from_unity(b.custom_type) {
                Some(order) => (BindingKind::Euler(order), 3),
                None => {
                    return Err(err(format!(
                        "customType {} of a Transform Euler binding (attribute 4) is not a rotation order 0..=5",
                        b.custom_type
                    )))
                }
            },
            a => {
                return Err(err(format!(
                    "attribute {a} of a Transform binding (typeID 4) is not 1 (position), 2 (rotation), 3 (scale) \
                     or 4 (Euler)"
                )))
            }
        });
    }
    let kind = if b.is_pptr {
        BindingKind::PPtr
    } else if b.type_id == ANIMATOR && b.custom_type == CUSTOM_MUSCLE {
        BindingKind::Muscle
    } else if b.is_int {
        BindingKind::Int
    } else {
        BindingKind::Float
    };
    Ok((kind, 1))
}

/// Expands generic bindings into one binding per curve, checking that they take exactly `curves`
/// curves (`what` describes the curves present, for the error).
pub fn expand(generic: &[GenericBinding], curves: usize, what: &str) -> Result<Vec<Binding>, UnityError> {
    let mut out = Vec::with_capacity(curves.min(1 << 20));
    for (i, g) in generic.iter().enumerate() {
        let (kind, n) = classify(g)?;
        if out.len().saturating_add(n) > curves {
            return Err(place_error(
                &g.place,
                format!(
                    "genericBindings take more curves than {what}: bindings 0..={i} already need {} curves",
                    out.len().saturating_add(n)
                ),
            ));
        }
        for c in 0..n {
            out.push(Binding {
                path: g.path,
                type_id: g.type_id,
                attribute: g.attribute,
                component: c as u8,
                custom_type: g.custom_type,
                kind,
                generic_index: i,
            });
        }
    }
    if out.len() != curves {
        let place = generic.first().map(|g| parent_place(&g.place)).unwrap_or_default();
        return Err(place_error(&place, format!("genericBindings take {} curves, but there are {what}", out.len())));
    }
    Ok(out)
}

/// An error at a place string: a JSON pointer (starts with `/` or is empty) or `line N`.
pub(crate) fn place_error(place: &str, reason: String) -> UnityError {
    match place.strip_prefix("line ").and_then(|n| n.parse().ok()) {
        Some(line) => UnityError::yaml(line, reason),
        None => UnityError::json(place, reason),
    }
}

/// The pointer of the array holding a JSON binding (`.../genericBindings/3` -> `.../genericBindings`).
fn parent_place(place: &str) -> String {
    if place.starts_with('/') {
        match place.rfind('/') {
            Some(i) => place.get(..i).unwrap_or(place).to_string(),
            None => place.to_string(),
        }
    } else {
        place.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quat_mul_identity_and_axes() {
        let i = [0.0, 0.0, 0.0, 1.0];
        let x = [1.0, 0.0, 0.0, 0.0];
        let y = [0.0, 1.0, 0.0, 0.0];
        assert_eq!(quat_mul(i, x), x);
        // i * j = k
        assert_eq!(quat_mul(x, y), [0.0, 0.0, 1.0, 0.0]);
    }
}
