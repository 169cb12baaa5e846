//! Sprite animations end to end: every animation of every sprite of a blob, played with the
//! kernel's [`SpritePlayer`] and drawn with its blitter, one CRC-32 per shown frame.
//!
//! This one file is compiled twice: into the QEMU firmware (`boards/qemu`, as a module of its
//! library) and into the host test `tests/tests/qemu_sprites.rs` (through `#[path]`). It depends
//! only on `ossicle` (feature `graphics`), `ossicle-format`, `embedded-graphics-core` and `core`.
//!
//! For each sprite (blob order) and each of its animations (index order), [`run`] does one
//! play-through exactly as the host's `ossicle render` does (`host/src/render.rs`,
//! `play_through`): `play(animation, restart)`, `update(0)`, then record the shown frame and update
//! by [`next_change`](SpritePlayer::next_change) until the first `SpriteLooped` (looping
//! animations) or `SpriteEnded`, or until the shown frame holds for ever. Every shown frame is drawn
//! with [`draw_frame`] at the canvas origin (`in_canvas(width, height)`, no flip, no rotation,
//! scale 1) into an [`Rgb565`] canvas of the sprite's size cleared to black, band by band
//! ([`render_bands`], [`BAND_ROWS`] rows per band, two buffers of [`MAX_WIDTH`] × [`BAND_ROWS`]
//! pixels: no framebuffer), and the canvas's pixels, row-major, as big-endian RGB565 `u16`s, go
//! through a CRC-32 (ISO-HDLC, [`ossicle_format::CRC32`]).
//!
//! Memory (stack): the two band buffers (2 × 64 × 8 × 2 = 2 KiB), the kernel's play-through
//! ([`ossicle::sprite::play_through`]: a player and a small event queue) and the draw's locals.

use core::convert::Infallible;

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::Point;
use embedded_graphics_core::pixelcolor::{IntoStorage, Rgb565, RgbColor};
use ossicle::asset::{Asset, LoadError};
use ossicle::draw::{draw_frame, render_bands, DrawError, DrawOptions, RenderError};
use ossicle::sprite::{play_through, BlobSprite, Rect, SpriteError};
use ossicle::{Scalar, Q16};
use ossicle_format::{ScalarEncoding, CRC32};

/// Rows per band.
pub const BAND_ROWS: u32 = 8;

/// The widest canvas [`run`] draws (each band buffer holds `MAX_WIDTH × BAND_ROWS` pixels).
pub const MAX_WIDTH: u32 = 64;

/// Pixels per band buffer.
pub const BAND_PIXELS: usize = (MAX_WIDTH * BAND_ROWS) as usize;

/// The most frames one play-through may show (the host's limit is larger; the samples show a few
/// dozen).
pub const MAX_SHOWN: u32 = 4096;

/// One frame shown during a play-through, and the CRC of its drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown<'a> {
    /// The sprite's name.
    pub sprite: &'a str,
    /// The animation's name.
    pub animation: &'a str,
    /// The animation's index in the sprite.
    pub animation_index: u32,
    /// The position in the play-through (0 for the first frame shown).
    pub index: u32,
    /// The animation's relative frame.
    pub relative: u32,
    /// The sprite frame shown.
    pub source: u32,
    /// The frame's duration as the blob stores scalars (`to_blob_bits`); 0 for a frame that holds
    /// for ever.
    pub duration: u32,
    /// CRC-32 of the canvas drawn (see the [module documentation](self)).
    pub crc: u32,
}

/// What [`run`] went through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Sprites.
    pub sprites: u32,
    /// Animations (play-throughs).
    pub animations: u32,
    /// Frames shown (and drawn) in all.
    pub frames: u32,
    /// CRC-32 over every shown frame's `animation_index`, `index`, `source`, `duration` and `crc`
    /// (little-endian words, in order).
    pub crc: u32,
}

/// Why [`run`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpritesError {
    /// The blob did not load.
    Load(LoadError),
    /// The blob holds no sprite.
    NoSprites,
    /// A sprite's canvas is wider than [`MAX_WIDTH`] (or empty).
    Canvas,
    /// A sprite's animations could not be read or played.
    Player(SpriteError),
    /// An animation or frame the player named does not exist.
    NoFrame,
    /// A play-through showed more than [`MAX_SHOWN`] frames.
    TooManyFrames,
    /// The draw failed.
    Draw,
}

impl SpritesError {
    /// A small number that names the error, for an exit code.
    pub fn code(&self) -> u8 {
        match self {
            SpritesError::Load(_) => 1,
            SpritesError::NoSprites => 2,
            SpritesError::Canvas => 3,
            SpritesError::Player(_) => 4,
            SpritesError::NoFrame => 5,
            SpritesError::TooManyFrames => 7,
            SpritesError::Draw => 8,
        }
    }
}

/// Plays every animation of every sprite of `blob` (in its own scalar encoding) and draws every
/// shown frame, calling `report` once per shown frame, in order.
pub fn run(blob: &[u8], mut report: impl FnMut(&Shown<'_>)) -> Result<Summary, SpritesError> {
    let asset = Asset::load(blob).map_err(SpritesError::Load)?;
    let mut a = [Rgb565::BLACK; BAND_PIXELS];
    let mut b = [Rgb565::BLACK; BAND_PIXELS];
    let mut summary = Summary::default();
    let mut all = CRC32.digest();
    for sprite in asset.sprites() {
        summary.sprites += 1;
        let count = sprite.section().animation_count();
        for animation in 0..count {
            summary.animations += 1;
            let mut each = |shown: &Shown<'_>| {
                for w in [shown.animation_index, shown.index, shown.source, shown.duration, shown.crc] {
                    all.update(&w.to_le_bytes());
                }
                summary.frames = summary.frames.saturating_add(1);
                report(shown);
            };
            match asset.encoding() {
                ScalarEncoding::F32 => play::<f32>(&sprite, animation, &mut a, &mut b, &mut each)?,
                ScalarEncoding::Q16_16 => play::<Q16>(&sprite, animation, &mut a, &mut b, &mut each)?,
            }
        }
    }
    if summary.sprites == 0 {
        return Err(SpritesError::NoSprites);
    }
    summary.crc = all.finalize();
    Ok(summary)
}

/// One play-through of `animation` (the kernel's [`play_through`], as the host's render plays it),
/// drawing each shown frame.
fn play<S: Scalar>(
    sprite: &BlobSprite<'_>,
    animation: u32,
    a: &mut [Rgb565],
    b: &mut [Rgb565],
    report: &mut impl FnMut(&Shown<'_>),
) -> Result<(), SpritesError> {
    let src = sprite.animations::<S>().map_err(|_| SpritesError::NoFrame)?;
    let index = animation as usize;
    let name = src.name(index).unwrap_or("");
    let mut shown = 0u32;
    let mut failed = None;
    play_through(&src, index, |relative, frame| {
        if shown >= MAX_SHOWN {
            failed = Some(SpritesError::TooManyFrames);
            return false;
        }
        let duration = frame.duration.filter(|d| *d > S::ZERO).map_or(0, |d| d.to_blob_bits());
        match frame_crc(sprite, frame.source, a, b) {
            Ok(crc) => {
                report(&Shown {
                    sprite: sprite.name(),
                    animation: name,
                    animation_index: animation,
                    index: shown,
                    relative,
                    source: frame.source,
                    duration,
                    crc,
                });
                shown += 1;
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    })
    .map_err(SpritesError::Player)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Draws sprite frame `source` at the origin of a black canvas of the sprite's size, in bands
/// (`a` and `b`: at least one canvas row each), and returns the CRC-32 of the canvas's pixels,
/// row-major, as big-endian RGB565.
pub fn frame_crc(
    sprite: &BlobSprite<'_>,
    source: u32,
    a: &mut [Rgb565],
    b: &mut [Rgb565],
) -> Result<u32, SpritesError> {
    let frame = sprite.frame(source).ok_or(SpritesError::NoFrame)?;
    let (w, h) = (sprite.width(), sprite.height());
    let (Ok(cw), Ok(ch)) = (u16::try_from(w), u16::try_from(h)) else { return Err(SpritesError::Canvas) };
    if w == 0 || h == 0 || w > MAX_WIDTH {
        return Err(SpritesError::Canvas);
    }
    let opts = DrawOptions::<Rgb565>::new().in_canvas(cw, ch);
    let mut digest = CRC32.digest();
    let mut row = [0u8; 2 * MAX_WIDTH as usize];
    let drawn = render_bands(
        Rect { x: 0, y: 0, w, h },
        a,
        b,
        |band| -> Result<(), DrawError<Infallible>> {
            band.clear(Rgb565::BLACK).map_err(DrawError::Target)?;
            draw_frame(band, &frame, Point::zero(), &opts).map(|_| ())
        },
        |_, pixels| {
            for line in pixels.chunks(w as usize) {
                let mut n = 0;
                for (slot, c) in row.chunks_exact_mut(2).zip(line) {
                    slot.copy_from_slice(&c.into_storage().to_be_bytes());
                    n += 2;
                }
                digest.update(row.get(..n).unwrap_or(&[]));
            }
            Ok(())
        },
    );
    match drawn {
        Ok(_) => Ok(digest.finalize()),
        Err(RenderError::BufferTooSmall(_)) => Err(SpritesError::Canvas),
        Err(RenderError::Callback(_)) => Err(SpritesError::Draw),
    }
}
