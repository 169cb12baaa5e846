//! IR -> blob bytes: the one writer every source goes through.

use crate::error::HostError;
mod anims;

use crate::ir::Project;
use ossicle_format::{BlobWriter, ScalarEncoding};

/// Encodes `project` as a blob with `encoding` scalars.
///
/// Every value must be representable: finite, and for Q16.16 within `[-32768, 32767.99998]`; an
/// error names the source file and the place of the first value that is not.
pub fn write_blob(project: &Project, encoding: ScalarEncoding) -> Result<Vec<u8>, HostError> {
    let mut w = BlobWriter::new(encoding);
    for s in &project.strings {
        w.intern(s);
    }
    for t in &project.tests {
        let mut words = Vec::with_capacity(t.values.len());
        for (i, &v) in t.values.iter().enumerate() {
            let word = encoding.encode_f64(v).ok_or_else(|| {
                let range = match encoding {
                    ScalarEncoding::Q16_16 => "Q16.16 holds -32768 to 32767.99998",
                    ScalarEncoding::F32 => "f32 holds finite values up to 3.4e38",
                };
                HostError::at(
                    &t.origin.file,
                    format!("{}/{i}", t.origin.place),
                    format!("value {v} does not fit the {} encoding ({range})", encoding.name()),
                )
            })?;
            words.push(word);
        }
        w.add_test_section(&t.name, &words)
            .map_err(|e| HostError::at(&t.origin.file, &t.origin.place, e.to_string()))?;
    }
    w.finish().map_err(|e| HostError::file("<output>", e.to_string()))
}
