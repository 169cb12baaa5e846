//! Typed views over little-endian arrays borrowed from a blob.

/// A borrowed array of little-endian 32-bit words (any trailing partial word is ignored).
///
/// Reading never copies the array and never panics: `get` returns `None` past the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct WordView<'a> {
    bytes: &'a [u8],
}

impl<'a> WordView<'a> {
    /// A view of `bytes` as `bytes.len() / 4` words.
    pub const fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// The number of whole words.
    pub const fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    /// Whether there are no words.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        let start = i.checked_mul(4)?;
        let b = self.bytes.get(start..start.checked_add(4)?)?;
        match *b {
            [a, b, c, d] => Some(u32::from_le_bytes([a, b, c, d])),
            _ => None,
        }
    }

    /// The words in order.
    pub fn iter(&self) -> WordIter<'a> {
        WordIter { chunks: self.bytes.chunks_exact(4) }
    }

    /// `K` consecutive words from word `first`, with one bounds check (records of fixed size).
    #[inline]
    pub fn words<const K: usize>(&self, first: usize) -> Option<[u32; K]> {
        let start = first.checked_mul(4)?;
        let bytes = self.bytes.get(start..start.checked_add(K.checked_mul(4)?)?)?;
        let mut out = [0u32; K];
        for (o, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            if let [a, b, c, d] = *chunk {
                *o = u32::from_le_bytes([a, b, c, d]);
            }
        }
        Some(out)
    }

    /// The underlying bytes.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// Iterator over the words of a [`WordView`].
#[derive(Clone, Debug)]
pub struct WordIter<'a> {
    chunks: core::slice::ChunksExact<'a, u8>,
}

impl Iterator for WordIter<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        match *self.chunks.next()? {
            [a, b, c, d] => Some(u32::from_le_bytes([a, b, c, d])),
            _ => None,
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for WordIter<'_> {}

impl<'a> IntoIterator for WordView<'a> {
    type Item = u32;
    type IntoIter = WordIter<'a>;
    fn into_iter(self) -> WordIter<'a> {
        self.iter()
    }
}
