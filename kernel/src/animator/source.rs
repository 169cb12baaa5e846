//! Where an [`Animator`](super::Animator) reads its clips from: the [`ClipSource`] trait and the
//! in-RAM [`SliceClips`].
//!
//! Everything is addressed by index and every value is a small `Copy` struct, so a blob read in
//! place from flash (word-addressed, nothing copied to RAM) can implement the trait as well as the
//! slices here do.

use crate::color::Rgba8;
use crate::ease::Ease;
use crate::math::Vec2;
use crate::scalar::Scalar;
use crate::sink::{PropertyId, PropertyValue, TargetId};

/// The kind of value a track animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ValueKind {
    /// A number (moves).
    #[default]
    Float,
    /// A 2D vector (moves per component).
    Vector,
    /// A colour (moves per channel).
    Color,
    /// A flag (always steps).
    Bool,
    /// A string id (always steps; event tracks hold their event names this way).
    Text,
}

impl ValueKind {
    /// Whether values of this kind never interpolate (Bool and Text).
    pub const fn always_steps(self) -> bool {
        matches!(self, ValueKind::Bool | ValueKind::Text)
    }
}

/// What a track animates: a property of a target, or nothing (an event track).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TrackTarget {
    /// A property of this target (an index resolved by the host).
    Node(TargetId),
    /// An event track: each key's value (a [`KeyValue::Text`] string id) fires as an
    /// [`Event::AnimatorEvent`](crate::event::Event::AnimatorEvent) as the key passes.
    Event,
}

/// A key's value.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum KeyValue<S> {
    /// A number.
    Float(S),
    /// A 2D vector.
    Vector(Vec2<S>),
    /// A colour.
    Color(Rgba8),
    /// A flag.
    Bool(bool),
    /// A string id (an event name on an event track).
    Text(u32),
}

impl<S: Scalar> KeyValue<S> {
    /// The kind of this value.
    pub const fn kind(&self) -> ValueKind {
        match self {
            KeyValue::Float(_) => ValueKind::Float,
            KeyValue::Vector(_) => ValueKind::Vector,
            KeyValue::Color(_) => ValueKind::Color,
            KeyValue::Bool(_) => ValueKind::Bool,
            KeyValue::Text(_) => ValueKind::Text,
        }
    }

    /// The value as a sink receives it.
    pub const fn to_property(self) -> PropertyValue<S> {
        match self {
            KeyValue::Float(v) => PropertyValue::Float(v),
            KeyValue::Vector(v) => PropertyValue::Vector(v),
            KeyValue::Color(c) => PropertyValue::Color(c),
            KeyValue::Bool(b) => PropertyValue::Bool(b),
            KeyValue::Text(id) => PropertyValue::Text(id),
        }
    }
}

/// One key of a track: at `time` the track has `value`; towards the next key it moves along
/// `ease` (ignored on stepping tracks).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Key<S> {
    /// Seconds from the clip's start.
    pub time: S,
    /// The value at `time`.
    pub value: KeyValue<S>,
    /// The curve from this key to the next ([`Ease::Linear`] when the source gives none).
    pub ease: Ease<S>,
}

impl<S: Scalar> Key<S> {
    /// A key with a linear ease.
    pub const fn new(time: S, value: KeyValue<S>) -> Self {
        Self { time, value, ease: Ease::Linear }
    }
    /// A key with an ease.
    pub const fn eased(time: S, value: KeyValue<S>, ease: Ease<S>) -> Self {
        Self { time, value, ease }
    }
}

/// What a player needs to know about a clip.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClipInfo<S> {
    /// Length in seconds (a negative length counts as 0).
    pub length: S,
    /// Whether it starts again at its end instead of finishing.
    pub looping: bool,
    /// How many tracks it has.
    pub track_count: usize,
}

/// What a player needs to know about a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TrackInfo {
    /// What it animates.
    pub target: TrackTarget,
    /// The property it writes (unused on event tracks).
    pub property: PropertyId,
    /// The kind of its values.
    pub kind: ValueKind,
    /// Holds each key's value until the next key instead of moving.
    pub step: bool,
    /// How many keys it has.
    pub key_count: usize,
}

impl TrackInfo {
    /// Whether the track holds each key until the next: a `step` track, or a Bool or Text track.
    pub const fn steps(&self) -> bool {
        self.step || self.kind.always_steps()
    }
}

/// Read-only clip data an [`Animator`](super::Animator) plays: implemented over caller-owned
/// slices by [`SliceClips`], and (next) over a blob read in place.
///
/// Keys of a track must be sorted by time (ties allowed; the later key wins at the shared time);
/// unsorted keys give unspecified values and events, never a panic. Implementations must not
/// panic; out-of-range indices return `None`.
pub trait ClipSource<S: Scalar> {
    /// The number of clips.
    fn clip_count(&self) -> usize;
    /// Clip `clip`, or `None` past the last.
    fn clip(&self, clip: usize) -> Option<ClipInfo<S>>;
    /// The index of the clip called `name` (the first one, if several share it).
    fn find(&self, name: &str) -> Option<usize>;
    /// Track `track` of clip `clip`.
    fn track(&self, clip: usize, track: usize) -> Option<TrackInfo>;
    /// Key `key` of track `track` of clip `clip`.
    fn key(&self, clip: usize, track: usize, key: usize) -> Option<Key<S>>;
    /// Only the time of a key (the player's searches call this; a blob can read one word).
    fn key_time(&self, clip: usize, track: usize, key: usize) -> Option<S> {
        self.key(clip, track, key).map(|k| k.time)
    }
    /// The clip [`Animator::start`](super::Animator::start) plays (the node's `autoplay`).
    fn autoplay(&self) -> Option<usize> {
        None
    }
}

/// A track held in caller-owned memory, for [`SliceClips`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Track<'a, S> {
    /// What it animates.
    pub target: TrackTarget,
    /// The property it writes (unused on event tracks).
    pub property: PropertyId,
    /// The kind of its values.
    pub kind: ValueKind,
    /// Holds each key until the next.
    pub step: bool,
    /// Its keys, sorted by time.
    pub keys: &'a [Key<S>],
}

impl<'a, S: Scalar> Track<'a, S> {
    /// A (non-step) track writing `property` of `target`.
    pub const fn new(target: TargetId, property: PropertyId, kind: ValueKind, keys: &'a [Key<S>]) -> Self {
        Self { target: TrackTarget::Node(target), property, kind, step: false, keys }
    }
    /// An event track; its keys' values are [`KeyValue::Text`] event-name ids.
    pub const fn events(keys: &'a [Key<S>]) -> Self {
        Self { target: TrackTarget::Event, property: 0, kind: ValueKind::Text, step: true, keys }
    }
    /// Sets the `step` flag.
    pub const fn stepped(mut self, step: bool) -> Self {
        self.step = step;
        self
    }
}

/// A clip held in caller-owned memory, for [`SliceClips`].
///
/// ```
/// use ossicle::animator::{Clip, Key, KeyValue, Track, ValueKind};
/// use ossicle::sink::property;
/// let keys = [Key::new(0.0f32, KeyValue::Float(0.0)), Key::new(1.0, KeyValue::Float(10.0))];
/// let tracks = [Track::new(0, property::POSITION_X, ValueKind::Float, &keys)];
/// let slide = Clip::new("slide", 1.0f32, &tracks).looping(true);
/// assert!(slide.looping);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clip<'a, S> {
    /// The name it is played by.
    pub name: &'a str,
    /// Length in seconds.
    pub length: S,
    /// Whether it loops.
    pub looping: bool,
    /// Its tracks.
    pub tracks: &'a [Track<'a, S>],
}

impl<'a, S: Scalar> Clip<'a, S> {
    /// A non-looping clip.
    pub const fn new(name: &'a str, length: S, tracks: &'a [Track<'a, S>]) -> Self {
        Self { name, length, looping: false, tracks }
    }
    /// Sets whether it loops.
    pub const fn looping(mut self, looping: bool) -> Self {
        self.looping = looping;
        self
    }
}

/// A [`ClipSource`] over a caller-owned slice of [`Clip`]s (tests, and clips built in code, like the
/// Odin engine's `Animator_SetClips`). Clip indices are positions in the slice.
///
/// ```
/// use ossicle::animator::{Clip, ClipSource, Key, KeyValue, SliceClips, Track, ValueKind};
/// let keys = [Key::new(0.0f32, KeyValue::Bool(true))];
/// let tracks = [Track::new(3, ossicle::sink::property::VISIBLE, ValueKind::Bool, &keys)];
/// let clips = [Clip::new("show", 0.5f32, &tracks)];
/// let src = SliceClips::new(&clips).with_autoplay(Some(0));
/// assert_eq!(src.find("show"), Some(0));
/// assert_eq!(src.track(0, 0).map(|t| t.key_count), Some(1));
/// assert_eq!(src.autoplay(), Some(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SliceClips<'a, S> {
    /// The clips.
    pub clips: &'a [Clip<'a, S>],
    /// The clip played by [`Animator::start`](super::Animator::start).
    pub autoplay: Option<usize>,
}

impl<'a, S> SliceClips<'a, S> {
    /// A source over `clips`, without autoplay.
    pub const fn new(clips: &'a [Clip<'a, S>]) -> Self {
        Self { clips, autoplay: None }
    }
    /// Sets the autoplay clip.
    pub const fn with_autoplay(mut self, autoplay: Option<usize>) -> Self {
        self.autoplay = autoplay;
        self
    }
}

impl<S: Scalar> ClipSource<S> for SliceClips<'_, S> {
    fn clip_count(&self) -> usize {
        self.clips.len()
    }

    fn clip(&self, clip: usize) -> Option<ClipInfo<S>> {
        self.clips.get(clip).map(|c| ClipInfo { length: c.length, looping: c.looping, track_count: c.tracks.len() })
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name == name)
    }

    fn track(&self, clip: usize, track: usize) -> Option<TrackInfo> {
        let t = self.clips.get(clip)?.tracks.get(track)?;
        Some(TrackInfo { target: t.target, property: t.property, kind: t.kind, step: t.step, key_count: t.keys.len() })
    }

    fn key(&self, clip: usize, track: usize, key: usize) -> Option<Key<S>> {
        self.clips.get(clip)?.tracks.get(track)?.keys.get(key).copied()
    }

    fn autoplay(&self) -> Option<usize> {
        self.autoplay
    }
}
