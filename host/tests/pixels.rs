//! Pixel storage: round trips through the reference decoder for every format, RLE and transparency
//! choice; byte layouts written out by hand from the format's specification; format selection; limits.

use ossicle_format::sprite::{PixelFormat, Transparency, FRAME_FLAG_MASK, FRAME_FLAG_RLE, FRAME_RECORD_LEN};
use ossicle_host::ir::{Origin, RgbaImage, Sprite, SpriteFrame};
use ossicle_host::pixels::{
    decode_frame, encode_sprite, is_rgb565_exact, rgb565_to_rgb888, rgb888_to_rgb565, EncodedSprite, Endian,
    FormatChoice, PixelOptions, RleChoice, TransparencyChoice,
};

/// A fixed-seed xorshift64 generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const T: [u8; 4] = [0, 0, 0, 0];
const A: [u8; 4] = [200, 10, 30, 255];
const B: [u8; 4] = [10, 200, 30, 255];
const C: [u8; 4] = [10, 30, 200, 255];
const D: [u8; 4] = [1, 2, 3, 255];

fn frame_at(image: RgbaImage, x: i32, y: i32) -> SpriteFrame {
    SpriteFrame {
        image,
        x,
        y,
        duration: None,
        events: Vec::new(),
        origin: Origin { file: "frames.png".into(), place: format!("frame at {x},{y}") },
    }
}

fn sprite(width: u32, height: u32, frames: Vec<SpriteFrame>) -> Sprite {
    Sprite {
        name: "test".into(),
        width,
        height,
        frames,
        animations: Vec::new(),
        origin: Origin { file: "sprite.json".into(), place: "/sprite".into() },
    }
}

fn image(width: u32, rows: &[&[[u8; 4]]]) -> RgbaImage {
    let pixels: Vec<[u8; 4]> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    assert_eq!(pixels.len() as u32 % width.max(1), 0);
    RgbaImage { width, height: rows.len() as u32, pixels }
}

/// A single-frame sprite whose canvas is the image.
fn single(rows: &[&[[u8; 4]]]) -> Sprite {
    let img = image(rows[0].len() as u32, rows);
    sprite(img.width, img.height, vec![frame_at(img, 0, 0)])
}

fn opts(format: FormatChoice, rle: RleChoice, transparency: TransparencyChoice) -> PixelOptions {
    PixelOptions { format, rle, transparency, ..PixelOptions::default() }
}

fn fixed(format: PixelFormat, rle: RleChoice) -> PixelOptions {
    opts(FormatChoice::Fixed(format), rle, TransparencyChoice::Auto)
}

/// Frame record `i`: (x, y, w, h, flags, reserved, offset, len).
fn record(e: &EncodedSprite, i: usize) -> (i16, i16, u16, u16, u16, u16, u32, u32) {
    let r = &e.frames[i * FRAME_RECORD_LEN..(i + 1) * FRAME_RECORD_LEN];
    let u16_at = |k: usize| u16::from_le_bytes([r[k], r[k + 1]]);
    let u32_at = |k: usize| u32::from_le_bytes([r[k], r[k + 1], r[k + 2], r[k + 3]]);
    (u16_at(0) as i16, u16_at(2) as i16, u16_at(4), u16_at(6), u16_at(8), u16_at(10), u32_at(12), u32_at(16))
}

fn data(e: &EncodedSprite, i: usize) -> &[u8] {
    let (_, _, _, _, _, _, offset, len) = record(e, i);
    &e.pixels[offset as usize..(offset + len) as usize]
}

/// What the canvas should show for frame `i`: the frame image thresholded (opaque pixels with alpha
/// 255, transparent ones all zero), colours mapped by `map`, placed in the canvas.
fn expected(s: &Sprite, i: usize, threshold: u8, map: impl Fn([u8; 3]) -> [u8; 3]) -> RgbaImage {
    let f = &s.frames[i];
    let mut canvas = RgbaImage::new(s.width, s.height);
    for y in 0..f.image.height {
        for x in 0..f.image.width {
            let p = f.image.get(x, y).unwrap();
            if p[3] >= threshold {
                let c = map([p[0], p[1], p[2]]);
                canvas.set(f.x as u32 + x, f.y as u32 + y, [c[0], c[1], c[2], 255]);
            }
        }
    }
    canvas
}

/// Frame `i` decoded and placed in the canvas.
fn decoded(e: &EncodedSprite, s: &Sprite, i: usize) -> RgbaImage {
    let (x, y, img) = decode_frame(e, i).expect("decodes");
    let mut canvas = RgbaImage::new(s.width, s.height);
    for yy in 0..img.height {
        for xx in 0..img.width {
            let p = img.get(xx, yy).unwrap();
            assert!(p[3] == 0 || p[3] == 255);
            if p[3] == 255 {
                canvas.set(x as u32 + xx, y as u32 + yy, p);
            } else {
                assert_eq!(p, T);
            }
        }
    }
    canvas
}

/// Checks what every encoding must satisfy: record layout, lengths, shared data, sizes.
fn check_structure(e: &EncodedSprite, s: &Sprite) {
    assert_eq!(e.frames.len(), s.frames.len() * FRAME_RECORD_LEN);
    assert_eq!(e.report.per_frame.len(), s.frames.len());
    assert_eq!(e.report.flash_bytes, e.palette.len() + e.frames.len() + e.pixels.len());
    if e.format.is_indexed() {
        assert!(!e.palette.is_empty() && e.palette.len() % 3 == 0);
        assert!(e.palette.len() / 3 <= e.format.max_palette() as usize);
    } else {
        assert!(e.palette.is_empty());
    }
    if e.transparency != Transparency::ColorKey {
        assert_eq!(e.key, 0);
    }
    let mut covered = vec![false; e.pixels.len()];
    for i in 0..s.frames.len() {
        let (x, y, w, h, flags, reserved, offset, len) = record(e, i);
        let rep = e.report.per_frame[i];
        assert_eq!(reserved, 0);
        assert_eq!((u32::from(w), u32::from(h), len as usize), (rep.stored_w, rep.stored_h, rep.bytes));
        assert_eq!(flags & FRAME_FLAG_RLE != 0, rep.rle);
        assert!(x >= 0 && y >= 0 && x as u32 + u32::from(w) <= s.width && y as u32 + u32::from(h) <= s.height);
        if w == 0 {
            assert_eq!((x, y, h, flags, offset, len), (0, 0, 0, 0, 0, 0));
            continue;
        }
        if flags & FRAME_FLAG_MASK != 0 {
            assert_eq!(e.transparency, Transparency::Mask);
        }
        if flags & FRAME_FLAG_RLE == 0 {
            let mask = if flags & FRAME_FLAG_MASK != 0 { u32::from(w).div_ceil(8) } else { 0 };
            assert_eq!(len, u32::from(h) * (e.format.stride(u32::from(w)) + mask));
        }
        match rep.shared_with {
            Some(first) => {
                assert!(first < i);
                assert_eq!(record(e, first).6, offset);
                assert_eq!(e.report.per_frame[first].shared_with, None);
            }
            None => {
                for c in &mut covered[offset as usize..(offset + len) as usize] {
                    assert!(!*c, "data ranges of unshared frames overlap");
                    *c = true;
                }
            }
        }
    }
    assert!(covered.iter().all(|&c| c), "pixel bytes that no frame uses");
}

/// A random sprite: canvas up to 20×20, up to 4 frames placed inside it, colours from a random
/// palette of `colours` entries (565-exact when `exact565`), runs of equal pixels, transparent
/// stretches, partial alpha and repeated images.
fn random_sprite(rng: &mut Rng, colours: usize, exact565: bool) -> Sprite {
    let (width, height) = (1 + rng.below(20) as u32, 1 + rng.below(20) as u32);
    let palette: Vec<[u8; 3]> = (0..colours)
        .map(|_| {
            let v = rng.next();
            if exact565 {
                rgb565_to_rgb888(v as u16)
            } else {
                [v as u8, (v >> 8) as u8, (v >> 16) as u8]
            }
        })
        .collect();
    let mut frames: Vec<SpriteFrame> = (0..1 + rng.below(4))
        .map(|_| {
            let (w, h) = (rng.below(u64::from(width) + 1) as u32, rng.below(u64::from(height) + 1) as u32);
            let (x, y) = (rng.below(u64::from(width - w) + 1) as i32, rng.below(u64::from(height - h) + 1) as i32);
            let mut img = RgbaImage::new(w, h);
            let mut prev = [0u8; 4];
            for p in &mut img.pixels {
                *p = match rng.below(10) {
                    0..=3 => prev,
                    4 | 5 => [rng.next() as u8, 7, 9, [0, 1, 60, 127][rng.below(4) as usize]],
                    6 => {
                        let c = palette[rng.below(colours as u64) as usize];
                        [c[0], c[1], c[2], [128, 200, 254][rng.below(3) as usize]]
                    }
                    _ => {
                        let c = palette[rng.below(colours as u64) as usize];
                        [c[0], c[1], c[2], 255]
                    }
                };
                prev = *p;
            }
            frame_at(img, x, y)
        })
        .collect();
    // Repeated images, sometimes elsewhere in the canvas.
    for i in 1..frames.len() {
        if rng.below(3) == 0 {
            let img = frames[0].image.clone();
            let x = rng.below(u64::from(width - img.width) + 1) as i32;
            let y = rng.below(u64::from(height - img.height) + 1) as i32;
            frames[i] = frame_at(img, x, y);
        }
    }
    sprite(width, height, frames)
}

fn all_format_choices() -> Vec<FormatChoice> {
    let mut v = vec![FormatChoice::Auto, FormatChoice::Indexed];
    v.extend((1..=7).map(|b| FormatChoice::Fixed(PixelFormat::from_u8(b).unwrap())));
    v
}

const RLES: [RleChoice; 3] = [RleChoice::Auto, RleChoice::Always, RleChoice::Never];
const TRANSPARENCIES: [TransparencyChoice; 3] =
    [TransparencyChoice::Auto, TransparencyChoice::Key, TransparencyChoice::Mask];

#[test]
fn generated_sprites_round_trip_in_every_combination() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    // How often each path was taken: key, mask, mixed raw/RLE frames, shared data, quantised 565.
    let (mut keys, mut masks, mut mixed, mut shared, mut quantised) = (0, 0, 0, 0, 0);
    for round in 0..60 {
        let colours = [1, 2, 3, 4, 5, 15, 16, 17, 255, 256, 300][round % 11];
        let exact565 = round % 2 == 0;
        let s = random_sprite(&mut rng, colours, exact565);
        for &format in &all_format_choices() {
            for rle in RLES {
                for transparency in TRANSPARENCIES {
                    for endian in [Endian::Little, Endian::Big] {
                        let o = PixelOptions { format, endian, rle, transparency, alpha_threshold: 128 };
                        let e = match encode_sprite(&s, &o) {
                            Ok(e) => e,
                            Err(err) => {
                                // Only a fixed indexed format (or the smallest one) may not hold the colours.
                                let indexed = match format {
                                    FormatChoice::Indexed => true,
                                    FormatChoice::Fixed(f) => f.is_indexed(),
                                    FormatChoice::Auto => false,
                                };
                                assert!(indexed, "{o:?}: {err}");
                                assert!(err.reason.contains("do not fit"), "{err}");
                                continue;
                            }
                        };
                        check_structure(&e, &s);
                        if let FormatChoice::Fixed(f) = format {
                            assert_eq!(e.format, f);
                        }
                        if rle == RleChoice::Always {
                            assert!(e.report.per_frame.iter().all(|f| f.rle || f.stored_w == 0));
                        }
                        if rle == RleChoice::Never {
                            assert!(e.report.per_frame.iter().all(|f| !f.rle));
                        }
                        let is565 = matches!(e.format, PixelFormat::Rgb565Le | PixelFormat::Rgb565Be);
                        if format == FormatChoice::Auto {
                            assert_eq!(e.report.quantised_colours, 0);
                        }
                        let map = |c: [u8; 3]| if is565 { rgb565_to_rgb888(rgb888_to_rgb565(c)) } else { c };
                        for i in 0..s.frames.len() {
                            assert_eq!(decoded(&e, &s, i), expected(&s, i, 128, map), "{o:?} frame {i}");
                        }
                        assert_eq!(encode_sprite(&s, &o).unwrap(), e, "deterministic");
                        checked += 1;
                        keys += usize::from(e.transparency == Transparency::ColorKey);
                        masks += usize::from(e.transparency == Transparency::Mask);
                        let frames = &e.report.per_frame;
                        mixed += usize::from(
                            frames.iter().any(|f| f.rle) && frames.iter().any(|f| !f.rle && f.stored_w > 0),
                        );
                        shared += usize::from(frames.iter().any(|f| f.shared_with.is_some()));
                        quantised += usize::from(e.report.quantised_colours > 0);
                    }
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
    let counts = (keys, masks, mixed, shared, quantised);
    assert!(keys > 500 && masks > 500 && mixed > 100 && shared > 10 && quantised > 100, "{counts:?}");
    eprintln!("{checked} encodings: (key, mask, mixed RLE, shared, quantised) {counts:?}");
}

#[test]
fn auto_is_the_smallest_candidate_and_each_candidate_is_what_its_format_gives() {
    let mut rng = Rng(12345);
    for round in 0..40 {
        let colours = [1, 2, 3, 4, 5, 16, 17, 256][round % 8];
        let s = random_sprite(&mut rng, colours, round % 3 != 0);
        for rle in RLES {
            let e = encode_sprite(&s, &opts(FormatChoice::Auto, rle, TransparencyChoice::Auto)).unwrap();
            let smallest = e.report.candidates.iter().map(|c| c.1).min().unwrap();
            assert_eq!(e.report.flash_bytes, smallest, "{:?}", e.report.candidates);
            assert!(e.report.candidates.iter().any(|c| c.0.starts_with(e.format.name()) && c.1 == smallest));
            for (name, bytes) in &e.report.candidates {
                let format = (1..=7).map(|b| PixelFormat::from_u8(b).unwrap()).find(|f| name.starts_with(f.name()));
                let fixed = encode_sprite(&s, &fixed(format.unwrap(), rle)).unwrap();
                assert_eq!(fixed.report.flash_bytes, *bytes, "{name}");
            }
        }
    }
}

// ---- byte layouts written out by hand ----

#[test]
fn indexed2_raw_frame_bytes() {
    // Colours by first appearance: A = 0, B = 1, C = 2. Rows of 3 two-bit pixels, MSB first, padded.
    let s = single(&[&[A, B, C], &[C, A, B]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed2, RleChoice::Never)).unwrap();
    assert_eq!(e.pixels, [0b00_01_10_00, 0b10_00_01_00]);
    assert_eq!(e.palette, [200, 10, 30, 10, 200, 30, 10, 30, 200]);
    assert_eq!(e.transparency, Transparency::None);
    #[rustfmt::skip]
    assert_eq!(e.frames, [
        0, 0, 0, 0, // x, y
        3, 0, 2, 0, // w, h
        0, 0, 0, 0, // flags, reserved
        0, 0, 0, 0, // offset
        2, 0, 0, 0, // len
    ]);
    assert_eq!(e.report.flash_bytes, 9 + 20 + 2);

    // With a transparent pixel the key is index 3, after the colours, palette entry black.
    let s = single(&[&[A, B, C], &[C, T, B]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed2, RleChoice::Never)).unwrap();
    assert_eq!(e.pixels, [0b00_01_10_00, 0b10_11_01_00]);
    assert_eq!((e.transparency, e.key), (Transparency::ColorKey, 3));
    assert_eq!(e.palette, [200, 10, 30, 10, 200, 30, 10, 30, 200, 0, 0, 0]);
}

#[test]
fn indexed1_and_indexed4_pack_msb_first() {
    let s = single(&[&[A, B, B, A, A, A, B, A, B]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed1, RleChoice::Never)).unwrap();
    assert_eq!(e.pixels, [0b0110_0010, 0b1000_0000]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed4, RleChoice::Never)).unwrap();
    assert_eq!(e.pixels, [0x01, 0x10, 0x00, 0x10, 0x10]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed8, RleChoice::Never)).unwrap();
    assert_eq!(e.pixels, [0, 1, 1, 0, 0, 0, 1, 0, 1]);
}

#[test]
fn rle_rows_bytes() {
    // Row 0: [T, T, A, A, A, B, C] -> skip 2, run 3 × A, literal B C.
    // Row 1: [A, A, T, T, T, T, T] -> run 2 × A; trailing transparency is not stored.
    let s = single(&[&[T, T, A, A, A, B, C], &[A, A, T, T, T, T, T]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed8, RleChoice::Always)).unwrap();
    #[rustfmt::skip]
    assert_eq!(e.pixels, [
        8, 0, 0, 0, 14, 0, 0, 0,        // row offsets, relative to the frame data
        0x41, 0x82, 0, 0x01, 1, 2,      // row 0
        0x81, 0,                        // row 1
    ]);
    let (_, _, w, h, flags, _, _, len) = record(&e, 0);
    assert_eq!((w, h, flags, len), (7, 2, FRAME_FLAG_RLE, 16));
    // Skips, not a key: no transparency for raw frames, no key entry (3 colours fit Indexed2 as well).
    assert_eq!(e.transparency, Transparency::None);
    assert_eq!(e.palette.len(), 9);

    // The same in RGB888: values are 3 bytes.
    let e = encode_sprite(&s, &fixed(PixelFormat::Rgb888, RleChoice::Always)).unwrap();
    #[rustfmt::skip]
    assert_eq!(e.pixels, [
        8, 0, 0, 0, 20, 0, 0, 0,
        0x41, 0x82, 200, 10, 30, 0x01, 10, 200, 30, 10, 30, 200,
        0x81, 200, 10, 30,
    ]);
}

#[test]
fn rle_splits_runs_at_128_and_literals_at_64_and_skips_at_64() {
    // 130 × A, 70 × T, then 70 different values, then A.
    let mut row = vec![A; 130];
    row.extend([T; 70]);
    let distinct: Vec<[u8; 4]> = (0..70).map(|i| [i as u8, 100, 100, 255]).collect();
    row.extend(&distinct);
    row.push(A);
    let s = single(&[&row]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed8, RleChoice::Always)).unwrap();
    let mut want = vec![4, 0, 0, 0, 0xFF, 0, 0x81, 0, 0x7F, 0x45];
    // The last A joins the second literal (a literal of 7 is a byte smaller than 6 + a run of 1).
    want.push(0x3F);
    want.extend(1..=64);
    want.push(0x06);
    want.extend(65..=70);
    want.push(0);
    assert_eq!(e.pixels, want);
    assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
}

#[test]
fn rle_uses_runs_of_two_only_where_they_save_bytes() {
    // 1-byte values: [A A B] = run 2 + literal 1 (4 bytes) or literal 3 (4 bytes): either; [B A A B]:
    // literal 4 (5 bytes) beats literal + run + literal (6 bytes).
    let s = single(&[&[B, A, A, B]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed8, RleChoice::Always)).unwrap();
    assert_eq!(&e.pixels[4..], [0x03, 0, 1, 1, 0]);
    // 2-byte values: a run of two at the start saves a byte; a single value is a literal of one.
    let s = single(&[&[A, A, D]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Rgb565Le, RleChoice::Always)).unwrap();
    let (d, a) = (rgb888_to_rgb565([1, 2, 3]).to_le_bytes(), rgb888_to_rgb565([200, 10, 30]).to_le_bytes());
    assert_eq!(&e.pixels[4..], [0x81, a[0], a[1], 0x00, d[0], d[1]]);
}

#[test]
fn rgb565_byte_order() {
    // r5 = 31, g6 = 32, b5 = 1: 0xFC01; expands to (255, 130, 8).
    let c = [255, 130, 8, 255];
    assert_eq!(rgb888_to_rgb565([255, 130, 8]), 0xFC01);
    assert!(is_rgb565_exact([255, 130, 8]));
    let s = single(&[&[c, c]]);
    let le = encode_sprite(&s, &fixed(PixelFormat::Rgb565Le, RleChoice::Never)).unwrap();
    assert_eq!(le.pixels, [0x01, 0xFC, 0x01, 0xFC]);
    let be = encode_sprite(&s, &fixed(PixelFormat::Rgb565Be, RleChoice::Never)).unwrap();
    assert_eq!(be.pixels, [0xFC, 0x01, 0xFC, 0x01]);
    let be = encode_sprite(&s, &fixed(PixelFormat::Rgb565Be, RleChoice::Always)).unwrap();
    assert_eq!(be.pixels, [4, 0, 0, 0, 0x81, 0xFC, 0x01]);
    // Auto takes the byte order it is told (here among 1 colour the indexed form is smaller, so
    // compare the candidates' names).
    for (endian, name) in [(Endian::Little, "rgb565le"), (Endian::Big, "rgb565be")] {
        let o = PixelOptions { endian, ..PixelOptions::default() };
        let e = encode_sprite(&s, &o).unwrap();
        let names: Vec<&str> = e.report.candidates.iter().map(|c| c.0.as_str()).collect();
        assert!(names.iter().any(|n| n.starts_with(name)), "{names:?}");
        assert!(!names.iter().any(|n| n.starts_with("rgb565") && !n.starts_with(name)), "{names:?}");
    }
}

#[test]
fn rgb888_raw_with_mask_rows_msb_first() {
    let o = [1, 2, 3, 255];
    let s = single(&[&[o, T, o, o, T, T, T, T, o], &[o, o, o, o, o, o, o, o, T]]);
    let e =
        encode_sprite(&s, &opts(FormatChoice::Fixed(PixelFormat::Rgb888), RleChoice::Never, TransparencyChoice::Mask))
            .unwrap();
    assert_eq!((e.transparency, e.key), (Transparency::Mask, 0));
    let px = data(&e, 0);
    assert_eq!(px.len(), 2 * 27 + 2 * 2);
    assert_eq!(&px[..6], [1, 2, 3, 0, 0, 0]);
    assert_eq!(&px[54..], [0b1011_0000, 0b1000_0000, 0b1111_1111, 0b0000_0000]);
    assert_eq!(record(&e, 0).4, FRAME_FLAG_MASK);
    assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
}

#[test]
fn direct_keys_prefer_magenta_then_the_smallest_free_value() {
    let magenta = [255, 0, 255, 255];
    let black = [0, 0, 0, 255];
    let cases: [(&[[u8; 4]], u32, u32); 3] =
        [(&[A, T, A], 0xF81F, 0xFF00FF), (&[magenta, T, A], 0, 0), (&[magenta, T, black], 1, 1)];
    for (row, key565, key888) in cases {
        let s = single(&[row]);
        let e = encode_sprite(&s, &fixed(PixelFormat::Rgb565Le, RleChoice::Never)).unwrap();
        assert_eq!((e.transparency, e.key), (Transparency::ColorKey, key565));
        let e = encode_sprite(&s, &fixed(PixelFormat::Rgb888, RleChoice::Never)).unwrap();
        assert_eq!((e.transparency, e.key), (Transparency::ColorKey, key888));
        assert_eq!(&e.pixels[3..6], &key888.to_be_bytes()[1..]);
        assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
    }
}

#[test]
fn palette_is_in_order_of_first_appearance() {
    let f0 = image(2, &[&[T, C], &[A, C]]);
    let f1 = image(3, &[&[B, A, D]]);
    let s = sprite(4, 4, vec![frame_at(f0, 0, 0), frame_at(f1, 1, 3)]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed8, RleChoice::Never)).unwrap();
    assert_eq!(e.palette[..12], [10, 30, 200, 200, 10, 30, 10, 200, 30, 1, 2, 3]);
    // The key (for the T in frame 0) follows the colours.
    assert_eq!((e.transparency, e.key), (Transparency::ColorKey, 4));
    assert_eq!(e.palette[12..], [0, 0, 0]);
    assert_eq!(data(&e, 1), [2, 1, 3]);
}

// ---- trimming, sharing, alpha ----

#[test]
fn frames_are_trimmed_to_their_opaque_box_in_the_canvas() {
    let img = image(4, &[&[T, T, T, T], &[T, A, T, T], &[T, T, B, T]]);
    let s = sprite(10, 8, vec![frame_at(img, 3, 2), frame_at(RgbaImage::new(3, 3), 1, 1)]);
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    let (x, y, w, h, ..) = record(&e, 0);
    assert_eq!((x, y, w, h), (4, 3, 2, 2));
    assert_eq!(record(&e, 1), (0, 0, 0, 0, 0, 0, 0, 0));
    assert_eq!(decode_frame(&e, 1), Some((0, 0, RgbaImage::new(0, 0))));
    for i in 0..2 {
        assert_eq!(decoded(&e, &s, i), expected(&s, i, 128, |c| c));
    }
    assert_eq!(decode_frame(&e, 2), None);
}

#[test]
fn transparency_outside_the_opaque_box_needs_no_key() {
    let img = image(3, &[&[T, T, T], &[T, A, B], &[T, B, A]]);
    let s = sprite(3, 3, vec![frame_at(img, 0, 0)]);
    let e = encode_sprite(&s, &opts(FormatChoice::Auto, RleChoice::Never, TransparencyChoice::Auto)).unwrap();
    assert_eq!((e.format, e.transparency, e.palette.len()), (PixelFormat::Indexed1, Transparency::None, 6));
}

#[test]
fn identical_frames_share_data() {
    let img = image(2, &[&[A, B], &[B, A]]);
    let other = image(2, &[&[A, A], &[B, A]]);
    let s = sprite(
        8,
        8,
        vec![frame_at(img.clone(), 0, 0), frame_at(other, 0, 0), frame_at(img.clone(), 5, 6), frame_at(img, 0, 0)],
    );
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed8, RleChoice::Never)).unwrap();
    let shared: Vec<Option<usize>> = e.report.per_frame.iter().map(|f| f.shared_with).collect();
    assert_eq!(shared, [None, None, Some(0), Some(0)]);
    assert_eq!(e.pixels.len(), 8);
    assert_eq!(record(&e, 2).0, 5);
    assert_eq!(record(&e, 2).6, record(&e, 0).6);
    for i in 0..4 {
        assert_eq!(decoded(&e, &s, i), expected(&s, i, 128, |c| c));
    }
}

#[test]
fn alpha_threshold_and_partial_alpha_count() {
    let s = single(&[&[[9, 9, 9, 127], [9, 9, 9, 128], [9, 9, 9, 255], [9, 9, 9, 1], [9, 9, 9, 0]]]);
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    assert_eq!(e.report.partial_alpha_pixels, 3);
    let (x, _, img) = decode_frame(&e, 0).unwrap();
    assert_eq!((x, img.width), (1, 2));
    assert_eq!(img.pixels, [[9, 9, 9, 255], [9, 9, 9, 255]]);
    let e = encode_sprite(&s, &PixelOptions { alpha_threshold: 1, ..PixelOptions::default() }).unwrap();
    let (x, _, img) = decode_frame(&e, 0).unwrap();
    assert_eq!((x, img.width), (0, 4));
    let e = encode_sprite(&s, &PixelOptions { alpha_threshold: 0, ..PixelOptions::default() }).unwrap();
    assert_eq!(decode_frame(&e, 0).unwrap().2.width, 5);
    assert_eq!(e.transparency, Transparency::None);
}

#[test]
fn a_sprite_whose_transparent_frames_all_become_rle_drops_the_key() {
    // 60 × A, 8 × T, 60 × A: raw indexed1 is 16 bytes, RLE is 4 + 5.
    let mut row = vec![A; 60];
    row.extend([T; 8]);
    row.extend([A; 60]);
    let s = single(&[&row]);
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    assert_eq!((e.format, e.transparency, e.key), (PixelFormat::Indexed1, Transparency::None, 0));
    assert_eq!(e.palette, [200, 10, 30]);
    assert_eq!(e.pixels, [4, 0, 0, 0, 0xBB, 0, 0x47, 0xBB, 0]);
    assert_eq!(e.report.flash_bytes, 3 + 20 + 9);
    assert_eq!(e.report.candidates[0], ("indexed1+rle".to_string(), 32));
}

// ---- format selection ----

fn colour(i: usize) -> [u8; 4] {
    // Distinct and 565-exact.
    let c = rgb565_to_rgb888((i as u16).wrapping_mul(2477));
    [c[0], c[1], c[2], 255]
}

/// A sprite with `n` colours (each 8 times, in a scattered order) and, if `transparent`, a hole.
fn with_colours(n: usize, transparent: bool, exact: bool) -> Sprite {
    let mut px: Vec<[u8; 4]> = (0..8 * n)
        .map(|i| {
            let c = colour((i * 7) % n);
            if exact {
                c
            } else {
                // The low bit of a bit-replicated 8-bit value is fixed by the top 5: flipping it is inexact.
                [c[0] ^ 1, c[1], c[2], 255]
            }
        })
        .collect();
    if transparent {
        px.insert(1, T);
    }
    let w = px.len() as u32;
    sprite(w, 1, vec![frame_at(RgbaImage { width: w, height: 1, pixels: px }, 0, 0)])
}

fn auto_raw(s: &Sprite) -> EncodedSprite {
    encode_sprite(s, &opts(FormatChoice::Auto, RleChoice::Never, TransparencyChoice::Auto)).unwrap()
}

#[test]
fn selection_by_colour_count() {
    let cases = [
        (1, false, PixelFormat::Indexed1, 1),
        (1, true, PixelFormat::Indexed1, 2),
        (2, false, PixelFormat::Indexed1, 2),
        (2, true, PixelFormat::Indexed2, 3),
        (4, false, PixelFormat::Indexed2, 4),
        (4, true, PixelFormat::Indexed4, 5),
        (15, true, PixelFormat::Indexed4, 16),
        (16, true, PixelFormat::Indexed8, 17),
        (255, true, PixelFormat::Indexed8, 256),
    ];
    for (n, transparent, format, entries) in cases {
        let s = with_colours(n, transparent, true);
        let e = auto_raw(&s);
        assert_eq!((e.format, e.palette.len() / 3), (format, entries), "{n} colours, transparent {transparent}");
        assert_eq!(e.report.colours, n);
        assert_eq!(e.transparency, if transparent { Transparency::ColorKey } else { Transparency::None });
        assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
    }
}

#[test]
fn indexed8_without_room_for_the_key_uses_a_mask() {
    let s = with_colours(256, true, true);
    let e = auto_raw(&s);
    assert_eq!((e.format, e.transparency, e.palette.len()), (PixelFormat::Indexed8, Transparency::Mask, 768));
    assert_eq!(e.report.candidates[0].0, "indexed8+mask");
    assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
    // Asking for a key cannot be satisfied by an indexed format, but by RGB565.
    let e = encode_sprite(&s, &opts(FormatChoice::Auto, RleChoice::Never, TransparencyChoice::Key)).unwrap();
    assert_eq!((e.format, e.transparency), (PixelFormat::Rgb565Le, Transparency::ColorKey));
    let err = encode_sprite(&s, &opts(FormatChoice::Indexed, RleChoice::Never, TransparencyChoice::Key)).unwrap_err();
    assert!(err.reason.contains("256 colours and the transparent key do not fit in indexed8"), "{err}");
}

#[test]
fn many_colours_choose_rgb565_when_exact_else_rgb888() {
    let s = with_colours(300, false, true);
    let e = auto_raw(&s);
    assert_eq!(e.format, PixelFormat::Rgb565Le);
    let names: Vec<&str> = e.report.candidates.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, ["rgb565le", "rgb888"]);
    assert!(e.report.candidates[0].1 < e.report.candidates[1].1);

    let s = with_colours(300, false, false);
    let e = auto_raw(&s);
    assert_eq!(e.format, PixelFormat::Rgb888);
    let names: Vec<&str> = e.report.candidates.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, ["rgb888"]);
    assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
}

#[test]
fn one_inexact_colour_excludes_rgb565() {
    let s = single(&[&[A, B, [255, 130, 8, 255]]]);
    assert!(!is_rgb565_exact([200, 10, 30]));
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    assert!(e.report.candidates.iter().all(|c| !c.0.starts_with("rgb565")), "{:?}", e.report.candidates);
    let names: Vec<&str> = e.report.candidates.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, ["indexed2", "indexed4", "indexed8", "rgb888"]);
}

#[test]
fn candidate_ties_keep_fewer_bits() {
    // 2 colours, 4 rows of 2: indexed1/2/4 all take 1 byte per row and the same palette.
    let s = single(&[&[A, B], &[B, A], &[A, A], &[B, B]]);
    let e = auto_raw(&s);
    assert_eq!(e.format, PixelFormat::Indexed1);
    let candidates: Vec<(&str, usize)> = e.report.candidates.iter().map(|c| (c.0.as_str(), c.1)).collect();
    assert_eq!(candidates, [("indexed1", 30), ("indexed2", 30), ("indexed4", 30), ("indexed8", 34), ("rgb888", 44)]);
}

#[test]
fn fixed_rgb565_quantises_to_the_nearest_value() {
    // 200 -> r5 24 (198; 25 would be 206), 10 -> g6 2 (8; 3 would be 12, as far: the lower wins),
    // 30 -> b5 4 (33; 3 would be 24).
    assert_eq!(rgb888_to_rgb565([200, 10, 30]), (24 << 11) | (2 << 5) | 4);
    assert_eq!(rgb565_to_rgb888((24 << 11) | (2 << 5) | 4), [198, 8, 33]);
    for v in 0..=255u8 {
        // Nearest per channel by brute force over the expansions; the lower value on a tie.
        let dist = |e: u16| (i32::from(e as u8) - i32::from(v)).abs();
        let r5 = (0..32u16).min_by_key(|&r| dist((r << 3) | (r >> 2))).unwrap();
        let g6 = (0..64u16).min_by_key(|&g| dist((g << 2) | (g >> 4))).unwrap();
        let q = rgb888_to_rgb565([v, v, v]);
        assert_eq!((q >> 11, (q >> 5) & 0x3F, q & 0x1F), (r5, g6, r5), "{v}");
    }
    let s = single(&[&[A, B, [255, 130, 8, 255], A]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Rgb565Be, RleChoice::Never)).unwrap();
    assert_eq!((e.report.colours, e.report.quantised_colours), (3, 2));
    let (_, _, img) = decode_frame(&e, 0).unwrap();
    assert_eq!(img.pixels[0], [198, 8, 33, 255]);
    assert_eq!(img.pixels[2], [255, 130, 8, 255]);
}

// ---- errors and limits ----

#[test]
fn fixed_indexed_with_too_many_colours_names_the_count() {
    let s = single(&[&[A, B, C]]);
    let err = encode_sprite(&s, &fixed(PixelFormat::Indexed1, RleChoice::Auto)).unwrap_err();
    assert_eq!(err.file, std::path::PathBuf::from("sprite.json"));
    assert!(err.reason.contains("3 colours do not fit in indexed1 (2 palette entries)"), "{err}");
    let s = with_colours(257, false, true);
    let err = encode_sprite(&s, &opts(FormatChoice::Indexed, RleChoice::Auto, TransparencyChoice::Auto)).unwrap_err();
    assert!(err.reason.contains("257 colours"), "{err}");
    // 2 colours and a hole in indexed1: no room for the key, so a mask (or an error when a key is demanded).
    let s = single(&[&[A, T, B]]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Indexed1, RleChoice::Never)).unwrap();
    assert_eq!(e.transparency, Transparency::Mask);
    assert_eq!(decoded(&e, &s, 0), expected(&s, 0, 128, |c| c));
    let o = opts(FormatChoice::Fixed(PixelFormat::Indexed1), RleChoice::Never, TransparencyChoice::Key);
    let err = encode_sprite(&s, &o).unwrap_err();
    assert!(err.reason.contains("2 colours and the transparent key do not fit in indexed1"), "{err}");
    // ... unless every frame is RLE: then no key is needed.
    let o = opts(FormatChoice::Fixed(PixelFormat::Indexed1), RleChoice::Always, TransparencyChoice::Key);
    assert_eq!(encode_sprite(&s, &o).unwrap().transparency, Transparency::None);
}

#[test]
fn a_frame_sticking_out_of_the_canvas_is_an_error_naming_the_frame() {
    for (x, y) in [(-1, 0), (0, -1), (3, 0), (0, 4)] {
        let s = sprite(4, 4, vec![frame_at(RgbaImage::new(1, 1), 0, 0), frame_at(RgbaImage::new(2, 1), x, y)]);
        let err = encode_sprite(&s, &PixelOptions::default()).unwrap_err();
        assert_eq!(err.file, std::path::PathBuf::from("frames.png"));
        assert_eq!(err.place, format!("frame at {x},{y}"));
        assert!(err.reason.contains("frame 1") && err.reason.contains("sticks out of the 4×4 canvas"), "{err}");
    }
}

#[test]
fn limits() {
    let s = sprite(32_768, 1, Vec::new());
    let err = encode_sprite(&s, &PixelOptions::default()).unwrap_err();
    assert!(err.reason.contains("32768×1") && err.reason.contains("32767"), "{err}");
    let s = sprite(32_767, 32_767, Vec::new());
    assert!(encode_sprite(&s, &PixelOptions::default()).is_ok());

    let s = sprite(1, 1, (0..65_536).map(|_| frame_at(RgbaImage::default(), 0, 0)).collect());
    let err = encode_sprite(&s, &PixelOptions::default()).unwrap_err();
    assert!(err.reason.contains("65536 frames"), "{err}");

    let bad = RgbaImage { width: 2, height: 2, pixels: vec![A; 3] };
    let s = sprite(2, 2, vec![frame_at(bad, 0, 0)]);
    let err = encode_sprite(&s, &PixelOptions::default()).unwrap_err();
    assert!(err.reason.contains("has 3 pixels, not 4"), "{err}");

    // A frame at the far edge of the largest canvas.
    let s = sprite(32_767, 32_767, vec![frame_at(image(1, &[&[A]]), 32_766, 32_766)]);
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    assert_eq!(decode_frame(&e, 0).unwrap().0, 32_766);
}

#[test]
fn empty_sprites() {
    let s = sprite(5, 5, Vec::new());
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    assert!(e.frames.is_empty() && e.pixels.is_empty());
    let s = sprite(5, 5, vec![frame_at(RgbaImage::new(5, 5), 0, 0)]);
    let e = encode_sprite(&s, &PixelOptions::default()).unwrap();
    check_structure(&e, &s);
    assert_eq!(e.report.colours, 0);
    assert_eq!(decoded(&e, &s, 0), RgbaImage::new(5, 5));
}

#[test]
fn the_decoder_refuses_broken_data() {
    let s = single(&[&[A, T, B], &[B, B, B]]);
    let good = encode_sprite(&s, &fixed(PixelFormat::Indexed2, RleChoice::Never)).unwrap();
    assert!(decode_frame(&good, 0).is_some());
    let mut e = good.clone();
    e.pixels.pop();
    assert_eq!(decode_frame(&e, 0), None, "short data");
    let mut e = good.clone();
    e.frames[10] = 1;
    assert_eq!(decode_frame(&e, 0), None, "reserved");
    let mut e = good.clone();
    e.frames[8] = FRAME_FLAG_MASK as u8;
    assert_eq!(decode_frame(&e, 0), None, "mask without mask transparency");
    let mut e = good.clone();
    e.width = 2;
    assert_eq!(decode_frame(&e, 0), None, "outside the canvas");
    let mut e = good.clone();
    e.palette.truncate(3);
    assert_eq!(decode_frame(&e, 0), None, "index past the palette");

    let good = encode_sprite(&s, &fixed(PixelFormat::Indexed2, RleChoice::Always)).unwrap();
    assert!(decode_frame(&good, 0).is_some());
    let mut e = good.clone();
    e.pixels[4] = 0x20;
    assert_eq!(decode_frame(&e, 0), None, "row offset past the data");
    let mut e = good;
    e.pixels.push(0);
    let last = e.frames.len() - 4;
    e.frames[last] += 1;
    assert_eq!(decode_frame(&e, 0), None, "bytes after a covered row");
}

#[test]
fn rgb565_with_every_value_used_falls_back_to_a_mask() {
    // 65536 opaque pixels, one of each RGB565 value, and a transparent one.
    let mut pixels: Vec<[u8; 4]> = (0..=u16::MAX)
        .map(|v| {
            let c = rgb565_to_rgb888(v);
            [c[0], c[1], c[2], 255]
        })
        .collect();
    pixels.extend([T; 256]);
    pixels[65_536 + 7] = A;
    let s = sprite(256, 257, vec![frame_at(RgbaImage { width: 256, height: 257, pixels }, 0, 0)]);
    let e = encode_sprite(&s, &fixed(PixelFormat::Rgb565Le, RleChoice::Never)).unwrap();
    assert_eq!((e.transparency, e.report.colours), (Transparency::Mask, 65_537));
    assert_eq!(e.report.candidates[0].0, "rgb565le+mask");
    let (_, _, img) = decode_frame(&e, 0).unwrap();
    assert_eq!(img.pixels[65_536 + 8], T);
    assert_eq!(img.pixels[1234], {
        let c = rgb565_to_rgb888(1234);
        [c[0], c[1], c[2], 255]
    });
    let o = opts(FormatChoice::Fixed(PixelFormat::Rgb565Le), RleChoice::Never, TransparencyChoice::Key);
    let err = encode_sprite(&s, &o).unwrap_err();
    assert!(err.reason.contains("no colour key is free"), "{err}");
    // RGB888 still has free values: magenta and black are used, 0x000001 is free.
    let o = opts(FormatChoice::Fixed(PixelFormat::Rgb888), RleChoice::Never, TransparencyChoice::Key);
    let e = encode_sprite(&s, &o).unwrap();
    assert_eq!((e.transparency, e.key), (Transparency::ColorKey, 1));
}
