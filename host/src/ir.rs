//! The host's intermediate representation: what every source parser produces and the blob writer
//! consumes. Parsers never write blob bytes; the writer never knows which source a value came from.

/// Everything that goes into one blob.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Project {
    /// Strings to put in the string table even if nothing refers to them (names for tools).
    pub strings: Vec<String>,
    /// Named scalar arrays (test sections).
    pub tests: Vec<TestArray>,
    /// Sprites: frames (RGBA pixels) and animations.
    pub sprites: Vec<Sprite>,
    /// Scenes: node trees with Animators and state machines.
    pub scenes: Vec<crate::sources::scene::SceneIr>,
    /// Skeletons (Skeleton sections).
    pub skeletons: Vec<SkeletonIr>,
    /// Skeletal clips (SkelClip sections).
    pub skel_clips: Vec<SkelClipIr>,
    /// Unity clips read but not converted yet: [`crate::unity::resolve`] converts them once every
    /// source is loaded (their paths resolve against the build's skeletons).
    pub unity: Vec<UnitySource>,
    /// Notes about what a conversion approximated (printed by `ossicle build`).
    pub notes: Vec<String>,
}

/// A Unity clip as read, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitySource {
    /// The decoded clip.
    pub clip: crate::unity::Clip,
    /// The file.
    pub origin: Origin,
}

/// A named array of scalar values.
#[derive(Debug, Clone, PartialEq)]
pub struct TestArray {
    /// The name.
    pub name: String,
    /// The values, exactly as the source gave them.
    pub values: Vec<f64>,
    /// Where the array came from (`FILE` and a JSON pointer), for errors the writer finds.
    pub origin: Origin,
}

/// Where a piece of IR came from, so later stages can still name the file and place.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// The source file.
    pub file: std::path::PathBuf,
    /// The place in it (JSON pointer, line:column...).
    pub place: String,
}

impl Project {
    /// Appends another project's content (several sources build one blob).
    pub fn merge(&mut self, other: Project) {
        self.strings.extend(other.strings);
        self.tests.extend(other.tests);
        self.sprites.extend(other.sprites);
        self.scenes.extend(other.scenes);
        self.skeletons.extend(other.skeletons);
        self.skel_clips.extend(other.skel_clips);
        self.unity.extend(other.unity);
        self.notes.extend(other.notes);
    }
}

/// A sprite: a canvas size, frames placed in it, and animations over the frames. Every sprite
/// source (Aseprite, Aseprite JSON, TexturePacker, PNG sequences, `.anim.xml`) produces this.
#[derive(Debug, Clone, PartialEq)]
pub struct Sprite {
    /// The name it is rendered and looked up by (unique within a blob).
    pub name: String,
    /// Canvas width: the untrimmed frame size (Aseprite's canvas, TexturePacker's `sourceSize`).
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// The frames, in source order (animations refer to them by index).
    pub frames: Vec<SpriteFrame>,
    /// The animations.
    pub animations: Vec<SpriteAnimation>,
    /// Where the sprite came from.
    pub origin: Origin,
}

/// One frame: a (possibly trimmed) RGBA image placed in the canvas.
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteFrame {
    /// The pixels: `width × height` RGBA8 pixels, row-major, straight (not premultiplied) alpha.
    pub image: RgbaImage,
    /// Where the image's top-left pixel sits in the canvas (trimmed frames keep their offset so they
    /// do not jitter). The image lies inside the canvas.
    pub x: i32,
    /// See `x`.
    pub y: i32,
    /// The frame's own duration in seconds, when the source gives one per frame (Aseprite).
    pub duration: Option<f64>,
    /// Event names the frame carries whenever it shows (Aseprite cel user data, comma separated).
    pub events: Vec<String>,
    /// Where the frame came from (file and frame name/number), for messages.
    pub origin: Origin,
}

/// An RGBA8 image.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height` pixels, row-major, `[r, g, b, a]`.
    pub pixels: Vec<[u8; 4]>,
}

impl RgbaImage {
    /// A fully transparent image.
    pub fn new(width: u32, height: u32) -> Self {
        Self { width, height, pixels: vec![[0; 4]; width as usize * height as usize] }
    }

    /// Pixel (x, y), or `None` outside.
    pub fn get(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.pixels.get(y as usize * self.width as usize + x as usize).copied()
    }

    /// Sets pixel (x, y); does nothing outside.
    pub fn set(&mut self, x: u32, y: u32, p: [u8; 4]) {
        if x < self.width && y < self.height {
            if let Some(d) = self.pixels.get_mut(y as usize * self.width as usize + x as usize) {
                *d = p;
            }
        }
    }
}

/// Which frames an animation plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpriteFrames {
    /// Frames `start..=end` (counting down when `end < start`).
    Range {
        /// First frame.
        start: u32,
        /// Last frame, inclusive.
        end: u32,
    },
    /// An explicit sequence of frame indices (frames may repeat).
    List(Vec<u32>),
}

/// How an animation steps through its frames: the kernel's own `PlayMode` (Forward, Reverse,
/// PingPong, PingPongReverse).
pub use ossicle::sprite::PlayMode;

/// One animation of a sprite.
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteAnimation {
    /// Its name (unique within the sprite).
    pub name: String,
    /// The frames it plays.
    pub frames: SpriteFrames,
    /// Frames per second for frames without a duration; ≤ 0 holds them.
    pub fps: f64,
    /// Seconds per relative frame (overrides `fps`), one per played frame, when the source has them.
    pub durations: Option<Vec<f64>>,
    /// Loops for ever.
    pub looping: bool,
    /// Passes (or ping-pong directions) when not looping; 0 or 1 = once.
    pub repeat: u32,
    /// The play mode.
    pub mode: PlayMode,
    /// Event names per relative frame (one list per played frame), when the source gives them per
    /// animation; `None` uses the frames' own `events`.
    pub events: Option<Vec<Vec<String>>>,
    /// Where it was defined.
    pub origin: Origin,
}

/// A 3D bone transform: translation, rotation (a unit quaternion x, y, z, w) and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform3 {
    /// Translation (x, y, z), in the source's units (Mixamo: centimetres).
    pub translation: [f64; 3],
    /// Rotation as a quaternion (x, y, z, w).
    pub rotation: [f64; 4],
    /// Scale (x, y, z).
    pub scale: [f64; 3],
}

impl Transform3 {
    /// No translation, no rotation, scale 1.
    pub const IDENTITY: Self = Self { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] };
}

/// One bone of a [`SkeletonIr`].
#[derive(Debug, Clone, PartialEq)]
pub struct BoneIr {
    /// Its name (unique within the skeleton).
    pub name: String,
    /// Its parent's index, always smaller than its own (`None` for a root).
    pub parent: Option<usize>,
    /// Its bind (rest) pose, relative to the parent.
    pub bind: Transform3,
}

/// A skeleton: bones in parent-before-child order with their bind pose (EVA text defines one).
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletonIr {
    /// Its name (the source file's stem unless the source names it).
    pub name: String,
    /// The bones; a bone's parent comes before it.
    pub bones: Vec<BoneIr>,
    /// Where it came from.
    pub origin: Origin,
}

/// A key of a skeletal channel: a time and `N` components (3 for translation and scale, 4 for a
/// rotation quaternion x, y, z, w).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChannelKey<const N: usize> {
    /// Seconds from the clip's start.
    pub time: f64,
    /// The value.
    pub value: [f64; N],
}

/// How a skeletal channel's keys are interpolated (the blob's per-channel interpolation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum ChannelInterp {
    /// Each key's value holds until the next key.
    Step,
    /// Straight lines between keys (rotations: nlerp on the shortest arc).
    #[default]
    Linear,
    /// Cubic Hermite segments with each key's incoming and outgoing tangents (value units per
    /// second), per component (rotations: then normalised).
    Hermite,
}

impl ChannelInterp {
    /// The name used in messages and JSON (`step`, `linear`, `hermite`).
    pub fn name(self) -> &'static str {
        match self {
            ChannelInterp::Step => "step",
            ChannelInterp::Linear => "linear",
            ChannelInterp::Hermite => "hermite",
        }
    }
}

/// The tangents of one Hermite key: its incoming and outgoing slopes per component (value units per
/// second).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyTangents<const N: usize> {
    /// The slope arriving at the key (the end of the segment before it).
    pub incoming: [f64; N],
    /// The slope leaving the key (the start of the segment after it).
    pub outgoing: [f64; N],
}

/// The channels of one bone in a [`SkelClipIr`], named by bone (EVAC carries no hierarchy: names
/// are bound to a skeleton's bones when the blob is written).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoneTrackIr {
    /// The bone's name.
    pub bone: String,
    /// Translation keys, times strictly increasing.
    pub translation: Vec<ChannelKey<3>>,
    /// Rotation keys (quaternions x, y, z, w), times strictly increasing.
    pub rotation: Vec<ChannelKey<4>>,
    /// Scale keys, times strictly increasing.
    pub scale: Vec<ChannelKey<3>>,
    /// Each channel's interpolation (translation, rotation, scale); EVA and EVAC: linear.
    pub interpolation: [ChannelInterp; 3],
    /// The translation keys' tangents, one per key when its interpolation is Hermite (else empty).
    pub translation_tangents: Vec<KeyTangents<3>>,
    /// The rotation keys' tangents, one per key when its interpolation is Hermite (else empty).
    pub rotation_tangents: Vec<KeyTangents<4>>,
    /// The scale keys' tangents, one per key when its interpolation is Hermite (else empty).
    pub scale_tangents: Vec<KeyTangents<3>>,
}

impl BoneTrackIr {
    /// Linear channels with these keys.
    pub fn linear(
        bone: impl Into<String>,
        translation: Vec<ChannelKey<3>>,
        rotation: Vec<ChannelKey<4>>,
        scale: Vec<ChannelKey<3>>,
    ) -> Self {
        Self { bone: bone.into(), translation, rotation, scale, ..Self::default() }
    }

    /// Whether every channel is linear (the only kind EVAC holds, and the reducer reduces).
    pub fn is_linear(&self) -> bool {
        self.interpolation == [ChannelInterp::Linear; 3]
    }
}

/// A skeletal clip event: a name at a time (Unity's `m_Events`; EVA and EVAC have none).
#[derive(Debug, Clone, PartialEq)]
pub struct SkelEventIr {
    /// Seconds from the clip's start, within `[0, duration]`.
    pub time: f64,
    /// The event's name.
    pub name: String,
}

/// A skeletal clip: per-bone channels of keys (EVA text and EVAC define one each).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SkelClipIr {
    /// Its name.
    pub name: String,
    /// Length in seconds.
    pub duration: f64,
    /// The sample rate the source states (informative: keys carry their own times).
    pub sample_rate: f64,
    /// Whether it loops.
    pub looping: bool,
    /// The animated bones' tracks.
    pub tracks: Vec<BoneTrackIr>,
    /// Its events, sorted by time.
    pub events: Vec<SkelEventIr>,
    /// The skeleton it came with (an EVA file's own), if any; an EVAC clip has none and is bound
    /// to a skeleton another input of the same build defines.
    pub skeleton: Option<String>,
    /// Where it came from.
    pub origin: Origin,
}
