//! Scenes read from a blob: `BlobClips` and `BlobMachine` return exactly what the same definitions
//! held in RAM (`SliceClips`, `SliceMachine`) return, an Animator and a StateMachine driven from the
//! blob write and fire exactly what they do from the slices (f32 and Q16.16), and `Scene::new` /
//! `BlobScene::find_node` on good and bad scenes.
//!
//! The blobs are written record by record here (the host is not a dependency of the kernel): the
//! issue's Animator example (`bob`), its StateMachine example (extended with every clause op, an
//! `onFinished` transition with crossfade and exit time, and a self transition), and a clip with
//! every value kind (Vector with a cubic-Bézier ease, Color, Bool, Text, a step Float, a Float with
//! the `Step` ease, events, `animation` and `state` requests).

use ossicle::animator::{
    Animator, AnimatorError, Clip, ClipSource, Key, KeyValue, SliceClips, Track, TrackTarget, ValueKind,
};
use ossicle::asset::{Asset, EncodingMismatch, ScalarEncoding};
use ossicle::color::Rgba8;
use ossicle::ease::{CubicBezier, Ease};
use ossicle::event::{Event, EventQueue};
use ossicle::math::Vec2;
use ossicle::scalar::{Scalar, Q16};
use ossicle::scene::{BlobScene, PropertyName, Scene, SceneError, SceneNode};
use ossicle::sink::{property, PropertyId, PropertySink, PropertyValue, TargetId};
use ossicle::sprite::{BlobAnimations, SpritePlayer, Transparency};
use ossicle::statemachine::{
    Clause, CompareOp, MachineError, MachineSource, ParamDef, ParamKind, ParamValue, SliceMachine, StateDef,
    StateMachine, TransitionDef, TransitionFrom,
};
use ossicle_format::scene::{
    SceneBody, BEZIER_EASE, CLIP_LOOP, NONE, TRACK_STEP, TRANSITION_EXIT_TIME, TRANSITION_ON_FINISHED,
};
use ossicle_format::sprite::{AnimationRecord, FrameRecord, PixelFormat, SpriteBody, ANIM_FLAG_LOOP};
use ossicle_format::BlobWriter;

// ---------------------------------------------------------------------------------------------
// The blob, record by record.

/// The string table, in id order.
const STRINGS: [&str; 26] = [
    "level",          // 0
    "Coin",           // 1
    "Node2D",         // 2
    "Anim",           // 3
    "Animator",       // 4
    "Hero",           // 5
    "AnimatedSprite", // 6
    "Brain",          // 7
    "StateMachine",   // 8
    "Label",          // 9
    "Kinds",          // 10
    "bob",            // 11
    "top",            // 12
    "kinds",          // 13
    "hello",          // 14
    "world",          // 15
    "hero",           // 16
    "idle",           // 17
    "run",            // 18
    "jump",           // 19
    "speed",          // 20
    "grounded",       // 21
    "bonus",          // 22
    "blink",          // 23
    "brains",         // 24
    "Other",          // 25
];
const TOP: u32 = 12;
const HELLO: u32 = 14;
const WORLD: u32 = 15;
const IDLE: u32 = 17;
const RUN: u32 = 18;
const JUMP: u32 = 19;

/// Node indices of the "level" scene.
const COIN: u32 = 0;
const HERO: u32 = 2;
const BRAIN: u32 = 3;
const LABEL: u32 = 4;

const IN_OUT_SINE: u32 = 16;
const STEP_EASE: u32 = 1;
const OUT_QUAD: u32 = 3;

fn words(records: &[&[u32]]) -> Vec<u8> {
    records.iter().flat_map(|r| r.iter()).flat_map(|w| w.to_le_bytes()).collect()
}

/// The blob: strings, the sprite "hero" (unless `with_sprite` is false), the scene "level" and
/// the scene "brains".
///
/// "level": nodes 0 /Coin (Node2D), 1 /Anim (Animator), 2 /Hero (AnimatedSprite showing "hero",
/// playing "idle"), 3 /Hero/Brain (StateMachine), 4 /Label (Label), 5 /Kinds (Animator).
///
/// "brains": nodes 0 /Hero (AnimatedSprite "hero"), 1 /Hero/Brain (StateMachine), 2 /Other
/// (Node2D), 3 /Other/Brain (StateMachine): two machines of one state each, two nodes "Brain".
///
/// "sprites": three AnimatedSprite nodes showing "hero".
fn blob(e: ScalarEncoding, with_sprite: bool) -> Vec<u8> {
    let w = |v: f64| e.encode_f64(v).unwrap();
    let mut bw = BlobWriter::new(e);
    for (i, s) in STRINGS.iter().enumerate() {
        assert_eq!(bw.intern(s), i as u32);
    }
    if with_sprite {
        // Three 1×1 RGB565 frames; animations idle (frame 0, looping, 4 fps), run (frames 1..=2,
        // looping, 10 fps), jump (frames 1..=2, once, 10 fps).
        let frames: Vec<u8> = (0..3u16)
            .flat_map(|k| FrameRecord { x: 0, y: 0, w: 1, h: 1, flags: 0, offset: 2 * u32::from(k), len: 2 }.to_bytes())
            .collect();
        let pixels: Vec<u8> = (0..3u16).flat_map(|k| (0x0841 * (k + 1)).to_le_bytes()).collect();
        let anims = [
            AnimationRecord {
                name: IDLE,
                frame_count: 1,
                flags: ANIM_FLAG_LOOP,
                start: 0,
                end: 0,
                frame_time: w(0.25),
                ..Default::default()
            },
            AnimationRecord {
                name: RUN,
                frame_count: 2,
                flags: ANIM_FLAG_LOOP,
                start: 1,
                end: 2,
                frame_time: w(0.1),
                ..Default::default()
            },
            AnimationRecord {
                name: JUMP,
                frame_count: 2,
                flags: 0,
                start: 1,
                end: 2,
                frame_time: w(0.1),
                ..Default::default()
            },
        ];
        let animations: Vec<u8> = anims.iter().flat_map(|a| a.to_bytes()).collect();
        bw.add_sprite(&SpriteBody {
            name: 16,
            width: 1,
            height: 1,
            format: PixelFormat::Rgb565Le as u8,
            transparency: Transparency::None as u8,
            key: 0,
            palette: &[],
            frames: &frames,
            pixels: &pixels,
            animations: &animations,
            words: &[],
        })
        .unwrap();
    }
    // "level".
    let nodes = words(&[
        &[1, 2, NONE, NONE, NONE],
        &[3, 4, NONE, NONE, NONE],
        &[5, 6, NONE, 16, IDLE],
        &[7, 8, HERO, NONE, NONE],
        &[9, 9, NONE, NONE, NONE],
        &[10, 4, NONE, NONE, NONE],
    ]);
    let animators = words(&[&[1, 0, 0, 1], &[5, NONE, 1, 2]]);
    let clips = words(&[&[11, w(1.0), CLIP_LOOP, 0, 2], &[13, w(2.0), 0, 2, 9], &[23, w(0.5), CLIP_LOOP, 11, 1]]);
    let tracks = words(&[
        // bob
        &[COIN, property::POSITION_Y, 0, 0, 3],
        &[NONE, 0, 4 | TRACK_STEP, 3, 1],
        // kinds
        &[COIN, property::POSITION, 1, 4, 3],
        &[LABEL, property::COLOR, 2, 7, 2],
        &[COIN, property::VISIBLE, 3 | TRACK_STEP, 9, 3],
        &[LABEL, property::TEXT, 4 | TRACK_STEP, 12, 2],
        &[COIN, property::ROTATION, TRACK_STEP, 14, 3],
        &[LABEL, property::SCRIPT, 0, 17, 2],
        &[NONE, 0, 4 | TRACK_STEP, 19, 2],
        &[HERO, property::ANIMATION, 4 | TRACK_STEP, 21, 1],
        &[BRAIN, property::STATE, 4 | TRACK_STEP, 22, 1],
        // blink
        &[COIN, property::OPACITY, 0, 23, 3],
    ]);
    let keys = words(&[
        &[0, w(0.0), 0, IN_OUT_SINE],
        &[w(0.5), w(-6.0), 0, IN_OUT_SINE],
        &[w(1.0), w(0.0), 0, 0],
        &[w(0.5), TOP, 0, 0],
        &[0, w(0.0), w(0.0), BEZIER_EASE],
        &[w(1.0), w(10.0), w(-4.0), OUT_QUAD],
        &[w(2.0), w(20.0), w(8.0), 0],
        &[0, 0xff80_0000, 0, 0],
        &[w(2.0), 0x0080_ffff, 0, 0],
        &[0, 1, 0, 0],
        &[w(0.5), 0, 0, 0],
        &[w(1.5), 1, 0, 0],
        &[0, HELLO, 0, 0],
        &[w(1.0), WORLD, 0, 0],
        &[0, w(1.0), 0, 0],
        &[w(0.75), w(2.0), 0, 0],
        &[w(1.25), w(3.0), 0, 0],
        &[0, w(1.0), 0, STEP_EASE],
        &[w(2.0), w(3.0), 0, 0],
        &[0, HELLO, 0, 0],
        &[w(2.0), WORLD, 0, 0],
        &[w(1.0), RUN, 0, 0],
        &[w(1.5), JUMP, 0, 0],
        &[0, w(1.0), 0, 0],
        &[w(0.25), w(0.0), 0, 0],
        &[w(0.5), w(1.0), 0, 0],
    ]);
    let beziers = words(&[&[w(0.25), w(0.1), w(0.25), w(1.0)]]);
    let machines = words(&[&[BRAIN, HERO, 0, 0, 3, 0, 3, 0, 6]]);
    let params = words(&[&[20, 0, w(0.0)], &[21, 1, w(1.0)], &[19, 2, 0]]);
    let states = words(&[&[IDLE, IDLE, 0], &[RUN, RUN, 1], &[JUMP, JUMP, 2]]);
    let transitions = words(&[
        &[0, 1, 0, 1, 0, 0, 0, 0],
        &[1, 0, 1, 1, 0, 0, 0, 0],
        &[NONE, 2, 2, 1, 0, 0, 0, 0],
        &[2, 0, 3, 1, w(0.2), 0, 0, 0],
        &[2, 1, 4, 3, 0, TRANSITION_ON_FINISHED | TRANSITION_EXIT_TIME, w(0.15), w(0.9)],
        &[1, 1, 7, 2, 0, 0, 0, 0],
    ]);
    let clauses = words(&[
        &[6, 0, w(10.0)],
        &[5, 0, w(10.0)],
        &[0, 2, 0],
        &[0, 1, 0],
        &[1, 1, 0],
        &[7, 0, w(3.0)],
        &[3, 0, w(7.0)],
        &[2, 0, w(99.0)],
        &[4, 0, w(100.0)],
    ]);
    let fields = words(&[&[22]]);
    bw.add_scene(&SceneBody {
        name: 0,
        nodes: &nodes,
        animators: &animators,
        clips: &clips,
        tracks: &tracks,
        keys: &keys,
        beziers: &beziers,
        machines: &machines,
        params: &params,
        states: &states,
        transitions: &transitions,
        clauses: &clauses,
        fields: &fields,
        props: &[],
    })
    .unwrap();
    // "brains".
    let nodes =
        words(&[&[5, 6, NONE, 16, NONE], &[7, 8, 0, NONE, NONE], &[25, 2, NONE, NONE, NONE], &[7, 8, 2, NONE, NONE]]);
    let machines = words(&[&[1, 0, 0, 0, 0, 0, 1, 0, 0], &[3, NONE, 0, 0, 0, 1, 1, 0, 0]]);
    let states = words(&[&[IDLE, NONE, NONE], &[RUN, NONE, NONE]]);
    bw.add_scene(&SceneBody { name: 24, nodes: &nodes, machines: &machines, states: &states, ..Default::default() })
        .unwrap();
    // "sprites": three AnimatedSprite nodes showing "hero" (names "Hero", "Coin", "Label").
    let nodes = words(&[&[5, 6, NONE, 16, NONE], &[1, 6, NONE, 16, RUN], &[9, 6, NONE, 16, NONE]]);
    let name = bw.intern("sprites");
    bw.add_scene(&SceneBody { name, nodes: &nodes, ..Default::default() }).unwrap();
    bw.finish().unwrap()
}

fn level<'a>(asset: &Asset<'a>) -> BlobScene<'a> {
    asset.scene_named("level").expect("the level scene")
}

// ---------------------------------------------------------------------------------------------
// The same definitions in RAM, written out again by hand.

fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

fn fl<S: Scalar>(v: f64) -> KeyValue<S> {
    KeyValue::Float(s(v))
}

fn vec2<S: Scalar>(x: f64, y: f64) -> KeyValue<S> {
    KeyValue::Vector(Vec2::new(s(x), s(y)))
}

/// How far a value may be from the hand-computed one: Q16.16 rounding; with the `fast-math`
/// feature f32's sine is micromath's, so Sine eases are within 2.5e-3 (kernel/tests/ease_accuracy.rs),
/// 1.5e-2 on the coin's 6-pixel bob.
fn tolerance<S: Scalar>() -> f64 {
    if S::ENCODING == ScalarEncoding::Q16_16 {
        2e-3
    } else if cfg!(feature = "fast-math") {
        6.0 * 2.5e-3
    } else {
        1e-5
    }
}

// ---------------------------------------------------------------------------------------------
// Source equivalence.

/// Every clip, track and key (and one past each) reads the same from both sources.
fn same_clips<S: Scalar, A: ClipSource<S>, B: ClipSource<S>>(blob: &A, slice: &B, names: &[&str]) {
    assert_eq!(blob.clip_count(), slice.clip_count());
    assert_eq!(blob.autoplay(), slice.autoplay());
    let mut keys_seen = 0;
    for c in 0..=slice.clip_count() {
        assert_eq!(blob.clip(c), slice.clip(c), "clip {c}");
        let tracks = slice.clip(c).map_or(0, |i| i.track_count);
        for t in 0..=tracks {
            assert_eq!(blob.track(c, t), slice.track(c, t), "clip {c} track {t}");
            let n = slice.track(c, t).map_or(0, |i| i.key_count);
            for k in 0..=n {
                assert_eq!(blob.key(c, t, k), slice.key(c, t, k), "clip {c} track {t} key {k}");
                assert_eq!(blob.key_time(c, t, k), slice.key_time(c, t, k), "clip {c} track {t} key {k}");
                keys_seen += usize::from(k < n);
            }
        }
        // Far out of range.
        assert_eq!(blob.track(c, usize::MAX), None);
        assert_eq!(blob.key(c, 0, usize::MAX), None);
    }
    assert!(keys_seen > 0);
    assert_eq!(blob.clip(usize::MAX), None);
    for name in names.iter().chain(&["nope", ""]) {
        assert_eq!(blob.find(name), slice.find(name), "find {name:?}");
    }
}

fn same_machine<S: Scalar, A: MachineSource<S>, B: MachineSource<S>>(blob: &A, slice: &B) {
    assert_eq!(blob.start_state(), slice.start_state());
    assert_eq!(blob.param_count(), slice.param_count());
    for p in 0..=slice.param_count() {
        assert_eq!(blob.param(p), slice.param(p), "param {p}");
    }
    assert_eq!(blob.state_count(), slice.state_count());
    for st in 0..=slice.state_count() {
        assert_eq!(blob.state(st), slice.state(st), "state {st}");
    }
    assert_eq!(blob.transition_count(), slice.transition_count());
    for t in 0..=slice.transition_count() {
        assert_eq!(blob.transition(t), slice.transition(t), "transition {t}");
        let n = slice.transition(t).map_or(0, |i| i.clause_count);
        for c in 0..=n {
            assert_eq!(blob.clause(t, c), slice.clause(t, c), "transition {t} clause {c}");
        }
    }
    for name in ["speed", "grounded", "jump", "idle", "run", "nope", ""] {
        assert_eq!(blob.find_param(name), slice.find_param(name), "param {name:?}");
        assert_eq!(blob.find_state(name), slice.find_state(name), "state {name:?}");
    }
}

/// The bob Animator's clips (issue example).
macro_rules! bob_clips {
    ($S:ty, $src:ident) => {
        let y: [Key<$S>; 3] = [
            Key::eased(s(0.0), fl(0.0), Ease::InOutSine),
            Key::eased(s(0.5), fl(-6.0), Ease::InOutSine),
            Key::new(s(1.0), fl(0.0)),
        ];
        let ev: [Key<$S>; 1] = [Key::new(s(0.5), KeyValue::Text(TOP))];
        let tracks = [Track::new(COIN, property::POSITION_Y, ValueKind::Float, &y), Track::events(&ev)];
        let clips = [Clip::new("bob", s(1.0), &tracks).looping(true)];
        let $src = SliceClips::new(&clips).with_autoplay(Some(0));
    };
}

/// The Kinds Animator's clips: every value kind.
macro_rules! kinds_clips {
    ($S:ty, $src:ident) => {
        let bezier: Ease<$S> = Ease::Bezier(CubicBezier::new(s(0.25), s(0.1), s(0.25), s(1.0)));
        let pos: [Key<$S>; 3] = [
            Key::eased(s(0.0), vec2(0.0, 0.0), bezier),
            Key::eased(s(1.0), vec2(10.0, -4.0), Ease::OutQuad),
            Key::new(s(2.0), vec2(20.0, 8.0)),
        ];
        let col: [Key<$S>; 2] = [
            Key::new(s(0.0), KeyValue::Color(Rgba8::new(0xff, 0x80, 0x00, 0x00))),
            Key::new(s(2.0), KeyValue::Color(Rgba8::new(0x00, 0x80, 0xff, 0xff))),
        ];
        let vis: [Key<$S>; 3] = [
            Key::new(s(0.0), KeyValue::Bool(true)),
            Key::new(s(0.5), KeyValue::Bool(false)),
            Key::new(s(1.5), KeyValue::Bool(true)),
        ];
        let text: [Key<$S>; 2] = [Key::new(s(0.0), KeyValue::Text(HELLO)), Key::new(s(1.0), KeyValue::Text(WORLD))];
        let rot: [Key<$S>; 3] = [Key::new(s(0.0), fl(1.0)), Key::new(s(0.75), fl(2.0)), Key::new(s(1.25), fl(3.0))];
        let script: [Key<$S>; 2] = [Key::eased(s(0.0), fl(1.0), Ease::Step), Key::new(s(2.0), fl(3.0))];
        let ev: [Key<$S>; 2] = [Key::new(s(0.0), KeyValue::Text(HELLO)), Key::new(s(2.0), KeyValue::Text(WORLD))];
        let anim: [Key<$S>; 1] = [Key::new(s(1.0), KeyValue::Text(RUN))];
        let state: [Key<$S>; 1] = [Key::new(s(1.5), KeyValue::Text(JUMP))];
        let opacity: [Key<$S>; 3] = [Key::new(s(0.0), fl(1.0)), Key::new(s(0.25), fl(0.0)), Key::new(s(0.5), fl(1.0))];
        let kinds = [
            Track::new(COIN, property::POSITION, ValueKind::Vector, &pos),
            Track::new(LABEL, property::COLOR, ValueKind::Color, &col),
            Track::new(COIN, property::VISIBLE, ValueKind::Bool, &vis).stepped(true),
            Track::new(LABEL, property::TEXT, ValueKind::Text, &text).stepped(true),
            Track::new(COIN, property::ROTATION, ValueKind::Float, &rot).stepped(true),
            Track::new(LABEL, property::SCRIPT, ValueKind::Float, &script),
            Track::events(&ev),
            Track::new(HERO, property::ANIMATION, ValueKind::Text, &anim).stepped(true),
            Track::new(BRAIN, property::STATE, ValueKind::Text, &state).stepped(true),
        ];
        let blink = [Track::new(COIN, property::OPACITY, ValueKind::Float, &opacity)];
        let clips = [Clip::new("kinds", s(2.0), &kinds), Clip::new("blink", s(0.5), &blink).looping(true)];
        let $src = SliceClips::new(&clips);
    };
}

/// The Brain machine (issue example, extended).
macro_rules! brain_machine {
    ($S:ty, $def:ident) => {
        let params: [ParamDef<$S>; 3] =
            [ParamDef::float("speed", s(0.0)), ParamDef::bool("grounded", true), ParamDef::trigger("jump")];
        let states = [
            StateDef::new("idle").name_id(IDLE).animation(0),
            StateDef::new("run").name_id(RUN).animation(1),
            StateDef::new("jump").name_id(JUMP).animation(2),
        ];
        let cmp = |op, v: f64| Clause::<$S>::Compare { param: 0, op, value: s(v) };
        let c0 = [cmp(CompareOp::Gt, 10.0)];
        let c1 = [cmp(CompareOp::Le, 10.0)];
        let c2 = [Clause::Param(2)];
        let c3 = [Clause::Param(1)];
        let c4 = [Clause::NotParam(1), cmp(CompareOp::Ge, 3.0), cmp(CompareOp::Ne, 7.0)];
        let c5 = [cmp(CompareOp::Eq, 99.0), cmp(CompareOp::Lt, 100.0)];
        let transitions = [
            TransitionDef::new(TransitionFrom::State(0), 1).when(&c0),
            TransitionDef::new(TransitionFrom::State(1), 0).when(&c1),
            TransitionDef::new(TransitionFrom::Any, 2).when(&c2),
            TransitionDef::new(TransitionFrom::State(2), 0).when(&c3).after(s(0.2)),
            TransitionDef::new(TransitionFrom::State(2), 1)
                .when(&c4)
                .on_finished(true)
                .crossfade(s(0.15))
                .exit_time(s(0.9)),
            TransitionDef::new(TransitionFrom::State(1), 1).when(&c5),
        ];
        let $def = SliceMachine::new(&params, &states, &transitions, 0);
    };
}

fn sources_match<S: Scalar>() {
    let bytes = blob(S::ENCODING, true);
    let asset = Asset::load(&bytes).unwrap();
    let scene = level(&asset);
    let bob = scene.clips::<S>(0).unwrap().unwrap();
    let kinds = scene.clips::<S>(1).unwrap().unwrap();
    assert!(scene.clips::<S>(2).unwrap().is_none());
    {
        bob_clips!(S, src);
        same_clips(&bob, &src, &["bob"]);
    }
    {
        kinds_clips!(S, src);
        same_clips(&kinds, &src, &["kinds", "blink", "bob"]);
    }
    assert_eq!((bob.name(0), bob.name(1)), (Some("bob"), None));
    assert_eq!((kinds.name(0), kinds.name(1), kinds.name(2)), (Some("kinds"), Some("blink"), None));
    // A few reads written out once more, without the slices.
    assert_eq!(
        kinds.track(0, 1).map(|t| (t.target, t.property, t.kind, t.step, t.key_count)),
        Some((TrackTarget::Node(LABEL), property::COLOR, ValueKind::Color, false, 2))
    );
    assert_eq!(kinds.key(0, 1, 1).map(|k| k.value), Some(KeyValue::Color(Rgba8::new(0, 0x80, 0xff, 0xff))));
    assert_eq!(bob.track(0, 1).map(|t| t.target), Some(TrackTarget::Event));
    assert_eq!(bob.key(0, 0, 1).map(|k| k.ease), Some(Ease::InOutSine));

    let brain = scene.machine::<S>(0).unwrap().unwrap();
    assert!(scene.machine::<S>(1).unwrap().is_none());
    {
        brain_machine!(S, def);
        same_machine(&brain, &def);
    }
    assert_eq!(brain.state_name(2), Some("jump"));
    assert_eq!(brain.state_animation_name(1), Some("run"));
    assert_eq!(brain.param_name(1), Some("grounded"));
    assert_eq!((brain.state_name(3), brain.param_name(3)), (None, None));
    let t4 = brain.transition(4).unwrap();
    assert_eq!((t4.on_finished, t4.crossfade, t4.exit_time), (true, s(0.15), Some(s(0.9))));
    assert_eq!(brain.transition(0).unwrap().exit_time, None);
    assert_eq!(brain.param(1).map(|p| (p.kind, p.default)), Some((ParamKind::Bool, S::ONE)));
}

#[test]
fn blob_sources_read_like_slices_f32() {
    sources_match::<f32>();
}

#[test]
fn blob_sources_read_like_slices_q16() {
    sources_match::<Q16>();
}

// ---------------------------------------------------------------------------------------------
// Driving players from both sources.

/// A sink that records every write.
struct Rec<S: Scalar> {
    writes: Vec<(TargetId, PropertyId, PropertyValue<S>)>,
}

impl<S: Scalar> PropertySink<S> for Rec<S> {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        self.writes.push((target, property, value));
    }
}

#[derive(Clone, Copy, Debug)]
enum AOp {
    Start,
    Update(f64),
    Play(&'static str, bool),
    PlayIndex(usize, bool),
    Pause,
    Resume,
    Stop(bool),
    Seek(f64),
    Apply(&'static str, f64),
    Speed(f64),
}

/// What one step did.
#[derive(Debug, PartialEq)]
struct AStep<S: Scalar> {
    writes: Vec<(TargetId, PropertyId, PropertyValue<S>)>,
    events: Vec<Event>,
    time: S,
    clip: Option<usize>,
    playing: bool,
    finished: bool,
    result: Result<(), AnimatorError>,
}

fn drive_animator<S: Scalar, Src: ClipSource<S>>(src: &Src, ops: &[AOp]) -> Vec<AStep<S>> {
    let mut a: Animator<S> = Animator::new(7);
    let mut q: EventQueue<64> = EventQueue::new();
    let mut out = Vec::new();
    for &op in ops {
        let mut sink = Rec { writes: Vec::new() };
        let result = match op {
            AOp::Start => a.start(src),
            AOp::Update(dt) => {
                a.update(s(dt), src, &mut sink, &mut q);
                Ok(())
            }
            AOp::Play(name, restart) => a.play_named(src, name, restart),
            AOp::PlayIndex(i, restart) => a.play(src, i, restart),
            AOp::Pause => {
                a.pause();
                Ok(())
            }
            AOp::Resume => {
                a.resume();
                Ok(())
            }
            AOp::Stop(reset) => {
                a.stop(src, &mut sink, reset);
                Ok(())
            }
            AOp::Seek(t) => {
                a.seek(src, &mut sink, s(t));
                Ok(())
            }
            AOp::Apply(name, t) => match src.find(name) {
                Some(c) => a.apply(src, &mut sink, c, s(t)),
                None => Err(AnimatorError::NoSuchClip),
            },
            AOp::Speed(v) => {
                a.set_speed(s(v));
                Ok(())
            }
        };
        assert_eq!(q.dropped(), 0);
        out.push(AStep {
            writes: sink.writes,
            events: q.drain().collect(),
            time: a.time(),
            clip: a.clip(),
            playing: a.is_playing(),
            finished: a.is_finished(),
            result,
        });
    }
    out
}

const BOB_SCRIPT: [AOp; 19] = [
    AOp::Start,
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.6),
    AOp::Update(2.5),
    AOp::Seek(0.3),
    AOp::Update(0.25),
    AOp::Pause,
    AOp::Update(0.25),
    AOp::Resume,
    AOp::Speed(2.0),
    AOp::Update(0.25),
    AOp::Stop(true),
    AOp::Update(0.25),
    AOp::Play("bob", false),
    AOp::Update(0.5),
    AOp::Apply("bob", 0.75),
    AOp::Update(0.1),
    AOp::PlayIndex(1, false),
];

const KINDS_SCRIPT: [AOp; 23] = [
    AOp::Start,
    AOp::Update(0.25),
    AOp::Play("kinds", false),
    AOp::Update(0.0),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Update(0.25),
    AOp::Play("blink", false),
    AOp::Update(0.3),
    AOp::Update(0.3),
    AOp::Apply("kinds", 1.25),
    AOp::Seek(0.1),
    AOp::Play("kinds", true),
    AOp::Update(1.0),
    AOp::Stop(false),
    AOp::Play("nope", false),
    AOp::Apply("nope", 0.0),
];

fn written<S: Scalar>(step: &AStep<S>, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
    step.writes.iter().rev().find(|w| w.0 == target && w.1 == property).map(|w| w.2)
}

fn float<S: Scalar>(v: Option<PropertyValue<S>>) -> f64 {
    match v {
        Some(PropertyValue::Float(x)) => x.to_f64(),
        other => panic!("not a Float: {other:?}"),
    }
}

fn animators_play_alike<S: Scalar>() {
    let bytes = blob(S::ENCODING, true);
    let asset = Asset::load(&bytes).unwrap();
    let scene = level(&asset);
    let tol = tolerance::<S>();

    let from_blob = drive_animator(&scene.clips::<S>(0).unwrap().unwrap(), &BOB_SCRIPT);
    let from_slices = {
        bob_clips!(S, src);
        drive_animator(&src, &BOB_SCRIPT)
    };
    assert_eq!(from_blob, from_slices);
    // By hand: -6 × InOutSine(0.5) = -3 at 0.25; "top" fires in the update that reaches 0.5.
    let y = float(written(&from_blob[1], COIN, property::POSITION_Y));
    assert!((y + 3.0).abs() < tol, "{y}");
    assert!(from_blob[1].events.is_empty());
    assert_eq!(from_blob[2].events, [Event::AnimatorEvent { animator: 7, clip: 0, name: TOP }]);
    assert!((float(written(&from_blob[2], COIN, property::POSITION_Y)) + 6.0).abs() < tol);
    // 0.5 + 0.6 wraps to 0.1 without passing 0.5 again; 0.1 + 2.5 passes 0.5 three times.
    assert!(from_blob[3].events.is_empty());
    assert_eq!(from_blob[4].events.len(), 3);
    assert_eq!(from_blob[16].writes.len(), 1, "apply writes the one value track");
    assert_eq!(from_blob[18].result, Err(AnimatorError::NoSuchClip));

    let from_blob = drive_animator(&scene.clips::<S>(1).unwrap().unwrap(), &KINDS_SCRIPT);
    let from_slices = {
        kinds_clips!(S, src);
        drive_animator(&src, &KINDS_SCRIPT)
    };
    assert_eq!(from_blob, from_slices);
    // By hand, at 0 (step 3): every track written, the event key at 0 fires.
    assert_eq!(from_blob[3].writes.len(), 8);
    assert_eq!(from_blob[3].events, [Event::AnimatorEvent { animator: 7, clip: 0, name: HELLO }]);
    // At 0.5 (step 5): position along the Bézier (0.25, 0.1, 0.25, 1) at x = 0.5, y = 0.8024034;
    // colour at u = 0.25 per channel: 255 - 63.75 = 191.25 -> 191, 128, 63.75 -> 64, 63.75 -> 64;
    // visible turns false at its key; text still "hello" (not rewritten); rotation steps stay at 1.
    let at = &from_blob[5];
    match written(at, COIN, property::POSITION) {
        Some(PropertyValue::Vector(p)) => {
            let e = 0.802_403_4;
            assert!((p.x.to_f64() - 10.0 * e).abs() < 5e-3, "{p:?}");
            assert!((p.y.to_f64() + 4.0 * e).abs() < 5e-3, "{p:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(written(at, LABEL, property::COLOR), Some(PropertyValue::Color(Rgba8::new(191, 128, 64, 64))));
    assert_eq!(written(at, COIN, property::VISIBLE), Some(PropertyValue::Bool(false)));
    assert_eq!(written(at, LABEL, property::TEXT), None);
    assert_eq!(written(at, COIN, property::ROTATION), None);
    assert!((float(written(at, LABEL, property::SCRIPT)) - 1.0).abs() < tol, "the Step ease holds");
    // The one-key request tracks hold their key's value from the start: written at 0, never again.
    assert_eq!(written(&from_blob[3], HERO, property::ANIMATION), Some(PropertyValue::Text(RUN)));
    assert_eq!(written(&from_blob[3], BRAIN, property::STATE), Some(PropertyValue::Text(JUMP)));
    assert!(from_blob[4..12].iter().all(|st| written(st, HERO, property::ANIMATION).is_none()));
    assert!(from_blob[4..12].iter().all(|st| written(st, BRAIN, property::STATE).is_none()));
    // At 0.75 (step 6) the stepped rotation moves to its second key; at 1.0 (step 7) the text to
    // "world", and the rotation is not rewritten.
    assert!((float(written(&from_blob[6], COIN, property::ROTATION)) - 2.0).abs() < tol);
    assert_eq!(written(&from_blob[6], LABEL, property::TEXT), None);
    assert_eq!(written(&from_blob[7], LABEL, property::TEXT), Some(PropertyValue::Text(WORLD)));
    assert_eq!(written(&from_blob[7], COIN, property::ROTATION), None);
    // At 2.0 (step 11): "world" fires and the clip finishes.
    assert_eq!(
        from_blob[11].events,
        [Event::AnimatorEvent { animator: 7, clip: 0, name: WORLD }, Event::ClipFinished { animator: 7, clip: 0 }]
    );
    assert!(from_blob[11].finished);
    assert_eq!(from_blob[21].result, Err(AnimatorError::NoSuchClip));
    assert_eq!(from_blob[22].result, Err(AnimatorError::NoSuchClip));
}

#[test]
fn animators_play_alike_from_blob_and_slices_f32() {
    animators_play_alike::<f32>();
}

#[test]
fn animators_play_alike_from_blob_and_slices_q16() {
    animators_play_alike::<Q16>();
}

#[derive(Clone, Copy, Debug)]
enum MOp {
    Update(f64),
    SetFloat(&'static str, f64),
    SetBool(&'static str, bool),
    Trigger(&'static str),
    Travel(&'static str),
}

#[derive(Debug, PartialEq)]
struct MStep<S: Scalar> {
    taken: Option<usize>,
    events: Vec<Event>,
    current: usize,
    time: S,
    values: Vec<Option<ParamValue<S>>>,
    playing: Option<usize>,
    result: Result<(), MachineError>,
}

fn drive_machine<S: Scalar, M: MachineSource<S>>(
    def: &M,
    sprites: &BlobAnimations<'_, S>,
    ops: &[MOp],
) -> Vec<MStep<S>> {
    let mut sm: StateMachine<S, 4> = StateMachine::new(9, def.start_state(), def).unwrap();
    let mut player: SpritePlayer<'_, S> = SpritePlayer::new(HERO);
    let mut q: EventQueue<64> = EventQueue::new();
    let mut out = Vec::new();
    for &op in ops {
        let mut taken = None;
        let result = match op {
            MOp::Update(dt) => {
                player.update(sprites, s(dt), &mut q);
                taken = sm.update(s(dt), def, Some((&mut player, sprites)), &mut q);
                Ok(())
            }
            MOp::SetFloat(p, v) => sm.set_float_named(def, p, s(v)),
            MOp::SetBool(p, v) => sm.set_bool_named(def, p, v),
            MOp::Trigger(p) => sm.set_trigger_named(def, p),
            MOp::Travel(st) => sm.travel_named(def, st),
        };
        assert_eq!(q.dropped(), 0);
        out.push(MStep {
            taken,
            events: q.drain().collect(),
            current: sm.current(),
            time: sm.time_in_state(),
            values: (0..4).map(|i| sm.value(i)).collect(),
            playing: player.current(),
            result,
        });
    }
    out
}

const BRAIN_SCRIPT: [MOp; 26] = [
    MOp::Update(0.1),
    MOp::SetFloat("speed", 12.0),
    MOp::Update(0.1),
    MOp::SetFloat("speed", 5.0),
    MOp::Update(0.1),
    MOp::Trigger("jump"),
    MOp::Update(0.05),
    MOp::Update(0.1),
    MOp::Update(0.1),
    MOp::SetBool("grounded", false),
    MOp::SetFloat("speed", 4.0),
    MOp::Trigger("jump"),
    MOp::Update(0.1),
    MOp::Update(0.1),
    MOp::Update(0.15),
    MOp::Update(0.1),
    MOp::Travel("run"),
    MOp::Update(0.0),
    MOp::SetFloat("speed", 99.0),
    MOp::Travel("run"),
    MOp::Update(0.1),
    MOp::Update(0.1),
    MOp::SetBool("speed", true),
    MOp::SetFloat("nope", 1.0),
    MOp::Travel("nope"),
    MOp::Trigger("grounded"),
];

/// The machine's own events (the player's are left out).
fn state_events(events: &[Event]) -> Vec<Event> {
    events.iter().copied().filter(|e| matches!(e, Event::StateEntered { .. } | Event::StateExited { .. })).collect()
}

fn machines_run_alike<S: Scalar>() {
    let bytes = blob(S::ENCODING, true);
    let asset = Asset::load(&bytes).unwrap();
    let scene = level(&asset);
    let sprites = asset.sprite_named("hero").unwrap().animations::<S>().unwrap();
    let from_blob = drive_machine(&scene.machine::<S>(0).unwrap().unwrap(), &sprites, &BRAIN_SCRIPT);
    let from_slices = {
        brain_machine!(S, def);
        drive_machine(&def, &sprites, &BRAIN_SCRIPT)
    };
    assert_eq!(from_blob, from_slices);
    // By hand: the transition each update takes.
    let taken: Vec<Option<usize>> = BRAIN_SCRIPT
        .iter()
        .zip(&from_blob)
        .filter(|(op, _)| matches!(op, MOp::Update(_)))
        .map(|(_, st)| st.taken)
        .collect();
    assert_eq!(
        taken,
        [None, Some(0), Some(1), Some(2), None, Some(3), Some(2), None, Some(4), Some(1), Some(1), Some(5), Some(5)]
    );
    assert_eq!(from_blob[0].events, [Event::StateEntered { machine: 9, state: 0 }]);
    assert_eq!(from_blob[0].playing, Some(0));
    assert_eq!(
        state_events(&from_blob[2].events),
        [Event::StateExited { machine: 9, state: 0 }, Event::StateEntered { machine: 9, state: 1 }]
    );
    assert_eq!(from_blob[2].playing, Some(1));
    // The trigger is cleared by the transition that uses it.
    assert_eq!(from_blob[5].values[2], Some(ParamValue::Trigger(true)));
    assert_eq!(from_blob[6].values[2], Some(ParamValue::Trigger(false)));
    assert_eq!((from_blob[6].current, from_blob[6].playing), (2, Some(2)));
    assert_eq!(from_blob[14].current, 1, "onFinished with !grounded, speed >= 3, speed != 7");
    assert_eq!(from_blob[16].current, 1, "travel changes the state at once");
    assert_eq!(
        state_events(&from_blob[20].events)[..2],
        [Event::StateExited { machine: 9, state: 0 }, Event::StateEntered { machine: 9, state: 1 }]
    );
    assert_eq!(from_blob[22].result, Err(MachineError::WrongKind { kind: ParamKind::Float }));
    assert_eq!(from_blob[23].result, Err(MachineError::NoSuchParam));
    assert_eq!(from_blob[24].result, Err(MachineError::NoSuchState));
    assert_eq!(from_blob[25].result, Err(MachineError::WrongKind { kind: ParamKind::Bool }));
    assert_eq!(from_blob[25].values[3], None);
}

#[test]
fn machines_run_alike_from_blob_and_slices_f32() {
    machines_run_alike::<f32>();
}

#[test]
fn machines_run_alike_from_blob_and_slices_q16() {
    machines_run_alike::<Q16>();
}

// ---------------------------------------------------------------------------------------------
// The scene runtime over the blob.

fn scene_runs<S: Scalar>() {
    let bytes = blob(S::ENCODING, true);
    let asset = Asset::load(&bytes).unwrap();
    let mut scene: Scene<'_, S, 8, 4, 4> = Scene::new(&asset, level(&asset)).unwrap();
    let tol = tolerance::<S>();
    let mut q: EventQueue<64> = EventQueue::new();
    // Loaded: the sprite plays "idle", nothing written yet.
    assert_eq!(scene.sprite(HERO as usize).and_then(|sl| sl.player.current()), Some(0));
    assert_eq!(scene.nodes().position(COIN), Some(Vec2::new(S::ZERO, S::ZERO)));
    scene.update(s(0.25), &mut q);
    let y = scene.nodes().position(COIN).unwrap().y.to_f64();
    assert!((y + 3.0).abs() < tol, "bob autoplays: {y}");
    let events: Vec<Event> = q.drain().collect();
    assert!(events.contains(&Event::StateEntered { machine: 0, state: 0 }), "{events:?}");
    assert!(scene.machine(0).unwrap().is(0));
    // The machine drives the Hero's player.
    {
        let (sm, def) = scene.machine_parts(0).unwrap();
        sm.set_float_named(&def, "speed", s(12.0)).unwrap();
    }
    scene.update(s(0.1), &mut q);
    assert!(scene.machine(0).unwrap().is(1));
    assert_eq!(scene.sprite(HERO as usize).and_then(|sl| sl.player.current()), Some(1));
    q.drain().for_each(drop);
    // Back to idle, not grounded.
    {
        let (sm, def) = scene.machine_parts(0).unwrap();
        sm.set_float_named(&def, "speed", s(0.0)).unwrap();
        sm.set_bool_named(&def, "grounded", false).unwrap();
    }
    scene.update(s(0.1), &mut q);
    assert!(scene.machine(0).unwrap().is(0));
    assert_eq!(scene.sprite(HERO as usize).and_then(|sl| sl.player.current()), Some(0));
    q.drain().for_each(drop);
    // The Kinds clip from its start to 1.0 writes every track once: the animation request "run"
    // (its key at 1.0) plays on the Hero's player in step 2, which starts it in step 3; the state
    // request "jump" (its only key, at 1.5, is the value before it) travels the machine in step 2,
    // which enters it in step 4 and plays its animation.
    {
        let (a, clips, _) = scene.animator_parts(1).unwrap();
        a.play_named(&clips, "kinds", false).unwrap();
    }
    scene.update(s(1.0), &mut q);
    let events: Vec<Event> = q.drain().collect();
    let at = |e: Event| events.iter().position(|x| *x == e);
    let started_run = at(Event::SpriteStarted { player: HERO, animation: 1 });
    let exited_idle = at(Event::StateExited { machine: 0, state: 0 });
    let entered_jump = at(Event::StateEntered { machine: 0, state: 2 });
    assert!(started_run.is_some() && exited_idle.is_some() && entered_jump.is_some(), "{events:?}");
    assert!(started_run < exited_idle && exited_idle < entered_jump, "{events:?}");
    assert!(scene.machine(0).unwrap().is(2));
    assert_eq!(scene.sprite(HERO as usize).and_then(|sl| sl.player.current()), Some(2));
    assert_eq!(scene.nodes().text(LABEL), Some(WORLD));
}

#[test]
fn the_scene_runtime_wires_animators_machines_and_sprites_f32() {
    scene_runs::<f32>();
}

#[test]
fn the_scene_runtime_wires_animators_machines_and_sprites_q16() {
    scene_runs::<Q16>();
}

fn scene_errors<S: Scalar>() {
    let bytes = blob(S::ENCODING, true);
    let asset = Asset::load(&bytes).unwrap();
    let lv = level(&asset);
    let brains = asset.scene_named("brains").unwrap();
    assert_eq!(
        Scene::<S, 5, 8, 8>::new(&asset, lv).unwrap_err(),
        SceneError::Capacity { what: "nodes", needed: 6, capacity: 5 }
    );
    assert!(Scene::<S, 6, 2, 3>::new(&asset, lv).is_ok(), "exactly enough room");
    assert_eq!(
        Scene::<S, 8, 1, 8>::new(&asset, lv).unwrap_err(),
        SceneError::Capacity { what: "animators", needed: 2, capacity: 1 }
    );
    assert_eq!(
        Scene::<S, 8, 1, 8>::new(&asset, brains).unwrap_err(),
        SceneError::Capacity { what: "machines", needed: 2, capacity: 1 }
    );
    assert!(Scene::<S, 4, 2, 0>::new(&asset, brains).is_ok());
    // Three sprite players for one slot: the error counts all three.
    let sprites = asset.scene_named("sprites").unwrap();
    assert_eq!(
        Scene::<S, 3, 1, 0>::new(&asset, sprites).unwrap_err(),
        SceneError::Capacity { what: "sprites", needed: 3, capacity: 1 }
    );
    assert_eq!(
        Scene::<S, 3, 2, 0>::new(&asset, sprites).unwrap_err(),
        SceneError::Capacity { what: "sprites", needed: 3, capacity: 2 }
    );
    let three = Scene::<S, 3, 3, 0>::new(&asset, sprites).unwrap();
    assert_eq!(
        three.sprites().map(|sl| (sl.node, sl.player.current())).collect::<Vec<_>>(),
        [(0, None), (1, Some(1)), (2, None)]
    );
    assert_eq!(
        Scene::<S, 8, 4, 2>::new(&asset, lv).unwrap_err(),
        SceneError::Machine { machine: 0, error: MachineError::TooManyParams { needed: 3, capacity: 2 } }
    );
    // Without the sprite section, the AnimatedSprite node 2 shows a sprite the blob does not hold.
    let bare = blob(S::ENCODING, false);
    let bare_asset = Asset::load(&bare).unwrap();
    assert_eq!(
        Scene::<S, 8, 4, 4>::new(&bare_asset, level(&bare_asset)).unwrap_err(),
        SceneError::MissingSprite { node: 2 }
    );
    let shown = SceneError::MissingSprite { node: 2 }.to_string();
    assert!(shown.contains("node 2"), "{shown}");
}

#[test]
fn scene_new_refuses_what_does_not_fit_f32() {
    scene_errors::<f32>();
}

#[test]
fn scene_new_refuses_what_does_not_fit_q16() {
    scene_errors::<Q16>();
}

#[test]
fn scene_new_refuses_the_other_encoding() {
    let f = blob(ScalarEncoding::F32, true);
    let asset = Asset::load(&f).unwrap();
    let mismatch = EncodingMismatch { blob: ScalarEncoding::F32, requested: ScalarEncoding::Q16_16 };
    assert_eq!(Scene::<Q16, 8, 4, 4>::new(&asset, level(&asset)).unwrap_err(), SceneError::Encoding(mismatch));
    // A scene without sprites fails on its first machine instead.
    assert_eq!(
        Scene::<Q16, 8, 4, 4>::new(&asset, asset.scene_named("brains").unwrap()).unwrap_err(),
        SceneError::Encoding(mismatch)
    );
    assert_eq!(level(&asset).clips::<Q16>(0).unwrap_err(), mismatch);
    assert_eq!(level(&asset).machine::<Q16>(0).unwrap_err(), mismatch);
    let q = blob(ScalarEncoding::Q16_16, true);
    let asset = Asset::load(&q).unwrap();
    assert_eq!(
        Scene::<f32, 8, 4, 4>::new(&asset, level(&asset)).unwrap_err(),
        SceneError::Encoding(EncodingMismatch { blob: ScalarEncoding::Q16_16, requested: ScalarEncoding::F32 })
    );
}

#[test]
fn find_node_takes_paths_and_unique_names() {
    let bytes = blob(ScalarEncoding::Q16_16, true);
    let asset = Asset::load(&bytes).unwrap();
    let lv = level(&asset);
    let cases: [(&str, Option<usize>); 12] = [
        ("/Hero/Brain", Some(3)),
        ("Brain", Some(3)),
        ("Coin", Some(0)),
        ("/Coin", Some(0)),
        ("/Kinds", Some(5)),
        ("/Brain", None),
        ("/Coin/Brain", None),
        ("/Hero/Nope", None),
        ("Nope", None),
        ("", None),
        ("/", None),
        ("coin", None),
    ];
    for (path, want) in cases {
        assert_eq!(lv.find_node(path), want, "{path:?}");
    }
    let brains = asset.scene_named("brains").unwrap();
    assert_eq!(brains.find_node("Brain"), None, "two nodes are called Brain");
    assert_eq!(brains.find_node("/Hero/Brain"), Some(1));
    assert_eq!(brains.find_node("/Other/Brain"), Some(3));
    assert_eq!(brains.find_node("Other"), Some(2));
    assert_eq!(brains.machine_at(3), Some(1));
    assert_eq!((brains.machine_sprite(0), brains.machine_sprite(1)), (Some(0), None));
}

#[test]
fn blob_scene_names_nodes_and_properties() {
    let bytes = blob(ScalarEncoding::F32, true);
    let asset = Asset::load(&bytes).unwrap();
    let lv = level(&asset);
    assert_eq!(lv.name(), "level");
    assert_eq!((lv.node_count(), lv.animator_count(), lv.machine_count()), (6, 2, 1));
    assert_eq!(
        lv.node(2),
        Some(SceneNode {
            name: "Hero",
            kind: "AnimatedSprite",
            parent: None,
            sprite: Some("hero"),
            animation: Some("idle")
        })
    );
    assert_eq!(
        lv.node(3),
        Some(SceneNode { name: "Brain", kind: "StateMachine", parent: Some(2), sprite: None, animation: None })
    );
    assert_eq!(lv.node(6), None);
    assert_eq!((lv.animator_node(1), lv.animator_at(5), lv.animator_at(0)), (Some(5), Some(1), None));
    assert_eq!((lv.machine_node(0), lv.machine_at(3), lv.machine_sprite(0)), (Some(3), Some(0), Some(2)));
    assert_eq!(lv.property_name(property::POSITION_Y), Some(PropertyName::Builtin("position.y")));
    assert_eq!(lv.property_name(property::Z_INDEX), Some(PropertyName::Builtin("zIndex")));
    assert_eq!(lv.property_name(property::SCRIPT), Some(PropertyName::Script("bonus")));
    assert_eq!(lv.property_name(property::SCRIPT + 1), None);
    assert_eq!(lv.property_name(0), None);
    assert_eq!(lv.property_name(property::USER), None);
    assert_eq!(lv.script_property("bonus"), Some(property::SCRIPT));
    assert_eq!(lv.script_property("malus"), None);
    assert_eq!(asset.scenes().map(|sc| sc.name()).collect::<Vec<_>>(), ["level", "brains", "sprites"]);
    assert_eq!(asset.scene(1).map(|sc| sc.name()), Some("brains"));
    assert_eq!(asset.scene(3), None);
    assert_eq!(asset.scene_named("nope"), None);
}

/// Every single-word change to the scene records that the loader still accepts runs without a
/// panic: `Scene::new`, updates, control calls through the trace runner.
fn mutated_scenes_never_panic<S: Scalar>() {
    let good = blob(S::ENCODING, true);
    let asset = Asset::load(&good).unwrap();
    // The scene sections' bodies, found in the blob by their bytes.
    let bodies: Vec<&[u8]> = (0..asset.blob().section_count())
        .filter_map(|i| asset.blob().section(i))
        .filter(|(k, _)| *k == ossicle_format::SectionKind::Scene)
        .map(|(_, b)| b)
        .collect();
    let script = "update 0.1\nplay Anim bob\nplay Kinds kinds\nset Brain speed 12\ntrigger Brain jump\nupdate 0.3 5\n\
                  seek Kinds 1.5\napply Kinds blink 0.2\ntravel Brain run\nsprite Hero jump\nupdate 0.7 3\nstop Anim reset\n";
    let mut accepted = 0;
    for body in bodies {
        let start = good.windows(body.len()).position(|w| w == body).unwrap();
        for at in (start..start + body.len()).step_by(1) {
            for mask in [0x01u8, 0x02, 0x10, 0x80, 0xFF] {
                let mut b = good.clone();
                b[at] ^= mask;
                let crc = ossicle_format::checksum(&b[..12], &b[16..]);
                b[12..16].copy_from_slice(&crc.to_le_bytes());
                let Ok(asset) = Asset::load(&b) else { continue };
                accepted += 1;
                for scene in asset.scenes() {
                    let _ = scene.find_node("/Hero/Brain");
                    let Ok(mut sc) = Scene::<S, 8, 4, 4>::new(&asset, scene) else { continue };
                    let mut out = String::new();
                    let _ = ossicle::scene::trace::run(&mut sc, script, &mut out);
                }
            }
        }
    }
    assert!(accepted > 100, "only {accepted} variants were accepted");
}

#[test]
fn mutated_scenes_never_panic_f32() {
    mutated_scenes_never_panic::<f32>();
}

#[test]
fn mutated_scenes_never_panic_q16() {
    mutated_scenes_never_panic::<Q16>();
}
