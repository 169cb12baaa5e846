//! Drawing sprite frames into embedded-graphics `DrawTarget`s (feature `graphics`).
//!
//! The input of every draw is a [`FramePixels`]: a frame's stored image as the blob holds it (raw
//! rows of indexed 1/2/4/8-bit, RGB565 LE/BE or RGB888 pixels, with an optional one-bit mask, or
//! row RLE; see [`ossicle_format::sprite`]), borrowed in place. Nothing is decompressed into RAM.
//!
//! - [`draw_frame`]: the integer blit — horizontal/vertical flips, quarter turns, integer scales
//!   1 to [`MAX_SCALE`], a palette override.
//! - [`draw_frame_affine`]: any [`Affine2`] transform (rotation by any angle, fractional scale,
//!   shear), nearest sampling in Q16.16 integer arithmetic. A separate, more expensive path.
//! - [`BandBuffer`] and [`render_bands`]: draw a screen region a few rows at a time into two small
//!   caller buffers, so no framebuffer is needed.
//! - [`SpriteColor`]: how stored pixels become the target's colour type; [`decode_row`] reads a
//!   row without embedded-graphics types.
//!
//! # Placement
//!
//! A frame's stored (trimmed) image sits at `(frame.x, frame.y)` in its sprite's canvas.
//! [`draw_frame`] puts the canvas's top-left corner at `at` on screen, after transforming the
//! canvas in this order: flips (horizontal: canvas column `x` becomes `W − 1 − x`; vertical likewise
//! with `H`), then the rotation, clockwise on screen (90°: canvas pixel `(x, y)` goes to
//! `(H − 1 − y, x)` of the rotated `H × W` canvas), then the scale (every pixel becomes a
//! `scale × scale` block). Give the sprite's canvas size in [`DrawOptions::canvas`] so that frames
//! of different trimmed sizes flip and turn about the same canvas; without it the canvas is taken
//! to be `(frame.x + width) × (frame.y + height)`.
//!
//! # Pixels
//!
//! - **Transparency**: in raw frames a pixel is transparent when its mask bit is 0 (with
//!   [`Transparency::Mask`]; a frame without a mask is opaque, missing mask bytes of a short mask
//!   count as 0) or its stored value equals the key
//!   (with [`Transparency::ColorKey`]: a palette index, the RGB565 value in native byte order, or
//!   `0xRRGGBB`). In RLE frames only skip runs (and the rest of a row whose stream ends early) are
//!   transparent.
//! - **Palette**: indexed pixels take their colour from the frame's RGB888 palette, or from
//!   [`DrawOptions::palette`] when given (a palette swap, e.g. team colours; build one with
//!   [`convert_palette`]). **An index beyond the palette in effect is transparent**: a short
//!   override palette hides the pixels it has no colour for. Direct formats ignore palettes.
//!   For speed, convert a palette once with [`convert_palette`] and pass it as the override:
//!   an indexed pixel then costs a table read instead of an RGB888 conversion.
//! - **Colour**: [`SpriteColor`] converts RGB565 and RGB888 values once per drawn pixel; an RGB565
//!   frame drawn into an `Rgb565` target converts nothing.
//! - **RLE streams**: a row's stream runs from its row offset to the next row's offset (the last
//!   row's to the end of the data), so equal offsets mean an empty stream: a fully transparent
//!   row. A stream that ends before covering the row leaves the rest of the row transparent; a
//!   run that would pass the row's end is cut there.
//! - **Malformed data** never panics: pixel, mask or stream bytes that are missing read as
//!   transparent, any row offset is accepted (one outside the data gives an empty row).
//!
//! # Spans
//!
//! Every draw first clips the placed image to the target's
//! [`bounding_box`](embedded_graphics_core::geometry::Dimensions::bounding_box), then walks only
//! the visible destination rows, and in each row emits **one call per opaque run**: a
//! [`fill_solid`](DrawTarget::fill_solid) when all the run's stored values are equal (an RLE run,
//! a flat area), else a [`fill_contiguous`](DrawTarget::fill_contiguous) of a `w × 1` rectangle
//! with the run's colours; never [`draw_iter`](DrawTarget::draw_iter). Display drivers keep their
//! fast paths (one address window per run), and a [`BandBuffer`] covering a few rows costs nothing
//! for the rows outside it. Scaled pixels widen the runs (each colour repeated over its block);
//! each destination row of a block is emitted separately. (A raw frame without mask or key and
//! with a full palette is drawn a whole visible row per call, without looking for equal values.)
//!
//! # How a row is drawn, and what it costs
//!
//! A destination row is a sequence of source pixels (a source row, forwards or mirrored, a source
//! column for 90°/270°, or a line through the image for the affine blit). They are decoded 64 at a
//! time into stored values and a bit mask of the opaque ones (the only step that knows the pixel
//! format: one small loop per format); runs are found in the bit mask, then each run's colours are
//! converted and handed to the target 32 at a time. A row of up to 64 source pixels is decoded
//! once; a run that crosses a 64-pixel boundary is decoded again from its start for its colours.
//!
//! - **Raw frames**: O(1) per pixel. Along a source row (0°/180°, any flip) a whole stretch of
//!   bytes is read at once; other directions find each pixel's row.
//! - **RLE frames, 0° and 180°**: the row's stream is found through the row-offset table (so the
//!   first visible row costs no more than any other), columns left of the clip are skipped a whole
//!   segment at a time, and runs and literals are decoded a segment at a time. A mirrored row
//!   decodes each 64-pixel stretch forwards and reverses it; each stretch walks the stream from
//!   the row's start (O(segments before it)).
//! - **RLE frames, 90° and 270°** (a destination row is a source *column*): each destination pixel
//!   walks its source row's stream from the row's start to the column: O(segments before the
//!   column) per pixel. Fine for small sprites; store frames that are drawn turned raw, or turned.
//! - **Affine**: per destination row, an O(1) integer set-up (i128) finds the exact span of pixels
//!   that sample inside the image, so rows and columns outside cost nothing more; then O(1) per
//!   pixel for raw frames. RLE frames keep a cursor in the last row read: samples that move right
//!   along one source row continue the walk; any other sample walks its row from the start.
//!
//! Measured with `cargo bench -p ossicle --features graphics --bench blit`, and in instructions per
//! destination pixel on x86-64 (callgrind, 64 × 64 frame into an `Rgb565` framebuffer): opaque
//! RGB565 28, colour-keyed RGB565 35, RLE RGB565 32 (mirrored 33), indexed-4 keyed 77 (64 with a
//! converted palette), keyed RGB565 turned 90° 100, RLE turned 90° 340, affine (30°, scale 1.5)
//! 170 raw and 470 RLE.
//!
//! # Memory
//!
//! Nothing allocates and nothing is kept between draws. A draw's stack holds a 64-value decoding
//! chunk (272 bytes), a 32-colour buffer (`32 × size_of::<C>()`) and a few dozen scalar locals:
//! measured at about 1 KiB for a whole draw into a [`BandBuffer`] on Cortex-M0 and M4 (QEMU,
//! painted stack), the buffer's own `fill_contiguous` included. Code: the integer blit into one
//! colour type is about 22 KiB of `.text` on thumbv7em (25 KiB on thumbv6m), the affine blit in
//! Q16.16 about 26 KiB (30 KiB), most of it shared between the two. [`BandBuffer`] is a slice
//! reference and four 32-bit fields.
//!
//! # Example
//!
//! ```
//! use embedded_graphics_core::{geometry::Point, pixelcolor::{Rgb565, RgbColor}};
//! use ossicle::draw::{draw_frame, BandBuffer, DrawOptions, Rotation};
//! use ossicle::sprite::Rect;
//! use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};
//!
//! // A 2 × 2 indexed-8 frame, index 0 transparent by colour key: [1 0]
//! //                                                              [2 1]
//! let frame = FramePixels {
//!     format: PixelFormat::Indexed8,
//!     transparency: Transparency::ColorKey,
//!     key: 0,
//!     palette: &[0, 0, 0, 255, 0, 0, 0, 0, 255], // black, red, blue
//!     x: 0, y: 0, width: 2, height: 2,
//!     rle: false,
//!     data: &[1, 0, 2, 1],
//!     mask: None,
//! };
//! // An 8 × 6 framebuffer.
//! let mut mem = [Rgb565::BLACK; 8 * 6];
//! let mut fb = BandBuffer::new(&mut mem, 8, 6).unwrap();
//! // Turned 90° clockwise and doubled, canvas top-left at (1, 1).
//! let opts = DrawOptions::new().rotated(Rotation::Deg90).scaled(2);
//! let touched = draw_frame(&mut fb, &frame, Point::new(1, 1), &opts).unwrap();
//! assert_eq!(touched, Rect { x: 1, y: 1, w: 4, h: 4 });
//! // Turned, the frame reads [2 1] / [1 0]: blue top-left, black (transparent) bottom-right.
//! assert_eq!(fb.pixel(Point::new(2, 2)), Some(Rgb565::BLUE));
//! assert_eq!(fb.pixel(Point::new(3, 2)), Some(Rgb565::RED));
//! assert_eq!(fb.pixel(Point::new(1, 4)), Some(Rgb565::RED));
//! assert_eq!(fb.pixel(Point::new(4, 4)), Some(Rgb565::BLACK));
//! ```

mod affine;
mod band;
mod blit;
mod color;
mod pixels;
mod sample;
mod span;

pub use affine::affine_bounds;
pub use band::{render_bands, BandBuffer, BufferTooSmall, RenderError};
pub use color::{convert_palette, SpriteColor};
pub use sample::decode_row;

pub use crate::sprite::Rotation;

use crate::math::Affine2;
use crate::sprite::Rect;
use crate::Scalar;
use core::fmt;
use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::Point;
use embedded_graphics_core::primitives::Rectangle;
use ossicle_format::sprite::FramePixels;
#[allow(unused_imports)] // rustdoc links
use ossicle_format::sprite::Transparency;

/// The largest integer scale of [`draw_frame`].
pub const MAX_SCALE: u8 = 16;

/// How [`draw_frame`] draws a frame: flips, rotation, scale, palette, canvas size. `C` is the
/// target's colour type (for the palette override).
///
/// ```
/// use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
/// use ossicle::draw::{DrawOptions, Rotation};
/// let team = [Rgb565::BLACK, Rgb565::BLUE, Rgb565::WHITE];
/// let opts = DrawOptions::new().flipped(true, false).rotated(Rotation::Deg180).scaled(3).with_palette(&team);
/// assert_eq!((opts.flip_h, opts.scale, opts.palette.map(|p| p.len())), (true, 3, Some(3)));
/// assert_eq!(DrawOptions::<Rgb565>::default().scale, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawOptions<'p, C> {
    /// Mirror the canvas left to right.
    pub flip_h: bool,
    /// Mirror the canvas top to bottom.
    pub flip_v: bool,
    /// Turn the (flipped) canvas clockwise.
    pub rotation: Rotation,
    /// Integer scale, 1 to [`MAX_SCALE`].
    pub scale: u8,
    /// Colours for palette indices instead of the frame's palette (indexed formats only).
    pub palette: Option<&'p [C]>,
    /// The sprite's canvas size `(width, height)`; `None`: `(frame.x + width, frame.y + height)`.
    pub canvas: Option<(u16, u16)>,
}

impl<'p, C> DrawOptions<'p, C> {
    /// No flip, no rotation, scale 1, the frame's own palette.
    pub const fn new() -> Self {
        Self { flip_h: false, flip_v: false, rotation: Rotation::Deg0, scale: 1, palette: None, canvas: None }
    }

    /// With these flips.
    pub const fn flipped(mut self, horizontal: bool, vertical: bool) -> Self {
        self.flip_h = horizontal;
        self.flip_v = vertical;
        self
    }

    /// With this rotation.
    pub const fn rotated(mut self, rotation: Rotation) -> Self {
        self.rotation = rotation;
        self
    }

    /// With this integer scale.
    pub const fn scaled(mut self, scale: u8) -> Self {
        self.scale = scale;
        self
    }

    /// With this palette override.
    pub const fn with_palette(mut self, palette: &'p [C]) -> Self {
        self.palette = Some(palette);
        self
    }

    /// With the sprite's canvas size.
    pub const fn in_canvas(mut self, width: u16, height: u16) -> Self {
        self.canvas = Some((width, height));
        self
    }
}

impl<C> Default for DrawOptions<'_, C> {
    fn default() -> Self {
        Self::new()
    }
}

/// Why a draw failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DrawError<E> {
    /// The draw target failed (drawing stopped there).
    Target(E),
    /// [`DrawOptions::scale`] is 0 or above [`MAX_SCALE`].
    InvalidScale(u8),
}

impl<E: fmt::Display> fmt::Display for DrawError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::Target(e) => write!(f, "draw target error: {e}"),
            DrawError::InvalidScale(s) => write!(f, "sprite scale {s} is not in 1..={MAX_SCALE}"),
        }
    }
}

/// The visible columns and rows `[x0, x1) × [y0, y1)` of a target's bounding box, cut to what
/// `i32` points can address.
fn clip_of(b: &Rectangle) -> (i64, i64, i64, i64) {
    let (x, y) = (i64::from(b.top_left.x), i64::from(b.top_left.y));
    let max = i64::from(i32::MAX) + 1;
    (x, y, (x + i64::from(b.size.width)).min(max), (y + i64::from(b.size.height)).min(max))
}

/// Draws `frame` with its canvas's top-left at `at` (see the [module documentation](self) for
/// placement, transparency, palettes and cost). Returns the screen rectangle the draw may have
/// touched: the placed image clipped to the target's bounding box (empty when nothing is
/// visible).
///
/// Errors: [`DrawError::InvalidScale`] before anything is drawn, or the target's first error.
pub fn draw_frame<D>(
    target: &mut D,
    frame: &FramePixels<'_>,
    at: Point,
    opts: &DrawOptions<'_, D::Color>,
) -> Result<Rect, DrawError<D::Error>>
where
    D: DrawTarget + ?Sized,
    D::Color: SpriteColor,
{
    blit::draw(target, frame, at, opts)
}

/// The screen rectangle [`draw_frame`] places `frame`'s stored image in, unclipped (coordinates
/// saturate at the `i32` range); `None` for an invalid scale or an empty frame. For dirty
/// tracking (see [`SpriteOutput`](crate::sprite::SpriteOutput)).
///
/// ```
/// use embedded_graphics_core::{geometry::Point, pixelcolor::Rgb565};
/// use ossicle::draw::{frame_bounds, DrawOptions, Rotation};
/// use ossicle::sprite::Rect;
/// use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};
/// // A 3 × 2 image at (1, 4) in a 10 × 8 canvas.
/// let frame = FramePixels {
///     format: PixelFormat::Indexed8, transparency: Transparency::None, key: 0, palette: &[],
///     x: 1, y: 4, width: 3, height: 2, rle: false, data: &[0; 6], mask: None,
/// };
/// let opts = DrawOptions::<Rgb565>::new().in_canvas(10, 8);
/// assert_eq!(frame_bounds(&frame, Point::new(100, 50), &opts), Some(Rect { x: 101, y: 54, w: 3, h: 2 }));
/// // Mirrored: columns 1..4 of 10 become 6..9.
/// let flipped = opts.flipped(true, false);
/// assert_eq!(frame_bounds(&frame, Point::new(100, 50), &flipped), Some(Rect { x: 106, y: 54, w: 3, h: 2 }));
/// // Turned 90°: canvas (x, y) goes to (7 − y, x): rows 4..6 become columns 2..4.
/// let turned = opts.rotated(Rotation::Deg90);
/// assert_eq!(frame_bounds(&frame, Point::new(100, 50), &turned), Some(Rect { x: 102, y: 51, w: 2, h: 3 }));
/// ```
pub fn frame_bounds<C>(frame: &FramePixels<'_>, at: Point, opts: &DrawOptions<'_, C>) -> Option<Rect> {
    blit::Placement::new(frame, at, opts).map(|p| p.rect())
}

/// Draws `frame` through `transform`, which maps canvas coordinates to screen coordinates (the
/// stored image covers `[frame.x, frame.x + width) × [frame.y, frame.y + height)` of the canvas).
///
/// **Sampling rule**: the transform is inverted once, in `S` ([`Affine2::inverse`]), and the
/// inverse's six coefficients are rounded to Q16.16 ([`Scalar::to_q16_bits`]). Destination pixel
/// `(dx, dy)` shows the source pixel containing the point `inverse · (dx + ½, dy + ½)` (nearest
/// sampling: the pixel whose square holds the mapped centre, edges belonging to the pixel on
/// their right/below), computed exactly in integers (i64/i128), so f32 and Q16.16 callers get
/// identical pixels for identical Q16.16 inverses, and an identity, a whole-pixel translation, a
/// quarter turn or an integer scale draws exactly what [`draw_frame`] draws. Rows are walked only
/// inside the transformed image's bounds, and in each row only the exact span of pixels that
/// sample inside the image; runs of opaque samples become `fill_contiguous` calls.
///
/// Returns the rectangle of the spans that sampled inside the image (clipped to the target). A
/// singular transform (no inverse, or a Q16.16 inverse whose determinant is 0) draws nothing and
/// returns `Ok` with an empty rectangle: a sprite scaled to nothing is invisible, not an error.
/// Coordinates beyond the Q16.16 range (±32768) saturate.
///
/// ```
/// use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
/// use ossicle::draw::{draw_frame_affine, BandBuffer};
/// use ossicle::math::{Affine2, Vec2};
/// use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};
/// let red = 0xF800u16.to_le_bytes();
/// let frame = FramePixels {
///     format: PixelFormat::Rgb565Le, transparency: Transparency::None, key: 0, palette: &[],
///     x: 0, y: 0, width: 1, height: 1, rle: false, data: &red, mask: None,
/// };
/// let mut mem = [Rgb565::BLACK; 16];
/// let mut fb = BandBuffer::new(&mut mem, 4, 4).unwrap();
/// // Scale 1.5 about the origin, then move by (1, 1): the pixel covers [1, 2.5)² on screen.
/// let m = Affine2::from_translation(Vec2::new(1.0f32, 1.0)).mul(Affine2::from_scale(Vec2::splat(1.5)));
/// let touched = draw_frame_affine(&mut fb, &frame, &m, None).unwrap();
/// // Centres 1.5 → source 0.33 (inside), 2.5 → 1.0 (outside): one pixel.
/// assert_eq!((touched.x, touched.y, touched.w, touched.h), (1, 1, 1, 1));
/// assert_eq!(fb.pixels().iter().filter(|&&c| c == Rgb565::RED).count(), 1);
/// ```
pub fn draw_frame_affine<D, S>(
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
    affine::draw(target, frame, transform, palette)
}
