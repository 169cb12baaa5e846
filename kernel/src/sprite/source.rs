//! Where a sprite player reads its animations from: the [`SpriteSource`] trait and the in-RAM
//! [`SliceSource`].

use crate::scalar::Scalar;

/// How an animation steps through its frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PlayMode {
    /// First frame to last.
    #[default]
    Forward,
    /// Last frame to first.
    Reverse,
    /// First to last and back (`0 1 2 1 0 1 2 …`: the turn frames show once). One full
    /// there-and-back is one loop.
    PingPong,
    /// Last to first and back (Aseprite's "Ping-pong Reverse").
    PingPongReverse,
}

/// What a player needs to know about an animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AnimationInfo {
    /// How many frames the animation selects (0 cannot be played).
    pub frame_count: u32,
    /// Whether it starts again after its last pass instead of ending.
    pub looping: bool,
    /// For a non-looping animation, how often it plays before it ends (0 or 1: once). For
    /// [`PlayMode::PingPong`] and [`PlayMode::PingPongReverse`] each *direction* counts as one
    /// repeat, as Aseprite exports a tag's repeat: 1 plays `0 1 2`, 2 plays `0 1 2 1 0`, 3 plays
    /// `0 1 2 1 0 1 2`; a one-frame ping-pong shows its frame `repeat` times. (Checked against the
    /// sequences of Aseprite's own playback tests, `src/doc/playback_tests.cpp`: tag C `6..8`
    /// ping-pong repeat 3 plays `6 7 8 7 6 7 8`, tag D `10..12` ping-pong reverse repeat 2 plays
    /// `12 11 10 11 12`.)
    pub repeat: u32,
    /// How it steps through its frames.
    pub mode: PlayMode,
}

/// One frame of an animation, as a player reads it.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct FrameRef<S> {
    /// The source frame it shows (sheet cell or atlas frame index).
    pub source: u32,
    /// How long it shows, in seconds at speed 1; `None` (or a value ≤ 0) holds the frame.
    pub duration: Option<S>,
    /// How many event names it carries (read with [`SpriteSource::frame_event`]).
    pub event_count: u32,
}

/// Read-only animation data a [`SpritePlayer`](super::SpritePlayer) plays: implemented over
/// caller-owned slices by [`SliceSource`], and over a blob read in place from flash by the asset
/// loader. Frame numbers are relative to the animation: 0 is its first selected frame.
///
/// Implementations must not panic; out-of-range indices return `None`.
pub trait SpriteSource<S: Scalar> {
    /// The number of animations.
    fn animation_count(&self) -> usize;
    /// Animation `index`, or `None` past the last.
    fn animation(&self, index: usize) -> Option<AnimationInfo>;
    /// The index of the animation called `name`.
    fn find(&self, name: &str) -> Option<usize>;
    /// Frame `frame` of animation `animation`.
    fn frame(&self, animation: usize, frame: u32) -> Option<FrameRef<S>>;
    /// The string id of event name `event` of a frame (`event < event_count`).
    fn frame_event(&self, animation: usize, frame: u32, event: u32) -> Option<u32>;
}

/// Which source frames an animation plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Frames<'a> {
    /// Source frames `start..=end` (both inclusive; counting down if `end < start`).
    Range {
        /// First source frame.
        start: u32,
        /// Last source frame, inclusive.
        end: u32,
    },
    /// An explicit sequence of source frames (for example `[1, 2, 1, 3]`: frames shared, pixels not
    /// duplicated).
    List(&'a [u32]),
}

impl Frames<'_> {
    /// The number of frames selected.
    pub fn len(&self) -> u32 {
        match *self {
            Frames::Range { start, end } => start.abs_diff(end).saturating_add(1),
            Frames::List(l) => u32::try_from(l.len()).unwrap_or(u32::MAX),
        }
    }

    /// Whether nothing is selected (only an empty list).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The source frame of relative frame `k`.
    pub fn get(&self, k: u32) -> Option<u32> {
        match *self {
            Frames::Range { start, end } => {
                if k >= self.len() {
                    None
                } else if end >= start {
                    start.checked_add(k)
                } else {
                    start.checked_sub(k)
                }
            }
            Frames::List(l) => l.get(usize::try_from(k).ok()?).copied(),
        }
    }
}

/// An animation held in caller-owned memory, for [`SliceSource`].
///
/// ```
/// use ossicle::sprite::{Frames, PlayMode, SpriteAnimation};
/// let walk = SpriteAnimation::new("walk", Frames::Range { start: 0, end: 3 }, 10.0f32).looping(true);
/// let hit = SpriteAnimation::new("hit", Frames::List(&[4, 5, 4]), 12.0f32).mode(PlayMode::PingPong);
/// assert_eq!(walk.frames.len() + hit.frames.len(), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpriteAnimation<'a, S> {
    /// The name it is played by.
    pub name: &'a str,
    /// The source frames it plays.
    pub frames: Frames<'a>,
    /// Frames per second for frames without a duration; ≤ 0 holds them.
    pub fps: S,
    /// Seconds each frame shows (relative frames), overriding `fps` where given and > 0.
    pub durations: &'a [S],
    /// Restart after the last pass instead of ending.
    pub looping: bool,
    /// See [`AnimationInfo::repeat`].
    pub repeat: u32,
    /// How it steps through its frames.
    pub mode: PlayMode,
    /// Each relative frame's event-name string ids (missing entries: none).
    pub events: &'a [&'a [u32]],
}

impl<'a, S: Scalar> SpriteAnimation<'a, S> {
    /// A non-looping, forward animation of `frames` at `fps`, without durations or events.
    pub fn new(name: &'a str, frames: Frames<'a>, fps: S) -> Self {
        Self { name, frames, fps, durations: &[], looping: false, repeat: 0, mode: PlayMode::Forward, events: &[] }
    }
    /// Sets whether it loops.
    pub fn looping(mut self, looping: bool) -> Self {
        self.looping = looping;
        self
    }
    /// Sets the repeat count.
    pub fn repeat(mut self, repeat: u32) -> Self {
        self.repeat = repeat;
        self
    }
    /// Sets the play mode.
    pub fn mode(mut self, mode: PlayMode) -> Self {
        self.mode = mode;
        self
    }
    /// Sets per-frame durations.
    pub fn durations(mut self, durations: &'a [S]) -> Self {
        self.durations = durations;
        self
    }
    /// Sets per-frame event-name ids.
    pub fn events(mut self, events: &'a [&'a [u32]]) -> Self {
        self.events = events;
        self
    }

    fn duration(&self, k: u32) -> Option<S> {
        let i = usize::try_from(k).ok()?;
        match self.durations.get(i) {
            Some(&d) if d > S::ZERO => Some(d),
            _ if self.fps > S::ZERO => Some(S::ONE.div(self.fps)),
            _ => None,
        }
    }

    fn frame_events(&self, k: u32) -> &'a [u32] {
        usize::try_from(k).ok().and_then(|i| self.events.get(i)).copied().unwrap_or(&[])
    }
}

/// A [`SpriteSource`] over a caller-owned slice of [`SpriteAnimation`]s (tests, and animations built
/// in code). Animation indices are positions in the slice; `find` returns the first with the name.
///
/// ```
/// use ossicle::sprite::{Frames, SliceSource, SpriteAnimation, SpriteSource};
/// let anims = [SpriteAnimation::new("idle", Frames::Range { start: 0, end: 1 }, 4.0f32)];
/// let src = SliceSource::new(&anims);
/// assert_eq!(src.find("idle"), Some(0));
/// assert_eq!(src.frame(0, 1).map(|f| f.source), Some(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SliceSource<'a, S> {
    /// The animations.
    pub animations: &'a [SpriteAnimation<'a, S>],
}

impl<'a, S> SliceSource<'a, S> {
    /// A source over `animations`.
    pub const fn new(animations: &'a [SpriteAnimation<'a, S>]) -> Self {
        Self { animations }
    }
}

impl<S: Scalar> SpriteSource<S> for SliceSource<'_, S> {
    fn animation_count(&self) -> usize {
        self.animations.len()
    }

    fn animation(&self, index: usize) -> Option<AnimationInfo> {
        self.animations.get(index).map(|a| AnimationInfo {
            frame_count: a.frames.len(),
            looping: a.looping,
            repeat: a.repeat,
            mode: a.mode,
        })
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.animations.iter().position(|a| a.name == name)
    }

    fn frame(&self, animation: usize, frame: u32) -> Option<FrameRef<S>> {
        let a = self.animations.get(animation)?;
        let source = a.frames.get(frame)?;
        let event_count = u32::try_from(a.frame_events(frame).len()).unwrap_or(u32::MAX);
        Some(FrameRef { source, duration: a.duration(frame), event_count })
    }

    fn frame_event(&self, animation: usize, frame: u32, event: u32) -> Option<u32> {
        let a = self.animations.get(animation)?;
        a.frame_events(frame).get(usize::try_from(event).ok()?).copied()
    }
}
