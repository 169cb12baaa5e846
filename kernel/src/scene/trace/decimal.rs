//! The trace's numbers in decimal, exactly as `Display` writes them, with no reachable panic.
//!
//! `Scalar::write_decimal` formats through `core`'s float formatting (`f32`) and the `fixed` crate's
//! `Display` (Q16.16). Both keep bounds checks the optimiser cannot remove (`core::num::flt2dec`'s
//! bignum and buffers, `fixed`'s digit buffer), so a firmware built with the never-panic link (the
//! QEMU scene image) cannot use them. This module writes the same text from the value's bits:
//!
//! - Q16.16: `fixed` 1.29's algorithm for `I16F16` (`fixed::display`): fraction digits are generated
//!   until the remainder is within the rounding tolerance (half an ulp, times ten per digit) of a
//!   digit boundary, then rounded half to even on the last digit, trailing zeros dropped;
//! - `f32`: `core`'s shortest representation (`flt2dec::to_shortest_str` with Dragon4's
//!   `format_shortest`, which Grisu's result always equals): the fewest digits that read back as
//!   the same `f32`, the closest such when several are, ties rounded up; printed without an
//!   exponent (`0.0001`, `1000000`), `-` for negative values (also `-0`), `inf`, `-inf`, `NaN`.
//!
//! The unit tests compare both with `Display` over every Q16.16 fraction and over `f32` values of
//! every exponent.

use core::cmp::Ordering;
use core::fmt::{self, Write};

use crate::scalar::{Scalar, ScalarEncoding};

/// Writes `v` as its `Display` text (see the module documentation).
pub(super) fn write_scalar<S: Scalar>(out: &mut dyn Write, v: S) -> fmt::Result {
    let bits = v.to_blob_bits();
    match S::ENCODING {
        ScalarEncoding::F32 => write_f32(out, f32::from_bits(bits)),
        ScalarEncoding::Q16_16 => write_q16(out, bits as i32),
    }
}

/// Writes the decimal digits of `v`.
fn write_u32(out: &mut dyn Write, v: u32) -> fmt::Result {
    let mut buf = [b'0'; 10];
    let mut start = buf.len();
    let mut v = v;
    for slot in buf.iter_mut().rev() {
        *slot = b'0' + (v % 10) as u8;
        v /= 10;
        start -= 1;
        if v == 0 {
            break;
        }
    }
    write_digits(out, buf.get(start..).unwrap_or(&[]))
}

/// Writes ASCII digits.
fn write_digits(out: &mut dyn Write, digits: &[u8]) -> fmt::Result {
    for &d in digits {
        out.write_char(char::from(d))?;
    }
    Ok(())
}

/// Writes `n` zeros.
fn write_zeros(out: &mut dyn Write, n: usize) -> fmt::Result {
    for _ in 0..n {
        out.write_char('0')?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Q16.16

/// Writes the Q16.16 value of raw `bits` as `fixed`'s `Display` of `I16F16` does.
pub(super) fn write_q16(out: &mut dyn Write, bits: i32) -> fmt::Result {
    let abs = bits.unsigned_abs();
    let mut int = abs >> 16;
    let mut frac = (abs & 0xFFFF) as u16;
    // At most ceil(16 · log10 2) = 5 fraction digits. The tolerance `tie` starts at half an ulp
    // (which for a 16-bit fraction is 0.5 of the first digit's scale, hence the 5 added after the
    // first multiplication) and is scaled by ten with every digit, as the remainder is.
    let mut digits = [0u8; 5];
    let mut len = digits.len();
    let mut tie: u16 = 0;
    for (i, slot) in digits.iter_mut().enumerate() {
        let product = u32::from(frac) * 10;
        *slot = (product >> 16) as u8;
        frac = product as u16;
        if frac < 10 || frac.wrapping_neg() < 10 {
            len = i + 1;
            break;
        }
        tie = (u32::from(tie) * 10) as u16;
        if i == 0 {
            tie = tie.wrapping_add(5);
        }
        if frac < tie || frac.wrapping_neg() < tie {
            len = i + 1;
            break;
        }
    }
    let last_odd = digits.get(len.wrapping_sub(1)).is_some_and(|d| d & 1 == 1);
    let round_up = frac != 0
        && match frac.cmp(&0x8000) {
            Ordering::Greater => true,
            Ordering::Equal => last_odd,
            Ordering::Less => false,
        };
    if round_up {
        // Increment the last digit; nines become zeros and are dropped, and a carry out of the
        // fraction goes to the integer part.
        let mut carry = true;
        while carry && len > 0 {
            match digits.get_mut(len - 1) {
                Some(d) if *d < 9 => {
                    *d += 1;
                    carry = false;
                }
                _ => len -= 1,
            }
        }
        if carry {
            int += 1;
        }
    } else {
        while len > 0 && digits.get(len - 1) == Some(&0) {
            len -= 1;
        }
    }
    if bits < 0 {
        out.write_char('-')?;
    }
    write_u32(out, int)?;
    if len > 0 {
        out.write_char('.')?;
        for d in digits.iter().take(len) {
            out.write_char(char::from(b'0' + d))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// f32

/// Limbs of [`Big`]: 256 bits. The largest number the shortest-digit search holds is below
/// 2^185 (a subnormal's mantissa scaled by 10^46, times 10; or `f32::MAX`'s scaled mantissa).
const LIMBS: usize = 8;

/// An unsigned integer of [`LIMBS`] 32-bit limbs, least significant first (all operations wrap
/// instead of failing; the algorithm's numbers stay far below the limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Big([u32; LIMBS]);

impl Big {
    fn from_u64(v: u64) -> Self {
        let mut limbs = [0u32; LIMBS];
        for (k, limb) in limbs.iter_mut().take(2).enumerate() {
            *limb = (v >> (32 * k)) as u32;
        }
        Big(limbs)
    }

    fn mul_small(&mut self, m: u32) -> &mut Self {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            // (2^32 − 1)² + (2^32 − 1) < 2^64: no overflow.
            let p = u64::from(*limb) * u64::from(m) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        self
    }

    fn mul_pow2(&mut self, n: u32) -> &mut Self {
        let mut n = n;
        while n >= 16 {
            self.mul_small(1 << 16);
            n -= 16;
        }
        self.mul_small(1 << n)
    }

    fn mul_pow10(&mut self, n: u32) -> &mut Self {
        let mut n = n;
        while n >= 9 {
            self.mul_small(1_000_000_000);
            n -= 9;
        }
        for _ in 0..n {
            self.mul_small(10);
        }
        self
    }

    fn add(&self, other: &Big) -> Big {
        let mut sum = *self;
        let mut carry = false;
        for (a, b) in sum.0.iter_mut().zip(other.0.iter()) {
            let (s, c1) = a.overflowing_add(*b);
            let (s, c2) = s.overflowing_add(u32::from(carry));
            *a = s;
            carry = c1 || c2;
        }
        sum
    }

    /// `self −= other` (`other` ≤ `self`).
    fn sub(&mut self, other: &Big) {
        let mut borrow = false;
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            let (d, b1) = a.overflowing_sub(*b);
            let (d, b2) = d.overflowing_sub(u32::from(borrow));
            *a = d;
            borrow = b1 || b2;
        }
    }

    fn compare(&self, other: &Big) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

/// The most significant digits an `f32`'s shortest representation has (9) and room for the
/// round-up's extra digit.
const F32_DIGITS: usize = 10;

/// Dragon4's shortest digits of the finite positive `f32` `mant · 2^exp` whose neighbours are
/// `(mant − minus) · 2^exp` and `(mant + plus) · 2^exp` (bounds included when `inclusive`):
/// the digits (ASCII) and their count, and `k` such that the value is `0.d1d2… × 10^k`.
fn shortest(mant: u64, minus: u64, plus: u64, exp: i32, inclusive: bool) -> ([u8; F32_DIGITS], usize, i32) {
    // `a.compare(&b) < rounding` is `a <= b` when inclusive, else `a < b`.
    let rounding = if inclusive { Ordering::Greater } else { Ordering::Equal };
    // k0 with 10^(k0−1) < high ≤ 10^(k0+1) (core's estimator; it never overestimates).
    let high = mant.saturating_add(plus);
    let nbits = 64 - i64::from(high.saturating_sub(1).leading_zeros());
    let mut k = (((nbits + i64::from(exp)) * 1_292_913_986) >> 32) as i32;

    let mut mant = Big::from_u64(mant);
    let mut minus = Big::from_u64(minus);
    let mut plus = Big::from_u64(plus);
    let mut scale = Big::from_u64(1);
    if exp < 0 {
        scale.mul_pow2(exp.unsigned_abs());
    } else {
        let e = exp.unsigned_abs();
        mant.mul_pow2(e);
        minus.mul_pow2(e);
        plus.mul_pow2(e);
    }
    if k >= 0 {
        scale.mul_pow10(k.unsigned_abs());
    } else {
        let e = k.unsigned_abs();
        mant.mul_pow10(e);
        minus.mul_pow10(e);
        plus.mul_pow10(e);
    }
    if scale.compare(&mant.add(&plus)) < rounding {
        k += 1;
    } else {
        mant.mul_small(10);
        minus.mul_small(10);
        plus.mul_small(10);
    }
    let mut scale2 = scale;
    scale2.mul_pow2(1);
    let mut scale4 = scale;
    scale4.mul_pow2(2);
    let mut scale8 = scale;
    scale8.mul_pow2(3);

    let mut digits = [b'0'; F32_DIGITS];
    let mut len = 0usize;
    let mut down = false;
    let mut up = false;
    for slot in digits.iter_mut().take(F32_DIGITS - 1) {
        // One digit: floor(mant / scale) < 10.
        let mut d = 0u8;
        for (s, weight) in [(&scale8, 8u8), (&scale4, 4), (&scale2, 2), (&scale, 1)] {
            if mant.compare(s) != Ordering::Less {
                mant.sub(s);
                d += weight;
            }
        }
        *slot = b'0' + d;
        len += 1;
        down = mant.compare(&minus) < rounding;
        up = scale.compare(&mant.add(&plus)) < rounding;
        if down || up {
            break;
        }
        mant.mul_small(10);
        minus.mul_small(10);
        plus.mul_small(10);
    }
    if up && (!down || mant.mul_pow2(1).compare(&scale) != Ordering::Less) {
        // Round the digits up; all nines become 1 followed by zeros and one more digit.
        match digits.iter().take(len).rposition(|&c| c != b'9') {
            Some(i) => {
                for (j, c) in digits.iter_mut().enumerate().take(len).skip(i) {
                    *c = if j == i { *c + 1 } else { b'0' };
                }
            }
            None => {
                for (j, c) in digits.iter_mut().enumerate().take(len + 1) {
                    *c = if j == 0 { b'1' } else { b'0' };
                }
                len = (len + 1).min(F32_DIGITS);
                k += 1;
            }
        }
    }
    (digits, len, k)
}

/// Writes `v` as `core`'s `Display` for `f32` does (no precision, no sign flag).
pub(super) fn write_f32(out: &mut dyn Write, v: f32) -> fmt::Result {
    if v.is_nan() {
        return out.write_str("NaN");
    }
    if v.is_sign_negative() {
        out.write_char('-')?;
    }
    if v.is_infinite() {
        return out.write_str("inf");
    }
    let bits = v.to_bits();
    let biased = (bits >> 23) & 0xFF;
    let fraction = u64::from(bits & 0x7F_FFFF);
    if biased == 0 && fraction == 0 {
        return out.write_char('0');
    }
    // core's `decode`: subnormals (mant · 2^-150, neighbours 2 apart), powers of two (the lower
    // neighbour half as far), the others (neighbours 1 apart, scaled by 2).
    let (digits, len, k) = if biased == 0 {
        shortest(fraction << 1, 1, 1, -150, fraction & 1 == 0)
    } else {
        let mant = fraction | 0x80_0000;
        let exp = biased as i32 - 150;
        if mant == 0x80_0000 {
            shortest(mant << 2, 1, 2, exp - 2, true)
        } else {
            shortest(mant << 1, 1, 1, exp - 1, mant & 1 == 0)
        }
    };
    let digits = digits.get(..len).unwrap_or(&[]);
    // core's `digits_to_dec_str` with no fraction digits asked for.
    if k <= 0 {
        out.write_str("0.")?;
        write_zeros(out, k.unsigned_abs() as usize)?;
        write_digits(out, digits)
    } else {
        let point = k.unsigned_abs() as usize;
        match (digits.get(..point), digits.get(point..)) {
            (Some(int), Some(frac)) if !frac.is_empty() => {
                write_digits(out, int)?;
                out.write_char('.')?;
                write_digits(out, frac)
            }
            _ => {
                write_digits(out, digits)?;
                write_zeros(out, point.saturating_sub(digits.len()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;
    use std::string::String;

    use super::*;
    use crate::Q16;

    fn q16_text(bits: i32) -> String {
        let mut s = String::new();
        write_q16(&mut s, bits).unwrap();
        s
    }

    fn f32_text(v: f32) -> String {
        let mut s = String::new();
        write_f32(&mut s, v).unwrap();
        s
    }

    #[test]
    fn q16_hand_picked() {
        let cases: [(i32, &str); 12] = [
            (0, "0"),
            (1 << 16, "1"),
            (-(1 << 16), "-1"),
            (0x8000, "0.5"),
            (-0x8000, "-0.5"),
            (0x4000, "0.25"),
            (1, "0.00002"),
            (-1, "-0.00002"),
            (0xFFFF, "0.99998"),
            (i32::MIN, "-32768"),
            (i32::MAX, "32767.99998"),
            // 0.1 is stored as 6554 / 65536 = 0.100006...: the shortest text that reads back.
            (6554, "0.1"),
        ];
        for (bits, want) in cases {
            assert_eq!(q16_text(bits), want, "bits {bits:#x}");
        }
    }

    /// Every fraction, with integer parts that carry, in both signs: the same text as `fixed`.
    #[test]
    fn q16_equals_fixed_display_for_every_fraction() {
        for int in [0i32, 1, 9, 99, 12345, 32767, -1, -10, -32768] {
            for frac in 0..=0xFFFFi32 {
                let bits = int.wrapping_shl(16).wrapping_add(frac);
                let want = format!("{}", Q16::from_bits(bits));
                assert_eq!(q16_text(bits), want, "bits {bits:#x}");
            }
        }
    }

    #[test]
    fn f32_hand_picked() {
        let cases: [(f32, &str); 14] = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e-7, "0.0000001"),
            (123456790.0, "123456790"),
            (1e20, "100000000000000000000"),
            (f32::MAX, "340282350000000000000000000000000000000"),
            (f32::MIN_POSITIVE, "0.000000000000000000000000000000000000011754944"),
            (f32::from_bits(1), "0.000000000000000000000000000000000000000000001"),
            (f32::INFINITY, "inf"),
            (f32::NEG_INFINITY, "-inf"),
            (f32::NAN, "NaN"),
        ];
        for (v, want) in cases {
            assert_eq!(f32_text(v), want, "{v:?}");
        }
    }

    /// Every power of two and its neighbours, every exponent's first and last mantissas, every
    /// small subnormal, and a pseudo-random sample of all bit patterns: the same text as `core`.
    #[test]
    fn f32_equals_core_display() {
        let check = |bits: u32| {
            let v = f32::from_bits(bits);
            assert_eq!(f32_text(v), format!("{v}"), "bits {bits:#010x}");
        };
        for biased in 0..=255u32 {
            for fraction in [0u32, 1, 2, 3, 0x40_0000, 0x7F_FFFD, 0x7F_FFFE, 0x7F_FFFF] {
                for sign in [0u32, 1 << 31] {
                    check(sign | biased << 23 | fraction);
                }
            }
        }
        for bits in 0..0x1_0000u32 {
            check(bits);
        }
        // xorshift32: 300,000 patterns over every exponent.
        let mut x = 0x2545_F491u32;
        for _ in 0..300_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            check(x);
        }
    }

    /// The numbers the scene tests use: decimal fractions of one to four digits.
    #[test]
    fn f32_short_decimals() {
        for n in 0..20_000u32 {
            for scale in [1.0f32, 10.0, 100.0, 1000.0, 10000.0] {
                let v = n as f32 / scale;
                assert_eq!(f32_text(v), format!("{v}"));
                assert_eq!(f32_text(-v), format!("{}", -v));
            }
        }
    }
}
