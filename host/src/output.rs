//! Writing output files atomically: a failed command never leaves or damages an output file.

use crate::error::{io_reason, HostError};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same directory, renamed into place
/// only after everything was written and synced. On any error the previous file (if any) is intact
/// and no temporary file is left behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), HostError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(HostError::file(path, format!("output directory {} does not exist", dir.display())));
    }
    if path.is_dir() {
        return Err(HostError::file(path, "output path is a directory"));
    }
    let mut tmp = tempfile::Builder::new().prefix(".ossicle-").suffix(".tmp").tempfile_in(dir).map_err(|e| {
        HostError::file(path, format!("cannot create a temporary file in {}: {}", dir.display(), io_reason(&e)))
    })?;
    tmp.write_all(bytes).map_err(|e| HostError::file(path, format!("cannot write: {}", io_reason(&e))))?;
    tmp.as_file().sync_all().map_err(|e| HostError::file(path, format!("cannot write: {}", io_reason(&e))))?;
    tmp.persist(path)
        .map_err(|e| HostError::file(path, format!("cannot replace the output: {}", io_reason(&e.error))))?;
    Ok(())
}
