//! Why a motion or sequence operation failed.

use core::fmt;

use crate::pool::PoolError;

use super::spec::ValueKind;

/// Why a motion or sequence operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MotionError {
    /// The pool refused: it is full (starting), or the handle is stale (its motion finished, was
    /// completed or cancelled), foreign or out of range.
    Pool(PoolError),
    /// The motion produces another kind of value than the one asked for.
    WrongKind {
        /// The kind asked for.
        expected: ValueKind,
        /// The kind the motion produces.
        found: ValueKind,
    },
    /// The sequence already holds as many items as its capacity.
    SequenceFull {
        /// The sequence's capacity (`ITEMS`).
        capacity: usize,
    },
    /// A motion that loops forever cannot be a sequence item (it would never end).
    EndlessItem,
}

impl From<PoolError> for MotionError {
    fn from(e: PoolError) -> Self {
        Self::Pool(e)
    }
}

impl fmt::Display for MotionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pool(e) => write!(f, "motion pool: {e}"),
            Self::WrongKind { expected, found } => {
                write!(f, "the motion produces a {found:?} value, not a {expected:?} value")
            }
            Self::SequenceFull { capacity } => write!(f, "the sequence is full ({capacity} items)"),
            Self::EndlessItem => f.write_str("a motion that loops forever cannot be a sequence item"),
        }
    }
}
