//! Shared by the blob fuzz targets (included with `#[path]`): a blob with its header's length and
//! CRC repaired, so the fuzzer reaches the section parsers behind the checksum.

use ossicle_format::{checksum, HEADER_LEN};

/// `data` with its header's body length and CRC set to match its body (`None` when shorter than a
/// header).
pub fn repaired(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < HEADER_LEN {
        return None;
    }
    let mut fixed = data.to_vec();
    let len = (data.len() - HEADER_LEN) as u32;
    fixed[8..12].copy_from_slice(&len.to_le_bytes());
    let crc = checksum(&fixed[..12], &fixed[HEADER_LEN..]);
    fixed[12..16].copy_from_slice(&crc.to_le_bytes());
    Some(fixed)
}
