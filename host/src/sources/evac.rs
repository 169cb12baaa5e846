//! EVAC, the `eve.animation-tracks/1` binary track format: one skeletal clip, read and written.
//!
//! EVAC carries per-bone keys and no hierarchy: its tracks name bones, and [`bind`] maps them to
//! the bones of a skeleton another source defines (an EVA file of the same build).
//!
//! # Layout
//!
//! Everything is little-endian; there is no padding. A string is a `u32` byte length followed by
//! that many bytes of UTF-8 (no terminator).
//!
//! | offset | size | field                                                      |
//! |-------:|-----:|------------------------------------------------------------|
//! | 0      | 4    | magic `EVAC` (`45 56 41 43`)                               |
//! | 4      | 4    | `u32` version, 1                                           |
//! | 8      | 4    | `u32` track count                                          |
//! | 12     | 4    | `f32` duration, seconds                                    |
//! | 16     | 4    | `f32` sample rate, Hz (informative: keys carry their times)|
//! | 20     | 4    | `u32` loop flag, 0 or 1                                    |
//! | 24     | 4+n  | string: the clip name                                      |
//! | …      |      | the tracks, one after another                              |
//!
//! Each track:
//!
//! | size      | field                                                      |
//! |----------:|------------------------------------------------------------|
//! | 4+n       | string: the bone name                                      |
//! | 4         | `u32` position key count P                                 |
//! | 16 × P    | position keys: `f32` time, `f32` x, y, z                   |
//! | 4         | `u32` rotation key count R                                 |
//! | 20 × R    | rotation keys: `f32` time, `f32` x, y, z, w (a quaternion) |
//! | 4         | `u32` scale key count S                                    |
//! | 16 × S    | scale keys: `f32` time, `f32` x, y, z                      |
//!
//! The file ends right after the last track. A track takes at least 16 bytes (an empty name and
//! three empty channels).
//!
//! # Rejections
//!
//! [`read`] refuses, each with its own [`EvacError`] variant and the byte offset of the offending
//! field (checked in this order as the reader walks the file):
//!
//! - a file over [`MAX_FILE_BYTES`] (128 MiB), before anything is read ([`EvacError::TooLarge`]);
//! - a magic other than `EVAC` ([`EvacError::BadMagic`]);
//! - a version other than [`VERSION`] ([`EvacError::UnknownVersion`]);
//! - a non-finite duration, sample rate, key time or key component ([`EvacError::NonFinite`]);
//! - a negative duration ([`EvacError::NegativeDuration`]);
//! - a loop flag other than 0 or 1 ([`EvacError::BadLoopFlag`]);
//! - a file that ends inside a field, naming the field ([`EvacError::Truncated`]);
//! - a string that is not UTF-8, at the first bad byte ([`EvacError::BadUtf8`]);
//! - a track count or key count that announces more than the rest of the file could hold
//!   ([`EvacError::CountExceedsData`]): the early form of truncation, found before any memory is
//!   reserved for the items;
//! - a channel of more than [`MAX_KEYS_PER_CHANNEL`] (1,000,000) keys ([`EvacError::TooManyKeys`]);
//! - a key time outside `[0, duration]` ([`EvacError::TimeOutOfRange`]);
//! - a key time not after the previous key's in its channel ([`EvacError::TimeNotIncreasing`]);
//! - a rotation key whose four components are all zero ([`EvacError::ZeroQuaternion`]);
//! - bytes after the last track ([`EvacError::TrailingBytes`]).
//!
//! [`write()`] refuses exactly what [`read`] would refuse of its output (values are rounded from
//! `f64` to `f32` first, so two times that differ only below `f32` precision, or a value beyond
//! `f32` range, are refused), with offsets into the bytes it would have written.
//!
//! Binding a clip to a skeleton ([`bind`]) refuses a track whose bone is not in the skeleton and
//! two tracks that name the same bone.
//!
//! # Limits and memory
//!
//! The file is at most 128 MiB and a channel at most 1,000,000 keys. Every count is checked
//! against the bytes that remain before a vector is reserved for it, so what the reader allocates
//! is bounded by a small multiple of the file's size (at most about 6×, for a file of empty
//! tracks), whatever its count fields say.
//!
//! The reader is written by hand rather than with nom: every field needs its own offset and its
//! own refusal, which a plain cursor states most directly.

use crate::error::HostError;
use crate::ir::{BoneTrackIr, ChannelKey, Origin, Project, SkelClipIr, SkeletonIr};
use std::fmt;
use std::path::Path;

/// The magic bytes an EVAC file starts with.
pub const MAGIC: [u8; 4] = *b"EVAC";
/// The one version this reader knows.
pub const VERSION: u32 = 1;
/// The largest EVAC file read or written: 128 MiB.
pub const MAX_FILE_BYTES: usize = 128 * 1024 * 1024;
/// The most keys one channel may hold.
pub const MAX_KEYS_PER_CHANNEL: u32 = 1_000_000;
/// The bytes of the fixed header, up to and including the clip name's length.
pub const HEADER_BYTES: usize = 28;
/// The fewest bytes a track takes: an empty name's length and three empty channels' counts.
pub const MIN_TRACK_BYTES: usize = 16;

/// One of a track's three channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// Translation, 3 components.
    Position,
    /// Rotation quaternion x, y, z, w.
    Rotation,
    /// Scale, 3 components.
    Scale,
}

impl Channel {
    /// The bytes one key of this channel takes (time and components).
    pub const fn key_bytes(self) -> usize {
        match self {
            Channel::Position | Channel::Scale => 16,
            Channel::Rotation => 20,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Channel::Position => "position",
            Channel::Rotation => "rotation",
            Channel::Scale => "scale",
        }
    }
}

/// The field of an EVAC file an error is about (tracks and keys counted from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The magic.
    Magic,
    /// The version.
    Version,
    /// The track count.
    TrackCount,
    /// The duration.
    Duration,
    /// The sample rate.
    SampleRate,
    /// The loop flag.
    LoopFlag,
    /// The clip name's byte length.
    ClipNameLength,
    /// The clip name's bytes.
    ClipName,
    /// A track's bone name's byte length.
    BoneNameLength {
        /// The track.
        track: u32,
    },
    /// A track's bone name's bytes.
    BoneName {
        /// The track.
        track: u32,
    },
    /// A channel's key count.
    KeyCount {
        /// The track.
        track: u32,
        /// The channel.
        channel: Channel,
    },
    /// A key's time.
    KeyTime {
        /// The track.
        track: u32,
        /// The channel.
        channel: Channel,
        /// The key.
        key: u32,
    },
    /// A key's value (its components).
    KeyValue {
        /// The track.
        track: u32,
        /// The channel.
        channel: Channel,
        /// The key.
        key: u32,
    },
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Field::Magic => f.write_str("the magic"),
            Field::Version => f.write_str("the version"),
            Field::TrackCount => f.write_str("the track count"),
            Field::Duration => f.write_str("the duration"),
            Field::SampleRate => f.write_str("the sample rate"),
            Field::LoopFlag => f.write_str("the loop flag"),
            Field::ClipNameLength => f.write_str("the clip name's length"),
            Field::ClipName => f.write_str("the clip name"),
            Field::BoneNameLength { track } => write!(f, "track {track}'s bone name length"),
            Field::BoneName { track } => write!(f, "track {track}'s bone name"),
            Field::KeyCount { track, channel } => write!(f, "track {track}'s {} key count", channel.name()),
            Field::KeyTime { track, channel, key } => write!(f, "track {track}'s {} key {key} time", channel.name()),
            Field::KeyValue { track, channel, key } => {
                write!(f, "track {track}'s {} key {key} value", channel.name())
            }
        }
    }
}

/// Why an EVAC file (or a clip to write as one) is refused; every variant carries the byte offset
/// of what it is about.
#[derive(Debug, Clone, PartialEq)]
pub enum EvacError {
    /// The file is over [`MAX_FILE_BYTES`]; `offset` is the first byte past the limit.
    TooLarge {
        /// [`MAX_FILE_BYTES`].
        offset: usize,
        /// The file's length.
        len: u64,
    },
    /// The file does not start with `EVAC`.
    BadMagic {
        /// 0.
        offset: usize,
        /// The first four bytes.
        found: [u8; 4],
    },
    /// A version other than [`VERSION`].
    UnknownVersion {
        /// 4.
        offset: usize,
        /// The version the file states.
        version: u32,
    },
    /// The file ends inside a field.
    Truncated {
        /// Where the field starts.
        offset: usize,
        /// The field being read.
        field: Field,
        /// The bytes the field takes.
        needed: usize,
        /// The bytes that were left.
        available: usize,
    },
    /// A track or key count announces more items than the rest of the file could hold.
    CountExceedsData {
        /// Where the count is.
        offset: usize,
        /// The count field.
        field: Field,
        /// Its value.
        count: u32,
        /// The fewest bytes that many items take.
        min_bytes: u64,
        /// The bytes left after the count (and, for the track count, the clip name).
        remaining: usize,
    },
    /// A channel of more than [`MAX_KEYS_PER_CHANNEL`] keys.
    TooManyKeys {
        /// Where the count is.
        offset: usize,
        /// The count field.
        field: Field,
        /// Its value.
        count: u32,
    },
    /// A loop flag other than 0 or 1.
    BadLoopFlag {
        /// 20.
        offset: usize,
        /// The value found.
        value: u32,
    },
    /// A string that is not UTF-8.
    BadUtf8 {
        /// The first byte that is not valid UTF-8.
        offset: usize,
        /// The string.
        field: Field,
    },
    /// A duration, sample rate, time or component that is infinite or NaN.
    NonFinite {
        /// Where the value is.
        offset: usize,
        /// The field.
        field: Field,
        /// The value's bits (a NaN's payload kept).
        bits: u32,
    },
    /// A duration below zero.
    NegativeDuration {
        /// 12.
        offset: usize,
        /// The value.
        value: f32,
    },
    /// A key time outside `[0, duration]`.
    TimeOutOfRange {
        /// Where the time is.
        offset: usize,
        /// The key.
        field: Field,
        /// The time.
        time: f32,
        /// The clip's duration.
        duration: f32,
    },
    /// A key time not after the previous key's in its channel.
    TimeNotIncreasing {
        /// Where the time is.
        offset: usize,
        /// The key.
        field: Field,
        /// The time.
        time: f32,
        /// The previous key's time.
        previous: f32,
    },
    /// A rotation key of four zero components (no rotation can be made of it).
    ZeroQuaternion {
        /// Where the key's components start.
        offset: usize,
        /// The key.
        field: Field,
    },
    /// Bytes after the last track.
    TrailingBytes {
        /// Where the last track ends.
        offset: usize,
        /// How many bytes follow it.
        count: usize,
    },
}

impl EvacError {
    /// The byte offset the error is about.
    pub fn offset(&self) -> usize {
        match *self {
            EvacError::TooLarge { offset, .. }
            | EvacError::BadMagic { offset, .. }
            | EvacError::UnknownVersion { offset, .. }
            | EvacError::Truncated { offset, .. }
            | EvacError::CountExceedsData { offset, .. }
            | EvacError::TooManyKeys { offset, .. }
            | EvacError::BadLoopFlag { offset, .. }
            | EvacError::BadUtf8 { offset, .. }
            | EvacError::NonFinite { offset, .. }
            | EvacError::NegativeDuration { offset, .. }
            | EvacError::TimeOutOfRange { offset, .. }
            | EvacError::TimeNotIncreasing { offset, .. }
            | EvacError::ZeroQuaternion { offset, .. }
            | EvacError::TrailingBytes { offset, .. } => offset,
        }
    }

    /// Whether the error says the file is too short: [`EvacError::Truncated`], or a count the
    /// rest of the file cannot hold ([`EvacError::CountExceedsData`]).
    pub fn is_truncation(&self) -> bool {
        matches!(self, EvacError::Truncated { .. } | EvacError::CountExceedsData { .. })
    }

    /// What is wrong, without the offset (a [`HostError`] puts it in its place).
    pub fn reason(&self) -> String {
        match self {
            EvacError::TooLarge { len, .. } => {
                format!("EVAC file is {len} bytes, over the {MAX_FILE_BYTES}-byte (128 MiB) limit")
            }
            EvacError::BadMagic { found, .. } => {
                format!("not an EVAC file: starts with {:?}, expected \"EVAC\"", String::from_utf8_lossy(found))
            }
            EvacError::UnknownVersion { version, .. } => {
                format!("EVAC version {version} is not supported (this reader knows version {VERSION})")
            }
            EvacError::Truncated { field, needed, available, .. } => format!(
                "file ends inside {field}: it takes {needed} byte{}, {available} left",
                plural(*needed),
                available = available
            ),
            EvacError::CountExceedsData { field, count, min_bytes, remaining, .. } => format!(
                "{field} is {count}, which takes at least {min_bytes} bytes, but only {remaining} remain: \
                 the file is truncated or the count is wrong"
            ),
            EvacError::TooManyKeys { field, count, .. } => {
                format!("{field} is {count}, over the limit of {MAX_KEYS_PER_CHANNEL} keys per channel")
            }
            EvacError::BadLoopFlag { value, .. } => format!("the loop flag is {value}, expected 0 or 1"),
            EvacError::BadUtf8 { field, .. } => format!("{field} is not valid UTF-8"),
            EvacError::NonFinite { field, bits, .. } => {
                format!("{field} is {} (bits {bits:#010x}), not a finite number", f32::from_bits(*bits))
            }
            EvacError::NegativeDuration { value, .. } => format!("the duration is {value}, below zero"),
            EvacError::TimeOutOfRange { field, time, duration, .. } => {
                format!("{field} is {time}, outside the clip's [0, {duration}]")
            }
            EvacError::TimeNotIncreasing { field, time, previous, .. } => {
                format!("{field} is {time}, not after the previous key's {previous} (times must strictly increase)")
            }
            EvacError::ZeroQuaternion { field, .. } => {
                format!("{field} is the zero quaternion (0, 0, 0, 0), which is no rotation")
            }
            EvacError::TrailingBytes { count, .. } => {
                format!("{count} byte{} after the last track", plural(*count))
            }
        }
    }

    /// The error as a host error at `byte N` of `path`.
    pub fn at(&self, path: &Path) -> HostError {
        HostError::at(path, format!("byte {}", self.offset()), self.reason())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl fmt::Display for EvacError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset(), self.reason())
    }
}

impl std::error::Error for EvacError {}

/// Parses an EVAC file into a project holding its one clip (named as the file names it, with no
/// skeleton: [`bind`] maps its tracks when the blob is written).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let mut clip = read(bytes).map_err(|e| e.at(path))?;
    clip.origin = Origin { file: path.to_path_buf(), place: String::new() };
    Ok(Project { skel_clips: vec![clip], ..Project::default() })
}

/// A cursor over the file that refuses to read past its end.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize, field: Field) -> Result<&'a [u8], EvacError> {
        let available = self.remaining();
        if n > available {
            return Err(EvacError::Truncated { offset: self.pos, field, needed: n, available });
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, field: Field) -> Result<[u8; N], EvacError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, field)?);
        Ok(out)
    }

    fn u32(&mut self, field: Field) -> Result<u32, EvacError> {
        self.array::<4>(field).map(u32::from_le_bytes)
    }

    /// A finite `f32`.
    fn f32(&mut self, field: Field) -> Result<f32, EvacError> {
        let offset = self.pos;
        let v = f32::from_le_bytes(self.array::<4>(field)?);
        if !v.is_finite() {
            return Err(EvacError::NonFinite { offset, field, bits: v.to_bits() });
        }
        Ok(v)
    }

    fn string(&mut self, length: Field, field: Field) -> Result<String, EvacError> {
        let len = self.u32(length)?;
        let start = self.pos;
        // A length past the end is plain truncation: nothing is reserved before the bytes are there.
        let raw = self.take(len as usize, field)?;
        match std::str::from_utf8(raw) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(EvacError::BadUtf8 { offset: start + e.valid_up_to(), field }),
        }
    }

    /// A count of items of at least `item_bytes` each, checked against the bytes that remain.
    fn check_count(&self, offset: usize, field: Field, count: u32, item_bytes: usize) -> Result<usize, EvacError> {
        let min_bytes = u64::from(count) * item_bytes as u64;
        let remaining = self.remaining();
        if min_bytes > remaining as u64 {
            return Err(EvacError::CountExceedsData { offset, field, count, min_bytes, remaining });
        }
        Ok(count as usize)
    }

    fn channel<const N: usize>(
        &mut self,
        track: u32,
        channel: Channel,
        duration: f32,
    ) -> Result<Vec<ChannelKey<N>>, EvacError> {
        let field = Field::KeyCount { track, channel };
        let offset = self.pos;
        let count = self.u32(field)?;
        if count > MAX_KEYS_PER_CHANNEL {
            return Err(EvacError::TooManyKeys { offset, field, count });
        }
        let count = self.check_count(offset, field, count, channel.key_bytes())?;
        let mut keys = Vec::with_capacity(count);
        let mut previous: Option<f32> = None;
        for key in 0..count as u32 {
            let field = Field::KeyTime { track, channel, key };
            let offset = self.pos;
            let time = self.f32(field)?;
            // -0.0 counts as 0.
            if !(0.0..=duration).contains(&time) {
                return Err(EvacError::TimeOutOfRange { offset, field, time, duration });
            }
            if let Some(previous) = previous.filter(|&p| time <= p) {
                return Err(EvacError::TimeNotIncreasing { offset, field, time, previous });
            }
            previous = Some(time);
            let field = Field::KeyValue { track, channel, key };
            let value_offset = self.pos;
            let mut value = [0.0f64; N];
            for v in &mut value {
                *v = f64::from(self.f32(field)?);
            }
            if channel == Channel::Rotation && value.iter().all(|&v| v == 0.0) {
                return Err(EvacError::ZeroQuaternion { offset: value_offset, field });
            }
            keys.push(ChannelKey { time: f64::from(time), value });
        }
        Ok(keys)
    }
}

/// Reads an EVAC file into a clip (no skeleton, no origin: [`parse`] sets the file). Every value
/// is an `f32` widened to `f64`, so [`write()`] gives back the same bytes.
pub fn read(bytes: &[u8]) -> Result<SkelClipIr, EvacError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(EvacError::TooLarge { offset: MAX_FILE_BYTES, len: bytes.len() as u64 });
    }
    let mut r = Reader { bytes, pos: 0 };
    let magic = r.array::<4>(Field::Magic)?;
    if magic != MAGIC {
        return Err(EvacError::BadMagic { offset: 0, found: magic });
    }
    let version = r.u32(Field::Version)?;
    if version != VERSION {
        return Err(EvacError::UnknownVersion { offset: 4, version });
    }
    let track_count_at = r.pos;
    let track_count = r.u32(Field::TrackCount)?;
    let duration_at = r.pos;
    let duration = r.f32(Field::Duration)?;
    if duration < 0.0 {
        return Err(EvacError::NegativeDuration { offset: duration_at, value: duration });
    }
    let sample_rate = r.f32(Field::SampleRate)?;
    let loop_at = r.pos;
    let looping = match r.u32(Field::LoopFlag)? {
        0 => false,
        1 => true,
        value => return Err(EvacError::BadLoopFlag { offset: loop_at, value }),
    };
    let name = r.string(Field::ClipNameLength, Field::ClipName)?;
    let track_count = r.check_count(track_count_at, Field::TrackCount, track_count, MIN_TRACK_BYTES)?;
    let mut tracks = Vec::with_capacity(track_count);
    for track in 0..track_count as u32 {
        let bone = r.string(Field::BoneNameLength { track }, Field::BoneName { track })?;
        let translation = r.channel::<3>(track, Channel::Position, duration)?;
        let rotation = r.channel::<4>(track, Channel::Rotation, duration)?;
        let scale = r.channel::<3>(track, Channel::Scale, duration)?;
        tracks.push(BoneTrackIr::linear(bone, translation, rotation, scale));
    }
    if r.remaining() > 0 {
        return Err(EvacError::TrailingBytes { offset: r.pos, count: r.remaining() });
    }
    Ok(SkelClipIr {
        name,
        duration: f64::from(duration),
        sample_rate: f64::from(sample_rate),
        looping,
        tracks,
        skeleton: None,
        origin: Origin::default(),
        events: Vec::new(),
    })
}

/// The bytes `clip` takes as EVAC (saturating: only compared against the limit).
fn encoded_len(clip: &SkelClipIr) -> u64 {
    let string = |s: &str| 4 + s.len() as u64;
    let mut n = HEADER_BYTES as u64 - 4 + string(&clip.name);
    for t in &clip.tracks {
        n = n
            .saturating_add(string(&t.bone))
            .saturating_add(12)
            .saturating_add((t.translation.len() as u64).saturating_mul(16))
            .saturating_add((t.rotation.len() as u64).saturating_mul(20))
            .saturating_add((t.scale.len() as u64).saturating_mul(16));
    }
    n
}

/// Writes `clip` as EVAC. Values are rounded to `f32`; the output is then checked by [`read`], so
/// whatever it would refuse is refused here, at the offset it would have in the written bytes.
/// A clip over [`MAX_FILE_BYTES`] is refused before anything is written.
///
/// `read(&write(&c)?)` equals `c` (without its origin and skeleton) whenever every value of `c`
/// is an `f32`.
///
/// ```
/// use ossicle_host::ir::{Origin, SkelClipIr};
/// use ossicle_host::sources::evac;
///
/// let clip = SkelClipIr {
///     name: "idle".into(),
///     duration: 1.0,
///     sample_rate: 30.0,
///     looping: true,
///     tracks: vec![],
///     events: vec![],
///     skeleton: None,
///     origin: Origin::default(),
/// };
/// let bytes = evac::write(&clip)?;
/// assert_eq!(&bytes[..4], b"EVAC");
/// assert_eq!(bytes.len(), evac::HEADER_BYTES + "idle".len());
/// assert_eq!(evac::read(&bytes)?, clip);
/// # Ok::<(), evac::EvacError>(())
/// ```
pub fn write(clip: &SkelClipIr) -> Result<Vec<u8>, EvacError> {
    let len = encoded_len(clip);
    if len > MAX_FILE_BYTES as u64 {
        return Err(EvacError::TooLarge { offset: MAX_FILE_BYTES, len });
    }
    // Every count and length fits a u32: the whole file is at most 128 MiB.
    let mut out = Vec::with_capacity(len as usize);
    let u32_ = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_le_bytes());
    let f32_ = |out: &mut Vec<u8>, v: f64| out.extend_from_slice(&(v as f32).to_le_bytes());
    let string = |out: &mut Vec<u8>, s: &str| {
        u32_(out, s.len());
        out.extend_from_slice(s.as_bytes());
    };
    out.extend_from_slice(&MAGIC);
    u32_(&mut out, VERSION as usize);
    u32_(&mut out, clip.tracks.len());
    f32_(&mut out, clip.duration);
    f32_(&mut out, clip.sample_rate);
    u32_(&mut out, usize::from(clip.looping));
    string(&mut out, &clip.name);
    for t in &clip.tracks {
        string(&mut out, &t.bone);
        u32_(&mut out, t.translation.len());
        for k in &t.translation {
            f32_(&mut out, k.time);
            k.value.iter().for_each(|&v| f32_(&mut out, v));
        }
        u32_(&mut out, t.rotation.len());
        for k in &t.rotation {
            f32_(&mut out, k.time);
            k.value.iter().for_each(|&v| f32_(&mut out, v));
        }
        u32_(&mut out, t.scale.len());
        for k in &t.scale {
            f32_(&mut out, k.time);
            k.value.iter().for_each(|&v| f32_(&mut out, v));
        }
    }
    read(&out)?;
    Ok(out)
}

/// Why a clip's tracks do not bind to a skeleton.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindError {
    /// A track names a bone the skeleton does not have.
    UnknownBone {
        /// The track (from 0).
        track: usize,
        /// The bone it names.
        bone: String,
    },
    /// Two tracks name the same bone.
    BoneMappedTwice {
        /// The bone.
        bone: String,
        /// The track that named it first.
        first: usize,
        /// The track that names it again.
        second: usize,
    },
}

/// The skeleton bone index of each of `clip`'s tracks, in track order.
pub fn bind_indices(clip: &SkelClipIr, skeleton: &SkeletonIr) -> Result<Vec<usize>, BindError> {
    let by_name: std::collections::HashMap<&str, usize> =
        skeleton.bones.iter().enumerate().rev().map(|(i, b)| (b.name.as_str(), i)).collect();
    let mut track_of_bone: Vec<Option<usize>> = vec![None; skeleton.bones.len()];
    let mut out = Vec::with_capacity(clip.tracks.len());
    for (track, t) in clip.tracks.iter().enumerate() {
        let Some(&bone) = by_name.get(t.bone.as_str()) else {
            return Err(BindError::UnknownBone { track, bone: t.bone.clone() });
        };
        if let Some(first) = track_of_bone[bone] {
            return Err(BindError::BoneMappedTwice { bone: t.bone.clone(), first, second: track });
        }
        track_of_bone[bone] = Some(track);
        out.push(bone);
    }
    Ok(out)
}

/// The byte offset of track `index`'s bone name in the EVAC file `clip` was read from (the
/// layout is canonical, so it follows from the clip's content).
fn track_offset(clip: &SkelClipIr, index: usize) -> u64 {
    let mut n = HEADER_BYTES as u64 + clip.name.len() as u64;
    for t in clip.tracks.iter().take(index) {
        n += 4
            + t.bone.len() as u64
            + 12
            + 16 * t.translation.len() as u64
            + 20 * t.rotation.len() as u64
            + 16 * t.scale.len() as u64;
    }
    n
}

/// Binds `clip`'s tracks to `skeleton`'s bones by name: the skeleton bone index of each track, in
/// track order. A track naming a bone the skeleton lacks, or two tracks naming one bone, is an
/// error in the clip's file (at the track's byte offset when the clip came from an EVAC file).
pub fn bind(clip: &SkelClipIr, skeleton: &SkeletonIr) -> Result<Vec<usize>, HostError> {
    bind_indices(clip, skeleton).map_err(|e| {
        let track = match &e {
            BindError::UnknownBone { track, .. } => *track,
            BindError::BoneMappedTwice { second, .. } => *second,
        };
        let from_evac = clip.origin.file.extension().is_some_and(|e| e.eq_ignore_ascii_case("evac"));
        let place = if from_evac { format!("byte {}", track_offset(clip, track)) } else { clip.origin.place.clone() };
        let which = if skeleton.origin.file.as_os_str().is_empty() {
            format!("skeleton {:?}", skeleton.name)
        } else {
            format!("skeleton {:?} (defined by {})", skeleton.name, skeleton.origin.file.display())
        };
        let reason = match e {
            BindError::UnknownBone { track, bone } => {
                format!("clip {:?} track {track}: bone {bone:?} is not in {which}", clip.name)
            }
            BindError::BoneMappedTwice { bone, first, second } => format!(
                "clip {:?} track {second}: bone {bone:?} of {which} is already animated by track {first}",
                clip.name
            ),
        };
        HostError::at(&clip.origin.file, place, reason)
    })
}
