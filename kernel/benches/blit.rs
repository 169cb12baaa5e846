//! Blit throughput: a 64 × 64 sprite frame drawn into an in-memory 320 × 240 `Rgb565` framebuffer
//! (a [`BandBuffer`] covering the whole screen), in pixels per second.
//!
//! The frame is a disc of radius 30 on a transparent background (about 30 % transparent pixels,
//! mostly at the row ends) with horizontal colour bands, so rows have runs of equal colours as
//! sprites do. Cases:
//!
//! - `raw565_opaque`: RGB565 LE, no transparency (the whole square is drawn); the fast path.
//! - `raw565_keyed`: RGB565 LE with a colour key.
//! - `indexed4_keyed`: 4-bit indices (16-colour palette, index 0 the key); with
//!   `_converted_palette`, the palette converted to `Rgb565` once and given as an override (no
//!   per-pixel RGB888 conversion).
//! - `rle565`: RGB565 row RLE of the keyed image (skips, literals, runs).
//! - `rle565_mirrored`, `raw565_keyed_rot90`, `rle565_rot90`: the flip and quarter-turn paths.
//! - `affine_raw565` / `affine_rle565`: rotated 30° and scaled 1.5 (Q16.16 transform).
//! - `memcpy_baseline`: copying 64 rows of 64 pixels with `copy_from_slice`, the floor.
//!
//! Throughput counts destination pixels covered by the (transformed) frame, transparent ones
//! included: 4096 for the integer blits, 9216 (the transformed image's area) for the affine ones.
//!
//! `cargo bench -p ossicle --features graphics --bench blit`

use criterion::{black_box, Criterion, Throughput};
use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::Point;
use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use ossicle::draw::{convert_palette, draw_frame, draw_frame_affine, BandBuffer, DrawOptions, Rotation};
use ossicle::math::{Affine2, Vec2};
use ossicle::{Scalar, Q16};
use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};
use std::time::Duration;

const N: usize = 64;
const W: u32 = 320;
const H: u32 = 240;
const KEY: u16 = 0xF81F;

/// The test image as RGB565 values, `None` where transparent, and as 4-bit indices (0 transparent).
fn image() -> (Vec<Option<u16>>, Vec<u8>) {
    let mut px = Vec::new();
    let mut idx = Vec::new();
    for y in 0..N {
        for x in 0..N {
            let (dx, dy) = (x as f64 - 31.5, y as f64 - 31.5);
            if dx * dx + dy * dy > 30.0 * 30.0 {
                px.push(None);
                idx.push(0);
            } else {
                let band = (y / 4 + x / 21) as u16 % 15 + 1;
                px.push(Some(band.wrapping_mul(0x1083) ^ 0x0841));
                idx.push(band as u8);
            }
        }
    }
    (px, idx)
}

fn raw565(px: &[Option<u16>]) -> Vec<u8> {
    px.iter().flat_map(|p| p.unwrap_or(KEY).to_le_bytes()).collect()
}

fn indexed4(idx: &[u8]) -> Vec<u8> {
    idx.chunks(2).map(|p| p[0] << 4 | p[1]).collect()
}

/// Row RLE: skips, runs of 3 or more, literals.
fn rle565(px: &[Option<u16>]) -> Vec<u8> {
    let mut table = Vec::new();
    let mut streams = Vec::new();
    for row in px.chunks(N) {
        table.extend(((4 * N + streams.len()) as u32).to_le_bytes());
        let mut x = 0;
        while x < N {
            match row[x] {
                None => {
                    let n = row[x..].iter().take_while(|p| p.is_none()).count().min(64);
                    streams.push(0x3F + n as u8);
                    x += n;
                }
                Some(v) => {
                    let same = row[x..].iter().take_while(|p| **p == Some(v)).count().min(128);
                    if same >= 3 {
                        streams.push(0x7F + same as u8);
                        streams.extend(v.to_le_bytes());
                        x += same;
                    } else {
                        let start = x;
                        while x < N && x - start < 64 && row[x].is_some() {
                            let v = row[x];
                            if x > start && row[x..].iter().take_while(|p| **p == v).count() >= 3 {
                                break;
                            }
                            x += 1;
                        }
                        streams.push((x - start - 1) as u8);
                        for p in &row[start..x] {
                            streams.extend(p.unwrap_or(0).to_le_bytes());
                        }
                    }
                }
            }
        }
    }
    table.extend(streams);
    table
}

fn frame<'a>(
    format: PixelFormat,
    transparency: Transparency,
    key: u32,
    palette: &'a [u8],
    rle: bool,
    data: &'a [u8],
) -> FramePixels<'a> {
    FramePixels {
        format,
        transparency,
        key,
        palette,
        x: 0,
        y: 0,
        width: N as u16,
        height: N as u16,
        rle,
        data,
        mask: None,
    }
}

fn benches() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let (px, idx) = image();
    let raw = raw565(&px);
    let ind = indexed4(&idx);
    let rle = rle565(&px);
    let palette: Vec<u8> = (0..16u8).flat_map(|i| [i * 16, 255 - i * 16, i * 7]).collect();
    let opaque = frame(PixelFormat::Rgb565Le, Transparency::None, 0, &[], false, &raw);
    let keyed = frame(PixelFormat::Rgb565Le, Transparency::ColorKey, u32::from(KEY), &[], false, &raw);
    let indexed = frame(PixelFormat::Indexed4, Transparency::ColorKey, 0, &palette, false, &ind);
    let rle_frame = frame(PixelFormat::Rgb565Le, Transparency::None, 0, &[], true, &rle);
    let mut mem = vec![Rgb565::BLACK; (W * H) as usize];
    let mut fb = BandBuffer::new(&mut mem, W, H).expect("the buffer holds the screen");
    let at = Point::new(100, 80);

    let mut g = c.benchmark_group("blit_64x64");
    g.throughput(Throughput::Elements((N * N) as u64));
    let mut converted = [Rgb565::BLACK; 16];
    convert_palette(&palette, &mut converted);
    let cases: [(&str, &FramePixels<'_>, DrawOptions<'_, Rgb565>); 8] = [
        ("raw565_opaque", &opaque, DrawOptions::new()),
        ("raw565_keyed", &keyed, DrawOptions::new()),
        ("indexed4_keyed", &indexed, DrawOptions::new()),
        ("indexed4_keyed_converted_palette", &indexed, DrawOptions::new().with_palette(&converted)),
        ("rle565", &rle_frame, DrawOptions::new()),
        ("rle565_mirrored", &rle_frame, DrawOptions::new().flipped(true, false)),
        ("raw565_keyed_rot90", &keyed, DrawOptions::new().rotated(Rotation::Deg90)),
        ("rle565_rot90", &rle_frame, DrawOptions::new().rotated(Rotation::Deg90)),
    ];
    for (name, f, opts) in &cases {
        g.bench_function(*name, |b| b.iter(|| draw_frame(&mut fb, black_box(*f), black_box(at), opts)));
    }
    let src: Vec<Rgb565> = px
        .iter()
        .map(|p| Rgb565::from(embedded_graphics_core::pixelcolor::raw::RawU16::new(p.unwrap_or(KEY))))
        .collect();
    g.bench_function("memcpy_baseline", |b| {
        b.iter(|| {
            let pixels = fb.pixels_mut();
            for (y, row) in src.chunks(N).enumerate() {
                let start = (80 + y) * W as usize + 100;
                pixels[start..start + N].copy_from_slice(black_box(row));
            }
        })
    });
    g.finish();

    // 30°, scale 1.5 about the image centre, placed at (160, 120): the image covers 64² × 1.5² =
    // 9216 pixels.
    let q = <Q16 as Scalar>::from_f64;
    let m = Affine2::from_translation(Vec2::new(q(160.0), q(120.0)))
        .mul(Affine2::from_angle(q(std::f64::consts::FRAC_PI_6)))
        .mul(Affine2::from_scale(Vec2::splat(q(1.5))))
        .mul(Affine2::from_translation(Vec2::splat(q(-32.0))));
    let mut g = c.benchmark_group("affine_64x64_rot30_scale1_5");
    g.throughput(Throughput::Elements((N * N * 9 / 4) as u64));
    g.bench_function("affine_raw565", |b| {
        b.iter(|| draw_frame_affine(&mut fb, black_box(&keyed), black_box(&m), None))
    });
    g.bench_function("affine_rle565", |b| {
        b.iter(|| draw_frame_affine(&mut fb, black_box(&rle_frame), black_box(&m), None))
    });
    g.finish();
    black_box(fb.clear(Rgb565::BLACK)).ok();
    c.final_summary();
}

fn main() {
    benches();
}
