//! The TexturePacker JSON parser on arbitrary bytes, with in-memory pages (no files): never panic, and
//! an accepted sheet is a sprite whose frames lie in its canvas and whose animations name real frames.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::ir::{RgbaImage, SpriteFrames};
use ossicle_host::HostError;
use std::path::Path;

/// A 64 × 48 page whose pixel (x, y) is [x, y, x ^ y, x + y].
fn page() -> RgbaImage {
    let mut img = RgbaImage::new(64, 48);
    for y in 0..48u32 {
        for x in 0..64u32 {
            img.set(x, y, [x as u8, y as u8, (x ^ y) as u8, (x + y) as u8]);
        }
    }
    img
}

/// The page every `related_multi_packs` entry reads as.
const OTHER_PAGE: &str = r#"{"frames": {"other_1.png": {"frame": {"x":0,"y":0,"w":3,"h":5}, "rotated": true}},
  "meta": {"image": "sheet-1.png", "related_multi_packs": ["sheet-0.json"]}}"#;

fuzz_target!(|data: &[u8]| {
    let load_png = |p: &Path| {
        if p.extension().is_some_and(|e| e == "png") {
            Ok(page())
        } else {
            Err(HostError::file(p, "no such file"))
        }
    };
    // Every other multipack page reads as this one.
    let read_file = |_: &Path| Ok(OTHER_PAGE.as_bytes().to_vec());
    let Ok(project) =
        ossicle_host::sources::texturepacker::parse_with(Path::new("fuzz/sheet-0.json"), data, load_png, read_file)
    else {
        return;
    };
    for s in &project.sprites {
        let count = s.frames.len() as u32;
        assert!(count > 0 && s.width > 0 && s.height > 0);
        for f in &s.frames {
            assert_eq!(f.image.pixels.len(), f.image.width as usize * f.image.height as usize);
            assert!(f.x >= 0 && f.y >= 0);
            assert!(f.x as u32 + f.image.width <= s.width && f.y as u32 + f.image.height <= s.height);
        }
        for a in &s.animations {
            match &a.frames {
                SpriteFrames::Range { start, end } => assert!(*start < count && *end < count),
                SpriteFrames::List(l) => assert!(!l.is_empty() && l.iter().all(|&i| i < count)),
            }
        }
    }
});
