//! A small deterministic atlas packer: puts frames side by side on shelves in one RGBA image.
//!
//! Every frame gets a 1-pixel extruded edge (its border pixels repeated outward by one pixel, so
//! filtering or an off-by-one sample at its edge reads its own colour) and at least 1 pixel of
//! transparent padding beyond that, between it and its neighbours. Frames are placed tallest first
//! (ties: wider first, then input order) on shelves filled left to right; of the shelf widths tried
//! (the widest frame's, then powers of two up to one shelf for all), the layout with the smallest area
//! wins (ties: the squarer, then the narrower). The image is tight around the extruded frames (not a
//! power of two). The same frames always give the same atlas.
//!
//! ```
//! use ossicle_host::atlas::{crop, pack};
//! use ossicle_host::ir::RgbaImage;
//!
//! let mut a = RgbaImage::new(2, 3);
//! a.set(0, 0, [255, 0, 0, 255]);
//! let b = RgbaImage::new(4, 1);
//! let atlas = pack(&[a.clone(), b]).unwrap();
//! let r = atlas.rects[0];
//! assert_eq!(crop(&atlas.image, r.x, r.y, r.width, r.height), Some(a));
//! // The extruded edge repeats the frame's border.
//! assert_eq!(atlas.image.get(r.x - 1, r.y - 1), Some([255, 0, 0, 255]));
//! ```

use crate::ir::RgbaImage;
use std::fmt;

/// Pixels of extruded edge around every frame.
pub const EXTRUDE: u32 = 1;
/// Transparent pixels between two frames' extruded edges.
pub const PADDING: u32 = 1;
/// The most pixels an atlas may have (256 MiB of RGBA8).
pub const MAX_ATLAS_PIXELS: u64 = 1 << 26;

/// Where a frame's own pixels (without the extruded edge) lie in the atlas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AtlasRect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width (the frame's).
    pub width: u32,
    /// Height (the frame's).
    pub height: u32,
}

/// An atlas image and where each input frame lies in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedAtlas {
    /// The atlas: frames, their extruded edges, transparent elsewhere.
    pub image: RgbaImage,
    /// One rectangle per input frame, in input order.
    pub rects: Vec<AtlasRect>,
}

/// The frames do not fit in an atlas of at most [`MAX_ATLAS_PIXELS`] pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtlasTooLarge {
    /// The width the layout needed.
    pub width: u64,
    /// The height the layout needed.
    pub height: u64,
}

impl fmt::Display for AtlasTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the frames need a {}×{} atlas, over the limit of {MAX_ATLAS_PIXELS} pixels", self.width, self.height)
    }
}

impl std::error::Error for AtlasTooLarge {}

/// A frame's slot: extruded edge on both sides plus padding on the right/bottom.
fn slot(image: &RgbaImage) -> (u64, u64) {
    if image.width == 0 || image.height == 0 {
        return (0, 0);
    }
    let extra = u64::from(2 * EXTRUDE + PADDING);
    (u64::from(image.width) + extra, u64::from(image.height) + extra)
}

/// Places slots (in `order`) on shelves at most `width` wide; returns the slot origins (by input
/// index) and the used size (without the trailing padding).
fn shelves(slots: &[(u64, u64)], order: &[usize], width: u64) -> (Vec<(u64, u64)>, u64, u64) {
    let mut origins = vec![(0, 0); slots.len()];
    let (mut x, mut y, mut shelf_h, mut used_w) = (0u64, 0u64, 0u64, 0u64);
    for &i in order {
        let (w, h) = slots[i];
        if w == 0 {
            continue;
        }
        if x > 0 && x + w > width {
            y += shelf_h;
            (x, shelf_h) = (0, 0);
        }
        origins[i] = (x, y);
        x += w;
        used_w = used_w.max(x);
        shelf_h = shelf_h.max(h);
    }
    let pad = u64::from(PADDING);
    (origins, used_w.saturating_sub(pad), (y + shelf_h).saturating_sub(pad))
}

/// Packs frames into one atlas (see the module documentation for the layout rules).
pub fn pack(frames: &[RgbaImage]) -> Result<PackedAtlas, AtlasTooLarge> {
    let slots: Vec<(u64, u64)> = frames.iter().map(slot).collect();
    let mut order: Vec<usize> = (0..frames.len()).collect();
    order.sort_by(|&a, &b| slots[b].1.cmp(&slots[a].1).then(slots[b].0.cmp(&slots[a].0)).then(a.cmp(&b)));
    let widest = slots.iter().map(|s| s.0).max().unwrap_or(0);
    let total: u64 = slots.iter().map(|s| s.0).sum();

    // Smallest area, then the squarer, then the narrower.
    let key = |l: &(Vec<(u64, u64)>, u64, u64)| (l.1.saturating_mul(l.2), l.1.max(l.2), l.1);
    let mut best = shelves(&slots, &order, widest);
    let mut candidate = widest.max(1).next_power_of_two();
    loop {
        let layout = shelves(&slots, &order, candidate);
        if key(&layout) < key(&best) {
            best = layout;
        }
        if candidate >= total {
            break;
        }
        candidate *= 2;
    }
    let (origins, width, height) = best;
    if width.saturating_mul(height) > MAX_ATLAS_PIXELS {
        return Err(AtlasTooLarge { width, height });
    }
    // Both fit in u32 now: each is at most MAX_ATLAS_PIXELS.
    let mut image = RgbaImage::new(width as u32, height as u32);
    let mut rects = Vec::with_capacity(frames.len());
    for (frame, &(sx, sy)) in frames.iter().zip(&origins) {
        if slot(frame).0 == 0 {
            rects.push(AtlasRect::default());
            continue;
        }
        let (x, y) = (sx as u32 + EXTRUDE, sy as u32 + EXTRUDE);
        let (w, h) = (frame.width as i64, frame.height as i64);
        let e = i64::from(EXTRUDE);
        for dy in -e..h + e {
            for dx in -e..w + e {
                let p = frame.get(dx.clamp(0, w - 1) as u32, dy.clamp(0, h - 1) as u32).unwrap_or_default();
                image.set((i64::from(x) + dx) as u32, (i64::from(y) + dy) as u32, p);
            }
        }
        rects.push(AtlasRect { x, y, width: frame.width, height: frame.height });
    }
    Ok(PackedAtlas { image, rects })
}

/// The `width × height` pixels of `image` whose top-left corner is (`x`, `y`), or `None` when that
/// rectangle is not inside the image.
pub fn crop(image: &RgbaImage, x: u32, y: u32, width: u32, height: u32) -> Option<RgbaImage> {
    if u64::from(x) + u64::from(width) > u64::from(image.width)
        || u64::from(y) + u64::from(height) > u64::from(image.height)
    {
        return None;
    }
    let mut pixels = Vec::with_capacity(width as usize * height as usize);
    for row in y..y + height {
        let start = row as usize * image.width as usize + x as usize;
        pixels.extend_from_slice(image.pixels.get(start..start + width as usize)?);
    }
    Some(RgbaImage { width, height, pixels })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(w: u32, h: u32, seed: u8) -> RgbaImage {
        let mut img = RgbaImage::new(w, h);
        for y in 0..h {
            for x in 0..w {
                img.set(x, y, [seed, x as u8, y as u8, 255]);
            }
        }
        img
    }

    #[test]
    fn empty_and_single() {
        let a = pack(&[]).unwrap();
        assert_eq!((a.image.width, a.image.height, a.rects.len()), (0, 0, 0));
        let a = pack(&[solid(3, 2, 1)]).unwrap();
        assert_eq!((a.image.width, a.image.height), (5, 4));
        assert_eq!(a.rects, [AtlasRect { x: 1, y: 1, width: 3, height: 2 }]);
    }

    #[test]
    fn is_deterministic_and_keeps_input_order() {
        let frames: Vec<_> = (0..7).map(|i| solid(3 + i, 9 - i, i as u8)).collect();
        let a = pack(&frames).unwrap();
        assert_eq!(a, pack(&frames).unwrap());
        for (f, r) in frames.iter().zip(&a.rects) {
            assert_eq!(crop(&a.image, r.x, r.y, r.width, r.height).as_ref(), Some(f));
        }
    }

    #[test]
    fn crop_refuses_outside() {
        let img = solid(4, 4, 0);
        assert!(crop(&img, 3, 0, 2, 1).is_none());
        assert!(crop(&img, u32::MAX, 0, 2, 1).is_none());
        assert_eq!(crop(&img, 1, 1, 0, 0), Some(RgbaImage::new(0, 0)));
    }
}
