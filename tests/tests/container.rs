//! Source -> host -> blob -> kernel for the container: values survive exactly as the encoding
//! rounds them, and every corruption of a real blob is refused with a `LoadError`.

use ossicle::{asset::Asset, Scalar, Q16};
use ossicle_conformance::{build_blob, fixtures, sample_source};
use ossicle_format::{LoadError, ScalarEncoding};

/// The sample's values as written in the JSON (the independent expectation).
fn sample_values() -> Vec<(String, Vec<f64>)> {
    let v: serde_json_lite::Value = serde_json_lite::parse(&std::fs::read_to_string(sample_source()).unwrap());
    v.tests()
}

/// A tiny reader for the sample, independent of the host's parser.
mod serde_json_lite {
    pub struct Value(String);
    pub fn parse(s: &str) -> Value {
        Value(s.to_string())
    }
    impl Value {
        /// Extracts `"name": "...", "values": [...]` pairs by plain text scanning.
        pub fn tests(&self) -> Vec<(String, Vec<f64>)> {
            let mut out = Vec::new();
            let mut rest = self.0.as_str();
            while let Some(i) = rest.find("\"name\": \"") {
                rest = &rest[i + 9..];
                let end = rest.find('"').unwrap();
                let name = rest[..end].to_string();
                let vi = rest.find('[').unwrap();
                let ve = rest.find(']').unwrap();
                let values = rest[vi + 1..ve].split(',').map(|x| x.trim().parse::<f64>().unwrap()).collect();
                out.push((name, values));
                rest = &rest[ve..];
            }
            out
        }
    }
}

#[test]
fn q16_values_round_to_nearest() {
    let blob = build_blob(&[&sample_source()], ScalarEncoding::Q16_16).unwrap();
    let asset = Asset::load(&blob).unwrap();
    let expected = sample_values();
    assert_eq!(asset.test_sections().count(), expected.len());
    for (t, (name, values)) in asset.test_sections().zip(&expected) {
        assert_eq!(t.name(), name);
        let got = t.values::<Q16>().unwrap();
        assert_eq!(got.len(), values.len());
        for (g, &v) in got.iter().zip(values) {
            // Rounded to the nearest multiple of 2^-16: within half a step.
            assert!((g.to_f64() - v).abs() <= 0.5 / 65536.0, "{name}: {v} stored as {}", g.to_f64());
        }
    }
}

#[test]
fn f32_values_are_the_nearest_f32() {
    let blob = build_blob(&[&sample_source()], ScalarEncoding::F32).unwrap();
    let asset = Asset::load(&blob).unwrap();
    for (t, (_, values)) in asset.test_sections().zip(sample_values()) {
        let got: Vec<f32> = t.values::<f32>().unwrap().iter().collect();
        let want: Vec<f32> = values.iter().map(|&v| v as f32).collect();
        assert_eq!(got, want);
    }
    assert_eq!(asset.string(0), Some("ossicle"));
}

#[test]
fn every_corruption_of_the_sample_blob_is_a_load_error() {
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        let good = build_blob(&[&sample_source()], encoding).unwrap();
        assert!(Asset::load(&good).is_ok());
        for i in 0..good.len() {
            for flip in 1..=255u8 {
                let mut b = good.clone();
                b[i] ^= flip;
                let r = Asset::load(&b);
                assert!(r.is_err(), "byte {i} ^ {flip:#04x} was accepted");
            }
        }
        for len in 0..good.len() {
            let e = Asset::load(&good[..len]).unwrap_err();
            if len < 16 {
                assert_eq!(e, LoadError::TooShort { len, needed: 16 });
            } else {
                assert!(matches!(e, LoadError::LengthMismatch { .. }), "truncated to {len}: {e:?}");
            }
        }
    }
}

#[test]
fn fixtures_are_where_ci_expects_them() {
    // Later issues read real files from here; CI (OSSICLE_REQUIRE_FIXTURES=1) must find them.
    if let Some(dir) = fixtures() {
        assert!(dir.join("SOURCES.md").is_file());
    }
}
