//! Container tests: round trips and every refusal.

extern crate std;
use super::*;
use std::vec::Vec;

fn sample(encoding: ScalarEncoding) -> Vec<u8> {
    let mut w = BlobWriter::new(encoding);
    w.intern("hello");
    w.intern("wörld");
    let words: Vec<u32> = [0.5, -1.25, 3.0].iter().map(|&v| encoding.encode_f64(v).unwrap()).collect();
    w.add_test_section("angles", &words).unwrap();
    w.add_test_section("empty", &[]).unwrap();
    w.finish().unwrap()
}

/// Recomputes the header CRC after a deliberate change to the payload.
fn fix_crc(blob: &mut [u8]) {
    let crc = checksum(&blob[..12], &blob[HEADER_LEN..]);
    blob[12..16].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn round_trip() {
    let bytes = sample(ScalarEncoding::Q16_16);
    let blob = Blob::parse(&bytes).unwrap();
    assert_eq!(blob.encoding(), ScalarEncoding::Q16_16);
    assert_eq!(blob.strings().len(), 4);
    assert_eq!(blob.strings().get(1), Some("wörld"));
    assert_eq!(blob.strings().get(4), None);
    assert_eq!(blob.strings().find("angles"), Some(2));
    let tests: Vec<_> = blob.test_sections().collect();
    assert_eq!(tests.len(), 2);
    assert_eq!(tests[0].name(), "angles");
    let words: Vec<u32> = tests[0].words().iter().collect();
    assert_eq!(words, [0x8000, (-81920i32) as u32, 3 << 16]);
    assert!(tests[1].words().is_empty());
    assert_eq!(blob.section_count(), 3);
}

#[test]
fn header_layout_is_fixed() {
    let bytes = sample(ScalarEncoding::F32);
    assert_eq!(&bytes[0..4], b"OSCL");
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), FORMAT_VERSION);
    assert_eq!(bytes[6], 1);
    assert_eq!(bytes[7], 0);
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len() - 16);
    // CRC-32/ISO-HDLC check value of "123456789" is 0xCBF43926.
    assert_eq!(CRC32.checksum(b"123456789"), 0xCBF4_3926);
}

#[test]
fn refuses_each_header_defect() {
    let good = sample(ScalarEncoding::Q16_16);
    let mut b = good.clone();
    b[0] = b'X';
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::BadMagic { found: *b"XSCL" });
    let mut b = good.clone();
    b[4] = 9;
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::UnsupportedVersion { found: 9, supported: 1 });
    let mut b = good.clone();
    b[6] = 3;
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::UnknownEncoding { found: 3 });
    let mut b = good.clone();
    b[7] = 1;
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::ReservedByte { found: 1 });
    let b = &good[..good.len() - 1];
    assert_eq!(
        Blob::parse(b).unwrap_err(),
        LoadError::LengthMismatch { declared: (good.len() - 16) as u32, actual: good.len() - 17 }
    );
    assert_eq!(Blob::parse(&good[..5]).unwrap_err(), LoadError::TooShort { len: 5, needed: 16 });
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] ^= 0x40;
    assert!(matches!(Blob::parse(&b).unwrap_err(), LoadError::ChecksumMismatch { .. }));
}

#[test]
fn version_error_names_both_versions() {
    let mut b = sample(ScalarEncoding::F32);
    b[4] = 2;
    let msg = std::format!("{}", Blob::parse(&b).unwrap_err());
    assert!(msg.contains("version 2") && msg.contains("version 1"), "{msg}");
}

fn blob_from_index(encoding: ScalarEncoding, directory: &[u8], data: &[u8]) -> Vec<u8> {
    let payload = postcard::to_stdvec(&Index { directory, data }).unwrap();
    writer::seal(encoding, &payload, payload.len() as u32)
}

fn record(kind: u32, offset: u32, len: u32) -> Vec<u8> {
    [kind, offset, len].iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn refuses_each_directory_and_section_defect() {
    let e = ScalarEncoding::F32;
    // Directory not a multiple of 12 bytes.
    let b = blob_from_index(e, &[0; 11], &[]);
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::DirectoryLength { len: 11 });
    // Unknown kind.
    let b = blob_from_index(e, &record(77, 0, 0), &[]);
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::UnknownSection { section: 0, kind: 77 });
    // Out of bounds, including offset + len overflowing u32.
    let b = blob_from_index(e, &record(2, 2, 4), &[0; 5]);
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::SectionOutOfBounds { section: 0, offset: 2, len: 4, data_len: 5 }
    );
    let b = blob_from_index(e, &record(2, u32::MAX, u32::MAX), &[0; 5]);
    assert!(matches!(Blob::parse(&b).unwrap_err(), LoadError::SectionOutOfBounds { .. }));
    // Two string tables.
    let st = postcard::to_stdvec(&sections::StringTableBody { ends: &[], text: &[] }).unwrap();
    let mut dir = record(1, 0, st.len() as u32);
    dir.extend(record(1, 0, st.len() as u32));
    let b = blob_from_index(e, &dir, &st);
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::DuplicateSection { section: 1, kind: 1 });
    // String table with invalid UTF-8, and with an end offset inside a character.
    let st =
        postcard::to_stdvec(&sections::StringTableBody { ends: &4u32.to_le_bytes(), text: &[b'a', 0xff, b'b', b'c'] })
            .unwrap();
    let b = blob_from_index(e, &record(1, 0, st.len() as u32), &st);
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::MalformedSection { section: 0, kind: 1, defect: SectionDefect::InvalidUtf8 { at: 1 } }
    );
    let text = "é".as_bytes();
    let st = postcard::to_stdvec(&sections::StringTableBody { ends: &1u32.to_le_bytes(), text }).unwrap();
    let b = blob_from_index(e, &record(1, 0, st.len() as u32), &st);
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::MalformedSection { section: 0, kind: 1, defect: SectionDefect::StringBounds { string: 0 } }
    );
    // Test section whose name is not in the (absent) string table, and one with a partial word.
    let t = postcard::to_stdvec(&TestSectionBody { name: 0, values: &[] }).unwrap();
    let b = blob_from_index(e, &record(2, 0, t.len() as u32), &t);
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::MalformedSection { section: 0, kind: 2, defect: SectionDefect::StringRef { string: 0, count: 0 } }
    );
    let t = postcard::to_stdvec(&TestSectionBody { name: 0, values: &[1, 2, 3] }).unwrap();
    let b = blob_from_index(e, &record(2, 0, t.len() as u32), &t);
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::MalformedSection { section: 0, kind: 2, defect: SectionDefect::ArrayLength { len: 3, element: 4 } }
    );
    // Body with trailing bytes.
    let mut t = postcard::to_stdvec(&TestSectionBody { name: 0, values: &[] }).unwrap();
    t.push(0);
    let b = blob_from_index(e, &record(2, 0, t.len() as u32), &t);
    assert!(matches!(
        Blob::parse(&b).unwrap_err(),
        LoadError::MalformedSection { defect: SectionDefect::Encoding, .. }
    ));
    // Trailing bytes after the index.
    let mut b = sample(e);
    b.push(0);
    let len = (b.len() - 16) as u32;
    b[8..12].copy_from_slice(&len.to_le_bytes());
    fix_crc(&mut b);
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::TrailingIndexBytes { count: 1 });
}

#[test]
fn every_flipped_byte_and_every_truncation_is_refused() {
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        let good = sample(encoding);
        for i in 0..good.len() {
            for bit in [0x01u8, 0x80, 0xff] {
                let mut b = good.clone();
                b[i] ^= bit;
                assert!(Blob::parse(&b).is_err(), "flip {bit:#x} at byte {i} accepted");
            }
        }
        for len in 0..good.len() {
            assert!(Blob::parse(&good[..len]).is_err(), "truncation to {len} accepted");
        }
    }
}

#[test]
fn encode_f64_rounds_and_refuses_out_of_range() {
    let q = ScalarEncoding::Q16_16;
    assert_eq!(q.encode_f64(1.0), Some(0x1_0000));
    assert_eq!(q.encode_f64(-1.0), Some(0xFFFF_0000));
    assert_eq!(q.encode_f64(1.5 / 65536.0), Some(2));
    assert_eq!(q.encode_f64(-1.5 / 65536.0), Some((-2i32) as u32));
    assert_eq!(q.encode_f64(32767.99998), Some(i32::MAX as u32));
    assert_eq!(q.encode_f64(32768.0), None);
    assert_eq!(q.encode_f64(-32768.0), Some(i32::MIN as u32));
    assert_eq!(q.encode_f64(f64::NAN), None);
    let f = ScalarEncoding::F32;
    assert_eq!(f.encode_f64(0.1), Some(0.1f32.to_bits()));
    assert_eq!(f.encode_f64(1e300), None);
    assert_eq!(f.decode_f64(0.25f32.to_bits()), 0.25);
    assert_eq!(q.decode_f64(0xFFFF_8000), -0.5);
}

#[test]
fn checksum_covers_the_encoding_byte() {
    // 1 (f32) -> 2 (Q16.16) is a known encoding: only the checksum can catch it.
    let mut b = sample(ScalarEncoding::F32);
    b[6] = 2;
    assert!(matches!(Blob::parse(&b).unwrap_err(), LoadError::ChecksumMismatch { .. }));
}
