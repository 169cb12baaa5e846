//! Reading stored pixel values out of a frame's raw rows or RLE row streams.
//!
//! Everything here reads through `get`, so a frame whose data is shorter than its geometry says
//! (or whose RLE streams are cut, or whose row offsets point anywhere) decodes without panicking:
//! missing pixel or mask bytes are transparent, a stream that ends early (at the next row's
//! offset, or at the end of the data) leaves the rest of its row transparent, a run longer than
//! the row is cut at the row's end.

use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};

/// Runs `$body` with the type `$F` bound to the [`RawFormat`] of `$format`.
macro_rules! by_format {
    ($format:expr, $F:ident => $body:expr) => {
        match $format {
            PixelFormat::Indexed1 => {
                type $F = $crate::draw::pixels::Packed<1>;
                $body
            }
            PixelFormat::Indexed2 => {
                type $F = $crate::draw::pixels::Packed<2>;
                $body
            }
            PixelFormat::Indexed4 => {
                type $F = $crate::draw::pixels::Packed<4>;
                $body
            }
            PixelFormat::Indexed8 => {
                type $F = $crate::draw::pixels::Index8;
                $body
            }
            PixelFormat::Rgb565Le => {
                type $F = $crate::draw::pixels::Le565;
                $body
            }
            PixelFormat::Rgb565Be => {
                type $F = $crate::draw::pixels::Be565;
                $body
            }
            PixelFormat::Rgb888 => {
                type $F = $crate::draw::pixels::Rgb888Bytes;
                $body
            }
        }
    };
}
pub(crate) use by_format;

/// A frame's data with its derived strides and the transparency rule that applies to it.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a> {
    pub(crate) format: PixelFormat,
    pub(crate) data: &'a [u8],
    pub(crate) w: u16,
    pub(crate) h: u16,
    pub(crate) rle: bool,
    stride: usize,
    /// The mask rows, when the mask decides transparency (a raw frame of a [`Transparency::Mask`]
    /// sprite that carries a mask; without one the frame is fully opaque, as the blob format says).
    mask: Option<&'a [u8]>,
    mask_stride: usize,
    /// The colour key, when it decides transparency (raw frame, [`Transparency::ColorKey`]).
    key: Option<u32>,
}

impl<'a> Source<'a> {
    pub(crate) fn new(f: &FramePixels<'a>) -> Self {
        let raw = !f.rle;
        let mask = if raw && f.transparency == Transparency::Mask { f.mask } else { None };
        let key = (raw && f.transparency == Transparency::ColorKey).then_some(f.key);
        Self {
            format: f.format,
            data: f.data,
            w: f.width,
            h: f.height,
            rle: f.rle,
            // w ≤ 65535 and bits ≤ 24: the stride is below 2²⁰ and fits every usize.
            stride: usize::try_from(f.format.stride(u32::from(f.width))).unwrap_or(usize::MAX),
            mask,
            mask_stride: usize::from(f.width).div_ceil(8),
            key,
        }
    }

    /// Whether this is a raw frame with all its bytes and without mask or key, so that nothing but
    /// the palette can make a pixel transparent.
    pub(crate) fn raw_complete(&self) -> bool {
        let need = self.stride.checked_mul(usize::from(self.h));
        !self.rle && self.mask.is_none() && self.key.is_none() && need.is_some_and(|n| self.data.len() >= n)
    }

    /// Raw row `sy`'s bytes (shorter, or empty, where the data is cut short).
    #[inline]
    pub(crate) fn raw_row(&self, sy: u16) -> &'a [u8] {
        let Some(start) = usize::from(sy).checked_mul(self.stride) else { return &[] };
        let end = start.saturating_add(self.stride).min(self.data.len());
        self.data.get(start..end).unwrap_or(&[])
    }

    /// Mask row `sy`'s bytes, when the mask decides transparency (shorter, or empty, where the
    /// mask is cut short).
    #[inline]
    pub(crate) fn mask_row(&self, sy: u16) -> Option<&'a [u8]> {
        let mask = self.mask?;
        let Some(start) = usize::from(sy).checked_mul(self.mask_stride) else { return Some(&[]) };
        let end = start.saturating_add(self.mask_stride).min(mask.len());
        Some(mask.get(start..end).unwrap_or(&[]))
    }

    /// Bytes per raw row.
    pub(crate) fn stride(&self) -> usize {
        self.stride
    }

    /// The colour key, when it decides transparency.
    pub(crate) fn key(&self) -> Option<u32> {
        self.key
    }

    /// Row `sy`'s entry in the RLE row-offset table (`None` when the table is cut short).
    fn row_offset(&self, sy: u16) -> Option<usize> {
        let at = usize::from(sy) * 4;
        match self.data.get(at..at + 4) {
            Some(&[a, b, c, d]) => usize::try_from(u32::from_le_bytes([a, b, c, d])).ok(),
            _ => None,
        }
    }

    /// The bytes `[start, end)` of row `sy`'s RLE stream: from the row's offset to the next row's
    /// (the last row's stream runs to the end of the data). Equal offsets make an empty stream: a
    /// fully transparent row. A missing or out-of-range offset gives an empty stream.
    fn row_stream(&self, sy: u16) -> (usize, usize) {
        let Some(start) = self.row_offset(sy) else { return (0, 0) };
        let next = sy.checked_add(1).filter(|&n| n < self.h).and_then(|n| self.row_offset(n));
        (start, next.unwrap_or(self.data.len()).min(self.data.len()))
    }

    /// Reads one stored value of an RLE stream at byte `pos`, if it lies before `end`.
    #[inline]
    fn rle_value(&self, pos: usize, end: usize) -> Option<u32> {
        let vb = self.format.rle_value_bytes();
        if pos.checked_add(vb)? > end {
            return None;
        }
        let byte = |i: usize| pos.checked_add(i).and_then(|at| self.data.get(at)).copied();
        match self.format {
            PixelFormat::Rgb565Le => Some(u32::from(u16::from_le_bytes([byte(0)?, byte(1)?]))),
            PixelFormat::Rgb565Be => Some(u32::from(u16::from_be_bytes([byte(0)?, byte(1)?]))),
            PixelFormat::Rgb888 => Some(u32::from_be_bytes([0, byte(0)?, byte(1)?, byte(2)?])),
            _ => byte(0).map(u32::from),
        }
    }
}

/// How one raw pixel format stores a row: a zero-sized type per format, so that the inner
/// loops are compiled once per format with no per-pixel format dispatch.
pub(crate) trait RawFormat {
    /// Bytes per pixel of a byte-aligned format (0 for packed indices).
    const BYTES: usize = 0;

    /// The stored value of pixel `x` of a row (`None` when its bytes are missing).
    fn get(row: &[u8], x: usize) -> Option<u32>;

    /// The stored value of a pixel from its [`BYTES`](Self::BYTES) bytes.
    #[inline(always)]
    fn from_bytes(_: &[u8]) -> u32 {
        0
    }

    /// Pixels `x, x ± 1, …` of a row (rightwards when `forward`) into `vals`; returns the bits
    /// of those whose bytes exist. Byte-aligned formats copy a whole slice.
    #[inline(always)]
    fn run(row: &[u8], x: usize, forward: bool, vals: &mut [u32]) -> u64 {
        let n = vals.len();
        let (lo, hi) = if forward { (x, x.saturating_add(n)) } else { ((x + 1).saturating_sub(n), x + 1) };
        if Self::BYTES > 0 && hi - lo == n {
            if let Some(bytes) = row.get(lo.saturating_mul(Self::BYTES)..hi.saturating_mul(Self::BYTES)) {
                // (Index loops: `chunks_exact` keeps a division by the chunk size on Cortex-M.)
                let b = Self::BYTES;
                for (i, v) in vals.iter_mut().enumerate() {
                    let p = if forward { i } else { n - 1 - i };
                    *v = Self::from_bytes(bytes.get(p * b..p * b + b).unwrap_or(&[]));
                }
                return u64::MAX.checked_shr(64 - n as u32).unwrap_or(0);
            }
        }
        let mut bits = 0u64;
        let mut at = x;
        for (i, slot) in vals.iter_mut().enumerate() {
            if let Some(v) = Self::get(row, at) {
                *slot = v;
                bits |= 1 << i;
            }
            at = if forward { at.wrapping_add(1) } else { at.wrapping_sub(1) };
        }
        bits
    }
}

/// Indexed pixels of `B` bits (1, 2 or 4), leftmost in the most significant bits.
pub(crate) struct Packed<const B: usize>;
/// Indexed pixels of 8 bits.
pub(crate) struct Index8;
/// RGB565, low byte first.
pub(crate) struct Le565;
/// RGB565, high byte first.
pub(crate) struct Be565;
/// RGB888: R, G, B bytes.
pub(crate) struct Rgb888Bytes;

impl<const B: usize> RawFormat for Packed<B> {
    #[inline(always)]
    fn get(row: &[u8], x: usize) -> Option<u32> {
        // x < 2¹⁶ and B ≤ 4: no overflow; bit % 8 ≤ 8 − B since bit is a multiple of B.
        let bit = x * B;
        let byte = *row.get(bit >> 3)?;
        Some(u32::from(byte >> (8 - B - (bit & 7))) & ((1 << B) - 1))
    }
}

impl RawFormat for Index8 {
    const BYTES: usize = 1;

    #[inline(always)]
    fn from_bytes(b: &[u8]) -> u32 {
        u32::from(b.first().copied().unwrap_or(0))
    }

    #[inline(always)]
    fn get(row: &[u8], x: usize) -> Option<u32> {
        row.get(x).copied().map(u32::from)
    }
}

impl RawFormat for Le565 {
    const BYTES: usize = 2;

    #[inline(always)]
    fn from_bytes(b: &[u8]) -> u32 {
        match b {
            &[a, b] => u32::from(u16::from_le_bytes([a, b])),
            _ => 0,
        }
    }

    #[inline(always)]
    fn get(row: &[u8], x: usize) -> Option<u32> {
        match row.get(2 * x..2 * x + 2)? {
            &[a, b] => Some(u32::from(u16::from_le_bytes([a, b]))),
            _ => None,
        }
    }
}

impl RawFormat for Be565 {
    const BYTES: usize = 2;

    #[inline(always)]
    fn from_bytes(b: &[u8]) -> u32 {
        match b {
            &[a, b] => u32::from(u16::from_be_bytes([a, b])),
            _ => 0,
        }
    }

    #[inline(always)]
    fn get(row: &[u8], x: usize) -> Option<u32> {
        match row.get(2 * x..2 * x + 2)? {
            &[a, b] => Some(u32::from(u16::from_be_bytes([a, b]))),
            _ => None,
        }
    }
}

impl RawFormat for Rgb888Bytes {
    const BYTES: usize = 3;

    #[inline(always)]
    fn from_bytes(b: &[u8]) -> u32 {
        match b {
            &[r, g, b] => u32::from_be_bytes([0, r, g, b]),
            _ => 0,
        }
    }

    #[inline(always)]
    fn get(row: &[u8], x: usize) -> Option<u32> {
        match row.get(3 * x..3 * x + 3)? {
            &[r, g, b] => Some(u32::from_be_bytes([0, r, g, b])),
            _ => None,
        }
    }
}

/// The kind of the RLE segment a row decoder is in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Seg {
    /// Transparent pixels.
    Skip,
    /// Pixels whose values follow one after another, from `vpos`.
    Literal,
    /// Copies of the one value at `vpos`.
    Run,
    /// The stream ended (or its next control byte is missing): the rest of the row is transparent.
    End,
}

/// A forward decoder of one RLE row stream, pixel by pixel or segment by segment. Small and
/// `Copy`: a copy taken at some column replays the row from there.
#[derive(Clone, Copy)]
struct RleRow {
    /// The next control byte.
    pos: usize,
    /// The end of the row's stream.
    end: usize,
    /// The column of the next pixel.
    pub(crate) col: u16,
    /// The current segment and how many of its pixels are left (cut at the row's width).
    seg: Seg,
    left: u16,
    /// Literal: the next value; run: the value.
    vpos: usize,
}

impl RleRow {
    /// A decoder at column 0 of row `sy`.
    pub(crate) fn new(src: &Source<'_>, sy: u16) -> Self {
        let (pos, end) = src.row_stream(sy);
        Self { pos, end, col: 0, seg: Seg::Skip, left: 0, vpos: 0 }
    }

    /// Makes the current segment one with pixels left (or [`Seg::End`]).
    #[inline]
    pub(crate) fn load(&mut self, src: &Source<'_>) {
        if self.left > 0 || self.seg == Seg::End {
            return;
        }
        let room = src.w.saturating_sub(self.col);
        let ctrl = match src.data.get(self.pos) {
            Some(&c) if room > 0 && self.pos < self.end => c,
            _ => {
                self.seg = Seg::End;
                return;
            }
        };
        let vb = src.format.rle_value_bytes();
        self.vpos = self.pos.saturating_add(1);
        let (seg, n, bytes) = match ctrl {
            0x00..=0x3F => (Seg::Literal, u16::from(ctrl) + 1, (usize::from(ctrl) + 1) * vb),
            0x40..=0x7F => (Seg::Skip, u16::from(ctrl) - 0x3F, 0),
            _ => (Seg::Run, u16::from(ctrl) - 0x7F, vb),
        };
        self.pos = self.vpos.saturating_add(bytes);
        self.seg = seg;
        self.left = n.min(room);
    }

    /// Moves `n` pixels on without decoding them (whole segments at a time).
    pub(crate) fn skip(&mut self, src: &Source<'_>, mut n: u16) {
        while n > 0 {
            self.load(src);
            if self.seg == Seg::End {
                self.col = self.col.saturating_add(n);
                return;
            }
            let m = n.min(self.left);
            self.consume(src, m);
            n -= m;
        }
    }

    /// Consumes `m ≤ left` pixels of the current segment.
    #[inline]
    fn consume(&mut self, src: &Source<'_>, m: u16) {
        self.left -= m;
        self.col = self.col.saturating_add(m);
        if self.seg == Seg::Literal {
            self.vpos = self.vpos.saturating_add(usize::from(m) * src.format.rle_value_bytes());
        }
    }

    /// The next pixel's stored value, or `None` when it is transparent (a skip, the end of the
    /// stream, or a value whose bytes are missing).
    #[inline]
    pub(crate) fn next(&mut self, src: &Source<'_>) -> Option<u32> {
        self.load(src);
        match self.seg {
            Seg::End => {
                self.col = self.col.saturating_add(1);
                None
            }
            Seg::Skip => {
                self.consume(src, 1);
                None
            }
            Seg::Literal | Seg::Run => {
                let v = src.rle_value(self.vpos, self.end);
                self.consume(src, 1);
                v
            }
        }
    }
}

/// Random access into an RLE frame: remembers where the last read stopped, so reads that move
/// right along one row continue the walk; any other read walks its row's stream from the start.
#[derive(Clone, Copy, Default)]
pub(crate) struct RleCursor {
    at: Option<(u16, RleRow)>,
}

impl RleCursor {
    /// The stored value at `(sx, sy)`, or `None` when that pixel is transparent.
    #[inline]
    pub(crate) fn get(&mut self, src: &Source<'_>, sx: u16, sy: u16) -> Option<u32> {
        let mut row = match self.at {
            Some((y, r)) if y == sy && r.col <= sx => r,
            _ => RleRow::new(src, sy),
        };
        row.skip(src, sx - row.col);
        let v = row.next(src);
        self.at = Some((sy, row));
        v
    }

    /// Reads `vals.len()` (at most 64) pixels of row `sy` from column `c0` into `vals`, a
    /// segment at a time; returns the opacity bits (bit `i` set: `vals[i]` is an opaque value).
    pub(crate) fn read(&mut self, src: &Source<'_>, sy: u16, c0: u16, vals: &mut [u32]) -> u64 {
        let mut row = match self.at {
            Some((y, r)) if y == sy && r.col <= c0 => r,
            _ => RleRow::new(src, sy),
        };
        row.skip(src, c0 - row.col);
        let vals = vals.get_mut(..vals.len().min(64)).unwrap_or(&mut []);
        let vb = src.format.rle_value_bytes();
        let mut bits = 0u64;
        let mut i = 0;
        while i < vals.len() {
            row.load(src);
            let want = u16::try_from(vals.len() - i).unwrap_or(u16::MAX);
            if row.seg == Seg::End {
                row.col = row.col.saturating_add(want);
                break;
            }
            let m = row.left.min(want);
            let span = vals.get_mut(i..i + usize::from(m)).unwrap_or(&mut []);
            // 1 ≤ m and i + m ≤ 64.
            let ones = u64::MAX.checked_shr(64 - u32::from(m)).unwrap_or(0) << i;
            match row.seg {
                Seg::Run => {
                    if let Some(v) = src.rle_value(row.vpos, row.end) {
                        span.fill(v);
                        bits |= ones;
                    }
                }
                Seg::Literal => {
                    let mut at = row.vpos;
                    for (t, slot) in span.iter_mut().enumerate() {
                        if let Some(v) = src.rle_value(at, row.end) {
                            *slot = v;
                            bits |= 1 << (i + t);
                        }
                        at = at.saturating_add(vb);
                    }
                }
                Seg::Skip | Seg::End => {}
            }
            row.consume(src, m);
            i += usize::from(m);
        }
        self.at = Some((sy, row));
        bits
    }
}
