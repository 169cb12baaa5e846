//! Cross-target conformance: the workload the QEMU firmware ran on Cortex-M (`boards/qemu`) runs here
//! on the host, and the checksums must agree operation by operation.
//!
//! `scripts/qemu/check.sh` builds the blobs, builds and runs the firmware on QEMU's Cortex-M4F
//! (mps2-an386, hardware f32) and Cortex-M0 (microbit, soft float), saves what each printed, and runs
//! this test with:
//!
//! - `OSSICLE_QEMU_OUTPUTS`: the firmware outputs, a `:`-separated list of files (the file stem names
//!   the machine in messages);
//! - `OSSICLE_BLOB_Q16`, `OSSICLE_BLOB_F32`: the blobs the firmware embedded (when unset, the test
//!   builds them from `samples/foundation.json` through the host, as `ossicle build` does);
//! - `OSSICLE_REQUIRE_QEMU=1`: missing outputs are a failure instead of a skip.
//!
//! Q16.16 must be bit-identical (integer arithmetic only). f32 is compared too: IEEE-754 basic
//! operations are correctly rounded on the M4F's FPU, in the M0's soft float and on x86-64, and the
//! transcendental functions are the same `libm` code, so every result matches as well (NaNs are
//! compared as one canonical NaN: their payloads differ between FPUs). That includes the animation
//! scenarios (`ease`, `tween`, `motion`, `sequence`, `dynamics`: see
//! `boards/qemu/src/animation.rs`), whose values go through the same operations.

#[path = "../../boards/qemu/src/workload.rs"]
#[allow(dead_code)]
mod workload;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ossicle::{Scalar, Q16};
use ossicle_conformance::{build_blob, sample_source};
use ossicle_format::ScalarEncoding;
use workload::{Report, OPS};

/// The blob of one encoding: the file the firmware embedded, or one built here from the sample.
fn blob(var: &str, encoding: ScalarEncoding) -> Vec<u8> {
    match std::env::var_os(var) {
        Some(path) => std::fs::read(&path).unwrap_or_else(|e| panic!("{var}={}: {e}", Path::new(&path).display())),
        None => build_blob(&[&sample_source()], encoding).expect("build the sample blob"),
    }
}

fn host_report<S: Scalar>(var: &str) -> Report {
    let bytes = blob(var, S::ENCODING);
    workload::run::<S>(&bytes).unwrap_or_else(|e| panic!("workload on the host ({:?}): {e:?}", S::ENCODING))
}

/// What one firmware run printed: per type (`q16`, `f32`), the checksum of each operation, the total
/// and the number of values.
#[derive(Debug, Default)]
struct Printed {
    ops: BTreeMap<(String, String), u32>,
    totals: BTreeMap<String, (u32, u32)>,
    ok: bool,
}

fn parse_hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

fn parse(text: &str) -> Printed {
    let mut p = Printed::default();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ok"] => p.ok = true,
            [ty, "checksum:", total, "values:", n] => {
                if let (Some(total), Ok(n)) = (parse_hex(total), n.parse()) {
                    p.totals.insert(ty.to_string(), (total, n));
                }
            }
            [ty, op, value] if op.ends_with(':') => {
                if let Some(v) = parse_hex(value) {
                    p.ops.insert((ty.to_string(), op.trim_end_matches(':').to_string()), v);
                }
            }
            _ => {}
        }
    }
    p
}

/// The operations whose checksums differ between the host and the firmware (all of them when the
/// firmware printed nothing for this type).
fn differences(printed: &Printed, ty: &str, host: &Report) -> Vec<String> {
    let mut diff = Vec::new();
    for (name, want) in OPS.iter().zip(host.ops.iter()) {
        match printed.ops.get(&(ty.to_string(), name.to_string())) {
            Some(got) if got == want => {}
            Some(got) => diff.push(format!("{ty} {name}: firmware {got:#010x}, host {want:#010x}")),
            None => diff.push(format!("{ty} {name}: not printed by the firmware")),
        }
    }
    match printed.totals.get(ty) {
        Some(&(total, n)) if total == host.total() && n == host.values => {}
        Some(&(total, n)) => diff.push(format!(
            "{ty} checksum: firmware {total:#010x} over {n} values, host {:#010x} over {} values",
            host.total(),
            host.values
        )),
        None => diff.push(format!("{ty} checksum: not printed by the firmware")),
    }
    diff
}

fn qemu_outputs() -> Option<Vec<PathBuf>> {
    let required = std::env::var("OSSICLE_REQUIRE_QEMU").is_ok_and(|v| v == "1");
    let paths: Vec<PathBuf> = std::env::var_os("OSSICLE_QEMU_OUTPUTS")
        .map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect())
        .unwrap_or_default();
    if paths.is_empty() {
        let msg = "no QEMU firmware output: run scripts/qemu/check.sh (it sets OSSICLE_QEMU_OUTPUTS)";
        assert!(!required, "{msg} (required because OSSICLE_REQUIRE_QEMU=1)");
        eprintln!("skipping: {msg}");
        return None;
    }
    Some(paths)
}

#[test]
fn workload_runs_on_the_host_and_is_deterministic() {
    let q16 = host_report::<Q16>("OSSICLE_BLOB_Q16");
    let f32 = host_report::<f32>("OSSICLE_BLOB_F32");
    assert!(q16.values > 0 && q16.values == f32.values, "{} and {} values", q16.values, f32.values);
    assert_eq!(q16, host_report::<Q16>("OSSICLE_BLOB_Q16"));
    assert_eq!(f32, host_report::<f32>("OSSICLE_BLOB_F32"));
    // A blob of the other encoding is refused, not misread.
    let f32_blob = blob("OSSICLE_BLOB_F32", ScalarEncoding::F32);
    assert!(matches!(workload::run::<Q16>(&f32_blob), Err(workload::WorkloadError::WrongEncoding)));
    // A corrupt blob is refused.
    let mut bad = f32_blob.clone();
    if let Some(last) = bad.last_mut() {
        *last ^= 0xFF;
    }
    assert!(matches!(workload::run::<f32>(&bad), Err(workload::WorkloadError::Load(_))));
}

#[test]
fn qemu_firmware_checksums_match_the_host() {
    let Some(outputs) = qemu_outputs() else { return };
    let q16 = host_report::<Q16>("OSSICLE_BLOB_Q16");
    let f32 = host_report::<f32>("OSSICLE_BLOB_F32");
    eprintln!("host: q16 checksum {:#010x}, f32 checksum {:#010x}, {} values", q16.total(), f32.total(), q16.values);

    let mut failures = Vec::new();
    for path in &outputs {
        let machine = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let printed = parse(&text);
        if !printed.ok {
            failures.push(format!("{machine}: the firmware did not finish with `ok`:\n{text}"));
        }
        for (ty, report) in [("q16", &q16), ("f32", &f32)] {
            let diff = differences(&printed, ty, report);
            if diff.is_empty() {
                eprintln!("{machine}: {ty} bit-identical to the host ({} operations)", OPS.len());
            } else {
                failures.push(format!("{machine}: {ty} differs from the host:\n  {}", diff.join("\n  ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fold_sink_remembers_values_and_folds_every_write() {
    use ossicle::sink::{PropertySink, PropertyValue};
    use workload::animation::{FoldSink, SINK_SLOTS};
    use workload::Checksum;

    let mut sink = FoldSink::<f32>::new();
    sink.preset(9, 9, PropertyValue::Float(-1.0)); // remembered, not folded
    assert_eq!(sink.get(9, 9), Some(PropertyValue::Float(-1.0)));
    sink.set(1, 2, PropertyValue::Float(0.5));
    sink.set(1, 2, PropertyValue::Float(0.25)); // the same property: replaced
    assert_eq!(sink.get(1, 2), Some(PropertyValue::Float(0.25)));
    assert_eq!(sink.get(2, 1), None);
    // Fill the remaining slots (one is T9's, one T1's), then one more property is not remembered.
    for k in 0..SINK_SLOTS as u32 - 1 {
        sink.set(100 + k, 0, PropertyValue::Int(k as i32));
    }
    assert_eq!(sink.get(100, 0), Some(PropertyValue::Int(0)));
    assert_eq!(sink.get(100 + SINK_SLOTS as u32 - 3, 0), Some(PropertyValue::Int(SINK_SLOTS as i32 - 3)));
    assert_eq!(sink.get(100 + SINK_SLOTS as u32 - 2, 0), None); // the 13th property
                                                                // Every write folded in order: target, property, kind tag, bits; then writes and overflows.
    let mut want = Checksum::new();
    for (t, p, tag, bits) in [(1, 2, 1, 0.5f32.to_bits()), (1, 2, 1, 0.25f32.to_bits())] {
        for w in [t, p, tag, bits] {
            want.word(w);
        }
    }
    for k in 0..SINK_SLOTS as u32 - 1 {
        for w in [100 + k, 0, 7, k] {
            want.word(w);
        }
    }
    want.word(2 + SINK_SLOTS as u32 - 1);
    want.word(1);
    assert_eq!(sink.finish(), want.value());
}

#[test]
fn parses_firmware_output() {
    let p = parse("q16 add: 0x0000000a\nq16 checksum: 0xdeadbeef values: 68\nnoise\nok\n");
    assert!(p.ok);
    assert_eq!(p.ops.get(&("q16".into(), "add".into())), Some(&10));
    assert_eq!(p.totals.get("q16"), Some(&(0xDEAD_BEEF, 68)));
}
