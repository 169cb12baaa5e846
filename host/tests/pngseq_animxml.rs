//! PNG sequences (trimmed, packed into one atlas with extruded edges, cut back out) and `.anim.xml`
//! animation sets over grids, TexturePacker sheets and frame folders, on small hand-made PNGs.

use ossicle_host::atlas::{self, AtlasRect, EXTRUDE, PADDING};
use ossicle_host::ir::{PlayMode, RgbaImage, Sprite, SpriteFrames};
use ossicle_host::sources::{animxml, pngseq};
use ossicle_host::HostError;
use std::path::Path;

fn write_png(path: &Path, img: &RgbaImage) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut enc = png::Encoder::new(file, img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&img.pixels.concat()).unwrap();
}

/// A transparent `w × h` image with opaque pixels (each a distinct colour) at `dots`.
fn dots(w: u32, h: u32, dots: &[(u32, u32)]) -> RgbaImage {
    let mut img = RgbaImage::new(w, h);
    for (i, &(x, y)) in dots.iter().enumerate() {
        img.set(x, y, [10 * i as u8 + 1, x as u8, y as u8, 255]);
    }
    img
}

fn sub(img: &RgbaImage, x: u32, y: u32, w: u32, h: u32) -> RgbaImage {
    let mut out = RgbaImage::new(w, h);
    for yy in 0..h {
        for xx in 0..w {
            out.set(xx, yy, img.get(x + xx, y + yy).unwrap());
        }
    }
    out
}

/// A folder `walk` with three 6 × 5 frames (numbered 1, 3 and 10, out of order on disk) and a text file.
fn walk_folder(root: &Path) -> (std::path::PathBuf, Vec<RgbaImage>) {
    let dir = root.join("walk");
    std::fs::create_dir(&dir).unwrap();
    let frames = vec![
        dots(6, 5, &[(1, 1), (3, 2)]),         // trimmed to 3 × 2 at 1, 1
        dots(6, 5, &[(5, 4)]),                 // 1 × 1 at 5, 4
        dots(6, 5, &[(0, 3), (2, 0), (4, 4)]), // 5 × 5 at 0, 0
    ];
    for (name, img) in ["walk_0001.png", "walk_3.png", "walk_10.png"].iter().zip(&frames) {
        write_png(&dir.join(name), img);
    }
    std::fs::write(dir.join("notes.txt"), "not a frame").unwrap();
    (dir, frames)
}

#[test]
fn png_sequence_is_trimmed_packed_and_cut_back_out() {
    let root = tempfile::tempdir().unwrap();
    let (dir, originals) = walk_folder(root.path());
    let mut project = pngseq::load(&dir).unwrap();
    let s = project.sprites.remove(0);
    assert_eq!((s.name.as_str(), s.width, s.height, s.frames.len()), ("walk", 6, 5, 3));
    let expect = [(1, 1, 3, 2), (5, 4, 1, 1), (0, 0, 5, 5)];
    for ((f, original), (x, y, w, h)) in s.frames.iter().zip(&originals).zip(expect) {
        assert_eq!((f.x, f.y, f.image.width, f.image.height), (x, y, w, h));
        assert_eq!(f.image, sub(original, x as u32, y as u32, w, h));
    }
    assert!(s.frames[0].origin.file.ends_with("walk/walk_0001.png"));
    let a = &s.animations[0];
    assert_eq!((a.name.as_str(), &a.frames), ("default", &SpriteFrames::Range { start: 0, end: 2 }));
    assert_eq!((a.fps, a.looping, a.mode), (12.0, true, PlayMode::Forward));
}

#[test]
fn atlas_extrudes_pads_and_keeps_frames_exact() {
    let frames: Vec<RgbaImage> = (0..9u32)
        .map(|i| {
            let (w, h) = (1 + i % 4 * 3, 1 + (i * 7) % 5);
            let mut img = RgbaImage::new(w, h);
            for y in 0..h {
                for x in 0..w {
                    img.set(x, y, [i as u8, x as u8, y as u8, if (x + y) % 3 == 0 { 0 } else { 200 }]);
                }
            }
            img
        })
        .collect();
    let packed = atlas::pack(&frames).unwrap();
    let img = &packed.image;
    let e = EXTRUDE as i64;
    let grown = |r: &AtlasRect, by: i64| {
        (r.x as i64 - by, r.y as i64 - by, r.x as i64 + r.width as i64 + by, r.y as i64 + r.height as i64 + by)
    };
    for (i, (f, r)) in frames.iter().zip(&packed.rects).enumerate() {
        // Cut-out frames equal the originals exactly.
        assert_eq!(&sub(img, r.x, r.y, r.width, r.height), f, "frame {i}");
        // Extruded rect inside the image.
        let (x0, y0, x1, y1) = grown(r, e);
        assert!(x0 >= 0 && y0 >= 0 && x1 <= img.width as i64 && y1 <= img.height as i64, "frame {i}: {r:?}");
        // Every extrusion pixel equals its neighbour one step towards the frame.
        let at = |x: i64, y: i64| img.get(x as u32, y as u32).unwrap();
        for y in y0..y1 {
            assert_eq!(at(x0, y), at(x0 + 1, y), "frame {i} left edge, row {y}");
            assert_eq!(at(x1 - 1, y), at(x1 - 2, y), "frame {i} right edge, row {y}");
        }
        for x in x0..x1 {
            assert_eq!(at(x, y0), at(x, y0 + 1), "frame {i} top edge, column {x}");
            assert_eq!(at(x, y1 - 1), at(x, y1 - 2), "frame {i} bottom edge, column {x}");
        }
        // No two extruded rects overlap, and padding separates them.
        for (j, other) in packed.rects.iter().enumerate().skip(i + 1) {
            let (a, b) = (grown(r, e + PADDING as i64), grown(other, e));
            let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
            assert!(apart, "frames {i} and {j} overlap: {r:?} {other:?}");
        }
    }
    // Deterministic.
    assert_eq!(atlas::pack(&frames).unwrap(), packed);
}

#[test]
fn png_sequence_errors() {
    let root = tempfile::tempdir().unwrap();
    let (dir, _) = walk_folder(root.path());
    write_png(&dir.join("walk_03.png"), &dots(6, 5, &[(0, 0)]));
    let e = pngseq::load(&dir).unwrap_err();
    assert!(e.reason.contains("frame number 3 appears twice (walk_03.png and walk_3.png)"), "{e}");
    std::fs::remove_file(dir.join("walk_03.png")).unwrap();
    write_png(&dir.join("walk_11.png"), &dots(6, 4, &[(0, 0)]));
    let e = pngseq::load(&dir).unwrap_err();
    assert!(e.file.ends_with("walk_11.png"), "{e}");
    assert!(e.reason.contains("frame is 6×4 but walk_0001.png is 6×5"), "{e}");
    let empty = root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(pngseq::load(&empty).unwrap_err().reason.contains("no numbered PNG frames"));
    std::fs::write(empty.join("frame_1.png"), b"not a png").unwrap();
    assert!(pngseq::load(&empty).unwrap_err().reason.starts_with("not a readable PNG"));
}

// ---------------------------------------------------------------------------------------------------
// .anim.xml

fn parse_xml(path: &Path, xml: &str) -> Result<Sprite, HostError> {
    std::fs::write(path, xml).unwrap();
    animxml::parse(path, xml.as_bytes()).map(|mut p| p.sprites.remove(0))
}

/// A 3 × 2 grid of 4 × 4 cells with margin 1 and spacing 2 (18 × 12 pixels); cell 4 is fully transparent.
fn coin_sheet() -> RgbaImage {
    let mut img = RgbaImage::new(2 + 3 * 4 + 2 * 2, 2 + 2 * 4 + 2);
    for cell in [0u32, 1, 2, 3, 5] {
        let (x, y) = (1 + cell % 3 * 6, 1 + cell / 3 * 6);
        img.set(x + cell % 4, y + 1, [cell as u8, 100, 0, 255]);
    }
    img
}

const COIN: &str = r#"<?xml version="1.0"?>
<!-- The sample from docs/anim-xml.md, on a smaller sheet. -->
<animations name="coin" fps="10">
  <sheet image="coin.png" columns="3" rows="2" margin="1" spacing="2"/>
  <animation name="spin" start="0" end="5"/>
  <animation name="flip" frames="0,3,0,4" fps="8" loop="false" repeat="2" mode="pingpong">
    <frame at="1" duration="0.25" events="flip"/>
    <frame at="2" events="land, sound"/>
  </animation>
  <animation name="back" start="5" end="2" mode="reverse"/>
</animations>
"#;

#[test]
fn anim_xml_grid_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = coin_sheet();
    write_png(&dir.path().join("coin.png"), &sheet);
    let s = parse_xml(&dir.path().join("coin.anim.xml"), COIN).unwrap();
    assert_eq!((s.name.as_str(), s.width, s.height, s.frames.len()), ("coin", 4, 4, 6));
    for (i, f) in s.frames.iter().enumerate() {
        let (x, y) = (1 + i as u32 % 3 * 6, 1 + i as u32 / 3 * 6);
        assert_eq!(f.image, sub(&sheet, x, y, 4, 4), "cell {i}");
        assert_eq!((f.x, f.y), (0, 0));
    }
    assert!(s.frames[4].image.pixels.iter().all(|p| p[3] == 0), "the transparent cell is still a frame");
    let [spin, flip, back] = &s.animations[..] else { panic!("{:?}", s.animations) };
    assert_eq!((spin.frames.clone(), spin.fps, spin.looping), (SpriteFrames::Range { start: 0, end: 5 }, 10.0, true));
    assert_eq!(flip.frames, SpriteFrames::List(vec![0, 3, 0, 4]));
    assert_eq!((flip.fps, flip.looping, flip.repeat, flip.mode), (8.0, false, 2, PlayMode::PingPong));
    assert_eq!(flip.durations, Some(vec![0.125, 0.25, 0.125, 0.125]));
    let events = flip.events.as_ref().unwrap();
    assert_eq!(events, &[vec![], vec!["flip".to_string()], vec!["land".into(), "sound".into()], vec![]]);
    assert_eq!((back.frames.clone(), back.mode), (SpriteFrames::Range { start: 5, end: 2 }, PlayMode::Reverse));
    assert_eq!(flip.origin.place, "6:3");
}

#[test]
fn anim_xml_over_a_texturepacker_sheet_and_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_png(&d.join("sheet.png"), &dots(4, 2, &[(0, 0), (1, 0), (2, 1)]));
    std::fs::write(
        d.join("sheet.json"),
        r#"{"frames": {"b.png": {"frame": {"x":0,"y":0,"w":2,"h":2}}, "a.png": {"frame": {"x":2,"y":0,"w":2,"h":2}}},
            "animations": {"all": ["b.png", "a.png"]}, "meta": {"image": "sheet.png"}}"#,
    )
    .unwrap();
    // Without <animation>: the sheet's own, at the set's fps.
    let s =
        parse_xml(&d.join("own.anim.xml"), r#"<animations fps="5"><sheet atlas="sheet.json"/></animations>"#).unwrap();
    assert_eq!((s.name.as_str(), s.frames.len(), s.animations.len()), ("own", 2, 1));
    assert_eq!((s.animations[0].name.as_str(), s.animations[0].fps), ("all", 5.0));
    // With: frames by name or number.
    let s = parse_xml(
        &d.join("x.anim.xml"),
        r#"<animations><sheet atlas="sheet.json"/><animation name="ab" frames="a.png, 0, b.png"/></animations>"#,
    )
    .unwrap();
    assert_eq!(s.animations.len(), 1);
    assert_eq!(s.animations[0].frames, SpriteFrames::List(vec![1, 0, 0]));
    assert_eq!(s.frames[1].image.get(0, 1), Some([21, 2, 1, 255]));
    let e = parse_xml(
        &d.join("x.anim.xml"),
        "<animations><sheet atlas=\"sheet.json\"/>\n<animation name=\"ab\" frames=\"a.png,c.png\"/></animations>",
    )
    .unwrap_err();
    assert_eq!(e.place, "2:30"); // the value of frames
    assert_eq!(e.reason, "animation \"ab\": frame \"c.png\" is not in the sheet");

    let (_, _) = walk_folder(d);
    let s = parse_xml(
        &d.join("walk.anim.xml"),
        r#"<animations><sheet folder="walk"/><animation name="w" frames="walk_10.png,1" mode="pingpong"/></animations>"#,
    )
    .unwrap();
    assert_eq!((s.name.as_str(), s.width, s.height), ("walk", 6, 5));
    assert_eq!(s.animations[0].frames, SpriteFrames::Range { start: 2, end: 1 }); // a list counting down by one
    assert_eq!(s.frames[1].image.width, 1, "folder frames are trimmed");
}

#[test]
fn anim_xml_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_png(&d.join("coin.png"), &coin_sheet());
    let grid = r#"<sheet image="coin.png" columns="3" rows="2" margin="1" spacing="2"/>"#;
    let bad = |xml: String| parse_xml(&d.join("bad.anim.xml"), &xml).unwrap_err();

    let e = bad(format!("<animations>{grid}\n<animation name=\"a\" mode=\"bounce\"/></animations>"));
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2:27: unknown play mode \"bounce\": expected one of forward, reverse, pingpong, pingpong_reverse",
            d.join("bad.anim.xml").display()
        )
    );
    let e = bad(format!("<animations>{grid}<animation name=\"a\" start=\"2\" end=\"6\"/></animations>"));
    assert!(e.reason.contains("animation \"a\": frame 6 does not exist (the sheet has 6 frames, 0 to 5)"), "{e}");
    let e = bad(format!("<animations>{grid}<animation name=\"a\" frames=\"1,9\"/></animations>"));
    assert!(e.reason.contains("frame 9 does not exist"), "{e}");
    let e =
        bad(format!("<animations>{grid}<animation name=\"a\" frames=\"1\"><frame at=\"1\"/></animation></animations>"));
    assert!(e.reason.contains("plays 1 frames; at must be 0 to 0"), "{e}");
    let e = bad(format!("<animations>{grid}<animation name=\"a\" durations=\"0.1\"/></animations>"));
    assert!(e.reason.contains("1 durations for the 6 frames"), "{e}");
    let e = bad(r#"<animations><sheet image="coin.png" columns="70000" rows="70000"/></animations>"#.into());
    assert!(e.reason.contains("4900000000 cells, over the limit of 65535 frames"), "{e}");
    let e = bad(r#"<animations><sheet image="gone.png" columns="1" rows="1"/></animations>"#.into());
    assert!(e.reason.starts_with("missing PNG") && e.reason.contains("gone.png"), "{e}");
    assert_eq!(e.place, "1:27");
    let e = bad(r#"<animations><sheet image="coin.png" atlas="x.json"/></animations>"#.into());
    assert!(e.reason.contains("exactly one of"), "{e}");
    let e = bad(r#"<animations><sheet atlas="x.json" columns="2"/></animations>"#.into());
    assert!(e.reason.contains("columns applies only to image"), "{e}");
    let e = bad("<animations><sheet atlas=\"x.json\"/></animations>".into());
    assert!(e.reason.starts_with("cannot read the atlas") && e.reason.contains("no such file"), "{e}");
    let e = bad("<animations>\n  <sheet a=1/></animations>".into());
    assert!(e.place.starts_with("2:"), "{e}");
    let e = bad("<!DOCTYPE x [<!ENTITY a \"b\">]><animations/>".into());
    assert!(e.reason.contains("DTD"), "{e}");
}

#[test]
fn an_aseprite_json_atlas_keeps_its_durations_and_tags() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/sprites/knight");
    let dir = tempfile::tempdir().unwrap();
    for f in ["knight.json", "knight.png"] {
        std::fs::copy(samples.join(f), dir.path().join(f)).unwrap();
    }
    // Without <animation>: the export's tags, with its per-frame durations (300 ms idle, 120 ms walk).
    let xml = dir.path().join("a.anim.xml");
    std::fs::write(&xml, r#"<animations name="k"><sheet atlas="knight.json"/></animations>"#).unwrap();
    let p = ossicle_host::sources::load_source(&xml).unwrap();
    let s = &p.sprites[0];
    let names: Vec<&str> = s.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["idle", "walk", "step_once"]);
    assert_eq!(s.animations[0].mode, ossicle_host::ir::PlayMode::PingPong);
    let d: Vec<Option<f64>> = s.frames.iter().map(|f| f.duration).collect();
    assert_eq!(d, [Some(0.3), Some(0.3), Some(0.12), Some(0.12), Some(0.12), Some(0.12)]);
    // With an <animation>: its frames, the frames' own durations where it gives none.
    std::fs::write(
        &xml,
        r#"<animations name="k"><sheet atlas="knight.json"/><animation name="march" frames="2,3,4,5,4"/></animations>"#,
    )
    .unwrap();
    let p = ossicle_host::sources::load_source(&xml).unwrap();
    let a = &p.sprites[0].animations[0];
    assert_eq!(
        (a.name.as_str(), a.frames.clone()),
        ("march", ossicle_host::ir::SpriteFrames::List(vec![2, 3, 4, 5, 4]))
    );
}
