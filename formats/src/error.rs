//! Why a blob was refused.

use core::fmt;

/// Why [`Blob::parse`](crate::Blob::parse) (and the kernel's `Asset::load`) refused a blob.
///
/// Every variant says what was wrong and where; `Display` gives a one-line English message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LoadError {
    /// The input is shorter than the fixed header.
    TooShort {
        /// Bytes present.
        len: usize,
        /// Bytes needed.
        needed: usize,
    },
    /// The first four bytes are not `OSCL`.
    BadMagic {
        /// The bytes found.
        found: [u8; 4],
    },
    /// The blob was written for another format version.
    UnsupportedVersion {
        /// The blob's version.
        found: u16,
        /// The oldest version this reader supports.
        oldest: u16,
        /// The newest version this reader supports.
        newest: u16,
    },
    /// The scalar encoding byte is neither 1 (f32) nor 2 (Q16.16).
    UnknownEncoding {
        /// The byte found.
        found: u8,
    },
    /// The reserved header byte is not 0.
    ReservedByte {
        /// The byte found.
        found: u8,
    },
    /// The header's payload length differs from the bytes after the header (truncated or padded blob).
    LengthMismatch {
        /// Length stated in the header.
        declared: u32,
        /// Bytes actually present after the header.
        actual: usize,
    },
    /// The payload's CRC-32 differs from the header's.
    ChecksumMismatch {
        /// CRC stored in the header.
        stored: u32,
        /// CRC of the payload as read.
        computed: u32,
    },
    /// The payload is not a valid postcard index.
    MalformedIndex,
    /// Bytes follow the index inside the payload.
    TrailingIndexBytes {
        /// How many.
        count: usize,
    },
    /// The section directory is not a whole number of 12-byte records.
    DirectoryLength {
        /// Its length in bytes.
        len: usize,
    },
    /// A directory record names a section kind this version does not know.
    UnknownSection {
        /// Index of the record.
        section: u32,
        /// The kind found.
        kind: u32,
    },
    /// A directory record points outside the data area.
    SectionOutOfBounds {
        /// Index of the record.
        section: u32,
        /// Its offset.
        offset: u32,
        /// Its length.
        len: u32,
        /// The data area's length.
        data_len: usize,
    },
    /// A section that may appear once appears again.
    DuplicateSection {
        /// Index of the second record.
        section: u32,
        /// Its kind.
        kind: u32,
    },
    /// A section's body is malformed.
    MalformedSection {
        /// Index of the record.
        section: u32,
        /// Its kind.
        kind: u32,
        /// What is wrong with it.
        defect: SectionDefect,
    },
}

/// What is wrong inside a section body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SectionDefect {
    /// The body is not valid postcard for its kind, or has bytes after it.
    Encoding,
    /// A little-endian array's length is not a multiple of its element size.
    ArrayLength {
        /// The length in bytes.
        len: usize,
        /// The element size.
        element: usize,
    },
    /// The string table's text is not UTF-8.
    InvalidUtf8 {
        /// Byte offset of the first invalid byte.
        at: usize,
    },
    /// A string's offsets are decreasing, out of the text, or not on a character boundary.
    StringBounds {
        /// The string's id.
        string: u32,
    },
    /// A reference to a string id that the table does not have.
    StringRef {
        /// The id referred to.
        string: u32,
        /// How many strings the table has.
        count: u32,
    },
    /// A sprite section's content is invalid.
    Sprite(crate::sprite::SpriteDefect),
    /// A scene section's content is invalid.
    Scene(crate::scene::SceneDefect),
    /// A skeleton or skeletal clip section's content is invalid.
    Skeleton(crate::skeleton::SkeletonDefect),
}

impl fmt::Display for SectionDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Encoding => write!(f, "body is not valid for its kind"),
            Self::ArrayLength { len, element } => {
                write!(f, "array of {len} bytes is not a whole number of {element}-byte elements")
            }
            Self::InvalidUtf8 { at } => write!(f, "string text is not UTF-8 at byte {at}"),
            Self::StringBounds { string } => write!(f, "string {string} has invalid offsets"),
            Self::StringRef { string, count } => {
                write!(f, "refers to string {string} but the table has {count} strings")
            }
            Self::Sprite(d) => write!(f, "sprite: {d}"),
            Self::Scene(d) => write!(f, "scene: {d}"),
            Self::Skeleton(d) => write!(f, "skeletal: {d}"),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooShort { len, needed } => {
                write!(f, "blob is {len} bytes, shorter than the {needed}-byte header")
            }
            Self::BadMagic { found } => write!(f, "not an ossicle blob: magic is {found:02x?}, expected \"OSCL\""),
            Self::UnsupportedVersion { found, oldest, newest } => write!(
                f,
                "blob has format version {found}, this reader supports versions {oldest} to {newest} (rebuild the blob with a matching host tool)"
            ),
            Self::UnknownEncoding { found } => {
                write!(f, "unknown scalar encoding {found} at byte 6 (1 = f32, 2 = Q16.16)")
            }
            Self::ReservedByte { found } => write!(f, "reserved header byte 7 is {found}, expected 0"),
            Self::LengthMismatch { declared, actual } => write!(
                f,
                "header declares a {declared}-byte payload but {actual} bytes follow the header (truncated or padded)"
            ),
            Self::ChecksumMismatch { stored, computed } => {
                write!(f, "payload CRC-32 is {computed:#010x}, header says {stored:#010x} (corrupted blob)")
            }
            Self::MalformedIndex => write!(f, "the payload's index is not valid postcard"),
            Self::TrailingIndexBytes { count } => write!(f, "{count} unexpected bytes after the index"),
            Self::DirectoryLength { len } => {
                write!(f, "section directory of {len} bytes is not a whole number of 12-byte records")
            }
            Self::UnknownSection { section, kind } => {
                write!(f, "section {section} has kind {kind}, unknown to this format version")
            }
            Self::SectionOutOfBounds { section, offset, len, data_len } => write!(
                f,
                "section {section} spans bytes {offset}..{offset}+{len}, outside the {data_len}-byte data area"
            ),
            Self::DuplicateSection { section, kind } => {
                write!(f, "section {section} repeats kind {kind}, which may appear only once")
            }
            Self::MalformedSection { section, kind, defect } => {
                write!(f, "section {section} (kind {kind}): {defect}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LoadError {}
