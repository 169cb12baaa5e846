//! `ossicle render`: plays a sprite animation of a blob with the kernel's own player and draws each
//! shown frame with the kernel's blitter into an embedded-graphics-simulator display (no window),
//! then writes an animated GIF or one PNG per frame plus `frames.json`.

use crate::error::HostError;
use ossicle::asset::Asset;
use ossicle::scalar::{Scalar, Q16};
use ossicle::sprite::BlobSprite;
use ossicle_format::ScalarEncoding;
use std::path::Path;

/// The most frames one play-through may show (a guard against absurd animations).
pub const MAX_RENDERED_FRAMES: usize = 100_000;

/// The most pixels one rendered frame may have (the sprite's canvas times the scale, squared):
/// the limit of a decoded source image, checked before any frame is drawn.
pub const MAX_RENDERED_FRAME_PIXELS: u64 = crate::sources::pngseq::MAX_IMAGE_PIXELS;

/// The most pixels all frames of one render may have together (1 GiB of RGBA), checked before any
/// frame is drawn.
pub const MAX_RENDERED_PIXELS: u64 = 1 << 28;

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
/// [`ossicle::sprite::play_through`] plays them: a looping animation until its first pass ends (a
/// ping-pong goes there and back), a non-looping one until it ends (all its repeats), a held frame
/// once.
pub fn play_through(sprite: &BlobSprite<'_>, animation: usize) -> Result<Vec<ShownFrame>, String> {
    match sprite.section().encoding() {
        ScalarEncoding::F32 => play_through_as::<f32>(sprite, animation),
        ScalarEncoding::Q16_16 => play_through_as::<Q16>(sprite, animation),
    }
}

fn play_through_as<S: Scalar>(sprite: &BlobSprite<'_>, animation: usize) -> Result<Vec<ShownFrame>, String> {
    let src = sprite.animations::<S>().map_err(|e| e.to_string())?;
    let mut shown = Vec::new();
    ossicle::sprite::play_through(&src, animation, |relative, frame| {
        let duration = frame.duration.filter(|d| *d > S::ZERO).map(|d| d.to_f64());
        shown.push(ShownFrame { relative, source: frame.source, duration });
        shown.len() <= MAX_RENDERED_FRAMES
    })
    .map_err(|e| e.to_string())?;
    if shown.len() > MAX_RENDERED_FRAMES {
        return Err(format!("one play-through shows more than {MAX_RENDERED_FRAMES} frames"));
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

/// How `ossicle render` draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// Background colour; `None`: transparent (PNG alpha 0, the GIF's transparent index).
    pub background: Option<[u8; 3]>,
    /// Integer scale (1 = the sprite's native size).
    pub scale: u8,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self { background: None, scale: 1 }
    }
}

/// An RGBA8 image, row-major.
pub type Rgba = crate::ir::RgbaImage;

/// Draws sprite frame `source` at the canvas origin with the kernel's blitter
/// ([`ossicle::draw::draw_frame`]) into embedded-graphics-simulator displays the size of the canvas
/// (× scale), and returns the pixels. Without a background the frame is drawn twice, over black
/// and over white: a pixel that differs between the two was not drawn (transparent).
pub fn render_frame(sprite: &BlobSprite<'_>, source: u32, opts: &RenderOptions) -> Result<Rgba, String> {
    use embedded_graphics::pixelcolor::Rgb888;
    use embedded_graphics::prelude::*;
    use embedded_graphics_simulator::SimulatorDisplay;
    let frame = sprite.frame(source).ok_or_else(|| format!("the sprite has no frame {source}"))?;
    let scale = u32::from(opts.scale.max(1));
    let (w, h) = (sprite.width() * scale, sprite.height() * scale);
    let draw_opts = ossicle::draw::DrawOptions::<Rgb888>::new()
        .in_canvas(sprite.width() as u16, sprite.height() as u16)
        .scaled(opts.scale.max(1));
    let draw_over = |bg: Rgb888| -> Result<SimulatorDisplay<Rgb888>, String> {
        let mut display = SimulatorDisplay::<Rgb888>::new(Size::new(w, h));
        display.clear(bg).map_err(|e| format!("{e:?}"))?;
        ossicle::draw::draw_frame(&mut display, &frame, Point::zero(), &draw_opts).map_err(|e| format!("{e:?}"))?;
        Ok(display)
    };
    let mut out = Rgba::new(w, h);
    match opts.background {
        Some([r, g, b]) => {
            let d = draw_over(Rgb888::new(r, g, b))?;
            for y in 0..h {
                for x in 0..w {
                    let c = d.get_pixel(Point::new(x as i32, y as i32));
                    out.set(x, y, [c.r(), c.g(), c.b(), 255]);
                }
            }
        }
        None => {
            let black = draw_over(Rgb888::BLACK)?;
            let white = draw_over(Rgb888::WHITE)?;
            for y in 0..h {
                for x in 0..w {
                    let p = Point::new(x as i32, y as i32);
                    let (a, b) = (black.get_pixel(p), white.get_pixel(p));
                    out.set(x, y, if a == b { [a.r(), a.g(), a.b(), 255] } else { [0, 0, 0, 0] });
                }
            }
        }
    }
    Ok(out)
}

/// Encodes RGBA pixels as a PNG.
pub fn png_bytes(img: &Rgba) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width, img.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        let data: Vec<u8> = img.pixels.iter().flatten().copied().collect();
        writer.write_image_data(&data).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// GIF frame delay in centiseconds for a shown frame: its duration rounded to the nearest 10 ms
/// (GIF's resolution; at least 1 cs), and 1 s for a held frame.
pub fn gif_delay(frame: &ShownFrame) -> u16 {
    match frame.duration {
        None => 100,
        Some(d) => (d * 100.0).round().clamp(1.0, f64::from(u16::MAX)) as u16,
    }
}

/// Encodes frames as an animated GIF. With at most 255 distinct colours over all frames (pixel
/// art) the palette is exact; beyond that each frame is quantised by the gif crate's NeuQuant.
/// Transparent pixels use a transparent index; a looping animation loops for ever, a non-looping
/// one plays once.
pub fn gif_bytes(frames: &[(Rgba, u16)], looping: bool) -> Result<Vec<u8>, String> {
    let (w, h) = frames.first().map(|(f, _)| (f.width, f.height)).ok_or("no frames to write")?;
    let (w16, h16) =
        (u16::try_from(w).map_err(|_| "too wide for a GIF")?, u16::try_from(h).map_err(|_| "too tall for a GIF")?);
    let mut colours: Vec<[u8; 3]> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (f, _) in frames {
        for p in &f.pixels {
            if p[3] != 0 && !index.contains_key(&[p[0], p[1], p[2]]) && colours.len() < 256 {
                index.insert([p[0], p[1], p[2]], colours.len() as u8);
                colours.push([p[0], p[1], p[2]]);
            }
        }
    }
    let exact = colours.len() <= 255;
    let mut out = Vec::new();
    {
        let palette: Vec<u8> = if exact {
            let mut p: Vec<u8> = colours.iter().flatten().copied().collect();
            p.extend([0, 0, 0]); // the transparent index
            p
        } else {
            Vec::new()
        };
        let mut enc = gif::Encoder::new(&mut out, w16, h16, &palette).map_err(|e| e.to_string())?;
        enc.set_repeat(if looping { gif::Repeat::Infinite } else { gif::Repeat::Finite(0) })
            .map_err(|e| e.to_string())?;
        let transparent = colours.len() as u8;
        for (f, delay) in frames {
            let mut frame = if exact {
                let buf: Vec<u8> = f
                    .pixels
                    .iter()
                    .map(|p| {
                        if p[3] == 0 {
                            transparent
                        } else {
                            index.get(&[p[0], p[1], p[2]]).copied().unwrap_or(transparent)
                        }
                    })
                    .collect();
                let mut fr = gif::Frame::from_indexed_pixels(w16, h16, buf, Some(transparent));
                fr.palette = None;
                fr
            } else {
                let mut rgba: Vec<u8> = f.pixels.iter().flatten().copied().collect();
                gif::Frame::from_rgba_speed(w16, h16, &mut rgba, 10)
            };
            frame.delay = *delay;
            frame.dispose = gif::DisposalMethod::Background;
            enc.write_frame(&frame).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}

/// Parses `RRGGBB` (an optional leading `#`).
pub fn parse_rgb(s: &str) -> Option<[u8; 3]> {
    let s = s.strip_prefix('#').unwrap_or(s);
    if s.len() != 6 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(s, 16).ok()?;
    Some([(v >> 16) as u8, (v >> 8) as u8, v as u8])
}

/// Whether `ossicle render` writes `out` as a GIF (it ends in `.gif`, any case) rather than as a
/// folder of PNGs.
pub fn is_gif_path(out: &Path) -> bool {
    out.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("gif"))
}

/// `ossicle render`: loads the blob, plays one play-through of the animation with the kernel's
/// player, draws every shown frame and writes a GIF (`out` ends in `.gif`) or a folder of PNGs with
/// `frames.json`. Returns a one-line summary. Nothing is written when anything fails before the
/// output (the GIF is written atomically; PNG folders are written into a fresh temporary folder and
/// renamed into place).
pub fn render_to(
    blob: &Path,
    bytes: &[u8],
    sprite_name: &str,
    animation: Option<&str>,
    out: &Path,
    opts: &RenderOptions,
) -> Result<String, HostError> {
    let asset = crate::inspect::load(blob, bytes)?;
    let sprite = find_sprite(&asset, blob, sprite_name)?;
    let (index, anim_name) = match animation {
        Some(name) => {
            let i = (0..sprite.section().animation_count())
                .find(|&i| sprite.section().animation(i).and_then(|a| asset.string(a.name)) == Some(name))
                .ok_or_else(|| {
                    let names: Vec<&str> = (0..sprite.section().animation_count())
                        .filter_map(|i| sprite.section().animation(i).and_then(|a| asset.string(a.name)))
                        .collect();
                    HostError::file(
                        blob,
                        format!("sprite {sprite_name:?} has no animation {name:?} (it has {})", names.join(", ")),
                    )
                })?;
            (i as usize, name.to_string())
        }
        None => {
            let a = sprite
                .section()
                .animation(0)
                .ok_or_else(|| HostError::file(blob, format!("sprite {sprite_name:?} has no animations")))?;
            (0, asset.string(a.name).unwrap_or("").to_string())
        }
    };
    let looping = sprite.section().animation(index as u32).is_some_and(|a| a.looping());
    let shown = play_through(&sprite, index).map_err(|e| HostError::file(blob, e))?;
    let scale = u64::from(opts.scale.max(1));
    let (w, h) = (u64::from(sprite.width()) * scale, u64::from(sprite.height()) * scale);
    if w * h > MAX_RENDERED_FRAME_PIXELS || w * h * shown.len() as u64 > MAX_RENDERED_PIXELS {
        return Err(HostError::file(
            blob,
            format!(
                "sprite {sprite_name:?} is {}×{} pixels, {w}×{h} at scale {scale}, and {anim_name:?} shows {} frames: \
                 over the {MAX_RENDERED_FRAME_PIXELS} pixels per frame and {MAX_RENDERED_PIXELS} pixels in all that render draws",
                sprite.width(),
                sprite.height(),
                shown.len()
            ),
        ));
    }
    let mut images = Vec::with_capacity(shown.len());
    for f in &shown {
        images.push(render_frame(&sprite, f.source, opts).map_err(|e| HostError::file(blob, e))?);
    }
    if is_gif_path(out) {
        let frames: Vec<(Rgba, u16)> = images.into_iter().zip(&shown).map(|(i, f)| (i, gif_delay(f))).collect();
        let gif = gif_bytes(&frames, looping).map_err(|e| HostError::file(out, e))?;
        crate::output::write_atomically(out, &gif)?;
    } else {
        let list: Vec<serde_json::Value> = shown
            .iter()
            .enumerate()
            .map(|(i, f)| {
                serde_json::json!({ "file": format!("{i:04}.png"), "frame": f.source, "duration_ms": f.duration_ms() })
            })
            .collect();
        let doc = serde_json::json!({
            "sprite": sprite_name, "animation": anim_name, "width": sprite.width() * u32::from(opts.scale),
            "height": sprite.height() * u32::from(opts.scale), "looping": looping, "frames": list,
        });
        let mut files: Vec<(String, Vec<u8>)> = Vec::with_capacity(images.len() + 1);
        for (i, img) in images.iter().enumerate() {
            files.push((format!("{i:04}.png"), png_bytes(img).map_err(|e| HostError::file(out, e))?));
        }
        let json = serde_json::to_vec_pretty(&doc).map_err(|e| HostError::file(out, e.to_string()))?;
        files.push(("frames.json".into(), json));
        crate::output::write_dir_atomically(out, &files)?;
    }
    Ok(format!(
        "rendered {sprite_name}/{anim_name}: {} frames, {} ms, to {}",
        shown.len(),
        shown.iter().map(|f| u64::from(f.duration_ms())).sum::<u64>(),
        out.display()
    ))
}
