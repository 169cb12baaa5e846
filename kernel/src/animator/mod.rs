//! Property clips: the Animator (the Odin engine's Animator node) and the ready-made `NodeTable` sink.
//!
//! An [`Animator`] plays one clip at a time from a [`ClipSource`] (in RAM: [`SliceClips`]; next, a
//! blob in flash). A clip has a length, a loop flag and tracks; a track animates one property of one
//! target through keys (time, value, ease), or is an *event track* whose keys fire events. Values go
//! out through a [`PropertySink`] (for example a [`NodeTable`]), events into an [`EventQueue`].
//! The player holds only its playback state: it is `Copy`, and many players can share one source.
//!
//! # Semantics
//!
//! - **Values**: before a track's first key the value is the first key's; from a key to the next
//!   it moves along the *first* key's ease (Linear when the source gives none); at and after the
//!   last key it is the last key's. At exactly a key's time the value is that key's (with several
//!   keys at one time, the last of them). A `step` track, and every Bool or Text track, holds each
//!   key's value until the next key; so does a segment whose two keys have different value kinds.
//!   Float and Vector values are `a + (b − a) × ease(u)` with `u = (t − t_a) / (t_b − t_a)`.
//!   **Colours** move per channel: `a + (b − a) × ease(u)` computed in the scalar type, rounded to
//!   nearest (ties away from zero) and clamped to `0..=255` (overshooting eases clamp).
//! - **Writes**: while a clip plays, every update writes each moving track's value (also at speed
//!   0); a stepping track is written only when its active key (the last key at or before the time)
//!   changed since the previous update, or when the update wrapped a looping clip and the track has
//!   more than one key. The first update after [`play`](Animator::play) (a start or restart) or
//!   after [`apply`](Animator::apply) writes every track. [`seek`](Animator::seek) writes every
//!   track at once and counts as the last write: the next update compares stepping tracks with
//!   their keys at the seek's time, and a seek right after a `play` also cancels that play's
//!   write of every track (the seek wrote them). Event tracks are never written.
//! - **Time intervals and events**: an update advances the clip time from `t0` by
//!   `dt × speed` and fires, in time order, every event key in `(t0, t1]`: a key exactly at the
//!   update's end time fires in this update, a key at its start time fired in the update before.
//!   The first update after a start (`play` of another clip, a restart, a play after `stop`) uses
//!   `[0, t1]` instead, so keys at time 0 fire then (also with `dt = 0`). Several event keys at one
//!   time fire in track order, then key order. Each event is
//!   [`Event::AnimatorEvent`] `{ animator: id, clip, name: key value }`; keys whose value is not
//!   [`KeyValue::Text`] fire nothing.
//! - **Looping**: when `t0 + dt × speed` reaches the length `L` of a looping clip the update fires
//!   `(t0, L]`, then `[0, L]` for every whole pass it runs through, then `[0, t1]` with
//!   `t1 = (t0 + dt × speed) mod L`. So a key at `L` and a key at 0 both fire at each wrap, and an
//!   update ending exactly at `L` ends at time 0 having fired the keys at 0. At most
//!   [`MAX_FULL_PASSES_PER_UPDATE`] whole passes fire their keys; further whole passes in the same
//!   update are skipped silently (the first and last partial passes always fire).
//! - **Ending**: when a non-looping clip reaches its length the update fires `(t0, L]`, writes the
//!   values at `L`, pushes [`Event::ClipFinished`] `{ animator, clip }` once, and stops there
//!   ([`is_finished`](Animator::is_finished)); later updates do nothing.
//! - **Length 0**: a non-looping clip of length 0 fires its keys at 0, writes, and finishes in the
//!   first update after `play`. A looping one fires its keys at 0 once (first update) and then
//!   holds at time 0, writing moving tracks every update, never wrapping.
//! - **Keys outside `[0, L]`**: event keys before 0 or after `L` never fire. Value keys after `L`
//!   are never reached but still shape the segment that crosses `L` (the value at `L` is
//!   interpolated towards them), so a non-looping clip ends on its last key's value only when that
//!   key is at or before `L`.
//! - **Control**: [`play`](Animator::play)/[`play_named`](Animator::play_named) (the current clip
//!   again goes on if playing, resumes if paused, stays finished if finished, unless `restart`;
//!   another clip, a restart, or any play after [`stop`](Animator::stop) starts from time 0),
//!   [`pause`](Animator::pause), [`resume`](Animator::resume), [`stop`](Animator::stop) (ends the
//!   play; with `reset`, time 0 and every track written with its first key's value),
//!   [`seek`](Animator::seek) (clamped to `[0, L]`, writes every track, fires nothing, cancels the
//!   pending start events of a `play`; a seek before `L` clears `finished`),
//!   [`apply`](Animator::apply) (writes any clip's values at a time, as an editor scrubs; fires
//!   nothing, changes no playback state), [`start`](Animator::start) (plays the source's autoplay
//!   clip). Control calls fire nothing themselves.
//! - **Speed**: time advances by `dt × speed`; 0 holds (the clip still counts as playing). A
//!   negative or NaN speed is stored as 0: the Animator does not play backwards. A negative or NaN
//!   `dt` advances nothing.
//! - **Q16.16**: times are multiples of 2⁻¹⁶ s and saturate at 32767 s (a clip longer than that,
//!   or a longer `dt × speed`, is not supported).
//!
//! # Memory
//!
//! An [`Animator`] is [`Animator::BYTES`] bytes: 24 for `f32` and Q16.16 alike, on a 64-bit host
//! and on a 32-bit microcontroller. The clips stay in the source. A [`NodeTable`] is
//! `N × NodeTable::NODE_BYTES` (see [`Node`]).
//!
//! # Example: the coin's bob
//!
//! ```
//! use ossicle::animator::{Animator, Clip, Key, KeyValue, NodeTable, SliceClips, Track, ValueKind};
//! use ossicle::ease::Ease;
//! use ossicle::event::{Event, EventQueue};
//! use ossicle::sink::property;
//! const COIN: u32 = 0;
//! const TOP: u32 = 7; // string id of "top"
//! let y = [
//!     Key::eased(0.0f32, KeyValue::Float(0.0), Ease::InOutSine),
//!     Key::eased(0.5, KeyValue::Float(-6.0), Ease::InOutSine),
//!     Key::new(1.0, KeyValue::Float(0.0)),
//! ];
//! let ev = [Key::new(0.5f32, KeyValue::Text(TOP))];
//! let tracks = [Track::new(COIN, property::POSITION_Y, ValueKind::Float, &y), Track::events(&ev)];
//! let clips = [Clip::new("bob", 1.0, &tracks).looping(true)];
//! let src = SliceClips::new(&clips).with_autoplay(Some(0));
//! let mut nodes: NodeTable<f32, 1> = NodeTable::new();
//! let mut q: EventQueue<8> = EventQueue::new();
//! let mut anim = Animator::new(1);
//! anim.start(&src).unwrap();
//! anim.update(0.25, &src, &mut nodes, &mut q);
//! // -6 × InOutSine(0.5) = -3 (to 1e-5 with libm; within 2e-2 with `fast-math`'s approximate sine).
//! assert!((nodes.position(COIN).unwrap().y + 3.0).abs() < 2e-2);
//! anim.update(0.25, &src, &mut nodes, &mut q);
//! assert_eq!(q.pop(), Some(Event::AnimatorEvent { animator: 1, clip: 0, name: TOP }));
//! ```

mod source;
mod table;

pub use source::{Clip, ClipInfo, ClipSource, Key, KeyValue, SliceClips, Track, TrackInfo, TrackTarget, ValueKind};
pub use table::{Node, NodeTable, ScriptValue};

use crate::ease::ease;
use crate::event::{Event, EventQueue};
use crate::scalar::Scalar;
use crate::sink::PropertySink;
use core::fmt;

/// The most whole passes of a looping clip whose event keys one update fires (see the module
/// docs); further whole passes in the same update are skipped without events.
pub const MAX_FULL_PASSES_PER_UPDATE: u32 = 16;

/// The clip index that means "no clip" (so clip `u32::MAX` cannot be played).
const NO_CLIP: u32 = u32::MAX;

/// Why an Animator refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AnimatorError {
    /// No clip has that index or name.
    NoSuchClip,
}

impl fmt::Display for AnimatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AnimatorError::NoSuchClip => "no such animator clip",
        })
    }
}

/// The value of track `track` of clip `clip` at time `t` (see the module docs), with the index of
/// the active key (the last key at or before `t`; 0 before the first). `None` for a track without
/// keys or an unknown track. Event tracks are sampled like Text tracks.
///
/// ```
/// use ossicle::animator::{sample_track, Clip, Key, KeyValue, SliceClips, Track, ValueKind};
/// let keys = [Key::new(0.0f32, KeyValue::Float(0.0)), Key::new(2.0, KeyValue::Float(4.0))];
/// let tracks = [Track::new(0, 2, ValueKind::Float, &keys)];
/// let clips = [Clip::new("c", 2.0f32, &tracks)];
/// assert_eq!(sample_track(&SliceClips::new(&clips), 0, 0, 0.5), Some((0, KeyValue::Float(1.0))));
/// ```
pub fn sample_track<S: Scalar, Src: ClipSource<S> + ?Sized>(
    src: &Src,
    clip: usize,
    track: usize,
    t: S,
) -> Option<(usize, KeyValue<S>)> {
    let info = src.track(clip, track)?;
    sample(src, clip, track, &info, t)
}

fn sample<S: Scalar, Src: ClipSource<S> + ?Sized>(
    src: &Src,
    clip: usize,
    track: usize,
    info: &TrackInfo,
    t: S,
) -> Option<(usize, KeyValue<S>)> {
    let n = info.key_count;
    if n == 0 {
        return None;
    }
    let i = upper_bound(src, clip, track, n, t);
    let Some(ia) = i.checked_sub(1) else {
        return Some((0, src.key(clip, track, 0)?.value));
    };
    let a = src.key(clip, track, ia)?;
    if i >= n || info.steps() {
        return Some((ia, a.value));
    }
    let Some(b) = src.key(clip, track, i) else {
        return Some((ia, a.value));
    };
    let span = b.time.sub(a.time);
    let u = if span > S::ZERO { t.sub(a.time).div(span) } else { S::ONE };
    Some((ia, interpolate(a.value, b.value, ease(a.ease, u))))
}

/// The active key's index at `t` (as [`sample`] reports it), without reading values.
fn active_key<S: Scalar, Src: ClipSource<S> + ?Sized>(src: &Src, clip: usize, track: usize, n: usize, t: S) -> usize {
    upper_bound(src, clip, track, n, t).saturating_sub(1)
}

fn interpolate<S: Scalar>(a: KeyValue<S>, b: KeyValue<S>, e: S) -> KeyValue<S> {
    match (a, b) {
        (KeyValue::Float(x), KeyValue::Float(y)) => KeyValue::Float(x.lerp(y, e)),
        (KeyValue::Vector(x), KeyValue::Vector(y)) => KeyValue::Vector(x.lerp(y, e)),
        (KeyValue::Color(x), KeyValue::Color(y)) => {
            let (x, y) = (x.to_array(), y.to_array());
            let mut out = [0u8; 4];
            for ((o, &cx), &cy) in out.iter_mut().zip(x.iter()).zip(y.iter()) {
                let v = S::from_i32(i32::from(cx)).lerp(S::from_i32(i32::from(cy)), e).round().floor_to_i32();
                *o = u8::try_from(v.clamp(0, 255)).unwrap_or(u8::MAX);
            }
            KeyValue::Color(crate::color::Rgba8::from_array(out))
        }
        _ => a,
    }
}

/// The number of keys with `time <= t` (keys whose time cannot be read count as later).
fn upper_bound<S: Scalar, Src: ClipSource<S> + ?Sized>(src: &Src, clip: usize, track: usize, n: usize, t: S) -> usize {
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match src.key_time(clip, track, mid) {
            Some(kt) if kt <= t => lo = mid + 1,
            _ => hi = mid,
        }
    }
    lo
}

/// The number of keys with `time < t`.
fn lower_bound<S: Scalar, Src: ClipSource<S> + ?Sized>(src: &Src, clip: usize, track: usize, n: usize, t: S) -> usize {
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match src.key_time(clip, track, mid) {
            Some(kt) if kt < t => lo = mid + 1,
            _ => hi = mid,
        }
    }
    lo
}

/// The playback state of one Animator node: which clip, how far into it, how fast. See the
/// [module documentation](self) for the semantics.
///
/// ```
/// use ossicle::animator::{Animator, Clip, Key, KeyValue, SliceClips, Track, ValueKind};
/// use ossicle::event::{Event, EventQueue};
/// use ossicle::sink::NullSink;
/// let keys = [Key::new(0.0f32, KeyValue::Float(0.0)), Key::new(1.0, KeyValue::Float(1.0))];
/// let tracks = [Track::new(0, 2, ValueKind::Float, &keys)];
/// let clips = [Clip::new("open", 1.0f32, &tracks)];
/// let src = SliceClips::new(&clips);
/// let mut a = Animator::new(5);
/// let mut q: EventQueue<4> = EventQueue::new();
/// a.play_named(&src, "open", false).unwrap();
/// a.update(2.0, &src, &mut NullSink, &mut q);
/// assert!(a.is_finished());
/// assert_eq!(a.time(), 1.0);
/// assert_eq!(q.pop(), Some(Event::ClipFinished { animator: 5, clip: 0 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Animator<S> {
    id: u32,
    /// The current clip's index, [`NO_CLIP`] for none (a sentinel rather than `Option` keeps the
    /// player at 24 bytes).
    clip: u32,
    time: S,
    speed: S,
    playing: bool,
    finished: bool,
    /// The play ended with `stop`: the next `play` starts over.
    stopped: bool,
    /// The next update starts the clip: its interval includes time 0, every track is written.
    fresh: bool,
    /// The next update writes every track (after `apply`).
    write_all: bool,
}

impl<S: Scalar> Animator<S> {
    /// The size of an Animator in bytes.
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// An Animator that plays nothing yet; `id` is the `animator` field of its events.
    pub fn new(id: u32) -> Self {
        Self {
            id,
            clip: NO_CLIP,
            time: S::ZERO,
            speed: S::ONE,
            playing: false,
            finished: false,
            stopped: false,
            fresh: false,
            write_all: false,
        }
    }

    /// The id given to [`new`](Self::new).
    pub fn id(&self) -> u32 {
        self.id
    }
    /// The current clip's index.
    pub fn clip(&self) -> Option<usize> {
        if self.clip == NO_CLIP {
            None
        } else {
            usize::try_from(self.clip).ok()
        }
    }
    /// Seconds into the current clip, in `[0, length]`.
    pub fn time(&self) -> S {
        self.time
    }
    /// The speed (never negative).
    pub fn speed(&self) -> S {
        self.speed
    }
    /// Whether the clip advances with updates (not paused, stopped or finished).
    pub fn is_playing(&self) -> bool {
        self.playing
    }
    /// Whether a non-looping clip reached its end.
    pub fn is_finished(&self) -> bool {
        self.finished
    }
    /// Whether a clip is current but paused (not stopped, not finished).
    pub fn is_paused(&self) -> bool {
        self.clip != NO_CLIP && !self.playing && !self.finished && !self.stopped
    }

    /// Plays clip `index`. If it is the current clip and `restart` is false: a playing clip goes
    /// on, a paused one resumes, a finished one stays finished. Otherwise (another clip, `restart`,
    /// or after [`stop`](Self::stop)) it starts from time 0: the next update fires its event keys at
    /// 0 and writes every track.
    pub fn play<Src: ClipSource<S> + ?Sized>(
        &mut self,
        src: &Src,
        index: usize,
        restart: bool,
    ) -> Result<(), AnimatorError> {
        src.clip(index).ok_or(AnimatorError::NoSuchClip)?;
        let idx = u32::try_from(index).ok().filter(|&i| i != NO_CLIP).ok_or(AnimatorError::NoSuchClip)?;
        if self.clip == idx && !restart && !self.stopped {
            if !self.finished {
                self.playing = true;
            }
            return Ok(());
        }
        self.clip = idx;
        self.time = S::ZERO;
        self.playing = true;
        self.finished = false;
        self.stopped = false;
        self.fresh = true;
        Ok(())
    }

    /// [`play`](Self::play) by name.
    pub fn play_named<Src: ClipSource<S> + ?Sized>(
        &mut self,
        src: &Src,
        name: &str,
        restart: bool,
    ) -> Result<(), AnimatorError> {
        let index = src.find(name).ok_or(AnimatorError::NoSuchClip)?;
        self.play(src, index, restart)
    }

    /// Plays the source's autoplay clip (as a scene starts), like `play(autoplay, false)`; nothing
    /// when the source has none.
    pub fn start<Src: ClipSource<S> + ?Sized>(&mut self, src: &Src) -> Result<(), AnimatorError> {
        match src.autoplay() {
            Some(index) => self.play(src, index, false),
            None => Ok(()),
        }
    }

    /// Pauses at the current time (updates do nothing until [`resume`](Self::resume) or `play`).
    pub fn pause(&mut self) {
        self.playing = false;
    }

    /// Continues a paused clip; nothing if no clip is current, or it finished or was stopped.
    pub fn resume(&mut self) {
        if self.clip != NO_CLIP && !self.finished && !self.stopped {
            self.playing = true;
        }
    }

    /// Ends the play (the next `play` starts over). With `reset`, the time goes back to 0 and every
    /// track of the current clip is written with its first key's value. Fires nothing.
    pub fn stop<Src: ClipSource<S> + ?Sized, K: PropertySink<S> + ?Sized>(
        &mut self,
        src: &Src,
        sink: &mut K,
        reset: bool,
    ) {
        self.playing = false;
        self.finished = false;
        self.fresh = false;
        self.stopped = self.clip != NO_CLIP;
        if !reset {
            return;
        }
        self.time = S::ZERO;
        let Some(clip) = self.clip() else { return };
        let Some(info) = src.clip(clip) else { return };
        for track in 0..info.track_count {
            let Some(ti) = src.track(clip, track) else { continue };
            if let (TrackTarget::Node(target), Some(key)) = (ti.target, src.key(clip, track, 0)) {
                sink.set(target, ti.property, key.value.to_property());
            }
        }
    }

    /// Sets the speed: 1 is normal, 0 holds; negative or NaN is stored as 0.
    pub fn set_speed(&mut self, speed: S) {
        self.speed = if speed > S::ZERO { speed } else { S::ZERO };
    }

    /// Moves the current clip to `time` (clamped to `[0, length]`) and writes every track's value
    /// there. Fires nothing, keeps playing or paused as it was, cancels the start events a `play`
    /// left pending; a time before the end clears `finished` (the clip is then paused). On a
    /// looping clip, time `length` is the end of a pass: the next update wraps at once and fires
    /// the keys at 0 (a seek to 0 does not).
    pub fn seek<Src: ClipSource<S> + ?Sized, K: PropertySink<S> + ?Sized>(&mut self, src: &Src, sink: &mut K, time: S) {
        let Some(clip) = self.clip() else { return };
        let Some(info) = src.clip(clip) else { return };
        let len = info.length.max(S::ZERO);
        self.time = time.clamp(S::ZERO, len);
        self.fresh = false;
        self.write_all = false;
        if self.time < len || info.looping {
            self.finished = false;
        }
        write_tracks(src, sink, clip, info.track_count, None, self.time, false);
    }

    /// Writes every track of clip `clip` with its value at `time` (clamped to `[0, length]`), as an
    /// editor scrubs. Fires nothing and changes no playback state, except that the next update
    /// writes every track (so stepping tracks take the played clip's values again).
    pub fn apply<Src: ClipSource<S> + ?Sized, K: PropertySink<S> + ?Sized>(
        &mut self,
        src: &Src,
        sink: &mut K,
        clip: usize,
        time: S,
    ) -> Result<(), AnimatorError> {
        let info = src.clip(clip).ok_or(AnimatorError::NoSuchClip)?;
        let t = time.clamp(S::ZERO, info.length.max(S::ZERO));
        write_tracks(src, sink, clip, info.track_count, None, t, false);
        self.write_all = true;
        Ok(())
    }

    /// Advances the playing clip by `dt × speed` seconds, fires the event keys passed and
    /// [`Event::ClipFinished`] into `q`, and writes the tracks' values to `sink` (see the module
    /// docs). Does nothing when no clip plays.
    pub fn update<Src: ClipSource<S> + ?Sized, K: PropertySink<S> + ?Sized, const N: usize>(
        &mut self,
        dt: S,
        src: &Src,
        sink: &mut K,
        q: &mut EventQueue<N>,
    ) {
        if !self.playing {
            return;
        }
        let Some(clip) = self.clip() else {
            self.playing = false;
            return;
        };
        let Some(info) = src.clip(clip) else {
            self.playing = false;
            return;
        };
        let len = info.length.max(S::ZERO);
        let d = if dt > S::ZERO { dt.mul(self.speed) } else { S::ZERO };
        let d = if d > S::ZERO { d } else { S::ZERO }; // NaN (0 × ∞) advances nothing
        let t0 = self.time.clamp(S::ZERO, len);
        let fresh = self.fresh;
        let force = fresh || self.write_all;
        self.fresh = false;
        self.write_all = false;
        let fire = Fire { src, clip, track_count: info.track_count, animator: self.id };
        let end = t0.add(d);
        let mut wrapped = false;
        let mut finished = false;
        let t1 = if len <= S::ZERO {
            if fresh {
                fire.range(S::ZERO, S::ZERO, true, q);
            }
            finished = !info.looping;
            S::ZERO
        } else if end < len {
            fire.range(t0, end, fresh, q);
            end
        } else if !info.looping {
            fire.range(t0, len, fresh, q);
            finished = true;
            len
        } else {
            let t1 = end.rem_euclid(len);
            let passes = end.sub(t1).div(len).round().floor_to_i32().max(1);
            fire.range(t0, len, fresh, q);
            let whole = u32::try_from(passes.saturating_sub(1)).unwrap_or(0).min(MAX_FULL_PASSES_PER_UPDATE);
            for _ in 0..whole {
                fire.range(S::ZERO, len, true, q);
            }
            fire.range(S::ZERO, t1, true, q);
            wrapped = true;
            t1
        };
        self.time = t1;
        let previous = if force { None } else { Some(t0) };
        write_tracks(src, sink, clip, info.track_count, previous, t1, wrapped);
        if finished {
            self.playing = false;
            self.finished = true;
            q.push(Event::ClipFinished { animator: self.id, clip: self.clip });
        }
    }
}

/// Writes the tracks at `t`. With `previous` (the time of the last write), a stepping track is
/// written only when its active key changed (or after a wrap, when it has several keys).
fn write_tracks<S: Scalar, Src: ClipSource<S> + ?Sized, K: PropertySink<S> + ?Sized>(
    src: &Src,
    sink: &mut K,
    clip: usize,
    track_count: usize,
    previous: Option<S>,
    t: S,
    wrapped: bool,
) {
    for track in 0..track_count {
        let Some(info) = src.track(clip, track) else { continue };
        let TrackTarget::Node(target) = info.target else { continue };
        let Some((active, value)) = sample(src, clip, track, &info, t) else { continue };
        if let (true, Some(t0)) = (info.steps(), previous) {
            let unchanged = active_key(src, clip, track, info.key_count, t0) == active;
            if unchanged && !(wrapped && info.key_count > 1) {
                continue;
            }
        }
        sink.set(target, info.property, value.to_property());
    }
}

/// Fires the event keys of one clip.
struct Fire<'s, Src: ?Sized> {
    src: &'s Src,
    clip: usize,
    track_count: usize,
    animator: u32,
}

impl<Src: ?Sized> Fire<'_, Src> {
    /// Fires, in time order (then track order, then key order), the event keys with times in
    /// `(lo, hi]` (`[lo, hi]` when `include_lo`).
    fn range<S: Scalar, const N: usize>(&self, lo: S, hi: S, include_lo: bool, q: &mut EventQueue<N>)
    where
        Src: ClipSource<S>,
    {
        let (src, clip) = (self.src, self.clip);
        let clip_id = u32::try_from(clip).unwrap_or(u32::MAX);
        let event_track = |track: usize| src.track(clip, track).filter(|t| t.target == TrackTarget::Event);
        // Each round fires one distinct time, so the number of event keys bounds the rounds.
        let rounds = (0..self.track_count).filter_map(event_track).fold(0usize, |n, t| n.saturating_add(t.key_count));
        let (mut cur, mut incl) = (lo, include_lo);
        for _ in 0..rounds {
            // The earliest event key time in the interval, across event tracks.
            let mut next: Option<S> = None;
            for track in 0..self.track_count {
                let Some(info) = event_track(track) else { continue };
                let n = info.key_count;
                let i =
                    if incl { lower_bound(src, clip, track, n, cur) } else { upper_bound(src, clip, track, n, cur) };
                if let Some(kt) = src.key_time(clip, track, i).filter(|_| i < n) {
                    if kt <= hi && next.is_none_or(|m| kt < m) {
                        next = Some(kt);
                    }
                }
            }
            let Some(tm) = next else { return };
            for track in 0..self.track_count {
                let Some(info) = event_track(track) else { continue };
                let n = info.key_count;
                for k in lower_bound(src, clip, track, n, tm)..n {
                    let Some(key) = src.key(clip, track, k) else { break };
                    if key.time != tm {
                        break;
                    }
                    if let KeyValue::Text(name) = key.value {
                        q.push(Event::AnimatorEvent { animator: self.animator, clip: clip_id, name });
                    }
                }
            }
            cur = tm;
            incl = false;
        }
    }
}
