//! Unity muscle-clip decoding throughput (issue 7): MB/s of streamed words.
//!
//! `cargo bench -p ossicle-host --bench unity`. A synthetic streamed clip shaped like a humanoid
//! export: 150 curves (50 transforms × position/rotation/scale-like triples), every curve keyed
//! in every frame at 60 frames/s for 10 s (601 frames plus the -f32::MAX and +inf frames, each key
//! a cubic segment with non-zero coefficients), 452,706 words = 1,810,824 bytes.
//!
//! - `decode`: `muscle::decode` alone (frames split, keys and slopes built in f64).
//! - `json`: the same clip as a type-tree JSON dump read from text (serde_json parse, field reads,
//!   bindings, decode) — what `ossicle curves` does.
//!
//! Throughput is reported per byte of streamed words (4 per word) for both.

use criterion::{black_box, Criterion, Throughput};
use ossicle_host::unity::muscle::{decode, MuscleInput, ValueKind};
use ossicle_host::unity::typetree;
use serde_json::json;
use std::time::Duration;

const CURVES: u32 = 150;
const FRAMES: u32 = 601;

fn words() -> Vec<u32> {
    let f = |x: f32| x.to_bits();
    let mut w = Vec::new();
    w.push(f(f32::MIN));
    w.push(CURVES);
    for c in 0..CURVES {
        w.extend([c, 0, 0, 0, f(c as f32)]);
    }
    for frame in 0..FRAMES {
        w.push(f(frame as f32 / 60.0));
        w.push(CURVES);
        for c in 0..CURVES {
            let v = (frame as f32 * 0.1 + c as f32).sin();
            w.extend([c, f(0.5 - v), f(v * 0.25), f(v.cos()), f(v)]);
        }
    }
    w.extend([f(f32::INFINITY), 0]);
    w
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let words = words();
    let bytes = words.len() as u64 * 4;
    let input = MuscleInput {
        streamed_words: words.clone(),
        curve_count: CURVES,
        stop_time: f64::from(FRAMES - 1) / 60.0,
        ..MuscleInput::default()
    };
    let kinds = vec![ValueKind::Float; CURVES as usize];
    let bindings: Vec<_> = (0..CURVES / 3)
        .map(|i| json!({"path": 1000 + i, "attribute": 1, "typeID": 4, "customType": 0, "isPPtrCurve": 0}))
        .collect();
    let dump = json!({
        "_source": {"unity_version": "2022.1.20f1", "class": "AnimationClip"},
        "data": {"m_Name": "bench", "m_MuscleClip": {
            "m_Clip": {"data": {
                "m_StreamedClip": {"data": words, "curveCount": CURVES},
                "m_DenseClip": {"m_FrameCount": 0, "m_CurveCount": 0, "m_SampleRate": 60.0, "m_BeginTime": 0.0,
                                "m_SampleArray": []},
                "m_ConstantClip": {"data": []}}},
            "m_StartTime": 0.0, "m_StopTime": 10.0},
          "m_ClipBindingConstant": {"genericBindings": bindings, "pptrCurveMapping": []}}
    })
    .to_string();
    let mut g = c.benchmark_group("unity");
    g.throughput(Throughput::Bytes(bytes));
    g.measurement_time(Duration::from_secs(8));
    g.sample_size(30);
    g.bench_function("decode", |b| b.iter(|| decode(black_box(&input), &kinds).map(|c| c.len())));
    g.bench_function("json", |b| b.iter(|| typetree::read_clip_text(black_box(&dump)).map(|c| c.curves.len())));
    g.finish();
    c.final_summary();
}
