//! Typed views over little-endian arrays borrowed from a blob.

/// Whether this target reads a word from a 4-aligned view with one word load rather than
/// assembling it from four bytes: the targets without unaligned loads, on which `u32::from_le_bytes`
/// of four bytes is four byte loads, three shifts and three ors (ARM without 32-bit atomics,
/// which among the ARM targets Rust supports means the ARMv6-M / ARMv4T / ARMv5TE families:
/// the Cortex-M0/M0+ `thumbv6m-none-eabi` is the one that matters; stable Rust exposes no ARM
/// architecture-version `target_feature`, so the missing CAS atomics stand in for it). Elsewhere
/// the compiler already makes one (unaligned) load of the four bytes, and an alignment test would
/// only add instructions. Only speed depends on this: both ways read the same words.
pub const WORD_LOADS: bool = cfg!(all(target_arch = "arm", not(target_has_atomic = "32")));

/// [`WORD_LOADS`], and in this crate's unit tests and fuzz builds (so that the host tests both
/// ways).
const USE_WORD_LOADS: bool = WORD_LOADS || cfg!(any(test, fuzzing));

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

    /// The whole words as a `u32` slice when the view starts on a 4-byte boundary, `None`
    /// otherwise. A blob placed in memory 4-aligned (the boards embed theirs in an `Aligned`
    /// wrapper) has every section's arrays aligned. The words are in the blob's byte order
    /// (little-endian): read each through `u32::from_le`. On targets without unaligned loads
    /// ([`WORD_LOADS`]) a word read from this slice is one load instead of four.
    #[inline(always)]
    pub fn aligned_words(&self) -> Option<&'a [u32]> {
        let whole = self.bytes.get(..self.bytes.len() & !3)?;
        bytemuck::try_cast_slice(whole).ok()
    }

    /// Word `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        if USE_WORD_LOADS {
            if let Some(words) = self.aligned_words() {
                return words.get(i).map(|&w| u32::from_le(w));
            }
        }
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
        if USE_WORD_LOADS {
            if let Some(words) = self.aligned_words() {
                let run = words.get(first..first.checked_add(K)?)?;
                let mut out = [0u32; K];
                for (o, w) in out.iter_mut().zip(run) {
                    *o = u32::from_le(*w);
                }
                return Some(out);
            }
        }
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

    // `get` and `words` keep their own copies of the two reads rather than going through
    // `WordRun`: built on it they cost the Cortex-M0 up to 37 % more instructions in the scene,
    // Animator and state-machine rows (measured, session 11).

    /// Words `first .. first + count`, read in place, when they all lie inside the view (`None`
    /// otherwise). For loops that read a few words at a time: where [`WORD_LOADS`] holds, whether
    /// the view is 4-aligned is decided once for the run instead of once per word.
    #[inline(always)]
    pub fn run(&self, first: usize, count: usize) -> Option<WordRun<'a>> {
        if USE_WORD_LOADS {
            if let Some(words) = self.aligned_words() {
                return words.get(first..first.checked_add(count)?).map(WordRun::Words);
            }
        }
        let at = first.checked_mul(4)?;
        self.bytes.get(at..at.checked_add(count.checked_mul(4)?)?).map(WordRun::Bytes)
    }

    /// [`WordView::run`] with the range computed by wrapping arithmetic: a range that wraps is
    /// empty, so `None` (never a panic). For hot paths whose caller checked the range once
    /// beforehand, where the overflow checks would be paid on every read.
    #[inline(always)]
    pub fn run_wrapping(&self, first: usize, count: usize) -> Option<WordRun<'a>> {
        if USE_WORD_LOADS {
            if let Some(words) = self.aligned_words() {
                return words.get(first..first.wrapping_add(count)).map(WordRun::Words);
            }
        }
        let at = first.wrapping_mul(4);
        self.bytes.get(at..at.wrapping_add(count.wrapping_mul(4))).map(WordRun::Bytes)
    }
}

/// Consecutive words of a [`WordView`] read in place ([`WordView::run`]): the view's
/// [`aligned_words`](WordView::aligned_words) where [`WORD_LOADS`] holds and the view is
/// 4-aligned, its bytes (four per word) otherwise. Both read the same little-endian words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordRun<'a> {
    /// Whole words, in the blob's byte order (read each through `u32::from_le`).
    Words(&'a [u32]),
    /// Four bytes per word, little-endian.
    Bytes(&'a [u8]),
}

impl<'a> WordRun<'a> {
    /// The number of words.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match self {
            WordRun::Words(w) => w.len(),
            WordRun::Bytes(b) => b.len() / 4,
        }
    }

    /// Whether the run has no words.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The run split after `words` words (`None` past its end).
    #[inline(always)]
    pub fn split_at(self, words: usize) -> Option<(Self, Self)> {
        match self {
            WordRun::Words(w) => w.split_at_checked(words).map(|(a, b)| (WordRun::Words(a), WordRun::Words(b))),
            WordRun::Bytes(b) => {
                b.split_at_checked(words.wrapping_mul(4)).map(|(a, b)| (WordRun::Bytes(a), WordRun::Bytes(b)))
            }
        }
    }

    /// The first four words, 0 for each past the run's end.
    #[inline(always)]
    pub fn first4(self) -> [u32; 4] {
        match self {
            WordRun::Words(w) => {
                let at = |c: usize| match w.get(c) {
                    Some(&v) => u32::from_le(v),
                    None => 0,
                };
                [at(0), at(1), at(2), at(3)]
            }
            WordRun::Bytes(run) => {
                let at = |c: usize| {
                    let i = c.wrapping_mul(4);
                    match run.get(i..i.wrapping_add(4)) {
                        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
                        _ => 0,
                    }
                };
                [at(0), at(1), at(2), at(3)]
            }
        }
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
