//! The ossicle host toolchain: source parsers -> IR -> blob, and the `ossicle` CLI's commands.
//!
//! Data flows one way: [`sources`] parse files into [`ir::Project`], [`write::write_blob`] turns the
//! IR into blob bytes, and [`inspect`] reads blobs back through the kernel's own loader.

pub mod atlas;
pub mod conditions;
pub mod error;
pub mod inspect;
pub mod ir;
pub mod output;
pub mod pack;
pub mod pixels;
pub mod reduce;
pub mod render;
pub mod sample;
#[cfg(feature = "sim")]
pub mod sim;
pub mod skeletal;
pub mod sources;
pub mod trace;
pub mod unity;
pub mod write;

pub use error::HostError;
