//! IR -> blob bytes: the one writer every source goes through.

mod anims;
mod scene;
pub mod skeleton;

pub use anims::{encode_animations, played_frames};
pub use scene::encode_scene;
pub use skeleton::{SkelClipReport, SkelOptions, SkeletonReport};

use crate::error::HostError;
use crate::ir::Project;
use crate::pixels::{encode_sprite, EncodeReport, PixelOptions};
use ossicle_format::{BlobWriter, ScalarEncoding};

/// How [`write_blob_with`] writes a blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The scalar encoding.
    pub encoding: ScalarEncoding,
    /// How sprite pixels are stored.
    pub pixels: PixelOptions,
}

impl WriteOptions {
    /// Default pixel storage (the smallest lossless form) with `encoding` scalars.
    pub fn new(encoding: ScalarEncoding) -> Self {
        Self { encoding, pixels: PixelOptions::default() }
    }
}

/// What a blob holds and what it costs, per sprite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WriteReport {
    /// One entry per sprite, in blob order.
    pub sprites: Vec<SpriteReport>,
    /// One entry per scene: its name and section bytes.
    pub scenes: Vec<(String, usize)>,
    /// One entry per skeleton, in blob order.
    pub skeletons: Vec<SkeletonReport>,
    /// One entry per skeletal clip, in blob order.
    pub skel_clips: Vec<SkelClipReport>,
}

/// A sprite's storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteReport {
    /// The sprite's name.
    pub name: String,
    /// The pixel format chosen.
    pub format: ossicle_format::sprite::PixelFormat,
    /// The transparency chosen.
    pub transparency: ossicle_format::sprite::Transparency,
    /// Bytes of the whole sprite section body (pixels, records, animations, encoding overhead).
    pub section_bytes: usize,
    /// The pixel encoder's report (flash bytes of the pixels, candidates, per frame).
    pub pixels: EncodeReport,
    /// Frames.
    pub frames: usize,
    /// Animations.
    pub animations: usize,
}

/// Encodes `project` as a blob with `encoding` scalars.
///
/// Every value must be representable: finite, and for Q16.16 within `[-32768, 32767.99998]`; an
/// error names the source file and the place of the first value that is not.
pub fn write_blob(project: &Project, encoding: ScalarEncoding) -> Result<Vec<u8>, HostError> {
    write_blob_with(project, &WriteOptions::new(encoding)).map(|(bytes, _)| bytes)
}

/// Encodes `project` as a blob with the given options, and reports what each sprite costs.
/// Skeletal sections are written with the default [`SkelOptions`] (lossless, each EVAC clip bound
/// to the build's only skeleton).
///
/// The blob is read back through the kernel's loader before it is returned, so a blob this
/// returns always loads.
pub fn write_blob_with(project: &Project, opts: &WriteOptions) -> Result<(Vec<u8>, WriteReport), HostError> {
    write_blob_skeletal(project, opts, &SkelOptions::default())
}

/// [`write_blob_with`] with options for the skeletal sections: 16-bit quantisation of key values,
/// and the skeleton EVAC clips bind to (see [`skeleton`]).
pub fn write_blob_skeletal(
    project: &Project,
    opts: &WriteOptions,
    skeletal: &SkelOptions,
) -> Result<(Vec<u8>, WriteReport), HostError> {
    let encoding = opts.encoding;
    let mut w = BlobWriter::new(encoding);
    let mut report = WriteReport::default();
    for s in &project.strings {
        w.intern(s);
    }
    for t in &project.tests {
        let mut words = Vec::with_capacity(t.values.len());
        for (i, &v) in t.values.iter().enumerate() {
            let word = encoding.encode_f64(v).ok_or_else(|| {
                let range = match encoding {
                    ScalarEncoding::Q16_16 => "Q16.16 holds -32768 to 32767.99998",
                    ScalarEncoding::F32 => "f32 holds finite values up to 3.4e38",
                };
                HostError::at(
                    &t.origin.file,
                    format!("{}/{i}", t.origin.place),
                    format!("value {v} does not fit the {} encoding ({range})", encoding.name()),
                )
            })?;
            words.push(word);
        }
        w.add_test_section(&t.name, &words)
            .map_err(|e| HostError::at(&t.origin.file, &t.origin.place, e.to_string()))?;
    }
    let mut names = std::collections::BTreeMap::new();
    for sprite in &project.sprites {
        let here = || (sprite.origin.file.clone(), sprite.origin.place.clone());
        if let Some((file, _)) = names.insert(sprite.name.clone(), here()) {
            return Err(HostError::at(
                &sprite.origin.file,
                &sprite.origin.place,
                format!(
                    "a sprite called {:?} is already defined by {}",
                    sprite.name,
                    std::path::Path::new(&file).display()
                ),
            ));
        }
        let encoded = encode_sprite(sprite, &opts.pixels)?;
        let name = w.intern(&sprite.name);
        let (animations, words) = encode_animations(sprite, &mut w, encoding)?;
        let body = encoded.body(name, &animations, &words);
        let before = postcard::to_stdvec(&body).map(|b| b.len()).unwrap_or(0);
        w.add_sprite(&body).map_err(|e| HostError::at(&sprite.origin.file, &sprite.origin.place, e.to_string()))?;
        report.sprites.push(SpriteReport {
            name: sprite.name.clone(),
            format: encoded.format,
            transparency: encoded.transparency,
            section_bytes: before,
            pixels: encoded.report.clone(),
            frames: sprite.frames.len(),
            animations: sprite.animations.len(),
        });
    }
    let (skeletons, clips) = skeleton::encode_all(&project.skeletons, &project.skel_clips, skeletal, &mut w, encoding)?;
    report.skeletons = skeletons;
    report.skel_clips = clips;
    let mut scene_names = std::collections::BTreeMap::new();
    for scene in &project.scenes {
        if let Some(file) = scene_names.insert(scene.name.clone(), scene.file.clone()) {
            return Err(HostError::at(
                &scene.file,
                &scene.place,
                format!("a scene called {:?} is already defined by {}", scene.name, file.display()),
            ));
        }
        let bytes = encode_scene(scene, &project.sprites, &mut w, encoding)?;
        report.scenes.push((scene.name.clone(), bytes));
    }
    let bytes = w.finish().map_err(|e| HostError::file("<output>", e.to_string()))?;
    // Every blob the host writes must load: a writer bug is caught here, not on a device.
    ossicle::asset::Asset::load(&bytes)
        .map_err(|e| HostError::file("<output>", format!("internal error: the written blob does not load: {e}")))?;
    Ok((bytes, report))
}
