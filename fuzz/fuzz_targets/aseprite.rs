//! The Aseprite parser on arbitrary bytes: never panics, and a sprite it accepts is consistent
//! (canvas-sized frames with durations, animations over existing frames), and every blob written
//! from it loads in the kernel.
//!
//! asefile panics on some corrupt files; the parser catches those panics and reports them as
//! errors, with its own panic hook silencing them while asefile runs (so libFuzzer's abort-on-panic
//! hook does not fire for them). Any other panic still aborts and is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_format::ScalarEncoding;
use ossicle_host::ir::SpriteFrames;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(project) = ossicle_host::sources::aseprite::parse(Path::new("fuzz.aseprite"), data) else { return };
    assert_eq!(project.sprites.len(), 1);
    let s = &project.sprites[0];
    assert!(!s.frames.is_empty() && !s.animations.is_empty());
    for f in &s.frames {
        assert_eq!((f.x, f.y, f.image.width, f.image.height), (0, 0, s.width, s.height));
        assert_eq!(f.image.pixels.len(), s.width as usize * s.height as usize);
        assert!(f.duration.is_some_and(|d| d > 0.0));
    }
    for a in &s.animations {
        let SpriteFrames::Range { start, end } = a.frames else { panic!("a frame list") };
        assert!(start <= end && (end as usize) < s.frames.len());
        assert_eq!(a.durations.as_ref().map(Vec::len), Some((end - start + 1) as usize));
        assert_eq!(a.looping, a.repeat == 0);
    }
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        if let Ok(bytes) = ossicle_host::write::write_blob(&project, encoding) {
            assert!(ossicle::asset::Asset::load(&bytes).is_ok());
        }
    }
});
