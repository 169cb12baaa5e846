//! Colours as players write them.

/// An 8-bit-per-channel RGBA colour (straight, not premultiplied, alpha).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rgba8 {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha (255 = opaque).
    pub a: u8,
}

impl Rgba8 {
    /// Opaque white.
    pub const WHITE: Self = Self::new(255, 255, 255, 255);
    /// Transparent black.
    pub const TRANSPARENT: Self = Self::new(0, 0, 0, 0);

    /// A colour from its channels.
    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Self {
        Self { r, g, b, a }
    }

    /// The channels as `[r, g, b, a]`.
    pub const fn to_array(self) -> [u8; 4] {
        [self.r, self.g, self.b, self.a]
    }

    /// A colour from `[r, g, b, a]`.
    pub const fn from_array(c: [u8; 4]) -> Self {
        Self::new(c[0], c[1], c[2], c[3])
    }
}
