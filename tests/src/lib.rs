//! Shared helpers for the conformance tests: locating the real third-party fixtures and building
//! blobs through the host exactly as the CLI does.
//!
//! Fixtures live outside the repository (`../shared/fixtures` beside the checkout, or the directory
//! named by `OSSICLE_FIXTURES`). A test that needs them calls [`fixtures`]: when they are absent it
//! says so and the test is skipped, unless `OSSICLE_REQUIRE_FIXTURES=1` (as CI sets), in which case
//! absence is a failure.

use ossicle_format::ScalarEncoding;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Whether `OSSICLE_REQUIRE_FIXTURES=1`.
pub fn fixtures_required() -> bool {
    std::env::var("OSSICLE_REQUIRE_FIXTURES").is_ok_and(|v| v == "1")
}

/// The fixtures directory, if present. Panics (failing the test) when absent and required.
pub fn fixtures() -> Option<PathBuf> {
    let candidates =
        [std::env::var_os("OSSICLE_FIXTURES").map(PathBuf::from), Some(repo_root().join("../shared/fixtures"))];
    for dir in candidates.into_iter().flatten() {
        if dir.join("SOURCES.md").is_file() {
            return Some(dir);
        }
    }
    let msg = "fixtures not found: set OSSICLE_FIXTURES or place them at ../shared/fixtures";
    if fixtures_required() {
        panic!("{msg} (required because OSSICLE_REQUIRE_FIXTURES=1)");
    }
    eprintln!("skipping: {msg}");
    None
}

/// Builds a blob from source files through the host, as `ossicle build` does.
pub fn build_blob(sources: &[&Path], encoding: ScalarEncoding) -> Result<Vec<u8>, ossicle_host::HostError> {
    let project = ossicle_host::sources::load_sources(sources)?;
    ossicle_host::write::write_blob(&project, encoding)
}

/// The bundled sample source.
pub fn sample_source() -> PathBuf {
    repo_root().join("samples/foundation.json")
}
