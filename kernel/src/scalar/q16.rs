//! Q16.16 transcendental functions on raw bits (integer arithmetic only).
//! PLACEHOLDER: to be implemented.

/// π in Q16.16, rounded to nearest.
pub const PI_BITS: i32 = 205_887;
/// 2π in Q16.16, rounded to nearest.
pub const TAU_BITS: i32 = 411_775;
/// π/2 in Q16.16, rounded to nearest.
pub const FRAC_PI_2_BITS: i32 = 102_944;

#[allow(missing_docs)]
pub fn sqrt(_x: i32) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn hypot(_v: &[i32]) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn sin(_x: i32) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn cos(_x: i32) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn sin_cos(x: i32) -> (i32, i32) {
    (sin(x), cos(x))
}
#[allow(missing_docs)]
pub fn atan2(_y: i32, _x: i32) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn acos(_x: i32) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn asin(_x: i32) -> i32 {
    0
}
#[allow(missing_docs)]
pub fn exp2(_x: i32) -> i32 {
    0
}
