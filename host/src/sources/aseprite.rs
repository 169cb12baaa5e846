//! Aseprite files (`.aseprite`, `.ase`) into one sprite.
//!
//! # What comes out
//!
//! - **Frames**: one [`SpriteFrame`] per Aseprite frame, the whole canvas (`x = y = 0`, image =
//!   canvas size; the writer trims), composited by the `asefile` crate from the visible layers
//!   with their blend modes and opacities, linked cels resolved. A layer counts as visible when its
//!   eye is on, its parent groups' eyes are on, and it is not a reference layer (those are tracing
//!   guides, not artwork). Fully transparent pixels are stored as `[0, 0, 0, 0]`.
//! - **Durations**: each frame's duration (milliseconds in the file) in seconds, in
//!   [`SpriteFrame::duration`] and in every animation's `durations` (one per relative frame, in
//!   tag order `from..=to` whatever the direction). A frame duration of 0 takes the header's
//!   (deprecated) speed, as the file format's specification says, and Aseprite's default 100 ms
//!   when that is 0 too.
//! - **Events**: the user-data text of the cels of visible layers, split at commas, trimmed, empty
//!   parts dropped, bottom layer first. A linked cel without text of its own uses the text of the
//!   cel it links to (Aseprite shares one cel data, user data included, between linked cels).
//! - **Animations**: one per tag, in file order: frames `from..=to`, the tag's direction as the
//!   play mode (forward, reverse, ping-pong, ping-pong reverse). A tag's repeat count 0 (Aseprite
//!   shows ∞) makes a looping animation (`looping = true`, `repeat = 0`); a count N > 0 a
//!   non-looping one with `repeat = N`, counted as Aseprite counts (for ping-pong each direction
//!   is one repeat). Without tags there is one looping forward animation `default` of every frame.
//!
//! # How the file is read
//!
//! The file is first walked chunk by chunk here (header, frame headers, chunk headers, layers,
//! cels, tags, user data, palettes, tilesets), so that a truncated or corrupt file is reported
//! with the byte offset and chunk where it goes wrong, and so that every count and size is checked
//! against the limits below before `asefile` reserves any memory for it. Then `asefile` 0.3.8
//! decodes and composites the pixels, from a copy of the bytes with these edits:
//!
//! - a tag direction 3 (ping-pong reverse, Aseprite 1.3) is written as 2: asefile 0.3.8 knows only
//!   0-2 and refuses the whole file otherwise. The real direction comes from the walk here.
//! - reference layers get their visible flag cleared, so asefile does not composite them.
//! - when the header says layer opacities are not valid (flag 1 clear), they are set to 255.
//! - an embedded ICC profile or fixed gamma in the colour-profile chunk is replaced by sRGB:
//!   asefile refuses both, and pixel values are taken as stored (no colour management).
//!
//! Refused as unsupported rather than composited wrongly: cels with a z-index other than 0 on a
//! visible layer, and visible groups with their own opacity or blend mode (header flag 2), which
//! asefile ignores. asefile also ignores tile flip flags in tilemaps.
//!
//! asefile 0.3.8 panics on some corrupt input that the walk cannot see without inflating the
//! pixel data (a compressed cel that inflates to fewer pixels than its size says, a tile index
//! outside its tileset): the asefile calls run under [`std::panic::catch_unwind`] and such a
//! panic becomes a "corrupt Aseprite file" error (its message is not printed). asefile inflates
//! compressed cels and tilesets without an output limit, so the walk inflates each one first
//! (streaming, keeping nothing) and refuses data that inflates to more than its declared size: a
//! compression bomb is an error, not an allocation.

use crate::error::HostError;
use crate::ir::{Origin, PlayMode, Project, RgbaImage, Sprite, SpriteAnimation, SpriteFrame, SpriteFrames};
use ossicle_format::sprite::{MAX_SPRITE_FRAMES, MAX_SPRITE_SIZE};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The most pixels a sprite may have, over all its canvas-sized frames (2²⁶ = 64 Mi pixels, 256 MiB
/// as RGBA8); the decoded cel, tile and tileset pixels of a file must fit in it too.
pub const MAX_SPRITE_PIXELS: u64 = 1 << 26;

/// The most timeline cells (frames × layers) an Aseprite file may have; asefile keeps a table of
/// that size.
pub const MAX_TIMELINE_CELLS: u64 = 1 << 20;

const HEADER_LEN: usize = 128;
const FRAME_HEADER_LEN: usize = 16;
const CHUNK_HEADER_LEN: usize = 6;
/// Aseprite's default frame duration.
const DEFAULT_FRAME_MS: u16 = 100;

/// Parses an Aseprite file read from `path` (the sprite is named after the file stem).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let scan = scan(path, bytes)?;
    let images = composite(path, &scan.patched(bytes), &scan.header)?;
    Ok(Project { sprites: vec![build_sprite(path, &scan, images)], ..Project::default() })
}

/// The sprite name for a source file: its stem.
pub(crate) fn sprite_name(path: &Path) -> String {
    match path.file_stem() {
        Some(s) if !s.is_empty() => s.to_string_lossy().into_owned(),
        _ => "sprite".to_string(),
    }
}

/// Splits a user-data text into event names.
pub(crate) fn split_events(text: &str, into: &mut Vec<String>) {
    into.extend(text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string));
}

// ---------------------------------------------------------------------------------------------
// The walk

#[derive(Clone, Copy)]
struct Header {
    frames: u16,
    width: u16,
    height: u16,
    flags: u32,
    speed: u16,
}

/// Header flag: layer opacity fields are valid.
const HEADER_OPACITY_VALID: u32 = 1;
/// Header flag: group layers have a valid opacity and blend mode.
const HEADER_GROUP_OPACITY_VALID: u32 = 2;

struct Layer {
    offset: usize,
    flags: u16,
    kind: u16,
    child_level: u16,
    blend: u16,
    opacity: u8,
    name: String,
    /// Visible in the export: its own eye and its groups' eyes on, not a reference layer.
    visible: bool,
}

const LAYER_VISIBLE: u16 = 1;
const LAYER_REFERENCE: u16 = 64;
const LAYER_IMAGE: u16 = 0;
const LAYER_GROUP: u16 = 1;
const LAYER_TILEMAP: u16 = 2;

struct Cel {
    offset: usize,
    frame: u16,
    layer: u16,
    kind: u16,
    z_index: i16,
    link: u16,
    text: Option<String>,
}

const CEL_RAW: u16 = 0;
const CEL_LINKED: u16 = 1;
const CEL_COMPRESSED: u16 = 2;
const CEL_TILEMAP: u16 = 3;

struct Tag {
    offset: usize,
    from: u16,
    to: u16,
    direction: u8,
    repeat: u16,
    name: String,
}

/// Everything the walk found, and the byte edits for asefile.
struct Scan {
    header: Header,
    bytes_per_pixel: u64,
    /// Decoded pixels so far (cels, tilemap tiles, tilesets).
    budget: Budget,
    frame_offsets: Vec<usize>,
    durations_ms: Vec<u16>,
    layers: Vec<Layer>,
    cels: Vec<Cel>,
    tags: Vec<Tag>,
    patches: Vec<(usize, u8)>,
}

impl Scan {
    fn patched(&self, bytes: &[u8]) -> Vec<u8> {
        let mut copy = bytes.to_vec();
        for &(at, value) in &self.patches {
            if let Some(b) = copy.get_mut(at) {
                *b = value;
            }
        }
        copy
    }
}

/// A bounded little-endian reader over one chunk's data; errors are reasons.
struct Cur<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cur<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let s = self.pos.checked_add(n).and_then(|end| self.data.get(self.pos..end)).ok_or_else(|| {
            format!("its data ends early: {what} needs {n} bytes at data offset {} of {}", self.pos, self.data.len())
        })?;
        self.pos += n;
        Ok(s)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn i16(&mut self, what: &str) -> Result<i16, String> {
        Ok(self.u16(what)? as i16)
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn string(&mut self, what: &str) -> Result<String, String> {
        let len = self.u16(what)? as usize;
        let b = self.take(len, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| format!("{what} is not UTF-8"))
    }
    fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }
    fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }
}

/// Checks that zlib data inflates to at most `limit` bytes without keeping the output (a
/// compression bomb is refused before asefile, which inflates without a limit, allocates for it).
fn check_inflated(data: &[u8], limit: u64, what: &str) -> Result<(), String> {
    use std::io::Read;
    let mut inflater = flate2::read::ZlibDecoder::new(data).take(limit.saturating_add(1));
    let n = std::io::copy(&mut inflater, &mut std::io::sink())
        .map_err(|e| format!("{what}: its zlib data is corrupt ({e})"))?;
    if n > limit {
        return Err(format!("{what}: its zlib data inflates to more than the {limit} bytes its size allows"));
    }
    Ok(())
}

fn le16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn chunk_name(kind: u16) -> &'static str {
    match kind {
        0x0004 | 0x0011 => "old palette",
        0x2004 => "layer",
        0x2005 => "cel",
        0x2006 => "cel extra",
        0x2007 => "colour profile",
        0x2008 => "external files",
        0x2016 => "mask",
        0x2017 => "path",
        0x2018 => "tags",
        0x2019 => "palette",
        0x2020 => "user data",
        0x2022 => "slice",
        0x2023 => "tileset",
        _ => "unknown",
    }
}

/// What the last chunk was, for the user-data chunk that follows it.
#[derive(Clone, Copy)]
enum Context {
    /// A cel (its index in `Scan::cels`).
    Cel(usize),
    /// Anything else, or nothing yet.
    Other,
}

/// A running total of decoded pixels, checked against [`MAX_SPRITE_PIXELS`].
struct Budget(u64);

impl Budget {
    fn spend(&mut self, pixels: u64, what: &str) -> Result<(), String> {
        self.0 = self.0.saturating_add(pixels);
        if self.0 > MAX_SPRITE_PIXELS {
            return Err(format!(
                "{what} brings the decoded pixels of the file over the {MAX_SPRITE_PIXELS}-pixel limit"
            ));
        }
        Ok(())
    }
}

fn scan(path: &Path, bytes: &[u8]) -> Result<Scan, HostError> {
    let at = |off: usize, reason: String| HostError::at(path, format!("byte {off}"), reason);
    if bytes.len() >= 6 && le16(bytes, 4) != 0xA5E0 {
        return Err(at(4, format!("not an Aseprite file: magic number is 0x{:04X}, expected 0xA5E0", le16(bytes, 4))));
    }
    if bytes.len() < HEADER_LEN {
        return Err(HostError::file(
            path,
            format!("truncated Aseprite file: {} bytes, shorter than the {HEADER_LEN}-byte header", bytes.len()),
        ));
    }
    let header = Header {
        frames: le16(bytes, 6),
        width: le16(bytes, 8),
        height: le16(bytes, 10),
        flags: le32(bytes, 14),
        speed: le16(bytes, 18),
    };
    let depth = le16(bytes, 12);
    if header.frames == 0 {
        return Err(at(6, "the file has no frames".into()));
    }
    if u32::from(header.frames) > MAX_SPRITE_FRAMES {
        return Err(at(6, format!("{} frames, over the limit of {MAX_SPRITE_FRAMES}", header.frames)));
    }
    for (off, side, name) in [(8, header.width, "width"), (10, header.height, "height")] {
        if side == 0 || u32::from(side) > MAX_SPRITE_SIZE {
            return Err(at(off, format!("canvas {name} {side} is outside 1..={MAX_SPRITE_SIZE}")));
        }
    }
    let canvas_pixels = u64::from(header.width) * u64::from(header.height) * u64::from(header.frames);
    if canvas_pixels > MAX_SPRITE_PIXELS {
        return Err(at(
            6,
            format!(
                "{} frames of {}×{} are {canvas_pixels} pixels, over the {MAX_SPRITE_PIXELS}-pixel limit",
                header.frames, header.width, header.height
            ),
        ));
    }
    let bytes_per_pixel: u64 = match depth {
        32 => 4,
        16 => 2,
        8 => 1,
        _ => return Err(at(12, format!("colour depth {depth} is not 8, 16 or 32 bits per pixel"))),
    };
    let (pw, ph) = (bytes[34], bytes[35]);
    if pw != 0 && ph != 0 && pw != ph {
        return Err(at(34, format!("pixel aspect ratio {pw}:{ph} is not supported (only 1:1)")));
    }

    let mut s = Scan {
        header,
        bytes_per_pixel,
        budget: Budget(0),
        frame_offsets: Vec::with_capacity(usize::from(le16(bytes, 6))),
        durations_ms: Vec::with_capacity(usize::from(le16(bytes, 6))),
        layers: Vec::new(),
        cels: Vec::new(),
        tags: Vec::new(),
        patches: Vec::new(),
    };
    let mut cel_at = HashSet::new();
    let mut o = HEADER_LEN;
    for f in 0..s.header.frames {
        if bytes.len() - o < FRAME_HEADER_LEN {
            return Err(at(o, format!("truncated Aseprite file: it ends inside the header of frame {f}")));
        }
        let size = le32(bytes, o) as usize;
        let magic = le16(bytes, o + 4);
        if magic != 0xF1FA {
            return Err(at(o + 4, format!("frame {f}: frame magic number is 0x{magic:04X}, expected 0xF1FA")));
        }
        if size < FRAME_HEADER_LEN {
            return Err(at(o, format!("frame {f}: frame size {size} is smaller than its 16-byte header")));
        }
        if size > bytes.len() - o {
            return Err(at(
                o,
                format!("truncated Aseprite file: frame {f} is {size} bytes, but only {} remain", bytes.len() - o),
            ));
        }
        let end = o + size;
        let old_count = le16(bytes, o + 6);
        let new_count = le32(bytes, o + 12);
        let count = if new_count == 0 { u32::from(old_count) } else { new_count };
        s.frame_offsets.push(o);
        s.durations_ms.push(le16(bytes, o + 8));
        let mut c = o + FRAME_HEADER_LEN;
        let mut context = Context::Other;
        for k in 0..count {
            if end - c < CHUNK_HEADER_LEN {
                return Err(at(c, format!("frame {f}: chunk {k} of {count} does not fit in the frame")));
            }
            let csize = le32(bytes, c) as usize;
            let kind = le16(bytes, c + 4);
            if csize < CHUNK_HEADER_LEN || csize > end - c {
                return Err(at(
                    c,
                    format!(
                        "frame {f}: {} chunk (0x{kind:04X}) size {csize} is outside {CHUNK_HEADER_LEN}..={}",
                        chunk_name(kind),
                        end - c
                    ),
                ));
            }
            let chunk = Cur { data: &bytes[c + CHUNK_HEADER_LEN..c + csize], pos: 0 };
            let result = scan_chunk(kind, chunk, c, f, &mut context, &mut s);
            result.map_err(|r| at(c, format!("frame {f}, {} chunk (0x{kind:04X}): {r}", chunk_name(kind))))?;
            c += csize;
        }
        if c != end {
            return Err(at(c, format!("frame {f}: its chunks end at byte {c}, but the frame ends at byte {end}")));
        }
        o = end;
    }
    for cel in &s.cels {
        if !cel_at.insert((cel.frame, cel.layer)) {
            return Err(at(cel.offset, format!("frame {}: a second cel on layer {}", cel.frame, cel.layer)));
        }
    }
    check_layers(path, &mut s)?;
    check_cels(path, &s)?;
    check_tags(path, &s)?;
    let cells = u64::from(s.header.frames) * s.layers.len() as u64;
    if cells > MAX_TIMELINE_CELLS {
        return Err(HostError::file(
            path,
            format!(
                "{} frames × {} layers are {cells} timeline cells, over the limit of {MAX_TIMELINE_CELLS}",
                s.header.frames,
                s.layers.len()
            ),
        ));
    }
    if s.header.flags & HEADER_OPACITY_VALID == 0 {
        for l in &s.layers {
            s.patches.push((l.offset + CHUNK_HEADER_LEN + 12, 255));
        }
    }
    Ok(s)
}

/// Reads one chunk (type `kind`, starting at byte `c` of frame `f`) into `s`; `context` is what
/// a following user-data chunk belongs to.
fn scan_chunk(kind: u16, mut cur: Cur, c: usize, f: u16, context: &mut Context, s: &mut Scan) -> Result<(), String> {
    let data_at = c + CHUNK_HEADER_LEN;
    let previous = std::mem::replace(context, Context::Other);
    match kind {
        0x0004 | 0x0011 | 0x2016 | 0x2017 | 0x2022 => Ok(()),
        0x2004 => scan_layer(&mut cur, c, s),
        0x2005 => {
            scan_cel(&mut cur, c, f, s)?;
            *context = Context::Cel(s.cels.len() - 1);
            Ok(())
        }
        0x2006 => {
            // Cel extra: user data after it still belongs to the cel.
            *context = previous;
            Ok(())
        }
        0x2007 => scan_colour_profile(&mut cur, data_at, s),
        0x2008 => {
            let n = cur.u32("entry count")?;
            // Each entry is at least 14 bytes; asefile reserves room for the count it reads.
            if u64::from(n) * 14 > cur.remaining().saturating_sub(8) as u64 {
                return Err(format!("{n} entries cannot fit in {} bytes", cur.remaining()));
            }
            Ok(())
        }
        0x2018 => scan_tags(&mut cur, data_at, f, s),
        0x2019 => scan_palette(&mut cur),
        0x2020 => {
            *context = previous;
            scan_user_data(&mut cur, previous, s)
        }
        0x2023 => scan_tileset(&mut cur, &mut s.budget, s.bytes_per_pixel),
        _ => Err("unknown chunk type".to_string()),
    }
}

fn scan_layer(cur: &mut Cur, offset: usize, s: &mut Scan) -> Result<(), String> {
    let flags = cur.u16("flags")?;
    let kind = cur.u16("layer type")?;
    let child_level = cur.u16("child level")?;
    cur.take(4, "default size")?;
    let blend = cur.u16("blend mode")?;
    let opacity = cur.u8("opacity")?;
    cur.take(3, "reserved bytes")?;
    let name = cur.string("layer name")?;
    if kind == LAYER_TILEMAP {
        cur.u32("tileset index")?;
    } else if kind > LAYER_TILEMAP {
        return Err(format!("layer {:?}: unknown layer type {kind}", name));
    }
    if blend > 18 {
        return Err(format!("layer {:?}: unknown blend mode {blend}", name));
    }
    if flags & LAYER_REFERENCE != 0 && flags & LAYER_VISIBLE != 0 {
        s.patches.push((offset + CHUNK_HEADER_LEN, (flags & !LAYER_VISIBLE) as u8));
    }
    s.layers.push(Layer { offset, flags, kind, child_level, blend, opacity, name, visible: false });
    Ok(())
}

fn scan_cel(cur: &mut Cur, offset: usize, frame: u16, s: &mut Scan) -> Result<(), String> {
    let bpp = s.bytes_per_pixel;
    let layer = cur.u16("layer index")?;
    cur.take(5, "position and opacity")?;
    let kind = cur.u16("cel type")?;
    let z_index = cur.i16("z-index")?;
    cur.take(5, "reserved bytes")?;
    let mut link = 0;
    match kind {
        CEL_RAW | CEL_COMPRESSED => {
            let (w, h) = (cur.u16("width")?, cur.u16("height")?);
            let pixels = u64::from(w) * u64::from(h);
            s.budget.spend(pixels, &format!("a {w}×{h} cel"))?;
            if kind == CEL_RAW && (cur.remaining() as u64) < pixels * bpp {
                return Err(format!(
                    "a raw {w}×{h} cel needs {} bytes of pixels, it has {}",
                    pixels * bpp,
                    cur.remaining()
                ));
            }
            if kind == CEL_COMPRESSED {
                check_inflated(cur.rest(), pixels * bpp, &format!("a compressed {w}×{h} cel"))?;
            }
        }
        CEL_LINKED => link = cur.u16("linked frame")?,
        CEL_TILEMAP => {
            let (w, h) = (cur.u16("width in tiles")?, cur.u16("height in tiles")?);
            let bits = cur.u16("bits per tile")?;
            if bits != 32 {
                return Err(format!("{bits} bits per tile are not supported (only 32)"));
            }
            cur.take(26, "tile masks")?;
            s.budget.spend(u64::from(w) * u64::from(h), &format!("a {w}×{h}-tile tilemap cel"))?;
            check_inflated(cur.rest(), u64::from(w) * u64::from(h) * 4, &format!("a {w}×{h}-tile tilemap cel"))?;
        }
        _ => return Err(format!("unknown cel type {kind}")),
    }
    s.cels.push(Cel { offset, frame, layer, kind, z_index, link, text: None });
    Ok(())
}

fn scan_colour_profile(cur: &mut Cur, data_at: usize, s: &mut Scan) -> Result<(), String> {
    let kind = cur.u16("profile type")?;
    let flags = cur.u16("flags")?;
    match kind {
        0 | 1 => {}
        2 => s.patches.push((data_at, 1)),
        _ => return Err(format!("unknown colour profile type {kind}")),
    }
    if flags & 1 != 0 {
        s.patches.push((data_at + 2, (flags & !1) as u8));
    }
    Ok(())
}

fn scan_tags(cur: &mut Cur, data_at: usize, frame: u16, s: &mut Scan) -> Result<(), String> {
    let count = cur.u16("tag count")?;
    cur.take(8, "reserved bytes")?;
    let mut tags = Vec::new();
    for i in 0..count {
        let offset = data_at + cur.pos;
        let from = cur.u16("from frame")?;
        let to = cur.u16("to frame")?;
        let direction = cur.u8("direction")?;
        let repeat = cur.u16("repeat")?;
        cur.take(10, "reserved bytes and colour")?;
        let name = cur.string("tag name")?;
        match direction {
            0..=2 => {}
            3 => s.patches.push((offset + 4, 2)),
            _ => {
                return Err(format!(
                    "tag {i} {name:?}: unknown direction {direction} (0 forward, 1 reverse, 2 ping-pong, 3 ping-pong reverse)"
                ))
            }
        }
        tags.push(Tag { offset, from, to, direction, repeat, name });
    }
    // asefile keeps the tags of frame 0 only (Aseprite writes them there); a later tags chunk in
    // frame 0 replaces an earlier one.
    if frame == 0 {
        s.tags = tags;
    }
    Ok(())
}

fn scan_palette(cur: &mut Cur) -> Result<(), String> {
    cur.u32("palette size")?;
    let first = cur.u32("first index")?;
    let last = cur.u32("last index")?;
    cur.take(8, "reserved bytes")?;
    if last < first {
        return Err(format!("last colour index {last} is before the first {first}"));
    }
    let entries = u64::from(last - first) + 1;
    // Each entry is at least 6 bytes.
    if entries * 6 > cur.remaining() as u64 {
        return Err(format!("{entries} colours cannot fit in {} bytes", cur.remaining()));
    }
    Ok(())
}

fn scan_user_data(cur: &mut Cur, context: Context, s: &mut Scan) -> Result<(), String> {
    let flags = cur.u32("flags")?;
    if flags & 1 != 0 {
        let text = cur.string("text")?;
        if let Context::Cel(i) = context {
            if let Some(cel) = s.cels.get_mut(i) {
                cel.text = Some(text);
            }
        }
    }
    Ok(())
}

fn scan_tileset(cur: &mut Cur, budget: &mut Budget, bpp: u64) -> Result<(), String> {
    cur.u32("tileset id")?;
    let flags = cur.u32("flags")?;
    let count = cur.u32("tile count")?;
    let (w, h) = (cur.u16("tile width")?, cur.u16("tile height")?);
    cur.take(16, "base index and reserved bytes")?;
    cur.string("tileset name")?;
    if flags & 2 != 0 {
        let pixels = u64::from(count) * u64::from(w) * u64::from(h);
        // asefile multiplies these in 32 bits; the budget also keeps that from overflowing.
        budget.spend(pixels, &format!("a tileset of {count} {w}×{h} tiles"))?;
        if flags & 1 != 0 {
            // Skip the external file reference (u32 file id, u32 tileset id) that comes first.
            cur.take(8, "external tileset reference")?;
        }
        let len = cur.u32("compressed tileset length")? as usize;
        let data = cur.take(len, "compressed tileset data")?;
        check_inflated(data, pixels * bpp, &format!("a tileset of {count} {w}×{h} tiles"))?;
    }
    Ok(())
}

/// Parents from child levels (as Aseprite writes them), visibility, group checks.
fn check_layers(path: &Path, s: &mut Scan) -> Result<(), HostError> {
    let group_valid = s.header.flags & HEADER_GROUP_OPACITY_VALID != 0;
    for i in 0..s.layers.len() {
        let level = s.layers[i].child_level;
        let bad = |reason: String| HostError::at(path, format!("byte {}", s.layers[i].offset), reason);
        let parent = if level == 0 {
            None
        } else {
            let prev = i.checked_sub(1).map(|p| &s.layers[p]);
            match prev {
                Some(p) if u32::from(level) > u32::from(p.child_level) + 1 => None,
                Some(p) if u32::from(level) == u32::from(p.child_level) + 1 && p.kind != LAYER_GROUP => None,
                Some(_) => (0..i).rev().find(|&p| s.layers[p].child_level < level),
                None => None,
            }
            .map(Some)
            .ok_or_else(|| {
                bad(format!(
                    "layer {i} {:?}: child level {level} does not follow a group layer's level",
                    s.layers[i].name
                ))
            })?
        };
        let own = s.layers[i].flags & LAYER_VISIBLE != 0 && s.layers[i].flags & LAYER_REFERENCE == 0;
        let visible = own && parent.is_none_or(|p| s.layers[p].visible);
        let l = &mut s.layers[i];
        l.visible = visible;
        if l.kind == LAYER_GROUP && visible && group_valid && (l.opacity != 255 || l.blend != 0) {
            return Err(HostError::at(
                path,
                format!("byte {}", l.offset),
                format!(
                    "group layer {:?} has opacity {} and blend mode {}: group opacity and blend modes are \
                     not supported (asefile composites a group's layers directly)",
                    l.name, l.opacity, l.blend
                ),
            ));
        }
    }
    Ok(())
}

fn check_cels(path: &Path, s: &Scan) -> Result<(), HostError> {
    let kinds: HashMap<(u16, u16), u16> = s.cels.iter().map(|c| ((c.frame, c.layer), c.kind)).collect();
    for c in &s.cels {
        let bad = |reason: String| {
            HostError::at(path, format!("byte {}", c.offset), format!("frame {}, cel chunk: {reason}", c.frame))
        };
        let Some(layer) = s.layers.get(usize::from(c.layer)) else {
            return Err(bad(format!("layer index {} but the file has {} layers", c.layer, s.layers.len())));
        };
        match (layer.kind, c.kind) {
            (LAYER_GROUP, _) => return Err(bad(format!("a cel on group layer {:?}", layer.name))),
            (LAYER_TILEMAP, CEL_RAW | CEL_COMPRESSED) | (LAYER_IMAGE, CEL_TILEMAP) => {
                return Err(bad(format!("cel type {} does not match layer {:?}'s type", c.kind, layer.name)))
            }
            _ => {}
        }
        if c.kind == CEL_LINKED {
            if c.link >= s.header.frames {
                return Err(bad(format!("linked to frame {}, but the file has {} frames", c.link, s.header.frames)));
            }
            if !matches!(kinds.get(&(c.link, c.layer)), Some(&(CEL_RAW | CEL_COMPRESSED))) {
                return Err(bad(format!(
                    "linked to frame {}, which has no image cel on layer {:?}",
                    c.link, layer.name
                )));
            }
        }
        if c.z_index != 0 && layer.visible {
            return Err(bad(format!(
                "z-index {} on layer {:?}: cel z-indices are not supported (asefile composites in layer order)",
                c.z_index, layer.name
            )));
        }
    }
    Ok(())
}

fn check_tags(path: &Path, s: &Scan) -> Result<(), HostError> {
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (i, t) in s.tags.iter().enumerate() {
        let bad = |reason: String| {
            HostError::at(path, format!("byte {}", t.offset), format!("tag {i} {:?}: {reason}", t.name))
        };
        if t.from > t.to || t.to >= s.header.frames {
            return Err(bad(format!("frames {}..={} are not inside 0..={}", t.from, t.to, s.header.frames - 1)));
        }
        if t.name.is_empty() {
            return Err(bad("the tag has no name".into()));
        }
        if let Some(first) = names.insert(&t.name, i) {
            return Err(bad(format!("tag {first} has the same name (animation names must be unique)")));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Pixels (asefile)

/// Runs asefile over the patched bytes and returns every frame's composited canvas.
fn composite(path: &Path, patched: &[u8], header: &Header) -> Result<Vec<RgbaImage>, HostError> {
    let Header { frames, width, height, .. } = *header;
    let run = || -> Result<Vec<RgbaImage>, asefile::AsepriteParseError> {
        let file = asefile::AsepriteFile::read(patched)?;
        let images = (0..file.num_frames()).map(|i| {
            // An `image` 0.24 `RgbaImage`: RGBA8 rows, top first.
            let image = file.frame(i).image();
            let (width, height) = image.dimensions();
            let pixels = image
                .into_raw()
                .chunks_exact(4)
                .map(|p| if p[3] == 0 { [0; 4] } else { [p[0], p[1], p[2], p[3]] })
                .collect();
            RgbaImage { width, height, pixels }
        });
        Ok(images.collect())
    };
    let images = match quietly(run) {
        Ok(Ok(images)) => images,
        Ok(Err(e)) => return Err(HostError::file(path, format!("cannot read the Aseprite file: {e}"))),
        Err(message) => {
            return Err(HostError::file(path, format!("corrupt Aseprite file (the asefile reader failed: {message})")))
        }
    };
    // The walk checked the header asefile read; this only guards against a disagreement.
    if images.len() != usize::from(frames)
        || images.iter().any(|i| i.width != u32::from(width) || i.height != u32::from(height))
    {
        return Err(HostError::file(path, "corrupt Aseprite file: asefile's frames differ from the file's header"));
    }
    Ok(images)
}

/// Calls `f`, turning a panic into `Err(message)` without printing the panic message (asefile
/// panics on some corrupt input). Only panics on this thread while `f` runs are silenced.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    use std::cell::Cell;
    use std::sync::Once;
    thread_local!(static QUIET: Cell<bool> = const { Cell::new(false) });
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string())
    })
}

// ---------------------------------------------------------------------------------------------
// IR

fn build_sprite(path: &Path, s: &Scan, images: Vec<RgbaImage>) -> Sprite {
    let origin = |place: String| Origin { file: path.to_path_buf(), place };
    let seconds: Vec<f64> = s
        .durations_ms
        .iter()
        .map(|&ms| {
            let ms = match (ms, s.header.speed) {
                (0, 0) => DEFAULT_FRAME_MS,
                (0, speed) => speed,
                (ms, _) => ms,
            };
            f64::from(ms) / 1000.0
        })
        .collect();
    let cels: HashMap<(u16, u16), &Cel> = s.cels.iter().map(|c| ((c.frame, c.layer), c)).collect();
    let frames = images
        .into_iter()
        .enumerate()
        .map(|(f, image)| {
            let mut events = Vec::new();
            for (l, layer) in s.layers.iter().enumerate() {
                if !layer.visible || layer.kind == LAYER_GROUP {
                    continue;
                }
                let Some(cel) = cels.get(&(f as u16, l as u16)) else { continue };
                let text = cel.text.as_deref().or_else(|| {
                    (cel.kind == CEL_LINKED).then(|| cels.get(&(cel.link, l as u16)).and_then(|t| t.text.as_deref()))?
                });
                if let Some(text) = text {
                    split_events(text, &mut events);
                }
            }
            SpriteFrame {
                image,
                x: 0,
                y: 0,
                duration: Some(seconds[f]),
                events,
                origin: origin(format!("byte {} (frame {f})", s.frame_offsets[f])),
            }
        })
        .collect();
    let animations = if s.tags.is_empty() {
        vec![SpriteAnimation {
            name: "default".into(),
            frames: SpriteFrames::Range { start: 0, end: u32::from(s.header.frames) - 1 },
            fps: 0.0,
            durations: Some(seconds.clone()),
            looping: true,
            repeat: 0,
            mode: PlayMode::Forward,
            events: None,
            origin: origin(String::new()),
        }]
    } else {
        s.tags
            .iter()
            .enumerate()
            .map(|(i, t)| SpriteAnimation {
                name: t.name.clone(),
                frames: SpriteFrames::Range { start: u32::from(t.from), end: u32::from(t.to) },
                fps: 0.0,
                durations: Some(seconds[usize::from(t.from)..=usize::from(t.to)].to_vec()),
                looping: t.repeat == 0,
                repeat: u32::from(t.repeat),
                mode: match t.direction {
                    0 => PlayMode::Forward,
                    1 => PlayMode::Reverse,
                    2 => PlayMode::PingPong,
                    _ => PlayMode::PingPongReverse,
                },
                events: None,
                origin: origin(format!("byte {} (tag {i})", t.offset)),
            })
            .collect()
    };
    Sprite {
        name: sprite_name(path),
        width: u32::from(s.header.width),
        height: u32::from(s.header.height),
        frames,
        animations,
        origin: origin(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_comma_separated_and_trimmed() {
        let mut events = vec!["first".to_string()];
        split_events(" a, b ,, ,c d,", &mut events);
        assert_eq!(events, ["first", "a", "b", "c d"]);
        split_events("", &mut events);
        assert_eq!(events.len(), 4);
    }

    #[test]
    fn chunk_reader_says_what_ends_early() {
        let mut cur = Cur { data: &[1, 0, 3, 0, b'a', b'b'], pos: 0 };
        assert_eq!(cur.u16("count"), Ok(1));
        assert_eq!(cur.string("name").unwrap_err(), "its data ends early: name needs 3 bytes at data offset 4 of 6");
        let mut bad = Cur { data: &[2, 0, 0xFF, 0xFE], pos: 0 };
        assert_eq!(bad.string("tag name").unwrap_err(), "tag name is not UTF-8");
        assert_eq!(sprite_name(Path::new("dir/walk.cycle.aseprite")), "walk.cycle");
        assert_eq!(sprite_name(Path::new("")), "sprite");
    }
}
