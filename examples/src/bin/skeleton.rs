//! Skeletal animation: the stick figure of `samples/skeletal` (17 bones, centimetres, Y up, facing
//! +Z) walks, slows into its idle, waves with its right arm and walks on, played by the kernel's
//! [`AnimPlayer`] (clips, crossfades, root motion) and [`OneShot`] (the wave on an arm mask), posed
//! by [`LocalToModelJob`] and drawn as lines from each bone to its parent in a simulated 320 × 180
//! RGB565 screen: a side view (orthographic, the character's right side, forward to the right) that
//! moves with the root motion over a ground marked every 50 cm, and a front view in the top-right
//! corner (the pose in place). Nearer limbs (the right ones in the side view) are drawn brighter.
//!
//! The blob holds the skeleton and clip `walk` from `figure.eva`, and the clips `idle` and `wave`
//! from `idle.evac` and `wave.evac`, bound by bone name to that skeleton at build time.
//!
//! # The timeline (updates at 64 Hz: 1/64 s is exact in f32 and in Q16.16)
//!
//! A cue at time `t` is given before the update that starts at `t` (frame `64·t` shows the pose
//! at `t`).
//!
//! | time | what | frame |
//! |---|---|---|
//! | 0 s | `play(walk)` with root motion (root bone 0, removed from the pose) | 0 |
//! | 2 s | `crossfade(idle, 0.5 s)` | 128 |
//! | 3 s | the one-shot `wave` (2 s, fade in and out 0.25 s) on the right arm | 192 |
//! | 4 s | `crossfade(walk, 0.5 s)` | 256 |
//! | 5 s | the wave ends: [`SkelEvent::Finished`] | 320 |
//! | 6 s | end | 384 |
//!
//! # Headless (default, no SDL)
//!
//! ```text
//! cargo run -p ossicle-examples --bin skeleton -- [F32_BLOB Q16_BLOB] [--out DIR] [--png-every K] [--verbose]
//! ```
//!
//! plays the timeline twice in lockstep, once in f32 and once in Q16.16, writes the f32 run as
//! `DIR/frame_0000.png` ... `frame_0384.png` (default `target/demo/skeleton`; earlier `frame_*.png`
//! files there are removed first; `--png-every K`: only every K-th frame) and fails (exit status 1)
//! unless, in both runs:
//!
//! - **root motion**: the character advanced 480 cm along +Z (within 0.05 cm), and not sideways or
//!   up. Computed by hand from the walk clip (its root goes 0 → 120 cm over its 1 s loop, so
//!   1.875 cm per update): 2 s of walk (240 cm), the crossfade to idle (the walk's motion weighted
//!   `1 − k/32` for k = 1..31, then nothing: 15.5 × 1.875 = 29.0625 cm), idle (0), the crossfade
//!   back (`k/32` for k = 1..31, then the walk alone: 16.5 × 1.875 = 30.9375 cm), 1.5 s of walk
//!   (180 cm);
//! - **crossfades**: each lasts 31 updates with the outgoing clip present and incoming weights
//!   `k/32` (within 1e-3), from walk to idle, then from idle to walk;
//! - **the one-shot**: its weight reaches 1, it ends with `Finished` at frame 320, and while it
//!   waves at full weight (clip time 0.5 … 1.5 s) the right hand is above the head;
//! - **plausible poses** (model space, the root pinned at the origin): every frame the feet
//!   (ankles) are at y −5 … 20 cm, x within ±20 cm and z within ±50 cm of the root, and one of
//!   them is below 6 cm (on the ground); the hands at y 60 … 185 cm, x within ±75 cm, z within
//!   ±50 cm; the left hand, which never waves, below 110 cm;
//! - **f32 and Q16.16 agree**: every bone's model position within 0.05 cm of the other run's, every
//!   frame, and the two root positions within 0.05 cm.
//!
//! - `F32_BLOB Q16_BLOB`: two blobs built from the samples (`ossicle build samples/skeletal/figure.eva
//!   samples/skeletal/idle.evac samples/skeletal/wave.evac --scalar f32|q16`), in either order. Without
//!   them the example builds both from `samples/skeletal` with ossicle-host.
//! - `--verbose`: prints each frame's clip, weights and root position.
//!
//! # Window
//!
//! ```text
//! cargo run -p ossicle-examples --features window --bin skeleton -- --window
//! ```
//!
//! plays the f32 timeline live at 64 Hz, over and over, until the window is closed (or Escape).
//! Built without the `window` feature (SDL2; Debian: `apt-get install libsdl2-dev`), `--window`
//! says so and exits with status 2.

use embedded_graphics::mono_font::{ascii::FONT_6X10, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb565;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};
use embedded_graphics_simulator::{OutputSettings, OutputSettingsBuilder, SimulatorDisplay};
use ossicle::event::EventQueue;
use ossicle::math::{Transform3, Vec3};
use ossicle::skeleton::{
    AnimPlayer, BlobSkelClip, BlobSkeleton, LocalToModelJob, OneShot, Rig, RootMotionSettings, SkelEvent,
};
use ossicle::{Asset, Scalar, Q16};
use ossicle_format::ScalarEncoding;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The screen.
const SCREEN_W: u32 = 320;
const SCREEN_H: u32 = 180;
/// The status line's height at the bottom of the screen.
const HUD_H: i32 = 12;
/// The screen row of the ground (model y = 0).
const GROUND_Y: i32 = 152;
/// The screen column of the root at the start, and pixels per centimetre in the side view.
const START_X: f64 = 40.0;
const SIDE_SCALE: f64 = 0.4;
/// The front view's box (top-left, size) and pixels per centimetre.
const FRONT_AT: (i32, i32) = (238, 4);
const FRONT_SIZE: (u32, u32) = (78, 82);
const FRONT_SCALE: f64 = 0.38;

/// Updates per second (1/64 s is exact in Q16.16).
const HZ: i32 = 64;
/// The timeline's frames: frame 0 is the start pose, frames 1 ..= FRAMES follow one update each.
const FRAMES: u32 = 384;
const CROSSFADE_TO_IDLE: u32 = 128;
const WAVE_AT: u32 = 192;
const CROSSFADE_TO_WALK: u32 = 256;
/// Where the wave ends (2 s after it starts).
const WAVE_END: u32 = 320;
/// Crossfade and one-shot fades, in updates (0.5 s and 0.25 s).
const CROSSFADE_UPDATES: i32 = 32;
const WAVE_FADE_UPDATES: i32 = 16;

/// The hand-computed root motion over the timeline (see the module documentation), centimetres.
const EXPECTED_ROOT_Z: f64 = 240.0 + 29.0625 + 30.9375 + 180.0;
const ROOT_TOLERANCE: f64 = 0.05;
/// How far the Q16.16 run's bone positions may be from the f32 run's, centimetres.
const Q16_TOLERANCE: f64 = 0.05;

/// Bone capacity of the players and poses.
const N: usize = 24;
/// Clip indices in the clip slice.
const WALK: u16 = 0;
const IDLE: u16 = 1;
const WAVE: u16 = 2;
const CLIP_NAMES: [&str; 3] = ["walk", "idle", "wave"];

/// The bones the example looks at, by name.
struct Bones {
    head: usize,
    hands: [usize; 2],
    feet: [usize; 2],
    /// The right arm: the wave's mask.
    right_arm: [usize; 3],
}

impl Bones {
    fn find(skeleton: &BlobSkeleton<'_>) -> Result<Self, String> {
        let f = |name: &str| skeleton.find_bone(name).ok_or(format!("the skeleton has no bone {name:?}"));
        Ok(Self {
            head: f("head")?,
            hands: [f("hand_l")?, f("hand_r")?],
            feet: [f("foot_l")?, f("foot_r")?],
            right_arm: [f("upperarm_r")?, f("forearm_r")?, f("hand_r")?],
        })
    }
}

/// One run of the timeline with one scalar type.
struct Run<'a, S: Scalar> {
    skeleton: BlobSkeleton<'a>,
    clips: [BlobSkelClip<'a>; 3],
    bones: Bones,
    player: AnimPlayer<S, Transform3<S>, N>,
    wave: OneShot<S, Transform3<S>, N>,
    mask: [S; N],
    events: EventQueue<8, SkelEvent<S>>,
    base: [Transform3<S>; N],
    local: [Transform3<S>; N],
    model: [Transform3<S>; N],
    /// The character's position, moved by root motion.
    root: Vec3<S>,
    /// (frame, outgoing clip, current clip, incoming weight) of every frame with an outgoing clip.
    fades: Vec<(u32, u16, u16, f64)>,
    /// The one-shot's largest weight, and the frame of its `Finished`.
    wave_peak: f64,
    wave_finished: Option<u32>,
    /// Problems found on the way.
    problems: Vec<String>,
}

impl<'a, S: Scalar> Run<'a, S> {
    fn new(asset: &Asset<'a>) -> Result<Self, String> {
        let clip = |name: &str| asset.skel_clip_named(name).ok_or(format!("the blob has no skeletal clip {name:?}"));
        let clips = [clip(CLIP_NAMES[0])?, clip(CLIP_NAMES[1])?, clip(CLIP_NAMES[2])?];
        let skeleton = asset.skeleton_of(&clips[0]).ok_or("the walk clip's skeleton is not in the blob")?;
        for c in &clips {
            c.check::<S>().map_err(|e| format!("clip {:?}: {e}", c.name()))?;
            if c.skeleton_name() != Some(skeleton.name()) {
                return Err(format!("clip {:?} does not animate skeleton {:?}", c.name(), skeleton.name()));
            }
        }
        if skeleton.bone_count() > N {
            return Err(format!("the skeleton has {} bones, the example holds {N}", skeleton.bone_count()));
        }
        let bones = Bones::find(&skeleton)?;
        let mut mask = [S::ZERO; N];
        for &b in &bones.right_arm {
            mask[b] = S::ONE;
        }
        let mut player = AnimPlayer::new(0);
        player.set_root_motion(Some(RootMotionSettings { bone: 0, remove: true }));
        player.play(&clips, WALK).map_err(|e| format!("play walk: {e}"))?;
        let mut run = Self {
            skeleton,
            clips,
            bones,
            player,
            wave: OneShot::new(1),
            mask,
            events: EventQueue::new(),
            base: [Transform3::IDENTITY; N],
            local: [Transform3::IDENTITY; N],
            model: [Transform3::IDENTITY; N],
            root: Vec3::ZERO,
            fades: Vec::new(),
            wave_peak: 0.0,
            wave_finished: None,
            problems: Vec::new(),
        };
        run.pose()?;
        Ok(run)
    }

    /// Frame `frame` (≥ 1): the cue given at the previous frame's time (the time this update
    /// starts from), one update of 1/64 s, the pose.
    fn step(&mut self, frame: u32) -> Result<(), String> {
        let clips = &self.clips;
        let ratio = |n: i32| S::from_ratio(n, HZ);
        match frame - 1 {
            CROSSFADE_TO_IDLE => self.player.crossfade(clips, IDLE, ratio(CROSSFADE_UPDATES)),
            CROSSFADE_TO_WALK => self.player.crossfade(clips, WALK, ratio(CROSSFADE_UPDATES)),
            WAVE_AT => self.wave.play(clips, WAVE, ratio(WAVE_FADE_UPDATES), ratio(WAVE_FADE_UPDATES)),
            _ => Ok(()),
        }
        .map_err(|e| format!("frame {frame}: {e}"))?;
        let rig = Rig::new(&self.skeleton, clips);
        let dt = S::from_ratio(1, HZ);
        let motion = self.player.update(&rig, dt, &mut self.events).map_err(|e| format!("frame {frame}: {e}"))?;
        self.root = self.root.add(motion.translation);
        self.wave.update(clips, dt, &mut self.events).map_err(|e| format!("frame {frame}: {e}"))?;
        while let Some(e) = self.events.pop() {
            match e {
                SkelEvent::Finished { player: 1, clip: WAVE } => self.wave_finished = Some(frame),
                other => self.problems.push(format!("frame {frame}: an unexpected event {other:?}")),
            }
        }
        if let Some((out, _)) = self.player.outgoing() {
            let (cur, _) = self.player.current().unwrap_or((u16::MAX, S::ZERO));
            self.fades.push((frame, out, cur, self.player.fade_weight().to_f64()));
        }
        self.wave_peak = self.wave_peak.max(self.wave.weight(clips).to_f64());
        self.pose()
    }

    /// The local pose (the player's, the wave over it) and the model pose.
    fn pose(&mut self) -> Result<(), String> {
        let rig = Rig::new(&self.skeleton, &self.clips);
        self.player.evaluate(&rig, &mut self.base).map_err(|e| format!("evaluate: {e}"))?;
        self.wave.apply(&rig, &self.base, Some(&self.mask), &mut self.local).map_err(|e| format!("the wave: {e}"))?;
        LocalToModelJob::new(&self.skeleton).run(&self.local, &mut self.model).map_err(|e| format!("model: {e}"))
    }

    /// Bone `i`'s model position in centimetres.
    fn at(&self, i: usize) -> [f64; 3] {
        let t = self.model[i].translation;
        [t.x.to_f64(), t.y.to_f64(), t.z.to_f64()]
    }

    /// A point given in bone `i`'s space, in model space.
    fn point(&self, i: usize, p: [f64; 3]) -> [f64; 3] {
        let v = Vec3::new(S::from_f64(p[0]), S::from_f64(p[1]), S::from_f64(p[2]));
        let t = self.model[i].transform_point(v);
        [t.x.to_f64(), t.y.to_f64(), t.z.to_f64()]
    }

    fn root_f64(&self) -> [f64; 3] {
        [self.root.x.to_f64(), self.root.y.to_f64(), self.root.z.to_f64()]
    }

    /// The per-frame pose checks (see the module documentation).
    fn check_pose(&mut self, frame: u32) {
        let mut bad = Vec::new();
        let inside = |v: f64, lo: f64, hi: f64| (lo..=hi).contains(&v);
        let feet = self.bones.feet.map(|b| self.at(b));
        for (side, p) in ["left", "right"].iter().zip(feet) {
            if !(inside(p[1], -5.0, 20.0) && inside(p[0], -20.0, 20.0) && inside(p[2], -50.0, 50.0)) {
                bad.push(format!("{side} foot at {p:.1?}"));
            }
        }
        if feet[0][1].min(feet[1][1]) > 6.0 {
            bad.push(format!("both feet off the ground (y {:.1} and {:.1})", feet[0][1], feet[1][1]));
        }
        let hands = self.bones.hands.map(|b| self.at(b));
        for (side, p) in ["left", "right"].iter().zip(hands) {
            if !(inside(p[1], 60.0, 185.0) && inside(p[0], -75.0, 75.0) && inside(p[2], -50.0, 50.0)) {
                bad.push(format!("{side} hand at {p:.1?}"));
            }
        }
        if hands[0][1] > 110.0 {
            bad.push(format!("the left hand rose to y {:.1}", hands[0][1]));
        }
        // The waving part of the clip (0.4 s to 1.6 s), at full weight.
        let waving = self.wave.current().is_some_and(|(_, t)| (0.5..=1.5).contains(&t.to_f64()));
        let full = waving && self.wave.weight(&self.clips) >= S::ONE;
        let head = self.at(self.bones.head)[1];
        if full && hands[1][1] <= head {
            bad.push(format!(
                "waving at full weight, the right hand (y {:.1}) is not above the head ({head:.1})",
                hands[1][1]
            ));
        }
        for b in bad {
            self.problems.push(format!("frame {frame}: {b}"));
        }
    }

    /// The checks at the end of the timeline.
    fn check_end(&mut self) {
        let [x, y, z] = self.root_f64();
        if (z - EXPECTED_ROOT_Z).abs() > ROOT_TOLERANCE || x.abs() > ROOT_TOLERANCE || y.abs() > ROOT_TOLERANCE {
            self.problems.push(format!(
                "root motion: the character is at ({x:.4}, {y:.4}, {z:.4}) cm, expected (0, 0, {EXPECTED_ROOT_Z}) \
                 within {ROOT_TOLERANCE}"
            ));
        }
        for (start, from, to) in [(CROSSFADE_TO_IDLE, WALK, IDLE), (CROSSFADE_TO_WALK, IDLE, WALK)] {
            let seen: Vec<_> = self.fades.iter().filter(|f| f.0 > start && f.0 < start + 64).collect();
            let ok = seen.len() == (CROSSFADE_UPDATES - 1) as usize
                && seen.iter().enumerate().all(|(k, &&(frame, out, cur, w))| {
                    let k = k as u32 + 1;
                    frame == start + k
                        && (out, cur) == (from, to)
                        && (w - f64::from(k) / f64::from(CROSSFADE_UPDATES as u32)).abs() <= 1e-3
                });
            if !ok {
                self.problems.push(format!(
                    "the crossfade {} -> {} at frame {start}: saw {seen:?}",
                    CLIP_NAMES[usize::from(from)],
                    CLIP_NAMES[usize::from(to)]
                ));
            }
        }
        if self.fades.len() != 2 * (CROSSFADE_UPDATES - 1) as usize {
            self.problems.push(format!("{} frames had an outgoing clip, expected 62", self.fades.len()));
        }
        if self.wave_peak < 1.0 {
            self.problems.push(format!("the wave's weight peaked at {:.3}, not 1", self.wave_peak));
        }
        if self.wave_finished != Some(WAVE_END) {
            self.problems.push(format!("the wave finished at frame {:?}, expected {WAVE_END}", self.wave_finished));
        }
    }

    /// A one-line status.
    fn status(&self, frame: u32) -> String {
        let clip = |c: u16| CLIP_NAMES.get(usize::from(c)).copied().unwrap_or("?");
        let (cur, t) = self.player.current().unwrap_or((u16::MAX, S::ZERO));
        let playing = match self.player.outgoing() {
            Some((out, _)) => format!("{}>{} {:.2}", clip(out), clip(cur), self.player.fade_weight().to_f64()),
            None => format!("{} {:.2}s", clip(cur), t.to_f64()),
        };
        let wave = self.wave.weight(&self.clips).to_f64();
        let wave = if self.wave.is_active() { format!(" wave {wave:.2}") } else { String::new() };
        format!("{:.2}s {playing}{wave} z {:.1}cm", f64::from(frame) / f64::from(HZ), self.root_f64()[2])
    }
}

/// Colours: sky, ground, the near and far limbs, the torso, the front view's frame.
const SKY: Rgb565 = Rgb565::new(3, 8, 10);
const EARTH: Rgb565 = Rgb565::new(8, 14, 4);
const NEAR: Rgb565 = Rgb565::new(31, 58, 20);
const FAR: Rgb565 = Rgb565::new(14, 28, 12);
const BODY: Rgb565 = Rgb565::new(28, 50, 28);
const FRAME: Rgb565 = Rgb565::new(10, 20, 14);

/// Draws the run's pose: the side view at its root position, the front view in its box, the ground
/// and the status line.
fn draw<S: Scalar>(run: &Run<'_, S>, frame: u32, screen: &mut SimulatorDisplay<Rgb565>) -> Result<(), String> {
    let fail = |_| "drawing failed".to_string();
    screen.clear(SKY).map_err(fail)?;
    let ground = Rectangle::new(Point::new(0, GROUND_Y + 1), Size::new(SCREEN_W, SCREEN_H - GROUND_Y as u32));
    ground.into_styled(PrimitiveStyle::with_fill(EARTH)).draw(screen).map_err(fail)?;
    // Ground marks every 50 cm, longer at the start and at the expected end.
    for cm in (0..=600).step_by(50) {
        let x = (START_X + f64::from(cm) * SIDE_SCALE).round() as i32;
        let long = cm == 0 || f64::from(cm) == EXPECTED_ROOT_Z;
        let mark = Line::new(Point::new(x, GROUND_Y + 1), Point::new(x, GROUND_Y + if long { 8 } else { 4 }));
        mark.into_styled(PrimitiveStyle::with_stroke(FRAME, 1)).draw(screen).map_err(fail)?;
    }
    let root = run.root_f64();
    let side = |p: [f64; 3]| {
        Point::new(
            (START_X + (root[2] + p[2]) * SIDE_SCALE).round() as i32,
            (f64::from(GROUND_Y) - (root[1] + p[1]) * SIDE_SCALE).round() as i32,
        )
    };
    draw_figure(run, screen, &side, true)?;
    // The front view: the character faces the viewer, its left (+X) on the right of the screen.
    let (fx, fy) = FRONT_AT;
    let (fw, fh) = FRONT_SIZE;
    let frame_box = Rectangle::new(Point::new(fx, fy), Size::new(fw, fh));
    frame_box.into_styled(PrimitiveStyle::with_fill(Rgb565::new(2, 5, 7))).draw(screen).map_err(fail)?;
    frame_box.into_styled(PrimitiveStyle::with_stroke(FRAME, 1)).draw(screen).map_err(fail)?;
    let floor = fy + fh as i32 - 6;
    let centre = f64::from(fx) + f64::from(fw) / 2.0;
    let front = |p: [f64; 3]| {
        Point::new((centre + p[0] * FRONT_SCALE).round() as i32, (f64::from(floor) - p[1] * FRONT_SCALE).round() as i32)
    };
    Line::new(Point::new(fx + 4, floor), Point::new(fx + fw as i32 - 5, floor))
        .into_styled(PrimitiveStyle::with_stroke(FRAME, 1))
        .draw(screen)
        .map_err(fail)?;
    draw_figure(run, screen, &front, false)?;
    let style = MonoTextStyle::new(&FONT_6X10, Rgb565::new(26, 54, 26));
    Text::with_baseline(&run.status(frame), Point::new(3, SCREEN_H as i32 - HUD_H), style, Baseline::Top)
        .draw(screen)
        .map_err(fail)?;
    Ok(())
}

/// Draws every bone as a line from its parent (bones whose parent is a root excepted: the root sits
/// on the ground), the head as a circle and the hands and feet as short segments, far limbs first.
/// With `left_far` (the side view) the left limbs (names ending in `_l`) are drawn dimmer, first.
fn draw_figure<S: Scalar>(
    run: &Run<'_, S>,
    screen: &mut SimulatorDisplay<Rgb565>,
    project: &dyn Fn([f64; 3]) -> Point,
    left_far: bool,
) -> Result<(), String> {
    use ossicle::skeleton::SkeletonSource;
    let fail = |_| "drawing failed".to_string();
    let skeleton = &run.skeleton;
    let count = SkeletonSource::<S, Transform3<S>>::bone_count(skeleton);
    let parent = |i: usize| SkeletonSource::<S, Transform3<S>>::parent(skeleton, i);
    // Segments: (from, to, limb side: Some(far?) for limbs, None for the torso).
    let mut segments = Vec::new();
    for i in 0..count {
        let Some(p) = parent(i) else { continue };
        if parent(p).is_none() {
            continue;
        }
        let (a, b) = (run.at(p), run.at(i));
        let name = skeleton.bone_name(i).unwrap_or("");
        let limb = name.ends_with("_l") || name.ends_with("_r");
        segments.push((a, b, limb.then(|| left_far && name.ends_with("_l"))));
    }
    // Hands and feet: [left, right], a segment from the wrist or ankle.
    let ends = [(run.bones.hands, [0.0, -8.0, 0.0]), (run.bones.feet, [0.0, -3.0, 14.0])];
    for (pair, end) in ends {
        for (side, i) in pair.into_iter().enumerate() {
            segments.push((run.at(i), run.point(i, end), Some(left_far && side == 0)));
        }
    }
    for pass in [Some(true), None, Some(false)] {
        for &(a, b, side) in segments.iter().filter(|s| s.2 == pass) {
            let color = match side {
                Some(true) => FAR,
                Some(false) => NEAR,
                None => BODY,
            };
            Line::new(project(a), project(b))
                .into_styled(PrimitiveStyle::with_stroke(color, 2))
                .draw(screen)
                .map_err(fail)?;
        }
        if pass.is_none() {
            let c = project(run.point(run.bones.head, [0.0, 10.0, 0.0]));
            // A 10 cm radius in this view's pixels.
            let r = f64::from((project([0.0, 10.0, 0.0]).y - project([0.0; 3]).y).abs()).max(3.0);
            let d = (2.0 * r).round() as u32;
            Circle::with_center(c, d).into_styled(PrimitiveStyle::with_stroke(BODY, 2)).draw(screen).map_err(fail)?;
        }
    }
    Ok(())
}

/// Command-line options.
struct Options {
    blobs: Vec<PathBuf>,
    out: PathBuf,
    png_every: u32,
    verbose: bool,
    window: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        blobs: Vec::new(),
        out: PathBuf::from("target/demo/skeleton"),
        png_every: 1,
        verbose: false,
        window: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => o.out = args.next().ok_or("--out needs a folder")?.into(),
            "--png-every" => {
                let n = args.next().ok_or("--png-every needs a number")?;
                o.png_every =
                    n.parse().ok().filter(|&n| n > 0).ok_or(format!("--png-every {n:?} is not a positive number"))?;
            }
            "--verbose" => o.verbose = true,
            "--window" => o.window = true,
            "-h" | "--help" => {
                return Err(
                    "usage: skeleton [F32_BLOB Q16_BLOB] [--out DIR] [--png-every K] [--verbose] [--window]".into()
                )
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s:?} (try --help)")),
            s if o.blobs.len() < 2 => o.blobs.push(s.into()),
            s => return Err(format!("unexpected argument {s:?}: give two blobs (f32 and Q16.16) or none")),
        }
    }
    if o.blobs.len() == 1 {
        return Err("give two blobs (one f32, one Q16.16) or none".into());
    }
    Ok(o)
}

/// The f32 and the Q16.16 blob: the given files, or both built from samples/skeletal.
fn blob_bytes(o: &Options) -> Result<[Vec<u8>; 2], String> {
    let mut f32_blob = None;
    let mut q16_blob = None;
    if o.blobs.is_empty() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/skeletal");
        let dir = dir.canonicalize().unwrap_or(dir);
        let files = ["figure.eva", "idle.evac", "wave.evac"].map(|f| dir.join(f));
        let project = ossicle_host::sources::load_sources(&files).map_err(|e| e.to_string())?;
        for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
            let bytes = ossicle_host::write::write_blob(&project, encoding).map_err(|e| e.to_string())?;
            println!(
                "built a {}-byte {} blob from {}/{{figure.eva, idle.evac, wave.evac}}",
                bytes.len(),
                encoding.name(),
                dir.display()
            );
            match encoding {
                ScalarEncoding::F32 => f32_blob = Some(bytes),
                ScalarEncoding::Q16_16 => q16_blob = Some(bytes),
            }
        }
    }
    for path in &o.blobs {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let encoding = Asset::load(&bytes).map_err(|e| format!("{}: {e}", path.display()))?.encoding();
        let slot = match encoding {
            ScalarEncoding::F32 => &mut f32_blob,
            ScalarEncoding::Q16_16 => &mut q16_blob,
        };
        if slot.replace(bytes).is_some() {
            return Err(format!(
                "{}: a second {} blob; give one f32 and one Q16.16 blob",
                path.display(),
                encoding.name()
            ));
        }
    }
    match (f32_blob, q16_blob) {
        (Some(f), Some(q)) => Ok([f, q]),
        _ => Err("give one f32 and one Q16.16 blob".into()),
    }
}

fn output_settings() -> OutputSettings {
    OutputSettingsBuilder::new().scale(2).build()
}

/// Headless: both runs in lockstep, the f32 one drawn into PNGs, then the checks.
fn run_headless(f32_asset: &Asset<'_>, q16_asset: &Asset<'_>, o: &Options) -> Result<(), String> {
    let mut f = Run::<f32>::new(f32_asset)?;
    let mut q = Run::<Q16>::new(q16_asset)?;
    let mut screen = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let settings = output_settings();
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    remove_old_frames(&o.out)?;
    let mut worst = (0.0f64, 0u32, String::new());
    let mut worst_root = 0.0f64;
    let mut written = 0;
    for frame in 0..=FRAMES {
        if frame > 0 {
            f.step(frame)?;
            q.step(frame)?;
        }
        f.check_pose(frame);
        q.check_pose(frame);
        let count = f.skeleton.bone_count();
        for i in 0..count {
            let (a, b) = (f.at(i), q.at(i));
            let d = (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f64::max);
            if d > worst.0 {
                worst = (d, frame, f.skeleton.bone_name(i).unwrap_or("?").to_string());
            }
        }
        let (a, b) = (f.root_f64(), q.root_f64());
        worst_root = worst_root.max((0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f64::max));
        match frame {
            0 => println!("frame    0 (0.00 s)  play walk (root motion on bone 0, removed from the pose)"),
            CROSSFADE_TO_IDLE => println!("frame  {frame} (2.00 s)  crossfade to idle over 0.5 s"),
            WAVE_AT => println!("frame  {frame} (3.00 s)  one-shot wave on the right arm (fades 0.25 s)"),
            CROSSFADE_TO_WALK => println!("frame  {frame} (4.00 s)  crossfade to walk over 0.5 s"),
            _ => {}
        }
        if f.wave_finished == Some(frame) {
            println!("frame  {frame} ({:.2} s)  event: the wave finished", f64::from(frame) / f64::from(HZ));
        }
        if o.verbose {
            println!("{}", f.status(frame));
        }
        draw(&f, frame, &mut screen)?;
        if frame % o.png_every == 0 {
            let path = o.out.join(format!("frame_{frame:04}.png"));
            screen.to_rgb_output_image(&settings).save_png(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            written += 1;
        }
    }
    f.check_end();
    q.check_end();
    println!("ran {FRAMES} updates at {HZ} Hz in f32 and in Q16.16, wrote {written} PNGs to {}", o.out.display());
    let [x, y, z] = f.root_f64();
    let qz = q.root_f64()[2];
    println!(
        "root motion: f32 ({x:.4}, {y:.4}, {z:.4}) cm, Q16.16 z {qz:.4} cm; expected z {EXPECTED_ROOT_Z} (within {ROOT_TOLERANCE})"
    );
    let weights = |r: &Run<'_, f32>, start: u32| {
        r.fades.iter().filter(|x| x.0 > start && x.0 < start + 64).map(|x| x.3).collect::<Vec<_>>()
    };
    for start in [CROSSFADE_TO_IDLE, CROSSFADE_TO_WALK] {
        let w = weights(&f, start);
        println!(
            "crossfade at frame {start}: {} updates with an outgoing clip, incoming weight {:.4} .. {:.4}",
            w.len(),
            w.first().copied().unwrap_or(0.0),
            w.last().copied().unwrap_or(0.0)
        );
    }
    println!("the wave: peak weight {:.3}, finished at frame {:?}", f.wave_peak, f.wave_finished);
    println!(
        "f32 vs Q16.16: largest bone position difference {:.4} cm ({} at frame {}), root {:.4} cm (allowed {Q16_TOLERANCE} and {ROOT_TOLERANCE})",
        worst.0, worst.2, worst.1, worst_root
    );
    let mut problems: Vec<String> = f.problems.iter().map(|p| format!("f32: {p}")).collect();
    problems.extend(q.problems.iter().map(|p| format!("Q16.16: {p}")));
    if worst.0 > Q16_TOLERANCE {
        problems.push(format!("f32 and Q16.16 differ by {:.4} cm at {} (frame {})", worst.0, worst.2, worst.1));
    }
    if worst_root > ROOT_TOLERANCE {
        problems.push(format!("f32 and Q16.16 root positions differ by {worst_root:.4} cm"));
    }
    if !problems.is_empty() {
        let shown = problems.len().min(12);
        return Err(format!("{} failed checks:\n  {}", problems.len(), problems[..shown].join("\n  ")));
    }
    println!("all checks hold: root motion, crossfades, the one-shot, plausible feet and hands, f32 = Q16.16");
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

/// Live: the f32 timeline at 64 Hz in a window, over and over, until it is closed (or Escape).
#[cfg(feature = "window")]
fn run_window(asset: &Asset<'_>, o: &Options) -> Result<(), String> {
    use embedded_graphics_simulator::sdl2::Keycode;
    use embedded_graphics_simulator::{SimulatorEvent, Window};
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if !["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "EG_SIMULATOR_DUMP"].iter().any(|v| set(v)) {
            return Err("--window: no display (DISPLAY and WAYLAND_DISPLAY are not set); without --window \
                        the timeline is written as PNG frames"
                .into());
        }
    }
    let mut screen = SimulatorDisplay::<Rgb565>::new(Size::new(SCREEN_W, SCREEN_H));
    let mut window = Window::new("ossicle skeleton (Esc quits)", &output_settings());
    window.set_max_fps(HZ as u32);
    loop {
        let mut run = Run::<f32>::new(asset)?;
        for frame in 0..=FRAMES {
            if frame > 0 {
                run.step(frame)?;
            }
            if o.verbose {
                println!("{}", run.status(frame));
            }
            draw(&run, frame, &mut screen)?;
            window.update(&screen);
            for event in window.events() {
                if matches!(event, SimulatorEvent::Quit | SimulatorEvent::KeyDown { keycode: Keycode::ESCAPE, .. }) {
                    return Ok(());
                }
            }
        }
    }
}

/// What `--window` says when the example was built without the `window` feature.
#[cfg(not(feature = "window"))]
const WITHOUT_WINDOW: &str = "--window: this example was built without its `window` feature (SDL2). Run \
     `cargo run -p ossicle-examples --features window --bin skeleton -- --window`, which needs the SDL2 \
     development files (Debian/Ubuntu: apt-get install libsdl2-dev). Without --window it writes PNG frames.";

fn run(o: &Options) -> Result<(), String> {
    let [f32_bytes, q16_bytes] = blob_bytes(o)?;
    let f32_asset = Asset::load(&f32_bytes).map_err(|e| format!("loading the f32 blob: {e}"))?;
    if o.window {
        #[cfg(feature = "window")]
        return run_window(&f32_asset, o);
        #[cfg(not(feature = "window"))]
        return Err(WITHOUT_WINDOW.into());
    }
    let q16_asset = Asset::load(&q16_bytes).map_err(|e| format!("loading the Q16.16 blob: {e}"))?;
    run_headless(&f32_asset, &q16_asset, o)
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
