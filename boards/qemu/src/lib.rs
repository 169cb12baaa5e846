//! Board support for QEMU's Cortex-M machines: semihosting output and exit status, the panic handler,
//! the stack measurement, the conformance workload (shared with the host test `tests/tests/qemu.rs`),
//! the sprite play-throughs (shared with `tests/tests/qemu_sprites.rs`), the benchmark harness and the
//! skeletal benchmarks (`skel`, run by `bench-skel-f32` and `bench-skel-q16`).
#![no_std]

pub mod bench;
pub mod skel;
pub mod skeltrace;
pub mod sprites;
pub mod workload;

use core::fmt;
use core::panic::PanicInfo;

use cortex_m_semihosting::hio::{hstdout, HostStream};

/// Bytes aligned to 4, for the blobs the images embed:
/// `static BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!(...));`, read as `&BLOB.0`.
#[repr(C, align(4))]
pub struct Aligned<T: ?Sized>(pub T);

/// Writes bytes to the host's standard output through semihosting (ignored when no host listens).
pub fn write(bytes: &[u8]) {
    if let Ok(mut out) = cortex_m_semihosting::hio::hstdout() {
        let _ = out.write_all(bytes);
    }
}

/// A [`fmt::Write`] that sends what it gets to the host's standard output through semihosting, a
/// line at a time (and in pieces of [`Lines::CAP`] bytes when a line is longer).
pub struct Lines {
    out: Option<HostStream>,
    buf: [u8; Lines::CAP],
    len: usize,
}

impl Default for Lines {
    fn default() -> Self {
        Self::new()
    }
}

impl Lines {
    /// The longest piece sent at once.
    pub const CAP: usize = 256;

    /// A writer to the host's standard output (writes are dropped when no host listens).
    pub fn new() -> Self {
        Self { out: hstdout().ok(), buf: [0; Lines::CAP], len: 0 }
    }

    /// Sends what is buffered (a partial line).
    pub fn flush(&mut self) {
        if let (Some(out), Some(bytes)) = (self.out.as_mut(), self.buf.get(..self.len)) {
            let _ = out.write_all(bytes);
        }
        self.len = 0;
    }
}

impl fmt::Write for Lines {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
            if b == b'\n' || self.len >= Lines::CAP {
                self.flush();
            }
        }
        Ok(())
    }
}

/// Formats `v` as `0x` and eight lowercase hex digits (no `core::fmt`, so nothing here can panic).
pub fn hex(v: u32) -> [u8; 10] {
    let mut s = *b"0x00000000";
    for (k, slot) in s.iter_mut().skip(2).enumerate() {
        let nibble = ((v >> (28 - 4 * k as u32)) & 0xF) as u8;
        *slot = if nibble < 10 { b'0' + nibble } else { b'a' + nibble - 10 };
    }
    s
}

/// Formats `v` in decimal into `buf`, returning the digits.
pub fn dec(v: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut v = v;
    let mut start = buf.len();
    loop {
        start -= 1;
        if let Some(slot) = buf.get_mut(start) {
            *slot = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || start == 0 {
            break;
        }
    }
    buf.get(start..).unwrap_or(&[])
}

/// Writes `parts` followed by a newline.
pub fn line(parts: &[&[u8]]) {
    for p in parts {
        write(p);
    }
    write(b"\n");
}

/// The value cortex-m-rt paints the stack with at reset (its `paint-stack` feature).
const STACK_PAINT: u32 = 0xCCCC_CCCC;

/// The stack's size and the most of it used since reset, in bytes: cortex-m-rt painted the stack
/// (from `_stack_end`, the end of static RAM, to `_stack_start`, the top of RAM) with a fixed word
/// at reset, and the words still holding it from the bottom up were never written.
pub fn stack_usage() -> (u32, u32) {
    extern "C" {
        static _stack_end: u32;
        static _stack_start: u32;
    }
    // Only the symbols' addresses are taken (cortex-m-rt's linker script defines them).
    let (bottom, top) = (core::ptr::addr_of!(_stack_end) as usize, core::ptr::addr_of!(_stack_start) as usize);
    let mut p = bottom;
    // SAFETY: [bottom, top) is the stack region in RAM, word aligned (cortex-m-rt asserts it); the
    // words below the stack pointer are not in use, and reading them is harmless.
    while p < top && unsafe { core::ptr::read_volatile(p as *const u32) } == STACK_PAINT {
        p += 4;
    }
    ((top - bottom) as u32, (top - p) as u32)
}

/// Paints the stack below the current stack pointer again (leaving 64 bytes), so that a later
/// [`stack_usage`] reports the peak of what runs after this call (the part above the stack pointer
/// counts as used: it is).
#[inline(never)]
pub fn repaint_stack() {
    extern "C" {
        static _stack_end: u32;
    }
    let bottom = core::ptr::addr_of!(_stack_end) as usize;
    let sp = cortex_m::register::msp::read() as usize;
    let mut p = bottom;
    while p.saturating_add(64) < sp {
        // SAFETY: [bottom, sp − 64) is stack below the stack pointer: no live data is there
        // (no interrupt handler runs in this firmware), and the addresses are word aligned.
        unsafe { core::ptr::write_volatile(p as *mut u32, STACK_PAINT) };
        p += 4;
    }
}

/// Bytes of stack a run must leave unused: less and [`check_stack`] fails the run.
pub const STACK_HEADROOM: u32 = 1024;

/// Prints `stack: PEAK of SIZE bytes used (A_LABEL A, B_LABEL B)` for two parts of a run measured
/// apart (`a` and `b` are the parts' peaks; the second part's measurement gives the stack size),
/// and ends the emulation with status 30 when less than [`STACK_HEADROOM`] bytes stayed unused.
pub fn check_stack(size: u32, (a_label, a): (&[u8], u32), (b_label, b): (&[u8], u32)) {
    let used = a.max(b);
    let (mut w, mut x, mut y, mut z) = ([0u8; 10], [0u8; 10], [0u8; 10], [0u8; 10]);
    line(&[
        b"stack: ",
        dec(used, &mut w),
        b" of ",
        dec(size, &mut x),
        b" bytes used (",
        a_label,
        b" ",
        dec(a, &mut y),
        b", ",
        b_label,
        b" ",
        dec(b, &mut z),
        b")",
    ]);
    if used.saturating_add(STACK_HEADROOM) > size {
        line(&[b"error: less than 1 KiB of stack left"]);
        exit(30)
    }
}

/// Ends the emulation with `code` as QEMU's exit status (semihosting `SYS_EXIT_EXTENDED` with
/// `ADP_Stopped_ApplicationExit`). On real hardware without a debugger this spins.
pub fn exit(code: u32) -> ! {
    const SYS_EXIT_EXTENDED: usize = 0x20;
    const ADP_STOPPED_APPLICATION_EXIT: usize = 0x20026;
    let block = [ADP_STOPPED_APPLICATION_EXIT, code as usize];
    // SAFETY: SYS_EXIT_EXTENDED reads a two-word parameter block, which `block` is.
    unsafe {
        cortex_m_semihosting::syscall(SYS_EXIT_EXTENDED, &block);
    }
    loop {
        cortex_m::asm::bkpt();
    }
}

/// Release builds: any panic the optimiser could not remove calls a function that does not exist,
/// so the firmware fails to link. A release build that links is the proof that no panic is reachable.
#[cfg(all(not(debug_assertions), not(feature = "panic-print")))]
#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    extern "C" {
        /// Deliberately undefined: see the panic handler.
        fn ossicle_firmware_has_a_reachable_panic() -> !;
    }
    // SAFETY: never runs; the symbol does not exist, so a reachable call does not link.
    unsafe { ossicle_firmware_has_a_reachable_panic() }
}

/// Debug builds (and the `panic-print` feature): print the panic and exit with status 101.
#[cfg(any(debug_assertions, feature = "panic-print"))]
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    cortex_m_semihosting::hprintln!("panic: {}", info);
    exit(101)
}

/// A hard fault ends the emulation with status 99 instead of hanging.
#[cortex_m_rt::exception]
unsafe fn HardFault(_frame: &cortex_m_rt::ExceptionFrame) -> ! {
    line(&[b"hard fault"]);
    exit(99)
}
