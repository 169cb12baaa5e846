//! `ossicle render`: plays a sprite animation of a blob with the kernel's own player and draws each
//! shown frame with the kernel's blitter into an embedded-graphics-simulator display (no window),
//! then writes an animated GIF or one PNG per frame plus `frames.json`.

use crate::error::HostError;
use ossicle::asset::Asset;
use ossicle::event::{Event, EventQueue};
use ossicle::scalar::{Scalar, Q16};
use ossicle::sprite::{BlobSprite, SpritePlayer, SpriteSource};
use ossicle_format::ScalarEncoding;
use std::path::Path;

/// The most frames one play-through may show (a guard against absurd animations).
pub const MAX_RENDERED_FRAMES: usize = 100_000;

/// One frame shown during a play-through.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShownFrame {
    /// The animation's relative frame.
    pub relative: u32,
    /// The sprite frame it shows.
    pub source: u32,
    /// How long it shows at speed 1, in seconds (as the blob stores it); `None` holds for ever.
    pub duration: Option<f64>,
}

impl ShownFrame {
    /// The duration in whole milliseconds (rounded to nearest; 0 for a held frame).
    pub fn duration_ms(&self) -> u32 {
        self.duration.map_or(0, |d| (d * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32)
    }
}

/// The frames one play-through of animation `animation` shows, in order, as the kernel's
/// [`SpritePlayer`] plays them: a looping animation until its first pass ends (a ping-pong goes
/// there and back), a non-looping one until it ends (all its repeats), a held frame once.
pub fn play_through(sprite: &BlobSprite<'_>, animation: usize) -> Result<Vec<ShownFrame>, String> {
    match sprite.section().encoding() {
        ScalarEncoding::F32 => play_through_as::<f32>(sprite, animation),
        ScalarEncoding::Q16_16 => play_through_as::<Q16>(sprite, animation),
    }
}

fn play_through_as<S: Scalar>(sprite: &BlobSprite<'_>, animation: usize) -> Result<Vec<ShownFrame>, String> {
    let src = sprite.animations::<S>().map_err(|e| e.to_string())?;
    let looping = src.animation(animation).ok_or("no such animation")?.looping;
    let mut player: SpritePlayer<'_, S> = SpritePlayer::new(0);
    let mut q: EventQueue<256> = EventQueue::new();
    player.play(&src, animation, true).map_err(|e| e.to_string())?;
    player.update(&src, S::ZERO, &mut q);
    let _ = q.drain().count();
    let mut shown = Vec::new();
    loop {
        let relative = player.frame().ok_or("the player shows no frame")?;
        let frame = src.frame(animation, relative).ok_or("the animation has no such frame")?;
        let duration = frame.duration.filter(|d| *d > S::ZERO).map(|d| d.to_f64());
        shown.push(ShownFrame { relative, source: frame.source, duration });
        if shown.len() >= MAX_RENDERED_FRAMES {
            return Err(format!("one play-through shows more than {MAX_RENDERED_FRAMES} frames"));
        }
        let Some(dt) = player.next_change(&src) else { break };
        player.update(&src, dt, &mut q);
        let mut done = false;
        for e in q.drain() {
            let pass_over = looping && matches!(e, Event::SpriteLooped { .. });
            if pass_over || matches!(e, Event::SpriteEnded { .. }) {
                done = true;
            }
        }
        if done {
            break;
        }
    }
    Ok(shown)
}

/// Finds sprite `name` in `asset`, or says which sprites there are.
pub fn find_sprite<'a>(asset: &Asset<'a>, blob: &Path, name: &str) -> Result<BlobSprite<'a>, HostError> {
    asset.sprite_named(name).ok_or_else(|| {
        let names: Vec<&str> = asset.sprites().map(|s| s.name()).collect();
        HostError::file(
            blob,
            if names.is_empty() {
                format!("no sprite {name:?}: the blob holds no sprites")
            } else {
                format!("no sprite {name:?}: the blob holds {}", names.join(", "))
            },
        )
    })
}
