//! What a tween step animates: a scalar, a [`Vec2`] or an [`Rgba8`] colour.

use crate::color::Rgba8;
use crate::math::Vec2;
use crate::sink::PropertyValue;
use crate::Scalar;

/// A value a tween can animate: the scalar `S` itself, [`Vec2<S>`] or [`Rgba8`].
///
/// It is written through the sink as [`PropertyValue::Float`], [`PropertyValue::Vector`] or
/// [`PropertyValue::Color`]. The trait is sealed: these three are the kinds a tween step stores
/// inline (see [`Tween::to`](super::Tween::to)).
pub trait TweenValue<S: Scalar>: sealed::Sealed<S> {}

impl<S: Scalar> TweenValue<S> for S {}
impl<S: Scalar> TweenValue<S> for Vec2<S> {}
impl<S: Scalar> TweenValue<S> for Rgba8 {}

pub(crate) mod sealed {
    use super::Action;
    use crate::Scalar;

    /// Builds the step payload from a start and an end value.
    pub trait Sealed<S: Scalar>: Copy {
        /// The payload of a value step from `from` to `to`.
        fn action(from: Self, to: Self) -> Action<S>;
    }

    impl<S: Scalar> Sealed<S> for S {
        fn action(from: S, to: S) -> Action<S> {
            Action::Float { from, to }
        }
    }
    impl<S: Scalar> Sealed<S> for crate::math::Vec2<S> {
        fn action(from: Self, to: Self) -> Action<S> {
            Action::Vector { from, to }
        }
    }
    impl<S: Scalar> Sealed<S> for crate::color::Rgba8 {
        fn action(from: Self, to: Self) -> Action<S> {
            Action::Color { from, to }
        }
    }
}

/// What a step does: its payload. Value steps store their start and end inline, per kind, so a
/// frame's work is one match on this tag and the interpolation of that kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action<S> {
    /// A scalar from `from` to `to`.
    Float {
        /// Start (read from the sink when the step begins, unless given).
        from: S,
        /// End.
        to: S,
    },
    /// A 2D vector.
    Vector {
        /// Start.
        from: Vec2<S>,
        /// End.
        to: Vec2<S>,
    },
    /// A colour, interpolated per channel (see [`lerp_rgba8`]).
    Color {
        /// Start.
        from: Rgba8,
        /// End.
        to: Rgba8,
    },
    /// Waits.
    Delay,
    /// Emits `Event::TweenCall` with this id when it begins.
    Call(u32),
}

impl<S: Scalar> Action<S> {
    /// Sets the start to the sink's current value `current`; when the sink does not know the
    /// value, or it is of another kind, the start becomes the end (the step holds its end value).
    pub(crate) fn set_start(&mut self, current: Option<PropertyValue<S>>) {
        match (self, current) {
            (Self::Float { from, .. }, Some(PropertyValue::Float(v))) => *from = v,
            (Self::Vector { from, .. }, Some(PropertyValue::Vector(v))) => *from = v,
            (Self::Color { from, .. }, Some(PropertyValue::Color(v))) => *from = v,
            (Self::Float { from, to }, _) => *from = *to,
            (Self::Vector { from, to }, _) => *from = *to,
            (Self::Color { from, to }, _) => *from = *to,
            (Self::Delay | Self::Call(_), _) => {}
        }
    }

    /// The end value, exactly (`None` for a delay or a call).
    #[inline]
    pub(crate) fn end(&self) -> Option<PropertyValue<S>> {
        match *self {
            Self::Float { to, .. } => Some(PropertyValue::Float(to)),
            Self::Vector { to, .. } => Some(PropertyValue::Vector(to)),
            Self::Color { to, .. } => Some(PropertyValue::Color(to)),
            Self::Delay | Self::Call(_) => None,
        }
    }
}

/// Interpolates two colours per channel at eased progress `e`, rounding to the nearest `u8`.
///
/// Each channel is `clamp(round(a + (b − a)·e), 0, 255)`, computed with [`Scalar::lerp`] and
/// [`Scalar::round`] (ties away from zero, so a channel exactly halfway between two integers
/// rounds up: 0 → 255 at `e = 0.5` is 127.5, which gives 128, and so does 255 → 0). In Q16.16 the
/// product `(b − a)·e` of an integer and a Q16.16 value is exact, so the only rounding is the final
/// one; in f32 the product and the sum are each rounded to f32 first (IEEE-754), which can only
/// matter within about `2⁻¹⁶` of a tie. `e` outside `[0, 1]` (Back and Elastic overshoot) is
/// clamped to the channel range after rounding; a NaN `e` (f32) gives 0.
///
/// ```
/// use ossicle::color::Rgba8;
/// use ossicle::tween::lerp_rgba8;
/// let c = lerp_rgba8(Rgba8::new(0, 255, 10, 0), Rgba8::new(255, 0, 20, 3), 0.5f32);
/// assert_eq!(c, Rgba8::new(128, 128, 15, 2));
/// ```
pub fn lerp_rgba8<S: Scalar>(from: Rgba8, to: Rgba8, e: S) -> Rgba8 {
    Rgba8::new(channel(from.r, to.r, e), channel(from.g, to.g, e), channel(from.b, to.b, e), channel(from.a, to.a, e))
}

#[inline]
fn channel<S: Scalar>(a: u8, b: u8, e: S) -> u8 {
    let v = S::from_i32(i32::from(a)).lerp(S::from_i32(i32::from(b)), e).round();
    let i = v.clamp(S::ZERO, S::from_i32(255)).floor_to_i32();
    u8::try_from(i).unwrap_or(if i < 0 { 0 } else { u8::MAX })
}
