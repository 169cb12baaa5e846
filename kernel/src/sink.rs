//! Where players write their values: the [`PropertySink`] trait.
//!
//! Players never hold pointers to the things they animate. A player knows a *target* (an index the
//! host resolved from a node name) and a *property* (an id such as [`property::POSITION_X`]), and
//! hands each new value to a `PropertySink` the caller passes to `update`. A sink can also report
//! current values, which tweens need to start "from wherever the value is".

use crate::color::Rgba8;
use crate::math::{Quat, Vec2, Vec3};
use crate::Scalar;

/// Which object a value is for (an index resolved by the host, or the application's own id).
pub type TargetId = u32;
/// Which property of the target a value is for (see [`property`] for the built-in ids).
pub type PropertyId = u32;

/// A value written to or read from a property.
///
/// With the `defmt` feature it implements `defmt::Format` when the scalar does (`f32`; `fixed` 1.29
/// has no defmt support, so print Q16.16 values through `to_bits()`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PropertyValue<S: Scalar> {
    /// A number.
    Float(S),
    /// A 2D vector.
    Vector(Vec2<S>),
    /// A 3D vector.
    Vector3(Vec3<S>),
    /// A 3D rotation.
    Rotation(Quat<S>),
    /// A colour.
    Color(Rgba8),
    /// A flag.
    Bool(bool),
    /// An integer (frame index, z-index...).
    Int(i32),
    /// A string, by its id in the blob's string table.
    Text(u32),
}

impl<S: Scalar> PropertyValue<S> {
    /// The number, if this is a `Float`.
    pub fn as_float(&self) -> Option<S> {
        match *self {
            Self::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The vector, if this is a `Vector`.
    pub fn as_vector(&self) -> Option<Vec2<S>> {
        match *self {
            Self::Vector(v) => Some(v),
            _ => None,
        }
    }

    /// The 3D vector, if this is a `Vector3`.
    pub fn as_vector3(&self) -> Option<Vec3<S>> {
        match *self {
            Self::Vector3(v) => Some(v),
            _ => None,
        }
    }

    /// The rotation, if this is a `Rotation`.
    pub fn as_rotation(&self) -> Option<Quat<S>> {
        match *self {
            Self::Rotation(q) => Some(q),
            _ => None,
        }
    }

    /// The colour, if this is a `Color`.
    pub fn as_color(&self) -> Option<Rgba8> {
        match *self {
            Self::Color(c) => Some(c),
            _ => None,
        }
    }
}

/// Receives the values players produce, and reports current values on request.
///
/// ```
/// use ossicle::sink::{PropertySink, PropertyValue, TargetId, PropertyId};
/// /// Records the last x position written to target 0.
/// struct X(f32);
/// impl PropertySink<f32> for X {
///     fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<f32>) {
///         if let (0, ossicle::sink::property::POSITION_X, Some(v)) = (target, property, value.as_float()) {
///             self.0 = v;
///         }
///     }
/// }
/// let mut sink = X(0.0);
/// sink.set(0, ossicle::sink::property::POSITION_X, PropertyValue::Float(3.5));
/// assert_eq!(sink.0, 3.5);
/// ```
pub trait PropertySink<S: Scalar> {
    /// Writes `value` to `property` of `target`. A sink ignores what it does not know.
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>);

    /// The current value of `property` of `target`, if the sink knows it (by default: unknown).
    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        let _ = (target, property);
        None
    }
}

impl<S: Scalar, T: PropertySink<S> + ?Sized> PropertySink<S> for &mut T {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        (**self).set(target, property, value);
    }
    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        (**self).get(target, property)
    }
}

/// A sink that discards every value (for benchmarks and dry runs).
#[derive(Clone, Copy, Debug, Default)]
pub struct NullSink;

impl<S: Scalar> PropertySink<S> for NullSink {
    fn set(&mut self, _: TargetId, _: PropertyId, _: PropertyValue<S>) {}
}

/// Built-in property ids, shared by the host (which resolves names such as `position.x`) and
/// the kernel. Ids from [`property::USER`] on are free for applications.
pub mod property {
    use super::PropertyId;
    /// `position` (Vector).
    pub const POSITION: PropertyId = 1;
    /// `position.x` (Float).
    pub const POSITION_X: PropertyId = 2;
    /// `position.y` (Float).
    pub const POSITION_Y: PropertyId = 3;
    /// `rotation` in radians (Float).
    pub const ROTATION: PropertyId = 4;
    /// `scale` (Vector).
    pub const SCALE: PropertyId = 5;
    /// `scale.x` (Float).
    pub const SCALE_X: PropertyId = 6;
    /// `scale.y` (Float).
    pub const SCALE_Y: PropertyId = 7;
    /// `tint` (Color).
    pub const TINT: PropertyId = 8;
    /// `opacity`, 0..1 (Float).
    pub const OPACITY: PropertyId = 9;
    /// `visible` (Bool).
    pub const VISIBLE: PropertyId = 10;
    /// `zIndex` (Int).
    pub const Z_INDEX: PropertyId = 11;
    /// `animation`: plays a sprite animation by name (Text: the name's string id).
    pub const ANIMATION: PropertyId = 12;
    /// `text` (Text: a string id).
    pub const TEXT: PropertyId = 13;
    /// `color` (Color).
    pub const COLOR: PropertyId = 14;
    /// `state`: sends a state machine to a state by name (Text: the name's string id).
    pub const STATE: PropertyId = 15;
    /// First id of `script.<field>` slots: `SCRIPT + field index` (the host numbers a scene's
    /// script fields).
    pub const SCRIPT: PropertyId = 0x8000;
    /// First id free for applications.
    pub const USER: PropertyId = 0x1_0000;
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Store([Option<PropertyValue<f32>>; 4]);
    impl PropertySink<f32> for Store {
        fn set(&mut self, _t: TargetId, p: PropertyId, v: PropertyValue<f32>) {
            if let Some(slot) = self.0.get_mut(p as usize) {
                *slot = Some(v);
            }
        }
        fn get(&self, _t: TargetId, p: PropertyId) -> Option<PropertyValue<f32>> {
            self.0.get(p as usize).copied().flatten()
        }
    }

    fn write_through<K: PropertySink<f32>>(mut k: K) {
        k.set(0, 2, PropertyValue::Color(Rgba8::WHITE));
    }

    #[test]
    fn sinks_store_and_report_values_also_through_references() {
        let mut s = Store([None; 4]);
        s.set(0, 1, PropertyValue::Float(2.0));
        s.set(0, 9, PropertyValue::Bool(true)); // unknown: ignored
        write_through(&mut s);
        assert_eq!(s.get(0, 1).and_then(|v| v.as_float()), Some(2.0));
        assert_eq!(s.get(0, 2).and_then(|v| v.as_color()), Some(Rgba8::WHITE));
        assert_eq!(s.get(0, 3), None);
        assert_eq!(PropertySink::<f32>::get(&NullSink, 0, 1), None);
    }
}
