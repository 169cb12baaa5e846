//! The affine blit: any 2×3 transform, destination-driven, nearest sampling in Q16.16 integers.

use super::blit::rect_of;
use super::color::{Colors, SpriteColor};
use super::pixels::{RleCursor, Source};
use super::span::{random_row, Line};
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
    let (x0, y0, x1, y1) = (bx0.max(cx0), by0.max(cy0), bx1.min(cx1), by1.min(cy1));
    let src = Source::new(frame);
    let colors = Colors::new(frame.format, frame.palette, palette);
    let all_opaque = src.raw_complete() && colors.all_valid();
    let (fx, fy) = (i64::from(frame.x), i64::from(frame.y));
    let (bx, by) = (2 * q.m00, 2 * q.m10);
    let mut cursor = RleCursor::default();
    let mut touched: Option<(i64, i64, i64, i64)> = None;
    for dy in y0..y1 {
        let Ok(y) = i32::try_from(dy) else { break };
        let row = 2 * i128::from(dy) + 1;
        let ax = q.m00 + q.m01 * row + 2 * q.tx;
        let ay = q.m10 + q.m11 * row + 2 * q.ty;
        let (Some(rx), Some(ry)) = (solve(ax, bx, q.lx, q.hx), solve(ay, by, q.ly, q.hy)) else { continue };
        let lo = rx.0.max(ry.0).max(i128::from(x0));
        let hi = rx.1.min(ry.1).min(i128::from(x1) - 1);
        let (Ok(lo), Ok(hi)) = (i64::try_from(lo), i64::try_from(hi)) else { continue };
        if lo > hi {
            continue;
        }
        let Ok(n) = u32::try_from(hi - lo + 1) else { continue };
        // Inside [lx, hx] × [ly, hy]: both fit an i64 (|frame position| < 2¹⁶, so < 2³⁴).
        let (Ok(px0), Ok(py0)) = (i64::try_from(ax + bx * i128::from(lo)), i64::try_from(ay + by * i128::from(lo)))
        else {
            continue;
        };
        let (Ok(sbx), Ok(sby)) = (i64::try_from(bx), i64::try_from(by)) else { continue };
        let sample = |k: u32| {
            let k = i64::from(k);
            let sx = u16::try_from((px0.saturating_add(sbx.saturating_mul(k)) >> FRAC) - fx).ok()?;
            let sy = u16::try_from((py0.saturating_add(sby.saturating_mul(k)) >> FRAC) - fy).ok()?;
            src.opaque(&mut cursor, sx, sy)
        };
        let line = Line { y, x0: lo, x1: hi + 1, base: lo, s: 1 };
        random_row(target, &line, n, &colors, all_opaque, sample).map_err(DrawError::Target)?;
        touched = Some(match touched {
            None => (lo, dy, hi + 1, dy + 1),
            Some((a, b, c, _)) => (a.min(lo), b, c.max(hi + 1), dy + 1),
        });
    }
    Ok(touched.map_or(Rect::default(), |(a, b, c, d)| rect_of(a, b, c, d)))
}
