//! Scene sections: a scene's node tree, its Animators (property clips) and its state machines, in
//! one section per scene file.
//!
//! # Body
//!
//! A scene section's body is postcard [`SceneBody`]: a name and thirteen arrays of fixed-size
//! records made of u32 LE words. A *scalar* word is a value in the blob's encoding (f32 bits or
//! Q16.16); `NONE` is `0xFFFF_FFFF`. Records refer to other records by index; "first, count"
//! pairs select a run of consecutive records of the next level (every run inside its array).
//!
//! ```text
//! nodes        5 words: name (string id), kind (string id), parent (node index < this one, or NONE),
//!                       sprite (string id of the sprite asset an AnimatedSprite shows, or NONE),
//!                       animation (string id of the sprite animation it plays from the start, or NONE)
//! animators    4 words: node, autoplay (clip index within the Animator, or NONE), first clip, clip count
//! clips        5 words: name (string id), length (scalar, ≥ 0), flags (bit 0: loop), first track, track count
//! tracks       5 words: target (node index, or NONE for an event track), property (kernel PropertyId),
//!                       info (bits 0-7: value kind 0 Float, 1 Vector, 2 Color, 3 Bool, 4 Text; bit 8: step),
//!                       first key, key count
//! keys         4 words: time (scalar, ≥ 0, non-decreasing within a track), a, b, ease
//!                       value by the track's kind: Float a = scalar; Vector (a, b) = scalars;
//!                       Color a = 0xRRGGBBAA; Bool a = 0 or 1; Text a = string id. b is 0 unless Vector.
//!                       ease: 0..=31 a named curve (the kernel's `ease::NAMES` order), 0x100 + k the
//!                       cubic Bézier k of `beziers`
//! beziers      4 words: x1, y1, x2, y2 (scalars; 0 ≤ x1, x2 ≤ 1)
//! machines     9 words: node, sprite (node index of the AnimatedSprite it drives, or NONE), start state,
//!                       first param, param count, first state, state count, first transition, transition count
//! params       3 words: name (string id), kind (0 Float, 1 Bool, 2 Trigger), default (scalar)
//! states       3 words: name (string id), animation name (string id or NONE), animation index (in the
//!                       driven sprite's animations, resolved by the host, or NONE)
//! transitions  8 words: from (state index within the machine, or NONE for `*`), to, first clause,
//!                       clause count, after (scalar), flags (bit 0: onFinished; bit 1: has exit time),
//!                       crossfade (scalar), exit time (scalar, 0 unless bit 1)
//! clauses      3 words: op (0 `name`, 1 `!name`, 2 ==, 3 !=, 4 <, 5 <=, 6 >, 7 >=), param (index
//!                       within the machine), value (scalar; 0 for ops 0 and 1)
//! fields       1 word:  string id of a `script.<field>` name: property `SCRIPT + k` is field k
//! props        5 words: node, property (kernel PropertyId), kind (as a track's), a, b: a node's
//!                       starting value of a built-in property (the scene file's attribute), values
//!                       encoded as a key's
//! ```
//!
//! Parameters, states and transitions indices in a machine's records are relative to the machine
//! (its first param is param 0), as clip indices are relative to the Animator; track, key, clause
//! runs are absolute indices into their arrays.
//!
//! [`SceneSection::parse`] checks every record: arrays of whole records, every run inside its
//! array, parents before children, string ids, kinds, eases, finite scalars (f32), key times in
//! order, state / parameter / node indices in range, op codes, and that a comparison does not read
//! a Trigger.

use crate::{ScalarEncoding, SectionDefect, StringTable, WordView};
use core::fmt;
use serde::{Deserialize, Serialize};

/// "No index" / "no string" in a record.
pub const NONE: u32 = u32::MAX;
/// Words per node record.
pub const NODE_WORDS: usize = 5;
/// Words per Animator record.
pub const ANIMATOR_WORDS: usize = 4;
/// Words per clip record.
pub const CLIP_WORDS: usize = 5;
/// Words per track record.
pub const TRACK_WORDS: usize = 5;
/// Words per key record.
pub const KEY_WORDS: usize = 4;
/// Words per Bézier record.
pub const BEZIER_WORDS: usize = 4;
/// Words per machine record.
pub const MACHINE_WORDS: usize = 9;
/// Words per parameter record.
pub const PARAM_WORDS: usize = 3;
/// Words per state record.
pub const STATE_WORDS: usize = 3;
/// Words per transition record.
pub const TRANSITION_WORDS: usize = 8;
/// Words per starting-property record.
pub const PROP_WORDS: usize = 5;
/// Words per clause record.
pub const CLAUSE_WORDS: usize = 3;
/// The number of named easing curves an ease word may name (`0..NAMED_EASES`).
pub const NAMED_EASES: u32 = 32;
/// Ease words `BEZIER_EASE + k` name Bézier record `k`.
pub const BEZIER_EASE: u32 = 0x100;
/// Track info bit: the track steps.
pub const TRACK_STEP: u32 = 1 << 8;
/// Clip flag bit: the clip loops.
pub const CLIP_LOOP: u32 = 1;
/// Transition flag bit: only once the state's animation ended.
pub const TRANSITION_ON_FINISHED: u32 = 1;
/// Transition flag bit: the exit time word is set.
pub const TRANSITION_EXIT_TIME: u32 = 2;

/// The serialised form of a scene section (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SceneBody<'a> {
    /// String id of the scene's name.
    pub name: u32,
    /// Node records.
    pub nodes: &'a [u8],
    /// Animator records.
    pub animators: &'a [u8],
    /// Clip records.
    pub clips: &'a [u8],
    /// Track records.
    pub tracks: &'a [u8],
    /// Key records.
    pub keys: &'a [u8],
    /// Bézier records.
    pub beziers: &'a [u8],
    /// Machine records.
    pub machines: &'a [u8],
    /// Parameter records.
    pub params: &'a [u8],
    /// State records.
    pub states: &'a [u8],
    /// Transition records.
    pub transitions: &'a [u8],
    /// Clause records.
    pub clauses: &'a [u8],
    /// Script field names (string ids).
    pub fields: &'a [u8],
    /// Starting property values of nodes.
    pub props: &'a [u8],
}

/// What is wrong inside a scene section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SceneDefect {
    /// An array is not a whole number of its records.
    RecordArray {
        /// Which array (`"nodes"`, `"keys"`, ...).
        array: &'static str,
        /// Its length in bytes.
        len: usize,
    },
    /// A node's parent is not an earlier node.
    Parent {
        /// The node.
        node: u32,
        /// Its parent word.
        parent: u32,
    },
    /// A record refers to a node that does not exist.
    NodeRef {
        /// Which array holds the record.
        array: &'static str,
        /// The record's index.
        record: u32,
        /// The node index referred to.
        node: u32,
    },
    /// A "first, count" run does not fit its array.
    Run {
        /// Which array holds the record.
        array: &'static str,
        /// The record's index.
        record: u32,
    },
    /// A kind, op code, flag or ease word is not one this version knows (also: a Bool key value
    /// other than 0 or 1, or a non-zero second value word of a key that is not a Vector).
    Code {
        /// Which array holds the record.
        array: &'static str,
        /// The record's index.
        record: u32,
        /// The word found.
        word: u32,
    },
    /// A scalar is not finite (f32), or a length, time or duration is negative.
    Scalar {
        /// Which array holds the record.
        array: &'static str,
        /// The record's index.
        record: u32,
    },
    /// A key comes before the previous key of its track.
    KeyOrder {
        /// The key's index.
        key: u32,
    },
    /// A record refers to an index (clip, state, parameter) its owner does not have.
    Index {
        /// Which array holds the record.
        array: &'static str,
        /// The record's index.
        record: u32,
        /// The index found.
        index: u32,
    },
}

impl fmt::Display for SceneDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::RecordArray { array, len } => write!(f, "{array}: {len} bytes is not a whole number of records"),
            Self::Parent { node, parent } => write!(f, "node {node} has parent {parent}, not an earlier node"),
            Self::NodeRef { array, record, node } => write!(f, "{array} record {record} refers to missing node {node}"),
            Self::Run { array, record } => write!(f, "{array} record {record}: its run of records is out of range"),
            Self::Code { array, record, word } => write!(f, "{array} record {record}: unknown code {word:#x}"),
            Self::Scalar { array, record } => {
                write!(f, "{array} record {record}: a value is not finite or is negative")
            }
            Self::KeyOrder { key } => write!(f, "key {key} comes before the previous key of its track"),
            Self::Index { array, record, index } => write!(f, "{array} record {record}: index {index} is out of range"),
        }
    }
}

/// A validated scene section, borrowed from the blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneSection<'a> {
    name: u32,
    name_str: &'a str,
    nodes: WordView<'a>,
    animators: WordView<'a>,
    clips: WordView<'a>,
    tracks: WordView<'a>,
    keys: WordView<'a>,
    beziers: WordView<'a>,
    machines: WordView<'a>,
    params: WordView<'a>,
    states: WordView<'a>,
    transitions: WordView<'a>,
    clauses: WordView<'a>,
    fields: WordView<'a>,
    props: WordView<'a>,
    strings: StringTable<'a>,
    encoding: ScalarEncoding,
}

/// Record `i` of `K` words (one bounds check).
#[inline]
fn row<const K: usize>(view: &WordView<'_>, i: usize) -> Option<[u32; K]> {
    view.words::<K>(i.checked_mul(K)?)
}

fn count(view: &WordView<'_>, k: usize) -> usize {
    view.len() / k
}

/// A node record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NodeRecord {
    /// String id of its name.
    pub name: u32,
    /// String id of its kind.
    pub kind: u32,
    /// Its parent, if any.
    pub parent: Option<u32>,
    /// String id of the sprite asset it shows, if any.
    pub sprite: Option<u32>,
    /// String id of the sprite animation it plays from the start, if any.
    pub animation: Option<u32>,
}

/// An Animator record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AnimatorRecord {
    /// Its node.
    pub node: u32,
    /// Its autoplay clip (within the Animator).
    pub autoplay: Option<u32>,
    /// Index of its first clip record.
    pub first_clip: u32,
    /// Its number of clips.
    pub clip_count: u32,
}

/// A clip record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClipRecord {
    /// String id of its name.
    pub name: u32,
    /// Length (scalar word).
    pub length: u32,
    /// Flags ([`CLIP_LOOP`]).
    pub flags: u32,
    /// Index of its first track record.
    pub first_track: u32,
    /// Its number of tracks.
    pub track_count: u32,
}

/// A track record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TrackRecord {
    /// The node it writes, or `None` for an event track.
    pub target: Option<u32>,
    /// The kernel's property id.
    pub property: u32,
    /// Kind (bits 0-7) and [`TRACK_STEP`].
    pub info: u32,
    /// Index of its first key record.
    pub first_key: u32,
    /// Its number of keys.
    pub key_count: u32,
}

/// A key record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KeyRecord {
    /// Time (scalar word).
    pub time: u32,
    /// First value word.
    pub a: u32,
    /// Second value word.
    pub b: u32,
    /// Ease word.
    pub ease: u32,
}

/// A machine record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MachineRecord {
    /// Its node.
    pub node: u32,
    /// The AnimatedSprite node it drives.
    pub sprite: Option<u32>,
    /// Its start state (within the machine).
    pub start: u32,
    /// Index of its first parameter record.
    pub first_param: u32,
    /// Its number of parameters.
    pub param_count: u32,
    /// Index of its first state record.
    pub first_state: u32,
    /// Its number of states.
    pub state_count: u32,
    /// Index of its first transition record.
    pub first_transition: u32,
    /// Its number of transitions.
    pub transition_count: u32,
}

/// A node's starting value of a built-in property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PropRecord {
    /// The node.
    pub node: u32,
    /// The kernel's property id.
    pub property: u32,
    /// The value kind (as a track's: 0 Float, 1 Vector, 2 Color, 3 Bool, 4 Text).
    pub kind: u32,
    /// First value word.
    pub a: u32,
    /// Second value word.
    pub b: u32,
}

/// A parameter record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ParamRecord {
    /// String id of its name.
    pub name: u32,
    /// 0 Float, 1 Bool, 2 Trigger.
    pub kind: u32,
    /// Default (scalar word).
    pub default: u32,
}

/// A state record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StateRecord {
    /// String id of its name.
    pub name: u32,
    /// String id of its animation's name.
    pub animation_name: Option<u32>,
    /// Its animation's index in the driven sprite.
    pub animation: Option<u32>,
}

/// A transition record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TransitionRecord {
    /// The state it leaves, or `None` for `*`.
    pub from: Option<u32>,
    /// The state it enters.
    pub to: u32,
    /// Index of its first clause record.
    pub first_clause: u32,
    /// Its number of clauses.
    pub clause_count: u32,
    /// `after` (scalar word).
    pub after: u32,
    /// Flags ([`TRANSITION_ON_FINISHED`], [`TRANSITION_EXIT_TIME`]).
    pub flags: u32,
    /// Crossfade (scalar word).
    pub crossfade: u32,
    /// Exit time (scalar word).
    pub exit_time: u32,
}

/// A clause record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClauseRecord {
    /// Op code (0..=7).
    pub op: u32,
    /// Parameter index within the machine.
    pub param: u32,
    /// Value (scalar word).
    pub value: u32,
}

fn opt(w: u32) -> Option<u32> {
    (w != NONE).then_some(w)
}

fn run_ok(first: u32, count: u32, len: usize) -> bool {
    (first as usize).checked_add(count as usize).is_some_and(|end| end <= len)
}

impl<'a> SceneSection<'a> {
    /// Decodes a scene body without the per-record checks (for a section [`parse`](Self::parse)
    /// already accepted; accessors of an unchecked body return `None` or wrong data, never panic).
    pub fn open(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let (raw, rest) = postcard::take_from_bytes::<SceneBody<'a>>(body).map_err(|_| SectionDefect::Encoding)?;
        if !rest.is_empty() {
            return Err(SectionDefect::Encoding);
        }
        let name_str =
            strings.get(raw.name).ok_or(SectionDefect::StringRef { string: raw.name, count: strings.len() })?;
        Ok(Self {
            name: raw.name,
            name_str,
            nodes: WordView::new(raw.nodes),
            animators: WordView::new(raw.animators),
            clips: WordView::new(raw.clips),
            tracks: WordView::new(raw.tracks),
            keys: WordView::new(raw.keys),
            beziers: WordView::new(raw.beziers),
            machines: WordView::new(raw.machines),
            params: WordView::new(raw.params),
            states: WordView::new(raw.states),
            transitions: WordView::new(raw.transitions),
            clauses: WordView::new(raw.clauses),
            fields: WordView::new(raw.fields),
            props: WordView::new(raw.props),
            strings: *strings,
            encoding,
        })
    }

    /// Parses and validates a scene body (see the [module docs](self)).
    pub fn parse(body: &'a [u8], encoding: ScalarEncoding, strings: &StringTable<'a>) -> Result<Self, SectionDefect> {
        let (raw, _) = postcard::take_from_bytes::<SceneBody<'a>>(body).map_err(|_| SectionDefect::Encoding)?;
        let this = Self::open(body, encoding, strings)?;
        let scene = SectionDefect::Scene;
        let arrays: [(&'static str, &[u8], usize); 13] = [
            ("nodes", raw.nodes, NODE_WORDS),
            ("animators", raw.animators, ANIMATOR_WORDS),
            ("clips", raw.clips, CLIP_WORDS),
            ("tracks", raw.tracks, TRACK_WORDS),
            ("keys", raw.keys, KEY_WORDS),
            ("beziers", raw.beziers, BEZIER_WORDS),
            ("machines", raw.machines, MACHINE_WORDS),
            ("params", raw.params, PARAM_WORDS),
            ("states", raw.states, STATE_WORDS),
            ("transitions", raw.transitions, TRANSITION_WORDS),
            ("clauses", raw.clauses, CLAUSE_WORDS),
            ("fields", raw.fields, 1),
            ("props", raw.props, PROP_WORDS),
        ];
        for (array, bytes, words) in arrays {
            if bytes.len().checked_rem(words * 4) != Some(0) {
                return Err(scene(SceneDefect::RecordArray { array, len: bytes.len() }));
            }
        }
        let string =
            |id: u32| strings.get(id).map(|_| ()).ok_or(SectionDefect::StringRef { string: id, count: strings.len() });
        let finite = |w: u32| match encoding {
            ScalarEncoding::F32 => f32::from_bits(w).is_finite(),
            ScalarEncoding::Q16_16 => true,
        };
        let non_negative = |w: u32| match encoding {
            ScalarEncoding::F32 => f32::from_bits(w) >= 0.0,
            ScalarEncoding::Q16_16 => (w as i32) >= 0,
        };
        let scalar_ok = |w: u32| finite(w) && non_negative(w);
        for id in this.fields.iter() {
            string(id)?;
        }
        let node_count = this.node_count();
        let node_ok = |n: u32| (n as usize) < node_count;
        for i in 0..node_count {
            let n = this.node(i).ok_or(scene(SceneDefect::RecordArray { array: "nodes", len: raw.nodes.len() }))?;
            string(n.name)?;
            string(n.kind)?;
            for s in [n.sprite, n.animation].into_iter().flatten() {
                string(s)?;
            }
            if let Some(p) = n.parent {
                if p as usize >= i {
                    return Err(scene(SceneDefect::Parent { node: i as u32, parent: p }));
                }
            }
        }
        for p in 0..count(&this.props, PROP_WORDS) {
            let record = p as u32;
            let r = this.prop(p).ok_or(scene(SceneDefect::Run { array: "props", record }))?;
            if !node_ok(r.node) {
                return Err(scene(SceneDefect::NodeRef { array: "props", record, node: r.node }));
            }
            if r.kind > 4 {
                return Err(scene(SceneDefect::Code { array: "props", record, word: r.kind }));
            }
            // As a key's value (below).
            let scalars_ok = match r.kind {
                0 => finite(r.a),
                1 => finite(r.a) && finite(r.b),
                _ => true,
            };
            if !scalars_ok {
                return Err(scene(SceneDefect::Scalar { array: "props", record }));
            }
            if r.kind != 1 && r.b != 0 {
                return Err(scene(SceneDefect::Code { array: "props", record, word: r.b }));
            }
            if r.kind == 3 && r.a > 1 {
                return Err(scene(SceneDefect::Code { array: "props", record, word: r.a }));
            }
            if r.kind == 4 {
                string(r.a)?;
            }
        }
        let (clip_count, track_count, key_count) = (this.clip_total(), this.track_total(), this.key_total());
        let bezier_count = count(&this.beziers, BEZIER_WORDS);
        for b in 0..bezier_count {
            let r: [u32; BEZIER_WORDS] =
                row(&this.beziers, b).ok_or(scene(SceneDefect::Run { array: "beziers", record: b as u32 }))?;
            let x_ok = |w: u32| match encoding {
                ScalarEncoding::F32 => (0.0..=1.0).contains(&f32::from_bits(w)),
                ScalarEncoding::Q16_16 => (0..=0x1_0000).contains(&(w as i32)),
            };
            if !r.iter().all(|&w| finite(w)) || !x_ok(r[0]) || !x_ok(r[2]) {
                return Err(scene(SceneDefect::Scalar { array: "beziers", record: b as u32 }));
            }
        }
        for a in 0..this.animator_count() {
            let record = a as u32;
            let r = this.animator(a).ok_or(scene(SceneDefect::Run { array: "animators", record }))?;
            if !node_ok(r.node) {
                return Err(scene(SceneDefect::NodeRef { array: "animators", record, node: r.node }));
            }
            if !run_ok(r.first_clip, r.clip_count, clip_count) {
                return Err(scene(SceneDefect::Run { array: "animators", record }));
            }
            if let Some(ap) = r.autoplay {
                if ap >= r.clip_count {
                    return Err(scene(SceneDefect::Index { array: "animators", record, index: ap }));
                }
            }
        }
        for c in 0..clip_count {
            let record = c as u32;
            let r = this.clip_record(c).ok_or(scene(SceneDefect::Run { array: "clips", record }))?;
            string(r.name)?;
            if !scalar_ok(r.length) {
                return Err(scene(SceneDefect::Scalar { array: "clips", record }));
            }
            if r.flags & !CLIP_LOOP != 0 {
                return Err(scene(SceneDefect::Code { array: "clips", record, word: r.flags }));
            }
            if !run_ok(r.first_track, r.track_count, track_count) {
                return Err(scene(SceneDefect::Run { array: "clips", record }));
            }
        }
        for t in 0..track_count {
            let record = t as u32;
            let r = this.track_record(t).ok_or(scene(SceneDefect::Run { array: "tracks", record }))?;
            if let Some(n) = r.target {
                if !node_ok(n) {
                    return Err(scene(SceneDefect::NodeRef { array: "tracks", record, node: n }));
                }
            }
            let kind = r.info & 0xFF;
            if kind > 4 || r.info & !(0xFF | TRACK_STEP) != 0 {
                return Err(scene(SceneDefect::Code { array: "tracks", record, word: r.info }));
            }
            if !run_ok(r.first_key, r.key_count, key_count) {
                return Err(scene(SceneDefect::Run { array: "tracks", record }));
            }
            let mut previous: Option<u32> = None;
            for k in r.first_key..r.first_key.saturating_add(r.key_count) {
                let key = this.key_record(k as usize).ok_or(scene(SceneDefect::Run { array: "tracks", record }))?;
                if !scalar_ok(key.time) {
                    return Err(scene(SceneDefect::Scalar { array: "keys", record: k }));
                }
                if let Some(p) = previous {
                    let earlier = match encoding {
                        ScalarEncoding::F32 => f32::from_bits(key.time) < f32::from_bits(p),
                        ScalarEncoding::Q16_16 => (key.time as i32) < (p as i32),
                    };
                    if earlier {
                        return Err(scene(SceneDefect::KeyOrder { key: k }));
                    }
                }
                previous = Some(key.time);
                // Scalars must be finite; the unused second word of a non-Vector key must be 0, a
                // Bool 0 or 1 (both codes), and a Text value an existing string.
                let scalars_ok = match kind {
                    0 => finite(key.a),
                    1 => finite(key.a) && finite(key.b),
                    _ => true,
                };
                if !scalars_ok {
                    return Err(scene(SceneDefect::Scalar { array: "keys", record: k }));
                }
                if kind != 1 && key.b != 0 {
                    return Err(scene(SceneDefect::Code { array: "keys", record: k, word: key.b }));
                }
                if kind == 3 && key.a > 1 {
                    return Err(scene(SceneDefect::Code { array: "keys", record: k, word: key.a }));
                }
                if kind == 4 {
                    string(key.a)?;
                }
                let ease_ok = key.ease < NAMED_EASES
                    || key.ease.checked_sub(BEZIER_EASE).is_some_and(|b| (b as usize) < bezier_count);
                if !ease_ok {
                    return Err(scene(SceneDefect::Code { array: "keys", record: k, word: key.ease }));
                }
            }
        }
        let (param_total, state_total, transition_total, clause_total) = (
            count(&this.params, PARAM_WORDS),
            count(&this.states, STATE_WORDS),
            count(&this.transitions, TRANSITION_WORDS),
            count(&this.clauses, CLAUSE_WORDS),
        );
        for m in 0..this.machine_count() {
            let record = m as u32;
            let r = this.machine(m).ok_or(scene(SceneDefect::Run { array: "machines", record }))?;
            if !node_ok(r.node) {
                return Err(scene(SceneDefect::NodeRef { array: "machines", record, node: r.node }));
            }
            if let Some(s) = r.sprite {
                if !node_ok(s) {
                    return Err(scene(SceneDefect::NodeRef { array: "machines", record, node: s }));
                }
            }
            let runs = run_ok(r.first_param, r.param_count, param_total)
                && run_ok(r.first_state, r.state_count, state_total)
                && run_ok(r.first_transition, r.transition_count, transition_total);
            if !runs {
                return Err(scene(SceneDefect::Run { array: "machines", record }));
            }
            if r.start >= r.state_count {
                return Err(scene(SceneDefect::Index { array: "machines", record, index: r.start }));
            }
            for p in r.first_param..r.first_param.saturating_add(r.param_count) {
                let pr = this.param_record(p as usize).ok_or(scene(SceneDefect::Run { array: "params", record: p }))?;
                string(pr.name)?;
                if pr.kind > 2 {
                    return Err(scene(SceneDefect::Code { array: "params", record: p, word: pr.kind }));
                }
                if !finite(pr.default) {
                    return Err(scene(SceneDefect::Scalar { array: "params", record: p }));
                }
            }
            for s in r.first_state..r.first_state.saturating_add(r.state_count) {
                let sr = this.state_record(s as usize).ok_or(scene(SceneDefect::Run { array: "states", record: s }))?;
                string(sr.name)?;
                if let Some(a) = sr.animation_name {
                    string(a)?;
                }
            }
            for t in r.first_transition..r.first_transition.saturating_add(r.transition_count) {
                let tr = this
                    .transition_record(t as usize)
                    .ok_or(scene(SceneDefect::Run { array: "transitions", record: t }))?;
                for state in [tr.from, Some(tr.to)].into_iter().flatten() {
                    if state >= r.state_count {
                        return Err(scene(SceneDefect::Index { array: "transitions", record: t, index: state }));
                    }
                }
                if tr.flags & !(TRANSITION_ON_FINISHED | TRANSITION_EXIT_TIME) != 0 {
                    return Err(scene(SceneDefect::Code { array: "transitions", record: t, word: tr.flags }));
                }
                if !(scalar_ok(tr.after) && scalar_ok(tr.crossfade) && finite(tr.exit_time)) {
                    return Err(scene(SceneDefect::Scalar { array: "transitions", record: t }));
                }
                // Without its flag the exit time word is 0.
                if tr.flags & TRANSITION_EXIT_TIME == 0 && tr.exit_time != 0 {
                    return Err(scene(SceneDefect::Code { array: "transitions", record: t, word: tr.exit_time }));
                }
                if !run_ok(tr.first_clause, tr.clause_count, clause_total) {
                    return Err(scene(SceneDefect::Run { array: "transitions", record: t }));
                }
                for c in tr.first_clause..tr.first_clause.saturating_add(tr.clause_count) {
                    let cr = this
                        .clause_record(c as usize)
                        .ok_or(scene(SceneDefect::Run { array: "clauses", record: c }))?;
                    if cr.op > 7 {
                        return Err(scene(SceneDefect::Code { array: "clauses", record: c, word: cr.op }));
                    }
                    if cr.param >= r.param_count {
                        return Err(scene(SceneDefect::Index { array: "clauses", record: c, index: cr.param }));
                    }
                    let kind = this.param_record(r.first_param.saturating_add(cr.param) as usize).map(|p| p.kind);
                    if cr.op >= 2 && kind == Some(2) {
                        return Err(scene(SceneDefect::Code { array: "clauses", record: c, word: cr.op }));
                    }
                    if !finite(cr.value) {
                        return Err(scene(SceneDefect::Scalar { array: "clauses", record: c }));
                    }
                    // `name` and `!name` compare nothing: their value word is 0.
                    if cr.op < 2 && cr.value != 0 {
                        return Err(scene(SceneDefect::Code { array: "clauses", record: c, word: cr.value }));
                    }
                }
            }
        }
        Ok(this)
    }

    /// String id of the scene's name.
    pub fn name_id(&self) -> u32 {
        self.name
    }
    /// The scene's name.
    pub fn name(&self) -> &'a str {
        self.name_str
    }
    /// The blob's string table.
    pub fn strings(&self) -> StringTable<'a> {
        self.strings
    }
    /// The scalar encoding of its scalar words.
    pub fn encoding(&self) -> ScalarEncoding {
        self.encoding
    }
    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        count(&self.nodes, NODE_WORDS)
    }
    /// Node record `i`.
    pub fn node(&self, i: usize) -> Option<NodeRecord> {
        let [name, kind, parent, sprite, animation] = row(&self.nodes, i)?;
        Some(NodeRecord { name, kind, parent: opt(parent), sprite: opt(sprite), animation: opt(animation) })
    }
    /// The number of Animators.
    pub fn animator_count(&self) -> usize {
        count(&self.animators, ANIMATOR_WORDS)
    }
    /// Animator record `i`.
    pub fn animator(&self, i: usize) -> Option<AnimatorRecord> {
        let [node, autoplay, first_clip, clip_count] = row(&self.animators, i)?;
        Some(AnimatorRecord { node, autoplay: opt(autoplay), first_clip, clip_count })
    }
    /// The number of clip records (all Animators).
    pub fn clip_total(&self) -> usize {
        count(&self.clips, CLIP_WORDS)
    }
    /// Clip record `i` (absolute index).
    pub fn clip_record(&self, i: usize) -> Option<ClipRecord> {
        let [name, length, flags, first_track, track_count] = row(&self.clips, i)?;
        Some(ClipRecord { name, length, flags, first_track, track_count })
    }
    /// Only the (first track, track count) run of clip record `i` (two word reads).
    #[inline]
    pub fn clip_track_run(&self, i: usize) -> Option<(u32, u32)> {
        let [first, count] = self.clips.words::<2>(i.checked_mul(CLIP_WORDS)?.checked_add(3)?)?;
        Some((first, count))
    }
    /// Only the (first key, key count) run of track record `i` (two word reads).
    #[inline]
    pub fn track_key_run(&self, i: usize) -> Option<(u32, u32)> {
        let [first, count] = self.tracks.words::<2>(i.checked_mul(TRACK_WORDS)?.checked_add(3)?)?;
        Some((first, count))
    }
    /// Only the (first clause, clause count) run of transition record `i` (one read).
    #[inline]
    pub fn transition_clause_run(&self, i: usize) -> Option<(u32, u32)> {
        let [first, count] = self.transitions.words::<2>(i.checked_mul(TRANSITION_WORDS)?.checked_add(2)?)?;
        Some((first, count))
    }
    /// Only the info word (kind and step) of track record `i`.
    #[inline]
    pub fn track_info(&self, i: usize) -> Option<u32> {
        self.tracks.get(i.checked_mul(TRACK_WORDS)?.checked_add(2)?)
    }
    /// The number of track records.
    pub fn track_total(&self) -> usize {
        count(&self.tracks, TRACK_WORDS)
    }
    /// Track record `i` (absolute index).
    pub fn track_record(&self, i: usize) -> Option<TrackRecord> {
        let [target, property, info, first_key, key_count] = row(&self.tracks, i)?;
        Some(TrackRecord { target: opt(target), property, info, first_key, key_count })
    }
    /// The number of key records.
    pub fn key_total(&self) -> usize {
        count(&self.keys, KEY_WORDS)
    }
    /// Key record `i` (absolute index).
    pub fn key_record(&self, i: usize) -> Option<KeyRecord> {
        let [time, a, b, ease] = row(&self.keys, i)?;
        Some(KeyRecord { time, a, b, ease })
    }
    /// Only the time word of key record `i`.
    #[inline]
    pub fn key_time(&self, i: usize) -> Option<u32> {
        self.keys.get(i.checked_mul(KEY_WORDS)?)
    }
    /// Bézier record `i`: x1, y1, x2, y2 words.
    pub fn bezier(&self, i: usize) -> Option<[u32; BEZIER_WORDS]> {
        row(&self.beziers, i)
    }
    /// The number of state machines.
    pub fn machine_count(&self) -> usize {
        count(&self.machines, MACHINE_WORDS)
    }
    /// Machine record `i`.
    pub fn machine(&self, i: usize) -> Option<MachineRecord> {
        let [node, sprite, start, first_param, param_count, first_state, state_count, first_transition, transition_count] =
            row(&self.machines, i)?;
        Some(MachineRecord {
            node,
            sprite: opt(sprite),
            start,
            first_param,
            param_count,
            first_state,
            state_count,
            first_transition,
            transition_count,
        })
    }
    /// Parameter record `i` (absolute index).
    pub fn param_record(&self, i: usize) -> Option<ParamRecord> {
        let [name, kind, default] = row(&self.params, i)?;
        Some(ParamRecord { name, kind, default })
    }
    /// State record `i` (absolute index).
    pub fn state_record(&self, i: usize) -> Option<StateRecord> {
        let [name, animation_name, animation] = row(&self.states, i)?;
        Some(StateRecord { name, animation_name: opt(animation_name), animation: opt(animation) })
    }
    /// Transition record `i` (absolute index).
    pub fn transition_record(&self, i: usize) -> Option<TransitionRecord> {
        let [from, to, first_clause, clause_count, after, flags, crossfade, exit_time] = row(&self.transitions, i)?;
        Some(TransitionRecord { from: opt(from), to, first_clause, clause_count, after, flags, crossfade, exit_time })
    }
    /// The number of starting-property records.
    pub fn prop_count(&self) -> usize {
        count(&self.props, PROP_WORDS)
    }
    /// Starting-property record `i`.
    pub fn prop(&self, i: usize) -> Option<PropRecord> {
        let [node, property, kind, a, b] = row(&self.props, i)?;
        Some(PropRecord { node, property, kind, a, b })
    }
    /// The number of script field names.
    pub fn field_count(&self) -> usize {
        self.fields.len()
    }
    /// String id of script field `k` (property `SCRIPT + k`).
    pub fn field(&self, k: usize) -> Option<u32> {
        self.fields.get(k)
    }
    /// Clause record `i` (absolute index).
    pub fn clause_record(&self, i: usize) -> Option<ClauseRecord> {
        let [op, param, value] = row(&self.clauses, i)?;
        Some(ClauseRecord { op, param, value })
    }
}
