//! The test-source parser and the blob writer on arbitrary bytes: never panic, and every blob
//! written from an accepted source loads in the kernel.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_format::ScalarEncoding;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(project) = ossicle_host::sources::parse_source(Path::new("fuzz.json"), data) {
        for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
            if let Ok(bytes) = ossicle_host::write::write_blob(&project, encoding) {
                assert!(ossicle::asset::Asset::load(&bytes).is_ok());
            }
        }
    }
});
