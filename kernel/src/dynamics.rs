//! Procedural dynamics: scalar channels, named by id, that follow a target with a second-order
//! system, a closed-form damped spring or a PD controller (EVEngine's `ControlAnim`).
//!
//! A [`Dynamics<S, N>`](Dynamics) holds up to `N` channels inline (no allocation). Each channel has
//! a value `y`, a velocity `ẏ` and a target `x`, and moves towards the target on every
//! [`update(dt)`](Dynamics::update) with the [`Integrator`] and [`Params`] it was given. Channels are
//! keyed by a caller-chosen [`ChannelId`]; adding one beyond the capacity is
//! [`DynamicsError::Full`], using an id that was never added is [`DynamicsError::UnknownChannel`].
//!
//! ```
//! use ossicle::dynamics::{Dynamics, Integrator, Params};
//! const ARM: u32 = 7;
//! // f = 3 Hz, ζ = 0.5, r = -1 (anticipation), as in EVEngine's example.
//! let params = Params::new(Integrator::parse("secondOrder")?, 3.0f32, 0.5, -1.0)?;
//! let mut dynamics: Dynamics<f32, 4> = Dynamics::new(params);
//! dynamics.add(ARM, 0.0)?;
//! dynamics.set_target(ARM, 1.2)?;
//! dynamics.update(1.0 / 60.0);
//! dynamics.update(1.0 / 60.0);
//! assert!(dynamics.value(ARM)? < 0.0); // r < 0: it first swings away from the target
//! for _ in 0..240 {
//!     dynamics.update(1.0 / 60.0);
//! }
//! assert!((dynamics.value(ARM)? - 1.2).abs() < 1e-3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The integrators
//!
//! All three share the parameters frequency `f` (Hz, natural angular frequency `ω = 2πf`) and
//! damping ratio `ζ` (0 undamped, 1 critical, above 1 overdamped); with a constant target all
//! three are the same continuous system `ÿ + 2ζω·ẏ + ω²·y = ω²·x` and differ in how a step is
//! integrated and in how the target's velocity `ẋ` enters.
//!
//! - [`Integrator::SecondOrder`]: t3ssel8r's second-order dynamics ("Giving Personality to
//!   Procedural Animations using Math", 2022, <https://www.youtube.com/watch?v=KPoeNZZ6H4s>):
//!   `y + k1·ẏ + k2·ÿ = x + k3·ẋ` with `k1 = ζ/(πf)`, `k2 = 1/(2πf)²`, `k3 = r·ζ/(2πf)`, where the
//!   response `r` sets the initial reaction to a change of the target (`r > 1` overshoots at once,
//!   `r < 0` first moves away: anticipation). (The issue text writes the left side as
//!   `ÿ + k1·ẏ + k2·y`; with these `k`s only the published form `y + k1·ẏ + k2·ÿ` is a system of
//!   frequency `f`, so that is what is built.) Each step is the video's semi-implicit Euler step,
//!   position first: `y ← y + T·ẏ`, then `ẏ ← ẏ + T·(x + k3·ẋ − y − k1·ẏ)/k2_stable`, with
//!   `k2_stable = max(k2, T²/2 + T·k1/2, T·k1)`, the clamp in the video's code ("clamp k2 to
//!   guarantee stability without jitter"; its first, jittery variant `max(k2, 1.1·(T²/4 + T·k1/2))`
//!   and its pole-matching step for `ωT ≥ ζ` are not used). The clamp keeps any time step stable
//!   (the response slows down instead of blowing up). When the
//!   caller does not give the target's velocity ([`Dynamics::set_target_with_velocity`]) it is
//!   estimated as `ẋ = (x − x_prev)/T`, `x_prev` being the target at the previous update.
//! - [`Integrator::Spring`]: Ryan Juckett's damped spring ("Damped Springs", 2012,
//!   <https://www.ryanjuckett.com/damped-springs/>): the exact solution of
//!   `ÿ = −ω²·(y − x) − 2ζω·ẏ` over the step, for the under-, critically and over-damped cases, so
//!   it is exact for any `dt` and unconditionally stable. `r` and the target's velocity are not
//!   used.
//! - [`Integrator::Pd`]: a unit-mass PD controller, acceleration `τ = Kp·(x − y) + Kd·(ẋ − ẏ)` with
//!   `Kp = ω²`, `Kd = 2ζω` (the same system as `SecondOrder` with `r = 2`), integrated with
//!   semi-implicit Euler, velocity first: `ẏ ← ẏ + T·τ`, then `y ← y + T·ẏ`. `ẋ` is given or
//!   estimated as for `SecondOrder`, so a jump of the target kicks the velocity by `2ζω·Δx`. `r` is
//!   not used. **Stability limit:** with `h = ωT` the step is stable only while
//!   `h < 2·(√(1 + ζ²) − ζ)` (from the Jury conditions on the step matrix, whose determinant is
//!   `1 − 2ζh` and trace `2 − h² − 2ζh`): `h < 2` for `ζ = 0` (an undamped oscillation that keeps
//!   its amplitude), `1.236` for `ζ = 0.5`, `0.828` for `ζ = 1`, `0.472` for `ζ = 2`. At `f = 10 Hz`,
//!   `ζ = 1` that is `dt < 13.2 ms`; [`Params::stable_dt_limit`] computes it. Beyond it the value
//!   grows without bound (saturating in Q16.16, reaching infinity in `f32`).
//!
//! The integrator is chosen per channel ([`Params`] travel with each channel); the container keeps
//! default parameters for [`Dynamics::add`] and can set all channels at once
//! ([`Dynamics::set_params_all`]). Names parse with [`Integrator::parse`]: `"secondOrder"`,
//! `"spring"`, `"pd"` (case, `_`, `-` and spaces ignored).
//!
//! # Q16.16
//!
//! The state is kept in normalised units so that no quantity leaves the Q16.16 range or rounds
//! away for the parameters animation uses (f 0.5–10 Hz, ζ 0–2, r −2..2, dt 1/240–1/15 s, values
//! within ±1000):
//!
//! - the velocity is stored as `v = ẏ/ω` (a distance: at f = 10 Hz a 2000-unit swing has `ẏ`
//!   near 125 000, beyond Q16.16, but `v` near 2000);
//! - `k1`, `k2`, `k3` are never formed (`k2` at 10 Hz is 16 Q16.16 steps), nor is the estimated
//!   `ẋ` (`T·ẋ = x − x_prev` is used instead), so T = 0 divides nothing;
//! - `h = ωT` multiplies state values as `(s·ω)·T` rather than `s·h`: `T` is exact, and at
//!   240 Hz a rounded `h` would carry a relative error up to 6e-4, a systematic frequency error;
//! - the second-order step is `y ← y + h·v`, then `v ← v + (h·(x − y) − 2ζh·v + rζ·Δx)/m` with
//!   `m = ω²·k2_stable = max(1, h²/2 + ζh, 2ζh)`, each term divided by `m` before it is
//!   multiplied by `h` (`h/m ≤ √2`, `2ζh/m ≤ 1`), and `h²` formed as `(ω²·T)·T`. Steps longer than
//!   `ωT = 128` (2 s at 10 Hz) are taken as `ωT = 128` so that `m` stays in range, in `f32` too;
//!   at that length the clamped scheme alternates about the target and barely decays anyway;
//! - the spring evaluates the step's exact propagator `exp(A·h)` (`A = [[0, 1], [−1, −2ζ]]` on
//!   `(y − x, v)`) by its Taylor series applied to the state (Horner, 6 to 13 terms, remainder
//!   below 3.3e-9 relative) in up to 4 equal sub-steps when `h·(1 + 2ζ) ≤ 6`: the closed-form
//!   coefficients are within 2⁻¹⁷ of numbers near 1, which at ±1000 costs about 0.01 a step.
//!   Longer steps, where few steps are taken, use Juckett's closed form (with series for `cos`
//!   and `sin(x)/x` near critical damping, and the over-damped case as two decaying exponentials
//!   so nothing overflows for huge steps).
//!
//! `kernel/tests/dynamics.rs` measures every integrator against an `f64` reference over that
//! parameter grid: in Q16.16 within 3.3e-5 of the peak value when damped and 6.9e-5 undamped over
//! 30 periods (mostly the phase drift of `ω = 2πf` carrying 2π's rounding); in `f32` within 9.2e-7
//! and 7.2e-6.
//!
//! In both types a channel can come to rest a little short of its target: a position step below
//! half a unit in the last place does not move the value, which leaves up to about
//! `ζ·ulp/(ωT)` (2e-4 at 250 with ζ = 2, f = 3 Hz, 120 updates a second).
//! [`velocity`](Dynamics::velocity) returns `ẏ` and saturates in Q16.16 when `|ẏ| > 32767`;
//! very low frequencies (below about 0.05 Hz) make the stored `ẏ/ω` large and may saturate too.
//!
//! # Memory
//!
//! A channel takes 56 bytes (`f32` or Q16.16); a `Dynamics<S, N>` takes `56·N + 24` bytes (the
//! default parameters and a `u32` length), on 32-bit targets and 64-bit hosts alike.

use core::fmt;
use core::str::FromStr;

use crate::sink::{NullSink, PropertyId, PropertySink, PropertyValue, TargetId};
use crate::Scalar;

/// The caller's id of a channel (any `u32`; EVEngine's names map to ids in the host).
pub type ChannelId = u32;

/// How a channel integrates its motion (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Integrator {
    /// t3ssel8r's second-order system with the `k2` clamp (`"secondOrder"`).
    SecondOrder,
    /// Ryan Juckett's closed-form damped spring (`"spring"`).
    Spring,
    /// Unit-mass PD controller, `Kp = ω²`, `Kd = 2ζω` (`"pd"`).
    Pd,
}

/// The integrator names, as EVEngine spells them, in the order of [`Integrator::ALL`].
pub const INTEGRATOR_NAMES: [&str; 3] = ["secondOrder", "spring", "pd"];

impl Integrator {
    /// Every integrator.
    pub const ALL: [Integrator; 3] = [Integrator::SecondOrder, Integrator::Spring, Integrator::Pd];

    /// The integrator's name (`"secondOrder"`, `"spring"` or `"pd"`).
    pub fn name(self) -> &'static str {
        match self {
            Integrator::SecondOrder => "secondOrder",
            Integrator::Spring => "spring",
            Integrator::Pd => "pd",
        }
    }

    /// Parses `"secondOrder"`, `"spring"` or `"pd"`; ASCII case, `_`, `-`, spaces and surrounding
    /// white space are ignored (`"second_order"`, `"PD"`).
    ///
    /// ```
    /// use ossicle::dynamics::Integrator;
    /// assert_eq!(Integrator::parse("secondOrder"), Ok(Integrator::SecondOrder));
    /// assert_eq!(Integrator::parse("PD"), Ok(Integrator::Pd));
    /// let err = Integrator::parse("verlet").unwrap_err();
    /// assert_eq!(err.to_string(), "unknown integrator; valid names are secondOrder, spring, pd");
    /// ```
    pub fn parse(name: &str) -> Result<Self, UnknownIntegrator> {
        let mut buf = [0u8; 11];
        let mut len = 0;
        for c in name.trim_ascii().bytes() {
            if c.is_ascii_alphabetic() {
                let slot = buf.get_mut(len).ok_or(UnknownIntegrator)?;
                *slot = c.to_ascii_lowercase();
                len += 1;
            } else if !matches!(c, b'_' | b'-' | b' ') {
                return Err(UnknownIntegrator);
            }
        }
        match buf.get(..len).ok_or(UnknownIntegrator)? {
            b"secondorder" => Ok(Integrator::SecondOrder),
            b"spring" => Ok(Integrator::Spring),
            b"pd" => Ok(Integrator::Pd),
            _ => Err(UnknownIntegrator),
        }
    }
}

impl FromStr for Integrator {
    type Err = UnknownIntegrator;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for Integrator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`Integrator::parse`] does not know. `Display` lists the valid names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UnknownIntegrator;

impl fmt::Display for UnknownIntegrator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown integrator; valid names are ")?;
        for (i, n) in INTEGRATOR_NAMES.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
        }
        Ok(())
    }
}

impl core::error::Error for UnknownIntegrator {}

/// What went wrong with a [`Dynamics`] call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DynamicsError {
    /// Every channel slot is in use.
    Full {
        /// The container's capacity.
        capacity: usize,
    },
    /// A channel with this id already exists.
    Duplicate {
        /// The id.
        id: ChannelId,
    },
    /// No channel has this id.
    UnknownChannel {
        /// The id.
        id: ChannelId,
    },
    /// The frequency is not a finite number above 0.
    InvalidFrequency,
    /// The damping ratio is not a finite number at or above 0.
    InvalidDamping,
    /// The response is not a finite number.
    InvalidResponse,
}

impl fmt::Display for DynamicsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Full { capacity } => write!(f, "dynamics are full ({capacity} channels in use)"),
            Self::Duplicate { id } => write!(f, "dynamics channel {id} already exists"),
            Self::UnknownChannel { id } => write!(f, "no dynamics channel has id {id}"),
            Self::InvalidFrequency => f.write_str("dynamics frequency must be a finite number above 0 Hz"),
            Self::InvalidDamping => f.write_str("dynamics damping ratio must be a finite number at or above 0"),
            Self::InvalidResponse => f.write_str("dynamics response must be a finite number"),
        }
    }
}

impl core::error::Error for DynamicsError {}

/// A channel's integrator and its parameters: frequency `f` (Hz), damping ratio `ζ`, response `r`.
///
/// Valid by construction: [`Params::new`] refuses a frequency that is not above 0, a negative
/// damping ratio and non-finite numbers. 20 bytes.
///
/// ```
/// use ossicle::dynamics::{Integrator, Params};
/// let p = Params::new(Integrator::Pd, 10.0f32, 1.0, 0.0)?;
/// // h = ωT < 2(√2 − 1): T < 0.828 / (2π·10) s
/// let limit = p.stable_dt_limit().unwrap();
/// assert!((limit - 0.013_18).abs() < 1e-5);
/// assert_eq!(p.with_integrator(Integrator::Spring).stable_dt_limit(), None);
/// # Ok::<(), ossicle::dynamics::DynamicsError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Params<S> {
    integrator: Integrator,
    frequency: S,
    omega: S,
    damping: S,
    response: S,
}

/// Whether `v > 0` (false for NaN).
fn positive<S: Scalar>(v: S) -> bool {
    v > S::ZERO
}

/// Whether `v` is a finite number (always in Q16.16).
fn finite<S: Scalar>(v: S) -> bool {
    v.abs() <= S::MAX
}

impl<S: Scalar> Params<S> {
    /// Parameters with frequency `f` in Hz (`> 0`), damping ratio `ζ` (`>= 0`) and response `r`
    /// (used by [`Integrator::SecondOrder`] only).
    pub fn new(integrator: Integrator, frequency: S, damping: S, response: S) -> Result<Self, DynamicsError> {
        if !(frequency > S::ZERO && finite(frequency)) {
            return Err(DynamicsError::InvalidFrequency);
        }
        Self::build(integrator, frequency, S::TAU.mul(frequency), damping, response)
    }

    /// Parameters with the natural angular frequency `ω` in rad/s (`> 0`) instead of `f`, as
    /// Juckett's spring and the PD gains (`Kp = ω²`, `Kd = 2ζω`) are written.
    pub fn from_angular(integrator: Integrator, omega: S, damping: S, response: S) -> Result<Self, DynamicsError> {
        if !(omega > S::ZERO && finite(omega)) {
            return Err(DynamicsError::InvalidFrequency);
        }
        Self::build(integrator, omega.div(S::TAU), omega, damping, response)
    }

    fn build(integrator: Integrator, frequency: S, omega: S, damping: S, response: S) -> Result<Self, DynamicsError> {
        // In Q16.16 a tiny f can round ω to 0: refuse it rather than divide by it later.
        if !positive(omega) {
            return Err(DynamicsError::InvalidFrequency);
        }
        if !(damping >= S::ZERO && finite(damping)) {
            return Err(DynamicsError::InvalidDamping);
        }
        if !finite(response) {
            return Err(DynamicsError::InvalidResponse);
        }
        Ok(Self { integrator, frequency, omega, damping, response })
    }

    /// The same parameters with another integrator.
    pub fn with_integrator(self, integrator: Integrator) -> Self {
        Self { integrator, ..self }
    }

    /// The integrator.
    pub fn integrator(&self) -> Integrator {
        self.integrator
    }

    /// The frequency `f` in Hz.
    pub fn frequency(&self) -> S {
        self.frequency
    }

    /// The natural angular frequency `ω = 2πf` in rad/s.
    pub fn angular_frequency(&self) -> S {
        self.omega
    }

    /// The damping ratio `ζ`.
    pub fn damping(&self) -> S {
        self.damping
    }

    /// The response `r`.
    pub fn response(&self) -> S {
        self.response
    }

    /// The largest stable time step, for [`Integrator::Pd`]: `2·(√(1 + ζ²) − ζ)/ω`, computed as
    /// `2/((√(1 + ζ²) + ζ)·ω)`. `None` for the other integrators, which are stable for any step.
    pub fn stable_dt_limit(&self) -> Option<S> {
        match self.integrator {
            Integrator::Pd => {
                let z = self.damping;
                let root = S::ONE.add(z.mul(z)).sqrt();
                Some(S::TWO.div(root.add(z)).div(self.omega))
            }
            Integrator::SecondOrder | Integrator::Spring => None,
        }
    }
}

/// One channel: 56 bytes.
#[derive(Clone, Copy, Debug)]
struct Channel<S> {
    id: ChannelId,
    params: Params<S>,
    /// Value `y`.
    y: S,
    /// Velocity over ω (`ẏ/ω`, a distance; see the module docs).
    v: S,
    /// Target `x`.
    x: S,
    /// Target at the previous update.
    x_prev: S,
    /// The target's velocity, when given.
    xd: S,
    has_xd: bool,
    bound: bool,
    sink_target: TargetId,
    sink_property: PropertyId,
}

impl<S: Scalar> Channel<S> {
    fn at_rest(id: ChannelId, value: S, params: Params<S>) -> Self {
        Self {
            id,
            params,
            y: value,
            v: S::ZERO,
            x: value,
            x_prev: value,
            xd: S::ZERO,
            has_xd: false,
            bound: false,
            sink_target: 0,
            sink_property: 0,
        }
    }

    /// Changes the parameters, keeping the physical velocity `ẏ`.
    fn set_params(&mut self, params: Params<S>) {
        if params.omega != self.params.omega {
            // v·ω_old/ω_new, multiplying first unless that saturates.
            let p = self.v.mul(self.params.omega);
            self.v =
                if p.abs() < S::MAX { p.div(params.omega) } else { self.v.div(params.omega).mul(self.params.omega) };
        }
        self.params = params;
    }

    fn step(&mut self, t: S) {
        let (w, z) = (self.params.omega, self.params.damping);
        match self.params.integrator {
            Integrator::SecondOrder => {
                // Steps longer than ωT = 128 are taken as ωT = 128 (see `SECOND_ORDER_MAX_H`).
                let t =
                    if w.mul(t) > S::from_i32(SECOND_ORDER_MAX_H) { S::from_i32(SECOND_ORDER_MAX_H).div(w) } else { t };
                let dx = self.target_step(t);
                self.step_second_order(t, w, z, dx);
            }
            Integrator::Spring => {
                self.x_prev = self.x;
                self.step_spring(t, w, z);
            }
            Integrator::Pd => {
                let dx = self.target_step(t);
                self.step_pd(t, w, z, dx);
            }
        }
    }

    /// The target's displacement over the step, `T·ẋ` (given, or `x − x_prev`), and the new `x_prev`.
    fn target_step(&mut self, t: S) -> S {
        let dx = if self.has_xd { self.xd.mul(t) } else { self.x.sub(self.x_prev) };
        self.x_prev = self.x;
        dx
    }

    fn step_second_order(&mut self, t: S, w: S, z: S, dx: S) {
        // m = ω²·k2_stable = max(1, h²/2 + ζh, 2ζh), with h² as (ω²·T)·T and ζh as (ζ·ω)·T: each
        // rounded once at its own size rather than through a rounded h (whose relative error, up
        // to 2⁻¹⁷/h, would change the frequency of a clamped step).
        let zh = scale_wt(z, w, t);
        let ww = w.mul(w);
        let h2 = if ww < S::MAX { ww.mul(t).mul(t) } else { w.mul(t).mul(w.mul(t)) };
        let m = S::ONE.max(h2.mul(S::HALF).add(zh)).max(zh.mul(S::TWO));
        // y ← y + T·ẏ = y + h·v
        self.y = self.y.add(scale_wt(self.v, w, t));
        // v ← v + (h·(x − y) − 2ζh·v + rζ·Δx)/m, each term scaled by 1/m before it is multiplied
        // by h, so none overflows (h/m <= √2 and 2ζh/m <= 1).
        let e = self.x.sub(self.y);
        let (e_m, v_m, dx_m) = if m > S::ONE { (e.div(m), self.v.div(m), dx.div(m)) } else { (e, self.v, dx) };
        let pull = scale_wt(e_m, w, t);
        let drag = scale_wt(v_m, w, t).mul(z.mul(S::TWO));
        let kick = dx_m.mul(self.params.response).mul(z);
        self.v = self.v.sub(drag).add(pull).add(kick);
    }

    fn step_pd(&mut self, t: S, w: S, z: S, dx: S) {
        // ẏ ← ẏ + T·(ω²(x − y) + 2ζω(ẋ − ẏ)), i.e. v ← v + h·(x − y) + 2ζ·Δx − 2ζh·v.
        let two_z = z.mul(S::TWO);
        let pull = scale_wt(self.x.sub(self.y), w, t);
        let drag = scale_wt(self.v, w, t).mul(two_z);
        self.v = self.v.sub(drag).add(pull).add(dx.mul(two_z));
        // y ← y + T·ẏ with the new velocity.
        self.y = self.y.add(scale_wt(self.v, w, t));
    }

    fn step_spring(&mut self, t: S, w: S, z: S) {
        let e0 = self.y.sub(self.x);
        let v0 = self.v;
        let h = w.mul(t);
        let two_z = z.mul(S::TWO);
        let reach = h.mul(S::ONE.add(two_z));
        // Up to 4 sub-steps of reach <= 1.5 each by series; longer steps by the closed form.
        let substeps = [(3, 2), (3, 1), (9, 2), (6, 1)]
            .iter()
            .position(|&(num, den)| reach <= S::from_ratio(num, den))
            .map(|i| i as i32 + 1);
        let (e, v) = if let Some(n) = substeps {
            // exp(A·h/n)·s by Horner: s + (h/n)·A·(s + (h/2n)·A·(s + ... )), with
            // A·(a, b) = (b, −a − 2ζb). The remainder after K terms is below
            // (reach/n)^(K+1)/(K+1)! (3.3e-9 at reach/n = 1.5 with 13 terms).
            let sub_reach = reach.div(S::from_i32(n));
            let terms = if sub_reach <= S::from_ratio(1, 8) {
                6
            } else if sub_reach <= S::HALF {
                9
            } else {
                13
            };
            let (mut e, mut v) = (e0, v0);
            for _ in 0..n {
                let (mut a, mut b) = (e, v);
                for k in (1..=terms).rev() {
                    let (mut ha, mut hb) = (scale_wt(a, w, t), scale_wt(b, w, t));
                    let kn = k * n;
                    if kn > 1 {
                        // A division rounds once; a product with a rounded 1/k would carry 1/k's
                        // relative error (1.5e-5 for 1/3 in Q16.16) into every step.
                        let kn = S::from_i32(kn);
                        ha = ha.div(kn);
                        hb = hb.div(kn);
                    }
                    a = e.add(hb);
                    b = v.sub(ha).sub(hb.mul(two_z));
                }
                e = a;
                v = b;
            }
            (e, v)
        } else {
            // Closed form: e' = E·((C + ζ·Sh)·e + Sh·v), v' = E·(−Sh·e + (C − ζ·Sh)·v), with
            // E = exp(−ζh) and, for α = √(1 − ζ²): C = cos(αh), Sh = sin(αh)/α (under-damped),
            // C = 1, Sh = h (critical), C = cosh(α'h), Sh = sinh(α'h)/α' with α' = √(ζ² − 1) (over).
            let (ec, es) = spring_coefficients(h, z);
            let zes = z.mul(es);
            let e = ec.add(zes).mul(e0).add(es.mul(v0));
            let v = ec.sub(zes).mul(v0).sub(es.mul(e0));
            (e, v)
        };
        self.y = self.x.add(e);
        self.v = v;
    }
}

/// The longest second-order step, as `ωT`: longer steps are taken as this long, so that
/// `m = ω²·k2_stable ≈ (ωT)²/2` stays within Q16.16 (`f32` does the same, so both agree). At that
/// length the clamped scheme alternates about the target, decaying by about `4ζ/(ωT)` a step, so
/// capping the step changes little; it applies from 2 s at 10 Hz, 40 s at 0.5 Hz.
const SECOND_ORDER_MAX_H: i32 = 128;

/// `s·ω·T`, multiplying by `ω` first unless that saturates (so the result keeps the precision of
/// `T`, which is exact: one rounding of `s·ω` then one of the product), else by `T` first.
#[inline]
fn scale_wt<S: Scalar>(s: S, w: S, t: S) -> S {
    let p = s.mul(w);
    if p.abs() < S::MAX {
        p.mul(t)
    } else {
        s.mul(t).mul(w)
    }
}

/// `exp(−z)` for `z >= 0`.
fn exp_neg<S: Scalar>(z: S) -> S {
    z.mul(S::from_f64(core::f64::consts::LOG2_E)).neg().exp2()
}

/// `(E·C, E·Sh)` of the closed-form spring step (see `step_spring`), for `h = ωT` and damping `ζ`.
fn spring_coefficients<S: Scalar>(h: S, z: S) -> (S, S) {
    // u = (1 − ζ²)·h²: positive under-damped, negative over-damped.
    let one_minus_z2 = S::ONE.sub(z.mul(z));
    let u = one_minus_z2.mul(h).mul(h);
    let quarter = S::from_ratio(1, 4);
    if u.abs() <= quarter {
        // Near critical damping: C = cos(√u), Sh = h·sin(√u)/√u by their series in u (valid for
        // either sign of u: cosh and sinh when u < 0). Truncation below u⁵/10! < 3e-10.
        let c = series(u, &COS_SERIES);
        let s = series(u, &SINC_SERIES);
        let e = exp_neg(z.mul(h));
        (e.mul(c), e.mul(h).mul(s))
    } else if one_minus_z2 > S::ZERO {
        let alpha = one_minus_z2.sqrt();
        let (sin, cos) = alpha.mul(h).sin_cos();
        let e = exp_neg(z.mul(h));
        (e.mul(cos), e.mul(sin.div(alpha)))
    } else {
        // E·cosh(α'h) = (p1 + p2)/2 and E·sinh(α'h)/α' = (p1 − p2)/(2α') with the two decay rates
        // λ1 = ζ − α' = 1/(ζ + α') (written so it does not cancel) and λ2 = ζ + α'.
        let alpha = z.mul(z).sub(S::ONE).sqrt();
        let fast = z.add(alpha);
        let slow = S::ONE.div(fast);
        let p1 = exp_neg(slow.mul(h));
        let p2 = exp_neg(fast.mul(h));
        (p1.add(p2).mul(S::HALF), p1.sub(p2).div(alpha.mul(S::TWO)))
    }
}

/// `cos(√u) = 1 − u/2·(1 − u/12·(1 − u/30·(1 − u/56)))` (to the u⁴ term), for [`series`].
const COS_SERIES: [(i32, i32); 4] = [(1, 2), (1, 12), (1, 30), (1, 56)];
/// `sin(√u)/√u = 1 − u/6·(1 − u/20·(1 − u/42·(1 − u/72)))` (to the u⁴ term), for [`series`].
const SINC_SERIES: [(i32, i32); 4] = [(1, 6), (1, 20), (1, 42), (1, 72)];

/// `1 − u/d1·(1 − u/d2·(1 − u/d3·(1 − u/d4)))` with `1/dk = num/den` (the cos and sin(x)/x series).
fn series<S: Scalar>(u: S, factors: &[(i32, i32); 4]) -> S {
    let mut acc = S::ONE;
    for &(num, den) in factors.iter().rev() {
        acc = S::ONE.sub(u.mul(S::from_ratio(num, den)).mul(acc));
    }
    acc
}

/// Up to `N` scalar channels, keyed by id, each following its target (see the [module docs](self)).
///
/// Channels are kept in the order they were added; a lookup by id scans them (`N` is meant to be
/// small: the handful of channels of one object). `56·N + 24` bytes.
///
/// ```
/// use ossicle::dynamics::{Dynamics, DynamicsError, Integrator, Params};
/// use ossicle::Q16;
/// use ossicle::Scalar;
/// let q = |v: f64| <Q16 as Scalar>::from_f64(v);
/// let spring = Params::new(Integrator::Spring, q(2.0), q(1.0), Q16::ZERO)?;
/// let mut d: Dynamics<Q16, 2> = Dynamics::new(spring);
/// d.add(1, q(0.0))?;
/// d.add(2, q(10.0))?;
/// assert_eq!(d.add(3, q(0.0)), Err(DynamicsError::Full { capacity: 2 }));
/// d.set_target(1, q(100.0))?;
/// d.impulse(2, q(-5.0))?;
/// d.update(q(1000.0)); // the spring is exact for any step: it has settled
/// assert_eq!(d.value(1)?, q(100.0));
/// assert_eq!(d.value(2)?, q(10.0));
/// assert_eq!(d.value(9), Err(DynamicsError::UnknownChannel { id: 9 }));
/// # Ok::<(), DynamicsError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Dynamics<S, const N: usize> {
    defaults: Params<S>,
    channels: heapless::Vec<Channel<S>, N, u32>,
}

impl<S: Scalar, const N: usize> Dynamics<S, N> {
    /// No channels; [`Dynamics::add`] gives new channels `defaults`.
    pub fn new(defaults: Params<S>) -> Self {
        Self { defaults, channels: heapless::Vec::new() }
    }

    /// The parameters [`Dynamics::add`] gives new channels.
    pub fn defaults(&self) -> Params<S> {
        self.defaults
    }

    /// Changes the parameters later [`Dynamics::add`] calls use (existing channels keep theirs).
    pub fn set_defaults(&mut self, params: Params<S>) {
        self.defaults = params;
    }

    /// Changes the defaults and the parameters of every channel (EVEngine's `setFrequency`,
    /// `setDamping`, `setResponse`, `setIntegrator` on the whole object). Velocities are kept.
    pub fn set_params_all(&mut self, params: Params<S>) {
        self.defaults = params;
        for c in self.channels.iter_mut() {
            c.set_params(params);
        }
    }

    /// How many channels fit.
    pub fn capacity(&self) -> usize {
        N
    }

    /// How many channels there are.
    pub fn len(&self) -> usize {
        self.channels.len()
    }

    /// Whether there are no channels.
    pub fn is_empty(&self) -> bool {
        self.channels.is_empty()
    }

    /// Whether a channel has this id.
    pub fn contains(&self, id: ChannelId) -> bool {
        self.channels.iter().any(|c| c.id == id)
    }

    /// Adds a channel at rest at `value` (target `value`, velocity 0) with the default parameters.
    pub fn add(&mut self, id: ChannelId, value: S) -> Result<(), DynamicsError> {
        self.add_with(id, value, self.defaults)
    }

    /// Adds a channel at rest at `value` with its own parameters.
    pub fn add_with(&mut self, id: ChannelId, value: S, params: Params<S>) -> Result<(), DynamicsError> {
        if self.contains(id) {
            return Err(DynamicsError::Duplicate { id });
        }
        self.channels.push(Channel::at_rest(id, value, params)).map_err(|_| DynamicsError::Full { capacity: N })
    }

    /// Removes a channel (the others keep their order).
    pub fn remove(&mut self, id: ChannelId) -> Result<(), DynamicsError> {
        let index = self.channels.iter().position(|c| c.id == id).ok_or(DynamicsError::UnknownChannel { id })?;
        self.channels.remove(index);
        Ok(())
    }

    /// Removes every channel.
    pub fn clear(&mut self) {
        self.channels.clear();
    }

    fn channel(&self, id: ChannelId) -> Result<&Channel<S>, DynamicsError> {
        self.channels.iter().find(|c| c.id == id).ok_or(DynamicsError::UnknownChannel { id })
    }

    fn channel_mut(&mut self, id: ChannelId) -> Result<&mut Channel<S>, DynamicsError> {
        self.channels.iter_mut().find(|c| c.id == id).ok_or(DynamicsError::UnknownChannel { id })
    }

    /// Snaps the channel to `value` and stops it: value, target and the target's previous value
    /// become `value` (so the next update sees no target velocity), velocity 0, and a target
    /// velocity given with [`Dynamics::set_target_with_velocity`] is forgotten. Not for following
    /// a moving target every frame (that loses the dynamics): use [`Dynamics::set_target`].
    pub fn set(&mut self, id: ChannelId, value: S) -> Result<(), DynamicsError> {
        let c = self.channel_mut(id)?;
        c.y = value;
        c.v = S::ZERO;
        c.x = value;
        c.x_prev = value;
        c.xd = S::ZERO;
        c.has_xd = false;
        Ok(())
    }

    /// Sets the target the channel follows. Its velocity is estimated from how far it moved
    /// between updates (this forgets a velocity given with [`Dynamics::set_target_with_velocity`]).
    pub fn set_target(&mut self, id: ChannelId, x: S) -> Result<(), DynamicsError> {
        let c = self.channel_mut(id)?;
        c.x = x;
        c.has_xd = false;
        Ok(())
    }

    /// Sets the target and its velocity `ẋ` (units per second), used by
    /// [`Integrator::SecondOrder`] and [`Integrator::Pd`] on the following updates instead of the
    /// estimate, until the next [`Dynamics::set_target`] or [`Dynamics::set`].
    pub fn set_target_with_velocity(&mut self, id: ChannelId, x: S, xd: S) -> Result<(), DynamicsError> {
        let c = self.channel_mut(id)?;
        c.x = x;
        c.xd = xd;
        c.has_xd = true;
        Ok(())
    }

    /// Adds `dv` (units per second) to the channel's velocity.
    pub fn impulse(&mut self, id: ChannelId, dv: S) -> Result<(), DynamicsError> {
        let c = self.channel_mut(id)?;
        c.v = c.v.add(dv.div(c.params.omega));
        Ok(())
    }

    /// The channel's value.
    pub fn value(&self, id: ChannelId) -> Result<S, DynamicsError> {
        self.channel(id).map(|c| c.y)
    }

    /// The channel's velocity in units per second (saturating in Q16.16 beyond ±32767).
    pub fn velocity(&self, id: ChannelId) -> Result<S, DynamicsError> {
        self.channel(id).map(|c| c.v.mul(c.params.omega))
    }

    /// The channel's target.
    pub fn target(&self, id: ChannelId) -> Result<S, DynamicsError> {
        self.channel(id).map(|c| c.x)
    }

    /// The channel's parameters.
    pub fn params(&self, id: ChannelId) -> Result<Params<S>, DynamicsError> {
        self.channel(id).map(|c| c.params)
    }

    /// Changes one channel's parameters (its velocity is kept).
    pub fn set_params(&mut self, id: ChannelId, params: Params<S>) -> Result<(), DynamicsError> {
        self.channel_mut(id)?.set_params(params);
        Ok(())
    }

    /// Changes one channel's integrator.
    pub fn set_integrator(&mut self, id: ChannelId, integrator: Integrator) -> Result<(), DynamicsError> {
        let c = self.channel_mut(id)?;
        c.params = c.params.with_integrator(integrator);
        Ok(())
    }

    /// Makes [`Dynamics::update_with_sink`] write the channel's value to `property` of `target`
    /// (as [`PropertyValue::Float`]) after each update.
    pub fn bind(&mut self, id: ChannelId, target: TargetId, property: PropertyId) -> Result<(), DynamicsError> {
        let c = self.channel_mut(id)?;
        c.bound = true;
        c.sink_target = target;
        c.sink_property = property;
        Ok(())
    }

    /// Stops writing the channel to a sink.
    pub fn unbind(&mut self, id: ChannelId) -> Result<(), DynamicsError> {
        self.channel_mut(id)?.bound = false;
        Ok(())
    }

    /// The channels' ids and values, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (ChannelId, S)> + '_ {
        self.channels.iter().map(|c| (c.id, c.y))
    }

    /// Advances every channel by `dt` seconds. A `dt` that is not above 0 changes nothing.
    pub fn update(&mut self, dt: S) {
        self.update_with_sink(dt, &mut NullSink);
    }

    /// As [`Dynamics::update`], then writes each bound channel's value to `sink` (in the order the
    /// channels were added). With `dt <= 0` nothing moves and nothing is written.
    pub fn update_with_sink<K: PropertySink<S> + ?Sized>(&mut self, dt: S, sink: &mut K) {
        if !positive(dt) {
            return;
        }
        for c in self.channels.iter_mut() {
            c.step(dt);
            if c.bound {
                sink.set(c.sink_target, c.sink_property, PropertyValue::Float(c.y));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_is_56_bytes() {
        assert_eq!(core::mem::size_of::<Channel<f32>>(), 56);
        assert_eq!(core::mem::size_of::<Channel<crate::Q16>>(), 56);
        assert_eq!(core::mem::size_of::<Params<f32>>(), 20);
        // defaults (20) + length (u32) + channels; 8-byte alignment is not needed.
        assert_eq!(core::mem::size_of::<Dynamics<f32, 4>>(), 56 * 4 + 24);
    }

    #[test]
    fn series_match_cos_and_sinc() {
        // Used for |u| <= 1/4 (truncation below 3e-10); at |u| = 2 the truncation is 8.8e-6 for
        // cos and 8e-7 for sin(x)/x, so a wrong coefficient shows.
        for &(u, tol) in
            &[(-2.0f64, 2e-5), (-0.25, 2e-7), (-0.1, 2e-7), (0.0, 2e-7), (0.1, 2e-7), (0.25, 2e-7), (2.0, 2e-5)]
        {
            let c = series(u as f32, &COS_SERIES) as f64;
            let s = series(u as f32, &SINC_SERIES) as f64;
            let (ec, es) = if u >= 0.0 {
                (u.sqrt().cos(), if u == 0.0 { 1.0 } else { u.sqrt().sin() / u.sqrt() })
            } else {
                ((-u).sqrt().cosh(), (-u).sqrt().sinh() / (-u).sqrt())
            };
            assert!((c - ec).abs() < tol, "{u}: {c} {ec}");
            assert!((s - es).abs() < tol, "{u}: {s} {es}");
        }
    }
}
