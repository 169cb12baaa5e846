//! Pixel storage: turns a sprite's RGBA frames ([`crate::ir::Sprite`]) into the palette, frame
//! records and pixel bytes of its blob section, laid out as [`ossicle_format::sprite`] specifies;
//! and back again ([`decode_frame`], a reference decoder independent of the kernel).
//!
//! # What is stored
//!
//! - **Alpha.** The kernel does not blend: a pixel is drawn or it is not. A pixel whose alpha is at
//!   least [`PixelOptions::alpha_threshold`] is opaque and its alpha is dropped; any other pixel is
//!   transparent. Pixels with partial alpha (0 < a < 255) are counted in
//!   [`EncodeReport::partial_alpha_pixels`], so a tool can warn that soft edges turn hard.
//! - **Trim.** A frame stores only the bounding box of its opaque pixels, placed in the canvas at the
//!   frame's offset plus the box's top-left corner. A frame without an opaque pixel stores nothing
//!   (`w = h = 0`, `len = 0`). A frame image that sticks out of the canvas is an error that names
//!   the frame's origin.
//! - **Shared data.** Frames whose stored data is identical (same size, flags and bytes; the
//!   position may differ) point at one data range ([`FrameReport::shared_with`]).
//! - **Palette.** The distinct opaque colours in order of first appearance: frames in order, each
//!   row by row, left to right. When raw frames of an indexed sprite need a colour key, the key is
//!   one more palette entry after the colours (black, never used by an opaque pixel), so a colour's
//!   index does not depend on whether the sprite has transparent pixels and palette swaps stay
//!   stable. A palette has at least one entry (the format requires it).
//!
//! # Choosing the format ([`FormatChoice::Auto`])
//!
//! Every lossless form is a candidate: an indexed format whose palette holds the colours (plus the
//! transparent key, when a raw frame could need one), RGB565 in the [`PixelOptions::endian`] byte
//! order when every colour survives the 565 round trip exactly ([`rgb565_to_rgb888`] after
//! [`rgb888_to_rgb565`]), and RGB888. Each candidate is encoded completely (RLE per frame as
//! [`PixelOptions::rle`] says, shared data, palette, frame records) and the smallest total wins; on
//! a tie, the format with fewer bits per pixel. [`EncodeReport::candidates`] lists every
//! candidate's total. When even indexed 8 has no room for the key (256 colours and transparent
//! pixels), indexed 8 with a one-bit mask is the indexed candidate.
//!
//! [`FormatChoice::Fixed`] RGB565 quantises colours it cannot hold to the nearest 565 value
//! ([`EncodeReport::quantised_colours`] counts them); a fixed indexed format that cannot hold the
//! colours is an error naming the count.
//!
//! # Transparency of raw frames
//!
//! Indexed formats mark transparent pixels with the reserved key index; direct formats with a
//! value no opaque pixel uses: magenta (`0xF81F` in RGB565, `0xFF00FF` in RGB888) when it is free,
//! else the smallest free value. When no key is possible, or [`TransparencyChoice::Mask`] asks for
//! it, raw frames with transparent pixels carry a one-bit mask instead (and a masked-out pixel is
//! stored as value 0). A sprite whose raw frames have no transparent pixel is stored with
//! [`Transparency::None`] (and without the key palette entry). RLE frames mark transparency with
//! skip runs only.
//!
//! # Row RLE
//!
//! Each row is encoded on its own: transparent pixels become skip runs (64 at most each), except at
//! the end of the row, where the stream simply stops; each stretch of opaque pixels is split into
//! runs (up to 128 equal values) and literals (up to 64 values) with the fewest bytes (a shortest
//! path over the stretch, so a run of two 1-byte values is only used where it saves a byte).
//! [`RleChoice::Auto`] stores a frame as RLE when that is strictly smaller than its raw rows.
//!
//! Everything is deterministic: the same sprite and options give the same bytes.

use std::collections::{BTreeMap, HashMap, HashSet};

use ossicle_format::sprite::{
    PixelFormat, SpriteBody, Transparency, FRAME_FLAG_MASK, FRAME_FLAG_RLE, FRAME_RECORD_LEN, MAX_SPRITE_FRAMES,
    MAX_SPRITE_SIZE,
};

use crate::ir::{RgbaImage, Sprite};
use crate::HostError;

/// The alpha at and above which a pixel is opaque, unless [`PixelOptions::alpha_threshold`] says otherwise.
pub const DEFAULT_ALPHA_THRESHOLD: u8 = 128;

/// Which pixel format a sprite is stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FormatChoice {
    /// The smallest lossless form (see the [module documentation](self)).
    #[default]
    Auto,
    /// This format. RGB565 quantises colours it cannot hold; an indexed format that cannot hold the
    /// colours is an error.
    Fixed(PixelFormat),
    /// The indexed format with the fewest bits that holds the colours; an error above 256 colours.
    Indexed,
}

/// The RGB565 byte order [`FormatChoice::Auto`] uses: the one the display panel takes, so nothing
/// converts at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Endian {
    /// Low byte first ([`PixelFormat::Rgb565Le`]).
    #[default]
    Little,
    /// High byte first ([`PixelFormat::Rgb565Be`], as most SPI panels take it).
    Big,
}

/// Whether frames are stored as row RLE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RleChoice {
    /// Per frame, RLE when it is smaller than the raw rows.
    #[default]
    Auto,
    /// Every frame RLE.
    Always,
    /// Every frame raw.
    Never,
}

/// How transparent pixels of raw frames are marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TransparencyChoice {
    /// A colour key where one is possible, else a one-bit mask.
    #[default]
    Auto,
    /// A colour key; an error when none is possible.
    Key,
    /// A one-bit mask after each raw frame that has transparent pixels.
    Mask,
}

/// How [`encode_sprite`] stores pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelOptions {
    /// The pixel format.
    pub format: FormatChoice,
    /// The RGB565 byte order [`FormatChoice::Auto`] considers.
    pub endian: Endian,
    /// Row RLE.
    pub rle: RleChoice,
    /// Transparency of raw frames.
    pub transparency: TransparencyChoice,
    /// Pixels with at least this alpha are opaque, the others transparent (0 makes every pixel of a
    /// frame image opaque).
    pub alpha_threshold: u8,
}

impl Default for PixelOptions {
    fn default() -> Self {
        Self {
            format: FormatChoice::Auto,
            endian: Endian::Little,
            rle: RleChoice::Auto,
            transparency: TransparencyChoice::Auto,
            alpha_threshold: DEFAULT_ALPHA_THRESHOLD,
        }
    }
}

/// A sprite's pixels as its blob section stores them (the [`SpriteBody`] fields that are not
/// animations), with a report of what they cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedSprite {
    /// Canvas width.
    pub width: u16,
    /// Canvas height.
    pub height: u16,
    /// The pixel format.
    pub format: PixelFormat,
    /// How transparent pixels of raw frames are marked.
    pub transparency: Transparency,
    /// The colour key: a palette index, an RGB565 value or 0xRRGGBB (0 without a key).
    pub key: u32,
    /// RGB888 palette triples (empty for direct formats).
    pub palette: Vec<u8>,
    /// [`FRAME_RECORD_LEN`]-byte frame records, one per frame of the sprite, in order.
    pub frames: Vec<u8>,
    /// The frames' pixel data.
    pub pixels: Vec<u8>,
    /// Sizes and choices.
    pub report: EncodeReport,
}

impl EncodedSprite {
    /// The sprite section body with these pixels and the given name and animation data.
    pub fn body<'a>(&'a self, name: u32, animations: &'a [u8], words: &'a [u8]) -> SpriteBody<'a> {
        SpriteBody {
            name,
            width: self.width,
            height: self.height,
            format: self.format as u8,
            transparency: self.transparency as u8,
            key: self.key,
            palette: &self.palette,
            frames: &self.frames,
            pixels: &self.pixels,
            animations,
            words,
        }
    }
}

/// What storing a sprite's pixels cost, and why.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EncodeReport {
    /// Flash bytes of the pixels: palette + frame records + pixel data.
    pub flash_bytes: usize,
    /// One entry per frame.
    pub per_frame: Vec<FrameReport>,
    /// Pixels with partial alpha (0 < a < 255) in the frame images: the kernel does not blend, so
    /// each became fully opaque or fully transparent.
    pub partial_alpha_pixels: u64,
    /// Distinct opaque colours.
    pub colours: usize,
    /// Colours that RGB565 could not hold exactly and were rounded (fixed RGB565 only).
    pub quantised_colours: usize,
    /// Every form considered, as `(name, flash bytes)`, e.g. `("indexed4+rle", 812)`; `+rle` when
    /// every stored frame is RLE, `+rle(K/N)` when K of N are, `+mask` with a one-bit mask.
    pub candidates: Vec<(String, usize)>,
}

/// How one frame is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameReport {
    /// Width of the stored (trimmed) image.
    pub stored_w: u32,
    /// Height of the stored image.
    pub stored_h: u32,
    /// Length of the frame's data (also when the data is shared with an earlier frame).
    pub bytes: usize,
    /// Whether the data is row RLE.
    pub rle: bool,
    /// The earlier frame whose data this frame points at (this frame then costs no pixel bytes).
    pub shared_with: Option<usize>,
}

/// Converts an RGB888 colour to the nearest RGB565 value (per channel, nearest after expansion).
pub fn rgb888_to_rgb565(rgb: [u8; 3]) -> u16 {
    (nearest(rgb[0], 5) << 11) | (nearest(rgb[1], 6) << 5) | nearest(rgb[2], 5)
}

/// Expands an RGB565 value to RGB888 by bit replication (`r8 = r5 << 3 | r5 >> 2`,
/// `g8 = g6 << 2 | g6 >> 4`), as the kernel does.
pub fn rgb565_to_rgb888(value: u16) -> [u8; 3] {
    [expand((value >> 11) & 0x1F, 5), expand((value >> 5) & 0x3F, 6), expand(value & 0x1F, 5)]
}

/// Whether RGB565 holds `rgb` exactly.
pub fn is_rgb565_exact(rgb: [u8; 3]) -> bool {
    rgb565_to_rgb888(rgb888_to_rgb565(rgb)) == rgb
}

fn expand(v: u16, bits: u32) -> u8 {
    ((v << (8 - bits)) | (v >> (2 * bits - 8))) as u8
}

/// The `bits`-bit value whose expansion is nearest to `c` (the lower one on a tie). The linear
/// estimate is at most one step off, so its neighbours are the only other candidates.
fn nearest(c: u8, bits: u32) -> u16 {
    let max = (1u16 << bits) - 1;
    let estimate = (u16::from(c) * max + 127) / 255;
    (estimate.saturating_sub(1)..=(estimate + 1).min(max))
        .min_by_key(|&v| (i32::from(expand(v, bits)) - i32::from(c)).abs())
        .unwrap_or(estimate)
}

/// One frame after thresholding and trimming: its stored rectangle and colour indices.
struct StoredFrame {
    x: u16,
    y: u16,
    w: u16,
    h: u16,
    /// `w × h` colour indices, `None` for transparent.
    px: Vec<Option<u32>>,
    /// Whether any stored pixel is transparent.
    transparent: bool,
}

/// A sprite after thresholding and trimming, before a format is chosen.
struct Prepared {
    frames: Vec<StoredFrame>,
    colours: Vec<[u8; 3]>,
    partial_alpha: u64,
}

fn prepare(sprite: &Sprite, threshold: u8) -> Result<Prepared, HostError> {
    let origin = &sprite.origin;
    if sprite.width > MAX_SPRITE_SIZE || sprite.height > MAX_SPRITE_SIZE {
        return Err(HostError::at(
            &origin.file,
            &origin.place,
            format!(
                "sprite `{}`: canvas {}×{} is larger than the blob allows ({MAX_SPRITE_SIZE} pixels a side)",
                sprite.name, sprite.width, sprite.height
            ),
        ));
    }
    if sprite.frames.len() as u64 > u64::from(MAX_SPRITE_FRAMES) {
        return Err(HostError::at(
            &origin.file,
            &origin.place,
            format!(
                "sprite `{}`: {} frames, more than the blob allows ({MAX_SPRITE_FRAMES})",
                sprite.name,
                sprite.frames.len()
            ),
        ));
    }
    let mut colours: Vec<[u8; 3]> = Vec::new();
    let mut index: HashMap<[u8; 3], u32> = HashMap::new();
    let mut frames = Vec::with_capacity(sprite.frames.len());
    let mut partial_alpha = 0u64;
    for (i, frame) in sprite.frames.iter().enumerate() {
        let img = &frame.image;
        let err = |reason: String| {
            HostError::at(
                &frame.origin.file,
                &frame.origin.place,
                format!("sprite `{}` frame {i}: {reason}", sprite.name),
            )
        };
        if img.pixels.len() as u64 != u64::from(img.width) * u64::from(img.height) {
            return Err(err(format!(
                "the {}×{} image has {} pixels, not {}",
                img.width,
                img.height,
                img.pixels.len(),
                u64::from(img.width) * u64::from(img.height)
            )));
        }
        if img.pixels.is_empty() {
            frames.push(StoredFrame { x: 0, y: 0, w: 0, h: 0, px: Vec::new(), transparent: false });
            continue;
        }
        let (fx, fy) = (i64::from(frame.x), i64::from(frame.y));
        if fx < 0
            || fy < 0
            || fx + i64::from(img.width) > i64::from(sprite.width)
            || fy + i64::from(img.height) > i64::from(sprite.height)
        {
            return Err(err(format!(
                "the {}×{} image at ({}, {}) sticks out of the {}×{} canvas",
                img.width, img.height, frame.x, frame.y, sprite.width, sprite.height
            )));
        }
        let w = img.width as usize;
        // Bounding box of the opaque pixels: (left, top, right, bottom), inclusive.
        let mut bbox: Option<(usize, usize, usize, usize)> = None;
        for (j, p) in img.pixels.iter().enumerate() {
            if p[3] > 0 && p[3] < 255 {
                partial_alpha += 1;
            }
            if p[3] >= threshold {
                let (px, py) = (j % w, j / w);
                bbox = Some(match bbox {
                    None => (px, py, px, py),
                    Some((l, t, r, b)) => (l.min(px), t.min(py), r.max(px), b.max(py)),
                });
            }
        }
        let Some((left, top, right, bottom)) = bbox else {
            frames.push(StoredFrame { x: 0, y: 0, w: 0, h: 0, px: Vec::new(), transparent: false });
            continue;
        };
        let (sw, sh) = (right - left + 1, bottom - top + 1);
        let mut px = Vec::with_capacity(sw * sh);
        let mut transparent = false;
        for row in img.pixels.chunks(w).skip(top).take(sh) {
            for p in &row[left..=right] {
                if p[3] >= threshold {
                    let c = [p[0], p[1], p[2]];
                    let id = *index.entry(c).or_insert_with(|| {
                        colours.push(c);
                        (colours.len() - 1) as u32
                    });
                    px.push(Some(id));
                } else {
                    transparent = true;
                    px.push(None);
                }
            }
        }
        // Inside the canvas (checked above), so every value fits in 15 bits.
        frames.push(StoredFrame {
            x: (fx as usize + left) as u16,
            y: (fy as usize + top) as u16,
            w: sw as u16,
            h: sh as u16,
            px,
            transparent,
        });
    }
    Ok(Prepared { frames, colours, partial_alpha })
}

/// How a candidate marks transparent pixels of raw frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// No raw frame needs transparency.
    Opaque,
    /// This stored value is transparent.
    Key(u32),
    /// One-bit masks.
    Mask,
}

/// A format to try: the stored value of each colour and how transparency is marked.
struct Plan {
    format: PixelFormat,
    mode: Mode,
    /// Stored value per colour index.
    values: Vec<u32>,
    quantised: usize,
}

const INDEXED: [PixelFormat; 4] =
    [PixelFormat::Indexed1, PixelFormat::Indexed2, PixelFormat::Indexed4, PixelFormat::Indexed8];

/// The transparency of an indexed format holding `n` colours, or `None` when it cannot hold them.
/// `mask_fallback`: with [`TransparencyChoice::Auto`], use a mask when there is no room for the key.
fn indexed_mode(
    format: PixelFormat,
    n: usize,
    needs: bool,
    choice: TransparencyChoice,
    mask_fallback: bool,
) -> Option<Mode> {
    let cap = format.max_palette() as usize;
    if !needs {
        return (n <= cap).then_some(Mode::Opaque);
    }
    match choice {
        TransparencyChoice::Mask => (n <= cap).then_some(Mode::Mask),
        TransparencyChoice::Key => (n < cap).then_some(Mode::Key(n as u32)),
        TransparencyChoice::Auto if n < cap => Some(Mode::Key(n as u32)),
        TransparencyChoice::Auto => (mask_fallback && n <= cap).then_some(Mode::Mask),
    }
}

fn indexed_plan(format: PixelFormat, mode: Mode, n: usize) -> Plan {
    Plan { format, mode, values: (0..n as u32).collect(), quantised: 0 }
}

/// A direct-format plan; `Err` with a reason when a key is required and none is free.
fn direct_plan(
    format: PixelFormat,
    colours: &[[u8; 3]],
    needs: bool,
    choice: TransparencyChoice,
) -> Result<Plan, String> {
    let (values, quantised): (Vec<u32>, usize) = if format == PixelFormat::Rgb888 {
        (colours.iter().map(|c| u32::from_be_bytes([0, c[0], c[1], c[2]])).collect(), 0)
    } else {
        let values = colours.iter().map(|&c| u32::from(rgb888_to_rgb565(c))).collect();
        (values, colours.iter().filter(|&&c| !is_rgb565_exact(c)).count())
    };
    let mode = if !needs {
        Mode::Opaque
    } else if choice == TransparencyChoice::Mask {
        Mode::Mask
    } else {
        let used: HashSet<u32> = values.iter().copied().collect();
        let (preferred, max) = if format == PixelFormat::Rgb888 { (0xFF_00FF, 0xFF_FFFF) } else { (0xF81F, 0xFFFF) };
        let free = if used.contains(&preferred) { (0..=max).find(|v| !used.contains(v)) } else { Some(preferred) };
        match (free, choice) {
            (Some(key), _) => Mode::Key(key),
            (None, TransparencyChoice::Key) => {
                return Err(format!(
                    "no colour key is free: opaque pixels use every {} value (use mask transparency)",
                    format.name()
                ))
            }
            (None, _) => Mode::Mask,
        }
    };
    Ok(Plan { format, mode, values, quantised })
}

/// Stores a sprite's frames as blob pixels (see the [module documentation](self)).
///
/// Errors name the sprite's or the frame's origin: a canvas or frame count the blob cannot hold, a
/// frame image that sticks out of the canvas or whose pixel count does not match its size, colours
/// that do not fit a fixed indexed format, a colour key asked for where none is possible, or more
/// than 4 GiB of pixel data.
///
/// ```
/// use ossicle_host::ir::{Origin, RgbaImage, Sprite, SpriteFrame};
/// use ossicle_host::pixels::{decode_frame, encode_sprite, PixelOptions};
/// use ossicle_format::sprite::PixelFormat;
///
/// let mut image = RgbaImage::new(8, 8);
/// for y in 1..7 {
///     for x in 1..7 {
///         image.set(x, y, if x == y { [0, 0, 255, 255] } else { [255, 0, 0, 255] });
///     }
/// }
/// image.set(2, 5, [0, 0, 0, 0]); // a hole
/// let frame = SpriteFrame { image, x: 0, y: 0, duration: None, events: vec![], origin: Origin::default() };
/// let sprite = Sprite {
///     name: "box".into(), width: 8, height: 8, frames: vec![frame], animations: vec![], origin: Origin::default(),
/// };
/// let encoded = encode_sprite(&sprite, &PixelOptions::default()).unwrap();
/// // Two colours and the transparent key: three palette entries, 2 bits per pixel, 6 × 6 stored.
/// assert_eq!(encoded.format, PixelFormat::Indexed2);
/// // Palette in order of first appearance (blue at the top-left), then the key.
/// assert_eq!(encoded.palette, [0, 0, 255, 255, 0, 0, 0, 0, 0]);
/// assert_eq!(encoded.report.flash_bytes, 9 + 20 + 6 * 2);
/// let (x, y, stored) = decode_frame(&encoded, 0).unwrap();
/// assert_eq!((x, y, stored.width, stored.height), (1, 1, 6, 6));
/// assert_eq!(stored.get(0, 0), Some([0, 0, 255, 255]));
/// assert_eq!(stored.get(1, 4), Some([0, 0, 0, 0]));
/// ```
pub fn encode_sprite(sprite: &Sprite, opts: &PixelOptions) -> Result<EncodedSprite, HostError> {
    let prep = prepare(sprite, opts.alpha_threshold)?;
    let err = |reason: String| {
        HostError::at(&sprite.origin.file, &sprite.origin.place, format!("sprite `{}`: {reason}", sprite.name))
    };
    let n = prep.colours.len();
    let needs = opts.rle != RleChoice::Always && prep.frames.iter().any(|f| f.transparent);
    let choice = opts.transparency;
    let too_many = |format: PixelFormat| {
        let key = if needs && choice == TransparencyChoice::Key { " and the transparent key" } else { "" };
        format!("{n} colours{key} do not fit in {} ({} palette entries)", format.name(), format.max_palette())
    };
    let mut plans = Vec::new();
    match opts.format {
        FormatChoice::Auto => {
            for format in INDEXED {
                if let Some(mode) = indexed_mode(format, n, needs, choice, format == PixelFormat::Indexed8) {
                    plans.push(indexed_plan(format, mode, n));
                }
            }
            let rgb565 = match opts.endian {
                Endian::Little => PixelFormat::Rgb565Le,
                Endian::Big => PixelFormat::Rgb565Be,
            };
            if prep.colours.iter().all(|&c| is_rgb565_exact(c)) {
                plans.push(direct_plan(rgb565, &prep.colours, needs, choice).map_err(err)?);
            }
            plans.push(direct_plan(PixelFormat::Rgb888, &prep.colours, needs, choice).map_err(err)?);
        }
        FormatChoice::Indexed => {
            let found = INDEXED.iter().find_map(|&format| {
                indexed_mode(format, n, needs, choice, format == PixelFormat::Indexed8).map(|mode| (format, mode))
            });
            let Some((format, mode)) = found else { return Err(err(too_many(PixelFormat::Indexed8))) };
            plans.push(indexed_plan(format, mode, n));
        }
        FormatChoice::Fixed(format) if format.is_indexed() => {
            let Some(mode) = indexed_mode(format, n, needs, choice, true) else { return Err(err(too_many(format))) };
            plans.push(indexed_plan(format, mode, n));
        }
        FormatChoice::Fixed(format) => plans.push(direct_plan(format, &prep.colours, needs, choice).map_err(err)?),
    }
    let mut best: Option<EncodedSprite> = None;
    let mut candidates = Vec::with_capacity(plans.len());
    for plan in &plans {
        let (encoded, name) = encode_plan(sprite, &prep, plan, opts.rle).map_err(err)?;
        candidates.push((name, encoded.report.flash_bytes));
        // Plans are in order of bits per pixel: on a tie the earlier (fewer bits) stays.
        if best.as_ref().is_none_or(|b| encoded.report.flash_bytes < b.report.flash_bytes) {
            best = Some(encoded);
        }
    }
    let mut best = best.ok_or_else(|| err("no pixel format can store this sprite".into()))?;
    best.report.candidates = candidates;
    Ok(best)
}

/// What makes two frames' data interchangeable: flags, width, height and bytes.
type DataKey = (u16, u16, u16, Vec<u8>);

/// Encodes every frame with one plan; returns the result and the candidate's name.
fn encode_plan(
    sprite: &Sprite,
    prep: &Prepared,
    plan: &Plan,
    rle: RleChoice,
) -> Result<(EncodedSprite, String), String> {
    let format = plan.format;
    let fill = match plan.mode {
        Mode::Key(key) => key,
        _ => 0,
    };
    let mut frames = Vec::with_capacity(prep.frames.len() * FRAME_RECORD_LEN);
    let mut pixels: Vec<u8> = Vec::new();
    let mut per_frame = Vec::with_capacity(prep.frames.len());
    // Data already stored -> (its offset, the first frame that stored it).
    let mut seen: BTreeMap<DataKey, (u32, usize)> = BTreeMap::new();
    let mut raw_transparent = false;
    let (mut stored, mut rle_frames) = (0usize, 0usize);
    for (i, f) in prep.frames.iter().enumerate() {
        if f.w == 0 || f.h == 0 {
            push_record(&mut frames, 0, 0, 0, 0, 0, 0, 0);
            per_frame.push(FrameReport { stored_w: 0, stored_h: 0, bytes: 0, rle: false, shared_with: None });
            continue;
        }
        stored += 1;
        let with_mask = plan.mode == Mode::Mask && f.transparent;
        let (flags, data) = if rle == RleChoice::Always {
            (FRAME_FLAG_RLE, rle_frame(format, f, &plan.values))
        } else {
            let raw = raw_frame(format, f, &plan.values, fill, with_mask);
            let raw_flags = if with_mask { FRAME_FLAG_MASK } else { 0 };
            if rle == RleChoice::Auto {
                let packed = rle_frame(format, f, &plan.values);
                if packed.len() < raw.len() {
                    (FRAME_FLAG_RLE, packed)
                } else {
                    (raw_flags, raw)
                }
            } else {
                (raw_flags, raw)
            }
        };
        let is_rle = flags & FRAME_FLAG_RLE != 0;
        rle_frames += usize::from(is_rle);
        raw_transparent |= !is_rle && f.transparent;
        let len = data.len();
        let too_big = || format!("more than 4 GiB of pixel data (at frame {i})");
        let len32 = u32::try_from(len).map_err(|_| too_big())?;
        let key = (flags, f.w, f.h, data);
        let (offset, shared_with) = match seen.get(&key) {
            Some(&(offset, first)) => (offset, Some(first)),
            None => {
                let offset = u32::try_from(pixels.len()).map_err(|_| too_big())?;
                u32::try_from(pixels.len() + len).map_err(|_| too_big())?;
                pixels.extend_from_slice(&key.3);
                seen.insert(key, (offset, i));
                (offset, None)
            }
        };
        push_record(&mut frames, f.x as i16, f.y as i16, f.w, f.h, flags, offset, len32);
        per_frame.push(FrameReport {
            stored_w: u32::from(f.w),
            stored_h: u32::from(f.h),
            bytes: len,
            rle: is_rle,
            shared_with,
        });
    }
    let (transparency, key) = match plan.mode {
        Mode::Key(key) if raw_transparent => (Transparency::ColorKey, key),
        Mode::Mask if raw_transparent => (Transparency::Mask, 0),
        _ => (Transparency::None, 0),
    };
    let mut palette = Vec::new();
    if format.is_indexed() {
        for c in &prep.colours {
            palette.extend_from_slice(c);
        }
        if transparency == Transparency::ColorKey || palette.is_empty() {
            palette.extend_from_slice(&[0, 0, 0]);
        }
    }
    let mut name = format.name().to_string();
    if rle_frames == stored && stored > 0 {
        name.push_str("+rle");
    } else if rle_frames > 0 {
        name.push_str(&format!("+rle({rle_frames}/{stored})"));
    }
    if transparency == Transparency::Mask {
        name.push_str("+mask");
    }
    let report = EncodeReport {
        flash_bytes: palette.len() + frames.len() + pixels.len(),
        per_frame,
        partial_alpha_pixels: prep.partial_alpha,
        colours: prep.colours.len(),
        quantised_colours: plan.quantised,
        candidates: Vec::new(),
    };
    let encoded = EncodedSprite {
        // Checked against MAX_SPRITE_SIZE by `prepare`.
        width: sprite.width as u16,
        height: sprite.height as u16,
        format,
        transparency,
        key,
        palette,
        frames,
        pixels,
        report,
    };
    Ok((encoded, name))
}

#[allow(clippy::too_many_arguments)]
fn push_record(out: &mut Vec<u8>, x: i16, y: i16, w: u16, h: u16, flags: u16, offset: u32, len: u32) {
    out.extend_from_slice(&x.to_le_bytes());
    out.extend_from_slice(&y.to_le_bytes());
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
}

/// Appends one stored pixel value (RLE streams and raw rows of 8 bits or more).
fn push_value(format: PixelFormat, value: u32, out: &mut Vec<u8>) {
    match format {
        PixelFormat::Rgb565Le => out.extend_from_slice(&(value as u16).to_le_bytes()),
        PixelFormat::Rgb565Be => out.extend_from_slice(&(value as u16).to_be_bytes()),
        PixelFormat::Rgb888 => out.extend_from_slice(&value.to_be_bytes()[1..]),
        _ => out.push(value as u8),
    }
}

/// Raw rows (+ mask rows).
fn raw_frame(format: PixelFormat, f: &StoredFrame, values: &[u32], fill: u32, with_mask: bool) -> Vec<u8> {
    let w = usize::from(f.w);
    let stride = format.stride(u32::from(f.w)) as usize;
    let mask_stride = if with_mask { w.div_ceil(8) } else { 0 };
    let mut out = Vec::with_capacity(usize::from(f.h) * (stride + mask_stride));
    let value = |p: &Option<u32>| p.map_or(fill, |c| values[c as usize]);
    let bits = format.bits();
    for row in f.px.chunks(w) {
        if bits < 8 {
            let (mut acc, mut used) = (0u8, 0u32);
            for p in row {
                acc = (acc << bits) | value(p) as u8;
                used += bits;
                if used == 8 {
                    out.push(acc);
                    (acc, used) = (0, 0);
                }
            }
            if used > 0 {
                out.push(acc << (8 - used));
            }
        } else {
            for p in row {
                push_value(format, value(p), &mut out);
            }
        }
    }
    if with_mask {
        for row in f.px.chunks(w) {
            for group in row.chunks(8) {
                let byte = group.iter().enumerate().fold(0u8, |b, (k, p)| b | (u8::from(p.is_some()) << (7 - k)));
                out.push(byte);
            }
        }
    }
    out
}

/// Row-offset table and row streams.
fn rle_frame(format: PixelFormat, f: &StoredFrame, values: &[u32]) -> Vec<u8> {
    let w = usize::from(f.w);
    let table = 4 * usize::from(f.h);
    let mut streams = Vec::new();
    let mut offsets = Vec::with_capacity(usize::from(f.h));
    for row in f.px.chunks(w) {
        offsets.push(table + streams.len());
        rle_row(format, row, values, &mut streams);
    }
    let mut out = Vec::with_capacity(table + streams.len());
    for offset in offsets {
        // A frame of more than 4 GiB is refused by the caller before it reaches the blob.
        out.extend_from_slice(&(offset as u32).to_le_bytes());
    }
    out.extend_from_slice(&streams);
    out
}

/// One row stream: skips for transparent stretches (none at the end), runs and literals for opaque ones.
fn rle_row(format: PixelFormat, row: &[Option<u32>], values: &[u32], out: &mut Vec<u8>) {
    let end = row.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    let row = &row[..end];
    let mut stretch = Vec::new();
    let mut i = 0;
    while i < row.len() {
        let start = i;
        if row[i].is_none() {
            while i < row.len() && row[i].is_none() {
                i += 1;
            }
            let mut n = i - start;
            while n > 0 {
                let k = n.min(64);
                out.push(0x40 + (k - 1) as u8);
                n -= k;
            }
        } else {
            stretch.clear();
            while let Some(Some(c)) = row.get(i) {
                stretch.push(values[*c as usize]);
                i += 1;
            }
            rle_opaque(format, &stretch, out);
        }
    }
}

/// Encodes a stretch of opaque values with the fewest bytes: `cost[i]` is the smallest encoding of
/// `values[i..]`. Among equally small encodings the first found wins: literals (longest first), then
/// runs (longest first), so a run is only used where it saves a byte.
fn rle_opaque(format: PixelFormat, values: &[u32], out: &mut Vec<u8>) {
    let n = values.len();
    let vb = format.rle_value_bytes();
    // same[i]: how many values from i on equal values[i].
    let mut same = vec![1usize; n];
    for i in (0..n.saturating_sub(1)).rev() {
        if values[i] == values[i + 1] {
            same[i] = same[i + 1] + 1;
        }
    }
    let mut cost = vec![0usize; n + 1];
    // (is_run, length) of the first piece of the best encoding of values[i..].
    let mut pick = vec![(false, 1usize); n];
    for i in (0..n).rev() {
        let mut best = usize::MAX;
        for len in (1..=(n - i).min(64)).rev() {
            let c = 1 + len * vb + cost[i + len];
            if c < best {
                (best, pick[i]) = (c, (false, len));
            }
        }
        for len in (1..=same[i].min(128)).rev() {
            let c = 1 + vb + cost[i + len];
            if c < best {
                (best, pick[i]) = (c, (true, len));
            }
        }
        cost[i] = best;
    }
    let mut i = 0;
    while i < n {
        let (is_run, len) = pick[i];
        if is_run {
            out.push(0x80 + (len - 1) as u8);
            push_value(format, values[i], out);
        } else {
            out.push((len - 1) as u8);
            for &v in &values[i..i + len] {
                push_value(format, v, out);
            }
        }
        i += len;
    }
}

/// Decodes frame `frame` of an encoded sprite: its stored rectangle's position in the canvas and its
/// pixels (opaque pixels with alpha 255, transparent ones `[0, 0, 0, 0]`). `None` when the frame does
/// not exist or its data breaks the format. A reference decoder for tests and tools, written from
/// the format's specification independently of the kernel.
pub fn decode_frame(encoded: &EncodedSprite, frame: usize) -> Option<(i32, i32, RgbaImage)> {
    decode_body_frame(&encoded.body(0, &[], &[]), frame)
}

/// [`decode_frame`] on a sprite section body, such as one read from a blob. Checks everything it
/// reads against the format's rules (canvas size, palette size, key range, record flags, bounds in
/// the canvas, data lengths, row offsets, palette indices) and returns `None` on any violation.
///
/// The decoded image takes `4 × w × h` bytes; a frame of the largest legal canvas is 4 GiB, so a
/// tool that reads untrusted blobs bounds the canvas before it decodes.
pub fn decode_body_frame(body: &SpriteBody<'_>, frame: usize) -> Option<(i32, i32, RgbaImage)> {
    let format = PixelFormat::from_u8(body.format)?;
    let transparency = Transparency::from_u8(body.transparency)?;
    if u32::from(body.width) > MAX_SPRITE_SIZE || u32::from(body.height) > MAX_SPRITE_SIZE {
        return None;
    }
    let palette = body.palette;
    if palette.len() % 3 != 0 {
        return None;
    }
    let entries = palette.len() / 3;
    if format.is_indexed() {
        if entries == 0 || entries > format.max_palette() as usize {
            return None;
        }
    } else if entries != 0 {
        return None;
    }
    let key = match transparency {
        Transparency::ColorKey => {
            let limit = match format {
                PixelFormat::Rgb565Le | PixelFormat::Rgb565Be => 0xFFFF,
                PixelFormat::Rgb888 => 0xFF_FFFF,
                _ => format.max_palette() - 1,
            };
            if body.key > limit {
                return None;
            }
            Some(body.key)
        }
        _ => None,
    };
    if body.frames.len() % FRAME_RECORD_LEN != 0 {
        return None;
    }
    let start = frame.checked_mul(FRAME_RECORD_LEN)?;
    let rec = body.frames.get(start..start.checked_add(FRAME_RECORD_LEN)?)?;
    let u16_at = |k: usize| u16::from_le_bytes([rec[k], rec[k + 1]]);
    let u32_at = |k: usize| u32::from_le_bytes([rec[k], rec[k + 1], rec[k + 2], rec[k + 3]]);
    let (x, y) = (u16_at(0) as i16, u16_at(2) as i16);
    let (w, h, flags, reserved) = (u16_at(4), u16_at(6), u16_at(8), u16_at(10));
    let (offset, len) = (u32_at(12) as usize, u32_at(16) as usize);
    let rle = flags & FRAME_FLAG_RLE != 0;
    let mask = flags & FRAME_FLAG_MASK != 0;
    if flags & !(FRAME_FLAG_RLE | FRAME_FLAG_MASK) != 0 || reserved != 0 || (rle && mask) {
        return None;
    }
    if mask && transparency != Transparency::Mask {
        return None;
    }
    if x < 0 || y < 0 || i32::from(x) + i32::from(w) > i32::from(body.width) {
        return None;
    }
    if i32::from(y) + i32::from(h) > i32::from(body.height) {
        return None;
    }
    let data = body.pixels.get(offset..offset.checked_add(len)?)?;
    let (w, h) = (usize::from(w), usize::from(h));
    let colour = |v: u32| -> Option<[u8; 4]> {
        let rgb = match format {
            PixelFormat::Rgb565Le | PixelFormat::Rgb565Be => rgb565_to_rgb888(v as u16),
            PixelFormat::Rgb888 => [(v >> 16) as u8, (v >> 8) as u8, v as u8],
            _ => {
                let k = v as usize * 3;
                let e = palette.get(k..k + 3)?;
                [e[0], e[1], e[2]]
            }
        };
        Some([rgb[0], rgb[1], rgb[2], 255])
    };
    let value_at = |bytes: &[u8]| -> u32 {
        match format {
            PixelFormat::Rgb565Le => u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
            PixelFormat::Rgb565Be => u32::from(u16::from_be_bytes([bytes[0], bytes[1]])),
            PixelFormat::Rgb888 => u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]),
            _ => u32::from(bytes[0]),
        }
    };
    let mut img = RgbaImage::new(w as u32, h as u32);
    if rle {
        let vb = format.rle_value_bytes();
        let table = 4 * h;
        if table > data.len() {
            return None;
        }
        let offsets: Vec<usize> =
            data[..table].chunks(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize).collect();
        for row in 0..h {
            let start = offsets[row];
            let end = offsets.get(row + 1).copied().unwrap_or(data.len());
            if start < table || start > end || end > data.len() {
                return None;
            }
            let stream = &data[start..end];
            let (mut pos, mut px) = (0usize, 0usize);
            while px < w && pos < stream.len() {
                let control = stream[pos];
                pos += 1;
                match control {
                    0x00..=0x3F => {
                        for _ in 0..=control {
                            let v = value_at(stream.get(pos..pos + vb)?);
                            pos += vb;
                            if px < w {
                                img.set(px as u32, row as u32, colour(v)?);
                                px += 1;
                            }
                        }
                    }
                    0x40..=0x7F => px = (px + usize::from(control - 0x3F)).min(w),
                    0x80..=0xFF => {
                        let v = value_at(stream.get(pos..pos + vb)?);
                        pos += vb;
                        let c = colour(v)?;
                        for _ in 0..usize::from(control - 0x7F).min(w - px) {
                            img.set(px as u32, row as u32, c);
                            px += 1;
                        }
                    }
                }
            }
            if pos < stream.len() {
                // Bytes after the row is covered.
                return None;
            }
        }
    } else {
        let bits = format.bits() as usize;
        let stride = format.stride(w as u32) as usize;
        let mask_stride = if mask { w.div_ceil(8) } else { 0 };
        if Some(data.len()) != h.checked_mul(stride + mask_stride) {
            return None;
        }
        let (rows, masks) = data.split_at(h * stride);
        for row in 0..h {
            let bytes = &rows[row * stride..(row + 1) * stride];
            for px in 0..w {
                let v = if bits < 8 {
                    let bit = px * bits;
                    let shift = 8 - bits - bit % 8;
                    u32::from((bytes[bit / 8] >> shift) & ((1u16 << bits) - 1) as u8)
                } else {
                    let b = bits / 8;
                    value_at(&bytes[px * b..(px + 1) * b])
                };
                let visible =
                    if mask { masks[row * mask_stride + px / 8] & (0x80 >> (px % 8)) != 0 } else { key != Some(v) };
                if visible {
                    img.set(px as u32, row as u32, colour(v)?);
                }
            }
        }
    }
    Some((i32::from(x), i32::from(y), img))
}
