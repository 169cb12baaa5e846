//! `ossicle trace`: runs a script against a blob's scene with the kernel's trace runner
//! (`ossicle::scene::trace`; script format and output: docs/trace.md).

use crate::error::HostError;
use crate::inspect;
use ossicle::scene::{trace, Scene};
use ossicle::{Asset, Scalar, Q16};
use ossicle_format::ScalarEncoding;
use std::path::Path;

/// The most nodes a traced scene may have.
pub const MAX_NODES: usize = 512;
/// The most Animators, machines and sprite players a traced scene may have (each).
pub const MAX_CONTROLLERS: usize = 64;
/// The most parameters per state machine.
pub const MAX_PARAMS: usize = 32;
/// The most distinct `script.<field>` names a traced scene may have.
pub const MAX_SCRIPT_FIELDS: usize = 16;

/// Runs `script` (read from `script_path`) against scene `scene` (default: the first) of the blob
/// `bytes` (read from `blob_path`). Returns the trace (one JSON line per step); on an error the
/// steps before it are in `partial`.
pub fn trace(
    blob_path: &Path,
    bytes: &[u8],
    scene: Option<&str>,
    script_path: &Path,
    script: &str,
    partial: &mut String,
) -> Result<u32, HostError> {
    let asset = inspect::load(blob_path, bytes)?;
    let blob_scene = match scene {
        Some(name) => asset.scene_named(name).ok_or_else(|| {
            let names: Vec<&str> = asset.scenes().map(|s| s.name()).collect();
            HostError::file(
                blob_path,
                format!(
                    "no scene {name:?} in the blob (scenes: {})",
                    if names.is_empty() { "none".into() } else { names.join(", ") }
                ),
            )
        })?,
        None => asset
            .scene(0)
            .ok_or_else(|| HostError::file(blob_path, "the blob holds no scene (build a scene XML file into it)"))?,
    };
    match asset.encoding() {
        ScalarEncoding::F32 => run::<f32>(&asset, blob_scene, blob_path, script_path, script, partial),
        ScalarEncoding::Q16_16 => run::<Q16>(&asset, blob_scene, blob_path, script_path, script, partial),
    }
}

fn run<S: Scalar>(
    asset: &Asset<'_>,
    blob_scene: ossicle::scene::BlobScene<'_>,
    blob_path: &Path,
    script_path: &Path,
    script: &str,
    out: &mut String,
) -> Result<u32, HostError> {
    let mut scene: Box<Scene<'_, S, MAX_NODES, MAX_CONTROLLERS, MAX_PARAMS, MAX_SCRIPT_FIELDS>> =
        Box::new(Scene::new(asset, blob_scene).map_err(|e| HostError::file(blob_path, e.to_string()))?);
    trace::run(&mut scene, script, out).map_err(|e| {
        // A step that failed after it began (too many events) left its line unfinished: only
        // the complete steps before it are kept.
        out.truncate(out.rfind('\n').map_or(0, |i| i + 1));
        HostError::at(script_path, format!("line {}", e.line), {
            let text = e.to_string();
            text.split_once(": ").map_or(text.clone(), |(_, r)| r.to_string())
        })
    })
}
