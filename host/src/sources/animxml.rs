//! `.anim.xml` animation sets (the Odin engine's "Animation" asset): a sheet and named animations over
//! its frames -> one sprite. The schema is in `docs/anim-xml.md`; in short:
//!
//! ```xml
//! <animations name="coin" fps="10">
//!   <sheet image="coin.png" columns="3" rows="2" margin="1" spacing="2"/>
//!   <animation name="spin" start="0" end="5"/>
//!   <animation name="flip" frames="0,3,0" fps="8" loop="false" repeat="2" mode="pingpong">
//!     <frame at="1" duration="0.25" events="flip,sound"/>
//!   </animation>
//! </animations>
//! ```
//!
//! The sheet is a grid of cells on one PNG (`image`), a TexturePacker JSON (`atlas`) or a folder of
//! numbered PNGs (`folder`); paths are relative to the `.anim.xml`. Errors give `line:column`.

use crate::atlas;
use crate::error::HostError;
use crate::ir::{Origin, PlayMode, Project, RgbaImage, Sprite, SpriteAnimation, SpriteFrame, SpriteFrames};
use crate::sources::aseprite_json;
use crate::sources::texturepacker::{default_animation, frames_of, DEFAULT_FPS};
use crate::sources::{pngseq, read_limited, texturepacker, MAX_SOURCE_BYTES};
use ossicle_format::sprite::{MAX_FRAME_EVENTS, MAX_SPRITE_ANIMATIONS, MAX_SPRITE_FRAMES, MAX_SPRITE_SIZE};
use roxmltree::{Document, Node};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The play modes an animation's `mode` accepts, as written in the file.
pub const PLAY_MODES: [(&str, PlayMode); 4] = [
    ("forward", PlayMode::Forward),
    ("reverse", PlayMode::Reverse),
    ("pingpong", PlayMode::PingPong),
    ("pingpong_reverse", PlayMode::PingPongReverse),
];

/// The most XML nodes one file may have.
const MAX_NODES: u32 = 1_000_000;

/// Parses an `.anim.xml` read from `path`, loading its sheet from disk.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    parse_with(path, bytes, pngseq::read_png, |p| read_limited(p, MAX_SOURCE_BYTES), pngseq::list_dir)
}

/// [`parse`] with the sheet's images loaded by `load_png`, an atlas JSON read by `read_file` and a
/// frame folder listed by `list_dir` (file names in it), all called with paths resolved against
/// `path`'s folder, so tests and fuzz targets need no files.
pub fn parse_with(
    path: &Path,
    bytes: &[u8],
    load_png: impl Fn(&Path) -> Result<RgbaImage, HostError>,
    read_file: impl Fn(&Path) -> Result<Vec<u8>, HostError>,
    list_dir: impl Fn(&Path) -> Result<Vec<PathBuf>, HostError>,
) -> Result<Project, HostError> {
    let files = Files { load_png: &load_png, read_file: &read_file, list_dir: &list_dir };
    let sprite = parse_set(path, bytes, &files)?;
    Ok(Project { sprites: vec![sprite], ..Project::default() })
}

struct Files<'a> {
    load_png: &'a dyn Fn(&Path) -> Result<RgbaImage, HostError>,
    read_file: &'a dyn Fn(&Path) -> Result<Vec<u8>, HostError>,
    list_dir: &'a dyn Fn(&Path) -> Result<Vec<PathBuf>, HostError>,
}

/// Reads typed attributes, naming the file and `line:column` in errors.
pub(crate) struct Xml<'a, 'input> {
    pub(crate) file: &'a Path,
    pub(crate) doc: &'a Document<'input>,
}

impl Xml<'_, '_> {
    pub(crate) fn pos(&self, byte: usize) -> String {
        let p = self.doc.text_pos_at(byte);
        format!("{}:{}", p.row, p.col)
    }

    /// An error at an element.
    pub(crate) fn at(&self, node: Node<'_, '_>, reason: impl Into<String>) -> HostError {
        HostError::at(self.file, self.pos(node.range().start), reason)
    }

    /// An error at an attribute's value (or its element when it is absent).
    pub(crate) fn at_attr(&self, node: Node<'_, '_>, name: &str, reason: impl Into<String>) -> HostError {
        match node.attribute_node(name) {
            Some(a) => HostError::at(self.file, self.pos(a.range_value().start), reason),
            None => self.at(node, reason),
        }
    }

    /// Refuses attributes not in `allowed`.
    pub(crate) fn only(&self, node: Node<'_, '_>, allowed: &[&str]) -> Result<(), HostError> {
        for a in node.attributes() {
            if !allowed.contains(&a.name()) {
                return Err(HostError::at(
                    self.file,
                    self.pos(a.range().start),
                    format!(
                        "unknown attribute {:?} on <{}>: expected one of {}",
                        a.name(),
                        node.tag_name().name(),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The element children of `node` (text other than white space is an error).
    pub(crate) fn children<'n, 'i>(&self, node: Node<'n, 'i>) -> Result<Vec<Node<'n, 'i>>, HostError> {
        let mut out = Vec::new();
        for c in node.children() {
            if c.is_element() {
                out.push(c);
            } else if c.is_text() && !c.text().unwrap_or("").trim().is_empty() {
                return Err(self.at(c, format!("unexpected text in <{}>", node.tag_name().name())));
            }
        }
        Ok(out)
    }

    pub(crate) fn u32(&self, node: Node<'_, '_>, name: &str) -> Result<Option<u32>, HostError> {
        let Some(v) = node.attribute(name) else { return Ok(None) };
        v.trim()
            .parse::<u32>()
            .map(Some)
            .map_err(|_| self.at_attr(node, name, format!("{name} must be a whole number ≥ 0, not {v:?}")))
    }

    pub(crate) fn f64(&self, node: Node<'_, '_>, name: &str) -> Result<Option<f64>, HostError> {
        let Some(v) = node.attribute(name) else { return Ok(None) };
        match v.trim().parse::<f64>() {
            Ok(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
            _ => Err(self.at_attr(node, name, format!("{name} must be a number ≥ 0, not {v:?}"))),
        }
    }

    pub(crate) fn bool(&self, node: Node<'_, '_>, name: &str) -> Result<Option<bool>, HostError> {
        match node.attribute(name) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(v) => Err(self.at_attr(node, name, format!("{name} must be true or false, not {v:?}"))),
        }
    }
}

/// The frames a sheet provides, with the animations kept when the set defines none (an atlas's own,
/// else one `default` animation of every frame).
struct Sheet {
    sprite: Sprite,
    /// Frame names (atlas and folder sheets); empty for grids, whose frames are only numbered.
    names: Vec<String>,
}

/// Parses XML source bytes (UTF-8, no DTD, at most [`MAX_NODES`] nodes); errors give `line:column`.
pub(crate) fn document<'a>(path: &Path, bytes: &'a [u8]) -> Result<Document<'a>, HostError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        HostError::at(path, format!("{line}"), "the file is not UTF-8 text")
    })?;
    let options = roxmltree::ParsingOptions { nodes_limit: MAX_NODES, ..roxmltree::ParsingOptions::default() };
    Document::parse_with_options(text, options).map_err(|e| {
        let p = e.pos();
        let msg = e.to_string();
        let suffix = format!(" at {}:{}", p.row, p.col);
        let reason = msg.strip_suffix(&suffix).unwrap_or(&msg).to_string();
        HostError::at(path, format!("{}:{}", p.row, p.col), reason)
    })
}

fn parse_set(path: &Path, bytes: &[u8], files: &Files<'_>) -> Result<Sprite, HostError> {
    let doc = document(path, bytes)?;
    let x = Xml { file: path, doc: &doc };
    let root = doc.root_element();
    if root.tag_name().name() != "animations" {
        return Err(x.at(
            root,
            format!("not an animation set: the root element is <{}>, expected <animations>", root.tag_name().name()),
        ));
    }
    x.only(root, &["name", "fps"])?;
    let set_fps = x.f64(root, "fps")?;

    let mut sheet_node = None;
    let mut animation_nodes = Vec::new();
    for c in x.children(root)? {
        match c.tag_name().name() {
            "sheet" if sheet_node.is_some() => return Err(x.at(c, "a set has one <sheet>")),
            "sheet" => sheet_node = Some(c),
            "animation" => animation_nodes.push(c),
            other => {
                return Err(
                    x.at(c, format!("unknown element <{other}> in <animations>: expected <sheet> or <animation>"))
                )
            }
        }
    }
    let Some(sheet_node) = sheet_node else {
        return Err(x.at(root, "the set has no <sheet> (its frames)"));
    };
    if animation_nodes.len() as u64 > u64::from(MAX_SPRITE_ANIMATIONS) {
        return Err(x.at(root, format!("over {MAX_SPRITE_ANIMATIONS} animations")));
    }
    let Sheet { mut sprite, names } = parse_sheet(&x, sheet_node, files)?;

    if animation_nodes.is_empty() {
        if let Some(fps) = set_fps {
            sprite.animations.iter_mut().for_each(|a| a.fps = fps);
        }
    } else {
        let mut seen = HashSet::new();
        let mut animations = Vec::with_capacity(animation_nodes.len());
        for node in animation_nodes {
            let a = parse_animation(&x, node, &names, sprite.frames.len() as u32, set_fps.unwrap_or(DEFAULT_FPS))?;
            if !seen.insert(a.name.clone()) {
                return Err(x.at_attr(node, "name", format!("animation name {:?} appears twice", a.name)));
            }
            animations.push(a);
        }
        sprite.animations = animations;
    }
    sprite.name = match root.attribute("name") {
        Some("") => return Err(x.at_attr(root, "name", "the set's name is empty")),
        Some(name) => name.to_string(),
        None => {
            let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("animations");
            file.strip_suffix(".anim.xml").or_else(|| file.strip_suffix(".xml")).unwrap_or(file).to_string()
        }
    };
    sprite.origin = Origin { file: path.to_path_buf(), place: String::new() };
    Ok(sprite)
}

fn parse_sheet(x: &Xml<'_, '_>, node: Node<'_, '_>, files: &Files<'_>) -> Result<Sheet, HostError> {
    x.only(node, &["image", "columns", "rows", "margin", "spacing", "count", "atlas", "folder"])?;
    let dir = x.file.parent().unwrap_or(Path::new(""));
    let kinds: Vec<&str> = ["image", "atlas", "folder"].into_iter().filter(|k| node.has_attribute(*k)).collect();
    if kinds.len() != 1 {
        return Err(x.at(
            node,
            "a <sheet> needs exactly one of image (a grid), atlas (a JSON sheet) or folder (numbered PNGs)",
        ));
    }
    let value = node.attribute(kinds[0]).unwrap_or("");
    if value.is_empty() {
        return Err(x.at_attr(node, kinds[0], format!("{} is empty", kinds[0])));
    }
    let target = dir.join(value);
    if kinds[0] != "image" {
        for grid_only in ["columns", "rows", "margin", "spacing", "count"] {
            if node.has_attribute(grid_only) {
                return Err(x.at_attr(node, grid_only, format!("{grid_only} applies only to image (grid) sheets")));
            }
        }
    }
    match kinds[0] {
        "atlas" => {
            let bytes = (files.read_file)(&target).map_err(|e| {
                x.at_attr(node, "atlas", format!("cannot read the atlas {}: {}", target.display(), e.reason))
            })?;
            // An Aseprite export keeps its durations and tags; anything else is a TexturePacker sheet.
            let app = serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| v.pointer("/meta/app").and_then(|a| a.as_str()).map(str::to_ascii_lowercase));
            if app.is_some_and(|a| a.contains("aseprite")) {
                let project = aseprite_json::parse_with(&target, &bytes, |p| (files.load_png)(p).map(Some))?;
                let sprite = project.sprites.into_iter().next().ok_or_else(|| {
                    x.at_attr(node, "atlas", format!("the Aseprite sheet {} holds no sprite", target.display()))
                })?;
                // Aseprite sheets' frames are referred to by number (their names are file names
                // Aseprite made up, such as "hero 3.aseprite").
                return Ok(Sheet { sprite, names: Vec::new() });
            }
            let (sprite, names) = texturepacker::parse_sheet(&target, &bytes, files.load_png, files.read_file)?;
            Ok(Sheet { sprite, names })
        }
        "folder" => {
            let names = (files.list_dir)(&target).map_err(|e| {
                x.at_attr(node, "folder", format!("cannot list the folder {}: {}", target.display(), e.reason))
            })?;
            let (sprite, names) = pngseq::parse_sprite(&target, &names, files.load_png)?;
            Ok(Sheet { sprite, names })
        }
        _ => grid(x, node, &target, files).map(|sprite| Sheet { sprite, names: Vec::new() }),
    }
}

/// A grid sheet: cells numbered left to right, top to bottom, each a whole-cell frame.
fn grid(x: &Xml<'_, '_>, node: Node<'_, '_>, image_path: &Path, files: &Files<'_>) -> Result<Sprite, HostError> {
    let req = |name: &str| -> Result<u32, HostError> {
        match x.u32(node, name)? {
            Some(n) if n > 0 => Ok(n),
            Some(_) => Err(x.at_attr(node, name, format!("{name} must be at least 1"))),
            None => Err(x.at(node, format!("a grid <sheet> needs {name}"))),
        }
    };
    let (columns, rows) = (req("columns")?, req("rows")?);
    let margin = x.u32(node, "margin")?.unwrap_or(0);
    let spacing = x.u32(node, "spacing")?.unwrap_or(0);
    let cells = u64::from(columns) * u64::from(rows);
    let count = match x.u32(node, "count")? {
        Some(c) if c == 0 || u64::from(c) > cells => {
            return Err(x.at_attr(node, "count", format!("count must be 1 to {cells} (columns × rows)")));
        }
        Some(c) => u64::from(c),
        None => cells,
    };
    if count > u64::from(MAX_SPRITE_FRAMES) {
        return Err(x.at(node, format!("{count} cells, over the limit of {MAX_SPRITE_FRAMES} frames per sprite")));
    }
    let image = (files.load_png)(image_path).map_err(|e| {
        let what = if e.reason.contains("no such file") { "missing PNG" } else { "cannot load the sheet" };
        x.at_attr(node, "image", format!("{what} {}: {}", image_path.display(), e.reason))
    })?;
    let cell = |size: u32, n: u32, axis: &str| -> Result<u32, HostError> {
        let used = 2 * u64::from(margin) + u64::from(n - 1) * u64::from(spacing);
        let avail = u64::from(size).checked_sub(used).filter(|a| *a >= u64::from(n));
        match avail {
            Some(a) if a % u64::from(n) == 0 && a / u64::from(n) <= u64::from(MAX_SPRITE_SIZE) => {
                Ok((a / u64::from(n)) as u32)
            }
            _ => Err(x.at(
                node,
                format!(
                    "the image is {size} pixels {axis}: {n} cells with margin {margin} and spacing {spacing} \
                     do not divide it into whole cells (of at most {MAX_SPRITE_SIZE} pixels)"
                ),
            )),
        }
    };
    let (cw, ch) = (cell(image.width, columns, "wide")?, cell(image.height, rows, "high")?);
    let mut frames = Vec::with_capacity(count as usize);
    for i in 0..count as u32 {
        let (col, row) = (i % columns, i / columns);
        let (cx, cy) = (margin + col * (cw + spacing), margin + row * (ch + spacing));
        let pixels = atlas::crop(&image, cx, cy, cw, ch).ok_or_else(|| x.at(node, "cell outside the image"))?;
        frames.push(SpriteFrame {
            image: pixels,
            x: 0,
            y: 0,
            duration: None,
            events: Vec::new(),
            origin: Origin { file: image_path.to_path_buf(), place: format!("cell {i}") },
        });
    }
    let all = SpriteFrames::Range { start: 0, end: count as u32 - 1 };
    let origin = Origin { file: x.file.to_path_buf(), place: x.pos(node.range().start) };
    let animations = vec![default_animation("default".into(), all, origin)];
    Ok(Sprite { name: String::new(), width: cw, height: ch, frames, animations, origin: Origin::default() })
}

/// A frame reference: a number (frames count from 0) or, on atlas and folder sheets, a frame name.
fn frame_ref(reference: &str, names: &[String], count: u32) -> Result<u32, String> {
    let r = reference.trim();
    if !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()) {
        return match r.parse::<u32>() {
            Ok(i) if i < count => Ok(i),
            _ => Err(format!(
                "frame {r} does not exist (the sheet has {count} frames, 0 to {})",
                count.saturating_sub(1)
            )),
        };
    }
    if names.is_empty() {
        return Err(format!(
            "frame {r:?} is not a frame number (grid frames are numbered 0 to {})",
            count.saturating_sub(1)
        ));
    }
    match names.iter().position(|n| n == r) {
        Some(i) => Ok(i as u32),
        None => Err(format!("frame {r:?} is not in the sheet")),
    }
}

/// Splits a comma-separated attribute, refusing more than `limit` items before collecting them.
fn list<'v>(
    x: &Xml<'_, '_>,
    node: Node<'_, '_>,
    name: &str,
    value: &'v str,
    limit: u32,
) -> Result<Vec<&'v str>, HostError> {
    if value.bytes().filter(|&b| b == b',').count() as u64 >= u64::from(limit) {
        return Err(x.at_attr(node, name, format!("{name} has more than {limit} items")));
    }
    let items: Vec<&str> = value.split(',').map(str::trim).collect();
    if items.iter().any(|i| i.is_empty()) {
        return Err(x.at_attr(node, name, format!("{name} has an empty item")));
    }
    Ok(items)
}

fn parse_animation(
    x: &Xml<'_, '_>,
    node: Node<'_, '_>,
    names: &[String],
    count: u32,
    default_fps: f64,
) -> Result<SpriteAnimation, HostError> {
    x.only(node, &["name", "start", "end", "frames", "fps", "loop", "repeat", "mode", "durations"])?;
    let name = match node.attribute("name") {
        Some(n) if !n.trim().is_empty() => n.to_string(),
        _ => return Err(x.at(node, "an <animation> needs a name")),
    };
    let frame_at = |attr: &str, r: &str| {
        frame_ref(r, names, count).map_err(|e| x.at_attr(node, attr, format!("animation {name:?}: {e}")))
    };
    let frames = match node.attribute("frames") {
        Some(_) if node.has_attribute("start") || node.has_attribute("end") => {
            return Err(x.at_attr(node, "frames", "give either frames or start/end, not both"));
        }
        Some(v) => {
            let items = list(x, node, "frames", v, MAX_SPRITE_FRAMES)?;
            SpriteFrames::List(items.iter().map(|r| frame_at("frames", r)).collect::<Result<_, _>>()?)
        }
        None => {
            let start = node.attribute("start").map(|r| frame_at("start", r)).transpose()?.unwrap_or(0);
            let end = node.attribute("end").map(|r| frame_at("end", r)).transpose()?.unwrap_or(count.saturating_sub(1));
            SpriteFrames::Range { start, end }
        }
    };
    let played = match &frames {
        SpriteFrames::Range { start, end } => start.abs_diff(*end) + 1,
        SpriteFrames::List(l) => l.len() as u32,
    };
    let frames = match frames {
        SpriteFrames::List(l) => frames_of(l),
        range => range,
    };
    let fps = x.f64(node, "fps")?.unwrap_or(default_fps);
    let repeat = x.u32(node, "repeat")?;
    let looping = match x.bool(node, "loop")? {
        Some(true) if repeat.is_some() => {
            return Err(x.at_attr(node, "repeat", "repeat counts passes of an animation with loop=\"false\""));
        }
        Some(l) => l,
        None => repeat.is_none(),
    };
    let mode = match node.attribute("mode") {
        None => PlayMode::Forward,
        Some(m) => match PLAY_MODES.iter().find(|(n, _)| *n == m) {
            Some((_, mode)) => *mode,
            None => {
                let valid: Vec<&str> = PLAY_MODES.iter().map(|(n, _)| *n).collect();
                return Err(x.at_attr(
                    node,
                    "mode",
                    format!("unknown play mode {m:?}: expected one of {}", valid.join(", ")),
                ));
            }
        },
    };

    // Per-frame durations and events.
    let mut durations: Option<Vec<Option<f64>>> = match node.attribute("durations") {
        Some(v) => {
            let items = list(x, node, "durations", v, played)?;
            if items.len() != played as usize {
                return Err(x.at_attr(
                    node,
                    "durations",
                    format!("{} durations for the {played} frames the animation plays", items.len()),
                ));
            }
            let parsed = items.iter().map(|d| d.parse::<f64>().ok().filter(|d| d.is_finite() && *d > 0.0));
            let parsed: Option<Vec<f64>> = parsed.collect();
            let Some(parsed) = parsed else {
                return Err(x.at_attr(node, "durations", "durations must be numbers of seconds > 0"));
            };
            Some(parsed.into_iter().map(Some).collect())
        }
        None => None,
    };
    let mut events: Option<Vec<Vec<String>>> = None;
    let mut at_seen = HashSet::new();
    for child in x.children(node)? {
        if child.tag_name().name() != "frame" {
            return Err(
                x.at(child, format!("unknown element <{}> in <animation>: expected <frame>", child.tag_name().name()))
            );
        }
        x.only(child, &["at", "duration", "events"])?;
        let Some(at) = x.u32(child, "at")? else {
            return Err(x.at(child, "a <frame> needs at (its position in the animation, from 0)"));
        };
        if at >= played {
            return Err(x.at_attr(
                child,
                "at",
                format!("animation {name:?} plays {played} frames; at must be 0 to {}", played.saturating_sub(1)),
            ));
        }
        if !at_seen.insert(at) {
            return Err(x.at_attr(child, "at", format!("a second <frame at=\"{at}\">")));
        }
        if let Some(d) = x.f64(child, "duration")? {
            if d <= 0.0 {
                return Err(x.at_attr(child, "duration", "duration must be a number of seconds > 0"));
            }
            durations.get_or_insert_with(|| vec![None; played as usize])[at as usize] = Some(d);
        }
        if let Some(v) = child.attribute("events") {
            let names: Vec<String> =
                v.split(',').map(str::trim).filter(|e| !e.is_empty()).map(str::to_string).collect();
            if names.len() as u64 > u64::from(MAX_FRAME_EVENTS) {
                return Err(x.at_attr(child, "events", format!("over {MAX_FRAME_EVENTS} events on one frame")));
            }
            events.get_or_insert_with(|| vec![Vec::new(); played as usize])[at as usize] = names;
        }
    }
    let durations = match durations {
        None => None,
        Some(d) if fps > 0.0 => Some(d.into_iter().map(|d| d.unwrap_or(1.0 / fps)).collect()),
        Some(d) => match d.into_iter().collect::<Option<Vec<f64>>>() {
            Some(all) => Some(all),
            None => {
                return Err(x.at(node, format!("animation {name:?} has fps 0: every frame it plays needs a duration")));
            }
        },
    };
    Ok(SpriteAnimation {
        name,
        frames,
        fps,
        durations,
        looping,
        repeat: repeat.unwrap_or(0),
        mode,
        events,
        origin: Origin { file: x.file.to_path_buf(), place: x.pos(node.range().start) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet_png(_: &Path) -> Result<RgbaImage, HostError> {
        // 2 × 2 cells of 2 × 1 pixels, margin 0, spacing 1: 5 × 3 pixels.
        let mut img = RgbaImage::new(5, 3);
        for (i, (x, y)) in [(0, 0), (3, 0), (0, 2), (3, 2)].into_iter().enumerate() {
            img.set(x, y, [i as u8, 0, 0, 255]);
        }
        Ok(img)
    }

    fn p(xml: &str) -> Result<Sprite, HostError> {
        let none = |p: &Path| -> Result<Vec<u8>, HostError> { Err(HostError::file(p, "no such file")) };
        let list = |p: &Path| -> Result<Vec<PathBuf>, HostError> { Err(HostError::file(p, "no such file")) };
        let files = Files { load_png: &sheet_png, read_file: &none, list_dir: &list };
        parse_set(Path::new("dir/hero.anim.xml"), xml.as_bytes(), &files)
    }

    const GRID: &str = r#"<sheet image="s.png" columns="2" rows="2" spacing="1"/>"#;

    #[test]
    fn grid_cells_and_default_animation() {
        let s = p(&format!("<animations>{GRID}</animations>")).unwrap();
        assert_eq!((s.name.as_str(), s.width, s.height, s.frames.len()), ("hero", 2, 1, 4));
        for (i, f) in s.frames.iter().enumerate() {
            assert_eq!(f.image.get(0, 0), Some([i as u8, 0, 0, 255]));
        }
        assert_eq!(s.animations[0].frames, SpriteFrames::Range { start: 0, end: 3 });
        assert_eq!((s.animations[0].fps, s.animations[0].looping), (DEFAULT_FPS, true));
    }

    #[test]
    fn animation_attributes() {
        let s = p(&format!(
            r#"<animations name="h" fps="6">{GRID}
                 <animation name="a" frames="1,2,1,3" mode="pingpong_reverse" loop="false" repeat="3"
                            durations="0.1,0.2,0.3,0.4">
                   <frame at="1" duration="0.5" events="step, dust"/>
                 </animation>
                 <animation name="b" start="3" end="1"/>
                 <animation name="c" frames="2,3" fps="0" durations="1,2"/>
               </animations>"#
        ))
        .unwrap();
        let a = &s.animations[0];
        assert_eq!(a.frames, SpriteFrames::List(vec![1, 2, 1, 3]));
        assert_eq!((a.fps, a.looping, a.repeat, a.mode), (6.0, false, 3, PlayMode::PingPongReverse));
        assert_eq!(a.durations, Some(vec![0.1, 0.5, 0.3, 0.4]));
        assert_eq!(a.events.as_ref().unwrap()[1], ["step", "dust"]);
        assert!(a.events.as_ref().unwrap()[0].is_empty());
        assert_eq!(s.animations[1].frames, SpriteFrames::Range { start: 3, end: 1 });
        assert!(s.animations[1].looping);
        assert_eq!(s.animations[2].frames, SpriteFrames::Range { start: 2, end: 3 });
        assert_eq!(s.animations[2].durations, Some(vec![1.0, 2.0]));
    }

    #[test]
    fn errors_give_line_and_column() {
        let e = p(&format!("<animations>{GRID}\n  <animation name=\"a\" mode=\"bounce\"/></animations>")).unwrap_err();
        assert_eq!(e.place, "2:29"); // the value, after `  <animation name="a" mode="`
        assert_eq!(
            e.reason,
            "unknown play mode \"bounce\": expected one of forward, reverse, pingpong, pingpong_reverse"
        );
        let e = p(&format!("<animations>{GRID}<animation name=\"a\" frames=\"0,4\"/></animations>")).unwrap_err();
        assert!(e.reason.contains("frame 4 does not exist (the sheet has 4 frames, 0 to 3)"), "{e}");
        let e = p(&format!("<animations>{GRID}<animation name=\"a\" end=\"x\"/></animations>")).unwrap_err();
        assert!(e.reason.contains("not a frame number"), "{e}");
        let e = p("<animations>\n<sheet image=\"s.png\" columns=\"3\" rows=\"2\"/></animations>").unwrap_err();
        assert_eq!(e.place, "2:1");
        assert!(e.reason.contains("do not divide it into whole cells"), "{e}");
        let e = p("<animations><bogus/></animations>").unwrap_err();
        assert!(e.reason.contains("unknown element <bogus>"), "{e}");
        let e = p(&format!("<animations>{GRID}<animation name=\"a\" spin=\"1\"/></animations>")).unwrap_err();
        assert!(e.reason.starts_with("unknown attribute \"spin\" on <animation>"), "{e}");
        let e = p("<animations>\n  <sheet a=1/></animations>").unwrap_err();
        assert!(e.place.starts_with("2:"), "{e}");
        assert!(!e.reason.contains(" at 2:"), "{e}");
        let e = p("<sprite/>").unwrap_err();
        assert!(e.reason.contains("expected <animations>"), "{e}");
        let e = p(&format!("<animations>{GRID}<animation name=\"a\" loop=\"true\" repeat=\"2\"/></animations>"))
            .unwrap_err();
        assert!(e.reason.contains("loop=\"false\""), "{e}");
        let e =
            p(&format!("<animations>{GRID}<animation name=\"a\"/><animation name=\"a\"/></animations>")).unwrap_err();
        assert!(e.reason.contains("appears twice"), "{e}");
        let e = p(&format!("<animations>{GRID}<animation name=\"a\" fps=\"0\"><frame at=\"0\" duration=\"1\"/></animation></animations>"))
            .unwrap_err();
        assert!(e.reason.contains("needs a duration"), "{e}");
        let e = p(r#"<animations><sheet image="s.png" columns="70000" rows="70000"/></animations>"#).unwrap_err();
        assert!(e.reason.contains("over the limit"), "{e}");
    }
}
