//! The EVAC reader on arbitrary bytes: never panic; whatever reads writes back to the same bytes
//! and reads back to an equal clip; a refusal's offset lies inside the file (or is the 128 MiB
//! limit), and a truncation is reported only where the file is too short.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::sources::evac::{read, write, EvacError, MAX_FILE_BYTES};

fuzz_target!(|data: &[u8]| {
    match read(data) {
        Ok(clip) => {
            let bytes = write(&clip).expect("a clip that reads also writes");
            assert_eq!(bytes, data, "write(read(x)) differs from x");
            assert_eq!(read(&bytes).expect("written bytes read back"), clip);
        }
        Err(e) => {
            match e {
                EvacError::TooLarge { offset, .. } => assert_eq!(offset, MAX_FILE_BYTES),
                EvacError::Truncated { offset, needed, available, .. } => {
                    assert_eq!(offset + available, data.len());
                    assert!(needed > available);
                }
                EvacError::TrailingBytes { offset, count } => assert_eq!(offset + count, data.len()),
                _ => assert!(e.offset() < data.len(), "{e:?}"),
            }
            let _ = e.to_string();
        }
    }
});
