//! The Unity type-tree JSON reader (AnimationClip dumps, through to the muscle-clip decoder and
//! the bindings) on arbitrary bytes: never panic, and an accepted clip has curves numbered in
//! order, each with finite, strictly increasing key times, finite values and no NaN slope, and
//! the JSON document of `ossicle curves` parses back (the conversion is `unity_build`'s).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::unity::{output, read_source, PathTable};

fuzz_target!(|data: &[u8]| {
    let Ok(clip) = read_source(data) else { return };
    for (i, c) in clip.curves.iter().enumerate() {
        assert_eq!(c.index, i);
        for k in &c.keys {
            assert!(k.time.is_finite() && k.value.is_finite(), "{k:?}");
            assert!(!k.in_slope.is_nan() && !k.out_slope.is_nan(), "{k:?}");
        }
        assert!(c.keys.windows(2).all(|w| w[0].time < w[1].time), "{:?}", c.keys);
    }
    let text = output::curves_json(&clip, &PathTable::default());
    let v: serde_json::Value = serde_json::from_str(&text).expect("the curves document is JSON");
    assert_eq!(v["curves"].as_array().map(Vec::len), Some(clip.curves.len()));
});
