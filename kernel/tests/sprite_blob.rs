//! Sprites read from a blob: `BlobAnimations` plays exactly like the same animations held in RAM
//! (`SliceSource`), in f32 and Q16.16, and `BlobSprite` exposes the frames' pixels and geometry.

use ossicle::asset::{Asset, EncodingMismatch, ScalarEncoding};
use ossicle::event::{Event, EventQueue};
use ossicle::scalar::{Scalar, Q16};
use ossicle::sprite::{Frames, PlayMode, Rect, SliceSource, SpriteAnimation, SpritePlayer, SpriteSource, Transparency};
use ossicle_format::sprite::{
    AnimationRecord, FrameRecord, PixelFormat, SpriteBody, ANIM_FLAG_DURATIONS, ANIM_FLAG_EVENTS, ANIM_FLAG_LIST,
    ANIM_FLAG_LOOP,
};
use ossicle_format::BlobWriter;

/// A blob with one 8×8 RGB565 sprite of 4 frames (each a 1×1 pixel at (k, k)) and animations:
/// 0 "run": frames 0..=3 at 8 fps, looping; 1 "hit": frames [2, 1, 2] ping-pong, repeat 3, with
/// durations 0.25/0.5/0.125 and events "a" on its first frame and "b","c" on its last; 2 "back":
/// frames 3..=1 (counting down) at 4 fps; 3 "hold": frame 0 at fps 0.
fn blob(encoding: ScalarEncoding) -> Vec<u8> {
    let word = |v: f64| encoding.encode_f64(v).unwrap();
    let mut w = BlobWriter::new(encoding);
    let name = w.intern("hero");
    let (run, hit, back, hold) = (w.intern("run"), w.intern("hit"), w.intern("back"), w.intern("hold"));
    let (a, b, c) = (w.intern("a"), w.intern("b"), w.intern("c"));
    let frames: Vec<u8> = (0..4u16)
        .flat_map(|k| {
            FrameRecord { x: k as i16, y: k as i16, w: 1, h: 1, flags: 0, offset: 2 * u32::from(k), len: 2 }.to_bytes()
        })
        .collect();
    let pixels: Vec<u8> = (0..4u16).flat_map(|k| (0x1000 * k + 1).to_le_bytes()).collect();
    let words: Vec<u32> = vec![
        2,
        1,
        2, // list @0
        word(0.25),
        word(0.5),
        word(0.125), // durations @3
        12,
        1,
        13,
        0,
        13,
        2, // event pairs @6
        a,
        b,
        c, // ids @12
    ];
    let anims = [
        AnimationRecord {
            name: run,
            frame_count: 4,
            flags: ANIM_FLAG_LOOP,
            start: 0,
            end: 3,
            frame_time: word(1.0 / 8.0),
            ..Default::default()
        },
        AnimationRecord {
            name: hit,
            frame_count: 3,
            flags: 2 | ANIM_FLAG_LIST | ANIM_FLAG_DURATIONS | ANIM_FLAG_EVENTS,
            start: 0,
            end: 0,
            frame_time: word(1.0 / 10.0),
            repeat: 3,
            durations: 3,
            events: 6,
        },
        AnimationRecord {
            name: back,
            frame_count: 3,
            flags: 0,
            start: 3,
            end: 1,
            frame_time: word(1.0 / 4.0),
            ..Default::default()
        },
        AnimationRecord {
            name: hold,
            frame_count: 1,
            flags: 0,
            start: 0,
            end: 0,
            frame_time: word(0.0),
            ..Default::default()
        },
    ];
    let animations: Vec<u8> = anims.iter().flat_map(|a| a.to_bytes()).collect();
    let words: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    w.add_sprite(&SpriteBody {
        name,
        width: 8,
        height: 8,
        format: PixelFormat::Rgb565Le as u8,
        transparency: Transparency::None as u8,
        key: 0,
        palette: &[],
        frames: &frames,
        pixels: &pixels,
        animations: &animations,
        words: &words,
    })
    .unwrap();
    w.finish().unwrap()
}

/// Runs the same script of control calls and updates on a player over `src` and returns every event
/// and the frame shown after each update.
fn script<S: Scalar, Src: SpriteSource<S>>(src: &Src) -> (Vec<Event>, Vec<Option<u32>>) {
    let mut p: SpritePlayer<'_, S> = SpritePlayer::new(5);
    let mut q: EventQueue<256> = EventQueue::new();
    let mut shown = Vec::new();
    let mut tick = |p: &mut SpritePlayer<'_, S>, q: &mut EventQueue<256>, dt: f64, n: usize| {
        for _ in 0..n {
            p.update(src, S::from_f64(dt), q);
            shown.push(p.source_frame(src));
        }
    };
    p.play_named(src, "run", false).unwrap();
    tick(&mut p, &mut q, 0.0625, 20);
    p.play_named(src, "hit", false).unwrap();
    tick(&mut p, &mut q, 0.125, 20);
    p.play(src, 2, true).unwrap();
    tick(&mut p, &mut q, 0.3, 5);
    p.set_speed(S::from_f64(-1.0));
    p.play(src, 0, true).unwrap();
    tick(&mut p, &mut q, 0.1, 10);
    p.set_speed(S::ONE);
    p.play_named(src, "hold", false).unwrap();
    tick(&mut p, &mut q, 1.0, 2);
    assert_eq!(p.next_change(src), None);
    p.stop(src);
    tick(&mut p, &mut q, 0.0, 1);
    assert_eq!(q.dropped(), 0);
    (q.drain().collect(), shown)
}

fn same_as_slices<S: Scalar>(encoding: ScalarEncoding) {
    let bytes = blob(encoding);
    let asset = Asset::load(&bytes).unwrap();
    let hero = asset.sprite_named("hero").unwrap();
    let from_blob = hero.animations::<S>().unwrap();
    let ids = |n: &str| asset.find_string(n).unwrap();
    let (a, b, c) = (ids("a"), ids("b"), ids("c"));
    let durations = [S::from_f64(0.25), S::from_f64(0.5), S::from_f64(0.125)];
    let events: [&[u32]; 3] = [&[a], &[], &[b, c]];
    let anims = [
        SpriteAnimation::new("run", Frames::Range { start: 0, end: 3 }, S::from_f64(8.0)).looping(true),
        SpriteAnimation::new("hit", Frames::List(&[2, 1, 2]), S::from_f64(10.0))
            .mode(PlayMode::PingPong)
            .repeat(3)
            .durations(&durations)
            .events(&events),
        SpriteAnimation::new("back", Frames::Range { start: 3, end: 1 }, S::from_f64(4.0)),
        SpriteAnimation::new("hold", Frames::Range { start: 0, end: 0 }, S::ZERO),
    ];
    let in_ram = SliceSource::new(&anims);
    assert_eq!(from_blob.animation_count(), 4);
    for i in 0..5 {
        assert_eq!(from_blob.animation(i), in_ram.animation(i), "animation {i}");
        for k in 0..5 {
            assert_eq!(from_blob.frame(i, k), in_ram.frame(i, k), "animation {i} frame {k}");
            for e in 0..3 {
                assert_eq!(from_blob.frame_event(i, k, e), in_ram.frame_event(i, k, e));
            }
        }
    }
    assert_eq!(from_blob.find("back"), Some(2));
    assert_eq!(from_blob.find("nope"), None);
    assert_eq!(from_blob.name(1), Some("hit"));
    let (blob_events, blob_frames) = script::<S, _>(&from_blob);
    let (ram_events, ram_frames) = script::<S, _>(&in_ram);
    assert_eq!(blob_events, ram_events);
    assert_eq!(blob_frames, ram_frames);
    // The hit animation's events appear in the trace: frame 0 carries "a", frame 2 "b" then "c".
    assert!(blob_events.contains(&Event::SpriteFrameEvent { player: 5, animation: 1, frame: 2, name: c }));
    // Hand-checked sequence of the ping-pong list [2, 1, 2] with repeat 3 (each direction is one
    // repeat): 2 1 2 | 1 2 (turn frames once) | 1 2 -> relative frames 0 1 2 1 0 1 2.
    let hit_frames: Vec<u32> = blob_events
        .iter()
        .filter_map(|e| match *e {
            Event::SpriteFrameChanged { animation: 1, frame, .. } => Some(frame),
            _ => None,
        })
        .collect();
    assert_eq!(hit_frames, [0, 1, 2, 1, 0, 1, 2]);
}

#[test]
fn blob_animations_play_like_the_same_animations_in_ram_f32() {
    same_as_slices::<f32>(ScalarEncoding::F32);
}

#[test]
fn blob_animations_play_like_the_same_animations_in_ram_q16() {
    same_as_slices::<Q16>(ScalarEncoding::Q16_16);
}

#[test]
fn frames_expose_pixels_and_geometry() {
    let bytes = blob(ScalarEncoding::Q16_16);
    let asset = Asset::load(&bytes).unwrap();
    assert_eq!(asset.sprites().count(), 1);
    assert!(asset.sprite(1).is_none());
    assert!(asset.sprite_named("villain").is_none());
    let hero = asset.sprite(0).unwrap();
    assert_eq!((hero.name(), hero.width(), hero.height(), hero.frame_count()), ("hero", 8, 8, 4));
    assert_eq!(
        (hero.format(), hero.transparency(), hero.pixel_bytes()),
        (PixelFormat::Rgb565Le, Transparency::None, 8)
    );
    let f = hero.frame(3).unwrap();
    assert_eq!((f.x, f.y, f.width, f.height, f.data), (3, 3, 1, 1, &[0x01, 0x30][..]));
    assert_eq!(hero.frame_rect(2, 10, -4), Some(Rect { x: 12, y: -2, w: 1, h: 1 }));
    assert!(hero.frame(4).is_none() && hero.frame_rect(4, 0, 0).is_none());
    assert_eq!(
        hero.animations::<f32>().unwrap_err(),
        EncodingMismatch { blob: ScalarEncoding::Q16_16, requested: ScalarEncoding::F32 }
    );
}
