//! Colour conversion from stored pixel values to a draw target's colour type, and palettes.

use embedded_graphics_core::pixelcolor::raw::RawU16;
use embedded_graphics_core::pixelcolor::{
    Bgr555, Bgr565, Bgr666, Bgr888, BinaryColor, Gray2, Gray4, Gray8, PixelColor, Rgb555, Rgb565, Rgb666, Rgb888,
};
use ossicle_format::sprite::PixelFormat;

/// A draw target colour that sprite pixels can be converted into.
///
/// The two constructors are the only conversions the blitter performs, once per drawn pixel:
/// stored RGB565 values (already in native byte order) and RGB888 triples (palette entries and
/// RGB888 pixels). They are implemented for every embedded-graphics colour type with the
/// library's own `From` conversions (channels rounded to the nearest level, grey by BT.601 luma,
/// [`BinaryColor`] on at luma ≥ 128), except RGB565 into [`Rgb888`]/[`Bgr888`], which replicates
/// bits as the host does; for [`Rgb565`] `from_rgb565_raw` is the identity: an RGB565 frame drawn
/// into an `Rgb565` target converts nothing.
///
/// Implement it for a display's own colour type to draw into that display directly.
///
/// ```
/// use embedded_graphics_core::pixelcolor::{Rgb565, Rgb888, RgbColor};
/// use ossicle::draw::SpriteColor;
/// assert_eq!(Rgb565::from_rgb565_raw(0xF800), Rgb565::RED);
/// assert_eq!(Rgb888::from_rgb565_raw(0x07E0), Rgb888::GREEN);
/// assert_eq!(Rgb565::from_rgb888(0, 0, 255), Rgb565::BLUE);
/// ```
pub trait SpriteColor: PixelColor {
    /// The colour of an RGB565 value (red in bits 15-11, green 10-5, blue 4-0).
    fn from_rgb565_raw(raw: u16) -> Self;
    /// The colour of an RGB888 triple.
    fn from_rgb888(r: u8, g: u8, b: u8) -> Self;
}

macro_rules! sprite_color {
    ($($t:ty),*) => {$(
        impl SpriteColor for $t {
            #[inline]
            fn from_rgb565_raw(raw: u16) -> Self {
                Self::from(Rgb565::from(RawU16::new(raw)))
            }
            #[inline]
            fn from_rgb888(r: u8, g: u8, b: u8) -> Self {
                Self::from(Rgb888::new(r, g, b))
            }
        }
    )*};
}

sprite_color!(Rgb565, Bgr565, Rgb555, Bgr555, Rgb666, Bgr666, Gray2, Gray4, Gray8, BinaryColor);

/// RGB565 to 8-bit channels by bit replication (`r8 = r5 << 3 | r5 >> 2`, `g8 = g6 << 2 | g6 >> 4`):
/// the expansion the host's pixel encoder uses to decide that a colour is stored losslessly in
/// RGB565, so a sprite stored as RGB565 draws into an RGB888 target with its source colours.
/// (embedded-graphics' own `From` rounds `x · 255 / 31` instead, which differs by one level for
/// some values.)
#[inline]
fn expand_565(raw: u16) -> (u8, u8, u8) {
    let (r, g, b) = ((raw >> 11) & 0x1F, (raw >> 5) & 0x3F, raw & 0x1F);
    (((r << 3) | (r >> 2)) as u8, ((g << 2) | (g >> 4)) as u8, ((b << 3) | (b >> 2)) as u8)
}

impl SpriteColor for Rgb888 {
    #[inline]
    fn from_rgb565_raw(raw: u16) -> Self {
        let (r, g, b) = expand_565(raw);
        Rgb888::new(r, g, b)
    }
    #[inline]
    fn from_rgb888(r: u8, g: u8, b: u8) -> Self {
        Rgb888::new(r, g, b)
    }
}

impl SpriteColor for Bgr888 {
    #[inline]
    fn from_rgb565_raw(raw: u16) -> Self {
        let (r, g, b) = expand_565(raw);
        Bgr888::new(r, g, b)
    }
    #[inline]
    fn from_rgb888(r: u8, g: u8, b: u8) -> Self {
        Bgr888::new(r, g, b)
    }
}

/// Converts RGB888 palette triples (as [`FramePixels::palette`] holds them) into target colours,
/// e.g. to build a palette override (a team colour: convert, then replace a few entries). Fills
/// `out` from the start and returns how many entries it wrote (the smaller of the triple count and
/// `out.len()`; an incomplete trailing triple is ignored).
///
/// [`FramePixels::palette`]: ossicle_format::sprite::FramePixels::palette
///
/// ```
/// use embedded_graphics_core::pixelcolor::{Rgb888, RgbColor};
/// use ossicle::draw::convert_palette;
/// let mut pal = [Rgb888::BLACK; 4];
/// assert_eq!(convert_palette(&[255, 0, 0, 0, 0, 255, 7], &mut pal), 2);
/// assert_eq!(pal[..2], [Rgb888::RED, Rgb888::BLUE]);
/// ```
pub fn convert_palette<C: SpriteColor>(triples: &[u8], out: &mut [C]) -> usize {
    let mut n = 0;
    for (slot, t) in out.iter_mut().zip(triples.chunks_exact(3)) {
        if let [r, g, b] = *t {
            *slot = C::from_rgb888(r, g, b);
            n += 1;
        }
    }
    n
}

/// How stored values become colours for one draw: the format, and the palette in effect.
#[derive(Clone, Copy)]
pub(crate) struct Colors<'p, C> {
    format: PixelFormat,
    triples: &'p [u8],
    over: Option<&'p [C]>,
    /// Palette entries (indexed formats); `u32::MAX` for direct formats (every value is valid).
    len: u32,
}

impl<'p, C: SpriteColor> Colors<'p, C> {
    /// The colours of a frame of `format` with the default palette `triples`, or the override.
    pub(crate) fn new(format: PixelFormat, triples: &'p [u8], over: Option<&'p [C]>) -> Self {
        let len = if format.is_indexed() {
            let n = match over {
                Some(o) => o.len(),
                None => triples.len() / 3,
            };
            u32::try_from(n).unwrap_or(u32::MAX)
        } else {
            u32::MAX
        };
        Self { format, triples, over, len }
    }

    /// The first stored value without a colour: the palette length for indexed formats,
    /// `u32::MAX` (none) for direct ones.
    #[inline]
    pub(crate) fn limit(&self) -> u32 {
        self.len
    }

    /// Whether every value a raw frame of this format can store has a colour.
    pub(crate) fn all_valid(&self) -> bool {
        !self.format.is_indexed() || u64::from(self.len) >= 1u64 << self.format.bits()
    }

    /// The colour of a stored value (`None`: an index beyond the palette).
    #[inline]
    pub(crate) fn color(&self, value: u32) -> Option<C> {
        match self.format {
            PixelFormat::Rgb565Le | PixelFormat::Rgb565Be => Some(C::from_rgb565_raw(value as u16)),
            PixelFormat::Rgb888 => Some(C::from_rgb888((value >> 16) as u8, (value >> 8) as u8, value as u8)),
            _ => self.index_color(value),
        }
    }

    /// Writes the colours of `vals` into `out`, pairwise (a value without a colour leaves its
    /// slot as it is). One loop per kind of format, for runs of opaque pixels.
    pub(crate) fn convert(&self, vals: &[u32], out: &mut [C]) {
        let pairs = out.iter_mut().zip(vals);
        match (self.format, self.over) {
            (PixelFormat::Rgb565Le | PixelFormat::Rgb565Be, _) => {
                pairs.for_each(|(o, &v)| *o = C::from_rgb565_raw(v as u16));
            }
            (PixelFormat::Rgb888, _) => {
                pairs.for_each(|(o, &v)| *o = C::from_rgb888((v >> 16) as u8, (v >> 8) as u8, v as u8));
            }
            (_, Some(p)) => pairs.for_each(|(o, &v)| {
                if let Some(c) = usize::try_from(v).ok().and_then(|i| p.get(i)) {
                    *o = *c;
                }
            }),
            (_, None) => pairs.for_each(|(o, &v)| {
                if let Some(c) = self.index_color(v) {
                    *o = c;
                }
            }),
        }
    }

    /// The colour of a palette index (`None`: beyond the palette).
    #[inline]
    pub(crate) fn index_color(&self, value: u32) -> Option<C> {
        let i = usize::try_from(value).ok()?;
        match self.over {
            Some(o) => o.get(i).copied(),
            None => {
                let at = i.checked_mul(3)?;
                match self.triples.get(at..at.checked_add(3)?)? {
                    &[r, g, b] => Some(C::from_rgb888(r, g, b)),
                    _ => None,
                }
            }
        }
    }
}
