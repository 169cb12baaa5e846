//! The bundled sample sprites as a little handheld scene: a coin spins, a slime bounces and a knight
//! walks to and fro (it stands for one pass of `idle` at each end, then turns round: `flip_h`,
//! triggered by the idle animation's `SpriteLooped` event), each driven by its own kernel
//! [`SpritePlayer`] updated at 60 Hz, drawn with the kernel's blitter ([`draw_frame`], scale 2) into a
//! 160 × 128 RGB565 screen like a handheld's.
//!
//! Only what changed is redrawn, as a firmware on an SPI panel would do it: every sprite keeps a
//! [`SpriteOutput`] that puts its old and its new rectangle into a [`DirtyRects`] list when its
//! [`Appearance`] (frame, place, flip) changes; each dirty rectangle is then cleared to the background
//! and the sprites overlapping it are drawn again, clipped to it. A status bar under the screen (not
//! part of it) shows how many pixels each frame redrew, and how long nothing will change
//! ([`SpritePlayer::next_change`] of every player, and the knight's next step): how long a firmware
//! could sleep.
//!
//! # Headless (default, no SDL)
//!
//! ```text
//! cargo run -p ossicle-examples --bin sprites -- [BLOB] [--out DIR] [--frames N] [--f32] [--show-dirty] [--verbose]
//! ```
//!
//! writes `DIR/frame_0000.png` ... (default `target/demo/sprites`, 240 frames = 4 s; earlier
//! `frame_*.png` files there are removed first) and prints the sprite events as they fire (frame
//! event names come from the blob's string table). Every frame is also drawn in full into a second
//! display and compared with the incrementally redrawn one, and a frame that redraws anything after
//! `next_change()` promised a longer sleep is an error too: the run fails on either. The summary
//! says how many pixels were redrawn in all, and how often a firmware that sleeps until the next
//! change would have woken.
//!
//! - `BLOB`: a blob holding the sprites `coin` (animation `spin`), `slime` (`bounce`) and `knight`
//!   (`walk`, `idle`). Without it the example builds one from `samples/sprites` with ossicle-host
//!   (`coin/coin.anim.xml`, `slime.anim.xml`, `knight/knight.json`), in Q16.16 (`--f32`: in f32).
//! - `--show-dirty`: outlines each frame's dirty rectangles in the PNGs (drawn over a copy of the
//!   screen, so the outlines never end up in the screen itself).
//! - `--verbose`: one line per frame: rectangles, pixels redrawn, next change.
//!
//! # Window
//!
//! ```text
//! cargo run -p ossicle-examples --features window --bin sprites -- [BLOB] --window
//! ```
//!
//! runs the scene live at 60 Hz until the window is closed (or Escape); `--show-dirty` and
//! `--verbose` work there too. Where no display is set (no `DISPLAY` or `WAYLAND_DISPLAY` on Linux)
//! it says so instead of letting SDL fail. The `window` feature turns on
//! embedded-graphics-simulator's SDL2 backend, which needs the SDL2 development files (Debian:
//! `apt-get install libsdl2-dev`). Built without it, `--window` says so and exits with status 2.

use embedded_graphics::mono_font::{ascii::FONT_5X8, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb565;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};
use embedded_graphics_simulator::{OutputSettings, OutputSettingsBuilder, SimulatorDisplay};
use ossicle::draw::{draw_frame, frame_bounds, DrawOptions};
use ossicle::event::{Event, EventQueue};
use ossicle::sprite::{
    Appearance, BlobAnimations, BlobSprite, DirtyRects, Rect, RectExt, SpriteOutput, SpritePlayer, SpriteSource,
};
use ossicle::{Asset, Scalar, Q16};
use ossicle_format::ScalarEncoding;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The handheld's screen.
const SCREEN_W: u32 = 160;
const SCREEN_H: u32 = 128;
/// The status bar under the screen (in the PNGs and the window only, not on the device).
const HUD_H: u32 = 20;
/// Integer scale of every sprite.
const SCALE: u8 = 2;
/// Updates per second.
const HZ: i32 = 60;
/// Default number of frames written headless.
const FRAMES: u32 = 240;
/// Where the grass begins; the slime and the knight stand on it.
const GROUND_Y: i32 = 104;
/// The knight's walking speed in screen pixels per second, and how far it walks.
const KNIGHT_SPEED: i32 = 40;
const KNIGHT_MIN_X: i32 = 2;
const KNIGHT_MAX_X: i32 = 118;
/// At most this many separate dirty rectangles per frame (then the whole screen is redrawn).
const DIRTY_SLOTS: usize = 8;

/// A sprite on screen: its blob data, its own player, where it stands and what it drew last.
struct Actor<'a, S: Scalar> {
    name: &'static str,
    sprite: BlobSprite<'a>,
    anims: BlobAnimations<'a, S>,
    player: SpritePlayer<'a, S>,
    /// The top-left corner of the sprite's (scaled) canvas on screen.
    at: Point,
    flip_h: bool,
    output: SpriteOutput,
}

impl<'a, S: Scalar> Actor<'a, S> {
    fn new(asset: &Asset<'a>, name: &'static str, id: u32, animation: &str, at: Point) -> Result<Self, String> {
        let sprite = asset.sprite_named(name).ok_or_else(|| {
            let names: Vec<&str> = asset.sprites().map(|s| s.name()).collect();
            let held = if names.is_empty() { "no sprites".to_string() } else { names.join(", ") };
            format!("the blob has no sprite {name:?} (it holds {held}); give one with coin, slime and knight")
        })?;
        let anims = sprite.animations::<S>().map_err(|e| e.to_string())?;
        let mut player = SpritePlayer::new(id);
        player
            .play_named(&anims, animation, false)
            .map_err(|e| format!("sprite {name:?}, animation {animation:?}: {e}"))?;
        Ok(Self { name, sprite, anims, player, at, flip_h: false, output: SpriteOutput::new() })
    }

    fn options(&self) -> DrawOptions<'static, Rgb565> {
        let w = u16::try_from(self.sprite.width()).unwrap_or(u16::MAX);
        let h = u16::try_from(self.sprite.height()).unwrap_or(u16::MAX);
        DrawOptions::new().in_canvas(w, h).scaled(SCALE).flipped(self.flip_h, false)
    }

    /// What the sprite would draw now: the shown frame, its screen rectangle (trimmed frames cover
    /// only their opaque part of the canvas), the flip and the scale.
    fn appearance(&self) -> Option<Appearance> {
        let source = self.player.source_frame(&self.anims)?;
        let frame = self.sprite.frame(source)?;
        let rect =
            frame_bounds(&frame, self.at, &self.options()).unwrap_or(Rect { x: self.at.x, y: self.at.y, w: 0, h: 0 });
        Some(Appearance { flip_h: self.flip_h, scale: SCALE, ..Appearance::new(source, rect) })
    }

    /// Draws what [`SpriteOutput`] recorded as drawn (the appearance of this frame).
    fn draw<D: DrawTarget<Color = Rgb565>>(&self, target: &mut D) -> Result<(), String> {
        let Some(shown) = self.output.drawn() else { return Ok(()) };
        let Some(frame) = self.sprite.frame(shown.frame) else { return Ok(()) };
        draw_frame(target, &frame, self.at, &self.options()).map_err(|_| format!("drawing {} failed", self.name))?;
        Ok(())
    }

    fn animation_name(&self, index: u32) -> &'a str {
        usize::try_from(index).ok().and_then(|i| self.anims.name(i)).unwrap_or("?")
    }
}

/// What one frame did.
#[derive(Clone, Copy, Debug, Default)]
struct FrameStats {
    /// Separate rectangles redrawn (1 when the whole screen was).
    rects: usize,
    /// Pixels redrawn.
    pixels: u64,
    /// How long nothing changes after this frame, in seconds, and who changes next; `None`: until
    /// something from outside (a button) happens.
    sleep: Option<(f64, &'static str)>,
}

/// The three actors and the knight's walk.
struct Scene<'a, S: Scalar> {
    asset: Asset<'a>,
    /// In drawing order: later ones cover earlier ones.
    actors: [Actor<'a, S>; 3],
    /// +1 walking right, −1 walking left, 0 standing (turning round).
    walking: i32,
    /// The direction of the last walk (the one to turn away from).
    facing: i32,
    /// Walking time not yet turned into a whole pixel step.
    walked: S,
    /// Seconds per pixel.
    step: S,
    events: EventQueue<64>,
    dirty: DirtyRects<DIRTY_SLOTS>,
    frame: u32,
}

const COIN: usize = 0;
const SLIME: usize = 1;
const KNIGHT: usize = 2;

fn screen_rect() -> Rect {
    Rect { x: 0, y: 0, w: SCREEN_W, h: SCREEN_H }
}

fn rectangle(r: Rect) -> Rectangle {
    Rectangle::new(Point::new(r.x, r.y), Size::new(r.w, r.h))
}

/// The background at a screen pixel: a night sky with a few stars over grass and earth. A function
/// of the position, so any rectangle of it can be repainted on its own.
fn background(p: Point) -> Rgb565 {
    let (x, y) = (p.x, p.y);
    if y < GROUND_Y {
        let hash = (x.wrapping_mul(73) ^ y.wrapping_mul(151)).wrapping_add(x * y) & 0xff;
        if hash == 7 && y < 80 {
            return Rgb565::new(28, 58, 28);
        }
        // Darker at the top, in bands of 8 rows.
        let band = (y / 8).clamp(0, 12) as u8;
        Rgb565::new(2 + band / 2, 4 + band, 9 + band)
    } else if y < GROUND_Y + 3 {
        Rgb565::new(8, 44, 6)
    } else {
        let speck = (x * 7 + y * 13) % 23 == 0;
        if speck {
            Rgb565::new(14, 24, 6)
        } else {
            Rgb565::new(10, 18, 4)
        }
    }
}

fn paint_background<D: DrawTarget<Color = Rgb565>>(target: &mut D, area: Rectangle) -> Result<(), String> {
    target
        .fill_contiguous(&area, area.points().map(background))
        .map_err(|_| "painting the background failed".to_string())
}

impl<'a, S: Scalar> Scene<'a, S> {
    fn new(asset: Asset<'a>) -> Result<Self, String> {
        let ground = |h: u32| GROUND_Y + 2 - (h * u32::from(SCALE)) as i32;
        let coin = Actor::new(&asset, "coin", COIN as u32, "spin", Point::new(20, 14))?;
        let slime_h = asset.sprite_named("slime").map_or(0, |s| s.height());
        let slime = Actor::new(&asset, "slime", SLIME as u32, "bounce", Point::new(76, ground(slime_h)))?;
        let knight_h = asset.sprite_named("knight").map_or(0, |s| s.height());
        let knight = Actor::new(&asset, "knight", KNIGHT as u32, "walk", Point::new(24, ground(knight_h)))?;
        if knight.anims.find("idle").is_none() {
            return Err("sprite \"knight\" has no animation \"idle\"".into());
        }
        let mut dirty = DirtyRects::new(screen_rect());
        dirty.mark_full_screen(); // the first frame paints everything
        Ok(Self {
            asset,
            actors: [coin, slime, knight],
            walking: 1,
            facing: 1,
            walked: S::ZERO,
            step: S::from_ratio(1, KNIGHT_SPEED),
            events: EventQueue::new(),
            dirty,
            frame: 0,
        })
    }

    /// Advances every player by `dt` and the knight's walk, reacting to the sprite events (each is
    /// also passed to `log`), and collects what changed into the dirty list.
    fn update(&mut self, dt: S, log: &mut dyn FnMut(String)) {
        for actor in &mut self.actors {
            actor.player.update(&actor.anims, dt, &mut self.events);
        }
        while let Some(event) = self.events.pop() {
            if let Some(line) = self.describe(&event) {
                log(line);
            }
            // The knight stood through one pass of "idle": it turns round and walks back.
            if let Event::SpriteLooped { player, .. } = event {
                let knight = &mut self.actors[KNIGHT];
                if player == KNIGHT as u32 && self.walking == 0 {
                    self.walking = -self.facing;
                    self.facing = self.walking;
                    knight.flip_h = self.walking < 0;
                    let _ = knight.player.play_named(&knight.anims, "walk", true);
                }
            }
        }
        if self.walking != 0 {
            self.walked = self.walked.add(dt);
            let knight = &mut self.actors[KNIGHT];
            while self.walked >= self.step {
                self.walked = self.walked.sub(self.step);
                knight.at.x += self.walking;
                if knight.at.x <= KNIGHT_MIN_X || knight.at.x >= KNIGHT_MAX_X {
                    // At the edge: stand still; the idle animation's first loop turns it round.
                    self.walking = 0;
                    self.walked = S::ZERO;
                    let _ = knight.player.play_named(&knight.anims, "idle", true);
                    break;
                }
            }
        }
        if self.events.dropped() > 0 {
            log(format!("{} events were dropped (queue full)", self.events.dropped()));
        }
        for actor in &mut self.actors {
            match actor.appearance() {
                Some(a) => {
                    actor.output.update(a, &mut self.dirty);
                }
                None => actor.output.hide_into(&mut self.dirty),
            }
        }
    }

    /// One line for an event worth printing (frame changes are not).
    fn describe(&self, event: &Event) -> Option<String> {
        let who = |player: u32| self.actors.get(player as usize);
        let (actor, animation, what) = match *event {
            Event::SpriteFrameEvent { player, animation, frame, name } => {
                let name = self.asset.string(name).unwrap_or("?");
                (who(player)?, animation, format!("frame {frame}: event {name:?}"))
            }
            Event::SpriteStarted { player, animation } => (who(player)?, animation, "started".into()),
            Event::SpriteLooped { player, animation, count } => (who(player)?, animation, format!("looped ({count})")),
            Event::SpriteEnded { player, animation } => (who(player)?, animation, "ended".into()),
            Event::SpriteStopped { player, animation } => (who(player)?, animation, "stopped".into()),
            _ => return None,
        };
        let t = f64::from(self.frame) / f64::from(HZ);
        Some(format!(
            "frame {:4} ({t:5.2} s)  {:6} {:6} {what}",
            self.frame,
            actor.name,
            actor.animation_name(animation)
        ))
    }

    /// How long nothing on screen changes, and who changes first.
    fn next_change(&self) -> Option<(S, &'static str)> {
        let mut next: Option<(S, &'static str)> = None;
        let mut consider = |t: S, who: &'static str| {
            if next.is_none_or(|(n, _)| t < n) {
                next = Some((t, who));
            }
        };
        for actor in &self.actors {
            if let Some(t) = actor.player.next_change(&actor.anims) {
                consider(t, actor.name);
            }
        }
        if self.walking != 0 {
            consider(self.step.sub(self.walked), "knight");
        }
        next
    }

    /// Redraws the dirty rectangles into the screen and empties the list.
    fn redraw<D: DrawTarget<Color = Rgb565>>(&mut self, screen: &mut D) -> Result<FrameStats, String> {
        let stats = FrameStats {
            rects: self.dirty.len(),
            pixels: self.dirty.area(),
            sleep: self.next_change().map(|(t, who)| (t.to_f64(), who)),
        };
        for rect in self.dirty.iter() {
            let area = rectangle(rect);
            let mut clipped = screen.clipped(&area);
            paint_background(&mut clipped, area)?;
            for actor in &self.actors {
                if actor.output.drawn().is_some_and(|d| d.rect.intersects(&rect)) {
                    actor.draw(&mut clipped)?;
                }
            }
        }
        self.dirty.clear();
        Ok(stats)
    }

    /// Draws the whole screen from scratch (the reference the incremental redraw must match).
    fn draw_all<D: DrawTarget<Color = Rgb565>>(&self, screen: &mut D) -> Result<(), String> {
        paint_background(screen, rectangle(screen_rect()))?;
        for actor in &self.actors {
            actor.draw(screen)?;
        }
        Ok(())
    }
}

/// The screen, with the status bar under it and, optionally, the dirty rectangles outlined.
fn present(
    screen: &SimulatorDisplay<Rgb565>,
    frame: u32,
    stats: &FrameStats,
    outline: &[Rect],
) -> Result<SimulatorDisplay<Rgb565>, String> {
    let fail = |_| "drawing the status bar failed".to_string();
    let mut out = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H + HUD_H));
    let area = rectangle(screen_rect());
    out.fill_contiguous(&area, area.points().map(|p| screen.get_pixel(p))).map_err(fail)?;
    for r in outline {
        rectangle(*r).into_styled(PrimitiveStyle::with_stroke(Rgb565::MAGENTA, 1)).draw(&mut out).map_err(fail)?;
    }
    let hud = Rectangle::new(Point::new(0, SCREEN_H as i32), Size::new(SCREEN_W, HUD_H));
    hud.into_styled(PrimitiveStyle::with_fill(Rgb565::new(3, 6, 3))).draw(&mut out).map_err(fail)?;
    let full = u64::from(SCREEN_W * SCREEN_H);
    let line1 = format!("#{frame} redrew {} of {full} px", stats.pixels);
    let line2 = match stats.sleep {
        Some((t, who)) => format!("sleep {:.1} ms, then {who}", t * 1000.0),
        None => "sleep until a button".to_string(),
    };
    let style = MonoTextStyle::new(&FONT_5X8, Rgb565::new(26, 54, 26));
    let y = SCREEN_H as i32 + 1;
    Text::with_baseline(&line1, Point::new(2, y), style, Baseline::Top).draw(&mut out).map_err(fail)?;
    Text::with_baseline(&line2, Point::new(2, y + 10), style, Baseline::Top).draw(&mut out).map_err(fail)?;
    Ok(out)
}

/// Command-line options.
struct Options {
    blob: Option<PathBuf>,
    out: PathBuf,
    frames: u32,
    f32: bool,
    show_dirty: bool,
    verbose: bool,
    window: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        blob: None,
        out: PathBuf::from("target/demo/sprites"),
        frames: FRAMES,
        f32: false,
        show_dirty: false,
        verbose: false,
        window: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => o.out = args.next().ok_or("--out needs a folder")?.into(),
            "--frames" => {
                let n = args.next().ok_or("--frames needs a number")?;
                o.frames = n.parse().map_err(|_| format!("--frames {n:?} is not a number"))?;
            }
            "--f32" => o.f32 = true,
            "--show-dirty" => o.show_dirty = true,
            "--verbose" => o.verbose = true,
            "--window" => o.window = true,
            "-h" | "--help" => {
                return Err(
                    "usage: sprites [BLOB] [--out DIR] [--frames N] [--f32] [--show-dirty] [--verbose] [--window]"
                        .into(),
                )
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s:?} (try --help)")),
            s if o.blob.is_none() => o.blob = Some(s.into()),
            s => return Err(format!("unexpected argument {s:?}: give one blob")),
        }
    }
    Ok(o)
}

/// The blob: the given file, or one built from samples/sprites.
fn blob_bytes(o: &Options) -> Result<Vec<u8>, String> {
    if let Some(path) = &o.blob {
        return std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/sprites");
    let inputs = [dir.join("coin/coin.anim.xml"), dir.join("slime.anim.xml"), dir.join("knight/knight.json")];
    let encoding = if o.f32 { ScalarEncoding::F32 } else { ScalarEncoding::Q16_16 };
    let project = ossicle_host::sources::load_sources(&inputs).map_err(|e| e.to_string())?;
    let bytes = ossicle_host::write::write_blob(&project, encoding).map_err(|e| e.to_string())?;
    let dir = dir.canonicalize().unwrap_or(dir);
    println!("built a {}-byte {} blob from {}", bytes.len(), encoding.name(), dir.display());
    Ok(bytes)
}

fn output_settings() -> OutputSettings {
    OutputSettingsBuilder::new().scale(2).build()
}

/// Headless: `o.frames` frames at 60 Hz into PNGs, each checked against a full redraw.
fn run_headless<S: Scalar>(asset: Asset<'_>, o: &Options) -> Result<(), String> {
    let mut scene = Scene::<S>::new(asset)?;
    let mut screen = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let mut reference = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let settings = output_settings();
    let dt = S::from_ratio(1, HZ);
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    remove_old_frames(&o.out)?;

    let full = u64::from(SCREEN_W * SCREEN_H);
    let (mut total, mut idle_frames, mut max) = (0u64, 0u32, (0u64, 0u32));
    let mut predicted_sleep: Option<f64> = None;
    for frame in 0..o.frames {
        scene.frame = frame;
        // Frame 0 only emits the start events; every later one advances by 1/60 s.
        scene.update(if frame == 0 { S::ZERO } else { dt }, &mut |line| println!("{line}"));
        let outline: Vec<Rect> = if o.show_dirty { scene.dirty.iter().collect() } else { Vec::new() };
        let stats = scene.redraw(&mut screen)?;

        // What next_change() promised after the previous frame must hold: a sleep longer than the
        // frame means nothing to redraw now.
        if let Some(t) = predicted_sleep {
            if t > dt.to_f64() + 1e-4 && stats.pixels > 0 {
                return Err(format!("frame {frame}: next_change() promised {:.1} ms without change", t * 1000.0));
            }
        }
        predicted_sleep = stats.sleep.map(|(t, _)| t);

        scene.draw_all(&mut reference)?;
        if screen.diff(&reference).is_some() {
            return Err(format!("frame {frame}: the incremental redraw differs from a full redraw"));
        }
        total += stats.pixels;
        if stats.pixels == 0 {
            idle_frames += 1;
        }
        if stats.pixels > max.0 {
            max = (stats.pixels, frame);
        }
        if o.verbose {
            let sleep = stats.sleep.map_or("none".to_string(), |(t, who)| format!("{:.1} ms ({who})", t * 1000.0));
            println!(
                "frame {frame:4}: {} rects, {:5} px redrawn ({:4.1}%), next change in {sleep}",
                stats.rects,
                stats.pixels,
                stats.pixels as f64 * 100.0 / full as f64
            );
        }
        let path = o.out.join(format!("frame_{frame:04}.png"));
        present(&screen, frame, &stats, &outline)?
            .to_rgb_output_image(&settings)
            .save_png(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let frames = u64::from(o.frames.max(1));
    println!("wrote {} frames ({} scalars) to {}", o.frames, S::ENCODING.name(), o.out.display());
    println!(
        "redrew {total} of {} pixels ({:.1}%; the first frame paints all {full}), at most {} in a frame (frame {}); \
         {idle_frames} frames redrew nothing, so a firmware sleeping until next_change() would have woken {} times \
         instead of {}",
        full * frames,
        total as f64 * 100.0 / (full * frames) as f64,
        max.0,
        max.1,
        o.frames - idle_frames,
        o.frames
    );
    println!("every frame matched a full redraw, and no frame changed before next_change() said it would");
    Ok(())
}

/// Removes the `frame_NNNN.png` files an earlier run left in `dir` (and nothing else).
fn remove_old_frames(dir: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let numbered = name
            .strip_prefix("frame_")
            .and_then(|n| n.strip_suffix(".png"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if numbered {
            std::fs::remove_file(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Live: the scene at 60 Hz in a window until it is closed (or Escape).
#[cfg(feature = "window")]
fn run_window<S: Scalar>(asset: Asset<'_>, o: &Options) -> Result<(), String> {
    use embedded_graphics_simulator::sdl2::Keycode;
    use embedded_graphics_simulator::{SimulatorEvent, Window};
    // SDL cannot open a window without a display (and panics trying): say so first. On Linux and
    // the BSDs that is X11 or Wayland, unless an SDL video driver is chosen or the simulator's
    // EG_SIMULATOR_DUMP asks for a PNG of the first frame instead of a window.
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if !["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "EG_SIMULATOR_DUMP"].iter().any(|v| set(v)) {
            return Err("--window: no display (DISPLAY and WAYLAND_DISPLAY are not set); without --window \
                        the scene is written as PNG frames"
                .into());
        }
    }
    let mut scene = Scene::<S>::new(asset)?;
    let mut screen = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let mut window = Window::new("ossicle sprites", &output_settings());
    window.set_max_fps(HZ as u32);
    let dt = S::from_ratio(1, HZ);
    let mut frame = 0u32;
    loop {
        scene.frame = frame;
        scene.update(if frame == 0 { S::ZERO } else { dt }, &mut |line| println!("{line}"));
        let outline: Vec<Rect> = if o.show_dirty { scene.dirty.iter().collect() } else { Vec::new() };
        let stats = scene.redraw(&mut screen)?;
        if o.verbose {
            println!("frame {frame:4}: {} rects, {:5} px redrawn", stats.rects, stats.pixels);
        }
        // Window::update shows the frame and sleeps out the rest of the 1/60 s.
        window.update(&present(&screen, frame, &stats, &outline)?);
        let quit = window
            .events()
            .any(|e| matches!(e, SimulatorEvent::Quit | SimulatorEvent::KeyDown { keycode: Keycode::ESCAPE, .. }));
        if quit {
            return Ok(());
        }
        frame = frame.wrapping_add(1);
    }
}

/// What `--window` says when the example was built without the `window` feature.
#[cfg(not(feature = "window"))]
const WITHOUT_WINDOW: &str = "--window: this example was built without its `window` feature (SDL2). Run \
     `cargo run -p ossicle-examples --features window --bin sprites -- --window`, which needs the SDL2 \
     development files (Debian/Ubuntu: apt-get install libsdl2-dev). Without --window it writes PNG frames.";

fn run(o: &Options) -> Result<(), String> {
    let bytes = blob_bytes(o)?;
    let asset = Asset::load(&bytes).map_err(|e| format!("loading the blob: {e}"))?;
    if o.window {
        #[cfg(feature = "window")]
        return match asset.encoding() {
            ScalarEncoding::F32 => run_window::<f32>(asset, o),
            ScalarEncoding::Q16_16 => run_window::<Q16>(asset, o),
        };
        #[cfg(not(feature = "window"))]
        return Err(WITHOUT_WINDOW.into());
    }
    match asset.encoding() {
        ScalarEncoding::F32 => run_headless::<f32>(asset, o),
        ScalarEncoding::Q16_16 => run_headless::<Q16>(asset, o),
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    #[cfg(not(feature = "window"))]
    if o.window {
        eprintln!("error: {WITHOUT_WINDOW}");
        return ExitCode::from(2);
    }
    match run(&o) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
