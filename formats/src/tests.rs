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
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::UnsupportedVersion { found: 9, oldest: 1, newest: FORMAT_VERSION }
    );
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
    b[4] = 8;
    let msg = std::format!("{}", Blob::parse(&b).unwrap_err());
    assert!(msg.contains("version 8") && msg.contains("versions 1 to 7"), "{msg}");
}

#[test]
fn version_1_blobs_are_still_read_but_may_not_hold_sprites() {
    let mut b = sample(ScalarEncoding::F32);
    assert_eq!(u16::from_le_bytes([b[4], b[5]]), FORMAT_VERSION);
    b[4] = 1;
    fix_crc(&mut b);
    let blob = Blob::parse(&b).unwrap();
    assert_eq!(blob.header().version, 1);
    assert_eq!(blob.test_sections().count(), 2);
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

mod sprites {
    use super::*;
    use crate::sprite::*;
    use std::vec;

    /// Owned parts of a sprite body, to mutate before encoding.
    #[derive(Clone)]
    struct Parts {
        name: u32,
        width: u16,
        height: u16,
        format: u8,
        transparency: u8,
        key: u32,
        palette: Vec<u8>,
        frames: Vec<FrameRecord>,
        pixels: Vec<u8>,
        animations: Vec<AnimationRecord>,
        words: Vec<u32>,
    }

    fn q(v: f64) -> u32 {
        ScalarEncoding::Q16_16.encode_f64(v).unwrap()
    }

    /// A 4×3 canvas, Indexed2 with key 0; frame 0 raw 3×2 at (1, 1); frame 1 RLE 4×1 at (0, 2);
    /// frame 2 empty. Animations: "walk" range 0..=1 at 8 fps looping; "blink" list [1, 0, 1] with
    /// durations and events on its middle frame.
    fn parts() -> Parts {
        // Raw Indexed2 3×2: stride 1 byte: rows [1,2,3] -> 0b01_10_11_00, [3,0,1] -> 0b11_00_01_00.
        let raw = vec![0b0110_1100, 0b1100_0100];
        // RLE 4×1: skip 1, run 3 of index 2: table [4], stream [0x40, 0x82, 2].
        let rle = vec![4, 0, 0, 0, 0x40, 0x82, 2];
        let mut pixels = raw.clone();
        pixels.extend(&rle);
        Parts {
            name: 0,
            width: 4,
            height: 3,
            format: PixelFormat::Indexed2 as u8,
            transparency: Transparency::ColorKey as u8,
            key: 0,
            palette: vec![0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255],
            frames: vec![
                FrameRecord { x: 1, y: 1, w: 3, h: 2, flags: 0, offset: 0, len: 2 },
                FrameRecord { x: 0, y: 2, w: 4, h: 1, flags: FRAME_FLAG_RLE, offset: 2, len: 7 },
                FrameRecord { x: 0, y: 0, w: 0, h: 0, flags: 0, offset: 9, len: 0 },
            ],
            pixels,
            animations: vec![
                AnimationRecord {
                    name: 1,
                    frame_count: 2,
                    flags: ANIM_FLAG_LOOP,
                    start: 0,
                    end: 1,
                    frame_time: q(0.125),
                    ..Default::default()
                },
                AnimationRecord {
                    name: 2,
                    frame_count: 3,
                    flags: 2 | ANIM_FLAG_LIST | ANIM_FLAG_DURATIONS | ANIM_FLAG_EVENTS,
                    start: 0,
                    end: 0,
                    frame_time: 0,
                    repeat: 2,
                    durations: 3,
                    events: 6,
                },
            ],
            // list [1,0,1] @0, durations @3, event pairs @6 (3 pairs), ids @12: "hit"
            words: vec![1, 0, 1, q(0.25), q(0.5), q(0.25), 12, 0, 12, 1, 13, 0, 3],
        }
    }

    fn blob(p: &Parts) -> Vec<u8> {
        blob_with(p, None)
    }

    /// [`blob`], with `extra` interned after the strings the parts refer to.
    fn blob_with(p: &Parts, extra: Option<&str>) -> Vec<u8> {
        let mut w = BlobWriter::new(ScalarEncoding::Q16_16);
        for s in ["hero", "walk", "blink", "hit"].into_iter().chain(extra) {
            w.intern(s);
        }
        let frames: Vec<u8> = p.frames.iter().flat_map(|f| f.to_bytes()).collect();
        let animations: Vec<u8> = p.animations.iter().flat_map(|a| a.to_bytes()).collect();
        let words: Vec<u8> = p.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        w.add_sprite(&SpriteBody {
            name: p.name,
            width: p.width,
            height: p.height,
            format: p.format,
            transparency: p.transparency,
            key: p.key,
            palette: &p.palette,
            frames: &frames,
            pixels: &p.pixels,
            animations: &animations,
            words: &words,
        })
        .unwrap();
        w.finish().unwrap()
    }

    fn defect(p: &Parts) -> SectionDefect {
        match Blob::parse(&blob(p)).unwrap_err() {
            LoadError::MalformedSection { kind: 3, defect, .. } => defect,
            e => panic!("unexpected {e:?}"),
        }
    }

    #[test]
    fn records_round_trip_through_their_bytes() {
        let f = FrameRecord { x: -3, y: 7, w: 300, h: 2, flags: 3, offset: 0x0102_0304, len: 99 };
        let b = f.to_bytes();
        assert_eq!(&b[..4], &[0xFD, 0xFF, 7, 0]);
        assert_eq!(&b[12..16], &[4, 3, 2, 1]);
        assert_eq!(FrameRecord::read(&b, 0), Some(f));
        assert_eq!(FrameRecord::read(&b, 1), None);
        let a = parts().animations[1];
        assert_eq!(AnimationRecord::read(&a.to_bytes(), 0), Some(a));
        assert_eq!(a.mode(), 2);
        assert!(!a.looping());
    }

    /// The writer places a sprite's animation records 4-aligned from the blob's first byte,
    /// whatever the string table before it holds (an extra string of each length shifts the data
    /// area).
    #[test]
    fn the_writer_aligns_a_sprites_animation_records() {
        let p = parts();
        let animations: Vec<u8> = p.animations.iter().flat_map(|a| a.to_bytes()).collect();
        for extra in ["", "a", "ab", "abc", "abcd"] {
            let bytes = blob_with(&p, Some(extra));
            let s = Blob::parse(&bytes).unwrap().sprites().next().unwrap();
            let at = s.animation_record_bytes().as_ptr() as usize - bytes.as_ptr() as usize;
            assert_eq!(at % 4, 0, "extra string {extra:?}");
            assert_eq!(s.animation_record_bytes(), &animations[..], "extra string {extra:?}");
            assert_eq!(s.words().iter().collect::<Vec<_>>(), p.words, "extra string {extra:?}");
        }
    }

    #[test]
    fn a_valid_sprite_reads_back() {
        let bytes = blob(&parts());
        let b = Blob::parse(&bytes).unwrap();
        let s: Vec<_> = b.sprites().collect();
        assert_eq!(s.len(), 1);
        let s = s[0];
        assert_eq!((s.name(), s.width(), s.height(), s.format()), ("hero", 4, 3, PixelFormat::Indexed2));
        assert_eq!((s.transparency(), s.key(), s.palette().len()), (Transparency::ColorKey, 0, 12));
        assert_eq!((s.frame_count(), s.animation_count()), (3, 2));
        let f0 = s.frame(0).unwrap();
        assert_eq!(
            (f0.x, f0.y, f0.width, f0.height, f0.rle, f0.data, f0.mask),
            (1, 1, 3, 2, false, &[0x6C, 0xC4][..], None)
        );
        let f1 = s.frame(1).unwrap();
        assert!(f1.rle);
        assert_eq!(f1.data, &[4, 0, 0, 0, 0x40, 0x82, 2]);
        assert_eq!(s.frame(2).unwrap().data.len(), 0);
        assert!(s.frame(3).is_none());
        assert_eq!(s.animation(1).unwrap().repeat, 2);
        assert_eq!(s.strings_get(s.animation(1).unwrap().name), Some("blink"));
    }

    #[test]
    fn masks_split_from_pixel_rows() {
        let mut p = parts();
        p.format = PixelFormat::Rgb565Be as u8;
        p.palette.clear();
        p.transparency = Transparency::Mask as u8;
        // 3×2 RGB565: 12 bytes of pixels then 2 mask rows of 1 byte.
        p.pixels = (0..14).collect();
        p.frames = vec![FrameRecord { x: 0, y: 0, w: 3, h: 2, flags: FRAME_FLAG_MASK, offset: 0, len: 14 }];
        p.animations.clear();
        let bytes = blob(&p);
        let b = Blob::parse(&bytes).unwrap();
        let f = b.sprites().next().unwrap().frame(0).unwrap();
        assert_eq!(f.data, &(0..12).collect::<Vec<u8>>()[..]);
        assert_eq!(f.mask, Some(&[12u8, 13][..]));
        // Without the flag the frame is opaque and its length is wrong; with the flag but no Mask
        // transparency the flag is wrong.
        let mut q = p.clone();
        q.frames[0].flags = 0;
        assert_eq!(defect(&q), SectionDefect::Sprite(SpriteDefect::FrameData { frame: 0 }));
        q.frames[0].len = 12;
        assert!(Blob::parse(&blob(&q)).is_ok(), "an opaque raw frame of a Mask sprite needs no mask");
        let mut q = p.clone();
        q.transparency = 0;
        assert_eq!(defect(&q), SectionDefect::Sprite(SpriteDefect::FrameFlags { frame: 0, flags: 2 }));
        let mut q = p;
        q.frames[0].len = 13;
        assert_eq!(defect(&q), SectionDefect::Sprite(SpriteDefect::FrameData { frame: 0 }));
    }

    #[test]
    fn every_sprite_defect_is_refused_with_its_place() {
        use SpriteDefect as D;
        type Case = (fn(&mut Parts), SectionDefect);
        let cases: Vec<Case> = vec![
            (|p| p.name = 9, SectionDefect::StringRef { string: 9, count: 4 }),
            (|p| p.format = 8, SectionDefect::Sprite(D::UnknownPixelFormat { found: 8 })),
            (|p| p.transparency = 3, SectionDefect::Sprite(D::UnknownTransparency { found: 3 })),
            (|p| p.width = 0, SectionDefect::Sprite(D::CanvasSize { width: 0, height: 3 })),
            (|p| p.height = 40000, SectionDefect::Sprite(D::CanvasSize { width: 4, height: 40000 })),
            (|p| p.palette.push(1), SectionDefect::Sprite(D::Palette { len: 13 })),
            (|p| p.palette.extend([1, 2, 3]), SectionDefect::Sprite(D::Palette { len: 15 })),
            (|p| p.palette.clear(), SectionDefect::Sprite(D::Palette { len: 0 })),
            (|p| p.key = 4, SectionDefect::Sprite(D::Key { key: 4 })),
            (|p| p.frames[0].x = 2, SectionDefect::Sprite(D::FrameOutsideCanvas { frame: 0 })),
            (|p| p.frames[0].y = -1, SectionDefect::Sprite(D::FrameOutsideCanvas { frame: 0 })),
            (|p| p.frames[1].h = 2, SectionDefect::Sprite(D::FrameOutsideCanvas { frame: 1 })),
            (|p| p.frames[0].flags = 4, SectionDefect::Sprite(D::FrameFlags { frame: 0, flags: 4 })),
            (|p| p.frames[0].flags = 2, SectionDefect::Sprite(D::FrameFlags { frame: 0, flags: 2 })),
            (|p| p.frames[0].len = 3, SectionDefect::Sprite(D::FrameData { frame: 0 })),
            (|p| p.frames[1].offset = 5, SectionDefect::Sprite(D::FrameData { frame: 1 })),
            (|p| p.frames[2].len = 1, SectionDefect::Sprite(D::FrameData { frame: 2 })),
            (|p| p.pixels[2] = 3, SectionDefect::Sprite(D::RleRowTable { frame: 1, row: 0 })),
            (|p| p.pixels[2] = 8, SectionDefect::Sprite(D::RleRowTable { frame: 1, row: 0 })),
            (|p| p.animations[0].frame_count = 0, SectionDefect::Sprite(D::AnimationHeader { animation: 0 })),
            (|p| p.animations[0].frame_count = 3, SectionDefect::Sprite(D::AnimationHeader { animation: 0 })),
            (|p| p.animations[0].flags |= 64, SectionDefect::Sprite(D::AnimationHeader { animation: 0 })),
            (
                |p| {
                    p.animations[0].end = 3;
                    p.animations[0].frame_count = 4;
                },
                SectionDefect::Sprite(D::AnimationFrame { animation: 0, frame: 3, index: 3 }),
            ),
            (|p| p.animations[1].name = 4, SectionDefect::StringRef { string: 4, count: 4 }),
            (|p| p.words[1] = 3, SectionDefect::Sprite(D::AnimationFrame { animation: 1, frame: 1, index: 3 })),
            (|p| p.animations[1].start = 11, SectionDefect::Sprite(D::AnimationWords { animation: 1 })),
            (|p| p.animations[1].durations = 11, SectionDefect::Sprite(D::AnimationWords { animation: 1 })),
            (|p| p.animations[1].events = 9, SectionDefect::Sprite(D::AnimationWords { animation: 1 })),
            (|p| p.words[9] = 2, SectionDefect::Sprite(D::AnimationWords { animation: 1 })),
            (|p| p.words[9] = 65, SectionDefect::Sprite(D::EventCount { animation: 1, frame: 1 })),
            (|p| p.words[12] = 7, SectionDefect::StringRef { string: 7, count: 4 }),
        ];
        for (i, (mutate, expected)) in cases.into_iter().enumerate() {
            let mut p = parts();
            mutate(&mut p);
            assert_eq!(defect(&p), expected, "case {i}");
        }
        // Record arrays that are not whole records.
        let mut p = parts();
        p.words.clear();
        p.animations.clear();
        let mut w = BlobWriter::new(ScalarEncoding::Q16_16);
        w.intern("hero");
        w.add_sprite(&SpriteBody {
            name: 0,
            width: 4,
            height: 3,
            format: 4,
            transparency: 0,
            key: 0,
            palette: &[0, 0, 0],
            frames: &[0; 19],
            pixels: &[],
            animations: &[],
            words: &[],
        })
        .unwrap();
        let e = Blob::parse(&w.finish().unwrap()).unwrap_err();
        assert_eq!(
            e,
            LoadError::MalformedSection {
                section: 1,
                kind: 3,
                defect: SectionDefect::Sprite(D::FrameCount { len: 19 })
            }
        );
        assert!(std::format!("{e}").contains("section 1 (kind 3): sprite: 19 bytes of frame records"), "{e}");
    }

    #[test]
    fn f32_times_must_be_finite() {
        let mut p = parts();
        p.animations[0].frame_time = f32::NAN.to_bits();
        let mut w = BlobWriter::new(ScalarEncoding::F32);
        for s in ["hero", "walk", "blink", "hit"] {
            w.intern(s);
        }
        let frames: Vec<u8> = p.frames.iter().flat_map(|f| f.to_bytes()).collect();
        let animations: Vec<u8> = p.animations.iter().flat_map(|a| a.to_bytes()).collect();
        let words: Vec<u8> = p.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let body = SpriteBody {
            name: 0,
            width: 4,
            height: 3,
            format: p.format,
            transparency: p.transparency,
            key: 0,
            palette: &p.palette,
            frames: &frames,
            pixels: &p.pixels,
            animations: &animations,
            words: &words,
        };
        w.add_sprite(&body).unwrap();
        assert!(matches!(
            Blob::parse(&w.finish().unwrap()).unwrap_err(),
            LoadError::MalformedSection {
                defect: SectionDefect::Sprite(SpriteDefect::AnimationHeader { animation: 0 }),
                ..
            }
        ));
    }

    #[test]
    fn version_1_blobs_may_not_hold_sprites() {
        let mut b = blob(&parts());
        b[4] = 1;
        fix_crc(&mut b);
        assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::UnknownSection { section: 1, kind: 3 });
    }
}

#[test]
fn word_view_reads_whole_records_or_nothing() {
    let bytes: std::vec::Vec<u8> = (0u8..20).collect();
    let v = WordView::new(&bytes[..18]); // four whole words and a partial one
    assert_eq!(v.words::<2>(1), Some([0x0706_0504, 0x0b0a_0908]));
    assert_eq!(v.words::<4>(0).map(|w| w[3]), Some(0x0f0e_0d0c));
    assert_eq!(v.words::<2>(3), None, "the fifth word is partial");
    assert_eq!(v.words::<1>(usize::MAX), None);
    assert_eq!(v.words::<0>(4), Some([]));
    assert_eq!(v.words::<0>(5), None, "a start past the end is refused even for no words");
}

/// The same 18 bytes (four whole words and a partial one) at each of the four offsets from a
/// 4-aligned address: `aligned_words` exists only at offset 0, and every read gives the same
/// little-endian words either way (this crate's unit tests read through the aligned slice where
/// it exists, on every target).
#[test]
fn word_view_reads_the_same_words_aligned_or_not() {
    let mut store = [0u32; 8];
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut store);
    for offset in 0..4 {
        for (k, b) in bytes.iter_mut().enumerate() {
            *b = (k as u8).wrapping_sub(offset as u8).wrapping_mul(7).wrapping_add(3);
        }
        let v = WordView::new(&bytes[offset..offset + 18]);
        assert_eq!(v.aligned_words().is_some(), offset == 0, "offset {offset}");
        let want = |i: usize| {
            let b = |j: usize| (4 * i + j) as u8 * 7 + 3;
            u32::from_le_bytes([b(0), b(1), b(2), b(3)])
        };
        assert_eq!(v.len(), 4);
        for i in 0..4 {
            assert_eq!(v.get(i), Some(want(i)), "offset {offset}, word {i}");
        }
        assert_eq!(v.get(4), None, "offset {offset}: the fifth word is partial");
        assert_eq!(v.get(usize::MAX), None);
        assert_eq!(v.words::<3>(1), Some([want(1), want(2), want(3)]), "offset {offset}");
        assert_eq!(v.words::<2>(3), None, "offset {offset}");
        assert_eq!(v.words::<0>(4), Some([]));
        assert_eq!(v.words::<0>(5), None);
        assert_eq!(v.iter().collect::<std::vec::Vec<_>>(), (0..4).map(want).collect::<std::vec::Vec<_>>());
        if let Some(words) = v.aligned_words() {
            assert_eq!(words.len(), 4);
            assert!(words.iter().enumerate().all(|(i, &w)| u32::from_le(w) == want(i)));
        }
    }
}

/// A run read from a 4-aligned view (through its `u32` slice) and from the same bytes one byte
/// further on (byte by byte) gives the same words, zero past the run's end, and the same
/// refusals, for every start and length around the view's 7 words; and its splits likewise.
#[test]
fn word_runs_read_the_same_words_aligned_or_not() {
    let words: [u32; 9] = core::array::from_fn(|i| 0x0102_0304u32.wrapping_mul(i as u32 + 1) ^ 0x8000_0001);
    let mut store = [0u32; 10];
    for offset in [0usize, 1] {
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut store);
        for (i, w) in words.iter().enumerate() {
            if let Some(b) = bytes.get_mut(offset + 4 * i..offset + 4 * i + 4) {
                b.copy_from_slice(&w.to_le_bytes());
            }
        }
        let view = WordView::new(&bytes[offset..offset + 4 * 7 + 2]); // 7 words and 2 bytes
        assert_eq!(view.aligned_words().is_some(), offset == 0);
        for first in 0..9usize {
            for count in 0..6usize {
                let inside = first + count <= 7;
                let want = |k: usize| if k < count { words[first + k] } else { 0 };
                let run = view.run(first, count);
                assert_eq!(run.is_some(), inside, "offset {offset}, words {first}+{count}");
                assert_eq!(view.run_wrapping(first, count), run);
                let Some(run) = run else { continue };
                assert!(
                    matches!(run, WordRun::Words(_)) == (offset == 0),
                    "offset {offset}: the aligned slice where it exists"
                );
                assert_eq!(run.len(), count);
                assert_eq!(run.is_empty(), count == 0);
                assert_eq!(run.first4(), [0, 1, 2, 3].map(want), "offset {offset}, words {first}+{count}");
                for at in 0..=count {
                    let (a, b) = run.split_at(at).unwrap();
                    let wa = |k: usize| if k < at { words[first + k] } else { 0 };
                    let wb = |k: usize| if at + k < count { words[first + at + k] } else { 0 };
                    assert_eq!(a.first4(), [0, 1, 2, 3].map(wa));
                    assert_eq!(b.first4(), [0, 1, 2, 3].map(wb));
                    assert_eq!((a.len(), b.len()), (at, count - at));
                }
                assert!(run.split_at(count + 1).is_none());
            }
        }
        assert!(view.run(usize::MAX, 2).is_none());
        assert!(view.run(2, usize::MAX).is_none());
        assert!(view.run_wrapping(usize::MAX, 2).is_none(), "a wrapped range is empty");
    }
}
