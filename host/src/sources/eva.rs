//! EVA text (`EVA 1`, EVEngine's compact skeleton + keyframe export): one skeleton with its bind
//! pose and one skeletal clip.
//!
//! # Format
//!
//! UTF-8 text (a leading byte order mark is skipped), one item per line, fields separated by ASCII
//! white space (spaces, tabs; `\r\n` line ends are fine). Blank lines are ignored anywhere. Every
//! line has exactly the fields listed; a line with fewer or more is refused. In order:
//!
//! ```text
//! EVA 1                                  the header; any other version is refused
//! skeleton N                             bone count, 1 ..= 65,536
//! bone INDEX PARENT NAME                 N of these, INDEX = 0, 1, 2, ... in order;
//! bind INDEX tx ty tz qx qy qz qw sx sy sz   one per bone, after that bone's `bone` line
//! clip NAME                              the clip's name
//! duration S                             seconds, finite and > 0
//! loop 0|1                               exactly `0` or `1`
//! rate HZ                                the sample rate the exporter states, finite and > 0
//! track BONE NP NR NS                    per animated bone (zero or more tracks), then
//! p t x y z                              NP translation keys,
//! r t x y z w                            NR rotation keys (quaternion x, y, z, w),
//! s t x y z                              NS scale keys
//! end                                    nothing but blank lines may follow
//! ```
//!
//! - `bone` and `bind` lines may interleave (the exporter writes each `bind` right after its
//!   `bone`), but a `bind` must come after its bone's `bone` line, and every bone needs exactly one.
//! - `PARENT` is `-1` for a root (several roots are allowed) or the index of an *earlier* bone:
//!   parents come before their children. This order also rules out cycles (a bone cannot be its own
//!   ancestor), so a parent that is the bone itself or a later bone is refused rather than sorted.
//! - `NAME` (bones and the clip) is one word (no white space); bone names are unique.
//! - `track BONE` names the bone by index; each bone has at most one track. `NP`, `NR`, `NS` are
//!   0 ..= 1,000,000 each (a channel with no keys is not animated) and the key lines must follow
//!   in that order and number. Tracks are stored by bone name, in file order.
//! - Key times are in seconds, inside `[0, duration]` and strictly increasing within each channel.
//! - Numbers are decimal (`1`, `-0.5`, `2.07608e-05`); `inf`, `nan` and values that overflow to
//!   infinity are refused as non-finite.
//! - Quaternions (bind rotations and `r` keys) must be within [`UNIT_QUATERNION_TOLERANCE`] of
//!   unit length; a zero quaternion is refused. They are stored **as written, not renormalised**,
//!   so that a lossless blob reproduces the source keys exactly (the kernel normalises when it
//!   interpolates). The Mixamo fixtures are within 7.1e-7 of unit length.
//!
//! Counts are checked against the limits ([`MAX_BONES`], [`MAX_KEYS_PER_CHANNEL`]) and against the
//! number of lines left in the file *before* anything is reserved, so a hostile count cannot
//! exhaust memory; the file size itself is limited by [`super::read_limited`].
//!
//! Every error names the file and `line N` (for a file that ends too early, the line after the
//! last) and says what is wrong.
//!
//! # Result
//!
//! One [`SkeletonIr`] named after the file stem (`Idle.eva` gives `Idle`) and one [`SkelClipIr`]
//! named by `clip NAME`, with `skeleton: Some(<that skeleton's name>)`.
//!
//! # Real-data quirks (the Mixamo exports in `../shared/fixtures/eva`)
//!
//! - The headers say `rate 15` while the keys are 1/30 s apart (Idle: 251 keys over 8.33333 s).
//!   The rate is stored as given in [`SkelClipIr::sample_rate`] and is **not** used to time keys:
//!   every key keeps its own time from the file.
//! - SlowRun's `mixamorig:LeftForeArm` (track 12, 30 keys per channel) and
//!   `mixamorig:RightForeArm` (track 36, 29 keys per channel) carry extra keys 3.33 ms apart near
//!   the end (0.703333, 0.706667, ... up to 0.723333 and 0.72 respectively, between the regular
//!   keys at 0.7 and 0.733333), where every other track has 23 keys 1/30 s apart. They are
//!   strictly increasing and are kept as they are, not merged or resampled.
//! - Idle and Jumping also have tracks with a single key per channel (unanimated fingers): kept.

use crate::error::HostError;
use crate::ir::{BoneIr, BoneTrackIr, ChannelKey, Origin, Project, SkelClipIr, SkeletonIr, Transform3};
use std::collections::HashMap;
use std::path::Path;

/// The most bones a skeleton may declare.
pub const MAX_BONES: usize = 65_536;

/// The most keys one channel (translation, rotation or scale of one track) may declare.
pub const MAX_KEYS_PER_CHANNEL: usize = 1_000_000;

/// How far a quaternion's length may be from 1 (it is stored as written, not renormalised).
pub const UNIT_QUATERNION_TOLERANCE: f64 = 1e-3;

/// Parses an EVA text file into a project holding one skeleton and one skeletal clip.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Project, HostError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(HostError::at(path, format!("line {line}"), "not UTF-8 text"));
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = Reader::new(path, text);

    // Header.
    let line = r.next("the header `EVA 1`")?;
    let [kw, version] = line.fields(&r, "the header `EVA 1`")?;
    if kw != "EVA" {
        return Err(
            r.err(line.no, format!("not an EVA file: expected the header `EVA 1`, found `{}`", line.text.trim()))
        );
    }
    if version != "1" {
        return Err(r.err(line.no, format!("unsupported EVA version `{version}` (this reader knows version 1)")));
    }

    // Skeleton.
    let line = r.next("`skeleton N`")?;
    r.expect_keyword(&line, "skeleton", "`skeleton N`")?;
    let skeleton_line = line.no;
    let [_, n] = line.fields(&r, "`skeleton N`")?;
    let count = r.count(line.no, n, MAX_BONES, "bone count")?;
    if count == 0 {
        return Err(r.err(line.no, "the skeleton has no bones (`skeleton 0`)"));
    }
    if count.saturating_mul(2) > r.remaining {
        return Err(r.err(
            line.no,
            format!(
                "truncated: `skeleton {count}` needs {} `bone` and `bind` lines, but only {} lines follow",
                count * 2,
                r.remaining
            ),
        ));
    }
    let bones = read_bones(&mut r, count)?;
    let skeleton_name =
        path.file_stem().map(|s| s.to_string_lossy().into_owned()).filter(|s| !s.is_empty()).unwrap_or("eva".into());

    // Clip header.
    let line = r.next("`clip NAME`")?;
    r.expect_keyword(&line, "clip", "`clip NAME`")?;
    let clip_line = line.no;
    let [_, clip_name] = line.fields(&r, "`clip NAME` (the name is one word)")?;
    let line = r.next("`duration S`")?;
    r.expect_keyword(&line, "duration", "`duration S`")?;
    let [_, d] = line.fields(&r, "`duration S`")?;
    let duration = r.number(line.no, d, || "the duration".into())?;
    if duration <= 0.0 {
        return Err(r.err(line.no, format!("the duration `{d}` is not positive")));
    }
    let line = r.next("`loop 0|1`")?;
    r.expect_keyword(&line, "loop", "`loop 0|1`")?;
    let [_, l] = line.fields(&r, "`loop 0|1`")?;
    let looping = match l {
        "0" => false,
        "1" => true,
        other => return Err(r.err(line.no, format!("the loop flag is `{other}`, expected 0 or 1"))),
    };
    let line = r.next("`rate HZ`")?;
    r.expect_keyword(&line, "rate", "`rate HZ`")?;
    let [_, hz] = line.fields(&r, "`rate HZ`")?;
    let sample_rate = r.number(line.no, hz, || "the sample rate".into())?;
    if sample_rate <= 0.0 {
        return Err(r.err(line.no, format!("the sample rate `{hz}` is not positive")));
    }

    // Tracks, then `end`.
    let mut tracks = Vec::new();
    let mut tracked: HashMap<usize, usize> = HashMap::new();
    loop {
        let line = r.next("`track BONE NP NR NS` or `end`")?;
        match line.keyword() {
            "end" => {
                line.fields::<1>(&r, "`end`")?;
                break;
            }
            "track" => {}
            other => {
                return Err(r.err(line.no, format!("expected `track BONE NP NR NS` or `end`, found `{other}`")));
            }
        }
        let [_, b, np, nr, ns] = line.fields(&r, "`track BONE NP NR NS`")?;
        let bone = r.index(line.no, b, "the track's bone index")?;
        let Some(bone_ir) = bones.get(bone) else {
            return Err(r.err(
                line.no,
                format!("track for bone {b}, which does not exist (the skeleton has {count} bones, 0..={})", count - 1),
            ));
        };
        if let Some(first) = tracked.insert(bone, line.no) {
            return Err(r.err(
                line.no,
                format!("bone {bone} ({}) is tracked twice (its first track is at line {first})", bone_ir.name),
            ));
        }
        let np = r.count(line.no, np, MAX_KEYS_PER_CHANNEL, "translation key count")?;
        let nr = r.count(line.no, nr, MAX_KEYS_PER_CHANNEL, "rotation key count")?;
        let ns = r.count(line.no, ns, MAX_KEYS_PER_CHANNEL, "scale key count")?;
        let needed = np + nr + ns;
        if needed > r.remaining {
            return Err(r.err(
                line.no,
                format!(
                    "truncated: the track declares {np} + {nr} + {ns} = {needed} key lines, but only {} lines follow",
                    r.remaining
                ),
            ));
        }
        let who = format!("bone {bone} ({})", bone_ir.name);
        let translation = read_keys::<3>(&mut r, 'p', "translation", np, duration, &who)?;
        let rotation = read_keys::<4>(&mut r, 'r', "rotation", nr, duration, &who)?;
        let scale = read_keys::<3>(&mut r, 's', "scale", ns, duration, &who)?;
        tracks.push(BoneTrackIr::linear(bone_ir.name.clone(), translation, rotation, scale));
    }
    if let Some(extra) = r.next_line() {
        return Err(r.err(extra.no, format!("text after `end`: `{}`", extra.text.trim())));
    }

    let skeleton = SkeletonIr {
        name: skeleton_name.clone(),
        bones,
        origin: Origin { file: path.to_path_buf(), place: format!("line {skeleton_line}") },
    };
    let clip = SkelClipIr {
        name: clip_name.to_string(),
        duration,
        sample_rate,
        looping,
        tracks,
        skeleton: Some(skeleton_name),
        origin: Origin { file: path.to_path_buf(), place: format!("line {clip_line}") },
        events: Vec::new(),
    };
    Ok(Project { skeletons: vec![skeleton], skel_clips: vec![clip], ..Project::default() })
}

/// Reads the `bone` and `bind` lines of a skeleton of `count` bones (up to the first other line).
fn read_bones(r: &mut Reader<'_>, count: usize) -> Result<Vec<BoneIr>, HostError> {
    let mut bones: Vec<BoneIr> = Vec::with_capacity(count);
    let mut bone_lines: Vec<usize> = Vec::with_capacity(count);
    let mut bind_lines: Vec<Option<usize>> = Vec::with_capacity(count);
    let mut names: HashMap<String, usize> = HashMap::with_capacity(count);
    while let Some(kw) = r.peek_keyword() {
        if kw != "bone" && kw != "bind" {
            break;
        }
        let Some(line) = r.next_line() else { break };
        if kw == "bone" {
            let [_, i, p, name] = line.fields(r, "`bone INDEX PARENT NAME` (the name is one word)")?;
            let index = r.index(line.no, i, "the bone index")?;
            if index >= count {
                return Err(r.err(
                    line.no,
                    format!("bone {i} is out of range: `skeleton {count}` declares bones 0..={}", count - 1),
                ));
            }
            if index < bones.len() {
                return Err(
                    r.err(line.no, format!("bone {index} is declared twice (first at line {})", bone_lines[index]))
                );
            }
            if index > bones.len() {
                return Err(r.err(
                    line.no,
                    format!(
                        "bone {index} is out of order: expected bone {} (bones are numbered 0, 1, 2, ...)",
                        bones.len()
                    ),
                ));
            }
            let parent: i64 = p.parse().map_err(|_| r.err(line.no, format!("the parent `{p}` is not an integer")))?;
            let parent = match parent {
                -1 => None,
                q if q >= 0 && (q as u64) < index as u64 => Some(q as usize),
                q if q >= 0 && q as u64 == index as u64 => {
                    return Err(r.err(line.no, format!("bone {index} is its own parent (a cycle)")));
                }
                q if q >= 0 && (q as u64) < count as u64 => {
                    return Err(r.err(
                        line.no,
                        format!(
                            "the parent {q} of bone {index} comes after it: parents must come before their \
                             children (this also rules out cycles)"
                        ),
                    ));
                }
                _ => {
                    return Err(r.err(
                        line.no,
                        format!("the parent `{p}` of bone {index} is not a bone (-1 marks a root; the skeleton has {count} bones)"),
                    ));
                }
            };
            if let Some(first) = names.insert(name.to_string(), index) {
                return Err(r.err(line.no, format!("the bone name {name:?} is used twice (first by bone {first})")));
            }
            bones.push(BoneIr { name: name.to_string(), parent, bind: Transform3::IDENTITY });
            bone_lines.push(line.no);
            bind_lines.push(None);
        } else {
            let [_, i, tx, ty, tz, qx, qy, qz, qw, sx, sy, sz] =
                line.fields(r, "`bind INDEX tx ty tz qx qy qz qw sx sy sz`")?;
            let index = r.index(line.no, i, "the bind's bone index")?;
            if index >= count {
                return Err(r.err(
                    line.no,
                    format!(
                        "bind for bone {i}, which does not exist (`skeleton {count}` declares bones 0..={})",
                        count - 1
                    ),
                ));
            }
            if index >= bones.len() {
                return Err(r.err(line.no, format!("bind for bone {index} before its `bone {index}` line")));
            }
            if let Some(first) = bind_lines[index] {
                return Err(r.err(line.no, format!("bone {index} has a second bind (the first is at line {first})")));
            }
            let who = format!("bind of bone {index}");
            let translation = r.numbers(line.no, [tx, ty, tz], &who)?;
            let rotation = r.numbers(line.no, [qx, qy, qz, qw], &who)?;
            r.check_quaternion(line.no, rotation, || who.clone())?;
            let scale = r.numbers(line.no, [sx, sy, sz], &who)?;
            bones[index].bind = Transform3 { translation, rotation, scale };
            bind_lines[index] = Some(line.no);
        }
    }
    let here = r.peek_line_no();
    if bones.len() < count {
        return Err(r.err(
            here,
            format!("wrong bone count: `skeleton {count}` declares {count} bones, but only {} were found", bones.len()),
        ));
    }
    if let Some(missing) = bind_lines.iter().position(Option::is_none) {
        return Err(r.err(here, format!("bone {missing} ({}) has no `bind` line", bones[missing].name)));
    }
    Ok(bones)
}

/// Reads `count` key lines `LETTER t v0 .. v{N-1}` of one channel.
fn read_keys<const N: usize>(
    r: &mut Reader<'_>,
    letter: char,
    channel: &str,
    count: usize,
    duration: f64,
    who: &str,
) -> Result<Vec<ChannelKey<N>>, HostError> {
    let mut keys: Vec<ChannelKey<N>> = Vec::with_capacity(count);
    let expected = format!("{channel} key `{letter} t{}`", [" x", " y", " z", " w"][..N].concat());
    for k in 0..count {
        let what = || format!("{expected} {} of {count} of {who}", k + 1);
        let Some(line) = r.next_line() else {
            return Err(r.err(r.end_line, format!("truncated: the file ends where {} was expected", what())));
        };
        let kw = line.keyword();
        if kw.len() != 1 || !kw.starts_with(letter) {
            return Err(r.err(line.no, format!("expected {}, found `{kw}`", what())));
        }
        let mut fields = [""; 6];
        line.fields_into(r, &mut fields[..N + 2], &what())?;
        let t = r.number(line.no, fields[1], || "the key time".into())?;
        if !(0.0..=duration).contains(&t) {
            return Err(r.err(line.no, format!("the key time {} is outside the clip [0, {duration}]", fields[1])));
        }
        if let Some(prev) = keys.last() {
            if t <= prev.time {
                return Err(r.err(
                    line.no,
                    format!(
                        "key times must strictly increase: {} does not come after the previous {channel} key's {}",
                        fields[1], prev.time
                    ),
                ));
            }
        }
        let mut value = [0.0; N];
        for (v, text) in value.iter_mut().zip(&fields[2..N + 2]) {
            *v = r.number(line.no, text, || format!("a {channel} value of {who}"))?;
        }
        if let [x, y, z, w] = value[..] {
            r.check_quaternion(line.no, [x, y, z, w], || format!("rotation key of {who}"))?;
        }
        keys.push(ChannelKey { time: t, value });
    }
    Ok(keys)
}

/// One non-blank line and its 1-based number.
#[derive(Clone, Copy)]
struct Line<'a> {
    no: usize,
    text: &'a str,
}

impl<'a> Line<'a> {
    /// The first field.
    fn keyword(&self) -> &'a str {
        self.text.split_ascii_whitespace().next().unwrap_or("")
    }

    /// Exactly `K` fields (the keyword included), or an error that says what the line should be.
    fn fields<const K: usize>(&self, r: &Reader<'_>, what: &str) -> Result<[&'a str; K], HostError> {
        let mut out = [""; K];
        self.fields_into(r, &mut out, what)?;
        Ok(out)
    }

    /// Fills `out` with exactly `out.len()` fields (never collects more than that plus one).
    fn fields_into(&self, r: &Reader<'_>, out: &mut [&'a str], what: &str) -> Result<(), HostError> {
        let len = out.len();
        let mut it = self.text.split_ascii_whitespace();
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = it
                .next()
                .ok_or_else(|| r.err(self.no, format!("too few fields: expected {what} ({len} fields), found {i}")))?;
        }
        if it.next().is_some() {
            let found = out.len() + 1 + it.count();
            return Err(
                r.err(self.no, format!("too many fields: expected {what} ({} fields), found {found}", out.len()))
            );
        }
        Ok(())
    }
}

/// Walks the non-blank lines of the text, knowing how many are left.
struct Reader<'a> {
    path: &'a Path,
    rest: &'a str,
    line_no: usize,
    peeked: Option<Line<'a>>,
    /// Non-blank lines not yet returned (the peeked one included).
    remaining: usize,
    /// The number of the line after the last one (where an early end of file is reported).
    end_line: usize,
}

fn is_blank(line: &str) -> bool {
    line.split_ascii_whitespace().next().is_none()
}

impl<'a> Reader<'a> {
    fn new(path: &'a Path, text: &'a str) -> Self {
        let mut lines = 0;
        let mut remaining = 0;
        for l in text.lines() {
            lines += 1;
            if !is_blank(l) {
                remaining += 1;
            }
        }
        Self { path, rest: text, line_no: 0, peeked: None, remaining, end_line: lines + 1 }
    }

    fn err(&self, line: usize, reason: impl Into<String>) -> HostError {
        HostError::at(self.path, format!("line {line}"), reason)
    }

    fn raw_next(&mut self) -> Option<Line<'a>> {
        while !self.rest.is_empty() {
            let (line, rest) = match self.rest.find('\n') {
                Some(i) => (&self.rest[..i], &self.rest[i + 1..]),
                None => (self.rest, ""),
            };
            self.rest = rest;
            self.line_no += 1;
            if !is_blank(line) {
                return Some(Line { no: self.line_no, text: line.strip_suffix('\r').unwrap_or(line) });
            }
        }
        None
    }

    /// The next non-blank line, if any.
    fn next_line(&mut self) -> Option<Line<'a>> {
        let line = self.peeked.take().or_else(|| self.raw_next())?;
        self.remaining = self.remaining.saturating_sub(1);
        Some(line)
    }

    /// The next non-blank line, or a "file ends" error saying what was `expected`.
    fn next(&mut self, expected: &str) -> Result<Line<'a>, HostError> {
        self.next_line()
            .ok_or_else(|| self.err(self.end_line, format!("truncated: the file ends where {expected} was expected")))
    }

    fn peek(&mut self) -> Option<Line<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.raw_next();
        }
        self.peeked
    }

    fn peek_keyword(&mut self) -> Option<&'a str> {
        self.peek().map(|l| l.keyword())
    }

    /// The number of the next non-blank line, or of the line after the last.
    fn peek_line_no(&mut self) -> usize {
        self.peek().map_or(self.end_line, |l| l.no)
    }

    fn expect_keyword(&self, line: &Line<'a>, keyword: &str, what: &str) -> Result<(), HostError> {
        let kw = line.keyword();
        if kw == keyword {
            Ok(())
        } else {
            Err(self.err(line.no, format!("expected {what}, found `{kw}`")))
        }
    }

    /// A count of at most `limit`, checked before anything is reserved for it.
    fn count(&self, line: usize, text: &str, limit: usize, what: &str) -> Result<usize, HostError> {
        let n: u64 = text.parse().map_err(|_| self.err(line, format!("the {what} `{text}` is not a whole number")))?;
        if n > limit as u64 {
            return Err(self.err(line, format!("the {what} {n} is over the limit of {limit}")));
        }
        Ok(n as usize)
    }

    /// A non-negative index (range checks are the caller's).
    fn index(&self, line: usize, text: &str, what: &str) -> Result<usize, HostError> {
        let n: u64 = text.parse().map_err(|_| self.err(line, format!("{what} `{text}` is not a whole number")))?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// A finite decimal number.
    fn number(&self, line: usize, text: &str, what: impl Fn() -> String) -> Result<f64, HostError> {
        let v: f64 =
            text.parse().map_err(|_| self.err(line, format!("`{text}` is not a number (expected {})", what())))?;
        if !v.is_finite() {
            return Err(self.err(line, format!("`{text}` is not a finite number ({})", what())));
        }
        Ok(v)
    }

    fn numbers<const N: usize>(&self, line: usize, texts: [&str; N], who: &str) -> Result<[f64; N], HostError> {
        let mut out = [0.0; N];
        for (v, t) in out.iter_mut().zip(texts) {
            *v = self.number(line, t, || format!("a value of the {who}"))?;
        }
        Ok(out)
    }

    /// Refuses a zero quaternion or one further than [`UNIT_QUATERNION_TOLERANCE`] from unit length.
    fn check_quaternion(&self, line: usize, q: [f64; 4], who: impl Fn() -> String) -> Result<(), HostError> {
        let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        if len == 0.0 {
            return Err(self.err(line, format!("the {} is a zero quaternion (not a rotation)", who())));
        }
        if !len.is_finite() || (len - 1.0).abs() > UNIT_QUATERNION_TOLERANCE {
            return Err(self.err(
                line,
                format!(
                    "the {} is not a unit quaternion: its length is {len}, more than {UNIT_QUATERNION_TOLERANCE} from 1",
                    who()
                ),
            ));
        }
        Ok(())
    }
}
