//! Helpers shared by the integration tests (each test crate uses only some of them).
#![allow(dead_code)]

pub mod skel;
