//! `ossicle sim`: plays a sprite animation of a blob in a window, in a loop, with the kernel's own
//! [`SpritePlayer`] at real time and the kernel's blitter ([`draw_frame`]) (feature `sim`).
//!
//! ```text
//! cargo run -p ossicle-host --features sim --bin ossicle -- sim BLOB --sprite NAME [--animation NAME] [--scale N]
//! ```
//!
//! The feature turns on embedded-graphics-simulator's SDL2 backend, which needs the SDL2 development
//! files to build (Debian/Ubuntu: `apt-get install libsdl2-dev`) and a display to run. Built without
//! it, `ossicle sim` still exists and says how to build it.
//!
//! Keys: **space** pauses and resumes, **left**/**right** play the previous/next animation of the
//! sprite, **R** restarts the animation, **F** mirrors the sprite left to right, **Escape** or **Q**
//! (or closing the window) quits. A non-looping animation starts again when it ends. The sprite is
//! drawn at `--scale` (default 4) over a checkerboard that shows its canvas; under it a status line
//! gives the animation, the frame and the state, and the sprite events are printed as they fire.
//!
//! [`Viewer`] holds everything but the window (player, keys, drawing into any `DrawTarget`), so it is
//! tested without a display.

use crate::error::HostError;
use embedded_graphics::mono_font::{ascii::FONT_6X10, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};
use ossicle::asset::Asset;
use ossicle::draw::{draw_frame, DrawOptions, MAX_SCALE};
use ossicle::event::{Event, EventQueue};
use ossicle::scalar::{Scalar, Q16};
use ossicle::sprite::{BlobAnimations, BlobSprite, SpritePlayer, SpriteSource};
use ossicle_format::ScalarEncoding;
use std::path::Path;

/// How `ossicle sim` starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimOptions {
    /// The sprite to show.
    pub sprite: String,
    /// The animation to start with (default: the sprite's first).
    pub animation: Option<String>,
    /// Integer scale, 1 to [`MAX_SCALE`].
    pub scale: u8,
}

/// What a key asks of the [`Viewer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Pause, or resume when paused (space).
    TogglePause,
    /// Play the previous animation, wrapping round (left).
    PreviousAnimation,
    /// Play the next animation, wrapping round (right).
    NextAnimation,
    /// Play the animation again from its start (R).
    Restart,
    /// Mirror the sprite left to right, or back (F).
    Flip,
}

/// Space around the canvas, in window pixels.
const PAD: u32 = 8;
/// The status lines under the canvas (FONT_6X10).
const LINE_H: u32 = 12;
const LINES: u32 = 2;
/// The narrowest window: room for the key help.
const MIN_WIDTH: u32 = 40 * 6 + 2 * PAD;

/// A sprite, its player and how it is shown: everything of `ossicle sim` but the window.
pub struct Viewer<'a, S: Scalar> {
    asset: Asset<'a>,
    sprite: BlobSprite<'a>,
    anims: BlobAnimations<'a, S>,
    player: SpritePlayer<'a, S>,
    events: EventQueue<64>,
    paused: bool,
    flip_h: bool,
    scale: u8,
}

impl<'a, S: Scalar> Viewer<'a, S> {
    /// Shows `sprite` (of `asset`), playing animation `animation`, at `scale`.
    pub fn new(asset: Asset<'a>, sprite: BlobSprite<'a>, animation: usize, scale: u8) -> Result<Self, String> {
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(format!("scale {scale} is not in 1..={MAX_SCALE}"));
        }
        let anims = sprite.animations::<S>().map_err(|e| e.to_string())?;
        let mut player = SpritePlayer::new(0);
        player.play(&anims, animation, true).map_err(|e| format!("animation {animation}: {e}"))?;
        Ok(Self { asset, sprite, anims, player, events: EventQueue::new(), paused: false, flip_h: false, scale })
    }

    /// The current animation's index.
    pub fn animation(&self) -> usize {
        self.player.current().unwrap_or(0)
    }

    /// The current animation's name.
    pub fn animation_name(&self) -> &'a str {
        self.anims.name(self.animation()).unwrap_or("?")
    }

    /// The frame shown, relative to the animation.
    pub fn frame(&self) -> Option<u32> {
        self.player.frame()
    }

    /// Whether the viewer is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Whether the sprite is mirrored.
    pub fn is_flipped(&self) -> bool {
        self.flip_h
    }

    /// Does what a key asks. Changing or restarting the animation also resumes.
    pub fn apply(&mut self, action: Action) {
        let count = self.anims.animation_count();
        match action {
            Action::TogglePause => {
                self.paused = !self.paused;
                if self.paused {
                    self.player.pause();
                } else {
                    self.player.resume();
                }
            }
            Action::PreviousAnimation | Action::NextAnimation if count > 0 => {
                let now = self.animation();
                let step = if action == Action::NextAnimation { 1 } else { count - 1 };
                // Skip animations the player refuses (no frames), at most once round.
                for k in 1..=count {
                    let next = (now + step * k) % count;
                    if self.player.play(&self.anims, next, true).is_ok() {
                        break;
                    }
                }
                self.paused = false;
            }
            Action::PreviousAnimation | Action::NextAnimation => {}
            Action::Restart => {
                let _ = self.player.play(&self.anims, self.animation(), true);
                self.paused = false;
            }
            Action::Flip => self.flip_h = !self.flip_h,
        }
    }

    /// Advances the player by `dt` seconds and returns a line for each event worth printing (frame
    /// changes are not). A non-looping animation that ended starts again.
    pub fn update(&mut self, dt: S) -> Vec<String> {
        self.player.update(&self.anims, dt, &mut self.events);
        let mut lines = Vec::new();
        let mut ended = false;
        while let Some(event) = self.events.pop() {
            let name = |a: u32| usize::try_from(a).ok().and_then(|a| self.anims.name(a)).unwrap_or("?");
            let line = match event {
                Event::SpriteStarted { animation, .. } => format!("{}: started", name(animation)),
                Event::SpriteFrameEvent { animation, frame, name: id, .. } => {
                    format!("{}: frame {frame}: event {:?}", name(animation), self.asset.string(id).unwrap_or("?"))
                }
                Event::SpriteLooped { animation, count, .. } => format!("{}: looped ({count})", name(animation)),
                Event::SpriteEnded { animation, .. } => {
                    ended = true;
                    format!("{}: ended, playing it again", name(animation))
                }
                _ => continue,
            };
            lines.push(line);
        }
        if self.events.dropped() > 0 {
            lines.push(format!("{} events were dropped (queue full)", self.events.dropped()));
            self.events = EventQueue::new();
        }
        if ended {
            let _ = self.player.play(&self.anims, self.animation(), true);
        }
        lines
    }

    /// The sprite's canvas on screen.
    fn canvas(&self) -> Rectangle {
        let s = u32::from(self.scale);
        Rectangle::new(Point::new(PAD as i32, PAD as i32), Size::new(self.sprite.width() * s, self.sprite.height() * s))
    }

    /// The window's size: the scaled canvas with a margin, and the status lines.
    pub fn size(&self) -> Size {
        let canvas = self.canvas().size;
        Size::new((canvas.width + 2 * PAD).max(MIN_WIDTH), canvas.height + 2 * PAD + LINES * LINE_H)
    }

    /// The status lines: animation, frame and state; the keys.
    pub fn status(&self) -> [String; 2] {
        let count = self.player.current().and_then(|a| self.anims.animation(a)).map_or(0, |a| a.frame_count);
        let frame = self.frame().unwrap_or(0);
        let source = self.player.source_frame(&self.anims).map_or("-".to_string(), |s| s.to_string());
        let mut first = format!("{} {}/{} (frame {source})", self.animation_name(), frame + 1, count);
        if self.paused {
            first.push_str(" paused");
        }
        if self.flip_h {
            first.push_str(" flipped");
        }
        [first, "space pause  <- -> anim  R restart  F flip".to_string()]
    }

    /// Draws the whole view: background, the canvas as a checkerboard, the shown frame, the status.
    pub fn draw<D: DrawTarget<Color = Rgb888>>(&self, target: &mut D) -> Result<(), D::Error> {
        target.clear(Rgb888::new(40, 40, 48))?;
        let canvas = self.canvas();
        let cell = 4 * i32::from(self.scale);
        let checker = canvas.points().map(|p| {
            let (x, y) = ((p.x - canvas.top_left.x) / cell, (p.y - canvas.top_left.y) / cell);
            if (x + y) % 2 == 0 {
                Rgb888::new(92, 92, 100)
            } else {
                Rgb888::new(72, 72, 80)
            }
        });
        target.fill_contiguous(&canvas, checker)?;
        if let Some(frame) = self.player.source_frame(&self.anims).and_then(|s| self.sprite.frame(s)) {
            let w = u16::try_from(self.sprite.width()).unwrap_or(u16::MAX);
            let h = u16::try_from(self.sprite.height()).unwrap_or(u16::MAX);
            let opts = DrawOptions::new().in_canvas(w, h).scaled(self.scale).flipped(self.flip_h, false);
            match draw_frame(target, &frame, canvas.top_left, &opts) {
                Ok(_) => {}
                Err(ossicle::draw::DrawError::Target(e)) => return Err(e),
                Err(ossicle::draw::DrawError::InvalidScale(_)) => {} // refused in `new`
            }
        }
        let y = (canvas.size.height + 2 * PAD) as i32;
        let bar = Rectangle::new(Point::new(0, y - 2), Size::new(self.size().width, LINES * LINE_H + 2));
        bar.into_styled(PrimitiveStyle::with_fill(Rgb888::new(24, 24, 28))).draw(target)?;
        let [first, keys] = self.status();
        let bright = MonoTextStyle::new(&FONT_6X10, Rgb888::new(230, 230, 230));
        let dim = MonoTextStyle::new(&FONT_6X10, Rgb888::new(150, 150, 160));
        Text::with_baseline(&first, Point::new(PAD as i32, y), bright, Baseline::Top).draw(target)?;
        Text::with_baseline(&keys, Point::new(PAD as i32, y + LINE_H as i32), dim, Baseline::Top).draw(target)?;
        Ok(())
    }
}

/// The index of the animation called `name`, or the error that lists the sprite's animations.
fn find_animation(asset: &Asset<'_>, sprite: &BlobSprite<'_>, blob: &Path, name: &str) -> Result<usize, HostError> {
    let section = sprite.section();
    let name_of = |i: u32| section.animation(i).and_then(|a| asset.string(a.name));
    let count = section.animation_count();
    (0..count).find(|&i| name_of(i) == Some(name)).and_then(|i| usize::try_from(i).ok()).ok_or_else(|| {
        let names: Vec<&str> = (0..count).filter_map(name_of).collect();
        let sprite = sprite.name();
        HostError::file(blob, format!("sprite {sprite:?} has no animation {name:?} (it has {})", names.join(", ")))
    })
}

/// Why no window can open, when that is clear before asking SDL: on Linux and the BSDs, no X11 or
/// Wayland display and no SDL video driver chosen (embedded-graphics-simulator's `EG_SIMULATOR_DUMP`,
/// which writes the first frame to a PNG instead of opening a window, needs none).
fn no_display() -> Option<&'static str> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        let any = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "EG_SIMULATOR_DUMP"].iter().any(|v| set(v));
        if !any {
            return Some(
                "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set; SDL_VIDEODRIVER picks \
                 another SDL video driver); `ossicle render` writes frames without one",
            );
        }
    }
    None
}

/// `ossicle sim`: loads the blob, finds the sprite and the animation, and plays it in a window until
/// the window is closed.
pub fn run(blob: &Path, bytes: &[u8], opts: &SimOptions) -> Result<(), HostError> {
    if !(1..=MAX_SCALE).contains(&opts.scale) {
        return Err(HostError::file(blob, format!("--scale {} is not in 1..={MAX_SCALE}", opts.scale)));
    }
    let asset = crate::inspect::load(blob, bytes)?;
    let sprite = crate::render::find_sprite(&asset, blob, &opts.sprite)?;
    if sprite.section().animation_count() == 0 {
        return Err(HostError::file(blob, format!("sprite {:?} has no animations", opts.sprite)));
    }
    // The window holds the scaled canvas: refused before the display is allocated, with
    // `ossicle render`'s limit of one frame.
    let scale = u64::from(opts.scale);
    let (w, h) = (u64::from(sprite.width()) * scale, u64::from(sprite.height()) * scale);
    if w * h > crate::render::MAX_RENDERED_FRAME_PIXELS {
        return Err(HostError::file(
            blob,
            format!(
                "sprite {:?} is {}×{} pixels, {w}×{h} at scale {scale}: over the {} pixels a window may show",
                opts.sprite,
                sprite.width(),
                sprite.height(),
                crate::render::MAX_RENDERED_FRAME_PIXELS
            ),
        ));
    }
    let animation = match &opts.animation {
        Some(name) => find_animation(&asset, &sprite, blob, name)?,
        None => 0,
    };
    if let Some(reason) = no_display() {
        return Err(HostError::file(blob, reason));
    }
    let title = format!("ossicle sim: {} ({})", opts.sprite, blob.display());
    match asset.encoding() {
        ScalarEncoding::F32 => window::<f32>(Viewer::new(asset, sprite, animation, opts.scale), &title),
        ScalarEncoding::Q16_16 => window::<Q16>(Viewer::new(asset, sprite, animation, opts.scale), &title),
    }
    .map_err(|e| HostError::file(blob, e))
}

/// Prints one of the player's event lines; a closed standard output (the window was started
/// with `| head`) drops them rather than ending the window with a panic.
fn event_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// The window loop: draw, show (the simulator's window keeps 60 frames per second), handle keys,
/// advance the player by the real time that passed (at most a quarter second per step, so a stalled
/// window does not skip ahead).
fn window<S: Scalar>(viewer: Result<Viewer<'_, S>, String>, title: &str) -> Result<(), String> {
    use embedded_graphics_simulator::sdl2::Keycode;
    use embedded_graphics_simulator::{OutputSettingsBuilder, SimulatorDisplay, SimulatorEvent, Window};
    use std::time::Instant;
    let mut viewer = viewer?;
    let mut display = SimulatorDisplay::<Rgb888>::new(viewer.size());
    let mut window = Window::new(title, &OutputSettingsBuilder::new().build());
    for line in viewer.update(S::ZERO) {
        event_line(&line);
    }
    let mut last = Instant::now();
    loop {
        viewer.draw(&mut display).map_err(|e| format!("drawing failed: {e:?}"))?;
        window.update(&display);
        let mut actions = Vec::new();
        for event in window.events() {
            match event {
                SimulatorEvent::Quit => return Ok(()),
                SimulatorEvent::KeyDown { keycode, repeat, .. } => match keycode {
                    Keycode::ESCAPE | Keycode::Q => return Ok(()),
                    Keycode::SPACE if !repeat => actions.push(Action::TogglePause),
                    Keycode::LEFT => actions.push(Action::PreviousAnimation),
                    Keycode::RIGHT => actions.push(Action::NextAnimation),
                    Keycode::R if !repeat => actions.push(Action::Restart),
                    Keycode::F if !repeat => actions.push(Action::Flip),
                    _ => {}
                },
                _ => {}
            }
        }
        for action in actions {
            viewer.apply(action);
        }
        let now = Instant::now();
        let dt = now.duration_since(last).as_secs_f64().min(0.25);
        last = now;
        for line in viewer.update(S::from_f64(dt)) {
            event_line(&line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics_simulator::SimulatorDisplay;

    fn blob() -> Vec<u8> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/sprites");
        let inputs = [dir.join("coin/coin.anim.xml"), dir.join("knight/knight.json")];
        let project = crate::sources::load_sources(&inputs).unwrap();
        crate::write::write_blob(&project, ScalarEncoding::Q16_16).unwrap()
    }

    fn viewer<'a>(asset: Asset<'a>, sprite: &str, animation: usize) -> Viewer<'a, Q16> {
        Viewer::new(asset, asset.sprite_named(sprite).unwrap(), animation, 2).unwrap()
    }

    fn draw(v: &Viewer<'_, Q16>) -> SimulatorDisplay<Rgb888> {
        let mut d = SimulatorDisplay::new(v.size());
        v.draw(&mut d).unwrap();
        d
    }

    #[test]
    fn plays_pauses_and_restarts() {
        let bytes = blob();
        let asset = Asset::load(&bytes).unwrap();
        let mut v = viewer(asset, "coin", 0);
        let lines = v.update(Q16::ZERO);
        assert_eq!(lines, ["spin: started", "spin: frame 0: event \"shine\""]);
        v.update(Q16::from_f32(0.25)); // 10 fps
        assert_eq!(v.frame(), Some(2));
        v.apply(Action::TogglePause);
        v.update(Q16::ONE);
        assert_eq!((v.frame(), v.is_paused()), (Some(2), true));
        assert!(v.status()[0].ends_with("paused"), "{:?}", v.status());
        v.apply(Action::TogglePause);
        v.update(Q16::from_f32(0.1));
        assert_eq!(v.frame(), Some(3));
        v.apply(Action::Restart);
        v.update(Q16::ZERO);
        assert_eq!(v.frame(), Some(0));
    }

    #[test]
    fn left_and_right_wrap_round_the_animations() {
        let bytes = blob();
        let asset = Asset::load(&bytes).unwrap();
        let mut v = viewer(asset, "knight", 0);
        fn names(v: &mut Viewer<'_, Q16>, a: Action) -> String {
            v.apply(a);
            v.animation_name().to_string()
        }
        assert_eq!(v.animation_name(), "idle");
        assert_eq!(names(&mut v, Action::NextAnimation), "walk");
        assert_eq!(names(&mut v, Action::NextAnimation), "step_once");
        assert_eq!(names(&mut v, Action::NextAnimation), "idle");
        assert_eq!(names(&mut v, Action::PreviousAnimation), "step_once");
        // Changing the animation resumes a paused viewer.
        v.apply(Action::TogglePause);
        assert_eq!(names(&mut v, Action::PreviousAnimation), "walk");
        assert!(!v.is_paused());
    }

    #[test]
    fn a_non_looping_animation_plays_again() {
        let bytes = blob();
        let asset = Asset::load(&bytes).unwrap();
        let mut v = viewer(asset, "knight", 2); // step_once: frames 2, 3 twice, 0.12 s each
        v.update(Q16::ZERO);
        let mut all = Vec::new();
        for _ in 0..40 {
            all.extend(v.update(Q16::from_ratio(1, 60)));
        }
        assert!(all.iter().any(|l| l == "step_once: ended, playing it again"), "{all:?}");
        assert!(all.iter().filter(|l| *l == "step_once: started").count() >= 1, "{all:?}");
        assert!(v.frame().is_some() && !v.is_paused());
    }

    #[test]
    fn draws_the_frame_and_mirrors_it() {
        let bytes = blob();
        let asset = Asset::load(&bytes).unwrap();
        let mut v = viewer(asset, "knight", 1); // walk: trimmed frames, off-centre in the canvas
        v.update(Q16::ZERO);
        let plain = draw(&v);
        v.apply(Action::Flip);
        assert!(v.is_flipped());
        let flipped = draw(&v);
        let canvas = v.canvas();
        let (x0, w) = (canvas.top_left.x, canvas.size.width as i32);
        let background = |p: Point| {
            let cell = 8;
            let (x, y) = ((p.x - canvas.top_left.x) / cell, (p.y - canvas.top_left.y) / cell);
            if (x + y) % 2 == 0 {
                Rgb888::new(92, 92, 100)
            } else {
                Rgb888::new(72, 72, 80)
            }
        };
        let mut sprite_pixels = 0;
        for p in canvas.points() {
            let mirrored = Point::new(x0 + w - 1 - (p.x - x0), p.y);
            let (a, b) = (plain.get_pixel(p), flipped.get_pixel(mirrored));
            if a != background(p) {
                sprite_pixels += 1;
                assert_eq!(a, b, "{p:?}");
            }
        }
        assert!(sprite_pixels > 100, "{sprite_pixels} sprite pixels");
        assert_ne!(plain, flipped);
    }

    #[test]
    fn refuses_a_bad_scale_and_names_the_animations() {
        let bytes = blob();
        let asset = Asset::load(&bytes).unwrap();
        let knight = asset.sprite_named("knight").unwrap();
        assert!(Viewer::<Q16>::new(asset, knight, 0, 0).is_err());
        assert!(Viewer::<Q16>::new(asset, knight, 0, MAX_SCALE + 1).is_err());
        let e = find_animation(&asset, &knight, Path::new("b.osb"), "run").unwrap_err();
        assert_eq!(e.to_string(), "b.osb: sprite \"knight\" has no animation \"run\" (it has idle, walk, step_once)");
        let opts = SimOptions { sprite: "knight".into(), animation: None, scale: 0 };
        assert!(run(Path::new("b.osb"), &bytes, &opts).unwrap_err().reason.contains("--scale 0"));
    }

    #[test]
    fn refuses_a_window_too_large_before_opening_it() {
        // A TexturePacker sheet whose frames sit in a 32767×32767 canvas: a window of 4.3 G pixels
        // at scale 2 (the display buffer alone would take 17 GB).
        let dir = tempfile::tempdir().unwrap();
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/sprites/knight");
        std::fs::copy(samples.join("knight.png"), dir.path().join("knight.png")).unwrap();
        let mut doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(samples.join("knight.json")).unwrap()).unwrap();
        for f in doc["frames"].as_object_mut().unwrap().values_mut() {
            f["sourceSize"] = serde_json::json!({ "w": 32767, "h": 32767 });
        }
        let json = dir.path().join("huge.json");
        std::fs::write(&json, doc.to_string()).unwrap();
        let project = crate::sources::load_sources(&[json]).unwrap();
        let bytes = crate::write::write_blob(&project, ScalarEncoding::Q16_16).unwrap();
        let opts = SimOptions { sprite: "huge".into(), animation: None, scale: 2 };
        let e = run(Path::new("h.osb"), &bytes, &opts).unwrap_err().to_string();
        assert_eq!(
            e,
            "h.osb: sprite \"huge\" is 32767×32767 pixels, 65534×65534 at scale 2: over the 16777216 pixels a window may show"
        );
    }
}
