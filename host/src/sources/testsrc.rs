//! The ossicle test source: a small JSON format that exercises the blob container.
//!
//! ```json
//! {
//!   "format": "ossicle-test/1",
//!   "strings": ["idle", "run"],
//!   "tests": [
//!     { "name": "angles", "values": [0, 0.5, -1.25, 3.14159] }
//!   ]
//! }
//! ```
//!
//! `format` is required and must be `ossicle-test/1`; `strings` (names put in the string table)
//! and `tests` (named arrays of numbers, each becoming a test section) are optional. Unknown
//! fields, duplicate or empty test names are errors. Values are checked against the blob's scalar
//! encoding when the blob is written.

use crate::error::HostError;
use crate::ir::{Origin, Project, TestArray};
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

/// The value of the `format` field.
pub const FORMAT: &str = "ossicle-test/1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Source {
    format: String,
    #[serde(default)]
    strings: Vec<String>,
    #[serde(default)]
    tests: Vec<Test>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Test {
    name: String,
    values: Vec<f64>,
}

/// Parses a test source.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let src: Source = serde_json::from_slice(bytes).map_err(|e| crate::error::json_error(path, &e, ""))?;
    if src.format != FORMAT {
        return Err(HostError::at(path, "/format", format!("format is {:?}, expected {FORMAT:?}", src.format)));
    }
    let mut seen = HashSet::new();
    let mut tests = Vec::with_capacity(src.tests.len());
    for (i, t) in src.tests.into_iter().enumerate() {
        if t.name.is_empty() {
            return Err(HostError::at(path, format!("/tests/{i}/name"), "test name is empty"));
        }
        if !seen.insert(t.name.clone()) {
            return Err(HostError::at(path, format!("/tests/{i}/name"), format!("duplicate test name {:?}", t.name)));
        }
        tests.push(TestArray {
            name: t.name,
            values: t.values,
            origin: Origin { file: path.to_path_buf(), place: format!("/tests/{i}/values") },
        });
    }
    Ok(Project { strings: src.strings, tests, ..Project::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Project, HostError> {
        parse(Path::new("t.json"), s.as_bytes())
    }

    #[test]
    fn parses_a_source() {
        let pr = p(r#"{"format":"ossicle-test/1","strings":["a"],"tests":[{"name":"x","values":[1,-0.5]}]}"#).unwrap();
        assert_eq!(pr.strings, ["a"]);
        assert_eq!(pr.tests[0].name, "x");
        assert_eq!(pr.tests[0].values, [1.0, -0.5]);
        assert_eq!(pr.tests[0].origin.place, "/tests/0/values");
    }

    #[test]
    fn errors_name_the_place() {
        let e =
            p("{\n  \"format\": \"ossicle-test/1\",\n  \"tests\": [ {\"name\": \"x\", \"values\": [1, \"two\"]} ]\n}")
                .unwrap_err();
        // serde_json reports the column where it finished reading the bad token ("two" spans 42..46).
        assert_eq!(e.place, "3:46");
        assert!(e.reason.contains("invalid type: string \"two\", expected f64"), "{e}");
        let e = p(r#"{"format":"ossicle-test/2"}"#).unwrap_err();
        assert_eq!(
            (e.place.as_str(), e.reason.as_str()),
            ("/format", "format is \"ossicle-test/2\", expected \"ossicle-test/1\"")
        );
        let e = p(r#"{"format":"ossicle-test/1","tests":[{"name":"a","values":[]},{"name":"a","values":[]}]}"#)
            .unwrap_err();
        assert_eq!(e.place, "/tests/1/name");
        let e = p(r#"{"format":"ossicle-test/1","bogus":1}"#).unwrap_err();
        assert!(e.reason.contains("unknown field `bogus`"), "{e}");
        let e = p(r#"{"format":"ossicle-test/1","tests":[{"name":"","values":[]}]}"#).unwrap_err();
        assert_eq!(e.place, "/tests/0/name");
        let e = p("").unwrap_err();
        assert!(e.reason.contains("EOF"), "{e}");
        assert_eq!(e.to_string().lines().count(), 1);
    }
}
