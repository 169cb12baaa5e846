//! Sprite sections: a sprite's frames (pixels) and its animations, in one section per sprite.
//!
//! # Body
//!
//! A sprite section's body is postcard [`SpriteBody`]:
//!
//! ```text
//! name        u32       string id of the sprite's name (`ossicle render --sprite NAME`)
//! width       u16       canvas width: the untrimmed frame size every frame is placed in
//! height      u16       canvas height
//! format      u8        PixelFormat (1..=7)
//! transparency u8       Transparency (0 none, 1 colour key, 2 one-bit mask)
//! key         u32       the colour key: a palette index (indexed formats), an RGB565 value, or 0xRRGGBB
//! palette     bytes     RGB888 triples (indexed formats: 1..=2^bits entries; direct formats: empty)
//! frames      bytes     FRAME_RECORD_LEN-byte records, one per frame
//! pixels      bytes     the frames' pixel data, at the offsets the frame records give
//! animations  bytes     ANIMATION_RECORD_LEN-byte records, one per animation
//! words       bytes     u32 LE words the animation records point into (frame lists, durations, events)
//! ```
//!
//! # Frame record (20 bytes, little-endian)
//!
//! ```text
//!  0  i16  x       left of the stored (trimmed) image in the canvas (0 ≤ x, x + w ≤ width)
//!  2  i16  y       top of the stored image in the canvas (0 ≤ y, y + h ≤ height)
//!  4  u16  w       stored image width  (0 for a fully transparent frame)
//!  6  u16  h       stored image height (0 for a fully transparent frame)
//!  8  u16  flags   bit 0: row RLE; bit 1: a one-bit mask follows the pixel rows (raw frames only)
//! 10  u16  reserved, 0
//! 12  u32  offset  of the frame's data in `pixels`
//! 16  u32  len     of the frame's data in bytes
//! ```
//!
//! Several frame records may point at the same data (identical images are stored once).
//!
//! # Raw frame data
//!
//! `h` rows of `stride = ceil(w × bits / 8)` bytes each, top row first, no padding between rows
//! beyond the stride. Indexed formats with fewer than 8 bits pack the leftmost pixel into the most
//! significant bits of a byte (as PNG does). RGB565 is 2 bytes per pixel in the format's byte
//! order; RGB888 is 3 bytes, R, G, B. With the mask flag, `h` rows of `ceil(w / 8)` bytes follow the
//! pixel rows: bit 7 of the first byte is the leftmost pixel, 1 = opaque, 0 = transparent. `len`
//! is exactly `h × stride` (+ `h × ceil(w / 8)` with a mask).
//!
//! # RLE frame data
//!
//! A row-offset table of `h` u32 LE values (offsets of each row's stream, relative to the start of
//! the frame's data, non-decreasing, inside `len`), then the row streams. A row stream is a
//! sequence of runs until `w` pixels are covered (a run that would pass `w` is cut at `w`; a
//! stream that ends early leaves the rest of the row transparent):
//!
//! ```text
//! control 0x00..=0x3F   literal: control + 1 pixels follow, each a stored pixel value
//! control 0x40..=0x7F   skip: control - 0x3F transparent pixels (1..=64), nothing follows
//! control 0x80..=0xFF   run: control - 0x7F copies (1..=128) of the one stored pixel value that follows
//! ```
//!
//! A stored pixel value in an RLE stream is 1 byte (a palette index, for every indexed format),
//! 2 bytes (RGB565, in the format's byte order) or 3 bytes (RGB888). Transparency in RLE frames is
//! only the skip runs: the colour key and the mask do not apply to them.
//!
//! # Animation record (36 bytes, little-endian)
//!
//! ```text
//!  0  u32  name         string id
//!  4  u32  frame_count  relative frames (≥ 1)
//!  8  u32  flags        bits 0-1: PlayMode (0 Forward, 1 Reverse, 2 PingPong, 3 PingPongReverse);
//!                       bit 2: looping; bit 3: `start` is a frame list; bit 4: durations; bit 5: events
//! 12  u32  start        range: first frame; list: word index of `frame_count` frame indices in `words`
//! 16  u32  end          range: last frame, inclusive (counting down when end < start); list: 0
//! 20  u32  fps          scalar word (blob encoding); ≤ 0 holds frames without a duration
//! 24  u32  repeat       see the kernel's `AnimationInfo::repeat`
//! 28  u32  durations    word index of `frame_count` scalar words (seconds per relative frame), if bit 4
//! 32  u32  events       word index of `frame_count` (first, count) word pairs, if bit 5: event names of
//!                       each relative frame are the string ids `words[first..first + count]`
//! ```
//!
//! Every frame index is checked against the frame count at load, every word index against the
//! words, every string id against the string table.

use serde::{Deserialize, Serialize};

/// The size of one frame record in bytes.
pub const FRAME_RECORD_LEN: usize = 20;
/// The size of one animation record in bytes.
pub const ANIMATION_RECORD_LEN: usize = 36;
/// The most frames one sprite may have (frame indices must fit in 16 bits).
pub const MAX_SPRITE_FRAMES: u32 = 65_535;
/// The most animations one sprite may have.
pub const MAX_SPRITE_ANIMATIONS: u32 = 65_535;
/// The largest canvas width or height (frame positions are `i16`).
pub const MAX_SPRITE_SIZE: u32 = 32_767;
/// The most event names one frame of an animation may carry.
pub const MAX_FRAME_EVENTS: u32 = 64;

/// Frame record flag: the frame's data is row-RLE encoded.
pub const FRAME_FLAG_RLE: u16 = 1;
/// Frame record flag: a one-bit mask follows the raw pixel rows.
pub const FRAME_FLAG_MASK: u16 = 2;

/// Animation record flag bits 0-1: the play mode.
pub const ANIM_MODE_MASK: u32 = 3;
/// Animation record flag: looping.
pub const ANIM_FLAG_LOOP: u32 = 4;
/// Animation record flag: the frames are an explicit list.
pub const ANIM_FLAG_LIST: u32 = 8;
/// Animation record flag: per-frame durations follow.
pub const ANIM_FLAG_DURATIONS: u32 = 16;
/// Animation record flag: per-frame event names follow.
pub const ANIM_FLAG_EVENTS: u32 = 32;

/// How a sprite's pixels are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum PixelFormat {
    /// 1 bit per pixel, palette of up to 2 entries.
    Indexed1 = 1,
    /// 2 bits per pixel, palette of up to 4 entries.
    Indexed2 = 2,
    /// 4 bits per pixel, palette of up to 16 entries.
    Indexed4 = 3,
    /// 8 bits per pixel, palette of up to 256 entries.
    Indexed8 = 4,
    /// RGB565, little-endian (low byte first).
    Rgb565Le = 5,
    /// RGB565, big-endian (as most SPI panels take it).
    Rgb565Be = 6,
    /// RGB888: R, G, B bytes.
    Rgb888 = 7,
}

impl PixelFormat {
    /// The format stored as `byte`.
    pub const fn from_u8(byte: u8) -> Option<Self> {
        match byte {
            1 => Some(Self::Indexed1),
            2 => Some(Self::Indexed2),
            3 => Some(Self::Indexed4),
            4 => Some(Self::Indexed8),
            5 => Some(Self::Rgb565Le),
            6 => Some(Self::Rgb565Be),
            7 => Some(Self::Rgb888),
            _ => None,
        }
    }

    /// Bits per pixel in raw rows.
    pub const fn bits(self) -> u32 {
        match self {
            Self::Indexed1 => 1,
            Self::Indexed2 => 2,
            Self::Indexed4 => 4,
            Self::Indexed8 => 8,
            Self::Rgb565Le | Self::Rgb565Be => 16,
            Self::Rgb888 => 24,
        }
    }

    /// Bytes of one stored pixel value in an RLE stream.
    pub const fn rle_value_bytes(self) -> usize {
        match self {
            Self::Indexed1 | Self::Indexed2 | Self::Indexed4 | Self::Indexed8 => 1,
            Self::Rgb565Le | Self::Rgb565Be => 2,
            Self::Rgb888 => 3,
        }
    }

    /// Whether pixels are palette indices.
    pub const fn is_indexed(self) -> bool {
        matches!(self, Self::Indexed1 | Self::Indexed2 | Self::Indexed4 | Self::Indexed8)
    }

    /// The most palette entries (0 for direct formats).
    pub const fn max_palette(self) -> u32 {
        if self.is_indexed() {
            1 << self.bits()
        } else {
            0
        }
    }

    /// Bytes of one raw row of `width` pixels.
    pub const fn stride(self, width: u32) -> u32 {
        // width ≤ 65535 and bits ≤ 24: no overflow.
        (width * self.bits() + 7) / 8
    }

    /// The short name used by the CLI and `inspect`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Indexed1 => "indexed1",
            Self::Indexed2 => "indexed2",
            Self::Indexed4 => "indexed4",
            Self::Indexed8 => "indexed8",
            Self::Rgb565Le => "rgb565le",
            Self::Rgb565Be => "rgb565be",
            Self::Rgb888 => "rgb888",
        }
    }
}

/// How transparent pixels of raw frames are marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Transparency {
    /// Every pixel is drawn.
    None = 0,
    /// Pixels whose stored value equals the sprite's key are not drawn.
    ColorKey = 1,
    /// Each raw frame carries a one-bit mask ([`FRAME_FLAG_MASK`]).
    Mask = 2,
}

impl Transparency {
    /// The transparency stored as `byte`.
    pub const fn from_u8(byte: u8) -> Option<Self> {
        match byte {
            0 => Some(Self::None),
            1 => Some(Self::ColorKey),
            2 => Some(Self::Mask),
            _ => None,
        }
    }

    /// The short name used by the CLI and `inspect`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::ColorKey => "key",
            Self::Mask => "mask",
        }
    }
}

/// The serialised form of a sprite section (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpriteBody<'a> {
    /// String id of the sprite's name.
    pub name: u32,
    /// Canvas width.
    pub width: u16,
    /// Canvas height.
    pub height: u16,
    /// [`PixelFormat`] as its byte.
    pub format: u8,
    /// [`Transparency`] as its byte.
    pub transparency: u8,
    /// The colour key.
    pub key: u32,
    /// RGB888 palette triples.
    pub palette: &'a [u8],
    /// Frame records.
    pub frames: &'a [u8],
    /// Pixel data.
    pub pixels: &'a [u8],
    /// Animation records.
    pub animations: &'a [u8],
    /// Words the animation records point into.
    pub words: &'a [u8],
}

/// Where a frame sits in its sprite's canvas and how its pixels are stored: everything a blitter
/// needs, borrowed from the blob and already validated (`data` has exactly the length its
/// geometry and encoding require; RLE row offsets are inside `data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePixels<'a> {
    /// The pixel format.
    pub format: PixelFormat,
    /// How transparency is marked (for RLE frames only skip runs matter).
    pub transparency: Transparency,
    /// The colour key (palette index, RGB565 value or 0xRRGGBB).
    pub key: u32,
    /// RGB888 palette triples (indexed formats).
    pub palette: &'a [u8],
    /// Left of the stored image in the canvas.
    pub x: i16,
    /// Top of the stored image in the canvas.
    pub y: i16,
    /// Stored image width.
    pub width: u16,
    /// Stored image height.
    pub height: u16,
    /// Whether `data` is row RLE (row-offset table first).
    pub rle: bool,
    /// Raw rows or the RLE table and streams.
    pub data: &'a [u8],
    /// The one-bit mask rows of a raw frame with [`Transparency::Mask`].
    pub mask: Option<&'a [u8]>,
}
