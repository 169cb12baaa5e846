//! Reading stored pixel values out of a frame's raw rows or RLE row streams.
//!
//! Everything here reads through `get`, so a frame whose data is shorter than its geometry says
//! (or whose RLE streams are cut, or whose row offsets point anywhere) decodes without panicking:
//! missing pixel or mask bytes are transparent, a stream that ends early (at the next row's
//! offset, or at the end of the data) leaves the rest of its row transparent, a run longer than
//! the row is cut at the row's end.

use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};

/// A frame's data with its derived strides and the transparency rule that applies to it.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a> {
    pub(crate) format: PixelFormat,
    pub(crate) data: &'a [u8],
    pub(crate) w: u16,
    pub(crate) h: u16,
    pub(crate) rle: bool,
    stride: usize,
    /// The mask rows, when the mask decides transparency (raw frame, [`Transparency::Mask`]); an
    /// empty slice when the frame says Mask but has none (every pixel is then transparent).
    mask: Option<&'a [u8]>,
    mask_stride: usize,
    /// The colour key, when it decides transparency (raw frame, [`Transparency::ColorKey`]).
    key: Option<u32>,
}

impl<'a> Source<'a> {
    pub(crate) fn new(f: &FramePixels<'a>) -> Self {
        let raw = !f.rle;
        let mask = (raw && f.transparency == Transparency::Mask).then(|| f.mask.unwrap_or(&[]));
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

    /// The stored value of raw pixel `(sx, sy)` (`None` when its bytes are missing).
    #[inline]
    pub(crate) fn raw_value(&self, sx: u16, sy: u16) -> Option<u32> {
        let row = usize::from(sy).checked_mul(self.stride)?;
        let sx = usize::from(sx);
        let byte = |i: usize| row.checked_add(i).and_then(|at| self.data.get(at)).copied();
        match self.format {
            PixelFormat::Indexed1 => byte(sx >> 3).map(|b| u32::from(b >> (7 - (sx & 7))) & 1),
            PixelFormat::Indexed2 => byte(sx >> 2).map(|b| u32::from(b >> (6 - 2 * (sx & 3))) & 3),
            PixelFormat::Indexed4 => byte(sx >> 1).map(|b| u32::from(b >> (4 - 4 * (sx & 1))) & 15),
            PixelFormat::Indexed8 => byte(sx).map(u32::from),
            // sx < 2¹⁶: 3·sx + 2 fits every usize.
            PixelFormat::Rgb565Le => Some(u32::from(u16::from_le_bytes([byte(2 * sx)?, byte(2 * sx + 1)?]))),
            PixelFormat::Rgb565Be => Some(u32::from(u16::from_be_bytes([byte(2 * sx)?, byte(2 * sx + 1)?]))),
            PixelFormat::Rgb888 => {
                Some(u32::from_be_bytes([0, byte(3 * sx)?, byte(3 * sx + 1)?, byte(3 * sx + 2)?]))
            }
        }
    }

    /// The stored value of raw pixel `(sx, sy)` if the mask and the colour key leave it opaque.
    #[inline]
    pub(crate) fn raw_opaque(&self, sx: u16, sy: u16) -> Option<u32> {
        if let Some(mask) = self.mask {
            let at = usize::from(sy).checked_mul(self.mask_stride)?.checked_add(usize::from(sx >> 3))?;
            let bit = mask.get(at)? >> (7 - (sx & 7)) & 1;
            if bit == 0 {
                return None;
            }
        }
        let v = self.raw_value(sx, sy)?;
        match self.key {
            Some(k) if k == v => None,
            _ => Some(v),
        }
    }

    /// The stored value at `(sx, sy)` if it is opaque, for raw and RLE frames alike (an RLE frame
    /// walks row `sy`'s stream through `cursor`).
    #[inline]
    pub(crate) fn opaque(&self, cursor: &mut RleCursor, sx: u16, sy: u16) -> Option<u32> {
        if self.rle {
            cursor.get(self, sx, sy)
        } else {
            self.raw_opaque(sx, sy)
        }
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

/// The kind of the RLE segment a row decoder is in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Seg {
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
pub(crate) struct RleRow {
    /// The next control byte.
    pos: usize,
    /// The end of the row's stream.
    end: usize,
    /// The column of the next pixel.
    pub(crate) col: u16,
    /// The current segment and how many of its pixels are left (cut at the row's width).
    pub(crate) seg: Seg,
    pub(crate) left: u16,
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

    /// The value of the current run segment (after [`load`](Self::load)).
    pub(crate) fn run_value(&self, src: &Source<'_>) -> Option<u32> {
        src.rle_value(self.vpos, self.end)
    }

    /// Moves over up to `max` pixels that `valid` accepts, stopping before the first transparent
    /// one; returns how many it moved over.
    pub(crate) fn opaque_run(&mut self, src: &Source<'_>, max: u16, valid: impl Fn(u32) -> bool) -> u16 {
        let mut m = 0;
        while m < max {
            self.load(src);
            match self.seg {
                Seg::End | Seg::Skip => break,
                Seg::Run => match src.rle_value(self.vpos, self.end) {
                    Some(v) if valid(v) => {
                        let t = self.left.min(max - m);
                        self.consume(src, t);
                        m += t;
                    }
                    _ => break,
                },
                Seg::Literal => match src.rle_value(self.vpos, self.end) {
                    Some(v) if valid(v) => {
                        self.consume(src, 1);
                        m += 1;
                    }
                    _ => break,
                },
            }
        }
        m
    }

    /// Moves over up to `max` transparent pixels, stopping before the first opaque one; returns
    /// how many it moved over (`max` when the stream has ended).
    pub(crate) fn transparent_run(&mut self, src: &Source<'_>, max: u16, valid: impl Fn(u32) -> bool) -> u16 {
        let mut m = 0;
        while m < max {
            self.load(src);
            let t = match self.seg {
                Seg::End => {
                    self.col = self.col.saturating_add(max - m);
                    return max;
                }
                Seg::Skip => self.left.min(max - m),
                Seg::Run => match src.rle_value(self.vpos, self.end) {
                    Some(v) if valid(v) => break,
                    _ => self.left.min(max - m),
                },
                Seg::Literal => match src.rle_value(self.vpos, self.end) {
                    Some(v) if valid(v) => break,
                    _ => 1,
                },
            };
            self.consume(src, t);
            m += t;
        }
        m
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
}

/// Decodes row `y` of a frame into `out` (raw or RLE alike): `Some(stored value)` for an opaque
/// pixel (a palette index, an RGB565 value in native byte order, or `0xRRGGBB`), `None` for a
/// transparent one (colour key, mask, RLE skip, or missing data). Writes
/// `min(width, out.len())` entries and returns that count (0 when `y` is not a row of the frame).
///
/// It needs no embedded-graphics types: a firmware with its own display code can blit with it.
///
/// ```
/// use ossicle::draw::decode_row;
/// use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};
/// // One 4-pixel RLE row: a run of 3 × index 2, then the stream ends (the rest is transparent).
/// let data = [4, 0, 0, 0, 0x82, 2];
/// let frame = FramePixels {
///     format: PixelFormat::Indexed8, transparency: Transparency::None, key: 0,
///     palette: &[0; 9], x: 0, y: 0, width: 4, height: 1, rle: true, data: &data, mask: None,
/// };
/// let mut row = [None; 4];
/// assert_eq!(decode_row(&frame, 0, &mut row), 4);
/// assert_eq!(row, [Some(2), Some(2), Some(2), None]);
/// ```
pub fn decode_row(frame: &FramePixels<'_>, y: u32, out: &mut [Option<u32>]) -> usize {
    let src = Source::new(frame);
    let Ok(sy) = u16::try_from(y) else { return 0 };
    if sy >= src.h {
        return 0;
    }
    let mut row = RleRow::new(&src, sy);
    let mut n = 0;
    for (sx, slot) in (0..src.w).zip(out.iter_mut()) {
        *slot = if src.rle { row.next(&src) } else { src.raw_opaque(sx, sy) };
        n += 1;
    }
    n
}
