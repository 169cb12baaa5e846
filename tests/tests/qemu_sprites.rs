//! Sprite animations end to end, across targets: the QEMU sprite image (`boards/qemu/src/bin/sprites.rs`) plays every
//! animation of four host-built sprite blobs, draws each shown frame band by band into an RGB565
//! canvas and prints its CRC-32 (`boards/qemu/src/sprites.rs`). This test runs the same file on the
//! host and checks:
//!
//! - (independently of QEMU) that every frame list equals the host's `ossicle render` play-through
//!   (`ossicle_host::render::play_through`), and that every CRC equals the CRC of the host's own
//!   render of that frame (`ossicle_host::render::render_frame` over black, RGB888 through the
//!   simulator display, converted here to RGB565), pixel for pixel;
//! - that each QEMU machine printed exactly the host's lines, frame by frame.
//!
//! `scripts/qemu/check.sh` builds the blobs, runs the firmware on the Cortex-M4F and the Cortex-M0
//! and runs this test with:
//!
//! - `OSSICLE_QEMU_SPRITES_OUTPUTS`: the sprite image's outputs, a `:`-separated list of files (the
//!   file stem names the machine in messages);
//! - `OSSICLE_SPRITES_Q16_AUTO`, `OSSICLE_SPRITES_F32_MASK`, `OSSICLE_SPRITES_Q16_I8RLE`,
//!   `OSSICLE_SPRITES_F32_565LE`: the blobs the firmware embedded (when unset, the test builds them
//!   from the sample sprites through the host, with the options of [`SPECS`], as `check.sh` does);
//! - `OSSICLE_REQUIRE_QEMU=1`: missing outputs are a failure instead of a skip.
//!
//! Colour: the kernel draws into RGB565 and the host renders RGB888, so the host's pixels are
//! converted with the conversion the kernel's `SpriteColor` uses for an `Rgb565` target, each
//! channel rounded to the nearest level (`(c · 31 + 127) / 255`, `(c · 63 + 127) / 255`). For
//! RGB565 sprites the host's pixel is the 565 value expanded to 8 bits (also by rounding, which is
//! not bit replication: level 3 of 31 becomes 25), and rounding gives the value back exactly (as
//! plain truncation, `c >> 3`, would); for indexed sprites the palette's RGB888 colours are rounded
//! by the kernel, where truncation would differ (200 → level 24, truncated 25). These facts are
//! checked below over every level.

#[path = "../../boards/qemu/src/sprites.rs"]
#[allow(dead_code)]
mod sprites;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use embedded_graphics_core::pixelcolor::{Rgb565, Rgb888, RgbColor};
use ossicle::asset::Asset;
use ossicle::sprite::BlobSprite;
use ossicle_conformance::repo_root;
use ossicle_format::sprite::{PixelFormat, Transparency};
use ossicle_format::ScalarEncoding;
use ossicle_host::pixels::{Endian, FormatChoice, PixelOptions, RleChoice, TransparencyChoice};
use ossicle_host::render::{play_through, render_frame, RenderOptions};
use ossicle_host::write::{write_blob_with, WriteOptions};

const COIN: &str = "samples/sprites/coin/coin.anim.xml";
const SLIME: &str = "samples/sprites/slime.anim.xml";

/// One sprite blob of the firmware (`boards/qemu/build.rs`), as `scripts/qemu/check.sh` builds it.
struct Spec {
    label: &'static str,
    var: &'static str,
    sources: &'static [&'static str],
    encoding: ScalarEncoding,
    format: FormatChoice,
    endian: Endian,
    rle: RleChoice,
    transparency: TransparencyChoice,
}

/// The blobs, in the firmware's order, with `check.sh`'s options.
const SPECS: [Spec; 4] = [
    // --scalar q16
    Spec {
        label: "q16-auto",
        var: "OSSICLE_SPRITES_Q16_AUTO",
        sources: &[COIN, SLIME],
        encoding: ScalarEncoding::Q16_16,
        format: FormatChoice::Auto,
        endian: Endian::Little,
        rle: RleChoice::Auto,
        transparency: TransparencyChoice::Auto,
    },
    // --scalar f32 --pixels rgb565be --rle never --transparency mask (the coin's frame 3 has no
    // transparent pixel: it is stored without a mask, as an opaque frame)
    Spec {
        label: "f32-mask",
        var: "OSSICLE_SPRITES_F32_MASK",
        sources: &[COIN, SLIME],
        encoding: ScalarEncoding::F32,
        format: FormatChoice::Fixed(PixelFormat::Rgb565Be),
        endian: Endian::Little,
        rle: RleChoice::Never,
        transparency: TransparencyChoice::Mask,
    },
    // --scalar q16 --pixels indexed8 --rle always
    Spec {
        label: "q16-i8rle",
        var: "OSSICLE_SPRITES_Q16_I8RLE",
        sources: &[COIN, SLIME],
        encoding: ScalarEncoding::Q16_16,
        format: FormatChoice::Fixed(PixelFormat::Indexed8),
        endian: Endian::Little,
        rle: RleChoice::Always,
        transparency: TransparencyChoice::Auto,
    },
    // --scalar f32 --pixels rgb565le
    Spec {
        label: "f32-565le",
        var: "OSSICLE_SPRITES_F32_565LE",
        sources: &[COIN, SLIME],
        encoding: ScalarEncoding::F32,
        format: FormatChoice::Fixed(PixelFormat::Rgb565Le),
        endian: Endian::Little,
        rle: RleChoice::Auto,
        transparency: TransparencyChoice::Auto,
    },
];

/// The blob of `spec`: the file the firmware embedded, or one built here as `ossicle build` does.
fn blob(spec: &Spec) -> Vec<u8> {
    if let Some(path) = std::env::var_os(spec.var) {
        return std::fs::read(&path).unwrap_or_else(|e| panic!("{}={}: {e}", spec.var, Path::new(&path).display()));
    }
    let root = repo_root();
    let paths: Vec<PathBuf> = spec.sources.iter().map(|s| root.join(s)).collect();
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let project = ossicle_host::sources::load_sources(&refs).unwrap_or_else(|e| panic!("{}: load: {e}", spec.label));
    let mut opts = WriteOptions::new(spec.encoding);
    opts.pixels = PixelOptions {
        format: spec.format,
        endian: spec.endian,
        rle: spec.rle,
        transparency: spec.transparency,
        ..PixelOptions::default()
    };
    write_blob_with(&project, &opts).unwrap_or_else(|e| panic!("{}: build: {e}", spec.label)).0
}

/// One `sprite ...` line: what the firmware prints for a shown frame.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Line {
    label: String,
    sprite: String,
    animation: String,
    index: u32,
    source: u32,
    duration: u32,
    crc: u32,
}

impl Line {
    fn of(label: &str, s: &sprites::Shown<'_>) -> Self {
        Line {
            label: label.into(),
            sprite: s.sprite.into(),
            animation: s.animation.into(),
            index: s.index,
            source: s.source,
            duration: s.duration,
            crc: s.crc,
        }
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "sprite {} {}/{} {:04} frame {} duration {:#010x} crc {:#010x}",
            self.label, self.sprite, self.animation, self.index, self.source, self.duration, self.crc
        )
    }
}

/// What [`sprites::run`] gives on the host: every shown frame (with its animation index) and the summary.
fn host_run(spec: &Spec, bytes: &[u8]) -> (Vec<(sprites::Shown<'static>, Line)>, sprites::Summary) {
    let mut lines = Vec::new();
    // The names borrow the blob: `Line` keeps owned copies, the `Shown` kept beside it has none.
    let summary = sprites::run(bytes, |s| {
        let bare = sprites::Shown { sprite: "", animation: "", ..*s };
        lines.push((bare, Line::of(spec.label, s)));
    })
    .unwrap_or_else(|e| panic!("{}: sprites::run on the host: {e:?}", spec.label));
    (lines, summary)
}

/// CRC-32/ISO-HDLC, bit by bit (independent of the `crc` crate the firmware uses).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// An 8-bit channel to `bits` bits, rounded to the nearest level.
fn to_level(c: u8, bits: u32) -> u16 {
    let max = (1u32 << bits) - 1;
    ((u32::from(c) * max + 127) / 255) as u16
}

/// The RGB565 value of an RGB888 pixel, as the kernel converts it for an `Rgb565` target.
fn rgb565(r: u8, g: u8, b: u8) -> u16 {
    (to_level(r, 5) << 11) | (to_level(g, 6) << 5) | to_level(b, 5)
}

/// The CRC of the host's render of sprite frame `source` (over black, scale 1), as RGB565 big-endian.
fn host_render_crc(sprite: &BlobSprite<'_>, source: u32) -> u32 {
    let img = render_frame(sprite, source, &RenderOptions { background: Some([0, 0, 0]), scale: 1 })
        .unwrap_or_else(|e| panic!("render {} frame {source}: {e}", sprite.name()));
    assert_eq!((img.width, img.height), (sprite.width(), sprite.height()));
    let mut bytes = Vec::with_capacity(img.pixels.len() * 2);
    for p in &img.pixels {
        assert_eq!(p[3], 255, "a render over a background is opaque");
        bytes.extend_from_slice(&rgb565(p[0], p[1], p[2]).to_be_bytes());
    }
    crc32(&bytes)
}

#[test]
fn crc32_and_colour_conversion_are_what_the_firmware_uses() {
    // The CRC-32/ISO-HDLC check value, and the same CRC as the crate the firmware uses.
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    let data: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
    assert_eq!(crc32(&data), ossicle_format::CRC32.checksum(&data));
    // The kernel's RGB888 -> RGB565 (embedded-graphics' `From`, what `SpriteColor` uses) rounds to
    // the nearest level: the formula above, for every channel value.
    for c in 0..=255u8 {
        let via = Rgb565::from(Rgb888::new(c, c, c));
        assert_eq!(
            (u16::from(via.r()), u16::from(via.g()), u16::from(via.b())),
            (to_level(c, 5), to_level(c, 6), to_level(c, 5)),
            "channel {c}"
        );
    }
    // RGB565 -> RGB888 (how the host's RGB888 render shows an RGB565 pixel) rounds too: level v of
    // `max` becomes (v · 255 + max / 2) / max. That is not bit replication (5-bit level 3 becomes 25,
    // not 24), but both rounding back and truncation (c >> 3, c >> 2) give every level back exactly.
    let expand = |v: u8, max: u32| ((u32::from(v) * 255 + max / 2) / max) as u8;
    let replicate5 = |v: u8| (v << 3) | (v >> 2);
    assert_eq!((expand(3, 31), replicate5(3)), (25, 24));
    for v in 0..32u8 {
        let e = Rgb888::from(Rgb565::new(v, 0, v)).r();
        assert_eq!(e, expand(v, 31), "5-bit level {v}");
        assert_eq!((to_level(e, 5), u16::from(e >> 3)), (u16::from(v), u16::from(v)), "5-bit level {v}");
    }
    for v in 0..64u8 {
        let e = Rgb888::from(Rgb565::new(0, v, 0)).g();
        assert_eq!(e, expand(v, 63), "6-bit level {v}");
        assert_eq!((to_level(e, 6), u16::from(e >> 2)), (u16::from(v), u16::from(v)), "6-bit level {v}");
    }
    // Truncation is not the kernel's rule for palette colours: 200 rounds to level 24, truncates to 25.
    assert_eq!((to_level(200, 5), 200 >> 3), (24, 25));
}

#[test]
fn band_rendered_frames_equal_the_host_render_and_play_through() {
    // Which storage paths the blobs exercise: (format, transparency, RLE) of every stored frame.
    let mut paths: BTreeSet<(String, &'static str, bool)> = BTreeSet::new();
    for spec in &SPECS {
        let bytes = blob(spec);
        let asset = Asset::load(&bytes).unwrap_or_else(|e| panic!("{}: load: {e}", spec.label));
        assert_eq!(asset.encoding(), spec.encoding, "{}", spec.label);
        let (lines, summary) = host_run(spec, &bytes);
        assert_eq!(summary.frames as usize, lines.len());
        let mut expected_sprites = 0;
        let mut expected_animations = 0;
        let mut compared = 0;
        for sprite in asset.sprites() {
            expected_sprites += 1;
            for i in 0..sprite.frame_count() {
                let f = sprite.frame(i).expect("frame");
                if f.width > 0 {
                    let t = match sprite.transparency() {
                        Transparency::None => "none",
                        Transparency::ColorKey => "key",
                        Transparency::Mask => "mask",
                    };
                    paths.insert((sprite.format().name().to_string(), if f.rle { "skip runs" } else { t }, f.rle));
                }
            }
            let count = sprite.section().animation_count();
            for a in 0..count {
                expected_animations += 1;
                let name = match spec.encoding {
                    ScalarEncoding::F32 => sprite.animations::<f32>().unwrap().name(a as usize),
                    ScalarEncoding::Q16_16 => sprite.animations::<ossicle::Q16>().unwrap().name(a as usize),
                }
                .expect("animation name");
                let want = play_through(&sprite, a as usize).unwrap_or_else(|e| panic!("play_through: {e}"));
                let got: Vec<&(sprites::Shown<'static>, Line)> =
                    lines.iter().filter(|(_, l)| l.sprite == sprite.name() && l.animation == name).collect();
                let what = format!("{} {}/{name}", spec.label, sprite.name());
                assert_eq!(got.len(), want.len(), "{what}: frames shown");
                assert!(!got.is_empty(), "{what}: no frame shown");
                for (k, ((shown, line), w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(line.index as usize, k, "{what}: order");
                    assert_eq!(shown.animation_index, a, "{what}");
                    assert_eq!(shown.relative, w.relative, "{what} #{k}: relative frame");
                    assert_eq!(line.source, w.source, "{what} #{k}: sprite frame");
                    let duration = (line.duration != 0).then(|| spec.encoding.decode_f64(line.duration));
                    assert_eq!(duration, w.duration, "{what} #{k}: duration");
                    assert_eq!(line.crc, host_render_crc(&sprite, line.source), "{what} #{k}: {line}");
                    compared += 1;
                }
            }
        }
        assert_eq!((summary.sprites, summary.animations), (expected_sprites, expected_animations), "{}", spec.label);
        assert_eq!(compared, lines.len(), "{}: every line belongs to one play-through", spec.label);
        // The summary CRC folds the lines in order.
        let mut words = Vec::new();
        for (s, _) in &lines {
            for w in [s.animation_index, s.index, s.source, s.duration, s.crc] {
                words.extend_from_slice(&w.to_le_bytes());
            }
        }
        assert_eq!(summary.crc, crc32(&words), "{}: summary CRC", spec.label);
        eprintln!("{}: {} frames equal the host render, summary crc {:#010x}", spec.label, lines.len(), summary.crc);
    }
    let want: BTreeSet<(String, &'static str, bool)> = [
        ("indexed4", "key", false),
        ("indexed2", "key", false),
        ("rgb565be", "mask", false),
        ("indexed8", "skip runs", true),
        ("rgb565le", "key", false),
        ("rgb565le", "skip runs", true),
    ]
    .into_iter()
    .map(|(f, t, r)| (f.to_string(), t, r))
    .collect();
    assert!(paths.is_superset(&want), "storage paths covered: {paths:?}");
}

/// What one firmware run printed: the `sprite` lines, the `sprites` summaries, and whether it ended with `ok`.
#[derive(Debug, Default)]
struct Printed {
    lines: Vec<Line>,
    summaries: BTreeMap<String, (u32, u32, u32, u32)>,
    errors: Vec<String>,
    ok: bool,
}

fn parse_hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

fn parse(text: &str) -> Printed {
    let mut p = Printed::default();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ok"] => p.ok = true,
            ["sprite", label, name, index, "frame", source, "duration", duration, "crc", crc] => {
                let parsed = (|| {
                    let (sprite, animation) = name.split_once('/')?;
                    Some(Line {
                        label: label.to_string(),
                        sprite: sprite.into(),
                        animation: animation.into(),
                        index: index.parse().ok()?,
                        source: source.parse().ok()?,
                        duration: parse_hex(duration)?,
                        crc: parse_hex(crc)?,
                    })
                })();
                match parsed {
                    Some(l) => p.lines.push(l),
                    None => p.errors.push(format!("unreadable line: {line}")),
                }
            }
            ["sprites", label, "error:", code] => p.errors.push(format!("{label} error {code}")),
            ["sprites", label, sprites, "sprites", animations, "animations", frames, "frames", "crc", crc] => {
                let nums = (sprites.parse(), animations.parse(), frames.parse(), parse_hex(crc));
                if let (Ok(s), Ok(a), Ok(f), Some(c)) = nums {
                    p.summaries.insert(label.trim_end_matches(':').to_string(), (s, a, f, c));
                }
            }
            _ => {}
        }
    }
    p
}

#[test]
fn qemu_firmware_sprite_frames_match_the_host() {
    let required = std::env::var("OSSICLE_REQUIRE_QEMU").is_ok_and(|v| v == "1");
    let outputs: Vec<PathBuf> = std::env::var_os("OSSICLE_QEMU_SPRITES_OUTPUTS")
        .map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect())
        .unwrap_or_default();
    if outputs.is_empty() {
        let msg = "no QEMU sprite image output: run scripts/qemu/check.sh (it sets OSSICLE_QEMU_SPRITES_OUTPUTS)";
        assert!(!required, "{msg} (required because OSSICLE_REQUIRE_QEMU=1)");
        eprintln!("skipping: {msg}");
        return;
    }
    let mut want = Vec::new();
    let mut summaries = BTreeMap::new();
    for spec in &SPECS {
        let (lines, s) = host_run(spec, &blob(spec));
        summaries.insert(spec.label.to_string(), (s.sprites, s.animations, s.frames, s.crc));
        want.extend(lines.into_iter().map(|(_, l)| l));
    }
    let mut failures = Vec::new();
    for path in &outputs {
        let machine = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let printed = parse(&text);
        if !printed.ok {
            failures.push(format!("{machine}: the firmware did not finish with `ok`"));
        }
        failures.extend(printed.errors.iter().map(|e| format!("{machine}: {e}")));
        if printed.lines != want {
            let mut diff: Vec<String> = Vec::new();
            for k in 0..printed.lines.len().max(want.len()) {
                match (printed.lines.get(k), want.get(k)) {
                    (Some(a), Some(b)) if a == b => {}
                    (a, b) => diff.push(format!(
                        "line {k}: firmware {}, host {}",
                        a.map_or("-".into(), Line::to_string),
                        b.map_or("-".into(), Line::to_string)
                    )),
                }
            }
            diff.truncate(10);
            failures.push(format!("{machine}: sprite lines differ from the host:\n  {}", diff.join("\n  ")));
        } else {
            eprintln!("{machine}: {} sprite frames identical to the host", want.len());
        }
        if printed.summaries != summaries {
            failures.push(format!("{machine}: summaries {:?}, host {summaries:?}", printed.summaries));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn parses_firmware_sprite_lines() {
    let p = parse(
        "q16 add: 0x0000000a\nsprite q16-auto coin/wobble 0003 frame 4 duration 0x00003333 crc 0xdeadbeef\n\
         sprites q16-auto: 2 sprites 5 animations 37 frames crc 0x00000001\nsprites f32-mask error: 4\nok\n",
    );
    assert!(p.ok);
    assert_eq!(
        p.lines,
        vec![Line {
            label: "q16-auto".into(),
            sprite: "coin".into(),
            animation: "wobble".into(),
            index: 3,
            source: 4,
            duration: 0x3333,
            crc: 0xDEAD_BEEF
        }]
    );
    assert_eq!(p.summaries.get("q16-auto"), Some(&(2, 5, 37, 1)));
    assert_eq!(p.errors, vec!["f32-mask error 4".to_string()]);
}
