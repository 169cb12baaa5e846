//! An ozz-animation runtime [`Animation`] written from an ossicle clip's IR: the archive (format
//! version 7, the one ozz-animation-rs 0.11 reads) is built in memory, then read back with
//! [`Animation::from_archive`].
//!
//! The layout is the one ozz's offline `AnimationBuilder` gives a raw animation with every source
//! key (the unoptimised build, no key reduction), reimplemented here from its description:
//!
//! - one track per skeleton bone, plus identity tracks up to a multiple of 4 (the SoA groups);
//!   a bone without a track in the clip, or a channel without keys, is one key holding the
//!   skeleton's bind value;
//! - every track gets keys at 0 and at the duration (a copy of its first / last key when missing;
//!   a single key becomes two);
//! - rotations are normalised and their signs fixed up per track (the first key with `w ≥ 0`,
//!   every next one in the hemisphere of the one before), so that the runtime's nlerp needs no
//!   shortest-arc test;
//! - the keys of all tracks of a channel are sorted by the time of the key before them on their
//!   track (−1 for the first keys), then by track: the first two keys of every track come first,
//!   in track order, and a key follows the key it replaces when the playhead passes it; each key
//!   stores the distance back to its predecessor (`previouses`) and the index of its time in the
//!   table of distinct key times (`ratios`; bytes when there are at most 255 times), the table
//!   holding times divided by the duration;
//! - values are quantised as the runtime format stores them: translations and scales as three
//!   halves (`Float3Key`, rounded to nearest), rotations as the three smallest components on 15
//!   bits each plus the index and sign of the largest (`QuaternionKey`), which the runtime
//!   restores from the unit norm.
//!
//! No seek frames ("iframes") are written: their tables are empty, which the runtime accepts (it
//! then rewinds to the start on a backward jump of more than half the iframe interval, 1.0, and
//! walks the keys otherwise).

use ossicle_host::ir::{ChannelInterp, ChannelKey, SkelClipIr, SkeletonIr};
use ozz_animation_rs::{Animation, Archive};
use std::f32::consts::{FRAC_1_SQRT_2, SQRT_2};

/// A key before sorting: its track, the time of the key before it on its track (−1 for the first),
/// its time and value.
#[derive(Clone, Copy, Debug)]
struct SortingKey<const N: usize> {
    track: u16,
    prev_time: f32,
    time: f32,
    value: [f32; N],
}

/// One channel's keys in the runtime order, with their predecessor offsets.
struct Channel<const N: usize> {
    keys: Vec<SortingKey<N>>,
    previouses: Vec<u16>,
}

/// The raw keys of a track (at least one, times increasing within `[0, duration]`) as sorting keys,
/// with the first key at 0 and the last at `duration` added when missing.
fn push_track<const N: usize>(raw: &[(f32, [f32; N])], track: u16, duration: f32, out: &mut Vec<SortingKey<N>>) {
    assert!(!raw.is_empty());
    for w in raw.windows(2) {
        assert!(w[0].0 < w[1].0, "track {track}: key times must increase");
    }
    let (first, last) = (raw[0], raw[raw.len() - 1]);
    assert!(first.0 >= 0.0 && last.0 <= duration, "track {track}: keys outside [0, {duration}]");
    if raw.len() == 1 {
        out.push(SortingKey { track, prev_time: -1.0, time: 0.0, value: first.1 });
        out.push(SortingKey { track, prev_time: 0.0, time: duration, value: first.1 });
        return;
    }
    let mut prev_time = -1.0;
    if first.0 != 0.0 {
        out.push(SortingKey { track, prev_time, time: 0.0, value: first.1 });
        prev_time = 0.0;
    }
    for &(time, value) in raw {
        out.push(SortingKey { track, prev_time, time, value });
        prev_time = time;
    }
    if last.0 != duration {
        out.push(SortingKey { track, prev_time, time: duration, value: last.1 });
    }
}

/// Normalises a track's rotation keys (identity for a zero quaternion) and flips their signs: the
/// first to `w ≥ 0`, every next one to the hemisphere of the one before.
fn fix_up_rotations(keys: &mut [SortingKey<4>]) {
    for i in 0..keys.len() {
        let q = keys[i].value;
        let sq = q.iter().map(|c| c * c).sum::<f32>();
        let mut n = if sq == 0.0 {
            [0.0, 0.0, 0.0, 1.0]
        } else {
            let inv = 1.0 / sq.sqrt();
            q.map(|c| c * inv)
        };
        let flip = if i == 0 {
            n[3] < 0.0
        } else {
            let p = keys[i - 1].value;
            p[0] * n[0] + p[1] * n[1] + p[2] * n[2] + p[3] * n[3] < 0.0
        };
        if flip {
            n = n.map(|c| -c);
        }
        keys[i].value = n;
    }
}

/// Sorts the keys by (time of the previous key on the track, track), stable, and computes each
/// key's offset back to its predecessor on its track (0 for the first keys).
fn sort_channel<const N: usize>(mut keys: Vec<SortingKey<N>>, tracks: usize) -> Channel<N> {
    keys.sort_by(|a, b| a.prev_time.total_cmp(&b.prev_time).then(a.track.cmp(&b.track)));
    let mut last: Vec<Option<usize>> = vec![None; tracks];
    let previouses = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let d = last[k.track as usize].map_or(0, |p| i - p);
            last[k.track as usize] = Some(i);
            // ozz's builder inserts a key when the offset does not fit; none is needed here.
            u16::try_from(d).ok().filter(|&d| d < u16::MAX).expect("predecessor offset fits on 16 bits")
        })
        .collect();
    Channel { keys, previouses }
}

/// `f` as a half (IEEE binary16), rounded to nearest (ties away from zero), as ozz's
/// `FloatToHalf` does: the float's low mantissa bits cleared, rescaled by 2⁻¹¹² (so the product's
/// bits, shifted, are the half's, subnormals included), half a unit added, then truncated.
pub fn float_to_half(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let abs = bits & 0x7fff_ffff;
    if abs >= 0x7f80_0000 {
        return sign | if abs > 0x7f80_0000 { 0x7e00 } else { 0x7c00 };
    }
    let scaled = (f32::from_bits(abs & !0xfff) * f32::from_bits(15 << 23)).to_bits();
    let rounded = scaled.wrapping_add(0x1000).min(31 << 23);
    sign | (rounded >> 13) as u16
}

/// A unit quaternion (x, y, z, w) in ozz's `QuaternionKey` layout: bits 0–1 the index of the
/// largest component (by magnitude, the first of equals), bit 2 its sign (1: negative), then the
/// three other components in order, 15 bits each, mapped from `[−√2/2, √2/2]` onto `0..=32767`.
pub fn compress_quat(q: [f32; 4]) -> [u16; 3] {
    let mut largest = 0;
    for i in 1..4 {
        if q[i].abs() > q[largest].abs() {
            largest = i;
        }
    }
    let (scale, offset) = (32767.0f32 / SQRT_2, -FRAC_1_SQRT_2);
    let mut packed = largest as u64 | u64::from(q[largest] < 0.0) << 2;
    let mut shift = 3;
    for (i, &c) in q.iter().enumerate() {
        if i != largest {
            let v = (((c - offset) * scale + 0.5) as i32).clamp(0, 32767);
            packed |= (v as u64) << shift;
            shift += 15;
        }
    }
    [packed as u16, (packed >> 16) as u16, (packed >> 32) as u16]
}

/// What the written animation holds, for the caller's checks and messages.
pub struct Written {
    pub animation: Animation,
    /// Per bone: the largest magnitude among its translation keys' components, and its scale keys'.
    pub translation_magnitude: Vec<f32>,
    pub scale_magnitude: Vec<f32>,
    /// Key counts (translations, rotations, scales) and distinct key times.
    pub keys: [usize; 3],
    pub timepoints: usize,
}

/// The ozz animation of `clip` on `skel` (tracks in `skel`'s bone order), every source key kept.
pub fn ozz_animation(skel: &SkeletonIr, clip: &SkelClipIr) -> Written {
    let duration = clip.duration as f32;
    assert!(duration > 0.0);
    let bones = skel.bones.len();
    let tracks = bones.div_ceil(4) * 4;
    assert!(tracks <= usize::from(u16::MAX));
    let mut by_bone = vec![None; bones];
    for t in &clip.tracks {
        let b = skel.bones.iter().position(|b| b.name == t.bone).unwrap_or_else(|| panic!("no bone {:?}", t.bone));
        assert!(t.interpolation.iter().all(|&i| i == ChannelInterp::Linear), "{}: ozz keys are linear", t.bone);
        by_bone[b] = Some(t);
    }
    fn raw<const N: usize>(keys: &[ChannelKey<N>], bind: [f64; N]) -> Vec<(f32, [f32; N])> {
        if keys.is_empty() {
            vec![(0.0, bind.map(|v| v as f32))]
        } else {
            keys.iter().map(|k| (k.time as f32, k.value.map(|v| v as f32))).collect()
        }
    }
    let (mut tk, mut rk, mut sk) = (Vec::new(), Vec::new(), Vec::new());
    let (mut translation_magnitude, mut scale_magnitude) = (vec![0f32; bones], vec![0f32; bones]);
    for track in 0..tracks {
        let id = track as u16;
        let (t, r, s) = match skel.bones.get(track) {
            Some(bone) => {
                let b = &bone.bind;
                let empty = (&[][..], &[][..], &[][..]);
                let (kt, kr, ks) =
                    by_bone[track].map_or(empty, |t| (&t.translation[..], &t.rotation[..], &t.scale[..]));
                (raw(kt, b.translation), raw(kr, b.rotation), raw(ks, b.scale))
            }
            None => (vec![(0.0, [0.0; 3])], vec![(0.0, [0.0, 0.0, 0.0, 1.0])], vec![(0.0, [1.0; 3])]),
        };
        let magnitude = |keys: &[(f32, [f32; 3])]| keys.iter().flat_map(|k| k.1).fold(0f32, |m, v| m.max(v.abs()));
        if track < bones {
            translation_magnitude[track] = magnitude(&t);
            scale_magnitude[track] = magnitude(&s);
        }
        push_track(&t, id, duration, &mut tk);
        let first = rk.len();
        push_track(&r, id, duration, &mut rk);
        fix_up_rotations(&mut rk[first..]);
        push_track(&s, id, duration, &mut sk);
    }
    let (tc, rc, sc) = (sort_channel(tk, tracks), sort_channel(rk, tracks), sort_channel(sk, tracks));

    // The distinct key times, ascending; every key refers to its own by index.
    let mut times: Vec<f32> = tc.keys.iter().map(|k| k.time).collect();
    times.extend(rc.keys.iter().map(|k| k.time));
    times.extend(sc.keys.iter().map(|k| k.time));
    times.sort_by(f32::total_cmp);
    times.dedup();
    assert!(times.len() < usize::from(u16::MAX), "too many distinct key times");
    let ratio_bytes = times.len() <= usize::from(u8::MAX);
    let index = |t: f32| times.binary_search_by(|x| x.total_cmp(&t)).expect("a key time") as u16;

    let mut a = vec![1u8]; // little-endian archive
    a.extend_from_slice(b"ozz-animation\0");
    a.extend_from_slice(&7u32.to_le_bytes());
    let name = clip.name.as_bytes();
    a.extend_from_slice(&duration.to_le_bytes());
    for n in [bones, name.len(), times.len(), tc.keys.len(), rc.keys.len(), sc.keys.len(), 0, 0, 0, 0, 0, 0] {
        a.extend_from_slice(&(n as u32).to_le_bytes());
    }
    a.extend_from_slice(name);
    let inv_duration = 1.0 / duration;
    for &t in &times {
        a.extend_from_slice(&(t * inv_duration).to_le_bytes());
    }
    // Per channel: ratios, previouses, iframe entries and descriptors (none), iframe interval,
    // then the values.
    fn channel<const N: usize>(
        a: &mut Vec<u8>,
        c: &Channel<N>,
        ratio_bytes: bool,
        index: &dyn Fn(f32) -> u16,
        compress: fn([f32; N]) -> [u16; 3],
    ) {
        for k in &c.keys {
            let r = index(k.time);
            if ratio_bytes {
                a.push(r as u8);
            } else {
                a.extend_from_slice(&r.to_le_bytes());
            }
        }
        for p in &c.previouses {
            a.extend_from_slice(&p.to_le_bytes());
        }
        a.extend_from_slice(&1.0f32.to_le_bytes());
        for k in &c.keys {
            for v in compress(k.value) {
                a.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    let float3 = |v: [f32; 3]| v.map(float_to_half);
    channel(&mut a, &tc, ratio_bytes, &index, float3);
    channel(&mut a, &rc, ratio_bytes, &index, compress_quat);
    channel(&mut a, &sc, ratio_bytes, &index, float3);

    let mut archive = Archive::from_vec(a).expect("archive");
    let animation = Animation::from_archive(&mut archive).expect("the animation archive reads back");
    assert_eq!(animation.num_tracks(), bones);
    assert_eq!(animation.translations().len(), tc.keys.len());

    // The stored keys decode to the source values within the quantisation (so a wrong sample
    // later points at the layout, not at the encodings).
    for (k, z) in tc.keys.iter().chain(&sc.keys).zip(animation.translations().iter().chain(animation.scales())) {
        let d = z.decompress().to_array();
        for (x, y) in k.value.iter().zip(d) {
            assert!((x - y).abs() <= x.abs() / 2048.0 + 3e-8, "a half key decodes to {y}, not {x}");
        }
    }
    for (k, z) in rc.keys.iter().zip(animation.rotations()) {
        let d = z.decompress().to_array();
        for (x, y) in k.value.iter().zip(d) {
            assert!((x - y).abs() <= 1e-4, "a rotation key decodes to {d:?}, not {:?}", k.value);
        }
    }
    Written {
        animation,
        translation_magnitude,
        scale_magnitude,
        keys: [tc.keys.len(), rc.keys.len(), sc.keys.len()],
        timepoints: times.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Keys and values from ozz-animation-rs's own decoding tests.
    #[test]
    fn halves() {
        assert_eq!(float_to_half(0.0711059570), 11405);
        assert_eq!(float_to_half(-8.77380371e-05), 34240);
        assert_eq!(float_to_half(1.84774399e-06), 31);
        assert_eq!(float_to_half(5.960464477539063e-8), 1);
        assert_eq!(float_to_half(1.0), 15360);
        assert_eq!(float_to_half(-0.0), 0x8000);
    }

    #[test]
    fn quaternions() {
        for (k, q) in [
            ([39974, 18396, 53990], [-0.491480947, -0.508615375, -0.538519204, 0.457989037]),
            ([63843, 2329, 31255], [-0.00912827253, 0.0251405239, -0.0326502919, 0.999108911]),
            ([1579, 818, 33051], [0.00852406025, 0.00882613659, 0.00610709190, 0.999906063]),
            // Decoded from [38605, 19300, 55990] (y the largest), but the restored y came out a
            // hair smaller than w, so w is the largest now.
            ([38603, 19092, 9650], [-0.498861253, -0.501123607, -0.498861253, 0.501148760]),
        ] {
            let key = compress_quat(q);
            assert_eq!(key, k, "{q:?}");
            let d = ozz_animation_rs::animation::QuaternionKey::new(key).decompress().to_array();
            assert!(d.iter().zip(q).all(|(a, b)| (a - b).abs() < 3e-5), "{q:?} decodes to {d:?}");
        }
    }
}
