//! The blob writer (feature `std`, used by the host).

use crate::sections::StringTableBody;
use crate::{Header, Index, ScalarEncoding, SectionKind, TestSectionBody, FORMAT_VERSION, HEADER_LEN};
use std::collections::HashMap;
use std::string::String;
use std::vec::Vec;

/// Why a blob could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// The blob would exceed the 4 GiB the 32-bit offsets can address.
    TooLarge {
        /// What overflowed.
        what: &'static str,
    },
    /// Postcard could not encode a section (should not happen for these types).
    Encode,
}

impl core::fmt::Display for WriteError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::TooLarge { what } => write!(f, "{what} exceeds the 4 GiB a blob can address"),
            Self::Encode => write!(f, "a section could not be encoded"),
        }
    }
}

impl std::error::Error for WriteError {}

/// Builds a blob: interns strings, collects sections, and writes header, index and checksum.
///
/// The string table is always the first section (when there is at least one string); other
/// sections follow in the order they were added.
///
/// Sections whose hot array is read as words (a skeletal clip's `data`, a skeleton's `bones`, a
/// sprite's `animations`, a scene's `tracks`) are
/// placed, with up to three unused bytes before them in the data area, so that this array starts
/// 4-aligned from the blob's first byte: a blob placed 4-aligned in memory then has it aligned,
/// and targets without unaligned loads (the Cortex-M0) read its words with one load each (see
/// [`WordView::aligned_words`](crate::WordView::aligned_words)). Readers do not depend on it:
/// a section's offset in the directory is all they use.
#[derive(Debug, Clone)]
pub struct BlobWriter {
    encoding: ScalarEncoding,
    strings: Vec<String>,
    ids: HashMap<String, u32>,
    /// Each section's kind, body, and the offset in the body of the array to align (if any).
    sections: Vec<(SectionKind, Vec<u8>, Option<usize>)>,
}

impl BlobWriter {
    /// A writer for a blob whose scalars use `encoding`.
    pub fn new(encoding: ScalarEncoding) -> Self {
        Self { encoding, strings: Vec::new(), ids: HashMap::new(), sections: Vec::new() }
    }

    /// The blob's scalar encoding.
    pub fn encoding(&self) -> ScalarEncoding {
        self.encoding
    }

    /// The id of `s` in the string table, adding it if new.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(s.into());
        self.ids.insert(s.into(), id);
        id
    }

    /// Adds a section with an already encoded body.
    pub fn add_section(&mut self, kind: SectionKind, body: Vec<u8>) {
        self.sections.push((kind, body, None));
    }

    /// Adds a section with an already encoded body whose byte `align_at` (an array of words) is to
    /// start 4-aligned from the blob's first byte.
    pub fn add_section_aligned(&mut self, kind: SectionKind, body: Vec<u8>, align_at: usize) {
        self.sections.push((kind, body, Some(align_at)));
    }

    /// Adds a test section: a named array of scalar words in this blob's encoding.
    pub fn add_test_section(&mut self, name: &str, words: &[u32]) -> Result<(), WriteError> {
        let name = self.intern(name);
        let values: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let body = postcard::to_stdvec(&TestSectionBody { name, values: &values }).map_err(|_| WriteError::Encode)?;
        self.add_section(SectionKind::Test, body);
        Ok(())
    }

    /// Adds a sprite section. The body's name and event ids must come from [`intern`](Self::intern);
    /// its layout is checked when the blob is read back, not here (the host reads every blob it
    /// writes back through the loader before it keeps it).
    pub fn add_sprite(&mut self, body: &crate::sprite::SpriteBody<'_>) -> Result<(), WriteError> {
        // The animation records (read on every update) start 4-aligned.
        self.add_encoded(SectionKind::Sprite, body, |b| {
            postcard::from_bytes::<crate::sprite::SpriteBody<'_>>(b).ok().map(|d| offset_in(b, d.animations))
        })
    }

    /// Adds a scene section (string ids from [`intern`](Self::intern); checked when the blob is
    /// read back, like [`add_sprite`](Self::add_sprite)).
    pub fn add_scene(&mut self, body: &crate::scene::SceneBody<'_>) -> Result<(), WriteError> {
        // The track records start 4-aligned.
        self.add_encoded(SectionKind::Scene, body, |b| {
            postcard::from_bytes::<crate::scene::SceneBody<'_>>(b).ok().map(|d| offset_in(b, d.tracks))
        })
    }

    /// Adds a skeleton section (string ids from [`intern`](Self::intern); checked when the blob is
    /// read back, like [`add_sprite`](Self::add_sprite)).
    pub fn add_skeleton(&mut self, body: &crate::skeleton::SkeletonBody<'_>) -> Result<(), WriteError> {
        // The bone records start 4-aligned.
        self.add_encoded(SectionKind::Skeleton, body, |b| {
            postcard::from_bytes::<crate::skeleton::SkeletonBody<'_>>(b).ok().map(|d| offset_in(b, d.bones))
        })
    }

    /// Adds a skeletal clip section (string ids from [`intern`](Self::intern); checked when the
    /// blob is read back, like [`add_sprite`](Self::add_sprite)).
    pub fn add_skel_clip(&mut self, body: &crate::skeleton::SkelClipBody<'_>) -> Result<(), WriteError> {
        // The data words start 4-aligned.
        self.add_encoded(SectionKind::SkelClip, body, |b| {
            postcard::from_bytes::<crate::skeleton::SkelClipBody<'_>>(b).ok().map(|d| offset_in(b, d.data))
        })
    }

    /// Encodes `body` and adds it as a section of `kind` whose array at the byte that `array_at`
    /// finds (reading the encoding back: postcard borrows its arrays from it) is to start 4-aligned.
    fn add_encoded<B: serde::Serialize>(
        &mut self,
        kind: SectionKind,
        body: &B,
        array_at: impl FnOnce(&[u8]) -> Option<usize>,
    ) -> Result<(), WriteError> {
        let bytes = postcard::to_stdvec(body).map_err(|_| WriteError::Encode)?;
        let at = array_at(&bytes).ok_or(WriteError::Encode)?;
        self.add_section_aligned(kind, bytes, at);
        Ok(())
    }

    /// Writes the blob.
    pub fn finish(self) -> Result<Vec<u8>, WriteError> {
        let mut all: Vec<(SectionKind, Vec<u8>, Option<usize>)> = Vec::with_capacity(self.sections.len() + 1);
        if !self.strings.is_empty() {
            let mut ends = Vec::with_capacity(self.strings.len() * 4);
            let mut text = Vec::new();
            for s in &self.strings {
                text.extend_from_slice(s.as_bytes());
                let end = u32::try_from(text.len()).map_err(|_| WriteError::TooLarge { what: "the string table" })?;
                ends.extend_from_slice(&end.to_le_bytes());
            }
            let body =
                postcard::to_stdvec(&StringTableBody { ends: &ends, text: &text }).map_err(|_| WriteError::Encode)?;
            all.push((SectionKind::Strings, body, None));
        }
        all.extend(self.sections);

        // The data area starts after the header, the directory (its varint length, then 12 bytes
        // a section) and the data area's own varint length, which depends on the padding: try
        // each possible length of that varint until the padded area's length has it.
        let directory_len = all.len() * 12;
        let unpadded: usize = all.iter().map(|(_, body, _)| body.len()).sum();
        let mut placed = None;
        for data_varint in 1..=10 {
            let start = HEADER_LEN + varint_len(directory_len) + directory_len + data_varint;
            let (offsets, len) = place(&all, start);
            if varint_len(len) == data_varint {
                placed = Some(offsets);
                break;
            }
            debug_assert!(len <= unpadded + 3 * all.len());
        }
        let offsets = placed.ok_or(WriteError::TooLarge { what: "the data area" })?;

        let mut directory = Vec::with_capacity(directory_len);
        let mut data = Vec::new();
        for ((kind, body, _), offset) in all.iter().zip(offsets) {
            data.resize(offset, 0);
            let offset = u32::try_from(offset).map_err(|_| WriteError::TooLarge { what: "the data area" })?;
            let len = u32::try_from(body.len()).map_err(|_| WriteError::TooLarge { what: "a section" })?;
            directory.extend_from_slice(&(*kind as u32).to_le_bytes());
            directory.extend_from_slice(&offset.to_le_bytes());
            directory.extend_from_slice(&len.to_le_bytes());
            data.extend_from_slice(body);
        }
        let payload =
            postcard::to_stdvec(&Index { directory: &directory, data: &data }).map_err(|_| WriteError::Encode)?;
        let payload_len = u32::try_from(payload.len()).map_err(|_| WriteError::TooLarge { what: "the payload" })?;
        Ok(seal(self.encoding, &payload, payload_len))
    }
}

/// The offset of `part` (a slice borrowed from `whole`) in `whole`.
fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).wrapping_sub(whole.as_ptr() as usize)
}

/// The bytes of `n` as a postcard varint.
fn varint_len(n: usize) -> usize {
    let bits = usize::BITS - n.leading_zeros();
    (bits.max(1) as usize).div_ceil(7)
}

/// Each section's offset in the data area, and the area's length, when the area starts at byte
/// `start` of the blob: a section with an array to align starts after up to three unused bytes,
/// so that `start + offset + align_at` is a multiple of 4.
fn place(all: &[(SectionKind, Vec<u8>, Option<usize>)], start: usize) -> (Vec<usize>, usize) {
    let mut offsets = Vec::with_capacity(all.len());
    let mut at = 0usize;
    for (_, body, align_at) in all {
        if let Some(a) = align_at {
            at += (4 - (start + at + a) % 4) % 4;
        }
        offsets.push(at);
        at += body.len();
    }
    (offsets, at)
}

/// Prepends the header (with its checksum) to a payload.
pub(crate) fn seal(encoding: ScalarEncoding, payload: &[u8], payload_len: u32) -> Vec<u8> {
    let mut header = Header { version: FORMAT_VERSION, encoding, payload_len, crc32: 0 };
    let prefix = header.to_bytes();
    header.crc32 = crate::checksum(prefix.get(..12).unwrap_or(&[]), payload);
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&header.to_bytes());
    out.extend_from_slice(payload);
    out
}
