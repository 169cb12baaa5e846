//! The state-machine condition compiler on arbitrary text: never panic; an accepted condition's
//! clauses name existing parameters, compare only Floats and Bools, and carry finite numbers; an
//! error's column lies inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::conditions::{compile, Clause, ParamKind};

const PARAMS: [(&str, ParamKind); 4] = [
    ("speed", ParamKind::Float),
    ("grounded", ParamKind::Bool),
    ("jump", ParamKind::Trigger),
    ("hp.max", ParamKind::Float),
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match compile(text, &PARAMS) {
        Ok(clauses) => {
            assert!(!clauses.is_empty());
            for c in clauses {
                match c {
                    Clause::Is { param } | Clause::IsNot { param } => {
                        assert_ne!(PARAMS[param as usize].1, ParamKind::Float)
                    }
                    Clause::Compare { param, value, .. } => {
                        assert_ne!(PARAMS[param as usize].1, ParamKind::Trigger);
                        assert!(value.is_finite());
                    }
                }
            }
        }
        Err(e) => assert!(e.column <= text.len()),
    }
});
