//! placeholder
#![no_std]

/// How the scalars of a blob are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum ScalarEncoding {
    /// IEEE-754 binary32, little-endian.
    F32 = 1,
    /// Signed Q16.16 fixed point (`i32` bits, value = bits / 65536), little-endian.
    Q16_16 = 2,
}
