//! Emitting one destination row: opaque runs become `fill_contiguous` (or `fill_solid`) calls.

use super::color::{Colors, SpriteColor};
use super::pixels::Source;
use super::sample::{Chunk, Sampler, CHUNK};
use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{Point, Size};
use embedded_graphics_core::primitives::Rectangle;

/// One destination row being drawn: the visible columns `[x0, x1)` and the blocks of the source
/// pixels along it. Source pixel `k` (from 0) covers destination columns
/// `[base + k·s, base + (k + 1)·s)`, cut to the visible columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    pub(crate) y: i32,
    pub(crate) x0: i64,
    pub(crate) x1: i64,
    pub(crate) base: i64,
    pub(crate) s: i64,
}

impl Line {
    #[inline]
    fn start(&self, k: u32) -> i64 {
        self.base.saturating_add(i64::from(k).saturating_mul(self.s)).max(self.x0)
    }

    #[inline]
    fn end(&self, k: u32) -> i64 {
        self.base.saturating_add((i64::from(k) + 1).saturating_mul(self.s)).min(self.x1)
    }

    /// The destination span of source pixels `k0..k1` (`None` if empty).
    fn area(&self, k0: u32, k1: u32) -> Option<Rectangle> {
        let xs = self.start(k0);
        let xe = self.end(k1.checked_sub(1)?);
        let x = i32::try_from(xs).ok()?;
        let w = u32::try_from(xe.saturating_sub(xs)).ok().filter(|&w| w > 0)?;
        Some(Rectangle::new(Point::new(x, self.y), Size::new(w, 1)))
    }
}

/// Colours a span produces at a time into [`Chunks`]' buffer.
const COLORS: usize = 32;

/// A span's colours, produced [`COLORS`] at a time by a decoder behind `dyn`, so that a target's
/// `fill_contiguous` is compiled once, and the indirect call is paid once per chunk, not per
/// pixel.
struct Chunks<'p, C> {
    produce: &'p mut dyn FnMut(&mut [C]) -> usize,
    buf: [C; COLORS],
    len: usize,
    i: usize,
}

impl<C: Copy> Iterator for Chunks<'_, C> {
    type Item = C;

    #[inline]
    fn next(&mut self) -> Option<C> {
        if self.i >= self.len {
            self.len = (self.produce)(&mut self.buf);
            self.i = 0;
            if self.len == 0 {
                return None;
            }
        }
        let c = *self.buf.get(self.i)?;
        self.i += 1;
        Some(c)
    }
}

/// Hands one span to the target (not inlined: one copy per target type).
#[inline(never)]
fn emit<D>(
    target: &mut D,
    area: &Rectangle,
    first: D::Color,
    produce: &mut dyn FnMut(&mut [D::Color]) -> usize,
) -> Result<(), D::Error>
where
    D: DrawTarget + ?Sized,
{
    target.fill_contiguous(area, Chunks { produce, buf: [first; COLORS], len: 0, i: 0 })
}

/// Draws one destination row: source pixels `0..n` of `line`, as `sampler` decodes them. Each
/// run of opaque pixels becomes one call: `fill_solid` when all its stored values are equal,
/// `fill_contiguous` otherwise. A run is found by decoding chunks until it ends; its colours are
/// then produced from the chunk still decoded when the run lies in it (rows of up to 64 source
/// pixels are decoded once), else by decoding again from the run's start. `all_opaque` (a raw
/// frame without transparency and with a full palette) skips the search: the row is one run.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_row<D>(
    target: &mut D,
    line: &Line,
    n: u32,
    all_opaque: bool,
    sampler: &mut Sampler,
    src: &Source<'_>,
    colors: &Colors<'_, D::Color>,
    chunk: &mut Chunk,
) -> Result<(), D::Error>
where
    D: DrawTarget + ?Sized,
    D::Color: SpriteColor,
{
    let limit = colors.limit();
    let step = |k: u32| (n - k).min(CHUNK as u32);
    chunk.len = 0;
    let mut k = 0;
    while k < n {
        let (start, same) = if all_opaque {
            k = n;
            (0, None)
        } else {
            if !chunk.covers(k) {
                sampler.decode(src, limit, k, step(k), chunk);
            }
            let i = k - chunk.k0;
            let gap = (chunk.bits >> i).trailing_zeros().min(chunk.len - i);
            if gap > 0 {
                k += gap;
                continue;
            }
            // An opaque run starts at k: follow it across chunks.
            let (start, first) = (k, chunk.get(k));
            let mut same = true;
            loop {
                let i = k - chunk.k0;
                let left = chunk.len - i;
                let run = (chunk.bits >> i).trailing_ones().min(left);
                let (a, b) = (i as usize, (i + run) as usize);
                same = same && chunk.vals.get(a..b).is_some_and(|v| v.iter().all(|&v| Some(v) == first));
                k += run;
                if run < left || k >= n {
                    break;
                }
                sampler.decode(src, limit, k, step(k), chunk);
            }
            (start, first.filter(|_| same))
        };
        let Some(area) = line.area(start, k) else { continue };
        if let Some(v) = same {
            if let Some(c) = colors.color(v) {
                target.fill_solid(&area, c)?;
            }
            continue;
        }
        // The colours, decoding again where the chunk does not hold them.
        if !chunk.covers(start) {
            sampler.decode(src, limit, start, step(start), chunk);
        }
        let Some(first) = chunk.get(start).and_then(|v| colors.color(v)) else { continue };
        let end = k;
        let mut j = start;
        if line.s == 1 {
            // Whole stretches of the chunk at a time.
            let mut produce = |out: &mut [D::Color]| {
                let mut m = 0;
                while m < out.len() && j < end {
                    if !chunk.covers(j) {
                        sampler.decode(src, limit, j, step(j), chunk);
                    }
                    let i = (j - chunk.k0) as usize;
                    let take = (chunk.len - (j - chunk.k0)).min(end - j) as usize;
                    let take = take.min(out.len() - m);
                    match (chunk.vals.get(i..i + take), out.get_mut(m..m + take)) {
                        (Some(v), Some(o)) if take > 0 => colors.convert(v, o),
                        _ => break,
                    }
                    j += take as u32;
                    m += take;
                }
                m
            };
            emit(target, &area, first, &mut produce)?;
            continue;
        }
        let mut color_of = |j: u32| {
            if !chunk.covers(j) {
                sampler.decode(src, limit, j, step(j), chunk);
            }
            chunk.get(j).and_then(|v| colors.color(v))
        };
        let mut cur = first;
        let mut left = line.end(start).saturating_sub(line.start(start));
        let mut produce = |out: &mut [D::Color]| {
            let mut m = 0;
            for slot in out.iter_mut() {
                if left <= 0 {
                    j += 1;
                    if j >= end {
                        break;
                    }
                    match color_of(j) {
                        Some(c) => cur = c,
                        None => break,
                    }
                    left = line.end(j).saturating_sub(line.start(j));
                }
                *slot = cur;
                left -= 1;
                m += 1;
            }
            m
        };
        emit(target, &area, first, &mut produce)?;
    }
    Ok(())
}
