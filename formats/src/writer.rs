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
#[derive(Debug, Clone)]
pub struct BlobWriter {
    encoding: ScalarEncoding,
    strings: Vec<String>,
    ids: HashMap<String, u32>,
    sections: Vec<(SectionKind, Vec<u8>)>,
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
        self.sections.push((kind, body));
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
        let bytes = postcard::to_stdvec(body).map_err(|_| WriteError::Encode)?;
        self.add_section(SectionKind::Sprite, bytes);
        Ok(())
    }

    /// Adds a scene section (string ids from [`intern`](Self::intern); checked when the blob is
    /// read back, like [`add_sprite`](Self::add_sprite)).
    pub fn add_scene(&mut self, body: &crate::scene::SceneBody<'_>) -> Result<(), WriteError> {
        let bytes = postcard::to_stdvec(body).map_err(|_| WriteError::Encode)?;
        self.add_section(SectionKind::Scene, bytes);
        Ok(())
    }

    /// Adds a skeleton section (string ids from [`intern`](Self::intern); checked when the blob is
    /// read back, like [`add_sprite`](Self::add_sprite)).
    pub fn add_skeleton(&mut self, body: &crate::skeleton::SkeletonBody<'_>) -> Result<(), WriteError> {
        let bytes = postcard::to_stdvec(body).map_err(|_| WriteError::Encode)?;
        self.add_section(SectionKind::Skeleton, bytes);
        Ok(())
    }

    /// Adds a skeletal clip section (string ids from [`intern`](Self::intern); checked when the
    /// blob is read back, like [`add_sprite`](Self::add_sprite)).
    pub fn add_skel_clip(&mut self, body: &crate::skeleton::SkelClipBody<'_>) -> Result<(), WriteError> {
        let bytes = postcard::to_stdvec(body).map_err(|_| WriteError::Encode)?;
        self.add_section(SectionKind::SkelClip, bytes);
        Ok(())
    }

    /// Writes the blob.
    pub fn finish(self) -> Result<Vec<u8>, WriteError> {
        let mut all: Vec<(SectionKind, Vec<u8>)> = Vec::with_capacity(self.sections.len() + 1);
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
            all.push((SectionKind::Strings, body));
        }
        all.extend(self.sections);

        let mut directory = Vec::with_capacity(all.len() * 12);
        let mut data = Vec::new();
        for (kind, body) in &all {
            let offset = u32::try_from(data.len()).map_err(|_| WriteError::TooLarge { what: "the data area" })?;
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
