//! Why a tween operation failed.

use core::fmt;

use crate::pool::PoolError;

/// Why a tween could not be started, or a handle could not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TweenError {
    /// The builder was given more steps than its `STEPS` capacity.
    TooManySteps {
        /// The step capacity (`STEPS`).
        capacity: usize,
        /// How many steps were added.
        requested: usize,
    },
    /// Every slot of the pool holds a running tween.
    PoolFull {
        /// The pool's capacity (`N`).
        capacity: usize,
    },
    /// The handle does not name a running tween: it finished or was killed (stale), or it came
    /// from another pool.
    Handle(PoolError),
    /// The tween has no step with this index.
    NoSuchStep {
        /// The index asked for.
        index: usize,
        /// How many steps the tween has.
        steps: usize,
    },
    /// The step is a `delay` or a `call`: it has no value.
    NotAValue {
        /// The step's index.
        index: usize,
    },
    /// The step has not begun yet in the tween's first pass, so it has written no value.
    NotStarted {
        /// The step's index.
        index: usize,
    },
}

impl From<PoolError> for TweenError {
    fn from(e: PoolError) -> Self {
        match e {
            PoolError::Full { capacity } => Self::PoolFull { capacity },
            other => Self::Handle(other),
        }
    }
}

impl fmt::Display for TweenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooManySteps { capacity, requested } => {
                write!(f, "tween has {requested} steps but room for {capacity}")
            }
            Self::PoolFull { capacity } => write!(f, "tween pool is full ({capacity} tweens running)"),
            Self::Handle(e) => write!(f, "tween handle: {e}"),
            Self::NoSuchStep { index, steps } => write!(f, "tween has no step {index} (it has {steps})"),
            Self::NotAValue { index } => write!(f, "tween step {index} is a delay or a call, not a value"),
            Self::NotStarted { index } => write!(f, "tween step {index} has not begun yet"),
        }
    }
}
