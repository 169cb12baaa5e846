//! [`NodeTable`]: a ready [`PropertySink`] holding the built-in node properties, so a scene works
//! without writing a sink.

use crate::color::Rgba8;
use crate::math::Vec2;
use crate::scalar::Scalar;
use crate::sink::{property, PropertyId, PropertySink, PropertyValue, TargetId};

/// A `script.<field>` slot's value (property id [`property::SCRIPT`]` + field`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ScriptValue<S> {
    /// Never written.
    #[default]
    Empty,
    /// A number.
    Float(S),
    /// A 2D vector.
    Vector(Vec2<S>),
    /// A colour.
    Color(Rgba8),
    /// A flag.
    Bool(bool),
    /// An integer.
    Int(i32),
    /// A string id.
    Text(u32),
}

/// The built-in properties of one node, as a [`NodeTable`] stores them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node<S, const M: usize> {
    /// `position` (`position.x`, `position.y` write its components).
    pub position: Vec2<S>,
    /// `rotation`, radians.
    pub rotation: S,
    /// `scale` (`scale.x`, `scale.y` write its components).
    pub scale: Vec2<S>,
    /// `tint`; `opacity` is its alpha (`opacity × 255`, rounded).
    pub tint: Rgba8,
    /// `visible`.
    pub visible: bool,
    /// `zIndex` (a Float written to it is rounded to nearest, ties away from zero).
    pub z_index: i32,
    /// `text` (a Label's string id), `None` until written.
    pub text: Option<u32>,
    /// `color` (a Label's colour).
    pub color: Rgba8,
    /// `animation`: the sprite animation name id last requested.
    pub animation: Option<u32>,
    /// Set by every write of `animation`, cleared by [`NodeTable::take_animation`].
    pub animation_changed: bool,
    /// `state`: the state name id last requested.
    pub state: Option<u32>,
    /// Set by every write of `state`, cleared by [`NodeTable::take_state`].
    pub state_changed: bool,
    /// `script.<field>` slots `0..M`.
    pub script: [ScriptValue<S>; M],
}

impl<S: Scalar, const M: usize> Node<S, M> {
    /// A node at the origin, unrotated, scale 1, white tint and colour, visible, z-index 0, no
    /// text, animation or state, empty script slots.
    pub const fn new() -> Self {
        Self {
            position: Vec2::ZERO,
            rotation: S::ZERO,
            scale: Vec2::ONE,
            tint: Rgba8::WHITE,
            visible: true,
            z_index: 0,
            text: None,
            color: Rgba8::WHITE,
            animation: None,
            animation_changed: false,
            state: None,
            state_changed: false,
            script: [ScriptValue::Empty; M],
        }
    }

    fn set(&mut self, property: PropertyId, value: PropertyValue<S>) {
        use PropertyValue as V;
        match (property, value) {
            (property::POSITION, V::Vector(v)) => self.position = v,
            (property::POSITION_X, V::Float(x)) => self.position.x = x,
            (property::POSITION_Y, V::Float(y)) => self.position.y = y,
            (property::ROTATION, V::Float(r)) => self.rotation = r,
            (property::SCALE, V::Vector(v)) => self.scale = v,
            (property::SCALE_X, V::Float(x)) => self.scale.x = x,
            (property::SCALE_Y, V::Float(y)) => self.scale.y = y,
            (property::TINT, V::Color(c)) => self.tint = c,
            (property::OPACITY, V::Float(o)) => {
                let a = o.clamp01().mul(S::from_i32(255)).round().floor_to_i32().clamp(0, 255);
                self.tint.a = u8::try_from(a).unwrap_or(u8::MAX);
            }
            (property::VISIBLE, V::Bool(b)) => self.visible = b,
            (property::Z_INDEX, V::Int(z)) => self.z_index = z,
            (property::Z_INDEX, V::Float(z)) => self.z_index = z.round().floor_to_i32(),
            (property::TEXT, V::Text(id)) => self.text = Some(id),
            (property::COLOR, V::Color(c)) => self.color = c,
            (property::ANIMATION, V::Text(id)) => {
                self.animation = Some(id);
                self.animation_changed = true;
            }
            (property::STATE, V::Text(id)) => {
                self.state = Some(id);
                self.state_changed = true;
            }
            (p, v) if (property::SCRIPT..property::USER).contains(&p) => {
                let field = usize::try_from(p - property::SCRIPT).unwrap_or(usize::MAX);
                if let Some(slot) = self.script.get_mut(field) {
                    *slot = match v {
                        V::Float(x) => ScriptValue::Float(x),
                        V::Vector(x) => ScriptValue::Vector(x),
                        V::Color(x) => ScriptValue::Color(x),
                        V::Bool(x) => ScriptValue::Bool(x),
                        V::Int(x) => ScriptValue::Int(x),
                        V::Text(x) => ScriptValue::Text(x),
                        V::Vector3(_) | V::Rotation(_) => return,
                    };
                }
            }
            _ => {}
        }
    }

    fn get(&self, property: PropertyId) -> Option<PropertyValue<S>> {
        use PropertyValue as V;
        Some(match property {
            property::POSITION => V::Vector(self.position),
            property::POSITION_X => V::Float(self.position.x),
            property::POSITION_Y => V::Float(self.position.y),
            property::ROTATION => V::Float(self.rotation),
            property::SCALE => V::Vector(self.scale),
            property::SCALE_X => V::Float(self.scale.x),
            property::SCALE_Y => V::Float(self.scale.y),
            property::TINT => V::Color(self.tint),
            property::OPACITY => V::Float(S::from_ratio(i32::from(self.tint.a), 255)),
            property::VISIBLE => V::Bool(self.visible),
            property::Z_INDEX => V::Int(self.z_index),
            property::TEXT => V::Text(self.text?),
            property::COLOR => V::Color(self.color),
            property::ANIMATION => V::Text(self.animation?),
            property::STATE => V::Text(self.state?),
            p if (property::SCRIPT..property::USER).contains(&p) => {
                let field = usize::try_from(p - property::SCRIPT).ok()?;
                match *self.script.get(field)? {
                    ScriptValue::Empty => return None,
                    ScriptValue::Float(x) => V::Float(x),
                    ScriptValue::Vector(x) => V::Vector(x),
                    ScriptValue::Color(x) => V::Color(x),
                    ScriptValue::Bool(x) => V::Bool(x),
                    ScriptValue::Int(x) => V::Int(x),
                    ScriptValue::Text(x) => V::Text(x),
                }
            }
            _ => return None,
        })
    }
}

impl<S: Scalar, const M: usize> Default for Node<S, M> {
    fn default() -> Self {
        Self::new()
    }
}

/// A [`PropertySink`] for `N` nodes (targets `0..N`) with the built-in properties and `M`
/// `script.<field>` slots per node (fields `0..M`; default 4).
///
/// Writes of an unknown target, an unknown property, a script field `>= M`, or a value of the wrong
/// kind are ignored. [`get`](PropertySink::get) returns what was set, in the kind the property
/// has: `opacity` reads back the tint's alpha as `alpha / 255` (so it is quantised to 1/255),
/// `zIndex` reads back an Int; `text`, `animation`, `state` and never-written script slots read
/// `None` until written.
///
/// Memory: `N × NodeTable::NODE_BYTES` (for `f32` or Q16.16: 60 bytes plus 12 per script slot,
/// 108 with the default `M = 4`).
///
/// ```
/// use ossicle::animator::NodeTable;
/// use ossicle::sink::{property, PropertySink, PropertyValue};
/// let mut nodes: NodeTable<f32, 2> = NodeTable::new();
/// nodes.set(1, property::OPACITY, PropertyValue::Float(0.5));
/// nodes.set(1, property::ANIMATION, PropertyValue::Text(42));
/// assert_eq!(nodes.node(1).map(|n| n.tint.a), Some(128));
/// assert_eq!(nodes.take_animation(1), Some(42));
/// assert_eq!(nodes.take_animation(1), None); // already taken
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeTable<S, const N: usize, const M: usize = 4> {
    nodes: [Node<S, M>; N],
}

impl<S: Scalar, const N: usize, const M: usize> Default for NodeTable<S, N, M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const N: usize, const M: usize> NodeTable<S, N, M> {
    /// The size of one node's entry in bytes.
    pub const NODE_BYTES: usize = core::mem::size_of::<Node<S, M>>();

    /// `N` nodes with [`Node::new`]'s defaults.
    pub const fn new() -> Self {
        Self { nodes: [Node::new(); N] }
    }

    /// Node `target`.
    pub fn node(&self, target: TargetId) -> Option<&Node<S, M>> {
        self.nodes.get(usize::try_from(target).ok()?)
    }
    /// Node `target`, to change it (an application's own script, say).
    pub fn node_mut(&mut self, target: TargetId) -> Option<&mut Node<S, M>> {
        self.nodes.get_mut(usize::try_from(target).ok()?)
    }
    /// All nodes, by target index.
    pub fn nodes(&self) -> &[Node<S, M>; N] {
        &self.nodes
    }
    /// Node `target`'s position.
    pub fn position(&self, target: TargetId) -> Option<Vec2<S>> {
        self.node(target).map(|n| n.position)
    }
    /// Node `target`'s rotation.
    pub fn rotation(&self, target: TargetId) -> Option<S> {
        self.node(target).map(|n| n.rotation)
    }
    /// Node `target`'s scale.
    pub fn scale(&self, target: TargetId) -> Option<Vec2<S>> {
        self.node(target).map(|n| n.scale)
    }
    /// Node `target`'s tint (its alpha is the opacity).
    pub fn tint(&self, target: TargetId) -> Option<Rgba8> {
        self.node(target).map(|n| n.tint)
    }
    /// Node `target`'s visibility.
    pub fn visible(&self, target: TargetId) -> Option<bool> {
        self.node(target).map(|n| n.visible)
    }
    /// Node `target`'s z-index.
    pub fn z_index(&self, target: TargetId) -> Option<i32> {
        self.node(target).map(|n| n.z_index)
    }
    /// Node `target`'s text id, if written.
    pub fn text(&self, target: TargetId) -> Option<u32> {
        self.node(target).and_then(|n| n.text)
    }
    /// Node `target`'s (label) colour.
    pub fn color(&self, target: TargetId) -> Option<Rgba8> {
        self.node(target).map(|n| n.color)
    }
    /// Script slot `field` of node `target`.
    pub fn script(&self, target: TargetId, field: usize) -> Option<ScriptValue<S>> {
        self.node(target).and_then(|n| n.script.get(field).copied())
    }
    /// The sprite animation name id requested for node `target` since the last take (then clears
    /// the request; the id stays readable in [`Node::animation`]).
    pub fn take_animation(&mut self, target: TargetId) -> Option<u32> {
        let n = self.node_mut(target)?;
        core::mem::take(&mut n.animation_changed).then_some(n.animation).flatten()
    }
    /// The state name id requested for node `target` since the last take (then clears the
    /// request).
    pub fn take_state(&mut self, target: TargetId) -> Option<u32> {
        let n = self.node_mut(target)?;
        core::mem::take(&mut n.state_changed).then_some(n.state).flatten()
    }
}

impl<S: Scalar, const N: usize, const M: usize> PropertySink<S> for NodeTable<S, N, M> {
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        if let Some(n) = self.node_mut(target) {
            n.set(property, value);
        }
    }

    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        self.node(target)?.get(property)
    }
}
