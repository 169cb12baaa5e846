//! The integer blit: flips, quarter turns and integer scales, destination-driven and clipped.

use super::color::{Colors, SpriteColor};
use super::pixels::{RleCursor, Source};
use super::sample::{Chunk, Pos, Sampler};
use super::span::{draw_row, Line};
use super::{clip_of, DrawError, DrawOptions, MAX_SCALE};
use crate::sprite::{Rect, Rotation};
use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::Point;
use ossicle_format::sprite::FramePixels;

/// Where a frame lands on screen and how destination pixels map back to source pixels.
///
/// The image covers the destination rectangle `(x, y, w, h)`; destination pixel `(dx, dy)` in it
/// shows the source pixel of image-local rotated coordinates `u = (dx − x) / s`,
/// `v = (dy − y) / s`, which is `sx = ox + ux·u + vx·v`, `sy = oy + uy·u + vy·v`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    pub(crate) x: i64,
    pub(crate) y: i64,
    pub(crate) w: i64,
    pub(crate) h: i64,
    s: i64,
    ox: i64,
    oy: i64,
    ux: i64,
    vx: i64,
    uy: i64,
    vy: i64,
}

/// An integer affine map `(sx, sy) → (a·sx + b·sy + c, d·sx + e·sy + f)` whose linear part is a
/// signed permutation (a flip or quarter turn), so its inverse is its transpose.
#[derive(Clone, Copy)]
struct Dihedral {
    a: i64,
    b: i64,
    c: i64,
    d: i64,
    e: i64,
    f: i64,
}

impl Dihedral {
    fn map(&self, sx: i64, sy: i64) -> (i64, i64) {
        (self.a * sx + self.b * sy + self.c, self.d * sx + self.e * sy + self.f)
    }

    /// `(n − 1) − row 0`: mirrors x in a span of `n`.
    fn mirror_x(self, n: i64) -> Self {
        Self { a: -self.a, b: -self.b, c: n - 1 - self.c, ..self }
    }

    fn mirror_y(self, n: i64) -> Self {
        Self { d: -self.d, e: -self.e, f: n - 1 - self.f, ..self }
    }

    /// Swaps the rows (x ↔ y).
    fn transpose(self) -> Self {
        Self { a: self.d, b: self.e, c: self.f, d: self.a, e: self.b, f: self.c }
    }
}

impl Placement {
    /// The placement of `frame` with its canvas's top-left at `at`; `None` for an invalid scale
    /// or an empty frame.
    pub(crate) fn new<C>(frame: &FramePixels<'_>, at: Point, opts: &DrawOptions<'_, C>) -> Option<Self> {
        if opts.scale == 0 || opts.scale > MAX_SCALE || frame.width == 0 || frame.height == 0 {
            return None;
        }
        let (fx, fy) = (i64::from(frame.x), i64::from(frame.y));
        let (w, h) = (i64::from(frame.width), i64::from(frame.height));
        let (cw, ch) = match opts.canvas {
            Some((cw, ch)) => (i64::from(cw), i64::from(ch)),
            None => (fx + w, fy + h),
        };
        // Stored pixel → canvas → flipped canvas → rotated canvas (clockwise on screen).
        let mut m = Dihedral { a: 1, b: 0, c: fx, d: 0, e: 1, f: fy };
        if opts.flip_h {
            m = m.mirror_x(cw);
        }
        if opts.flip_v {
            m = m.mirror_y(ch);
        }
        m = match opts.rotation {
            Rotation::Deg0 => m,
            // (x, y) → (H − 1 − y, x)
            Rotation::Deg90 => m.mirror_y(ch).transpose(),
            Rotation::Deg180 => m.mirror_x(cw).mirror_y(ch),
            // (x, y) → (y, W − 1 − x)
            Rotation::Deg270 => m.transpose().mirror_y(cw),
        };
        let corners = [m.map(0, 0), m.map(w - 1, 0), m.map(0, h - 1), m.map(w - 1, h - 1)];
        let rx0 = corners.iter().map(|p| p.0).min().unwrap_or(0);
        let ry0 = corners.iter().map(|p| p.1).min().unwrap_or(0);
        let (rw, rh) = if m.a != 0 { (w, h) } else { (h, w) };
        let s = i64::from(opts.scale);
        // The inverse is the transpose: sx = a·(rx − c) + d·(ry − f), sy = b·(rx − c) + e·(ry − f).
        let (px, py) = (rx0 - m.c, ry0 - m.f);
        Some(Self {
            x: i64::from(at.x) + rx0 * s,
            y: i64::from(at.y) + ry0 * s,
            w: rw * s,
            h: rh * s,
            s,
            ox: m.a * px + m.d * py,
            oy: m.b * px + m.e * py,
            ux: m.a,
            vx: m.d,
            uy: m.b,
            vy: m.e,
        })
    }

    /// The destination rectangle, saturated into a [`Rect`].
    pub(crate) fn rect(&self) -> Rect {
        rect_of(self.x, self.y, self.x + self.w, self.y + self.h)
    }
}

/// The rectangle with edges `[x0, x1) × [y0, y1)`, saturated into a [`Rect`].
pub(crate) fn rect_of(x0: i64, y0: i64, x1: i64, y1: i64) -> Rect {
    let sat_i32 = |v: i64| i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX });
    let (x, y) = (sat_i32(x0), sat_i32(y0));
    let size = |lo: i32, hi: i64| u32::try_from(hi.saturating_sub(i64::from(lo)).max(0)).unwrap_or(u32::MAX);
    Rect { x, y, w: size(x, x1), h: size(y, y1) }
}

/// `a / s` for `s ≥ 1` (0 if `s` were 0), without a panic path.
#[inline]
fn div(a: i64, s: i64) -> i64 {
    a.checked_div(s).unwrap_or(0)
}

/// The visible part of a placement: destination rows and columns, and the source pixels along
/// each row.
struct Visible {
    p: Placement,
    x0: i64,
    x1: i64,
    u_lo: i64,
}

/// One visible destination row: its [`Line`], the source pixel of its first visible block and
/// the source step per block.
struct Row {
    line: Line,
    sx0: i64,
    sy0: i64,
    dsx: i64,
    dsy: i64,
}

impl Visible {
    fn row(&self, dy: i64) -> Option<Row> {
        let p = &self.p;
        let y = i32::try_from(dy).ok()?;
        let v = div(dy - p.y, p.s);
        Some(Row {
            line: Line { y, x0: self.x0, x1: self.x1, base: p.x + self.u_lo * p.s, s: p.s },
            sx0: p.ox + p.ux * self.u_lo + p.vx * v,
            sy0: p.oy + p.uy * self.u_lo + p.vy * v,
            dsx: p.ux,
            dsy: p.uy,
        })
    }
}

pub(crate) fn draw<D>(
    target: &mut D,
    frame: &FramePixels<'_>,
    at: Point,
    opts: &DrawOptions<'_, D::Color>,
) -> Result<Rect, DrawError<D::Error>>
where
    D: DrawTarget + ?Sized,
    D::Color: SpriteColor,
{
    if opts.scale == 0 || opts.scale > MAX_SCALE {
        return Err(DrawError::InvalidScale(opts.scale));
    }
    let Some(p) = Placement::new(frame, at, opts) else { return Ok(Rect::default()) };
    let (cx0, cy0, cx1, cy1) = clip_of(&target.bounding_box());
    let (vx0, vy0) = (p.x.max(cx0), p.y.max(cy0));
    let (vx1, vy1) = ((p.x + p.w).min(cx1), (p.y + p.h).min(cy1));
    if vx0 >= vx1 || vy0 >= vy1 {
        return Ok(Rect::default());
    }
    let u_lo = div(vx0 - p.x, p.s);
    let u_hi = div(vx1 - 1 - p.x, p.s);
    let Ok(n) = u32::try_from(u_hi - u_lo + 1) else { return Ok(Rect::default()) };
    let vis = Visible { p, x0: vx0, x1: vx1, u_lo };
    let src = Source::new(frame);
    let colors = Colors::new(frame.format, frame.palette, opts.palette);
    let all_opaque = src.raw_complete() && colors.all_valid();
    let mut chunk = Chunk::new();
    for dy in vy0..vy1 {
        let Some(r) = vis.row(dy) else { break };
        let mut sampler = if src.rle && r.dsy == 0 {
            // A source row, walked along its stream (mirrored when dsx = −1).
            let (Ok(sy), Ok(first)) = (u16::try_from(r.sy0), u16::try_from(r.sx0)) else { continue };
            Sampler::RleRow { sy, first, forward: r.dsx > 0, cursor: RleCursor::default() }
        } else {
            let pos = Pos { x0: r.sx0, y0: r.sy0, dx: r.dsx, dy: r.dsy, shift: 0, ox: 0, oy: 0 };
            if src.rle {
                Sampler::RleAt { pos, cursor: RleCursor::default() }
            } else {
                Sampler::Raw(pos)
            }
        };
        draw_row(target, &r.line, n, all_opaque, &mut sampler, &src, &colors, &mut chunk).map_err(DrawError::Target)?;
    }
    Ok(rect_of(vx0, vy0, vx1, vy1))
}
