//! The PNG decoder every sprite source uses and the PNG-folder source on arbitrary input: never
//! panic; a decoded image has exactly width × height pixels; an accepted folder is one sprite whose
//! frames lie in its canvas, played by one animation over every frame.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::ir::{RgbaImage, SpriteFrames};
use std::path::{Path, PathBuf};

fuzz_target!(|data: &[u8]| {
    if let Ok(img) = ossicle_host::sources::png_util::decode_png(Path::new("fuzz.png"), data) {
        assert_eq!(img.pixels.len() as u64, u64::from(img.width) * u64::from(img.height));
    }
    // The same bytes as a folder listing: one file name per line; every PNG is a 6 × 4 frame with a
    // few opaque pixels that depend on its name (so trimming and packing see different frames).
    let names: Vec<PathBuf> = String::from_utf8_lossy(data).lines().take(64).map(PathBuf::from).collect();
    let load = |p: &Path| {
        let seed = p.to_string_lossy().bytes().fold(7u32, |a, b| a.wrapping_mul(31).wrapping_add(u32::from(b)));
        let mut img = RgbaImage::new(6, 4);
        for k in 0..3 {
            let v = seed.rotate_left(k * 7);
            img.set(v % 6, (v >> 8) % 4, [v as u8, (v >> 8) as u8, (v >> 16) as u8, 255]);
        }
        Ok(img)
    };
    let Ok(project) = ossicle_host::sources::pngseq::parse_with(Path::new("fuzz/walk"), &names, load) else {
        return;
    };
    assert_eq!(project.sprites.len(), 1);
    let s = &project.sprites[0];
    for f in &s.frames {
        assert!(f.x >= 0 && f.y >= 0);
        assert!(f.x as u32 + f.image.width <= s.width && f.y as u32 + f.image.height <= s.height);
    }
    for a in &s.animations {
        if let SpriteFrames::Range { start, end } = a.frames {
            assert!((start.max(end) as usize) < s.frames.len());
        }
    }
});
