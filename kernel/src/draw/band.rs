//! Band buffers: a draw target over a few rows of caller memory, and rendering a region band by
//! band so that no full framebuffer is needed.

use crate::sprite::{Rect, RectExt};
use core::convert::Infallible;
use core::fmt;
use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{Dimensions, Point, Size};
use embedded_graphics_core::pixelcolor::PixelColor;
use embedded_graphics_core::primitives::Rectangle;
use embedded_graphics_core::Pixel;

/// A [`BandBuffer`] was given a buffer shorter than `width × rows` pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BufferTooSmall {
    /// Pixels needed (`width × rows`, saturating).
    pub needed: u64,
    /// Pixels given.
    pub len: usize,
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "band buffer of {} pixels, {} needed", self.len, self.needed)
    }
}

/// A draw target over `width × rows` pixels of a caller's slice (row-major), covering the screen
/// rectangle `(origin.x, origin.y, width, rows)`. Moving the band ([`set_band`](Self::set_band))
/// reuses the same memory for other rows. Everything outside the band is clipped;
/// [`fill_contiguous`](DrawTarget::fill_contiguous) and [`fill_solid`](DrawTarget::fill_solid)
/// copy and fill row slices, and the blitter in this module, which clips to the
/// [`bounding_box`](Dimensions::bounding_box) first, spends nothing on rows outside the band.
///
/// With `rows` equal to the screen height it is a plain framebuffer.
///
/// Memory: the struct is a slice reference and four 32-bit fields (24 bytes on a 32-bit target);
/// the pixels are the caller's.
///
/// ```
/// use embedded_graphics_core::{draw_target::DrawTarget, pixelcolor::{Rgb565, RgbColor}};
/// use embedded_graphics_core::{geometry::{Point, Size}, primitives::Rectangle};
/// use ossicle::draw::BandBuffer;
/// let mut mem = [Rgb565::BLACK; 8 * 2];
/// let mut band = BandBuffer::new(&mut mem, 8, 2).unwrap();
/// band.set_band(10); // rows 10 and 11 of the screen
/// band.fill_solid(&Rectangle::new(Point::new(6, 9), Size::new(4, 2)), Rgb565::RED).unwrap();
/// assert_eq!(band.pixel(Point::new(6, 10)), Some(Rgb565::RED));
/// assert_eq!(band.pixel(Point::new(5, 10)), Some(Rgb565::BLACK));
/// assert_eq!(band.pixel(Point::new(6, 11)), Some(Rgb565::BLACK)); // the fill covered rows 9-10
/// assert_eq!(band.pixel(Point::new(6, 9)), None); // outside the band
/// ```
#[derive(Debug)]
pub struct BandBuffer<'b, C> {
    buf: &'b mut [C],
    width: u32,
    rows: u32,
    x0: i32,
    y0: i32,
}

impl<'b, C: PixelColor> BandBuffer<'b, C> {
    /// A band of `width × rows` pixels in `buf` (its first `width × rows` elements), at the
    /// screen origin.
    pub fn new(buf: &'b mut [C], width: u32, rows: u32) -> Result<Self, BufferTooSmall> {
        let needed = u64::from(width) * u64::from(rows);
        if usize::try_from(needed).map_or(true, |n| n > buf.len()) {
            return Err(BufferTooSmall { needed, len: buf.len() });
        }
        Ok(Self { buf, width, rows, x0: 0, y0: 0 })
    }

    /// Moves the band so that its first row is screen row `y0` (the pixels stay as they are).
    pub fn set_band(&mut self, y0: i32) {
        self.y0 = y0;
    }

    /// Moves the band so that its top-left pixel is the screen point `origin`.
    pub fn set_origin(&mut self, origin: Point) {
        self.x0 = origin.x;
        self.y0 = origin.y;
    }

    /// The screen point of the band's top-left pixel.
    pub fn origin(&self) -> Point {
        Point::new(self.x0, self.y0)
    }

    /// The band's width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The band's height in rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// The screen rectangle the band covers.
    pub fn rect(&self) -> Rect {
        Rect { x: self.x0, y: self.y0, w: self.width, h: self.rows }
    }

    /// The band's pixels, row-major (`width × rows` of them).
    pub fn pixels(&self) -> &[C] {
        let n = self.len();
        self.buf.get(..n).unwrap_or(&[])
    }

    /// The band's pixels, mutable.
    pub fn pixels_mut(&mut self) -> &mut [C] {
        let n = self.len();
        self.buf.get_mut(..n).unwrap_or(&mut [])
    }

    /// The pixel at screen point `p`, or `None` outside the band.
    pub fn pixel(&self, p: Point) -> Option<C> {
        self.index(i64::from(p.x), i64::from(p.y)).and_then(|i| self.buf.get(i)).copied()
    }

    fn len(&self) -> usize {
        // Checked in `new`.
        usize::try_from(u64::from(self.width) * u64::from(self.rows)).unwrap_or(0)
    }

    /// The buffer index of screen pixel `(x, y)` if it is in the band.
    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let (cx, cy) = (x - i64::from(self.x0), y - i64::from(self.y0));
        if cx < 0 || cy < 0 || cx >= i64::from(self.width) || cy >= i64::from(self.rows) {
            return None;
        }
        usize::try_from(cy * i64::from(self.width) + cx).ok()
    }

    /// The part of `area` inside the band: screen columns `[x0, x1)` and rows `[y0, y1)`.
    fn clip(&self, area: &Rectangle) -> Option<(i64, i64, i64, i64)> {
        let (ax, ay) = (i64::from(area.top_left.x), i64::from(area.top_left.y));
        let x0 = ax.max(i64::from(self.x0));
        let y0 = ay.max(i64::from(self.y0));
        let x1 = (ax + i64::from(area.size.width)).min(i64::from(self.x0) + i64::from(self.width));
        let y1 = (ay + i64::from(area.size.height)).min(i64::from(self.y0) + i64::from(self.rows));
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }
}

impl<C: PixelColor> Dimensions for BandBuffer<'_, C> {
    fn bounding_box(&self) -> Rectangle {
        Rectangle::new(self.origin(), Size::new(self.width, self.rows))
    }
}

impl<C: PixelColor> DrawTarget for BandBuffer<'_, C> {
    type Color = C;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<C>>,
    {
        for Pixel(p, c) in pixels {
            if let Some(slot) = self.index(i64::from(p.x), i64::from(p.y)).and_then(|i| self.buf.get_mut(i)) {
                *slot = c;
            }
        }
        Ok(())
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colors: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = C>,
    {
        let Some((x0, y0, x1, y1)) = self.clip(area) else { return Ok(()) };
        let (ax, ay) = (i64::from(area.top_left.x), i64::from(area.top_left.y));
        let aw = i64::from(area.size.width);
        let mut colors = colors.into_iter();
        // Colours before the first visible pixel, then per row: the visible ones and the gap to
        // the next row's first visible one.
        let skip = |n: i64, it: &mut I::IntoIter| {
            if let Some(n) = usize::try_from(n).ok().and_then(|n| n.checked_sub(1)) {
                it.nth(n);
            }
        };
        skip((y0 - ay).saturating_mul(aw).saturating_add(x0 - ax), &mut colors);
        let gap = aw - (x1 - x0);
        for y in y0..y1 {
            let (Some(i), Ok(n)) = (self.index(x0, y), usize::try_from(x1 - x0)) else { return Ok(()) };
            if let Some(row) = self.buf.get_mut(i..i.saturating_add(n)) {
                for (slot, c) in row.iter_mut().zip(colors.by_ref()) {
                    *slot = c;
                }
            }
            if y + 1 < y1 {
                skip(gap, &mut colors);
            }
        }
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: C) -> Result<(), Infallible> {
        let Some((x0, y0, x1, y1)) = self.clip(area) else { return Ok(()) };
        let Ok(n) = usize::try_from(x1 - x0) else { return Ok(()) };
        for y in y0..y1 {
            if let Some(row) = self.index(x0, y).and_then(|i| self.buf.get_mut(i..i.saturating_add(n))) {
                row.fill(color);
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: C) -> Result<(), Infallible> {
        self.pixels_mut().fill(color);
        Ok(())
    }
}

/// Why [`render_bands`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RenderError<E> {
    /// The smaller buffer does not hold one row of the region.
    BufferTooSmall(BufferTooSmall),
    /// The draw or flush callback failed.
    Callback(E),
}

impl<E: fmt::Display> fmt::Display for RenderError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::BufferTooSmall(e) => e.fmt(f),
            RenderError::Callback(e) => write!(f, "band callback failed: {e}"),
        }
    }
}

/// Renders the screen rectangle `region` in horizontal bands, alternating the two buffers: for each
/// band, `draw` gets a [`BandBuffer`] over the next free buffer, placed on the band's rows (its
/// pixels are whatever the buffer held: clear them first if the scene does not cover every
/// pixel), then `flush` gets the band's screen rectangle and its pixels, row-major, to send to the
/// display. A band has as many rows as the smaller buffer holds (`min(len) / region.w`, at most
/// `region.h`; the last band may be shorter). Returns the number of bands.
///
/// Two buffers let a display driver overlap transfer and drawing: `flush` may start a DMA
/// transfer of one buffer while the next band is drawn into the other (it must then wait for the
/// previous transfer before starting a new one, since the buffer it sent two bands ago is about to
/// be drawn into again). A driver without DMA can pass two halves of one buffer.
///
/// Memory: no framebuffer; `2 × K × region.w` pixels of the caller's.
///
/// ```
/// use embedded_graphics_core::{draw_target::DrawTarget, pixelcolor::{Rgb565, RgbColor}};
/// use embedded_graphics_core::{geometry::{Point, Size}, primitives::Rectangle};
/// use ossicle::draw::render_bands;
/// use ossicle::sprite::Rect;
/// let (mut a, mut b) = ([Rgb565::BLACK; 40], [Rgb565::BLACK; 40]); // 4 rows of 10 each
/// let mut screen = [Rgb565::BLACK; 10 * 10];
/// let bands = render_bands(
///     Rect { x: 0, y: 0, w: 10, h: 10 },
///     &mut a,
///     &mut b,
///     |band| {
///         band.clear(Rgb565::BLUE)?;
///         band.fill_solid(&Rectangle::new(Point::new(2, 3), Size::new(3, 3)), Rgb565::RED)
///     },
///     |rect, pixels| {
///         let start = (rect.y * 10) as usize;
///         screen[start..start + pixels.len()].copy_from_slice(pixels);
///         Ok(())
///     },
/// )
/// .unwrap();
/// assert_eq!(bands, 3); // rows 0-3, 4-7, 8-9
/// assert_eq!(screen[5 * 10 + 4], Rgb565::RED);
/// assert_eq!(screen[6 * 10 + 4], Rgb565::BLUE);
/// ```
pub fn render_bands<C, E>(
    region: Rect,
    buf_a: &mut [C],
    buf_b: &mut [C],
    mut draw: impl FnMut(&mut BandBuffer<'_, C>) -> Result<(), E>,
    mut flush: impl FnMut(Rect, &[C]) -> Result<(), E>,
) -> Result<u32, RenderError<E>>
where
    C: PixelColor,
{
    if region.is_empty() {
        return Ok(0);
    }
    let len = buf_a.len().min(buf_b.len());
    let per_row = usize::try_from(region.w).unwrap_or(usize::MAX);
    let k = len.checked_div(per_row).unwrap_or(0);
    let k = u32::try_from(k).unwrap_or(u32::MAX).min(region.h);
    if k == 0 {
        return Err(RenderError::BufferTooSmall(BufferTooSmall { needed: u64::from(region.w), len }));
    }
    let mut bands = 0u32;
    let mut done = 0u32;
    while done < region.h {
        let rows = k.min(region.h - done);
        let buf: &mut [C] = if bands % 2 == 0 { &mut *buf_a } else { &mut *buf_b };
        let Ok(y) = i32::try_from(i64::from(region.y) + i64::from(done)) else { break };
        let mut band = BandBuffer::new(buf, region.w, rows).map_err(RenderError::BufferTooSmall)?;
        band.set_origin(Point::new(region.x, y));
        draw(&mut band).map_err(RenderError::Callback)?;
        flush(band.rect(), band.pixels()).map_err(RenderError::Callback)?;
        done += rows;
        bands += 1;
    }
    Ok(bands)
}
