//! `ossicle inspect`: what a blob holds, as text or JSON.

use crate::error::HostError;
use ossicle::asset::{Asset, LoadError};
use ossicle_format::{SectionKind, HEADER_LEN};
use serde_json::{json, Value};
use std::path::Path;

/// The place in a blob that a load error concerns, for messages.
pub fn load_error_place(e: &LoadError) -> String {
    match e {
        LoadError::TooShort { .. } => String::new(),
        LoadError::BadMagic { .. } => "byte 0".into(),
        LoadError::UnsupportedVersion { .. } => "byte 4".into(),
        LoadError::UnknownEncoding { .. } => "byte 6".into(),
        LoadError::ReservedByte { .. } => "byte 7".into(),
        LoadError::LengthMismatch { .. } => "byte 8".into(),
        LoadError::ChecksumMismatch { .. } => "byte 12".into(),
        LoadError::MalformedIndex | LoadError::TrailingIndexBytes { .. } | LoadError::DirectoryLength { .. } => {
            format!("byte {HEADER_LEN} (index)")
        }
        LoadError::UnknownSection { section, .. }
        | LoadError::SectionOutOfBounds { section, .. }
        | LoadError::DuplicateSection { section, .. }
        | LoadError::MalformedSection { section, .. } => format!("section {section}"),
    }
}

/// Loads `bytes` (read from `path`) with the kernel's loader, turning refusals into host errors.
pub fn load<'a>(path: &Path, bytes: &'a [u8]) -> Result<Asset<'a>, HostError> {
    Asset::load(bytes).map_err(|e| HostError::at(path, load_error_place(&e), e.to_string()))
}

/// A description of the blob as JSON (the `--json` output).
pub fn describe_json(path: &Path, bytes: &[u8]) -> Result<Value, HostError> {
    let asset = load(path, bytes)?;
    let blob = asset.blob();
    let header = blob.header();
    let encoding = header.encoding;
    let mut sections = Vec::new();
    for (i, rec) in blob.records().enumerate() {
        let mut s = json!({ "index": i, "offset": rec.offset, "len": rec.len });
        match SectionKind::from_u32(rec.kind) {
            Some(SectionKind::Strings) => {
                s["kind"] = json!("strings");
                s["count"] = json!(asset.strings().len());
            }
            Some(SectionKind::Test) => {
                s["kind"] = json!("test");
            }
            Some(SectionKind::Sprite) => {
                s["kind"] = json!("sprite");
            }
            Some(SectionKind::Scene) => {
                s["kind"] = json!("scene");
            }
            Some(k @ (SectionKind::Skeleton | SectionKind::SkelClip)) => {
                s["kind"] = json!(k.name());
            }
            None => s["kind"] = json!(rec.kind),
        }
        sections.push(s);
    }
    let tests: Vec<Value> = asset
        .test_sections()
        .map(|t| {
            let values: Vec<f64> = test_words(&t).map(|w| encoding.decode_f64(w)).collect();
            json!({ "name": t.name(), "values": values })
        })
        .collect();
    Ok(json!({
        "file": path.display().to_string(),
        "size": bytes.len(),
        "version": header.version,
        "encoding": encoding.name(),
        "payload_len": header.payload_len,
        "crc32": format!("{:#010x}", header.crc32),
        "sections": sections,
        "strings": asset.strings().iter().collect::<Vec<_>>(),
        "tests": tests,
        "sprites": asset.sprites().map(|sp| describe_sprite(&asset, &sp)).collect::<Vec<_>>(),
        "scenes": asset.scenes().map(|sc| describe_scene(&sc)).collect::<Vec<_>>(),
        "skeletons": asset.skeletons().zip(section_lens(&asset, SectionKind::Skeleton))
            .map(|(sk, len)| describe_skeleton(&sk, len)).collect::<Vec<_>>(),
        "skel_clips": asset.skel_clips().zip(section_lens(&asset, SectionKind::SkelClip))
            .map(|(c, len)| describe_skel_clip(&c, len)).collect::<Vec<_>>(),
    }))
}

/// The body lengths of the sections of `kind`, in directory order.
fn section_lens(asset: &Asset<'_>, kind: SectionKind) -> Vec<u32> {
    asset.blob().records().filter(|r| r.kind == kind as u32).map(|r| r.len).collect()
}

/// A skeleton's bones (name, parent, LOD) and section bytes, as JSON.
pub fn describe_skeleton(sk: &ossicle::skeleton::BlobSkeleton<'_>, bytes: u32) -> Value {
    let sec = sk.section();
    let bones: Vec<Value> = (0..sk.bone_count())
        .filter_map(|i| sec.bone(i).map(|b| (i, b)))
        .map(|(i, b)| json!({ "name": sk.bone_name(i), "parent": b.parent, "lod": b.lod }))
        .collect();
    json!({ "name": sk.name(), "dimension": sk.dimension().name(), "bones": bones, "bytes": bytes })
}

/// A skeletal clip's header, counts (animated bones, channels, keys, quantised channels, events)
/// and section bytes, as JSON.
pub fn describe_skel_clip(c: &ossicle::skeleton::BlobSkelClip<'_>, bytes: u32) -> Value {
    let sec = c.section();
    let enc = sec.encoding();
    let (mut tracks, mut channels, mut keys, mut quantized) = (0usize, 0usize, 0u64, 0usize);
    for b in 0..sec.bone_count() {
        let recs: Vec<_> = (0..3).filter_map(|ch| sec.channel(b, ch)).filter(|r| r.key_count() > 0).collect();
        tracks += usize::from(!recs.is_empty());
        channels += recs.len();
        keys += recs.iter().map(|r| u64::from(r.key_count())).sum::<u64>();
        quantized += recs.iter().filter(|r| r.quantized()).count();
    }
    let events: Vec<Value> = (0..sec.event_count())
        .filter_map(|i| sec.event(i))
        .map(|(t, n)| json!({ "time": enc.decode_f64(t), "name": sec.strings().get(n) }))
        .collect();
    json!({
        "name": c.name(), "skeleton": c.skeleton_name(), "dimension": c.dimension().name(),
        "duration": enc.decode_f64(sec.duration()), "sample_rate": enc.decode_f64(sec.sample_rate()),
        "looping": sec.looping(), "bones": sec.bone_count(), "tracks": tracks, "channels": channels, "keys": keys,
        "quantized_channels": quantized, "events": events, "bytes": bytes,
    })
}

/// A sprite's canvas, storage, frames and animations, as JSON.
pub fn describe_sprite(asset: &Asset<'_>, sp: &ossicle::sprite::BlobSprite<'_>) -> Value {
    use ossicle_format::sprite::{ANIM_FLAG_DURATIONS, ANIM_FLAG_EVENTS, ANIM_FLAG_LIST, FRAME_FLAG_RLE};
    let sec = sp.section();
    let encoding = sec.encoding();
    let words = sec.words();
    let word = |at: u32, k: u32| words.get(at as usize + k as usize).unwrap_or(0);
    let frames: Vec<Value> = (0..sp.frame_count())
        .filter_map(|i| sec.frame_record(i))
        .map(|r| {
            json!({ "x": r.x, "y": r.y, "w": r.w, "h": r.h, "rle": r.flags & FRAME_FLAG_RLE != 0,
                    "offset": r.offset, "bytes": r.len })
        })
        .collect();
    let animations: Vec<Value> = (0..sec.animation_count())
        .filter_map(|i| sec.animation(i))
        .map(|a| {
            let n = a.frame_count;
            let list: Vec<u32> = (0..n)
                .map(|k| {
                    if a.flags & ANIM_FLAG_LIST != 0 {
                        word(a.start, k)
                    } else if a.end >= a.start {
                        a.start + k
                    } else {
                        a.start - k
                    }
                })
                .collect();
            let durations: Option<Vec<f64>> = (a.flags & ANIM_FLAG_DURATIONS != 0)
                .then(|| (0..n).map(|k| encoding.decode_f64(word(a.durations, k))).collect());
            let events: Option<Vec<Vec<&str>>> = (a.flags & ANIM_FLAG_EVENTS != 0).then(|| {
                (0..n)
                    .map(|k| {
                        let (first, count) = (word(a.events, 2 * k), word(a.events, 2 * k + 1));
                        (0..count).filter_map(|e| asset.string(word(first, e))).collect()
                    })
                    .collect()
            });
            let mode = ["forward", "reverse", "pingpong", "pingpong_reverse"][usize::from(a.mode() & 3)];
            json!({
                "name": asset.string(a.name), "frames": list, "frame_time": encoding.decode_f64(a.frame_time),
                "durations": durations, "looping": a.looping(), "repeat": a.repeat, "mode": mode, "events": events,
            })
        })
        .collect();
    json!({
        "name": sp.name(),
        "width": sp.width(),
        "height": sp.height(),
        "format": sp.format().name(),
        "transparency": sp.transparency().name(),
        "key": sec.key(),
        "palette_entries": sp.palette().len() / 3,
        "pixel_bytes": sp.pixel_bytes(),
        "frames": frames,
        "animations": animations,
    })
}

/// A scene's nodes, Animators (clips, tracks, keys) and state machines, as JSON.
pub fn describe_scene(sc: &ossicle::scene::BlobScene<'_>) -> Value {
    use ossicle::statemachine::{MachineSource, TransitionFrom};
    use ossicle_format::scene::CLIP_LOOP;
    let sec = sc.section();
    let path = |n: usize| {
        let mut parts = Vec::new();
        let mut at = Some(n);
        while let Some(i) = at.filter(|_| parts.len() < 64) {
            let node = sc.node(i);
            parts.push(node.map_or("?", |x| x.name));
            at = node.and_then(|x| x.parent);
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    };
    let nodes: Vec<Value> = (0..sc.node_count())
        .filter_map(|i| sc.node(i).map(|n| (i, n)))
        .map(|(i, n)| json!({ "path": path(i), "kind": n.kind, "sprite": n.sprite, "animation": n.animation }))
        .collect();
    // Animators straight from the section's records (names from the string table): no scalar type
    // is needed for what is shown.
    let animators: Vec<Value> = (0..sc.animator_count())
        .filter_map(|i| sec.animator(i))
        .map(|a| {
            let clips: Vec<Value> = (0..a.clip_count as usize)
                .filter_map(|c| sec.clip_record(a.first_clip as usize + c))
                .map(|r| {
                    let keys: u32 = (0..r.track_count)
                        .filter_map(|t| sec.track_record((r.first_track + t) as usize))
                        .map(|t| t.key_count)
                        .sum();
                    json!({
                        "name": sc.string(r.name), "length": sec.encoding().decode_f64(r.length),
                        "loop": r.flags & CLIP_LOOP != 0, "tracks": r.track_count, "keys": keys,
                    })
                })
                .collect();
            json!({ "node": path(a.node as usize), "autoplay": a.autoplay, "clips": clips })
        })
        .collect();
    let machines: Vec<Value> = (0..sc.machine_count())
        .map(|i| {
            let rec = sec.machine(i);
            let f = sc.machine::<f32>(i).ok().flatten();
            let q = sc.machine::<ossicle::Q16>(i).ok().flatten();
            let state_name = |s: usize| f.and_then(|m| m.state_name(s)).or_else(|| q.and_then(|m| m.state_name(s)));
            let states: Vec<Value> = (0..rec.map_or(0, |r| r.state_count as usize))
                .map(|s| {
                    let anim =
                        f.and_then(|m| m.state_animation_name(s)).or_else(|| q.and_then(|m| m.state_animation_name(s)));
                    json!({ "name": state_name(s), "animation": anim })
                })
                .collect();
            let params: Vec<Value> = (0..rec.map_or(0, |r| r.param_count as usize))
                .map(|p| {
                    let name = f.and_then(|m| m.param_name(p)).or_else(|| q.and_then(|m| m.param_name(p)));
                    let kind = f
                        .and_then(|m| m.param(p))
                        .map(|x| x.kind)
                        .or_else(|| q.and_then(|m| m.param(p)).map(|x| x.kind));
                    json!({ "name": name, "kind": format!("{:?}", kind.unwrap_or_default()) })
                })
                .collect();
            let transitions: Vec<Value> = (0..rec.map_or(0, |r| r.transition_count as usize))
                .map(|t| {
                    let (from, to) = f
                        .and_then(|m| m.transition(t).map(|x| (x.from, x.to)))
                        .or_else(|| q.and_then(|m| m.transition(t).map(|x| (x.from, x.to))))
                        .unwrap_or((TransitionFrom::Any, 0));
                    let from = match from {
                        TransitionFrom::Any => Some("*"),
                        TransitionFrom::State(s) => state_name(s),
                    };
                    json!({ "from": from, "to": state_name(to) })
                })
                .collect();
            json!({
                "node": sc.machine_node(i).map(path),
                "sprite": sc.machine_sprite(i).map(path),
                "start": rec.and_then(|r| state_name(r.start as usize)),
                "params": params, "states": states, "transitions": transitions,
            })
        })
        .collect();
    json!({ "name": sc.name(), "nodes": nodes, "animators": animators, "machines": machines })
}

fn test_words<'a>(t: &ossicle::asset::TestSection<'a>) -> Box<dyn Iterator<Item = u32> + 'a> {
    match t.values::<f32>() {
        Ok(v) => Box::new(v.iter().map(f32::to_bits)),
        Err(_) => match t.values::<ossicle::Q16>() {
            Ok(v) => Box::new(v.iter().map(|q| q.to_bits() as u32)),
            Err(_) => Box::new(std::iter::empty()),
        },
    }
}

/// A description of the blob as text (the default output).
pub fn describe_text(path: &Path, bytes: &[u8]) -> Result<String, HostError> {
    use std::fmt::Write;
    let v = describe_json(path, bytes)?;
    let mut out = String::new();
    let _ = writeln!(out, "{}: ossicle blob, {} bytes", path.display(), v["size"]);
    let _ = writeln!(
        out,
        "  format version {}, {} scalars, payload {} bytes, CRC-32 {}",
        v["version"],
        v["encoding"].as_str().unwrap_or("?"),
        v["payload_len"],
        v["crc32"].as_str().unwrap_or("?")
    );
    let sections = v["sections"].as_array().cloned().unwrap_or_default();
    let _ = writeln!(out, "  {} sections:", sections.len());
    for s in &sections {
        let kind = s["kind"].as_str().unwrap_or("?");
        let _ = write!(out, "    #{} {kind:<8} bytes {}..+{}", s["index"], s["offset"], s["len"]);
        if kind == "strings" {
            let _ = write!(out, "  ({} strings)", s["count"]);
        }
        out.push('\n');
    }
    let strings = v["strings"].as_array().cloned().unwrap_or_default();
    let _ = writeln!(out, "  strings ({}):", strings.len());
    for (i, s) in strings.iter().enumerate() {
        let _ = writeln!(out, "    {i:>4}  {s}");
    }
    for t in v["tests"].as_array().cloned().unwrap_or_default() {
        let values = t["values"].as_array().cloned().unwrap_or_default();
        let shown: Vec<String> = values.iter().take(16).map(|x| x.to_string()).collect();
        let more = if values.len() > 16 { format!(", ... ({} more)", values.len() - 16) } else { String::new() };
        let _ = writeln!(out, "  test {} ({} values): {}{more}", t["name"], values.len(), shown.join(", "));
    }
    for sp in v["sprites"].as_array().cloned().unwrap_or_default() {
        let frames = sp["frames"].as_array().cloned().unwrap_or_default();
        let rle = frames.iter().filter(|f| f["rle"] == json!(true)).count();
        let _ = writeln!(
            out,
            "  sprite {} {}x{}: {} frames ({rle} RLE), {} ({} transparency, {} palette entries), {} pixel bytes",
            sp["name"],
            sp["width"],
            sp["height"],
            frames.len(),
            sp["format"].as_str().unwrap_or("?"),
            sp["transparency"].as_str().unwrap_or("?"),
            sp["palette_entries"],
            sp["pixel_bytes"]
        );
        for a in sp["animations"].as_array().cloned().unwrap_or_default() {
            let _ = writeln!(
                out,
                "    animation {} frames {} frame time {} s {}{} repeat {}{}",
                a["name"],
                a["frames"],
                a["frame_time"],
                a["mode"].as_str().unwrap_or("?"),
                if a["looping"] == json!(true) { " looping" } else { "" },
                a["repeat"],
                if a["durations"].is_null() { String::new() } else { format!(" durations {}", a["durations"]) }
            );
        }
    }
    for sc in v["scenes"].as_array().cloned().unwrap_or_default() {
        let nodes = sc["nodes"].as_array().cloned().unwrap_or_default();
        let animators = sc["animators"].as_array().cloned().unwrap_or_default();
        let machines = sc["machines"].as_array().cloned().unwrap_or_default();
        let _ = writeln!(
            out,
            "  scene {}: {} nodes, {} Animators, {} state machines",
            sc["name"],
            nodes.len(),
            animators.len(),
            machines.len()
        );
        for a in &animators {
            let _ = writeln!(out, "    animator {} autoplay {}", a["node"], a["autoplay"]);
            for c in a["clips"].as_array().cloned().unwrap_or_default() {
                let _ = writeln!(
                    out,
                    "      clip {} length {} s{}: {} tracks, {} keys",
                    c["name"],
                    c["length"],
                    if c["loop"] == json!(true) { " looping" } else { "" },
                    c["tracks"],
                    c["keys"]
                );
            }
        }
        for m in &machines {
            let states: Vec<String> = m["states"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|s| s["name"].as_str().unwrap_or("?").to_string())
                .collect();
            let _ = writeln!(
                out,
                "    machine {} (sprite {}) start {}: {} params, states {}, {} transitions",
                m["node"],
                m["sprite"],
                m["start"],
                m["params"].as_array().map_or(0, Vec::len),
                states.join(", "),
                m["transitions"].as_array().map_or(0, Vec::len)
            );
        }
    }
    for sk in v["skeletons"].as_array().cloned().unwrap_or_default() {
        let _ = writeln!(
            out,
            "  skeleton {} ({}): {} bones, section {} bytes",
            sk["name"],
            sk["dimension"].as_str().unwrap_or("?"),
            sk["bones"].as_array().map_or(0, Vec::len),
            sk["bytes"]
        );
    }
    for c in v["skel_clips"].as_array().cloned().unwrap_or_default() {
        let _ = writeln!(
            out,
            "  skelclip {} of skeleton {}: {} s{}, {} tracks, {} channels ({} quantised), {} keys, {} events, section {} bytes",
            c["name"],
            c["skeleton"],
            c["duration"],
            if c["looping"] == json!(true) { " looping" } else { "" },
            c["tracks"],
            c["channels"],
            c["quantized_channels"],
            c["keys"],
            c["events"].as_array().map_or(0, Vec::len),
            c["bytes"]
        );
    }
    Ok(out)
}
