//! The Unity muscle-clip decoder on arbitrary blocks: never panic, and an accepted clip has one
//! curve per streamed, dense and constant slot, in that order, with finite times and values, no
//! NaN slope, and times strictly increasing within each curve.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::unity::muscle::{decode, MuscleInput, ValueKind};
use ossicle_host::unity::Block;

fn word(data: &[u8], i: usize) -> u32 {
    let b = |j: usize| data.get(i * 4 + j).copied().unwrap_or(0);
    u32::from_le_bytes([b(0), b(1), b(2), b(3)])
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 16 {
        return;
    }
    // Header: counts (kept small so that most inputs reach the frame reader), dense shape, kinds.
    let h = word(data, 0);
    let curve_count = h & 0x1F;
    let discrete_curve_count = (h >> 5) & 0x7;
    let dense_frames = i64::from((h >> 8) & 0x7) - 1; // -1..=6
    let dense_curves = i64::from((h >> 11) & 0x3) - 1; // -1..=2
    let constant_count = ((h >> 13) & 0x3) as usize;
    let kinds_bits = word(data, 1);
    let rate = f32::from_bits(word(data, 2));
    let begin = f32::from_bits(word(data, 3));
    let body: Vec<u32> = (4..data.len() / 4).map(|i| word(data, i)).collect();
    let dense_len = usize::try_from(dense_frames.max(0) * dense_curves.max(0)).unwrap_or(0) + ((h >> 15) & 1) as usize;
    let (dense_samples, rest) = body.split_at(dense_len.min(body.len()));
    let (constant, words) = rest.split_at(constant_count.min(rest.len()));
    let input = MuscleInput {
        streamed_words: words.to_vec(),
        curve_count,
        discrete_curve_count,
        dense_frame_count: dense_frames,
        dense_curve_count: dense_curves,
        dense_sample_rate: rate,
        dense_begin_time: begin,
        dense_samples: dense_samples.to_vec(),
        constant: constant.to_vec(),
        start_time: 0.0,
        stop_time: f64::from((h >> 16) & 0xFF) / 16.0,
        pointer: String::new(),
    };
    let kinds: Vec<ValueKind> = (0..32)
        .map(|i| match (kinds_bits >> i) & 3 {
            1 => ValueKind::Int,
            2 => ValueKind::PPtr,
            _ => ValueKind::Float,
        })
        .collect();
    let Ok(curves) = decode(&input, &kinds) else { return };
    assert_eq!(curves.len(), input.total_curves());
    let streamed = input.streamed_count();
    for (i, (block, keys)) in curves.iter().enumerate() {
        let expected = if i < streamed {
            Block::Streamed
        } else if i < streamed + input.dense_count() {
            Block::Dense
        } else {
            Block::Constant
        };
        assert_eq!(*block, expected);
        for k in keys {
            assert!(k.time.is_finite() && k.value.is_finite(), "{k:?}");
            assert!(!k.in_slope.is_nan() && !k.out_slope.is_nan(), "{k:?}");
        }
        assert!(keys.windows(2).all(|w| w[0].time < w[1].time), "{keys:?}");
    }
});
