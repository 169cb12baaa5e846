//! ossicle: a `no_std`, allocation-free animation kernel for microcontrollers and handhelds.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod math;
pub mod scalar;

pub use scalar::{Scalar, Q16};
