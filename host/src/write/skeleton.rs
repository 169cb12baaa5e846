//! Skeletons and skeletal clips -> Skeleton and SkelClip sections (see `ossicle_format::skeleton`).
//!
//! # Which skeleton a clip animates
//!
//! A clip that came with its own skeleton (an EVA file's) animates that skeleton. A clip without
//! one (an EVAC file: tracks by bone name, no hierarchy) binds, by bone name
//! ([`evac::bind`]), to the skeleton named by
//! [`SkelOptions::skeleton`] (`ossicle build --skeleton NAME`) when given; otherwise to the build's
//! only skeleton. With no skeleton in the build, or several and no `--skeleton`, the build fails
//! at the clip's file, naming the skeletons there are.
//!
//! # Encoding
//!
//! Keys are stored as they are, every channel linear; a record only for each animated channel,
//! except *rest channels*: a channel whose every key is its bone's rest (bind) value, word for word
//! in the blob's encoding (with [`SkelOptions::quantize`], the raw words before quantising), gets
//! no record, since a channel without one samples the skeleton's rest pose. Only where the stored
//! keys would sample to exactly those words at every time (`samples_as_rest`): Step channels and
//! single keys; Linear channels unless an f32 component is `−0.0` or, for a rotation, the kernel's
//! normalisation changes it; never Hermite ones. [`SkelClipReport::rest_channels`] counts them.
//! Key times are exact: either every channel's times are indices (u8 when the clip has at most 256
//! distinct key times, else u16) into the clip's table of its distinct time words, or every
//! channel's times are raw scalar words, whichever is smaller (identical runs of indices or of
//! time words are stored once and shared between channels; a reduced clip, whose channels keep
//! different subsets of the source's sample times, takes the table). Values are raw scalar
//! words (lossless in f32 blobs; rounded to the nearest 2^-16 in Q16.16 blobs), or, with
//! [`SkelOptions::quantize`], 16-bit quantised per channel component over the component's
//! `[min, max]` range for every channel of at least [`QUANTIZE_MIN_KEYS`] keys (a shorter channel is
//! smaller raw). The quantised value of each component is the u16 whose decoded value (the
//! format's `dequantize`, bit for bit what the kernel reads) is nearest the source value.
//!
//! With [`SkelOptions::quantize`], a rotation channel whose keys are exactly the decoded values of
//! a packed smallest-three encoding (format version 6; what
//! [`reduce_quantized`](crate::reduce::reduce_quantized) produces, having chosen the bit widths
//! against the error bound) is stored packed: [`recover_packed`] finds that encoding (the fewest
//! bits per key that give back exactly these values), unless it is not smaller than raw words
//! (one key, 0 bits: 16 bytes either way). Other rotation channels are stored as above.
//!
//! Format version 7 encodings, each only where it is smaller: a time table that is exactly a
//! uniform grid is stored as its rate and length ([`CLIP_FLAG_GRID_TIMES`]; with `--reduce
//! --quantize` the reducer may move the times onto the grid first, see
//! [`reduce_quantized`](crate::reduce::reduce_quantized)); with [`SkelOptions::quantize`], a run of
//! key times is stored as a bitmap over the table ([`CHANNEL_BITMAP_TIMES`]) when that is smaller
//! than its indices (lossless builds keep indices: a bitmap read costs more); and the clip uses the
//! compact layout ([`CLIP_FLAG_COMPACT`]: 2-byte bone entries, 8-byte records) when every record
//! fits it. [`clip_bytes`] says where a clip section's bytes go.
//!
//! A value that the encoding cannot hold (non-finite, or outside Q16.16's `[-32768, 32767.99998]`)
//! fails the build naming the file, the clip or skeleton, the bone, the channel and the key.

use crate::error::HostError;
use crate::ir::{ChannelInterp, KeyTangents, SkelClipIr, SkeletonIr};
use crate::reduce::recover_packed;
use crate::sources::evac;
use ossicle_format::skeleton::{
    bitmap_len, dequantize, grid_time, pack_channels, pack_channels_compact, packed_word, ChannelRecord, Dimension,
    SkelClipBody, SkelClipSection, SkeletonBody, CHANNEL_BITMAP_TIMES, CHANNEL_INDEXED_TIMES, CHANNEL_PACKED_ROTATION,
    CLIP_FLAG_COMPACT, CLIP_FLAG_GRID_TIMES, CLIP_FLAG_LOOP, CLIP_FLAG_WIDE_INDEX, EVENT_RECORD_LEN, GRID_MAX_ENTRIES,
    GRID_MAX_RATE, INTERP_HERMITE, INTERP_LINEAR, INTERP_STEP, MAX_BONES, MAX_CHANNEL_KEYS, NO_PARENT,
    PACKED_ROTATION_PARAMS_LEN,
};
use ossicle_format::{BlobWriter, ScalarEncoding};
use std::collections::HashMap;

/// Channels of fewer keys stay raw when quantising (raw: `4·n·w` bytes; quantised: `2·n·w + 8·w`,
/// smaller from 5 keys on).
pub const QUANTIZE_MIN_KEYS: usize = 5;

/// How skeletal sections are written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SkelOptions {
    /// Store key values as 16-bit quantised values with per-channel-component ranges (lossy).
    /// Default: raw scalar words (lossless in f32).
    pub quantize: bool,
    /// The skeleton clips without their own skeleton (EVAC) bind to; `None`: the build's only one.
    pub skeleton: Option<String>,
}

/// What a skeleton costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkeletonReport {
    /// Its name.
    pub name: String,
    /// Its bones.
    pub bones: usize,
    /// Bytes of its section body.
    pub section_bytes: usize,
}

/// What a skeletal clip costs.
#[derive(Clone, Debug, PartialEq)]
pub struct SkelClipReport {
    /// Its name.
    pub name: String,
    /// The skeleton it animates.
    pub skeleton: String,
    /// Animated bones (tracks): bones with at least one channel record.
    pub tracks: usize,
    /// Keys over all stored channels (a rest channel's keys are not stored).
    pub keys: usize,
    /// Channels stored quantised.
    pub quantized_channels: usize,
    /// Channels whose every key is the bone's rest value and that sample as it (no record: a
    /// channel without one samples the rest pose; see the module docs, "Encoding").
    pub rest_channels: usize,
    /// The largest difference between a source value and what the blob decodes to, per channel
    /// kind (translation, rotation component, scale), in source units.
    pub max_error: [f64; 3],
    /// Bytes of its section body.
    pub section_bytes: usize,
}

/// Where a clip section's bytes go (for size reports; [`clip_bytes`]). The fields add up to the
/// section's length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClipBytes {
    /// The postcard fields and array lengths (names, flags, duration, rate, varint lengths).
    pub header: usize,
    /// Bone entries (4 or, compact, 2 bytes per bone).
    pub bone_entries: usize,
    /// Channel records (16 or, compact, 8 bytes per animated channel).
    pub records: usize,
    /// Raw key values and Hermite tangents (`data` words), raw times included.
    pub raw: usize,
    /// 16-bit quantised values and their ranges.
    pub quantized: usize,
    /// Packed rotation parameters (16 bytes per channel).
    pub packed_params: usize,
    /// Packed rotation bit streams, and the padding of `quant` to whole u16s.
    pub packed_streams: usize,
    /// The time table (words, or a grid's 8 bytes).
    pub time_table: usize,
    /// 8- or 16-bit time indices.
    pub time_indices: usize,
    /// Time bitmaps.
    pub time_bitmaps: usize,
    /// Event records.
    pub events: usize,
}

impl ClipBytes {
    /// The sum of the fields (the section's length).
    pub fn total(&self) -> usize {
        self.header
            + self.bone_entries
            + self.records
            + self.raw
            + self.quantized
            + self.packed_params
            + self.packed_streams
            + self.time_table
            + self.time_indices
            + self.time_bitmaps
            + self.events
    }
}

/// Where the bytes of clip section `c` (of `body_len` bytes) go.
pub fn clip_bytes(c: &SkelClipSection<'_>, body_len: usize) -> ClipBytes {
    let body = c.body();
    let mut out = ClipBytes {
        bone_entries: body.bones.len(),
        records: body.channels.len(),
        time_table: body.times.len(),
        events: body.events.len(),
        ..ClipBytes::default()
    };
    let mut bitmaps: HashMap<u32, usize> = HashMap::new();
    let mut ranges = 0;
    for b in 0..c.bone_count() {
        for ch in 0..3 {
            let Some(r) = c.channel(b, ch) else { continue };
            let (n, w) = (r.key_count() as usize, c.dimension().width(ch));
            if r.packed_rotation() {
                out.packed_params += PACKED_ROTATION_PARAMS_LEN;
            } else if r.quantized() {
                out.quantized += 2 * n * w;
                ranges += 8 * w;
            }
            if r.bitmap_times() {
                bitmaps.insert(r.times, bitmap_len(c.time_table().len()));
            }
        }
    }
    out.time_bitmaps = bitmaps.values().sum();
    out.time_indices = body.time_index.len() - out.time_bitmaps;
    out.quantized += ranges;
    out.raw = body.data.len() - ranges;
    out.packed_streams = body.quant.len() - (out.quantized - ranges) - out.packed_params;
    out.header = body_len - (out.total() - out.header);
    out
}

fn range_note(encoding: ScalarEncoding) -> &'static str {
    match encoding {
        ScalarEncoding::Q16_16 => "Q16.16 holds -32768 to 32767.99998",
        ScalarEncoding::F32 => "f32 holds finite values up to 3.4e38",
    }
}

const CHANNEL_NAMES: [&str; 3] = ["translation", "rotation", "scale"];

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Encodes `sk` as a Skeleton section into `w`; returns its report.
pub fn encode_skeleton(
    sk: &SkeletonIr,
    w: &mut BlobWriter,
    encoding: ScalarEncoding,
) -> Result<SkeletonReport, HostError> {
    let err =
        |reason: String| HostError::at(&sk.origin.file, &sk.origin.place, format!("skeleton {:?}: {reason}", sk.name));
    if sk.bones.is_empty() || sk.bones.len() > MAX_BONES {
        return Err(err(format!("{} bones; a blob skeleton has 1 to {MAX_BONES}", sk.bones.len())));
    }
    let name = w.intern(&sk.name);
    let mut bones = Vec::with_capacity(sk.bones.len() * 2);
    let mut rest = Vec::with_capacity(sk.bones.len() * 10);
    for (i, b) in sk.bones.iter().enumerate() {
        let parent = match b.parent {
            None => NO_PARENT,
            Some(p) if p < i => p as u16,
            Some(p) => return Err(err(format!("bone {:?} has parent {p}, not an earlier bone", b.name))),
        };
        bones.push(u32::from(parent));
        bones.push(w.intern(&b.name));
        let t = &b.bind;
        let values = t.translation.iter().chain(&t.rotation).chain(&t.scale);
        for &v in values {
            let word = encoding.encode_f64(v).ok_or_else(|| {
                err(format!(
                    "bone {:?} bind pose value {v} does not fit the {} encoding ({})",
                    b.name,
                    encoding.name(),
                    range_note(encoding)
                ))
            })?;
            rest.push(word);
        }
        let q = &rest[rest.len() - 7..rest.len() - 3];
        if q.iter().all(|&x| encoding.decode_f64(x) == 0.0) {
            return Err(err(format!(
                "bone {:?} bind rotation becomes a zero quaternion in the {} encoding",
                b.name,
                encoding.name()
            )));
        }
    }
    let (bones, rest) = (le(&bones), le(&rest));
    let body = SkeletonBody { name, dimension: Dimension::D3 as u8, bones: &bones, rest: &rest };
    let section_bytes = postcard::to_stdvec(&body).map(|b| b.len()).unwrap_or(0);
    w.add_skeleton(&body).map_err(|e| err(e.to_string()))?;
    Ok(SkeletonReport { name: sk.name.clone(), bones: sk.bones.len(), section_bytes })
}

/// One channel's keys as (time, components).
struct Keys<'a> {
    times: Vec<f64>,
    values: Vec<&'a [f64]>,
}

/// Encodes `clip`, bound to `sk` (`bone_of_track[i]` is track `i`'s bone), as a SkelClip section
/// into `w`; returns its report.
pub fn encode_skel_clip(
    clip: &SkelClipIr,
    sk: &SkeletonIr,
    bone_of_track: &[usize],
    w: &mut BlobWriter,
    encoding: ScalarEncoding,
    quantize: bool,
) -> Result<SkelClipReport, HostError> {
    let err = |reason: String| {
        HostError::at(&clip.origin.file, &clip.origin.place, format!("clip {:?}: {reason}", clip.name))
    };
    let word = |v: f64, what: &dyn Fn() -> String| {
        encoding.encode_f64(v).ok_or_else(|| {
            err(format!("{} {v} does not fit the {} encoding ({})", what(), encoding.name(), range_note(encoding)))
        })
    };
    let duration = word(clip.duration, &|| "the duration".into())?;
    if clip.duration <= 0.0 {
        return Err(err(format!("the duration {} s is not positive", clip.duration)));
    }
    if encoding.decode_f64(duration) <= 0.0 {
        return Err(err(format!("the duration {} s rounds to 0 in the {} encoding", clip.duration, encoding.name())));
    }
    // The blob holds a sample rate >= 0 (informative: keys carry their own times).
    if clip.sample_rate < 0.0 {
        return Err(err(format!("the sample rate {} Hz is negative", clip.sample_rate)));
    }
    let sample_rate = word(clip.sample_rate, &|| "the sample rate".into())?;
    let name = w.intern(&clip.name);
    let skeleton = w.intern(&sk.name);
    let bone_count = sk.bones.len();
    let mut records = vec![[0u32; 4]; bone_count * 3];
    let mut data: Vec<u32> = Vec::new();
    // u16 LE quantised values (at even offsets), packed rotation parameters and bit streams.
    let mut quant: Vec<u8> = Vec::new();
    // Per record (index into `records`), its time words; placed once every channel is known.
    let mut channel_times: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut report = SkelClipReport {
        name: clip.name.clone(),
        skeleton: sk.name.clone(),
        tracks: 0,
        keys: 0,
        quantized_channels: 0,
        rest_channels: 0,
        max_error: [0.0; 3],
        section_bytes: 0,
    };
    for (track, &bone) in clip.tracks.iter().zip(bone_of_track) {
        let bone_name = &track.bone;
        let channels: [Keys<'_>; 3] = [
            Keys {
                times: track.translation.iter().map(|k| k.time).collect(),
                values: track.translation.iter().map(|k| &k.value[..]).collect(),
            },
            Keys {
                times: track.rotation.iter().map(|k| k.time).collect(),
                values: track.rotation.iter().map(|k| &k.value[..]).collect(),
            },
            Keys {
                times: track.scale.iter().map(|k| k.time).collect(),
                values: track.scale.iter().map(|k| &k.value[..]).collect(),
            },
        ];
        let mut stored = false;
        for (c, keys) in channels.iter().enumerate() {
            let n = keys.times.len();
            if n == 0 {
                continue;
            }
            let place =
                |k: usize| format!("bone {bone_name:?} {} key {k} (time {} s)", CHANNEL_NAMES[c], keys.times[k]);
            if n > MAX_CHANNEL_KEYS as usize {
                return Err(err(format!("bone {bone_name:?} {}: {n} keys, over {MAX_CHANNEL_KEYS}", CHANNEL_NAMES[c])));
            }
            let mut times = Vec::with_capacity(n);
            for (k, &t) in keys.times.iter().enumerate() {
                let tw = word(t, &|| format!("{}: the time", place(k)))?;
                if let Some(&prev) = times.last() {
                    if encoding.decode_f64(tw) <= encoding.decode_f64(prev) {
                        return Err(err(format!(
                            "{}: the time is not after the previous key's once rounded to the {} encoding",
                            place(k),
                            encoding.name()
                        )));
                    }
                }
                times.push(tw);
            }
            let width = keys.values.first().map_or(0, |v| v.len());
            let mut raw = Vec::with_capacity(n * width);
            for (k, v) in keys.values.iter().enumerate() {
                for &x in v.iter() {
                    raw.push(word(x, &|| format!("{}: the value", place(k)))?);
                }
                if c == 1 && raw[raw.len() - 4..].iter().all(|&x| encoding.decode_f64(x) == 0.0) {
                    return Err(err(format!(
                        "{}: the rotation becomes a zero quaternion in the {} encoding",
                        place(k),
                        encoding.name()
                    )));
                }
            }
            let interp = track.interpolation[c];
            // A channel whose every key is the bone's rest value, word for word, and that the
            // kernel samples to exactly those words at every time: no record (a channel without
            // one samples the rest pose).
            let rest = &sk.bones[bone].bind;
            let rest_of: &[f64] = match c {
                0 => &rest.translation,
                1 => &rest.rotation,
                _ => &rest.scale,
            };
            let rest_words: Option<Vec<u32>> = rest_of.iter().map(|&v| encoding.encode_f64(v)).collect();
            if let Some(rest_words) = rest_words {
                if rest_words.len() == width
                    && raw.chunks(width.max(1)).all(|key| key == &rest_words[..])
                    && samples_as_rest(encoding, c, interp, n, &rest_words)
                {
                    report.rest_channels += 1;
                    for (x, &r) in keys.values.iter().flat_map(|v| v.iter().zip(&rest_words)) {
                        report.max_error[c] = report.max_error[c].max((x - encoding.decode_f64(r)).abs());
                    }
                    continue;
                }
            }
            report.keys += n;
            stored = true;
            let interp_code = match interp {
                ChannelInterp::Step => INTERP_STEP,
                ChannelInterp::Linear => INTERP_LINEAR,
                ChannelInterp::Hermite => INTERP_HERMITE,
            };
            // Per key: `width` in-tangent words, then `width` out-tangent words (Hermite only).
            let tangent_words = match interp {
                ChannelInterp::Hermite => {
                    let tangents = track_tangents(track, c);
                    if tangents.len() != n {
                        return Err(err(format!(
                            "bone {bone_name:?} {}: {} tangents for {n} Hermite keys",
                            CHANNEL_NAMES[c],
                            tangents.len()
                        )));
                    }
                    let mut words = Vec::with_capacity(2 * n * width);
                    for (k, (incoming, outgoing)) in tangents.iter().enumerate() {
                        for (x, side) in incoming.iter().map(|x| (x, "in")).chain(outgoing.iter().map(|x| (x, "out"))) {
                            words.push(word(*x, &|| format!("{}: the {side}-tangent", place(k)))?);
                        }
                    }
                    words
                }
                _ => Vec::new(),
            };
            // Only linear channels are quantised or packed (tangents and steps stay exact).
            let packed = if quantize && c == 1 && width == 4 && interp == ChannelInterp::Linear {
                let values: Vec<[f64; 4]> = keys.values.iter().map(|v| [v[0], v[1], v[2], v[3]]).collect();
                recover_packed(&values)
                    .filter(|p| PACKED_ROTATION_PARAMS_LEN + p.params.stream_len(n).unwrap_or(usize::MAX) < 16 * n)
            } else {
                None
            };
            let quantised = if packed.is_none() && quantize && n >= QUANTIZE_MIN_KEYS && interp == ChannelInterp::Linear
            {
                quantise(encoding, &keys.values, width)
            } else {
                None
            };
            let (info, values_at, extra, decoded): (u32, u32, u32, Vec<u32>) = match (packed, quantised) {
                (Some(p), _) => {
                    let extra = quant.len() as u32;
                    quant.extend(p.params.to_bytes());
                    let values_at = quant.len() as u32;
                    quant.extend(p.stream());
                    if quant.len() % 2 == 1 {
                        quant.push(0);
                    }
                    let decoded =
                        p.q.iter().flat_map(|&q| p.params.decode(q)).map(|v| packed_word(encoding, v)).collect();
                    report.quantized_channels += 1;
                    let info = ChannelRecord::make_info(n as u32, INTERP_LINEAR, false) | CHANNEL_PACKED_ROTATION;
                    (info, values_at, extra, decoded)
                }
                (None, Some((ranges, qs))) => {
                    let values_at = (quant.len() / 2) as u32;
                    let extra = data.len() as u32;
                    data.extend(ranges.iter().map(|r| r.0));
                    data.extend(ranges.iter().map(|r| r.1));
                    let decoded = qs
                        .iter()
                        .enumerate()
                        .map(|(i, &q)| dequantize(encoding, ranges[i % width].0, ranges[i % width].1, q))
                        .collect();
                    quant.extend(qs.iter().flat_map(|q| q.to_le_bytes()));
                    report.quantized_channels += 1;
                    (ChannelRecord::make_info(n as u32, INTERP_LINEAR, true), values_at, extra, decoded)
                }
                (None, None) => {
                    let at = data.len() as u32;
                    data.extend(&raw);
                    let extra = if tangent_words.is_empty() { 0 } else { data.len() as u32 };
                    data.extend(&tangent_words);
                    (ChannelRecord::make_info(n as u32, interp_code, false), at, extra, raw)
                }
            };
            for (x, &d) in keys.values.iter().flat_map(|v| v.iter()).zip(&decoded) {
                let e = (x - encoding.decode_f64(d)).abs();
                report.max_error[c] = report.max_error[c].max(e);
            }
            records[bone * 3 + c] = [info, 0, values_at, extra];
            channel_times.push((bone * 3 + c, times));
        }
        if stored {
            report.tracks += 1;
        }
    }
    let events = encode_events(clip, w, encoding, &err)?;
    let times = place_times(encoding, &channel_times, &mut records, &mut data, quantize);
    // The compact layout (format version 7) when every record fits it.
    let (bones, channels, compact) = match pack_channels_compact(&records) {
        Some((bones, channels)) => (bones, channels, true),
        None => {
            let (bones, channels) = pack_channels(&records);
            (bones, channels, false)
        }
    };
    let data = le(&data);
    let flags = if clip.looping { CLIP_FLAG_LOOP } else { 0 }
        | if times.wide { CLIP_FLAG_WIDE_INDEX } else { 0 }
        | if times.grid { CLIP_FLAG_GRID_TIMES } else { 0 }
        | if compact { CLIP_FLAG_COMPACT } else { 0 };
    let body = SkelClipBody {
        name,
        skeleton,
        dimension: Dimension::D3 as u8,
        flags,
        duration,
        sample_rate,
        bones: &bones,
        channels: &channels,
        data: &data,
        quant: &quant,
        times: &times.table,
        time_index: &times.index,
        events: &events,
    };
    report.section_bytes = postcard::to_stdvec(&body).map(|b| b.len()).unwrap_or(0);
    w.add_skel_clip(&body).map_err(|e| err(e.to_string()))?;
    Ok(report)
}

/// Whether the kernel samples a channel `c` of `n` keys, `interp`olated, each key the words
/// `rest`, to exactly `rest` at every time (as a channel without a record samples): a Step channel
/// or a single key always; a Hermite channel is never asked (kept); a Linear channel when
/// interpolating `rest` with itself gives `rest` back bit for bit, which the kernel's own
/// interpolation decides (it is the same at every `u`: `a + (a − a)·u`). That fails for an f32
/// `−0.0` component (the sum gives `+0.0`), and for a rotation the kernel's normalisation does not
/// leave as it is (asked of both `Nlerp` and `Slerp`; only for a rotation within 1/512 of unit
/// length, whose normalisation takes the same path with or without `fast-math`).
fn samples_as_rest(encoding: ScalarEncoding, c: usize, interp: ChannelInterp, n: usize, rest: &[u32]) -> bool {
    match interp {
        ChannelInterp::Hermite => false,
        ChannelInterp::Step => true,
        ChannelInterp::Linear if n == 1 => true,
        ChannelInterp::Linear => match encoding {
            ScalarEncoding::F32 => lerp_keeps::<f32>(c, rest),
            ScalarEncoding::Q16_16 => lerp_keeps::<ossicle::Q16>(c, rest),
        },
    }
}

/// [`samples_as_rest`] of a Linear channel of at least two keys, in scalar type `S`.
fn lerp_keeps<S: ossicle::Scalar>(c: usize, rest: &[u32]) -> bool {
    use ossicle::math::Transform3;
    use ossicle::skeleton::Joint;
    let v: Vec<S> = rest.iter().map(|&w| S::from_blob_bits(w)).collect();
    let same = |r: &[S]| r.len() >= rest.len() && r.iter().zip(rest).all(|(x, &w)| x.to_blob_bits() == w);
    let u = S::HALF;
    match (c, &v[..]) {
        (1, &[x, y, z, w]) => {
            let n2: f64 = v.iter().map(|s| s.to_f64() * s.to_f64()).sum();
            let q = [x, y, z, w];
            (n2 - 1.0).abs() < 1.0 / 512.0
                && [false, true].iter().all(|&slerp| same(&Transform3::<S>::interpolate_rotation(q, q, u, slerp)))
        }
        (1, _) => false,
        _ => same(&v.iter().map(|&x| x.lerp(x, u)).collect::<Vec<S>>()),
    }
}

/// Track `track`'s channel `c` tangents as (in, out) slices per key.
fn track_tangents(track: &crate::ir::BoneTrackIr, c: usize) -> Vec<(&[f64], &[f64])> {
    fn pairs<const N: usize>(t: &[KeyTangents<N>]) -> Vec<(&[f64], &[f64])> {
        t.iter().map(|k| (&k.incoming[..], &k.outgoing[..])).collect()
    }
    match c {
        0 => pairs(&track.translation_tangents),
        1 => pairs(&track.rotation_tangents),
        _ => pairs(&track.scale_tangents),
    }
}

/// The clip's event records ([`EVENT_RECORD_LEN`] bytes each: time word, name id): sorted by time
/// (ties keep their order), within `[0, duration]`, names interned (the format allows ids up to
/// 0xFFFF).
fn encode_events(
    clip: &SkelClipIr,
    w: &mut BlobWriter,
    encoding: ScalarEncoding,
    err: &dyn Fn(String) -> HostError,
) -> Result<Vec<u8>, HostError> {
    let mut events: Vec<&crate::ir::SkelEventIr> = clip.events.iter().collect();
    events.sort_by(|a, b| a.time.total_cmp(&b.time));
    let mut out = Vec::with_capacity(events.len() * EVENT_RECORD_LEN);
    for (i, e) in events.iter().enumerate() {
        if !(0.0..=clip.duration).contains(&e.time) {
            return Err(err(format!("event {i} ({:?}) at {} s is outside [0, {}]", e.name, e.time, clip.duration)));
        }
        let t = encoding.encode_f64(e.time).ok_or_else(|| err(format!("event {i} ({:?}): time {}", e.name, e.time)))?;
        let name = w.intern(&e.name);
        if name > 0xFFFF {
            return Err(err(format!("event {i} ({:?}): more than 65,535 strings in the blob", e.name)));
        }
        out.extend(t.to_le_bytes());
        out.extend(name.to_le_bytes());
    }
    Ok(out)
}

/// A clip's time table and indices (both empty when the times are raw).
struct PlacedTimes {
    table: Vec<u8>,
    index: Vec<u8>,
    wide: bool,
    grid: bool,
}

/// The uniform grid `distinct` (sorted time words) lies on, if any: the rate (entries per second)
/// and each time's entry, when every word is exactly the format's [`grid_time`] of its entry.
fn grid_of(encoding: ScalarEncoding, distinct: &[u32]) -> Option<(u32, Vec<usize>)> {
    let ts: Vec<f64> = distinct.iter().map(|&w| encoding.decode_f64(w)).collect();
    let gap = ts.windows(2).map(|p| p[1] - p[0]).fold(f64::INFINITY, f64::min);
    let rate = (1.0 / gap).round();
    if !(1.0..=f64::from(GRID_MAX_RATE)).contains(&rate) {
        return None;
    }
    let rate = rate as u32;
    let mut entries = Vec::with_capacity(ts.len());
    for (&t, &w) in ts.iter().zip(distinct) {
        let j = (t * f64::from(rate)).round();
        if !(0.0..f64::from(GRID_MAX_ENTRIES)).contains(&j) || grid_time(encoding, j as usize, rate) != Some(w) {
            return None;
        }
        entries.push(j as usize);
    }
    Some((rate, entries))
}

/// Places every channel's time words (`channel_times`: record index, words): indexed into a table
/// of the clip's distinct time words, or raw in `data`, whichever is smaller (identical runs
/// shared); sets the records' times field and indexed bit. The table is stored as words, or, when
/// every time lies exactly on a uniform grid ([`grid_of`]) and that is smaller, as the grid's rate
/// and length ([`CLIP_FLAG_GRID_TIMES`], format version 7). An indexed run is stored as 8- or
/// 16-bit indices (16 when the table has over 256 entries), or, when `bitmaps` (the size-optimised
/// `--quantize` builds: reading a key time from a bitmap costs a count of set bits, several times
/// an index read), as a bitmap over the table ([`CHANNEL_BITMAP_TIMES`], format version 7) when
/// that is smaller (`⌈entries / 8⌉` bytes against one or two per key).
fn place_times(
    encoding: ScalarEncoding,
    channel_times: &[(usize, Vec<u32>)],
    records: &mut [[u32; 4]],
    data: &mut Vec<u32>,
    bitmaps: bool,
) -> PlacedTimes {
    let mut distinct: Vec<u32> = channel_times.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    distinct.sort_by(|&a, &b| encoding.decode_f64(a).total_cmp(&encoding.decode_f64(b)));
    distinct.dedup();
    let mut raw_runs: HashMap<&[u32], ()> = HashMap::new();
    let unique: Vec<&[u32]> =
        channel_times.iter().filter(|(_, t)| raw_runs.insert(t, ()).is_none()).map(|(_, t)| &t[..]).collect();
    let raw_bytes: usize = unique.iter().map(|t| 4 * t.len()).sum();
    // Bytes of the indices into a table of `entries` entries (runs as indices or bitmaps).
    let index_bytes = |entries: usize| -> usize {
        let per_key = if entries > 256 { 2 } else { 1 };
        let bitmap = if bitmaps { bitmap_len(entries) } else { usize::MAX };
        unique.iter().map(|t| (per_key * t.len()).min(bitmap)).sum()
    };
    let words_bytes = 4 * distinct.len() + index_bytes(distinct.len());
    let grid = grid_of(encoding, &distinct).filter(|(_, e)| {
        let entries = e.last().map_or(0, |&j| j + 1);
        8 + index_bytes(entries) < words_bytes
    });
    let (table, position, entries): (Vec<u8>, HashMap<u32, u16>, usize) = match &grid {
        Some((rate, at)) => {
            let entries = at.last().map_or(0, |&j| j + 1);
            let position = distinct.iter().zip(at).map(|(&w, &j)| (w, j as u16)).collect();
            (le(&[*rate, entries as u32]), position, entries)
        }
        None => {
            let position = distinct.iter().enumerate().map(|(i, &w)| (w, i as u16)).collect();
            (le(&distinct), position, distinct.len())
        }
    };
    let indexed_bytes = table.len() + index_bytes(entries);
    if entries > usize::from(u16::MAX) + 1 || indexed_bytes >= raw_bytes {
        let mut runs: HashMap<&[u32], u32> = HashMap::new();
        for (r, t) in channel_times {
            let at = *runs.entry(t).or_insert_with(|| {
                let at = data.len() as u32;
                data.extend(t);
                at
            });
            records[*r][1] = at;
        }
        return PlacedTimes { table: Vec::new(), index: Vec::new(), wide: false, grid: false };
    }
    let wide = entries > 256;
    let per_key = if wide { 2 } else { 1 };
    let bitmap_bytes = bitmap_len(entries);
    let bitmap = |t: &[u32]| bitmaps && bitmap_bytes < per_key * t.len();
    let mut index: Vec<u8> = Vec::new();
    let mut runs: HashMap<&[u32], u32> = HashMap::new();
    // Index runs first (u16 runs at even offsets), then the bitmaps (byte offsets).
    for pass_bitmaps in [false, true] {
        for (r, t) in channel_times {
            if bitmap(t) != pass_bitmaps {
                continue;
            }
            let at = *runs.entry(t).or_insert_with(|| {
                if pass_bitmaps {
                    let at = index.len() as u32;
                    let mut bits = vec![0u8; bitmap_bytes];
                    for w in t {
                        let i = usize::from(position.get(w).copied().unwrap_or(0));
                        bits[i / 8] |= 1 << (i % 8);
                    }
                    index.extend(bits);
                    return at;
                }
                let at = (index.len() / per_key) as u32;
                for w in t {
                    let i = position.get(w).copied().unwrap_or(0);
                    if wide {
                        index.extend(i.to_le_bytes());
                    } else {
                        index.push(i as u8);
                    }
                }
                at
            });
            records[*r][0] |= CHANNEL_INDEXED_TIMES | if pass_bitmaps { CHANNEL_BITMAP_TIMES } else { 0 };
            records[*r][1] = at;
        }
    }
    if wide && index.len() % 2 == 1 {
        index.push(0);
    }
    PlacedTimes { table, index, wide, grid: grid.is_some() }
}

/// A quantised channel: per-component (min word, extent word) ranges, and the u16 values.
type Quantised = (Vec<(u32, u32)>, Vec<u16>);

/// Per-component (min word, extent word) ranges and the u16 values of a channel, or `None` when a
/// range does not fit the encoding or a rotation key would decode to a zero quaternion (the
/// channel is then stored raw).
fn quantise(encoding: ScalarEncoding, values: &[&[f64]], width: usize) -> Option<Quantised> {
    let mut ranges = Vec::with_capacity(width);
    for j in 0..width {
        let lo = values.iter().map(|v| v[j]).fold(f64::INFINITY, f64::min);
        let hi = values.iter().map(|v| v[j]).fold(f64::NEG_INFINITY, f64::max);
        let min = encoding.encode_f64(lo)?;
        // The extent word, rounded, then raised until min + extent reaches the largest value.
        let span = hi - encoding.decode_f64(min);
        let mut ext = encoding.encode_f64(if span > 0.0 { span } else { 0.0 })?;
        for _ in 0..4 {
            if encoding.decode_f64(dequantize(encoding, min, ext, u16::MAX)) >= hi {
                break;
            }
            ext = match encoding {
                ScalarEncoding::F32 => ext + 1, // the next larger positive f32
                ScalarEncoding::Q16_16 => ext.checked_add(1)?,
            };
        }
        let ok = match encoding {
            ScalarEncoding::F32 => {
                let (m, e) = (f32::from_bits(min), f32::from_bits(ext));
                e.is_finite() && (m + e).is_finite()
            }
            ScalarEncoding::Q16_16 => i64::from(min as i32) + i64::from(ext as i32) <= i64::from(i32::MAX),
        };
        if !ok {
            return None;
        }
        ranges.push((min, ext));
    }
    let mut qs = Vec::with_capacity(values.len() * width);
    for v in values {
        for (j, &x) in v.iter().enumerate() {
            let (min, ext) = ranges[j];
            let (m, e) = (encoding.decode_f64(min), encoding.decode_f64(ext));
            let guess = if e > 0.0 { ((x - m) / e * 65535.0).round().clamp(0.0, 65535.0) as u16 } else { 0 };
            let decode = |q: u16| encoding.decode_f64(dequantize(encoding, min, ext, q));
            let best = [guess.saturating_sub(1), guess, guess.saturating_add(1)]
                .into_iter()
                .min_by(|&a, &b| (decode(a) - x).abs().total_cmp(&(decode(b) - x).abs()))
                .unwrap_or(guess);
            qs.push(best);
        }
    }
    if width == 4 {
        for key in qs.chunks(4) {
            if key
                .iter()
                .enumerate()
                .all(|(j, &q)| encoding.decode_f64(dequantize(encoding, ranges[j].0, ranges[j].1, q)) == 0.0)
            {
                return None;
            }
        }
    }
    Some((ranges, qs))
}

/// The skeleton `clip` animates among `skeletons`: its own (by name), else `chosen`, else the only
/// one. Errors name the clip's file and the skeletons there are.
pub fn skeleton_for<'a>(
    clip: &SkelClipIr,
    skeletons: &'a [SkeletonIr],
    chosen: Option<&str>,
) -> Result<&'a SkeletonIr, HostError> {
    let err =
        |reason: String| HostError::at(&clip.origin.file, &clip.origin.place, format!("clip {:?} {reason}", clip.name));
    let list =
        || skeletons.iter().map(|s| format!("{} ({})", s.name, s.origin.file.display())).collect::<Vec<_>>().join(", ");
    let wanted = clip.skeleton.as_deref().or(chosen);
    if let Some(name) = wanted {
        return skeletons.iter().find(|s| s.name == name).ok_or_else(|| {
            if skeletons.is_empty() {
                err(format!("animates skeleton {name:?}, but the build defines no skeleton"))
            } else {
                err(format!("animates skeleton {name:?}, which this build does not define; skeletons: {}", list()))
            }
        });
    }
    match skeletons {
        [one] => Ok(one),
        [] => Err(err(
            "has no skeleton of its own (EVAC carries no hierarchy) and the build defines none: give the EVA file \
             that defines its skeleton as another input"
                .into(),
        )),
        _ => Err(err(format!(
            "has no skeleton of its own (EVAC) and the build defines {}: {}; choose one with --skeleton NAME",
            skeletons.len(),
            list()
        ))),
    }
}

/// Encodes every skeleton and clip of a build (names unique, each clip bound to its skeleton).
pub fn encode_all(
    skeletons: &[SkeletonIr],
    clips: &[SkelClipIr],
    opts: &SkelOptions,
    w: &mut BlobWriter,
    encoding: ScalarEncoding,
) -> Result<(Vec<SkeletonReport>, Vec<SkelClipReport>), HostError> {
    let mut seen: HashMap<&str, &std::path::Path> = HashMap::new();
    for sk in skeletons {
        if let Some(first) = seen.insert(&sk.name, &sk.origin.file) {
            return Err(HostError::at(
                &sk.origin.file,
                &sk.origin.place,
                format!("a skeleton called {:?} is already defined by {}", sk.name, first.display()),
            ));
        }
    }
    if let Some(name) = &opts.skeleton {
        if !skeletons.iter().any(|s| &s.name == name) {
            let names: Vec<&str> = skeletons.iter().map(|s| s.name.as_str()).collect();
            let there = if names.is_empty() {
                "the build defines no skeleton".to_string()
            } else {
                format!("skeletons: {}", names.join(", "))
            };
            return Err(HostError::file("--skeleton", format!("no skeleton called {name:?} in this build ({there})")));
        }
    }
    let mut seen: HashMap<&str, &std::path::Path> = HashMap::new();
    for c in clips {
        if let Some(first) = seen.insert(&c.name, &c.origin.file) {
            return Err(HostError::at(
                &c.origin.file,
                &c.origin.place,
                format!(
                    "a skeletal clip called {:?} is already defined by {} (export it under another name: \
                     ossicle export-evac ... --name NEW)",
                    c.name,
                    first.display()
                ),
            ));
        }
    }
    let mut sk_reports = Vec::new();
    for sk in skeletons {
        sk_reports.push(encode_skeleton(sk, w, encoding)?);
    }
    let mut clip_reports = Vec::new();
    for c in clips {
        let sk = skeleton_for(c, skeletons, opts.skeleton.as_deref())?;
        let bones = evac::bind(c, sk)?;
        clip_reports.push(encode_skel_clip(c, sk, &bones, w, encoding, opts.quantize)?);
    }
    Ok((sk_reports, clip_reports))
}
