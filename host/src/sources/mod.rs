//! Source parsers: each turns one kind of artist or tool file into [`Project`] IR.

pub mod animxml;
pub mod aseprite;
pub mod aseprite_json;
pub mod eva;
pub mod evac;
pub mod png_util;
pub mod pngseq;
pub mod scene;
pub mod testsrc;
pub mod texturepacker;

use crate::error::{io_reason, HostError};
use crate::ir::Project;
use std::io::Read;
use std::path::Path;

/// The largest source file the host reads (checked before reading).
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file of at most `limit` bytes, checking the size before reading anything.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, HostError> {
    let file = std::fs::File::open(path).map_err(|e| HostError::file(path, io_reason(&e)))?;
    let meta = file.metadata().map_err(|e| HostError::file(path, io_reason(&e)))?;
    if meta.is_dir() {
        return Err(HostError::file(path, "is a directory, not a file"));
    }
    if meta.len() > limit {
        return Err(HostError::file(path, format!("file is {} bytes, over the {limit}-byte limit", meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // `take` guards against a file that grows while it is read.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| HostError::file(path, io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(HostError::file(path, format!("file is over the {limit}-byte limit")));
    }
    Ok(bytes)
}

/// Reads and parses one source: a file (parser chosen by its name and content) or a folder of
/// numbered PNGs.
pub fn load_source(path: &Path) -> Result<Project, HostError> {
    if path.is_dir() {
        return pngseq::load(path);
    }
    let limit = if has_extension(path, "evac") { evac::MAX_FILE_BYTES as u64 } else { MAX_SOURCE_BYTES };
    let bytes = read_limited(path, limit)?;
    parse_source(path, &bytes)
}

/// Reads and parses several source files into one project, in order (what `ossicle build` does
/// before writing the blob).
///
/// A sprite file that several inputs bring in (scenes showing it with `src`, or also given as an
/// input itself) is built once. Two scenes with one name are an error at the second's name.
pub fn load_sources<P: AsRef<Path>>(paths: &[P]) -> Result<Project, HostError> {
    load_sources_with(paths, None)
}

/// [`load_sources`], with Unity clips' path hashes also resolved against `unity_paths` (a file of
/// paths, one per line, or a type-tree dump with an `m_TOS` table; see
/// [`PathTable::parse`](crate::unity::PathTable::parse)).
pub fn load_sources_with<P: AsRef<Path>>(paths: &[P], unity_paths: Option<&Path>) -> Result<Project, HostError> {
    let mut project = Project::default();
    for path in paths {
        let mut p = load_source(path.as_ref())?;
        p.sprites.retain(|sp| {
            !project.sprites.iter().any(|o| o.name == sp.name && same_file(&o.origin.file, &sp.origin.file))
        });
        for scene in &p.scenes {
            if let Some(first) = project.scenes.iter().find(|o| o.name == scene.name) {
                return Err(HostError::at(
                    &scene.file,
                    &scene.place,
                    format!("a scene called {:?} is already defined by {}", scene.name, first.file.display()),
                ));
            }
        }
        project.merge(p);
    }
    let table = match unity_paths {
        Some(file) => {
            let bytes = read_limited(file, crate::unity::MAX_SOURCE_BYTES)?;
            crate::unity::PathTable::parse(&bytes).map_err(|e| e.into_host(file))?
        }
        None => crate::unity::PathTable::default(),
    };
    crate::unity::resolve(&mut project, table)?;
    Ok(project)
}

/// Whether `path`'s extension is `ext` (ASCII case ignored).
fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Whether two paths name the same file (compared canonically when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// What each kind of source is, for messages.
pub const SUPPORTED: &str = "supported sources: Aseprite files (.aseprite, .ase), Aseprite JSON exports and \
TexturePacker JSON sheets (.json with \"frames\"), ossicle test sources (.json with \"format\": \"ossicle-test/1\"), \
animation sets (.anim.xml), scenes (.xml with a <scene> or <node> root), EVA skeleton + clip text (.eva), EVAC skeletal clips (.evac), Unity AnimationClips (editor \
.anim YAML, or type-tree JSON dumps with m_MuscleClip) and folders of numbered PNGs";

/// Parses source bytes that came from `path`: the file name chooses between Aseprite, EVA, XML and
/// JSON, and a JSON document's content chooses between a test source, an Aseprite export and a
/// TexturePacker sheet.
pub fn parse_source(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "aseprite" | "ase" => aseprite::parse(path, bytes),
        "eva" => eva::parse(path, bytes),
        "evac" => evac::parse(path, bytes),
        "anim" => unity_source(path, bytes),
        "xml" if is_scene(bytes) => load_scene(path, bytes),
        "xml" => animxml::parse(path, bytes),
        "json" => match json_kind(bytes) {
            JsonKind::Test => testsrc::parse(path, bytes),
            JsonKind::Aseprite => aseprite_json::parse(path, bytes),
            JsonKind::TexturePacker => texturepacker::parse(path, bytes),
            JsonKind::Unity => unity_source(path, bytes),
            JsonKind::Unknown(why) => Err(HostError::file(path, why)),
        },
        _ => Err(HostError::file(
            path,
            format!(
                "unknown source type {}: {SUPPORTED}",
                if ext.is_empty() { "(no extension)".to_string() } else { format!(".{ext}") }
            ),
        )),
    }
}

/// Parses a scene file and loads the sprite sources its AnimatedSprite nodes name with `src`
/// (relative to the scene file; each file once). A node with `src` and no `sprite` shows the
/// sprite that file defines (it must define exactly one).
fn load_scene(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let mut scene = scene::parse(path, bytes)?;
    let mut project = Project::default();
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut loaded: Vec<(std::path::PathBuf, Vec<String>)> = Vec::new();
    for node in &mut scene.nodes {
        let Some(src) = node.src.clone() else { continue };
        let file = dir.join(&src);
        let names = match loaded.iter().find(|(f, _)| same_file(f, &file)) {
            Some((_, names)) => names.clone(),
            None => {
                let p = load_source(&file)
                    .map_err(|e| HostError::at(path, &node.place, format!("node {}: src {src:?}: {e}", node.path)))?;
                if !p.scenes.is_empty() || !p.tests.is_empty() {
                    return Err(HostError::at(
                        path,
                        &node.place,
                        format!("node {}: src {src:?} is not a sprite source", node.path),
                    ));
                }
                if p.sprites.is_empty() {
                    return Err(HostError::at(
                        path,
                        &node.place,
                        format!("node {}: src {src:?} defines no sprite", node.path),
                    ));
                }
                let names: Vec<String> = p.sprites.iter().map(|s| s.name.clone()).collect();
                project.merge(p);
                loaded.push((file.clone(), names.clone()));
                names
            }
        };
        if node.sprite.is_none() {
            match names.as_slice() {
                [one] => node.sprite = Some(one.clone()),
                _ => {
                    return Err(HostError::at(
                        path,
                        &node.place,
                        format!(
                            "node {}: src {src:?} defines {} sprites ({}); say which with sprite=\"...\"",
                            node.path,
                            names.len(),
                            names.join(", ")
                        ),
                    ))
                }
            }
        }
    }
    project.scenes.push(scene);
    Ok(project)
}

/// Whether XML bytes are a scene (root `<scene>` or `<node>`) rather than an animation set.
fn is_scene(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes.get(..4096).unwrap_or(bytes));
    // A UTF-8 byte order mark is not white space to `trim_start`.
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(&text);
    // Skip the declaration, comments and white space before the root element.
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("<?") {
            rest = r.split_once("?>").map_or("", |(_, a)| a);
        } else if let Some(r) = rest.strip_prefix("<!--") {
            rest = r.split_once("-->").map_or("", |(_, a)| a);
        } else {
            break;
        }
    }
    rest.starts_with("<scene") || rest.starts_with("<node")
}

enum JsonKind {
    Test,
    Aseprite,
    TexturePacker,
    Unity,
    Unknown(String),
}

/// Which JSON source a document is (a parse error is left to the chosen parser, which reports it
/// with its place).
/// A Unity clip (editor YAML or type-tree JSON), kept for [`crate::unity::resolve`].
fn unity_source(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let clip = crate::unity::read_source(bytes).map_err(|e| e.into_host(path))?;
    let origin = crate::ir::Origin { file: path.to_path_buf(), place: format!("clip {}", clip.name) };
    Ok(Project { unity: vec![crate::ir::UnitySource { clip, origin }], ..Project::default() })
}

fn json_kind(bytes: &[u8]) -> JsonKind {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        // Malformed JSON: let the sheet parser say where.
        return JsonKind::TexturePacker;
    };
    let Some(obj) = v.as_object() else {
        return JsonKind::Unknown("JSON is not an object: neither a sprite sheet nor an ossicle test source".into());
    };
    let unity_keys = ["m_MuscleClip", "m_ClipBindingConstant", "m_AnimationClipSettings"];
    let body = obj.get("data").and_then(|d| d.as_object()).unwrap_or(obj);
    if unity_keys.iter().any(|k| body.contains_key(*k)) {
        return JsonKind::Unity;
    }
    if obj.contains_key("format") && !obj.contains_key("frames") {
        return JsonKind::Test;
    }
    if !obj.contains_key("frames") {
        return JsonKind::Unknown(
            "JSON that is not a sprite sheet (no \"frames\") nor an ossicle test source (no \"format\")".into(),
        );
    }
    let app = v.pointer("/meta/app").and_then(|a| a.as_str()).unwrap_or("");
    if app.to_ascii_lowercase().contains("aseprite") {
        JsonKind::Aseprite
    } else {
        JsonKind::TexturePacker
    }
}
