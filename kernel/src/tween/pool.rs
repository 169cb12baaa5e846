//! The pool that runs tweens, and the handles it gives out.

use core::fmt;

use super::builder::{sanitize_speed, Tween};
use super::error::TweenError;
use super::playback::Playing;
use super::step::Step;
use crate::event::EventQueue;
use crate::pool::{Handle, Pool};
use crate::sink::{PropertySink, PropertyValue};
use crate::Scalar;

/// Who a tween belongs to (an application id: a node, a screen, an entity). Killing an owner's
/// tweens is [`TweenPool::kill_owner`].
pub type OwnerId = u32;

/// A handle to a tween running in a [`TweenPool`]: 8 bytes, `Copy`.
///
/// It names the pool slot and the generation of the tween in it, so once the tween has completed
/// or been killed every use of the handle is an [`TweenError::Handle`] error, never another
/// tween's data. [`to_bits`](Self::to_bits) is the `tween` field of the tween's events.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TweenHandle {
    bits: u64,
}

impl TweenHandle {
    /// The handle as 64 bits: equal to the `tween` field of the events this tween emits.
    pub const fn to_bits(self) -> u64 {
        self.bits
    }

    /// A handle from [`to_bits`](Self::to_bits) (for example from an event). Bits that did not
    /// come from a handle are safe: the pool refuses them.
    pub const fn from_bits(bits: u64) -> Self {
        Self { bits }
    }

    /// The pool slot.
    pub const fn index(self) -> u16 {
        self.bits as u16
    }

    /// The generation of the tween in the slot.
    pub const fn generation(self) -> u32 {
        (self.bits >> 32) as u32
    }
}

impl fmt::Debug for TweenHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TweenHandle({}v{}@{})", self.index(), self.generation(), (self.bits >> 16) as u16)
    }
}

/// Runs up to `N` tweens of up to `STEPS` steps each, stored inline (no allocation).
///
/// See the [module documentation](super) for the semantics.
///
/// Memory (`core::mem::size_of`, the same for `f32` and `Q16`, on 32- and 64-bit targets: every
/// field is at most 4-byte aligned): a step is [`STEP_BYTES`](Self::STEP_BYTES) = 60 bytes, a
/// running tween [`TWEEN_BYTES`](Self::TWEEN_BYTES) = 36 + 60 × `STEPS` bytes, and the pool
/// `N × (TWEEN_BYTES + 4) + 12` bytes (each slot's generation; the free list and counts): 100 bytes
/// per one-step tween, 280 per four-step tween.
///
/// ```
/// use ossicle::ease::Ease;
/// use ossicle::event::{Event, EventQueue};
/// use ossicle::sink::{property::OPACITY, PropertySink, PropertyValue, PropertyId, TargetId};
/// use ossicle::tween::{Tween, TweenPool};
///
/// /// One opacity value, readable so `to` steps start from it.
/// struct Opacity(f32);
/// impl PropertySink<f32> for Opacity {
///     fn set(&mut self, _: TargetId, _: PropertyId, v: PropertyValue<f32>) {
///         if let Some(v) = v.as_float() { self.0 = v; }
///     }
///     fn get(&self, _: TargetId, _: PropertyId) -> Option<PropertyValue<f32>> {
///         Some(PropertyValue::Float(self.0))
///     }
/// }
///
/// let mut pool: TweenPool<f32, 8, 2> = TweenPool::new();
/// let mut sink = Opacity(1.0);
/// let mut events: EventQueue<4> = EventQueue::new();
/// let fade = Tween::new().to(0, OPACITY, 0.0, 0.5, Ease::Linear).call(42);
/// let handle = pool.start(&fade, 0)?;
/// pool.update(0.25, &mut sink, &mut events);
/// assert_eq!(sink.0, 0.5);
/// assert_eq!(pool.value(handle, 0)?, PropertyValue::Float(0.5));
/// pool.update(0.25, &mut sink, &mut events);
/// assert_eq!(sink.0, 0.0);
/// assert_eq!(events.pop(), Some(Event::TweenCall { tween: handle.to_bits(), id: 42 }));
/// assert_eq!(events.pop(), Some(Event::TweenCompleted { tween: handle.to_bits() }));
/// assert!(pool.value(handle, 0).is_err()); // completed: the handle is stale
/// # Ok::<(), ossicle::tween::TweenError>(())
/// ```
pub struct TweenPool<S: Scalar, const N: usize, const STEPS: usize> {
    pool: Pool<Playing<S, STEPS>, N>,
}

impl<S: Scalar, const N: usize, const STEPS: usize> Default for TweenPool<S, N, STEPS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const N: usize, const STEPS: usize> fmt::Debug for TweenPool<S, N, STEPS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TweenPool").field("len", &self.len()).field("capacity", &N).finish()
    }
}

/// The tag of a [`TweenPool::new`] pool's handles ("TW"); motions and sequences use
/// [`MOTION_POOL_TAG`](crate::motion::MOTION_POOL_TAG) and
/// [`SEQUENCE_POOL_TAG`](crate::motion::SEQUENCE_POOL_TAG).
pub const TWEEN_POOL_TAG: u16 = 0x5457;

impl<S: Scalar, const N: usize, const STEPS: usize> TweenPool<S, N, STEPS> {
    /// Bytes one step takes (60 for `f32` and `Q16`).
    pub const STEP_BYTES: usize = core::mem::size_of::<Step<S>>();
    /// Bytes one running tween takes: `STEPS` steps and 36 bytes of state.
    pub const TWEEN_BYTES: usize = core::mem::size_of::<Playing<S, STEPS>>();

    /// An empty pool whose handles carry [`TWEEN_POOL_TAG`], so the `tween` field of an event can
    /// be told from a motion's or a sequence's by `Handle::<()>::from_bits(bits).tag()`.
    pub const fn new() -> Self {
        Self::with_tag(TWEEN_POOL_TAG)
    }

    /// An empty pool whose handles carry `tag`, so handles from pools with other tags are refused.
    pub const fn with_tag(tag: u16) -> Self {
        Self { pool: Pool::with_tag(tag) }
    }

    fn handle(h: TweenHandle) -> Handle<Playing<S, STEPS>> {
        Handle::from_bits(h.bits)
    }

    /// Starts `tween` on behalf of `owner`. It begins at the next [`update`](Self::update) (which
    /// reads the starts of its first `to` steps and emits its first calls, even with `dt = 0`).
    ///
    /// Errors: [`TweenError::TooManySteps`] if the builder overflowed, [`TweenError::PoolFull`]
    /// if `N` tweens are running.
    pub fn start(&mut self, tween: &Tween<S, STEPS>, owner: OwnerId) -> Result<TweenHandle, TweenError> {
        let playing = Playing::new(tween, owner)?;
        let h = self.pool.insert(playing)?;
        Ok(TweenHandle { bits: h.to_bits() })
    }

    /// Moves every running, unpaused tween on by `dt` seconds (times its speed), in slot order,
    /// writing values to `sink` and events to `events`. Completed tweens leave the pool (their
    /// handles become stale). A negative or NaN `dt` counts as 0.
    ///
    /// An update that crosses several steps runs each of them in order: every value step crossed
    /// ends exactly at its end value, every call crossed fires, and every loop boundary emits
    /// `TweenLooped`. To bound the work, a tween crosses at most
    /// [`LOOPS_SIMULATED_PER_UPDATE`](super::LOOPS_SIMULATED_PER_UPDATE) loop boundaries one by
    /// one per update; the whole passes the remaining time still covers are then counted
    /// arithmetically (for a finite loop count, all but the last pass, which runs normally):
    /// their values are what simulating them would give, their calls are not emitted, and one
    /// `TweenLooped` carries the count after them. A forever-looping tween whose pass lasts zero
    /// seconds plays one pass per update.
    pub fn update<K: PropertySink<S> + ?Sized, const Q: usize>(
        &mut self,
        dt: S,
        sink: &mut K,
        events: &mut EventQueue<Q>,
    ) {
        let dt = dt.clamp(S::ZERO, S::MAX);
        self.pool.retain(|h, t| t.update(dt, sink, events, h.to_bits()));
    }

    /// Stops the tween where it is: nothing more is written, its remaining calls never fire, no
    /// `TweenCompleted` is emitted, and the handle becomes stale.
    pub fn kill(&mut self, handle: TweenHandle) -> Result<(), TweenError> {
        self.pool.remove(Self::handle(handle)).map(|_| ()).map_err(TweenError::Handle)
    }

    /// Kills every tween of `owner` (as [`kill`](Self::kill)); returns how many.
    pub fn kill_owner(&mut self, owner: OwnerId) -> usize {
        let before = self.pool.len();
        self.pool.retain(|_, t| t.owner() != owner);
        before.saturating_sub(self.pool.len())
    }

    /// Kills every tween.
    pub fn kill_all(&mut self) {
        self.pool.clear();
    }

    fn get(&self, handle: TweenHandle) -> Result<&Playing<S, STEPS>, TweenError> {
        self.pool.get(Self::handle(handle)).map_err(TweenError::Handle)
    }

    fn get_mut(&mut self, handle: TweenHandle) -> Result<&mut Playing<S, STEPS>, TweenError> {
        self.pool.get_mut(Self::handle(handle)).map_err(TweenError::Handle)
    }

    /// Pauses the tween where it is (it writes nothing while paused).
    pub fn pause(&mut self, handle: TweenHandle) -> Result<(), TweenError> {
        self.get_mut(handle).map(|t| t.set_paused(true))
    }

    /// Resumes a paused tween.
    pub fn resume(&mut self, handle: TweenHandle) -> Result<(), TweenError> {
        self.get_mut(handle).map(|t| t.set_paused(false))
    }

    /// Whether the tween is paused.
    pub fn is_paused(&self, handle: TweenHandle) -> Result<bool, TweenError> {
        self.get(handle).map(Playing::is_paused)
    }

    /// Sets the tween's speed (its time is `dt × speed`; 0 holds; negative and NaN count as 0).
    pub fn set_speed(&mut self, handle: TweenHandle, speed: S) -> Result<(), TweenError> {
        self.get_mut(handle).map(|t| t.set_speed(sanitize_speed(speed)))
    }

    /// The tween's speed.
    pub fn speed(&self, handle: TweenHandle) -> Result<S, TweenError> {
        self.get(handle).map(Playing::speed)
    }

    /// Whether the handle names a tween still running (paused tweens are running).
    pub fn is_running(&self, handle: TweenHandle) -> bool {
        self.pool.contains(Self::handle(handle))
    }

    /// The tween's owner.
    pub fn owner(&self, handle: TweenHandle) -> Result<OwnerId, TweenError> {
        self.get(handle).map(Playing::owner)
    }

    /// How many passes the tween has finished (the `count` of its last `TweenLooped`).
    pub fn loops_done(&self, handle: TweenHandle) -> Result<u32, TweenError> {
        self.get(handle).map(Playing::passes)
    }

    /// The index of the first step of the group running now, or of the group that begins at the
    /// next update (0 before the first update and after a loop boundary).
    pub fn current_step(&self, handle: TweenHandle) -> Result<usize, TweenError> {
        self.get(handle).map(Playing::group)
    }

    /// The value value step `step` last wrote: interpolated while it runs, its end value once it
    /// has ended in this pass or, for a step not yet reached in this pass, in the previous one.
    ///
    /// Errors: the handle's ([`TweenError::Handle`]), [`TweenError::NoSuchStep`],
    /// [`TweenError::NotAValue`] for a delay or a call, [`TweenError::NotStarted`] for a step not
    /// reached yet in the first pass.
    pub fn value(&self, handle: TweenHandle, step: usize) -> Result<PropertyValue<S>, TweenError> {
        self.get(handle)?.value(step)
    }

    /// The number of running tweens.
    pub fn len(&self) -> usize {
        self.pool.len()
    }

    /// Whether no tween is running.
    pub fn is_empty(&self) -> bool {
        self.pool.is_empty()
    }

    /// The maximum number of running tweens, `N`.
    pub const fn capacity(&self) -> usize {
        N
    }
}
