//! The `.anim.xml` parser on arbitrary bytes, with an in-memory grid image, TexturePacker sheet and
//! frame folder (no files): never panic, and an accepted set is a sprite whose frames lie in its canvas
//! and whose animations name real frames with one duration and event list per played frame.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::ir::{RgbaImage, SpriteFrames};
use ossicle_host::HostError;
use std::path::{Path, PathBuf};

/// A 12 × 8 image whose pixel (x, y) is [x, y, 0, alpha] with some transparent pixels.
fn image() -> RgbaImage {
    let mut img = RgbaImage::new(12, 8);
    for y in 0..8u32 {
        for x in 0..12u32 {
            img.set(x, y, [x as u8, y as u8, 0, if (x * y) % 3 == 0 { 0 } else { 255 }]);
        }
    }
    img
}

const SHEET: &str = r#"{"frames": {"a.png": {"frame": {"x":0,"y":0,"w":4,"h":3}, "rotated": true},
  "b.png": {"frame": {"x":4,"y":0,"w":2,"h":2}}}, "animations": {"ab": ["a.png", "b.png"]},
  "meta": {"image": "sheet.png"}}"#;

fuzz_target!(|data: &[u8]| {
    let load_png = |p: &Path| {
        if p.extension().is_some_and(|e| e == "png") {
            Ok(image())
        } else {
            Err(HostError::file(p, "no such file"))
        }
    };
    let read_file = |_: &Path| Ok(SHEET.as_bytes().to_vec());
    let list_dir = |_: &Path| Ok(vec![PathBuf::from("f_1.png"), PathBuf::from("f_2.png"), PathBuf::from("x.txt")]);
    let Ok(project) =
        ossicle_host::sources::animxml::parse_with(Path::new("fuzz/set.anim.xml"), data, load_png, read_file, list_dir)
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
            let played = match &a.frames {
                SpriteFrames::Range { start, end } => {
                    assert!(*start < count && *end < count);
                    start.abs_diff(*end) as usize + 1
                }
                SpriteFrames::List(l) => {
                    assert!(!l.is_empty() && l.iter().all(|&i| i < count));
                    l.len()
                }
            };
            assert!(a.fps.is_finite() && a.fps >= 0.0);
            if let Some(d) = &a.durations {
                assert!(d.len() == played && d.iter().all(|d| d.is_finite() && *d > 0.0));
            }
            if let Some(e) = &a.events {
                assert_eq!(e.len(), played);
            }
        }
    }
});
