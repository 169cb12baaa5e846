//! Puts memory.x on the linker's search path and embeds the two blobs the firmware runs on.
//!
//! The blobs are built from `samples/foundation.json` by the host CLI (scripts/qemu/check.sh does it):
//! their paths come from `OSSICLE_BLOB_Q16` and `OSSICLE_BLOB_F32`, or default to
//! `target/blobs/foundation-q16.osb` and `target/blobs/foundation-f32.osb` in this folder. When one is
//! missing, the `ossicle-qemu` binary does not compile (a `compile_error!` names what to do); the
//! `bench` binary needs no blob.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));

    fs::copy(manifest.join("memory.x"), out.join("memory.x")).expect("copy memory.x to OUT_DIR");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(ossicle_blobs_missing)");

    let mut missing = Vec::new();
    for (var, default, name) in [
        ("OSSICLE_BLOB_Q16", "target/blobs/foundation-q16.osb", "q16.osb"),
        ("OSSICLE_BLOB_F32", "target/blobs/foundation-f32.osb", "f32.osb"),
    ] {
        println!("cargo:rerun-if-env-changed={var}");
        let src = match env::var_os(var) {
            Some(p) => PathBuf::from(p),
            None => manifest.join(default),
        };
        println!("cargo:rerun-if-changed={}", src.display());
        let dst = out.join(name);
        if src.is_file() {
            fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        } else {
            missing.push(format!("{var} = {}", src.display()));
            write_empty(&dst);
        }
    }
    if !missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_blobs_missing");
        println!(
            "cargo:warning=blob(s) missing ({}): build them with scripts/qemu/check.sh, or set OSSICLE_BLOB_Q16 / OSSICLE_BLOB_F32 to blobs built by `ossicle build samples/foundation.json --scalar q16|f32`",
            missing.join(", ")
        );
    }
}

fn write_empty(path: &Path) {
    fs::write(path, []).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}
