//! TexturePacker JSON sprite sheets (the "JSON (Hash)" and "JSON (Array)" data formats, multipack
//! included) -> one sprite.
//!
//! ```json
//! {"frames": {
//!    "star1.png": {"frame": {"x":98,"y":33,"w":28,"h":29}, "rotated": true, "trimmed": true,
//!                  "spriteSourceSize": {"x":2,"y":2,"w":28,"h":29}, "sourceSize": {"w":32,"h":32},
//!                  "anchor": {"x":0.5,"y":0.5}}
//!  },
//!  "animations": {"star": ["star1.png"]},
//!  "meta": {"image": "building1.png", "size": {"w":128,"h":126}, "scale": "0.5"}}
//! ```
//!
//! - **Frames**: `frames` is an object keyed by frame name (Hash) or an array of objects with a
//!   `filename` (Array). Frames keep that order (the JSON's, not sorted). Each frame's image is its
//!   `frame` rectangle cut from the page image `meta.image` (a PNG next to the JSON); `frame.w`/`h` are
//!   the frame's own, unrotated size. A `rotated: true` frame is stored in the page turned 90°
//!   clockwise, so it covers `frame.h × frame.w` page pixels; the host turns it back when cutting it
//!   out, so the kernel never sees a rotated frame. The image sits at `spriteSourceSize.x`/`y` in a
//!   canvas of `sourceSize` (trimmed frames keep their offset); without them the frame is untrimmed.
//! - **Canvas**: the sprite's canvas is the largest `sourceSize` of its frames; frames with a smaller
//!   `sourceSize` are placed at its top-left corner (like PixiJS with its default anchor 0, 0).
//!   `anchor`/`pivot` are checked (numbers `x`, `y`) but not kept: the IR has no pivot yet.
//!   `meta.scale` is checked (a positive number) and otherwise ignored: pixels stay at the sheet's scale.
//!   When `meta.size` is given it must match the page image's size.
//! - **Multipack**: `meta.related_multi_packs` names the other pages (JSON files relative to this
//!   one, without `..`). They are all read, whichever page is loaded, ordered by file name (naturally:
//!   `-2` before `-10`; pages must be in one folder for this to be the same from every page), and their
//!   frames merged into one sprite, page by page. Frame names must be
//!   unique across pages. The sprite is named after the first page's file stem, without a trailing `-0`
//!   (`multi-pack-0.json` -> `multi-pack`); a single-page sheet after its stem.
//! - **Animations**: the top-level `animations` object (`name: [frame names]`, merged across pages: an
//!   animation on several pages with the same list is kept once, different lists are joined in page
//!   order). A name that is not a frame is an error. When no page defines an animation, frames are
//!   grouped by name: the name without its image extension and trailing number, and without trailing
//!   `_`, `-`, `.` or spaces, is the animation (`rollSequence0000.png`..`rollSequence0029.png` ->
//!   `rollSequence`); names without a number (or with nothing before it) form the `default` animation.
//!   Animations are then sorted by name and their frames by name, both naturally.
//!   TexturePacker has no timing: every animation plays at [`DEFAULT_FPS`], forward, looping (an
//!   `.anim.xml` whose sheet is this JSON sets other timing, see `docs/anim-xml.md`).
//!
//! Limits: at most `MAX_SPRITE_FRAMES` frames, canvas sides up to `MAX_SPRITE_SIZE`, all frames together
//! at most [`MAX_IMAGE_PIXELS`] pixels, checked before any pixel is cut.

use crate::error::HostError;
use crate::ir::{Origin, PlayMode, Project, RgbaImage, Sprite, SpriteAnimation, SpriteFrame, SpriteFrames};
use crate::sources::pngseq::{read_png, MAX_IMAGE_PIXELS};
use crate::sources::{read_limited, MAX_SOURCE_BYTES};
use ossicle_format::sprite::{MAX_SPRITE_ANIMATIONS, MAX_SPRITE_FRAMES, MAX_SPRITE_SIZE};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// Frames per second of animations whose source has no timing (TexturePacker, PNG sequences).
pub const DEFAULT_FPS: f64 = 12.0;
/// The most pages one multipack sheet may have.
pub const MAX_PAGES: usize = 256;

/// Parses a TexturePacker JSON sheet read from `path`, loading its page images and the other pages of a
/// multipack from disk.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    parse_with(path, bytes, read_png, |p| read_limited(p, MAX_SOURCE_BYTES))
}

/// [`parse`] with the page images loaded by `load_png` and the other multipack pages read by
/// `read_file` (both called with paths resolved against `path`'s folder), so tests and fuzz targets
/// need no files.
pub fn parse_with(
    path: &Path,
    bytes: &[u8],
    load_png: impl Fn(&Path) -> Result<RgbaImage, HostError>,
    read_file: impl Fn(&Path) -> Result<Vec<u8>, HostError>,
) -> Result<Project, HostError> {
    let (sprite, _) = parse_sheet(path, bytes, &load_png, &read_file)?;
    Ok(Project { sprites: vec![sprite], ..Project::default() })
}

// ---------------------------------------------------------------------------------------------------
// JSON with objects in source order (serde_json's `Value` sorts keys without `preserve_order`).

/// A JSON value whose objects keep their keys in source order; duplicate keys are an error.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Num(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Num(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Num(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Json::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries: Vec<(String, Json)> = Vec::new();
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("duplicate key {key:?}")));
            }
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Json::Obj(entries))
    }
}

impl Json {
    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// A JSON pointer token (`~` -> `~0`, `/` -> `~1`).
fn pointer_token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Reads typed fields of one page, naming the file and JSON pointer in errors.
struct Reader<'a> {
    file: &'a Path,
}

impl Reader<'_> {
    fn err(&self, place: &str, reason: impl Into<String>) -> HostError {
        HostError::at(self.file, place, reason)
    }

    fn obj<'v>(&self, v: &'v Json, place: &str) -> Result<&'v [(String, Json)], HostError> {
        match v {
            Json::Obj(entries) => Ok(entries),
            other => Err(self.err(place, format!("expected an object, found {}", other.kind()))),
        }
    }

    fn str<'v>(&self, v: &'v Json, place: &str) -> Result<&'v str, HostError> {
        match v {
            Json::Str(s) => Ok(s),
            other => Err(self.err(place, format!("expected a string, found {}", other.kind()))),
        }
    }

    fn bool(&self, v: Option<&Json>, place: &str) -> Result<bool, HostError> {
        match v {
            None | Some(Json::Null) => Ok(false),
            Some(Json::Bool(b)) => Ok(*b),
            Some(other) => Err(self.err(place, format!("expected true or false, found {}", other.kind()))),
        }
    }

    fn number(&self, v: &Json, place: &str) -> Result<f64, HostError> {
        match v {
            Json::Num(n) => Ok(*n),
            other => Err(self.err(place, format!("expected a number, found {}", other.kind()))),
        }
    }

    /// A whole number from 0 to `u32::MAX`.
    fn uint(&self, parent: &Json, key: &str, place: &str) -> Result<u32, HostError> {
        let place = format!("{place}/{key}");
        let Some(v) = parent.get(key) else {
            return Err(self.err(&place, format!("missing {key:?}")));
        };
        let n = self.number(v, &place)?;
        if n.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&n) {
            return Err(self.err(&place, format!("expected a whole number of pixels ≥ 0, found {n}")));
        }
        Ok(n as u32)
    }

    /// An optional `{x, y}` object of numbers (anchors and pivots).
    fn point(&self, v: Option<&Json>, place: &str) -> Result<(), HostError> {
        if let Some(v) = v {
            self.obj(v, place)?;
            for key in ["x", "y"] {
                let p = format!("{place}/{key}");
                let n = self.number(v.get(key).ok_or_else(|| self.err(&p, format!("missing {key:?}")))?, &p)?;
                if !n.is_finite() {
                    return Err(self.err(&p, "expected a finite number"));
                }
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------
// Pages.

/// One frame record of a page, checked.
struct FrameRecord {
    name: String,
    place: String,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    rotated: bool,
    offset: (u32, u32),
    source: (u32, u32),
}

/// One animation of a page: its name, place and frame names with their places.
struct PageAnimation {
    name: String,
    place: String,
    frames: Vec<(String, String)>,
}

/// One page (JSON file) of a sheet.
struct Page {
    file: PathBuf,
    frames: Vec<FrameRecord>,
    animations: Vec<PageAnimation>,
    image: PathBuf,
    size: Option<(u32, u32)>,
    related: Vec<(PathBuf, String)>,
}

const NOT_A_SHEET: &str = "not a TexturePacker sprite sheet";

fn parse_page(file: &Path, bytes: &[u8]) -> Result<Page, HostError> {
    let r = Reader { file };
    let root: Json = serde_json::from_slice(bytes).map_err(|e| crate::error::json_error(file, &e, ""))?;
    if !matches!(root, Json::Obj(_)) {
        return Err(HostError::file(file, format!("{NOT_A_SHEET}: the top level is {}, not an object", root.kind())));
    }
    let (Some(frames), Some(meta)) = (root.get("frames"), root.get("meta")) else {
        return Err(HostError::file(
            file,
            format!("{NOT_A_SHEET}: it needs a \"frames\" object or array and a \"meta\" object"),
        ));
    };
    let count = match frames {
        Json::Obj(entries) => entries.len(),
        Json::Arr(items) => items.len(),
        other => return Err(r.err("/frames", format!("{NOT_A_SHEET}: \"frames\" is {}", other.kind()))),
    };
    if count as u64 > u64::from(MAX_SPRITE_FRAMES) {
        return Err(
            r.err("/frames", format!("{count} frames, over the limit of {MAX_SPRITE_FRAMES} frames per sprite"))
        );
    }
    let mut records = Vec::with_capacity(count);
    match frames {
        Json::Obj(items) => {
            for (name, v) in items {
                records.push(parse_frame(&r, name.clone(), format!("/frames/{}", pointer_token(name)), v)?);
            }
        }
        Json::Arr(items) => {
            for (i, v) in items.iter().enumerate() {
                let place = format!("/frames/{i}");
                let name = r.str(v.get("filename").ok_or_else(|| r.err(&place, "missing \"filename\""))?, &place)?;
                records.push(parse_frame(&r, name.to_string(), place, v)?);
            }
        }
        _ => {}
    }

    let mut animations = Vec::new();
    if let Some(anims) = root.get("animations") {
        for (name, list) in r.obj(anims, "/animations")? {
            let place = format!("/animations/{}", pointer_token(name));
            let Json::Arr(items) = list else {
                return Err(r.err(&place, format!("expected an array of frame names, found {}", list.kind())));
            };
            let mut frames = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let p = format!("{place}/{i}");
                frames.push((r.str(item, &p)?.to_string(), p));
            }
            if frames.is_empty() {
                return Err(r.err(&place, format!("animation {name:?} has no frames")));
            }
            animations.push(PageAnimation { name: name.clone(), place, frames });
        }
    }

    r.obj(meta, "/meta")?;
    let image = match meta.get("image") {
        Some(v) => r.str(v, "/meta/image")?,
        None => return Err(r.err("/meta", "missing \"image\" (the page's PNG)")),
    };
    if image.is_empty() {
        return Err(r.err("/meta/image", "the page image name is empty"));
    }
    let size = match meta.get("size") {
        Some(v) => Some((r.uint(v, "w", "/meta/size")?, r.uint(v, "h", "/meta/size")?)),
        None => None,
    };
    if let Some(v) = meta.get("scale") {
        let scale = match v {
            Json::Str(s) => s.trim().parse::<f64>().ok(),
            Json::Num(n) => Some(*n),
            _ => None,
        };
        if !scale.is_some_and(|s| s.is_finite() && s > 0.0) {
            return Err(r.err("/meta/scale", "expected a positive number (or a string holding one)"));
        }
    }
    let mut related = Vec::new();
    if let Some(v) = meta.get("related_multi_packs") {
        let Json::Arr(items) = v else {
            return Err(r.err("/meta/related_multi_packs", format!("expected an array, found {}", v.kind())));
        };
        for (i, item) in items.iter().enumerate() {
            let place = format!("/meta/related_multi_packs/{i}");
            let rel = Path::new(r.str(item, &place)?);
            let plain = rel.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
            if !plain || rel.as_os_str().is_empty() {
                return Err(r.err(&place, format!("{rel:?} must be a file name relative to this sheet (no `..`)")));
            }
            related.push((rel.to_path_buf(), place));
        }
    }
    let dir = file.parent().unwrap_or(Path::new(""));
    Ok(Page { file: file.to_path_buf(), frames: records, animations, image: dir.join(image), size, related })
}

fn parse_frame(r: &Reader<'_>, name: String, place: String, v: &Json) -> Result<FrameRecord, HostError> {
    r.obj(v, &place)?;
    let Some(frame) = v.get("frame") else {
        return Err(r.err(&place, format!("frame {name:?} has no \"frame\" rectangle")));
    };
    let fp = format!("{place}/frame");
    r.obj(frame, &fp)?;
    let (x, y) = (r.uint(frame, "x", &fp)?, r.uint(frame, "y", &fp)?);
    let (width, height) = (r.uint(frame, "w", &fp)?, r.uint(frame, "h", &fp)?);
    if width == 0 || height == 0 {
        return Err(r.err(&fp, format!("frame {name:?} is {width}×{height}; frames must be at least 1×1")));
    }
    let rotated = r.bool(v.get("rotated"), &format!("{place}/rotated"))?;
    r.bool(v.get("trimmed"), &format!("{place}/trimmed"))?;
    let offset = match v.get("spriteSourceSize") {
        Some(sss) => {
            let sp = format!("{place}/spriteSourceSize");
            r.obj(sss, &sp)?;
            let off = (r.uint(sss, "x", &sp)?, r.uint(sss, "y", &sp)?);
            for (key, want) in [("w", width), ("h", height)] {
                if sss.get(key).is_some() && r.uint(sss, key, &sp)? != want {
                    return Err(r.err(
                        &format!("{sp}/{key}"),
                        format!(
                            "spriteSourceSize.{key} differs from frame.{key} ({want}); scaled frames are not supported"
                        ),
                    ));
                }
            }
            off
        }
        None => (0, 0),
    };
    let source = match v.get("sourceSize") {
        Some(ss) => {
            let sp = format!("{place}/sourceSize");
            r.obj(ss, &sp)?;
            (r.uint(ss, "w", &sp)?, r.uint(ss, "h", &sp)?)
        }
        None => (width, height),
    };
    if source.0 == 0 || source.1 == 0 || source.0 > MAX_SPRITE_SIZE || source.1 > MAX_SPRITE_SIZE {
        return Err(r.err(
            &format!("{place}/sourceSize"),
            format!("canvas is {}×{}; sprite sides must be 1 to {MAX_SPRITE_SIZE} pixels", source.0, source.1),
        ));
    }
    if u64::from(offset.0) + u64::from(width) > u64::from(source.0)
        || u64::from(offset.1) + u64::from(height) > u64::from(source.1)
    {
        return Err(r.err(
            &format!("{place}/spriteSourceSize"),
            format!(
                "the {width}×{height} frame at {}, {} does not fit in its {}×{} sourceSize",
                offset.0, offset.1, source.0, source.1
            ),
        ));
    }
    r.point(v.get("anchor"), &format!("{place}/anchor"))?;
    r.point(v.get("pivot"), &format!("{place}/pivot"))?;
    Ok(FrameRecord { name, place, x, y, width, height, rotated, offset, source })
}

/// `path` with `.` removed and `..` applied lexically (to recognise a page named from another page).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The entry page and every page reachable through `related_multi_packs`, ordered by file name.
fn load_pages(
    path: &Path,
    bytes: &[u8],
    read_file: &dyn Fn(&Path) -> Result<Vec<u8>, HostError>,
) -> Result<Vec<Page>, HostError> {
    let mut pages = vec![parse_page(path, bytes)?];
    let mut seen = HashSet::from([normalize(path)]);
    let mut frames = pages[0].frames.len();
    let mut i = 0;
    while i < pages.len() {
        let dir = pages[i].file.parent().unwrap_or(Path::new("")).to_path_buf();
        for (rel, place) in std::mem::take(&mut pages[i].related) {
            let sibling: PathBuf = dir.join(rel.components().filter(|c| *c != Component::CurDir).collect::<PathBuf>());
            if !seen.insert(normalize(&sibling)) {
                continue;
            }
            if pages.len() >= MAX_PAGES {
                return Err(HostError::at(&pages[i].file, place, format!("more than {MAX_PAGES} multipack pages")));
            }
            let bytes = read_file(&sibling).map_err(|e| {
                HostError::at(&pages[i].file, &place, format!("multipack page {}: {}", sibling.display(), e.reason))
            })?;
            let page = parse_page(&sibling, &bytes)?;
            frames += page.frames.len();
            if frames as u64 > u64::from(MAX_SPRITE_FRAMES) {
                return Err(HostError::at(
                    &sibling,
                    "/frames",
                    format!("the multipack has over {MAX_SPRITE_FRAMES} frames, the limit per sprite"),
                ));
            }
            pages.push(page);
        }
        i += 1;
    }
    let key = |p: &Page| p.file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    pages.sort_by(|a, b| natural_cmp(&key(a), &key(b)).then_with(|| a.file.cmp(&b.file)));
    Ok(pages)
}

// ---------------------------------------------------------------------------------------------------
// The sprite.

/// The sprite of a sheet and its frame names in frame order (used by `.anim.xml` sheets).
pub(crate) fn parse_sheet(
    path: &Path,
    bytes: &[u8],
    load_png: &dyn Fn(&Path) -> Result<RgbaImage, HostError>,
    read_file: &dyn Fn(&Path) -> Result<Vec<u8>, HostError>,
) -> Result<(Sprite, Vec<String>), HostError> {
    let pages = load_pages(path, bytes, read_file)?;

    // Names, canvas and the pixel budget, before any image is loaded.
    let mut index: HashMap<&str, u32> = HashMap::new();
    let (mut width, mut height, mut pixels) = (0u32, 0u32, 0u64);
    for page in &pages {
        for f in &page.frames {
            if index.insert(&f.name, index.len() as u32).is_some() {
                return Err(HostError::at(&page.file, &f.place, format!("frame name {:?} appears twice", f.name)));
            }
            (width, height) = (width.max(f.source.0), height.max(f.source.1));
            pixels += u64::from(f.width) * u64::from(f.height);
        }
    }
    if index.is_empty() {
        return Err(HostError::at(&pages[0].file, "/frames", "the sheet has no frames"));
    }
    if pixels > MAX_IMAGE_PIXELS {
        return Err(HostError::at(
            &pages[0].file,
            "/frames",
            format!("the frames have {pixels} pixels together, over the limit of {MAX_IMAGE_PIXELS}"),
        ));
    }

    let mut frames = Vec::with_capacity(index.len());
    for page in &pages {
        if page.frames.is_empty() {
            continue;
        }
        let image = load_png(&page.image).map_err(|e| {
            let what = if e.reason.contains("no such file") { "missing PNG" } else { "cannot load the page image" };
            HostError::at(&page.file, "/meta/image", format!("{what} {}: {}", page.image.display(), e.reason))
        })?;
        if let Some((w, h)) = page.size {
            if (w, h) != (image.width, image.height) {
                return Err(HostError::at(
                    &page.file,
                    "/meta/size",
                    format!("meta.size is {w}×{h} but {} is {}×{}", page.image.display(), image.width, image.height),
                ));
            }
        }
        for f in &page.frames {
            frames.push(SpriteFrame {
                image: cut(&image, f).ok_or_else(|| {
                    let (pw, ph) = if f.rotated { (f.height, f.width) } else { (f.width, f.height) };
                    HostError::at(
                        &page.file,
                        format!("{}/frame", f.place),
                        format!(
                            "frame {:?} covers {pw}×{ph} page pixels at {}, {}{}, outside the {}×{} image {}",
                            f.name,
                            f.x,
                            f.y,
                            if f.rotated { " (rotated)" } else { "" },
                            image.width,
                            image.height,
                            page.image.display()
                        ),
                    )
                })?,
                x: f.offset.0 as i32,
                y: f.offset.1 as i32,
                duration: None,
                events: Vec::new(),
                origin: Origin { file: page.file.clone(), place: f.place.clone() },
            });
        }
    }

    let animations = if pages.iter().any(|p| !p.animations.is_empty()) {
        declared_animations(&pages, &index)?
    } else {
        grouped_animations(&pages)
    };
    if animations.len() as u64 > u64::from(MAX_SPRITE_ANIMATIONS) {
        return Err(HostError::file(&pages[0].file, format!("over {MAX_SPRITE_ANIMATIONS} animations")));
    }

    let first = &pages[0].file;
    let stem = first.file_stem().and_then(|s| s.to_str()).unwrap_or("sprite");
    let name = if pages.len() > 1 { stem.strip_suffix("-0").unwrap_or(stem) } else { stem };
    let names = pages.iter().flat_map(|p| p.frames.iter().map(|f| f.name.clone())).collect();
    let sprite = Sprite {
        name: name.to_string(),
        width,
        height,
        frames,
        animations,
        origin: Origin { file: path.to_path_buf(), place: String::new() },
    };
    Ok((sprite, names))
}

/// Cuts a frame out of its page, turning a rotated one back (see the module documentation), or
/// `None` when it lies outside the page.
fn cut(page: &RgbaImage, f: &FrameRecord) -> Option<RgbaImage> {
    if !f.rotated {
        return crate::atlas::crop(page, f.x, f.y, f.width, f.height);
    }
    // Stored turned 90° clockwise: the frame's row `sy` is the page column `x + height - 1 - sy`, read
    // top to bottom.
    let stored = crate::atlas::crop(page, f.x, f.y, f.height, f.width)?;
    let mut out = RgbaImage::new(f.width, f.height);
    for sy in 0..f.height {
        for sx in 0..f.width {
            out.set(sx, sy, stored.get(f.height - 1 - sy, sx)?);
        }
    }
    Some(out)
}

/// The smallest description of a frame sequence: a range when it counts up or down by one.
pub(crate) fn frames_of(indices: Vec<u32>) -> SpriteFrames {
    let up = indices.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]));
    let down = indices.windows(2).all(|w| w[1].checked_add(1) == Some(w[0]));
    match (indices.first(), indices.last()) {
        (Some(&start), Some(&end)) if up || down => SpriteFrames::Range { start, end },
        _ => SpriteFrames::List(indices),
    }
}

/// A looping forward animation at [`DEFAULT_FPS`] (for sources without timing).
pub(crate) fn default_animation(name: String, frames: SpriteFrames, origin: Origin) -> SpriteAnimation {
    SpriteAnimation {
        name,
        frames,
        fps: DEFAULT_FPS,
        durations: None,
        looping: true,
        repeat: 0,
        mode: PlayMode::Forward,
        events: None,
        origin,
    }
}

fn declared_animations(pages: &[Page], index: &HashMap<&str, u32>) -> Result<Vec<SpriteAnimation>, HostError> {
    // Merge by name across pages, keeping first-seen order: each animation's parts, with their page.
    let mut merged: Vec<Vec<(&PageAnimation, &Path)>> = Vec::new();
    for page in pages {
        for a in &page.animations {
            match merged.iter_mut().find(|parts| parts[0].0.name == a.name) {
                Some(parts) => {
                    let same = parts[0].0.frames.iter().map(|f| &f.0).eq(a.frames.iter().map(|f| &f.0));
                    if !same {
                        parts.push((a, &page.file));
                    }
                }
                None => merged.push(vec![(a, &page.file)]),
            }
        }
    }
    let mut out = Vec::with_capacity(merged.len());
    for parts in merged {
        let mut indices = Vec::new();
        for &(a, file) in &parts {
            for (frame, place) in &a.frames {
                let Some(&i) = index.get(frame.as_str()) else {
                    return Err(HostError::at(
                        file,
                        place,
                        format!("animation {:?} names frame {frame:?}, which is not in the sheet", a.name),
                    ));
                };
                indices.push(i);
            }
        }
        let (first, file) = parts[0];
        if indices.len() as u64 > u64::from(MAX_SPRITE_FRAMES) {
            return Err(HostError::at(file, &first.place, format!("over {MAX_SPRITE_FRAMES} frames")));
        }
        let origin = Origin { file: file.to_path_buf(), place: first.place.clone() };
        out.push(default_animation(first.name.clone(), frames_of(indices), origin));
    }
    Ok(out)
}

/// The animation a frame name belongs to when the sheet declares none (see the module documentation).
fn group_name(frame: &str) -> &str {
    let stem = match frame.rfind('.') {
        Some(dot) if dot > 0 && frame[dot + 1..].chars().all(|c| c.is_ascii_alphabetic()) => &frame[..dot],
        _ => frame,
    };
    let prefix = stem.trim_end_matches(|c: char| c.is_ascii_digit());
    if prefix.len() == stem.len() {
        return "default";
    }
    match prefix.trim_end_matches(['_', '-', '.', ' ']) {
        "" => "default",
        p => p,
    }
}

fn grouped_animations(pages: &[Page]) -> Vec<SpriteAnimation> {
    let mut groups: Vec<(&str, Vec<(&str, u32)>)> = Vec::new();
    let all = pages.iter().flat_map(|p| &p.frames);
    for (i, f) in all.enumerate() {
        let g = group_name(&f.name);
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, members)) => members.push((&f.name, i as u32)),
            None => groups.push((g, vec![(&f.name, i as u32)])),
        }
    }
    groups.sort_by(|a, b| natural_cmp(a.0, b.0));
    groups
        .into_iter()
        .map(|(name, mut members)| {
            members.sort_by(|a, b| natural_cmp(a.0, b.0));
            let origin = Origin { file: pages[0].file.clone(), place: "/frames".to_string() };
            default_animation(name.to_string(), frames_of(members.into_iter().map(|m| m.1).collect()), origin)
        })
        .collect()
}

/// Compares strings "naturally": runs of digits by their value (`frame2` < `frame10`), the rest by
/// character; equal values with different zero padding fall back to plain order.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        let (Some(cx), Some(cy)) = (x.chars().next(), y.chars().next()) else {
            return x.len().cmp(&y.len()).then_with(|| a.cmp(b));
        };
        if cx.is_ascii_digit() && cy.is_ascii_digit() {
            let nx = x.len() - x.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let ny = y.len() - y.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let (dx, dy) = (x[..nx].trim_start_matches('0'), y[..ny].trim_start_matches('0'));
            let ord = dx.len().cmp(&dy.len()).then_with(|| dx.cmp(dy));
            if ord != Ordering::Equal {
                return ord;
            }
            (x, y) = (&x[nx..], &y[ny..]);
        } else {
            if cx != cy {
                return cx.cmp(&cy);
            }
            (x, y) = (&x[cx.len_utf8()..], &y[cy.len_utf8()..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut v = vec!["f10", "f2", "f02", "f1", "e", "f", "g0"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["e", "f", "f1", "f02", "f2", "f10", "g0"]);
        assert_eq!(natural_cmp("a-2.json", "a-10.json"), Ordering::Less);
        assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
    }

    #[test]
    fn groups_by_numeric_suffix() {
        assert_eq!(group_name("rollSequence0000.png"), "rollSequence");
        assert_eq!(group_name("walk_01.png"), "walk");
        assert_eq!(group_name("goldmine_10_5.png"), "goldmine_10");
        assert_eq!(group_name("idle.png"), "default");
        assert_eq!(group_name("0001.png"), "default");
        assert_eq!(group_name("run 3"), "run");
        assert_eq!(group_name("v1.2"), "v1");
    }

    #[test]
    fn frame_sequences() {
        assert_eq!(frames_of(vec![3, 4, 5]), SpriteFrames::Range { start: 3, end: 5 });
        assert_eq!(frames_of(vec![5, 4]), SpriteFrames::Range { start: 5, end: 4 });
        assert_eq!(frames_of(vec![7]), SpriteFrames::Range { start: 7, end: 7 });
        assert_eq!(frames_of(vec![1, 2, 1]), SpriteFrames::List(vec![1, 2, 1]));
    }

    #[test]
    fn keeps_source_order_and_refuses_duplicate_keys() {
        let j: Json = serde_json::from_str(r#"{"b":1,"a":[true,null,"x"]}"#).unwrap();
        assert_eq!(
            j,
            Json::Obj(vec![
                ("b".into(), Json::Num(1.0)),
                ("a".into(), Json::Arr(vec![Json::Bool(true), Json::Null, Json::Str("x".into())]))
            ])
        );
        let e = serde_json::from_str::<Json>("{\"a\":1,\n\"a\":2}").unwrap_err();
        assert!(e.to_string().contains("duplicate key \"a\""), "{e}");
        assert_eq!(pointer_token("a/b~c"), "a~1b~0c");
    }

    #[test]
    fn normalizes_page_paths() {
        assert_eq!(normalize(Path::new("a/./b/../c.json")), PathBuf::from("a/c.json"));
        assert_eq!(normalize(Path::new("../x.json")), PathBuf::from("../x.json"));
    }
}
