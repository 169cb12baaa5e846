//! TexturePacker JSON sheets: the real fixtures (building1, the multipack, fighter) checked pixel by pixel
//! against their page images, and bad input that must be refused with the file and JSON pointer named.

use ossicle_host::ir::{RgbaImage, Sprite, SpriteFrames};
use ossicle_host::sources::texturepacker::{self, DEFAULT_FPS};
use ossicle_host::HostError;
use serde_json::Value;
use std::path::Path;

mod common;
use common::fixtures;

/// Decodes an 8-bit RGBA PNG with the png crate directly (independent of the host's decoder).
fn page(path: &Path) -> RgbaImage {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight), "{path:?}");
    let pixels = buf[..info.buffer_size()].chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    RgbaImage { width: info.width, height: info.height, pixels }
}

fn write_png(path: &Path, img: &RgbaImage) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut enc = png::Encoder::new(file, img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&img.pixels.concat()).unwrap();
}

fn one_sprite(path: &Path) -> Result<Sprite, HostError> {
    let bytes = std::fs::read(path).unwrap();
    let mut project = texturepacker::parse(path, &bytes)?;
    assert_eq!(project.sprites.len(), 1);
    Ok(project.sprites.remove(0))
}

fn u(v: &Value) -> u32 {
    v.as_u64().unwrap() as u32
}

/// Checks every frame of `sprite` against the JSON's rectangles on the page image, with the
/// un-rotation computed here independently: a rotated frame's row `sy` is the page column
/// `x + h - 1 - sy` read top to bottom.
fn assert_frames_match_pages(sprite: &Sprite, pages: &[(&Path, usize)]) {
    for &(json_path, first) in pages {
        let json: Value = serde_json::from_slice(&std::fs::read(json_path).unwrap()).unwrap();
        let png = page(&json_path.with_file_name(json["meta"]["image"].as_str().unwrap()));
        for (k, (name, f)) in json["frames"].as_object().unwrap().iter().enumerate() {
            let frame = &sprite.frames[first + k];
            assert!(frame.origin.place.ends_with(name), "{} vs {name}", frame.origin.place);
            let (x, y, w, h) = (u(&f["frame"]["x"]), u(&f["frame"]["y"]), u(&f["frame"]["w"]), u(&f["frame"]["h"]));
            assert_eq!((frame.image.width, frame.image.height), (w, h), "{name}");
            assert_eq!(
                (frame.x, frame.y),
                (u(&f["spriteSourceSize"]["x"]) as i32, u(&f["spriteSourceSize"]["y"]) as i32)
            );
            let rotated = f["rotated"].as_bool().unwrap();
            for sy in 0..h {
                for sx in 0..w {
                    let expect = if rotated { png.get(x + h - 1 - sy, y + sx) } else { png.get(x + sx, y + sy) };
                    assert_eq!(frame.image.get(sx, sy), expect, "{name} pixel {sx},{sy}");
                }
            }
        }
    }
}

/// The alpha-weighted centre of a frame's pixels in canvas coordinates.
fn centroid(img: &RgbaImage, ox: f64, oy: f64) -> (f64, f64) {
    let (mut m, mut sx, mut sy) = (0.0, 0.0, 0.0);
    for y in 0..img.height {
        for x in 0..img.width {
            let a = f64::from(img.get(x, y).unwrap()[3]);
            (m, sx, sy) = (m + a, sx + a * (f64::from(x) + 0.5), sy + a * (f64::from(y) + 0.5));
        }
    }
    (ox + sx / m, oy + sy / m)
}

#[test]
fn building1_frames_rotation_trim_and_animation() {
    let Some(dir) = fixtures() else { return };
    let path = dir.join("texturepacker/building1.json");
    let json: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let frames = json["frames"].as_object().unwrap();
    assert_eq!(frames.len(), 5);
    assert_eq!(frames.values().filter(|f| f["rotated"] == true).count(), 3);
    assert_eq!(frames.values().filter(|f| f["trimmed"] == true).count(), 4);

    let s = one_sprite(&path).unwrap();
    assert_eq!(s.name, "building1");
    // The largest sourceSize (goldmine's 95 × 115; the stars are 32 × 32, placed top-left).
    assert_eq!((s.width, s.height), (95, 115));
    assert_eq!(s.frames.len(), 5);
    assert_frames_match_pages(&s, &[(&path, 0)]);
    assert_eq!(s.animations.len(), 1);
    let star = &s.animations[0];
    assert_eq!(star.name, "star");
    // star1..star4 are frames 1..4 (goldmine_10_5.png is frame 0, in the JSON's order).
    assert_eq!(star.frames, SpriteFrames::Range { start: 1, end: 4 });
    assert_eq!((star.fps, star.looping), (DEFAULT_FPS, true));
    assert_eq!(star.origin.place, "/animations/star");

    // The rotation convention, checked on the art: the four stars share their centre (the anchor is
    // 0.5, 0.5). Turned back clockwise-stored, the rotated stars' centres agree with the unrotated
    // star2's to 0.01 pixel; read as counter-clockwise-stored they would be 0.2 pixel off.
    let c2 = centroid(&s.frames[2].image, f64::from(s.frames[2].x), f64::from(s.frames[2].y));
    for i in [1, 3, 4] {
        let f = &s.frames[i];
        let c = centroid(&f.image, f64::from(f.x), f64::from(f.y));
        assert!((c.0 - c2.0).abs() < 0.05 && (c.1 - c2.1).abs() < 0.05, "frame {i}: {c:?} vs {c2:?}");
        // The other reading: the image turned 180°.
        let mut turned = RgbaImage::new(f.image.width, f.image.height);
        for y in 0..f.image.height {
            for x in 0..f.image.width {
                turned.set(f.image.width - 1 - x, f.image.height - 1 - y, f.image.get(x, y).unwrap());
            }
        }
        let c = centroid(&turned, f64::from(f.x), f64::from(f.y));
        assert!((c.1 - c2.1).abs() > 0.1, "frame {i}: the counter-clockwise reading fits as well: {c:?}");
    }
}

#[test]
fn multipack_merges_pages_into_one_sprite_from_either_page() {
    let Some(dir) = fixtures() else { return };
    let p0 = dir.join("texturepacker/multi-pack-0.json");
    let p1 = dir.join("texturepacker/multi-pack-1.json");
    let s = one_sprite(&p0).unwrap();
    assert_eq!(s.name, "multi-pack");
    assert_eq!(s.frames.len(), 5);
    assert_eq!((s.width, s.height), (190, 229));
    assert_frames_match_pages(&s, &[(&p0, 0), (&p1, 4)]);
    assert_eq!(s.animations.len(), 1);
    assert_eq!(s.animations[0].name, "star");
    assert_eq!(s.animations[0].frames, SpriteFrames::Range { start: 0, end: 3 });

    let mut s1 = one_sprite(&p1).unwrap();
    assert_eq!(s1.origin.file, p1);
    s1.origin = s.origin.clone();
    assert_eq!(s1, s);
}

#[test]
fn fighter_is_refused_for_its_missing_png() {
    let Some(dir) = fixtures() else { return };
    let path = dir.join("texturepacker/fighter.json");
    let e = one_sprite(&path).unwrap_err();
    assert_eq!(e.file, path);
    assert_eq!(e.place, "/meta/image");
    let msg = e.to_string();
    assert!(msg.contains("missing PNG") && msg.contains("fighter.json") && msg.contains("fighter.png"), "{msg}");

    // With a stand-in page the rest of the file reads: 30 trimmed frames, grouped by name into one
    // animation.
    let bytes = std::fs::read(&path).unwrap();
    let blank = |_: &Path| Ok(RgbaImage::new(1024, 1024));
    let no_file = |p: &Path| Err(HostError::file(p, "no such file"));
    let s = texturepacker::parse_with(&path, &bytes, blank, no_file).unwrap().sprites.remove(0);
    assert_eq!((s.name.as_str(), s.width, s.height, s.frames.len()), ("fighter", 175, 240, 30));
    assert_eq!((s.frames[0].x, s.frames[0].y), (3, 4));
    assert_eq!(s.animations.len(), 1);
    assert_eq!(s.animations[0].name, "rollSequence");
    assert_eq!(s.animations[0].frames, SpriteFrames::Range { start: 0, end: 29 });
}

// ---------------------------------------------------------------------------------------------------
// Hand-made sheets.

/// A 16 × 8 page whose pixel (x, y) is [x, y, 7, 255].
fn pattern(w: u32, h: u32) -> RgbaImage {
    let mut img = RgbaImage::new(w, h);
    for y in 0..h {
        for x in 0..w {
            img.set(x, y, [x as u8, y as u8, 7, 255]);
        }
    }
    img
}

fn parse_str(json: &str) -> Result<Sprite, HostError> {
    let page = |p: &Path| {
        if p == Path::new("d/sheet.png") {
            Ok(pattern(16, 8))
        } else {
            Err(HostError::file(p, "no such file"))
        }
    };
    let no_file = |p: &Path| Err(HostError::file(p, "no such file"));
    texturepacker::parse_with(Path::new("d/sheet.json"), json.as_bytes(), page, no_file)
        .map(|mut p| p.sprites.remove(0))
}

const META: &str = r#""meta": {"image": "sheet.png", "size": {"w": 16, "h": 8}}"#;

#[test]
fn array_format_mixed_source_sizes_and_grouped_animations() {
    let s = parse_str(&format!(
        r#"{{"frames": [
            {{"filename": "walk_10.png", "frame": {{"x":0,"y":0,"w":2,"h":3}}, "sourceSize": {{"w":4,"h":4}},
              "spriteSourceSize": {{"x":1,"y":1,"w":2,"h":3}}, "trimmed": true}},
            {{"filename": "walk_2.png", "frame": {{"x":4,"y":0,"w":3,"h":2}}, "rotated": true,
              "sourceSize": {{"w":6,"h":3}}, "spriteSourceSize": {{"x":3,"y":0}}}},
            {{"filename": "icon.png", "frame": {{"x":8,"y":0,"w":1,"h":1}}, "pivot": {{"x":0,"y":1}}}}
        ], {META}}}"#
    ))
    .unwrap();
    assert_eq!((s.name.as_str(), s.width, s.height), ("sheet", 6, 4));
    assert_eq!((s.frames[1].x, s.frames[1].y), (3, 0));
    // Rotated: 3 × 2 stored as 2 × 3 at (4, 0); row 0 is page column 5 top to bottom.
    assert_eq!(s.frames[1].image.get(0, 0), Some([5, 0, 7, 255]));
    assert_eq!(s.frames[1].image.get(2, 0), Some([5, 2, 7, 255]));
    assert_eq!(s.frames[1].image.get(0, 1), Some([4, 0, 7, 255]));
    let names: Vec<_> = s.animations.iter().map(|a| (a.name.as_str(), a.frames.clone())).collect();
    assert_eq!(
        names,
        [("default", SpriteFrames::Range { start: 2, end: 2 }), ("walk", SpriteFrames::Range { start: 1, end: 0 })]
    );
}

#[test]
fn bad_sheets_name_the_place() {
    let frame = |rect: &str| format!(r#"{{"frames": {{"a/b.png": {{"frame": {rect}}}}}, {META}}}"#);
    let e = parse_str(&frame(r#"{"x":10,"y":0,"w":7,"h":2}"#)).unwrap_err();
    assert_eq!((e.file.as_path(), e.place.as_str()), (Path::new("d/sheet.json"), "/frames/a~1b.png/frame"));
    assert!(e.reason.contains("outside the 16×8 image d/sheet.png"), "{e}");
    // 9 × 2 fits the 16 × 8 page, but rotated it covers 2 × 9.
    let e = parse_str(&frame(r#"{"x":0,"y":0,"w":9,"h":2}"#).replace("}}}", "}, \"rotated\": true}}")).unwrap_err();
    assert!(e.reason.contains("covers 2×9 page pixels at 0, 0 (rotated)"), "{e}");
    let e = parse_str(&frame(r#"{"x":-1,"y":0,"w":7,"h":2}"#)).unwrap_err();
    assert_eq!(e.place, "/frames/a~1b.png/frame/x");
    let e = parse_str(&frame(r#"{"x":0,"y":0,"w":0,"h":2}"#)).unwrap_err();
    assert!(e.reason.contains("at least 1×1"), "{e}");

    let e = parse_str(&frame(r#"{"x":0,"y":0,"w":1,"h":1}"#).replace("sheet.png", "gone.png")).unwrap_err();
    assert_eq!(e.place, "/meta/image");
    assert!(e.to_string().contains("d/sheet.json:/meta/image: missing PNG d/gone.png: no such file"), "{e}");
    let e = parse_str(&frame(r#"{"x":0,"y":0,"w":1,"h":1}"#).replace("\"w\": 16", "\"w\": 17")).unwrap_err();
    assert_eq!(e.place, "/meta/size");

    for not_a_sheet in [r#"{"format": "ossicle-test/1"}"#, "[1, 2]", r#"{"armature": [], "frameRate": 24}"#] {
        let e = parse_str(not_a_sheet).unwrap_err();
        assert!(e.reason.starts_with("not a TexturePacker sprite sheet"), "{e}");
    }
    let e = parse_str("{\n \"frames\": {}, \"frames\": {}}").unwrap_err();
    assert_eq!(e.place, "2:23"); // just after the second key
    assert!(e.reason.contains("duplicate key \"frames\""), "{e}");
    let e = parse_str(&format!(r#"{{"frames": {{}}, {META}}}"#)).unwrap_err();
    assert!(e.reason.contains("no frames"), "{e}");

    let e = parse_str(&format!(
        r#"{{"frames": {{"a": {{"frame": {{"x":0,"y":0,"w":1,"h":1}}}}}}, "animations": {{"walk": ["a", "b"]}}, {META}}}"#
    ))
    .unwrap_err();
    assert_eq!(e.place, "/animations/walk/1");
    assert_eq!(e.reason, "animation \"walk\" names frame \"b\", which is not in the sheet");

    let e = parse_str(&format!(
        r#"{{"frames": {{"a": {{"frame": {{"x":0,"y":0,"w":3,"h":1}}, "sourceSize": {{"w":3,"h":1}},
             "spriteSourceSize": {{"x":1,"y":0,"w":3,"h":1}}}}}}, {META}}}"#
    ))
    .unwrap_err();
    assert_eq!(e.place, "/frames/a/spriteSourceSize");

    let e =
        parse_str(r#"{"frames": {}, "meta": {"image": "x.png", "related_multi_packs": ["../y.json"]}}"#).unwrap_err();
    assert_eq!(e.place, "/meta/related_multi_packs/0");
}

#[test]
fn too_many_frames_are_refused_before_any_pixel() {
    let one = r#"{"filename":"f","frame":{"x":0,"y":0,"w":1,"h":1}}"#;
    let n = ossicle_format::sprite::MAX_SPRITE_FRAMES as usize + 1;
    let json = format!(r#"{{"frames": [{}], "meta": {{"image": "never-loaded.png"}}}}"#, vec![one; n].join(","));
    let e = parse_str(&json).unwrap_err();
    assert_eq!(e.place, "/frames");
    assert!(e.reason.contains("65536 frames, over the limit of 65535"), "{e}");
}

#[test]
fn multipack_pages_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_png(&d.join("p-0.png"), &pattern(4, 4));
    write_png(&d.join("p-1.png"), &pattern(2, 2));
    let page = |frame: &str, image: &str, other: &str, anims: &str| {
        format!(
            r#"{{"frames": {{"{frame}": {{"frame": {{"x":1,"y":1,"w":1,"h":1}}}}}}, "animations": {{{anims}}},
                "meta": {{"image": "{image}", "related_multi_packs": ["{other}"]}}}}"#
        )
    };
    std::fs::write(d.join("p-0.json"), page("run_1", "p-0.png", "p-1.json", r#""run": ["run_1"]"#)).unwrap();
    std::fs::write(d.join("p-1.json"), page("run_2", "p-1.png", "./p-0.json", r#""run": ["run_2"]"#)).unwrap();
    let s0 = one_sprite(&d.join("p-0.json")).unwrap();
    let s1 = one_sprite(&d.join("p-1.json")).unwrap();
    assert_eq!(s0.name, "p");
    assert_eq!((s0.frames.len(), &s0.frames, &s0.animations), (2, &s1.frames, &s1.animations));
    // Each page's part of "run", joined in page order.
    assert_eq!(s0.animations[0].frames, SpriteFrames::Range { start: 0, end: 1 });
    assert_eq!(s0.frames[1].image.pixels, [[1, 1, 7, 255]]);

    std::fs::write(d.join("p-1.json"), page("run_1", "p-1.png", "p-0.json", "")).unwrap();
    let e = one_sprite(&d.join("p-0.json")).unwrap_err();
    assert_eq!((e.file.file_name().unwrap(), e.place.as_str()), (std::ffi::OsStr::new("p-1.json"), "/frames/run_1"));
    std::fs::remove_file(d.join("p-1.json")).unwrap();
    let e = one_sprite(&d.join("p-0.json")).unwrap_err();
    assert_eq!(e.place, "/meta/related_multi_packs/0");
    assert!(e.reason.contains("p-1.json: no such file"), "{e}");
}
