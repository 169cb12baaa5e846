//! The `ossicle` CLI with sprite sources: `build` of every kind of sprite source with its report,
//! `inspect`, `render` to a PNG folder (+ frames.json) and to a GIF, checked against hand-computed
//! play-throughs and the source pixels; and bad sprite input: one-line errors that name the file and
//! place, a non-zero exit, and no output file (an existing one untouched).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/sprites")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_fails(o: &Output, expect: &[&str]) {
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    for e in expect {
        assert!(err.contains(e), "{err:?} lacks {e:?}");
    }
}

fn build(dir: &Path, inputs: &[&Path], extra: &[&str]) -> PathBuf {
    let out = dir.join("s.osb");
    let mut args = vec!["build"];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["-o", s(&out)]);
    args.extend(extra);
    let o = ossicle(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// Decodes a PNG into RGBA rows.
fn read_png(path: &Path) -> (u32, u32, Vec<[u8; 4]>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    let px = buf[..info.buffer_size()].chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    (info.width, info.height, px)
}

/// Cell `k` of the coin sheet (3 × 2 cells of 16 × 16, margin 1, spacing 2), alpha thresholded.
fn coin_cell(k: u32) -> Vec<[u8; 4]> {
    let (w, _, sheet) = read_png(&samples().join("coin/coin.png"));
    let (ox, oy) = (1 + (k % 3) * 18, 1 + (k / 3) * 18);
    let mut out = Vec::new();
    for y in 0..16 {
        for x in 0..16 {
            let p = sheet[((oy + y) * w + ox + x) as usize];
            out.push(if p[3] >= 128 { [p[0], p[1], p[2], 255] } else { [0, 0, 0, 0] });
        }
    }
    out
}

#[test]
fn build_reports_and_inspect_shows_sprites() {
    let dir = tempfile::tempdir().unwrap();
    let sp = samples();
    let out = dir.path().join("s.osb");
    let o = ossicle(&[
        "build",
        s(&sp.join("coin/coin.anim.xml")),
        s(&sp.join("slime.anim.xml")),
        s(&sp.join("knight/knight.json")),
        "-o",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    for name in ["coin", "slime", "knight"] {
        assert!(err.contains(&format!("sprite {name}: ")), "{err}");
    }
    assert!(err.contains("flash bytes") && err.contains("considered: "), "{err}");
    let o = ossicle(&["inspect", s(&out), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let sprites = v["sprites"].as_array().unwrap();
    let names: Vec<&str> = sprites.iter().map(|x| x["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["coin", "slime", "knight"]);
    // coin.anim.xml: wobble = frames 0,1,0,4, ping-pong, 3 repeats, durations 0.2/0.1/0.1/0.2 s.
    let coin = &sprites[0];
    assert_eq!((coin["width"].as_u64(), coin["height"].as_u64()), (Some(16), Some(16)));
    assert_eq!(coin["frames"].as_array().unwrap().len(), 6);
    let wobble = &coin["animations"][1];
    assert_eq!(wobble["name"], "wobble");
    assert_eq!(wobble["frames"], serde_json::json!([0, 1, 0, 4]));
    assert_eq!(
        (wobble["mode"].as_str(), wobble["looping"].as_bool(), wobble["repeat"].as_u64()),
        (Some("pingpong"), Some(false), Some(3))
    );
    let d: Vec<f64> = wobble["durations"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    for (got, want) in d.iter().zip([0.2, 0.1, 0.1, 0.2]) {
        assert!((got - want).abs() <= 0.5 / 65536.0, "{d:?}");
    }
    assert_eq!(wobble["events"][3], serde_json::json!(["land", "clink"]));
    // knight.json (Aseprite-style): tag "walk" = frames 2..=5 with per-frame durations 120 ms.
    let walk = &sprites[2]["animations"][1];
    assert_eq!((walk["name"].as_str(), walk["frames"].clone()), (Some("walk"), serde_json::json!([2, 3, 4, 5])));
    // A fixed storage is honoured.
    let o = ossicle(&[
        "build",
        s(&sp.join("coin/coin.anim.xml")),
        "-o",
        s(&out),
        "--pixels",
        "rgb565be",
        "--rle",
        "always",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("rgb565be"), "{}", stderr(&o));
    let o = ossicle(&["inspect", s(&out), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sprites"][0]["format"], "rgb565be");
    assert!(v["sprites"][0]["frames"].as_array().unwrap().iter().all(|f| f["rle"] == true));
}

#[test]
fn render_writes_one_play_through_as_png_frames() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build(dir.path(), &[&samples().join("coin/coin.anim.xml")], &["--scalar", "f32"]);
    let frames_dir = dir.path().join("wobble");
    let o = ossicle(&["render", s(&blob), "--sprite", "coin", "--animation", "wobble", "--out", s(&frames_dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Ping-pong over relative frames 0..=3 with 3 repeats (each direction one repeat):
    // 0 1 2 3 | 2 1 0 | 1 2 3, i.e. source frames of [0, 1, 0, 4] at those positions.
    let want_frames = [0, 1, 0, 4, 0, 1, 0, 1, 0, 4];
    let want_ms = [200, 100, 100, 200, 100, 100, 200, 100, 100, 200];
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(frames_dir.join("frames.json")).unwrap()).unwrap();
    let list = doc["frames"].as_array().unwrap();
    assert_eq!(list.len(), 10);
    for (i, f) in list.iter().enumerate() {
        assert_eq!(f["file"], format!("{i:04}.png"));
        assert_eq!(f["frame"].as_u64(), Some(want_frames[i]), "{f}");
        assert_eq!(f["duration_ms"].as_u64(), Some(want_ms[i]), "{f}");
        let (w, h, px) = read_png(&frames_dir.join(format!("{i:04}.png")));
        assert_eq!((w, h), (16, 16));
        assert_eq!(px, coin_cell(want_frames[i] as u32), "frame {i}");
    }
    // Rendering again replaces the folder (no stale frames from a longer animation).
    let o = ossicle(&[
        "render",
        s(&blob),
        "--sprite",
        "coin",
        "--animation",
        "spin",
        "--out",
        s(&frames_dir),
        "--scale",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(frames_dir.join("frames.json")).unwrap()).unwrap();
    assert_eq!(doc["frames"].as_array().unwrap().len(), 6);
    assert!(!frames_dir.join("0006.png").exists());
    let (w, h, px) = read_png(&frames_dir.join("0002.png"));
    assert_eq!((w, h), (32, 32));
    let cell = coin_cell(2);
    for y in 0..32 {
        for x in 0..32 {
            assert_eq!(px[(y * 32 + x) as usize], cell[(y / 2 * 16 + x / 2) as usize], "({x}, {y})");
        }
    }
}

#[test]
fn render_writes_a_gif_with_the_frame_durations() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build(dir.path(), &[&samples().join("coin/coin.anim.xml")], &[]);
    let gif_path = dir.path().join("wobble.gif");
    let o = ossicle(&["render", s(&blob), "--sprite", "coin", "--animation", "wobble", "--out", s(&gif_path)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(std::fs::File::open(&gif_path).unwrap()).unwrap();
    assert_eq!((dec.width(), dec.height()), (16, 16));
    let want_frames = [0, 1, 0, 4, 0, 1, 0, 1, 0, 4];
    let want_cs = [20, 10, 10, 20, 10, 10, 20, 10, 10, 20];
    let mut n = 0;
    while let Some(frame) = dec.read_next_frame().unwrap() {
        assert_eq!(frame.delay, want_cs[n], "frame {n}");
        let px: Vec<[u8; 4]> =
            frame.buffer.chunks(4).map(|c| if c[3] == 0 { [0; 4] } else { [c[0], c[1], c[2], c[3]] }).collect();
        assert_eq!(px, coin_cell(want_frames[n]), "frame {n}");
        n += 1;
    }
    assert_eq!(n, 10);
}

#[test]
fn render_names_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build(dir.path(), &[&samples().join("coin/coin.anim.xml")], &[]);
    let out = dir.path().join("x.gif");
    let o = ossicle(&["render", s(&blob), "--sprite", "hero", "--out", s(&out)]);
    assert_fails(&o, &["s.osb", "no sprite \"hero\"", "coin"]);
    let o = ossicle(&["render", s(&blob), "--sprite", "coin", "--animation", "roll", "--out", s(&out)]);
    assert_fails(&o, &["no animation \"roll\"", "spin, wobble, spin_back"]);
    let o = ossicle(&["render", s(&blob), "--sprite", "coin", "--out", s(&out), "--background", "purple"]);
    assert_fails(&o, &["--background \"purple\""]);
    assert!(!out.exists());
}

#[test]
fn render_refuses_an_output_that_is_or_holds_its_blob() {
    let dir = tempfile::tempdir().unwrap();
    let built = build(dir.path(), &[&samples().join("coin/coin.anim.xml")], &[]);
    let bytes = std::fs::read(&built).unwrap();
    // A blob named like a GIF, rendered onto itself.
    let gif_blob = dir.path().join("coin.gif");
    std::fs::copy(&built, &gif_blob).unwrap();
    assert_fails(
        &ossicle(&["render", s(&gif_blob), "--sprite", "coin", "--out", s(&gif_blob)]),
        &["coin.gif", "the output is also an input"],
    );
    assert_eq!(std::fs::read(&gif_blob).unwrap(), bytes, "render replaced its blob with a GIF");
    // A PNG folder that holds the blob (directly or deeper down): replacing it would delete the blob.
    let nested = dir.path().join("frames").join("in");
    std::fs::create_dir_all(&nested).unwrap();
    let blob = nested.join("coin.osb");
    std::fs::copy(&built, &blob).unwrap();
    for out in [nested.clone(), dir.path().join("frames"), dir.path().join("frames").join("..").join("frames")] {
        assert_fails(
            &ossicle(&["render", s(&blob), "--sprite", "coin", "--out", s(&out)]),
            &["the output folder holds an input", "coin.osb"],
        );
        assert_eq!(std::fs::read(&blob).unwrap(), bytes, "render --out {out:?} deleted its blob");
    }
    // A folder beside the blob is fine.
    let o = ossicle(&["render", s(&blob), "--sprite", "coin", "--out", s(&nested.join("png"))]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Writes `files` into `dir` and runs a build of `input` over an existing output, which must fail
/// with `expect` and leave the output as it was.
fn bad_build(dir: &Path, files: &[(&str, &[u8])], input: &str, expect: &[&str]) {
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let out = dir.join("keep.osb");
    std::fs::write(&out, b"previous").unwrap();
    let o = ossicle(&["build", s(&dir.join(input)), "-o", s(&out)]);
    assert_fails(&o, expect);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
}

#[test]
fn bad_sprite_input_is_refused_with_file_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let coin_png = std::fs::read(samples().join("coin/coin.png")).unwrap();
    let knight_png = std::fs::read(samples().join("knight/knight.png")).unwrap();
    let knight_json = std::fs::read_to_string(samples().join("knight/knight.json")).unwrap();
    // A corrupt .aseprite.
    bad_build(d, &[("bad.aseprite", b"\x00\x01not an aseprite file at all")], "bad.aseprite", &["bad.aseprite"]);
    // JSON that is not a sprite sheet.
    bad_build(d, &[("other.json", br#"{"hello": [1, 2]}"#)], "other.json", &["other.json", "not a sprite sheet"]);
    // A frame rectangle outside its image (the knight sheet is 125 pixels wide).
    let mut doc: serde_json::Value = serde_json::from_str(&knight_json).unwrap();
    doc["frames"]["knight 0.aseprite"]["frame"]["x"] = serde_json::json!(120);
    let wide = doc.to_string();
    bad_build(
        d,
        &[("knight.png", &knight_png), ("wide.json", wide.as_bytes())],
        "wide.json",
        &["wide.json", "/frames/"],
    );
    // A missing PNG.
    let lonely = knight_json.replace("knight.png", "nowhere.png");
    bad_build(d, &[("lonely.json", lonely.as_bytes())], "lonely.json", &["lonely.json", "nowhere.png"]);
    // An unknown play mode, an animation naming frames that do not exist, too many frames.
    let xml = |anim: &str, sheet: &str| {
        format!(r#"<animations name="c"><sheet image="coin.png" {sheet}/>{anim}</animations>"#).into_bytes()
    };
    let grid = r#"columns="3" rows="2" margin="1" spacing="2""#;
    bad_build(
        d,
        &[("coin.png", &coin_png), ("mode.anim.xml", &xml(r#"<animation name="a" mode="bounce"/>"#, grid))],
        "mode.anim.xml",
        &["mode.anim.xml:1:", "bounce", "pingpong_reverse"],
    );
    bad_build(
        d,
        &[("frames.anim.xml", &xml(r#"<animation name="a" frames="0,9"/>"#, grid))],
        "frames.anim.xml",
        &["frames.anim.xml:1:", "frame 9 does not exist"],
    );
    bad_build(
        d,
        &[("huge.anim.xml", &xml("", r#"columns="300" rows="300""#))],
        "huge.anim.xml",
        &["huge.anim.xml:1:", "65535"],
    );
    assert!(!d.join("s.osb").exists());
}

#[test]
fn pack_writes_an_atlas_that_builds_the_same_sprite_as_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let slime = samples().join("slime");
    let o = ossicle(&["pack", s(&slime), "-o", s(&d.join("atlas.png"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("atlas.json")).unwrap()).unwrap();
    assert_eq!(doc["meta"]["image"], "atlas.png");
    assert_eq!(doc["animations"]["default"].as_array().unwrap().len(), 8);
    // The atlas: every frame's rect holds exactly the trimmed frame, and its 1-pixel border repeats
    // the frame's edge pixels (extrusion).
    let (aw, _, atlas) = read_png(&d.join("atlas.png"));
    let at = |x: u32, y: u32| atlas[(y * aw + x) as usize];
    for k in 0..8 {
        let f = &doc["frames"][format!("frame_{k}.png")];
        let r = |k: &str| f["frame"][k].as_u64().unwrap() as u32;
        let (x, y, w, h) = (r("x"), r("y"), r("w"), r("h"));
        let (ox, oy) =
            (f["spriteSourceSize"]["x"].as_u64().unwrap() as u32, f["spriteSourceSize"]["y"].as_u64().unwrap() as u32);
        let (fw, _, src) = read_png(&slime.join(format!("frame_{k}.png")));
        for yy in 0..h {
            for xx in 0..w {
                assert_eq!(at(x + xx, y + yy), src[((oy + yy) * fw + ox + xx) as usize], "frame {k} ({xx}, {yy})");
            }
            assert_eq!(at(x - 1, y + yy), at(x, y + yy), "frame {k}: left edge extruded");
            assert_eq!(at(x + w, y + yy), at(x + w - 1, y + yy), "frame {k}: right edge extruded");
        }
    }
    // Built from the JSON or from the folder: the same frames, pixel for pixel, through the kernel.
    let from_json = build(d, &[&d.join("atlas.json")], &[]);
    std::fs::rename(&from_json, d.join("json.osb")).unwrap();
    let from_folder = build(d, &[&slime], &[]);
    for (blob, sprite, out) in [("json.osb", "atlas", "a"), ("s.osb", "slime", "b")] {
        let blob = if blob == "s.osb" { from_folder.clone() } else { d.join(blob) };
        let o = ossicle(&["render", s(&blob), "--sprite", sprite, "--out", s(&d.join(out))]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for k in 0..8 {
        let name = format!("{k:04}.png");
        assert_eq!(read_png(&d.join("a").join(&name)), read_png(&d.join("b").join(&name)), "frame {k}");
    }
}

#[test]
fn pack_refuses_an_output_that_is_one_of_its_frames() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("slime");
    std::fs::create_dir(&frames).unwrap();
    for k in 0..8 {
        let name = format!("frame_{k}.png");
        std::fs::copy(samples().join("slime").join(&name), frames.join(&name)).unwrap();
    }
    let frame0 = std::fs::read(frames.join("frame_0.png")).unwrap();
    for out in [frames.join("frame_0.png"), frames.join("frame_0"), frames.join("frame_0.json")] {
        assert_fails(&ossicle(&["pack", s(&frames), "-o", s(&out)]), &["frame_0.png", "the output is also an input"]);
        assert_eq!(std::fs::read(frames.join("frame_0.png")).unwrap(), frame0, "pack -o {out:?} replaced a frame");
        assert!(!frames.join("frame_0.json").exists(), "pack -o {out:?} wrote the JSON");
    }
}

#[test]
fn pack_writes_neither_file_when_one_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The JSON's path is a directory: the PNG, written first, must not replace the old one.
    std::fs::write(d.join("atlas.png"), b"previous").unwrap();
    std::fs::create_dir(d.join("atlas.json")).unwrap();
    assert_fails(
        &ossicle(&["pack", s(&samples().join("slime")), "-o", s(&d.join("atlas"))]),
        &["atlas.json", "output path is a directory"],
    );
    assert_eq!(std::fs::read(d.join("atlas.png")).unwrap(), b"previous", "the PNG was replaced");
    let left: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "temporary files left behind: {left:?}");
}

#[test]
fn a_frame_time_too_short_for_the_encoding_is_refused_not_made_a_hold() {
    // A stored frame time of 0 holds the frame (fps="0"); an fps so high, or a duration so short,
    // that the time rounds to 0 must not silently become a hold.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let coin_png = std::fs::read(samples().join("coin/coin.png")).unwrap();
    let xml = |anim: &str| {
        format!(
            r#"<animations name="c"><sheet image="coin.png" columns="3" rows="2" margin="1" spacing="2"/>{anim}</animations>"#
        )
        .into_bytes()
    };
    for (scalar, anim, expect) in [
        ("q16", r#"<animation name="a" start="0" end="5" fps="1e300"/>"#, "frame time (1 / fps) 1e-300 s"),
        ("f32", r#"<animation name="a" start="0" end="5" fps="1e300"/>"#, "frame time (1 / fps) 1e-300 s"),
        ("q16", r#"<animation name="a" start="0" end="5" fps="200000"/>"#, "frame time (1 / fps) 5e-6 s"),
        ("q16", r#"<animation name="a" frames="0,1" durations="0.1,0.000001"/>"#, "duration 1e-6 s"),
    ] {
        std::fs::write(d.join("coin.png"), &coin_png).unwrap();
        std::fs::write(d.join("fast.anim.xml"), xml(anim)).unwrap();
        let out = d.join("keep.osb");
        std::fs::write(&out, b"previous").unwrap();
        let o = ossicle(&["build", s(&d.join("fast.anim.xml")), "-o", s(&out), "--scalar", scalar]);
        assert_fails(&o, &["fast.anim.xml:1:", "animation \"a\"", expect, "would round to 0"]);
        assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    }
    // fps="0" still holds, as documented.
    std::fs::write(d.join("hold.anim.xml"), xml(r#"<animation name="a" start="0" end="5" fps="0"/>"#)).unwrap();
    build(d, &[&d.join("hold.anim.xml")], &[]);
}

#[test]
fn render_refuses_a_canvas_too_large_to_draw_before_allocating_it() {
    // A TexturePacker sheet whose one 26×30 frame sits in a 32767×32767 canvas: a blob of a few
    // hundred bytes whose frames would take terabytes at scale 16 (render aborted allocating them).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(samples().join("knight/knight.png"), d.join("knight.png")).unwrap();
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(samples().join("knight/knight.json")).unwrap()).unwrap();
    for f in doc["frames"].as_object_mut().unwrap().values_mut() {
        f["sourceSize"] = serde_json::json!({ "w": 32767, "h": 32767 });
    }
    std::fs::write(d.join("huge.json"), doc.to_string()).unwrap();
    let blob = build(d, &[&d.join("huge.json")], &[]);
    for (out, scale) in [("x.gif", "16"), ("x", "1")] {
        let out = d.join(out);
        let o = ossicle(&["render", s(&blob), "--sprite", "huge", "--scale", scale, "--out", s(&out)]);
        assert_fails(&o, &["s.osb", "sprite \"huge\" is 32767×32767 pixels", "over the 16777216 pixels per frame"]);
        assert!(!out.exists());
    }
}

#[test]
fn pack_drops_only_a_png_or_json_extension_from_its_output() {
    // --help: "OUT.png and OUT.json (a `.png` or `.json` extension is dropped)"; any other extension
    // is part of OUT (`-o sheet.v2` replaced an unrelated sheet.png and sheet.json).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("sheet.png"), b"other atlas").unwrap();
    std::fs::write(d.join("sheet.json"), b"other json").unwrap();
    let o = ossicle(&["pack", s(&samples().join("slime")), "-o", s(&d.join("sheet.v2"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(d.join("sheet.v2.png").is_file() && d.join("sheet.v2.json").is_file());
    assert_eq!(std::fs::read(d.join("sheet.png")).unwrap(), b"other atlas");
    assert_eq!(std::fs::read(d.join("sheet.json")).unwrap(), b"other json");
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("sheet.v2.json")).unwrap()).unwrap();
    assert_eq!(doc["meta"]["image"], "sheet.v2.png");
    // A .png or .json extension is still dropped.
    for out in ["a.png", "b.json", "c"] {
        let o = ossicle(&["pack", s(&samples().join("slime")), "-o", s(&d.join(out))]);
        assert!(o.status.success(), "{}", stderr(&o));
        let stem = out.split('.').next().unwrap();
        assert!(d.join(format!("{stem}.png")).is_file() && d.join(format!("{stem}.json")).is_file(), "{out}");
    }
    // An output that names no file is refused, not written as ..png.
    let o = ossicle(&["pack", s(&samples().join("slime")), "-o", s(&d.join(".."))]);
    assert_fails(&o, &["names no file"]);
}
