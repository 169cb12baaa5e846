//! One step of a tween, as stored inline in the builder and in the pool.

use super::value::{lerp_rgba8, Action};
use crate::ease::{ease, Ease};
use crate::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use crate::Scalar;

/// One step: a value change, a delay or a call, with its timing.
///
/// `inv_duration` is `1 / duration`, computed when the step is added, so a frame multiplies
/// instead of dividing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step<S: Scalar> {
    /// What the step does.
    pub(crate) action: Action<S>,
    /// Its curve.
    pub(crate) ease: Ease<S>,
    /// Seconds it lasts (at speed 1), at least 0.
    pub(crate) duration: S,
    /// `1 / duration` (0 for a zero duration, which never needs it).
    pub(crate) inv_duration: S,
    /// The object it writes to.
    pub(crate) target: TargetId,
    /// The property it writes to.
    pub(crate) property: PropertyId,
    /// It runs together with the step before it.
    pub(crate) parallel: bool,
    /// Its start was given (`from_to`); otherwise it is read from the sink when the step begins.
    pub(crate) from_given: bool,
}

impl<S: Scalar> Step<S> {
    /// A zero-length delay: the filler of unused step slots.
    pub(crate) const EMPTY: Self = Self {
        action: Action::Delay,
        ease: Ease::Linear,
        duration: S::ZERO,
        inv_duration: S::ZERO,
        target: 0,
        property: 0,
        parallel: false,
        from_given: false,
    };

    /// A step of `action` lasting `duration` seconds (negative or NaN counts as 0, +∞ as the
    /// largest finite value).
    pub(crate) fn new(action: Action<S>, duration: S, ease: Ease<S>, target: TargetId, property: PropertyId) -> Self {
        let duration = duration.clamp(S::ZERO, S::MAX);
        let inv_duration = if duration > S::ZERO { duration.recip() } else { S::ZERO };
        Self { action, ease, duration, inv_duration, target, property, parallel: false, from_given: false }
    }

    /// Writes the value at `now` seconds into the step (`now < duration`). The hot path of a
    /// running tween: one match on the kind, the ease and the interpolation, straight into the sink
    /// (no `Option<PropertyValue>` round trip through memory).
    #[inline(always)]
    pub(crate) fn write_at<K: PropertySink<S> + ?Sized>(&self, now: S, sink: &mut K) {
        let value = match self.action {
            Action::Float { from, to } => {
                PropertyValue::Float(from.lerp(to, ease(self.ease, now.mul(self.inv_duration))))
            }
            Action::Vector { from, to } => {
                PropertyValue::Vector(from.lerp(to, ease(self.ease, now.mul(self.inv_duration))))
            }
            Action::Color { from, to } => {
                PropertyValue::Color(lerp_rgba8(from, to, ease(self.ease, now.mul(self.inv_duration))))
            }
            Action::Delay | Action::Call(_) => return,
        };
        sink.set(self.target, self.property, value);
    }

    /// Writes the end value, exactly.
    #[inline]
    pub(crate) fn write_end<K: PropertySink<S> + ?Sized>(&self, sink: &mut K) {
        if let Some(v) = self.action.end() {
            sink.set(self.target, self.property, v);
        }
    }

    /// The value at `now` seconds into the step: interpolated while `now < duration`, the end
    /// value after (`None` for a delay or a call).
    #[inline]
    pub(crate) fn value_at(&self, now: S) -> Option<PropertyValue<S>> {
        if now < self.duration {
            let e = |s: &Self| ease(s.ease, now.mul(s.inv_duration));
            match self.action {
                Action::Float { from, to } => Some(PropertyValue::Float(from.lerp(to, e(self)))),
                Action::Vector { from, to } => Some(PropertyValue::Vector(from.lerp(to, e(self)))),
                Action::Color { from, to } => Some(PropertyValue::Color(lerp_rgba8(from, to, e(self)))),
                Action::Delay | Action::Call(_) => None,
            }
        } else {
            self.action.end()
        }
    }
}
