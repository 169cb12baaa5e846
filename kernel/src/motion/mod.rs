//! LitMotion-style motions: typed values from one value to another, punch and shake, and
//! sequences, run from fixed-capacity pools.
//!
//! - [`Motion`]: what to animate — a scalar, [`Vec2`](crate::math::Vec2),
//!   [`Vec3`](crate::math::Vec3), colour ([`Rgba8`](crate::color::Rgba8), channels rounded to
//!   nearest) or rotation ([`Quat`](crate::math::Quat), slerp along the shortest arc) — from one
//!   value to another over a duration with an [`Ease`](crate::ease::Ease); or a punch or shake (a
//!   finite damped sine, see [`vibration`]). With a delay, loops ([`LoopMode`]: Restart, Yoyo,
//!   Incremental; the count is the number of passes **in total**, as LitMotion's `WithLoops`;
//!   negative: forever) and optionally bound to a `(target, property)`.
//! - [`MotionPool`]: runs up to `N` motions. `update(dt, sink, events)` writes the bound values
//!   through the [`PropertySink`](crate::sink::PropertySink) and reports loops and ends through the
//!   [`EventQueue`](crate::event::EventQueue); any running motion's value can be read by handle.
//!   Generational handles: a finished, completed or cancelled motion's handle is an `Err`.
//! - [`Sequence`] and [`SequencePool`]: motions scheduled by time (`append`, `join`, `insert`,
//!   `append_interval`), which can loop (Restart and Yoyo).
//!
//! Events carry the handle's bits ([`Handle::to_bits`](crate::pool::Handle::to_bits)). A motion's
//! and a sequence's handles differ by their pool's tag ([`MOTION_POOL_TAG`], [`SEQUENCE_POOL_TAG`]
//! by default): `Handle::<()>::from_bits(bits).tag()` tells the source of an event.
//!
//! ```
//! use ossicle::color::Rgba8;
//! use ossicle::ease::Ease;
//! use ossicle::event::{Event, EventQueue};
//! use ossicle::motion::{Motion, MotionPool};
//! use ossicle::sink::{property, PropertySink, PropertyValue, PropertyId, TargetId};
//!
//! /// The last tint written.
//! struct Tint(Rgba8);
//! impl PropertySink<f32> for Tint {
//!     fn set(&mut self, _: TargetId, _: PropertyId, value: PropertyValue<f32>) {
//!         if let Some(c) = value.as_color() { self.0 = c; }
//!     }
//! }
//!
//! let mut motions: MotionPool<f32, 16> = MotionPool::new();
//! let mut events: EventQueue<16> = EventQueue::new();
//! let mut sink = Tint(Rgba8::TRANSPARENT);
//! let fade = Motion::color(Rgba8::new(0, 0, 0, 255), Rgba8::new(255, 0, 0, 255), 0.5)
//!     .bind(3, property::TINT);
//! let coin = Motion::punch(0.0, 12.0, 0.4).frequency(18.0).damping_ratio(0.0);
//! let fade = motions.start(fade)?;
//! let coin = motions.start(coin)?;
//! motions.update(0.25, &mut sink, &mut events);
//! assert_eq!(sink.0, Rgba8::new(128, 0, 0, 255)); // 127.5 rounds up
//! // Punch: 12 · sin(2π · 18 · 0.25) · (1 − 0.25/0.4) = 12 · sin(9π) · 0.375 ≈ 0.
//! assert!(motions.float(coin)?.abs() < 1e-2); // 1e-6 with libm; also holds with `fast-math`
//! motions.complete(fade, &mut sink, &mut events)?;
//! assert_eq!(sink.0, Rgba8::new(255, 0, 0, 255));
//! assert_eq!(events.pop(), Some(Event::MotionCompleted { motion: fade.to_bits() }));
//! # Ok::<(), ossicle::motion::MotionError>(())
//! ```

mod error;
mod loops;
mod pool;
mod sequence;
mod spec;
pub mod vibration;

pub use error::MotionError;
pub use loops::{LoopMode, SequenceLoopMode, MAX_LOOP_EVENTS_PER_UPDATE};
pub use pool::{MotionHandle, MotionPool, RunningMotion, MOTION_POOL_TAG};
pub use sequence::{RunningSequence, Sequence, SequenceHandle, SequencePool, SEQUENCE_POOL_TAG};
pub use spec::{Motion, ValueKind, MIN_DURATION_RECIP};
pub use vibration::ShakeNoise;
