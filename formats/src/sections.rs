//! Section bodies known to this format version.

use crate::{ScalarEncoding, SectionDefect, WordView};
use serde::{Deserialize, Serialize};

/// The string table: every name in the blob, looked up by id.
///
/// Body (postcard): `{ ends: &[u8], text: &str }`, where `ends` holds one u32 LE per string: the
/// byte offset in `text` where that string ends (string `i` spans `ends[i-1]..ends[i]`, string 0
/// starts at 0). The text is checked to be UTF-8 and every offset to be a non-decreasing character
/// boundary at load, so lookups are O(1) and cannot fail for a valid id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StringTable<'a> {
    ends: WordView<'a>,
    text: &'a str,
}

/// The serialised form of the string table.
#[derive(Serialize, Deserialize)]
pub(crate) struct StringTableBody<'a> {
    pub(crate) ends: &'a [u8],
    pub(crate) text: &'a [u8],
}

impl<'a> StringTable<'a> {
    /// A table with no strings.
    pub const fn empty() -> Self {
        Self { ends: WordView::new(&[]), text: "" }
    }

    pub(crate) fn parse(body: &'a [u8]) -> Result<Self, SectionDefect> {
        let (raw, rest) =
            postcard::take_from_bytes::<StringTableBody<'a>>(body).map_err(|_| SectionDefect::Encoding)?;
        if !rest.is_empty() {
            return Err(SectionDefect::Encoding);
        }
        if raw.ends.len() % 4 != 0 {
            return Err(SectionDefect::ArrayLength { len: raw.ends.len(), element: 4 });
        }
        let text = core::str::from_utf8(raw.text).map_err(|e| SectionDefect::InvalidUtf8 { at: e.valid_up_to() })?;
        let ends = WordView::new(raw.ends);
        let mut start = 0usize;
        for (i, end) in ends.iter().enumerate() {
            let end = end as usize;
            if end < start || !text.is_char_boundary(end) {
                return Err(SectionDefect::StringBounds { string: i as u32 });
            }
            start = end;
        }
        Ok(Self { ends, text })
    }

    /// The number of strings.
    pub fn len(&self) -> u32 {
        self.ends.len() as u32
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// String `id`, or `None` if there is no such string.
    pub fn get(&self, id: u32) -> Option<&'a str> {
        let i = id as usize;
        let end = self.ends.get(i)? as usize;
        let start = match i.checked_sub(1) {
            Some(prev) => self.ends.get(prev)? as usize,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// The id of the first string equal to `name` (a linear scan).
    pub fn find(&self, name: &str) -> Option<u32> {
        self.iter().position(|s| s == name).map(|i| i as u32)
    }

    /// The strings in id order.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + 'a {
        let this = *self;
        (0..this.len()).filter_map(move |id| this.get(id))
    }
}

/// The serialised form of a test section: a named array of scalar words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestSectionBody<'a> {
    /// String id of the section's name.
    pub name: u32,
    /// Scalars in the blob's encoding, 4 bytes LE each.
    pub values: &'a [u8],
}

/// A named array of scalars (conformance tests and the QEMU firmware read these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestSection<'a> {
    name: u32,
    name_str: &'a str,
    values: WordView<'a>,
    encoding: ScalarEncoding,
}

impl<'a> TestSection<'a> {
    pub(crate) fn parse(
        body: &'a [u8],
        encoding: ScalarEncoding,
        strings: &StringTable<'a>,
    ) -> Result<Self, SectionDefect> {
        let (raw, rest) =
            postcard::take_from_bytes::<TestSectionBody<'a>>(body).map_err(|_| SectionDefect::Encoding)?;
        if !rest.is_empty() {
            return Err(SectionDefect::Encoding);
        }
        if raw.values.len() % 4 != 0 {
            return Err(SectionDefect::ArrayLength { len: raw.values.len(), element: 4 });
        }
        let name_str =
            strings.get(raw.name).ok_or(SectionDefect::StringRef { string: raw.name, count: strings.len() })?;
        Ok(Self { name: raw.name, name_str, values: WordView::new(raw.values), encoding })
    }

    /// String id of the name.
    pub fn name_id(&self) -> u32 {
        self.name
    }

    /// The name.
    pub fn name(&self) -> &'a str {
        self.name_str
    }

    /// The values as stored words (decode with [`encoding`](Self::encoding)).
    pub fn words(&self) -> WordView<'a> {
        self.values
    }

    /// The encoding of the words.
    pub fn encoding(&self) -> ScalarEncoding {
        self.encoding
    }
}
