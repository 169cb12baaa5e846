//! The Aseprite JSON sheet parser on arbitrary bytes, with an in-memory sheet image (64×64 for
//! any path whose file name does not start with `missing`): never panics, and a sprite it accepts
//! is consistent (frames inside the canvas, animations over existing frames), and every blob
//! written from it loads in the kernel.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::{RgbaImage, SpriteFrames};
use ossicle_host::HostError;
use std::path::Path;

fn sheet(path: &Path) -> Result<Option<RgbaImage>, HostError> {
    let missing = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("missing"));
    if missing {
        return Ok(None);
    }
    let mut image = RgbaImage::new(64, 64);
    for (i, p) in image.pixels.iter_mut().enumerate() {
        *p = [i as u8, (i >> 6) as u8, 7, (i % 3) as u8 * 127];
    }
    Ok(Some(image))
}

fuzz_target!(|data: &[u8]| {
    let parsed = ossicle_host::sources::aseprite_json::parse_with(Path::new("dir/fuzz.json"), data, sheet);
    let Ok(project) = parsed else { return };
    assert_eq!(project.sprites.len(), 1);
    let s = &project.sprites[0];
    assert!(!s.frames.is_empty() && !s.animations.is_empty());
    for f in &s.frames {
        assert!(f.x >= 0 && f.y >= 0);
        assert!(f.x as u32 + f.image.width <= s.width && f.y as u32 + f.image.height <= s.height);
        assert_eq!(f.image.pixels.len(), f.image.width as usize * f.image.height as usize);
        assert!(f.duration.is_some_and(|d| d > 0.0));
    }
    for a in &s.animations {
        let SpriteFrames::Range { start, end } = a.frames else { panic!("a frame list") };
        assert!(start <= end && (end as usize) < s.frames.len());
        assert_eq!(a.durations.as_ref().map(Vec::len), Some((end - start + 1) as usize));
    }
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        if let Ok(bytes) = ossicle_host::write::write_blob(&project, encoding) {
            assert!(ossicle::asset::Asset::load(&bytes).is_ok());
        }
    }
});
