//! Writing output files atomically: a failed command never leaves or damages an output file.

use crate::error::{io_reason, HostError};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same directory, renamed into place
/// only after everything was written and synced. On any error the previous file (if any) is intact
/// and no temporary file is left behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), HostError> {
    write_files_atomically(&[(path, bytes)])
}

/// Writes several files as [`write_atomically`] writes one, all or none as far as the file system
/// allows: every file is written and synced to its temporary file before the first is renamed into
/// place, so an output that cannot be written (a missing folder, a directory in the way, a full disk)
/// leaves every existing output untouched.
pub fn write_files_atomically(files: &[(&Path, &[u8])]) -> Result<(), HostError> {
    let staged = files.iter().map(|(path, bytes)| stage(path, bytes)).collect::<Result<Vec<_>, _>>()?;
    for ((path, _), tmp) in files.iter().zip(staged) {
        tmp.persist(path)
            .map_err(|e| HostError::file(path, format!("cannot replace the output: {}", io_reason(&e.error))))?;
    }
    Ok(())
}

/// `bytes` written and synced to a temporary file beside `path`, with the permissions `path` will have.
fn stage(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile, HostError> {
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
    // The temporary file is private (0600); the output gets the old file's permissions, or those of
    // a normal new file.
    let perms = match std::fs::metadata(path) {
        Ok(m) => Some(m.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(perms) = perms {
        let _ = tmp.as_file().set_permissions(perms);
    }
    tmp.as_file().sync_all().map_err(|e| HostError::file(path, format!("cannot write: {}", io_reason(&e))))?;
    Ok(tmp)
}

/// Refuses an output path that names one of the command's input files (the same file through
/// another path too: a symbolic or hard link), before anything is read or written: writing the
/// output would replace that source.
pub fn refuse_input_as_output(output: &Path, inputs: &[&Path]) -> Result<(), HostError> {
    let Ok(out_meta) = std::fs::metadata(output) else {
        // A path that does not exist yet names no input.
        return Ok(());
    };
    let out_canon = std::fs::canonicalize(output).ok();
    for input in inputs {
        let Ok(in_meta) = std::fs::metadata(input) else { continue };
        let same_canon = out_canon.is_some() && std::fs::canonicalize(input).ok() == out_canon;
        if same_canon || same_inode(&out_meta, &in_meta) {
            return Err(HostError::file(
                output,
                format!(
                    "the output is also an input ({}): writing it would replace that source; choose another output path",
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses an output folder that is, or holds (at any depth), one of the command's input files,
/// before anything is written: the folder is replaced as a whole, which would delete that input.
pub fn refuse_input_in_output_dir(dir: &Path, inputs: &[&Path]) -> Result<(), HostError> {
    let Ok(dir_canon) = std::fs::canonicalize(dir) else {
        // A folder that does not exist yet holds no input.
        return Ok(());
    };
    for input in inputs {
        let Ok(in_canon) = std::fs::canonicalize(input) else { continue };
        if in_canon.starts_with(&dir_canon) {
            return Err(HostError::file(
                dir,
                format!(
                    "the output folder holds an input ({}): replacing the folder would delete that source; choose another output path",
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Whether two files' metadata describe the same file (device and inode).
#[cfg(unix)]
fn same_inode(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// Writes a folder of files: everything goes into a fresh temporary folder beside `dir`, which then
/// replaces `dir` (an existing folder is moved aside first and removed once the new one is in
/// place). On any error before the swap, an existing `dir` is untouched and nothing is left behind.
pub fn write_dir_atomically(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), HostError> {
    let parent = match dir.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(HostError::file(dir, format!("output directory {} does not exist", parent.display())));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(HostError::file(dir, "output path exists and is not a directory"));
    }
    let tmp = tempfile::Builder::new().prefix(".ossicle-").tempdir_in(parent).map_err(|e| {
        HostError::file(dir, format!("cannot create a temporary folder in {}: {}", parent.display(), io_reason(&e)))
    })?;
    for (name, bytes) in files {
        std::fs::write(tmp.path().join(name), bytes)
            .map_err(|e| HostError::file(dir.join(name), format!("cannot write: {}", io_reason(&e))))?;
    }
    let new = tmp.keep();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&new, std::fs::Permissions::from_mode(0o755));
    }
    let fail = |e: std::io::Error, new: &Path| {
        let _ = std::fs::remove_dir_all(new);
        HostError::file(dir, format!("cannot replace the output folder: {}", io_reason(&e)))
    };
    if dir.exists() {
        let old =
            tempfile::Builder::new().prefix(".ossicle-old-").tempdir_in(parent).map_err(|e| fail(e, &new))?.keep();
        std::fs::remove_dir(&old).map_err(|e| fail(e, &new))?;
        std::fs::rename(dir, &old).map_err(|e| fail(e, &new))?;
        if let Err(e) = std::fs::rename(&new, dir) {
            let _ = std::fs::rename(&old, dir);
            return Err(fail(e, &new));
        }
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(&new, dir).map_err(|e| fail(e, &new))?;
    }
    Ok(())
}

/// The permissions of a normal new file (the temporary file starts private).
#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}
