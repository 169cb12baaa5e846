//! The host's intermediate representation: what every source parser produces and the blob writer
//! consumes. Parsers never write blob bytes; the writer never knows which source a value came from.

/// Everything that goes into one blob.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Project {
    /// Strings to put in the string table even if nothing refers to them (names for tools).
    pub strings: Vec<String>,
    /// Named scalar arrays (test sections).
    pub tests: Vec<TestArray>,
}

/// A named array of scalar values.
#[derive(Debug, Clone, PartialEq)]
pub struct TestArray {
    /// The name.
    pub name: String,
    /// The values, exactly as the source gave them.
    pub values: Vec<f64>,
    /// Where the array came from (`FILE` and a JSON pointer), for errors the writer finds.
    pub origin: Origin,
}

/// Where a piece of IR came from, so later stages can still name the file and place.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// The source file.
    pub file: std::path::PathBuf,
    /// The place in it (JSON pointer, line:column...).
    pub place: String,
}

impl Project {
    /// Appends another project's content (several sources build one blob).
    pub fn merge(&mut self, other: Project) {
        self.strings.extend(other.strings);
        self.tests.extend(other.tests);
    }
}
