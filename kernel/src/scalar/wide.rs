//! Q16.16 products without a 32×32→64-bit multiply instruction.
//!
//! The Cortex-M0/M0+ (`thumbv6m`) has only `muls` (32×32→32): an `i64` product compiles to a call
//! of `__aeabi_lmul`, a general 64×64-bit multiply, which made one Q16.16 [`Scalar::mul`] cost about
//! 65 instructions there. The functions here split each magnitude into 16-bit halves and combine the
//! four exact partial products (each below `2^32`) with carries, giving the **same bits** as the
//! `i64` reference for every input (the tests below compare them on the edge cases and on millions
//! of pseudo-random pairs). Where the target has a fast 64-bit product (x86-64, Cortex-M3/M4/M7),
//! the `i64` form is shorter and the kernel keeps it: see [`mul_bits`].
//!
//! [`Scalar::mul`]: super::Scalar::mul

/// `true` on targets where the 16-bit-halves products are used (ARM without 32-bit atomics, which
/// among the ARM targets Rust supports means the ARMv6-M / ARMv4T / ARMv5TE families; the ones
/// that matter here, the Cortex-M0/M0+ `thumbv6m-none-eabi`, have no long multiply). Stable Rust
/// exposes no ARM architecture-version `target_feature`, so the missing CAS atomics stand in for it.
/// Only speed depends on this: both forms give identical results.
pub(crate) const SPLIT: bool = cfg!(all(target_arch = "arm", not(target_has_atomic = "32")));

/// `a × b` exactly, from four 16×16-bit products (no 64-bit multiply).
///
/// With `a = ah·2^16 + al` and `b = bh·2^16 + bl`: `a·b = ah·bh·2^32 + (ah·bl + al·bh)·2^16 + al·bl`.
/// Every partial product is below `2^32`; the middle ones are added in `u64`.
#[inline(always)]
pub(crate) fn mul_u32_wide(a: u32, b: u32) -> u64 {
    let (ah, al) = (a >> 16, a & 0xFFFF);
    let (bh, bl) = (b >> 16, b & 0xFFFF);
    // Each operand of the four products is below 2^16: each product is below 2^32.
    let hi = u64::from(ah * bh) << 32;
    let lo = u64::from(al * bl);
    // ah·bl + al·bh < 2^33 in u64, shifted by 16: below 2^49; the whole sum is a·b < 2^64.
    let mid = (u64::from(ah * bl) + u64::from(al * bh)) << 16;
    hi + mid + lo
}

/// The Q16.16 product of raw bits, rounded to nearest with ties away from zero, saturated: the
/// `i64` reference (used where a 64-bit multiply is cheap).
#[inline(always)]
pub(crate) fn mul_bits_i64(a: i32, b: i32) -> i32 {
    let p = i64::from(a) * i64::from(b);
    // Round to nearest, ties away from zero: symmetric, so mul(-a, b) == -mul(a, b).
    let r = if p >= 0 { (p + 0x8000) >> 16 } else { -((-p + 0x8000) >> 16) };
    sat_i32(r)
}

/// As [`mul_bits_i64`], in 32-bit arithmetic only (four 16×16-bit products of the magnitudes).
///
/// With `|a| = ah·2^16 + al` and `|b| = bh·2^16 + bl` (`ah, bh <= 2^15`, and `ah = 2^15` only with
/// `al = 0`), the rounded magnitude `(|a|·|b| + 2^15) >> 16` is
/// `ah·bh·2^16 + ah·bl + al·bh + ((al·bl + 2^15) >> 16)`, exactly (the first three terms are
/// multiples of 2^16 before the shift). Bounds: `al·bl + 2^15 <= (2^16 − 1)² + 2^15 < 2^32`, so the
/// low term is at most `2^16 − 2`; `ah·bl + al·bh <= 2·2^15·(2^16 − 1) = 2^32 − 2^17`, so `mid`
/// below stays under `2^32`. A magnitude of `2^32` or more (`ah·bh >= 2^16`, or a carry out of
/// the last sum) saturates, as does one above `i32::MAX` (positive) or `2^31` (negative).
#[inline(always)]
pub(crate) fn mul_bits_split(a: i32, b: i32) -> i32 {
    let sign = (a ^ b) >> 31; // -1 when the product is negative, else 0
    let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
    let (ah, al) = (ua >> 16, ua & 0xFFFF);
    let (bh, bl) = (ub >> 16, ub & 0xFFFF);
    let low = (al * bl + 0x8000) >> 16;
    let mid = ah * bl + al * bh + low;
    let hi = ah * bh;
    // The rounded magnitude, or u32::MAX when it is 2^32 or more.
    let m = if hi > 0xFFFF { u32::MAX } else { (hi << 16).saturating_add(mid) };
    // At most i32::MAX for a positive result, 2^31 (i32::MIN) for a negative one.
    let m = m.min((i32::MAX as u32).wrapping_sub(sign as u32));
    // Branch-free negation when sign = -1: (m ^ !0) + 1 = -m (2^31 stays 2^31, i.e. i32::MIN).
    (m ^ sign as u32).wrapping_sub(sign as u32) as i32
}

/// The Q16.16 product of raw bits (rounded to nearest, ties away from zero, saturated): the split
/// form on targets without a long multiply ([`SPLIT`]), the `i64` form elsewhere. Same bits either way.
#[inline(always)]
pub(crate) fn mul_bits(a: i32, b: i32) -> i32 {
    if SPLIT {
        mul_bits_split(a, b)
    } else {
        mul_bits_i64(a, b)
    }
}

/// `a + round(t × (b − a))` on raw bits, the difference in 64 bits, rounded to nearest (ties away
/// from zero) and saturated: the `i64` reference of Q16.16 [`Scalar::lerp`](super::Scalar::lerp).
#[inline(always)]
pub(crate) fn lerp_bits_i64(a: i32, b: i32, t: i32) -> i32 {
    let a = i64::from(a);
    let d = i64::from(b) - a; // |d| < 2^32
    let p = d * i64::from(t); // |p| < 2^63
    let r = if p >= 0 { (p + 0x8000) >> 16 } else { -((-p + 0x8000) >> 16) };
    sat_i32(a.saturating_add(r))
}

/// As [`lerp_bits_i64`] without a 64-bit multiply: `|d| < 2^32` fits a `u32`, its product with
/// `|t| <= 2^31` comes from [`mul_u32_wide`] (exact, below `2^63`), and the rest is the same `i64`
/// arithmetic (additions and shifts, which need no library call on any target).
#[inline(always)]
pub(crate) fn lerp_bits_split(a: i32, b: i32, t: i32) -> i32 {
    let a = i64::from(a);
    let d = i64::from(b) - a; // |d| < 2^32
    let p = mul_u32_wide(d.unsigned_abs() as u32, t.unsigned_abs()); // |d|·|t| < 2^63
    let m = ((p + 0x8000) >> 16) as i64; // < 2^47
    let r = if (d < 0) != (t < 0) { -m } else { m };
    sat_i32(a.saturating_add(r))
}

/// Q16.16 lerp on raw bits: the split form where [`SPLIT`], the `i64` form elsewhere (same bits).
#[inline(always)]
pub(crate) fn lerp_bits(a: i32, b: i32, t: i32) -> i32 {
    if SPLIT {
        lerp_bits_split(a, b, t)
    } else {
        lerp_bits_i64(a, b, t)
    }
}

/// `v` saturated to the `i32` range.
#[inline(always)]
pub(crate) fn sat_i32(v: i64) -> i32 {
    if v > i64::from(i32::MAX) {
        i32::MAX
    } else if v < i64::from(i32::MIN) {
        i32::MIN
    } else {
        v as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift32: a fixed pseudo-random sequence.
    struct Xs(u32);
    impl Xs {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            self.0
        }
        /// Mostly full-range words, some small magnitudes (products that do not saturate) and some
        /// near ±2^16·k (operands around the integers).
        fn operand(&mut self) -> i32 {
            let r = self.next();
            match r & 3 {
                0 | 1 => self.next() as i32,
                2 => (self.next() as i32) >> (r >> 27), // any magnitude
                _ => ((self.next() & 0x1F_FFFF) as i32 - 0x10_0000) << ((r >> 28) & 7),
            }
        }
    }

    /// Edge values: 0, ±1 step, ±½, ±1, ±2^31−1, i32::MIN, the halves' boundaries.
    const EDGES: [i32; 28] = [
        0,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        0x7FFF,
        0x8000,
        -0x8000,
        0x8001,
        0xFFFF,
        0x1_0000,
        -0x1_0000,
        0x1_0001,
        -0x1_0001,
        0x1_8000,
        0xFF_FFFF,
        0x100_0000,
        -0x100_0000,
        0x7FFF_0000,
        0x7FFF_FFFF,
        -0x7FFF_FFFF,
        i32::MIN,
        i32::MIN + 1,
        0x5A82_7999,  // √2 · 2^30: its square is near 2^61
        0xB504,       // √2 · 2^15: its square rounds at 2^16·2
        -0x4000_0000, // −16384
    ];

    /// Independent expectation for a few products, written out: round(a·b / 2^16) half away
    /// from zero, saturated, computed in f64 (exact for these operands).
    #[test]
    fn split_product_matches_hand_computed_values() {
        let expect = |a: i32, b: i32| {
            let p = f64::from(a) * f64::from(b) / 65536.0;
            let r = p.abs().floor() + if p.abs().fract() >= 0.5 { 1.0 } else { 0.0 };
            (r.copysign(p)).clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
        };
        // 3 steps × ½ = 1.5 steps: ties away from zero → 2 (and −2).
        assert_eq!(mul_bits_split(3, 0x8000), 2);
        assert_eq!(mul_bits_split(-3, 0x8000), -2);
        assert_eq!(mul_bits_split(3, -0x8000), -2);
        // 1 step × ½ = ½ step → 1; 1 step × (½ − 1 step) < ½ → 0.
        assert_eq!(mul_bits_split(1, 0x8000), 1);
        assert_eq!(mul_bits_split(1, 0x7FFF), 0);
        // 1.5 × −2 = −3; 181 × 181 = 32761; 182 × 182 saturates; −182 × 182 too, to MIN.
        assert_eq!(mul_bits_split(0x1_8000, -0x2_0000), -0x3_0000);
        assert_eq!(mul_bits_split(181 << 16, 181 << 16), 32761 << 16);
        assert_eq!(mul_bits_split(182 << 16, 182 << 16), i32::MAX);
        assert_eq!(mul_bits_split(-182 << 16, 182 << 16), i32::MIN);
        // −32768 × 1 = −32768 exactly (i32::MIN), and −32768 × −1 = 32768 saturates to MAX.
        assert_eq!(mul_bits_split(i32::MIN, 0x1_0000), i32::MIN);
        assert_eq!(mul_bits_split(i32::MIN, -0x1_0000), i32::MAX);
        for &a in &EDGES {
            for &b in &EDGES {
                assert_eq!(mul_bits_split(a, b), expect(a, b), "{a} × {b}");
            }
        }
    }

    #[test]
    fn split_product_is_bit_identical_to_the_i64_reference() {
        for &a in &EDGES {
            for &b in &EDGES {
                assert_eq!(mul_bits_split(a, b), mul_bits_i64(a, b), "{a} × {b}");
                assert_eq!(mul_bits(a, b), mul_bits_i64(a, b), "{a} × {b}");
            }
        }
        // Products that land exactly on a rounding tie: a·b = (2k + 1)·2^15.
        for k in -3000i32..3000 {
            let a = 2 * k + 1;
            assert_eq!(mul_bits_split(a, 0x8000), mul_bits_i64(a, 0x8000), "{a} × ½");
            assert_eq!(mul_bits_split(a << 3, 0x1000), mul_bits_i64(a << 3, 0x1000), "{a}·8 × 1/16");
        }
        let mut x = Xs(0x2545_F491);
        for _ in 0..4_000_000 {
            let (a, b) = (x.operand(), x.operand());
            assert_eq!(mul_bits_split(a, b), mul_bits_i64(a, b), "{a} × {b}");
        }
    }

    #[test]
    fn wide_product_is_exact() {
        let words = [0u32, 1, 0xFFFF, 0x1_0000, 0x8000_0000, 0xFFFF_FFFF, 0x1234_5678, 0xDEAD_BEEF];
        for &a in &words {
            for &b in &words {
                assert_eq!(mul_u32_wide(a, b), u64::from(a) * u64::from(b), "{a:#x} × {b:#x}");
            }
        }
        let mut x = Xs(0x9E37_79B9);
        for _ in 0..2_000_000 {
            let (a, b) = (x.next(), x.next());
            assert_eq!(mul_u32_wide(a, b), u64::from(a) * u64::from(b), "{a:#x} × {b:#x}");
        }
    }

    #[test]
    fn split_lerp_is_bit_identical_to_the_i64_reference() {
        // Hand-computed: 1 + (3 − 1)·¼ = 1.5; −30000 to 30000 at ½ is 0 (the difference needs
        // 33 bits); 1 + 2·2 = 5; a tie: 0 + 1 step · ½ = ½ step → 1 step (away from zero).
        assert_eq!(lerp_bits_split(1 << 16, 3 << 16, 0x4000), 0x1_8000);
        assert_eq!(lerp_bits_split(-30000 << 16, 30000 << 16, 0x8000), 0);
        assert_eq!(lerp_bits_split(1 << 16, 3 << 16, 2 << 16), 5 << 16);
        assert_eq!(lerp_bits_split(0, 1, 0x8000), 1);
        assert_eq!(lerp_bits_split(0, -1, 0x8000), -1);
        assert_eq!(lerp_bits_split(i32::MIN, i32::MAX, i32::MAX), i32::MAX);
        assert_eq!(lerp_bits_split(i32::MAX, i32::MIN, i32::MAX), i32::MIN);
        for &a in &EDGES {
            for &b in &EDGES {
                for &t in &EDGES {
                    assert_eq!(lerp_bits_split(a, b, t), lerp_bits_i64(a, b, t), "lerp({a}, {b}, {t})");
                    assert_eq!(lerp_bits(a, b, t), lerp_bits_i64(a, b, t), "lerp({a}, {b}, {t})");
                }
            }
        }
        let mut x = Xs(0x1357_9BDF);
        for _ in 0..3_000_000 {
            let (a, b, t) = (x.operand(), x.operand(), x.operand());
            assert_eq!(lerp_bits_split(a, b, t), lerp_bits_i64(a, b, t), "lerp({a}, {b}, {t})");
        }
    }
}
