//! Puts memory.x on the linker's search path and embeds the blobs the firmware runs on.
//!
//! The blobs are built by the host CLI (`scripts/qemu/check.sh` does it; `check.sh --blobs-only`
//! builds nothing else):
//!
//! - the workload's, from `samples/foundation.json`: paths from `OSSICLE_BLOB_Q16` and
//!   `OSSICLE_BLOB_F32`, or `target/blobs/foundation-q16.osb` and `target/blobs/foundation-f32.osb`
//!   in this folder;
//! - the sprite blobs of [`SPRITE_BLOBS`] (`src/sprites.rs`), from the sample sprites: each from its
//!   variable `OSSICLE_SPRITES_*`, or `target/blobs/sprites-<label>.osb`.
//!
//! - the scene image's (`src/bin/scene.rs`), from `samples/scenes/castle.scene.xml` in Q16.16 and
//!   f32: `OSSICLE_SCENE_Q16` and `OSSICLE_SCENE_F32`, or `target/blobs/castle-q16.osb` and
//!   `target/blobs/castle-f32.osb`; and the script it runs, `OSSICLE_SCENE_SCRIPT` or
//!   `samples/scenes/castle.script`;
//! - the scene benchmark's (`src/bin/bench-scene.rs`), from `scenes/bench.scene.xml` in this folder:
//!   `OSSICLE_BENCH_SCENE_Q16` and `OSSICLE_BENCH_SCENE_F32`, or `target/blobs/bench-scene-q16.osb`
//!   and `target/blobs/bench-scene-f32.osb` (it embeds the castle blobs too);
//! - the skeletal benchmarks' (`src/skel.rs`, `src/bin/bench-skel-{f32,q16}.rs`), from Mixamo's SlowRun
//!   (`../shared/fixtures/eva/SlowRun.eva`, built only when the fixtures are there): lossless
//!   (`--scalar q16|f32`) and reduced and quantised (`--reduce 0.01 --quantize`), from
//!   `OSSICLE_SKEL_Q16`, `OSSICLE_SKEL_F32`, `OSSICLE_SKEL_Q16_RQ` and `OSSICLE_SKEL_F32_RQ`, or
//!   `target/blobs/slowrun-<type>.osb` and `target/blobs/slowrun-<type>-rq.osb`; the skeletal
//!   conformance image (`src/skeltrace.rs`) embeds them too, with the stick figure
//!   (`samples/skeletal`): `OSSICLE_FIGURE_Q16` and `OSSICLE_FIGURE_F32`, or
//!   `target/blobs/figure-<type>.osb`.
//!
//! When one of the first two is missing, the `ossicle-qemu` binary does not compile (a
//! `compile_error!` names what to do); when a sprite blob is missing, neither `sprites` (the sprite
//! image) nor `bench-sprite` compiles; when a castle blob or the script is missing, `scene` and `bench-scene`
//! do not compile, when a bench scene blob is missing, `bench-scene` does not, and when a SlowRun
//! blob is missing, `bench-skel-f32` and `bench-skel-q16` do not (the `skeleton-*` images then embed
//! empty files and skips the SlowRun runs); when a stick figure blob is missing, `skeleton-q16` and `skeleton-f32` do not. The `bench` and `bench-anim` binaries need no blob.

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
    println!("cargo::rustc-check-cfg=cfg(ossicle_sprite_blobs_missing)");
    let mut sprites_missing = Vec::new();
    for (var, label) in SPRITE_BLOBS {
        println!("cargo:rerun-if-env-changed={var}");
        let src = match env::var_os(var) {
            Some(p) => PathBuf::from(p),
            None => manifest.join(format!("target/blobs/sprites-{label}.osb")),
        };
        println!("cargo:rerun-if-changed={}", src.display());
        let dst = out.join(format!("sprites-{label}.osb"));
        if src.is_file() {
            fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        } else {
            sprites_missing.push(format!("{var} = {}", src.display()));
            write_empty(&dst);
        }
    }
    if !sprites_missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_sprite_blobs_missing");
        println!(
            "cargo:warning=sprite blob(s) missing ({}): build them with `scripts/qemu/check.sh --blobs-only`",
            sprites_missing.join(", ")
        );
    }
    println!("cargo::rustc-check-cfg=cfg(ossicle_scene_blobs_missing)");
    println!("cargo::rustc-check-cfg=cfg(ossicle_bench_scene_blobs_missing)");
    let mut scene_missing = Vec::new();
    for (var, default, name) in SCENE_FILES {
        if !embed(&manifest, &out, var, default, name) {
            scene_missing.push(format!("{var} = {}", source(&manifest, var, default).display()));
        }
    }
    if !scene_missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_scene_blobs_missing");
        println!(
            "cargo:warning=scene file(s) missing ({}): build them with `scripts/qemu/check.sh --blobs-only`",
            scene_missing.join(", ")
        );
    }
    let mut bench_missing = Vec::new();
    for (var, default, name) in BENCH_SCENE_BLOBS {
        if !embed(&manifest, &out, var, default, name) {
            bench_missing.push(format!("{var} = {}", source(&manifest, var, default).display()));
        }
    }
    if !bench_missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_bench_scene_blobs_missing");
        println!(
            "cargo:warning=bench scene blob(s) missing ({}): build them with `scripts/qemu/check.sh --blobs-only`",
            bench_missing.join(", ")
        );
    }
    println!("cargo::rustc-check-cfg=cfg(ossicle_skel_blobs_missing)");
    let mut skel_missing = Vec::new();
    for (var, default, name) in SKEL_BLOBS {
        if !embed(&manifest, &out, var, default, name) {
            skel_missing.push(format!("{var} = {}", source(&manifest, var, default).display()));
        }
    }
    println!("cargo::rustc-check-cfg=cfg(ossicle_skeleton_blobs_missing)");
    let mut figure_missing = Vec::new();
    for (var, default, name) in FIGURE_BLOBS {
        if !embed(&manifest, &out, var, default, name) {
            figure_missing.push(format!("{var} = {}", source(&manifest, var, default).display()));
        }
    }
    if !figure_missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_skeleton_blobs_missing");
        println!(
            "cargo:warning=stick figure blob(s) missing ({}): build them with `scripts/qemu/check.sh --blobs-only`",
            figure_missing.join(", ")
        );
    }
    if !skel_missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_skel_blobs_missing");
        println!(
            "cargo:warning=SlowRun blob(s) missing ({}): only bench-skel-f32 and bench-skel-q16 need them; build them with `scripts/qemu/check.sh --blobs-only` (needs the fixtures)",
            skel_missing.join(", ")
        );
    }
    if !missing.is_empty() {
        println!("cargo:rustc-cfg=ossicle_blobs_missing");
        println!(
            "cargo:warning=blob(s) missing ({}): build them with scripts/qemu/check.sh, or set OSSICLE_BLOB_Q16 / OSSICLE_BLOB_F32 to blobs built by `ossicle build samples/foundation.json --scalar q16|f32`",
            missing.join(", ")
        );
    }
}

/// The sprite blobs: (environment variable, label). `scripts/qemu/check.sh` builds
/// `target/blobs/sprites-<label>.osb` from the sample sprites with the options the label names, and
/// `tests/tests/qemu_sprites.rs` builds the same blobs when the variables are not set:
///
/// - `q16-auto`: coin and slime, `--scalar q16` (the smallest lossless storage: indexed 4 and 2 with
///   a colour key);
/// - `f32-mask`: slime, `--scalar f32 --pixels rgb565be --rle never --transparency mask`;
/// - `q16-i8rle`: coin and slime, `--scalar q16 --pixels indexed8 --rle always`;
/// - `f32-565le`: coin and slime, `--scalar f32 --pixels rgb565le` (colour key, RLE where smaller).
const SPRITE_BLOBS: [(&str, &str); 4] = [
    ("OSSICLE_SPRITES_Q16_AUTO", "q16-auto"),
    ("OSSICLE_SPRITES_F32_MASK", "f32-mask"),
    ("OSSICLE_SPRITES_Q16_I8RLE", "q16-i8rle"),
    ("OSSICLE_SPRITES_F32_565LE", "f32-565le"),
];

/// The scene image's files: (environment variable, default path from this folder, name in `OUT_DIR`).
/// `scripts/qemu/check.sh` builds the blobs from `samples/scenes/castle.scene.xml` with
/// `--scalar q16|f32`, and `tests/tests/qemu_scene.rs` builds the same blobs when the variables are
/// not set.
const SCENE_FILES: [(&str, &str, &str); 3] = [
    ("OSSICLE_SCENE_Q16", "target/blobs/castle-q16.osb", "castle-q16.osb"),
    ("OSSICLE_SCENE_F32", "target/blobs/castle-f32.osb", "castle-f32.osb"),
    ("OSSICLE_SCENE_SCRIPT", "../../samples/scenes/castle.script", "castle.script"),
];

/// The scene benchmark's blobs, built from `scenes/bench.scene.xml` with `--scalar q16|f32`.
const BENCH_SCENE_BLOBS: [(&str, &str, &str); 2] = [
    ("OSSICLE_BENCH_SCENE_Q16", "target/blobs/bench-scene-q16.osb", "bench-scene-q16.osb"),
    ("OSSICLE_BENCH_SCENE_F32", "target/blobs/bench-scene-f32.osb", "bench-scene-f32.osb"),
];

/// The skeletal conformance image's stick figure (`src/skeltrace.rs`), built from
/// `samples/skeletal/figure.eva`, `idle.evac` and `wave.evac` with `--scalar q16|f32`;
/// `tests/tests/qemu_skeleton.rs` builds the same blobs when the variables are not set. The image
/// also embeds the SlowRun blobs of [`SKEL_BLOBS`] (empty when the fixtures were not there).
const FIGURE_BLOBS: [(&str, &str, &str); 2] = [
    ("OSSICLE_FIGURE_Q16", "target/blobs/figure-q16.osb", "figure-q16.osb"),
    ("OSSICLE_FIGURE_F32", "target/blobs/figure-f32.osb", "figure-f32.osb"),
];

/// The skeletal benchmark's blobs, built from `../shared/fixtures/eva/SlowRun.eva` with
/// `--scalar q16|f32`, lossless and with `--reduce 0.01 --quantize` (`-rq`).
const SKEL_BLOBS: [(&str, &str, &str); 4] = [
    ("OSSICLE_SKEL_Q16", "target/blobs/slowrun-q16.osb", "slowrun-q16.osb"),
    ("OSSICLE_SKEL_F32", "target/blobs/slowrun-f32.osb", "slowrun-f32.osb"),
    ("OSSICLE_SKEL_Q16_RQ", "target/blobs/slowrun-q16-rq.osb", "slowrun-q16-rq.osb"),
    ("OSSICLE_SKEL_F32_RQ", "target/blobs/slowrun-f32-rq.osb", "slowrun-f32-rq.osb"),
];

/// The file `var` names, or `default` in this folder.
fn source(manifest: &Path, var: &str, default: &str) -> PathBuf {
    match env::var_os(var) {
        Some(p) => PathBuf::from(p),
        None => manifest.join(default),
    }
}

/// Copies the file `var` names (or `default`) to `OUT_DIR/name`; when it is missing, writes an empty
/// file there and returns false.
fn embed(manifest: &Path, out: &Path, var: &str, default: &str, name: &str) -> bool {
    println!("cargo:rerun-if-env-changed={var}");
    let src = source(manifest, var, default);
    println!("cargo:rerun-if-changed={}", src.display());
    let dst = out.join(name);
    if src.is_file() {
        fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        true
    } else {
        write_empty(&dst);
        false
    }
}

fn write_empty(path: &Path) {
    fs::write(path, []).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}
