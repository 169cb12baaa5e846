//! The Mecanim muscle-clip decoder: `m_StreamedClip`, `m_DenseClip` and `m_ConstantClip` to keys.
//!
//! Curves are numbered across the blocks in this order: streamed (continuous, then discrete),
//! dense, constant.
//!
//! - Streamed: u32 words. Frames follow each other: time (f32 bits), key count (i32), then per key a
//!   curve index (i32) and four f32 coefficients of the cubic segment
//!   `value(dt) = ((c0·dt + c1)·dt + c2)·dt + c3` that lasts until the curve's next key. So c3 is
//!   the key's value, c2 its out-slope, and the next key's in-slope is the derivative at the
//!   segment's end, `3·c0·dt² + 2·c1·dt + c2` (computed in f64: the first frame sits at -f32::MAX,
//!   where dt² overflows f32). The first frame (at -f32::MAX) gives each curve's value before its
//!   first key; the last frame is at +inf and has no keys. A curve keyed only in that first frame
//!   gets one key at the clip's start. A segment with c0 = c1 = c2 = 0 whose next key has another
//!   value is a step (out-slope +inf), as is one with a non-finite coefficient. A frame (or a later
//!   frame at the same time) that keys a curve again replaces the earlier key.
//! - Dense: `m_SampleArray[f·m_CurveCount + c]` at `m_BeginTime + f/m_SampleRate`, piecewise
//!   linear: slopes are secants (0 before the first and after the last sample).
//! - Constant: one value per curve, keyed at the clip's start and stop with zero slopes.
//!
//! Int curves (`isIntCurve`) carry the integer's bits in the value; object-reference curves carry a
//! `pptrCurveMapping` index as a float. Both hold their value until the next key (a step where the
//! value changes).
//!
//! ```
//! use ossicle_host::unity::muscle::{decode, MuscleInput, ValueKind};
//! let f = |x: f32| x.to_bits();
//! // One curve: -f32::MAX frame (value 1), a key at 0 s rising linearly (c2 = 2) to a key at 1 s.
//! let words = vec![
//!     f(f32::MIN), 1, 0, 0, 0, 0, f(1.0),
//!     f(0.0), 1, 0, 0, 0, f(2.0), f(1.0),
//!     f(1.0), 1, 0, 0, 0, 0, f(3.0),
//!     f(f32::INFINITY), 0,
//! ];
//! let input = MuscleInput { streamed_words: words, curve_count: 1, stop_time: 1.0, ..MuscleInput::default() };
//! let curves = decode(&input, &[ValueKind::Float]).unwrap();
//! let keys = &curves[0].1;
//! assert_eq!(keys.len(), 2);
//! assert_eq!((keys[0].value, keys[0].out_slope, keys[1].in_slope, keys[1].value), (1.0, 2.0, 2.0, 3.0));
//! ```

use super::{Block, Key, UnityError};

/// The most curves a clip may have (a larger count is refused before anything is allocated).
pub const MAX_CURVES: usize = 1 << 18;

/// How a curve's stored value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueKind {
    /// An f32.
    #[default]
    Float,
    /// An i32's bits (`isIntCurve`).
    Int,
    /// A `pptrCurveMapping` index as an f32 (`isPPtrCurve`); negative = none.
    PPtr,
}

/// The muscle clip's blocks, as read from a dump (see [`super::typetree`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MuscleInput {
    /// `m_StreamedClip.data`.
    pub streamed_words: Vec<u32>,
    /// `m_StreamedClip.curveCount`: continuous streamed curves.
    pub curve_count: u32,
    /// `m_StreamedClip.discreteCurveCount` (Unity 2022.3.19f1 / 2023.2.8f1 on; else 0): discrete
    /// streamed curves, numbered after the continuous ones.
    pub discrete_curve_count: u32,
    /// `m_DenseClip.m_FrameCount`.
    pub dense_frame_count: i64,
    /// `m_DenseClip.m_CurveCount`.
    pub dense_curve_count: i64,
    /// `m_DenseClip.m_SampleRate`.
    pub dense_sample_rate: f32,
    /// `m_DenseClip.m_BeginTime`.
    pub dense_begin_time: f32,
    /// `m_DenseClip.m_SampleArray` (f32 bits).
    pub dense_samples: Vec<u32>,
    /// `m_ConstantClip.data` (f32 bits).
    pub constant: Vec<u32>,
    /// The clip's start (`m_StartTime`).
    pub start_time: f64,
    /// The clip's stop (`m_StopTime`).
    pub stop_time: f64,
    /// JSON pointer of the object holding the three blocks (for errors).
    pub pointer: String,
}

impl MuscleInput {
    /// Streamed curves (continuous + discrete).
    pub fn streamed_count(&self) -> usize {
        self.curve_count as usize + self.discrete_curve_count as usize
    }

    /// Dense curves (0 if `m_CurveCount` is negative; [`decode`] reports that).
    pub fn dense_count(&self) -> usize {
        usize::try_from(self.dense_curve_count).unwrap_or(0)
    }

    /// All curves.
    pub fn total_curves(&self) -> usize {
        self.streamed_count().saturating_add(self.dense_count()).saturating_add(self.constant.len())
    }

    /// "N curves (streamed S + dense D + constant C)" for errors.
    pub fn describe_counts(&self) -> String {
        format!(
            "{} curves in the muscle clip (streamed {} + dense {} + constant {})",
            self.total_curves(),
            self.streamed_count(),
            self.dense_count(),
            self.constant.len()
        )
    }
}

/// One streamed key as stored.
#[derive(Debug, Clone, Copy)]
struct RawKey {
    time: f64,
    coeffs: [u32; 4],
    /// The index of its curve-index word in `data`.
    word: usize,
}

/// Decodes every curve, in curve order, as (block, keys). `kinds[i]` says how curve `i`'s values
/// read (missing entries are floats).
pub fn decode(input: &MuscleInput, kinds: &[ValueKind]) -> Result<Vec<(Block, Vec<Key>)>, UnityError> {
    let p = &input.pointer;
    let streamed = input.streamed_count();
    if streamed > MAX_CURVES {
        return Err(UnityError::json(
            format!("{p}/m_StreamedClip/curveCount"),
            format!("{streamed} streamed curves is over the limit of {MAX_CURVES}"),
        ));
    }
    let kind = |i: usize| kinds.get(i).copied().unwrap_or_default();
    let mut out = Vec::new();
    let raw = split_frames(input, streamed)?;
    for (i, keys) in raw.iter().enumerate() {
        out.push((Block::Streamed, streamed_keys(input, keys, kind(i))?));
    }
    for keys in dense(input, |c| kind(streamed + c))? {
        out.push((Block::Dense, keys));
    }
    let base = out.len();
    for (c, &bits) in input.constant.iter().enumerate() {
        let value = read_value(bits, kind(base + c))
            .ok_or_else(|| UnityError::json(format!("{p}/m_ConstantClip/data/{c}"), not_finite(bits)))?;
        let mut keys = vec![Key { time: input.start_time, value, in_slope: 0.0, out_slope: 0.0 }];
        if input.stop_time > input.start_time {
            keys.push(Key { time: input.stop_time, value, in_slope: 0.0, out_slope: 0.0 });
        }
        out.push((Block::Constant, keys));
    }
    Ok(out)
}

fn not_finite(bits: u32) -> String {
    format!("value {} (bits 0x{bits:08x}) is not finite", f32::from_bits(bits))
}

/// A stored value as f64, or `None` if it is not a finite float / integral index.
fn read_value(bits: u32, kind: ValueKind) -> Option<f64> {
    match kind {
        ValueKind::Int => Some(f64::from(bits as i32)),
        ValueKind::Float => {
            let v = f32::from_bits(bits);
            v.is_finite().then_some(f64::from(v))
        }
        ValueKind::PPtr => {
            let v = f32::from_bits(bits);
            (v.is_finite() && v.fract() == 0.0).then_some(f64::from(v))
        }
    }
}

/// Splits the streamed words into per-curve stored keys.
fn split_frames(input: &MuscleInput, curves: usize) -> Result<Vec<Vec<RawKey>>, UnityError> {
    let p = format!("{}/m_StreamedClip/data", input.pointer);
    let words = &input.streamed_words;
    let mut keys: Vec<Vec<RawKey>> = vec![Vec::new(); curves];
    let mut pos = 0usize;
    let mut frame = 0usize;
    let mut prev_time = f64::NEG_INFINITY;
    while pos < words.len() {
        let (Some(&tw), Some(&cw)) = (words.get(pos), words.get(pos + 1)) else {
            return Err(UnityError::json(
                format!("{p}/{pos}"),
                format!(
                    "the {} words do not form whole frames: frame {frame} starts at word {pos} but only its time \
                     remains (a frame is time, key count, then 5 words per key)",
                    words.len()
                ),
            ));
        };
        let time = f32::from_bits(tw);
        if time.is_nan() || time == f32::NEG_INFINITY {
            return Err(UnityError::json(format!("{p}/{pos}"), format!("frame {frame}'s time {time} is not a time")));
        }
        let time = f64::from(time);
        if time < prev_time {
            return Err(UnityError::json(
                format!("{p}/{pos}"),
                format!("frame {frame}'s time {time} is before the previous frame's {prev_time}"),
            ));
        }
        prev_time = time;
        let count = cw as i32;
        if count < 0 {
            return Err(UnityError::json(
                format!("{p}/{}", pos + 1),
                format!("frame {frame} (time {time}) has a negative key count {count}"),
            ));
        }
        let count = count as usize;
        let start = pos + 2;
        let remaining = words.len() - start;
        if count.saturating_mul(5) > remaining {
            return Err(UnityError::json(
                format!("{p}/{}", pos + 1),
                format!(
                    "the words do not form whole frames: frame {frame} (time {time}) has {count} keys, which need {} \
                     words, but {remaining} remain",
                    count.saturating_mul(5)
                ),
            ));
        }
        if time == f64::INFINITY && count > 0 {
            return Err(UnityError::json(
                format!("{p}/{pos}"),
                format!("frame {frame} at time +inf (the end marker) has {count} keys"),
            ));
        }
        for k in 0..count {
            let w = start + k * 5;
            let index = words.get(w).copied().unwrap_or_default() as i32;
            let slot = usize::try_from(index).ok().and_then(|i| keys.get_mut(i)).ok_or_else(|| {
                UnityError::json(
                    format!("{p}/{w}"),
                    format!(
                        "frame {frame} (time {time}) key {k}: curve index {index} is {} (streamed curveCount {}{})",
                        if index < 0 { "negative" } else { "past the curve count" },
                        input.curve_count,
                        if input.discrete_curve_count > 0 {
                            format!(" + discreteCurveCount {}", input.discrete_curve_count)
                        } else {
                            String::new()
                        }
                    ),
                )
            })?;
            let c = |j: usize| words.get(w + 1 + j).copied().unwrap_or_default();
            let raw = RawKey { time, coeffs: [c(0), c(1), c(2), c(3)], word: w };
            match slot.last_mut() {
                // The same frame (or another at the same time) keys it again: the last wins.
                Some(last) if last.time == time => *last = raw,
                _ => slot.push(raw),
            }
        }
        pos = start + count * 5;
        frame += 1;
    }
    Ok(keys)
}

/// The f64 coefficients, or `None` if c0..c2 are not all finite.
fn slopes_coeffs(k: &RawKey) -> Option<[f64; 3]> {
    let c = k.coeffs.map(|b| f64::from(f32::from_bits(b)));
    (c[0].is_finite() && c[1].is_finite() && c[2].is_finite()).then_some([c[0], c[1], c[2]])
}

/// Derivative of a key's segment `dt` seconds after it, in f64 (`None` if non-finite).
fn derivative(k: &RawKey, dt: f64) -> Option<f64> {
    let [c0, c1, c2] = slopes_coeffs(k)?;
    let d = 3.0 * c0 * dt * dt + 2.0 * c1 * dt + c2;
    d.is_finite().then_some(d)
}

/// The keys of one streamed curve.
fn streamed_keys(input: &MuscleInput, raw: &[RawKey], kind: ValueKind) -> Result<Vec<Key>, UnityError> {
    let p = format!("{}/m_StreamedClip/data", input.pointer);
    let pre_time = f64::from(f32::MIN);
    let value_of = |k: &RawKey| {
        read_value(k.coeffs[3], kind).ok_or_else(|| {
            let reason = match kind {
                ValueKind::PPtr => format!(
                    "object-reference key value {} is not a pptrCurveMapping index",
                    f32::from_bits(k.coeffs[3])
                ),
                _ => not_finite(k.coeffs[3]),
            };
            UnityError::json(format!("{p}/{}", k.word + 4), format!("key at time {}: {reason}", k.time))
        })
    };
    let (pre, real) = match raw.split_first() {
        Some((first, rest)) if first.time == pre_time => (Some(first), rest),
        _ => (None, raw),
    };
    if real.is_empty() {
        // Keyed only in the -f32::MAX frame: one key at the clip's start, the segment evaluated
        // there in f64.
        let Some(k) = pre else { return Ok(Vec::new()) };
        let value = value_of(k)?;
        let dt = input.start_time - pre_time;
        let (value, slope) = match (kind, slopes_coeffs(k)) {
            (ValueKind::Float, Some([c0, c1, c2])) => {
                let v = ((c0 * dt + c1) * dt + c2) * dt + value;
                let s = 3.0 * c0 * dt * dt + 2.0 * c1 * dt + c2;
                if v.is_finite() && s.is_finite() {
                    (v, s)
                } else {
                    (value, 0.0)
                }
            }
            _ => (value, 0.0),
        };
        return Ok(vec![Key { time: input.start_time, value, in_slope: slope, out_slope: slope }]);
    }
    let mut keys: Vec<Key> = Vec::with_capacity(real.len());
    let first_in = match pre {
        Some(k) => real.first().and_then(|f| derivative(k, f.time - k.time)).unwrap_or(0.0),
        None => 0.0,
    };
    for (i, k) in real.iter().enumerate() {
        let value = value_of(k)?;
        // The derivative of the previous segment at its end (0 where it is undefined).
        let in_slope = match i.checked_sub(1).and_then(|j| real.get(j)) {
            None => first_in,
            Some(prev) => derivative(prev, k.time - prev.time).unwrap_or(0.0),
        };
        keys.push(Key { time: k.time, value, in_slope, out_slope: 0.0 });
    }
    // Out-slopes and steps, now that every value is known.
    for i in 0..real.len() {
        let k = &real[i];
        let stepped_kind = !matches!(kind, ValueKind::Float);
        let next_value = keys.get(i + 1).map(|n| n.value);
        let out = match slopes_coeffs(k) {
            None => f64::INFINITY,
            Some([c0, c1, c2]) => {
                let flat = c0 == 0.0 && c1 == 0.0 && c2 == 0.0;
                match next_value {
                    Some(nv) if (flat || stepped_kind) && nv != keys[i].value => f64::INFINITY,
                    _ if stepped_kind => 0.0,
                    _ => c2,
                }
            }
        };
        keys[i].out_slope = out;
    }
    Ok(keys)
}

/// The dense block's curves.
fn dense(input: &MuscleInput, kind: impl Fn(usize) -> ValueKind) -> Result<Vec<Vec<Key>>, UnityError> {
    let p = format!("{}/m_DenseClip", input.pointer);
    let frames = input.dense_frame_count;
    let curves = input.dense_curve_count;
    if frames < 0 {
        return Err(UnityError::json(format!("{p}/m_FrameCount"), format!("negative frame count {frames}")));
    }
    if curves < 0 {
        return Err(UnityError::json(format!("{p}/m_CurveCount"), format!("negative curve count {curves}")));
    }
    let (frames, curves) = (frames as usize, curves as usize);
    if curves > MAX_CURVES {
        return Err(UnityError::json(
            format!("{p}/m_CurveCount"),
            format!("{curves} dense curves is over the limit of {MAX_CURVES}"),
        ));
    }
    if curves == 0 {
        if !input.dense_samples.is_empty() {
            return Err(UnityError::json(
                format!("{p}/m_SampleArray"),
                format!("{} samples for 0 curves (m_CurveCount 0)", input.dense_samples.len()),
            ));
        }
        return Ok(Vec::new());
    }
    let expected = frames.checked_mul(curves);
    if expected != Some(input.dense_samples.len()) {
        return Err(UnityError::json(
            format!("{p}/m_SampleArray"),
            format!(
                "has {} samples, but m_FrameCount {frames} × m_CurveCount {curves} = {}",
                input.dense_samples.len(),
                expected.map_or("too many".to_string(), |e| e.to_string())
            ),
        ));
    }
    let rate = f64::from(input.dense_sample_rate);
    let begin = f64::from(input.dense_begin_time);
    if frames > 0 && !(rate.is_finite() && rate > 0.0) {
        return Err(UnityError::json(format!("{p}/m_SampleRate"), format!("sample rate {rate} is not positive")));
    }
    if !begin.is_finite() {
        return Err(UnityError::json(format!("{p}/m_BeginTime"), format!("begin time {begin} is not finite")));
    }
    let mut out = Vec::with_capacity(curves);
    for c in 0..curves {
        let kind = kind(c);
        let mut keys: Vec<Key> = Vec::with_capacity(frames);
        for f in 0..frames {
            let i = f * curves + c;
            let bits = input.dense_samples.get(i).copied().unwrap_or_default();
            let value = read_value(bits, kind)
                .ok_or_else(|| UnityError::json(format!("{p}/m_SampleArray/{i}"), not_finite(bits)))?;
            let time = begin + f as f64 / rate;
            if keys.last().is_some_and(|k: &Key| time <= k.time) || !time.is_finite() {
                return Err(UnityError::json(
                    format!("{p}/m_BeginTime"),
                    format!(
                        "m_BeginTime {begin} and m_SampleRate {rate} give frame {f} the time {time}, not after frame {}'s",
                        f - 1
                    ),
                ));
            }
            keys.push(Key { time, value, in_slope: 0.0, out_slope: 0.0 });
        }
        for f in 1..keys.len() {
            let (a, b) = (keys[f - 1], keys[f]);
            let slope = match kind {
                ValueKind::Float => (b.value - a.value) / (b.time - a.time),
                _ if a.value == b.value => 0.0,
                _ => f64::INFINITY,
            };
            keys[f - 1].out_slope = slope;
            keys[f].in_slope = if slope.is_finite() { slope } else { 0.0 };
        }
        out.push(keys);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn frames_must_be_whole() {
        let input = MuscleInput { streamed_words: vec![f(0.0), 1, 0, 0, 0], curve_count: 1, ..Default::default() };
        let e = decode(&input, &[]).unwrap_err();
        assert!(e.to_string().starts_with("/m_StreamedClip/data/1: the words do not form whole frames"), "{e}");
        let input = MuscleInput { streamed_words: vec![f(0.0)], curve_count: 1, ..Default::default() };
        let e = decode(&input, &[]).unwrap_err();
        assert!(e.to_string().starts_with("/m_StreamedClip/data/0: the 1 words do not form whole frames"), "{e}");
    }

    #[test]
    fn pre_frame_only_gives_one_key_at_start() {
        let input = MuscleInput {
            streamed_words: vec![f(f32::MIN), 1, 0, 0, 0, 0, f(5.0), f(f32::INFINITY), 0],
            curve_count: 1,
            start_time: 0.25,
            stop_time: 1.0,
            ..Default::default()
        };
        let c = decode(&input, &[]).unwrap();
        assert_eq!(c[0].1, vec![Key { time: 0.25, value: 5.0, in_slope: 0.0, out_slope: 0.0 }]);
    }

    #[test]
    fn dense_times_that_do_not_increase_are_refused() {
        // Found by fuzzing: at -1.7e38 s, 1/10 s is below f64's resolution.
        let input = MuscleInput {
            dense_frame_count: 2,
            dense_curve_count: 1,
            dense_sample_rate: 10.0,
            dense_begin_time: -1.7e38,
            dense_samples: vec![f(1.0), f(2.0)],
            ..Default::default()
        };
        let e = decode(&input, &[]).unwrap_err();
        assert_eq!(e.place(), "/m_DenseClip/m_BeginTime");
        assert!(e.reason().contains("give frame 1 the time"), "{e}");
    }
}
