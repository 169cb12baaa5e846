//! Emitting one destination row: opaque runs become `fill_contiguous` (or `fill_solid`) calls.

use super::color::{Colors, SpriteColor};
use super::pixels::{RleRow, Seg, Source};
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

/// Repeats each colour of `inner` over its source pixel's block width.
struct Widen<I, C> {
    inner: I,
    line: Line,
    k: u32,
    cur: Option<C>,
    left: i64,
}

impl<I: Iterator<Item = C>, C: Copy> Iterator for Widen<I, C> {
    type Item = C;

    #[inline]
    fn next(&mut self) -> Option<C> {
        while self.left <= 0 {
            self.cur = Some(self.inner.next()?);
            self.left = self.line.end(self.k).saturating_sub(self.line.start(self.k));
            self.k = self.k.saturating_add(1);
        }
        self.left -= 1;
        self.cur
    }
}

/// Draws source pixels `k0..k1` of `line` (all opaque) with `colors` (one per source pixel).
#[inline]
pub(crate) fn fill<D, I>(target: &mut D, line: &Line, k0: u32, k1: u32, colors: I) -> Result<(), D::Error>
where
    D: DrawTarget + ?Sized,
    I: Iterator<Item = D::Color>,
{
    let Some(area) = line.area(k0, k1) else { return Ok(()) };
    if line.s == 1 {
        target.fill_contiguous(&area, colors)
    } else {
        target.fill_contiguous(&area, Widen { inner: colors, line: *line, k: k0, cur: None, left: 0 })
    }
}

/// Draws a row whose source pixels `0..n` are read by random access: `sample(k)` is the stored
/// value of pixel `k` if the mask/key leave it opaque, `valid` says whether a value has a colour,
/// `color` gives it. Each run of pixels with colours becomes one call; `all_opaque` (no
/// transparency possible) skips the scan for runs.
pub(crate) fn random_row<D>(
    target: &mut D,
    line: &Line,
    n: u32,
    all_opaque: bool,
    mut sample: impl FnMut(u32) -> Option<u32>,
    valid: impl Fn(u32) -> bool,
    color: impl Fn(u32) -> Option<D::Color>,
) -> Result<(), D::Error>
where
    D: DrawTarget + ?Sized,
{
    if all_opaque {
        return fill(target, line, 0, n, (0..n).filter_map(|k| sample(k).and_then(&color)));
    }
    let mut k = 0;
    while k < n {
        while k < n && !sample(k).is_some_and(&valid) {
            k += 1;
        }
        let k0 = k;
        while k < n && sample(k).is_some_and(&valid) {
            k += 1;
        }
        if k > k0 {
            fill(target, line, k0, k, (k0..k).filter_map(|j| sample(j).and_then(&color)))?;
        }
    }
    Ok(())
}

/// How many values a reversed RLE run decodes at a time (stack: 8 bytes each).
const REVERSE_CHUNK: usize = 16;

/// The stored values of `len` RLE pixels from `start`, last first: decoded `REVERSE_CHUNK` at a
/// time into a small buffer, each chunk by replaying the row from `start`.
struct Reversed<'s, 'a> {
    src: &'s Source<'a>,
    start: RleRow,
    /// Pixels not yet decoded (those before the buffer).
    todo: u16,
    buf: [Option<u32>; REVERSE_CHUNK],
    /// Values left in `buf` (`buf[..i]`, yielded from the back).
    i: usize,
}

impl Iterator for Reversed<'_, '_> {
    type Item = Option<u32>;

    fn next(&mut self) -> Option<Option<u32>> {
        if self.i == 0 {
            if self.todo == 0 {
                return None;
            }
            // REVERSE_CHUNK is 16: the conversions cannot fail.
            let chunk = self.todo.min(REVERSE_CHUNK as u16);
            self.todo -= chunk;
            let mut r = self.start;
            r.skip(self.src, self.todo);
            for slot in self.buf.iter_mut().take(usize::from(chunk)) {
                *slot = r.next(self.src);
            }
            self.i = usize::from(chunk);
        }
        self.i -= 1;
        self.buf.get(self.i).copied()
    }
}

/// Draws a row that reads source row `sy` of an RLE frame along its stream: source columns
/// `lo..lo + m` are visible; `forward` maps column `lo + j` to pixel `k = j` of `line`, else to
/// `k = m − 1 − j` (a mirrored row). Each opaque run becomes one call: `fill_solid` when it lies
/// in a single RLE run, `fill_contiguous` otherwise (a mirrored run replays its stream backwards in
/// chunks of 16 values).
#[allow(clippy::too_many_arguments)]
pub(crate) fn rle_row<D>(
    target: &mut D,
    src: &Source<'_>,
    line: &Line,
    sy: u16,
    lo: u16,
    m: u16,
    forward: bool,
    colors: &Colors<'_, D::Color>,
) -> Result<(), D::Error>
where
    D: DrawTarget + ?Sized,
    D::Color: SpriteColor,
{
    let valid = |v: u32| colors.valid(v);
    let mut row = RleRow::new(src, sy);
    row.skip(src, lo);
    let mut off: u16 = 0;
    while off < m {
        off = off.saturating_add(row.transparent_run(src, m - off, valid));
        if off >= m {
            break;
        }
        let start = row;
        let len = row.opaque_run(src, m - off, valid);
        if len == 0 {
            break; // cannot happen: the transparent run stopped before an opaque pixel
        }
        let (a, b) = (u32::from(off), u32::from(off) + u32::from(len));
        off = off.saturating_add(len);
        let (k0, k1) = if forward { (a, b) } else { (u32::from(m) - b, u32::from(m) - a) };
        if start.seg == Seg::Run && len <= start.left {
            if let (Some(area), Some(c)) = (line.area(k0, k1), start.run_value(src).and_then(|v| colors.color(v))) {
                target.fill_solid(&area, c)?;
            }
        } else if forward {
            let mut replay = start;
            let values = (0..len).map(move |_| replay.next(src));
            fill(target, line, k0, k1, values.filter_map(|v| v.and_then(|v| colors.color(v))))?;
        } else {
            let values = Reversed { src, start, todo: len, buf: [None; REVERSE_CHUNK], i: 0 };
            fill(target, line, k0, k1, values.filter_map(|v| v.and_then(|v| colors.color(v))))?;
        }
    }
    Ok(())
}
