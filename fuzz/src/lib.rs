//! What the fuzz targets share.

/// A fuzz input read as a stream of bytes and little-endian words (zeros once it runs out).
pub struct Words<'a>(pub &'a [u8]);

impl Words<'_> {
    /// The next four bytes as a little-endian word (missing bytes read as zero).
    pub fn word(&mut self) -> u32 {
        let mut b = [0u8; 4];
        let n = self.0.len().min(4);
        b[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        u32::from_le_bytes(b)
    }

    /// The next byte (zero once the input is used up).
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
