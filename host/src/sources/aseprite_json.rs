//! Aseprite's JSON sprite-sheet export (`--data x.json --sheet x.png`), hash or array form, into
//! one sprite named after the JSON file's stem.
//!
//! ```json
//! { "frames": {
//!     "man 0.aseprite": {
//!       "frame": { "x": 0, "y": 0, "w": 16, "h": 24 }, "rotated": false, "trimmed": false,
//!       "spriteSourceSize": { "x": 0, "y": 0, "w": 16, "h": 24 }, "sourceSize": { "w": 16, "h": 24 },
//!       "duration": 100 } },
//!   "meta": { "image": "man.png", "size": { "w": 192, "h": 24 },
//!     "frameTags": [ { "name": "walk", "from": 0, "to": 0, "direction": "pingpong", "repeat": "2" } ] } }
//! ```
//!
//! - `frames` is an object keyed by file name (hash form, kept in document order) or an array
//!   whose items carry a `filename` (array form). Each frame's image is its `frame` rectangle of
//!   the sheet, placed at `spriteSourceSize`'s x/y in a canvas of `sourceSize` (the same for every
//!   frame). `rotated: true` is refused (Aseprite never rotates), and so is a `frame` whose size
//!   differs from its `spriteSourceSize` (inner padding). `duration` (milliseconds, > 0) is
//!   required: it becomes [`SpriteFrame::duration`] in seconds.
//! - `meta.image` is the sheet PNG, relative to the JSON's folder. Some exports hold the path the
//!   sheet was written to from the exporting command's folder instead (`countAndColours.json`,
//!   Aseprite 1.2.8: `examples/countAndColours.png`), so when that path does not exist the file
//!   name alone is tried in the JSON's folder. `meta.size`, when present, must be the PNG's size.
//! - `meta.frameTags` become animations exactly as tags do in [`super::aseprite`]: frames
//!   `from..=to`, `direction` `forward` (also when absent), `reverse`, `pingpong` or
//!   `pingpong_reverse`; `repeat` (a number or a string of digits, as Aseprite 1.3 writes it)
//!   absent or 0 loops, N > 0 plays N times. Without tags there is one looping `default` animation.
//! - `meta.layers[].cels[]` (`{ "frame": N, "data": "text" }`, cel user data that Aseprite lists for
//!   the exported layers) become frame events like cel user data in `.aseprite` files. The rest of
//!   `meta.layers` and `meta.slices` is informational and ignored.
//!
//! Syntax and type errors are placed by line and column; everything else by JSON pointer. Counts
//! and sizes are checked before pixels are copied: at most `MAX_SPRITE_FRAMES` frames, canvas
//! sides up to `MAX_SPRITE_SIZE`, and at most [`MAX_SPRITE_PIXELS`] frame pixels in all.

use super::aseprite::{split_events, sprite_name, MAX_SPRITE_PIXELS};
use super::png_util;
use crate::error::HostError;
use crate::ir::{Origin, PlayMode, Project, RgbaImage, Sprite, SpriteAnimation, SpriteFrame, SpriteFrames};
use ossicle_format::sprite::{MAX_SPRITE_FRAMES, MAX_SPRITE_SIZE};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The tag directions Aseprite writes.
pub const DIRECTIONS: [&str; 4] = ["forward", "reverse", "pingpong", "pingpong_reverse"];

/// Parses an Aseprite JSON export read from `path`, loading the sheet PNG it names from disk.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    parse_with(path, bytes, |png| if png.is_file() { png_util::load_png(png).map(Some) } else { Ok(None) })
}

/// Parses an Aseprite JSON export, getting the sheet image through `load_png`: `Ok(None)` when
/// there is no file at the path it is given (the next candidate path is tried), `Ok(Some(image))`
/// when it loaded, `Err` when the file is there but unusable. Tests and fuzzing use this to parse
/// without files.
pub fn parse_with(
    path: &Path,
    bytes: &[u8],
    load_png: impl Fn(&Path) -> Result<Option<RgbaImage>, HostError>,
) -> Result<Project, HostError> {
    // serde would also read a struct from an array; a sheet is an object.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()).is_some_and(|&b| b != b'{') {
        return Err(not_a_sheet(path, "the JSON is not an object"));
    }
    let sheet: Sheet = serde_json::from_slice(bytes)
        .map_err(|e| crate::error::json_error(path, &e, "not an Aseprite sprite sheet: "))?;
    let frames = sheet.frames.ok_or_else(|| not_a_sheet(path, "it has no \"frames\""))?;
    let meta = sheet.meta.ok_or_else(|| not_a_sheet(path, "it has no \"meta\""))?;
    let at = |place: String, reason: String| HostError::at(path, place, reason);

    // Frames, keyed by JSON pointer.
    let frames: Vec<(String, Frame)> = match frames {
        Frames::Hash(entries) => {
            let mut seen = HashMap::new();
            let mut out = Vec::with_capacity(entries.len());
            for (i, (name, frame)) in entries.into_iter().enumerate() {
                let pointer = format!("/frames/{}", escape_pointer(&name));
                if let Some(first) = seen.insert(name, i) {
                    return Err(at(pointer, format!("frame {i} has the same name as frame {first}")));
                }
                out.push((pointer, frame));
            }
            out
        }
        Frames::Array(frames) => frames.into_iter().enumerate().map(|(i, f)| (format!("/frames/{i}"), f)).collect(),
    };
    if frames.is_empty() {
        return Err(at("/frames".into(), "the sheet has no frames".into()));
    }

    // Geometry, from the JSON alone.
    let (first_pointer, first) = &frames[0];
    let canvas = first.source_size.unwrap_or(Size { w: first.frame.w, h: first.frame.h });
    for (side, name) in [(canvas.w, "width"), (canvas.h, "height")] {
        if side == 0 || side > MAX_SPRITE_SIZE {
            return Err(at(
                format!("{first_pointer}/sourceSize"),
                format!("canvas {name} {side} is outside 1..={MAX_SPRITE_SIZE}"),
            ));
        }
    }
    let mut pixels = 0u64;
    let mut placed = Vec::with_capacity(frames.len());
    for (pointer, f) in &frames {
        if f.rotated {
            return Err(at(
                format!("{pointer}/rotated"),
                "rotated frames are not supported (Aseprite never rotates frames; is this a TexturePacker sheet?)"
                    .into(),
            ));
        }
        let size = f.source_size.unwrap_or(Size { w: f.frame.w, h: f.frame.h });
        if (size.w, size.h) != (canvas.w, canvas.h) {
            return Err(at(
                format!("{pointer}/sourceSize"),
                format!("source size {}×{} differs from the first frame's {}×{}", size.w, size.h, canvas.w, canvas.h),
            ));
        }
        let source = f.sprite_source_size.unwrap_or(Rect { x: 0, y: 0, w: f.frame.w, h: f.frame.h });
        if (source.w, source.h) != (f.frame.w, f.frame.h) {
            return Err(at(
                format!("{pointer}/spriteSourceSize"),
                format!(
                    "{}×{} differs from the frame rectangle's {}×{} (inner padding is not supported)",
                    source.w, source.h, f.frame.w, f.frame.h
                ),
            ));
        }
        if u64::from(source.x) + u64::from(source.w) > u64::from(canvas.w)
            || u64::from(source.y) + u64::from(source.h) > u64::from(canvas.h)
        {
            return Err(at(
                format!("{pointer}/spriteSourceSize"),
                format!(
                    "{}×{} at {},{} is not inside the {}×{} canvas",
                    source.w, source.h, source.x, source.y, canvas.w, canvas.h
                ),
            ));
        }
        let duration = match f.duration {
            Some(ms) if ms.is_finite() && ms > 0.0 => ms / 1000.0,
            Some(ms) => return Err(at(format!("{pointer}/duration"), format!("duration {ms} ms is not positive"))),
            None => return Err(at(pointer.clone(), "the frame has no \"duration\"".into())),
        };
        pixels += u64::from(f.frame.w) * u64::from(f.frame.h);
        if pixels > MAX_SPRITE_PIXELS {
            return Err(at(
                format!("{pointer}/frame"),
                format!("the frames up to this one have over {MAX_SPRITE_PIXELS} pixels, the limit"),
            ));
        }
        placed.push((source.x, source.y, duration));
    }

    let animations = tags(path, &meta.frame_tags, &placed)?;
    let mut events = vec![Vec::new(); frames.len()];
    for (i, layer) in meta.layers.iter().enumerate() {
        for (j, cel) in layer.cels.iter().enumerate() {
            let Some(list) = events.get_mut(cel.frame as usize) else {
                return Err(at(
                    format!("/meta/layers/{i}/cels/{j}/frame"),
                    format!("frame {} does not exist (the sheet has {} frames)", cel.frame, frames.len()),
                ));
            };
            if let Some(text) = &cel.data {
                split_events(text, list);
            }
        }
    }

    // The sheet image.
    let (image_path, sheet) = load_sheet(path, &meta, &load_png)?;
    if let Some(size) = meta.size {
        if (size.w, size.h) != (sheet.width, sheet.height) {
            return Err(at(
                "/meta/size".into(),
                format!(
                    "meta.size is {}×{}, but {} is {}×{}",
                    size.w,
                    size.h,
                    image_path.display(),
                    sheet.width,
                    sheet.height
                ),
            ));
        }
    }
    let mut sprite_frames = Vec::with_capacity(frames.len());
    for (((pointer, f), (x, y, duration)), events) in frames.iter().zip(placed).zip(events) {
        let r = f.frame;
        if u64::from(r.x) + u64::from(r.w) > u64::from(sheet.width)
            || u64::from(r.y) + u64::from(r.h) > u64::from(sheet.height)
        {
            return Err(at(
                format!("{pointer}/frame"),
                format!(
                    "frame rectangle {}×{} at {},{} is outside the {}×{} sheet {}",
                    r.w,
                    r.h,
                    r.x,
                    r.y,
                    sheet.width,
                    sheet.height,
                    image_path.display()
                ),
            ));
        }
        let mut pixels = Vec::with_capacity(r.w as usize * r.h as usize);
        for row in r.y..r.y + r.h {
            let start = row as usize * sheet.width as usize + r.x as usize;
            let line = sheet.pixels.get(start..start + r.w as usize).unwrap_or(&[]);
            pixels.extend(line.iter().map(|&p| if p[3] == 0 { [0; 4] } else { p }));
        }
        sprite_frames.push(SpriteFrame {
            image: RgbaImage { width: r.w, height: r.h, pixels },
            // Both are at most MAX_SPRITE_SIZE (checked against the canvas above).
            x: x as i32,
            y: y as i32,
            duration: Some(duration),
            events,
            origin: Origin { file: path.to_path_buf(), place: pointer.clone() },
        });
    }
    Ok(Project {
        sprites: vec![Sprite {
            name: sprite_name(path),
            width: canvas.w,
            height: canvas.h,
            frames: sprite_frames,
            animations,
            origin: Origin { file: path.to_path_buf(), place: String::new() },
        }],
        ..Project::default()
    })
}

fn tags(path: &Path, tags: &[FrameTag], frames: &[(u32, u32, f64)]) -> Result<Vec<SpriteAnimation>, HostError> {
    let durations = |from: usize, to: usize| frames[from..=to].iter().map(|f| f.2).collect::<Vec<_>>();
    if tags.is_empty() {
        return Ok(vec![SpriteAnimation {
            name: "default".into(),
            frames: SpriteFrames::Range { start: 0, end: frames.len() as u32 - 1 },
            fps: 0.0,
            durations: Some(durations(0, frames.len() - 1)),
            looping: true,
            repeat: 0,
            mode: PlayMode::Forward,
            events: None,
            origin: Origin { file: path.to_path_buf(), place: "/frames".into() },
        }]);
    }
    let mut names = HashMap::new();
    let mut out = Vec::with_capacity(tags.len());
    for (i, t) in tags.iter().enumerate() {
        let pointer = format!("/meta/frameTags/{i}");
        let at = |field: &str, reason: String| HostError::at(path, format!("{pointer}/{field}"), reason);
        if t.name.is_empty() {
            return Err(at("name", "the tag has no name".into()));
        }
        if let Some(first) = names.insert(t.name.as_str(), i) {
            return Err(at(
                "name",
                format!("tag {first} has the same name {:?} (animation names must be unique)", t.name),
            ));
        }
        if t.from > t.to {
            return Err(at("from", format!("from {} is after to {}", t.from, t.to)));
        }
        if t.to as usize >= frames.len() {
            return Err(at(
                "to",
                format!(
                    "tag {:?} names frame {}, but the sheet has {} frames (0..={})",
                    t.name,
                    t.to,
                    frames.len(),
                    frames.len() - 1
                ),
            ));
        }
        let mode = match t.direction.as_deref().unwrap_or("forward") {
            "forward" => PlayMode::Forward,
            "reverse" => PlayMode::Reverse,
            "pingpong" => PlayMode::PingPong,
            "pingpong_reverse" => PlayMode::PingPongReverse,
            other => {
                return Err(at(
                    "direction",
                    format!("unknown direction {other:?}; valid directions are {}", DIRECTIONS.join(", ")),
                ))
            }
        };
        let repeat = match &t.repeat {
            None | Some(serde_json::Value::Null) => Some(0),
            Some(serde_json::Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
            Some(serde_json::Value::String(s)) => s.trim().parse::<u32>().ok(),
            Some(_) => None,
        }
        .ok_or_else(|| at("repeat", "repeat is not a whole number from 0 to 4294967295".into()))?;
        out.push(SpriteAnimation {
            name: t.name.clone(),
            frames: SpriteFrames::Range { start: t.from, end: t.to },
            fps: 0.0,
            durations: Some(durations(t.from as usize, t.to as usize)),
            looping: repeat == 0,
            repeat,
            mode,
            events: None,
            origin: Origin { file: path.to_path_buf(), place: pointer.clone() },
        });
    }
    Ok(out)
}

/// Finds and loads the sheet PNG: `meta.image` relative to the JSON's folder, then its file name
/// alone in that folder.
fn load_sheet(
    path: &Path,
    meta: &Meta,
    load_png: &impl Fn(&Path) -> Result<Option<RgbaImage>, HostError>,
) -> Result<(PathBuf, RgbaImage), HostError> {
    let image = meta.image.as_deref().filter(|s| !s.is_empty()).ok_or_else(|| {
        HostError::at(path, "/meta/image", "the sheet names no image (\"meta\": { \"image\": \"x.png\" })")
    })?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut tried: Vec<PathBuf> = vec![dir.join(image)];
    if let Some(name) = Path::new(image).file_name() {
        if dir.join(name) != tried[0] {
            tried.push(dir.join(name));
        }
    }
    for candidate in &tried {
        if let Some(sheet) = load_png(candidate)? {
            return Ok((candidate.clone(), sheet));
        }
    }
    let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(HostError::at(
        path,
        "/meta/image",
        format!("sheet image {image:?} not found (looked for {})", list.join(" and ")),
    ))
}

fn not_a_sheet(path: &Path, why: &str) -> HostError {
    HostError::file(path, format!("not an Aseprite sprite sheet: {why}"))
}

/// Escapes a JSON object key as a JSON pointer segment (RFC 6901).
fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[derive(Deserialize)]
struct Sheet {
    frames: Option<Frames>,
    meta: Option<Meta>,
}

/// `frames` in either form, in document order.
enum Frames {
    Hash(Vec<(String, Frame)>),
    Array(Vec<Frame>),
}

impl<'de> Deserialize<'de> for Frames {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        fn too_many<E: de::Error>() -> E {
            E::custom(format!("more than {MAX_SPRITE_FRAMES} frames"))
        }
        impl<'de> Visitor<'de> for V {
            type Value = Frames;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of frames keyed by name or an array of frames")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Frames, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, Frame>()? {
                    if out.len() >= MAX_SPRITE_FRAMES as usize {
                        return Err(too_many());
                    }
                    out.push(entry);
                }
                Ok(Frames::Hash(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Frames, A::Error> {
                let mut out = Vec::new();
                while let Some(frame) = seq.next_element::<Frame>()? {
                    if out.len() >= MAX_SPRITE_FRAMES as usize {
                        return Err(too_many());
                    }
                    out.push(frame);
                }
                Ok(Frames::Array(out))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Frame {
    frame: Rect,
    #[serde(default)]
    rotated: bool,
    sprite_source_size: Option<Rect>,
    source_size: Option<Size>,
    duration: Option<f64>,
}

#[derive(Deserialize, Clone, Copy)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

#[derive(Deserialize, Clone, Copy)]
struct Size {
    w: u32,
    h: u32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Meta {
    image: Option<String>,
    size: Option<Size>,
    #[serde(default)]
    frame_tags: Vec<FrameTag>,
    #[serde(default)]
    layers: Vec<LayerInfo>,
}

#[derive(Deserialize)]
struct FrameTag {
    name: String,
    from: u32,
    to: u32,
    direction: Option<String>,
    /// A number, or a string of digits (Aseprite 1.3 writes `"repeat": "2"`).
    repeat: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct LayerInfo {
    #[serde(default)]
    cels: Vec<CelInfo>,
}

#[derive(Deserialize)]
struct CelInfo {
    frame: u32,
    data: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_keys() {
        assert_eq!(escape_pointer("a/b~c 0.aseprite"), "a~1b~0c 0.aseprite");
    }

    #[test]
    fn hash_frames_keep_document_order() {
        // serde_json's maps sort keys; the frames visitor must not ("x 10" sorts before "x 2").
        let json = r#"{"x 2": {"frame": {"x": 0, "y": 0, "w": 1, "h": 1}, "duration": 1},
                       "x 10": {"frame": {"x": 1, "y": 0, "w": 1, "h": 1}, "duration": 2}}"#;
        let Frames::Hash(frames) = serde_json::from_str::<Frames>(json).unwrap() else { panic!("not a hash") };
        let names: Vec<_> = frames.iter().map(|(k, f)| (k.as_str(), f.frame.x)).collect();
        assert_eq!(names, [("x 2", 0), ("x 10", 1)]);
    }
}
