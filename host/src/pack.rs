//! `ossicle pack`: a folder of numbered PNGs -> one packed atlas PNG and a TexturePacker-style JSON
//! (Hash format) describing it, the same atlas the PNG-folder source builds internally: frames
//! alpha-trimmed with their offsets kept, packed with a 1-pixel extruded edge
//! ([`crate::atlas`]). Building the JSON gives the same sprite as building the folder.

use crate::atlas;
use crate::error::HostError;
use crate::render::png_bytes;
use crate::sources::pngseq;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The files of folder `dir` that packing reads: its PNGs.
pub fn frame_files(dir: &Path) -> Result<Vec<PathBuf>, HostError> {
    let names = pngseq::list_dir(dir)?;
    Ok(names
        .into_iter()
        .filter(|n| n.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")))
        .map(|n| dir.join(n))
        .collect())
}

/// The packed atlas of folder `dir`: `(png bytes, json bytes)`. `image` is the PNG's file name as
/// the JSON's `meta.image` names it (relative to the JSON).
pub fn pack_folder(dir: &Path, image: &str) -> Result<(Vec<u8>, Vec<u8>), HostError> {
    let project = pngseq::load(dir)?;
    let sprite = project.sprites.into_iter().next().ok_or_else(|| HostError::file(dir, "no sprite in the folder"))?;
    let images: Vec<_> = sprite.frames.iter().map(|f| f.image.clone()).collect();
    let packed = atlas::pack(&images).map_err(|e| HostError::file(dir, format!("{e:?}")))?;
    let mut frames = Map::new();
    let mut names = Vec::with_capacity(sprite.frames.len());
    for (f, r) in sprite.frames.iter().zip(&packed.rects) {
        let name = f.origin.file.file_name().and_then(|n| n.to_str()).unwrap_or("frame").to_string();
        let trimmed = f.image.width != sprite.width || f.image.height != sprite.height;
        frames.insert(
            name.clone(),
            json!({
                "frame": { "x": r.x, "y": r.y, "w": r.width, "h": r.height },
                "rotated": false,
                "trimmed": trimmed,
                "spriteSourceSize": { "x": f.x, "y": f.y, "w": r.width, "h": r.height },
                "sourceSize": { "w": sprite.width, "h": sprite.height },
            }),
        );
        names.push(Value::String(name));
    }
    let mut animations = Map::new();
    let anim = sprite.animations.first().map_or("default", |a| a.name.as_str());
    animations.insert(anim.to_string(), Value::Array(names));
    let doc = json!({
        "frames": frames,
        "animations": animations,
        "meta": {
            "app": "ossicle pack",
            "version": env!("CARGO_PKG_VERSION"),
            "image": image,
            "format": "RGBA8888",
            "size": { "w": packed.image.width, "h": packed.image.height },
            "scale": "1",
        },
    });
    let png = png_bytes(&packed.image).map_err(|e| HostError::file(dir, e))?;
    let json = serde_json::to_vec_pretty(&doc).map_err(|e| HostError::file(dir, e.to_string()))?;
    Ok((png, json))
}
