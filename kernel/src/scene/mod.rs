//! Scenes from a blob: the node tree of a scene file with its Animators, state machines and
//! animated sprites, run together by [`Scene`]; and the scripted [`trace`] runner the conformance
//! tests and `ossicle trace` use.
//!
//! A [`BlobScene`] is a scene section read in place (see `ossicle_format::scene` for the bytes).
//! [`BlobClips`] and [`BlobMachine`] implement [`ClipSource`](crate::animator::ClipSource) and [`MachineSource`] over it, so an
//! [`Animator`] or a [`StateMachine`] plays a scene's definitions straight from flash. [`Scene`]
//! wires a whole scene up the way the Odin engine runs it: a [`NodeTable`] holds every node's
//! built-in properties, every AnimatedSprite node bound to a sprite asset gets a
//! [`SpritePlayer`], every Animator and state machine its player, and one
//! [`update`](Scene::update) advances them all in a fixed order:
//!
//! 1. every Animator, in scene order (writes its tracks into the node table, fires its events);
//! 2. the requests the Animators wrote: a node's `animation` property plays that animation on the
//!    node's sprite player ([`SpritePlayer::play`] without restart), a StateMachine node's `state`
//!    property travels the machine to that state;
//! 3. every sprite player, in node order;
//! 4. every state machine, in scene order, driving its sprite node's player.
//!
//! Ids in events: an Animator's `animator` is its index in the scene, a machine's `machine` its
//! index, a sprite player's `player` the index of its node.
//!
//! # Memory
//!
//! A `Scene<S, N, C, P>` holds the [`NodeTable`] (`N` nodes), `C` slots each for Animators,
//! state machines (with `P` parameter slots) and sprite players, and a copy of the scene section;
//! [`Scene::BYTES`] gives the total (for example `Scene<Q16, 16, 4, 8>` on a Cortex-M: see
//! BENCHMARKS.md). Definitions, keys and pixels stay in the blob.
//!
//! # Example
//!
//! ```no_run
//! use ossicle::event::EventQueue;
//! use ossicle::scene::Scene;
//! use ossicle::{Asset, Q16};
//! # let bytes: &[u8] = &[];
//! let asset = Asset::load(bytes).unwrap();
//! let blob_scene = asset.scene(0).unwrap();
//! let mut scene: Scene<Q16, 16, 4, 8> = Scene::new(&asset, blob_scene).unwrap();
//! let mut q: EventQueue<32> = EventQueue::new();
//! scene.update(Q16::from_num(1.0 / 60.0), &mut q);
//! let knight = scene.blob().find_node("Knight").unwrap();
//! let _pos = scene.nodes().position(knight as u32);
//! ```

mod blob;
pub mod trace;

pub use blob::{builtin_property_name, BlobClips, BlobMachine, BlobScene, PropertyName, SceneNode};

use core::fmt;

use crate::animator::{Animator, NodeTable};
use crate::asset::{Asset, EncodingMismatch};
use crate::event::EventQueue;
use crate::scalar::Scalar;
use crate::sink::{PropertyId, PropertySink, PropertyValue, TargetId};
use crate::sprite::{BlobAnimations, SpritePlayer, SpriteSource};
use crate::statemachine::{MachineError, MachineSource, StateMachine};

/// Why a [`Scene`] could not be made from a blob's scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SceneError {
    /// The scene has more nodes, Animators, machines or sprites than the `Scene`'s capacity.
    Capacity {
        /// `"nodes"`, `"animators"`, `"machines"`, `"sprites"` or `"script fields"`.
        what: &'static str,
        /// How many the scene has.
        needed: usize,
        /// The capacity.
        capacity: usize,
    },
    /// The blob's scalars are not the `Scene`'s.
    Encoding(EncodingMismatch),
    /// An AnimatedSprite node names a sprite the blob does not hold.
    MissingSprite {
        /// The node's index.
        node: usize,
    },
    /// A state machine could not be made (more parameters than `P`).
    Machine {
        /// The machine's index.
        machine: usize,
        /// Why.
        error: MachineError,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Capacity { what, needed, capacity } => {
                write!(f, "the scene has {needed} {what}, the runtime has room for {capacity}")
            }
            SceneError::Encoding(e) => write!(f, "{e}"),
            SceneError::MissingSprite { node } => write!(f, "node {node} shows a sprite the blob does not hold"),
            SceneError::Machine { machine, error } => write!(f, "state machine {machine}: {error}"),
        }
    }
}

impl From<EncodingMismatch> for SceneError {
    fn from(e: EncodingMismatch) -> Self {
        SceneError::Encoding(e)
    }
}

/// A sprite player bound to an AnimatedSprite node.
#[derive(Clone, Copy, Debug)]
pub struct SpriteSlot<'a, S> {
    /// The node's index.
    pub node: usize,
    /// The sprite's animations.
    pub animations: BlobAnimations<'a, S>,
    /// The player (its id is the node's index).
    pub player: SpritePlayer<'a, S>,
}

/// A [`PropertySink`] that writes into a [`NodeTable`] and shows every write to a closure.
pub struct Observed<'t, T: ?Sized, F> {
    /// The sink written to.
    pub sink: &'t mut T,
    /// Called with every write, before it reaches the sink.
    pub observe: F,
}

impl<S: Scalar, T: PropertySink<S> + ?Sized, F: FnMut(TargetId, PropertyId, PropertyValue<S>)> PropertySink<S>
    for Observed<'_, T, F>
{
    fn set(&mut self, target: TargetId, property: PropertyId, value: PropertyValue<S>) {
        (self.observe)(target, property, value);
        self.sink.set(target, property, value);
    }

    fn get(&self, target: TargetId, property: PropertyId) -> Option<PropertyValue<S>> {
        self.sink.get(target, property)
    }
}

/// A whole scene of a blob, running: see the [module documentation](self).
///
/// `N` nodes, `C` slots each for Animators, state machines and sprite players, `P` parameter
/// slots per machine, `M` `script.<field>` slots per node (the scene's distinct script fields).
#[derive(Clone, Debug)]
pub struct Scene<'a, S, const N: usize, const C: usize = 8, const P: usize = 8, const M: usize = 4> {
    scene: BlobScene<'a>,
    nodes: NodeTable<S, N, M>,
    animators: [Option<Animator<S>>; C],
    machines: [Option<StateMachine<S, P>>; C],
    sprites: [Option<SpriteSlot<'a, S>>; C],
}

fn too_many(what: &'static str, needed: usize, capacity: usize) -> Result<(), SceneError> {
    if needed > capacity {
        Err(SceneError::Capacity { what, needed, capacity })
    } else {
        Ok(())
    }
}

impl<'a, S: Scalar, const N: usize, const C: usize, const P: usize, const M: usize> Scene<'a, S, N, C, P, M> {
    /// The size of a `Scene` in bytes.
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// Sets up `scene` of `asset`: every node at [`Node::new`](crate::animator::Node::new)'s
    /// defaults changed by its starting values from the scene file ([`BlobScene::start_values`]),
    /// every AnimatedSprite's player playing its `animation` (if it names one), every
    /// Animator playing its autoplay clip, every machine in its start state with its parameters at
    /// their defaults. Nothing is written or fired until the first [`update`](Self::update).
    pub fn new(asset: &Asset<'a>, scene: BlobScene<'a>) -> Result<Self, SceneError> {
        too_many("nodes", scene.node_count(), N)?;
        too_many("animators", scene.animator_count(), C)?;
        too_many("machines", scene.machine_count(), C)?;
        too_many("script fields", scene.section().field_count(), M)?;
        let shown = (0..scene.node_count()).filter(|&n| scene.node(n).is_some_and(|i| i.sprite.is_some())).count();
        too_many("sprites", shown, C)?;
        let mut this =
            Self { scene, nodes: NodeTable::new(), animators: [None; C], machines: [None; C], sprites: [None; C] };
        for (target, property, value) in scene.start_values::<S>() {
            this.nodes.set(target, property, value);
        }
        let mut sprites = 0usize;
        for node in 0..scene.node_count() {
            let Some(info) = scene.node(node) else { continue };
            let Some(name) = info.sprite else { continue };
            let sprite = asset.sprite_named(name).ok_or(SceneError::MissingSprite { node })?;
            let animations = sprite.animations::<S>()?;
            let mut player = SpritePlayer::new(u32::try_from(node).unwrap_or(u32::MAX));
            if let Some(index) = info.animation.and_then(|a| animations.find(a)) {
                // An empty animation is refused by the player; the node then shows nothing.
                let _ = player.play(&animations, index, true);
            }
            let slot = this.sprites.get_mut(sprites).ok_or(SceneError::Capacity {
                what: "sprites",
                needed: sprites.saturating_add(1),
                capacity: C,
            })?;
            *slot = Some(SpriteSlot { node, animations, player });
            sprites = sprites.saturating_add(1);
        }
        for (i, slot) in this.animators.iter_mut().enumerate().take(scene.animator_count()) {
            let Some(clips) = scene.clips::<S>(i)? else { continue };
            let mut a = Animator::new(u32::try_from(i).unwrap_or(u32::MAX));
            // The autoplay index was checked at load; a failure leaves the Animator idle.
            let _ = a.start(&clips);
            *slot = Some(a);
        }
        for (i, slot) in this.machines.iter_mut().enumerate().take(scene.machine_count()) {
            let Some(def) = scene.machine::<S>(i)? else { continue };
            let id = u32::try_from(i).unwrap_or(u32::MAX);
            let sm = StateMachine::new(id, def.start_state(), &def)
                .map_err(|error| SceneError::Machine { machine: i, error })?;
            *slot = Some(sm);
        }
        Ok(this)
    }

    /// The scene definition.
    pub fn blob(&self) -> &BlobScene<'a> {
        &self.scene
    }
    /// The node table (every node's built-in properties; target `i` is node `i`).
    pub fn nodes(&self) -> &NodeTable<S, N, M> {
        &self.nodes
    }
    /// The node table, to change nodes from game code.
    pub fn nodes_mut(&mut self) -> &mut NodeTable<S, N, M> {
        &mut self.nodes
    }
    /// Animator `i` with its clips and the node table it writes: for control calls
    /// ([`Animator::play_named`], [`Animator::seek`], ...).
    pub fn animator_parts(
        &mut self,
        i: usize,
    ) -> Option<(&mut Animator<S>, BlobClips<'a, S>, &mut NodeTable<S, N, M>)> {
        let clips = self.scene.clips::<S>(i).ok()??;
        Some((self.animators.get_mut(i)?.as_mut()?, clips, &mut self.nodes))
    }
    /// Animator `i`.
    pub fn animator(&self, i: usize) -> Option<&Animator<S>> {
        self.animators.get(i)?.as_ref()
    }
    /// State machine `i` with its definition: to set parameters ([`StateMachine::set_float_named`],
    /// ...) or travel.
    pub fn machine_parts(&mut self, i: usize) -> Option<(&mut StateMachine<S, P>, BlobMachine<'a, S>)> {
        let def = self.scene.machine::<S>(i).ok()??;
        Some((self.machines.get_mut(i)?.as_mut()?, def))
    }
    /// State machine `i`.
    pub fn machine(&self, i: usize) -> Option<&StateMachine<S, P>> {
        self.machines.get(i)?.as_ref()
    }
    /// The sprite slot of node `node` (an AnimatedSprite bound to a sprite).
    pub fn sprite(&self, node: usize) -> Option<&SpriteSlot<'a, S>> {
        self.sprites.iter().flatten().find(|s| s.node == node)
    }
    /// The sprite slot of node `node`, to control its player.
    pub fn sprite_mut(&mut self, node: usize) -> Option<&mut SpriteSlot<'a, S>> {
        self.sprites.iter_mut().flatten().find(|s| s.node == node)
    }
    /// Every sprite slot, in node order.
    pub fn sprites(&self) -> impl Iterator<Item = &SpriteSlot<'a, S>> + '_ {
        self.sprites.iter().flatten()
    }

    /// Advances the scene by `dt` seconds (see the [module documentation](self) for the order);
    /// events go into `q`.
    pub fn update<const Q: usize>(&mut self, dt: S, q: &mut EventQueue<Q>) {
        self.update_observed(dt, q, |_, _, _| {});
    }

    /// [`update`](Self::update), showing every property write to `observe` (the trace runner
    /// prints them).
    pub fn update_observed<F, const Q: usize>(&mut self, dt: S, q: &mut EventQueue<Q>, mut observe: F)
    where
        F: FnMut(TargetId, PropertyId, PropertyValue<S>),
    {
        let scene = self.scene;
        // 1. Animators.
        for (i, slot) in self.animators.iter_mut().enumerate() {
            let (Some(a), Ok(Some(clips))) = (slot.as_mut(), scene.clips::<S>(i)) else { continue };
            let mut sink = Observed { sink: &mut self.nodes, observe: &mut observe };
            a.update(dt, &clips, &mut sink, q);
        }
        // 2. Requests: sprite animations and machine states.
        for slot in self.sprites.iter_mut().flatten() {
            let target = u32::try_from(slot.node).unwrap_or(u32::MAX);
            let Some(id) = self.nodes.take_animation(target) else { continue };
            if let Some(index) = scene.string(id).and_then(|name| slot.animations.find(name)) {
                let _ = slot.player.play(&slot.animations, index, false);
            }
        }
        for (i, slot) in self.machines.iter_mut().enumerate() {
            let (Some(sm), Some(node)) = (slot.as_mut(), scene.machine_node(i)) else { continue };
            // The definition is read only when a request is there (not on every update).
            let Some(id) = self.nodes.take_state(u32::try_from(node).unwrap_or(u32::MAX)) else { continue };
            let Ok(Some(def)) = scene.machine::<S>(i) else { continue };
            if let Some(state) = scene.string(id).and_then(|name| def.find_state(name)) {
                let _ = sm.travel(state);
            }
        }
        // 3. Sprite players.
        for slot in self.sprites.iter_mut().flatten() {
            slot.player.update(&slot.animations, dt, q);
        }
        // 4. State machines.
        for (i, slot) in self.machines.iter_mut().enumerate() {
            let (Some(sm), Ok(Some(def))) = (slot.as_mut(), scene.machine::<S>(i)) else { continue };
            let target = scene
                .machine_sprite(i)
                .and_then(|node| self.sprites.iter_mut().flatten().find(|s| s.node == node))
                .map(|s| (&mut s.player, &s.animations));
            sm.update(dt, &def, target, q);
        }
    }
}
