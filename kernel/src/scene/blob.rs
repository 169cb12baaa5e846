//! Scenes read in place from a blob: [`BlobScene`], and the Animator and state machine sources over
//! it ([`BlobClips`], [`BlobMachine`]).

use core::cell::Cell;
use core::marker::PhantomData;

use ossicle_format::scene::{
    SceneSection, BEZIER_EASE, CLIP_LOOP, TRACK_STEP, TRANSITION_EXIT_TIME, TRANSITION_ON_FINISHED,
};

use crate::animator::{ClipInfo, ClipSource, Key, KeyValue, TrackInfo, TrackTarget, ValueKind};
use crate::asset::{Asset, EncodingMismatch};
use crate::color::Rgba8;
use crate::ease::{CubicBezier, Ease};
use crate::math::Vec2;
use crate::scalar::Scalar;
use crate::sink::{property, PropertyId, PropertyValue, TargetId};
use crate::statemachine::{
    Clause, CompareOp, MachineSource, ParamInfo, ParamKind, StateInfo, TransitionFrom, TransitionInfo,
};

/// A node of a [`BlobScene`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SceneNode<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its kind (`Node2D`, `AnimatedSprite`, `Animator`, ...).
    pub kind: &'a str,
    /// Its parent's index (parents come before their children).
    pub parent: Option<usize>,
    /// The name of the sprite asset an AnimatedSprite shows.
    pub sprite: Option<&'a str>,
    /// The sprite animation an AnimatedSprite plays from the start.
    pub animation: Option<&'a str>,
}

/// A scene section of a blob, read in place: the node tree, the Animators and the state machines
/// of one scene file. Get one with [`Asset::scenes`] / [`Asset::scene_named`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobScene<'a> {
    pub(crate) section: SceneSection<'a>,
}

impl<'a> BlobScene<'a> {
    /// The scene's name.
    pub fn name(&self) -> &'a str {
        self.section.name()
    }
    /// The format section (records as stored).
    pub fn section(&self) -> &SceneSection<'a> {
        &self.section
    }
    /// String `id` of the blob's string table.
    pub fn string(&self, id: u32) -> Option<&'a str> {
        self.section.strings().get(id)
    }
    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.section.node_count()
    }
    /// Node `i`.
    pub fn node(&self, i: usize) -> Option<SceneNode<'a>> {
        let r = self.section.node(i)?;
        Some(SceneNode {
            name: self.string(r.name)?,
            kind: self.string(r.kind)?,
            parent: r.parent.map(|p| p as usize),
            sprite: r.sprite.and_then(|s| self.string(s)),
            animation: r.animation.and_then(|s| self.string(s)),
        })
    }
    /// The index of the node at `path`: `/World/Coin` from the top, or a bare name (`Coin`) when
    /// exactly one node has it.
    pub fn find_node(&self, path: &str) -> Option<usize> {
        match path.strip_prefix('/') {
            Some(rest) => {
                let mut at: Option<usize> = None;
                for part in rest.split('/').filter(|p| !p.is_empty()) {
                    at = Some(
                        (0..self.node_count())
                            .find(|&i| self.node(i).is_some_and(|n| n.parent == at && n.name == part))?,
                    );
                }
                at
            }
            None => {
                let mut found = (0..self.node_count()).filter(|&i| self.node(i).is_some_and(|n| n.name == path));
                let first = found.next()?;
                found.next().is_none().then_some(first)
            }
        }
    }
    /// The number of Animators.
    pub fn animator_count(&self) -> usize {
        self.section.animator_count()
    }
    /// The node of Animator `i`.
    pub fn animator_node(&self, i: usize) -> Option<usize> {
        self.section.animator(i).map(|a| a.node as usize)
    }
    /// The index of the Animator on node `node`.
    pub fn animator_at(&self, node: usize) -> Option<usize> {
        (0..self.animator_count()).find(|&i| self.animator_node(i) == Some(node))
    }
    /// Animator `i`'s clips, as a [`ClipSource`] (fails if the blob's encoding is not `S`'s).
    pub fn clips<S: Scalar>(&self, i: usize) -> Result<Option<BlobClips<'a, S>>, EncodingMismatch> {
        check::<S>(&self.section)?;
        Ok(self.section.animator(i).map(|a| BlobClips {
            section: self.section,
            first_clip: a.first_clip,
            clip_count: a.clip_count,
            autoplay: a.autoplay,
            memo: Cell::new([u32::MAX; 5]),
            _scalar: PhantomData,
        }))
    }
    /// The number of state machines.
    pub fn machine_count(&self) -> usize {
        self.section.machine_count()
    }
    /// The node of machine `i`.
    pub fn machine_node(&self, i: usize) -> Option<usize> {
        self.section.machine(i).map(|m| m.node as usize)
    }
    /// The AnimatedSprite node machine `i` drives.
    pub fn machine_sprite(&self, i: usize) -> Option<usize> {
        self.section.machine(i).and_then(|m| m.sprite).map(|s| s as usize)
    }
    /// The index of the machine on node `node`.
    pub fn machine_at(&self, node: usize) -> Option<usize> {
        (0..self.machine_count()).find(|&i| self.machine_node(i) == Some(node))
    }
    /// Machine `i`'s definition, as a [`MachineSource`] (fails if the blob's encoding is not `S`'s).
    pub fn machine<S: Scalar>(&self, i: usize) -> Result<Option<BlobMachine<'a, S>>, EncodingMismatch> {
        check::<S>(&self.section)?;
        Ok(self.section.machine(i).map(|m| BlobMachine {
            section: self.section,
            start: m.start,
            first_param: m.first_param,
            param_count: m.param_count,
            first_state: m.first_state,
            state_count: m.state_count,
            first_transition: m.first_transition,
            transition_count: m.transition_count,
            _scalar: PhantomData,
        }))
    }
    /// The nodes' starting property values (attributes such as `position="40, 96"` in the scene
    /// file), as (node, property, value); [`Scene::new`](super::Scene::new) writes them into its
    /// node table. Empty when the blob's encoding is not `S`'s.
    pub fn start_values<S: Scalar>(&self) -> impl Iterator<Item = (TargetId, PropertyId, PropertyValue<S>)> + 'a {
        let section = self.section;
        let n = if section.encoding() == S::ENCODING { section.prop_count() } else { 0 };
        (0..n).filter_map(move |i| {
            let r = section.prop(i)?;
            Some((r.node, r.property, decode_value::<S>(r.kind, r.a, r.b).to_property()))
        })
    }
    /// The name of property `id` as scene files write it (`position.y`, `script.<field>`), or
    /// `None` for an id the scene does not name.
    pub fn property_name(&self, id: PropertyId) -> Option<PropertyName<'a>> {
        if let Some(name) = builtin_property_name(id) {
            return Some(PropertyName::Builtin(name));
        }
        let field = id.checked_sub(property::SCRIPT).filter(|_| id < property::USER)?;
        let sid = self.section.field(field as usize)?;
        Some(PropertyName::Script(self.string(sid)?))
    }
    /// The property id of `script.<field>` in this scene.
    pub fn script_property(&self, field: &str) -> Option<PropertyId> {
        (0..self.section.field_count()).find_map(|k| {
            let sid = self.section.field(k)?;
            (self.string(sid)? == field).then(|| property::SCRIPT.saturating_add(k as u32))
        })
    }
}

/// A property's name: a built-in one, or a `script.<field>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PropertyName<'a> {
    /// `position`, `opacity`, ... (the scene files' spelling).
    Builtin(&'static str),
    /// `script.<field>`: the field.
    Script(&'a str),
}

/// The scene-file name of a built-in property id.
pub fn builtin_property_name(id: PropertyId) -> Option<&'static str> {
    Some(match id {
        property::POSITION => "position",
        property::POSITION_X => "position.x",
        property::POSITION_Y => "position.y",
        property::ROTATION => "rotation",
        property::SCALE => "scale",
        property::SCALE_X => "scale.x",
        property::SCALE_Y => "scale.y",
        property::TINT => "tint",
        property::OPACITY => "opacity",
        property::VISIBLE => "visible",
        property::Z_INDEX => "zIndex",
        property::ANIMATION => "animation",
        property::TEXT => "text",
        property::COLOR => "color",
        property::STATE => "state",
        _ => return None,
    })
}

fn check<S: Scalar>(section: &SceneSection<'_>) -> Result<(), EncodingMismatch> {
    if section.encoding() == S::ENCODING {
        Ok(())
    } else {
        Err(EncodingMismatch { blob: section.encoding(), requested: S::ENCODING })
    }
}

fn index(first: u32, i: usize, count: u32) -> Option<usize> {
    let i32_ = u32::try_from(i).ok()?;
    if i32_ >= count {
        return None;
    }
    usize::try_from(first.checked_add(i32_)?).ok()
}

/// The clips of one Animator of a [`BlobScene`], read in place: a [`ClipSource`].
///
/// It remembers the key run of the last track it resolved (an Animator reads one track's keys many
/// times in a row: its info, a binary search over key times, the two keys around the time), so
/// only the first read of a track resolves clip and track records; the memo is a [`Cell`] and
/// changes nothing observable.
#[derive(Clone, Debug)]
pub struct BlobClips<'a, S> {
    section: SceneSection<'a>,
    first_clip: u32,
    clip_count: u32,
    autoplay: Option<u32>,
    /// clip, track, value kind info, first key, key count of the last track resolved (clip
    /// `u32::MAX`: none).
    memo: Cell<[u32; 5]>,
    _scalar: PhantomData<S>,
}

/// Equal when they read the same clips of the same section (the memo does not count).
impl<S> PartialEq for BlobClips<'_, S> {
    fn eq(&self, other: &Self) -> bool {
        self.section == other.section
            && self.first_clip == other.first_clip
            && self.clip_count == other.clip_count
            && self.autoplay == other.autoplay
    }
}

impl<S> Eq for BlobClips<'_, S> {}

impl<'a, S: Scalar> BlobClips<'a, S> {
    /// The name of clip `clip`.
    pub fn name(&self, clip: usize) -> Option<&'a str> {
        let r = self.section.clip_record(index(self.first_clip, clip, self.clip_count)?)?;
        self.section.strings().get(r.name)
    }

    /// The absolute index of track `track` of clip `clip`.
    #[inline]
    fn track_index(&self, clip: usize, track: usize) -> Option<usize> {
        let (first, count) = self.section.clip_track_run(index(self.first_clip, clip, self.clip_count)?)?;
        index(first, track, count)
    }

    /// Track `track` of clip `clip`'s record.
    fn track_record(&self, clip: usize, track: usize) -> Option<ossicle_format::scene::TrackRecord> {
        self.section.track_record(self.track_index(clip, track)?)
    }

    /// The absolute index of a key and its track's info word (kind, step); the track's run is
    /// remembered (see the type's docs).
    #[inline]
    fn key_index(&self, clip: usize, track: usize, key: usize) -> Option<(usize, u32)> {
        let (c, t) = (u32::try_from(clip).ok()?, u32::try_from(track).ok()?);
        let [mc, mt, info, first, count] = self.memo.get();
        let (info, first, count) = if mc == c && mt == t {
            (info, first, count)
        } else {
            let abs = self.track_index(clip, track)?;
            let (first, count) = self.section.track_key_run(abs)?;
            let info = self.section.track_info(abs)?;
            self.memo.set([c, t, info, first, count]);
            (info, first, count)
        };
        Some((index(first, key, count)?, info))
    }
}

/// A key's or starting property's value from its kind and words.
fn decode_value<S: Scalar>(kind: u32, a: u32, b: u32) -> KeyValue<S> {
    match kind_of(kind) {
        ValueKind::Float => KeyValue::Float(S::from_blob_bits(a)),
        ValueKind::Vector => KeyValue::Vector(Vec2::new(S::from_blob_bits(a), S::from_blob_bits(b))),
        ValueKind::Color => KeyValue::Color(Rgba8::from_array(a.to_be_bytes())),
        ValueKind::Bool => KeyValue::Bool(a != 0),
        ValueKind::Text => KeyValue::Text(a),
    }
}

fn kind_of(info: u32) -> ValueKind {
    match info & 0xFF {
        1 => ValueKind::Vector,
        2 => ValueKind::Color,
        3 => ValueKind::Bool,
        4 => ValueKind::Text,
        _ => ValueKind::Float,
    }
}

impl<S: Scalar> ClipSource<S> for BlobClips<'_, S> {
    fn clip_count(&self) -> usize {
        self.clip_count as usize
    }

    fn clip(&self, clip: usize) -> Option<ClipInfo<S>> {
        let r = self.section.clip_record(index(self.first_clip, clip, self.clip_count)?)?;
        Some(ClipInfo {
            length: S::from_blob_bits(r.length),
            looping: r.flags & CLIP_LOOP != 0,
            track_count: r.track_count as usize,
        })
    }

    fn find(&self, name: &str) -> Option<usize> {
        (0..self.clip_count as usize).find(|&c| self.name(c) == Some(name))
    }

    fn track(&self, clip: usize, track: usize) -> Option<TrackInfo> {
        let t = self.track_record(clip, track)?;
        Some(TrackInfo {
            target: t.target.map_or(TrackTarget::Event, TrackTarget::Node),
            property: t.property,
            kind: kind_of(t.info),
            step: t.info & TRACK_STEP != 0,
            key_count: t.key_count as usize,
        })
    }

    fn key(&self, clip: usize, track: usize, key: usize) -> Option<Key<S>> {
        let (k, info) = self.key_index(clip, track, key)?;
        let r = self.section.key_record(k)?;
        let value = decode_value(info, r.a, r.b);
        let ease = match r.ease.checked_sub(BEZIER_EASE) {
            Some(b) => match self.section.bezier(b as usize) {
                Some([x1, y1, x2, y2]) => Ease::Bezier(CubicBezier::new(
                    S::from_blob_bits(x1),
                    S::from_blob_bits(y1),
                    S::from_blob_bits(x2),
                    S::from_blob_bits(y2),
                )),
                None => Ease::Linear,
            },
            None => Ease::NAMED.get(r.ease as usize).copied().unwrap_or(Ease::Linear),
        };
        Some(Key { time: S::from_blob_bits(r.time), value, ease })
    }

    fn key_time(&self, clip: usize, track: usize, key: usize) -> Option<S> {
        let (k, _) = self.key_index(clip, track, key)?;
        self.section.key_time(k).map(S::from_blob_bits)
    }

    fn autoplay(&self) -> Option<usize> {
        self.autoplay.map(|a| a as usize)
    }
}

/// The definition of one state machine of a [`BlobScene`], read in place: a [`MachineSource`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobMachine<'a, S> {
    section: SceneSection<'a>,
    start: u32,
    first_param: u32,
    param_count: u32,
    first_state: u32,
    state_count: u32,
    first_transition: u32,
    transition_count: u32,
    _scalar: PhantomData<S>,
}

impl<'a, S: Scalar> BlobMachine<'a, S> {
    /// The name of parameter `index`.
    pub fn param_name(&self, index_: usize) -> Option<&'a str> {
        let r = self.section.param_record(index(self.first_param, index_, self.param_count)?)?;
        self.section.strings().get(r.name)
    }
    /// The name of state `index`.
    pub fn state_name(&self, index_: usize) -> Option<&'a str> {
        let r = self.section.state_record(index(self.first_state, index_, self.state_count)?)?;
        self.section.strings().get(r.name)
    }
    /// The name of the sprite animation state `index` plays.
    pub fn state_animation_name(&self, index_: usize) -> Option<&'a str> {
        let r = self.section.state_record(index(self.first_state, index_, self.state_count)?)?;
        self.section.strings().get(r.animation_name?)
    }
}

impl<S: Scalar> MachineSource<S> for BlobMachine<'_, S> {
    fn start_state(&self) -> usize {
        self.start as usize
    }

    fn param_count(&self) -> usize {
        self.param_count as usize
    }

    fn param(&self, i: usize) -> Option<ParamInfo<S>> {
        let r = self.section.param_record(index(self.first_param, i, self.param_count)?)?;
        let kind = match r.kind {
            1 => ParamKind::Bool,
            2 => ParamKind::Trigger,
            _ => ParamKind::Float,
        };
        Some(ParamInfo { kind, default: S::from_blob_bits(r.default) })
    }

    fn find_param(&self, name: &str) -> Option<usize> {
        (0..self.param_count as usize).find(|&p| self.param_name(p) == Some(name))
    }

    fn state_count(&self) -> usize {
        self.state_count as usize
    }

    fn state(&self, i: usize) -> Option<StateInfo> {
        let r = self.section.state_record(index(self.first_state, i, self.state_count)?)?;
        Some(StateInfo { name_id: r.name, animation: r.animation.map(|a| a as usize) })
    }

    fn find_state(&self, name: &str) -> Option<usize> {
        (0..self.state_count as usize).find(|&s| self.state_name(s) == Some(name))
    }

    fn transition_count(&self) -> usize {
        self.transition_count as usize
    }

    fn transition(&self, i: usize) -> Option<TransitionInfo<S>> {
        let r = self.section.transition_record(index(self.first_transition, i, self.transition_count)?)?;
        Some(TransitionInfo {
            from: r.from.map_or(TransitionFrom::Any, |s| TransitionFrom::State(s as usize)),
            to: r.to as usize,
            clause_count: r.clause_count as usize,
            after: S::from_blob_bits(r.after),
            on_finished: r.flags & TRANSITION_ON_FINISHED != 0,
            crossfade: S::from_blob_bits(r.crossfade),
            exit_time: (r.flags & TRANSITION_EXIT_TIME != 0).then(|| S::from_blob_bits(r.exit_time)),
        })
    }

    fn clause(&self, transition: usize, clause: usize) -> Option<Clause<S>> {
        let (first, count) =
            self.section.transition_clause_run(index(self.first_transition, transition, self.transition_count)?)?;
        let r = self.section.clause_record(index(first, clause, count)?)?;
        let param = r.param as usize;
        let op = match r.op {
            0 => return Some(Clause::Param(param)),
            1 => return Some(Clause::NotParam(param)),
            2 => CompareOp::Eq,
            3 => CompareOp::Ne,
            4 => CompareOp::Lt,
            5 => CompareOp::Le,
            6 => CompareOp::Gt,
            7 => CompareOp::Ge,
            _ => return None,
        };
        Some(Clause::Compare { param, op, value: S::from_blob_bits(r.value) })
    }
}

impl<'a> Asset<'a> {
    /// The scenes, in blob order.
    pub fn scenes(&self) -> impl Iterator<Item = BlobScene<'a>> + 'a {
        self.blob().scenes().map(|section| BlobScene { section })
    }
    /// Scene `i` in blob order.
    pub fn scene(&self, i: usize) -> Option<BlobScene<'a>> {
        self.scenes().nth(i)
    }
    /// The first scene called `name`.
    pub fn scene_named(&self, name: &str) -> Option<BlobScene<'a>> {
        self.scenes().find(|s| s.name() == name)
    }
}
