//! `Asset::load` on arbitrary bytes: never panics; a blob it accepts reads back consistently.
//!
//! Each input is loaded twice: as it is, and with its header's length and CRC repaired, so the
//! fuzzer also reaches the index and section parsers behind the checksum.
#![no_main]

#[path = "repair.rs"]
mod repair;

use libfuzzer_sys::fuzz_target;
use ossicle::{asset::Asset, Q16};

fn exercise(data: &[u8]) {
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
}

fuzz_target!(|data: &[u8]| {
    exercise(data);
    if let Some(fixed) = repair::repaired(data) {
        exercise(&fixed);
    }
});
