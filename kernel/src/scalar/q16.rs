//! Q16.16 transcendental functions on raw bits (integer arithmetic only).
//!
//! Every function takes and returns the raw bits of Q16.16 values (`bits / 65536`), uses only
//! `i32`/`i64`/`u64` integer arithmetic (no floats, no `i128`), and never panics: no indexing, every
//! division is by a [`NonZeroU64`], and every operation that could overflow is either proven not to
//! (see the comments) or wraps on purpose (the range reduction of `sin`/`cos`, which is modular).
//! So the results are bit-identical on every target.
//!
//! Internally the functions work in Q30 (`exp2` in Q44), with polynomial approximations whose own
//! error is below `2^-34`, so nearly all of the error is the final rounding to Q16.16 (half a step,
//! `2^-17`).
//!
//! Maximum errors against `f64` measured by `kernel/tests/scalar_accuracy.rs`, in steps of `2^-16`
//! (one Q16.16 unit; 0.5 steps is `2^-17`, what rounding the exact result would give). The test
//! asserts the "bound" column over the whole domain: exhaustively where the functions are used most
//! (every input in `[-4π, 4π]`, `[-1, 1]`, `[-2, 2]`, `[0, 16]`), the whole `i32` range by stride,
//! dense windows around every branch point and the edge values:
//!
//! | function           | measured max error   | bound asserted           | notes                                            |
//! |--------------------|----------------------|--------------------------|--------------------------------------------------|
//! | [`sqrt`]           | 0.5                  | correctly rounded        | checked exactly; negative inputs give 0          |
//! | [`hypot`]          | 0.5                  | correctly rounded        | checked exactly; saturates to `i32::MAX`         |
//! | [`sin`]            | 0.50007              | 0.5005                   | any angle up to ±32768 rad, exact reduction      |
//! | [`cos`]            | 0.50009 (1)          | 0.5005                   | any angle up to ±32768 rad, exact reduction      |
//! | [`sin_cos`]        | 0.50009 (1)          | 0.5005                   | bit-identical to `(sin(x), cos(x))`              |
//! | [`atan2`]          | 0.50009              | 0.5005                   | in `(-π, π]`, `atan2(0, 0) = 0`                  |
//! | [`asin`]           | 0.49999              | 0.5005                   | also next to ±1; argument clamped to `[-1, 1]`   |
//! | [`acos`]           | 0.50003              | 0.5005                   | also next to ±1; argument clamped to `[-1, 1]`   |
//! | [`exp2`]           | 0.50085              | 0.5005 + `2^-38`·result  | beyond 0.5: `2^-40.2`·result; saturates at 15    |
//!
//! (1) with the whole range sampled at a stride of 4093; the test's default stride of 8191 sees
//! 0.50008.
//!
//! In relative terms: `sqrt` is within `2^-15` of the exact root for results of at least `2^-2`
//! (below that, half a step is more than `2^-15` of the result: the absolute bound `2^-17` holds);
//! `exp2`'s relative error is at most about `2^-15` (half a step) for results of at least `2^-2`,
//! and below `2^-30` for results of at least `2^14`.

use core::num::NonZeroU64;

use super::wide::mul_u64;

/// π in Q16.16, rounded to nearest.
pub const PI_BITS: i32 = 205_887;
/// 2π in Q16.16, rounded to nearest.
pub const TAU_BITS: i32 = 411_775;
/// π/2 in Q16.16, rounded to nearest.
pub const FRAC_PI_2_BITS: i32 = 102_944;

/// 1 in Q30.
const ONE_Q30: i64 = 1 << 30;
/// π in Q30, rounded to nearest.
const PI_Q30: i64 = 3_373_259_426;
/// π/2 in Q30, rounded to nearest.
const FRAC_PI_2_Q30: i64 = 1_686_629_713;
/// π/4 in Q30, rounded to nearest.
const FRAC_PI_4_Q30: i64 = 843_314_857;
/// tan(π/8) = √2 − 1 in Q30, rounded to nearest.
const TAN_PI_8_Q30: i64 = 444_758_426;

/// `2^48 / 2π`: one Q16.16 step (`2^-16` rad) in turns, scaled by `2^64`. Integer part...
const TURN_INT: u64 = 0x28be_60db_9391;
/// ...and the fraction, in 0.64 fixed point (truncated: for any input the product is off by less
/// than `2^31 · 2^-64` units of `2^-64` turn).
const TURN_FRAC: u64 = 0x054a_7f09_d5f4_7d4d;

/// `sin(π/2 · z) / z` as a polynomial in `w = z²`, for `z` in `[0, 1]`, Q30 coefficients, highest
/// degree first (Chebyshev fit, absolute error 2.7e-11 ≈ `2^-35`).
const SIN_COEFS: [i64; 6] = [-3_685, 172_072, -5_026_892, 85_569_282, -693_598_666, 1_686_629_713];
/// `atan(z) / z` as a polynomial in `w = z²`, for `z` in `[0, tan(π/8)]`, Q30 coefficients, highest
/// degree first (Chebyshev fit, absolute error 2.1e-11 ≈ `2^-35`).
const ATAN_COEFS: [i64; 7] =
    [50_544_766, -90_797_680, 118_546_350, -153_347_392, 214_747_118, -357_913_928, 1_073_741_824];
/// `2^f` for `f` in `[0, 1)`, unsigned Q44 coefficients (all positive), highest degree first
/// (Chebyshev fit, absolute error 1.1e-12 ≈ `2^-39.7`).
const EXP2_COEFS: [u64; 9] = [
    32_977_817,
    248_989_851,
    2_729_933_231,
    23_444_594_662,
    169_208_130_212,
    976_437_781_185,
    4_226_109_483_875,
    12_193_974_153_542,
    17_592_186_044_435,
];

/// `a × b` for Q30 operands, rounded (half up).
///
/// Callers keep `|a| <= 2^31` and `|b| <= 2^31`, so `|a × b| <= 2^62` and adding `2^29` cannot
/// overflow an `i64`.
#[inline]
fn mul_q30(a: i64, b: i64) -> i64 {
    (a * b + (1 << 29)) >> 30
}

/// Evaluates the polynomial `coefs` (Q30, highest degree first) at `w` (Q30) by Horner's scheme.
///
/// Callers pass `w` in `[0, 2^30]` and coefficient sets whose partial sums stay below `2^31` in
/// magnitude on that interval (every partial sum of the `sin` and `atan` polynomials above is a
/// smooth function bounded by `π/2 < 2`), which keeps every `mul_q30` within its bounds.
#[inline]
fn horner(coefs: &[i64], w: i64) -> i64 {
    coefs.iter().fold(0, |acc, &c| mul_q30(acc, w) + c)
}

/// Rounds a Q30 value to Q16.16 bits, to nearest with ties away from zero (symmetric in sign).
///
/// Callers pass `|v| <= 2^45` (at most π·2^30 here), so the magnitude plus `2^13` cannot overflow and
/// the quotient fits an `i32` (`i32::try_from` saturates anyway).
#[inline]
fn round_q30_to_q16(v: i64) -> i32 {
    let m = (v.unsigned_abs() + (1 << 13)) >> 14;
    let m = i32::try_from(m).unwrap_or(i32::MAX);
    if v < 0 {
        -m // m <= i32::MAX, so its negation fits.
    } else {
        m
    }
}

/// `n / d` rounded to nearest (ties up) for `d > 0`; callers keep `n + d/2` below `2^64`.
#[inline]
fn div_round(n: u64, d: NonZeroU64) -> u64 {
    (n + d.get() / 2) / d
}

/// `⌊√n⌋`, bit by bit (no division, no multiplication).
///
/// Invariant of the digit-by-digit method: at the step with `bit = 4^k`, `root = 2·R·4^k` where
/// `R = ⌊√(n / 4^(k+1))⌋ < 2^(31-k)`, so `root < 2^(32+k)` and, as `k <= 31` and `root = 0` when
/// `k = 31`, `root + bit < 2^63`: nothing overflows. `rem >= 0` throughout (it is only decreased by
/// `trial <= rem`).
fn isqrt_floor(n: u64) -> u64 {
    let mut rem = n;
    let mut root = 0u64;
    let mut bit = 1u64 << 62;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        let trial = root + bit;
        if rem >= trial {
            rem -= trial;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

/// `√n` rounded to nearest (a tie is impossible for an integer `n`).
///
/// With `r = ⌊√n⌋`: `√n >= r + 1/2` iff `n >= r² + r + 1/4` iff `n - r² > r`. `r² <= n` cannot
/// overflow and `r + 1 <= 2^32`.
fn isqrt_round(n: u64) -> u64 {
    let r = isqrt_floor(n);
    if n - mul_u64(r, r) > r {
        r + 1
    } else {
        r
    }
}

/// Square root of a Q16.16 value; 0 for negative inputs.
///
/// Correctly rounded: the integer square root of `x << 16` (a Q32.32 value, exact in `u64`) rounded
/// to nearest, so the error is at most half a step, `2^-17` (measured: 0.5 steps; the test checks
/// the rounding exactly, in integers). Results below `2^-2` therefore cannot meet a `2^-15` *relative* bound; above it they do.
pub fn sqrt(x: i32) -> i32 {
    match u64::try_from(x) {
        // x < 2^31, so x << 16 < 2^47 and the root is below 2^23.5: it fits an i32.
        Ok(v) => i32::try_from(isqrt_round(v << 16)).unwrap_or(i32::MAX),
        Err(_) => 0,
    }
}

/// `√(v₀² + v₁² + …)` of Q16.16 values, correctly rounded, saturating to `i32::MAX`.
///
/// The squares are exact Q32.32 values in `u64` (`|v| <= 2^31`, so `v² <= 2^62`) summed with
/// saturation; a saturated sum means the true result is at least `2^32 > i32::MAX` bits, which
/// saturates anyway. The error is at most half a step, `2^-17` (measured: 0.5 steps; the test checks
/// the rounding exactly, in integers).
pub fn hypot(v: &[i32]) -> i32 {
    let sum = v.iter().fold(0u64, |acc, &b| {
        let m = u64::from(b.unsigned_abs());
        acc.saturating_add(mul_u64(m, m))
    });
    i32::try_from(isqrt_round(sum)).unwrap_or(i32::MAX)
}

/// The angle `x` (Q16.16 radians) as a fraction of a turn, in 0.64 fixed point (mod 1 turn).
///
/// Exact range reduction: `x × 2^48/2π` modulo `2^64`, with the constant split into its integer part
/// (multiplied modulo `2^64` with a deliberate wrapping multiply: whole turns drop out) and a 64-bit
/// fraction (multiplied high by hand in two 32-bit halves). The error is below 2 units of `2^-64`
/// turn for any input.
fn phase(x: i32) -> u64 {
    // a <= 2^31.
    let a = u64::from(x.unsigned_abs());
    // Modular on purpose.
    let whole = whole_turns(a);
    // a < 2^32 and each half of TURN_FRAC < 2^32: both products fit in u64; the sum is below
    // 2^31 · 2^27 + 2^32 (TURN_FRAC >> 32 < 2^27).
    let lo = mul_u64(a, TURN_FRAC & 0xFFFF_FFFF) >> 32;
    let frac = (mul_u64(a, TURN_FRAC >> 32) + lo) >> 32;
    let p = whole.wrapping_add(frac); // modular on purpose
    if x < 0 {
        p.wrapping_neg() // -p mod 2^64: the same angle, negated
    } else {
        p
    }
}

/// `a × TURN_INT` modulo `2^64` for `a <= 2^31`. Where a 64-bit multiply is a library call
/// ([`SPLIT`](super::wide::SPLIT)), from `TURN_INT = th·2^32 + tl`: `a·tl + (a·th mod 2^32)·2^32`
/// (modulo `2^64`), the same value.
#[inline(always)]
fn whole_turns(a: u64) -> u64 {
    if super::wide::SPLIT {
        whole_turns_split(a)
    } else {
        a.wrapping_mul(TURN_INT)
    }
}

/// [`whole_turns`] in 32-bit products (`a <= 2^31`).
#[inline(always)]
fn whole_turns_split(a: u64) -> u64 {
    let a32 = a as u32; // a <= 2^31
    let high = u64::from(a32.wrapping_mul((TURN_INT >> 32) as u32)) << 32;
    mul_u64(a, TURN_INT & 0xFFFF_FFFF).wrapping_add(high)
}

/// Splits a phase into its quadrant (0..=3) and the position inside it in Q30, `[0, 2^30]`
/// (rounded; `2^30` means the start of the next quadrant, which the callers handle).
#[inline]
fn quadrant(p: u64) -> (u32, i64) {
    // Two bits.
    let q = (p >> 62) as u32;
    // rest < 2^62, so rest + 2^31 cannot overflow and the shifted value is at most 2^30.
    let rest = p & ((1 << 62) - 1);
    (q, ((rest + (1 << 31)) >> 32) as i64)
}

/// `sin(π/2 · z)` for `z` in `[0, 2^30]` (Q30), result Q30 in `[0, 2^30]`.
#[inline]
fn sin_quarter(z: i64) -> i64 {
    let w = mul_q30(z, z); // in [0, 2^30]
    mul_q30(horner(&SIN_COEFS, w), z).clamp(0, ONE_Q30)
}

/// The sine of `(q + u) · π/2` (`u` in Q30) as Q16.16 bits.
#[inline]
fn sin_phase(q: u32, u: i64) -> i32 {
    let z = if q & 1 == 0 { u } else { ONE_Q30 - u };
    let s = round_q30_to_q16(sin_quarter(z));
    if q & 2 == 0 {
        s
    } else {
        -s // s is in [0, 65536]
    }
}

/// Sine of a Q16.16 angle in radians, any magnitude.
///
/// The range reduction is exact (see the module docs), then `sin(π/2·z)` on a quadrant by an odd
/// degree-11 polynomial in Q30. Measured maximum error against `f64`: 0.50007 steps of `2^-16`
/// (≈ `2^-17`: the final rounding plus ~`2^-30`), over `[-4π, 4π]` exhaustively, windows around
/// multiples of π/2 and large angles (10000 to 32767 rad), and the whole input range by stride.
pub fn sin(x: i32) -> i32 {
    let (q, u) = quadrant(phase(x));
    sin_phase(q, u)
}

/// Cosine of a Q16.16 angle in radians, any magnitude: `sin` a quarter turn later (exactly, in the
/// reduced phase). Measured maximum error against `f64`: 0.50009 steps of `2^-16` (≈ `2^-17`).
pub fn cos(x: i32) -> i32 {
    let (q, u) = quadrant(phase(x));
    sin_phase((q + 1) & 3, u)
}

/// `(sin(x), cos(x))` of a Q16.16 angle, sharing the range reduction; bit-identical to calling
/// [`sin`] and [`cos`]. Measured maximum error: 0.50009 steps of `2^-16` (≈ `2^-17`).
pub fn sin_cos(x: i32) -> (i32, i32) {
    let (q, u) = quadrant(phase(x));
    (sin_phase(q, u), sin_phase((q + 1) & 3, u))
}

/// `atan(z)` for `z` in `[0, tan(π/8)]` (Q30), result Q30.
#[inline]
fn atan_poly(z: i64) -> i64 {
    let w = mul_q30(z, z); // <= 2^30 · tan²(π/8)
    mul_q30(horner(&ATAN_COEFS, w), z)
}

/// `atan(t)` for `t` in `[0, 2^30]` (Q30, i.e. `[0, 1]`), result Q30 in `[0, π/4]`.
///
/// Above `tan(π/8)`, `atan(t) = π/4 − atan((1 − t)/(1 + t))` with the quotient back in
/// `[0, tan(π/8)]`.
fn atan_unit(t: i64) -> i64 {
    if t <= TAN_PI_8_Q30 {
        return atan_poly(t);
    }
    // t in (tan(π/8), 2^30]: 1 - t in [0, 2^30), so (1 - t) << 30 < 2^60, and 1 + t > 2^30 > 0.
    let num = ((ONE_Q30 - t) as u64) << 30;
    let m = match NonZeroU64::new((ONE_Q30 + t) as u64) {
        Some(d) => div_round(num, d) as i64, // <= 2^30
        None => 0,                           // unreachable: 1 + t > 0
    };
    FRAC_PI_4_Q30 - atan_poly(m)
}

/// `atan2(y, x)` in Q30 radians, in `[-π, π]` (`π` for `y = 0 > x`), for `y` and `x` at any common
/// scale (the full `i64` range); `atan2(0, 0)` is 0.
///
/// The ratio `min(|x|,|y|) / max(|x|,|y|)` is taken in Q30 after shifting both operands right until
/// the larger is below `2^33` (so the shifted dividend fits in `u64`; this loses only bits below
/// `2^-32` relative), then [`atan_unit`] and the octant fix-ups `π/2 − a`, `π − a`, `−a`.
/// The error is that of the Q30 polynomial and ratio, a few units of `2^-30`.
fn atan2_wide(y: i64, x: i64) -> i64 {
    let (ax, ay) = (x.unsigned_abs(), y.unsigned_abs());
    let steep = ay > ax;
    let (lo, hi) = if steep { (ax, ay) } else { (ay, ax) };
    // hi < 2^64 has at most 64 significant bits; keep at most 33.
    let shift = (u64::BITS - hi.leading_zeros()).saturating_sub(33);
    let (lo, hi) = (lo >> shift, hi >> shift);
    let Some(hi) = NonZeroU64::new(hi) else {
        // Both are zero (a nonzero hi keeps its top bit through the shift).
        return 0;
    };
    // lo <= hi < 2^33, so lo << 30 < 2^63 and adding hi / 2 stays below 2^64; t <= 2^30.
    let t = div_round(lo << 30, hi) as i64;
    let mut a = atan_unit(t); // [0, π/4]
    if steep {
        a = FRAC_PI_2_Q30 - a;
    }
    if x < 0 {
        a = PI_Q30 - a;
    }
    if y < 0 {
        -a // |a| <= π · 2^30
    } else {
        a
    }
}

/// The angle of the point `(x, y)` (Q16.16) in `(-π, π]`; `atan2(0, 0)` is 0 and `atan2(0, x < 0)`
/// is π ([`PI_BITS`]). Just below the negative x axis the result rounds to `-PI_BITS`
/// (−3.1415863, still above −π).
///
/// Computed by an internal helper on `i64` operands (shared with `asin`/`acos`): exact ratio in
/// Q30, reduction to `[0, tan(π/8)]`, a degree-13 odd polynomial, octant fix-ups, one final
/// rounding. Measured maximum error against `f64`: 0.50009
/// steps of `2^-16` (≈ `2^-17`: the final rounding plus ~`2^-30`), over every pair in
/// `[-100, 100]²` steps, dense circles of radii 5 steps to `i32::MAX`, random pairs of every
/// magnitude and all the edge values.
pub fn atan2(y: i32, x: i32) -> i32 {
    round_q30_to_q16(atan2_wide(i64::from(y), i64::from(x)))
}

/// `x` clamped to `[-1, 1]` in Q31 and `√(1 − x²)` in Q31, both exact or correctly rounded.
///
/// `x_bits²` is the exact Q32 square (`<= 2^32` after clamping); `(2^32 − x²) << 30 <= 2^62` is its
/// complement in Q62, whose rounded integer square root is `√(1 − x²)` in Q31 (`<= 2^31`).
fn unit_and_cosine(x: i32) -> (i64, i64) {
    let x = i64::from(x.clamp(-(1 << 16), 1 << 16));
    let sq = mul_u64(x.unsigned_abs(), x.unsigned_abs()); // <= 2^32
    let c = isqrt_round(((1u64 << 32) - sq) << 30) as i64;
    (x << 15, c) // x << 15: |x| <= 2^16, so <= 2^31
}

/// Arc sine of a Q16.16 value, in `[-π/2, π/2]`; the argument is clamped to `[-1, 1]`.
///
/// Computed as `atan2(x, √(1 − x²))` with the square root at Q31 precision (the input bits are exact,
/// so nothing is lost next to ±1, where `asin` is steep: the result is still within rounding of the
/// true arc sine *of the given input*). Measured maximum error against `f64`, exhaustively over
/// every input in `[-1, 1]`: 0.49999 steps of `2^-16` (≈ `2^-17`); within 2^-8 of ±1, where an
/// error in the argument would be magnified most, 0.4981 steps.
pub fn asin(x: i32) -> i32 {
    let (s, c) = unit_and_cosine(x);
    round_q30_to_q16(atan2_wide(s, c))
}

/// Arc cosine of a Q16.16 value, in `[0, π]`; the argument is clamped to `[-1, 1]`.
///
/// Computed as `atan2(√(1 − x²), x)` (see [`asin`]); measured maximum error against `f64`,
/// exhaustively over every input in `[-1, 1]`: 0.50003 steps of `2^-16` (≈ `2^-17`); within 2^-8
/// of ±1, 0.4982 steps.
pub fn acos(x: i32) -> i32 {
    let (s, c) = unit_and_cosine(x);
    round_q30_to_q16(atan2_wide(c, s))
}

/// `2^x` for a Q16.16 `x`: saturates to `i32::MAX` (just below 32768) for `x >= 15` and gives 0 once
/// the result is below half a step (`x < -17`).
///
/// `x = n + f` with `n = ⌊x⌋` and `f` in `[0, 1)`; `2^f` in Q44 by a degree-8 polynomial (Horner
/// on the 16 fraction bits of `f`, so every step keeps 44 bits), then a shift by `28 − n` with
/// rounding to nearest. Measured errors against `f64` (every input in `[-2, 2]` and right below 15,
/// windows around every integer, the whole range by stride): at most 0.50085 steps of `2^-16`;
/// beyond the half step of the final rounding, at most `2^-40.2` of the result. So the absolute error
/// is below `2^-17 + 2^-40·2^x` (at most 0.501 steps), and the relative error below `2^-15` for
/// results of at least `2^-2`, below `2^-30` for results of at least `2^14`.
pub fn exp2(x: i32) -> i32 {
    let n = x >> 16; // floor, in [-32768, 32767]
    if n >= 15 {
        return i32::MAX;
    }
    // f in Q16, [0, 2^16): only 16 significant bits, so the accumulator can keep 44 fraction bits.
    let f = u64::from(x as u32 & 0xFFFF);
    // Horner in unsigned Q44: every partial sum is at most the sum of the coefficients (< 2^45),
    // so `acc * f < 2^45 · 2^16 = 2^61`; p = 2^f in [2^44, 2^45), within 2^-39.5 relative.
    let p = EXP2_COEFS.iter().fold(0u64, |acc, &c| ((acc * f + (1 << 15)) >> 16) + c);
    // Result bits = p · 2^(n + 16 - 44) = p >> (28 - n); n <= 14, so the shift is at least 14.
    let s = 28 - n; // n >= -32768: no overflow
    if s < 50 {
        // 14 <= s < 50: p + 2^(s-1) < 2^45 + 2^49, no overflow; the result is below 2^31 here
        // (2^(15 - 2^-16) · 2^16 < 2^31 - 2^14), and `try_from` saturates anyway.
        i32::try_from((p + (1 << (s - 1))) >> s).unwrap_or(i32::MAX)
    } else {
        0 // p < 2^45 < 2^(s-1), so the rounded shift is 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide helper at scales the public functions never reach (operands beyond 2^33).
    #[test]
    fn atan2_wide_handles_any_i64() {
        let pi4 = FRAC_PI_4_Q30;
        let near = |a: i64, b: i64| (a - b).abs() <= 8;
        assert!(near(atan2_wide(1 << 62, 1 << 62), pi4));
        assert!(near(atan2_wide(i64::MAX, i64::MAX), pi4));
        assert!(near(atan2_wide(i64::MIN, i64::MIN), -3 * pi4));
        assert!(near(atan2_wide(i64::MIN, 0), -FRAC_PI_2_Q30));
        assert!(near(atan2_wide(0, i64::MIN), PI_Q30));
        assert!(near(atan2_wide(1, i64::MAX), 0));
        assert!(near(atan2_wide(i64::MAX, 1), FRAC_PI_2_Q30));
        assert_eq!(atan2_wide(0, 0), 0);
        // tan(θ) = 3/4 at a large scale: atan(0.75) = 0.643501108793284...
        let expected = 690_954_054; // round(0.6435011087932844 · 2^30)
        assert!(near(atan2_wide(3 << 40, 4 << 40), expected));
    }

    #[test]
    fn whole_turns_split_is_the_wrapping_product() {
        let mut x = 0x2545_F491u32;
        for a in [0u64, 1, 2, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000] {
            assert_eq!(whole_turns_split(a), a.wrapping_mul(TURN_INT), "{a}");
        }
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let a = u64::from(x >> 1);
            assert_eq!(whole_turns_split(a), a.wrapping_mul(TURN_INT), "{a}");
        }
    }

    #[test]
    fn isqrt_edges() {
        assert_eq!(isqrt_floor(0), 0);
        assert_eq!(isqrt_floor(u64::MAX), u64::from(u32::MAX));
        assert_eq!(isqrt_round(u64::MAX), 1 << 32);
        assert_eq!(isqrt_round(2), 1);
        assert_eq!(isqrt_round(3), 2);
        assert_eq!(sqrt(i32::MAX), 11_863_283); // √32768 · 65536 = 11863283.2
        assert_eq!(hypot(&[]), 0);
    }
}
