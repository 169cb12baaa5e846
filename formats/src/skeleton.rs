//! Skeletal sections (format version 7; version 6 added packed rotation channels to version 5's
//! layout, version 7 bitmap key times, grid time tables and the compact clip layout, all additive;
//! version 4's clip layout is no longer read): [`SectionKind::Skeleton`](crate::SectionKind::Skeleton),
//! one per skeleton, and [`SectionKind::SkelClip`](crate::SectionKind::SkelClip), one per skeletal
//! clip.
//!
//! A *scalar word* is a u32 LE holding a value in the blob's encoding (f32 bits, or Q16.16 bits);
//! all counts and indices are u32 LE unless said otherwise. Bodies are postcard: a `u32` field is a
//! varint, a `u8` field one byte, a byte array a varint length then its bytes (no alignment inside
//! a body: arrays are read through [`WordView`], which takes any alignment). The writer
//! (`BlobWriter`, feature `std`) places each skeleton section so that its `bones` start
//! 4-aligned from the blob's first byte, and each clip section so that its `data` does (up to
//! three unused bytes before the section in the data area; readers use the directory's offsets and
//! do not depend on it): a blob loaded 4-aligned then reads those words with one load each on
//! targets without unaligned loads ([`WORD_LOADS`](crate::WORD_LOADS)).
//!
//! # Skeleton body ([`SkeletonBody`])
//!
//! ```text
//! name        u32 (varint)  string id of the skeleton's name (unique among the blob's skeletons)
//! dimension   u8            3 = 3D (Transform3), 2 = 2D (Transform2)
//! bones       bytes         BONE_RECORD_LEN (8) bytes per bone; the bone count is len / 8 (1..=65535)
//! rest        bytes         per bone, W scalar words of its rest (bind) pose, relative to its parent:
//!                           3D (W = 10): tx ty tz, qx qy qz qw, sx sy sz
//!                           2D (W = 5):  tx ty, angle (radians), sx sy
//! ```
//!
//! Bone record (8 bytes, little-endian):
//!
//! ```text
//!  0  u16  parent    index of the parent bone (< this bone's index), or 0xFFFF for a root
//!  2  u8   lod       level of detail: jobs given a LOD limit l leave bones with lod > l at rest
//!  3  u8   reserved, 0
//!  4  u32  name      string id of the bone's name
//! ```
//!
//! [`SkeletonSection::parse`] checks: the dimension, whole bone records, 1 to 65,535 bones,
//! `rest` of exactly `count × W` words, every parent before its child (which also rules out
//! cycles), reserved bytes 0, name ids in the string table, rest words finite (f32), and no rest
//! rotation quaternion with four zero components.
//!
//! # Skeletal clip body ([`SkelClipBody`])
//!
//! ```text
//! name         u32 (varint)  string id of the clip's name
//! skeleton     u32 (varint)  string id of its skeleton's name (a Skeleton section of this blob)
//! dimension    u8            as its skeleton's (3 or 2)
//! flags        u8            bit 0: loops; bit 1: `time_index` entries are u16 (else u8);
//!                            bit 2 (version 7): grid time table ([`CLIP_FLAG_GRID_TIMES`]);
//!                            bit 3 (version 7): compact layout ([`CLIP_FLAG_COMPACT`]: 2-byte
//!                            bone entries, 8-byte channel records); other bits 0
//! duration     u32 (varint)  scalar word: seconds, > 0
//! sample_rate  u32 (varint)  scalar word: the rate the source stated, Hz, ≥ 0 (informative: keys
//!                            carry their own times)
//! bones        bytes         BONE_ENTRY_LEN (4) bytes per bone, a u32 LE: bits 0-2 which channels
//!                            the bone has records for (bit c: channel c, 0 translation, 1 rotation,
//!                            2 scale), bits 3-31 the index of its first channel record; the clip's
//!                            bone count is len / 4, at most its skeleton's bone count
//! channels     bytes         CHANNEL_RECORD_LEN (16) bytes per *animated* channel, in bone order then
//!                            channel order: bone b's records start at its entry's index and are
//!                            one per set mask bit (so every entry's index is the previous entry's
//!                            plus the previous mask's bit count, the first is 0, and the records
//!                            are exactly the array); a channel without a record is not animated
//! data         bytes         u32 LE words the channel records point into: raw times, raw values,
//!                            quantisation ranges, Hermite tangents
//! quant        bytes         u16 LE quantised values the channel records point into (at even
//!                            byte offsets), and packed rotation parameters and bit streams (at
//!                            any byte offset); a whole number of u16
//! times        bytes         the clip's time table: u32 LE scalar words, strictly increasing,
//!                            within [0, duration] (empty when no channel has indexed times);
//!                            with flags bit 2, instead two u32 LE integers, rate and entry count
//!                            of a uniform grid whose entry j is [`grid_time`]`(j, rate)`, the last
//!                            within [0, duration] (rate 1..=65535, 1..=65536 entries)
//! time_index   bytes         u8 indices into the table (u16 LE when flags bit 1 is set) that
//!                            indexed channels point into, and (version 7) time bitmaps over the
//!                            table (⌈entries / 8⌉ bytes each, at any byte offset)
//! events       bytes         EVENT_RECORD_LEN (8) bytes per event: time (scalar word), name (u32,
//!                            a string id ≤ 0xFFFF); sorted by time (ties allowed), within
//!                            [0, duration]
//! ```
//!
//! Channel record (16 bytes = 4 u32 LE words). `n` is the key count and `w` the channel's
//! components per key: 3D translation 3, rotation 4 (quaternion x, y, z, w), scale 3; 2D
//! translation 2, angle 1, scale 2.
//!
//! ```text
//!  0  u32  info    bits 0-23: n (≥ 1); bits 24-25: interpolation (0 Step, 1 Linear, 2 Hermite);
//!                  bit 26: quantised values; bit 27: indexed times; bit 28 (version 6): packed
//!                  rotation (3D rotation channels only, not with bit 26, not Hermite); bit 29
//!                  (version 7): bitmap times (only with bit 27); bits 30-31: 0
//!  4  u32  times   raw: word index in `data` of n time words (seconds, strictly increasing,
//!                  within [0, duration]); indexed: element index in `time_index` of n indices
//!                  into the table (strictly increasing, so the times are too); bitmap: byte
//!                  index in `time_index` of a bitmap over the table with exactly n bits set,
//!                  none at or past its length (key k's time is the entry of the k-th set bit,
//!                  [`bitmap_select`]); channels with equal times may share one run
//!  8  u32  values  raw: word index in `data` of n·w scalar words, key after key;
//!                  quantised: index in `quant` (u16 units) of n·w u16 values, key after key;
//!                  packed: byte index in `quant` of the ⌈n·K / 8⌉ bytes of the keys' bit stream
//! 12  u32  extra   quantised: word index in `data` of w min words then w extent words (scalar
//!                  words, extent ≥ 0), followed, for Hermite, by the 2·n·w tangent words;
//!                  raw Hermite: word index in `data` of the 2·n·w tangent words;
//!                  packed: byte index in `quant` of the 16 parameter bytes ([`PackedRotation`]);
//!                  otherwise 0
//! ```
//!
//! A compact clip (flags bit 3) stores each bone entry as a u16 LE (bits 0-2 the mask, bits 3-15
//! the first record) and each channel record as one u64 LE (bits 0-15 n, bits 16-21 the info
//! word's bits 24-29, then `times`, `values`, `extra` in 14 bits each: see
//! [`ChannelRecord::from_compact`]); everything else reads as above.
//!
//! A blob of a version older than an encoding it uses (a packed rotation in version 5, a bitmap,
//! grid or compact clip before version 7) is refused: [`SkeletonDefect::NewerEncoding`] for a
//! channel's encoding, [`SkeletonDefect::NewerFlags`] for a clip flag.
//!
//! Hermite tangents are raw scalar words, per key its `w` in-tangent components then its `w`
//! out-tangent components (value units per second). Times are exact scalar words, never quantised
//! (so `sample` reproduces every key at its own time): stored raw, or as 8- or 16-bit indices into
//! the clip's table of distinct key times (a reduced clip keeps a subset of its source's sample
//! times, so one table of them plus a byte per key replaces four bytes per key). Runs of times or
//! indices are shared between channels.
//!
//! A quantised component `c` of a key with stored value `q` (0..=65535) decodes, with that
//! component's `min` and `extent` words, as [`dequantize`] says: `min + extent × q / 65535`, in
//! f32 blobs `min + extent * (q as f32 / 65535.0)` in f32 arithmetic, in Q16.16 blobs
//! `min + (q × extent + 32767) div 65535` on the raw bits (integer arithmetic, so host and device
//! decode to the same bits).
//!
//! A packed rotation channel (version 6) stores "smallest three" keys: per channel a dropped
//! component, and for each of the other three a bit width (0–16) and a range; each key is `K` bits
//! (the widths' sum) of a little-endian bit stream, and decodes with integer arithmetic only to
//! four Q2.30 integers, which become scalar words by [`packed_word`] (see [`PackedRotation`] for
//! the parameter bytes and the exact formula). Host and kernel decode through
//! [`PackedRotation::decode_key`], so they agree bit for bit.
//!
//! [`SkelClipSection::parse`] checks everything a reader reads: whole records, flags, duration and
//! sample rate, the dimension and bone count against the skeleton it names, every channel's info
//! word and every run inside `data` / `quant`, key times finite, strictly increasing and within
//! `[0, duration]`, raw values, ranges and tangents finite (f32), ranges whose largest value is
//! representable, packed parameters valid ([`PackedRotation::check`]: dropped index and reserved
//! bits, widths ≤ 16, no extent with 0 bits, `min + extent` ≤ 1) with their bit stream inside
//! `quant`, time bitmaps inside `time_index` with exactly one set bit per key within the table
//! ([`SkeletonDefect::TimeBitmap`]), a grid table's rate, length and last time
//! ([`SkeletonDefect::TimeGrid`]), no encoding newer than the blob's version, no rotation key (3D)
//! whose four decoded components are all zero (a packed key never is), and events
//! sorted, within the clip and naming strings. The cross-section checks (the skeleton exists and
//! agrees, skeleton names are unique) are done by [`Blob::parse`](crate::Blob::parse).
//!
//! # Sizes
//!
//! A skeleton costs 8 bytes per bone plus 40 (3D) or 20 (2D) bytes of rest pose. A clip costs 4
//! bytes per bone (2 compact), plus per animated channel a 16-byte record (8 compact), `4n` bytes
//! of raw times or `n` (`2n` with u16 indices) bytes of indexed times or `⌈T / 8⌉` bytes of bitmap
//! (T the table's entries; shared runs once), and `4nw` bytes of raw values, or `2nw + 8w` bytes
//! quantised, or (packed rotations) `16 + ⌈nK / 8⌉` bytes (plus at most one byte of padding),
//! plus `8nw` bytes of Hermite tangents; plus 4 bytes per entry of the time table (8 bytes for a
//! grid), plus 8 bytes per event.

use crate::{ScalarEncoding, SectionDefect, StringTable, WordView};
use core::fmt;
use serde::{Deserialize, Serialize};

/// The size of one bone record in bytes.
pub const BONE_RECORD_LEN: usize = 8;
/// The size of one bone entry of a clip in bytes.
pub const BONE_ENTRY_LEN: usize = 4;
/// Bone entry: the channel mask bits (bit c: channel c has a record).
pub const BONE_MASK: u32 = 7;
/// Bone entry: the first record index's bit position.
pub const BONE_FIRST_SHIFT: u32 = 3;
/// The size of one channel record in bytes.
pub const CHANNEL_RECORD_LEN: usize = 16;
/// The size of one event record in bytes.
pub const EVENT_RECORD_LEN: usize = 8;
/// Channel records per bone (translation, rotation, scale).
pub const CHANNELS_PER_BONE: usize = 3;
/// A bone record's parent for a root bone.
pub const NO_PARENT: u16 = 0xFFFF;
/// The most bones a skeleton may have (indices 0..=65534; 0xFFFF means "no parent").
pub const MAX_BONES: usize = 65_535;
/// The most keys one channel may have (the key count's 24 bits).
pub const MAX_CHANNEL_KEYS: u32 = (1 << 24) - 1;
/// Channel info: the key count bits.
pub const CHANNEL_COUNT_MASK: u32 = (1 << 24) - 1;
/// Channel info: the interpolation's bit position (2 bits).
pub const CHANNEL_INTERP_SHIFT: u32 = 24;
/// Channel info bit: the values are quantised to u16.
pub const CHANNEL_QUANTIZED: u32 = 1 << 26;
/// Channel info bit: the times are indices into the clip's time table.
pub const CHANNEL_INDEXED_TIMES: u32 = 1 << 27;
/// Channel info bit (format version 6): a 3D rotation channel stored as packed smallest-three keys
/// ([`PackedRotation`]); `values` and `extra` are byte offsets into `quant`.
pub const CHANNEL_PACKED_ROTATION: u32 = 1 << 28;
/// Channel info bit (format version 7): the channel's times are a bitmap over the clip's time
/// table (with [`CHANNEL_INDEXED_TIMES`]); `times` is the bitmap's byte offset in `time_index`
/// (see [`bitmap_select`]).
pub const CHANNEL_BITMAP_TIMES: u32 = 1 << 29;
/// The size of a packed rotation channel's parameters ([`PackedRotation`]) in bytes.
pub const PACKED_ROTATION_PARAMS_LEN: usize = 16;
/// The most bits a packed component may have.
pub const PACKED_MAX_BITS: u8 = 16;
/// 1.0 in a packed rotation range's units (2^-15).
pub const PACKED_RANGE_ONE: i32 = 1 << 15;
/// 1.0 in the packed rotation value domain (Q2.30: values are integers in units of 2^-30).
pub const PACKED_VALUE_ONE: i64 = 1 << 30;
/// Clip flag: the clip loops.
pub const CLIP_FLAG_LOOP: u8 = 1;
/// Clip flag: `time_index` entries are u16 LE (else u8).
pub const CLIP_FLAG_WIDE_INDEX: u8 = 2;
/// Clip flag (format version 7): the time table is a uniform grid, `times` holds two u32 LE
/// integers, the rate (1..=65535 entries per second) and the entry count (1..=65536), and entry
/// `j` is [`grid_time`]`(encoding, j, rate)`.
pub const CLIP_FLAG_GRID_TIMES: u8 = 4;
/// Clip flag (format version 7): compact layout: bone entries are u16 LE
/// ([`COMPACT_BONE_ENTRY_LEN`]: mask bits 0-2, first record bits 3-15) and channel records are 8
/// bytes ([`COMPACT_RECORD_LEN`], see [`ChannelRecord::from_compact`]).
pub const CLIP_FLAG_COMPACT: u8 = 8;
/// The size of one bone entry of a compact clip ([`CLIP_FLAG_COMPACT`]) in bytes.
pub const COMPACT_BONE_ENTRY_LEN: usize = 2;
/// The size of one channel record of a compact clip ([`CLIP_FLAG_COMPACT`]) in bytes.
pub const COMPACT_RECORD_LEN: usize = 8;
/// The largest `times`, `values` or `extra` field of a compact channel record (14 bits).
pub const COMPACT_FIELD_MAX: u32 = (1 << 14) - 1;
/// The largest record index a compact bone entry holds (13 bits).
pub const COMPACT_FIRST_MAX: u32 = (1 << 13) - 1;
/// The largest rate of a grid time table ([`CLIP_FLAG_GRID_TIMES`]).
pub const GRID_MAX_RATE: u32 = 65_535;
/// The most entries of a grid time table ([`CLIP_FLAG_GRID_TIMES`]; indices are at most u16).
pub const GRID_MAX_ENTRIES: u32 = 65_536;
/// Interpolation code: step.
pub const INTERP_STEP: u32 = 0;
/// Interpolation code: linear.
pub const INTERP_LINEAR: u32 = 1;
/// Interpolation code: cubic Hermite with tangents.
pub const INTERP_HERMITE: u32 = 2;

/// Whether a skeleton (and its clips) is 3D or 2D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Dimension {
    /// 2D: translation (x, y), an angle, scale (x, y).
    D2 = 2,
    /// 3D: translation (x, y, z), a quaternion (x, y, z, w), scale (x, y, z).
    D3 = 3,
}

impl Dimension {
    /// The dimension stored as `byte`.
    pub const fn from_u8(byte: u8) -> Option<Self> {
        match byte {
            2 => Some(Self::D2),
            3 => Some(Self::D3),
            _ => None,
        }
    }

    /// Scalar words of a bone's rest pose: 10 (3D) or 5 (2D).
    pub const fn rest_words(self) -> usize {
        match self {
            Self::D3 => 10,
            Self::D2 => 5,
        }
    }

    /// Components per key of each channel (translation, rotation, scale): `[3, 4, 3]` or `[2, 1, 2]`.
    pub const fn widths(self) -> [usize; 3] {
        match self {
            Self::D3 => [3, 4, 3],
            Self::D2 => [2, 1, 2],
        }
    }

    /// Components per key of channel `c` (0 translation, 1 rotation, 2 scale); 0 past the end.
    pub const fn width(self, c: usize) -> usize {
        match (self, c) {
            (Self::D3, 0 | 2) => 3,
            (Self::D3, 1) => 4,
            (Self::D2, 0 | 2) => 2,
            (Self::D2, 1) => 1,
            _ => 0,
        }
    }

    /// `"3d"` or `"2d"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::D3 => "3d",
            Self::D2 => "2d",
        }
    }
}

/// The serialised form of a skeleton section (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkeletonBody<'a> {
    /// String id of the skeleton's name.
    pub name: u32,
    /// [`Dimension`] as its byte.
    pub dimension: u8,
    /// Bone records.
    pub bones: &'a [u8],
    /// Rest pose scalar words.
    pub rest: &'a [u8],
}

/// The serialised form of a skeletal clip section (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkelClipBody<'a> {
    /// String id of the clip's name.
    pub name: u32,
    /// String id of its skeleton's name.
    pub skeleton: u32,
    /// [`Dimension`] as its byte.
    pub dimension: u8,
    /// [`CLIP_FLAG_LOOP`].
    pub flags: u8,
    /// Duration (scalar word).
    pub duration: u32,
    /// Sample rate (scalar word).
    pub sample_rate: u32,
    /// Bone entries (channel mask, first record).
    pub bones: &'a [u8],
    /// Channel records (animated channels only).
    pub channels: &'a [u8],
    /// Data words.
    pub data: &'a [u8],
    /// Quantised u16 values.
    pub quant: &'a [u8],
    /// The time table (scalar words).
    pub times: &'a [u8],
    /// Indices into the time table (u8, or u16 LE with [`CLIP_FLAG_WIDE_INDEX`]).
    pub time_index: &'a [u8],
    /// Event records.
    pub events: &'a [u8],
}

/// What is wrong inside a skeleton or skeletal clip section (carried by
/// [`SectionDefect::Skeleton`]). Bones and channels are by index (channel 0 translation, 1
/// rotation, 2 scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SkeletonDefect {
    /// An array is not a whole number of its records or elements.
    RecordArray {
        /// Which array (`"bones"`, `"rest"`, `"channels"`, `"data"`, `"quant"`, `"times"`,
        /// `"time_index"`, `"events"`).
        array: &'static str,
        /// Its length in bytes.
        len: usize,
    },
    /// The dimension byte is neither 2 nor 3.
    Dimension {
        /// The byte found.
        found: u8,
    },
    /// A skeleton without bones, or with more than [`MAX_BONES`].
    BoneCount {
        /// The count found.
        count: usize,
    },
    /// A bone's parent is not an earlier bone.
    Parent {
        /// The bone.
        bone: u32,
        /// Its parent field.
        parent: u16,
    },
    /// A bone record's reserved byte is not 0.
    Reserved {
        /// The bone.
        bone: u32,
        /// The byte found.
        found: u8,
    },
    /// A rest pose word is not finite (f32).
    RestValue {
        /// The bone.
        bone: u32,
    },
    /// A rest pose rotation (3D) has four zero components.
    RestQuaternion {
        /// The bone.
        bone: u32,
    },
    /// The clip's flags byte has bits other than [`CLIP_FLAG_LOOP`], [`CLIP_FLAG_WIDE_INDEX`],
    /// [`CLIP_FLAG_GRID_TIMES`] and [`CLIP_FLAG_COMPACT`].
    Flags {
        /// The byte found.
        found: u8,
    },
    /// The clip's duration is not finite or not positive.
    Duration,
    /// The clip's sample rate is not finite or is negative.
    SampleRate,
    /// The clip names a skeleton the blob does not have.
    SkeletonRef {
        /// The string id of the name.
        name: u32,
    },
    /// The clip's dimension differs from its skeleton's.
    DimensionMismatch {
        /// The clip's.
        clip: u8,
        /// The skeleton's.
        skeleton: u8,
    },
    /// The clip has channels for more bones than its skeleton has.
    ClipBones {
        /// The clip's bone count.
        clip: usize,
        /// The skeleton's.
        skeleton: usize,
    },
    /// Two skeleton sections have the same name.
    DuplicateSkeleton {
        /// The string id of the second's name.
        name: u32,
    },
    /// A clip's bone entry has a first record index other than the count of records before it,
    /// or the entries do not account for exactly the channel records.
    BoneEntry {
        /// The bone (the bone count when records are left over).
        bone: u32,
        /// The entry (the record count when records are left over).
        entry: u32,
    },
    /// An entry of the clip's time table is not finite, outside `[0, duration]`, or not after the
    /// previous entry.
    TimeTable {
        /// The entry.
        index: u32,
    },
    /// A channel's info word has unknown bits, interpolation 3 or no keys, or unused words are
    /// not 0.
    ChannelInfo {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
        /// The info word.
        info: u32,
    },
    /// A channel's times, values, range or tangents lie outside `data` / `quant`.
    ChannelRange {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
    },
    /// A key time is not finite, outside `[0, duration]`, or not after the previous key's (for
    /// indexed times: an index past the time table or not after the previous key's index).
    KeyTime {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
        /// The key.
        key: u32,
    },
    /// A raw key value or Hermite tangent is not finite (f32).
    KeyValue {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
        /// The key.
        key: u32,
    },
    /// A quantisation range has a non-finite or negative extent, a non-finite minimum, or a
    /// largest value (`min + extent`) that does not fit the encoding.
    QuantRange {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
    },
    /// A rotation key (3D) whose four (decoded) components are all zero.
    KeyQuaternion {
        /// The bone.
        bone: u32,
        /// The key.
        key: u32,
    },
    /// An event time is not finite, outside `[0, duration]`, or before the previous event's.
    EventTime {
        /// The event.
        event: u32,
    },
    /// An event's name id does not fit 16 bits (the kernel's `ClipEvent::name`).
    EventName {
        /// The event.
        event: u32,
        /// The id found.
        name: u32,
    },
    /// A grid time table ([`CLIP_FLAG_GRID_TIMES`]) is not two words, has a rate of 0 or over
    /// [`GRID_MAX_RATE`], no entries or more than [`GRID_MAX_ENTRIES`], or a last entry past the
    /// duration (or outside Q16.16).
    TimeGrid {
        /// The rate found.
        rate: u32,
        /// The entry count found.
        entries: u32,
    },
    /// The clip's flags use a layout newer than the blob's format version (a grid time table or
    /// the compact layout, which version 7 added).
    NewerFlags {
        /// The flags byte.
        found: u8,
        /// The blob's format version.
        version: u16,
        /// The version that added the layout.
        needs: u16,
    },
    /// A bitmap-timed channel's bitmap ([`CHANNEL_BITMAP_TIMES`]) does not have exactly one set bit
    /// per key, or has a bit at or past the time table's length.
    TimeBitmap {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
        /// The bits set in it.
        found: u32,
    },
    /// A channel uses an encoding newer than the blob's format version (e.g. a version-5 blob
    /// with a packed rotation, which version 6 added).
    NewerEncoding {
        /// The bone.
        bone: u32,
        /// The channel.
        channel: u8,
        /// The blob's format version.
        version: u16,
        /// The version that added the encoding.
        needs: u16,
    },
    /// A packed rotation channel's parameters are invalid: `what` is `"dropped"` (reserved bits of
    /// byte 0 not 0), `"bits"` (a width over [`PACKED_MAX_BITS`]), `"extent"` (a non-zero extent
    /// with zero bits) or `"range"` (`min + extent` over 1.0).
    PackedParams {
        /// The bone.
        bone: u32,
        /// Which field.
        what: &'static str,
    },
}

impl fmt::Display for SkeletonDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::RecordArray { array, len } => write!(f, "{array}: {len} bytes is not a whole number of records"),
            Self::Dimension { found } => write!(f, "dimension byte {found} is neither 2 (2D) nor 3 (3D)"),
            Self::BoneCount { count } => write!(f, "{count} bones (a skeleton has 1 to {MAX_BONES})"),
            Self::Parent { bone, parent } => {
                write!(f, "bone {bone} has parent {parent}, not an earlier bone (parents must precede children)")
            }
            Self::Reserved { bone, found } => write!(f, "bone {bone}: reserved byte is {found}, expected 0"),
            Self::RestValue { bone } => write!(f, "bone {bone}: a rest pose value is not finite"),
            Self::RestQuaternion { bone } => write!(f, "bone {bone}: the rest rotation is a zero quaternion"),
            Self::Flags { found } => write!(f, "clip flags {found:#x} has unknown bits"),
            Self::Duration => write!(f, "clip duration is not finite and positive"),
            Self::SampleRate => write!(f, "clip sample rate is not finite and non-negative"),
            Self::SkeletonRef { name } => write!(f, "clip names skeleton (string {name}) that the blob does not have"),
            Self::DimensionMismatch { clip, skeleton } => {
                write!(f, "clip dimension {clip} differs from its skeleton's {skeleton}")
            }
            Self::ClipBones { clip, skeleton } => {
                write!(f, "clip has channels for {clip} bones, its skeleton has {skeleton}")
            }
            Self::DuplicateSkeleton { name } => write!(f, "a second skeleton is named by string {name}"),
            Self::BoneEntry { bone, entry } => {
                write!(f, "bone {bone}: entry {entry:#x} does not match the channel records before it")
            }
            Self::TimeTable { index } => write!(
                f,
                "time table entry {index} is not finite, outside [0, duration] or not after the previous entry"
            ),
            Self::ChannelInfo { bone, channel, info } => {
                write!(f, "bone {bone} channel {channel}: invalid info word {info:#x} or unused words not 0")
            }
            Self::ChannelRange { bone, channel } => {
                write!(f, "bone {bone} channel {channel}: its keys lie outside the data")
            }
            Self::KeyTime { bone, channel, key } => write!(
                f,
                "bone {bone} channel {channel} key {key}: time is not finite, outside [0, duration] or not after the previous key's"
            ),
            Self::KeyValue { bone, channel, key } => {
                write!(f, "bone {bone} channel {channel} key {key}: a value or tangent is not finite")
            }
            Self::QuantRange { bone, channel } => {
                write!(f, "bone {bone} channel {channel}: invalid quantisation range")
            }
            Self::KeyQuaternion { bone, key } => write!(f, "bone {bone} rotation key {key} is a zero quaternion"),
            Self::EventTime { event } => {
                write!(f, "event {event}: time is not finite, outside [0, duration] or before the previous event's")
            }
            Self::EventName { event, name } => write!(f, "event {event}: name id {name} does not fit 16 bits"),
            Self::NewerFlags { found, version, needs } => {
                write!(f, "clip flags {found:#x} use a layout of format version {needs} in a version-{version} blob")
            }
            Self::TimeGrid { rate, entries } => {
                write!(f, "grid time table of {entries} entries at {rate}/s is invalid or longer than the clip")
            }
            Self::TimeBitmap { bone, channel, found } => write!(
                f,
                "bone {bone} channel {channel}: the time bitmap has {found} keys within the time table, not its key count"
            ),
            Self::NewerEncoding { bone, channel, version, needs } => write!(
                f,
                "bone {bone} channel {channel}: uses an encoding of format version {needs} in a version-{version} blob"
            ),
            Self::PackedParams { bone, what } => {
                write!(f, "bone {bone}: packed rotation parameters have an invalid {what}")
            }
        }
    }
}

/// The value a quantised component decodes to, as a scalar word of `encoding`: `min + extent ×
/// q / 65535` (see the [module docs](self) for the exact arithmetic). The kernel and the host
/// both decode through this function.
#[inline]
pub fn dequantize(encoding: ScalarEncoding, min: u32, extent: u32, q: u16) -> u32 {
    match encoding {
        ScalarEncoding::F32 => {
            let (m, e) = (f32::from_bits(min), f32::from_bits(extent));
            (m + e * (f32::from(q) / 65535.0)).to_bits()
        }
        ScalarEncoding::Q16_16 => {
            let (m, e) = (i64::from(min as i32), i64::from(extent as i32));
            // |q × e| < 2^48: no overflow; the sum fits i32 for a checked range.
            let v = m + (i64::from(q) * e + 32767) / 65535;
            match i32::try_from(v) {
                Ok(v) => v as u32,
                Err(_) => min,
            }
        }
    }
}

/// The parameters of a packed rotation channel ([`CHANNEL_PACKED_ROTATION`], format version 6):
/// "smallest three" storage with a per-channel dropped component, bit widths and ranges.
///
/// Stored as [`PACKED_ROTATION_PARAMS_LEN`] (16) bytes:
///
/// ```text
///  0  u8       bits 0-1: the dropped component d (0 x, 1 y, 2 z, 3 w); bits 2-7: 0
///  1  u8 × 3   bits of stored components 0, 1, 2 (each 0..=16)
///  4  i16 × 3  min of stored components 0, 1, 2, LE, units 2^-15
/// 10  u16 × 3  extent of stored components 0, 1, 2, LE, units 2^-15 (0 when its bits are 0;
///             min + extent ≤ 2^15, i.e. 1.0)
/// ```
///
/// The stored components are the quaternion's other three in x, y, z, w order. Key `k` occupies
/// bits `k·K .. (k+1)·K` of the channel's little-endian bit stream (`K` = the sum of the widths;
/// component 0 in the lowest bits). A stored component with `b` bits and value `q` decodes, in
/// units of 2^-30 (Q2.30, [`PACKED_VALUE_ONE`]), to `v = min·2^15 + (extent·2^15·q + D div 2) div D`
/// with `D = 2^b − 1` (`v = min·2^15` when `b = 0`); the dropped one to
/// `isqrt(max(0, 2^60 − Σ v²))` (so it is ≥ 0: a writer negates keys whose dropped component is
/// negative, the same rotation). The four integers become scalar words by [`packed_word`]. Integer
/// arithmetic only: every reader decodes the same bits.
///
/// ```
/// use ossicle_format::skeleton::PackedRotation;
/// use ossicle_format::ScalarEncoding;
///
/// // Drop w; x, y, z in 8 bits over [-0.5, 0.5], [0, 0], [0, 0.25].
/// let p = PackedRotation { dropped: 3, bits: [8, 0, 8], min: [-16384, 0, 0], extent: [32768, 0, 8192] };
/// assert!(p.check().is_ok());
/// let stream = [255u8, 0];
/// let [x, y, z, w] = p.decode_key(&stream, 0).unwrap();
/// assert_eq!((x, y, z), (1 << 29, 0, 0));
/// assert_eq!(w, 929_887_696); // isqrt(2^60 − 2^58) = ⌊√0.75 · 2^30⌋
/// assert_eq!(ossicle_format::skeleton::packed_word(ScalarEncoding::F32, x), 0.5f32.to_bits());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PackedRotation {
    /// The dropped component (0 x, 1 y, 2 z, 3 w); reserved bits must be 0.
    pub dropped: u8,
    /// Bits of each stored component (0..=16).
    pub bits: [u8; 3],
    /// Minimum of each stored component, units 2^-15.
    pub min: [i16; 3],
    /// Extent of each stored component, units 2^-15.
    pub extent: [u16; 3],
}

impl PackedRotation {
    /// Reads the 16 parameter bytes at the start of `bytes` (no checks: see [`check`](Self::check)).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..PACKED_ROTATION_PARAMS_LEN)?;
        let byte = |i: usize| b.get(i).copied().unwrap_or(0);
        let half = |i: usize| u16::from_le_bytes([byte(i), byte(i + 1)]);
        Some(Self {
            dropped: byte(0),
            bits: [byte(1), byte(2), byte(3)],
            min: [half(4) as i16, half(6) as i16, half(8) as i16],
            extent: [half(10), half(12), half(14)],
        })
    }

    /// The 16 parameter bytes.
    pub fn to_bytes(&self) -> [u8; PACKED_ROTATION_PARAMS_LEN] {
        let mut out = [0u8; PACKED_ROTATION_PARAMS_LEN];
        let [a, b, c] = self.bits;
        let halves = [
            self.min[0] as u16,
            self.min[1] as u16,
            self.min[2] as u16,
            self.extent[0],
            self.extent[1],
            self.extent[2],
        ];
        let head = [self.dropped, a, b, c];
        let tail = halves.iter().flat_map(|h| h.to_le_bytes());
        for (o, v) in out.iter_mut().zip(head.into_iter().chain(tail)) {
            *o = v;
        }
        out
    }

    /// Whether the parameters are valid; `Err` names the field (as [`SkeletonDefect::PackedParams`]).
    pub fn check(&self) -> Result<(), &'static str> {
        if self.dropped > 3 {
            return Err("dropped");
        }
        for j in 0..3 {
            let (bits, min, ext) = (self.bits[j], self.min[j], self.extent[j]);
            if bits > PACKED_MAX_BITS {
                return Err("bits");
            }
            if bits == 0 && ext != 0 {
                return Err("extent");
            }
            if i32::from(min) + i32::from(ext) > PACKED_RANGE_ONE {
                return Err("range");
            }
        }
        Ok(())
    }

    /// Bits per key (the sum of the widths, at most 48).
    pub fn key_bits(&self) -> usize {
        self.bits.iter().map(|&b| usize::from(b)).sum()
    }

    /// Bytes of the bit stream of `n` keys (`⌈n·K / 8⌉`).
    pub fn stream_len(&self, n: usize) -> Option<usize> {
        Some(n.checked_mul(self.key_bits())?.checked_add(7)? / 8)
    }

    /// Stored component `j` with quantised value `q` (at most `2^b − 1`; larger reads as that), in
    /// units of 2^-30 (clamped to ±2^30, which checked parameters never reach past).
    #[inline]
    pub fn component(&self, j: usize, q: u32) -> i64 {
        let (bits, min, ext) = match (self.bits.get(j), self.min.get(j), self.extent.get(j)) {
            (Some(&b), Some(&m), Some(&e)) => (u32::from(b.min(PACKED_MAX_BITS)), i64::from(m), i64::from(e)),
            _ => return 0,
        };
        let base = min << 15;
        let d = (1i64 << bits) - 1;
        // q ≤ d: |ext·2^15·q| < 2^47; `d` is 0 only for 0 bits (then the offset is 0).
        let q = i64::from(q).min(d);
        let offset = ((ext << 15) * q + d / 2).checked_div(d).unwrap_or(0);
        // Within ±1 for checked parameters; clamped so that unchecked ones cannot overflow later.
        (base + offset).clamp(-PACKED_VALUE_ONE, PACKED_VALUE_ONE)
    }

    /// The quaternion (x, y, z, w) of quantised stored values `q`, in units of 2^-30.
    #[inline]
    pub fn decode(&self, q: [u32; 3]) -> [i32; 4] {
        let v = [self.component(0, q[0]), self.component(1, q[1]), self.component(2, q[2])];
        let sum: i64 = v.iter().map(|&x| x * x).sum(); // < 3 · 2^60
        let rest = PACKED_VALUE_ONE * PACKED_VALUE_ONE - sum;
        let dropped = if rest > 0 { isqrt(rest as u64) as i64 } else { 0 };
        let d = usize::from(self.dropped & 3);
        let mut out = [0i32; 4];
        let mut stored = v.iter();
        for (i, o) in out.iter_mut().enumerate() {
            let x = if i == d { dropped } else { stored.next().copied().unwrap_or(0) };
            *o = x.clamp(-PACKED_VALUE_ONE, PACKED_VALUE_ONE) as i32;
        }
        out
    }

    /// The quantised stored values of key `k` in `stream` (`None` past its end).
    #[inline]
    pub fn read_key(&self, stream: &[u8], k: usize) -> Option<[u32; 3]> {
        let kb = self.key_bits();
        let at = k.checked_mul(kb)?;
        let (byte, shift) = (at / 8, at % 8);
        let need = (shift + kb).div_ceil(8);
        let src = stream.get(byte..byte.checked_add(need)?)?;
        let mut buf = [0u8; 8];
        for (o, &b) in buf.iter_mut().zip(src) {
            *o = b;
        }
        let mut x = u64::from_le_bytes(buf) >> shift;
        let mut q = [0u32; 3];
        for (o, &b) in q.iter_mut().zip(&self.bits) {
            let b = u32::from(b.min(PACKED_MAX_BITS));
            *o = (x & ((1u64 << b) - 1)) as u32;
            x >>= b;
        }
        Some(q)
    }

    /// The quaternion of key `k` in `stream`, in units of 2^-30 (`None` past its end).
    #[inline]
    pub fn decode_key(&self, stream: &[u8], k: usize) -> Option<[i32; 4]> {
        Some(self.decode(self.read_key(stream, k)?))
    }
}

/// Entry `j` of a grid time table of `rate` entries per second ([`CLIP_FLAG_GRID_TIMES`], format
/// version 7) as a scalar word of `encoding`: `j / rate` rounded once to nearest, in f32
/// `(j as f32) / (rate as f32)` (both exact, the quotient correctly rounded), in Q16.16
/// `(j·2^16 + ⌊rate / 2⌋) div rate` (u32 arithmetic; no ties occur). `None` when `j` is over
/// 65,535, `rate` is 0 or over [`GRID_MAX_RATE`], or the time does not fit Q16.16. Host and kernel
/// both compute times through it.
///
/// ```
/// use ossicle_format::skeleton::grid_time;
/// use ossicle_format::ScalarEncoding;
///
/// assert_eq!(grid_time(ScalarEncoding::F32, 7, 30), Some((7.0f32 / 30.0).to_bits()));
/// assert_eq!(grid_time(ScalarEncoding::Q16_16, 1, 30), Some(2185)); // 65536 / 30 = 2184.53
/// assert_eq!(grid_time(ScalarEncoding::Q16_16, 3, 0), None);
/// ```
#[inline]
pub fn grid_time(encoding: ScalarEncoding, j: usize, rate: u32) -> Option<u32> {
    let j = u16::try_from(j).ok()?;
    if rate == 0 || rate > GRID_MAX_RATE {
        return None;
    }
    match encoding {
        ScalarEncoding::F32 => Some((f32::from(j) / rate as f32).to_bits()),
        ScalarEncoding::Q16_16 => {
            // ≤ 65535·2^16 + 32767 < 2^32.
            let q = (u32::from(j) << 16).checked_add(rate / 2)?.checked_div(rate)?;
            (q <= i32::MAX as u32).then_some(q)
        }
    }
}

/// A clip's time table: scalar words stored in the blob, or a uniform grid
/// ([`CLIP_FLAG_GRID_TIMES`]) whose entries [`grid_time`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeTable<'a> {
    /// Stored scalar words.
    Words(WordView<'a>),
    /// `entries` times `j / rate`, `j` = 0, 1, …
    Grid {
        /// Entries per second.
        rate: u32,
        /// The number of entries.
        entries: usize,
        /// The blob's scalar encoding.
        encoding: ScalarEncoding,
    },
}

impl TimeTable<'_> {
    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        match *self {
            Self::Words(w) => w.len(),
            Self::Grid { entries, .. } => entries,
        }
    }
    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The entries in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map_while(|j| self.get(j))
    }
    /// Entry `j` (a scalar word), `None` past the end.
    #[inline]
    pub fn get(&self, j: usize) -> Option<u32> {
        match *self {
            Self::Words(w) => w.get(j),
            Self::Grid { rate, entries, encoding } if j < entries => grid_time(encoding, j, rate),
            Self::Grid { .. } => None,
        }
    }
}

/// The bytes of a time bitmap over a time table of `entries` entries (`⌈entries / 8⌉`).
pub const fn bitmap_len(entries: usize) -> usize {
    entries.div_ceil(8)
}

/// The time table index of key `k` of a bitmap-timed channel ([`CHANNEL_BITMAP_TIMES`], format
/// version 7): the position of the `k`-th (from 0) set bit of `bits`, bit `j` being bit `j % 8`
/// of byte `j / 8`; `None` when fewer bits are set. It reads the bitmap four bytes at a time (a
/// count of ones per word, then the bit inside the word): host and kernel both decode through it.
///
/// ```
/// use ossicle_format::skeleton::{bitmap_next, bitmap_select};
///
/// // Keys at table entries 0, 3 and 9.
/// let bits = [0b0000_1001u8, 0b0000_0010];
/// assert_eq!([0, 1, 2].map(|k| bitmap_select(&bits, k)), [Some(0), Some(3), Some(9)]);
/// assert_eq!(bitmap_select(&bits, 3), None);
/// assert_eq!((bitmap_next(&bits, 1), bitmap_next(&bits, 4), bitmap_next(&bits, 10)), (Some(3), Some(9), None));
/// ```
#[inline]
pub fn bitmap_select(bits: &[u8], k: usize) -> Option<usize> {
    let (mut left, mut at, mut rest) = (k, 0usize, bits);
    loop {
        let (word, tail) = split_word(rest)?;
        let ones = word.count_ones() as usize;
        if left < ones {
            return at.checked_add(select_in_word(word, left));
        }
        left -= ones;
        at = at.checked_add(32)?;
        rest = tail;
    }
}

/// The position of the first set bit of `bits` at or after `from` (see [`bitmap_select`]).
#[inline]
pub fn bitmap_next(bits: &[u8], from: usize) -> Option<usize> {
    let mut at = from / 32 * 32;
    let (word, mut rest) = split_word(bits.get(from / 32 * 4..)?)?;
    let mut word = word & (u32::MAX << (from % 32));
    while word == 0 {
        let (next, tail) = split_word(rest)?;
        (word, rest) = (next, tail);
        at = at.checked_add(32)?;
    }
    at.checked_add(word.trailing_zeros() as usize)
}

/// The first (up to) four bytes of `bytes` as a little-endian word (zero-padded) and the bytes
/// after them; `None` when `bytes` is empty.
#[inline]
fn split_word(bytes: &[u8]) -> Option<(u32, &[u8])> {
    match bytes {
        [a, b, c, d, tail @ ..] => Some((u32::from_le_bytes([*a, *b, *c, *d]), tail)),
        [] => None,
        short => {
            let mut w = [0u8; 4];
            for (o, &x) in w.iter_mut().zip(short) {
                *o = x;
            }
            Some((u32::from_le_bytes(w), &[]))
        }
    }
}

/// The position of set bit `r` (from 0, `r` < the word's count of ones) of `word`: the byte
/// holding it from the running counts of ones per byte (one multiplication), then the bit inside
/// that byte.
#[inline]
fn select_in_word(word: u32, r: usize) -> usize {
    let b = word.wrapping_sub((word >> 1) & 0x5555_5555);
    let b = (b & 0x3333_3333) + ((b >> 2) & 0x3333_3333);
    let b = (b + (b >> 4)) & 0x0F0F_0F0F; // ones per byte
    let below = b.wrapping_mul(0x0101_0101); // byte i: ones in bytes 0..=i
    let r = r as u32;
    let mut shift = 0;
    while shift < 24 && (below >> shift) & 0xFF <= r {
        shift += 8;
    }
    let before = if shift == 0 { 0 } else { (below >> (shift - 8)) & 0xFF };
    let mut byte = (word >> shift) & 0xFF;
    for _ in 0..r.saturating_sub(before) {
        byte &= byte.wrapping_sub(1);
    }
    shift as usize + byte.trailing_zeros() as usize
}

/// `⌊√n⌋`, digit by digit (integer only; `u64::isqrt` is newer than the crate's MSRV).
fn isqrt(n: u64) -> u64 {
    let (mut x, mut root) = (n, 0u64);
    let mut bit = 1u64 << 62;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if x >= root + bit {
            x -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

/// A packed rotation value `v` (units of 2^-30, |v| ≤ 2^30) as a scalar word of `encoding`:
/// f32 `(v as f32) · 2^-30` (the conversion rounds to nearest, the product is exact), Q16.16
/// `(v + 2^13) >> 14` (to nearest, ties up).
#[inline]
pub fn packed_word(encoding: ScalarEncoding, v: i32) -> u32 {
    match encoding {
        ScalarEncoding::F32 => ((v as f32) * (1.0 / PACKED_VALUE_ONE as f32)).to_bits(),
        ScalarEncoding::Q16_16 => ((v.saturating_add(1 << 13)) >> 14) as u32,
    }
}

fn finite(encoding: ScalarEncoding, w: u32) -> bool {
    match encoding {
        ScalarEncoding::F32 => f32::from_bits(w).is_finite(),
        ScalarEncoding::Q16_16 => true,
    }
}

fn is_zero(encoding: ScalarEncoding, w: u32) -> bool {
    match encoding {
        ScalarEncoding::F32 => f32::from_bits(w) == 0.0,
        ScalarEncoding::Q16_16 => w == 0,
    }
}

/// `a < b` for scalar words.
fn less(encoding: ScalarEncoding, a: u32, b: u32) -> bool {
    match encoding {
        ScalarEncoding::F32 => f32::from_bits(a) < f32::from_bits(b),
        ScalarEncoding::Q16_16 => (a as i32) < (b as i32),
    }
}

fn run_ok(first: u32, count: usize, len: usize) -> bool {
    (first as usize).checked_add(count).is_some_and(|end| end <= len)
}

fn take<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, SectionDefect> {
    let (raw, rest) = postcard::take_from_bytes::<T>(body).map_err(|_| SectionDefect::Encoding)?;
    if !rest.is_empty() {
        return Err(SectionDefect::Encoding);
    }
    Ok(raw)
}

/// One bone record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BoneRecord {
    /// Its parent, `None` for a root.
    pub parent: Option<u16>,
    /// Its level of detail.
    pub lod: u8,
    /// String id of its name.
    pub name: u32,
}

/// A skeleton section, borrowed from the blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkeletonSection<'a> {
    name: u32,
    name_str: &'a str,
    dimension: Dimension,
    bones: WordView<'a>,
    rest: WordView<'a>,
    strings: StringTable<'a>,
    encoding: ScalarEncoding,
}

impl<'a> SkeletonSection<'a> {
    /// Decodes a skeleton body without the per-bone checks (for a section [`parse`](Self::parse)
    /// already accepted; accessors of an unchecked body return `None` or wrong data, never panic).
    pub fn open(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let raw: SkeletonBody<'a> = take(body)?;
        let name_str =
            strings.get(raw.name).ok_or(SectionDefect::StringRef { string: raw.name, count: strings.len() })?;
        let dimension = Dimension::from_u8(raw.dimension)
            .ok_or(SectionDefect::Skeleton(SkeletonDefect::Dimension { found: raw.dimension }))?;
        Ok(Self {
            name: raw.name,
            name_str,
            dimension,
            bones: WordView::new(raw.bones),
            rest: WordView::new(raw.rest),
            strings: *strings,
            encoding,
        })
    }

    /// Parses and validates a skeleton body (see the [module docs](self)).
    pub fn parse(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let raw: SkeletonBody<'a> = take(body)?;
        let this = Self::open(body, encoding, strings)?;
        let d = SectionDefect::Skeleton;
        if raw.bones.len() % BONE_RECORD_LEN != 0 {
            return Err(d(SkeletonDefect::RecordArray { array: "bones", len: raw.bones.len() }));
        }
        let count = raw.bones.len() / BONE_RECORD_LEN;
        if count == 0 || count > MAX_BONES {
            return Err(d(SkeletonDefect::BoneCount { count }));
        }
        let w = this.dimension.rest_words();
        if Some(raw.rest.len()) != count.checked_mul(w * 4) {
            return Err(d(SkeletonDefect::RecordArray { array: "rest", len: raw.rest.len() }));
        }
        for i in 0..count {
            let bone = i as u32;
            let [a, name] = this.bones.words::<2>(i * 2).ok_or(d(SkeletonDefect::BoneCount { count }))?;
            let parent = (a & 0xFFFF) as u16;
            if parent != NO_PARENT && usize::from(parent) >= i {
                return Err(d(SkeletonDefect::Parent { bone, parent }));
            }
            let reserved = (a >> 24) as u8;
            if reserved != 0 {
                return Err(d(SkeletonDefect::Reserved { bone, found: reserved }));
            }
            if strings.get(name).is_none() {
                return Err(SectionDefect::StringRef { string: name, count: strings.len() });
            }
            let words = this.rest_words(i).unwrap_or([0; 10]);
            let words = words.get(..w).unwrap_or(&[]);
            if !words.iter().all(|&x| finite(encoding, x)) {
                return Err(d(SkeletonDefect::RestValue { bone }));
            }
            if this.dimension == Dimension::D3
                && words.get(3..7).is_some_and(|q| q.iter().all(|&x| is_zero(encoding, x)))
            {
                return Err(d(SkeletonDefect::RestQuaternion { bone }));
            }
        }
        Ok(this)
    }

    /// String id of the name.
    pub fn name_id(&self) -> u32 {
        self.name
    }
    /// The name.
    pub fn name(&self) -> &'a str {
        self.name_str
    }
    /// 3D or 2D.
    pub fn dimension(&self) -> Dimension {
        self.dimension
    }
    /// The blob's string table.
    pub fn strings(&self) -> StringTable<'a> {
        self.strings
    }
    /// The scalar encoding of the rest pose words.
    pub fn encoding(&self) -> ScalarEncoding {
        self.encoding
    }
    /// The number of bones.
    pub fn bone_count(&self) -> usize {
        self.bones.len() / 2
    }
    /// Bone record `i`.
    #[inline]
    pub fn bone(&self, i: usize) -> Option<BoneRecord> {
        let [a, name] = self.bones.words::<2>(i.checked_mul(2)?)?;
        let parent = (a & 0xFFFF) as u16;
        Some(BoneRecord { parent: (parent != NO_PARENT).then_some(parent), lod: (a >> 16) as u8, name })
    }
    /// Only bone `i`'s parent field (0xFFFF for a root).
    #[inline]
    pub fn parent_field(&self, i: usize) -> Option<u16> {
        self.bones.get(i.checked_mul(2)?).map(|a| (a & 0xFFFF) as u16)
    }
    /// Bone `i`'s rest pose words: the first [`Dimension::rest_words`] of the array are used
    /// (a 2D skeleton's last five are 0).
    #[inline]
    pub fn rest_words(&self, i: usize) -> Option<[u32; 10]> {
        match self.dimension {
            Dimension::D3 => self.rest.words::<10>(i.checked_mul(10)?),
            Dimension::D2 => {
                let w = self.rest.words::<5>(i.checked_mul(5)?)?;
                let mut out = [0; 10];
                for (o, x) in out.iter_mut().zip(w) {
                    *o = x;
                }
                Some(out)
            }
        }
    }
    /// Bone `i`'s rest pose words as stored (little-endian): [`Dimension::rest_words`] of them
    /// (40 bytes in 3D, 20 in 2D), for readers that decode them in place; `None` past the end.
    #[inline]
    pub fn rest_bytes(&self, i: usize) -> Option<&'a [u8]> {
        let len = self.dimension.rest_words() * 4;
        let at = i.checked_mul(len)?;
        self.rest.as_bytes().get(at..at.checked_add(len)?)
    }
    /// Every bone's rest pose words as stored (little-endian), bone after bone
    /// ([`Dimension::rest_words`] words each).
    #[inline]
    pub fn rest_array_bytes(&self) -> &'a [u8] {
        self.rest.as_bytes()
    }
    /// The bone records as stored ([`BONE_RECORD_LEN`] bytes each).
    #[inline]
    pub fn bones_array_bytes(&self) -> &'a [u8] {
        self.bones.as_bytes()
    }
    /// The bytes of the section's arrays (bone records and rest words), for size reports.
    pub fn array_bytes(&self) -> usize {
        self.bones.as_bytes().len() + self.rest.as_bytes().len()
    }
}

/// One channel record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ChannelRecord {
    /// The info word (key count, interpolation, quantised bit).
    pub info: u32,
    /// Word index of the times in `data`.
    pub times: u32,
    /// Word index (raw) or u16 index (quantised) of the values.
    pub values: u32,
    /// Word index of the range and/or tangents in `data`.
    pub extra: u32,
}

impl ChannelRecord {
    /// The key count (0: not animated).
    pub const fn key_count(&self) -> u32 {
        self.info & CHANNEL_COUNT_MASK
    }
    /// The interpolation code ([`INTERP_STEP`], [`INTERP_LINEAR`], [`INTERP_HERMITE`]; 3 is invalid).
    pub const fn interpolation(&self) -> u32 {
        (self.info >> CHANNEL_INTERP_SHIFT) & 3
    }
    /// Whether the values are quantised.
    pub const fn quantized(&self) -> bool {
        self.info & CHANNEL_QUANTIZED != 0
    }
    /// Whether the times are indices into the clip's time table.
    pub const fn indexed_times(&self) -> bool {
        self.info & CHANNEL_INDEXED_TIMES != 0
    }
    /// Whether the times are a bitmap over the clip's time table ([`CHANNEL_BITMAP_TIMES`]).
    pub const fn bitmap_times(&self) -> bool {
        self.info & CHANNEL_BITMAP_TIMES != 0
    }
    /// Whether the values are packed smallest-three rotation keys ([`PackedRotation`]).
    pub const fn packed_rotation(&self) -> bool {
        self.info & CHANNEL_PACKED_ROTATION != 0
    }
    /// A compact record ([`CLIP_FLAG_COMPACT`], format version 7): one u64 LE, bits 0-15 the key
    /// count, bits 16-21 the info word's bits 24-29 (interpolation, quantised, indexed times,
    /// packed rotation, bitmap times), then `times`, `values` and `extra` in 14 bits each (bits
    /// 22-35, 36-49, 50-63); the fields mean what they mean in a 16-byte record.
    ///
    /// ```
    /// use ossicle_format::skeleton::{ChannelRecord, INTERP_LINEAR};
    ///
    /// let r = ChannelRecord { info: ChannelRecord::make_info(300, INTERP_LINEAR, true), times: 5, values: 16383, extra: 2 };
    /// let bytes = r.to_compact().unwrap();
    /// assert_eq!(ChannelRecord::from_compact(u64::from_le_bytes(bytes)), r);
    /// assert_eq!(ChannelRecord { times: 16384, ..r }.to_compact(), None);
    /// ```
    #[inline]
    pub const fn from_compact(x: u64) -> Self {
        Self {
            info: (x as u32 & 0xFFFF) | ((((x >> 16) as u32) & 0x3F) << CHANNEL_INTERP_SHIFT),
            times: ((x >> 22) as u32) & COMPACT_FIELD_MAX,
            values: ((x >> 36) as u32) & COMPACT_FIELD_MAX,
            extra: ((x >> 50) as u32) & COMPACT_FIELD_MAX,
        }
    }
    /// The compact form of this record ([`from_compact`](Self::from_compact)), `None` when a
    /// field does not fit (over 65,535 keys, info bits 30-31, a field over [`COMPACT_FIELD_MAX`]).
    pub const fn to_compact(&self) -> Option<[u8; COMPACT_RECORD_LEN]> {
        let n = self.key_count();
        let kind = self.info >> CHANNEL_INTERP_SHIFT;
        if n > 0xFFFF
            || kind > 0x3F
            || self.times > COMPACT_FIELD_MAX
            || self.values > COMPACT_FIELD_MAX
            || self.extra > COMPACT_FIELD_MAX
        {
            return None;
        }
        let x = n as u64
            | ((kind as u64) << 16)
            | ((self.times as u64) << 22)
            | ((self.values as u64) << 36)
            | ((self.extra as u64) << 50);
        Some(x.to_le_bytes())
    }
    /// The info word for `count` keys, an interpolation code and the quantised flag.
    pub const fn make_info(count: u32, interpolation: u32, quantized: bool) -> u32 {
        (count & CHANNEL_COUNT_MASK)
            | ((interpolation & 3) << CHANNEL_INTERP_SHIFT)
            | if quantized { CHANNEL_QUANTIZED } else { 0 }
    }
    /// Word index of the Hermite tangents in `data` (for a channel of width `w`).
    pub fn tangents(&self, w: usize) -> Option<u32> {
        if self.quantized() {
            self.extra.checked_add(u32::try_from(w.checked_mul(2)?).ok()?)
        } else {
            Some(self.extra)
        }
    }
}

/// A skeletal clip section, borrowed from the blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkelClipSection<'a> {
    body: SkelClipBody<'a>,
    name_str: &'a str,
    dimension: Dimension,
    bones: WordView<'a>,
    channels: WordView<'a>,
    data: WordView<'a>,
    times: WordView<'a>,
    events: WordView<'a>,
    strings: StringTable<'a>,
    encoding: ScalarEncoding,
}

impl<'a> SkelClipSection<'a> {
    /// Decodes a clip body without the per-channel checks (for a section [`parse`](Self::parse)
    /// already accepted; accessors of an unchecked body return `None` or wrong data, never panic).
    pub fn open(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let raw: SkelClipBody<'a> = take(body)?;
        let name_str =
            strings.get(raw.name).ok_or(SectionDefect::StringRef { string: raw.name, count: strings.len() })?;
        let dimension = Dimension::from_u8(raw.dimension)
            .ok_or(SectionDefect::Skeleton(SkeletonDefect::Dimension { found: raw.dimension }))?;
        Ok(Self {
            body: raw,
            name_str,
            dimension,
            bones: WordView::new(raw.bones),
            channels: WordView::new(raw.channels),
            data: WordView::new(raw.data),
            times: WordView::new(raw.times),
            events: WordView::new(raw.events),
            strings: *strings,
            encoding,
        })
    }

    /// Parses and validates a clip body on its own (see the [module docs](self)) as a blob of the
    /// current [`FORMAT_VERSION`](crate::FORMAT_VERSION) holds it; the skeleton it names is
    /// checked by [`check_skeleton`](Self::check_skeleton).
    pub fn parse(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        Self::parse_version(body, encoding, strings, crate::FORMAT_VERSION)
    }

    /// [`parse`](Self::parse) for a blob of format `version`: a channel encoding newer than
    /// `version` (packed rotations before 6, bitmap times before 7) is refused with
    /// [`SkeletonDefect::NewerEncoding`].
    pub fn parse_version(
        body: &'a [u8],
        encoding: ScalarEncoding,
        strings: &StringTable<'a>,
        version: u16,
    ) -> Result<Self, SectionDefect> {
        let this = Self::open(body, encoding, strings)?;
        let raw = this.body;
        let d = SectionDefect::Skeleton;
        if strings.get(raw.skeleton).is_none() {
            return Err(SectionDefect::StringRef { string: raw.skeleton, count: strings.len() });
        }
        let newer = CLIP_FLAG_GRID_TIMES | CLIP_FLAG_COMPACT;
        if raw.flags & !(CLIP_FLAG_LOOP | CLIP_FLAG_WIDE_INDEX | newer) != 0 {
            return Err(d(SkeletonDefect::Flags { found: raw.flags }));
        }
        if version < 7 && raw.flags & newer != 0 {
            return Err(d(SkeletonDefect::NewerFlags { found: raw.flags, version, needs: 7 }));
        }
        let positive = match encoding {
            ScalarEncoding::F32 => f32::from_bits(raw.duration) > 0.0 && f32::from_bits(raw.duration).is_finite(),
            ScalarEncoding::Q16_16 => (raw.duration as i32) > 0,
        };
        if !positive {
            return Err(d(SkeletonDefect::Duration));
        }
        if !finite(encoding, raw.sample_rate) || less(encoding, raw.sample_rate, 0) {
            return Err(d(SkeletonDefect::SampleRate));
        }
        let arrays: [(&'static str, &[u8], usize); 7] = [
            ("bones", raw.bones, if this.compact() { COMPACT_BONE_ENTRY_LEN } else { BONE_ENTRY_LEN }),
            ("channels", raw.channels, if this.compact() { COMPACT_RECORD_LEN } else { CHANNEL_RECORD_LEN }),
            ("data", raw.data, 4),
            ("quant", raw.quant, 2),
            ("times", raw.times, 4),
            ("time_index", raw.time_index, if this.wide_index() { 2 } else { 1 }),
            ("events", raw.events, EVENT_RECORD_LEN),
        ];
        for (array, bytes, unit) in arrays {
            if bytes.len().checked_rem(unit) != Some(0) {
                return Err(d(SkeletonDefect::RecordArray { array, len: bytes.len() }));
            }
        }
        let bones = this.bone_count();
        if bones > MAX_BONES {
            return Err(d(SkeletonDefect::ClipBones { clip: bones, skeleton: MAX_BONES }));
        }
        let mut records = 0u32;
        for b in 0..bones {
            let bone = b as u32;
            let entry = this.entry(b).unwrap_or(0);
            if entry >> BONE_FIRST_SHIFT != records {
                return Err(d(SkeletonDefect::BoneEntry { bone, entry }));
            }
            records += (entry & BONE_MASK).count_ones(); // ≤ 3 × 65,535
        }
        let record_count = this.record_count();
        if records as usize != record_count {
            return Err(d(SkeletonDefect::BoneEntry { bone: bones as u32, entry: record_count as u32 }));
        }
        if let TimeTable::Grid { rate, entries, .. } = this.time_table() {
            // Increasing by construction (steps over 2^-16 s); the last entry within the clip.
            let last = entries.checked_sub(1).and_then(|j| grid_time(encoding, j, rate));
            let grid_ok = raw.times.len() == 8
                && entries as u32 <= GRID_MAX_ENTRIES
                && last.is_some_and(|t| !less(encoding, raw.duration, t));
            if !grid_ok {
                return Err(d(SkeletonDefect::TimeGrid { rate, entries: entries as u32 }));
            }
        }
        let mut previous: Option<u32> = None;
        let table_words = if this.body.flags & CLIP_FLAG_GRID_TIMES != 0 { WordView::new(&[]) } else { this.times };
        for (i, t) in table_words.iter().enumerate() {
            let ordered = match previous {
                Some(p) => less(encoding, p, t),
                None => !less(encoding, t, 0),
            };
            if !finite(encoding, t) || !ordered || less(encoding, raw.duration, t) {
                return Err(d(SkeletonDefect::TimeTable { index: i as u32 }));
            }
            previous = Some(t);
        }
        for b in 0..bones {
            for c in 0..CHANNELS_PER_BONE {
                if this.has_record(b, c) {
                    this.check_channel(b, c, version)?;
                }
            }
        }
        let mut previous = 0u32;
        for e in 0..this.event_count() {
            let event = e as u32;
            let [time, name] = this.events.words::<2>(e * 2).ok_or(d(SkeletonDefect::EventTime { event }))?;
            if !finite(encoding, time) || less(encoding, time, previous) || less(encoding, raw.duration, time) {
                return Err(d(SkeletonDefect::EventTime { event }));
            }
            previous = time;
            if name > 0xFFFF {
                return Err(d(SkeletonDefect::EventName { event, name }));
            }
            if strings.get(name).is_none() {
                return Err(SectionDefect::StringRef { string: name, count: strings.len() });
            }
        }
        Ok(this)
    }

    fn check_channel(&self, b: usize, c: usize, version: u16) -> Result<(), SectionDefect> {
        let (bone, channel) = (b as u32, c as u8);
        let d = SectionDefect::Skeleton;
        let encoding = self.encoding;
        let range_err = d(SkeletonDefect::ChannelRange { bone, channel });
        let r = self.channel(b, c).ok_or(range_err)?;
        let n = r.key_count();
        let info_err = d(SkeletonDefect::ChannelInfo { bone, channel, info: r.info });
        let known = CHANNEL_COUNT_MASK
            | (3 << CHANNEL_INTERP_SHIFT)
            | CHANNEL_QUANTIZED
            | CHANNEL_INDEXED_TIMES
            | CHANNEL_PACKED_ROTATION
            | CHANNEL_BITMAP_TIMES;
        if r.info & !known != 0 || r.interpolation() > INTERP_HERMITE || n == 0 {
            return Err(info_err);
        }
        if r.bitmap_times() && !r.indexed_times() {
            return Err(info_err);
        }
        let newer = |needs: u16| d(SkeletonDefect::NewerEncoding { bone, channel, version, needs });
        if r.packed_rotation() && version < 6 {
            return Err(newer(6));
        }
        if r.bitmap_times() && version < 7 {
            return Err(newer(7));
        }
        let hermite = r.interpolation() == INTERP_HERMITE;
        if r.packed_rotation() && (self.dimension != Dimension::D3 || c != 1 || r.quantized() || hermite) {
            return Err(info_err);
        }
        if !hermite && !r.quantized() && !r.packed_rotation() && r.extra != 0 {
            return Err(info_err);
        }
        let w = self.dimension.width(c);
        let n = n as usize;
        let nw = n * w; // n < 2^24, w ≤ 4
        let words = self.data.len();
        let table = self.time_table().len();
        let (times_len, times_run) = if r.bitmap_times() {
            (self.body.time_index.len(), bitmap_len(table))
        } else if r.indexed_times() {
            (self.time_index_len(), n)
        } else {
            (words, n)
        };
        if !run_ok(r.times, times_run, times_len) {
            return Err(range_err);
        }
        let packed = if r.packed_rotation() {
            let quant = self.body.quant;
            let params = quant.get(r.extra as usize..).and_then(PackedRotation::from_bytes).ok_or(range_err)?;
            params.check().map_err(|what| d(SkeletonDefect::PackedParams { bone, what }))?;
            Some((params, params.stream_len(n).ok_or(range_err)?))
        } else {
            None
        };
        let values_ok = if let Some((_, stream_len)) = packed {
            run_ok(r.values, stream_len, self.body.quant.len())
        } else if r.quantized() {
            run_ok(r.values, nw, self.body.quant.len() / 2) && run_ok(r.extra, 2 * w, words)
        } else {
            run_ok(r.values, nw, words)
        };
        let tangents = r.tangents(w).ok_or(range_err)?;
        if !values_ok || (hermite && !run_ok(tangents, 2 * nw, words)) {
            return Err(range_err);
        }
        let word = |i: usize| self.data.get(i).unwrap_or(0);
        if r.bitmap_times() {
            // Bits in table order: the times increase; exactly n set, the last within the table.
            let bits = self.time_bitmap(r.times as usize).unwrap_or(&[]);
            let found: u32 = bits.iter().map(|b| b.count_ones()).sum();
            let last = n.checked_sub(1).and_then(|k| bitmap_select(bits, k));
            if found as usize != n || last.is_none_or(|j| j >= table) {
                return Err(d(SkeletonDefect::TimeBitmap { bone, channel, found }));
            }
        } else if r.indexed_times() {
            // The table is checked (increasing, within the clip): increasing indices into it suffice.
            let mut previous: Option<u16> = None;
            for k in 0..n {
                let i = self.time_index(r.times as usize + k).unwrap_or(u16::MAX);
                if usize::from(i) >= table || previous.is_some_and(|p| p >= i) {
                    return Err(d(SkeletonDefect::KeyTime { bone, channel, key: k as u32 }));
                }
                previous = Some(i);
            }
        } else {
            let mut previous: Option<u32> = None;
            for k in 0..n {
                let t = word(r.times as usize + k);
                let ordered = match previous {
                    Some(p) => less(encoding, p, t),
                    None => !less(encoding, t, 0),
                };
                if !finite(encoding, t) || !ordered || less(encoding, self.body.duration, t) {
                    return Err(d(SkeletonDefect::KeyTime { bone, channel, key: k as u32 }));
                }
                previous = Some(t);
            }
        }
        let mut ranges = [(0u32, 0u32); 4];
        if r.quantized() {
            for (j, range) in ranges.iter_mut().enumerate().take(w) {
                let (min, ext) = (word(r.extra as usize + j), word(r.extra as usize + w + j));
                let ok = match encoding {
                    ScalarEncoding::F32 => {
                        let (m, e) = (f32::from_bits(min), f32::from_bits(ext));
                        m.is_finite() && e.is_finite() && e >= 0.0 && (m + e).is_finite()
                    }
                    ScalarEncoding::Q16_16 => {
                        (ext as i32) >= 0 && i64::from(min as i32) + i64::from(ext as i32) <= i64::from(i32::MAX)
                    }
                };
                if !ok {
                    return Err(d(SkeletonDefect::QuantRange { bone, channel }));
                }
                *range = (min, ext);
            }
        }
        if packed.is_some() {
            // A packed key never decodes to a zero quaternion: the dropped component is
            // √(1 − Σ v²) ≥ 1/2 when Σ v² ≤ 3/4, else a stored one has |v| ≥ 1/2.
            return Ok(());
        }
        let value = |k: usize, j: usize| -> u32 {
            let i = k * w + j;
            if r.quantized() {
                let (min, ext) = ranges.get(j).copied().unwrap_or((0, 0));
                dequantize(encoding, min, ext, self.quant(r.values as usize + i).unwrap_or(0))
            } else {
                word(r.values as usize + i)
            }
        };
        for k in 0..n {
            let key = k as u32;
            if !r.quantized() && !(0..w).all(|j| finite(encoding, value(k, j))) {
                return Err(d(SkeletonDefect::KeyValue { bone, channel, key }));
            }
            if hermite && !(0..2 * w).all(|j| finite(encoding, word(tangents as usize + 2 * w * k + j))) {
                return Err(d(SkeletonDefect::KeyValue { bone, channel, key }));
            }
            if self.dimension == Dimension::D3 && c == 1 && (0..4).all(|j| is_zero(encoding, value(k, j))) {
                return Err(d(SkeletonDefect::KeyQuaternion { bone, key }));
            }
        }
        Ok(())
    }

    /// Checks this clip against the skeleton it names (dimension, bone count).
    pub fn check_skeleton(&self, skeleton: &SkeletonSection<'_>) -> Result<(), SkeletonDefect> {
        if skeleton.dimension() != self.dimension {
            return Err(SkeletonDefect::DimensionMismatch {
                clip: self.dimension as u8,
                skeleton: skeleton.dimension() as u8,
            });
        }
        if self.bone_count() > skeleton.bone_count() {
            return Err(SkeletonDefect::ClipBones { clip: self.bone_count(), skeleton: skeleton.bone_count() });
        }
        Ok(())
    }

    /// String id of the name.
    pub fn name_id(&self) -> u32 {
        self.body.name
    }
    /// The name.
    pub fn name(&self) -> &'a str {
        self.name_str
    }
    /// String id of its skeleton's name.
    pub fn skeleton_id(&self) -> u32 {
        self.body.skeleton
    }
    /// Its skeleton's name.
    pub fn skeleton_name(&self) -> Option<&'a str> {
        self.strings.get(self.body.skeleton)
    }
    /// 3D or 2D.
    pub fn dimension(&self) -> Dimension {
        self.dimension
    }
    /// The blob's string table.
    pub fn strings(&self) -> StringTable<'a> {
        self.strings
    }
    /// The scalar encoding of its words.
    pub fn encoding(&self) -> ScalarEncoding {
        self.encoding
    }
    /// Whether it loops.
    pub fn looping(&self) -> bool {
        self.body.flags & CLIP_FLAG_LOOP != 0
    }
    /// Duration (scalar word).
    pub fn duration(&self) -> u32 {
        self.body.duration
    }
    /// Sample rate (scalar word).
    pub fn sample_rate(&self) -> u32 {
        self.body.sample_rate
    }
    /// Whether the clip has the compact layout ([`CLIP_FLAG_COMPACT`]).
    #[inline]
    pub fn compact(&self) -> bool {
        self.body.flags & CLIP_FLAG_COMPACT != 0
    }
    /// The number of bones it has entries for.
    pub fn bone_count(&self) -> usize {
        if self.compact() {
            self.body.bones.len() / COMPACT_BONE_ENTRY_LEN
        } else {
            self.bones.len()
        }
    }
    /// The number of channel records (animated channels).
    pub fn record_count(&self) -> usize {
        if self.compact() {
            self.body.channels.len() / COMPACT_RECORD_LEN
        } else {
            self.channels.len() / 4
        }
    }
    /// Bone `b`'s entry (channel mask bits 0-2, first record index from bit 3), either layout.
    #[inline]
    pub fn entry(&self, b: usize) -> Option<u32> {
        if self.compact() {
            let at = b.checked_mul(COMPACT_BONE_ENTRY_LEN)?;
            match *self.body.bones.get(at..at.checked_add(COMPACT_BONE_ENTRY_LEN)?)? {
                [lo, hi] => Some(u32::from(u16::from_le_bytes([lo, hi]))),
                _ => None,
            }
        } else {
            self.bones.get(b)
        }
    }
    /// Channel record number `index` (in record order), either layout.
    #[inline(always)]
    pub fn record(&self, index: usize) -> Option<ChannelRecord> {
        if self.compact() {
            let at = index.checked_mul(COMPACT_RECORD_LEN)?;
            match *self.body.channels.get(at..at.checked_add(COMPACT_RECORD_LEN)?)? {
                [a, b, c, d, e, f, g, h] => {
                    Some(ChannelRecord::from_compact(u64::from_le_bytes([a, b, c, d, e, f, g, h])))
                }
                _ => None,
            }
        } else {
            let [info, times, values, extra] = self.channels.words::<4>(index.checked_mul(4)?)?;
            Some(ChannelRecord { info, times, values, extra })
        }
    }
    /// Whether bone `b`'s channel `c` has a record (is animated).
    #[inline]
    pub fn has_record(&self, b: usize, c: usize) -> bool {
        c < CHANNELS_PER_BONE && self.entry(b).is_some_and(|e| e & (1 << c) != 0)
    }
    /// Channel record `c` (0 translation, 1 rotation, 2 scale) of bone `b`: `None` when the channel
    /// has no record (not animated) or `b` is past the clip's bones.
    #[inline]
    pub fn channel(&self, b: usize, c: usize) -> Option<ChannelRecord> {
        self.record(self.record_index(b, c)?)
    }
    /// The record number ([`record`](Self::record)'s `index`) of bone `b`'s channel `c`: `None`
    /// when the channel has no record or `b` is past the clip's bones (the record itself is not
    /// read).
    #[inline]
    pub fn record_index(&self, b: usize, c: usize) -> Option<usize> {
        Self::entry_record_index(self.entry(b)?, c)
    }
    /// The record number of channel `c` of the bone whose [`entry`](Self::entry) is `entry`:
    /// `None` when the channel has no record.
    #[inline(always)]
    pub fn entry_record_index(entry: u32, c: usize) -> Option<usize> {
        if c >= CHANNELS_PER_BONE {
            return None;
        }
        let mask = entry & BONE_MASK;
        if mask & (1 << c) == 0 {
            return None;
        }
        // Records of the channels before `c` (a branch-free count of at most two mask bits, cheaper
        // than a popcount on cores without one).
        let before = (mask & 1) * u32::from(c > 0) + ((mask >> 1) & 1) * u32::from(c > 1);
        ((entry >> BONE_FIRST_SHIFT) as usize).checked_add(before as usize)
    }
    /// The bone entries as u32 words (channel mask, first record index); a compact clip's u16
    /// entries read as pairs here: use [`entry`](Self::entry).
    pub fn bone_entries(&self) -> WordView<'a> {
        self.bones
    }
    /// The time table (stored words, or a grid with [`CLIP_FLAG_GRID_TIMES`]).
    #[inline(always)]
    pub fn time_table(&self) -> TimeTable<'a> {
        if self.body.flags & CLIP_FLAG_GRID_TIMES != 0 {
            let [rate, entries] = self.times.words::<2>(0).unwrap_or([0, 0]);
            TimeTable::Grid { rate, entries: entries as usize, encoding: self.encoding }
        } else {
            TimeTable::Words(self.times)
        }
    }
    /// Whether the time indices are u16 (else u8).
    pub fn wide_index(&self) -> bool {
        self.body.flags & CLIP_FLAG_WIDE_INDEX != 0
    }
    /// The time indices' bytes (u8 each, or u16 LE with [`wide_index`](Self::wide_index)).
    pub fn time_index_bytes(&self) -> &'a [u8] {
        self.body.time_index
    }
    /// The number of time indices.
    pub fn time_index_len(&self) -> usize {
        if self.wide_index() {
            self.body.time_index.len() / 2
        } else {
            self.body.time_index.len()
        }
    }
    /// Time index `i`.
    #[inline]
    pub fn time_index(&self, i: usize) -> Option<u16> {
        let bytes = self.body.time_index;
        if self.wide_index() {
            let at = i.checked_mul(2)?;
            match *bytes.get(at..at.checked_add(2)?)? {
                [a, b] => Some(u16::from_le_bytes([a, b])),
                _ => None,
            }
        } else {
            bytes.get(i).map(|&b| u16::from(b))
        }
    }
    /// The time bitmap of a bitmap-timed channel whose record's `times` is `at`
    /// ([`bitmap_len`] of the time table bytes of `time_index` from byte `at`).
    #[inline]
    pub fn time_bitmap(&self, at: usize) -> Option<&'a [u8]> {
        self.body.time_index.get(at..at.checked_add(bitmap_len(self.time_table().len()))?)
    }
    /// The data words.
    pub fn data(&self) -> WordView<'a> {
        self.data
    }
    /// The quantised values' bytes (u16 LE each).
    pub fn quant_bytes(&self) -> &'a [u8] {
        self.body.quant
    }
    /// Quantised value `i`.
    #[inline]
    pub fn quant(&self, i: usize) -> Option<u16> {
        let at = i.checked_mul(2)?;
        match *self.body.quant.get(at..at.checked_add(2)?)? {
            [a, b] => Some(u16::from_le_bytes([a, b])),
            _ => None,
        }
    }
    /// The number of events.
    pub fn event_count(&self) -> usize {
        self.events.len() / 2
    }
    /// Event `i`: (time word, name string id).
    pub fn event(&self, i: usize) -> Option<(u32, u32)> {
        let [t, n] = self.events.words::<2>(i.checked_mul(2)?)?;
        Some((t, n))
    }
    /// The raw body, for tools.
    pub fn body(&self) -> SkelClipBody<'a> {
        self.body
    }
}

/// Packs channel records given densely (three per bone, in bone order; an info word of 0 marks a
/// channel without keys) into a clip's `bones` entries and `channels` records (bytes), for
/// writers and tests.
///
/// ```
/// use ossicle_format::skeleton::{pack_channels, ChannelRecord, INTERP_LINEAR};
///
/// let info = ChannelRecord::make_info(2, INTERP_LINEAR, false);
/// // Bone 0 animates its rotation only, bone 1 nothing.
/// let (bones, channels) = pack_channels(&[[0; 4], [info, 0, 2, 0], [0; 4], [0; 4], [0; 4], [0; 4]]);
/// assert_eq!(bones, [2, 0, 0, 0, 8, 0, 0, 0]); // mask 0b010; bone 1: first record 1, no mask
/// assert_eq!(channels.len(), 16);
/// ```
#[cfg(feature = "std")]
pub fn pack_channels(dense: &[[u32; 4]]) -> (std::vec::Vec<u8>, std::vec::Vec<u8>) {
    let mut bones = std::vec::Vec::new();
    let mut channels = std::vec::Vec::new();
    let mut first = 0u32;
    for bone in dense.chunks(CHANNELS_PER_BONE) {
        let mut mask = 0u32;
        for (c, r) in bone.iter().enumerate() {
            if r[0] != 0 {
                mask |= 1 << c;
                channels.extend(r.iter().flat_map(|w| w.to_le_bytes()));
            }
        }
        bones.extend(((first << BONE_FIRST_SHIFT) | mask).to_le_bytes());
        first += mask.count_ones();
    }
    (bones, channels)
}

/// [`pack_channels`] for the compact layout ([`CLIP_FLAG_COMPACT`]): u16 bone entries and 8-byte
/// records; `None` when a record does not fit ([`ChannelRecord::to_compact`]) or a bone's first
/// record index is over [`COMPACT_FIRST_MAX`].
///
/// ```
/// use ossicle_format::skeleton::{pack_channels_compact, ChannelRecord, INTERP_LINEAR};
///
/// let info = ChannelRecord::make_info(2, INTERP_LINEAR, false);
/// let (bones, channels) = pack_channels_compact(&[[0; 4], [info, 0, 2, 0], [0; 4], [0; 4], [0; 4], [0; 4]]).unwrap();
/// assert_eq!(bones, [2, 0, 8, 0]); // mask 0b010; bone 1: first record 1, no mask
/// assert_eq!(channels.len(), 8);
/// ```
#[cfg(feature = "std")]
pub fn pack_channels_compact(dense: &[[u32; 4]]) -> Option<(std::vec::Vec<u8>, std::vec::Vec<u8>)> {
    let mut bones = std::vec::Vec::new();
    let mut channels = std::vec::Vec::new();
    let mut first = 0u32;
    for bone in dense.chunks(CHANNELS_PER_BONE) {
        if first > COMPACT_FIRST_MAX {
            return None;
        }
        let mut mask = 0u32;
        for (c, r) in bone.iter().enumerate() {
            if r[0] != 0 {
                mask |= 1 << c;
                let record = ChannelRecord { info: r[0], times: r[1], values: r[2], extra: r[3] };
                channels.extend(record.to_compact()?);
            }
        }
        bones.extend((((first << BONE_FIRST_SHIFT) | mask) as u16).to_le_bytes());
        first += mask.count_ones();
    }
    Some((bones, channels))
}
