//! Helpers shared by the math unit tests: constructors from `f64` and tolerance checks.

use super::{Quat, Vec2, Vec3};
use crate::Scalar;

/// Absolute tolerances of one scalar type.
#[derive(Clone, Copy)]
pub struct Tol {
    /// Plain arithmetic (products, quotients, square roots) on values of magnitude about 1.
    pub exact: f64,
    /// Results that go through sin/cos/atan2/acos and a few products of them.
    pub trig: f64,
    /// Values of magnitude about 10⁴ (f32 keeps 24 bits, so its absolute error grows with size).
    pub big: f64,
}

impl Tol {
    /// f32: 1e-5 near 1 (a few ulps after a handful of operations), 1e-2 near 25000 (ulp 0.002).
    #[cfg(not(feature = "fast-math"))]
    pub const F32: Self = Self { exact: 1e-5, trig: 1e-5, big: 1e-2 };
    /// f32 with `fast-math`: micromath's sin/cos/atan2 are within about 3e-3 (acos/asin 3e-2, see
    /// `scalar::f32m`); a few of them combined stay within 2e-2.
    #[cfg(feature = "fast-math")]
    pub const F32: Self = Self { exact: 1e-5, trig: 2e-2, big: 1e-2 };
    /// Q16.16: 4 × 2⁻¹⁶ for arithmetic, 4 × 2⁻¹⁴ once transcendental functions are involved.
    pub const Q16: Self = Self { exact: 4.0 / 65536.0, trig: 4.0 / 16384.0, big: 4.0 / 65536.0 };
}

/// `v` converted to `S`.
pub fn s<S: Scalar>(v: f64) -> S {
    S::from_f64(v)
}

/// A `Vec2` from `f64` components.
pub fn v2<S: Scalar>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(s(x), s(y))
}

/// A `Vec3` from `f64` components.
pub fn v3<S: Scalar>(x: f64, y: f64, z: f64) -> Vec3<S> {
    Vec3::new(s(x), s(y), s(z))
}

/// Asserts `|got − want| <= tol`.
#[track_caller]
pub fn assert_close<S: Scalar>(got: S, want: f64, tol: f64) {
    let g = got.to_f64();
    assert!((g - want).abs() <= tol, "got {g}, want {want} (difference {}, tolerance {tol})", (g - want).abs());
}

/// Asserts that a `Vec2` is within `tol` of `want`, component-wise.
#[track_caller]
pub fn assert_v2<S: Scalar>(got: Vec2<S>, want: [f64; 2], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64()];
    for i in 0..2 {
        assert!((g[i] - want[i]).abs() <= tol, "got {g:?}, want {want:?} (tolerance {tol})");
    }
}

/// Asserts that a `Vec3` is within `tol` of `want`, component-wise.
#[track_caller]
pub fn assert_v3<S: Scalar>(got: Vec3<S>, want: [f64; 3], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64(), got.z.to_f64()];
    for i in 0..3 {
        assert!((g[i] - want[i]).abs() <= tol, "got {g:?}, want {want:?} (tolerance {tol})");
    }
}

/// Asserts that a quaternion is within `tol` of `want` = `[x, y, z, w]`, component-wise (the
/// sign matters: `q` and `−q` are not accepted as equal).
#[track_caller]
pub fn assert_quat<S: Scalar>(got: Quat<S>, want: [f64; 4], tol: f64) {
    let g = [got.x.to_f64(), got.y.to_f64(), got.z.to_f64(), got.w.to_f64()];
    for i in 0..4 {
        assert!((g[i] - want[i]).abs() <= tol, "got {g:?}, want {want:?} (tolerance {tol})");
    }
}

/// A 3×3 matrix in `f64`, rows first.
pub type M3 = [[f64; 3]; 3];

/// Rotation about X by `a` radians (right-handed, counter-clockwise looking down the axis).
pub fn rot_x(a: f64) -> M3 {
    let (s, c) = a.sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

/// Rotation about Y by `a` radians.
pub fn rot_y(a: f64) -> M3 {
    let (s, c) = a.sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}

/// Rotation about Z by `a` radians.
pub fn rot_z(a: f64) -> M3 {
    let (s, c) = a.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// The matrix product `a · b`.
pub fn mat_mul(a: M3, b: M3) -> M3 {
    let mut r = [[0.0; 3]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    r
}

/// Column `j` of `m`.
pub fn col(m: M3, j: usize) -> [f64; 3] {
    [m[0][j], m[1][j], m[2][j]]
}

/// xorshift32: a fixed pseudo-random sequence (the unit tests' random inputs; each test module
/// adds its own ways of turning the words into operands).
pub struct Xs(pub u32);

impl Xs {
    /// The next word.
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}
