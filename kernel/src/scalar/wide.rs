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
//! For the skeletal jobs there are also shortcuts that compute a whole group of Q16.16 operations
//! with the **same bits** as the general code, in fewer instructions on the Cortex-M0: a factor of
//! magnitude below 1 prepared once for several products ([`UnitFactor`]: blend weights, `lerp`'s
//! parameter), the quaternion product and rotation with unit quaternions ([`quat_mul_bits`], one
//! multiplication per product when both factors' components are below 1,
//! [`quat_rotate_bits`]: no saturating addition can saturate within their bounds), the hemisphere
//! test from a coarse estimate of the dot product ([`quat_dot_negative`]) and the normalisation of a
//! quaternion near unit length ([`quat_normalize_near_bits`]). Each returns `None` (or is not
//! called) outside the ranges its proof needs, and the caller then takes the general code; each has
//! a test against the general operations below or in its caller's module.
//!
//! [`Scalar::mul`]: super::Scalar::mul

/// `true` on targets where the 16-bit-halves products are used (ARM without 32-bit atomics, which
/// among the ARM targets Rust supports means the ARMv6-M / ARMv4T / ARMv5TE families; the ones
/// that matter here, the Cortex-M0/M0+ `thumbv6m-none-eabi`, have no long multiply). Stable Rust
/// exposes no ARM architecture-version `target_feature`, so the missing CAS atomics stand in for it.
/// Only speed depends on this: both forms give identical results. The kernel's own unit tests
/// (`cfg(test)`) use the split forms too, so that every module's tests run through them on the
/// host; the integration tests (`kernel/tests`) and everything else on the host use the `i64` ones.
pub(crate) const SPLIT: bool = cfg!(any(test, all(target_arch = "arm", not(target_has_atomic = "32"))));

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

/// `(s·l + 2^15) >> 16` (the rounded Q16.16 magnitude of a product of magnitudes) for `s <= 2^16`
/// (a factor of magnitude at most 1) and any `l`, in two 16×16-bit products.
///
/// With `l = lh·2^16 + ll`: `s·l = s·lh·2^16 + s·ll`, so the result is `s·lh + ((s·ll + 2^15) >> 16)`
/// exactly, and `(x + 2^15) >> 16 = ((x >> 15) + 1) >> 1` (the bits below 2^15 cannot carry into
/// bit 16). Bounds (`lh, ll <= 2^16 − 1`): `s·ll <= 2^32 − 2^16` and `s·lh <= 2^32 − 2^16`, and the
/// rounded low part is at most `2^16 − 1`, so the sum is at most `2^32 − 1`: exact, no saturation.
#[inline(always)]
fn mag_small(s: u32, l: u32) -> u32 {
    let (lh, ll) = (l >> 16, l & 0xFFFF);
    s * lh + ((((s * ll) >> 15) + 1) >> 1)
}

/// `(a·b + 2^15) >> 16` saturated to `u32::MAX` (so `u32::MAX` means "`u32::MAX` or more"), for
/// any `a` and `b`: [`mag_small`] when one of them is at most `2^16`, else the four products of
/// [`mag_round_large`].
#[inline(always)]
fn mag_round(a: u32, b: u32) -> u32 {
    if a <= 0x1_0000 {
        mag_small(a, b)
    } else if b <= 0x1_0000 {
        mag_small(b, a)
    } else {
        mag_round_large(a, b)
    }
}

/// [`mag_round`] when both factors are above `2^16`: with `a = ah·2^16 + al` and
/// `b = bh·2^16 + bl`, the result is `ah·bh·2^16 + ah·bl + al·bh + ((al·bl + 2^15) >> 16)`
/// exactly (the first three terms are multiples of `2^16` before the shift); every partial product
/// is below `2^32` and each sum saturates. Out of line: rare in the kernel's hot loops (one factor
/// is usually a weight, an interpolation parameter or a rotation component, below 1), and it keeps
/// the inlined multiply short.
#[inline(never)]
fn mag_round_large(a: u32, b: u32) -> u32 {
    let (ah, al) = (a >> 16, a & 0xFFFF);
    let (bh, bl) = (b >> 16, b & 0xFFFF);
    let hi = ah * bh;
    if hi > 0xFFFF {
        return u32::MAX; // the result is at least 2^32
    }
    let low = (al * bl + 0x8000) >> 16;
    (hi << 16).saturating_add(ah * bl).saturating_add(al * bh).saturating_add(low)
}

/// `magnitude` with the sign `sign` (0 or −1) applied, saturated to the `i32` range: at most
/// `i32::MAX` when positive, `2^31` (`i32::MIN`) when negative.
#[inline(always)]
fn signed_saturated(magnitude: u32, sign: i32) -> i32 {
    if magnitude >> 31 != 0 {
        // At least 2^31: i32::MAX when positive; i32::MIN when negative (exactly 2^31, or beyond).
        return i32::MAX ^ sign;
    }
    // Branch-free negation when sign = -1: (m ^ -1) + 1 = -m.
    ((magnitude as i32) ^ sign).wrapping_sub(sign)
}

/// As [`mul_bits_i64`], in 32-bit arithmetic only: the rounded magnitude of `|a|·|b|` from
/// [`mag_round`] (ties away from zero is half up on the magnitude), then the sign, saturated.
#[inline(always)]
pub(crate) fn mul_bits_split(a: i32, b: i32) -> i32 {
    let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
    // Usually one factor is at most 1: a weight, an interpolation parameter, a rotation component,
    // a scale of exactly 1.
    let m = if ua <= 0x1_0000 {
        mag_small(ua, ub)
    } else if ub <= 0x1_0000 {
        mag_small(ub, ua)
    } else {
        return mul_bits_large(a, b);
    };
    signed_saturated(m, (a ^ b) >> 31)
}

/// [`mul_bits_split`] when both magnitudes are above 1 (`2^16`), out of line.
#[inline(never)]
fn mul_bits_large(a: i32, b: i32) -> i32 {
    signed_saturated(mag_round_large(a.unsigned_abs(), b.unsigned_abs()), (a ^ b) >> 31)
}

/// `a × b` for a product the caller knows fits a `u64`: [`mul_u64_split`] where [`SPLIT`], the
/// plain `u64` product otherwise (the same value).
#[inline(always)]
pub(crate) fn mul_u64(a: u64, b: u64) -> u64 {
    if SPLIT {
        mul_u64_split(a, b)
    } else {
        a * b
    }
}

/// `a × b` (fitting a `u64`) through [`mul_u32_wide`] when both factors are below `2^32`, the
/// plain product otherwise.
#[inline(always)]
pub(crate) fn mul_u64_split(a: u64, b: u64) -> u64 {
    match (u32::try_from(a), u32::try_from(b)) {
        (Ok(x), Ok(y)) => mul_u32_wide(x, y),
        _ => a * b,
    }
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

/// As [`lerp_bits_i64`] without a 64-bit multiply. The usual case, `b − a` fitting an `i32` and
/// `|t| < 1`: `round(d·t)` is [`UnitFactor::mul`] (exact, below `|d|` in magnitude), and the
/// result is `a + round(d·t)` saturated, as in the reference; `t = 1` gives `a + d = b`.
/// Otherwise [`lerp_bits_wide`], out of line.
#[inline(always)]
pub(crate) fn lerp_bits_split(a: i32, b: i32, t: i32) -> i32 {
    let (d, overflow) = b.overflowing_sub(a);
    if !overflow {
        if let Some(u) = UnitFactor::new(t) {
            return a.saturating_add(u.mul(d));
        }
        if t == 0x1_0000 {
            return b;
        }
    }
    lerp_bits_wide(a, b, t)
}

/// [`lerp_bits_split`] for any inputs: `|d| < 2^32` fits a `u32`, the rounded magnitude of
/// `|d|·|t|` comes from [`mag_round`] (saturated at `2^32`, in which case so is the result,
/// towards the sign of `d·t`, as in the reference: `|a| <= 2^31`), and the rest is `i64` addition
/// (no library call on any target).
#[inline(never)]
fn lerp_bits_wide(a: i32, b: i32, t: i32) -> i32 {
    let a = i64::from(a);
    let d = i64::from(b) - a; // |d| < 2^32
    let m = i64::from(mag_round(d.unsigned_abs() as u32, t.unsigned_abs()));
    let r = if (d < 0) != (t < 0) { -m } else { m };
    sat_i32(a + r) // |a + r| < 2^31 + 2^32: no overflow
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

/// A Q16.16 factor of magnitude at most 1 (`2^16`), as its magnitude and sign mask (0 or −1).
#[derive(Clone, Copy)]
struct Unit {
    m: u32,
    s: i32,
}

/// A Q16.16 factor split once for the several products it takes part in: its signed high half,
/// its low half and the rounding bias of a product with its sign (`2^15`, or `2^15 − 1` when
/// negative: see [`unit_product`]).
#[derive(Clone, Copy)]
struct Halves {
    hi: i32,
    lo: u32,
    bias: u32,
}

/// `x` as a [`Unit`] (the caller checks `|x| <= 2^16`).
#[inline(always)]
fn unit(x: i32) -> Unit {
    Unit { m: x.unsigned_abs(), s: x >> 31 }
}

/// `x` as [`Halves`].
#[inline(always)]
fn halves(x: i32) -> Halves {
    Halves { hi: x >> 16, lo: x as u32 & 0xFFFF, bias: 0x8000u32.wrapping_add((x >> 31) as u32) }
}

/// [`mul_bits`]`(a, b)` for `|a| <= 2^16` and `|b| < 2^31`. With `b = bh·2^16 + bl` (`bh`
/// signed, `bl` in `[0, 2^16)`), `|a|·b = |a|·bh·2^16 + |a|·bl`, and rounding to nearest with
/// ties away from zero (the sign of `b`) is `⌊(|a|·b + 2^15 − [b < 0]) / 2^16⌋`, so the product
/// is `|a|·bh + ⌊(|a|·bl + bias) / 2^16⌋` exactly: `|a|·bh` fits an `i32` (`|bh| <= 2^15`), the
/// low sum is below `2^16·(2^16 − 1) + 2^15 < 2^32`, and the whole is at most `|b|` in magnitude;
/// then the sign of `a` (the rounding is symmetric). Nothing saturates.
#[inline(always)]
fn unit_product(a: Unit, b: Halves) -> i32 {
    let r = (a.m as i32) * b.hi + ((a.m * b.lo + b.bias) >> 16) as i32;
    (r ^ a.s).wrapping_sub(a.s)
}

/// [`mul_bits`]`(a, b)` for `|a|, |b| < 2^16`: the magnitude `⌊(|a|·|b| + 2^15) / 2^16⌋` (below
/// `2^32` before the shift, as `|a|·|b| <= (2^16 − 1)²`) with the sign of `a·b` (the rounding is
/// symmetric). One 32-bit multiplication.
#[inline(always)]
fn below_one_product(a: Unit, b: Unit) -> i32 {
    let m = ((a.m * b.m + 0x8000) >> 16) as i32;
    let s = a.s ^ b.s;
    (m ^ s).wrapping_sub(s)
}

/// `true` when each of the four magnitudes is at most 1 (`2^16`). (Written out: at `opt-level =
/// "s"` an iterator over an array stays a loop through memory.)
#[inline(always)]
fn all_unit(a: i32, b: i32, c: i32, d: i32) -> bool {
    let one = 0x1_0000;
    a.unsigned_abs() <= one && b.unsigned_abs() <= one && c.unsigned_abs() <= one && d.unsigned_abs() <= one
}

/// `true` when each of the magnitudes is below `2^bits`.
#[inline(always)]
fn all_below(a: i32, b: i32, c: i32, d: i32, bits: u32) -> bool {
    (a.unsigned_abs() | b.unsigned_abs() | c.unsigned_abs() | d.unsigned_abs()) >> bits == 0
}

/// A Q16.16 factor of magnitude below 1 (a blend weight, an interpolation parameter) prepared
/// once for several products with any other factor: [`UnitFactor::mul`] gives the bits of
/// [`mul_bits`] without deciding which factor is small, and without a saturation test, on every
/// call.
#[derive(Clone, Copy)]
pub(crate) struct UnitFactor {
    /// `|w| < 2^16`.
    m: u32,
    /// The sign mask of `w` (0 or −1).
    s: i32,
}

impl UnitFactor {
    /// `w` prepared, or `None` when `|w| >= 1` (`2^16`).
    #[inline(always)]
    pub(crate) fn new(w: i32) -> Option<Self> {
        let m = w.unsigned_abs();
        if m < 0x1_0000 {
            Some(Self { m, s: w >> 31 })
        } else {
            None
        }
    }

    /// The factor negated (exact: its magnitude is below 1).
    #[inline(always)]
    pub(crate) fn neg(self) -> Self {
        Self { m: self.m, s: !self.s }
    }

    /// [`mul_bits`]`(w, x)` for any `x`. With `x = xh·2^16 + xl` (`xh = x >> 16` signed, `xl` in
    /// `[0, 2^16)`): `|w|·x = |w|·xh·2^16 + |w|·xl`, and rounding to nearest with ties away from
    /// zero (the sign of `x`) is `⌊(|w|·x + 2^15 − [x < 0]) / 2^16⌋`, so the product is
    /// `|w|·xh + ⌊(|w|·xl + 2^15 − [x < 0]) / 2^16⌋` exactly: the low sum is below
    /// `(2^16 − 1)² + 2^15 < 2^32` (a `u32`), the whole below `|x|` in magnitude (no saturation:
    /// `|w| < 1`); then the sign of `w` (the rounding is symmetric).
    #[inline(always)]
    pub(crate) fn mul(self, x: i32) -> i32 {
        let (xh, xl) = (x >> 16, x as u32 & 0xFFFF);
        let bias = 0x8000u32.wrapping_add((x >> 31) as u32); // 2^15, or 2^15 − 1 for x < 0
        let low = (self.m * xl + bias) >> 16; // below 2^16
        let r = (self.m as i32) * xh + low as i32; // |r| < 2^31
        (r ^ self.s).wrapping_sub(self.s)
    }

    /// `a + w·x` saturated, as `Scalar::mul` then `Scalar::add` give it: the sum and a branch on
    /// the overflow flag to a cold saturation, rather than the library's saturating addition,
    /// which computes the saturated value on every call (an addition overflows towards the sign
    /// its operands share).
    #[inline(always)]
    pub(crate) fn mul_add(self, x: i32, a: i32) -> i32 {
        let p = self.mul(x);
        match p.overflowing_add(a) {
            (r, false) => r,
            (_, true) => saturated_towards(p),
        }
    }
}

/// `i32::MAX` for `v >= 0`, `i32::MIN` otherwise: the saturated result of an addition that
/// overflowed with `v` as an operand.
#[cold]
#[inline(never)]
fn saturated_towards(v: i32) -> i32 {
    if v < 0 {
        i32::MIN
    } else {
        i32::MAX
    }
}

/// Whether the Q16.16 dot product of the quaternions `a` and `b` (raw bits), as `Quat::dot`
/// computes it (four products rounded to nearest, saturating sum), is negative, decided from
/// products of the components shifted right by 8 bits when that is certain: `None` when it is not
/// (a dot product within about `2^-4` of 0) or a component is outside `[−2, 2)` (the caller then
/// computes the dot product).
///
/// With `a = 256·ah + al` (`al` in `[0, 255]`, `|ah| <= 512`), and `b` likewise:
/// `a·b / 2^16 − ah·bh = (ah·bl + al·bh) / 256 + al·bl / 2^16`, less than `1020 + 1` in
/// magnitude; the rounded product is within ½ of `a·b / 2^16`, and none of the four saturates
/// (each is at most `2^18`), so the dot product is within `4·1021.5 < 4096` of `Σ ah·bh`. A sum of
/// at least 4096 in magnitude therefore has the dot product's sign (and it is not 0).
#[inline(always)]
pub(crate) fn quat_dot_negative(a: [i32; 4], b: [i32; 4]) -> Option<bool> {
    let ([ax, ay, az, aw], [bx, by, bz, bw]) = (a, b);
    // Every component in [−2^17, 2^17): its offset by 2^17 below 2^18.
    let o = |v: i32| v.wrapping_add(1 << 17) as u32;
    if (o(ax) | o(ay) | o(az) | o(aw) | o(bx) | o(by) | o(bz) | o(bw)) >> 18 != 0 {
        return None;
    }
    // Each product at most 2^18 in magnitude: no overflow.
    let p = (ax >> 8) * (bx >> 8) + (ay >> 8) * (by >> 8) + (az >> 8) * (bz >> 8) + (aw >> 8) * (bw >> 8);
    if p >= 4096 {
        Some(false)
    } else if p <= -4096 {
        Some(true)
    } else {
        None
    }
}

/// The Hamilton product `a · b` of quaternions (raw bits `[x, y, z, w]`), **bit-identical** to
/// the Q16.16 operations of `Quat::mul` (sixteen products rounded to nearest with ties away from
/// zero, summed with saturation), when every component of `a` is at most 1 in magnitude and every
/// component of `b` below `2^13` (`2^29` bits): `None` otherwise.
///
/// In that case each product is at most `|b_j| < 2^29` in magnitude ([`unit_product`]), so a sum
/// of four stays below `2^31` and none of the saturating additions saturates: plain additions give
/// the same bits. `a`'s magnitudes and signs and `b`'s halves are computed once, not per product;
/// when every component of both is below 1 (the usual case: unit quaternions without a component of
/// exactly ±1), each product is one 32-bit multiplication instead ([`quat_mul_below_one`]).
#[inline(always)]
pub(crate) fn quat_mul_bits(a: [i32; 4], b: [i32; 4]) -> Option<[i32; 4]> {
    let ([ax, ay, az, aw], [bx, by, bz, bw]) = (a, b);
    if !all_unit(ax, ay, az, aw) || !all_below(bx, by, bz, bw, 29) {
        return None;
    }
    let m = |v: i32| v.unsigned_abs();
    if (m(ax) | m(ay) | m(az) | m(aw) | m(bx) | m(by) | m(bz) | m(bw)) >> 16 == 0 {
        return Some(quat_mul_below_one(a, b));
    }
    let (ax, ay, az, aw) = (unit(ax), unit(ay), unit(az), unit(aw));
    let (bx, by, bz, bw) = (halves(bx), halves(by), halves(bz), halves(bw));
    let p = unit_product;
    Some([
        p(aw, bx).wrapping_add(p(ax, bw)).wrapping_add(p(ay, bz)).wrapping_sub(p(az, by)),
        p(aw, by).wrapping_sub(p(ax, bz)).wrapping_add(p(ay, bw)).wrapping_add(p(az, bx)),
        p(aw, bz).wrapping_add(p(ax, by)).wrapping_sub(p(ay, bx)).wrapping_add(p(az, bw)),
        p(aw, bw).wrapping_sub(p(ax, bx)).wrapping_sub(p(ay, by)).wrapping_sub(p(az, bz)),
    ])
}

/// [`quat_mul_bits`] when every component of `a` and of `b` is below 1 in magnitude (`2^16`
/// bits; the caller checks), each product in one 32-bit multiplication: `|a_i|·|b_j| <=
/// (2^16 − 1)²`, so `|a_i|·|b_j| + 2^15 < 2^32` and `⌊(|a_i|·|b_j| + 2^15) / 2^16⌋` is the
/// magnitude rounded half up, i.e. the product rounded to nearest with ties away from zero once the
/// sign (`a_i`'s times `b_j`'s) is applied: [`mul_bits`]'s result. Each product is at most `2^16`
/// in magnitude, so the sums of four do not saturate (plain additions, as in [`quat_mul_bits`]).
#[inline(always)]
fn quat_mul_below_one(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    let ([ax, ay, az, aw], [bx, by, bz, bw]) = (a, b);
    let (ax, ay, az, aw) = (unit(ax), unit(ay), unit(az), unit(aw));
    let (bx, by, bz, bw) = (unit(bx), unit(by), unit(bz), unit(bw));
    let p = below_one_product;
    [
        p(aw, bx).wrapping_add(p(ax, bw)).wrapping_add(p(ay, bz)).wrapping_sub(p(az, by)),
        p(aw, by).wrapping_sub(p(ax, bz)).wrapping_add(p(ay, bw)).wrapping_add(p(az, bx)),
        p(aw, bz).wrapping_add(p(ax, by)).wrapping_sub(p(ay, bx)).wrapping_add(p(az, bw)),
        p(aw, bw).wrapping_sub(p(ax, bx)).wrapping_sub(p(ay, by)).wrapping_sub(p(az, bz)),
    ]
}

/// `v` rotated by the quaternion `q` (raw bits `[x, y, z, w]` and `[x, y, z]`), **bit-identical**
/// to the Q16.16 operations of `Quat::rotate` (`t = u × v`, `a = w·t + u × t`, `v + a + a`), when
/// every component of `q` is at most 1 in magnitude and every component of `v` below `2^10`
/// (`2^26` bits): `None` otherwise.
///
/// In that case `|t_i| <= |v_j| + |v_k| < 2^27`, `|a_i| < 3·2^27` and `|v_i + 2a_i| < 2^31`: no
/// saturating operation saturates (each product is at most its second factor in magnitude,
/// [`unit_product`]), so plain additions give the same bits.
#[inline(always)]
pub(crate) fn quat_rotate_bits(q: [i32; 4], v: [i32; 3]) -> Option<[i32; 3]> {
    let ([x, y, z, w], [v0, v1, v2]) = (q, v);
    if !all_unit(x, y, z, w) || !all_below(v0, v1, v2, 0, 26) {
        return None;
    }
    let (x, y, z, w) = (unit(x), unit(y), unit(z), unit(w));
    let p = unit_product;
    let (vx, vy, vz) = (halves(v0), halves(v1), halves(v2));
    let tx = p(y, vz).wrapping_sub(p(z, vy));
    let ty = p(z, vx).wrapping_sub(p(x, vz));
    let tz = p(x, vy).wrapping_sub(p(y, vx));
    let (hx, hy, hz) = (halves(tx), halves(ty), halves(tz));
    let ax = p(w, hx).wrapping_add(p(y, hz).wrapping_sub(p(z, hy)));
    let ay = p(w, hy).wrapping_add(p(z, hx).wrapping_sub(p(x, hz)));
    let az = p(w, hz).wrapping_add(p(x, hy).wrapping_sub(p(y, hx)));
    Some([
        v0.wrapping_add(ax).wrapping_add(ax),
        v1.wrapping_add(ay).wrapping_add(ay),
        v2.wrapping_add(az).wrapping_add(az),
    ])
}

/// `round(m² / 2^16)` (half up) for `m <= 2^16`, in one 32-bit product: below `2^16` the square
/// plus `2^15` stays below `2^32`; `2^16` (whose square wraps to 0) adds its own square root back.
#[inline(always)]
fn square_unit(m: u32) -> u32 {
    (m.wrapping_mul(m).wrapping_add(0x8000) >> 16) + (m & 0x1_0000)
}

/// The Q16.16 normalisation of a quaternion `q` (raw bits `[x, y, z, w]`) that is already within
/// `2^-8` of unit length, **bit-identical** to the Q16.16 operations of the first branch of the
/// skeleton's `normalize_quat` (`n² = q·q`, `d = n² − 1`, `|d| < 1/256`: `y = 1 − d·½`, one Newton
/// step `inv = y·(3/2 − (½·n²)·(y·y))`, then `q·inv`, every product rounded to nearest with ties
/// away from zero), with each product specialised to the ranges that branch guarantees; the second
/// branch (`|d| < 1/4`) is [`quat_normalize_mid_bits`]. `None` when a component's magnitude is
/// above 1 or `|d| >= 1/4` (the caller takes the general path).
///
/// Why each step gives the same bits (all values positive unless said, so "ties away from zero"
/// is "half up", `⌊(p + 2^15) / 2^16⌋`):
/// - the squares: [`square_unit`]; their sum is at most `2^18` (no saturation);
/// - `d·½`: `⌊(|d| + 1) / 2⌋` with the sign of `d`, `|d| <= 255`, so `y = 2^16 + e`, `|e| <= 128`;
/// - `y·y = 2^16 + 2e + ⌊(e² + 2^15) / 2^16⌋ = 2^16 + 2e` (`e² <= 2^14`);
/// - `½·n² = ⌊(n² + 1) / 2⌋ <= 32,896`, times `y·y <= 65,792`: below `2^31`, one `u32` product;
/// - `y·z = z + ⌊(e·z + 2^15) / 2^16⌋` (`z > 0`, `|e·z| < 2^25`, an arithmetic shift is the floor);
/// - `|c|·inv = |c| + ⌊(|c|·f + 2^15) / 2^16⌋` with `f = inv − 2^16` (`|f| < 2^9`, `|c| <= 2^16`),
///   then the sign of `c` (`inv > 0`); nothing saturates (the results are at most `2^16 + 2^9`).
#[inline(always)]
pub(crate) fn quat_normalize_near_bits(q: [i32; 4]) -> Option<[i32; 4]> {
    let [x, y, z, w] = q;
    let (mx, my, mz, mw) = (x.unsigned_abs(), y.unsigned_abs(), z.unsigned_abs(), w.unsigned_abs());
    if mx > 0x1_0000 || my > 0x1_0000 || mz > 0x1_0000 || mw > 0x1_0000 {
        return None;
    }
    // At most 4·2^16: fits both a u32 and an i32.
    let n2 = square_unit(mx) + square_unit(my) + square_unit(mz) + square_unit(mw);
    let d = n2 as i32 - 0x1_0000;
    if d.unsigned_abs() >= 256 {
        return if d.unsigned_abs() < 0x4000 { quat_normalize_mid_bits(q, n2, d) } else { None };
    }
    // e = −round(d·½): y = 1 − d·½ = 2^16 + e.
    let e = if d >= 0 { -((d + 1) >> 1) } else { (1 - d) >> 1 };
    let yy = (0x1_0000 + 2 * e) as u32; // y·y
    let half_n2 = (n2 + 1) >> 1; // ½·n²
    let b = (half_n2 * yy + 0x8000) >> 16; // (½·n²)·(y·y), below 2^31 before the shift
    let zz = 0x1_8000 - b as i32; // 3/2 − (½·n²)·(y·y)
    let f = (e * zz + 0x8000) >> 16; // inv = y·z = z + f', f = inv − 2^16
    let f = zz + f - 0x1_0000;
    let scale = |c: i32| {
        let m = c.unsigned_abs() as i32; // at most 2^16
        let r = m + ((m * f + 0x8000) >> 16);
        if c < 0 {
            -r
        } else {
            r
        }
    };
    Some([scale(x), scale(y), scale(z), scale(w)])
}

/// The second case of the skeleton's `normalize_quat` in Q16.16 (`1/256 <= |d| < 1/4`, `n²`
/// and `d` from [`quat_normalize_near_bits`], components at most 1): three Newton steps
/// ([`newton_step`]) from `y = 1 − d·½`, then `q·inv`, **bit-identical** to the general
/// operations; `None` (the general path) if a range the specialised products rely on does not hold,
/// which the iteration does not leave in that case (`y` rises monotonically from `1 − d·½ >= 0.875`
/// to at most `1/√0.75 < 1.155`, so `|y − 1| < 2^-2`, and `3/2 − (½·n²)·y² ≈ 1`). The products by
/// `inv = 2^16 + f` are as in [`quat_normalize_near_bits`], with `|f| < 2^15`. Out of line: it is
/// the rarer case (poses some way apart).
#[inline(never)]
fn quat_normalize_mid_bits(q: [i32; 4], n2: u32, d: i32) -> Option<[i32; 4]> {
    let half_n2 = (n2 + 1) >> 1; // ½·n² rounded (n² >= 0), below 2^16 here (n² < 5/4)
    let h = ((d.unsigned_abs() + 1) >> 1) as i32; // |round(d·½)|
    let mut y = if d >= 0 { 0x1_0000 - h } else { 0x1_0000 + h };
    y = newton_step(y, half_n2)?;
    y = newton_step(y, half_n2)?;
    y = newton_step(y, half_n2)?;
    let f = y - 0x1_0000;
    if f.unsigned_abs() >= 1 << 15 {
        return None;
    }
    let scale = |c: i32| {
        let m = c.unsigned_abs() as i32; // at most 2^16, so |m·f| + 2^15 < 2^31
        let r = m + ((m * f + 0x8000) >> 16);
        if c < 0 {
            -r
        } else {
            r
        }
    };
    let [x, y, z, w] = q;
    Some([scale(x), scale(y), scale(z), scale(w)])
}

/// One Newton step for `1/√n²` as the general code computes it in Q16.16,
/// `y·(3/2 − (½·n²)·(y·y))`, for `y = 2^16 + e` with `|e| < 2^14` (else `None`) and `½·n² <= 2^16`:
/// `y·y = 2^16 + 2e + ⌊(e² + 2^15) / 2^16⌋` (positive, half up), `(½·n²)·(y·y)` by [`mag_small`],
/// `z = 3/2 − …`, and for `0 < z < 2^17` (else `None`) `y·z = z + ⌊(e·z + 2^15) / 2^16⌋`
/// (`|e·z| < 2^31 − 2^17`, an arithmetic shift is the floor). Nothing saturates.
#[inline(always)]
fn newton_step(y: i32, half_n2: u32) -> Option<i32> {
    let e = y - 0x1_0000;
    if e.unsigned_abs() >= 1 << 14 {
        return None;
    }
    let yy = (0x1_0000 + 2 * e + ((e * e + 0x8000) >> 16)) as u32; // positive: |2e| < 2^15
    let z = 0x1_8000 - mag_small(half_n2, yy) as i32;
    if z <= 0 || z >= 1 << 17 {
        return None;
    }
    Some(z + ((e * z + 0x8000) >> 16))
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

    use crate::math::testutil::Xs;
    impl Xs {
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
    fn rounded_magnitude_is_exact_or_saturated() {
        let reference = |a: u32, b: u32| ((u64::from(a) * u64::from(b) + 0x8000) >> 16).min(u64::from(u32::MAX)) as u32;
        let words = [0u32, 1, 2, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 0x1_0001, 0xFFFF_FFFF, 0x8000_0000, 0x1_FFFF];
        for &a in &words {
            for &b in &words {
                assert_eq!(mag_round(a, b), reference(a, b), "{a:#x} × {b:#x}");
            }
        }
        // 2^16 × (2^32 − 1) = 2^48 − 2^16: 2^32 − 1 exactly (the fast path's largest result);
        // (2^16 + 1) × (2^32 − 1): saturated. 0xFFFF × (2^32 − 1) = 2^48 − 2^32 − 2^16 + 1, plus
        // 2^15, shifted: 2^32 − 2^16 − 1. 0xFFFF × 0xFFFF_0000 = 0xFFFE_0001 · 2^16 exactly.
        assert_eq!(mag_round(0x1_0000, u32::MAX), u32::MAX);
        assert_eq!(mag_round(0x1_0001, u32::MAX), u32::MAX);
        assert_eq!(mag_round(u32::MAX, 0x1_0000), u32::MAX);
        assert_eq!(mag_round(0x1_0000, 0xFFFF_FFFE), 0xFFFF_FFFE);
        assert_eq!(mag_round(0xFFFF, u32::MAX), 0xFFFE_FFFF);
        assert_eq!(mag_round(0xFFFF, 0xFFFF_0000), 0xFFFE_0001);
        let mut x = Xs(0x0BAD_F00D);
        for _ in 0..2_000_000 {
            let (a, b) = (x.operand().unsigned_abs(), x.next() >> (x.next() & 31));
            assert_eq!(mag_round(a, b), reference(a, b), "{a:#x} × {b:#x}");
        }
    }

    #[test]
    fn split_u64_product_equals_the_plain_one() {
        let words = [0u64, 1, 3, 0xFFFF, 0x1_0000, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000, 0x3FFF_FFFF_FFFF];
        for &a in &words {
            for &b in &words {
                if let Some(p) = a.checked_mul(b) {
                    assert_eq!(mul_u64_split(a, b), p, "{a:#x} × {b:#x}");
                }
            }
        }
        let mut x = Xs(0x7F4A_7C15);
        for _ in 0..1_000_000 {
            let (a, b) = (u64::from(x.next()), u64::from(x.next()));
            assert_eq!(mul_u64_split(a, b), a * b, "{a} × {b}");
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
    fn unit_factor_product_is_bit_identical_to_the_i64_reference() {
        let mut x = Xs(0x0F0F_1234);
        assert!(UnitFactor::new(0x1_0000).is_none() && UnitFactor::new(-0x1_0000).is_none());
        assert!(UnitFactor::new(0x1_0001).is_none() && UnitFactor::new(i32::MIN).is_none());
        for i in 0..2000 + EDGES.len() {
            // The edge values of magnitude below 1, then random weights in (−1, 1).
            let w = EDGES.get(i).copied().unwrap_or_else(|| (x.next() as i32) >> 15);
            if w.unsigned_abs() >= 0x1_0000 {
                continue;
            }
            let Some(u) = UnitFactor::new(w) else { panic!("{w} is a unit factor") };
            for &v in &EDGES {
                assert_eq!(u.mul(v), mul_bits_i64(w, v), "{w} × {v}");
                assert_eq!(u.neg().mul(v), mul_bits_i64(-w, v), "−{w} × {v}");
                for &a in &EDGES {
                    assert_eq!(u.mul_add(v, a), mul_bits_i64(w, v).saturating_add(a), "{a} + {w} × {v}");
                }
            }
            for _ in 0..1000 {
                let (v, a) = (x.operand(), x.operand());
                assert_eq!(u.mul(v), mul_bits_i64(w, v), "{w} × {v}");
                assert_eq!(u.neg().mul(v), mul_bits_i64(-w, v), "−{w} × {v}");
                assert_eq!(u.mul_add(v, a), mul_bits_i64(w, v).saturating_add(a), "{a} + {w} × {v}");
            }
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
            // The usual case: |t| <= 1 (the fast path, and its saturating end when a + r overflows).
            let t = (x.next() as i32) >> 15;
            assert_eq!(lerp_bits_split(a, b, t), lerp_bits_i64(a, b, t), "lerp({a}, {b}, {t})");
        }
    }

    /// `quat_mul_below_one` (one 32-bit multiplication per product) against the Hamilton product
    /// from the i64 reference products with saturating sums (`Quat::mul`'s operations), on every
    /// combination of edge components below 1 in magnitude (ties at ½ step included) and on
    /// pseudo-random ones; and `quat_mul_bits` takes it exactly when all eight are below 1.
    #[test]
    fn products_of_quaternions_below_one_are_bit_identical() {
        let reference = |a: [i32; 4], b: [i32; 4]| {
            let p = mul_bits_i64;
            let ([ax, ay, az, aw], [bx, by, bz, bw]) = (a, b);
            let sum = |t: [i32; 4]| t[0].saturating_add(t[1]).saturating_add(t[2]).saturating_add(t[3]);
            [
                sum([p(aw, bx), p(ax, bw), p(ay, bz), p(az, by).saturating_neg()]),
                sum([p(aw, by), p(ax, bz).saturating_neg(), p(ay, bw), p(az, bx)]),
                sum([p(aw, bz), p(ax, by), p(ay, bx).saturating_neg(), p(az, bw)]),
                sum([p(aw, bw), p(ax, bx).saturating_neg(), p(ay, by).saturating_neg(), p(az, bz).saturating_neg()]),
            ]
        };
        // Hand-computed: i·j = k; ½·½ step = ¼ step → 0; a tie, ½ step (0x8000 · 1 step / 2^16)
        // rounds away from zero to 1 step, with either sign.
        let (half, step) = (0x8000, 1);
        assert_eq!(quat_mul_below_one([0xFFFF, 0, 0, 0], [0, 0xFFFF, 0, 0]), [0, 0, 0xFFFE, 0]);
        assert_eq!(quat_mul_below_one([0, 0, 0, half], [0, 0, 0, step]), [0, 0, 0, 1]);
        assert_eq!(quat_mul_below_one([0, 0, 0, -half], [0, 0, 0, step]), [0, 0, 0, -1]);
        assert_eq!(quat_mul_below_one([0, 0, 0, 0x4000], [0, 0, 0, step]), [0, 0, 0, 0]);
        let edges = || EDGES.iter().copied().filter(|v| v.unsigned_abs() < 0x1_0000);
        assert!(edges().count() >= 12);
        for x in edges() {
            for y in edges() {
                for z in edges() {
                    let (a, b) = ([x, y, z, -x], [z, x, -y, y]);
                    assert_eq!(quat_mul_below_one(a, b), reference(a, b), "{a:?} · {b:?}");
                }
            }
        }
        let mut x = Xs(0x00DD_BA11);
        let mut below = 0;
        for i in 0..1_000_000 {
            // Components below 1 (mostly), some exactly ±1 or a little above (the other paths).
            let c = |x: &mut Xs| match x.next() & 15 {
                0 => 0x1_0000,
                1 => -0x1_0000,
                2 => (x.next() as i32) >> 14,
                _ => (x.next() as i32) >> 15,
            };
            let a = [c(&mut x), c(&mut x), c(&mut x), c(&mut x)];
            let b = [c(&mut x), c(&mut x), c(&mut x), c(&mut x)];
            let small = a.iter().chain(&b).all(|v| v.unsigned_abs() < 0x1_0000);
            if small {
                assert_eq!(quat_mul_below_one(a, b), reference(a, b), "{a:?} · {b:?} ({i})");
                below += 1;
            }
            if let Some(r) = quat_mul_bits(a, b) {
                assert_eq!(r, reference(a, b), "{a:?} · {b:?} ({i})");
            } else {
                assert!(!small, "{a:?} · {b:?}");
            }
        }
        assert!(below > 100_000 && below < 900_000, "{below}");
    }
}
