//! A character driven by its state machine: the knight of `samples/scenes/character.scene.xml`
//! walks, jumps and gets hurt in a simulated 160 × 128 RGB565 handheld screen, run by the kernel's
//! scene runtime ([`Scene`]) at 60 Hz.
//!
//! The scene holds the knight (an AnimatedSprite with the sample knight sprite), its state machine
//! `Brain` (states `idle`, `walk`, `jump`, `hurt`; parameters `speed`, `grounded`, `jump`, `hurt`;
//! transitions with `*`, `after` and `onFinished`), a bobbing coin and three Animators: `Props`
//! (the coin's bob, autoplay), `Moves` (the jump arc on the knight's `position.y`, with a `land`
//! event) and `Fx` (hurt: the knight blinks through `visible` and a Label says "ouch!"). The game
//! code is what a firmware's main loop would be. Every frame it:
//!
//! 1. sets the machine's parameters from the player's input: `speed` (pixels per second, never
//!    negative: the game keeps the direction the knight faces), the `jump` trigger (only on the
//!    floor) and the `hurt` trigger (not while hurt);
//! 2. calls [`Scene::update`] with 1/60 s;
//! 3. reacts to the events, printing the state machine's (entered and exited, with the state
//!    names) and the Animators': entering `jump` plays the `jump` arc and clears `grounded`, the
//!    arc's `land` event sets it again (and the machine then lands: `jump` → `walk` or `idle`),
//!    entering `hurt` plays the `hurt` clip;
//! 4. moves the knight: in `walk` and `jump` its x advances by `speed` in the direction it faces;
//! 5. draws every visible sprite node at its position in the scene's node table (added up along
//!    its parents) with its player's current frame, flipped when the knight faces left, with the
//!    kernel's blitter ([`draw_frame`], scale 2), and every Label node's text; a status bar under
//!    the screen (not part of it) shows the frame, the state, the time in it and the input.
//!
//! Scene coordinates: x in screen pixels, y with 0 on the floor and negative values above it; a
//! sprite node's position is the bottom centre of its canvas (the knight's feet); a Label's is the
//! bottom centre of its text. A node is drawn when it and all its parents are `visible` with an
//! `opacity` above 0; rotation, scale and tint colours are not drawn.
//!
//! # Headless (default, no SDL)
//!
//! ```text
//! cargo run -p ossicle-examples --bin character -- [BLOB] [--out DIR] [--frames N] [--png-every K] [--f32] [--verbose]
//! ```
//!
//! plays a scripted "player input" timeline (6.7 s, 402 frames):
//!
//! | time | input | the machine goes |
//! |---|---|---|
//! | 0 s | stand | enters `idle` |
//! | 1 s | walk right (speed 40) | `idle` → `walk` |
//! | 2 s | jump (still walking) | `walk` → `jump` (`*`), lands 0.6 s later → `walk` |
//! | 3.2 s | stop | `walk` → `idle` |
//! | 3.7 s | hurt | `idle` → `hurt` (`*`), the stride played through → `idle` (`onFinished`) |
//! | 4.7 s | walk left (speed 40, flipped) | `idle` → `walk` |
//! | 6.2 s | stop | `walk` → `idle` |
//!
//! It writes `DIR/frame_0000.png` ... (default `target/demo/character`; earlier `frame_*.png`
//! files there are removed first) and prints the events as they fire. The run fails (exit status
//! 1) unless the states the machine entered are, in order, `idle walk jump walk idle hurt idle walk
//! idle` (with `--frames N` below the timeline's length: the part of that list entered so far).
//!
//! - `BLOB`: a blob holding the scene `character` (or any scene whose first state machine drives
//!   an AnimatedSprite and has the parameters above). Without it the example builds one from
//!   `samples/scenes/character.scene.xml` with ossicle-host, in Q16.16 (`--f32`: in f32).
//! - `--png-every K`: writes only every K-th frame as a PNG (frame 0, K, 2K, ...; the run and its
//!   check are the same): PNG encoding is most of the time a run takes, in a debug build above all.
//! - `--verbose`: also prints the status line of every frame (state, time in it, the knight's
//!   position, the input).
//!
//! # Window
//!
//! ```text
//! cargo run -p ossicle-examples --features window --bin character -- [BLOB] --window
//! ```
//!
//! runs the scene live at 60 Hz, driven by the keyboard: Left and Right walk (speed 40, facing that
//! way), Space (or Up) jumps, H hurts the knight, Escape (or closing the window) quits; `--verbose`
//! prints the status line of every frame there too. Where no display is set (no `DISPLAY` or
//! `WAYLAND_DISPLAY` on Linux) it says so instead of letting SDL fail. The `window` feature turns on
//! embedded-graphics-simulator's SDL2 backend, which needs the SDL2 development files (Debian:
//! `apt-get install libsdl2-dev`). Built without it, `--window` says so and exits with status 2.

use embedded_graphics::mono_font::{ascii::FONT_5X8, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb565;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use embedded_graphics_simulator::{OutputSettings, OutputSettingsBuilder, SimulatorDisplay};
use ossicle::animator::ClipSource;
use ossicle::color::Rgba8;
use ossicle::draw::{draw_frame, DrawOptions};
use ossicle::event::{Event, EventQueue};
use ossicle::math::Vec2;
use ossicle::scene::Scene;
use ossicle::sprite::BlobSprite;
use ossicle::statemachine::MachineSource;
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
/// Where the grass begins on screen.
const GROUND_Y: i32 = 104;
/// The screen row of the scene's y = 0 (the knight's feet stand 2 pixels into the grass).
const FLOOR_Y: i32 = GROUND_Y + 2;
/// The knight's walking speed (pixels per second), where it starts and how far it may go (its x
/// is the middle of its canvas).
const WALK_SPEED: i32 = 40;
const START_X: i32 = 24;
const MIN_X: i32 = 20;
const MAX_X: i32 = 140;

/// The scene runtime's capacities: nodes, slots for Animators / machines / sprite players, and
/// parameters per machine.
const NODES: usize = 16;
const SLOTS: usize = 4;
const PARAMS: usize = 8;
type CharacterScene<'a, S> = Scene<'a, S, NODES, SLOTS, PARAMS>;

/// What the player does in one frame.
#[derive(Clone, Copy, Debug, Default)]
struct Input {
    /// Walking speed in pixels per second: negative to the left, 0 standing.
    speed: i32,
    /// The jump button went down.
    jump: bool,
    /// Something hit the knight (the H key).
    hurt: bool,
}

/// One change of the scripted player input.
#[derive(Clone, Copy, Debug)]
enum Press {
    /// Hold this walking speed from now on (0: stand).
    Walk(i32),
    /// Press jump once.
    Jump,
    /// Get hurt once.
    Hurt,
}

/// The headless timeline: (frame, input, what it is).
const TIMELINE: [(u32, Press, &str); 7] = [
    (0, Press::Walk(0), "stand"),
    (60, Press::Walk(WALK_SPEED), "walk right"),
    (120, Press::Jump, "jump"),
    (192, Press::Walk(0), "stop"),
    (222, Press::Hurt, "hurt"),
    (282, Press::Walk(-WALK_SPEED), "walk left"),
    (372, Press::Walk(0), "stop"),
];
/// The timeline's length in frames (6.7 s: the knight stands for half a second at the end).
const TIMELINE_FRAMES: u32 = 402;

/// The states the timeline must make the machine enter, in order. Written from the table in the
/// module documentation and the scene's transitions, not taken from a run.
const EXPECTED: [&str; 9] = ["idle", "walk", "jump", "walk", "idle", "hurt", "idle", "walk", "idle"];

/// The scripted input at `frame`, and the name of the cue given at that frame, if any.
fn scripted_input(frame: u32) -> (Input, Option<&'static str>) {
    let mut input = Input::default();
    let mut cue = None;
    for &(at, press, what) in TIMELINE.iter().take_while(|(at, _, _)| *at <= frame) {
        match press {
            Press::Walk(speed) => input.speed = speed,
            Press::Jump => input.jump = at == frame,
            Press::Hurt => input.hurt = at == frame,
        }
        if at == frame {
            cue = Some(what);
        }
    }
    (input, cue)
}

/// A sprite node and the sprite it shows.
struct Look<'a> {
    node: usize,
    sprite: BlobSprite<'a>,
}

/// The scene, the game's own state, and what it saw.
struct Game<'a, S: Scalar> {
    scene: CharacterScene<'a, S>,
    /// The state machine and the sprite node it drives (the knight).
    machine: usize,
    knight: usize,
    /// (Animator, clip) of the jump arc and of the hurt effect.
    jump_clip: Option<(usize, usize)>,
    hurt_clip: Option<(usize, usize)>,
    /// Every sprite node, in drawing order.
    looks: Vec<Look<'a>>,
    /// +1 facing right, −1 facing left.
    facing: i32,
    /// The input last given.
    input: Input,
    /// Whether the knight is on the floor (the machine's `grounded`).
    grounded: bool,
    events: EventQueue<64>,
    /// Every state entered: (frame, name).
    entered: Vec<(u32, &'a str)>,
    frame: u32,
}

/// The (Animator, clip) of the first Animator with a clip called `name`.
fn find_clip<S: Scalar>(scene: &CharacterScene<'_, S>, name: &str) -> Option<(usize, usize)> {
    (0..scene.blob().animator_count()).find_map(|i| {
        let clips = scene.blob().clips::<S>(i).ok()??;
        Some((i, clips.find(name)?))
    })
}

impl<'a, S: Scalar> Game<'a, S> {
    fn new(asset: Asset<'a>) -> Result<Self, String> {
        let blob_scene = asset
            .scene_named("character")
            .or_else(|| asset.scene(0))
            .ok_or("the blob holds no scene (give one built from samples/scenes/character.scene.xml)")?;
        let mut scene = CharacterScene::<S>::new(&asset, blob_scene).map_err(|e| format!("the scene: {e}"))?;
        let name = blob_scene.name();
        if blob_scene.machine_count() == 0 {
            return Err(format!("scene {name:?} has no state machine"));
        }
        let machine = 0;
        let knight = blob_scene
            .machine_sprite(machine)
            .filter(|&n| scene.sprite(n).is_some())
            .ok_or(format!("the state machine of scene {name:?} drives no sprite"))?;
        // The parameters the game sets must be there, of the right kinds.
        let (sm, def) = scene.machine_parts(machine).ok_or("the state machine could not be made")?;
        let check = |what: &str, r: Result<(), ossicle::statemachine::MachineError>| {
            r.map_err(|e| format!("state machine parameter {what:?}: {e}"))
        };
        check("speed", sm.set_float_named(&def, "speed", S::ZERO))?;
        check("grounded", sm.set_bool_named(&def, "grounded", true))?;
        for trigger in ["jump", "hurt"] {
            let index = def.find_param(trigger).ok_or(format!("the state machine has no parameter {trigger:?}"))?;
            check(trigger, sm.clear_trigger(index))?;
        }
        let mut looks = Vec::new();
        for node in 0..blob_scene.node_count() {
            let Some(sprite) = blob_scene.node(node).and_then(|n| n.sprite) else { continue };
            if scene.sprite(node).is_none() {
                continue;
            }
            let sprite = asset.sprite_named(sprite).ok_or(format!("the blob has no sprite {sprite:?}"))?;
            looks.push(Look { node, sprite });
        }
        // The knight starts on the floor at the left; the Animators move everything else.
        if let Some(n) = scene.nodes_mut().node_mut(knight as u32) {
            n.position = Vec2::new(S::from_i32(START_X), S::ZERO);
        }
        let jump_clip = find_clip(&scene, "jump");
        let hurt_clip = find_clip(&scene, "hurt");
        Ok(Self {
            scene,
            machine,
            knight,
            jump_clip,
            hurt_clip,
            looks,
            facing: 1,
            input: Input::default(),
            grounded: true,
            events: EventQueue::new(),
            entered: Vec::new(),
            frame: 0,
        })
    }

    /// The current state's name.
    fn state(&self) -> &'a str {
        let blob = *self.scene.blob();
        let state = self.scene.machine(self.machine).map_or(usize::MAX, |sm| sm.current());
        blob.machine::<S>(self.machine).ok().flatten().and_then(|def| def.state_name(state)).unwrap_or("?")
    }

    /// The name of node `node`.
    fn node_name(&self, node: Option<usize>) -> &'a str {
        node.and_then(|n| self.scene.blob().node(n)).map_or("?", |n| n.name)
    }

    /// One frame: the input into the machine's parameters, the scene's update, the reactions to
    /// its events (each printed through `log`), the knight's walk.
    fn step(&mut self, input: Input, dt: S, log: &mut dyn FnMut(String)) -> Result<(), String> {
        self.input = input;
        if input.speed != 0 {
            self.facing = input.speed.signum();
        }
        let state = self.state();
        let grounded = self.grounded;
        let (sm, def) = self.scene.machine_parts(self.machine).ok_or("no state machine")?;
        let fail = |e| format!("setting a parameter: {e}");
        sm.set_float_named(&def, "speed", S::from_i32(input.speed.saturating_abs())).map_err(fail)?;
        if input.jump && grounded && state != "hurt" {
            sm.set_trigger_named(&def, "jump").map_err(fail)?;
        }
        if input.hurt && state != "hurt" {
            sm.set_trigger_named(&def, "hurt").map_err(fail)?;
        }

        self.scene.update(dt, &mut self.events);

        while let Some(event) = self.events.pop() {
            self.react(event, log)?;
        }
        if self.events.dropped() > 0 {
            log(format!("{} events were dropped (queue full)", self.events.dropped()));
        }

        if matches!(self.state(), "walk" | "jump") {
            let speed = S::from_i32(self.facing.saturating_mul(input.speed.saturating_abs()));
            let (lo, hi) = (S::from_i32(MIN_X), S::from_i32(MAX_X));
            if let Some(n) = self.scene.nodes_mut().node_mut(self.knight as u32) {
                n.position.x = n.position.x.add(speed.mul(dt)).clamp(lo, hi);
            }
        }
        Ok(())
    }

    /// Prints an event worth printing and does what the game does about it.
    fn react(&mut self, event: Event, log: &mut dyn FnMut(String)) -> Result<(), String> {
        let blob = *self.scene.blob();
        let t = f64::from(self.frame) / f64::from(HZ);
        let at = format!("frame {:4} ({t:5.2} s)", self.frame);
        let def = blob.machine::<S>(self.machine).ok().flatten().ok_or("no state machine")?;
        let machine_name = self.node_name(blob.machine_node(self.machine));
        match event {
            Event::StateEntered { machine, state } if machine as usize == self.machine => {
                let name = def.state_name(state as usize).unwrap_or("?");
                log(format!("{at}  {machine_name}: entered {name}"));
                self.entered.push((self.frame, name));
                match name {
                    "jump" => {
                        // Up it goes: the arc plays, and the knight is in the air until it lands.
                        self.grounded = false;
                        let (sm, def) = self.scene.machine_parts(self.machine).ok_or("no state machine")?;
                        sm.set_bool_named(&def, "grounded", false).map_err(|e| format!("grounded: {e}"))?;
                        self.play(self.jump_clip)?;
                    }
                    "hurt" => self.play(self.hurt_clip)?,
                    _ => {}
                }
            }
            Event::StateExited { machine, state } if machine as usize == self.machine => {
                let name = def.state_name(state as usize).unwrap_or("?");
                log(format!("{at}  {machine_name}: exited {name}"));
            }
            Event::AnimatorEvent { animator, clip, name } => {
                let event = blob.string(name).unwrap_or("?");
                log(format!(
                    "{at}  {}: event {event:?} ({})",
                    self.animator_name(animator),
                    self.clip_name(animator, clip)
                ));
                if event == "land" && self.jump_clip.is_some_and(|(a, _)| a == animator as usize) {
                    self.grounded = true;
                    let (sm, def) = self.scene.machine_parts(self.machine).ok_or("no state machine")?;
                    sm.set_bool_named(&def, "grounded", true).map_err(|e| format!("grounded: {e}"))?;
                }
            }
            Event::ClipFinished { animator, clip } => {
                log(format!("{at}  {}: {} finished", self.animator_name(animator), self.clip_name(animator, clip)));
            }
            Event::SpriteEnded { player, animation } => {
                let animation = self
                    .scene
                    .sprite(player as usize)
                    .and_then(|s| s.animations.name(animation as usize))
                    .unwrap_or("?");
                log(format!("{at}  {}: animation {animation} ended", self.node_name(Some(player as usize))));
            }
            _ => {}
        }
        Ok(())
    }

    fn animator_name(&self, animator: u32) -> &'a str {
        self.node_name(self.scene.blob().animator_node(animator as usize))
    }

    fn clip_name(&self, animator: u32, clip: u32) -> &'a str {
        let clips = self.scene.blob().clips::<S>(animator as usize).ok().flatten();
        clips.and_then(|c| c.name(clip as usize)).unwrap_or("?")
    }

    /// Plays (Animator, clip) from its start.
    fn play(&mut self, which: Option<(usize, usize)>) -> Result<(), String> {
        let Some((animator, clip)) = which else { return Ok(()) };
        let (a, clips, _) = self.scene.animator_parts(animator).ok_or("no such Animator")?;
        a.play(&clips, clip, true).map_err(|e| format!("playing clip {clip} of Animator {animator}: {e}"))
    }

    /// Node `node`'s position in the scene (its own plus its parents'), and whether it and all its
    /// parents are visible.
    fn placed(&self, node: usize) -> (Vec2<S>, bool) {
        let (mut at, mut visible) = (Vec2::<S>::ZERO, true);
        let mut next = Some(node);
        let mut depth = 0;
        while let (Some(n), true) = (next, depth < NODES) {
            if let Some(props) = self.scene.nodes().node(n as u32) {
                at = Vec2::new(at.x.add(props.position.x), at.y.add(props.position.y));
                visible &= props.visible && props.tint.a > 0;
            }
            next = self.scene.blob().node(n).and_then(|info| info.parent);
            depth += 1;
        }
        (at, visible)
    }

    /// The screen point of a scene position.
    fn screen(at: Vec2<S>) -> Point {
        Point::new(at.x.round().floor_to_i32(), FLOOR_Y.saturating_add(at.y.round().floor_to_i32()))
    }

    /// Draws the whole screen: the background, every visible sprite node with its current frame,
    /// every Label's text.
    fn draw<D: DrawTarget<Color = Rgb565>>(&self, screen: &mut D) -> Result<(), String> {
        let area = Rectangle::new(Point::zero(), Size::new(SCREEN_W, SCREEN_H));
        screen
            .fill_contiguous(&area, area.points().map(background))
            .map_err(|_| "painting the background failed".to_string())?;
        let mut order: Vec<&Look<'a>> = self.looks.iter().collect();
        order.sort_by_key(|l| self.scene.nodes().z_index(l.node as u32).unwrap_or(0));
        for look in order {
            let (at, visible) = self.placed(look.node);
            let Some(slot) = self.scene.sprite(look.node) else { continue };
            let frame = slot.player.source_frame(&slot.animations).and_then(|f| look.sprite.frame(f));
            let (true, Some(frame)) = (visible, frame) else { continue };
            let (w, h) = (look.sprite.width(), look.sprite.height());
            let opts = DrawOptions::new()
                .in_canvas(u16::try_from(w).unwrap_or(u16::MAX), u16::try_from(h).unwrap_or(u16::MAX))
                .scaled(SCALE)
                .flipped(look.node == self.knight && self.facing < 0, false);
            // The position is the canvas's bottom centre.
            let feet = Self::screen(at);
            let scale = u32::from(SCALE);
            let top_left = feet - Point::new((w * scale / 2) as i32, (h * scale) as i32);
            draw_frame(screen, &frame, top_left, &opts).map_err(|_| "drawing a sprite failed".to_string())?;
        }
        let blob = *self.scene.blob();
        for node in 0..blob.node_count() {
            if blob.node(node).is_none_or(|n| n.kind != "Label") {
                continue;
            }
            let (at, visible) = self.placed(node);
            let text = self.scene.nodes().text(node as u32).and_then(|id| blob.string(id)).unwrap_or("");
            if !visible || text.is_empty() {
                continue;
            }
            let c = self.scene.nodes().color(node as u32).unwrap_or(Rgba8::WHITE);
            let color = Rgb565::new(c.r >> 3, c.g >> 2, c.b >> 3);
            let style = TextStyleBuilder::new().alignment(Alignment::Center).baseline(Baseline::Bottom).build();
            Text::with_text_style(text, Self::screen(at), MonoTextStyle::new(&FONT_5X8, color), style)
                .draw(screen)
                .map_err(|_| "drawing a label failed".to_string())?;
        }
        Ok(())
    }

    /// The status: frame, time, state and time in it; the input, the facing, on the floor or not.
    fn status(&self) -> (String, String) {
        let t = f64::from(self.frame) / f64::from(HZ);
        let in_state = self.scene.machine(self.machine).map_or(0.0, |sm| sm.time_in_state().to_f64());
        let line1 = format!("#{} {t:.2}s {} {in_state:.2}s", self.frame, self.state());
        let x = self.scene.nodes().position(self.knight as u32).map_or(0.0, |p| p.x.to_f64());
        let line2 = format!(
            "x {x:5.1} {} speed {} {}",
            if self.facing < 0 { '<' } else { '>' },
            self.input.speed.saturating_abs(),
            if self.grounded { "floor" } else { "air" }
        );
        (line1, line2)
    }
}

/// The background at a screen pixel: a dusk sky over grass and earth.
fn background(p: Point) -> Rgb565 {
    let (x, y) = (p.x, p.y);
    if y < GROUND_Y {
        let band = (y / 8).clamp(0, 12) as u8;
        Rgb565::new(4 + band, 8 + band * 2, 14 + band / 2)
    } else if y < GROUND_Y + 3 {
        Rgb565::new(8, 44, 6)
    } else if (x * 7 + y * 13) % 23 == 0 {
        Rgb565::new(14, 24, 6)
    } else {
        Rgb565::new(10, 18, 4)
    }
}

/// The screen with the status bar under it.
fn present(screen: &SimulatorDisplay<Rgb565>, status: &(String, String)) -> Result<SimulatorDisplay<Rgb565>, String> {
    let fail = |_| "drawing the status bar failed".to_string();
    let mut out = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H + HUD_H));
    let area = Rectangle::new(Point::zero(), Size::new(SCREEN_W, SCREEN_H));
    out.fill_contiguous(&area, area.points().map(|p| screen.get_pixel(p))).map_err(fail)?;
    let hud = Rectangle::new(Point::new(0, SCREEN_H as i32), Size::new(SCREEN_W, HUD_H));
    hud.into_styled(PrimitiveStyle::with_fill(Rgb565::new(3, 6, 3))).draw(&mut out).map_err(fail)?;
    let style = MonoTextStyle::new(&FONT_5X8, Rgb565::new(26, 54, 26));
    let y = SCREEN_H as i32 + 1;
    Text::with_baseline(&status.0, Point::new(2, y), style, Baseline::Top).draw(&mut out).map_err(fail)?;
    Text::with_baseline(&status.1, Point::new(2, y + 10), style, Baseline::Top).draw(&mut out).map_err(fail)?;
    Ok(out)
}

/// Command-line options.
struct Options {
    blob: Option<PathBuf>,
    out: PathBuf,
    frames: u32,
    png_every: u32,
    f32: bool,
    verbose: bool,
    window: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        blob: None,
        out: PathBuf::from("target/demo/character"),
        frames: TIMELINE_FRAMES,
        png_every: 1,
        f32: false,
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
            "--png-every" => {
                let n = args.next().ok_or("--png-every needs a number")?;
                o.png_every =
                    n.parse().ok().filter(|&n| n > 0).ok_or(format!("--png-every {n:?} is not a positive number"))?;
            }
            "--f32" => o.f32 = true,
            "--verbose" => o.verbose = true,
            "--window" => o.window = true,
            "-h" | "--help" => {
                return Err(
                    "usage: character [BLOB] [--out DIR] [--frames N] [--png-every K] [--f32] [--verbose] [--window]"
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

/// The blob: the given file, or one built from samples/scenes/character.scene.xml.
fn blob_bytes(o: &Options) -> Result<Vec<u8>, String> {
    if let Some(path) = &o.blob {
        return std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/character.scene.xml");
    let file = file.canonicalize().unwrap_or(file);
    let encoding = if o.f32 { ScalarEncoding::F32 } else { ScalarEncoding::Q16_16 };
    let project = ossicle_host::sources::load_sources(&[&file]).map_err(|e| e.to_string())?;
    let bytes = ossicle_host::write::write_blob(&project, encoding).map_err(|e| e.to_string())?;
    println!("built a {}-byte {} blob from {}", bytes.len(), encoding.name(), file.display());
    Ok(bytes)
}

fn output_settings() -> OutputSettings {
    OutputSettingsBuilder::new().scale(2).build()
}

/// Headless: the scripted timeline for `o.frames` frames at 60 Hz into PNGs, then the check of the
/// states entered.
fn run_headless<S: Scalar>(asset: Asset<'_>, o: &Options) -> Result<(), String> {
    let mut game = Game::<S>::new(asset)?;
    let mut screen = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let settings = output_settings();
    let dt = S::from_ratio(1, HZ);
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    remove_old_frames(&o.out)?;

    for frame in 0..o.frames {
        game.frame = frame;
        let (input, cue) = scripted_input(frame);
        if let Some(cue) = cue {
            println!("frame {frame:4} ({:5.2} s)  input: {cue}", f64::from(frame) / f64::from(HZ));
        }
        // Frame 0 only enters the start state; every later one advances by 1/60 s.
        game.step(input, if frame == 0 { S::ZERO } else { dt }, &mut |line| println!("{line}"))?;
        game.draw(&mut screen)?;
        let status = game.status();
        if o.verbose {
            println!("{}  {}", status.0, status.1);
        }
        if frame % o.png_every != 0 {
            continue;
        }
        let path = o.out.join(format!("frame_{frame:04}.png"));
        present(&screen, &status)?
            .to_rgb_output_image(&settings)
            .save_png(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let written = o.frames.div_ceil(o.png_every);
    println!("ran {} frames ({} scalars), wrote {written} PNGs to {}", o.frames, S::ENCODING.name(), o.out.display());

    let entered: Vec<&str> = game.entered.iter().map(|&(_, name)| name).collect();
    let when: Vec<String> = game.entered.iter().map(|(f, name)| format!("{name}@{f}")).collect();
    println!("states entered (name@frame): {}", when.join(" "));
    let full = o.frames >= TIMELINE_FRAMES;
    let expected: &[&str] = if full { &EXPECTED } else { &EXPECTED[..entered.len().min(EXPECTED.len())] };
    if entered != expected {
        return Err(format!(
            "the state machine entered [{}], the timeline implies [{}]",
            entered.join(", "),
            expected.join(", ")
        ));
    }
    if full {
        println!("the machine entered the states the timeline implies: {}", EXPECTED.join(", "));
    } else {
        println!(
            "the machine entered the first {} of the {} states the timeline implies ({} frames play it all)",
            entered.len(),
            EXPECTED.len(),
            TIMELINE_FRAMES
        );
    }
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

/// Live: the scene at 60 Hz in a window, driven by the keyboard, until it is closed (or Escape).
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
                        the scripted timeline is written as PNG frames"
                .into());
        }
    }
    let mut game = Game::<S>::new(asset)?;
    let mut screen = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let mut window =
        Window::new("ossicle character (arrows walk, space jumps, H hurts, Esc quits)", &output_settings());
    window.set_max_fps(HZ as u32);
    let dt = S::from_ratio(1, HZ);
    let (mut left, mut right) = (false, false);
    let mut presses = Input::default();
    let mut frame = 0u32;
    loop {
        game.frame = frame;
        let speed = match (left, right) {
            (true, false) => -WALK_SPEED,
            (false, true) => WALK_SPEED,
            _ => 0,
        };
        let input = Input { speed, ..presses };
        game.step(input, if frame == 0 { S::ZERO } else { dt }, &mut |line| println!("{line}"))?;
        game.draw(&mut screen)?;
        let status = game.status();
        if o.verbose {
            println!("{}  {}", status.0, status.1);
        }
        // Window::update shows the frame and sleeps out the rest of the 1/60 s.
        window.update(&present(&screen, &status)?);
        presses = Input::default();
        for event in window.events() {
            match event {
                SimulatorEvent::Quit | SimulatorEvent::KeyDown { keycode: Keycode::ESCAPE, .. } => return Ok(()),
                SimulatorEvent::KeyDown { keycode, repeat, .. } => match keycode {
                    Keycode::LEFT => left = true,
                    Keycode::RIGHT => right = true,
                    Keycode::SPACE | Keycode::UP if !repeat => presses.jump = true,
                    Keycode::H if !repeat => presses.hurt = true,
                    _ => {}
                },
                SimulatorEvent::KeyUp { keycode, .. } => match keycode {
                    Keycode::LEFT => left = false,
                    Keycode::RIGHT => right = false,
                    _ => {}
                },
                _ => {}
            }
        }
        // The record of states entered only matters headless.
        game.entered.clear();
        frame = frame.wrapping_add(1);
    }
}

/// What `--window` says when the example was built without the `window` feature.
#[cfg(not(feature = "window"))]
const WITHOUT_WINDOW: &str = "--window: this example was built without its `window` feature (SDL2). Run \
     `cargo run -p ossicle-examples --features window --bin character -- --window`, which needs the SDL2 \
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
