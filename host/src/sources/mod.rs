//! Source parsers: each turns one kind of artist or tool file into [`Project`] IR.

pub mod animxml;
pub mod pngseq;
pub mod testsrc;
pub mod texturepacker;

use crate::error::{io_reason, HostError};
use crate::ir::Project;
use std::io::Read;
use std::path::Path;

/// The largest source file the host reads (checked before reading).
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file of at most `limit` bytes, checking the size before reading anything.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, HostError> {
    let file = std::fs::File::open(path).map_err(|e| HostError::file(path, io_reason(&e)))?;
    let meta = file.metadata().map_err(|e| HostError::file(path, io_reason(&e)))?;
    if meta.is_dir() {
        return Err(HostError::file(path, "is a directory, not a file"));
    }
    if meta.len() > limit {
        return Err(HostError::file(path, format!("file is {} bytes, over the {limit}-byte limit", meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // `take` guards against a file that grows while it is read.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| HostError::file(path, io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(HostError::file(path, format!("file is over the {limit}-byte limit")));
    }
    Ok(bytes)
}

/// Reads and parses one source file, choosing the parser from its content.
pub fn load_source(path: &Path) -> Result<Project, HostError> {
    let bytes = read_limited(path, MAX_SOURCE_BYTES)?;
    parse_source(path, &bytes)
}

/// Reads and parses several source files into one project, in order (what `ossicle build` does
/// before writing the blob).
pub fn load_sources<P: AsRef<Path>>(paths: &[P]) -> Result<Project, HostError> {
    let mut project = Project::default();
    for path in paths {
        project.merge(load_source(path.as_ref())?);
    }
    Ok(project)
}

/// Parses source bytes that came from `path` (used for messages and to choose the parser).
pub fn parse_source(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "json" => testsrc::parse(path, bytes),
        _ => Err(HostError::file(
            path,
            format!(
                "unknown source type {:?}: supported sources are ossicle test sources ({} JSON, .json)",
                if ext.is_empty() { "(no extension)".to_string() } else { format!(".{ext}") },
                testsrc::FORMAT
            ),
        )),
    }
}
