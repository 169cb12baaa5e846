//! The conformance firmware: runs the workload on the embedded Q16.16 and f32 blobs and prints one
//! checksum per operation, then the total, through semihosting (the sprite play-throughs are the
//! `sprites` image's, `src/bin/sprites.rs`):
//!
//! ```text
//! q16 add: 0x1234abcd
//! ...
//! q16 checksum: 0x........ values: 42
//! f32 ...
//! stack: 5000 of 16384 bytes used (q16 5000, f32 4000)
//! ok
//! ```
//!
//! QEMU's exit status is 0 when both runs completed, 10 + the error code when the Q16.16 run failed,
//! 20 + the error code when the f32 run failed (see `workload::WorkloadError::code`), 30 when less
//! than 1 KiB of the stack stayed unused (the firmware's RAM is all on the stack; cortex-m-rt paints
//! it at reset and `stack: N of M bytes used (q16 A, f32 B)` reports the peak, and the peaks of the
//! two runs: the stack is painted again between them).
#![no_std]
#![no_main]

use ossicle::Scalar;
use ossicle_qemu::workload::{self, OPS};
use ossicle_qemu::Aligned;
use ossicle_qemu::{check_stack, dec, exit, hex, line, repaint_stack, stack_usage};

#[cfg(ossicle_blobs_missing)]
compile_error!(
    "the blobs to embed are missing: run scripts/qemu/check.sh, or set OSSICLE_BLOB_Q16 and \
     OSSICLE_BLOB_F32 to blobs built by `ossicle build samples/foundation.json -o X.osb --scalar q16|f32`"
);

static BLOB_Q16: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/q16.osb")));
static BLOB_F32: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/f32.osb")));

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
    let (_, q16_used) = stack_usage();
    repaint_stack();
    let f32 = run::<f32>(b"f32", &BLOB_F32.0);
    let (size, f32_used) = stack_usage();
    check_stack(size, (b"q16", q16_used), (b"f32", f32_used));
    match (q16, f32) {
        (Ok(()), Ok(())) => {
            line(&[b"ok"]);
            exit(0)
        }
        (Err(e), _) => exit(10 + u32::from(e)),
        (_, Err(e)) => exit(20 + u32::from(e)),
    }
}
