//! Loads blobs built from `samples/foundation.json` with the kernel and evaluates the scalar
//! functions on their values, in the blob's own scalar type, side by side with `f64`.
//!
//! `cargo run -p ossicle-examples --bin foundation -- BLOB...` (see `scripts/demo.sh`).

use ossicle::asset::Asset;
use ossicle::event::{Event, EventQueue};
use ossicle::pool::Pool;
use ossicle::{Scalar, Q16};
use ossicle_format::ScalarEncoding;
use std::process::ExitCode;

fn show<S: Scalar>(asset: &Asset<'_>) {
    let Some(angles) = asset.test_section_named("angles") else {
        println!("  (no \"angles\" section)");
        return;
    };
    let Ok(values) = angles.values::<S>() else { return };
    println!("  {:>12} {:>12} {:>12} {:>10} {:>12} {:>10}", "angle", "sin", "f64 sin", "error", "cos", "error");
    for a in values.iter() {
        let x = a.to_f64();
        let (s, c) = a.sin_cos();
        println!(
            "  {x:>12.5} {:>12.7} {:>12.7} {:>10.2e} {:>12.7} {:>10.2e}",
            s.to_f64(),
            x.sin(),
            (s.to_f64() - x.sin()).abs(),
            c.to_f64(),
            (c.to_f64() - x.cos()).abs()
        );
    }
    // The storage primitives: a pool of 4 and a queue of 4 events, overfilled on purpose.
    let mut pool: Pool<S, 4> = Pool::new();
    let mut events: EventQueue<4> = EventQueue::new();
    for (i, a) in values.iter().enumerate() {
        match pool.insert(a) {
            Ok(_) => {}
            Err(e) => {
                events.push(Event::Custom { source: 0, id: i as u32 });
                if i == 4 {
                    println!("  pool: {e}");
                }
            }
        }
    }
    println!("  pool holds {} values; {} events queued, {} dropped", pool.len(), events.len(), events.dropped());
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: foundation BLOB...");
        return ExitCode::FAILURE;
    }
    for path in paths {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let asset = match Asset::load(&bytes) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!("{path}: {} scalars, {} strings", asset.encoding().name(), asset.strings().len());
        match asset.encoding() {
            ScalarEncoding::F32 => show::<f32>(&asset),
            ScalarEncoding::Q16_16 => show::<Q16>(&asset),
        }
    }
    ExitCode::SUCCESS
}
