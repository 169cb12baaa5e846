//! Sprites read in place from a blob: [`BlobSprite`] (frames and their pixels) and
//! [`BlobAnimations`], the [`SpriteSource`] a [`SpritePlayer`](super::SpritePlayer) plays from
//! flash.

use core::marker::PhantomData;

use ossicle_format::sprite::{AnimationRecord, SpriteSection, ANIM_FLAG_DURATIONS, ANIM_FLAG_EVENTS, ANIM_FLAG_LIST};
pub use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};

use super::{AnimationInfo, FrameRef, PlayMode, Rect, SpriteSource};
use crate::asset::{Asset, EncodingMismatch};
use crate::scalar::Scalar;

/// A sprite of a loaded blob: its canvas, its frames' pixels and its animations, all borrowed.
///
/// ```
/// # fn demo(asset: &ossicle::Asset<'_>) -> Option<()> {
/// let hero = asset.sprite_named("hero")?;
/// let animations = hero.animations::<f32>().ok()?; // a SpriteSource
/// let frame = hero.frame(0)?; // FramePixels for a blitter
/// # let _ = (animations, frame); Some(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobSprite<'a> {
    section: SpriteSection<'a>,
}

impl<'a> BlobSprite<'a> {
    /// The sprite's name.
    pub fn name(&self) -> &'a str {
        self.section.name()
    }

    /// The name's string id.
    pub fn name_id(&self) -> u32 {
        self.section.name_id()
    }

    /// Canvas width: every frame is placed in a `width × height` canvas.
    pub fn width(&self) -> u32 {
        u32::from(self.section.width())
    }

    /// Canvas height.
    pub fn height(&self) -> u32 {
        u32::from(self.section.height())
    }

    /// How pixels are stored.
    pub fn format(&self) -> PixelFormat {
        self.section.format()
    }

    /// How transparent pixels are marked in raw frames.
    pub fn transparency(&self) -> Transparency {
        self.section.transparency()
    }

    /// The palette (RGB888 triples) of an indexed sprite.
    pub fn palette(&self) -> &'a [u8] {
        self.section.palette()
    }

    /// The number of frames.
    pub fn frame_count(&self) -> u32 {
        self.section.frame_count()
    }

    /// Frame `i`'s pixels.
    pub fn frame(&self, i: u32) -> Option<FramePixels<'a>> {
        self.section.frame(i)
    }

    /// Where frame `i`'s stored (trimmed) pixels sit in the canvas when the canvas's top-left is at
    /// `(x, y)` (empty for a fully transparent frame).
    pub fn frame_rect(&self, i: u32, x: i32, y: i32) -> Option<Rect> {
        let r = self.section.frame_record(i)?;
        Some(Rect {
            x: x.saturating_add(i32::from(r.x)),
            y: y.saturating_add(i32::from(r.y)),
            w: u32::from(r.w),
            h: u32::from(r.h),
        })
    }

    /// The animations, as a [`SpriteSource`] over scalars `S` (which must be the blob's encoding).
    pub fn animations<S: Scalar>(&self) -> Result<BlobAnimations<'a, S>, EncodingMismatch> {
        if self.section.encoding() == S::ENCODING {
            Ok(BlobAnimations { section: self.section, _scalar: PhantomData })
        } else {
            Err(EncodingMismatch { blob: self.section.encoding(), requested: S::ENCODING })
        }
    }

    /// The bytes of pixel data the sprite stores (frames shared by several records count once).
    pub fn pixel_bytes(&self) -> usize {
        self.section.pixel_bytes()
    }

    /// The validated section, for tools.
    pub fn section(&self) -> &SpriteSection<'a> {
        &self.section
    }
}

/// The animations of a [`BlobSprite`], read in place: a [`SpriteSource`] for any number of players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobAnimations<'a, S> {
    section: SpriteSection<'a>,
    _scalar: PhantomData<S>,
}

impl<'a, S: Scalar> BlobAnimations<'a, S> {
    fn record(&self, index: usize) -> Option<AnimationRecord> {
        self.section.animation(u32::try_from(index).ok()?)
    }

    /// The name of animation `index`.
    pub fn name(&self, index: usize) -> Option<&'a str> {
        self.section.strings_get(self.record(index)?.name)
    }

    fn word(&self, at: u32, k: u32) -> Option<u32> {
        self.section.words().get(usize::try_from(at.checked_add(k)?).ok()?)
    }
}

impl<S: Scalar> SpriteSource<S> for BlobAnimations<'_, S> {
    fn animation_count(&self) -> usize {
        self.section.animation_count() as usize
    }

    fn animation(&self, index: usize) -> Option<AnimationInfo> {
        let r = self.record(index)?;
        let mode = match r.mode() {
            0 => PlayMode::Forward,
            1 => PlayMode::Reverse,
            2 => PlayMode::PingPong,
            _ => PlayMode::PingPongReverse,
        };
        Some(AnimationInfo { frame_count: r.frame_count, looping: r.looping(), repeat: r.repeat, mode })
    }

    fn find(&self, name: &str) -> Option<usize> {
        (0..self.animation_count()).find(|&i| self.name(i) == Some(name))
    }

    fn frame(&self, animation: usize, frame: u32) -> Option<FrameRef<S>> {
        let r = self.record(animation)?;
        if frame >= r.frame_count {
            return None;
        }
        let source = if r.flags & ANIM_FLAG_LIST != 0 {
            self.word(r.start, frame)?
        } else if r.end >= r.start {
            r.start.checked_add(frame)?
        } else {
            r.start.checked_sub(frame)?
        };
        let own = if r.flags & ANIM_FLAG_DURATIONS != 0 {
            self.word(r.durations, frame).map(S::from_blob_bits).filter(|d| *d > S::ZERO)
        } else {
            None
        };
        // The host stores 1 / fps, so no division happens here (this runs on every update).
        let frame_time = S::from_blob_bits(r.frame_time);
        let duration = own.or(if frame_time > S::ZERO { Some(frame_time) } else { None });
        let event_count = if r.flags & ANIM_FLAG_EVENTS != 0 {
            self.word(r.events, frame.checked_mul(2)?.checked_add(1)?)?
        } else {
            0
        };
        Some(FrameRef { source, duration, event_count })
    }

    fn frame_event(&self, animation: usize, frame: u32, event: u32) -> Option<u32> {
        let r = self.record(animation)?;
        if r.flags & ANIM_FLAG_EVENTS == 0 || frame >= r.frame_count {
            return None;
        }
        let first = self.word(r.events, frame.checked_mul(2)?)?;
        let count = self.word(r.events, frame.checked_mul(2)?.checked_add(1)?)?;
        if event >= count {
            return None;
        }
        self.word(first, event)
    }
}

impl<'a> Asset<'a> {
    /// The sprites, in blob order.
    pub fn sprites(&self) -> impl Iterator<Item = BlobSprite<'a>> + 'a {
        self.blob().sprites().map(|section| BlobSprite { section })
    }

    /// Sprite number `i` (counting sprites only).
    pub fn sprite(&self, i: usize) -> Option<BlobSprite<'a>> {
        self.sprites().nth(i)
    }

    /// The first sprite called `name`.
    pub fn sprite_named(&self, name: &str) -> Option<BlobSprite<'a>> {
        self.sprites().find(|s| s.name() == name)
    }
}
