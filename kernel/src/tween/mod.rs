//! Tweens: step lists (to, from_to, delay, call, parallel groups) with loops, run from a
//! fixed-capacity pool, with the Odin engine's semantics.
//!
//! Build a [`Tween`] (allocation-free, chained, infallible), start it in a [`TweenPool`] with an
//! owner id, and call [`TweenPool::update`] every frame with the frame's `dt`, a
//! [`PropertySink`](crate::sink::PropertySink) and an [`EventQueue`](crate::event::EventQueue).
//! Targets are ids, not pointers: a tween writes `(target, property, value)` through the sink,
//! reads the start of its `to` steps from it, and its current values can also be read by handle
//! ([`TweenPool::value`]).
//!
//! # Semantics
//!
//! - **Steps** run in order. [`Tween::to`] starts from wherever the value is when the step begins
//!   (read with `PropertySink::get`; a sink that does not know the value makes the step start at its
//!   end, so it holds the end value). [`Tween::from_to`] jumps to its start first, and again on each
//!   loop. [`Tween::delay`] waits (negative counts as 0). [`Tween::call`] emits
//!   [`Event::TweenCall`](crate::event::Event::TweenCall) with the caller's id once per pass,
//!   including each loop. [`Tween::parallel`] makes the next step run together with the previous
//!   one: consecutive parallel steps form a *group* that begins together (its calls fire, its
//!   `to` starts are read, in step order) and ends with its longest step; groups run one after
//!   another. A step shorter than its group writes its end value when it ends and then nothing.
//! - **Values**: the scalar `S`, [`Vec2`](crate::math::Vec2) and [`Rgba8`](crate::color::Rgba8)
//!   (per channel, rounded to nearest, ties up: see [`lerp_rgba8`]), written as `PropertyValue`
//!   `Float`, `Vector` and `Color`.
//! - **Loops**: [`Tween::loops`]`(n)`: 0 plays once, `n` plays `n` extra times, -1 forever. Each
//!   loop begins the steps again from the values as they are then. Each loop boundary emits
//!   [`TweenLooped`](crate::event::Event::TweenLooped) with the number of passes finished; the end
//!   emits [`TweenCompleted`](crate::event::Event::TweenCompleted) and the tween leaves the pool.
//! - **Time**: an update adds `dt × speed` (negative or NaN `dt` and speed count as 0). A step or
//!   group reached at time `t` begins at `t`, in the same update (so a call right after a step
//!   fires in the update that ends the step, and a zero-length step writes its end value at once).
//!   An update crossing several steps runs every one in order: each value step crossed ends exactly
//!   at its end value, each call crossed fires, each loop boundary is counted (beyond
//!   [`LOOPS_SIMULATED_PER_UPDATE`] boundaries in one update, whole passes are counted
//!   arithmetically: see [`TweenPool::update`]).
//! - **Control**: [`TweenPool::pause`] / [`TweenPool::resume`] (a paused tween writes nothing),
//!   [`TweenPool::set_speed`], [`TweenPool::kill`] (stops where it is: nothing more is written, no
//!   remaining call fires, no completion event), [`TweenPool::kill_owner`].
//! - **Handles** ([`TweenHandle`], 8 bytes) are generational: after a tween completed or was
//!   killed, every use of its handle is an `Err`, never another tween's data. Their
//!   [`to_bits`](TweenHandle::to_bits) is the `tween` field of the events.
//!
//! # Cost
//!
//! A frame inside a step does: one add and one multiply for the time, one compare, then per step
//! of the running group one multiply by the precomputed `1 / duration`, the ease, and the
//! interpolation of that step's kind, and one `PropertySink::set`. The sink is read only when a
//! step begins; there is no division per frame. Memory per step and per tween:
//! [`TweenPool::STEP_BYTES`], [`TweenPool::TWEEN_BYTES`] (60 bytes, and 36 + 60 × `STEPS`).
//!
//! In Q16.16 the progress `t = elapsed × (1 / duration)` uses the reciprocal rounded to `2⁻¹⁶`, so
//! `t` is within `duration × 2⁻¹⁷ + 2⁻¹⁷` of the exact ratio (for a 1 s step, 1.5e-5); a step still
//! ends exactly at its end value, by time.
//!
//! # Example
//!
//! ```
//! use ossicle::ease::Ease;
//! use ossicle::event::{Event, EventQueue};
//! use ossicle::math::Vec2;
//! use ossicle::sink::{property::POSITION, NullSink};
//! use ossicle::tween::{Tween, TweenPool};
//!
//! const PANEL: u32 = 3;
//! const SLID_IN: u32 = 1;
//! let mut pool: TweenPool<f32, 16, 4> = TweenPool::new();
//! let mut events: EventQueue<8> = EventQueue::new();
//! let slide_in = Tween::new()
//!     .from_to(PANEL, POSITION, Vec2::new(-100.0, 0.0), Vec2::new(0.0, 0.0), 0.3, Ease::OutCubic)
//!     .call(SLID_IN);
//! let h = pool.start(&slide_in, PANEL)?;
//! pool.update(1.0, &mut NullSink, &mut events); // crosses the whole tween
//! assert_eq!(events.pop(), Some(Event::TweenCall { tween: h.to_bits(), id: SLID_IN }));
//! assert_eq!(events.pop(), Some(Event::TweenCompleted { tween: h.to_bits() }));
//! assert!(!pool.is_running(h));
//! # Ok::<(), ossicle::tween::TweenError>(())
//! ```

mod builder;
mod error;
mod playback;
mod pool;
mod step;
mod value;

pub use builder::Tween;
pub use error::TweenError;
pub use playback::LOOPS_SIMULATED_PER_UPDATE;
pub use pool::{OwnerId, TweenHandle, TweenPool, TWEEN_POOL_TAG};
pub use value::{lerp_rgba8, TweenValue};
