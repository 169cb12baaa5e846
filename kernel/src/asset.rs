//! Loading a blob: [`Asset::load`] validates everything once, then views read it in place.
//!
//! ```
//! # use ossicle_format::{BlobWriter, ScalarEncoding};
//! # let mut w = BlobWriter::new(ScalarEncoding::Q16_16);
//! # w.add_test_section("inputs", &[0x8000, 0x1_0000]).unwrap();
//! # let bytes = w.finish().unwrap();
//! use ossicle::{asset::Asset, Q16, Scalar};
//! let asset = Asset::load(&bytes)?;
//! let inputs = asset.test_section_named("inputs").expect("present");
//! let values = inputs.values::<Q16>().expect("the blob is Q16.16");
//! assert_eq!(values.get(0), Some(Q16::HALF));
//! assert_eq!(values.get(2), None);
//! # Ok::<(), ossicle::asset::LoadError>(())
//! ```

use core::fmt;
use core::marker::PhantomData;

use ossicle_format::{Blob, WordIter, WordView};
pub use ossicle_format::{LoadError, ScalarEncoding, SectionDefect, StringTable};

use crate::skeleton::{BlobSkelClip, BlobSkeleton};
use crate::Scalar;

/// A loaded blob, borrowed from its bytes (RAM, flash or XIP memory); nothing is copied.
#[derive(Clone, Copy, Debug)]
pub struct Asset<'a> {
    blob: Blob<'a>,
}

impl<'a> Asset<'a> {
    /// Checks magic, version, scalar encoding, length, CRC-32 and every offset and section of
    /// `bytes`, and returns the asset; nothing reads the blob before these checks pass.
    pub fn load(bytes: &'a [u8]) -> Result<Self, LoadError> {
        Ok(Self { blob: Blob::parse(bytes)? })
    }

    /// The scalar encoding of the blob's values.
    pub fn encoding(&self) -> ScalarEncoding {
        self.blob.encoding()
    }

    /// The string table.
    pub fn strings(&self) -> StringTable<'a> {
        self.blob.strings()
    }

    /// String `id`.
    pub fn string(&self, id: u32) -> Option<&'a str> {
        self.blob.strings().get(id)
    }

    /// The id of string `name`.
    pub fn find_string(&self, name: &str) -> Option<u32> {
        self.blob.strings().find(name)
    }

    /// The test sections, in blob order.
    pub fn test_sections(&self) -> impl Iterator<Item = TestSection<'a>> + 'a {
        self.blob.test_sections().map(|inner| TestSection { inner })
    }

    /// Test section number `i` (counting test sections only).
    pub fn test_section(&self, i: usize) -> Option<TestSection<'a>> {
        self.test_sections().nth(i)
    }

    /// The first test section called `name`.
    pub fn test_section_named(&self, name: &str) -> Option<TestSection<'a>> {
        self.test_sections().find(|t| t.name() == name)
    }

    /// The skeleton sections, in blob order.
    pub fn skeletons(&self) -> impl Iterator<Item = BlobSkeleton<'a>> + 'a {
        self.blob.skeletons().map(|section| BlobSkeleton { section })
    }

    /// The skeleton called `name` (skeleton names are unique in a blob).
    pub fn skeleton_named(&self, name: &str) -> Option<BlobSkeleton<'a>> {
        self.skeletons().find(|s| s.name() == name)
    }

    /// The skeletal clip sections, in blob order.
    pub fn skel_clips(&self) -> impl Iterator<Item = BlobSkelClip<'a>> + 'a {
        self.blob.skel_clips().map(|section| BlobSkelClip { section })
    }

    /// The first skeletal clip called `name`.
    pub fn skel_clip_named(&self, name: &str) -> Option<BlobSkelClip<'a>> {
        self.skel_clips().find(|c| c.name() == name)
    }

    /// The skeleton `clip` animates (the loader checked it is there, with the clip's dimension
    /// and at least its bone count).
    pub fn skeleton_of(&self, clip: &BlobSkelClip<'_>) -> Option<BlobSkeleton<'a>> {
        self.skeleton_named(clip.skeleton_name()?)
    }

    /// The validated container, for tools.
    pub fn blob(&self) -> &Blob<'a> {
        &self.blob
    }
}

/// Values were requested as one scalar type from a blob encoded with the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EncodingMismatch {
    /// The blob's encoding.
    pub blob: ScalarEncoding,
    /// The encoding of the requested scalar type.
    pub requested: ScalarEncoding,
}

impl fmt::Display for EncodingMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "blob stores {} scalars, {} were requested", self.blob.name(), self.requested.name())
    }
}

/// A named array of scalars (used by conformance tests and the QEMU firmware).
#[derive(Clone, Copy, Debug)]
pub struct TestSection<'a> {
    inner: ossicle_format::TestSection<'a>,
}

impl<'a> TestSection<'a> {
    /// The section's name.
    pub fn name(&self) -> &'a str {
        self.inner.name()
    }

    /// The name's string id.
    pub fn name_id(&self) -> u32 {
        self.inner.name_id()
    }

    /// The values as `S`, which must match the blob's encoding.
    pub fn values<S: Scalar>(&self) -> Result<ScalarView<'a, S>, EncodingMismatch> {
        if self.inner.encoding() == S::ENCODING {
            Ok(ScalarView::new(self.inner.words()))
        } else {
            Err(EncodingMismatch { blob: self.inner.encoding(), requested: S::ENCODING })
        }
    }
}

/// A borrowed array of scalars stored little-endian in a blob.
#[derive(Clone, Copy, Debug)]
pub struct ScalarView<'a, S> {
    words: WordView<'a>,
    _scalar: PhantomData<S>,
}

impl<'a, S: Scalar> ScalarView<'a, S> {
    fn new(words: WordView<'a>) -> Self {
        Self { words, _scalar: PhantomData }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Value `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<S> {
        self.words.get(i).map(S::from_blob_bits)
    }

    /// The values in order.
    pub fn iter(&self) -> core::iter::Map<WordIter<'a>, fn(u32) -> S> {
        self.words.iter().map(S::from_blob_bits as fn(u32) -> S)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Q16;
    use ossicle_format::BlobWriter;

    #[test]
    fn values_are_read_in_the_blob_encoding_only() {
        let mut w = BlobWriter::new(ScalarEncoding::F32);
        w.add_test_section("v", &[1.5f32.to_bits(), (-2.0f32).to_bits()]).unwrap();
        let bytes = w.finish().unwrap();
        let asset = Asset::load(&bytes).unwrap();
        let t = asset.test_section(0).unwrap();
        assert_eq!(t.name(), "v");
        let v = t.values::<f32>().unwrap();
        assert_eq!((v.len(), v.get(0), v.get(1), v.get(2)), (2, Some(1.5), Some(-2.0), None));
        assert_eq!(
            t.values::<Q16>().unwrap_err(),
            EncodingMismatch { blob: ScalarEncoding::F32, requested: ScalarEncoding::Q16_16 }
        );
        assert_eq!(asset.find_string("v"), Some(0));
        assert!(asset.test_section_named("w").is_none());
    }
}
