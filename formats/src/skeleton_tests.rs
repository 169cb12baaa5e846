//! Skeletal sections: a valid skeleton and clip built by hand read back word for word, and every
//! check of `SkeletonSection::parse`, `SkelClipSection::parse` and the blob's cross-section checks
//! refuses its defect with the exact `SkeletonDefect` (or `StringRef`) and section.

extern crate std;

use crate::skeleton::*;
use crate::{checksum, Blob, BlobWriter, LoadError, ScalarEncoding, SectionDefect, HEADER_LEN};
use std::vec;
use std::vec::Vec;

const F32: ScalarEncoding = ScalarEncoding::F32;
const Q16: ScalarEncoding = ScalarEncoding::Q16_16;
const BOTH: [ScalarEncoding; 2] = [F32, Q16];

/// Interned in this order (string id = position).
const STRINGS: [&str; 6] = ["rig", "root", "arm", "wave", "step", "other"];
const STRING_COUNT: u32 = STRINGS.len() as u32;

/// A skeleton body and a clip body as editable words.
#[derive(Clone, Debug)]
struct Parts {
    sk_name: u32,
    sk_dim: u8,
    bones: Vec<[u32; 2]>,
    rest: Vec<u32>,
    clip_name: u32,
    clip_skeleton: u32,
    clip_dim: u8,
    flags: u8,
    duration: u32,
    rate: u32,
    /// Dense: three records per bone (info 0: no record), packed with `pack_channels`.
    channels: Vec<[u32; 4]>,
    /// Replaces the packed bone entries when set.
    entries: Option<Vec<u32>>,
    data: Vec<u32>,
    quant: Vec<u16>,
    times: Vec<u32>,
    time_index: Vec<u8>,
    events: Vec<[u32; 2]>,
    /// Extra bytes appended to bones, rest, channels, data, quant, events, the clip's bone
    /// entries, times, time_index.
    extra: [usize; 9],
    /// A second skeleton section (a copy of the first).
    second_skeleton: bool,
    /// Pack the records in the compact layout (the flag is the test's to set).
    compact: bool,
}

fn w(e: ScalarEncoding, v: f64) -> u32 {
    e.encode_f64(v).unwrap()
}

fn bytes32(words: &[u32], extra: usize) -> Vec<u8> {
    let mut b: Vec<u8> = words.iter().flat_map(|x| x.to_le_bytes()).collect();
    b.extend(std::iter::repeat_n(0u8, extra));
    b
}

/// Data word layout of the valid clip (indices into `data`):
const T01: u32 = 0; // times [0, 1]
const T_HALF: u32 = 2; // times [0.5]
const B0_T_VALUES: u32 = 3; // 6 words: (1, 2, 3), (4, 5, 6)
const B1_T_VALUES: u32 = 9; // 6 words: (0, 0, 0), (2, 0, 0)
const B1_T_TANGENTS: u32 = 15; // 12 words: key 0 in/out, key 1 in/out
const B1_R_RANGE: u32 = 27; // 8 words: min (0, 0, 0, 0.6), extent (0, 0, 0.6, 0.4)
const B1_S_VALUES: u32 = 35; // 3 words: (2, 2, 2)
const DATA_LEN: usize = 38;

fn parts(e: ScalarEncoding) -> Parts {
    let mut data = vec![0u32; DATA_LEN];
    let mut put = |at: u32, vals: &[f64]| {
        for (k, &v) in vals.iter().enumerate() {
            data[at as usize + k] = w(e, v);
        }
    };
    put(T01, &[0.0, 1.0]);
    put(T_HALF, &[0.5]);
    put(B0_T_VALUES, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    put(B1_T_VALUES, &[0.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
    put(B1_T_TANGENTS, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    put(B1_R_RANGE, &[0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.6, 0.4]);
    put(B1_S_VALUES, &[2.0, 2.0, 2.0]);
    let info = ChannelRecord::make_info;
    let none = [0u32; 4];
    Parts {
        sk_name: 0,
        sk_dim: 3,
        bones: vec![[0xFFFF, 1], [1 << 16, 2]], // root: no parent, lod 0; arm: parent 0, lod 1
        rest: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.6, 0.8, 1.0, 1.0, 1.0]
            .iter()
            .map(|&v| w(e, v))
            .collect(),
        clip_name: 3,
        clip_skeleton: 0,
        clip_dim: 3,
        flags: CLIP_FLAG_LOOP,
        duration: w(e, 1.0),
        rate: w(e, 30.0),
        channels: vec![
            [info(2, INTERP_LINEAR, false), T01, B0_T_VALUES, 0],
            none,
            none,
            [info(2, INTERP_HERMITE, false), T01, B1_T_VALUES, B1_T_TANGENTS],
            // Rotation quantised: key 0 (0, 0, 0, 1) = q (0, 0, 0, 65535); key 1 (0, 0, 0.6, 0.8)
            // = q (0, 0, 65535, 32768) (0.6 + 0.4 × 32768 / 65535 = 0.80000...).
            [info(2, INTERP_LINEAR, true), T01, 0, B1_R_RANGE],
            [info(1, INTERP_STEP, false), T_HALF, B1_S_VALUES, 0],
        ],
        entries: None,
        data,
        quant: vec![0, 0, 0, 65535, 0, 0, 65535, 32768],
        times: Vec::new(),
        time_index: Vec::new(),
        events: vec![[w(e, 0.25), 4], [w(e, 0.25), 4], [w(e, 1.0), 1]],
        extra: [0; 9],
        second_skeleton: false,
        compact: false,
    }
}

fn blob(e: ScalarEncoding, p: &Parts) -> Vec<u8> {
    blob_with(e, p, None)
}

/// [`blob`], with `extra` interned after the strings the parts refer to.
fn blob_with(e: ScalarEncoding, p: &Parts, extra: Option<&str>) -> Vec<u8> {
    let mut wr = BlobWriter::new(e);
    for s in STRINGS.iter().copied().chain(extra) {
        wr.intern(s);
    }
    let bones: Vec<u32> = p.bones.iter().flatten().copied().collect();
    let (bones, rest) = (bytes32(&bones, p.extra[0]), bytes32(&p.rest, p.extra[1]));
    let sk = SkeletonBody { name: p.sk_name, dimension: p.sk_dim, bones: &bones, rest: &rest };
    wr.add_skeleton(&sk).unwrap();
    if p.second_skeleton {
        wr.add_skeleton(&sk).unwrap();
    }
    let (mut entries, mut channels) =
        if p.compact { pack_channels_compact(&p.channels).unwrap() } else { pack_channels(&p.channels) };
    if let Some(e) = &p.entries {
        entries = bytes32(e, 0);
    }
    entries.extend(std::iter::repeat_n(0u8, p.extra[6]));
    channels.extend(std::iter::repeat_n(0u8, p.extra[2]));
    let times = bytes32(&p.times, p.extra[7]);
    let mut time_index = p.time_index.clone();
    time_index.extend(std::iter::repeat_n(0u8, p.extra[8]));
    let events: Vec<u32> = p.events.iter().flatten().copied().collect();
    let mut quant: Vec<u8> = p.quant.iter().flat_map(|q| q.to_le_bytes()).collect();
    quant.extend(std::iter::repeat_n(0u8, p.extra[4]));
    let (data, events) = (bytes32(&p.data, p.extra[3]), bytes32(&events, p.extra[5]));
    wr.add_skel_clip(&SkelClipBody {
        name: p.clip_name,
        skeleton: p.clip_skeleton,
        dimension: p.clip_dim,
        flags: p.flags,
        duration: p.duration,
        sample_rate: p.rate,
        bones: &entries,
        channels: &channels,
        data: &data,
        quant: &quant,
        times: &times,
        time_index: &time_index,
        events: &events,
    })
    .unwrap();
    wr.finish().unwrap()
}

/// The load error of `p`, which must be in `section` with `defect`.
fn refused(e: ScalarEncoding, p: &Parts, section: u32, defect: SectionDefect) {
    let kind = if section == 1 || (section == 2 && p.second_skeleton) { 5 } else { 6 };
    assert_eq!(Blob::parse(&blob(e, p)).unwrap_err(), LoadError::MalformedSection { section, kind, defect }, "{e:?}");
}

fn sk(d: SkeletonDefect) -> SectionDefect {
    SectionDefect::Skeleton(d)
}

#[test]
fn a_valid_skeleton_and_clip_read_back() {
    for e in BOTH {
        let p = parts(e);
        let bytes = blob(e, &p);
        let b = Blob::parse(&bytes).unwrap();
        let s = b.skeletons().next().unwrap();
        assert_eq!((s.name(), s.dimension(), s.bone_count(), s.encoding()), ("rig", Dimension::D3, 2, e));
        assert_eq!(s.bone(0), Some(BoneRecord { parent: None, lod: 0, name: 1 }));
        assert_eq!(s.bone(1), Some(BoneRecord { parent: Some(0), lod: 1, name: 2 }));
        assert_eq!(s.bone(2), None);
        assert_eq!(s.rest_words(1).unwrap().to_vec(), p.rest[10..].to_vec());
        assert_eq!(s.rest_words(2), None);
        let c = b.skel_clips().next().unwrap();
        assert_eq!(
            (c.name(), c.skeleton_name(), c.dimension(), c.looping()),
            ("wave", Some("rig"), Dimension::D3, true)
        );
        assert_eq!((c.duration(), c.sample_rate(), c.bone_count(), c.event_count()), (w(e, 1.0), w(e, 30.0), 2, 3));
        let r = c.channel(1, 1).unwrap();
        assert_eq!((r.key_count(), r.interpolation(), r.quantized(), r.extra), (2, INTERP_LINEAR, true, B1_R_RANGE));
        assert_eq!((c.channel(0, 1), c.has_record(0, 1), c.has_record(0, 0)), (None, false, true));
        assert_eq!((c.channel(0, 3), c.channel(2, 0)), (None, None));
        // Bone 0 has a translation record only (mask 0b001, first 0); bone 1 all three from 1.
        assert_eq!(c.bone_entries().iter().collect::<Vec<_>>(), vec![1, (1 << 3) | 7]);
        assert_eq!(c.record_count(), 4);
        assert_eq!(c.channel(1, 2).unwrap().times, T_HALF);
        assert_eq!(c.channel(1, 0).unwrap().tangents(3), Some(B1_T_TANGENTS));
        assert_eq!(r.tangents(4), Some(B1_R_RANGE + 8));
        assert_eq!((c.quant(7), c.quant(8)), (Some(32768), None));
        assert_eq!(c.event(2), Some((w(e, 1.0), 1)));
        assert_eq!(c.event(3), None);
    }
}

#[test]
fn dequantize_is_min_plus_extent_times_q_over_65535() {
    // f32: 0.6 + 0.4 × (32768 / 65535) in f32 arithmetic.
    let f = f32::from_bits(dequantize(F32, 0.6f32.to_bits(), 0.4f32.to_bits(), 32768));
    assert_eq!(f, 0.6f32 + 0.4f32 * (32768.0f32 / 65535.0));
    assert!((f64::from(f) - (0.6 + 0.4 * 32768.0 / 65535.0)).abs() < 1e-7);
    assert_eq!(f32::from_bits(dequantize(F32, (-1.0f32).to_bits(), 2.0f32.to_bits(), 65535)), 1.0);
    assert_eq!(f32::from_bits(dequantize(F32, (-1.0f32).to_bits(), 2.0f32.to_bits(), 0)), -1.0);
    // Q16.16 bits: min + (q × extent + 32767) div 65535.
    let (min, ext) = (w(Q16, -1.0) as i32, w(Q16, 2.0) as i32);
    assert_eq!(dequantize(Q16, min as u32, ext as u32, 65535) as i32, 65536);
    assert_eq!(dequantize(Q16, min as u32, ext as u32, 0) as i32, -65536);
    // q = 1: 131072 / 65535 = 2.00003 -> (131072 + 32767) div 65535 = 2.
    assert_eq!(dequantize(Q16, min as u32, ext as u32, 1) as i32, -65536 + 2);
    // q = 32768: 32768 × 131072 / 65535 = 65537.0000153 (65535 × 65537 = 2^32 - 1), so
    // (32768 × 131072 + 32767) div 65535 = 65537.
    assert_eq!(dequantize(Q16, min as u32, ext as u32, 32768) as i32, -65536 + 65537);
}

/// The valid clip with its times indexed: table [0, 0.5, 1], bone 0's translation and bone 1's
/// rotation at indices [0, 2], bone 1's scale at [1] (u16 indices when `wide`).
fn indexed(e: ScalarEncoding, wide: bool) -> Parts {
    let mut p = parts(e);
    p.times = vec![w(e, 0.0), w(e, 0.5), w(e, 1.0)];
    let idx: [u16; 3] = [0, 2, 1];
    p.time_index =
        if wide { idx.iter().flat_map(|i| i.to_le_bytes()).collect() } else { idx.map(|i| i as u8).to_vec() };
    if wide {
        p.flags |= CLIP_FLAG_WIDE_INDEX;
    }
    for (ch, at) in [(0, 0), (4, 0), (5, 2)] {
        p.channels[ch][0] |= CHANNEL_INDEXED_TIMES;
        p.channels[ch][1] = at;
    }
    p
}

#[test]
fn indexed_times_read_back() {
    for e in BOTH {
        for wide in [false, true] {
            let p = indexed(e, wide);
            let bytes = blob(e, &p);
            let b = Blob::parse(&bytes).unwrap();
            let c = b.skel_clips().next().unwrap();
            assert_eq!(c.wide_index(), wide);
            assert_eq!(c.time_table().iter().collect::<Vec<_>>(), p.times);
            assert_eq!(
                (c.time_index_len(), c.time_index(1), c.time_index(2), c.time_index(3)),
                (3, Some(2), Some(1), None)
            );
            let r = c.channel(1, 2).unwrap();
            assert!(r.indexed_times() && !c.channel(1, 0).unwrap().indexed_times());
            assert_eq!(r.times, 2);
        }
    }
}

#[test]
fn layout_defects() {
    for e in BOTH {
        // Bone entries: a wrong first index, a mask that claims more records than there are, fewer.
        let entry = |bone, entry| sk(SkeletonDefect::BoneEntry { bone, entry });
        let mut p = parts(e);
        p.entries = Some(vec![1, (2 << 3) | 7]);
        refused(e, &p, 2, entry(1, (2 << 3) | 7));
        let mut p = parts(e);
        p.entries = Some(vec![1 << 3 | 1, (2 << 3) | 7]);
        refused(e, &p, 2, entry(0, (1 << 3) | 1));
        let mut p = parts(e);
        p.entries = Some(vec![3, (2 << 3) | 7]);
        refused(e, &p, 2, entry(2, 4));
        let mut p = parts(e);
        p.entries = Some(vec![1, (1 << 3) | 3]);
        refused(e, &p, 2, entry(2, 4));
        let mut p = parts(e);
        p.extra[6] = 2;
        refused(e, &p, 2, sk(SkeletonDefect::RecordArray { array: "bones", len: 10 }));

        // Time table: equal, decreasing, past the duration, negative entries; whole words.
        for (table, index) in [([0.0, 0.5, 0.5], 2), ([0.0, 0.75, 0.5], 2), ([0.0, 0.5, 1.5], 2), ([-0.5, 0.5, 1.0], 0)]
        {
            let mut p = indexed(e, false);
            p.times = table.iter().map(|&t| w(e, t)).collect();
            refused(e, &p, 2, sk(SkeletonDefect::TimeTable { index }));
        }
        let mut p = indexed(e, false);
        p.extra[7] = 3;
        refused(e, &p, 2, sk(SkeletonDefect::RecordArray { array: "times", len: 15 }));
        let mut p = indexed(e, true);
        p.extra[8] = 1;
        refused(e, &p, 2, sk(SkeletonDefect::RecordArray { array: "time_index", len: 7 }));

        // Indices: past the table, not increasing, a run past the index array.
        let mut p = indexed(e, false);
        p.time_index[1] = 3;
        refused(e, &p, 2, sk(SkeletonDefect::KeyTime { bone: 0, channel: 0, key: 1 }));
        let mut p = indexed(e, false);
        p.time_index[1] = 0;
        refused(e, &p, 2, sk(SkeletonDefect::KeyTime { bone: 0, channel: 0, key: 1 }));
        let mut p = indexed(e, true);
        p.time_index[2] = 0;
        p.time_index[3] = 1; // index 1 = 256
        refused(e, &p, 2, sk(SkeletonDefect::KeyTime { bone: 0, channel: 0, key: 1 }));
        let mut p = indexed(e, false);
        p.channels[0][1] = 2;
        refused(e, &p, 2, sk(SkeletonDefect::ChannelRange { bone: 0, channel: 0 }));
        // Indexed times without a table.
        let mut p = parts(e);
        p.channels[0][0] |= CHANNEL_INDEXED_TIMES;
        refused(e, &p, 2, sk(SkeletonDefect::ChannelRange { bone: 0, channel: 0 }));
    }
}

#[test]
fn a_version_4_blob_with_skeletal_sections_is_refused() {
    let mut b = blob(F32, &parts(F32));
    b[4] = 4;
    let crc = checksum(&b[..12], &b[HEADER_LEN..]);
    b[12..16].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(
        Blob::parse(&b).unwrap_err(),
        LoadError::UnsupportedVersion {
            found: 4,
            oldest: crate::OLDEST_SKELETAL_VERSION,
            newest: crate::FORMAT_VERSION
        }
    );
    assert_eq!((crate::OLDEST_SKELETAL_VERSION, crate::FORMAT_VERSION), (5, 7));
}

#[test]
fn an_older_blob_may_not_hold_skeletal_sections() {
    let mut b = blob(F32, &parts(F32));
    assert_eq!(u16::from_le_bytes([b[4], b[5]]), crate::FORMAT_VERSION);
    b[4] = 3;
    let crc = checksum(&b[..12], &b[HEADER_LEN..]);
    b[12..16].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::UnknownSection { section: 1, kind: 5 });
}

#[test]
fn skeleton_defects() {
    for e in BOTH {
        let mut p = parts(e);
        p.sk_dim = 4;
        refused(e, &p, 1, sk(SkeletonDefect::Dimension { found: 4 }));

        let mut p = parts(e);
        p.extra[0] = 3;
        refused(e, &p, 1, sk(SkeletonDefect::RecordArray { array: "bones", len: 19 }));

        let mut p = parts(e);
        p.bones.clear();
        p.rest.clear();
        refused(e, &p, 1, sk(SkeletonDefect::BoneCount { count: 0 }));

        let mut p = parts(e);
        p.rest.pop();
        refused(e, &p, 1, sk(SkeletonDefect::RecordArray { array: "rest", len: 76 }));

        // Its own parent, and a later bone.
        let mut p = parts(e);
        p.bones[1][0] = 1;
        refused(e, &p, 1, sk(SkeletonDefect::Parent { bone: 1, parent: 1 }));
        let mut p = parts(e);
        p.bones[0][0] = 1;
        refused(e, &p, 1, sk(SkeletonDefect::Parent { bone: 0, parent: 1 }));

        let mut p = parts(e);
        p.bones[1][0] |= 7 << 24;
        refused(e, &p, 1, sk(SkeletonDefect::Reserved { bone: 1, found: 7 }));

        let mut p = parts(e);
        p.bones[1][1] = 99;
        refused(e, &p, 1, SectionDefect::StringRef { string: 99, count: STRING_COUNT });

        let mut p = parts(e);
        p.sk_name = 99;
        refused(e, &p, 1, SectionDefect::StringRef { string: 99, count: STRING_COUNT });

        let mut p = parts(e);
        for k in 13..17 {
            p.rest[k] = 0;
        }
        refused(e, &p, 1, sk(SkeletonDefect::RestQuaternion { bone: 1 }));

        let mut p = parts(e);
        p.second_skeleton = true;
        refused(e, &p, 2, sk(SkeletonDefect::DuplicateSkeleton { name: 0 }));
    }
    // Non-finite rest words exist only in f32.
    let mut p = parts(F32);
    p.rest[12] = f32::NAN.to_bits();
    refused(F32, &p, 1, sk(SkeletonDefect::RestValue { bone: 1 }));
    let mut p = parts(F32);
    p.rest[0] = f32::INFINITY.to_bits();
    refused(F32, &p, 1, sk(SkeletonDefect::RestValue { bone: 0 }));
    // A negative-zero quaternion is a zero quaternion too.
    let mut p = parts(F32);
    for k in 3..7 {
        p.rest[k] = (-0.0f32).to_bits();
    }
    refused(F32, &p, 1, sk(SkeletonDefect::RestQuaternion { bone: 0 }));
}

#[test]
fn clip_header_defects() {
    for e in BOTH {
        let mut p = parts(e);
        p.flags = 0x11;
        refused(e, &p, 2, sk(SkeletonDefect::Flags { found: 0x11 }));

        for d in [0.0, -1.0] {
            let mut p = parts(e);
            p.duration = w(e, d);
            refused(e, &p, 2, sk(SkeletonDefect::Duration));
        }

        let mut p = parts(e);
        p.rate = w(e, -30.0);
        refused(e, &p, 2, sk(SkeletonDefect::SampleRate));

        let mut p = parts(e);
        p.clip_name = 77;
        refused(e, &p, 2, SectionDefect::StringRef { string: 77, count: STRING_COUNT });

        let mut p = parts(e);
        p.clip_skeleton = 77;
        refused(e, &p, 2, SectionDefect::StringRef { string: 77, count: STRING_COUNT });

        let mut p = parts(e);
        p.clip_skeleton = 5;
        refused(e, &p, 2, sk(SkeletonDefect::SkeletonRef { name: 5 }));

        let mut p = parts(e);
        p.clip_dim = 1;
        refused(e, &p, 2, sk(SkeletonDefect::Dimension { found: 1 }));

        // A 2D clip of the 3D skeleton (its channels are narrower, so they still fit the data).
        let mut p = parts(e);
        p.clip_dim = 2;
        refused(e, &p, 2, sk(SkeletonDefect::DimensionMismatch { clip: 2, skeleton: 3 }));

        let mut p = parts(e);
        p.channels.extend([[0; 4]; 3]);
        refused(e, &p, 2, sk(SkeletonDefect::ClipBones { clip: 3, skeleton: 2 }));

        for (i, (array, len)) in [("channels", 4 * 16 + 1), ("data", DATA_LEN * 4 + 2), ("quant", 17), ("events", 25)]
            .into_iter()
            .enumerate()
        {
            let mut p = parts(e);
            p.extra[2 + i] = 1 + usize::from(array == "data");
            refused(e, &p, 2, sk(SkeletonDefect::RecordArray { array, len }));
        }
    }
    let mut p = parts(F32);
    p.duration = f32::NAN.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::Duration));
    let mut p = parts(F32);
    p.duration = f32::INFINITY.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::Duration));
    let mut p = parts(F32);
    p.rate = f32::NAN.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::SampleRate));
}

#[test]
fn channel_defects() {
    let info = ChannelRecord::make_info;
    for e in BOTH {
        // Unknown info bit, interpolation 3, a record without keys, a stray extra word on a raw
        // linear channel.
        for (ch, word) in [(0, 1u32 << 28), (0, 3 << 24)] {
            let mut p = parts(e);
            p.channels[ch][0] |= word;
            let info = p.channels[ch][0];
            refused(e, &p, 2, sk(SkeletonDefect::ChannelInfo { bone: 0, channel: 0, info }));
        }
        let mut p = parts(e);
        p.channels[1][0] = info(0, INTERP_HERMITE, false);
        refused(e, &p, 2, sk(SkeletonDefect::ChannelInfo { bone: 0, channel: 1, info: p.channels[1][0] }));
        let mut p = parts(e);
        p.channels[0][3] = 1;
        refused(e, &p, 2, sk(SkeletonDefect::ChannelInfo { bone: 0, channel: 0, info: p.channels[0][0] }));

        // Runs outside the data: times, raw values, quantised values, the range, the tangents.
        let range = |bone, channel| sk(SkeletonDefect::ChannelRange { bone, channel });
        let mut p = parts(e);
        p.channels[0][1] = DATA_LEN as u32 - 1;
        refused(e, &p, 2, range(0, 0));
        let mut p = parts(e);
        p.channels[0][2] = DATA_LEN as u32 - 5;
        refused(e, &p, 2, range(0, 0));
        let mut p = parts(e);
        p.channels[4][2] = 1;
        refused(e, &p, 2, range(1, 1));
        let mut p = parts(e);
        p.channels[4][3] = DATA_LEN as u32 - 7;
        refused(e, &p, 2, range(1, 1));
        let mut p = parts(e);
        p.channels[3][3] = DATA_LEN as u32 - 11;
        refused(e, &p, 2, range(1, 0));
        let mut p = parts(e);
        p.channels[0][1] = u32::MAX;
        refused(e, &p, 2, range(0, 0));
        // A Hermite quantised channel needs its tangents after the range.
        let mut p = parts(e);
        p.channels[4][0] = info(2, INTERP_HERMITE, true);
        p.channels[4][3] = DATA_LEN as u32 - 8;
        refused(e, &p, 2, range(1, 1));

        // Times: equal, decreasing, past the duration, negative.
        let time = |key| sk(SkeletonDefect::KeyTime { bone: 0, channel: 0, key });
        for (t0, t1, key) in [(0.5, 0.5, 1), (0.75, 0.5, 1), (0.0, 1.5, 1), (-0.25, 1.0, 0)] {
            let mut p = parts(e);
            p.data[T01 as usize] = w(e, t0);
            p.data[T01 as usize + 1] = w(e, t1);
            refused(e, &p, 2, time(key));
        }

        // Quantisation ranges: a negative extent; (Q16) a largest value that overflows.
        let mut p = parts(e);
        p.data[B1_R_RANGE as usize + 6] = w(e, -0.5);
        refused(e, &p, 2, sk(SkeletonDefect::QuantRange { bone: 1, channel: 1 }));

        // Zero quaternions, quantised and raw.
        let mut p = parts(e);
        p.quant[3] = 0; // key 0: (0, 0, 0, 0.6 + 0) is not zero...
        p.data[B1_R_RANGE as usize + 3] = 0; // ...with min w = 0 it is
        refused(e, &p, 2, sk(SkeletonDefect::KeyQuaternion { bone: 1, key: 0 }));
        let mut p = parts(e);
        p.data.extend([0; 8]);
        p.channels[4] = [info(2, INTERP_LINEAR, false), T01, DATA_LEN as u32, 0];
        p.data[DATA_LEN + 3] = w(e, 1.0); // key 0 (0, 0, 0, 1), key 1 (0, 0, 0, 0)
        refused(e, &p, 2, sk(SkeletonDefect::KeyQuaternion { bone: 1, key: 1 }));
    }
    let mut p = parts(Q16);
    p.data[B1_R_RANGE as usize + 2] = 0x7FFF_0000; // min 32767 + extent 0.6: fits
    p.data[B1_R_RANGE as usize] = 0x0001_0000; // min 1 + extent 0: fits
    Blob::parse(&blob(Q16, &p)).unwrap();
    p.data[B1_R_RANGE as usize + 2] = w(Q16, 0.5); // min 0.5 ...
    p.data[B1_R_RANGE as usize + 6] = 0x7FFF_C000; // ... + extent 32767.75 > 32767.99998
    refused(Q16, &p, 2, sk(SkeletonDefect::QuantRange { bone: 1, channel: 1 }));

    // f32 only: non-finite times, values, tangents, range words.
    let mut p = parts(F32);
    p.data[T01 as usize + 1] = f32::NAN.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::KeyTime { bone: 0, channel: 0, key: 1 }));
    let mut p = parts(F32);
    p.data[B0_T_VALUES as usize + 4] = f32::INFINITY.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::KeyValue { bone: 0, channel: 0, key: 1 }));
    let mut p = parts(F32);
    p.data[B1_T_TANGENTS as usize + 7] = f32::NAN.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::KeyValue { bone: 1, channel: 0, key: 1 }));
    let mut p = parts(F32);
    p.data[B1_R_RANGE as usize] = f32::NAN.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::QuantRange { bone: 1, channel: 1 }));
    let mut p = parts(F32);
    p.data[B1_R_RANGE as usize] = f32::MAX.to_bits();
    p.data[B1_R_RANGE as usize + 4] = f32::MAX.to_bits(); // min + extent overflows to infinity
    refused(F32, &p, 2, sk(SkeletonDefect::QuantRange { bone: 1, channel: 1 }));
}

#[test]
fn event_defects() {
    for e in BOTH {
        let mut p = parts(e);
        p.events[1][0] = w(e, 0.125);
        refused(e, &p, 2, sk(SkeletonDefect::EventTime { event: 1 }));
        let mut p = parts(e);
        p.events[2][0] = w(e, 1.5);
        refused(e, &p, 2, sk(SkeletonDefect::EventTime { event: 2 }));
        let mut p = parts(e);
        p.events[0][0] = w(e, -0.5);
        refused(e, &p, 2, sk(SkeletonDefect::EventTime { event: 0 }));
        let mut p = parts(e);
        p.events[2][1] = 0x1_0000;
        refused(e, &p, 2, sk(SkeletonDefect::EventName { event: 2, name: 0x1_0000 }));
        let mut p = parts(e);
        p.events[2][1] = 6;
        refused(e, &p, 2, SectionDefect::StringRef { string: 6, count: STRING_COUNT });
    }
    let mut p = parts(F32);
    p.events[0][0] = f32::NAN.to_bits();
    refused(F32, &p, 2, sk(SkeletonDefect::EventTime { event: 0 }));
}

#[test]
fn every_defect_has_a_message() {
    let m = std::format!("{}", sk(SkeletonDefect::KeyQuaternion { bone: 3, key: 9 }));
    assert_eq!(m, "skeletal: bone 3 rotation key 9 is a zero quaternion");
    let m = std::format!("{}", sk(SkeletonDefect::Parent { bone: 2, parent: 5 }));
    assert!(m.contains("bone 2 has parent 5"), "{m}");
    let m = std::format!("{}", sk(SkeletonDefect::NewerEncoding { bone: 1, channel: 1, version: 5, needs: 6 }));
    assert!(m.contains("format version 6 in a version-5 blob"), "{m}");
    let m = std::format!("{}", sk(SkeletonDefect::NewerFlags { found: 0xd, version: 6, needs: 7 }));
    assert!(m.contains("0xd") && m.contains("format version 7 in a version-6 blob"), "{m}");
    let m = std::format!("{}", sk(SkeletonDefect::TimeBitmap { bone: 1, channel: 2, found: 3 }));
    assert!(m.contains("bone 1 channel 2") && m.contains("3 keys"), "{m}");
    let m = std::format!("{}", sk(SkeletonDefect::TimeGrid { rate: 0, entries: 4 }));
    assert!(m.contains("4 entries at 0/s"), "{m}");
}

/// Bone 1's rotation as a packed channel (format version 6): drop w, x and y 0 bits at 0, z 4
/// bits over [0, 19661 / 32768]; key 0 has z q = 0, key 1 q = 15 (the stream byte 0xF0).
fn packed_params() -> PackedRotation {
    PackedRotation { dropped: 3, bits: [0, 0, 4], min: [0, 0, 0], extent: [0, 0, 19661] }
}

fn packed_parts(e: ScalarEncoding, params: &PackedRotation) -> Parts {
    let mut p = parts(e);
    let mut bytes = params.to_bytes().to_vec();
    bytes.extend([0xF0, 0]); // the stream, then padding to whole u16s
    p.quant = bytes.chunks(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
    p.channels[4] = [ChannelRecord::make_info(2, INTERP_LINEAR, false) | CHANNEL_PACKED_ROTATION, T01, 16, 0];
    p
}

#[test]
fn packed_rotation_parameters_round_trip_and_decode_by_the_formula() {
    let p = PackedRotation { dropped: 1, bits: [16, 3, 0], min: [-32768, 100, -7], extent: [65535, 5, 0] };
    assert_eq!(PackedRotation::from_bytes(&p.to_bytes()), Some(p));
    assert_eq!(
        p.to_bytes(),
        [1, 16, 3, 0, 0x00, 0x80, 100, 0, 0xF9, 0xFF, 0xFF, 0xFF, 5, 0, 0, 0],
        "dropped, bits, min i16 LE, extent u16 LE"
    );
    assert_eq!(PackedRotation::from_bytes(&[0; 15]), None);
    assert_eq!((p.key_bits(), p.stream_len(3), p.stream_len(0)), (19, Some(8), Some(0)));
    // component: min·2^15 + (extent·2^15·q + D div 2) div D, D = 2^b − 1.
    assert_eq!(p.component(0, 0), -(1 << 30));
    assert_eq!(p.component(0, 65535), -(1 << 30) + 65535 * (1 << 15));
    assert_eq!(p.component(1, 7), 100 * 32768 + 5 * 32768); // q = D: min + extent
    assert_eq!(p.component(1, 3), 100 * 32768 + (5 * 32768 * 3 + 3) / 7); // 3 × 163840 / 7 = 70217.14
    assert_eq!(p.component(2, 0), -7 * 32768);
    // The dropped component: ⌊√(2^60 − Σ v²)⌋, computed here in f64 (exact to well under 1).
    let q = packed_params();
    let z = 19661i64 << 15;
    let [x, y, zz, w] = q.decode([0, 0, 15]);
    assert_eq!((x, y, i64::from(zz)), (0, 0, z));
    let expected = ((1u64 << 60) as f64 - (z as f64) * (z as f64)).sqrt();
    assert!((f64::from(w) - expected.floor()).abs() <= 1.0, "{w} vs {expected}");
    assert_eq!(q.decode([0, 0, 0]), [0, 0, 0, 1 << 30]);
    // q = 7: (19661·2^15·7 + 7) div 15 = 300650769.
    assert_eq!(q.decode([0, 0, 7])[2], 300_650_769);
    // Key k of the stream: 4 bits each, key 0 in the low nibble.
    assert_eq!(q.read_key(&[0xF0], 0), Some([0, 0, 0]));
    assert_eq!(q.read_key(&[0xF0], 1), Some([0, 0, 15]));
    assert_eq!(q.read_key(&[0xF0], 2), None);
    // Components straddling bytes: widths 5, 6, 7 read LSB first.
    let r = PackedRotation { dropped: 0, bits: [5, 6, 7], min: [0; 3], extent: [1; 3] };
    let word: u32 = 21 | (45 << 5) | (99 << 11); // 18 bits
                                                 // Key 0 uses bits 0..18 (all ones here), key 1 bits 18..36.
    let mut bits: u64 = 0x3FFFF;
    bits |= u64::from(word) << 18;
    let stream2 = bits.to_le_bytes();
    assert_eq!(r.read_key(&stream2[..5], 1), Some([21, 45, 99]));
    assert_eq!(r.read_key(&stream2[..5], 0), Some([31, 63, 127]));
    assert_eq!(r.read_key(&stream2[..4], 1), None);
    // Words: f32 by conversion and an exact scaling, Q16.16 to nearest.
    assert_eq!(packed_word(F32, 1 << 30), 1.0f32.to_bits());
    assert_eq!(packed_word(F32, -(1 << 29)), (-0.5f32).to_bits());
    assert_eq!(packed_word(F32, 300_650_769), ((300_650_769f64 / 1073741824.0) as f32).to_bits());
    assert_eq!(packed_word(Q16, 1 << 30) as i32, 65536);
    assert_eq!(packed_word(Q16, (1 << 13) - 1) as i32, 0);
    assert_eq!(packed_word(Q16, 1 << 13) as i32, 1);
    assert_eq!(packed_word(Q16, -(1 << 30)) as i32, -65536);
}

#[test]
fn a_packed_rotation_channel_reads_back() {
    for e in BOTH {
        let p = packed_parts(e, &packed_params());
        let bytes = blob(e, &p);
        let b = Blob::parse(&bytes).unwrap();
        let c = b.skel_clips().next().unwrap();
        let r = c.channel(1, 1).unwrap();
        assert!(r.packed_rotation() && !r.quantized());
        assert_eq!((r.key_count(), r.values, r.extra), (2, 16, 0));
        let params = PackedRotation::from_bytes(&c.quant_bytes()[r.extra as usize..]).unwrap();
        assert_eq!(params, packed_params());
        let stream = &c.quant_bytes()[r.values as usize..];
        assert_eq!(params.decode_key(stream, 1).unwrap()[2], 19661 << 15);
    }
}

#[test]
fn packed_rotation_defects() {
    for e in BOTH {
        let packed = |bone| move |what| sk(SkeletonDefect::PackedParams { bone, what });
        let bad = |f: fn(&mut PackedRotation)| {
            let mut params = packed_params();
            f(&mut params);
            packed_parts(e, &params)
        };
        refused(e, &bad(|p| p.dropped = 4), 2, packed(1)("dropped"));
        refused(e, &bad(|p| p.dropped = 0x83), 2, packed(1)("dropped"));
        refused(e, &bad(|p| p.bits[1] = 17), 2, packed(1)("bits"));
        refused(e, &bad(|p| p.extent[0] = 1), 2, packed(1)("extent"));
        refused(e, &bad(|p| p.min[2] = 13108), 2, packed(1)("range")); // 13108 + 19661 = 32769
                                                                       // 32768 = 1.0 exactly is allowed.
        let ok = bad(|p| p.min[2] = 13107);
        assert!(Blob::parse(&blob(e, &ok)).is_ok());
        // The kind on a channel other than a 3D rotation, or with the 16-bit or Hermite bits.
        let info = |bone, channel, info| sk(SkeletonDefect::ChannelInfo { bone, channel, info });
        let mut p = packed_parts(e, &packed_params());
        p.channels[0][0] |= CHANNEL_PACKED_ROTATION;
        refused(e, &p, 2, info(0, 0, p.channels[0][0]));
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][0] |= CHANNEL_QUANTIZED;
        refused(e, &p, 2, info(1, 1, p.channels[4][0]));
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][0] = (p.channels[4][0] & !(3 << CHANNEL_INTERP_SHIFT)) | (INTERP_HERMITE << CHANNEL_INTERP_SHIFT);
        refused(e, &p, 2, info(1, 1, p.channels[4][0]));
        // Unknown info bits beyond the packed one.
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][0] |= 1 << 29;
        refused(e, &p, 2, info(1, 1, p.channels[4][0]));
        // Parameters or stream past `quant` (18 bytes).
        let range = sk(SkeletonDefect::ChannelRange { bone: 1, channel: 1 });
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][3] = 3;
        refused(e, &p, 2, range);
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][2] = 18;
        refused(e, &p, 2, range);
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][2] = u32::MAX;
        refused(e, &p, 2, range);
        // Three keys need 12 bits: 2 bytes from byte 16 still fit, from byte 17 they do not.
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][0] = ChannelRecord::make_info(3, INTERP_LINEAR, false) | CHANNEL_PACKED_ROTATION;
        p.channels[4][1] = 0; // times [0, 1] then 0.5 (the next data word): not increasing
        p.data[T_HALF as usize] = w(e, 1.0);
        refused(e, &p, 2, sk(SkeletonDefect::KeyTime { bone: 1, channel: 1, key: 2 }));
        let mut p = packed_parts(e, &packed_params());
        p.channels[4][0] = ChannelRecord::make_info(1, INTERP_LINEAR, false) | CHANNEL_PACKED_ROTATION;
        p.channels[4][2] = 17; // one key, 4 bits: one byte at 17
        assert!(Blob::parse(&blob(e, &p)).is_ok());
    }
}

#[test]
fn packed_dropped_component_is_the_exact_integer_square_root() {
    // Σ v² over stored components = 2^60 − n for chosen n: the dropped one is ⌊√n⌋, checked
    // against squares worked out here (r² ≤ n < (r + 1)²).
    let p = PackedRotation { dropped: 3, bits: [16, 0, 0], min: [0, 0, 0], extent: [32768, 0, 0] };
    for q in [0u32, 1, 2, 1000, 32767, 40000, 65534, 65535] {
        let x = p.component(0, q);
        let [_, _, _, w] = p.decode([q, 0, 0]);
        let n = (1i128 << 60) - i128::from(x) * i128::from(x);
        let r = i128::from(w);
        assert!(r * r <= n && (r + 1) * (r + 1) > n, "q {q}: {r}² vs {n}");
    }
}

/// `bytes` relabelled as a blob of format `version` (checksum recomputed).
fn with_version(mut bytes: Vec<u8>, version: u16) -> Vec<u8> {
    bytes[4..6].copy_from_slice(&version.to_le_bytes());
    let crc = checksum(&bytes[..12], &bytes[HEADER_LEN..]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// The indexed clip (table [0, 0.5, 1]) with bone 1's rotation (keys at 0 and 1) as a bitmap at
/// byte 3 of `time_index`: entries 0 and 2, 0b101.
fn bitmapped(e: ScalarEncoding) -> Parts {
    let mut p = indexed(e, false);
    p.time_index.push(0b101);
    p.channels[4][0] |= CHANNEL_BITMAP_TIMES;
    p.channels[4][1] = 3;
    p
}

#[test]
fn bitmap_select_and_next_agree_with_a_bit_by_bit_scan() {
    // A pseudo-random 13-byte bitmap (LCG), and the empty and all-ones cases.
    let mut x = 12345u32;
    let random: Vec<u8> = (0..13)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    for bits in [random, vec![0u8; 5], vec![0xFF; 9], vec![]] {
        let set: Vec<usize> = (0..bits.len() * 8).filter(|&j| bits[j / 8] >> (j % 8) & 1 == 1).collect();
        for (k, &j) in set.iter().enumerate() {
            assert_eq!(bitmap_select(&bits, k), Some(j), "select {k} of {bits:?}");
        }
        assert_eq!(bitmap_select(&bits, set.len()), None);
        for from in 0..bits.len() * 8 + 40 {
            assert_eq!(bitmap_next(&bits, from), set.iter().copied().find(|&j| j >= from), "next {from} of {bits:?}");
        }
    }
    assert_eq!(bitmap_len(0), 0);
    assert_eq!((bitmap_len(8), bitmap_len(9), bitmap_len(251)), (1, 2, 32));
}

#[test]
fn bitmap_times_read_back() {
    for e in BOTH {
        let p = bitmapped(e);
        let bytes = blob(e, &p);
        let b = Blob::parse(&bytes).unwrap();
        let c = b.skel_clips().next().unwrap();
        let r = c.channel(1, 1).unwrap();
        assert!(r.bitmap_times() && r.indexed_times() && !c.channel(0, 0).unwrap().bitmap_times());
        assert_eq!((r.times, c.time_bitmap(3)), (3, Some(&[0b101u8][..])));
        let bits = c.time_bitmap(r.times as usize).unwrap();
        let times: Vec<u32> = (0..2).map(|k| c.time_table().get(bitmap_select(bits, k).unwrap()).unwrap()).collect();
        assert_eq!(times, [w(e, 0.0), w(e, 1.0)]);
        assert_eq!(c.time_bitmap(4), None);
    }
}

#[test]
fn bitmap_time_defects() {
    for e in BOTH {
        let bitmap = |found| sk(SkeletonDefect::TimeBitmap { bone: 1, channel: 1, found });
        // One bit for two keys; three bits; a bit past the 3-entry table (entry 3).
        for (byte, found) in [(0b001, 1), (0b111, 3), (0b1001, 2)] {
            let mut p = bitmapped(e);
            p.time_index[3] = byte;
            refused(e, &p, 2, bitmap(found));
        }
        // The bitmap past `time_index`; without the indexed bit.
        let mut p = bitmapped(e);
        p.channels[4][1] = 4;
        refused(e, &p, 2, sk(SkeletonDefect::ChannelRange { bone: 1, channel: 1 }));
        let mut p = bitmapped(e);
        p.channels[4][0] &= !CHANNEL_INDEXED_TIMES;
        refused(e, &p, 2, sk(SkeletonDefect::ChannelInfo { bone: 1, channel: 1, info: p.channels[4][0] }));
        // A version-6 blob may not use it; version 7 may.
        let bytes = blob(e, &bitmapped(e));
        assert!(Blob::parse(&with_version(bytes.clone(), 7)).is_ok());
        let newer = SkeletonDefect::NewerEncoding { bone: 1, channel: 1, version: 6, needs: 7 };
        assert_eq!(
            Blob::parse(&with_version(bytes, 6)).unwrap_err(),
            LoadError::MalformedSection { section: 2, kind: 6, defect: sk(newer) }
        );
    }
}

#[test]
fn a_version_5_blob_may_not_hold_packed_rotations() {
    for e in BOTH {
        let bytes = blob(e, &packed_parts(e, &packed_params()));
        assert!(Blob::parse(&with_version(bytes.clone(), 6)).is_ok());
        let newer = SkeletonDefect::NewerEncoding { bone: 1, channel: 1, version: 5, needs: 6 };
        assert_eq!(
            Blob::parse(&with_version(bytes, 5)).unwrap_err(),
            LoadError::MalformedSection { section: 2, kind: 6, defect: sk(newer) }
        );
        // The same clip without the packed channel is a valid version-5 blob.
        assert!(Blob::parse(&with_version(blob(e, &parts(e)), 5)).is_ok());
    }
}

#[test]
fn grid_time_is_j_over_rate_rounded_once() {
    // f32: the correctly rounded quotient (checked against f64 division rounded to f32, exact
    // here: both operands are small integers, so the f64 quotient is within 2^-53 relative and no
    // f32 tie is near).
    for (j, rate) in [(0usize, 30u32), (1, 30), (7, 30), (250, 30), (65535, 7), (3, 65535)] {
        let want = (j as f64 / f64::from(rate)) as f32;
        assert_eq!(grid_time(F32, j, rate), Some(want.to_bits()), "{j}/{rate}");
    }
    // Q16.16: round(j·65536 / rate), worked out: 65536/30 = 2184.53 -> 2185; 250·65536/30 =
    // 546133.33 -> 546133; 65536/3 = 21845.33 -> 21845; 2·65536/3 = 43690.67 -> 43691.
    assert_eq!(grid_time(Q16, 1, 30), Some(2185));
    assert_eq!(grid_time(Q16, 250, 30), Some(546_133));
    assert_eq!((grid_time(Q16, 1, 3), grid_time(Q16, 2, 3)), (Some(21845), Some(43691)));
    assert_eq!(grid_time(Q16, 65535, 2), Some(65535 * 32768)); // 32767.5 s fits
    assert_eq!(grid_time(Q16, 65535, 1), None); // 65535 s does not
    assert_eq!((grid_time(F32, 65536, 30), grid_time(F32, 1, 0), grid_time(F32, 1, 65536)), (None, None, None));
}

/// The indexed clip with its table as a grid: rate 2, 3 entries (0, 0.5, 1), compact when asked.
fn gridded(e: ScalarEncoding, compact: bool) -> Parts {
    let mut p = bitmapped(e);
    p.times = vec![2, 3];
    p.flags |= CLIP_FLAG_GRID_TIMES;
    if compact {
        p.flags |= CLIP_FLAG_COMPACT;
        p.compact = true;
    }
    p
}

#[test]
fn grid_tables_read_back() {
    for e in BOTH {
        for compact in [false, true] {
            let p = gridded(e, compact);
            let bytes = blob(e, &p);
            let b = Blob::parse(&bytes).unwrap();
            let c = b.skel_clips().next().unwrap();
            let table = c.time_table();
            assert_eq!(table, TimeTable::Grid { rate: 2, entries: 3, encoding: e });
            assert_eq!(table.iter().collect::<Vec<_>>(), [w(e, 0.0), w(e, 0.5), w(e, 1.0)]);
            assert_eq!((table.len(), table.get(3)), (3, None));
            assert_eq!(c.time_bitmap(3), Some(&[0b101u8][..]));
        }
    }
}

#[test]
fn grid_table_defects() {
    for e in BOTH {
        let grid = |rate, entries| sk(SkeletonDefect::TimeGrid { rate, entries });
        // Rate 0 or too high, no entries, a last entry past the 1 s clip, three words.
        for (rate, entries) in [(0, 3), (65536, 3), (2, 0), (2, 4)] {
            let mut p = gridded(e, false);
            p.times = vec![rate, entries];
            refused(e, &p, 2, grid(rate, entries));
        }
        let mut p = gridded(e, false);
        p.times = vec![2, 3, 0];
        refused(e, &p, 2, grid(2, 3));
        // An index past the grid's 3 entries.
        let mut p = gridded(e, false);
        p.time_index[1] = 3;
        refused(e, &p, 2, sk(SkeletonDefect::KeyTime { bone: 0, channel: 0, key: 1 }));
        // Version 6 does not know the flag.
        let bytes = blob(e, &gridded(e, false));
        let bytes = with_version(bytes, 6);
        let flags = CLIP_FLAG_LOOP | CLIP_FLAG_GRID_TIMES;
        // (The bitmap channel is checked after the flags.)
        assert_eq!(
            Blob::parse(&bytes).unwrap_err(),
            LoadError::MalformedSection {
                section: 2,
                kind: 6,
                defect: sk(SkeletonDefect::NewerFlags { found: flags, version: 6, needs: 7 })
            }
        );
    }
    // Q16.16: 65535 entries at 1/s do not fit.
    let mut p = gridded(Q16, false);
    p.duration = 0x7FFF_FFFF;
    p.times = vec![1, 40000];
    refused(Q16, &p, 2, grid(1, 40000));
    fn grid(rate: u32, entries: u32) -> SectionDefect {
        sk(SkeletonDefect::TimeGrid { rate, entries })
    }
}

#[test]
fn compact_records_round_trip_and_read_as_the_wide_ones() {
    let r =
        ChannelRecord { info: ChannelRecord::make_info(65535, INTERP_HERMITE, true), times: 1, values: 2, extra: 3 };
    let x = u64::from_le_bytes(r.to_compact().unwrap());
    // n | kind << 16 | times << 22 | values << 36 | extra << 50, written out.
    assert_eq!(x, 65535 | ((2 | 4) << 16) | (1 << 22) | (2 << 36) | (3 << 50));
    assert_eq!(ChannelRecord::from_compact(x), r);
    let all = CHANNEL_QUANTIZED | CHANNEL_INDEXED_TIMES | CHANNEL_PACKED_ROTATION | CHANNEL_BITMAP_TIMES;
    let r = ChannelRecord { info: 7 | all | (1 << CHANNEL_INTERP_SHIFT), times: 16383, values: 16383, extra: 16383 };
    assert_eq!(ChannelRecord::from_compact(u64::from_le_bytes(r.to_compact().unwrap())), r);
    for bad in [
        ChannelRecord { info: 65536, ..r },
        ChannelRecord { info: r.info | (1 << 30), ..r },
        ChannelRecord { times: 16384, ..r },
        ChannelRecord { values: 16384, ..r },
        ChannelRecord { extra: 16384, ..r },
    ] {
        assert_eq!(bad.to_compact(), None, "{bad:?}");
    }
    for e in BOTH {
        let wide = blob(e, &parts(e));
        let mut p = parts(e);
        p.flags |= CLIP_FLAG_COMPACT;
        p.compact = true;
        let compact = blob(e, &p);
        // 2 bone entries × 2 bytes and 4 records × 8 bytes smaller.
        assert_eq!(wide.len() - compact.len(), 2 * 2 + 4 * 8);
        let (a, b) = (Blob::parse(&wide).unwrap(), Blob::parse(&compact).unwrap());
        let (a, b) = (a.skel_clips().next().unwrap(), b.skel_clips().next().unwrap());
        assert!(b.compact() && !a.compact());
        assert_eq!((b.bone_count(), b.record_count()), (2, 4));
        assert_eq!((b.entry(0), b.entry(1), b.entry(2)), (Some(1), Some((1 << 3) | 7), None));
        for bone in 0..3 {
            for c in 0..4 {
                assert_eq!(a.channel(bone, c), b.channel(bone, c), "bone {bone} channel {c}");
            }
        }
    }
}

#[test]
fn compact_layout_defects() {
    for e in BOTH {
        let compact = || {
            let mut p = parts(e);
            p.flags |= CLIP_FLAG_COMPACT;
            p.compact = true;
            p
        };
        let mut p = compact();
        p.extra[6] = 1;
        refused(e, &p, 2, sk(SkeletonDefect::RecordArray { array: "bones", len: 5 }));
        let mut p = compact();
        p.extra[2] = 4;
        refused(e, &p, 2, sk(SkeletonDefect::RecordArray { array: "channels", len: 36 }));
        // Entries that do not match the records: bone 1 starting at record 2.
        let mut p = compact();
        p.entries = Some(vec![1 | ((2 << 3) | 7) << 16]); // two u16 entries in one word
        refused(e, &p, 2, sk(SkeletonDefect::BoneEntry { bone: 1, entry: (2 << 3) | 7 }));
        // Version 6 does not know the flag.
        let bytes = with_version(blob(e, &compact()), 6);
        let flags = CLIP_FLAG_LOOP | CLIP_FLAG_COMPACT;
        assert_eq!(
            Blob::parse(&bytes).unwrap_err(),
            LoadError::MalformedSection {
                section: 2,
                kind: 6,
                defect: sk(SkeletonDefect::NewerFlags { found: flags, version: 6, needs: 7 })
            }
        );
    }
}

/// The writer places each skeleton's bone records and each clip's data words 4-aligned from the
/// blob's first byte, whatever the lengths before them (an extra string of each length shifts
/// the data area by each residue), so that a blob loaded 4-aligned reads them
/// as words; the blob still reads back the same.
#[test]
fn writer_aligns_bone_records_and_clip_data() {
    let offset = |bytes: &[u8], part: &[u8]| part.as_ptr() as usize - bytes.as_ptr() as usize;
    for e in BOTH {
        for extra in [None, Some(""), Some("x"), Some("xy"), Some("xyz"), Some("wxyz")] {
            let p = parts(e);
            let bytes = blob_with(e, &p, extra);
            let b = Blob::parse(&bytes).unwrap();
            let at = std::format!("{e:?}, extra string {extra:?}");
            let s = b.skeletons().next().unwrap();
            assert_eq!(offset(&bytes, s.bones_array_bytes()) % 4, 0, "{at}");
            assert_eq!(s.bone(1), Some(BoneRecord { parent: Some(0), lod: 1, name: 2 }), "{at}");
            let c = b.skel_clips().next().unwrap();
            assert_eq!(offset(&bytes, c.data().as_bytes()) % 4, 0, "{at}");
            let words: Vec<u32> = c.data().iter().collect();
            assert_eq!(words, p.data, "{at}");
        }
    }
}
