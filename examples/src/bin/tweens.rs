//! A UI panel slides in, a coin pops and fades, and the screen shakes: ossicle's tweens and motions
//! driving a small scene, drawn with embedded-graphics into the simulator display and written as
//! PNG frames (no window needed).
//!
//! `cargo run -p ossicle-examples --bin tweens -- [OUT_DIR] [--q16]` writes `OUT_DIR/frame_0000.png`
//! ... (default `target/demo/tweens`) at 30 frames per second, and prints the events as they fire.
//! With `--q16` the same scene runs in Q16.16 fixed point.

use embedded_graphics::mono_font::{ascii::FONT_6X10, MonoTextStyle};
use embedded_graphics::pixelcolor::{Rgb565, Rgb888};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, PrimitiveStyle, PrimitiveStyleBuilder, Rectangle, RoundedRectangle};
use embedded_graphics::text::{Alignment, Text};
use embedded_graphics_simulator::{OutputSettingsBuilder, SimulatorDisplay};
use ossicle::color::Rgba8;
use ossicle::ease::Ease;
use ossicle::event::{Event, EventQueue};
use ossicle::math::Vec2;
use ossicle::motion::{Motion, MotionPool};
use ossicle::sink::{property, PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::tween::{Tween, TweenPool};
use ossicle::{Scalar, Q16};
use std::path::PathBuf;
use std::process::ExitCode;

const WIDTH: u32 = 160;
const HEIGHT: u32 = 128;
const FPS: i32 = 30;
const FRAMES: i32 = 75;

// The scene's nodes (tween and motion targets).
const PANEL: TargetId = 0;
const COIN: TargetId = 1;
const CAMERA: TargetId = 2;

// Call ids.
const PANEL_IN: u32 = 1;
const COIN_GONE: u32 = 2;

/// Position and tint of each node: the property sink the tweens and motions write into.
struct Scene<S: Scalar> {
    position: [Vec2<S>; 3],
    tint: [Rgba8; 3],
}

impl<S: Scalar> PropertySink<S> for Scene<S> {
    fn set(&mut self, target: TargetId, prop: PropertyId, value: PropertyValue<S>) {
        let i = target as usize;
        match (prop, value) {
            (property::POSITION, PropertyValue::Vector(v)) => {
                if let Some(p) = self.position.get_mut(i) {
                    *p = v;
                }
            }
            (property::TINT, PropertyValue::Color(c)) => {
                if let Some(t) = self.tint.get_mut(i) {
                    *t = c;
                }
            }
            _ => {}
        }
    }

    fn get(&self, target: TargetId, prop: PropertyId) -> Option<PropertyValue<S>> {
        let i = target as usize;
        match prop {
            property::POSITION => self.position.get(i).map(|&p| PropertyValue::Vector(p)),
            property::TINT => self.tint.get(i).map(|&c| PropertyValue::Color(c)),
            _ => None,
        }
    }
}

fn v<S: Scalar>(x: f32, y: f32) -> Vec2<S> {
    Vec2::new(S::from_f32(x), S::from_f32(y))
}

/// `fg` over `bg` with the tint's alpha.
fn blend(bg: Rgb888, fg: Rgba8) -> Rgb565 {
    let a = u32::from(fg.a);
    let mix = |b: u8, f: u8| ((u32::from(f) * a + u32::from(b) * (255 - a) + 127) / 255) as u8;
    Rgb888::new(mix(bg.r(), fg.r), mix(bg.g(), fg.g), mix(bg.b(), fg.b)).into()
}

fn draw<S: Scalar>(scene: &Scene<S>, display: &mut SimulatorDisplay<Rgb565>) -> Result<(), core::convert::Infallible> {
    let background = Rgb888::new(24, 28, 48);
    display.clear(background.into())?;
    let cam = scene.position[CAMERA as usize];
    let at =
        |p: Vec2<S>| Point::new((p.x.add(cam.x)).to_f32().round() as i32, (p.y.add(cam.y)).to_f32().round() as i32);
    // Ground.
    Rectangle::new(at(v(-20.0, 108.0)), Size::new(WIDTH + 40, 40))
        .into_styled(PrimitiveStyle::with_fill(Rgb565::new(6, 20, 6)))
        .draw(display)?;
    // The coin, fading with its tint's alpha.
    let coin = scene.tint[COIN as usize];
    if coin.a > 0 {
        let style = PrimitiveStyleBuilder::new()
            .fill_color(blend(background, coin))
            .stroke_color(blend(background, Rgba8::new(160, 110, 0, coin.a)))
            .stroke_width(2)
            .build();
        Circle::with_center(at(scene.position[COIN as usize]), 17).into_styled(style).draw(display)?;
    }
    // The panel with its text.
    let panel = at(scene.position[PANEL as usize]);
    let style = PrimitiveStyleBuilder::new()
        .fill_color(blend(background, scene.tint[PANEL as usize]))
        .stroke_color(Rgb565::WHITE)
        .stroke_width(1)
        .build();
    RoundedRectangle::with_equal_corners(Rectangle::new(panel, Size::new(100, 28)), Size::new(6, 6))
        .into_styled(style)
        .draw(display)?;
    Text::with_alignment(
        "READY?",
        panel + Point::new(50, 18),
        MonoTextStyle::new(&FONT_6X10, Rgb565::WHITE),
        Alignment::Center,
    )
    .draw(display)?;
    Ok(())
}

fn run<S: Scalar>(out: &PathBuf) -> Result<(), String> {
    let mut scene = Scene::<S> {
        position: [v(-120.0, 16.0), v(80.0, 100.0), v(0.0, 0.0)],
        tint: [Rgba8::new(40, 90, 200, 255), Rgba8::new(255, 210, 40, 255), Rgba8::WHITE],
    };
    let mut tweens: TweenPool<S, 8, 4> = TweenPool::new();
    let mut motions: MotionPool<S, 8> = MotionPool::new();
    let mut events: EventQueue<16> = EventQueue::new();

    // UI slide-in: from off-screen left, overshooting into place, then a call.
    let slide_in = Tween::new()
        .from_to(PANEL, property::POSITION, v::<S>(-120.0, 16.0), v(30.0, 16.0), S::from_f32(0.6), Ease::OutBack)
        .call(PANEL_IN);
    // Coin pop: after half a second it jumps up while it fades out, then a call.
    let coin_pop = Tween::new()
        .delay(S::from_f32(0.5))
        .to(COIN, property::POSITION, v::<S>(80.0, 58.0), S::from_f32(0.5), Ease::OutBack)
        .parallel()
        .to(COIN, property::TINT, Rgba8::new(255, 210, 40, 0), S::from_f32(0.5), Ease::InQuad)
        .call(COIN_GONE);
    tweens.start(&slide_in, PANEL).map_err(|e| e.to_string())?;
    tweens.start(&coin_pop, COIN).map_err(|e| e.to_string())?;

    let mut display: SimulatorDisplay<Rgb565> = SimulatorDisplay::new(Size::new(WIDTH, HEIGHT));
    let settings = OutputSettingsBuilder::new().scale(2).build();
    let dt = S::from_ratio(1, FPS);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for frame in 0..FRAMES {
        if frame > 0 {
            tweens.update(dt, &mut scene, &mut events);
            motions.update(dt, &mut scene, &mut events);
        }
        while let Some(event) = events.pop() {
            println!("frame {frame:3}: {event:?}");
            if let Event::TweenCall { id: COIN_GONE, .. } = event {
                // The coin is gone: shake the screen for 0.4 s (seeded, so every run is the same).
                let shake = Motion::shake_vec2(v::<S>(0.0, 0.0), v(5.0, 3.0), S::from_f32(0.4))
                    .frequency(S::from_i32(25))
                    .seed(7)
                    .bind(CAMERA, property::POSITION);
                motions.start(shake).map_err(|e| e.to_string())?;
            }
        }
        draw(&scene, &mut display).map_err(|_| "draw".to_string())?;
        let path = out.join(format!("frame_{frame:04}.png"));
        display.to_rgb_output_image(&settings).save_png(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!("wrote {FRAMES} frames to {}", out.display());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let q16 = args.iter().any(|a| a == "--q16");
    let out = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/demo/tweens"));
    let result = if q16 { run::<Q16>(&out) } else { run::<f32>(&out) };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
