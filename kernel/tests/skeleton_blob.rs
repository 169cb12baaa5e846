//! Skeletons and skeletal clips read in place from a blob ([`BlobSkeleton`], [`BlobSkelClip`])
//! return exactly what equal in-RAM sources ([`SliceSkeleton`], [`SliceSkelClip`]) return: every
//! bone, every channel, every key, every tangent and every event, in f32 and Q16.16 blobs. The blob
//! is written word by word here from the layout in `ossicle_format::skeleton` (key times raw, or
//! as u8 or u16 indices into a time table, or as bitmaps over a table of words or over a grid
//! table, the last in the compact layout); quantised values are
//! expected as the layout's formula computed in this test (and within half a quantisation step,
//! in f64, of the value that was quantised).

use ossicle::asset::Asset;
use ossicle::math::{Quat, Transform2, Transform3, Vec2, Vec3};
use ossicle::skeleton::{
    BlobSkelClip, ChannelData, ChannelKind, ClipEvent, Dimension, Interpolation, Joint, Scalars, SkelClipSource,
    SkeletonSource, SliceSkelClip, SliceSkeleton, SliceTrack,
};
use ossicle::{Scalar, Q16};
use ossicle_format::skeleton::{
    pack_channels, pack_channels_compact, ChannelRecord, PackedRotation, SkelClipBody, SkeletonBody,
    CHANNEL_BITMAP_TIMES, CHANNEL_INDEXED_TIMES, CHANNEL_PACKED_ROTATION, CLIP_FLAG_COMPACT, CLIP_FLAG_GRID_TIMES,
    CLIP_FLAG_WIDE_INDEX, INTERP_HERMITE, INTERP_LINEAR, INTERP_STEP,
};
use ossicle_format::BlobWriter;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A channel as the test describes it: interpolation code, times, values (key after key),
/// tangents (Hermite), and whether to store the values quantised with the given q values and
/// per-component (min, extent).
struct Ch {
    interp: u32,
    times: Vec<f64>,
    values: Vec<f64>,
    tangents: Vec<f64>,
    quant: Option<Quant>,
    /// Packed smallest-three rotation storage (format version 6): parameters and per key the
    /// quantised stored components.
    packed: Option<(PackedRotation, Vec<[u32; 3]>)>,
}

/// Quantised storage: the u16 values, and per component (min, extent).
type Quant = (Vec<u16>, Vec<(f64, f64)>);

/// An expected channel: interpolation, times, values, tangents.
type Expected<S> = Option<(Interpolation, Vec<S>, Vec<S>, Vec<S>)>;

/// The value a quantised component must decode to: the layout's formula, written out here.
fn dequant<S: Scalar>(min: S, extent: S, q: u16) -> S {
    if S::ENCODING == ossicle_format::ScalarEncoding::F32 {
        S::from_f32(min.to_f32() + extent.to_f32() * (f32::from(q) / 65535.0))
    } else {
        let (m, e) = (i64::from(min.to_q16_bits()), i64::from(extent.to_q16_bits()));
        S::from_q16_bits((m + (i64::from(q) * e + 32767) / 65535) as i32)
    }
}

/// What a packed rotation key must decode to, computed here from the layout's description: stored
/// component `min·2^15 + (extent·2^15·q + D div 2) div D` (D = 2^b − 1; `min·2^15` for 0 bits),
/// the dropped one `⌊√(2^60 − Σ v²)⌋` (f64 square root, corrected to the exact floor with
/// integer squares), then the scalar: f32 `v / 2^30` rounded once, Q16.16 `(v + 2^13) >> 14`.
fn unpack<S: Scalar>(p: &PackedRotation, q: [u32; 3]) -> [S; 4] {
    let mut stored = [0i64; 3];
    for j in 0..3 {
        let (b, min, ext) = (p.bits[j], i64::from(p.min[j]), i64::from(p.extent[j]));
        stored[j] = if b == 0 {
            min * 32768
        } else {
            let d = (1i64 << b) - 1;
            min * 32768 + (ext * 32768 * i64::from(q[j]) + d / 2) / d
        };
    }
    let rest = (1i128 << 60) - stored.iter().map(|&v| i128::from(v) * i128::from(v)).sum::<i128>();
    let mut root = if rest > 0 { (rest as f64).sqrt() as i128 } else { 0 };
    while root > 0 && root * root > rest {
        root -= 1;
    }
    while rest > 0 && (root + 1) * (root + 1) <= rest {
        root += 1;
    }
    let mut out = [0i64; 4];
    let mut it = stored.iter();
    for (i, o) in out.iter_mut().enumerate() {
        *o = if i == usize::from(p.dropped) { root as i64 } else { *it.next().unwrap() };
    }
    out.map(|v| {
        if S::ENCODING == ossicle_format::ScalarEncoding::F32 {
            S::from_f32((v as f64 / 1073741824.0) as f32)
        } else {
            S::from_q16_bits(((v + 8192) >> 14) as i32)
        }
    })
}

/// The bit stream of packed keys: key k at bit k·K, its components from the lowest bits.
fn pack_stream(p: &PackedRotation, keys: &[[u32; 3]]) -> Vec<u8> {
    let mut bits: Vec<bool> = Vec::new();
    for q in keys {
        for (&v, &b) in q.iter().zip(&p.bits) {
            for i in 0..b {
                bits.push(v >> i & 1 == 1);
            }
        }
    }
    bits.chunks(8).map(|c| c.iter().enumerate().map(|(i, &b)| u8::from(b) << i).sum()).collect()
}

struct Built<S> {
    bytes: Vec<u8>,
    /// Per bone, per channel: (interpolation, times, values, tangents) as S.
    expected: Vec<[Expected<S>; 3]>,
    events: Vec<ClipEvent<S>>,
}

/// How the test blob stores key times.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Times {
    /// Raw words in `data`.
    Raw,
    /// u8 indices into a table of the clip's distinct key times.
    Index8,
    /// u16 indices into a table that also holds 300 unused times before the first used non-zero
    /// one (so indices above 255 are read).
    Index16,
    /// Bitmaps (format version 7) over a table of the clip's distinct key times, every channel.
    Bitmap,
    /// A grid table (format version 7: rate 4/s, 9 entries, 0 to 2 s), bitmaps for channels of
    /// three keys or more and u8 indices for the others, in the compact layout (u16 bone entries,
    /// 8-byte records).
    Grid,
}

/// Writes a skeleton `rig` (bones with parents, lods, rest words) and a clip `walk` of `dim`.
fn build<S: Scalar>(
    dim: Dimension,
    bones: &[(u16, u8, &str, Vec<f64>)],
    channels: Vec<[Option<Ch>; 3]>,
    events: &[(f64, &str)],
    mode: Times,
) -> Built<S> {
    let word = |v: f64| S::from_f64(v).to_blob_bits();
    let mut w = BlobWriter::new(S::ENCODING);
    let rig = w.intern("rig");
    let walk = w.intern("walk");
    let mut bone_words = Vec::new();
    let mut rest = Vec::new();
    for (parent, lod, name, r) in bones {
        bone_words.push(u32::from(*parent) | (u32::from(*lod) << 16));
        bone_words.push(w.intern(name));
        rest.extend(r.iter().map(|&v| word(v)));
    }
    let (bone_bytes, rest_bytes) = (le(&bone_words), le(&rest));
    w.add_skeleton(&SkeletonBody { name: rig, dimension: dim as u8, bones: &bone_bytes, rest: &rest_bytes }).unwrap();
    let mut records: Vec<[u32; 4]> = Vec::new();
    let mut pending: Vec<(usize, Vec<f64>)> = Vec::new();
    let mut data: Vec<u32> = Vec::new();
    let mut quant: Vec<u8> = Vec::new();
    let mut expected = Vec::new();
    for bone in channels {
        let mut exp: [Expected<S>; 3] = [None, None, None];
        for (c, ch) in bone.into_iter().enumerate() {
            let Some(ch) = ch else {
                records.push([0; 4]);
                continue;
            };
            let width = dim.width(c);
            let n = ch.times.len();
            let times_at = if mode == Times::Raw {
                let at = data.len() as u32;
                data.extend(ch.times.iter().map(|&t| word(t)));
                at
            } else {
                pending.push((records.len(), ch.times.clone()));
                0
            };
            let interp = match ch.interp {
                INTERP_STEP => Interpolation::Step,
                INTERP_LINEAR => Interpolation::Linear,
                _ => Interpolation::Hermite,
            };
            let times: Vec<S> = ch.times.iter().map(|&t| S::from_f64(t)).collect();
            let tangents: Vec<S> = ch.tangents.iter().map(|&t| S::from_f64(t)).collect();
            let (values_at, extra, values) = match &ch.quant {
                None if ch.packed.is_some() => {
                    let (params, keys) = ch.packed.as_ref().unwrap();
                    let extra = quant.len() as u32;
                    quant.extend(params.to_bytes());
                    let at = quant.len() as u32;
                    quant.extend(pack_stream(params, keys));
                    if quant.len() % 2 == 1 {
                        quant.push(0);
                    }
                    (at, extra, keys.iter().flat_map(|&q| unpack::<S>(params, q)).collect())
                }
                None => {
                    let at = data.len() as u32;
                    data.extend(ch.values.iter().map(|&v| word(v)));
                    let extra = data.len() as u32;
                    (
                        at,
                        if ch.interp == INTERP_HERMITE { extra } else { 0 },
                        ch.values.iter().map(|&v| S::from_f64(v)).collect(),
                    )
                }
                Some((qs, ranges)) => {
                    let at = (quant.len() / 2) as u32;
                    quant.extend(qs.iter().flat_map(|q| q.to_le_bytes()));
                    let extra = data.len() as u32;
                    data.extend(ranges.iter().map(|r| word(r.0)));
                    data.extend(ranges.iter().map(|r| word(r.1)));
                    let vals: Vec<S> = qs
                        .iter()
                        .enumerate()
                        .map(|(i, &q)| {
                            let (min, ext) = ranges[i % width];
                            let v = dequant(S::from_f64(min), S::from_f64(ext), q);
                            // Within rounding of the real-number formula.
                            let real = min + ext * f64::from(q) / 65535.0;
                            let tol =
                                if S::ENCODING == ossicle_format::ScalarEncoding::F32 { 1e-6 } else { 3.0 / 65536.0 };
                            assert!((v.to_f64() - real).abs() <= tol, "{} vs {real}", v.to_f64());
                            v
                        })
                        .collect();
                    (at, extra, vals)
                }
            };
            if ch.interp == INTERP_HERMITE {
                data.extend(ch.tangents.iter().map(|&v| word(v)));
            }
            let packed = if ch.packed.is_some() { CHANNEL_PACKED_ROTATION } else { 0 };
            records.push([
                ChannelRecord::make_info(n as u32, ch.interp, ch.quant.is_some()) | packed,
                times_at,
                values_at,
                extra,
            ]);
            assert_eq!(values.len(), n * width);
            exp[c] = Some((interp, times, values, tangents));
        }
        expected.push(exp);
    }
    let mut event_words = Vec::new();
    let mut evs = Vec::new();
    for &(t, name) in events {
        let id = w.intern(name);
        event_words.extend([word(t), id]);
        evs.push(ClipEvent { time: S::from_f64(t), name: id as u16 });
    }
    // The time table: every distinct key time (plus, for u16 indices, 300 unused ones), sorted;
    // for the grid, every quarter second from 0 to 2.
    let grid = mode == Times::Grid;
    let mut table: Vec<f64> = pending.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    if mode == Times::Index16 {
        table.extend((1..=300).map(|i| f64::from(i) * 0.0005));
    }
    if grid {
        table = (0..=8).map(|j| f64::from(j) * 0.25).collect();
    }
    table.sort_by(f64::total_cmp);
    table.dedup();
    let mut index: Vec<u8> = Vec::new();
    for (r, times) in &pending {
        let wide = mode == Times::Index16;
        records[*r][0] |= CHANNEL_INDEXED_TIMES;
        records[*r][1] = (if wide { index.len() / 2 } else { index.len() }) as u32;
        if mode == Times::Bitmap || (grid && times.len() >= 3) {
            // Bit j of byte j / 8 for table entry j.
            records[*r][0] |= CHANNEL_BITMAP_TIMES;
            let mut bits = vec![0u8; table.len().div_ceil(8)];
            for t in times {
                let j = table.iter().position(|x| x == t).unwrap();
                bits[j / 8] |= 1 << (j % 8);
            }
            index.extend(bits);
            continue;
        }
        for t in times {
            let i = table.iter().position(|x| x == t).unwrap() as u16;
            if wide {
                index.extend(i.to_le_bytes());
            } else {
                index.push(u8::try_from(i).unwrap());
            }
        }
    }
    let table_words: Vec<u32> = if grid { vec![4, 9] } else { table.iter().map(|&t| word(t)).collect() };
    let (entries, rec_bytes) = if grid { pack_channels_compact(&records).unwrap() } else { pack_channels(&records) };
    let (data_bytes, ev_bytes, table_bytes) = (le(&data), le(&event_words), le(&table_words));
    w.add_skel_clip(&SkelClipBody {
        name: walk,
        skeleton: rig,
        dimension: dim as u8,
        flags: 1
            | if mode == Times::Index16 { CLIP_FLAG_WIDE_INDEX } else { 0 }
            | if grid { CLIP_FLAG_GRID_TIMES | CLIP_FLAG_COMPACT } else { 0 },
        duration: word(2.0),
        sample_rate: word(30.0),
        bones: &entries,
        channels: &rec_bytes,
        data: &data_bytes,
        quant: &quant,
        times: &table_bytes,
        time_index: &index,
        events: &ev_bytes,
    })
    .unwrap();
    Built { bytes: w.finish().unwrap(), expected, events: evs }
}

fn raw(interp: u32, times: &[f64], values: &[f64], tangents: &[f64]) -> Option<Ch> {
    Some(Ch {
        interp,
        times: times.to_vec(),
        values: values.to_vec(),
        tangents: tangents.to_vec(),
        quant: None,
        packed: None,
    })
}

/// Every channel and event of `blob` equals `slice`'s, value for value.
fn assert_same_clip<S: Scalar, J: Joint<S>>(blob: &BlobSkelClip<'_>, slice: &SliceSkelClip<'_, S>) {
    slice.check::<J>().unwrap();
    assert_eq!(SkelClipSource::<S>::duration(blob), slice.duration);
    assert_eq!(SkelClipSource::<S>::looping(blob), slice.looping);
    assert_eq!(SkelClipSource::<S>::bone_count(blob), SkelClipSource::<S>::bone_count(slice));
    for bone in 0..slice.tracks.len() + 1 {
        for kind in ChannelKind::ALL {
            let a = SkelClipSource::<S>::channel(blob, bone, kind);
            let b = SkelClipSource::<S>::channel(slice, bone, kind);
            assert_eq!(a.is_some(), b.is_some(), "bone {bone} {kind:?}");
            let (Some(a), Some(b)) = (a, b) else { continue };
            assert_eq!(a.interpolation, b.interpolation);
            same(a.times, b.times);
            same(a.values, b.values);
            same(a.tangents, b.tangents);
        }
    }
    assert_eq!(SkelClipSource::<S>::event_count(blob), slice.events.len());
    for i in 0..=slice.events.len() {
        assert_eq!(SkelClipSource::<S>::event(blob, i), slice.events.get(i).copied());
    }
}

fn same<S: Scalar>(a: impl Scalars<S>, b: &[S]) {
    assert_eq!(a.len(), b.len());
    let got: Vec<S> = (0..a.len()).map(|i| a.get(i)).collect();
    assert_eq!(got, b);
    assert_eq!(a.get(a.len()), S::ZERO, "zero past the end");
    // get4: every run (whole, partial at the end, past the end) is `count` gets, zero after.
    for first in 0..a.len() + 2 {
        for count in 0..=5 {
            let want: [S; 4] = core::array::from_fn(|c| {
                if c < count.min(4) {
                    b.get(first + c).copied().unwrap_or(S::ZERO)
                } else {
                    S::ZERO
                }
            });
            assert_eq!(a.get4(first, count), want, "get4({first}, {count})");
        }
    }
}

fn slice_parts<S: Scalar>(b: &Built<S>) -> Vec<[Option<ChannelData<&[S]>>; 3]> {
    b.expected
        .iter()
        .map(|chs| {
            let mut out: [Option<ChannelData<&[S]>>; 3] = [None, None, None];
            for (o, c) in out.iter_mut().zip(chs) {
                *o = c.as_ref().map(|(i, t, v, g)| ChannelData {
                    interpolation: *i,
                    times: t.as_slice(),
                    values: v.as_slice(),
                    tangents: g.as_slice(),
                });
            }
            out
        })
        .collect()
}

fn clip_3d<S: Scalar>(mode: Times) -> Built<S> {
    let ident = vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
    let bones = [
        (0xFFFF, 0, "root", ident.clone()),
        (0, 0, "spine", vec![0.0, 10.5, -1.25, 0.0, 0.0, 0.6, 0.8, 1.0, 1.0, 1.0]),
        (1, 2, "arm", vec![3.0, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 2.0, 2.0, 2.0]),
    ];
    let rot_q = Some(Ch {
        interp: INTERP_LINEAR,
        times: vec![0.0, 1.0, 2.0],
        values: vec![],
        tangents: vec![],
        // Key values: (0, 0, 0, 1), (0, 0, 0.6, 0.8), (0, 0, 0.3, 0.9...) as q over ranges.
        quant: Some((
            vec![0, 0, 0, 65535, 0, 0, 65535, 0, 0, 0, 32768, 40000],
            vec![(0.0, 0.0), (0.0, 0.0), (0.0, 0.6), (0.8, 0.2)],
        )),
        packed: None,
    });
    // Packed: drop x; y 0 bits at 0.25, z 5 bits over [-0.5, 0.25], w 11 bits over [0.5, 1.0]
    // (keys straddle bytes: 16 bits each, starting at bit 0, 16, 32, 48).
    let packed = PackedRotation { dropped: 0, bits: [0, 5, 11], min: [8192, -16384, 16384], extent: [0, 24576, 16384] };
    let rot_p = Some(Ch {
        interp: INTERP_LINEAR,
        times: vec![0.0, 0.5, 1.5, 2.0],
        values: vec![],
        tangents: vec![],
        quant: None,
        packed: Some((packed, vec![[0, 31, 2047], [0, 0, 0], [0, 17, 1000], [0, 30, 1]])),
    });
    let channels = vec![
        [raw(INTERP_LINEAR, &[0.0, 0.5, 2.0], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -7.5, 8.25, 9.0], &[]), rot_q, None],
        [
            None,
            raw(INTERP_STEP, &[0.25, 1.75], &[0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0], &[]),
            raw(
                INTERP_HERMITE,
                &[0.0, 2.0],
                &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0],
                &[0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0],
            ),
        ],
        [None, rot_p, None],
    ];
    build::<S>(Dimension::D3, &bones, channels, &[(0.0, "start"), (1.0, "step"), (1.0, "step"), (2.0, "end")], mode)
}

fn blob_3d_equals_slice<S: Scalar>() {
    for mode in [Times::Index8, Times::Index16, Times::Bitmap, Times::Grid] {
        let b = clip_3d::<S>(mode);
        let asset = Asset::load(&b.bytes).unwrap();
        let clip = asset.skel_clip_named("walk").unwrap();
        let table = clip.section().time_table().len();
        let want = match mode {
            Times::Index16 => 307,
            Times::Grid => 9,
            _ => 7,
        };
        assert_eq!(table, want, "{mode:?}");
        assert_eq!(clip.section().compact(), mode == Times::Grid);
        let bitmaps = (0..3).filter(|&b| clip.section().channel(b, 1).is_some_and(|r| r.bitmap_times())).count();
        // Rotations of 3, 2 and 4 keys: the grid keeps u8 indices for the 2-key one.
        let want = match mode {
            Times::Bitmap => 3,
            Times::Grid => 2,
            _ => 0,
        };
        assert_eq!(bitmaps, want, "{mode:?}");
        assert_eq!(clip.section().wide_index(), mode == Times::Index16);
        let parts = slice_parts(&b);
        let tracks: Vec<SliceTrack<'_, S>> = parts.iter().map(|c| SliceTrack { channels: *c }).collect();
        let slice = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &b.events };
        assert_same_clip::<S, Transform3<S>>(&clip, &slice);
    }
    let b = clip_3d::<S>(Times::Raw);
    let asset = Asset::load(&b.bytes).unwrap();
    let clip = asset.skel_clip_named("walk").unwrap();
    assert_eq!(clip.section().time_table().len(), 0);
    assert_eq!((clip.name(), clip.skeleton_name(), clip.dimension()), ("walk", Some("rig"), Dimension::D3));
    assert_eq!(clip.sample_rate::<S>(), S::from_i32(30));
    assert_eq!((clip.event_name(1), clip.event_name(4)), (Some("step"), None));
    assert_eq!(clip.key_count(0, ChannelKind::Rotation), 3);
    let parts = slice_parts(&b);
    let tracks: Vec<SliceTrack<'_, S>> = parts.iter().map(|c| SliceTrack { channels: *c }).collect();
    let slice = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &b.events };
    assert_same_clip::<S, Transform3<S>>(&clip, &slice);
    let rot = SkelClipSource::<S>::channel(&clip, 0, ChannelKind::Rotation).unwrap();
    assert!(rot.values.is_quantized() && !rot.times.is_quantized());
    // Packed key 0, by hand: y = 8192 units = 0.25, z = −0.5 + 0.75 · 31/31 = 0.25, w = 0.5 + 0.5 ·
    // 2047/2047 = 1; x = √max(0, 1 − 1.125) = 0. Key 1 (all q 0): y 0.25, z −0.5, w 0.5,
    // x = √(1 − 0.0625 − 0.25 − 0.25) = √0.4375 (f32 of ⌊√0.4375 · 2^30⌋ / 2^30).
    let sv = |v: f64| S::from_f64(v);
    let packed = SkelClipSource::<S>::channel(&clip, 2, ChannelKind::Rotation).unwrap();
    assert!(packed.values.is_quantized());
    assert_eq!(packed.values.get4(0, 4), [S::ZERO, sv(0.25), sv(0.25), S::ONE]);
    let x1 = packed.values.get(4).to_f64();
    assert!(
        (x1 - 0.4375f64.sqrt()).abs()
            <= if S::ENCODING == ossicle_format::ScalarEncoding::F32 { 1e-7 } else { 1.0 / 65536.0 }
    );
    assert_eq!(&packed.values.get4(4, 4)[1..], &[sv(0.25), sv(-0.5), sv(0.5)]);

    // The skeleton equals a SliceSkeleton of the same parents, rest poses, lods and names.
    let skel = asset.skeleton_of(&clip).unwrap();
    assert_eq!(
        (skel.name(), skel.bone_count(), skel.find_bone("arm"), skel.bone_name(1)),
        ("rig", 3, Some(2), Some("spine"))
    );
    let s = |v: f64| S::from_f64(v);
    let rest = [
        Transform3::IDENTITY,
        Transform3::new(
            Vec3::new(s(0.0), s(10.5), s(-1.25)),
            Quat { x: s(0.0), y: s(0.0), z: s(0.6), w: s(0.8) },
            Vec3::new(S::ONE, S::ONE, S::ONE),
        ),
        Transform3::new(
            Vec3::new(s(3.0), S::ZERO, S::ZERO),
            Quat { x: S::HALF, y: S::HALF, z: S::HALF, w: S::HALF },
            Vec3::new(S::TWO, S::TWO, S::TWO),
        ),
    ];
    let names: Vec<u16> = ["root", "spine", "arm"].iter().map(|n| asset.find_string(n).unwrap() as u16).collect();
    let parents = [u16::MAX, 0, 1];
    let lods = [0, 0, 2];
    let expect = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap().with_names(&names).unwrap();
    type J<S> = Transform3<S>;
    assert_eq!(SkeletonSource::<S, J<S>>::bone_count(&skel), 3);
    for i in 0..4 {
        assert_eq!(SkeletonSource::<S, J<S>>::parent(&skel, i), SkeletonSource::<S, J<S>>::parent(&expect, i));
        assert_eq!(SkeletonSource::<S, J<S>>::rest(&skel, i), SkeletonSource::<S, J<S>>::rest(&expect, i), "bone {i}");
        assert_eq!(SkeletonSource::<S, J<S>>::lod(&skel, i), SkeletonSource::<S, J<S>>::lod(&expect, i));
        assert_eq!(SkeletonSource::<S, J<S>>::name_id(&skel, i), SkeletonSource::<S, J<S>>::name_id(&expect, i));
    }
    // Read as 2D it has no bones.
    assert_eq!(SkeletonSource::<S, Transform2<S>>::bone_count(&skel), 0);
    assert_eq!(SkeletonSource::<S, Transform2<S>>::rest(&skel, 1), Transform2::IDENTITY);
}

fn clip_2d<S: Scalar>(mode: Times) -> Built<S> {
    let bones = [(0xFFFF, 0, "hip", vec![1.0, 2.0, 0.5, 1.0, 1.0]), (0, 1, "leg", vec![0.0, -3.0, -0.25, 1.0, 2.0])];
    let angle = raw(INTERP_LINEAR, &[0.0, 1.0, 2.0], &[0.0, 1.5, -1.5], &[]);
    let move_q = Some(Ch {
        interp: INTERP_HERMITE,
        times: vec![0.0, 2.0],
        values: vec![],
        tangents: vec![1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0],
        quant: Some((vec![0, 65535, 65535, 12345], vec![(-4.0, 8.0), (-1.0, 3.0)])),
        packed: None,
    });
    let channels = vec![[move_q, None, None], [None, angle, raw(INTERP_STEP, &[0.5], &[1.0, 3.0], &[])]];
    build::<S>(Dimension::D2, &bones, channels, &[], mode)
}

fn blob_2d_equals_slice<S: Scalar>() {
    for mode in [Times::Index8, Times::Index16, Times::Bitmap, Times::Grid] {
        let b = clip_2d::<S>(mode);
        let asset = Asset::load(&b.bytes).unwrap();
        let clip = asset.skel_clips().next().unwrap();
        let parts = slice_parts(&b);
        let tracks: Vec<SliceTrack<'_, S>> = parts.iter().map(|c| SliceTrack { channels: *c }).collect();
        let slice = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] };
        assert_same_clip::<S, Transform2<S>>(&clip, &slice);
    }
    let b = clip_2d::<S>(Times::Raw);
    let asset = Asset::load(&b.bytes).unwrap();
    let clip = asset.skel_clips().next().unwrap();
    assert_eq!(clip.dimension(), Dimension::D2);
    let parts = slice_parts(&b);
    let tracks: Vec<SliceTrack<'_, S>> = parts.iter().map(|c| SliceTrack { channels: *c }).collect();
    let slice = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] };
    assert_same_clip::<S, Transform2<S>>(&clip, &slice);
    let skel = asset.skeleton_named("rig").unwrap();
    let s = |v: f64| S::from_f64(v);
    assert_eq!(SkeletonSource::<S, Transform2<S>>::bone_count(&skel), 2);
    assert_eq!(
        SkeletonSource::<S, Transform2<S>>::rest(&skel, 1),
        Transform2::new(Vec2::new(S::ZERO, s(-3.0)), s(-0.25), Vec2::new(S::ONE, S::TWO))
    );
    assert_eq!(SkeletonSource::<S, Transform2<S>>::parent(&skel, 1), Some(0));
    assert_eq!(SkeletonSource::<S, Transform2<S>>::lod(&skel, 1), 1);
    // Read as 3D it has no bones.
    assert_eq!(SkeletonSource::<S, Transform3<S>>::bone_count(&skel), 0);
    assert_eq!(SkeletonSource::<S, Transform3<S>>::rest(&skel, 0), Transform3::IDENTITY);
}

#[test]
fn blob_3d_clip_and_skeleton_equal_slices_f32() {
    blob_3d_equals_slice::<f32>();
}

#[test]
fn blob_3d_clip_and_skeleton_equal_slices_q16() {
    blob_3d_equals_slice::<Q16>();
}

#[test]
fn blob_2d_clip_and_skeleton_equal_slices_f32() {
    blob_2d_equals_slice::<f32>();
}

#[test]
fn blob_2d_clip_and_skeleton_equal_slices_q16() {
    blob_2d_equals_slice::<Q16>();
}

#[test]
fn read_with_the_other_scalar_type_a_blob_has_nothing() {
    let b = clip_3d::<f32>(Times::Index8);
    let asset = Asset::load(&b.bytes).unwrap();
    let clip = asset.skel_clip_named("walk").unwrap();
    assert!(clip.check::<f32>().is_ok());
    let e = clip.check::<Q16>().unwrap_err();
    assert_eq!(e.to_string(), "blob stores f32 scalars, q16 were requested");
    assert_eq!(SkelClipSource::<Q16>::bone_count(&clip), 0);
    assert!(SkelClipSource::<Q16>::channel(&clip, 0, ChannelKind::Translation).is_none());
    assert_eq!(SkelClipSource::<Q16>::duration(&clip), Q16::ONE);
    assert_eq!((SkelClipSource::<Q16>::event_count(&clip), SkelClipSource::<Q16>::event(&clip, 0)), (0, None));
    let skel = asset.skeleton_of(&clip).unwrap();
    assert!(skel.check::<Q16>().is_err());
    assert_eq!(SkeletonSource::<Q16, Transform3<Q16>>::bone_count(&skel), 0);
    assert!(asset.skeleton_named("nope").is_none() && asset.skel_clip_named("nope").is_none());
}
