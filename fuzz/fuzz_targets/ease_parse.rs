//! The easing and integrator name parsers on arbitrary text: never panic; an accepted curve
//! evaluates without panicking and is exactly 0 and 1 at the ends, in f32 and Q16.16.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle::dynamics::Integrator;
use ossicle::ease::{ease, Ease};
use ossicle::{Scalar, Q16};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else { return };
    let _ = Integrator::parse(text);
    if let Ok(curve) = Ease::<f32>::parse(text) {
        assert_eq!(ease(curve, 0.0f32), 0.0);
        assert_eq!(ease(curve, 1.0f32), 1.0);
        for i in 0..=16 {
            let _ = ease(curve, i as f32 / 16.0);
        }
    }
    if let Ok(curve) = Ease::<Q16>::parse(text) {
        assert_eq!(ease(curve, <Q16 as Scalar>::ONE), <Q16 as Scalar>::ONE);
        for i in 0..=16 {
            let _ = ease(curve, <Q16 as Scalar>::from_ratio(i, 16));
        }
    }
});
