//! Instruction-count benchmarks of sprites: the player update (f32 and Q16.16), and the blitter,
//! per pixel, for each storage path.
//!
//! The protocol is `ossicle_qemu::bench`'s (markers, `bench <type> <name> <arity> <K>` lines), and
//! `scripts/bench/qemu-insns.sh` runs this binary after `bench` and `bench-anim`. Nothing is
//! subtracted (arity 0): the figure is count / K.
//!
//! - `sprite.*` (types `f32`, `q16`): `U` updates of one [`SpritePlayer`] playing the coin's `spin`
//!   animation (6 frames, 10 fps, looping, an event on frame 0) from the embedded sprite blob of
//!   the type (`sprites-q16-auto.osb`, `sprites-f32-565le.osb`), read in place through
//!   `BlobAnimations`; `K = U`. `.hold`: dt = 1/1024 s, so no update changes the frame;
//!   `.change`: dt = the frame's duration (`next_change()` at the start), so every update shows the
//!   next frame (a `SpriteFrameChanged` event, and at each wrap a `SpriteFrameEvent` and a
//!   `SpriteLooped`) into an event queue that is not drained while measuring.
//! - `blit.*` (type `px`): `D` draws of a synthetic 32 × 32 frame (built at compile time in flash,
//!   as a blob stores it) into a 64 × 64 RGB565 framebuffer ([`BandBuffer`] with 64 rows, 8 KiB of
//!   stack), at (16, 16); `K = D × 1024`, so the figure is instructions per frame pixel
//!   (transparent ones included). The frame is a disc of radius 15.5 (740 of 1024 pixels opaque;
//!   `.opaque`: every pixel) in 7 colours in vertical stripes 4 pixels wide, which change every 8
//!   rows (runs of 4 equal pixels). `blit.affine.*`: [`draw_frame_affine`] with 30° and scale 1.5
//!   about the frame's centre, centred in the framebuffer; `K = D ×` the destination pixels that
//!   sample inside the frame (counted by a draw of the opaque frame), in f32 and Q16.16 (the
//!   transform's type: only the set-up differs).
//!
//! After each measurement the result is checked (frame shown, events; pixels drawn), and a
//! `bench-error` line is printed when it is not what it should be.
#![no_std]
#![no_main]

use core::hint::black_box;
use ossicle_qemu::Aligned;

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::Point;
use embedded_graphics_core::pixelcolor::Rgb565;
use ossicle::draw::{draw_frame, draw_frame_affine, BandBuffer, DrawOptions};
use ossicle::event::{Event, EventQueue};
use ossicle::math::{Affine2, Vec2};
use ossicle::sprite::{FramePixels, PixelFormat, SpritePlayer, SpriteSource, Transparency};
use ossicle::{Asset, Scalar, Q16};
use ossicle_qemu::bench::{announce, bench_start, bench_stop, check};
use ossicle_qemu::{exit, line};

#[cfg(ossicle_sprite_blobs_missing)]
compile_error!("the sprite blobs to embed are missing: run `scripts/qemu/check.sh --blobs-only` (see build.rs)");

static BLOB_Q16: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/sprites-q16-auto.osb")));
static BLOB_F32: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/sprites-f32-565le.osb")));

/// Player updates per measurement.
const U: usize = 32;

/// Draws per measurement.
const D: usize = 2;

// ---------------------------------------------------------------------------------------------
// Player updates

/// `U` updates of a player on the coin's `spin`, with `dt` = 1/1024 s (`hold`) or one frame (`change`).
#[inline(never)]
fn player<S: Scalar>(ty: &[u8], blob: &[u8]) {
    let ok = player_run::<S>(ty, blob, false).and_then(|()| player_run::<S>(ty, blob, true));
    if ok.is_none() {
        check("sprite.setup", false);
    }
}

fn player_run<S: Scalar>(ty: &[u8], blob: &[u8], change: bool) -> Option<()> {
    let asset = Asset::load(blob).ok()?;
    let src = asset.sprite_named("coin")?.animations::<S>().ok()?;
    let spin = src.find("spin")?;
    let mut p: SpritePlayer<'_, S> = SpritePlayer::new(1);
    let mut q: EventQueue<64> = EventQueue::new();
    p.play(&src, spin, true).ok()?;
    p.update(&src, S::ZERO, &mut q);
    q.clear();
    let dt = if change { p.next_change(&src)? } else { S::from_ratio(1, 1024) };
    let name = if change { "sprite.coin-spin.change" } else { "sprite.coin-spin.hold" };
    announce(ty, name, 0, U);
    bench_start();
    for _ in 0..U {
        p.update(&src, black_box(dt), &mut q);
    }
    bench_stop();
    let changes = q.iter().filter(|e| matches!(e, Event::SpriteFrameChanged { .. })).count();
    let ok = if change {
        // 32 frames on from frame 0 of 6: frame 2, after 5 wraps.
        changes == U && p.frame() == Some((U % 6) as u32) && q.dropped() == 0
    } else {
        changes == 0 && p.frame() == Some(0) && q.is_empty()
    };
    check(name, ok);
    Some(())
}

// ---------------------------------------------------------------------------------------------
// Synthetic 32 × 32 frames, built at compile time

/// Frame side.
const W: usize = 32;

/// Whether pixel (x, y) is inside the disc of radius 15.5 about the frame's centre.
const fn opaque(x: usize, y: usize) -> bool {
    let dx = 2 * x as i32 - 31;
    let dy = 2 * y as i32 - 31;
    dx * dx + dy * dy <= 31 * 31
}

/// The palette index of pixel (x, y): 1 to 7, in stripes 4 wide that shift every 8 rows.
const fn index(x: usize, y: usize) -> u8 {
    ((x / 4 + y / 8) % 7 + 1) as u8
}

/// RGB888 palette: 0 is the colour key (never used by an opaque pixel); no entry is magenta
/// ([`KEY565`]) or the framebuffer's [`CLEAR`] colour.
const PALETTE: [u8; 24] =
    [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 128, 0, 128, 128, 128];

/// The RGB565 value of palette entry `i`.
const fn rgb565(i: u8) -> u16 {
    let k = i as usize * 3;
    let (r, g, b) = (PALETTE[k] as u16, PALETTE[k + 1] as u16, PALETTE[k + 2] as u16);
    ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)
}

/// The colour key of the RGB565 frames (magenta: not in the palette).
const KEY565: u16 = 0xF81F;

/// How many opaque pixels the disc has.
const fn opaque_count() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < W * W {
        if opaque(i % W, i / W) {
            n += 1;
        }
        i += 1;
    }
    n
}
const DISC: usize = opaque_count();

/// Raw RGB565 LE rows; `disc`: transparent pixels hold `KEY565` (else every pixel is opaque).
const fn raw565(disc: bool) -> [u8; W * W * 2] {
    let mut out = [0u8; W * W * 2];
    let mut i = 0;
    while i < W * W {
        let (x, y) = (i % W, i / W);
        let v = if disc && !opaque(x, y) { KEY565 } else { rgb565(index(x, y)) };
        out[2 * i] = v as u8;
        out[2 * i + 1] = (v >> 8) as u8;
        i += 1;
    }
    out
}

/// Raw RGB565 LE rows with masked-out pixels stored as 0, then the one-bit mask rows.
const fn raw565_mask() -> [u8; W * W * 2 + W * W / 8] {
    let mut out = [0u8; W * W * 2 + W * W / 8];
    let mut i = 0;
    while i < W * W {
        let (x, y) = (i % W, i / W);
        if opaque(x, y) {
            let v = rgb565(index(x, y));
            out[2 * i] = v as u8;
            out[2 * i + 1] = (v >> 8) as u8;
            out[W * W * 2 + i / 8] |= 0x80 >> (i % 8);
        }
        i += 1;
    }
    out
}

/// Raw indexed 8 rows, transparent pixels as index 0 (the key).
const fn raw_i8() -> [u8; W * W] {
    let mut out = [0u8; W * W];
    let mut i = 0;
    while i < W * W {
        let (x, y) = (i % W, i / W);
        out[i] = if opaque(x, y) { index(x, y) } else { 0 };
        i += 1;
    }
    out
}

/// Raw indexed 4 rows (two pixels a byte, the left one in the high nibble).
const fn raw_i4() -> [u8; W * W / 2] {
    let mut out = [0u8; W * W / 2];
    let mut i = 0;
    while i < W * W {
        let (x, y) = (i % W, i / W);
        let v = if opaque(x, y) { index(x, y) } else { 0 };
        out[i / 2] |= if i % 2 == 0 { v << 4 } else { v };
        i += 1;
    }
    out
}

/// Row RLE (see `ossicle_format::sprite`): per row, a skip run over the left transparent pixels,
/// then runs of equal values (stopping at the transparent rest of the row); values of `bytes`
/// bytes (1: the palette index; 2: RGB565 LE). Writes into `out` when given; returns the length.
const fn rle(bytes: usize, out: &mut [u8]) -> usize {
    let write = !out.is_empty();
    let mut pos = W * 4;
    let mut y = 0;
    while y < W {
        if write {
            let o = (pos as u32).to_le_bytes();
            out[y * 4] = o[0];
            out[y * 4 + 1] = o[1];
            out[y * 4 + 2] = o[2];
            out[y * 4 + 3] = o[3];
        }
        let mut x = 0;
        while x < W && !opaque(x, y) {
            x += 1;
        }
        if x > 0 && x < W {
            if write {
                out[pos] = 0x40 + (x as u8 - 1);
            }
            pos += 1;
        }
        while x < W && opaque(x, y) {
            let v = index(x, y);
            let mut n = 1;
            while x + n < W && opaque(x + n, y) && index(x + n, y) == v {
                n += 1;
            }
            if write {
                out[pos] = 0x80 + (n as u8 - 1);
                if bytes == 1 {
                    out[pos + 1] = v;
                } else {
                    let c = rgb565(v);
                    out[pos + 1] = c as u8;
                    out[pos + 2] = (c >> 8) as u8;
                }
            }
            pos += 1 + bytes;
            x += n;
        }
        y += 1;
    }
    pos
}

const RLE8_LEN: usize = rle(1, &mut []);
const RLE565_LEN: usize = rle(2, &mut []);

const fn rle_data<const N: usize>(bytes: usize) -> [u8; N] {
    let mut out = [0u8; N];
    rle(bytes, &mut out);
    out
}

static OPAQUE_565: [u8; W * W * 2] = raw565(false);
static KEY_565: [u8; W * W * 2] = raw565(true);
static MASK_565: [u8; W * W * 2 + W * W / 8] = raw565_mask();
static KEY_I8: [u8; W * W] = raw_i8();
static KEY_I4: [u8; W * W / 2] = raw_i4();
static RLE_I8: [u8; RLE8_LEN] = rle_data::<RLE8_LEN>(1);
static RLE_565: [u8; RLE565_LEN] = rle_data::<RLE565_LEN>(2);

fn frame<'a>(format: PixelFormat, transparency: Transparency, key: u32, data: &'a [u8]) -> FramePixels<'a> {
    let indexed = matches!(format, PixelFormat::Indexed4 | PixelFormat::Indexed8);
    FramePixels {
        format,
        transparency,
        key,
        palette: if indexed { &PALETTE } else { &[] },
        x: 0,
        y: 0,
        width: W as u16,
        height: W as u16,
        rle: false,
        data,
        mask: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Blits

/// The framebuffer side.
const FB: u32 = 64;

/// A colour no frame uses: the framebuffer is cleared to it, and pixels that differ were drawn.
const CLEAR: Rgb565 = Rgb565::new(1, 2, 3);

fn drawn(fb: &BandBuffer<'_, Rgb565>) -> usize {
    fb.pixels().iter().filter(|&&c| c != CLEAR).count()
}

/// `D` integer blits of `f` at (16, 16); `opaque` pixels must be drawn.
#[inline(never)]
fn blit(name: &str, f: &FramePixels<'_>, opaque: usize) {
    let mut mem = [CLEAR; (FB * FB) as usize];
    let Ok(mut fb) = BandBuffer::new(&mut mem, FB, FB) else {
        check(name, false);
        return;
    };
    let opts = DrawOptions::<Rgb565>::new();
    let at = Point::new(16, 16);
    announce(b"px", name, 0, D * W * W);
    bench_start();
    for _ in 0..D {
        let _ = draw_frame(&mut fb, black_box(f), at, &opts);
    }
    bench_stop();
    check(name, drawn(&fb) == opaque);
}

/// The transform of the affine blits: the frame's centre to the framebuffer's, turned 30° and
/// scaled by 1.5.
fn turn<S: Scalar>() -> Affine2<S> {
    let half = S::from_i32(W as i32 / 2);
    let centre = S::from_i32(FB as i32 / 2);
    let angle = S::PI.div(S::from_i32(6));
    Affine2::from_scale_angle_translation(Vec2::splat(S::from_ratio(3, 2)), angle, Vec2::new(centre, centre))
        .mul(Affine2::from_translation(Vec2::new(half.neg(), half.neg())))
}

/// `D` affine blits of `f` through [`turn`]; `covered`: the destination pixels that sample inside.
#[inline(never)]
fn affine<S: Scalar>(name: &str, f: &FramePixels<'_>, covered: usize, drawn_expected: Option<usize>) {
    let mut mem = [CLEAR; (FB * FB) as usize];
    let Ok(mut fb) = BandBuffer::new(&mut mem, FB, FB) else {
        check(name, false);
        return;
    };
    let m = turn::<S>();
    announce(b"px", name, 0, D * covered);
    bench_start();
    for _ in 0..D {
        let _ = draw_frame_affine(&mut fb, black_box(f), black_box(&m), None);
    }
    bench_stop();
    let n = drawn(&fb);
    check(name, covered > 0 && drawn_expected.map_or(n > 0 && n < covered, |e| n == e));
}

/// The destination pixels the opaque frame covers through [`turn`].
#[inline(never)]
fn coverage<S: Scalar>(f: &FramePixels<'_>) -> usize {
    let mut mem = [CLEAR; (FB * FB) as usize];
    let Ok(mut fb) = BandBuffer::new(&mut mem, FB, FB) else { return 0 };
    let _ = fb.clear(CLEAR);
    let _ = draw_frame_affine(&mut fb, f, &turn::<S>(), None);
    drawn(&fb)
}

fn blits() {
    let opaque = frame(PixelFormat::Rgb565Le, Transparency::None, 0, &OPAQUE_565);
    let key565 = frame(PixelFormat::Rgb565Le, Transparency::ColorKey, u32::from(KEY565), &KEY_565);
    let mask565 = FramePixels {
        transparency: Transparency::Mask,
        data: MASK_565.get(..W * W * 2).unwrap_or(&[]),
        mask: MASK_565.get(W * W * 2..),
        ..frame(PixelFormat::Rgb565Le, Transparency::Mask, 0, &[])
    };
    let key_i8 = frame(PixelFormat::Indexed8, Transparency::ColorKey, 0, &KEY_I8);
    let key_i4 = frame(PixelFormat::Indexed4, Transparency::ColorKey, 0, &KEY_I4);
    let rle_i8 = FramePixels { rle: true, ..frame(PixelFormat::Indexed8, Transparency::None, 0, &RLE_I8) };
    let rle_565 = FramePixels { rle: true, ..frame(PixelFormat::Rgb565Le, Transparency::None, 0, &RLE_565) };

    blit("blit.rgb565.opaque", &opaque, W * W);
    blit("blit.rgb565.key", &key565, DISC);
    blit("blit.rgb565.mask", &mask565, DISC);
    blit("blit.indexed8.key", &key_i8, DISC);
    blit("blit.indexed4.key", &key_i4, DISC);
    blit("blit.indexed8.rle", &rle_i8, DISC);
    blit("blit.rgb565.rle", &rle_565, DISC);

    let covered = coverage::<f32>(&opaque);
    affine::<f32>("blit.affine.rgb565.opaque.f32", &opaque, covered, Some(covered));
    let covered_q16 = coverage::<Q16>(&opaque);
    affine::<Q16>("blit.affine.rgb565.opaque.q16", &opaque, covered_q16, Some(covered_q16));
    affine::<f32>("blit.affine.indexed8.key.f32", &key_i8, covered, None);
    affine::<f32>("blit.affine.indexed8.rle.f32", &rle_i8, covered, None);
}

#[cortex_m_rt::entry]
fn main() -> ! {
    player::<f32>(b"f32", &BLOB_F32.0);
    player::<Q16>(b"q16", &BLOB_Q16.0);
    blits();
    line(&[b"bench done"]);
    exit(0)
}
