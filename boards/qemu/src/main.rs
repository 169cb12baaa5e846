//! The conformance firmware: runs the workload on the embedded Q16.16 and f32 blobs and prints one
//! checksum per operation, then the total; then plays every sprite animation of the embedded sprite
//! blobs (`sprites::run`) and prints one line per shown frame with the CRC-32 of its drawing, and a
//! total per blob; all through semihosting:
//!
//! ```text
//! q16 add: 0x1234abcd
//! ...
//! q16 checksum: 0x........ values: 42
//! f32 ...
//! sprite q16-auto coin/wobble 0003 frame 4 duration 0x00003333 crc 0x........
//! ...
//! sprites q16-auto: 2 sprites 5 animations 57 frames crc 0x........
//! stack: 5000 of 16384 bytes used (workload 5000, sprites 4000)
//! ok
//! ```
//!
//! (`0003`: the fourth frame shown in the play-through; `frame 4`: the sprite frame; `duration`:
//! the frame's duration as the blob stores scalars, 0 for a held frame.)
//!
//! QEMU's exit status is 0 when every run completed, 10 + the error code when the Q16.16 run failed,
//! 20 + the error code when the f32 run failed (see `workload::WorkloadError::code`), 40 + the error
//! code when a sprite blob failed (`sprites::SpritesError::code`), 30 when less than 1 KiB of the
//! stack stayed unused (the firmware's RAM is all on the stack; cortex-m-rt paints it at reset and
//! `stack: N of M bytes used (workload W, sprites S)` reports the peak, and the peaks of the two
//! parts: the stack is painted again between them).
#![no_std]
#![no_main]

use ossicle::Scalar;
use ossicle_qemu::sprites;
use ossicle_qemu::workload::{self, OPS};
use ossicle_qemu::{check_stack, dec, exit, hex, line, repaint_stack, stack_usage};

#[cfg(ossicle_blobs_missing)]
compile_error!(
    "the blobs to embed are missing: run scripts/qemu/check.sh, or set OSSICLE_BLOB_Q16 and \
     OSSICLE_BLOB_F32 to blobs built by `ossicle build samples/foundation.json -o X.osb --scalar q16|f32`"
);

#[cfg(ossicle_sprite_blobs_missing)]
compile_error!("the sprite blobs to embed are missing: run `scripts/qemu/check.sh --blobs-only` (see build.rs)");

/// Bytes aligned to 4, so the blob's sections can be read in place as words if the loader wants.
#[repr(C, align(4))]
struct Aligned<T: ?Sized>(T);

static BLOB_Q16: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/q16.osb")));
static BLOB_F32: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/f32.osb")));

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

fn run<S: Scalar>(name: &[u8], blob: &[u8]) -> Result<(), u8> {
    match workload::run::<S>(blob) {
        Ok(report) => {
            for (op, value) in OPS.iter().zip(report.ops.iter()) {
                line(&[name, b" ", op.as_bytes(), b": ", &hex(*value)]);
            }
            let mut buf = [0u8; 10];
            line(&[name, b" checksum: ", &hex(report.total()), b" values: ", dec(report.values, &mut buf)]);
            Ok(())
        }
        Err(e) => {
            let mut buf = [0u8; 10];
            line(&[name, b" error: ", dec(u32::from(e.code()), &mut buf)]);
            Err(e.code())
        }
    }
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let q16 = run::<ossicle::Q16>(b"q16", &BLOB_Q16.0);
    let f32 = run::<f32>(b"f32", &BLOB_F32.0);
    let (_, workload_used) = stack_usage();
    repaint_stack();
    let mut sprites = Ok(());
    for (label, blob) in SPRITE_BLOBS.iter() {
        let r = run_sprites(label, &blob.0);
        if sprites.is_ok() {
            sprites = r;
        }
    }
    let (size, sprites_used) = stack_usage();
    check_stack(size, (b"workload", workload_used), (b"sprites", sprites_used));
    match (q16, f32, sprites) {
        (Ok(()), Ok(()), Ok(())) => {
            line(&[b"ok"]);
            exit(0)
        }
        (Err(e), _, _) => exit(10 + u32::from(e)),
        (_, Err(e), _) => exit(20 + u32::from(e)),
        (_, _, Err(e)) => exit(40 + u32::from(e)),
    }
}
