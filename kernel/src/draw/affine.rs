//! The affine blit: any 2×3 transform, destination-driven, nearest sampling in Q16.16 integers.

use super::blit::rect_of;
use super::color::{Colors, SpriteColor};
use super::pixels::{RleCursor, Source};
use super::sample::{Chunk, Pos, Sampler};
use super::span::{draw_row, Line};
use super::{clip_of, DrawError};
use crate::math::Affine2;
use crate::sprite::Rect;
use crate::Scalar;
use embedded_graphics_core::draw_target::DrawTarget;
use ossicle_format::sprite::FramePixels;

/// Fraction bits of sample positions: Q16.16 coefficients times doubled destination coordinates
/// (`2·dx + 1`, the pixel centre) give positions in units of 2⁻¹⁷.
const FRAC: u32 = 17;

/// The inverse of a transform in Q16.16 (raw `i32` bits widened), and the stored image's place in
/// the canvas in units of 2⁻¹⁷.
#[derive(Clone, Copy, Debug)]
struct Inverse {
    m00: i128,
    m01: i128,
    m10: i128,
    m11: i128,
    tx: i128,
    ty: i128,
    /// The image: `[lx, hx] × [ly, hy]` (inclusive) in 2⁻¹⁷ canvas units.
    lx: i128,
    hx: i128,
    ly: i128,
    hy: i128,
}

#[inline(never)] // i128 division is long on 32-bit targets: one copy
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a.checked_div(b).unwrap_or(0);
    let r = a.checked_rem(b).unwrap_or(0);
    if r != 0 && ((r < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    floor_div(a.saturating_neg(), b).saturating_neg()
}

/// The integers `x` with `lo ≤ a + b·x ≤ hi` (`None` if there are none; unbounded ends are
/// `i64::MIN`/`i64::MAX`).
#[inline(never)]
fn solve(a: i128, b: i128, lo: i128, hi: i128) -> Option<(i128, i128)> {
    let r = match b {
        0 => (lo <= a && a <= hi).then_some((i128::from(i64::MIN), i128::from(i64::MAX)))?,
        b if b > 0 => (ceil_div(lo - a, b), floor_div(hi - a, b)),
        b => (ceil_div(hi - a, b), floor_div(lo - a, b)),
    };
    (r.0 <= r.1).then_some(r)
}

impl Inverse {
    fn new<S: Scalar>(frame: &FramePixels<'_>, t: &Affine2<S>) -> Option<Self> {
        let inv = t.inverse()?;
        let q = |v: S| i128::from(v.to_q16_bits());
        let (fx, fy) = (i128::from(frame.x), i128::from(frame.y));
        let (w, h) = (i128::from(frame.width), i128::from(frame.height));
        Some(Self {
            m00: q(inv.x_axis.x),
            m10: q(inv.x_axis.y),
            m01: q(inv.y_axis.x),
            m11: q(inv.y_axis.y),
            tx: q(inv.translation.x),
            ty: q(inv.translation.y),
            lx: fx << FRAC,
            hx: ((fx + w) << FRAC) - 1,
            ly: fy << FRAC,
            hy: ((fy + h) << FRAC) - 1,
        })
    }

    /// The destination box `[x0, x1) × [y0, y1)` holding every pixel whose centre samples inside
    /// the image, from the quantised inverse (`None` when it is singular).
    fn bounds(&self) -> Option<(i64, i64, i64, i64)> {
        let det = self.m00 * self.m11 - self.m01 * self.m10;
        if det == 0 {
            return None;
        }
        // Canvas corner p (2⁻¹⁶ units: p·2¹⁶ − t) mapped back by the adjugate, over det: the
        // destination corner in whole pixels as a fraction.
        let (mut x0, mut y0, mut x1, mut y1) = (i128::MAX, i128::MAX, i128::MIN, i128::MIN);
        for px in [self.lx, self.hx + 1] {
            for py in [self.ly, self.hy + 1] {
                let (ux, uy) = ((px >> 1) - self.tx, (py >> 1) - self.ty);
                let nx = self.m11 * ux - self.m01 * uy;
                let ny = self.m00 * uy - self.m10 * ux;
                x0 = x0.min(floor_div(nx, det));
                x1 = x1.max(ceil_div(nx, det));
                y0 = y0.min(floor_div(ny, det));
                y1 = y1.max(ceil_div(ny, det));
            }
        }
        let c = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
        Some((c(x0), c(y0), c(x1), c(y1)))
    }
}

/// The destination rectangle an affine draw of `frame` may touch (unclipped, saturated), or
/// `None` when the transform is singular or the frame empty. It holds every pixel whose centre
/// samples inside the stored image, and is at most one pixel larger on each side.
pub fn affine_bounds<S: Scalar>(frame: &FramePixels<'_>, transform: &Affine2<S>) -> Option<Rect> {
    if frame.width == 0 || frame.height == 0 {
        return None;
    }
    let (x0, y0, x1, y1) = Inverse::new(frame, transform)?.bounds()?;
    Some(rect_of(x0, y0, x1, y1))
}

/// One destination row of an affine draw: the span of pixels that sample inside the image, and
/// the sample position of its first pixel and its step, in 2⁻¹⁷ canvas units.
struct Row {
    line: Line,
    n: u32,
    px0: i64,
    py0: i64,
    bx: i64,
    by: i64,
}

impl Inverse {
    /// Row `dy`: the pixels in `[x0, x1)` whose centres sample inside the image.
    fn row(&self, dy: i64, x0: i64, x1: i64) -> Option<Row> {
        let y = i32::try_from(dy).ok()?;
        let (bx, by) = (2 * self.m00, 2 * self.m10);
        let row = 2 * i128::from(dy) + 1;
        let ax = self.m00 + self.m01 * row + 2 * self.tx;
        let ay = self.m10 + self.m11 * row + 2 * self.ty;
        let rx = solve(ax, bx, self.lx, self.hx)?;
        let ry = solve(ay, by, self.ly, self.hy)?;
        let lo = i64::try_from(rx.0.max(ry.0).max(i128::from(x0))).ok()?;
        let hi = i64::try_from(rx.1.min(ry.1).min(i128::from(x1) - 1)).ok()?;
        if lo > hi {
            return None;
        }
        let n = u32::try_from(hi - lo + 1).ok()?;
        // Inside [lx, hx] × [ly, hy]: both fit an i64 (|frame position| < 2¹⁶, so < 2³⁴).
        let px0 = i64::try_from(ax + bx * i128::from(lo)).ok()?;
        let py0 = i64::try_from(ay + by * i128::from(lo)).ok()?;
        let (bx, by) = (i64::try_from(bx).ok()?, i64::try_from(by).ok()?);
        Some(Row { line: Line { y, x0: lo, x1: hi + 1, base: lo, s: 1 }, n, px0, py0, bx, by })
    }
}

pub(crate) fn draw<D, S>(
    target: &mut D,
    frame: &FramePixels<'_>,
    transform: &Affine2<S>,
    palette: Option<&[D::Color]>,
) -> Result<Rect, DrawError<D::Error>>
where
    D: DrawTarget + ?Sized,
    D::Color: SpriteColor,
    S: Scalar,
{
    if frame.width == 0 || frame.height == 0 {
        return Ok(Rect::default());
    }
    let Some(q) = Inverse::new(frame, transform) else { return Ok(Rect::default()) };
    let Some((bx0, by0, bx1, by1)) = q.bounds() else { return Ok(Rect::default()) };
    let (cx0, cy0, cx1, cy1) = clip_of(&target.bounding_box());
    let clip = (bx0.max(cx0), by0.max(cy0), bx1.min(cx1), by1.min(cy1));
    let (x0, y0, x1, y1) = clip;
    let src = Source::new(frame);
    let colors = Colors::new(frame.format, frame.palette, palette);
    let all_opaque = src.raw_complete() && colors.all_valid();
    let (fx, fy) = (i64::from(frame.x), i64::from(frame.y));
    let mut chunk = Chunk::new();
    let mut touched: Option<(i64, i64, i64, i64)> = None;
    for dy in y0..y1 {
        let Some(r) = q.row(dy, x0, x1) else { continue };
        let pos = Pos { x0: r.px0, y0: r.py0, dx: r.bx, dy: r.by, shift: FRAC, ox: fx, oy: fy };
        let mut sampler =
            if src.rle { Sampler::RleAt { pos, cursor: RleCursor::default() } } else { Sampler::Raw(pos) };
        draw_row(target, &r.line, r.n, all_opaque, &mut sampler, &src, &colors, &mut chunk)
            .map_err(DrawError::Target)?;
        let (lo, hi) = (r.line.x0, r.line.x1);
        touched = Some(match touched {
            None => (lo, dy, hi, dy + 1),
            Some((a, b, c, _)) => (a.min(lo), b, c.max(hi), dy + 1),
        });
    }
    Ok(touched.map_or(Rect::default(), |(a, b, c, d)| rect_of(a, b, c, d)))
}
