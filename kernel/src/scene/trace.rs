//! The scripted trace runner: runs a script of commands against a [`Scene`] and writes one JSON
//! object per step. `ossicle trace` and the QEMU firmware both run it, so their traces can be
//! compared line by line; the conformance tests compare it with hand-written traces.
//!
//! The script format and the output are documented in `docs/trace.md`. In short, one command per
//! line (`#` comments): `update DT [N]`, `play|restart A CLIP`, `pause|resume A`, `stop A [reset]`,
//! `seek A T`, `apply A CLIP T`, `speed A V`, `set M PARAM V`, `trigger M PARAM`, `travel M STATE`,
//! `sprite NODE ANIMATION`; and per step
//! `{"step":1,"op":"update 0.25","time":0.25,"writes":[...],"events":[...]}`.
//!
//! Nothing here allocates: the output goes straight to a [`core::fmt::Write`]. Nothing here can
//! panic either, so a firmware built with the never-panic link runs it (the QEMU scene image):
//! numbers are written by the `decimal` submodule (the same text as `Display`, without `core`'s
//! float formatting or `fixed`'s, which keep reachable bounds checks), and the script is split into
//! lines by hand rather than with `str::lines`, for the same reason.

mod decimal;

use core::fmt::{self, Write};

use super::{BlobScene, PropertyName, Scene};
use crate::animator::ClipSource;
use crate::event::{Event, EventQueue};
use crate::scalar::Scalar;
use crate::sink::{PropertyId, PropertyValue, TargetId};
use crate::statemachine::{MachineError, MachineSource, ParamKind};

/// The most events one step may queue (more is an error: the trace would be incomplete).
pub const MAX_EVENTS_PER_STEP: usize = 64;
/// The most updates one `update DT N` line may ask for.
pub const MAX_REPEAT: u32 = 100_000;

/// What went wrong on a script line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceErrorKind<'s> {
    /// The first word is not a command.
    UnknownCommand(&'s str),
    /// The command has too few or too many words; the text says what it takes.
    Usage(&'static str),
    /// A word that should be a number is not one.
    BadNumber(&'s str),
    /// A number too large in magnitude for an `f32` (the script's numbers are read as `f32`s).
    NumberTooLarge(&'s str),
    /// The repeat count of `update DT N` is not a whole number from 0 to [`MAX_REPEAT`].
    BadCount(&'s str),
    /// No Animator node has this name or path.
    NoAnimator(&'s str),
    /// No StateMachine node has this name or path.
    NoMachine(&'s str),
    /// No AnimatedSprite node bound to a sprite has this name or path.
    NoSprite(&'s str),
    /// The Animator has no clip of this name.
    NoClip(&'s str),
    /// The machine has no parameter of this name.
    NoParam(&'s str),
    /// The machine has no state of this name.
    NoState(&'s str),
    /// The sprite has no animation of this name.
    NoAnimation(&'s str),
    /// The parameter is of another kind than the command sets (or the value does not fit it).
    WrongKind {
        /// The parameter.
        param: &'s str,
        /// Its kind.
        kind: ParamKind,
    },
    /// The step queued more than [`MAX_EVENTS_PER_STEP`] events.
    TooManyEvents,
    /// The output could not be written.
    Write,
}

/// Why a trace stopped: the script line (1-based) and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceError<'s> {
    /// The script line, counting from 1.
    pub line: usize,
    /// What went wrong.
    pub kind: TraceErrorKind<'s>,
}

impl fmt::Display for TraceError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "script line {}: ", self.line)?;
        match self.kind {
            TraceErrorKind::UnknownCommand(c) => write!(
                f,
                "unknown command {c:?} (commands: update, play, restart, pause, resume, stop, seek, apply, speed, set, trigger, travel, sprite)"
            ),
            TraceErrorKind::Usage(u) => write!(f, "usage: {u}"),
            TraceErrorKind::BadNumber(w) => write!(f, "{w:?} is not a number"),
            TraceErrorKind::NumberTooLarge(w) => {
                write!(f, "{w:?} is too large: the script's numbers are f32s, at most about 3.4e38 in magnitude")
            }
            TraceErrorKind::BadCount(c) => {
                write!(f, "{c:?} is not a repeat count (a whole number from 0 to {MAX_REPEAT})")
            }
            TraceErrorKind::NoAnimator(n) => write!(f, "no Animator node {n:?} (a unique node name or a /path)"),
            TraceErrorKind::NoMachine(n) => write!(f, "no StateMachine node {n:?} (a unique node name or a /path)"),
            TraceErrorKind::NoSprite(n) => write!(f, "no AnimatedSprite node with a sprite called {n:?}"),
            TraceErrorKind::NoClip(n) => write!(f, "the Animator has no clip {n:?}"),
            TraceErrorKind::NoParam(n) => write!(f, "the machine has no parameter {n:?}"),
            TraceErrorKind::NoState(n) => write!(f, "the machine has no state {n:?}"),
            TraceErrorKind::NoAnimation(n) => write!(f, "the sprite has no animation {n:?}"),
            TraceErrorKind::WrongKind { param, kind } => write!(f, "parameter {param:?} is a {kind:?}"),
            TraceErrorKind::TooManyEvents => {
                write!(f, "the step queued more than {MAX_EVENTS_PER_STEP} events; use smaller updates")
            }
            TraceErrorKind::Write => f.write_str("the output could not be written"),
        }
    }
}

/// The words of a line (at most 8; more is reported as a usage error by the commands).
struct Words<'s> {
    words: [&'s str; 8],
    len: usize,
}

impl<'s> Words<'s> {
    fn split(line: &'s str) -> Self {
        let mut words = [""; 8];
        let mut len = 0usize;
        let bytes = line.as_bytes();
        let mut start: Option<usize> = None;
        for (i, &b) in bytes.iter().enumerate().chain(core::iter::once((bytes.len(), &b' '))) {
            let space = b == b' ' || b == b'\t' || b == b'\r';
            match (start, space) {
                (None, false) => start = Some(i),
                (Some(s), true) => {
                    if let (Some(slot), Some(w)) = (words.get_mut(len), line.get(s..i)) {
                        *slot = w;
                    }
                    len = len.saturating_add(1);
                    start = None;
                }
                _ => {}
            }
        }
        Self { words, len }
    }
    fn get(&self, i: usize) -> &'s str {
        self.words.get(i).copied().unwrap_or("")
    }
}

/// Parses a decimal number the way the ease parser does (no panicking paths).
fn number<S: Scalar>(w: &str) -> Result<S, TraceErrorKind<'_>> {
    match crate::ease::parse_decimal_checked(w.as_bytes()) {
        Ok(v) => Ok(S::from_f32(v)),
        Err(crate::ease::DecimalError::Range) => Err(TraceErrorKind::NumberTooLarge(w)),
        Err(crate::ease::DecimalError::Syntax) => Err(TraceErrorKind::BadNumber(w)),
    }
}

/// Writes the characters of `s` escaped for the inside of a JSON string.
fn json_chars(out: &mut dyn Write, s: &str) -> fmt::Result {
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    Ok(())
}

/// Writes `s` as a JSON string.
fn json_str(out: &mut dyn Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    json_chars(out, s)?;
    out.write_char('"')
}

fn json_num<S: Scalar>(out: &mut dyn Write, v: S) -> fmt::Result {
    if v.to_f64().is_finite() {
        // The text of `v.write_decimal(out)`, without its panicking paths.
        decimal::write_scalar(out, v)
    } else {
        out.write_str("null")
    }
}

/// Writes a node's path (`/World/Coin`), escaped for the inside of a JSON string.
fn node_path(out: &mut dyn Write, scene: &BlobScene<'_>, node: usize, depth: u32) -> fmt::Result {
    let Some(n) = scene.node(node) else { return write!(out, "#{node}") };
    if let Some(p) = n.parent.filter(|_| depth < 64) {
        node_path(out, scene, p, depth.saturating_add(1))?;
    }
    out.write_char('/')?;
    json_chars(out, n.name)
}

fn node_name<'a>(scene: &BlobScene<'a>, node: usize) -> &'a str {
    scene.node(node).map_or("?", |n| n.name)
}

fn write_value<S: Scalar>(out: &mut dyn Write, scene: &BlobScene<'_>, v: PropertyValue<S>) -> fmt::Result {
    match v {
        PropertyValue::Float(x) => json_num(out, x),
        PropertyValue::Vector(p) => {
            out.write_char('[')?;
            json_num(out, p.x)?;
            out.write_char(',')?;
            json_num(out, p.y)?;
            out.write_char(']')
        }
        PropertyValue::Vector3(p) => {
            out.write_char('[')?;
            json_num(out, p.x)?;
            out.write_char(',')?;
            json_num(out, p.y)?;
            out.write_char(',')?;
            json_num(out, p.z)?;
            out.write_char(']')
        }
        PropertyValue::Rotation(q) => {
            out.write_char('[')?;
            for (i, c) in [q.x, q.y, q.z, q.w].into_iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                json_num(out, c)?;
            }
            out.write_char(']')
        }
        PropertyValue::Color(c) => {
            write!(out, "\"#{:02x}{:02x}{:02x}{:02x}\"", c.r, c.g, c.b, c.a)
        }
        PropertyValue::Bool(b) => out.write_str(if b { "true" } else { "false" }),
        PropertyValue::Int(i) => write!(out, "{i}"),
        PropertyValue::Text(id) => json_str(out, scene.string(id).unwrap_or("")),
    }
}

fn write_write<S: Scalar>(
    out: &mut dyn Write,
    scene: &BlobScene<'_>,
    target: TargetId,
    property: PropertyId,
    value: PropertyValue<S>,
) -> fmt::Result {
    out.write_str("{\"node\":\"")?;
    node_path(out, scene, target as usize, 0)?;
    out.write_str("\",\"property\":")?;
    match scene.property_name(property) {
        Some(PropertyName::Builtin(n)) => json_str(out, n)?,
        Some(PropertyName::Script(field)) => {
            out.write_str("\"script.")?;
            json_chars(out, field)?;
            out.write_char('"')?;
        }
        None => write!(out, "{property}")?,
    }
    out.write_str(",\"value\":")?;
    write_value(out, scene, value)?;
    out.write_char('}')
}

fn write_event<S: Scalar, const N: usize, const C: usize, const P: usize, const M: usize>(
    out: &mut dyn Write,
    scene: &Scene<'_, S, N, C, P, M>,
    e: Event,
) -> fmt::Result {
    let blob = scene.blob();
    let animator_name = |a: u32| blob.animator_node(a as usize).map_or("?", |n| node_name(blob, n));
    let clip_name = |a: u32, c: u32| {
        blob.clips::<S>(a as usize).ok().flatten().and_then(|clips| clips.name(c as usize)).unwrap_or("?")
    };
    let machine_name = |m: u32| blob.machine_node(m as usize).map_or("?", |n| node_name(blob, n));
    let state_name = |m: u32, s: u32| {
        blob.machine::<S>(m as usize).ok().flatten().and_then(|d| d.state_name(s as usize)).unwrap_or("?")
    };
    let sprite = |player: u32, animation: u32| {
        let node = player as usize;
        let anim = scene.sprite(node).and_then(|s| s.animations.name(animation as usize)).unwrap_or("?");
        (node_name(blob, node), anim)
    };
    let head = |out: &mut dyn Write, ty: &str, key: &str, who: &str| -> fmt::Result {
        out.write_str("{\"type\":")?;
        json_str(out, ty)?;
        out.write_str(",\"")?;
        out.write_str(key)?;
        out.write_str("\":")?;
        json_str(out, who)
    };
    let field = |out: &mut dyn Write, key: &str, value: &str| -> fmt::Result {
        out.write_str(",\"")?;
        out.write_str(key)?;
        out.write_str("\":")?;
        json_str(out, value)
    };
    match e {
        Event::AnimatorEvent { animator, clip, name } => {
            head(out, "event", "animator", animator_name(animator))?;
            field(out, "clip", clip_name(animator, clip))?;
            field(out, "name", blob.string(name).unwrap_or("?"))?;
        }
        Event::ClipFinished { animator, clip } => {
            head(out, "finished", "animator", animator_name(animator))?;
            field(out, "clip", clip_name(animator, clip))?;
        }
        Event::StateEntered { machine, state } | Event::StateExited { machine, state } => {
            let ty = if matches!(e, Event::StateEntered { .. }) { "entered" } else { "exited" };
            head(out, ty, "machine", machine_name(machine))?;
            field(out, "state", state_name(machine, state))?;
        }
        Event::SpriteAnimationChanged { player, animation }
        | Event::SpriteStarted { player, animation }
        | Event::SpriteEnded { player, animation }
        | Event::SpriteStopped { player, animation } => {
            let ty = match e {
                Event::SpriteAnimationChanged { .. } => "sprite_changed",
                Event::SpriteStarted { .. } => "sprite_started",
                Event::SpriteEnded { .. } => "sprite_ended",
                _ => "sprite_stopped",
            };
            let (node, anim) = sprite(player, animation);
            head(out, ty, "node", node)?;
            field(out, "animation", anim)?;
        }
        Event::SpriteFrameChanged { player, animation, frame } => {
            let (node, anim) = sprite(player, animation);
            head(out, "sprite_frame", "node", node)?;
            field(out, "animation", anim)?;
            write!(out, ",\"frame\":{frame}")?;
        }
        Event::SpriteFrameEvent { player, animation, frame, name } => {
            let (node, anim) = sprite(player, animation);
            head(out, "sprite_event", "node", node)?;
            field(out, "animation", anim)?;
            write!(out, ",\"frame\":{frame}")?;
            field(out, "name", blob.string(name).unwrap_or("?"))?;
        }
        Event::SpriteLooped { player, animation, count } => {
            let (node, anim) = sprite(player, animation);
            head(out, "sprite_looped", "node", node)?;
            field(out, "animation", anim)?;
            write!(out, ",\"count\":{count}")?;
        }
        other => {
            out.write_str("{\"type\":\"other\",\"debug\":")?;
            let mut text = heapless::String::<96>::new();
            // A too-long debug text is cut; the event is still reported.
            let _ = write!(text, "{other:?}");
            json_str(out, &text)?;
        }
    }
    out.write_char('}')
}

/// A stateful trace: the scene, the scene time and the step counter. [`run`] runs a whole script.
pub struct Tracer<'r, 'a, S, const N: usize, const C: usize, const P: usize, const M: usize> {
    scene: &'r mut Scene<'a, S, N, C, P, M>,
    time: S,
    step: u32,
}

impl<'r, 'a, S: Scalar, const N: usize, const C: usize, const P: usize, const M: usize> Tracer<'r, 'a, S, N, C, P, M> {
    /// A tracer over `scene`, at scene time 0, before step 1.
    pub fn new(scene: &'r mut Scene<'a, S, N, C, P, M>) -> Self {
        Self { scene, time: S::ZERO, step: 0 }
    }

    /// The scene time (the sum of the updates so far).
    pub fn time(&self) -> S {
        self.time
    }

    fn animator<'s>(&self, name: &'s str) -> Result<usize, TraceErrorKind<'s>> {
        let blob = self.scene.blob();
        blob.find_node(name).and_then(|n| blob.animator_at(n)).ok_or(TraceErrorKind::NoAnimator(name))
    }

    fn machine<'s>(&self, name: &'s str) -> Result<usize, TraceErrorKind<'s>> {
        let blob = self.scene.blob();
        blob.find_node(name).and_then(|n| blob.machine_at(n)).ok_or(TraceErrorKind::NoMachine(name))
    }

    /// Runs one script line (`line_no` for errors), writing its steps to `out`.
    pub fn line<'s>(&mut self, line: &'s str, line_no: usize, out: &mut dyn Write) -> Result<(), TraceError<'s>> {
        let err = |kind| TraceError { line: line_no, kind };
        let w = Words::split(line);
        if w.len == 0 || w.get(0).starts_with('#') {
            return Ok(());
        }
        let n = w.len;
        let usage = |u: &'static str| err(TraceErrorKind::Usage(u));
        let num = |s: &'s str| number::<S>(s).map_err(err);
        let mut q: EventQueue<MAX_EVENTS_PER_STEP> = EventQueue::new();
        match w.get(0) {
            "update" => {
                if !(2..=3).contains(&n) {
                    return Err(usage("update DT [N]"));
                }
                let dt = num(w.get(1))?;
                let count = if n == 3 {
                    let c = w.get(2);
                    c.parse::<u32>().ok().filter(|&c| c <= MAX_REPEAT).ok_or(err(TraceErrorKind::BadCount(c)))?
                } else {
                    1
                };
                for _ in 0..count {
                    self.time = self.time.add(if dt > S::ZERO { dt } else { S::ZERO });
                    self.begin(&w, out).map_err(|_| err(TraceErrorKind::Write))?;
                    let scene_blob = *self.scene.blob();
                    let mut first = true;
                    let mut failed = false;
                    self.scene.update_observed(dt, &mut q, |t, p, v| {
                        let r = if first { Ok(()) } else { out.write_char(',') };
                        first = false;
                        if r.and_then(|_| write_write(out, &scene_blob, t, p, v)).is_err() {
                            failed = true;
                        }
                    });
                    if failed {
                        return Err(err(TraceErrorKind::Write));
                    }
                    self.finish(&mut q, out).map_err(err)?;
                }
                return Ok(());
            }
            "play" | "restart" => {
                if n != 3 {
                    return Err(usage("play|restart ANIMATOR CLIP"));
                }
                let a = self.animator(w.get(1)).map_err(err)?;
                let clip = w.get(2);
                let (anim, clips, _) = self.scene.animator_parts(a).ok_or(err(TraceErrorKind::NoAnimator(w.get(1))))?;
                anim.play_named(&clips, clip, w.get(0) == "restart").map_err(|_| err(TraceErrorKind::NoClip(clip)))?;
            }
            "pause" | "resume" => {
                if n != 2 {
                    return Err(usage("pause|resume ANIMATOR"));
                }
                let a = self.animator(w.get(1)).map_err(err)?;
                let (anim, _, _) = self.scene.animator_parts(a).ok_or(err(TraceErrorKind::NoAnimator(w.get(1))))?;
                if w.get(0) == "pause" {
                    anim.pause();
                } else {
                    anim.resume();
                }
            }
            "speed" => {
                if n != 3 {
                    return Err(usage("speed ANIMATOR V"));
                }
                let a = self.animator(w.get(1)).map_err(err)?;
                let v = num(w.get(2))?;
                let (anim, _, _) = self.scene.animator_parts(a).ok_or(err(TraceErrorKind::NoAnimator(w.get(1))))?;
                anim.set_speed(v);
            }
            "stop" | "seek" | "apply" => {
                let (ok, u) = match w.get(0) {
                    "stop" => (n == 2 || (n == 3 && w.get(2) == "reset"), "stop ANIMATOR [reset]"),
                    "seek" => (n == 3, "seek ANIMATOR T"),
                    _ => (n == 4, "apply ANIMATOR CLIP T"),
                };
                if !ok {
                    return Err(usage(u));
                }
                let a = self.animator(w.get(1)).map_err(err)?;
                let t = match w.get(0) {
                    "seek" => Some(num(w.get(2))?),
                    "apply" => Some(num(w.get(3))?),
                    _ => None,
                };
                // Everything that can fail is checked before the step's line is started, so a bad
                // line leaves no partial step in the output.
                if self.scene.animator_parts(a).is_none() {
                    return Err(err(TraceErrorKind::NoAnimator(w.get(1))));
                }
                let apply_clip = match w.get(0) {
                    "apply" => Some(
                        self.scene
                            .blob()
                            .clips::<S>(a)
                            .ok()
                            .flatten()
                            .and_then(|clips| clips.find(w.get(2)))
                            .ok_or(err(TraceErrorKind::NoClip(w.get(2))))?,
                    ),
                    _ => None,
                };
                self.begin(&w, out).map_err(|_| err(TraceErrorKind::Write))?;
                let scene_blob = *self.scene.blob();
                let (anim, clips, nodes) =
                    self.scene.animator_parts(a).ok_or(err(TraceErrorKind::NoAnimator(w.get(1))))?;
                let mut first = true;
                let mut failed = false;
                {
                    let mut sink = super::Observed {
                        sink: nodes,
                        observe: |tg: TargetId, p: PropertyId, v: PropertyValue<S>| {
                            let r = if first { Ok(()) } else { out.write_char(',') };
                            first = false;
                            if r.and_then(|_| write_write(out, &scene_blob, tg, p, v)).is_err() {
                                failed = true;
                            }
                        },
                    };
                    match (w.get(0), t) {
                        ("seek", Some(t)) => anim.seek(&clips, &mut sink, t),
                        ("apply", Some(t)) => {
                            if let Some(clip) = apply_clip {
                                let _ = anim.apply(&clips, &mut sink, clip, t);
                            }
                        }
                        _ => anim.stop(&clips, &mut sink, n == 3),
                    }
                }
                if failed {
                    return Err(err(TraceErrorKind::Write));
                }
                return self.finish(&mut q, out).map_err(err);
            }
            "set" | "trigger" => {
                let (ok, u) = if w.get(0) == "set" {
                    (n == 4, "set MACHINE PARAM VALUE")
                } else {
                    (n == 3, "trigger MACHINE PARAM")
                };
                if !ok {
                    return Err(usage(u));
                }
                let m = self.machine(w.get(1)).map_err(err)?;
                let param = w.get(2);
                let (sm, def) = self.scene.machine_parts(m).ok_or(err(TraceErrorKind::NoMachine(w.get(1))))?;
                let p = def.find_param(param).ok_or(err(TraceErrorKind::NoParam(param)))?;
                let kind = def.param(p).map(|i| i.kind).unwrap_or_default();
                let wrong = err(TraceErrorKind::WrongKind { param, kind });
                let r: Result<(), MachineError> = match (w.get(0), kind) {
                    ("trigger", _) => sm.set_trigger(p),
                    (_, ParamKind::Bool) => match w.get(3) {
                        "true" => sm.set_bool(p, true),
                        "false" => sm.set_bool(p, false),
                        _ => return Err(wrong),
                    },
                    (_, ParamKind::Float) => sm.set_float(p, num(w.get(3))?),
                    (_, ParamKind::Trigger) => return Err(wrong),
                };
                r.map_err(|_| wrong)?;
            }
            "travel" => {
                if n != 3 {
                    return Err(usage("travel MACHINE STATE"));
                }
                let m = self.machine(w.get(1)).map_err(err)?;
                let state = w.get(2);
                let (sm, def) = self.scene.machine_parts(m).ok_or(err(TraceErrorKind::NoMachine(w.get(1))))?;
                let s = def.find_state(state).ok_or(err(TraceErrorKind::NoState(state)))?;
                sm.travel(s).map_err(|_| err(TraceErrorKind::NoState(state)))?;
            }
            "sprite" => {
                if n != 3 {
                    return Err(usage("sprite NODE ANIMATION"));
                }
                let name = w.get(1);
                let node = self.scene.blob().find_node(name).ok_or(err(TraceErrorKind::NoSprite(name)))?;
                let slot = self.scene.sprite_mut(node).ok_or(err(TraceErrorKind::NoSprite(name)))?;
                let anim = w.get(2);
                slot.player
                    .play_named(&slot.animations, anim, true)
                    .map_err(|_| err(TraceErrorKind::NoAnimation(anim)))?;
            }
            other => return Err(err(TraceErrorKind::UnknownCommand(other))),
        }
        // A control command: a step without writes.
        self.begin(&w, out).map_err(|_| err(TraceErrorKind::Write))?;
        self.finish(&mut q, out).map_err(err)
    }

    /// Starts a step's object, up to the opening of `writes`.
    fn begin(&mut self, w: &Words<'_>, out: &mut dyn Write) -> fmt::Result {
        self.step = self.step.saturating_add(1);
        write!(out, "{{\"step\":{},\"op\":\"", self.step)?;
        for i in 0..w.len.min(8) {
            if i > 0 {
                out.write_char(' ')?;
            }
            json_chars(out, w.get(i))?;
        }
        out.write_str("\",\"time\":")?;
        json_num(out, self.time)?;
        out.write_str(",\"writes\":[")
    }

    /// Closes `writes`, writes the events and ends the line.
    fn finish<'s>(
        &mut self,
        q: &mut EventQueue<MAX_EVENTS_PER_STEP>,
        out: &mut dyn Write,
    ) -> Result<(), TraceErrorKind<'s>> {
        if q.dropped() > 0 {
            return Err(TraceErrorKind::TooManyEvents);
        }
        let io = |_| TraceErrorKind::Write;
        out.write_str("],\"events\":[").map_err(io)?;
        let mut first = true;
        while let Some(e) = q.pop() {
            if !first {
                out.write_char(',').map_err(io)?;
            }
            first = false;
            write_event(out, self.scene, e).map_err(io)?;
        }
        out.write_str("]}\n").map_err(io)
    }
}

/// Runs every line of `script` against `scene`, writing one JSON line per step to `out`. Returns
/// the number of steps, or the first line's error (the steps before it are written). A line whose
/// error is found before its step begins writes nothing; one found once the step's writes are
/// streamed ([`TraceErrorKind::TooManyEvents`], [`TraceErrorKind::Write`]) leaves that step's line
/// unfinished, without its newline: a caller that keeps the output drops what follows the last
/// newline (`ossicle trace` does).
///
/// ```
/// // See docs/trace.md and `ossicle trace` for a full run; the script words:
/// use ossicle::scene::trace::TraceErrorKind;
/// assert_eq!(format!("{:?}", TraceErrorKind::Usage("update DT [N]")), "Usage(\"update DT [N]\")");
/// ```
pub fn run<'s, S: Scalar, const N: usize, const C: usize, const P: usize, const M: usize>(
    scene: &mut Scene<'_, S, N, C, P, M>,
    script: &'s str,
    out: &mut dyn Write,
) -> Result<u32, TraceError<'s>> {
    let mut tracer = Tracer::new(scene);
    for (i, line) in Lines(script).enumerate() {
        tracer.line(line, i.saturating_add(1), out)?;
    }
    Ok(tracer.step)
}

/// The lines of a script, as `str::lines` gives them (split at `\n`, a `\r` before it dropped, no
/// empty line after a final `\n`), without its panicking paths.
struct Lines<'s>(&'s str);

impl<'s> Iterator for Lines<'s> {
    type Item = &'s str;

    fn next(&mut self) -> Option<&'s str> {
        if self.0.is_empty() {
            return None;
        }
        let text = self.0;
        let (line, rest, newline) = match text.as_bytes().iter().position(|&b| b == b'\n') {
            // `\n` is ASCII, so both ends are character boundaries.
            Some(end) => (text.get(..end).unwrap_or(""), text.get(end.saturating_add(1)..).unwrap_or(""), true),
            None => (text, "", false),
        };
        self.0 = rest;
        Some(if newline { line.strip_suffix('\r').unwrap_or(line) } else { line })
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::Lines;

    #[test]
    fn lines_are_str_lines() {
        for text in
            ["", "\n", "a", "a\n", "a\n\n", "a\r\nb", "a\r\nb\r\n", "a\rb\r", "\r\n\r\n", "é\nü\r\n€", " x \n\n y"]
        {
            assert_eq!(Lines(text).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>(), "{text:?}");
        }
    }
}
