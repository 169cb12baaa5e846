//! Decoding the source pixels of one destination row, [`CHUNK`] at a time.
//!
//! Every draw path describes a destination row as a [`Sampler`]: which source pixel each of its
//! pixels shows. Decoding fills a [`Chunk`] with up to 64 stored values and a bit mask of the
//! opaque ones; only this step knows the pixel format (one small loop per format), so the code
//! above it (finding runs, colours, spans) exists once per target type, not once per format.

use super::pixels::{by_format, RawFormat, RleCursor, Source};
use ossicle_format::sprite::{FramePixels, PixelFormat};

/// Source pixels decoded per step (the width of [`Chunk::bits`]): rows of up to 64 source
/// pixels are decoded once.
pub(crate) const CHUNK: usize = 64;

/// Up to [`CHUNK`] decoded source pixels of a row: pixels `k0 .. k0 + len`.
pub(crate) struct Chunk {
    pub(crate) k0: u32,
    pub(crate) len: u32,
    /// Bit `i`: pixel `k0 + i` is opaque (and its value has a colour).
    pub(crate) bits: u64,
    pub(crate) vals: [u32; CHUNK],
}

impl Chunk {
    pub(crate) const fn new() -> Self {
        Self { k0: 0, len: 0, bits: 0, vals: [0; CHUNK] }
    }

    /// Whether pixel `k` is in the chunk.
    #[inline]
    pub(crate) fn covers(&self, k: u32) -> bool {
        k >= self.k0 && k - self.k0 < self.len
    }

    /// The stored value of pixel `k` if it is in the chunk and opaque.
    #[inline]
    pub(crate) fn get(&self, k: u32) -> Option<u32> {
        let i = k.checked_sub(self.k0).filter(|&i| i < self.len)?;
        if self.bits >> i & 1 == 0 {
            return None;
        }
        self.vals.get(usize::try_from(i).ok()?).copied()
    }
}

/// Source positions along a destination row in fixed point: pixel `k` samples source pixel
/// `((x0 + k·dx) >> shift) − ox`, `((y0 + k·dy) >> shift) − oy` (the integer blit uses `shift` 0,
/// the affine blit 17).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pos {
    pub(crate) x0: i64,
    pub(crate) y0: i64,
    pub(crate) dx: i64,
    pub(crate) dy: i64,
    pub(crate) shift: u32,
    pub(crate) ox: i64,
    pub(crate) oy: i64,
}

impl Pos {
    #[inline]
    fn coord(start: i64, step: i64, k: u32, shift: u32, origin: i64) -> Option<u16> {
        let v = start.saturating_add(step.saturating_mul(i64::from(k))) >> (shift & 63);
        u16::try_from(v.saturating_sub(origin)).ok()
    }

    /// The raw positions `(x0 + k·dx, y0 + k·dy)` of pixel `k`, to step from.
    #[inline]
    fn start(&self, k: u32) -> (i64, i64) {
        let k = i64::from(k);
        (self.x0.saturating_add(self.dx.saturating_mul(k)), self.y0.saturating_add(self.dy.saturating_mul(k)))
    }

    /// The source pixel at raw positions `(px, py)`.
    #[inline]
    fn pixel(&self, px: i64, py: i64) -> Option<(u16, u16)> {
        let x = u16::try_from((px >> (self.shift & 63)).saturating_sub(self.ox)).ok()?;
        let y = u16::try_from((py >> (self.shift & 63)).saturating_sub(self.oy)).ok()?;
        Some((x, y))
    }

    #[inline]
    fn x(&self, k: u32) -> Option<u16> {
        Self::coord(self.x0, self.dx, k, self.shift, self.ox)
    }

    #[inline]
    fn y(&self, k: u32) -> Option<u16> {
        Self::coord(self.y0, self.dy, k, self.shift, self.oy)
    }
}

/// Which source pixels one destination row shows.
pub(crate) enum Sampler {
    /// A raw frame, by position.
    Raw(Pos),
    /// Row `sy` of an RLE frame along its stream: pixel `k` is column `first + k` (forward) or
    /// `first − k` (mirrored).
    RleRow { sy: u16, first: u16, forward: bool, cursor: RleCursor },
    /// An RLE frame by position (a turned or affine row): each pixel walks its row's stream,
    /// continuing from the previous read when it is further right on the same row.
    RleAt { pos: Pos, cursor: RleCursor },
}

impl Sampler {
    /// Decodes pixels `k0 .. k0 + count` (`count` ≤ [`CHUNK`]) into `out`; values at or above
    /// `limit` (indices beyond the palette) count as transparent.
    pub(crate) fn decode(&mut self, src: &Source<'_>, limit: u32, k0: u32, count: u32, out: &mut Chunk) {
        let count = count.min(CHUNK as u32);
        out.k0 = k0;
        out.len = count;
        let n = count as usize;
        out.bits = 0;
        let Some(vals) = out.vals.get_mut(..n).filter(|v| !v.is_empty()) else { return };
        let mut bits = match self {
            Sampler::Raw(pos) => {
                let bits = by_format!(src.format, F => decode_raw::<F>(src, pos, k0, vals));
                raw_transparency(src, pos, k0, vals, bits)
            }
            Sampler::RleRow { sy, first, forward, cursor } => {
                if *forward {
                    match u16::try_from(k0).ok().and_then(|k| first.checked_add(k)) {
                        Some(c0) => cursor.read(src, *sy, c0, vals),
                        None => 0,
                    }
                } else {
                    // Columns first − k0 − count + 1 ..= first − k0, read forward, then reversed.
                    let c0 = u16::try_from(k0.saturating_add(count - 1)).ok().and_then(|k| first.checked_sub(k));
                    match c0 {
                        Some(c0) => {
                            let bits = cursor.read(src, *sy, c0, vals);
                            vals.reverse();
                            bits.reverse_bits() >> (64 - count)
                        }
                        None => 0,
                    }
                }
            }
            Sampler::RleAt { pos, cursor } => {
                let mut bits = 0u64;
                let (mut px, mut py) = pos.start(k0);
                for (i, slot) in vals.iter_mut().enumerate() {
                    if let Some((sx, sy)) = pos.pixel(px, py) {
                        if let Some(v) = cursor.get(src, sx, sy) {
                            *slot = v;
                            bits |= 1 << i;
                        }
                    }
                    px = px.saturating_add(pos.dx);
                    py = py.saturating_add(pos.dy);
                }
                bits
            }
        };
        if limit != u32::MAX {
            for (i, v) in vals.iter().enumerate() {
                if *v >= limit {
                    bits &= !(1 << i);
                }
            }
        }
        out.bits = bits;
    }
}

/// Decodes raw pixel values by position (one copy per format, kept small: the mask and the key
/// are applied afterwards by [`raw_transparency`]); returns the bits of pixels whose bytes exist.
fn decode_raw<F: RawFormat>(src: &Source<'_>, pos: &Pos, k0: u32, vals: &mut [u32]) -> u64 {
    let last = k0.saturating_add(vals.len() as u32).saturating_sub(1);
    if let (0, 0, 1 | -1, Some(xa), Some(_), Some(sy)) = (pos.shift, pos.dy, pos.dx, pos.x(k0), pos.x(last), pos.y(k0))
    {
        // The integer blit along a source row: whole pixels, both ends inside the image.
        return F::run(src.raw_row(sy), usize::from(xa), pos.dx == 1, vals);
    }
    // Any direction: each pixel finds its row.
    let mut bits = 0u64;
    let (mut px, mut py) = pos.start(k0);
    let stride = src.stride();
    for (i, slot) in vals.iter_mut().enumerate() {
        if let Some((x, y)) = pos.pixel(px, py) {
            let row = usize::from(y).checked_mul(stride).and_then(|at| src.data.get(at..));
            if let Some(v) = row.and_then(|row| F::get(row, usize::from(x))) {
                *slot = v;
                bits |= 1 << i;
            }
        }
        px = px.saturating_add(pos.dx);
        py = py.saturating_add(pos.dy);
    }
    bits
}

/// Clears the bits of raw pixels that the mask or the colour key make transparent.
fn raw_transparency(src: &Source<'_>, pos: &Pos, k0: u32, vals: &[u32], mut bits: u64) -> u64 {
    if src.mask_row(0).is_some() {
        let (mut px, mut py) = pos.start(k0);
        for i in 0..vals.len() {
            let opaque = pos.pixel(px, py).and_then(|(x, y)| {
                let m = src.mask_row(y)?;
                let x = usize::from(x);
                Some(m.get(x >> 3)? >> (7 - (x & 7)) & 1 == 1)
            });
            if opaque != Some(true) {
                bits &= !(1 << i);
            }
            px = px.saturating_add(pos.dx);
            py = py.saturating_add(pos.dy);
        }
    }
    if let Some(key) = src.key() {
        for (i, v) in vals.iter().enumerate() {
            if *v == key {
                bits &= !(1 << i);
            }
        }
    }
    bits
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
    let n = usize::from(src.w).min(out.len());
    let mut sampler = if src.rle {
        Sampler::RleRow { sy, first: 0, forward: true, cursor: RleCursor::default() }
    } else {
        Sampler::Raw(Pos { x0: 0, y0: i64::from(sy), dx: 1, dy: 0, shift: 0, ox: 0, oy: 0 })
    };
    let mut chunk = Chunk::new();
    let mut k0 = 0u32;
    for slots in out.get_mut(..n).unwrap_or(&mut []).chunks_mut(CHUNK) {
        sampler.decode(&src, u32::MAX, k0, slots.len() as u32, &mut chunk);
        for (i, slot) in slots.iter_mut().enumerate() {
            *slot = chunk.get(k0.saturating_add(i as u32));
        }
        k0 = k0.saturating_add(CHUNK as u32);
    }
    n
}
