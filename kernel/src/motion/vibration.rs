//! Punch and shake: finite damped sines, and the seeded noise that makes a shake.
//!
//! # Formulas
//!
//! A punch or shake of duration `D` starting at `from` with strength `s` (per component), frequency
//! `f` (Hz, vibrations per second) and damping ratio `ζ` is, at `τ` seconds into the pass
//! (`p = τ / D`, after the ease: `τ = ease(progress)·D`):
//!
//! ```text
//! punch(τ) = from + s · sin(2π·f·τ) · e^(−2π·ζ·f·τ) · (1 − p)
//! shake(τ) = from + s ⊙ r(k) · sin(2π·f·τ) · e^(−2π·ζ·f·τ) · (1 − p),   k = ⌊f·τ⌋
//! ```
//!
//! - `e^(−2π·ζ·f·τ)` is the envelope of a damped oscillator of damping ratio `ζ` (the exponential
//!   part of `e^(−ζ·ω·τ)` with `ω = 2πf`): every vibration cycle the amplitude shrinks by the factor
//!   `e^(−2πζ)` (ζ = 0: no decay; 0.1: ×0.53 per cycle; 0.5: ×0.043). The kernel computes it as
//!   `2^(−λ·τ)` with `λ = 2π·log₂(e)·ζ·f` precomputed when the motion is built.
//! - `(1 − p)` is a linear taper that makes the motion end **exactly** at `from` after its duration,
//!   whatever `ζ` is (the product is exactly 0 at `p = 1`), so a punch never jumps at its end.
//! - The sine starts at 0 going up, so the value starts at `from` and first moves towards
//!   `from + s`.
//! - A shake multiplies each vibration cycle `k` (the `k`-th period `[k/f, (k+1)/f)`) by a
//!   pseudo-random factor `r(k)` in `[-1, 1)` per component, from [`ShakeNoise`]. The sine is 0 at
//!   every cycle boundary, so the shake is continuous, and `|shake(τ) − from| ≤ |s|` per component.
//!
//! The noise is *counter-based* (a hash of seed, cycle and component): any cycle can be sampled
//! directly, so a large `dt`, a yoyo loop played backwards or `complete()` cost the same as a small
//! step, and the same seed gives the same values on every target (bit-identical in Q16.16, and the
//! noise factors are exactly the same numbers in f32).

use crate::math::Vec3;
use crate::Scalar;

/// `2π·log₂(e)`: `e^(−2π·ζ·f·τ) = 2^(−2π·log₂(e)·ζ·f·τ)`.
const TAU_LOG2_E: f64 = 9.064_720_283_654_388;

/// The seeded pseudo-random numbers of a shake: one value in `[-1, 1)` per (cycle, component).
///
/// The value is `(h >> 15) / 65536 − 1` with
/// `h = mix(mix(4·cycle + component) XOR seed)` (wrapping arithmetic on `u32`), where `mix` is the
/// integer hash "lowbias32" (Chris Wellons):
///
/// ```text
/// x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16
/// ```
///
/// so it is a multiple of 2⁻¹⁶, exactly the same number in f32 and in Q16.16. `mix` is a
/// bijection, so two different seeds give different values for every (cycle, component).
///
/// ```
/// use ossicle::motion::ShakeNoise;
/// let n = ShakeNoise::new(7);
/// let a: f32 = n.unit(3, 0);
/// assert_eq!(a, n.unit::<f32>(3, 0));
/// assert!((-1.0..1.0).contains(&a));
/// assert_ne!(a, ShakeNoise::new(8).unit::<f32>(3, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ShakeNoise {
    seed: u32,
}

impl ShakeNoise {
    /// The noise of `seed`.
    pub const fn new(seed: u32) -> Self {
        Self { seed }
    }

    /// The seed.
    pub const fn seed(&self) -> u32 {
        self.seed
    }

    /// The hash "lowbias32": a bijection of `u32` with good avalanche.
    const fn mix(mut x: u32) -> u32 {
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb_352d);
        x ^= x >> 15;
        x = x.wrapping_mul(0x846c_a68b);
        x ^= x >> 16;
        x
    }

    /// The 32 random bits of `cycle` and `component`.
    pub const fn bits(&self, cycle: u32, component: u32) -> u32 {
        Self::mix(Self::mix(cycle.wrapping_mul(4).wrapping_add(component)) ^ self.seed)
    }

    /// The random factor of `cycle` and `component`, in `[-1, 1)`, a multiple of 2⁻¹⁶.
    pub fn unit<S: Scalar>(&self, cycle: u32, component: u32) -> S {
        // (h >> 15) is in [0, 2^17): subtracting 2^16 cannot overflow.
        S::from_q16_bits((self.bits(cycle, component) >> 15) as i32 - 65536)
    }
}

/// The number of components a punch or shake animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dims {
    One,
    Two,
    Three,
}

/// A punch or shake: the parameters of the damped sine (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Vibration<S> {
    /// Where it starts and ends (unused components are 0).
    pub from: Vec3<S>,
    /// The amplitude per component.
    pub strength: Vec3<S>,
    /// Vibrations per second.
    pub frequency: S,
    /// The damping ratio ζ (kept to recompute `decay` when the frequency changes).
    pub damping_ratio: S,
    /// `λ = 2π·log₂(e)·ζ·f`: the envelope is `2^(−λ·τ)`.
    pub decay: S,
    /// The shake's noise (unused by a punch).
    pub noise: ShakeNoise,
    /// Whether this is a shake.
    pub shake: bool,
    /// How many components are animated.
    pub dims: Dims,
}

impl<S: Scalar> Vibration<S> {
    /// Default frequency: 10 vibrations per second.
    pub(crate) fn new(from: Vec3<S>, strength: Vec3<S>, dims: Dims, shake: bool) -> Self {
        let mut v = Self {
            from,
            strength,
            frequency: S::from_i32(10),
            damping_ratio: S::from_ratio(1, 10),
            decay: S::ZERO,
            noise: ShakeNoise::new(0),
            shake,
            dims,
        };
        v.set_shape(v.frequency, v.damping_ratio);
        v
    }

    /// Sets frequency and damping ratio (negative values count as 0) and recomputes the decay rate.
    pub(crate) fn set_shape(&mut self, frequency: S, damping_ratio: S) {
        self.frequency = frequency.max(S::ZERO);
        self.damping_ratio = damping_ratio.max(S::ZERO);
        self.decay = S::from_f64(TAU_LOG2_E).mul(self.damping_ratio).mul(self.frequency);
    }

    /// The value at `tau` seconds into the pass, where `eased` is the eased progress `tau / D`.
    #[inline]
    pub(crate) fn at(&self, tau: S, eased: S) -> Vec3<S> {
        let cycles = tau.mul(self.frequency);
        let cycle = cycles.floor_to_i32();
        // sin(2π·f·τ) through the fraction of the cycle: the argument stays in [0, 2π).
        let osc = S::TAU.mul(cycles.fract()).sin();
        let envelope = self.decay.mul(tau).neg().exp2().mul(S::ONE.sub(eased));
        let a = osc.mul(envelope);
        let k = if self.shake {
            // A cycle index is a plain label for the hash: negative ones (an ease below 0) wrap.
            let (n, c) = (self.noise, cycle as u32);
            {
                Vec3::new(
                    a.mul(n.unit(c, 0)),
                    if self.dims == Dims::One { S::ZERO } else { a.mul(n.unit(c, 1)) },
                    if self.dims == Dims::Three { a.mul(n.unit(c, 2)) } else { S::ZERO },
                )
            }
        } else {
            Vec3::splat(a)
        };
        self.from.add(self.strength.mul_elem(k))
    }
}
