//! The sprite player: frame animations over sheet cells or atlas frames, with the semantics of the
//! Odin engine's `AnimationPlayer` and evengine's `SpriteAnim`.
//!
//! Animation data is read through a [`SpriteSource`] (in RAM: [`SliceSource`]; later, a blob in
//! flash), so a [`SpritePlayer`] holds only its playback state: it is `Copy`, allocation-free, and
//! many players can share one source.
//!
//! # Semantics
//!
//! - **Frames**: an animation plays `frame_count` frames (relative frames `0..frame_count`, each
//!   mapped to a source frame by a range or a list, see [`Frames`]). Each frame shows for its
//!   duration (its own duration, else `1 / fps`); a frame without one (fps ≤ 0) holds for ever.
//!   A boundary between two frames belongs to the frame after it in the direction of play: at
//!   exactly 0.25 s into a 4 fps animation frame 1 shows.
//! - **Passes**: Forward plays `0 … n−1`, Reverse `n−1 … 0`, PingPong `0 … n−1 … 1` (then 0 again
//!   begins the next pass: the turn frames are not shown twice), PingPongReverse the mirror. A
//!   looping animation wraps after each pass ([`Event::SpriteLooped`]). A non-looping one plays
//!   `max(repeat, 1)` passes (Forward/Reverse) or `max(repeat, 1)` *directions* (ping-pong, as
//!   Aseprite counts; see [`AnimationInfo::repeat`]), emitting `SpriteLooped` at each boundary
//!   between two of its passes (not at the boundary a ping-pong's final return frame sits on:
//!   repeat 2 plays `0 1 2 1 0` without Looped), then, when its last frame's time is over,
//!   [`Event::SpriteEnded`]; the last frame stays shown.
//! - **Speed**: time advances by `dt × speed × curve` (see [`SpeedCurve`]: the curve has its own
//!   clock, which runs by the unscaled `dt` while the player plays and restarts at 0 with every
//!   start of an animation; it is sampled at the middle of each update, so keep updates short
//!   against the curve's keys). A negative speed plays the same sequence backwards: a looping
//!   animation wraps from its first frame to its last, a non-looping one ends at its first frame;
//!   an animation started with a negative speed begins at the end of its last frame. Speed 0
//!   freezes. A negative or NaN `dt`, or a NaN speed, advances nothing.
//! - **Control**: [`play`](SpritePlayer::play) (by index or name; the current animation again is a
//!   no-op unless `restart`), [`pause`](SpritePlayer::pause), [`resume`](SpritePlayer::resume)
//!   (nothing if finished), [`stop`](SpritePlayer::stop) (rewinds; Stopped),
//!   [`set_frame`](SpritePlayer::set_frame) (clamped), [`set_speed`](SpritePlayer::set_speed),
//!   [`queue`](SpritePlayer::queue) (after the current non-looping animation ends, or after the
//!   current pass of a looping one), [`play_once`](SpritePlayer::play_once) (once, then back to
//!   the previous animation).
//! - **Events**: control calls record what happened; the next
//!   [`update`](SpritePlayer::update) (`dt = 0` is fine) emits it, then advances. Within one
//!   update events come in the order AnimationChanged, Started, FrameChanged (also for the first
//!   frame), FrameEvent (one per event name of the frame, in its order, at most
//!   [`MAX_EVENTS_PER_FRAME`]), Looped, Ended, Stopped; an update crossing several frames emits
//!   each crossed frame's FrameChanged and FrameEvents in order, with the Looped of a pass
//!   boundary after the FrameChanged/FrameEvents of the frame that begins the new pass. When an
//!   animation ends and another is queued, the old one's Ended comes before the new one's
//!   AnimationChanged, Started, FrameChanged, and the time left over plays on in the new one.
//!   Events go to the caller's [`EventQueue`]; when it is full they are dropped and counted there.
//! - **Huge `dt`**: once an update has stepped through one full pass, whole further passes are
//!   skipped arithmetically: their frames' events are not emitted, a single `SpriteLooped` carries
//!   the new pass count, and the remaining time plays normally (a non-looping animation never
//!   skips its last pass). As a last guard, an update steps at most [`MAX_STEPS_PER_UPDATE`]
//!   frames; time beyond that is dropped.
//! - **Sleeping**: [`next_change`](SpritePlayer::next_change) tells how long the shown frame stays.
//! - **Q16.16**: times are multiples of 2⁻¹⁶ s; `1 / fps` is rounded (10 fps is 0.100006 s), so
//!   over long plays a Q16 player drifts from an f32 one by that rounding per frame. Durations
//!   that are binary fractions (Aseprite's milliseconds are not, but 0.25 s is) are exact.
//!
//! # Memory
//!
//! A player is [`SpritePlayer::BYTES`] bytes, for `f32` and Q16.16 alike: 88 on a 64-bit host,
//! less on a 32-bit microcontroller (its speed curve's slice reference is 8 bytes there, not 16).
//! The animation data stays in the source and costs the player nothing.
//!
//! # Example
//!
//! ```
//! use ossicle::event::{Event, EventQueue};
//! use ossicle::sprite::{Frames, SliceSource, SpriteAnimation, SpritePlayer};
//! let anims = [SpriteAnimation::new("walk", Frames::Range { start: 0, end: 2 }, 10.0f32).looping(true)];
//! let src = SliceSource::new(&anims);
//! let mut player = SpritePlayer::new(7);
//! let mut q: EventQueue<16> = EventQueue::new();
//! player.play_named(&src, "walk", false).unwrap();
//! player.update(&src, 0.25, &mut q); // 2.5 frames at 10 fps
//! assert_eq!(player.frame(), Some(2));
//! assert_eq!(player.source_frame(&src), Some(2));
//! assert_eq!(q.pop(), Some(Event::SpriteAnimationChanged { player: 7, animation: 0 }));
//! ```

mod blob;
mod curve;
pub mod dirty;
mod output;
mod sheet;
mod source;

pub use blob::{BlobAnimations, BlobSprite, FramePixels, PixelFormat, Transparency};
pub use curve::{CurveInterpolation, SpeedCurve, SpeedKey};
pub use dirty::{DirtyOverflow, DirtyRects, RectExt};
pub use output::{Appearance, Rotation, SpriteOutput};
pub use sheet::{FrameRect, Grid, Rect};
pub use source::{AnimationInfo, FrameRef, Frames, PlayMode, SliceSource, SpriteAnimation, SpriteSource};

use crate::event::{Event, EventQueue};
use crate::scalar::Scalar;
use core::fmt;

/// The most frames one [`SpritePlayer::update`] steps through (after the arithmetic skip of whole
/// passes, this is reached only with absurdly small durations); the time beyond is dropped.
pub const MAX_STEPS_PER_UPDATE: u32 = 4096;

/// The most event names one frame emits (a corrupt count cannot make an update loop for long).
pub const MAX_EVENTS_PER_FRAME: u32 = 64;

/// Why a sprite player refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SpriteError {
    /// No animation has that index or name.
    NoSuchAnimation,
    /// The animation selects no frames.
    EmptyAnimation,
}

impl fmt::Display for SpriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpriteError::NoSuchAnimation => "no such sprite animation",
            SpriteError::EmptyAnimation => "the sprite animation has no frames",
        })
    }
}

const P_CHANGED: u8 = 1;
const P_STARTED: u8 = 2;
const P_FRAME: u8 = 4;
const P_STOPPED: u8 = 8;

/// The playback state of one sprite: which animation, which frame, how far into it. See the
/// [module documentation](self) for the semantics.
///
/// ```
/// use ossicle::event::EventQueue;
/// use ossicle::sprite::{Frames, SliceSource, SpriteAnimation, SpritePlayer};
/// let anims = [SpriteAnimation::new("blink", Frames::List(&[0, 1, 0]), 5.0f32)];
/// let src = SliceSource::new(&anims);
/// let mut p = SpritePlayer::new(1);
/// let mut q: EventQueue<16> = EventQueue::new();
/// p.play(&src, 0, false).unwrap();
/// p.update(&src, 0.0, &mut q);
/// assert_eq!(p.next_change(&src), Some(0.2));
/// p.update(&src, 1.0, &mut q);
/// assert!(p.is_finished());
/// assert_eq!(p.next_change(&src), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpritePlayer<'k, S> {
    id: u32,
    current: Option<u32>,
    previous: Option<u32>,
    queued: Option<u32>,
    step: u32,
    cycles: u32,
    loops: u32,
    shown: u32,
    elapsed: S,
    speed: S,
    curve: Option<SpeedCurve<'k, S>>,
    curve_time: S,
    playing: bool,
    finished: bool,
    stopped: bool,
    once: bool,
    pending: u8,
}

/// The derived timing of the current animation.
#[derive(Clone, Copy)]
struct Timeline {
    anim: usize,
    n: u32,
    mode: PlayMode,
    looping: bool,
    period: u32,
    /// Global index (`cycles × period + step`) of the last step of a non-looping animation.
    last: u64,
    /// Whether the last step may be the first of a pass that is not played (ping-pong, n > 1).
    ends_on_boundary: bool,
}

impl Timeline {
    fn frame_at(&self, step: u32) -> u32 {
        let n1 = self.n.saturating_sub(1);
        let pp = |s: u32| if s < self.n { s } else { self.period.saturating_sub(s) };
        match self.mode {
            PlayMode::Forward => step,
            PlayMode::Reverse => n1.saturating_sub(step),
            PlayMode::PingPong => pp(step),
            PlayMode::PingPongReverse => n1.saturating_sub(pp(step)),
        }
    }

    fn first_step_of(&self, frame: u32) -> u32 {
        let n1 = self.n.saturating_sub(1);
        match self.mode {
            PlayMode::Forward | PlayMode::PingPong => frame,
            PlayMode::Reverse | PlayMode::PingPongReverse => n1.saturating_sub(frame),
        }
    }

    fn global(&self, cycles: u32, step: u32) -> u64 {
        u64::from(cycles).saturating_mul(u64::from(self.period)).saturating_add(u64::from(step))
    }

    /// `(cycles, step)` of the start: the first step, or the last one when playing backwards.
    fn start(&self, backwards: bool) -> (u32, u32) {
        if !backwards {
            (0, 0)
        } else if self.looping {
            (0, self.period.saturating_sub(1))
        } else {
            let p = u64::from(self.period.max(1));
            let c = u32::try_from(self.last / p).unwrap_or(u32::MAX);
            let s = u32::try_from(self.last % p).unwrap_or(0);
            (c, s)
        }
    }
}

enum Move {
    /// Moved to another step; `true` if a pass boundary was crossed.
    Moved(bool),
    /// The animation is over (non-looping end, or a queued animation takes over).
    End,
}

impl<'k, S: Scalar> SpritePlayer<'k, S> {
    /// The size of a player in bytes.
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// A player that plays nothing yet; `id` is the `player` field of its events.
    pub fn new(id: u32) -> Self {
        Self {
            id,
            current: None,
            previous: None,
            queued: None,
            step: 0,
            cycles: 0,
            loops: 0,
            shown: 0,
            elapsed: S::ZERO,
            speed: S::ONE,
            curve: None,
            curve_time: S::ZERO,
            playing: false,
            finished: false,
            stopped: false,
            once: false,
            pending: 0,
        }
    }

    /// The id given to [`new`](Self::new).
    pub fn id(&self) -> u32 {
        self.id
    }
    /// The current animation's index.
    pub fn current(&self) -> Option<usize> {
        self.current.and_then(|c| usize::try_from(c).ok())
    }
    /// The animation that was current before the last change.
    pub fn previous(&self) -> Option<usize> {
        self.previous.and_then(|c| usize::try_from(c).ok())
    }
    /// The queued animation.
    pub fn queued(&self) -> Option<usize> {
        self.queued.and_then(|c| usize::try_from(c).ok())
    }
    /// Whether frames are advancing (not paused, stopped or finished).
    pub fn is_playing(&self) -> bool {
        self.playing && !self.finished
    }
    /// Whether a non-looping animation reached its end.
    pub fn is_finished(&self) -> bool {
        self.finished
    }
    /// The base speed.
    pub fn speed(&self) -> S {
        self.speed
    }
    /// Pass boundaries crossed since the animation started.
    pub fn loop_count(&self) -> u32 {
        self.loops
    }
    /// Seconds (of animation time) spent on the current frame.
    pub fn elapsed_in_frame(&self) -> S {
        self.elapsed
    }

    fn timeline<Src: SpriteSource<S> + ?Sized>(&self, src: &Src) -> Option<Timeline> {
        let anim = usize::try_from(self.current?).ok()?;
        let info = src.animation(anim)?;
        let n = info.frame_count;
        if n == 0 {
            return None;
        }
        let pingpong = matches!(info.mode, PlayMode::PingPong | PlayMode::PingPongReverse);
        let period = if !pingpong {
            n
        } else if n <= 1 {
            1
        } else {
            n.saturating_mul(2).saturating_sub(2)
        };
        let r = u64::from(info.repeat.max(1));
        let last = if pingpong && n > 1 {
            r.saturating_mul(u64::from(n - 1))
        } else {
            r.saturating_mul(u64::from(n)).saturating_sub(1)
        };
        Some(Timeline {
            anim,
            n,
            mode: info.mode,
            looping: info.looping && !self.once,
            period,
            last,
            ends_on_boundary: pingpong && n > 1,
        })
    }

    /// The frame shown, relative to the current animation (0 is its first frame).
    pub fn frame(&self) -> Option<u32> {
        self.current.map(|_| self.shown)
    }

    /// The source frame shown (sheet cell or atlas frame).
    pub fn source_frame<Src: SpriteSource<S> + ?Sized>(&self, src: &Src) -> Option<u32> {
        src.frame(self.current()?, self.shown).map(|f| f.source)
    }

    /// Plays animation `index`. If it is already the current animation nothing happens unless
    /// `restart` (so this is safe to call every frame: a paused animation stays paused, a finished
    /// one replays only with `restart`; after [`stop`](Self::stop) it plays again). Otherwise it starts from its first frame (its last with a negative speed),
    /// playing, with the speed curve's clock at 0; the queue is cleared. The next update emits
    /// AnimationChanged (if the animation differs), Started and FrameChanged.
    pub fn play<Src: SpriteSource<S> + ?Sized>(
        &mut self,
        src: &Src,
        index: usize,
        restart: bool,
    ) -> Result<(), SpriteError> {
        let info = src.animation(index).ok_or(SpriteError::NoSuchAnimation)?;
        if info.frame_count == 0 {
            return Err(SpriteError::EmptyAnimation);
        }
        let idx = u32::try_from(index).map_err(|_| SpriteError::NoSuchAnimation)?;
        if self.current == Some(idx) && !restart && !self.stopped {
            return Ok(());
        }
        self.queued = None;
        self.start(src, idx);
        Ok(())
    }

    /// [`play`](Self::play) by name.
    pub fn play_named<Src: SpriteSource<S> + ?Sized>(
        &mut self,
        src: &Src,
        name: &str,
        restart: bool,
    ) -> Result<(), SpriteError> {
        let index = src.find(name).ok_or(SpriteError::NoSuchAnimation)?;
        self.play(src, index, restart)
    }

    /// Plays animation `index` from its start once, ignoring its loop flag (a non-looping pass
    /// count still applies), then returns to the animation that was current before, which is put in
    /// the queue (a later [`queue`](Self::queue) replaces it). Playing the current animation once
    /// restarts it and then nothing follows.
    pub fn play_once<Src: SpriteSource<S> + ?Sized>(&mut self, src: &Src, index: usize) -> Result<(), SpriteError> {
        let before = self.current;
        self.play(src, index, true)?;
        self.once = true;
        if let Some(tl) = self.timeline(src) {
            self.rewind(src, &tl); // the start of a backwards play depends on looping
        }
        let idx = u32::try_from(index).ok();
        self.queued = if before != idx { before } else { None };
        Ok(())
    }

    /// Plays animation `index` after the current one ends: at the end of a non-looping animation,
    /// or at the end of the current pass of a looping one (which then emits Ended instead of
    /// Looped). With nothing playing, or a finished animation, it plays at once, like `play`.
    pub fn queue<Src: SpriteSource<S> + ?Sized>(&mut self, src: &Src, index: usize) -> Result<(), SpriteError> {
        let info = src.animation(index).ok_or(SpriteError::NoSuchAnimation)?;
        if info.frame_count == 0 {
            return Err(SpriteError::EmptyAnimation);
        }
        let idx = u32::try_from(index).map_err(|_| SpriteError::NoSuchAnimation)?;
        if self.timeline(src).is_none() || self.finished {
            self.start(src, idx);
            self.queued = None;
        } else {
            self.queued = Some(idx);
        }
        Ok(())
    }

    /// Removes the queued animation.
    pub fn clear_queue(&mut self) {
        self.queued = None;
    }

    /// Pauses on the current frame.
    pub fn pause(&mut self) {
        self.playing = false;
    }

    /// Continues a paused animation from where it is; nothing if it finished or nothing is current.
    pub fn resume(&mut self) {
        if self.current.is_some() && !self.finished {
            self.playing = true;
            self.stopped = false;
        }
    }

    /// Stops playback and rewinds to the start (the first frame, or the last with a negative
    /// speed); the next update emits FrameChanged if the shown frame changed, then Stopped.
    /// Nothing if no animation is current.
    pub fn stop<Src: SpriteSource<S> + ?Sized>(&mut self, src: &Src) {
        let Some(tl) = self.timeline(src) else {
            return;
        };
        let before = self.shown;
        self.rewind(src, &tl);
        self.playing = false;
        self.finished = false;
        self.stopped = true;
        if self.shown != before {
            self.pending |= P_FRAME;
        }
        self.pending |= P_STOPPED;
    }

    /// Jumps to relative frame `frame` (clamped to the animation's frames) at the beginning of its
    /// time, on the first step of the current pass that shows it, without changing whether it plays.
    /// The next update emits its FrameChanged (and FrameEvents) if the shown frame changed.
    pub fn set_frame<Src: SpriteSource<S> + ?Sized>(&mut self, src: &Src, frame: u32) {
        let Some(tl) = self.timeline(src) else {
            return;
        };
        let k = frame.min(tl.n.saturating_sub(1));
        self.step = tl.first_step_of(k);
        self.elapsed = S::ZERO;
        if self.shown != k {
            self.shown = k;
            self.pending |= P_FRAME;
        }
    }

    /// Sets the base speed: 1 normal, 2 double, negative backwards, 0 frozen.
    pub fn set_speed(&mut self, speed: S) {
        self.speed = speed;
    }

    /// Sets (or with `None` removes) the speed curve, multiplied with the base speed, and resets its
    /// clock to 0.
    pub fn set_speed_curve(&mut self, curve: Option<SpeedCurve<'k, S>>) {
        self.curve = curve;
        self.curve_time = S::ZERO;
    }

    /// The speed curve's clock.
    pub fn speed_curve_time(&self) -> S {
        self.curve_time
    }

    /// The speed now: base speed × the curve's value at its clock.
    pub fn effective_speed(&self) -> S {
        self.speed_at(self.curve_time)
    }

    fn speed_at(&self, t: S) -> S {
        match &self.curve {
            Some(c) => self.speed.mul(c.value_at(t)),
            None => self.speed,
        }
    }

    /// The time (seconds of `dt`) until the shown frame next changes at the current speed: `None`
    /// while nothing plays, paused, frozen (speed 0), finished, on a held frame, or on the last
    /// frame of a non-looping animation with nothing queued (it never changes); `Some(0)` when an
    /// update has events to emit.
    ///
    /// With a speed curve the result is never later than the curve's next key (where its speed
    /// changes course; a curve at 0 now gives the time to that key, not `None`), and between keys
    /// it assumes the speed of now: on a rising segment the frame may change a little earlier.
    pub fn next_change<Src: SpriteSource<S> + ?Sized>(&self, src: &Src) -> Option<S> {
        let frame = self.next_frame_change(src);
        let horizon = match &self.curve {
            Some(c) if self.is_playing() && self.timeline(src).is_some() => c.time_to_next_key(self.curve_time),
            _ => None,
        };
        match (frame, horizon) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn next_frame_change<Src: SpriteSource<S> + ?Sized>(&self, src: &Src) -> Option<S> {
        if self.pending & (P_CHANGED | P_STARTED | P_FRAME | P_STOPPED) != 0 {
            return Some(S::ZERO);
        }
        if !self.is_playing() {
            return None;
        }
        let tl = self.timeline(src)?;
        let speed = self.effective_speed();
        let d = self.duration(src, &tl, self.step)?;
        let g = tl.global(self.cycles, self.step);
        if speed > S::ZERO {
            if !tl.looping && g >= tl.last && self.queued.is_none() {
                return None;
            }
            Some(d.sub(self.elapsed).max(S::ZERO).div(speed))
        } else if speed < S::ZERO {
            if !tl.looping && g == 0 && self.queued.is_none() {
                return None;
            }
            Some(self.elapsed.max(S::ZERO).div(speed.neg()))
        } else {
            None
        }
    }

    fn duration<Src: SpriteSource<S> + ?Sized>(&self, src: &Src, tl: &Timeline, step: u32) -> Option<S> {
        src.frame(tl.anim, tl.frame_at(step)).and_then(|f| f.duration).filter(|d| *d > S::ZERO)
    }

    /// Back to the start: the first step, or, playing backwards, the end of the last one (so the
    /// last frame shows for its whole duration).
    fn rewind<Src: SpriteSource<S> + ?Sized>(&mut self, src: &Src, tl: &Timeline) {
        let backwards = self.effective_speed() < S::ZERO;
        let (c, s) = tl.start(backwards);
        self.cycles = c;
        self.step = s;
        self.loops = 0;
        self.shown = tl.frame_at(s);
        self.elapsed = if backwards { self.duration(src, tl, s).unwrap_or(S::ZERO) } else { S::ZERO };
    }

    /// Makes `idx` current, rewound and playing, and records its start events.
    fn start<Src: SpriteSource<S> + ?Sized>(&mut self, src: &Src, idx: u32) {
        if self.current != Some(idx) {
            self.previous = self.current;
            self.pending |= P_CHANGED;
        }
        self.current = Some(idx);
        self.once = false;
        self.playing = true;
        self.finished = false;
        self.stopped = false;
        self.curve_time = S::ZERO;
        self.pending |= P_STARTED | P_FRAME;
        self.pending &= !P_STOPPED;
        if let Some(tl) = self.timeline(src) {
            self.rewind(src, &tl);
        }
    }

    fn emit_frame<Src: SpriteSource<S> + ?Sized, const N: usize>(
        &self,
        src: &Src,
        tl: &Timeline,
        q: &mut EventQueue<N>,
    ) {
        let (player, animation, frame) = (self.id, self.current.unwrap_or(0), self.shown);
        q.push(Event::SpriteFrameChanged { player, animation, frame });
        let count = src.frame(tl.anim, frame).map_or(0, |f| f.event_count).min(MAX_EVENTS_PER_FRAME);
        for e in 0..count {
            let Some(name) = src.frame_event(tl.anim, frame, e) else {
                break;
            };
            q.push(Event::SpriteFrameEvent { player, animation, frame, name });
        }
    }

    /// Emits the recorded start events (AnimationChanged, Started, FrameChanged + FrameEvents).
    fn flush_start<Src: SpriteSource<S> + ?Sized, const N: usize>(&mut self, src: &Src, q: &mut EventQueue<N>) {
        let Some(animation) = self.current else {
            self.pending = 0;
            return;
        };
        let player = self.id;
        if self.pending & P_CHANGED != 0 {
            q.push(Event::SpriteAnimationChanged { player, animation });
        }
        if self.pending & P_STARTED != 0 {
            q.push(Event::SpriteStarted { player, animation });
        }
        if self.pending & P_FRAME != 0 {
            if let Some(tl) = self.timeline(src) {
                self.emit_frame(src, &tl, q);
            }
        }
        self.pending &= P_STOPPED;
    }

    /// One step forwards (or backwards): the new position, or the end.
    fn advance(&mut self, tl: &Timeline, backwards: bool) -> Move {
        let g = tl.global(self.cycles, self.step);
        if !backwards {
            if !tl.looping && g >= tl.last {
                return Move::End;
            }
            let wraps = self.step.saturating_add(1) >= tl.period;
            if wraps && tl.looping && self.queued.is_some() {
                return Move::End;
            }
            if wraps {
                self.step = 0;
                if !tl.looping {
                    self.cycles = self.cycles.saturating_add(1);
                }
            } else {
                self.step += 1;
            }
            self.shown = tl.frame_at(self.step);
            // The boundary a ping-pong's final return frame sits on begins no further pass.
            Move::Moved(wraps && (tl.looping || !tl.ends_on_boundary || tl.global(self.cycles, self.step) < tl.last))
        } else {
            if !tl.looping && g == 0 {
                return Move::End;
            }
            let wraps = self.step == 0;
            if wraps && tl.looping && self.queued.is_some() {
                return Move::End;
            }
            if wraps {
                self.step = tl.period.saturating_sub(1);
                self.cycles = self.cycles.saturating_sub(1);
            } else {
                self.step -= 1;
            }
            self.shown = tl.frame_at(self.step);
            Move::Moved(wraps && (tl.looping || !tl.ends_on_boundary || g < tl.last))
        }
    }

    /// Skips whole passes once a full pass has been stepped in this update (see the module docs).
    fn skip_passes<Src: SpriteSource<S> + ?Sized, const N: usize>(
        &mut self,
        src: &Src,
        tl: &Timeline,
        backwards: bool,
        q: &mut EventQueue<N>,
    ) {
        // The time beyond the current frame's start that is still to play, as a positive amount.
        let mut pass = S::ZERO;
        for s in 0..tl.period {
            match self.duration(src, tl, s) {
                Some(d) => pass = pass.add(d),
                None => return,
            }
        }
        if pass.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
            return;
        }
        let left = if backwards { self.elapsed.neg() } else { self.elapsed };
        if left < pass {
            return;
        }
        let whole = left.div(pass).floor_to_i32().max(0);
        let mut k = u32::try_from(whole).unwrap_or(0);
        if !tl.looping {
            let g = tl.global(self.cycles, self.step);
            let p = u64::from(tl.period.max(1));
            let room = if backwards { g / p } else { tl.last.saturating_sub(g) / p };
            k = k.min(u32::try_from(room).unwrap_or(u32::MAX));
        }
        if k == 0 {
            return;
        }
        if tl.looping {
            let rest = left.rem_euclid(pass);
            self.elapsed = if backwards { rest.neg() } else { rest };
        } else {
            let rest = left.sub(pass.mul(S::from_i32(i32::try_from(k).unwrap_or(i32::MAX))));
            self.elapsed = if backwards { rest.neg() } else { rest };
            self.cycles = if backwards { self.cycles.saturating_sub(k) } else { self.cycles.saturating_add(k) };
        }
        self.loops = self.loops.saturating_add(k);
        if let Some(animation) = self.current {
            q.push(Event::SpriteLooped { player: self.id, animation, count: self.loops });
        }
    }

    /// Emits the recorded events, then advances by `dt` seconds (a negative or NaN `dt` counts as
    /// 0), pushing the events of everything that happened into `q` (see the module docs for the
    /// order).
    pub fn update<Src: SpriteSource<S> + ?Sized, const N: usize>(&mut self, src: &Src, dt: S, q: &mut EventQueue<N>) {
        let dt = if dt > S::ZERO { dt } else { S::ZERO };
        self.flush_start(src, q);
        let timeline = if self.is_playing() { self.timeline(src) } else { None };
        if let Some(tl) = timeline {
            let speed = self.speed_at(self.curve_time.add(dt.mul(S::HALF)));
            let advance = dt.mul(speed);
            let t0 = self.curve_time;
            // A NaN speed (f32) advances nothing.
            if let Some(dir) = advance.partial_cmp(&S::ZERO) {
                if dir != core::cmp::Ordering::Equal {
                    self.elapsed = self.elapsed.add(advance);
                    self.run(src, q, dir == core::cmp::Ordering::Less, tl);
                }
            }
            // The curve's clock runs while the player plays (not while paused), from where it was
            // (a queued animation starting in this update restarts it: then from 0).
            if let Some(c) = &self.curve {
                let base = if self.curve_time == t0 { t0 } else { S::ZERO };
                self.curve_time = c.wrap_time(base.add(dt));
            }
        }
        if self.pending & P_STOPPED != 0 {
            if let Some(animation) = self.current {
                q.push(Event::SpriteStopped { player: self.id, animation });
            }
        }
        self.pending = 0;
    }

    /// Steps through the time accumulated in `elapsed`.
    ///
    /// Forwards, a frame is left when its time is used up (`elapsed ≥ duration`); backwards, when
    /// `elapsed ≤ 0`: a boundary belongs to the frame after it in the direction of play. `tl` is
    /// the current animation's timeline (built once per update; rebuilt only when a queued
    /// animation starts).
    fn run<Src: SpriteSource<S> + ?Sized, const N: usize>(
        &mut self,
        src: &Src,
        q: &mut EventQueue<N>,
        backwards: bool,
        mut tl: Timeline,
    ) {
        let mut steps = 0u32;
        let mut since_skip = 0u32;
        let mut skipped = false;
        loop {
            let Some(d) = self.duration(src, &tl, self.step) else {
                self.elapsed = S::ZERO; // a held frame absorbs the time
                return;
            };
            if (!backwards && self.elapsed < d) || (backwards && self.elapsed > S::ZERO) {
                return;
            }
            if steps >= MAX_STEPS_PER_UPDATE {
                self.elapsed = S::ZERO;
                return;
            }
            steps += 1;
            if !skipped && since_skip >= tl.period {
                skipped = true;
                self.skip_passes(src, &tl, backwards, q);
                continue;
            }
            since_skip = since_skip.saturating_add(1);
            if !backwards {
                self.elapsed = self.elapsed.sub(d);
            }
            match self.advance(&tl, backwards) {
                Move::Moved(wrapped) => {
                    if backwards {
                        match self.duration(src, &tl, self.step) {
                            Some(nd) => self.elapsed = self.elapsed.add(nd),
                            None => self.elapsed = S::ZERO,
                        }
                    }
                    self.emit_frame(src, &tl, q);
                    if wrapped {
                        self.loops = self.loops.saturating_add(1);
                        if let Some(animation) = self.current {
                            q.push(Event::SpriteLooped { player: self.id, animation, count: self.loops });
                        }
                    }
                }
                Move::End => {
                    let left = self.elapsed;
                    if let Some(animation) = self.current {
                        q.push(Event::SpriteEnded { player: self.id, animation });
                    }
                    match self.queued.take() {
                        Some(next) => {
                            self.start(src, next);
                            self.flush_start(src, q);
                            // The time left over plays on in the new animation.
                            self.elapsed = left;
                            tl = match self.timeline(src) {
                                Some(ntl) => ntl,
                                None => return,
                            };
                            if backwards {
                                match self.duration(src, &tl, self.step) {
                                    Some(nd) => self.elapsed = self.elapsed.add(nd),
                                    None => self.elapsed = S::ZERO,
                                }
                            }
                            since_skip = 0;
                            skipped = false;
                        }
                        None => {
                            self.finished = true;
                            self.elapsed = if backwards { S::ZERO } else { d };
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Plays one play-through of animation `animation` of `src` with a fresh [`SpritePlayer`] and calls
/// `visit(relative_frame, frame)` for every frame shown, in order: a looping animation until its
/// first pass ends (a ping-pong goes there and back), a non-looping one until it ends (all its
/// repeats), a held frame once. Each step advances by exactly [`SpritePlayer::next_change`], so no
/// frame is skipped. `visit` returns `false` to stop early. Returns how many frames were visited.
///
/// This is what `ossicle render` writes and what the QEMU firmware checks frame by frame.
///
/// ```
/// use ossicle::sprite::{play_through, Frames, PlayMode, SliceSource, SpriteAnimation};
/// let anims = [SpriteAnimation::new("wave", Frames::Range { start: 4, end: 6 }, 10.0f32)
///     .mode(PlayMode::PingPong).looping(true)];
/// let mut shown = Vec::new();
/// play_through(&SliceSource::new(&anims), 0, |_, f| { shown.push(f.source); true }).unwrap();
/// assert_eq!(shown, [4, 5, 6, 5]);
/// ```
pub fn play_through<S: Scalar, Src: SpriteSource<S> + ?Sized>(
    src: &Src,
    animation: usize,
    mut visit: impl FnMut(u32, FrameRef<S>) -> bool,
) -> Result<u32, SpriteError> {
    let looping = src.animation(animation).ok_or(SpriteError::NoSuchAnimation)?.looping;
    let mut player: SpritePlayer<'_, S> = SpritePlayer::new(0);
    // Events are not needed: the end of the play-through is read from the player's state.
    let mut q: EventQueue<4> = EventQueue::new();
    player.play(src, animation, true)?;
    player.update(src, S::ZERO, &mut q);
    let mut visited = 0u32;
    while let Some(relative) = player.frame() {
        let Some(frame) = src.frame(animation, relative) else { break };
        visited = visited.saturating_add(1);
        if !visit(relative, frame) {
            break;
        }
        let Some(dt) = player.next_change(src) else { break };
        player.update(src, dt, &mut q);
        q.clear();
        if player.is_finished() || (looping && player.loop_count() > 0) {
            break;
        }
    }
    Ok(visited)
}
