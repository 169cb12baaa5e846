//! Helpers shared by the host's integration tests.

use std::path::{Path, PathBuf};

/// The third-party fixtures (`OSSICLE_FIXTURES`, or `../shared/fixtures` beside the checkout), or
/// `None` with a message when absent; absence fails the test with `OSSICLE_REQUIRE_FIXTURES=1`.
pub fn fixtures() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default();
    let candidates = [std::env::var_os("OSSICLE_FIXTURES").map(PathBuf::from), Some(repo.join("../shared/fixtures"))];
    for dir in candidates.into_iter().flatten() {
        if dir.join("SOURCES.md").is_file() {
            return Some(dir);
        }
    }
    let msg = "fixtures not found: set OSSICLE_FIXTURES or place them at ../shared/fixtures";
    if std::env::var("OSSICLE_REQUIRE_FIXTURES").is_ok_and(|v| v == "1") {
        panic!("{msg} (required because OSSICLE_REQUIRE_FIXTURES=1)");
    }
    eprintln!("skipping: {msg}");
    None
}
