//! Pixel storage on arbitrary small sprites: encoding never panics, fails only where a fixed indexed
//! format cannot hold the colours, is deterministic, and every frame decodes (with the host's
//! reference decoder) to exactly the thresholded source frame placed in its canvas (RGB565 colours
//! quantised when a fixed RGB565 format was asked for).
//!
//! Input: canvas width and height (1..=16), frame count (1..=4), option bytes (format, RLE,
//! transparency, byte order, alpha threshold), a palette size and RGB triples, then per frame its
//! image size and position and one byte per pixel (low 5 bits: palette entry, top 3 bits: alpha).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_format::sprite::PixelFormat;
use ossicle_host::ir::{Origin, RgbaImage, Sprite, SpriteFrame};
use ossicle_host::pixels::{
    decode_frame, encode_sprite, rgb565_to_rgb888, rgb888_to_rgb565, Endian, FormatChoice, PixelOptions, RleChoice,
    TransparencyChoice,
};

const ALPHAS: [u8; 8] = [0, 0, 1, 127, 128, 200, 255, 255];

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        b
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let width = 1 + u32::from(input.next() % 16);
    let height = 1 + u32::from(input.next() % 16);
    let frame_count = 1 + input.next() % 4;
    let format = match input.next() % 9 {
        0 => FormatChoice::Auto,
        1 => FormatChoice::Indexed,
        b => FormatChoice::Fixed(PixelFormat::from_u8(b - 1).unwrap()),
    };
    let b = input.next();
    let rle = [RleChoice::Auto, RleChoice::Always, RleChoice::Never][usize::from(b % 3)];
    let transparency =
        [TransparencyChoice::Auto, TransparencyChoice::Key, TransparencyChoice::Mask][usize::from(b / 3 % 3)];
    let endian = if b / 9 % 2 == 0 { Endian::Little } else { Endian::Big };
    let alpha_threshold = input.next();
    let palette: Vec<[u8; 3]> =
        (0..1 + input.next() % 32).map(|_| [input.next(), input.next(), input.next()]).collect();
    let mut frames = Vec::new();
    for i in 0..frame_count {
        let w = u32::from(input.next()) % (width + 1);
        let h = u32::from(input.next()) % (height + 1);
        let x = u32::from(input.next()) % (width - w + 1);
        let y = u32::from(input.next()) % (height - h + 1);
        let mut image = RgbaImage::new(w, h);
        for p in &mut image.pixels {
            let b = input.next();
            let c = palette[usize::from(b & 31) % palette.len()];
            *p = [c[0], c[1], c[2], ALPHAS[usize::from(b >> 5)]];
        }
        let origin = Origin { file: "fuzz".into(), place: format!("frame {i}") };
        frames.push(SpriteFrame { image, x: x as i32, y: y as i32, duration: None, events: Vec::new(), origin });
    }
    let sprite =
        Sprite { name: "fuzz".into(), width, height, frames, animations: Vec::new(), origin: Origin::default() };
    let opts = PixelOptions { format, endian, rle, transparency, alpha_threshold };
    let encoded = match encode_sprite(&sprite, &opts) {
        Ok(encoded) => encoded,
        Err(err) => {
            let indexed = match format {
                FormatChoice::Indexed => true,
                FormatChoice::Fixed(f) => f.is_indexed(),
                FormatChoice::Auto => false,
            };
            assert!(indexed && err.reason.contains("do not fit"), "{opts:?}: {err}");
            return;
        }
    };
    assert_eq!(encode_sprite(&sprite, &opts).as_ref(), Ok(&encoded), "not deterministic");
    assert_eq!(encoded.report.flash_bytes, encoded.palette.len() + encoded.frames.len() + encoded.pixels.len());
    let quantise = matches!(encoded.format, PixelFormat::Rgb565Le | PixelFormat::Rgb565Be);
    for (i, frame) in sprite.frames.iter().enumerate() {
        let mut want = RgbaImage::new(width, height);
        for yy in 0..frame.image.height {
            for xx in 0..frame.image.width {
                let p = frame.image.get(xx, yy).unwrap();
                if p[3] >= alpha_threshold {
                    let rgb = [p[0], p[1], p[2]];
                    let c = if quantise { rgb565_to_rgb888(rgb888_to_rgb565(rgb)) } else { rgb };
                    want.set(frame.x as u32 + xx, frame.y as u32 + yy, [c[0], c[1], c[2], 255]);
                }
            }
        }
        let (x, y, stored) = decode_frame(&encoded, i).expect("an encoded frame decodes");
        let mut got = RgbaImage::new(width, height);
        for yy in 0..stored.height {
            for xx in 0..stored.width {
                let p = stored.get(xx, yy).unwrap();
                if p[3] != 0 {
                    got.set(x as u32 + xx, y as u32 + yy, p);
                }
            }
        }
        assert_eq!(got, want, "{opts:?} frame {i}");
    }
    assert!(decode_frame(&encoded, sprite.frames.len()).is_none());
});
