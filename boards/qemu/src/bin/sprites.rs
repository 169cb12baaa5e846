//! The sprite firmware, an image of its own beside `ossicle-qemu`: plays every sprite animation of
//! the embedded sprite blobs (`ossicle_qemu::sprites::run`) and prints one line per shown frame with
//! the CRC-32 of its drawing, and a total per blob, through semihosting:
//!
//! ```text
//! sprite q16-auto coin/wobble 0003 frame 4 duration 0x00003333 crc 0x........
//! ...
//! sprites q16-auto: 2 sprites 5 animations 57 frames crc 0x........
//! stack: 4000 of 16384 bytes used (sprites 4000, all 4000)
//! ok
//! ```
//!
//! (`0003`: the fourth frame shown in the play-through; `frame 4`: the sprite frame; `duration`:
//! the frame's duration as the blob stores scalars, 0 for a held frame.)
//!
//! QEMU's exit status is 0 when every blob played through, 40 + the error code of the first blob
//! that failed (`sprites::SpritesError::code`), 30 when less than 1 KiB of the stack stayed unused.
//! `tests/tests/qemu_sprites.rs` compares the lines with the host's. Like `ossicle-qemu`, a release
//! build links only if no panic is reachable.
#![no_std]
#![no_main]

use ossicle_qemu::sprites;
use ossicle_qemu::Aligned;
use ossicle_qemu::{check_stack, dec, exit, hex, line, stack_usage};

#[cfg(ossicle_sprite_blobs_missing)]
compile_error!("the sprite blobs to embed are missing: run `scripts/qemu/check.sh --blobs-only` (see build.rs)");

/// The sprite blobs (see build.rs): label and bytes.
static SPRITE_BLOBS: [(&[u8], &Aligned<[u8]>); 4] = [
    (b"q16-auto", &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/sprites-q16-auto.osb")))),
    (b"f32-mask", &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/sprites-f32-mask.osb")))),
    (b"q16-i8rle", &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/sprites-q16-i8rle.osb")))),
    (b"f32-565le", &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/sprites-f32-565le.osb")))),
];

/// Plays and draws every sprite animation of one blob, printing a line per shown frame.
#[inline(never)]
fn run_sprites(label: &[u8], blob: &[u8]) -> Result<(), u8> {
    let result = sprites::run(blob, |s| {
        let (mut idx, mut padded, mut src) = ([0u8; 10], [0u8; 10], [0u8; 10]);
        line(&[
            b"sprite ",
            label,
            b" ",
            s.sprite.as_bytes(),
            b"/",
            s.animation.as_bytes(),
            b" ",
            pad4(dec(s.index, &mut idx), &mut padded),
            b" frame ",
            dec(s.source, &mut src),
            b" duration ",
            &hex(s.duration),
            b" crc ",
            &hex(s.crc),
        ]);
    });
    let (mut a, mut b, mut c) = ([0u8; 10], [0u8; 10], [0u8; 10]);
    match result {
        Ok(sum) => {
            line(&[
                b"sprites ",
                label,
                b": ",
                dec(sum.sprites, &mut a),
                b" sprites ",
                dec(sum.animations, &mut b),
                b" animations ",
                dec(sum.frames, &mut c),
                b" frames crc ",
                &hex(sum.crc),
            ]);
            Ok(())
        }
        Err(e) => {
            line(&[b"sprites ", label, b" error: ", dec(u32::from(e.code()), &mut a)]);
            Err(e.code())
        }
    }
}

/// `digits` left-padded with zeros to at least 4 characters, in `out`.
fn pad4<'a>(digits: &[u8], out: &'a mut [u8; 10]) -> &'a [u8] {
    out.fill(b'0');
    let n = digits.len().clamp(4, out.len());
    let pad = n - digits.len().min(n);
    for (slot, d) in out.iter_mut().skip(pad).zip(digits) {
        *slot = *d;
    }
    out.get(..n).unwrap_or(&[])
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut result = Ok(());
    for (label, blob) in SPRITE_BLOBS.iter() {
        let r = run_sprites(label, &blob.0);
        if result.is_ok() {
            result = r;
        }
    }
    let (size, used) = stack_usage();
    check_stack(size, (b"sprites", used), (b"all", used));
    match result {
        Ok(()) => {
            line(&[b"ok"]);
            exit(0)
        }
        Err(e) => exit(40 + u32::from(e)),
    }
}
