//! What a state machine is made of: parameters, states and transitions with compiled conditions,
//! read by index through the [`MachineSource`] trait; [`SliceMachine`] holds them in RAM.

use crate::scalar::Scalar;

/// A parameter's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ParamKind {
    /// A number.
    #[default]
    Float,
    /// True or false (compares as 1 and 0).
    Bool,
    /// Set by the game, cleared when a transition whose condition uses it is taken.
    Trigger,
}

/// A parameter as the runtime reads it.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ParamInfo<S> {
    /// Its type.
    pub kind: ParamKind,
    /// Its value when the machine is created: the number for a Float; for a Bool or a Trigger,
    /// any non-zero value is true (set).
    pub default: S,
}

/// A state as the runtime reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StateInfo {
    /// The string id of its name (in a blob, an index into the string table).
    pub name_id: u32,
    /// The sprite animation (index in the target's [`SpriteSource`](crate::sprite::SpriteSource))
    /// played from its start when the state is entered.
    pub animation: Option<usize>,
}

/// Where a transition may be taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TransitionFrom {
    /// Only from this state (a transition to the same state re-enters it).
    State(usize),
    /// `*`: from any state *other* than the transition's target.
    Any,
}

/// A comparison operator of a [`Clause::Compare`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// `a OP b` (with f32 NaN, every operator but `!=` is false, as IEEE-754 compares).
    pub fn apply<S: Scalar>(self, a: S, b: S) -> bool {
        match self {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Lt => a < b,
            CompareOp::Le => a <= b,
            CompareOp::Gt => a > b,
            CompareOp::Ge => a >= b,
        }
    }
}

/// One clause of a compiled condition; a condition holds when all its clauses hold (`and`).
/// Parameters are referred to by index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clause<S> {
    /// `name`: a Bool that is true or a Trigger that is set (a Float: non-zero).
    Param(usize),
    /// `!name`: a Bool that is false or a Trigger that is not set (a Float: zero).
    NotParam(usize),
    /// `name OP value`: a Float by its value, a Bool as 1 or 0. A Trigger in a comparison is
    /// invalid (the host refuses to compile it); the kernel treats such a clause as false.
    Compare {
        /// The parameter's index.
        param: usize,
        /// The operator.
        op: CompareOp,
        /// The number on the right.
        value: S,
    },
}

impl<S> Clause<S> {
    /// The parameter the clause reads.
    pub fn param(&self) -> usize {
        match *self {
            Clause::Param(p) | Clause::NotParam(p) | Clause::Compare { param: p, .. } => p,
        }
    }
}

/// A transition as the runtime reads it; its clauses are read one by one with
/// [`MachineSource::clause`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransitionInfo<S> {
    /// Where it may be taken from.
    pub from: TransitionFrom,
    /// The state it goes to.
    pub to: usize,
    /// How many clauses its condition has (0: the condition always holds).
    pub clause_count: usize,
    /// Not before this many seconds in the state (≤ 0: no wait).
    pub after: S,
    /// Only once the state's sprite animation ended.
    pub on_finished: bool,
    /// Cross-fade duration in seconds, for skeletal blending later (as the third argument of
    /// EVEngine's `AnimStateMachine.addTransition(from, to, duration)`). Stored and exposed only:
    /// the sprite-driving runtime switches at once.
    pub crossfade: S,
    /// Exit time, for skeletal use later (EVEngine's `setExitTime`; by the Unity convention it
    /// follows, a normalized time of the source state's clip, 1 = one clip length). Stored and
    /// exposed only: it does not gate the transition in this runtime (use `after` / `on_finished`).
    pub exit_time: Option<S>,
}

/// Read-only state machine definition a [`StateMachine`](super::StateMachine) runs: implemented
/// over caller-owned slices by [`SliceMachine`], and (next) over a blob read in place from flash.
/// Everything is read by index and returned by value, so a word-addressed blob can implement it
/// without allocating.
///
/// Implementations must not panic; out-of-range indices return `None`.
pub trait MachineSource<S: Scalar> {
    /// The state the machine starts in.
    fn start_state(&self) -> usize;
    /// The number of parameters.
    fn param_count(&self) -> usize;
    /// Parameter `index`.
    fn param(&self, index: usize) -> Option<ParamInfo<S>>;
    /// The index of the parameter called `name`.
    fn find_param(&self, name: &str) -> Option<usize>;
    /// The number of states.
    fn state_count(&self) -> usize;
    /// State `index`.
    fn state(&self, index: usize) -> Option<StateInfo>;
    /// The index of the state called `name`.
    fn find_state(&self, name: &str) -> Option<usize>;
    /// The number of transitions (checked in index order).
    fn transition_count(&self) -> usize;
    /// Transition `index`.
    fn transition(&self, index: usize) -> Option<TransitionInfo<S>>;
    /// Clause `clause` of transition `transition`'s condition.
    fn clause(&self, transition: usize, clause: usize) -> Option<Clause<S>>;
}

/// A parameter held in caller-owned memory, for [`SliceMachine`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamDef<'a, S> {
    /// The name it is set by.
    pub name: &'a str,
    /// Its type.
    pub kind: ParamKind,
    /// Its starting value (see [`ParamInfo::default`]).
    pub default: S,
}

impl<'a, S: Scalar> ParamDef<'a, S> {
    /// A Float parameter starting at `value`.
    pub fn float(name: &'a str, value: S) -> Self {
        Self { name, kind: ParamKind::Float, default: value }
    }
    /// A Bool parameter starting at `value`.
    pub fn bool(name: &'a str, value: bool) -> Self {
        Self { name, kind: ParamKind::Bool, default: if value { S::ONE } else { S::ZERO } }
    }
    /// A Trigger parameter, not set.
    pub fn trigger(name: &'a str) -> Self {
        Self { name, kind: ParamKind::Trigger, default: S::ZERO }
    }
}

/// A state held in caller-owned memory, for [`SliceMachine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateDef<'a> {
    /// The name it is found by.
    pub name: &'a str,
    /// See [`StateInfo::name_id`] (0 unless given).
    pub name_id: u32,
    /// See [`StateInfo::animation`].
    pub animation: Option<usize>,
}

impl<'a> StateDef<'a> {
    /// A state without an animation, name id 0.
    pub const fn new(name: &'a str) -> Self {
        Self { name, name_id: 0, animation: None }
    }
    /// Sets the sprite animation it plays.
    pub const fn animation(mut self, animation: usize) -> Self {
        self.animation = Some(animation);
        self
    }
    /// Sets the name's string id.
    pub const fn name_id(mut self, name_id: u32) -> Self {
        self.name_id = name_id;
        self
    }
}

/// A transition held in caller-owned memory, for [`SliceMachine`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransitionDef<'a, S> {
    /// See [`TransitionInfo::from`].
    pub from: TransitionFrom,
    /// See [`TransitionInfo::to`].
    pub to: usize,
    /// The condition's clauses, joined by `and`.
    pub when: &'a [Clause<S>],
    /// See [`TransitionInfo::after`].
    pub after: S,
    /// See [`TransitionInfo::on_finished`].
    pub on_finished: bool,
    /// See [`TransitionInfo::crossfade`].
    pub crossfade: S,
    /// See [`TransitionInfo::exit_time`].
    pub exit_time: Option<S>,
}

impl<'a, S: Scalar> TransitionDef<'a, S> {
    /// A transition from `from` to `to` that always holds (no clauses, no wait, no cross-fade).
    pub fn new(from: TransitionFrom, to: usize) -> Self {
        Self { from, to, when: &[], after: S::ZERO, on_finished: false, crossfade: S::ZERO, exit_time: None }
    }
    /// Sets the condition's clauses.
    pub fn when(mut self, when: &'a [Clause<S>]) -> Self {
        self.when = when;
        self
    }
    /// Sets the seconds to wait in the state.
    pub fn after(mut self, after: S) -> Self {
        self.after = after;
        self
    }
    /// Sets whether it waits for the state's animation to end.
    pub fn on_finished(mut self, on_finished: bool) -> Self {
        self.on_finished = on_finished;
        self
    }
    /// Sets the cross-fade duration.
    pub fn crossfade(mut self, crossfade: S) -> Self {
        self.crossfade = crossfade;
        self
    }
    /// Sets the exit time.
    pub fn exit_time(mut self, exit_time: S) -> Self {
        self.exit_time = Some(exit_time);
        self
    }
}

/// A [`MachineSource`] over caller-owned slices (tests, and machines built in code). Indices are
/// positions in the slices; `find_*` return the first with the name.
///
/// ```
/// use ossicle::statemachine::{Clause, CompareOp, MachineSource, ParamDef, SliceMachine, StateDef, TransitionDef, TransitionFrom};
/// let params = [ParamDef::float("speed", 0.0f32)];
/// let states = [StateDef::new("idle").animation(0), StateDef::new("run").animation(1)];
/// let fast = [Clause::Compare { param: 0, op: CompareOp::Gt, value: 10.0 }];
/// let transitions = [TransitionDef::new(TransitionFrom::State(0), 1).when(&fast).crossfade(0.15)];
/// let machine = SliceMachine::new(&params, &states, &transitions, 0);
/// assert_eq!(machine.find_state("run"), Some(1));
/// assert_eq!(machine.transition(0).map(|t| t.crossfade), Some(0.15));
/// assert_eq!(machine.clause(0, 0), Some(fast[0]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SliceMachine<'a, S> {
    /// The parameters.
    pub params: &'a [ParamDef<'a, S>],
    /// The states.
    pub states: &'a [StateDef<'a>],
    /// The transitions, in the order they are checked.
    pub transitions: &'a [TransitionDef<'a, S>],
    /// The start state's index.
    pub start: usize,
}

impl<'a, S> SliceMachine<'a, S> {
    /// A machine over these slices, starting in state `start`.
    pub const fn new(
        params: &'a [ParamDef<'a, S>],
        states: &'a [StateDef<'a>],
        transitions: &'a [TransitionDef<'a, S>],
        start: usize,
    ) -> Self {
        Self { params, states, transitions, start }
    }
}

impl<S: Scalar> MachineSource<S> for SliceMachine<'_, S> {
    fn start_state(&self) -> usize {
        self.start
    }

    fn param_count(&self) -> usize {
        self.params.len()
    }

    fn param(&self, index: usize) -> Option<ParamInfo<S>> {
        self.params.get(index).map(|p| ParamInfo { kind: p.kind, default: p.default })
    }

    fn find_param(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    fn state_count(&self) -> usize {
        self.states.len()
    }

    fn state(&self, index: usize) -> Option<StateInfo> {
        self.states.get(index).map(|s| StateInfo { name_id: s.name_id, animation: s.animation })
    }

    fn find_state(&self, name: &str) -> Option<usize> {
        self.states.iter().position(|s| s.name == name)
    }

    fn transition_count(&self) -> usize {
        self.transitions.len()
    }

    fn transition(&self, index: usize) -> Option<TransitionInfo<S>> {
        self.transitions.get(index).map(|t| TransitionInfo {
            from: t.from,
            to: t.to,
            clause_count: t.when.len(),
            after: t.after,
            on_finished: t.on_finished,
            crossfade: t.crossfade,
            exit_time: t.exit_time,
        })
    }

    fn clause(&self, transition: usize, clause: usize) -> Option<Clause<S>> {
        self.transitions.get(transition)?.when.get(clause).copied()
    }
}
