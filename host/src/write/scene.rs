//! Scene IR -> scene section records (layout: `ossicle_format::scene`).
//!
//! Everything the kernel resolves by index is resolved here, with an error naming the scene file
//! and place when it cannot be: sprite assets of AnimatedSprite nodes (against the sprites of the
//! same build), state and `animation` key names against the driven sprite's animations, `state`
//! keys against the target machine's states, eases to curve indices, values to scalar words.

use crate::conditions::Clause;
use crate::error::HostError;
use crate::ir::Sprite;
use crate::sources::scene::{SceneIr, TrackProperty, Value, ValueKind, PROPERTIES};
use ossicle::ease::{Ease, NAMES};
use ossicle::scene::builtin_property_name;
use ossicle::sink::property;
use ossicle::statemachine::{CompareOp, ParamKind};
use ossicle_format::scene::{
    SceneBody, BEZIER_EASE, CLIP_LOOP, NONE, TRACK_STEP, TRANSITION_EXIT_TIME, TRANSITION_ON_FINISHED,
};
use ossicle_format::{BlobWriter, ScalarEncoding};

/// The byte arrays of one scene body.
#[derive(Default)]
struct Arrays {
    nodes: Vec<u8>,
    animators: Vec<u8>,
    clips: Vec<u8>,
    tracks: Vec<u8>,
    keys: Vec<u8>,
    beziers: Vec<u8>,
    machines: Vec<u8>,
    params: Vec<u8>,
    states: Vec<u8>,
    transitions: Vec<u8>,
    clauses: Vec<u8>,
    fields: Vec<u8>,
    props: Vec<u8>,
}

fn push(array: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        array.extend_from_slice(&w.to_le_bytes());
    }
}

fn count(n: usize, what: &str, scene: &SceneIr) -> Result<u32, HostError> {
    u32::try_from(n).map_err(|_| HostError::file(&scene.file, format!("too many {what}")))
}

/// The kernel's id of the built-in property `PROPERTIES[index]`.
fn builtin_id(index: usize) -> Option<(u32, &'static str)> {
    let name = PROPERTIES.get(index)?.0;
    (1..=property::STATE).find(|&id| builtin_property_name(id) == Some(name)).map(|id| (id, name))
}

/// A value's words (`a`, `b`) as a key or a starting value stores them, with `scalar` encoding the
/// numbers and `text` giving a string's id.
fn value_words(
    value: &Value,
    scalar: &dyn Fn(f64) -> Result<u32, HostError>,
    text: &mut dyn FnMut(&str) -> Result<u32, HostError>,
) -> Result<(u32, u32), HostError> {
    Ok(match value {
        Value::Float(v) => (scalar(*v)?, 0),
        Value::Int(v) => (scalar(f64::from(*v))?, 0),
        Value::Vector(x, y) => (scalar(*x)?, scalar(*y)?),
        Value::Color(c) => (u32::from_be_bytes(*c), 0),
        Value::Bool(b) => (u32::from(*b), 0),
        Value::Text(t) => (text(t)?, 0),
    })
}

/// The kind code of a value's track or starting value (0 Float, 1 Vector, 2 Color, 3 Bool, 4 Text).
fn kind_code(kind: ValueKind) -> u32 {
    match kind {
        ValueKind::Float | ValueKind::Int => 0,
        ValueKind::Vector => 1,
        ValueKind::Color => 2,
        ValueKind::Bool => 3,
        ValueKind::Text => 4,
    }
}

/// What a sprite of the build offers a scene: its animation names.
fn sprite_animations<'s>(sprites: &'s [Sprite], name: &str) -> Option<Vec<&'s str>> {
    sprites.iter().find(|s| s.name == name).map(|s| s.animations.iter().map(|a| a.name.as_str()).collect())
}

/// Encodes `scene` as a scene section of `w` (strings interned), resolving sprite references
/// against `sprites` (every sprite of the same build).
pub fn encode_scene(
    scene: &SceneIr,
    sprites: &[Sprite],
    w: &mut BlobWriter,
    encoding: ScalarEncoding,
) -> Result<usize, HostError> {
    let file = &scene.file;
    let scalar = |v: f64, place: &str, what: &str| -> Result<u32, HostError> {
        encoding.encode_f64(v).ok_or_else(|| {
            let range = match encoding {
                ScalarEncoding::Q16_16 => "Q16.16 holds -32768 to 32767.99998",
                ScalarEncoding::F32 => "f32 holds finite values up to 3.4e38",
            };
            HostError::at(file, place, format!("{what} {v} does not fit the {} encoding ({range})", encoding.name()))
        })
    };
    let mut a = Arrays::default();
    let name = w.intern(&scene.name);
    // Nodes, with their sprite bindings checked.
    for node in &scene.nodes {
        let sprite = match &node.sprite {
            Some(s) => {
                let anims = sprite_animations(sprites, s).ok_or_else(|| {
                    let names: Vec<&str> = sprites.iter().map(|s| s.name.as_str()).collect();
                    HostError::at(
                        file,
                        &node.place,
                        format!(
                            "node {} shows sprite {s:?}, which this build does not define (sprites: {}); give the \
                             sprite's source with src=\"...\" or as another input",
                            node.path,
                            if names.is_empty() { "none".to_string() } else { names.join(", ") }
                        ),
                    )
                })?;
                if let Some(anim) = &node.animation {
                    if !anims.contains(&anim.as_str()) {
                        return Err(HostError::at(
                            file,
                            &node.place,
                            format!(
                                "node {} plays animation {anim:?}, which sprite {s:?} does not have (it has {})",
                                node.path,
                                anims.join(", ")
                            ),
                        ));
                    }
                }
                w.intern(s)
            }
            None => NONE,
        };
        let parent = match node.parent {
            Some(p) => count(p, "nodes", scene)?,
            None => NONE,
        };
        let animation = match (&node.animation, &node.sprite) {
            (Some(anim), Some(_)) => w.intern(anim),
            _ => NONE,
        };
        push(&mut a.nodes, &[w.intern(&node.name), w.intern(&node.kind), parent, sprite, animation]);
    }
    for (index, node) in scene.nodes.iter().enumerate() {
        for (p, value) in &node.props {
            let (id, name) = builtin_id(*p)
                .ok_or_else(|| HostError::at(file, &node.place, format!("unknown property index {p}")))?;
            let what = format!("node {} {name}", node.path);
            let kind = kind_code(PROPERTIES.get(*p).map_or(ValueKind::Float, |p| p.1));
            let (va, vb) = value_words(value, &|v| scalar(v, &node.place, &what), &mut |t| Ok(w.intern(t)))?;
            push(&mut a.props, &[count(index, "nodes", scene)?, id, kind, va, vb]);
        }
    }
    let machine_of_node = |n: usize| scene.machines.iter().find(|m| m.node == n);
    // Animators.
    let mut fields: Vec<String> = Vec::new();
    let mut clip_total = 0u32;
    let mut track_total = 0u32;
    let mut key_total = 0u32;
    let mut bezier_total = 0u32;
    for an in &scene.animators {
        let clip_count = count(an.clips.len(), "clips", scene)?;
        let autoplay = match an.autoplay {
            Some(i) => count(i, "clips", scene)?,
            None => NONE,
        };
        push(&mut a.animators, &[count(an.node, "nodes", scene)?, autoplay, clip_total, clip_count]);
        clip_total = clip_total.saturating_add(clip_count);
        for clip in &an.clips {
            let track_count = count(clip.tracks.len(), "tracks", scene)?;
            let flags = if clip.looping { CLIP_LOOP } else { 0 };
            let length = scalar(clip.length, &an.place, &format!("clip {:?} length", clip.name))?;
            push(&mut a.clips, &[w.intern(&clip.name), length, flags, track_total, track_count]);
            track_total = track_total.saturating_add(track_count);
            for track in &clip.tracks {
                let (prop, prop_name) = match &track.property {
                    TrackProperty::Builtin(i) => {
                        let (id, name) = builtin_id(*i)
                            .ok_or_else(|| HostError::at(file, &track.place, format!("unknown property index {i}")))?;
                        (id, name.to_string())
                    }
                    TrackProperty::Script(f) => {
                        let k = match fields.iter().position(|x| x == f) {
                            Some(k) => k,
                            None => {
                                fields.push(f.clone());
                                fields.len() - 1
                            }
                        };
                        let id = u32::try_from(k)
                            .ok()
                            .filter(|&k| k < property::USER - property::SCRIPT)
                            .map(|k| property::SCRIPT + k)
                            .ok_or_else(|| HostError::at(file, &track.place, "too many script fields"))?;
                        (id, format!("script.{f}"))
                    }
                    TrackProperty::Event => (0, "event".to_string()),
                };
                let info = kind_code(track.kind) | if track.step { TRACK_STEP } else { 0 };
                let target = match track.target {
                    Some(n) => count(n, "nodes", scene)?,
                    None => NONE,
                };
                // Names a track requests are checked against what they will request.
                let target_node = track.target.and_then(|n| scene.nodes.get(n));
                let allowed: Option<(String, Vec<String>)> = match (prop_name.as_str(), target_node) {
                    ("animation", Some(node)) => node.sprite.as_ref().and_then(|s| {
                        sprite_animations(sprites, s)
                            .map(|v| (format!("sprite {s:?}"), v.into_iter().map(str::to_string).collect()))
                    }),
                    ("state", Some(node)) => {
                        let m = track.target.and_then(machine_of_node).ok_or_else(|| {
                            HostError::at(
                                file,
                                &track.place,
                                format!(
                                    "a state track must animate a StateMachine node; {} is a {}",
                                    node.path, node.kind
                                ),
                            )
                        })?;
                        Some((format!("machine {}", node.path), m.states.iter().map(|s| s.0.clone()).collect()))
                    }
                    _ => None,
                };
                let key_count = count(track.keys.len(), "keys", scene)?;
                push(&mut a.tracks, &[target, prop, info, key_total, key_count]);
                key_total = key_total.saturating_add(key_count);
                for key in &track.keys {
                    let time = scalar(key.time, &key.place, "key time")?;
                    let (va, vb) = value_words(&key.value, &|v| scalar(v, &key.place, "value"), &mut |t| {
                        if let Some((owner, names)) = &allowed {
                            if !names.iter().any(|n| n == t) {
                                return Err(HostError::at(
                                    file,
                                    &key.place,
                                    format!("{owner} has no {prop_name} {t:?} (it has {})", names.join(", ")),
                                ));
                            }
                        }
                        Ok(w.intern(t))
                    })?;
                    let ease = match &key.ease {
                        None => 0,
                        Some(e) => match Ease::<f32>::parse(e) {
                            Ok(Ease::Bezier(b)) => {
                                let words = [
                                    scalar(f64::from(b.x1), &key.place, "ease")?,
                                    scalar(f64::from(b.y1), &key.place, "ease")?,
                                    scalar(f64::from(b.x2), &key.place, "ease")?,
                                    scalar(f64::from(b.y2), &key.place, "ease")?,
                                ];
                                push(&mut a.beziers, &words);
                                let k = bezier_total;
                                bezier_total = bezier_total.saturating_add(1);
                                BEZIER_EASE.saturating_add(k)
                            }
                            Ok(named) => NAMES.iter().position(|n| *n == named.name()).unwrap_or(0) as u32,
                            Err(_) => return Err(HostError::at(file, &key.place, format!("unknown ease {e:?}"))),
                        },
                    };
                    push(&mut a.keys, &[time, va, vb, ease]);
                }
            }
        }
    }
    // State machines.
    let (mut param_total, mut state_total, mut transition_total, mut clause_total) = (0u32, 0u32, 0u32, 0u32);
    for m in &scene.machines {
        let sprite_node = m.sprite.and_then(|n| scene.nodes.get(n));
        let sprite_anims = sprite_node.and_then(|n| n.sprite.as_deref()).and_then(|s| sprite_animations(sprites, s));
        let (pc, sc, tc) = (
            count(m.params.len(), "parameters", scene)?,
            count(m.states.len(), "states", scene)?,
            count(m.transitions.len(), "transitions", scene)?,
        );
        let sprite = match (m.sprite, &sprite_anims) {
            (Some(n), Some(_)) => count(n, "nodes", scene)?,
            _ => NONE,
        };
        push(
            &mut a.machines,
            &[
                count(m.node, "nodes", scene)?,
                sprite,
                count(m.start, "states", scene)?,
                param_total,
                pc,
                state_total,
                sc,
                transition_total,
                tc,
            ],
        );
        param_total = param_total.saturating_add(pc);
        state_total = state_total.saturating_add(sc);
        transition_total = transition_total.saturating_add(tc);
        for (pname, kind, default) in &m.params {
            let k = match kind {
                ParamKind::Float => 0,
                ParamKind::Bool => 1,
                ParamKind::Trigger => 2,
            };
            let d = scalar(*default, &m.place, &format!("parameter {pname:?} value"))?;
            push(&mut a.params, &[w.intern(pname), k, d]);
        }
        for (si, (sname, anim)) in m.states.iter().enumerate() {
            let state_place = m.state_places.get(si).unwrap_or(&m.place);
            let (anim_name, anim_index) = match anim {
                None => (NONE, NONE),
                Some(an) => {
                    let index = match &sprite_anims {
                        Some(names) => {
                            let i = names.iter().position(|n| n == an).ok_or_else(|| {
                                HostError::at(
                                    file,
                                    state_place,
                                    format!(
                                        "state {sname:?} plays animation {an:?}, which sprite {:?} (node {}) does not \
                                         have (it has {})",
                                        sprite_node.and_then(|n| n.sprite.clone()).unwrap_or_default(),
                                        sprite_node.map(|n| n.path.as_str()).unwrap_or("?"),
                                        names.join(", ")
                                    ),
                                )
                            })?;
                            count(i, "animations", scene)?
                        }
                        None => NONE,
                    };
                    (w.intern(an), index)
                }
            };
            push(&mut a.states, &[w.intern(sname), anim_name, anim_index]);
        }
        for t in &m.transitions {
            let cc = count(t.clauses.len(), "clauses", scene)?;
            let from = match t.from {
                Some(s) => count(s, "states", scene)?,
                None => NONE,
            };
            let mut flags = if t.on_finished { TRANSITION_ON_FINISHED } else { 0 };
            let exit = match t.exit_time {
                Some(e) => {
                    flags |= TRANSITION_EXIT_TIME;
                    scalar(e, &t.place, "exitTime")?
                }
                None => 0,
            };
            push(
                &mut a.transitions,
                &[
                    from,
                    count(t.to, "states", scene)?,
                    clause_total,
                    cc,
                    scalar(t.after, &t.place, "after")?,
                    flags,
                    scalar(t.crossfade, &t.place, "crossfade")?,
                    exit,
                ],
            );
            clause_total = clause_total.saturating_add(cc);
            for c in &t.clauses {
                let words = match *c {
                    Clause::Is { param } => [0, param, 0],
                    Clause::IsNot { param } => [1, param, 0],
                    Clause::Compare { param, op, value } => {
                        let code = match op {
                            CompareOp::Eq => 2,
                            CompareOp::Ne => 3,
                            CompareOp::Lt => 4,
                            CompareOp::Le => 5,
                            CompareOp::Gt => 6,
                            CompareOp::Ge => 7,
                        };
                        [code, param, scalar(value, &t.place, "the condition's number")?]
                    }
                };
                push(&mut a.clauses, &words);
            }
        }
    }
    for f in &fields {
        push(&mut a.fields, &[w.intern(f)]);
    }
    let body = SceneBody {
        name,
        nodes: &a.nodes,
        animators: &a.animators,
        clips: &a.clips,
        tracks: &a.tracks,
        keys: &a.keys,
        beziers: &a.beziers,
        machines: &a.machines,
        params: &a.params,
        states: &a.states,
        transitions: &a.transitions,
        clauses: &a.clauses,
        fields: &a.fields,
        props: &a.props,
    };
    let bytes = postcard::to_stdvec(&body).map(|b| b.len()).unwrap_or(0);
    w.add_scene(&body).map_err(|e| HostError::file(file, e.to_string()))?;
    Ok(bytes)
}
