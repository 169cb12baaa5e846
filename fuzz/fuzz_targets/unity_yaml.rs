//! The Unity YAML reader and the editor-clip reader on arbitrary bytes: never panic, errors carry
//! a line within the text, and an accepted clip's curves have finite, strictly increasing key
//! times, finite values and no NaN slope, one tangent-mode record per key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::unity::{anim, yaml, UnityError};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let lines = text.split('\n').count();
    if let Err(UnityError::Yaml { line, .. }) = yaml::parse(text) {
        assert!(line >= 1 && line <= lines, "line {line} of {lines}");
    }
    match anim::read_clip(text) {
        Ok(clip) => {
            for (i, c) in clip.curves.iter().enumerate() {
                assert_eq!(c.index, i);
                assert_eq!(c.modes.len(), c.keys.len());
                for k in &c.keys {
                    assert!(k.time.is_finite() && k.value.is_finite(), "{k:?}");
                    assert!(!k.in_slope.is_nan() && !k.out_slope.is_nan(), "{k:?}");
                }
                assert!(c.keys.windows(2).all(|w| w[0].time < w[1].time));
            }
        }
        Err(UnityError::Yaml { line, .. }) => assert!(line >= 1 && line <= lines, "line {line} of {lines}"),
        Err(_) => {}
    }
});
