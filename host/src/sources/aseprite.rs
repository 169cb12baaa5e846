//! Placeholder until the Aseprite sources land.
use crate::error::HostError;
use crate::ir::Project;
use std::path::Path;

/// Not yet supported.
pub fn parse(path: &Path, _bytes: &[u8]) -> Result<Project, HostError> {
    Err(HostError::file(path, "not yet supported"))
}
