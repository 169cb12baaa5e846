//! Scene XML (the Odin engine's scene files): nodes in a tree, and the Animator and StateMachine
//! nodes among them, parsed into [`SceneIr`].
//!
//! ```xml
//! <scene name="level">
//!   <node kind="Node2D" name="Coin"/>
//!   <node kind="Animator" name="Anim" autoplay="bob">
//!     <clip name="bob" length="1" loop="true">
//!       <track node="Coin" property="position.y">
//!         <key time="0" value="0" ease="InOutSine"/>
//!         <key time="0.5" value="-6" ease="InOutSine"/>
//!         <key time="1" value="0"/>
//!       </track>
//!       <track property="event"><key time="0.5" value="top"/></track>
//!     </clip>
//!   </node>
//! </scene>
//! ```
//!
//! - The root is `<scene name?>` holding `<node>` elements, or a single `<node>`. A `<node>` has a
//!   `kind` and a `name` (unique among its siblings, no `/`) and any other attributes: those named
//!   like a built-in property (`position="40, 96"`, `visible="false"`, ...) are its starting values,
//!   parsed by the property's kind; others (`texture=...`) are ignored. Nodes nest.
//! - Animator: `<clip name length loop?>` with `<track node? property step?>` of `<key time value
//!   ease?>`. A track's `node` is a path from the Animator's parent: `""` or `"."` the parent,
//!   `"Coin"` a child of the parent (a sibling of the Animator), `"Coin/Shine"` below it,
//!   `"/World"` from the top level; an unknown path is an error naming it. `property` is one of
//!   [`PROPERTIES`], `script.<field>`, or `event` (the track's node is then unused). Values are
//!   text as in scene files: `"12"`, `"10, -4"`, `"#ff8000"`, `"#ff8000cc"`, `"true"`, parsed by
//!   the property's kind (`script.<field>` by the text's form). Keys must come in time order:
//!   keys out of order are an error that names both (the Odin engine sorts them; refusing says
//!   so instead of silently reordering an artist's typo). Times are in [0, length].
//! - AnimatedSprite: `src?` (a sprite source file relative to the scene, built into the same
//!   blob), `sprite?` (the sprite's name; default: the one `src` defines), `animation?` (played
//!   from the start at load). Other kinds keep their attributes as text.
//! - StateMachine: `start`, `sprite?` (a path from the machine's parent to the sprite it drives,
//!   default `""`: the parent), `<param name type=Float|Bool|Trigger value?>`, `<state name
//!   animation?>`, `<transition from to when? after? onFinished? crossfade? exitTime?>` (`from="*"`:
//!   any other state). Conditions compile with [`crate::conditions`].

use super::animxml::{document, Xml};
use crate::conditions::{compile, Clause, ParamKind};
use crate::error::HostError;
use roxmltree::Node;
use std::path::Path;

/// The properties a track may animate: name, kind. `script.<field>` and `event` are handled apart.
pub const PROPERTIES: [(&str, ValueKind); 15] = [
    ("position", ValueKind::Vector),
    ("position.x", ValueKind::Float),
    ("position.y", ValueKind::Float),
    ("rotation", ValueKind::Float),
    ("scale", ValueKind::Vector),
    ("scale.x", ValueKind::Float),
    ("scale.y", ValueKind::Float),
    ("tint", ValueKind::Color),
    ("opacity", ValueKind::Float),
    ("visible", ValueKind::Bool),
    ("zIndex", ValueKind::Int),
    ("animation", ValueKind::Text),
    ("text", ValueKind::Text),
    ("color", ValueKind::Color),
    ("state", ValueKind::Text),
];

/// The kind of a track's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A number (moves).
    Float,
    /// Two numbers (moves).
    Vector,
    /// RGBA (moves per channel).
    Color,
    /// True or false (steps).
    Bool,
    /// A whole number (steps).
    Int,
    /// A string (steps; becomes a string id).
    Text,
}

/// A parsed value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number.
    Float(f64),
    /// Two numbers.
    Vector(f64, f64),
    /// RGBA.
    Color([u8; 4]),
    /// True or false.
    Bool(bool),
    /// A whole number.
    Int(i32),
    /// A string.
    Text(String),
}

/// A scene: its nodes (depth-first, parents before children) and its Animators and StateMachines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneIr {
    /// The scene's name.
    pub name: String,
    /// Every node.
    pub nodes: Vec<SceneNode>,
    /// The Animator nodes.
    pub animators: Vec<AnimatorIr>,
    /// The StateMachine nodes.
    pub machines: Vec<MachineIr>,
    /// The scene file.
    pub file: std::path::PathBuf,
    /// Where the scene's name is (`line:column` of `<scene name>`, else of the root element).
    pub place: String,
}

/// One node.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneNode {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// Its parent's index (`None` at the top level).
    pub parent: Option<usize>,
    /// Its path from the top (`/World/Coin`).
    pub path: String,
    /// An AnimatedSprite's sprite asset (`sprite`; set from `src` when only that is given).
    pub sprite: Option<String>,
    /// An AnimatedSprite's sprite source file (`src`, relative to the scene file).
    pub src: Option<String>,
    /// An AnimatedSprite's `animation`, played from the start when the scene loads.
    pub animation: Option<String>,
    /// Where the node is (`line:column`).
    pub place: String,
    /// Starting values of built-in properties given as attributes (`position="40, 96"`): the
    /// property's index in [`PROPERTIES`] and the value.
    pub props: Vec<(usize, Value)>,
}

/// An Animator node.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimatorIr {
    /// The Animator's node index.
    pub node: usize,
    /// The clip played when the scene starts.
    pub autoplay: Option<usize>,
    /// The clips.
    pub clips: Vec<ClipIr>,
    /// Where the Animator is (`line:column`).
    pub place: String,
}

/// A clip.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipIr {
    /// Its name.
    pub name: String,
    /// Its length in seconds.
    pub length: f64,
    /// Whether it loops.
    pub looping: bool,
    /// Its tracks.
    pub tracks: Vec<TrackIr>,
}

/// What a track animates.
#[derive(Debug, Clone, PartialEq)]
pub enum TrackProperty {
    /// A built-in property (index in [`PROPERTIES`]).
    Builtin(usize),
    /// `script.<field>`.
    Script(String),
    /// An event track.
    Event,
}

/// A track.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackIr {
    /// The node it animates (`None` for an event track).
    pub target: Option<usize>,
    /// The property.
    pub property: TrackProperty,
    /// The values' kind.
    pub kind: ValueKind,
    /// Holds each key until the next (always for Bool, Int and Text).
    pub step: bool,
    /// The keys, in time order.
    pub keys: Vec<KeyIr>,
    /// Where the track is (`line:column`).
    pub place: String,
}

/// A key.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyIr {
    /// Its time in seconds.
    pub time: f64,
    /// Its value.
    pub value: Value,
    /// The ease towards the next key (as written; checked against the kernel's names).
    pub ease: Option<String>,
    /// Where the key is (`line:column`).
    pub place: String,
}

/// A StateMachine node.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineIr {
    /// Its node index.
    pub node: usize,
    /// The sprite node whose animations the states play.
    pub sprite: Option<usize>,
    /// The start state's index.
    pub start: usize,
    /// Parameters: name, kind, default (Bools 1 / 0).
    pub params: Vec<(String, ParamKind, f64)>,
    /// States: name, animation name.
    pub states: Vec<(String, Option<String>)>,
    /// Where each state is (`line:column` of its `animation`, or of the `<state>`).
    pub state_places: Vec<String>,
    /// Transitions, in order.
    pub transitions: Vec<TransitionIr>,
    /// Where the machine is (`line:column`).
    pub place: String,
}

/// A transition.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionIr {
    /// The state it leaves (`None`: any other state).
    pub from: Option<usize>,
    /// The state it enters.
    pub to: usize,
    /// The compiled condition (empty: always).
    pub clauses: Vec<Clause>,
    /// Seconds in the state before it may be taken.
    pub after: f64,
    /// Only once the state's animation ended.
    pub on_finished: bool,
    /// Crossfade duration (seconds), for skeletal use.
    pub crossfade: f64,
    /// Exit time (normalised), for skeletal use.
    pub exit_time: Option<f64>,
    /// Where the transition is (`line:column`).
    pub place: String,
}

/// Parses scene XML.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<SceneIr, HostError> {
    let doc = document(path, bytes)?;
    let x = Xml { file: path, doc: &doc };
    let root = doc.root_element();
    let mut scene = SceneIr { file: path.to_path_buf(), ..SceneIr::default() };
    let tops: Vec<Node<'_, '_>> = match root.tag_name().name() {
        "scene" => {
            x.only(root, &["name"])?;
            scene.name = root.attribute("name").unwrap_or("").to_string();
            scene.place = match root.attribute_node("name") {
                Some(a) => x.pos(a.range_value().start),
                None => x.pos(root.range().start),
            };
            x.children(root)?
        }
        "node" => {
            scene.place = x.pos(root.range().start);
            vec![root]
        }
        other => {
            return Err(x.at(root, format!("not a scene: the root element is <{other}>, expected <scene> or <node>")))
        }
    };
    if scene.name.is_empty() {
        scene.name =
            path.file_stem().and_then(|s| s.to_str()).unwrap_or("scene").trim_end_matches(".scene").to_string();
    }
    let mut elements = Vec::new();
    for n in tops {
        collect(&x, n, None, &mut scene, &mut elements)?;
    }
    for (index, el) in elements.iter().enumerate() {
        match el.attribute("kind") {
            Some("Animator") => scene.animators.push(animator(&x, *el, index, &scene)?),
            Some("StateMachine") => scene.machines.push(machine(&x, *el, index, &scene)?),
            _ => {}
        }
    }
    Ok(scene)
}

/// Adds `n` and its descendants (depth-first) to the scene's nodes.
fn collect<'a, 'i>(
    x: &Xml<'_, '_>,
    n: Node<'a, 'i>,
    parent: Option<usize>,
    scene: &mut SceneIr,
    elements: &mut Vec<Node<'a, 'i>>,
) -> Result<(), HostError> {
    if n.tag_name().name() != "node" {
        return Err(x.at(n, format!("unexpected <{}>: expected <node>", n.tag_name().name())));
    }
    let kind = n.attribute("kind").ok_or_else(|| x.at(n, "a <node> needs a kind"))?;
    let name = n.attribute("name").ok_or_else(|| x.at(n, "a <node> needs a name"))?;
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Err(x.at_attr(n, "name", format!("node name {name:?} is empty or contains '/'")));
    }
    if scene.nodes.iter().any(|o| o.parent == parent && o.name == name) {
        return Err(x.at_attr(n, "name", format!("a sibling node is already called {name:?}")));
    }
    let path = match parent {
        Some(p) => format!("{}/{name}", scene.nodes[p].path),
        None => format!("/{name}"),
    };
    let index = scene.nodes.len();
    let (mut sprite, mut src, mut animation) = (None, None, None);
    if kind == "AnimatedSprite" {
        let text = |a: &str| n.attribute(a).filter(|v| !v.is_empty()).map(str::to_string);
        (sprite, src, animation) = (text("sprite"), text("src"), text("animation"));
    }
    let place = x.pos(n.range().start);
    let mut props = Vec::new();
    for a in n.attributes() {
        let Some(i) = PROPERTIES.iter().position(|(p, _)| *p == a.name()) else { continue };
        // `animation` is an AnimatedSprite's own attribute; `state` is only animated.
        if matches!(a.name(), "animation" | "state") {
            continue;
        }
        let value = parse_value(a.value(), PROPERTIES[i].1)
            .map_err(|why| x.at_attr(n, a.name(), format!("{why} (node {path}, property {})", a.name())))?;
        props.push((i, value));
    }
    scene.nodes.push(SceneNode {
        name: name.into(),
        kind: kind.into(),
        parent,
        path,
        sprite,
        src,
        animation,
        place,
        props,
    });
    elements.push(n);
    for c in n.children().filter(|c| c.is_element() && c.tag_name().name() == "node") {
        collect(x, c, Some(index), scene, elements)?;
    }
    Ok(())
}

/// Resolves a node path from `from` (the Animator's or StateMachine's parent): `""` and `"."` are
/// `from` itself; an absolute path must name a node (`"/"` alone names none).
fn resolve(scene: &SceneIr, from: Option<usize>, path: &str) -> Option<usize> {
    let (mut at, rest) = match path.strip_prefix('/') {
        Some(r) => (None, r),
        None => (from, path),
    };
    for part in rest.split('/').filter(|p| !p.is_empty() && *p != ".") {
        at = Some(scene.nodes.iter().position(|n| n.parent == at && n.name == part)?);
    }
    at
}

fn animator(x: &Xml<'_, '_>, el: Node<'_, '_>, index: usize, scene: &SceneIr) -> Result<AnimatorIr, HostError> {
    let parent = scene.nodes[index].parent;
    let mut clips: Vec<ClipIr> = Vec::new();
    for c in el.children().filter(|c| c.is_element() && c.tag_name().name() != "node") {
        if c.tag_name().name() != "clip" {
            return Err(x.at(c, format!("unexpected <{}> in an Animator: expected <clip>", c.tag_name().name())));
        }
        x.only(c, &["name", "length", "loop"])?;
        let name = c.attribute("name").ok_or_else(|| x.at(c, "a <clip> needs a name"))?;
        if clips.iter().any(|k| k.name == name) {
            return Err(x.at_attr(c, "name", format!("a second clip is called {name:?}")));
        }
        let length = x.f64(c, "length")?.ok_or_else(|| x.at(c, "a <clip> needs a length"))?;
        if !(length.is_finite() && length >= 0.0) {
            return Err(x.at_attr(c, "length", format!("length {length} is not a number of seconds ≥ 0")));
        }
        let looping = x.bool(c, "loop")?.unwrap_or(false);
        let mut tracks = Vec::new();
        for t in x.children(c)? {
            if t.tag_name().name() != "track" {
                return Err(x.at(t, format!("unexpected <{}> in a clip: expected <track>", t.tag_name().name())));
            }
            tracks.push(track(x, t, parent, scene, length)?);
        }
        clips.push(ClipIr { name: name.into(), length, looping, tracks });
    }
    let autoplay = match el.attribute("autoplay") {
        None | Some("") => None,
        Some(a) => Some(clips.iter().position(|c| c.name == a).ok_or_else(|| {
            x.at_attr(el, "autoplay", format!("autoplay names clip {a:?}, which the Animator does not have"))
        })?),
    };
    Ok(AnimatorIr { node: index, autoplay, clips, place: x.pos(el.range().start) })
}

fn track(
    x: &Xml<'_, '_>,
    t: Node<'_, '_>,
    parent: Option<usize>,
    scene: &SceneIr,
    length: f64,
) -> Result<TrackIr, HostError> {
    x.only(t, &["node", "property", "step"])?;
    let prop = t.attribute("property").ok_or_else(|| x.at(t, "a <track> needs a property"))?;
    let (property, kind) = if prop == "event" {
        (TrackProperty::Event, ValueKind::Text)
    } else if let Some(field) = prop.strip_prefix("script.") {
        if field.is_empty() {
            return Err(x.at_attr(t, "property", "script. needs a field name"));
        }
        (TrackProperty::Script(field.into()), ValueKind::Float)
    } else {
        let i = PROPERTIES.iter().position(|(n, _)| *n == prop).ok_or_else(|| {
            let names: Vec<&str> = PROPERTIES.iter().map(|(n, _)| *n).collect();
            x.at_attr(
                t,
                "property",
                format!("unknown property {prop:?}: expected one of {}, script.<field> or event", names.join(", ")),
            )
        })?;
        (TrackProperty::Builtin(i), PROPERTIES[i].1)
    };
    let target =
        if property == TrackProperty::Event {
            None
        } else {
            let path = t.attribute("node").unwrap_or("");
            Some(resolve(scene, parent, path).ok_or_else(|| {
                x.at_attr(t, "node", format!("no node at path {path:?} (from the Animator's parent)"))
            })?)
        };
    let mut keys: Vec<KeyIr> = Vec::new();
    let mut kind = kind;
    for (i, k) in x.children(t)?.into_iter().enumerate() {
        if k.tag_name().name() != "key" {
            return Err(x.at(k, format!("unexpected <{}> in a track: expected <key>", k.tag_name().name())));
        }
        x.only(k, &["time", "value", "ease"])?;
        let time = x.f64(k, "time")?.ok_or_else(|| x.at(k, "a <key> needs a time"))?;
        if !(time.is_finite() && (0.0..=length).contains(&time)) {
            return Err(x.at_attr(k, "time", format!("key time {time} is outside the clip (0 to {length})")));
        }
        if let Some(prev) = keys.last() {
            if time < prev.time {
                return Err(x.at_attr(
                    k,
                    "time",
                    format!(
                        "keys out of order: key {i} at {time} s comes after a key at {} s (keys must be in time order)",
                        prev.time
                    ),
                ));
            }
        }
        let text = k.attribute("value").ok_or_else(|| x.at(k, "a <key> needs a value"))?;
        if i == 0 {
            if let TrackProperty::Script(_) = property {
                kind = script_kind(text);
            }
        }
        let value = parse_value(text, kind).map_err(|why| x.at_attr(k, "value", format!("{why} (property {prop})")))?;
        let ease = k.attribute("ease").map(str::to_string);
        if let Some(e) = &ease {
            ossicle::ease::Ease::<f32>::parse(e).map_err(|_| x.at_attr(k, "ease", format!("unknown ease {e:?}")))?;
        }
        keys.push(KeyIr { time, value, ease, place: x.pos(k.range().start) });
    }
    let step =
        x.bool(t, "step")?.unwrap_or(false) || matches!(kind, ValueKind::Bool | ValueKind::Int | ValueKind::Text);
    Ok(TrackIr { target, property, kind, step, keys, place: x.pos(t.range().start) })
}

/// The kind of a `script.<field>` track, from its first value's form.
fn script_kind(text: &str) -> ValueKind {
    let t = text.trim();
    if t.starts_with('#') {
        ValueKind::Color
    } else if t == "true" || t == "false" {
        ValueKind::Bool
    } else if t.contains(',') {
        ValueKind::Vector
    } else if t.parse::<f64>().is_ok() {
        ValueKind::Float
    } else {
        ValueKind::Text
    }
}

/// Parses a value's text by kind.
pub fn parse_value(text: &str, kind: ValueKind) -> Result<Value, String> {
    let t = text.trim();
    let num = |s: &str| -> Result<f64, String> {
        let v: f64 = s.trim().parse().map_err(|_| format!("{s:?} is not a number"))?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!("{s:?} is not a finite number"))
        }
    };
    match kind {
        ValueKind::Float => num(t).map(Value::Float),
        ValueKind::Vector => {
            let parts: Vec<&str> = t.split(',').collect();
            match parts.as_slice() {
                [a, b] => Ok(Value::Vector(num(a)?, num(b)?)),
                _ => Err(format!("{text:?} is not a vector \"x, y\"")),
            }
        }
        ValueKind::Color => {
            let hex = t.strip_prefix('#').ok_or_else(|| format!("{text:?} is not a colour #rrggbb or #rrggbbaa"))?;
            let ok = (hex.len() == 6 || hex.len() == 8) && hex.bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                return Err(format!("{text:?} is not a colour #rrggbb or #rrggbbaa"));
            }
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
            Ok(Value::Color([byte(0), byte(2), byte(4), if hex.len() == 8 { byte(6) } else { 255 }]))
        }
        ValueKind::Bool => match t {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("{text:?} is not true or false")),
        },
        ValueKind::Int => t.parse::<i32>().map(Value::Int).map_err(|_| format!("{text:?} is not a whole number")),
        ValueKind::Text => Ok(Value::Text(text.to_string())),
    }
}

fn machine(x: &Xml<'_, '_>, el: Node<'_, '_>, index: usize, scene: &SceneIr) -> Result<MachineIr, HostError> {
    let parent = scene.nodes[index].parent;
    let mut params: Vec<(String, ParamKind, f64)> = Vec::new();
    let mut states: Vec<(String, Option<String>)> = Vec::new();
    let mut state_places: Vec<String> = Vec::new();
    let mut raw_transitions = Vec::new();
    for c in el.children().filter(|c| c.is_element() && c.tag_name().name() != "node") {
        match c.tag_name().name() {
            "param" => {
                x.only(c, &["name", "type", "value"])?;
                let name = c.attribute("name").ok_or_else(|| x.at(c, "a <param> needs a name"))?;
                if params.iter().any(|p| p.0 == name) {
                    return Err(x.at_attr(c, "name", format!("a second parameter is called {name:?}")));
                }
                let (kind, default) = match c.attribute("type") {
                    Some("Float") => (ParamKind::Float, x.f64(c, "value")?.unwrap_or(0.0)),
                    Some("Bool") => (ParamKind::Bool, if x.bool(c, "value")?.unwrap_or(false) { 1.0 } else { 0.0 }),
                    Some("Trigger") => (ParamKind::Trigger, 0.0),
                    other => {
                        return Err(x.at_attr(
                            c,
                            "type",
                            format!("parameter type {:?}: expected Float, Bool or Trigger", other.unwrap_or("")),
                        ))
                    }
                };
                params.push((name.into(), kind, default));
            }
            "state" => {
                x.only(c, &["name", "animation"])?;
                let name = c.attribute("name").ok_or_else(|| x.at(c, "a <state> needs a name"))?;
                if states.iter().any(|s| s.0 == name) || name == "*" {
                    return Err(x.at_attr(c, "name", format!("state name {name:?} is taken or reserved")));
                }
                states.push((name.into(), c.attribute("animation").map(str::to_string)));
                let at = c.attribute_node("animation").map_or(c.range().start, |a| a.range_value().start);
                state_places.push(x.pos(at));
            }
            "transition" => raw_transitions.push(c),
            other => {
                return Err(x.at(
                    c,
                    format!("unexpected <{other}> in a StateMachine: expected <param>, <state> or <transition>"),
                ))
            }
        }
    }
    let state_index = |c: Node<'_, '_>, attr: &str| -> Result<usize, HostError> {
        let name = c.attribute(attr).ok_or_else(|| x.at(c, format!("a <{}> needs {attr}", c.tag_name().name())))?;
        states.iter().position(|s| s.0 == name).ok_or_else(|| {
            let names: Vec<&str> = states.iter().map(|s| s.0.as_str()).collect();
            x.at_attr(c, attr, format!("unknown state {name:?} (the states are {})", names.join(", ")))
        })
    };
    let start = state_index(el, "start")?;
    let kinds: Vec<(&str, ParamKind)> = params.iter().map(|(n, k, _)| (n.as_str(), *k)).collect();
    let mut transitions = Vec::new();
    for c in raw_transitions {
        x.only(c, &["from", "to", "when", "after", "onFinished", "crossfade", "exitTime"])?;
        let from = if c.attribute("from") == Some("*") { None } else { Some(state_index(c, "from")?) };
        let to = state_index(c, "to")?;
        let clauses = match c.attribute("when") {
            None => Vec::new(),
            Some(w) => compile(w, &kinds).map_err(|e| {
                let what = format!(
                    "transition {} -> {}",
                    c.attribute("from").unwrap_or("?"),
                    c.attribute("to").unwrap_or("?")
                );
                x.at_attr(c, "when", format!("{what}: {e}"))
            })?,
        };
        let secs = |a: &str| -> Result<f64, HostError> {
            let v = x.f64(c, a)?.unwrap_or(0.0);
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(x.at_attr(c, a, format!("{a} {v} is not a number of seconds ≥ 0")))
            }
        };
        transitions.push(TransitionIr {
            from,
            to,
            clauses,
            after: secs("after")?,
            on_finished: x.bool(c, "onFinished")?.unwrap_or(false),
            crossfade: secs("crossfade")?,
            exit_time: x.f64(c, "exitTime")?,
            place: x.pos(c.range().start),
        });
    }
    let sprite = match el.attribute("sprite") {
        None => parent,
        Some(p) => {
            Some(resolve(scene, parent, p).ok_or_else(|| x.at_attr(el, "sprite", format!("no node at path {p:?}")))?)
        }
    };
    Ok(MachineIr {
        node: index,
        sprite,
        start,
        params,
        states,
        state_places,
        transitions,
        place: x.pos(el.range().start),
    })
}
