//! The ossicle blob: the one file format the host writes and the kernel reads.
//!
//! A blob is a fixed 16-byte [`Header`] followed by a payload. The payload is a postcard-encoded
//! [`Index`]: a section directory (fixed-size little-endian records) and a data area, both borrowed
//! byte arrays. Each directory record names a section kind, and the offset and length of the
//! section's body in the data area (sections may have unused bytes between them: the writer
//! aligns some arrays that way, see `BlobWriter`). A section body is itself postcard-encoded; its bulk arrays
//! (keys, values, pixels) are borrowed byte slices in a fixed little-endian layout, read through
//! typed views ([`WordView`]), so nothing is copied out of the blob (flash, XIP).
//!
//! ```text
//! offset  size  field
//!  0      4     magic "OSCL"
//!  4      2     format version (u16 LE), currently FORMAT_VERSION
//!  6      1     scalar encoding: 1 = f32, 2 = Q16.16
//!  7      1     reserved, 0
//!  8      4     payload length in bytes (u32 LE)
//! 12      4     CRC-32 (ISO-HDLC, as zlib/PNG) of header bytes 0..12 then the payload (u32 LE)
//! 16      ...   payload: postcard Index { directory: &[u8], data: &[u8] }
//! ```
//!
//! The CRC covers the first 12 header bytes as well as the payload: with a payload-only CRC,
//! changing the encoding byte from 1 to 2 would turn a valid f32 blob into a "valid" Q16.16 blob
//! with wrong values. Covered this way, every single-byte change of a blob is refused.
//!
//! [`Blob::parse`] checks everything before anything reads it: magic, version, encoding, length,
//! CRC, the index, every directory record's bounds and every section body (UTF-8 and offsets of
//! the string table, value array lengths, string references). After a successful parse the
//! accessors cannot fail except by returning `None` for an index that is out of range.
//!
//! The container does not change when later work adds section kinds: a new kind gets a new
//! [`SectionKind`] value and a body format, and [`FORMAT_VERSION`] says which kinds a reader knows.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod error;
pub mod scene;
mod sections;
pub mod skeleton;
pub mod sprite;
mod view;
#[cfg(feature = "std")]
mod writer;

pub use error::{LoadError, SectionDefect};
pub use sections::{StringTable, TestSection, TestSectionBody};
pub use view::{WordIter, WordRun, WordView, WORD_LOADS};
#[cfg(feature = "std")]
pub use writer::{BlobWriter, WriteError};

use serde::{Deserialize, Serialize};

/// The four bytes every blob starts with.
pub const MAGIC: [u8; 4] = *b"OSCL";
/// The format version this crate reads and writes.
/// Version 2 added [`SectionKind::Sprite`], version 3 [`SectionKind::Scene`], version 4
/// [`SectionKind::Skeleton`] and [`SectionKind::SkelClip`], version 5 changed the skeletal clip
/// layout (bone entries and records for animated channels only, indexed key times), version 6 added
/// packed smallest-three rotation channels (`skeleton::CHANNEL_PACKED_ROTATION`, additive: version-5
/// skeletal sections read as before), version 7 key times as bitmaps over a clip's time table
/// (`skeleton::CHANNEL_BITMAP_TIMES`, additive); a channel encoding newer than its blob's version
/// is refused (`skeleton::SkeletonDefect::NewerEncoding`, `NewerFlags`); older blobs are
/// still read (a version-1 blob may not hold sprites, a version-2 blob may not hold scenes, a
/// version-3 blob may not hold skeletal sections), except version-4 blobs with skeletal sections,
/// which are refused with [`LoadError::UnsupportedVersion`] (the version-4 skeletal layout never
/// shipped; rebuild them).
pub const FORMAT_VERSION: u16 = 7;
/// The oldest format version whose skeletal sections this crate reads.
pub const OLDEST_SKELETAL_VERSION: u16 = 5;
/// The oldest format version this crate reads.
pub const OLDEST_READABLE_VERSION: u16 = 1;
/// The size of the fixed header in bytes.
pub const HEADER_LEN: usize = 16;
/// The size of one section directory record in bytes.
pub const DIRECTORY_RECORD_LEN: usize = 12;

/// The CRC used for the payload checksum (CRC-32/ISO-HDLC, the one of zlib and PNG).
pub const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// The blob checksum: CRC-32 of the first 12 header bytes (magic, version, encoding, reserved,
/// payload length) followed by the payload.
pub fn checksum(header_prefix: &[u8], payload: &[u8]) -> u32 {
    let mut digest = CRC32.digest();
    digest.update(header_prefix);
    digest.update(payload);
    digest.finalize()
}

/// How the scalars of a blob are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum ScalarEncoding {
    /// IEEE-754 binary32, little-endian.
    F32 = 1,
    /// Signed Q16.16 fixed point (`i32` bits, value = bits / 65536), little-endian.
    Q16_16 = 2,
}

impl ScalarEncoding {
    /// The encoding stored as `byte` in the header, if any.
    pub const fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            1 => Some(Self::F32),
            2 => Some(Self::Q16_16),
            _ => None,
        }
    }

    /// The short name used by the CLI and `inspect`: `f32` or `q16`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::Q16_16 => "q16",
        }
    }

    /// The word that stores `value` in this encoding: f32 bits (rounded to nearest), or Q16.16 bits
    /// (rounded to nearest). `None` when the value is not finite or, for Q16.16, outside
    /// `[-32768, 32768 - 2^-16]`.
    pub fn encode_f64(self, value: f64) -> Option<u32> {
        if !value.is_finite() {
            return None;
        }
        match self {
            Self::F32 => {
                let v = value as f32;
                if v.is_finite() {
                    Some(v.to_bits())
                } else {
                    None
                }
            }
            Self::Q16_16 => {
                let scaled = value * 65536.0;
                // Round half away from zero without libm: trunc(x + 0.5 * sign).
                let rounded = if scaled >= 0.0 { scaled + 0.5 } else { scaled - 0.5 };
                // `as` truncates towards zero, completing the rounding; it saturates far outside.
                let bits = rounded as i64;
                i32::try_from(bits).ok().map(|b| b as u32)
            }
        }
    }

    /// The value a stored word stands for, exactly, as `f64`.
    pub fn decode_f64(self, word: u32) -> f64 {
        match self {
            Self::F32 => f64::from(f32::from_bits(word)),
            Self::Q16_16 => f64::from(word as i32) / 65536.0,
        }
    }
}

/// The kinds of sections a blob of [`FORMAT_VERSION`] may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u32)]
pub enum SectionKind {
    /// The string table (at most one per blob): names of everything, looked up by id.
    Strings = 1,
    /// A named array of scalars, used by conformance tests and the QEMU firmware.
    Test = 2,
    /// A sprite: frames (pixels) and animations ([`sprite`]).
    Sprite = 3,
    /// A scene: nodes, Animators (property clips) and state machines ([`scene`]).
    Scene = 4,
    /// A skeleton: bones, parents, rest pose ([`skeleton`]).
    Skeleton = 5,
    /// A skeletal clip: per-bone channels of keys, and events ([`skeleton`]).
    SkelClip = 6,
}

impl SectionKind {
    /// The kind stored as `value` in a directory record, if this version knows it.
    pub const fn from_u32(value: u32) -> Option<Self> {
        match value {
            1 => Some(Self::Strings),
            2 => Some(Self::Test),
            3 => Some(Self::Sprite),
            4 => Some(Self::Scene),
            5 => Some(Self::Skeleton),
            6 => Some(Self::SkelClip),
            _ => None,
        }
    }

    /// A lower-case name for messages and `inspect`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Strings => "strings",
            Self::Test => "test",
            Self::Sprite => "sprite",
            Self::Scene => "scene",
            Self::Skeleton => "skeleton",
            Self::SkelClip => "skelclip",
        }
    }
}

/// The fixed header at the start of every blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Header {
    /// Format version.
    pub version: u16,
    /// How scalars are stored.
    pub encoding: ScalarEncoding,
    /// Payload length in bytes.
    pub payload_len: u32,
    /// CRC-32 of header bytes 0..12 and the payload (see [`checksum`]).
    pub crc32: u32,
}

impl Header {
    /// Encodes the header into its 16 bytes (`crc32` is written as given).
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        let v = self.version.to_le_bytes();
        let l = self.payload_len.to_le_bytes();
        let c = self.crc32.to_le_bytes();
        let fields = [
            MAGIC[0],
            MAGIC[1],
            MAGIC[2],
            MAGIC[3],
            v[0],
            v[1],
            self.encoding as u8,
            0,
            l[0],
            l[1],
            l[2],
            l[3],
            c[0],
            c[1],
            c[2],
            c[3],
        ];
        for (o, f) in out.iter_mut().zip(fields) {
            *o = f;
        }
        out
    }
}

/// The postcard-encoded payload: a section directory and the data area its records point into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index<'a> {
    /// `DIRECTORY_RECORD_LEN`-byte records: kind (u32 LE), offset (u32 LE), length (u32 LE).
    pub directory: &'a [u8],
    /// Section bodies.
    pub data: &'a [u8],
}

/// One directory record: where a section's body is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SectionRecord {
    /// The section kind as stored.
    pub kind: u32,
    /// Offset of the body in the data area.
    pub offset: u32,
    /// Length of the body in bytes.
    pub len: u32,
}

/// A validated blob, borrowed from its bytes.
#[derive(Clone, Copy, Debug)]
pub struct Blob<'a> {
    header: Header,
    directory: WordView<'a>,
    data: &'a [u8],
    strings: StringTable<'a>,
}

fn read_u16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([*b.first()?, *b.get(1)?]))
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([*b.first()?, *b.get(1)?, *b.get(2)?, *b.get(3)?]))
}

impl<'a> Blob<'a> {
    /// Parses and validates a blob: header, checksum, index, directory and every section body.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, LoadError> {
        let header = Self::parse_header(bytes)?;
        let payload = bytes.get(HEADER_LEN..).unwrap_or(&[]);
        let computed = checksum(bytes.get(..12).unwrap_or(&[]), payload);
        if computed != header.crc32 {
            return Err(LoadError::ChecksumMismatch { stored: header.crc32, computed });
        }
        let (index, rest) = postcard::take_from_bytes::<Index<'a>>(payload).map_err(|_| LoadError::MalformedIndex)?;
        if !rest.is_empty() {
            return Err(LoadError::TrailingIndexBytes { count: rest.len() });
        }
        if index.directory.len() % DIRECTORY_RECORD_LEN != 0 {
            return Err(LoadError::DirectoryLength { len: index.directory.len() });
        }
        let directory = WordView::new(index.directory);
        let mut blob = Blob { header, directory, data: index.data, strings: StringTable::empty() };
        // First pass: bounds and kinds of every record, and the string table.
        let mut found_strings = false;
        for (i, rec) in blob.records().enumerate() {
            let section = i as u32;
            let kind = SectionKind::from_u32(rec.kind).ok_or(LoadError::UnknownSection { section, kind: rec.kind })?;
            let body = blob.body(rec).ok_or(LoadError::SectionOutOfBounds {
                section,
                offset: rec.offset,
                len: rec.len,
                data_len: blob.data.len(),
            })?;
            if kind == SectionKind::Strings {
                if found_strings {
                    return Err(LoadError::DuplicateSection { section, kind: rec.kind });
                }
                found_strings = true;
                blob.strings = StringTable::parse(body).map_err(|defect| LoadError::MalformedSection {
                    section,
                    kind: rec.kind,
                    defect,
                })?;
            }
        }
        // Second pass: sections that refer to strings.
        for (i, rec) in blob.records().enumerate() {
            let section = i as u32;
            let body = blob.body(rec).unwrap_or(&[]);
            let checked = if rec.kind == SectionKind::Test as u32 {
                TestSection::parse(body, header.encoding, &blob.strings).map(|_| ())
            } else if rec.kind == SectionKind::Sprite as u32 {
                if header.version < 2 {
                    return Err(LoadError::UnknownSection { section, kind: rec.kind });
                }
                sprite::SpriteSection::parse(body, header.encoding, &blob.strings).map(|_| ())
            } else if rec.kind == SectionKind::Scene as u32 {
                if header.version < 3 {
                    return Err(LoadError::UnknownSection { section, kind: rec.kind });
                }
                scene::SceneSection::parse(body, header.encoding, &blob.strings).map(|_| ())
            } else if rec.kind == SectionKind::Skeleton as u32 || rec.kind == SectionKind::SkelClip as u32 {
                if header.version < 4 {
                    return Err(LoadError::UnknownSection { section, kind: rec.kind });
                }
                if header.version < OLDEST_SKELETAL_VERSION {
                    return Err(LoadError::UnsupportedVersion {
                        found: header.version,
                        oldest: OLDEST_SKELETAL_VERSION,
                        newest: FORMAT_VERSION,
                    });
                }
                blob.check_skeletal(i, rec.kind, body)
            } else {
                Ok(())
            };
            checked.map_err(|defect| LoadError::MalformedSection { section, kind: rec.kind, defect })?;
        }
        Ok(blob)
    }

    /// Validates skeletal section `i` (its body, and against the other sections: skeleton names
    /// unique, a clip's skeleton present and agreeing).
    fn check_skeletal(&self, i: usize, kind: u32, body: &'a [u8]) -> Result<(), SectionDefect> {
        use skeleton::{SkelClipSection, SkeletonDefect, SkeletonSection};
        let enc = self.header.encoding;
        if kind == SectionKind::Skeleton as u32 {
            let sk = SkeletonSection::parse(body, enc, &self.strings)?;
            let earlier = self.skeletons_upto(i).any(|o| o.name() == sk.name());
            if earlier {
                return Err(SectionDefect::Skeleton(SkeletonDefect::DuplicateSkeleton { name: sk.name_id() }));
            }
            return Ok(());
        }
        let clip = SkelClipSection::parse_version(body, enc, &self.strings, self.header.version)?;
        let wanted = clip.skeleton_name();
        let sk = self
            .skeletons_upto(self.section_count())
            .find(|s| Some(s.name()) == wanted)
            .ok_or(SectionDefect::Skeleton(SkeletonDefect::SkeletonRef { name: clip.skeleton_id() }))?;
        clip.check_skeleton(&sk).map_err(SectionDefect::Skeleton)
    }

    /// Skeleton sections among the first `end` records (opened, not checked).
    fn skeletons_upto(&self, end: usize) -> impl Iterator<Item = skeleton::SkeletonSection<'a>> + 'a {
        let this = *self;
        (0..end).filter_map(move |j| match this.section(j) {
            Some((SectionKind::Skeleton, b)) => skeleton::SkeletonSection::open(b, this.encoding(), &this.strings).ok(),
            _ => None,
        })
    }

    /// Parses and checks only the fixed header and the payload length (not the checksum).
    pub fn parse_header(bytes: &[u8]) -> Result<Header, LoadError> {
        if bytes.len() < HEADER_LEN {
            return Err(LoadError::TooShort { len: bytes.len(), needed: HEADER_LEN });
        }
        let magic = [
            bytes.first().copied().unwrap_or(0),
            bytes.get(1).copied().unwrap_or(0),
            bytes.get(2).copied().unwrap_or(0),
            bytes.get(3).copied().unwrap_or(0),
        ];
        if magic != MAGIC {
            return Err(LoadError::BadMagic { found: magic });
        }
        let version = read_u16(bytes, 4).unwrap_or(0);
        if !(OLDEST_READABLE_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(LoadError::UnsupportedVersion {
                found: version,
                oldest: OLDEST_READABLE_VERSION,
                newest: FORMAT_VERSION,
            });
        }
        let enc = bytes.get(6).copied().unwrap_or(0);
        let encoding = ScalarEncoding::from_byte(enc).ok_or(LoadError::UnknownEncoding { found: enc })?;
        let reserved = bytes.get(7).copied().unwrap_or(0);
        if reserved != 0 {
            return Err(LoadError::ReservedByte { found: reserved });
        }
        let payload_len = read_u32(bytes, 8).unwrap_or(0);
        let crc32 = read_u32(bytes, 12).unwrap_or(0);
        let actual = bytes.len() - HEADER_LEN;
        if payload_len as usize != actual {
            return Err(LoadError::LengthMismatch { declared: payload_len, actual });
        }
        Ok(Header { version, encoding, payload_len, crc32 })
    }

    fn body(&self, rec: SectionRecord) -> Option<&'a [u8]> {
        let start = rec.offset as usize;
        let end = start.checked_add(rec.len as usize)?;
        self.data.get(start..end)
    }

    /// The header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The scalar encoding of every value in this blob.
    pub fn encoding(&self) -> ScalarEncoding {
        self.header.encoding
    }

    /// The number of sections.
    pub fn section_count(&self) -> usize {
        self.directory.len() / 3
    }

    /// The directory records, in order.
    pub fn records(&self) -> impl Iterator<Item = SectionRecord> + 'a {
        let dir = self.directory;
        (0..dir.len() / 3).filter_map(move |i| {
            Some(SectionRecord { kind: dir.get(i * 3)?, offset: dir.get(i * 3 + 1)?, len: dir.get(i * 3 + 2)? })
        })
    }

    /// The body of section `i`, with its kind.
    pub fn section(&self, i: usize) -> Option<(SectionKind, &'a [u8])> {
        let rec = self.records().nth(i)?;
        Some((SectionKind::from_u32(rec.kind)?, self.body(rec)?))
    }

    /// The string table (empty when the blob has none).
    pub fn strings(&self) -> StringTable<'a> {
        self.strings
    }

    /// The sprite sections, in directory order.
    pub fn sprites(&self) -> impl Iterator<Item = sprite::SpriteSection<'a>> + 'a {
        let this = *self;
        (0..self.section_count()).filter_map(move |i| match this.section(i) {
            Some((SectionKind::Sprite, body)) => sprite::SpriteSection::open(body, this.encoding(), &this.strings).ok(),
            _ => None,
        })
    }

    /// The scene sections, in directory order.
    pub fn scenes(&self) -> impl Iterator<Item = scene::SceneSection<'a>> + 'a {
        let this = *self;
        (0..self.section_count()).filter_map(move |i| match this.section(i) {
            Some((SectionKind::Scene, body)) => scene::SceneSection::open(body, this.encoding(), &this.strings).ok(),
            _ => None,
        })
    }

    /// The skeleton sections, in directory order.
    pub fn skeletons(&self) -> impl Iterator<Item = skeleton::SkeletonSection<'a>> + 'a {
        self.skeletons_upto(self.section_count())
    }

    /// The skeletal clip sections, in directory order.
    pub fn skel_clips(&self) -> impl Iterator<Item = skeleton::SkelClipSection<'a>> + 'a {
        let this = *self;
        (0..self.section_count()).filter_map(move |i| match this.section(i) {
            Some((SectionKind::SkelClip, body)) => {
                skeleton::SkelClipSection::open(body, this.encoding(), &this.strings).ok()
            }
            _ => None,
        })
    }

    /// The test sections, in directory order.
    pub fn test_sections(&self) -> impl Iterator<Item = TestSection<'a>> + 'a {
        let this = *self;
        (0..self.section_count()).filter_map(move |i| match this.section(i) {
            Some((SectionKind::Test, body)) => TestSection::parse(body, this.encoding(), &this.strings).ok(),
            _ => None,
        })
    }
}

#[cfg(test)]
mod scene_tests;
#[cfg(test)]
mod skeleton_tests;
#[cfg(test)]
mod tests;
