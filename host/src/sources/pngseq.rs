//! A folder of numbered PNGs (`frame_0.png`, `walk_0001.png`, ...) -> one sprite, packed into one atlas.
//!
//! Every `*.png` file in the folder is a frame; its name is any prefix followed by a number, and the
//! frames play in numeric order (gaps are allowed; two files with the same number, such as `frame_1.png`
//! and `frame_01.png`, are an error, and so are different prefixes or a PNG without a number). Other
//! files are ignored. All frames must have the same size, which becomes the sprite's canvas.
//!
//! Each frame is trimmed to the bounding box of its non-transparent pixels (its offset in the canvas is
//! kept; a fully transparent frame becomes one transparent pixel at 0, 0), the trimmed frames are packed
//! into one atlas with [`crate::atlas::pack`] and cut back out of it, so the IR holds exactly what the
//! atlas holds. The sprite is named after the folder and has one looping animation, `default`, of every
//! frame at [`DEFAULT_FPS`](crate::sources::texturepacker::DEFAULT_FPS); an `.anim.xml` whose sheet is the folder (`<sheet folder="..."/>`, see
//! `docs/anim-xml.md`) sets other animations, fps and modes.
//!
//! This module also holds the sprite sources' PNG decoding (crate-private until the shared PNG loader
//! replaces it).

use crate::atlas;
use crate::error::{io_reason, HostError};
use crate::ir::{Origin, Project, RgbaImage, Sprite, SpriteFrame, SpriteFrames};
use crate::sources::texturepacker::default_animation;
use ossicle_format::sprite::{MAX_SPRITE_FRAMES, MAX_SPRITE_SIZE};
use std::cmp::Ordering;
use std::path::{Path, PathBuf};

/// The most pixels one decoded image may have (a 4096 × 4096 page: 64 MiB of RGBA8), checked from
/// the PNG header before any pixel memory is reserved. Also the most pixels all frames of one sprite
/// source may have together.
pub const MAX_IMAGE_PIXELS: u64 = 1 << 24;

/// Reads a folder of numbered PNGs into a project with one sprite.
pub fn load(dir: &Path) -> Result<Project, HostError> {
    parse_with(dir, &list_dir(dir)?, read_png)
}

/// The names of the files in a folder.
pub(crate) fn list_dir(dir: &Path) -> Result<Vec<PathBuf>, HostError> {
    let entries = std::fs::read_dir(dir).map_err(|e| HostError::file(dir, io_reason(&e)))?;
    entries.map(|e| e.map(|e| PathBuf::from(e.file_name())).map_err(|e| HostError::file(dir, io_reason(&e)))).collect()
}

/// Builds the sprite of folder `dir` from the names of the files in it (any order) and a PNG loader
/// (called with `dir` joined to a name), so tests and fuzz targets need no folder.
pub fn parse_with(
    dir: &Path,
    file_names: &[PathBuf],
    load_png: impl Fn(&Path) -> Result<RgbaImage, HostError>,
) -> Result<Project, HostError> {
    let (sprite, _) = parse_sprite(dir, file_names, &load_png)?;
    Ok(Project { sprites: vec![sprite], ..Project::default() })
}

/// One numbered frame file: its name, the prefix before the number and the number's digits.
struct Numbered {
    name: String,
    prefix: String,
    digits: String,
}

/// Compares two digit strings by numeric value (any length, no overflow).
fn cmp_digits(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// The sprite of a folder and its frames' file names (used by `.anim.xml` sheets).
pub(crate) fn parse_sprite(
    dir: &Path,
    file_names: &[PathBuf],
    load_png: &dyn Fn(&Path) -> Result<RgbaImage, HostError>,
) -> Result<(Sprite, Vec<String>), HostError> {
    let mut files = Vec::new();
    for name in file_names {
        let is_png = name.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if !is_png {
            continue;
        }
        let (Some(stem), Some(file)) = (name.file_stem().and_then(|s| s.to_str()), name.to_str()) else {
            return Err(HostError::file(dir.join(name), "frame file name is not UTF-8"));
        };
        let prefix = stem.trim_end_matches(|c: char| c.is_ascii_digit());
        if prefix.len() == stem.len() {
            return Err(HostError::file(
                dir.join(name),
                "a PNG in a frame folder must be named PREFIX + frame number (like frame_0.png)",
            ));
        }
        files.push(Numbered {
            name: file.to_string(),
            prefix: prefix.to_string(),
            digits: stem[prefix.len()..].into(),
        });
    }
    if files.is_empty() {
        return Err(HostError::file(dir, "no numbered PNG frames (like frame_0.png) in this folder"));
    }
    if files.len() as u64 > u64::from(MAX_SPRITE_FRAMES) {
        return Err(HostError::file(
            dir,
            format!("{} frames, over the limit of {MAX_SPRITE_FRAMES} frames per sprite", files.len()),
        ));
    }
    files.sort_by(|a, b| cmp_digits(&a.digits, &b.digits).then_with(|| a.name.cmp(&b.name)));
    for pair in files.windows(2) {
        if pair[0].prefix != pair[1].prefix {
            return Err(HostError::file(
                dir.join(&pair[1].name),
                format!(
                    "frame names mix the prefixes {:?} and {:?}; one folder holds one numbered sequence",
                    pair[0].prefix, pair[1].prefix
                ),
            ));
        }
        if cmp_digits(&pair[0].digits, &pair[1].digits) == Ordering::Equal {
            return Err(HostError::file(
                dir.join(&pair[1].name),
                format!("frame number {} appears twice ({} and {})", pair[1].digits, pair[0].name, pair[1].name),
            ));
        }
    }

    // Load, check sizes and the pixel budget (known after the first frame), trim.
    let mut trimmed = Vec::with_capacity(files.len());
    let mut offsets = Vec::with_capacity(files.len());
    let (mut width, mut height) = (0, 0);
    for (i, f) in files.iter().enumerate() {
        let path = dir.join(&f.name);
        let image = load_png(&path)?;
        if i == 0 {
            (width, height) = (image.width, image.height);
            if width == 0 || height == 0 || width > MAX_SPRITE_SIZE || height > MAX_SPRITE_SIZE {
                return Err(HostError::file(
                    &path,
                    format!("frame is {width}×{height}; sprite sides must be 1 to {MAX_SPRITE_SIZE} pixels"),
                ));
            }
            let total = u64::from(width) * u64::from(height) * files.len() as u64;
            if total > MAX_IMAGE_PIXELS {
                return Err(HostError::file(
                    dir,
                    format!(
                        "{} frames of {width}×{height} are {total} pixels, over the limit of {MAX_IMAGE_PIXELS}",
                        files.len()
                    ),
                ));
            }
        } else if (image.width, image.height) != (width, height) {
            return Err(HostError::file(
                &path,
                format!(
                    "frame is {}×{} but {} is {width}×{height}; all frames must have the same size",
                    image.width, image.height, files[0].name
                ),
            ));
        }
        let (x, y, image) = trim(&image);
        offsets.push((x, y));
        trimmed.push(image);
    }

    let packed = atlas::pack(&trimmed).map_err(|e| HostError::file(dir, e.to_string()))?;
    let mut frames = Vec::with_capacity(files.len());
    for ((f, rect), (x, y)) in files.iter().zip(&packed.rects).zip(offsets) {
        let image = atlas::crop(&packed.image, rect.x, rect.y, rect.width, rect.height)
            .ok_or_else(|| HostError::file(dir.join(&f.name), "packed frame lies outside the atlas"))?;
        frames.push(SpriteFrame {
            image,
            x: x as i32,
            y: y as i32,
            duration: None,
            events: Vec::new(),
            origin: Origin { file: dir.join(&f.name), place: String::new() },
        });
    }
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("sequence").to_string();
    let count = frames.len() as u32;
    let sprite = Sprite {
        name,
        width,
        height,
        frames,
        animations: vec![default_animation(
            "default".to_string(),
            SpriteFrames::Range { start: 0, end: count - 1 },
            Origin { file: dir.to_path_buf(), place: String::new() },
        )],
        origin: Origin { file: dir.to_path_buf(), place: String::new() },
    };
    Ok((sprite, files.into_iter().map(|f| f.name).collect()))
}

/// Trims an image to the bounding box of its pixels with non-zero alpha: the box's top-left corner in
/// the image and its pixels. A fully transparent image gives one transparent pixel at 0, 0.
pub fn trim(image: &RgbaImage) -> (u32, u32, RgbaImage) {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 0..image.height {
        for x in 0..image.width {
            if image.get(x, y).is_some_and(|p| p[3] != 0) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    if x0 > x1 {
        return (0, 0, RgbaImage::new(1, 1));
    }
    let cut = atlas::crop(image, x0, y0, x1 - x0 + 1, y1 - y0 + 1).unwrap_or_default();
    (x0, y0, cut)
}

// PNG decoding is `png_util`'s (one decoder, one size limit for every sprite source).
pub(crate) use super::png_util::load_png as read_png;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_to_the_alpha_bounding_box() {
        let mut img = RgbaImage::new(5, 4);
        img.set(1, 2, [1, 1, 1, 1]);
        img.set(3, 1, [2, 2, 2, 255]);
        let (x, y, t) = trim(&img);
        assert_eq!((x, y, t.width, t.height), (1, 1, 3, 2));
        assert_eq!(t.get(0, 1), Some([1, 1, 1, 1]));
        assert_eq!(t.get(2, 0), Some([2, 2, 2, 255]));
        let (x, y, t) = trim(&RgbaImage::new(3, 3));
        assert_eq!((x, y, t), (0, 0, RgbaImage::new(1, 1)));
    }

    #[test]
    fn orders_frames_by_number_and_refuses_duplicates() {
        assert_eq!(cmp_digits("0010", "9"), Ordering::Greater);
        assert_eq!(cmp_digits("01", "1"), Ordering::Equal);
        let img = |_: &Path| Ok(RgbaImage { width: 1, height: 1, pixels: vec![[1, 2, 3, 4]] });
        let names: Vec<PathBuf> = ["f_10.png", "f_2.png", "notes.txt", "f_1.PNG"].iter().map(PathBuf::from).collect();
        let (sprite, files) = parse_sprite(Path::new("walk"), &names, &img).unwrap();
        assert_eq!(files, ["f_1.PNG", "f_2.png", "f_10.png"]);
        assert_eq!(sprite.name, "walk");
        let names: Vec<PathBuf> = ["f_1.png", "f_01.png"].iter().map(PathBuf::from).collect();
        let e = parse_sprite(Path::new("walk"), &names, &img).unwrap_err();
        assert!(e.reason.contains("appears twice"), "{e}");
        let names: Vec<PathBuf> = ["a_1.png", "b_2.png"].iter().map(PathBuf::from).collect();
        let e = parse_sprite(Path::new("walk"), &names, &img).unwrap_err();
        assert!(e.reason.contains("mix the prefixes"), "{e}");
        let names: Vec<PathBuf> = ["cover.png"].iter().map(PathBuf::from).collect();
        assert!(parse_sprite(Path::new("walk"), &names, &img).is_err());
    }
}
