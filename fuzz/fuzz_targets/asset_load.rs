//! `Asset::load` on arbitrary bytes: never panics; a blob it accepts reads back consistently.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle::{asset::Asset, Q16};

fuzz_target!(|data: &[u8]| {
    if let Ok(asset) = Asset::load(data) {
        for s in asset.strings().iter() {
            assert_eq!(asset.find_string(s).and_then(|id| asset.string(id)), Some(s));
        }
        for t in asset.test_sections() {
            let _ = t.name();
            if let Ok(v) = t.values::<f32>() {
                assert_eq!(v.iter().count(), v.len());
            }
            if let Ok(v) = t.values::<Q16>() {
                assert_eq!(v.iter().count(), v.len());
            }
        }
    }
});
