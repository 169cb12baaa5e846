//! State machines: parameters, states and transitions with compiled conditions, driving sprite players.
//!
//! The Odin engine's `StateMachine` node: a machine keeps one of a set of states and moves between
//! them by transitions whose conditions read parameters the game sets. The definition is read
//! through a [`MachineSource`] (in RAM: [`SliceMachine`]; next, a blob in flash), so a
//! [`StateMachine`] holds only its run state and its parameter values.
//!
//! # Semantics
//!
//! - **Parameters**: Float, Bool and Trigger ([`ParamKind`]), starting at their defaults, set by
//!   index or by name ([`set_float`](StateMachine::set_float), [`set_bool`](StateMachine::set_bool),
//!   [`set_trigger`](StateMachine::set_trigger)). A trigger stays set until a transition whose
//!   condition *uses* it (any clause naming it) is taken; taking another transition leaves it set.
//! - **Conditions**: clauses joined by `and` ([`Clause`]): `name` (a Bool that is true, a Trigger
//!   that is set), `!name`, `name OP number` (a Bool compares as 1 or 0). A Trigger in a comparison
//!   is refused by the host; the kernel treats the clause as false. A clause naming a parameter that
//!   does not exist, or a clause the source cannot read, is false. No clauses: the condition holds.
//! - **Update** ([`update`](StateMachine::update)): first a pending entry is carried out (the start
//!   state on the first update, or the state a [`travel`](StateMachine::travel) went to): its
//!   StateExited (after a travel) and StateEntered events, and its animation played from its start.
//!   Then `dt` is added to the time in state, *then* the transitions are checked in order, so
//!   `after` compares the time including this `dt`: a transition with `after = 0.2` is taken by the
//!   update that brings the time to exactly 0.2 (`time ≥ after`). The first transition that holds is
//!   taken, at most one per update. A transition holds when it may leave the current state (its
//!   `from` is the current state, or `*` and its `to` is another state: a `*` transition never
//!   re-enters the state it leads to), its `to` exists, its `after` has elapsed, with `on_finished`
//!   the target sprite player's current animation is this state's animation and
//!   [`is_finished`](SpritePlayer::is_finished) (a state without an animation, or an update without
//!   a target, never finishes), and its condition holds.
//! - **Taking a transition**: StateExited(old), the triggers its condition uses are cleared,
//!   StateEntered(new), the time in state is reset to 0 (the rest of this `dt` is *not* given to the
//!   new state: the next update is the first to advance it), and the new state's animation is played
//!   with restart on the target sprite player. A transition from a state to itself re-enters it.
//! - **Travel**: [`travel`](StateMachine::travel) goes to a state now ([`current`](StateMachine::current)
//!   changes and the time in state is 0 at once), also to the current one (re-entering it); like
//!   the sprite player's control calls, the events and the animation follow at the next update,
//!   which then advances the new state by its whole `dt` and checks transitions as usual. Several
//!   travels before an update exit the state last entered once and enter the last one.
//! - **Time**: a negative or NaN `dt` counts as 0. In Q16.16 the time in state saturates at
//!   32767.99998 s.
//! - **Sprite player**: the target is optional; its animation errors (an index the sprite source
//!   does not have, an empty animation) are ignored: the player keeps what it played. The player is
//!   not updated by the machine: update it yourself (before the machine, so `on_finished` sees the
//!   end in the same frame).
//!
//! Crossfade durations and exit times are stored on transitions for skeletal use later
//! ([`TransitionInfo::crossfade`], [`TransitionInfo::exit_time`]); this runtime does not use them.
//!
//! # Memory
//!
//! A machine is [`StateMachine::BYTES`] bytes: 29 bytes plus 5 bytes per parameter slot `P`
//! (4 for its value, 1 for its kind), rounded up to a multiple of 4, for `f32` and Q16.16 alike,
//! on a 32-bit microcontroller and on a 64-bit host (`P = 4`: 52 bytes; `P = 8`: 72). The
//! definition stays in the source and costs the machine nothing.
//!
//! # Example
//!
//! ```
//! use ossicle::event::{Event, EventQueue};
//! use ossicle::sprite::{Frames, SliceSource, SpriteAnimation, SpritePlayer};
//! use ossicle::statemachine::*;
//! let anims = [
//!     SpriteAnimation::new("idle", Frames::Range { start: 0, end: 1 }, 4.0f32).looping(true),
//!     SpriteAnimation::new("run", Frames::Range { start: 2, end: 5 }, 12.0f32).looping(true),
//! ];
//! let sprites = SliceSource::new(&anims);
//! let params = [ParamDef::float("speed", 0.0f32)];
//! let states = [StateDef::new("idle").animation(0), StateDef::new("run").animation(1)];
//! let fast = [Clause::Compare { param: 0, op: CompareOp::Gt, value: 10.0 }];
//! let transitions = [TransitionDef::new(TransitionFrom::State(0), 1).when(&fast)];
//! let def = SliceMachine::new(&params, &states, &transitions, 0);
//! let mut sm: StateMachine<f32, 4> = StateMachine::new(1, def.start_state(), &def).unwrap();
//! let mut player = SpritePlayer::new(7);
//! let mut q: EventQueue<8> = EventQueue::new();
//! sm.update(0.1, &def, Some((&mut player, &sprites)), &mut q);
//! assert_eq!(q.pop(), Some(Event::StateEntered { machine: 1, state: 0 }));
//! sm.set_float_named(&def, "speed", 12.0).unwrap();
//! assert_eq!(sm.update(0.1, &def, Some((&mut player, &sprites)), &mut q), Some(0));
//! assert!(sm.is(1));
//! assert_eq!(player.current(), Some(1));
//! ```

mod source;

pub use source::{
    Clause, CompareOp, MachineSource, ParamDef, ParamInfo, ParamKind, SliceMachine, StateDef, StateInfo, TransitionDef,
    TransitionFrom, TransitionInfo,
};

use core::fmt;

use crate::event::{Event, EventQueue};
use crate::scalar::Scalar;
use crate::sprite::{SpritePlayer, SpriteSource};

/// Why a state machine refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MachineError {
    /// No state has that index or name.
    NoSuchState,
    /// No parameter has that index or name.
    NoSuchParam,
    /// The parameter is of another kind than the setter's.
    WrongKind {
        /// The parameter's kind.
        kind: ParamKind,
    },
    /// The definition has more parameters than the machine's `P` slots.
    TooManyParams {
        /// The definition's parameter count.
        needed: usize,
        /// The machine's `P`.
        capacity: usize,
    },
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineError::NoSuchState => f.write_str("no such state"),
            MachineError::NoSuchParam => f.write_str("no such parameter"),
            MachineError::WrongKind { kind } => write!(f, "the parameter is a {kind:?}"),
            MachineError::TooManyParams { needed, capacity } => {
                write!(f, "the machine has {needed} parameters but room for {capacity}")
            }
        }
    }
}

/// A parameter's current value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue<S> {
    /// A Float's value.
    Float(S),
    /// A Bool's value.
    Bool(bool),
    /// Whether a Trigger is set.
    Trigger(bool),
}

/// The run state of one state machine: current state, time in it, and up to `P` parameter values
/// stored inline. See the [module documentation](self) for the semantics.
///
/// ```
/// use ossicle::event::{Event, EventQueue};
/// use ossicle::statemachine::*;
/// let params = [ParamDef::<f32>::trigger("go")];
/// let states = [StateDef::new("a"), StateDef::new("b")];
/// let go = [Clause::Param(0)];
/// let transitions = [TransitionDef::new(TransitionFrom::Any, 1).when(&go)];
/// let def = SliceMachine::new(&params, &states, &transitions, 0);
/// let mut sm: StateMachine<f32, 2> = StateMachine::new(3, 0, &def).unwrap();
/// let mut q: EventQueue<8> = EventQueue::new();
/// sm.set_trigger(0).unwrap();
/// assert_eq!(sm.update_alone(0.5, &def, &mut q), Some(0)); // enters a, then goes to b
/// assert_eq!(sm.value(0), Some(ParamValue::Trigger(false))); // used, so cleared
/// let got: Vec<Event> = q.drain().collect();
/// assert_eq!(got, [
///     Event::StateEntered { machine: 3, state: 0 },
///     Event::StateExited { machine: 3, state: 0 },
///     Event::StateEntered { machine: 3, state: 1 },
/// ]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StateMachine<S, const P: usize> {
    id: u32,
    current: u32,
    state_count: u32,
    param_count: u32,
    time: S,
    /// The state whose exit a travel left for the next update.
    pending_exit: Option<u32>,
    values: [S; P],
    kinds: [ParamKind; P],
    /// The current state is still to be entered (start, or after a travel).
    pending_enter: bool,
}

/// A sprite player with the source it plays from.
type Target<'p, 'k, S, Src> = Option<(&'p mut SpritePlayer<'k, S>, &'p Src)>;

impl<S: Scalar, const P: usize> StateMachine<S, P> {
    /// The size of a machine in bytes (see the [module documentation](self#memory)).
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// A machine for `source`, in state `start_state` (usually `source.start_state()`), to be
    /// entered by the first update, with every parameter at its default; `id` is the `machine`
    /// field of its events.
    pub fn new<M: MachineSource<S> + ?Sized>(id: u32, start_state: usize, source: &M) -> Result<Self, MachineError> {
        let needed = source.param_count();
        if needed > P {
            return Err(MachineError::TooManyParams { needed, capacity: P });
        }
        let state_count = u32::try_from(source.state_count()).map_err(|_| MachineError::NoSuchState)?;
        let current = u32::try_from(start_state).map_err(|_| MachineError::NoSuchState)?;
        if current >= state_count {
            return Err(MachineError::NoSuchState);
        }
        let mut sm = Self {
            id,
            current,
            state_count,
            param_count: u32::try_from(needed).map_err(|_| MachineError::NoSuchParam)?,
            time: S::ZERO,
            pending_exit: None,
            values: [S::ZERO; P],
            kinds: [ParamKind::Float; P],
            pending_enter: true,
        };
        sm.reset_params(source);
        Ok(sm)
    }

    /// Puts every parameter back to its default from `source` (triggers: cleared unless their
    /// default is set).
    pub fn reset_params<M: MachineSource<S> + ?Sized>(&mut self, source: &M) {
        for (i, (v, k)) in self.values.iter_mut().zip(self.kinds.iter_mut()).enumerate() {
            let info = source.param(i).unwrap_or_default();
            *k = info.kind;
            *v = match info.kind {
                ParamKind::Float => info.default,
                _ if info.default != S::ZERO => S::ONE,
                _ => S::ZERO,
            };
        }
    }

    /// The id given to [`new`](Self::new).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The current state's index.
    pub fn current(&self) -> usize {
        self.current as usize
    }

    /// Whether the current state is `state`.
    pub fn is(&self, state: usize) -> bool {
        self.current() == state
    }

    /// Seconds spent in the current state (0 right after entering it).
    pub fn time_in_state(&self) -> S {
        self.time
    }

    /// Whether the current state is still to be entered by the next update (before the first
    /// update, and after a [`travel`](Self::travel)).
    pub fn entry_pending(&self) -> bool {
        self.pending_enter
    }

    /// The number of parameters of the definition.
    pub fn param_count(&self) -> usize {
        self.param_count as usize
    }

    fn slot(&self, index: usize) -> Result<ParamKind, MachineError> {
        if index >= self.param_count() {
            return Err(MachineError::NoSuchParam);
        }
        self.kinds.get(index).copied().ok_or(MachineError::NoSuchParam)
    }

    fn write(&mut self, index: usize, value: S) {
        if let Some(v) = self.values.get_mut(index) {
            *v = value;
        }
    }

    /// Parameter `index`'s value.
    pub fn value(&self, index: usize) -> Option<ParamValue<S>> {
        let kind = self.slot(index).ok()?;
        let v = self.values.get(index).copied()?;
        Some(match kind {
            ParamKind::Float => ParamValue::Float(v),
            ParamKind::Bool => ParamValue::Bool(v != S::ZERO),
            ParamKind::Trigger => ParamValue::Trigger(v != S::ZERO),
        })
    }

    fn set_kind(&mut self, index: usize, want: ParamKind, value: S) -> Result<(), MachineError> {
        let kind = self.slot(index)?;
        if kind != want {
            return Err(MachineError::WrongKind { kind });
        }
        self.write(index, value);
        Ok(())
    }

    /// Sets Float parameter `index`.
    pub fn set_float(&mut self, index: usize, value: S) -> Result<(), MachineError> {
        self.set_kind(index, ParamKind::Float, value)
    }

    /// Sets Bool parameter `index`.
    pub fn set_bool(&mut self, index: usize, value: bool) -> Result<(), MachineError> {
        self.set_kind(index, ParamKind::Bool, if value { S::ONE } else { S::ZERO })
    }

    /// Sets Trigger parameter `index` (it stays set until a transition that uses it is taken).
    pub fn set_trigger(&mut self, index: usize) -> Result<(), MachineError> {
        self.set_kind(index, ParamKind::Trigger, S::ONE)
    }

    /// Clears Trigger parameter `index` without taking a transition.
    pub fn clear_trigger(&mut self, index: usize) -> Result<(), MachineError> {
        self.set_kind(index, ParamKind::Trigger, S::ZERO)
    }

    /// [`set_float`](Self::set_float) by name.
    pub fn set_float_named<M: MachineSource<S> + ?Sized>(
        &mut self,
        source: &M,
        name: &str,
        value: S,
    ) -> Result<(), MachineError> {
        self.set_float(source.find_param(name).ok_or(MachineError::NoSuchParam)?, value)
    }

    /// [`set_bool`](Self::set_bool) by name.
    pub fn set_bool_named<M: MachineSource<S> + ?Sized>(
        &mut self,
        source: &M,
        name: &str,
        value: bool,
    ) -> Result<(), MachineError> {
        self.set_bool(source.find_param(name).ok_or(MachineError::NoSuchParam)?, value)
    }

    /// [`set_trigger`](Self::set_trigger) by name.
    pub fn set_trigger_named<M: MachineSource<S> + ?Sized>(
        &mut self,
        source: &M,
        name: &str,
    ) -> Result<(), MachineError> {
        self.set_trigger(source.find_param(name).ok_or(MachineError::NoSuchParam)?)
    }

    /// Goes to `state` now, also when it is the current state (re-entering it): the time in state
    /// is 0 at once; the next update emits StateExited (of the state last entered) and
    /// StateEntered, and plays the state's animation from its start.
    pub fn travel(&mut self, state: usize) -> Result<(), MachineError> {
        let s = u32::try_from(state).map_err(|_| MachineError::NoSuchState)?;
        if s >= self.state_count {
            return Err(MachineError::NoSuchState);
        }
        if !self.pending_enter {
            self.pending_exit = Some(self.current);
        }
        self.pending_enter = true;
        self.current = s;
        self.time = S::ZERO;
        Ok(())
    }

    /// [`travel`](Self::travel) by name.
    pub fn travel_named<M: MachineSource<S> + ?Sized>(&mut self, source: &M, name: &str) -> Result<(), MachineError> {
        self.travel(source.find_state(name).ok_or(MachineError::NoSuchState)?)
    }

    /// Parameter `index`'s value for a condition, with its kind.
    fn read(&self, index: usize) -> Option<(ParamKind, S)> {
        Some((self.slot(index).ok()?, self.values.get(index).copied()?))
    }

    fn clause_holds(&self, clause: Clause<S>) -> bool {
        match clause {
            Clause::Param(p) => self.read(p).is_some_and(|(_, v)| v != S::ZERO),
            Clause::NotParam(p) => self.read(p).is_some_and(|(_, v)| v == S::ZERO),
            Clause::Compare { param, op, value } => match self.read(param) {
                Some((ParamKind::Trigger, _)) | None => false,
                Some((_, v)) => op.apply(v, value),
            },
        }
    }

    fn condition_holds<M: MachineSource<S> + ?Sized>(&self, source: &M, t: usize, clauses: usize) -> bool {
        (0..clauses).all(|k| source.clause(t, k).is_some_and(|c| self.clause_holds(c)))
    }

    fn clear_used_triggers<M: MachineSource<S> + ?Sized>(&mut self, source: &M, t: usize, clauses: usize) {
        for k in 0..clauses {
            let Some(c) = source.clause(t, k) else {
                break;
            };
            let p = c.param();
            if self.slot(p) == Ok(ParamKind::Trigger) {
                self.write(p, S::ZERO);
            }
        }
    }

    fn enter<M, Src, const N: usize>(&mut self, source: &M, target: &mut Target<'_, '_, S, Src>, q: &mut EventQueue<N>)
    where
        M: MachineSource<S> + ?Sized,
        Src: SpriteSource<S> + ?Sized,
    {
        q.push(Event::StateEntered { machine: self.id, state: self.current });
        self.time = S::ZERO;
        let animation = source.state(self.current()).and_then(|s| s.animation);
        if let (Some(a), Some((player, sprites))) = (animation, target.as_mut()) {
            // An animation the sprite source refuses is ignored (see the module docs).
            let _ = player.play(*sprites, a, true);
        }
    }

    /// Whether the target plays the current state's animation and it ended.
    fn finished<M, Src>(&self, source: &M, target: &Target<'_, '_, S, Src>) -> bool
    where
        M: MachineSource<S> + ?Sized,
        Src: SpriteSource<S> + ?Sized,
    {
        let animation = source.state(self.current()).and_then(|s| s.animation);
        match (animation, target) {
            (Some(a), Some((player, _))) => player.current() == Some(a) && player.is_finished(),
            _ => false,
        }
    }

    /// Carries out a pending entry, advances the time in state by `dt`, then takes the first
    /// transition that holds (see the [module documentation](self)), playing entered states'
    /// animations on `target` (a sprite player and its source). Returns the index of the
    /// transition taken.
    pub fn update<M, Src, const N: usize>(
        &mut self,
        dt: S,
        source: &M,
        mut target: Target<'_, '_, S, Src>,
        q: &mut EventQueue<N>,
    ) -> Option<usize>
    where
        M: MachineSource<S> + ?Sized,
        Src: SpriteSource<S> + ?Sized,
    {
        let dt = if dt > S::ZERO { dt } else { S::ZERO };
        if self.pending_enter {
            if let Some(state) = self.pending_exit.take() {
                q.push(Event::StateExited { machine: self.id, state });
            }
            self.pending_enter = false;
            self.enter(source, &mut target, q);
        }
        self.time = self.time.add(dt);
        let taken = (0..source.transition_count()).find(|&t| {
            let Some(info) = source.transition(t) else {
                return false;
            };
            let leaves = match info.from {
                TransitionFrom::State(s) => s == self.current(),
                TransitionFrom::Any => info.to != self.current(),
            };
            leaves
                && info.to < self.state_count as usize
                && !(info.after > S::ZERO && self.time < info.after)
                && (!info.on_finished || self.finished(source, &target))
                && self.condition_holds(source, t, info.clause_count)
        })?;
        let info = source.transition(taken)?;
        let to = u32::try_from(info.to).ok()?;
        q.push(Event::StateExited { machine: self.id, state: self.current });
        self.clear_used_triggers(source, taken, info.clause_count);
        self.current = to;
        self.enter(source, &mut target, q);
        Some(taken)
    }

    /// [`update`](Self::update) without a sprite player (`on_finished` transitions never hold).
    pub fn update_alone<M: MachineSource<S> + ?Sized, const N: usize>(
        &mut self,
        dt: S,
        source: &M,
        q: &mut EventQueue<N>,
    ) -> Option<usize> {
        self.update::<M, crate::sprite::SliceSource<'_, S>, N>(dt, source, None, q)
    }
}
