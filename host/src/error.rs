//! Host errors: each names the file, the place in it and the reason, on one line.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error the host reports to the user: `FILE[:PLACE]: REASON`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError {
    /// The file concerned.
    pub file: PathBuf,
    /// Where in it: `line:column`, a JSON pointer, `byte N`, ... (empty when the whole file).
    pub place: String,
    /// What is wrong.
    pub reason: String,
}

impl HostError {
    /// An error about `file` as a whole.
    pub fn file(file: impl AsRef<Path>, reason: impl Into<String>) -> Self {
        Self { file: file.as_ref().to_path_buf(), place: String::new(), reason: reason.into() }
    }

    /// An error at `place` in `file`.
    pub fn at(file: impl AsRef<Path>, place: impl Into<String>, reason: impl Into<String>) -> Self {
        Self { file: file.as_ref().to_path_buf(), place: place.into(), reason: reason.into() }
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = self.reason.replace('\n', " ");
        if self.place.is_empty() {
            write!(f, "{}: {}", self.file.display(), reason)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.place, reason)
        }
    }
}

impl std::error::Error for HostError {}

/// Describes an I/O error without the OS's error number noise.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a file".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// A serde_json error as a host error at `line:column` (serde_json's own " at line L column C"
/// suffix moves to the place), with `prefix` before the reason for data errors (a document of the
/// wrong shape), e.g. "not an Aseprite sprite sheet: ".
pub fn json_error(path: &Path, e: &serde_json::Error, prefix: &str) -> HostError {
    let msg = e.to_string();
    let reason = match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    let reason = if e.is_data() { format!("{prefix}{reason}") } else { reason };
    if e.line() == 0 {
        HostError::file(path, reason)
    } else {
        HostError::at(path, format!("{}:{}", e.line(), e.column()), reason)
    }
}
