//! EVAC: every rejection with its own error variant and byte offset, truncation at every byte,
//! round trips, a hand-computed file against the writer's bytes, and binding tracks to a skeleton.
//!
//! Byte streams are built here by hand (the `W` writer below), never with the code under test.

use ossicle_host::ir::{BoneIr, BoneTrackIr, ChannelKey, Origin, SkelClipIr, SkeletonIr, Transform3};
use ossicle_host::sources::evac::{
    self, bind, bind_indices, read, write, BindError, Channel, EvacError, Field, MAX_FILE_BYTES, MAX_KEYS_PER_CHANNEL,
};
use std::f32::consts::FRAC_1_SQRT_2;
use std::path::{Path, PathBuf};

/// A little-endian byte writer for hand-made EVAC streams.
#[derive(Default, Clone)]
struct W(Vec<u8>);

impl W {
    fn raw(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
    fn u32(self, v: u32) -> Self {
        self.raw(&v.to_le_bytes())
    }
    fn f32(self, v: f32) -> Self {
        self.raw(&v.to_le_bytes())
    }
    fn f32_bits(self, bits: u32) -> Self {
        self.raw(&bits.to_le_bytes())
    }
    fn str(self, s: &str) -> Self {
        self.u32(s.len() as u32).raw(s.as_bytes())
    }
    fn key(self, t: f32, v: &[f32]) -> Self {
        v.iter().fold(self.f32(t), |w, &c| w.f32(c))
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    /// Magic, version 1, the track count, duration, sample rate, loop flag and clip name.
    fn header(tracks: u32, duration: f32, rate: f32, looping: u32, name: &str) -> Self {
        W::default().raw(b"EVAC").u32(1).u32(tracks).f32(duration).f32(rate).u32(looping).str(name)
    }
}

/// Header of one track, duration 2, clip "walk" (bytes 0..32), then bone "hip" (32..39): the
/// position count is at 39, the first position key at 43.
fn one_track() -> W {
    W::header(1, 2.0, 30.0, 1, "walk").str("hip")
}
const POS_COUNT: usize = 39;
const POS_KEY0: usize = 43;

/// A small valid file: two tracks, keys in every channel, a multi-byte bone name.
fn small_valid() -> W {
    W::header(2, 1.0, 30.0, 1, "idle")
        .str("hip")
        .u32(2)
        .key(0.0, &[1.0, 2.0, 3.0])
        .key(1.0, &[4.0, 5.0, 6.0])
        .u32(1)
        .key(0.5, &[0.0, 0.0, 0.0, 1.0])
        .u32(1)
        .key(0.25, &[1.0, 1.0, 1.0])
        .str("épaule")
        .u32(0)
        .u32(2)
        .key(0.0, &[0.0, FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2])
        .key(0.75, &[0.0, 1.0, 0.0, 0.0])
        .u32(0)
}

fn err(bytes: &W) -> EvacError {
    match read(&bytes.0) {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => e,
    }
}

const POS0: Field = Field::KeyCount { track: 0, channel: Channel::Position };
fn pos_time(key: u32) -> Field {
    Field::KeyTime { track: 0, channel: Channel::Position, key }
}
fn pos_value(key: u32) -> Field {
    Field::KeyValue { track: 0, channel: Channel::Position, key }
}

// ---- valid input ----

#[test]
fn small_valid_file_reads() {
    let clip = read(&small_valid().0).unwrap();
    assert_eq!(clip.name, "idle");
    assert_eq!((clip.duration, clip.sample_rate, clip.looping), (1.0, 30.0, true));
    assert_eq!(clip.skeleton, None);
    assert_eq!(clip.tracks.len(), 2);
    let hip = &clip.tracks[0];
    assert_eq!(hip.bone, "hip");
    assert_eq!(
        hip.translation,
        vec![ChannelKey { time: 0.0, value: [1.0, 2.0, 3.0] }, ChannelKey { time: 1.0, value: [4.0, 5.0, 6.0] }]
    );
    assert_eq!(hip.rotation, vec![ChannelKey { time: 0.5, value: [0.0, 0.0, 0.0, 1.0] }]);
    assert_eq!(hip.scale, vec![ChannelKey { time: 0.25, value: [1.0, 1.0, 1.0] }]);
    let shoulder = &clip.tracks[1];
    assert_eq!(shoulder.bone, "épaule");
    assert!(shoulder.translation.is_empty() && shoulder.scale.is_empty());
    assert_eq!(shoulder.rotation[0].value, [0.0, f64::from(FRAC_1_SQRT_2), 0.0, f64::from(FRAC_1_SQRT_2)]);
}

#[test]
fn empty_clip_and_edge_times_read() {
    // No tracks, empty name.
    let clip = read(&W::header(0, 0.0, 0.0, 0, "").0).unwrap();
    assert!(clip.tracks.is_empty() && !clip.looping && clip.name.is_empty());
    // Keys at exactly 0 (also -0.0) and exactly the duration are inside [0, duration].
    let w = one_track().u32(2).key(-0.0, &[0.0; 3]).key(2.0, &[0.0; 3]).u32(0).u32(0);
    let clip = read(&w.0).unwrap();
    assert_eq!(clip.tracks[0].translation[1].time, 2.0);
}

#[test]
fn hand_computed_file_equals_write_output() {
    // Clip "a", 0.5 s, 30 Hz, not looping; bone "b" with one position key (t 0: 1, 0, 0), one
    // rotation key (t 0.5: identity) and no scale keys. Written out by hand from the layout.
    #[rustfmt::skip]
    let expected: Vec<u8> = vec![
        0x45, 0x56, 0x41, 0x43,             // "EVAC"
        0x01, 0x00, 0x00, 0x00,             // version 1
        0x01, 0x00, 0x00, 0x00,             // 1 track
        0x00, 0x00, 0x00, 0x3F,             // duration 0.5
        0x00, 0x00, 0xF0, 0x41,             // sample rate 30.0
        0x00, 0x00, 0x00, 0x00,             // loop flag 0
        0x01, 0x00, 0x00, 0x00, b'a',       // clip name "a"
        0x01, 0x00, 0x00, 0x00, b'b',       // bone name "b"
        0x01, 0x00, 0x00, 0x00,             // 1 position key
        0x00, 0x00, 0x00, 0x00,             //   time 0
        0x00, 0x00, 0x80, 0x3F,             //   x 1.0
        0x00, 0x00, 0x00, 0x00,             //   y 0
        0x00, 0x00, 0x00, 0x00,             //   z 0
        0x01, 0x00, 0x00, 0x00,             // 1 rotation key
        0x00, 0x00, 0x00, 0x3F,             //   time 0.5
        0x00, 0x00, 0x00, 0x00,             //   x 0
        0x00, 0x00, 0x00, 0x00,             //   y 0
        0x00, 0x00, 0x00, 0x00,             //   z 0
        0x00, 0x00, 0x80, 0x3F,             //   w 1.0
        0x00, 0x00, 0x00, 0x00,             // 0 scale keys
    ];
    assert_eq!(expected.len(), 82);
    let clip = SkelClipIr {
        name: "a".into(),
        duration: 0.5,
        sample_rate: 30.0,
        looping: false,
        tracks: vec![BoneTrackIr::linear(
            "b",
            vec![ChannelKey { time: 0.0, value: [1.0, 0.0, 0.0] }],
            vec![ChannelKey { time: 0.5, value: [0.0, 0.0, 0.0, 1.0] }],
            vec![],
        )],
        skeleton: None,
        origin: Origin::default(),
        events: vec![],
    };
    assert_eq!(write(&clip).unwrap(), expected);
    assert_eq!(read(&expected).unwrap(), clip);
}

// ---- round trips ----

#[test]
fn bytes_round_trip_exactly() {
    let bytes = small_valid().0;
    assert_eq!(write(&read(&bytes).unwrap()).unwrap(), bytes);
    // Subnormals, -0.0, extremes of f32 and a long name keep their bits.
    let w = W::header(1, f32::MAX, -0.0, 0, &"n".repeat(300))
        .str("")
        .u32(3)
        .key(0.0, &[f32::MIN_POSITIVE / 4.0, -0.0, f32::MIN])
        .key(f32::from_bits(1), &[f32::MAX, 1e-38, -7.25])
        .key(f32::MAX, &[0.1, 0.2, 0.3])
        .u32(1)
        .key(3.0, &[-0.0, 0.0, 0.0, f32::from_bits(1)])
        .u32(0);
    assert_eq!(write(&read(&w.0).unwrap()).unwrap(), w.0);
}

fn sample_clip() -> SkelClipIr {
    let k3 = |t: f64, v: [f64; 3]| ChannelKey { time: t, value: v };
    SkelClipIr {
        name: "Run cycle".into(),
        duration: 1.25,
        sample_rate: 60.0,
        looping: true,
        tracks: vec![
            BoneTrackIr::linear(
                "root",
                vec![k3(0.0, [0.0, 1.5, -2.0]), k3(0.625, [0.125, 1.5, -1.0]), k3(1.25, [0.25, 1.5, 0.0])],
                vec![ChannelKey { time: 0.0, value: [0.0, 0.0, 0.0, 1.0] }],
                vec![k3(0.0, [1.0; 3])],
            ),
            BoneTrackIr::linear(
                "spine.001",
                vec![],
                vec![
                    ChannelKey { time: 0.0, value: [0.5, 0.5, 0.5, 0.5] },
                    ChannelKey { time: 1.0, value: [-0.5, 0.5, -0.5, 0.5] },
                ],
                vec![],
            ),
        ],
        skeleton: None,
        origin: Origin::default(),
        events: vec![],
    }
}

#[test]
fn ir_round_trips_exactly() {
    let clip = sample_clip();
    assert_eq!(read(&write(&clip).unwrap()).unwrap(), clip);
}

#[test]
fn write_rounds_f64_to_f32() {
    let mut clip = sample_clip();
    clip.tracks[0].translation[1].value[0] = 0.1;
    let back = read(&write(&clip).unwrap()).unwrap();
    assert_eq!(back.tracks[0].translation[1].value[0], f64::from(0.1f32));
}

// ---- every rejection of read, with its variant and offset ----

#[test]
fn rejects_file_over_128_mib() {
    let mut bytes = one_track().u32(0).u32(0).u32(0).0;
    bytes.resize(MAX_FILE_BYTES + 1, 0);
    assert_eq!(read(&bytes), Err(EvacError::TooLarge { offset: MAX_FILE_BYTES, len: MAX_FILE_BYTES as u64 + 1 }));
}

#[test]
fn rejects_bad_magic() {
    let w = W::default().raw(b"EVAD").u32(1).u32(0).f32(0.0).f32(0.0).u32(0).str("");
    assert_eq!(err(&w), EvacError::BadMagic { offset: 0, found: *b"EVAD" });
    let w = W::default().raw(b"evac").u32(1);
    assert_eq!(err(&w).offset(), 0);
}

#[test]
fn rejects_unknown_version() {
    for version in [0, 2, u32::MAX] {
        let w = W::default().raw(b"EVAC").u32(version).u32(0).f32(0.0).f32(0.0).u32(0).str("");
        assert_eq!(err(&w), EvacError::UnknownVersion { offset: 4, version });
    }
}

#[test]
fn rejects_loop_flag_other_than_0_or_1() {
    for value in [2, 0x100, u32::MAX] {
        assert_eq!(err(&W::header(0, 1.0, 30.0, value, "x")), EvacError::BadLoopFlag { offset: 20, value });
    }
}

#[test]
fn rejects_non_finite_duration() {
    let e = err(&W::header(0, f32::INFINITY, 30.0, 0, ""));
    assert_eq!(e, EvacError::NonFinite { offset: 12, field: Field::Duration, bits: f32::INFINITY.to_bits() });
    let nan = W::default().raw(b"EVAC").u32(1).u32(0).f32_bits(0x7fc0_0001).f32(30.0).u32(0).str("");
    assert_eq!(err(&nan), EvacError::NonFinite { offset: 12, field: Field::Duration, bits: 0x7fc0_0001 });
}

#[test]
fn rejects_non_finite_sample_rate() {
    let e = err(&W::header(0, 1.0, f32::NEG_INFINITY, 0, ""));
    assert_eq!(e, EvacError::NonFinite { offset: 16, field: Field::SampleRate, bits: f32::NEG_INFINITY.to_bits() });
    let e = err(&W::header(0, 1.0, f32::NAN, 0, ""));
    assert!(matches!(e, EvacError::NonFinite { offset: 16, field: Field::SampleRate, .. }), "{e:?}");
}

#[test]
fn rejects_non_finite_key_time() {
    let w = one_track().u32(1).key(f32::NAN, &[0.0; 3]).u32(0).u32(0);
    assert!(matches!(err(&w), EvacError::NonFinite { offset: POS_KEY0, field, .. } if field == pos_time(0)));
}

#[test]
fn rejects_non_finite_key_component() {
    // Position key 1's z (offset: key 1 starts at POS_KEY0 + 16, its z 12 bytes later).
    let w = one_track().u32(2).key(0.0, &[0.0; 3]).key(1.0, &[0.0, 0.0, f32::INFINITY]).u32(0).u32(0);
    let e = err(&w);
    assert_eq!(
        e,
        EvacError::NonFinite { offset: POS_KEY0 + 16 + 12, field: pos_value(1), bits: f32::INFINITY.to_bits() }
    );
    // A rotation component.
    let w = one_track().u32(0).u32(1).key(0.0, &[0.0, f32::NAN, 0.0, 1.0]).u32(0);
    let rot = Field::KeyValue { track: 0, channel: Channel::Rotation, key: 0 };
    assert!(
        matches!(err(&w), EvacError::NonFinite { offset, field, .. } if offset == POS_COUNT + 4 + 4 + 4 + 4 && field == rot)
    );
}

#[test]
fn rejects_negative_duration() {
    assert_eq!(err(&W::header(0, -1.0, 30.0, 0, "")), EvacError::NegativeDuration { offset: 12, value: -1.0 });
}

#[test]
fn rejects_malformed_utf8_in_clip_name() {
    // "ab" then a lone continuation byte: the bad byte is the name's third, at 28 + 2.
    let w = W::default().raw(b"EVAC").u32(1).u32(0).f32(1.0).f32(30.0).u32(0).u32(4).raw(b"ab\x80c");
    assert_eq!(err(&w), EvacError::BadUtf8 { offset: 30, field: Field::ClipName });
}

#[test]
fn rejects_malformed_utf8_in_bone_name() {
    // Clip name "walk" ends at 32; the bone name's bytes start at 36; a truncated 2-byte sequence
    // at its end.
    let w = W::header(1, 2.0, 30.0, 0, "walk").u32(2).raw(b"a\xC3").u32(0).u32(0).u32(0);
    assert_eq!(err(&w), EvacError::BadUtf8 { offset: 37, field: Field::BoneName { track: 0 } });
}

#[test]
fn rejects_time_below_zero() {
    let w = one_track().u32(1).key(-0.001, &[0.0; 3]).u32(0).u32(0);
    assert_eq!(
        err(&w),
        EvacError::TimeOutOfRange { offset: POS_KEY0, field: pos_time(0), time: -0.001, duration: 2.0 }
    );
}

#[test]
fn rejects_time_after_duration() {
    // Second scale key of track 0 (no position or rotation keys): count at 47, keys at 51, 67.
    let w = one_track().u32(0).u32(0).u32(2).key(1.0, &[1.0; 3]).key(2.5, &[1.0; 3]);
    let field = Field::KeyTime { track: 0, channel: Channel::Scale, key: 1 };
    assert_eq!(err(&w), EvacError::TimeOutOfRange { offset: 67, field, time: 2.5, duration: 2.0 });
}

#[test]
fn rejects_equal_times() {
    let w = one_track().u32(2).key(0.5, &[0.0; 3]).key(0.5, &[0.0; 3]).u32(0).u32(0);
    assert_eq!(
        err(&w),
        EvacError::TimeNotIncreasing { offset: POS_KEY0 + 16, field: pos_time(1), time: 0.5, previous: 0.5 }
    );
}

#[test]
fn rejects_decreasing_times() {
    // Rotation keys: count at 43, keys (20 bytes each) at 47, 67, 87.
    let w = one_track()
        .u32(0)
        .u32(3)
        .key(0.0, &[0.0, 0.0, 0.0, 1.0])
        .key(1.0, &[0.0, 0.0, 0.0, 1.0])
        .key(0.5, &[0.0, 0.0, 0.0, 1.0])
        .u32(0);
    let field = Field::KeyTime { track: 0, channel: Channel::Rotation, key: 2 };
    assert_eq!(err(&w), EvacError::TimeNotIncreasing { offset: 87, field, time: 0.5, previous: 1.0 });
}

#[test]
fn rejects_zero_quaternion() {
    // The second rotation key's components start at 47 + 20 + 4.
    let w = one_track().u32(0).u32(2).key(0.0, &[0.0, 0.0, 0.0, 1.0]).key(1.0, &[0.0, -0.0, 0.0, -0.0]).u32(0);
    let field = Field::KeyValue { track: 0, channel: Channel::Rotation, key: 1 };
    assert_eq!(err(&w), EvacError::ZeroQuaternion { offset: 71, field });
}

#[test]
fn zero_position_and_scale_are_fine() {
    let w = one_track().u32(1).key(0.0, &[0.0; 3]).u32(0).u32(1).key(0.0, &[0.0; 3]);
    assert!(read(&w.0).is_ok());
}

#[test]
fn rejects_channel_over_a_million_keys() {
    let count = MAX_KEYS_PER_CHANNEL + 1;
    let w = one_track().u32(count).u32(0).u32(0);
    assert_eq!(err(&w), EvacError::TooManyKeys { offset: POS_COUNT, field: POS0, count });
    // Exactly the limit passes that check (and is then short of data).
    let w = one_track().u32(MAX_KEYS_PER_CHANNEL).u32(0).u32(0);
    assert!(matches!(err(&w), EvacError::CountExceedsData { offset: POS_COUNT, .. }));
}

#[test]
fn rejects_track_count_larger_than_the_file_can_hold() {
    // One empty track takes 16 bytes; 16 remain after the clip name, so 2 tracks cannot fit.
    let w = W::header(2, 1.0, 30.0, 0, "c").str("").u32(0).u32(0).u32(0);
    assert_eq!(
        err(&w),
        EvacError::CountExceedsData { offset: 8, field: Field::TrackCount, count: 2, min_bytes: 32, remaining: 16 }
    );
    // A hostile count is refused without reserving memory for it.
    let w = W::header(u32::MAX, 1.0, 30.0, 0, "c");
    assert!(matches!(err(&w), EvacError::CountExceedsData { offset: 8, count: u32::MAX, remaining: 0, .. }));
}

#[test]
fn rejects_key_count_larger_than_the_file_can_hold() {
    // Two position keys announced, one key (16 bytes) and the two other counts (8) remain: 24 < 32.
    let w = one_track().u32(2).key(0.0, &[0.0; 3]).u32(0).u32(0);
    assert_eq!(
        err(&w),
        EvacError::CountExceedsData { offset: POS_COUNT, field: POS0, count: 2, min_bytes: 32, remaining: 24 }
    );
}

#[test]
fn rejects_trailing_bytes() {
    let mut w = small_valid();
    let end = w.len();
    w = w.raw(&[0]);
    assert_eq!(err(&w), EvacError::TrailingBytes { offset: end, count: 1 });
    let w = W::header(0, 1.0, 30.0, 0, "x").raw(b"EVAC");
    assert_eq!(err(&w), EvacError::TrailingBytes { offset: 29, count: 4 });
}

// ---- truncation ----

#[test]
fn truncation_names_the_field() {
    let full = small_valid().0;
    let t = |len: usize| read(&full[..len]).unwrap_err();
    let trunc = |offset, field, needed, available| EvacError::Truncated { offset, field, needed, available };
    assert_eq!(t(0), trunc(0, Field::Magic, 4, 0));
    assert_eq!(t(3), trunc(0, Field::Magic, 4, 3));
    assert_eq!(t(6), trunc(4, Field::Version, 4, 2));
    assert_eq!(t(8), trunc(8, Field::TrackCount, 4, 0));
    assert_eq!(t(13), trunc(12, Field::Duration, 4, 1));
    assert_eq!(t(16), trunc(16, Field::SampleRate, 4, 0));
    assert_eq!(t(22), trunc(20, Field::LoopFlag, 4, 2));
    assert_eq!(t(27), trunc(24, Field::ClipNameLength, 4, 3));
    assert_eq!(t(30), trunc(28, Field::ClipName, 4, 2));
    // The clip name "idle" ends at 32; 2 tracks need 32 bytes, so the cut is seen at the track
    // count until 32 bytes of tracks remain.
    assert!(matches!(t(40), EvacError::CountExceedsData { offset: 8, field: Field::TrackCount, .. }));
    // With the whole file but the last 4 bytes (track 1's empty scale count).
    let last = full.len() - 4;
    assert_eq!(t(last), trunc(last, Field::KeyCount { track: 1, channel: Channel::Scale }, 4, 0));
    // Cut inside track 1's second rotation key's w: the rotation count (2 keys, 40 bytes, at
    // last - 44) is found short first, so key bytes are never read past the end.
    assert_eq!(
        t(last - 3),
        EvacError::CountExceedsData {
            offset: last - 44,
            field: Field::KeyCount { track: 1, channel: Channel::Rotation },
            count: 2,
            min_bytes: 40,
            remaining: 37
        }
    );
}

#[test]
fn truncation_names_bone_name_and_key_count() {
    // One track with a 20-byte bone name and empty channels: 32 + 24 + 12 = 68 bytes.
    let full = W::header(1, 2.0, 30.0, 0, "walk").str(&"b".repeat(20)).u32(0).u32(0).u32(0).0;
    assert_eq!(full.len(), 68);
    let t = |len: usize| read(&full[..len]).unwrap_err();
    // Fewer than 16 bytes after the clip name: the track count cannot be right.
    assert_eq!(
        t(40),
        EvacError::CountExceedsData { offset: 8, field: Field::TrackCount, count: 1, min_bytes: 16, remaining: 8 }
    );
    let trunc = |offset, field, needed, available| EvacError::Truncated { offset, field, needed, available };
    assert_eq!(t(50), trunc(36, Field::BoneName { track: 0 }, 20, 14));
    assert_eq!(t(58), trunc(56, Field::KeyCount { track: 0, channel: Channel::Position }, 4, 2));
    assert_eq!(t(63), trunc(60, Field::KeyCount { track: 0, channel: Channel::Rotation }, 4, 3));
    // A bone name length cut short (a track of 16 bytes whose name claims more than is left).
    let w = W::header(1, 2.0, 30.0, 0, "walk").u32(13).raw(&[b'a'; 12]);
    assert_eq!(read(&w.0).unwrap_err(), trunc(36, Field::BoneName { track: 0 }, 13, 12));
}

#[test]
fn truncation_at_every_offset_is_refused_as_truncation() {
    for full in
        [small_valid().0, one_track().u32(1).key(0.0, &[1.0; 3]).u32(1).key(1.0, &[0.0, 0.0, 0.0, 1.0]).u32(0).0]
    {
        assert!(read(&full).is_ok());
        for len in 0..full.len() {
            let e = read(&full[..len]).unwrap_err();
            assert!(e.is_truncation(), "cut at {len}: {e:?}");
            match e {
                EvacError::Truncated { offset, needed, available, .. } => {
                    assert_eq!(available, len - offset, "cut at {len}");
                    assert!(needed > available, "cut at {len}");
                }
                EvacError::CountExceedsData { offset, min_bytes, remaining, .. } => {
                    assert!(offset < len && remaining <= len && min_bytes > remaining as u64, "cut at {len}: {e:?}");
                }
                _ => unreachable!(),
            }
        }
    }
}

// ---- write refuses what read would refuse ----

#[test]
fn write_refuses_non_finite_and_f32_overflow() {
    let mut clip = sample_clip();
    clip.duration = f64::NAN;
    assert!(matches!(write(&clip), Err(EvacError::NonFinite { offset: 12, field: Field::Duration, .. })));
    let mut clip = sample_clip();
    clip.sample_rate = 1e39; // finite in f64, infinite in f32
    assert_eq!(
        write(&clip),
        Err(EvacError::NonFinite { offset: 16, field: Field::SampleRate, bits: f32::INFINITY.to_bits() })
    );
}

#[test]
fn write_refuses_times_equal_in_f32() {
    let mut clip = sample_clip();
    // Distinct in f64, one f32.
    clip.tracks[0].translation[0].time = 0.1;
    clip.tracks[0].translation[1].time = 0.1 + 1e-12;
    // Header 24 + name "Run cycle" 4+9 = 37; bone "root" 4+4 = 45; position count 4: key 0 at 49.
    let e = write(&clip).unwrap_err();
    assert!(matches!(e, EvacError::TimeNotIncreasing { offset: 65, field, .. } if field == pos_time(1)), "{e:?}");
}

#[test]
fn write_refuses_zero_quaternion_and_bad_times() {
    let mut clip = sample_clip();
    clip.tracks[1].rotation[1].value = [1e-50, 0.0, 0.0, 0.0]; // zero once rounded to f32
    assert!(matches!(write(&clip), Err(EvacError::ZeroQuaternion { .. })));
    let mut clip = sample_clip();
    clip.tracks[0].scale[0].time = 2.0;
    assert!(matches!(write(&clip), Err(EvacError::TimeOutOfRange { .. })));
    let mut clip = sample_clip();
    clip.duration = -0.5;
    assert_eq!(write(&clip), Err(EvacError::NegativeDuration { offset: 12, value: -0.5 }));
}

#[test]
fn write_refuses_a_channel_over_a_million_keys() {
    let mut clip = sample_clip();
    let n = MAX_KEYS_PER_CHANNEL as usize + 1;
    clip.duration = 1e7;
    clip.tracks[1].translation = (0..n).map(|i| ChannelKey { time: i as f64, value: [0.0; 3] }).collect();
    // Track 1 starts after track 0: 37 + root (8 + 4+48 + 4+20 + 4+16) = 141; "spine.001" 4+9.
    assert_eq!(
        write(&clip),
        Err(EvacError::TooManyKeys {
            offset: 154,
            field: Field::KeyCount { track: 1, channel: Channel::Position },
            count: n as u32
        })
    );
}

#[test]
fn write_refuses_over_128_mib_before_writing() {
    let mut clip = sample_clip();
    clip.name = "x".repeat(MAX_FILE_BYTES);
    assert!(matches!(write(&clip), Err(EvacError::TooLarge { offset: MAX_FILE_BYTES, .. })));
}

// ---- parse_source and host errors ----

#[test]
fn parse_source_reads_evac_and_names_the_byte() {
    let path = Path::new("clips/idle.evac");
    let project = ossicle_host::sources::parse_source(path, &small_valid().0).unwrap();
    assert_eq!(project.skel_clips.len(), 1);
    assert!(project.skeletons.is_empty() && project.sprites.is_empty());
    let clip = &project.skel_clips[0];
    assert_eq!((clip.name.as_str(), clip.skeleton.as_ref(), clip.origin.file.as_path()), ("idle", None, path));

    let bad = W::header(0, 1.0, 30.0, 7, "x").0;
    let e = ossicle_host::sources::parse_source(Path::new("bad.EVAC"), &bad).unwrap_err();
    assert_eq!(e.place, "byte 20");
    assert_eq!(e.to_string(), "bad.EVAC:byte 20: the loop flag is 7, expected 0 or 1");
    let e = evac::parse(Path::new("t.evac"), &small_valid().0[..30]).unwrap_err();
    assert_eq!(e.to_string(), "t.evac:byte 28: file ends inside the clip name: it takes 4 bytes, 2 left");
}

#[test]
fn building_an_evac_alone_asks_for_its_skeleton() {
    let project = evac::parse(Path::new("idle.evac"), &small_valid().0).unwrap();
    let e = ossicle_host::write::write_blob(&project, ossicle_format::ScalarEncoding::F32).unwrap_err();
    assert_eq!(e.file, Path::new("idle.evac"));
    assert!(e.reason.contains("has no skeleton of its own") && e.reason.contains("defines none"), "{e}");
}

#[test]
fn building_an_evac_with_a_negative_sample_rate_names_the_file_and_clip() {
    // EVAC reads any finite sample rate (it is informative), but a blob holds none below zero:
    // the build refuses it naming the EVAC file and the clip, not as an internal error of the
    // written blob.
    let bytes = W::header(1, 1.0, -5.0, 1, "idle").str("hip").u32(1).key(0.0, &[1.0, 2.0, 3.0]).u32(0).u32(0).0;
    let mut project = evac::parse(Path::new("idle.evac"), &bytes).unwrap();
    project.skeletons.push(skeleton(&["hip"]));
    for encoding in [ossicle_format::ScalarEncoding::F32, ossicle_format::ScalarEncoding::Q16_16] {
        let e = ossicle_host::write::write_blob(&project, encoding).unwrap_err();
        assert_eq!(e.file, Path::new("idle.evac"), "{e}");
        assert!(e.reason.contains("clip \"idle\"") && e.reason.contains("sample rate -5 Hz is negative"), "{e}");
        assert!(!e.to_string().contains("internal error"), "{e}");
    }
    // Zero is fine.
    let bytes = W::header(1, 1.0, 0.0, 1, "idle").str("hip").u32(1).key(0.0, &[1.0, 2.0, 3.0]).u32(0).u32(0).0;
    let mut project = evac::parse(Path::new("idle.evac"), &bytes).unwrap();
    project.skeletons.push(skeleton(&["hip"]));
    ossicle_host::write::write_blob(&project, ossicle_format::ScalarEncoding::F32).unwrap();
}

#[test]
fn building_an_evac_with_a_zero_or_tiny_duration_says_which() {
    // EVAC reads a duration of 0 (keys at 0 only), but a blob's clip needs a positive one: the
    // build says the duration is not positive, and for a positive one too short for the encoding
    // that it rounds to 0 there (it said "rounds to 0" for 0 too).
    let evac = |duration: f32| {
        let bytes =
            W::header(1, duration, 30.0, 1, "idle").str("hip").u32(1).key(0.0, &[1.0, 2.0, 3.0]).u32(0).u32(0).0;
        let mut project = evac::parse(Path::new("idle.evac"), &bytes).unwrap();
        project.skeletons.push(skeleton(&["hip"]));
        project
    };
    for encoding in [ossicle_format::ScalarEncoding::F32, ossicle_format::ScalarEncoding::Q16_16] {
        let e = ossicle_host::write::write_blob(&evac(0.0), encoding).unwrap_err();
        assert!(e.reason.contains("clip \"idle\"") && e.reason.contains("the duration 0 s is not positive"), "{e}");
    }
    let e = ossicle_host::write::write_blob(&evac(1e-6), ossicle_format::ScalarEncoding::Q16_16).unwrap_err();
    assert!(e.reason.contains("rounds to 0 in the q16 encoding"), "{e}");
    ossicle_host::write::write_blob(&evac(1e-6), ossicle_format::ScalarEncoding::F32).unwrap();
}

// ---- binding to a skeleton ----

fn skeleton(names: &[&str]) -> SkeletonIr {
    SkeletonIr {
        name: "Idle".into(),
        bones: names
            .iter()
            .enumerate()
            .map(|(i, n)| BoneIr { name: n.to_string(), parent: i.checked_sub(1), bind: Transform3::IDENTITY })
            .collect(),
        origin: Origin { file: PathBuf::from("Idle.eva"), place: String::new() },
    }
}

fn clip_with_bones(bones: &[&str]) -> SkelClipIr {
    let mut clip = read(&W::header(0, 1.0, 30.0, 0, "idle").0).unwrap();
    clip.origin.file = PathBuf::from("idle.evac");
    clip.tracks = bones.iter().map(|b| BoneTrackIr::linear(*b, vec![], vec![], vec![])).collect();
    clip
}

#[test]
fn bind_maps_tracks_to_skeleton_indices() {
    let sk = skeleton(&["Hips", "Spine", "Head", "LeftArm"]);
    let clip = clip_with_bones(&["Head", "Hips", "LeftArm"]);
    assert_eq!(bind(&clip, &sk).unwrap(), vec![2, 0, 3]);
    assert_eq!(bind(&clip_with_bones(&[]), &sk).unwrap(), Vec::<usize>::new());
}

#[test]
fn bind_refuses_a_bone_not_in_the_skeleton() {
    let sk = skeleton(&["Hips", "Spine"]);
    let clip = clip_with_bones(&["Hips", "Tail"]);
    assert_eq!(bind_indices(&clip, &sk), Err(BindError::UnknownBone { track: 1, bone: "Tail".into() }));
    let e = bind(&clip, &sk).unwrap_err();
    // Header 28 + "idle" 4 = 32; track 0 ("Hips", no keys) takes 4+4+12 = 20: track 1 at 52.
    assert_eq!(
        e.to_string(),
        "idle.evac:byte 52: clip \"idle\" track 1: bone \"Tail\" is not in skeleton \"Idle\" (defined by Idle.eva)"
    );
}

#[test]
fn bind_refuses_a_bone_mapped_by_two_tracks() {
    let sk = skeleton(&["Hips", "Spine"]);
    let clip = clip_with_bones(&["Spine", "Hips", "Spine"]);
    assert_eq!(bind_indices(&clip, &sk), Err(BindError::BoneMappedTwice { bone: "Spine".into(), first: 0, second: 2 }));
    let e = bind(&clip, &sk).unwrap_err();
    assert_eq!(e.place, "byte 73"); // 32 + (4+5+12) + (4+4+12)
    assert!(e.reason.contains("\"Spine\"") && e.reason.contains("track 0"), "{e}");
}

#[test]
fn fuzz_seeds_read_and_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/evac");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert_eq!(write(&read(&bytes).unwrap()).unwrap(), bytes);
        n += 1;
    }
    assert!(n > 0, "no seeds in {}", dir.display());
}
