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
//!  8  u16  flags   bit 0: row RLE; bit 1: a one-bit mask follows the pixel rows (raw frames of
//!                  Mask sprites only; a raw frame of a Mask sprite without one is fully opaque)
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
//! the frame's data, non-decreasing, inside `len`), then the row streams. Row `r`'s stream runs
//! from its offset to row `r + 1`'s offset (the last row's to the end of the data), so rows are
//! never shared through equal offsets: equal offsets make an empty, fully transparent row. A row
//! stream is a sequence of runs until `w` pixels are covered (a run that would pass `w` is cut at
//! `w`; a stream that ends early leaves the rest of the row transparent):
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
//! 20  u32  frame_time   scalar word (blob encoding): seconds a frame without its own duration
//!                       shows (1 / fps, rounded once by the host, so players never divide); ≤ 0
//!                       holds such frames
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
/// Frame record flag: a one-bit mask follows the raw pixel rows (only in sprites with
/// [`Transparency::Mask`]; a raw frame of such a sprite without a mask is fully opaque).
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
        (width * self.bits()).div_ceil(8)
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

use crate::{ScalarEncoding, SectionDefect, StringTable, WordView};
use core::fmt;

/// What is wrong inside a sprite section (carried by [`SectionDefect::Sprite`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SpriteDefect {
    /// The pixel format byte is not 1..=7.
    UnknownPixelFormat {
        /// The byte found.
        found: u8,
    },
    /// The transparency byte is not 0, 1 or 2.
    UnknownTransparency {
        /// The byte found.
        found: u8,
    },
    /// The canvas is empty or larger than [`MAX_SPRITE_SIZE`].
    CanvasSize {
        /// Width.
        width: u16,
        /// Height.
        height: u16,
    },
    /// The palette is not whole RGB triples, is empty for an indexed format, holds more entries than
    /// the format can index, or is present for a direct format.
    Palette {
        /// Its length in bytes.
        len: usize,
    },
    /// The colour key is not a valid stored value (an index past the palette, a value wider than
    /// the pixel).
    Key {
        /// The key.
        key: u32,
    },
    /// More frames than [`MAX_SPRITE_FRAMES`], or frame/animation records not whole records.
    FrameCount {
        /// Bytes of the frame records.
        len: usize,
    },
    /// More animations than [`MAX_SPRITE_ANIMATIONS`], or records not whole records.
    AnimationCount {
        /// Bytes of the animation records.
        len: usize,
    },
    /// A frame's stored rectangle is not inside the canvas.
    FrameOutsideCanvas {
        /// The frame.
        frame: u32,
    },
    /// A frame has unknown flags, both RLE and a mask, or a mask where the sprite's transparency is
    /// not `Mask`.
    FrameFlags {
        /// The frame.
        frame: u32,
        /// The flags.
        flags: u16,
    },
    /// A frame's data range is outside the pixel data, or its length does not match its geometry.
    FrameData {
        /// The frame.
        frame: u32,
    },
    /// An RLE frame's row-offset table points outside its data or backwards.
    RleRowTable {
        /// The frame.
        frame: u32,
        /// The row.
        row: u32,
    },
    /// An animation has no frames, unknown flags, or a non-finite speed or duration.
    AnimationHeader {
        /// The animation.
        animation: u32,
    },
    /// An animation's frame list, durations or events lie outside the words.
    AnimationWords {
        /// The animation.
        animation: u32,
    },
    /// An animation plays a frame the sprite does not have.
    AnimationFrame {
        /// The animation.
        animation: u32,
        /// The relative frame.
        frame: u32,
        /// The source frame index it names.
        index: u32,
    },
    /// A frame of an animation carries more than [`MAX_FRAME_EVENTS`] event names.
    EventCount {
        /// The animation.
        animation: u32,
        /// The relative frame.
        frame: u32,
    },
}

impl fmt::Display for SpriteDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UnknownPixelFormat { found } => write!(f, "unknown pixel format {found}"),
            Self::UnknownTransparency { found } => write!(f, "unknown transparency mode {found}"),
            Self::CanvasSize { width, height } => {
                write!(f, "canvas {width}x{height} is empty or larger than {MAX_SPRITE_SIZE}")
            }
            Self::Palette { len } => write!(f, "palette of {len} bytes does not fit the pixel format"),
            Self::Key { key } => write!(f, "colour key {key:#x} is not a valid stored pixel value"),
            Self::FrameCount { len } => {
                write!(f, "{len} bytes of frame records: not whole records or over {MAX_SPRITE_FRAMES} frames")
            }
            Self::AnimationCount { len } => write!(
                f,
                "{len} bytes of animation records: not whole records or over {MAX_SPRITE_ANIMATIONS} animations"
            ),
            Self::FrameOutsideCanvas { frame } => write!(f, "frame {frame} lies outside the canvas"),
            Self::FrameFlags { frame, flags } => {
                write!(f, "frame {frame} has flags {flags:#x}, invalid for this sprite's transparency")
            }
            Self::FrameData { frame } => {
                write!(f, "frame {frame}'s pixel data is outside the pixels or of the wrong length")
            }
            Self::RleRowTable { frame, row } => write!(f, "frame {frame}'s RLE row {row} offset is invalid"),
            Self::AnimationHeader { animation } => {
                write!(f, "animation {animation} has no frames, unknown flags or a non-finite time")
            }
            Self::AnimationWords { animation } => {
                write!(f, "animation {animation}'s frame list, durations or events lie outside the section")
            }
            Self::AnimationFrame { animation, frame, index } => {
                write!(f, "animation {animation} frame {frame} plays sprite frame {index}, which does not exist")
            }
            Self::EventCount { animation, frame } => {
                write!(f, "animation {animation} frame {frame} carries more than {MAX_FRAME_EVENTS} events")
            }
        }
    }
}

fn le_u16(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([*s.first()?, *s.get(1)?]))
}

fn le_u32(b: &[u8], at: usize) -> Option<u32> {
    WordView::new(b.get(at..)?).get(0)
}

/// One frame record, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FrameRecord {
    /// Left of the stored image in the canvas.
    pub x: i16,
    /// Top of the stored image in the canvas.
    pub y: i16,
    /// Stored width.
    pub w: u16,
    /// Stored height.
    pub h: u16,
    /// [`FRAME_FLAG_RLE`], [`FRAME_FLAG_MASK`].
    pub flags: u16,
    /// Offset of the data in the pixels.
    pub offset: u32,
    /// Length of the data.
    pub len: u32,
}

impl FrameRecord {
    /// Reads record `i` of `records`.
    pub fn read(records: &[u8], i: usize) -> Option<Self> {
        let at = i.checked_mul(FRAME_RECORD_LEN)?;
        let r = records.get(at..at.checked_add(FRAME_RECORD_LEN)?)?;
        Some(Self {
            x: le_u16(r, 0)? as i16,
            y: le_u16(r, 2)? as i16,
            w: le_u16(r, 4)?,
            h: le_u16(r, 6)?,
            flags: le_u16(r, 8)?,
            offset: le_u32(r, 12)?,
            len: le_u32(r, 16)?,
        })
    }

    /// The record's 20 bytes.
    pub fn to_bytes(&self) -> [u8; FRAME_RECORD_LEN] {
        let mut out = [0u8; FRAME_RECORD_LEN];
        let parts: [&[u8]; 7] = [
            &self.x.to_le_bytes(),
            &self.y.to_le_bytes(),
            &self.w.to_le_bytes(),
            &self.h.to_le_bytes(),
            &self.flags.to_le_bytes(),
            &[0, 0],
            &self.offset.to_le_bytes(),
        ];
        let mut at = 0;
        for p in parts.iter().copied().chain([&self.len.to_le_bytes()[..]]) {
            for &b in p {
                if let Some(o) = out.get_mut(at) {
                    *o = b;
                }
                at += 1;
            }
        }
        out
    }
}

/// One animation record, as stored (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AnimationRecord {
    /// String id of the name.
    pub name: u32,
    /// Relative frames.
    pub frame_count: u32,
    /// Mode and flag bits.
    pub flags: u32,
    /// Range start, or word index of the frame list.
    pub start: u32,
    /// Range end (inclusive).
    pub end: u32,
    /// Seconds per frame for frames without a duration (scalar word; ≤ 0 holds them).
    pub frame_time: u32,
    /// Repeat count.
    pub repeat: u32,
    /// Word index of the durations.
    pub durations: u32,
    /// Word index of the (first, count) event pairs.
    pub events: u32,
}

impl AnimationRecord {
    /// Reads record `i` of `records`.
    pub fn read(records: &[u8], i: usize) -> Option<Self> {
        let at = i.checked_mul(ANIMATION_RECORD_LEN)?;
        let w = WordView::new(records.get(at..at.checked_add(ANIMATION_RECORD_LEN)?)?);
        Some(Self {
            name: w.get(0)?,
            frame_count: w.get(1)?,
            flags: w.get(2)?,
            start: w.get(3)?,
            end: w.get(4)?,
            frame_time: w.get(5)?,
            repeat: w.get(6)?,
            durations: w.get(7)?,
            events: w.get(8)?,
        })
    }

    /// The record's 36 bytes.
    pub fn to_bytes(&self) -> [u8; ANIMATION_RECORD_LEN] {
        let mut out = [0u8; ANIMATION_RECORD_LEN];
        let words = [
            self.name,
            self.frame_count,
            self.flags,
            self.start,
            self.end,
            self.frame_time,
            self.repeat,
            self.durations,
            self.events,
        ];
        for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The play mode bits (0 Forward, 1 Reverse, 2 PingPong, 3 PingPongReverse).
    pub fn mode(&self) -> u8 {
        (self.flags & ANIM_MODE_MASK) as u8
    }

    /// Whether it loops.
    pub fn looping(&self) -> bool {
        self.flags & ANIM_FLAG_LOOP != 0
    }
}

/// A validated sprite section, borrowed from the blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpriteSection<'a> {
    body: SpriteBody<'a>,
    strings: StringTable<'a>,
    name_str: &'a str,
    format: PixelFormat,
    transparency: Transparency,
    words: WordView<'a>,
    encoding: ScalarEncoding,
}

fn word_range_ok(words: &WordView<'_>, start: u32, count: u32) -> bool {
    (start as usize).checked_add(count as usize).is_some_and(|end| end <= words.len())
}

fn time_ok(encoding: ScalarEncoding, word: u32) -> bool {
    match encoding {
        ScalarEncoding::F32 => f32::from_bits(word).is_finite(),
        ScalarEncoding::Q16_16 => true,
    }
}

impl<'a> SpriteSection<'a> {
    /// Parses and validates a sprite section body: every frame's geometry and data range, every RLE
    /// row offset, every animation's frames, words, times and string ids.
    pub fn parse(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let this = Self::open(body, encoding, strings)?;
        let raw = this.body;
        let (format, transparency) = (this.format, this.transparency);
        let sprite = |d: SpriteDefect| SectionDefect::Sprite(d);
        let string = |id: u32| strings.get(id).ok_or(SectionDefect::StringRef { string: id, count: strings.len() });
        let (width, height) = (u32::from(raw.width), u32::from(raw.height));
        if width == 0 || height == 0 || width > MAX_SPRITE_SIZE || height > MAX_SPRITE_SIZE {
            return Err(sprite(SpriteDefect::CanvasSize { width: raw.width, height: raw.height }));
        }
        let entries = raw.palette.len() / 3;
        let palette_ok = raw.palette.len() % 3 == 0
            && if format.is_indexed() { entries >= 1 && entries as u32 <= format.max_palette() } else { entries == 0 };
        if !palette_ok {
            return Err(sprite(SpriteDefect::Palette { len: raw.palette.len() }));
        }
        let key_ok = transparency != Transparency::ColorKey
            || match format {
                PixelFormat::Rgb565Le | PixelFormat::Rgb565Be => raw.key <= 0xFFFF,
                PixelFormat::Rgb888 => raw.key <= 0xFF_FFFF,
                _ => (raw.key as usize) < entries,
            };
        if !key_ok {
            return Err(sprite(SpriteDefect::Key { key: raw.key }));
        }
        let frame_count = raw.frames.len() / FRAME_RECORD_LEN;
        if raw.frames.len() % FRAME_RECORD_LEN != 0 || frame_count as u64 > u64::from(MAX_SPRITE_FRAMES) {
            return Err(sprite(SpriteDefect::FrameCount { len: raw.frames.len() }));
        }
        let anim_count = raw.animations.len() / ANIMATION_RECORD_LEN;
        if raw.animations.len() % ANIMATION_RECORD_LEN != 0 || anim_count as u64 > u64::from(MAX_SPRITE_ANIMATIONS) {
            return Err(sprite(SpriteDefect::AnimationCount { len: raw.animations.len() }));
        }
        if raw.words.len() % 4 != 0 {
            return Err(SectionDefect::ArrayLength { len: raw.words.len(), element: 4 });
        }
        for i in 0..frame_count {
            let frame = i as u32;
            let r =
                FrameRecord::read(raw.frames, i).ok_or(sprite(SpriteDefect::FrameCount { len: raw.frames.len() }))?;
            Self::check_frame(&raw, format, transparency, width, height, frame, &r).map_err(sprite)?;
        }
        let words = this.words;
        for i in 0..anim_count {
            let animation = i as u32;
            let a = AnimationRecord::read(raw.animations, i)
                .ok_or(sprite(SpriteDefect::AnimationCount { len: raw.animations.len() }))?;
            string(a.name)?;
            Self::check_animation(&words, encoding, frame_count as u32, animation, &a, &string)?;
        }
        let _ = words;
        Ok(this)
    }

    /// Decodes a sprite section body that [`parse`](Self::parse) has already accepted (as
    /// [`Blob::parse`](crate::Blob::parse) does for every section), without repeating the per-frame
    /// and per-animation checks. On a body that was never validated the accessors still cannot
    /// panic; they may return wrong or `None` data.
    pub fn open(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let (raw, rest) = postcard::take_from_bytes::<SpriteBody<'a>>(body).map_err(|_| SectionDefect::Encoding)?;
        if !rest.is_empty() {
            return Err(SectionDefect::Encoding);
        }
        let name_str =
            strings.get(raw.name).ok_or(SectionDefect::StringRef { string: raw.name, count: strings.len() })?;
        let format = PixelFormat::from_u8(raw.format)
            .ok_or(SectionDefect::Sprite(SpriteDefect::UnknownPixelFormat { found: raw.format }))?;
        let transparency = Transparency::from_u8(raw.transparency)
            .ok_or(SectionDefect::Sprite(SpriteDefect::UnknownTransparency { found: raw.transparency }))?;
        Ok(Self {
            body: raw,
            strings: *strings,
            name_str,
            format,
            transparency,
            words: WordView::new(raw.words),
            encoding,
        })
    }

    fn check_frame(
        raw: &SpriteBody<'a>,
        format: PixelFormat,
        transparency: Transparency,
        width: u32,
        height: u32,
        frame: u32,
        r: &FrameRecord,
    ) -> Result<(), SpriteDefect> {
        let inside =
            r.x >= 0 && r.y >= 0 && (r.x as u32) + u32::from(r.w) <= width && (r.y as u32) + u32::from(r.h) <= height;
        if !inside {
            return Err(SpriteDefect::FrameOutsideCanvas { frame });
        }
        let rle = r.flags & FRAME_FLAG_RLE != 0;
        let mask = r.flags & FRAME_FLAG_MASK != 0;
        let flags_ok = r.flags & !(FRAME_FLAG_RLE | FRAME_FLAG_MASK) == 0
            && !(rle && mask)
            && (!mask || transparency == Transparency::Mask);
        if !flags_ok {
            return Err(SpriteDefect::FrameFlags { frame, flags: r.flags });
        }
        let data_err = SpriteDefect::FrameData { frame };
        let start = r.offset as usize;
        let data = start.checked_add(r.len as usize).and_then(|end| raw.pixels.get(start..end)).ok_or(data_err)?;
        let (w, h) = (u64::from(r.w), u64::from(r.h));
        if w == 0 || h == 0 {
            return if data.is_empty() { Ok(()) } else { Err(data_err) };
        }
        if rle {
            let table = h * 4;
            if (data.len() as u64) < table {
                return Err(data_err);
            }
            let mut prev = table;
            for row in 0..r.h {
                let off = u64::from(le_u32(data, usize::from(row) * 4).ok_or(data_err)?);
                if off < prev || off > data.len() as u64 {
                    return Err(SpriteDefect::RleRowTable { frame, row: u32::from(row) });
                }
                prev = off;
            }
            Ok(())
        } else {
            let mut need = h * u64::from(format.stride(u32::from(r.w)));
            if mask {
                need += h * w.div_ceil(8);
            }
            if data.len() as u64 == need {
                Ok(())
            } else {
                Err(data_err)
            }
        }
    }

    fn check_animation(
        words: &WordView<'a>,
        encoding: ScalarEncoding,
        frame_total: u32,
        animation: u32,
        a: &AnimationRecord,
        string: &dyn Fn(u32) -> Result<&'a str, SectionDefect>,
    ) -> Result<(), SectionDefect> {
        let sprite = SectionDefect::Sprite;
        let known = ANIM_MODE_MASK | ANIM_FLAG_LOOP | ANIM_FLAG_LIST | ANIM_FLAG_DURATIONS | ANIM_FLAG_EVENTS;
        let n = a.frame_count;
        if n == 0
            || n > MAX_SPRITE_FRAMES.saturating_mul(16)
            || a.flags & !known != 0
            || !time_ok(encoding, a.frame_time)
        {
            return Err(sprite(SpriteDefect::AnimationHeader { animation }));
        }
        let words_err = sprite(SpriteDefect::AnimationWords { animation });
        if a.flags & ANIM_FLAG_LIST != 0 {
            if !word_range_ok(words, a.start, n) {
                return Err(words_err);
            }
            for k in 0..n {
                let index = words.get((a.start + k) as usize).ok_or(words_err)?;
                if index >= frame_total {
                    return Err(sprite(SpriteDefect::AnimationFrame { animation, frame: k, index }));
                }
            }
        } else {
            if a.start.abs_diff(a.end).checked_add(1) != Some(n) {
                return Err(sprite(SpriteDefect::AnimationHeader { animation }));
            }
            let hi = a.start.max(a.end);
            if hi >= frame_total {
                let frame = if a.end >= a.start { hi - a.start } else { 0 };
                return Err(sprite(SpriteDefect::AnimationFrame { animation, frame, index: hi }));
            }
        }
        if a.flags & ANIM_FLAG_DURATIONS != 0 {
            if !word_range_ok(words, a.durations, n) {
                return Err(words_err);
            }
            for k in 0..n {
                let w = words.get((a.durations + k) as usize).ok_or(words_err)?;
                if !time_ok(encoding, w) {
                    return Err(sprite(SpriteDefect::AnimationHeader { animation }));
                }
            }
        }
        if a.flags & ANIM_FLAG_EVENTS != 0 {
            if n.checked_mul(2).is_none_or(|pairs| !word_range_ok(words, a.events, pairs)) {
                return Err(words_err);
            }
            for k in 0..n {
                let at = (a.events + 2 * k) as usize;
                let first = words.get(at).ok_or(words_err)?;
                let count = words.get(at + 1).ok_or(words_err)?;
                if count > MAX_FRAME_EVENTS {
                    return Err(sprite(SpriteDefect::EventCount { animation, frame: k }));
                }
                if !word_range_ok(words, first, count) {
                    return Err(words_err);
                }
                for e in 0..count {
                    string(words.get((first + e) as usize).ok_or(words_err)?)?;
                }
            }
        }
        Ok(())
    }

    /// String id of the name.
    pub fn name_id(&self) -> u32 {
        self.body.name
    }

    /// String `id` of the blob's string table (animation names, event names).
    pub fn strings_get(&self, id: u32) -> Option<&'a str> {
        self.strings.get(id)
    }

    /// The name.
    pub fn name(&self) -> &'a str {
        self.name_str
    }

    /// Canvas width.
    pub fn width(&self) -> u16 {
        self.body.width
    }

    /// Canvas height.
    pub fn height(&self) -> u16 {
        self.body.height
    }

    /// The pixel format.
    pub fn format(&self) -> PixelFormat {
        self.format
    }

    /// How transparency is marked.
    pub fn transparency(&self) -> Transparency {
        self.transparency
    }

    /// The colour key.
    pub fn key(&self) -> u32 {
        self.body.key
    }

    /// RGB888 palette triples.
    pub fn palette(&self) -> &'a [u8] {
        self.body.palette
    }

    /// The scalar encoding of frame times and durations.
    pub fn encoding(&self) -> ScalarEncoding {
        self.encoding
    }

    /// The number of frames.
    pub fn frame_count(&self) -> u32 {
        (self.body.frames.len() / FRAME_RECORD_LEN) as u32
    }

    /// Frame record `i`.
    pub fn frame_record(&self, i: u32) -> Option<FrameRecord> {
        FrameRecord::read(self.body.frames, i as usize)
    }

    /// Frame `i`'s pixels, ready for a blitter.
    pub fn frame(&self, i: u32) -> Option<FramePixels<'a>> {
        let r = self.frame_record(i)?;
        let start = r.offset as usize;
        let all = self.body.pixels.get(start..start.checked_add(r.len as usize)?)?;
        let rle = r.flags & FRAME_FLAG_RLE != 0;
        let (data, mask) = if r.flags & FRAME_FLAG_MASK != 0 {
            let pixel_bytes = usize::from(r.h) * self.format.stride(u32::from(r.w)) as usize;
            (all.get(..pixel_bytes)?, Some(all.get(pixel_bytes..)?))
        } else {
            (all, None)
        };
        Some(FramePixels {
            format: self.format,
            transparency: self.transparency,
            key: self.body.key,
            palette: self.body.palette,
            x: r.x,
            y: r.y,
            width: r.w,
            height: r.h,
            rle,
            data,
            mask,
        })
    }

    /// The number of animations.
    pub fn animation_count(&self) -> u32 {
        (self.body.animations.len() / ANIMATION_RECORD_LEN) as u32
    }

    /// Animation record `i`.
    pub fn animation(&self, i: u32) -> Option<AnimationRecord> {
        AnimationRecord::read(self.body.animations, i as usize)
    }

    /// The animation records as stored ([`ANIMATION_RECORD_LEN`] bytes each).
    pub fn animation_record_bytes(&self) -> &'a [u8] {
        self.body.animations
    }

    /// The words the animation records point into.
    pub fn words(&self) -> WordView<'a> {
        self.words
    }

    /// The bytes of pixel data (for size reports).
    pub fn pixel_bytes(&self) -> usize {
        self.body.pixels.len()
    }

    /// The raw body, for tools.
    pub fn body(&self) -> SpriteBody<'a> {
        self.body
    }
}
