//! Sprite animations -> animation records and words (see `ossicle_format::sprite`).

use crate::error::HostError;
use crate::ir::{PlayMode, Sprite, SpriteAnimation, SpriteFrames};
use ossicle_format::sprite::{
    AnimationRecord, ANIM_FLAG_DURATIONS, ANIM_FLAG_EVENTS, ANIM_FLAG_LIST, ANIM_FLAG_LOOP, MAX_FRAME_EVENTS,
    MAX_SPRITE_ANIMATIONS, MAX_SPRITE_FRAMES,
};
use ossicle_format::{BlobWriter, ScalarEncoding};

/// The source frames an animation plays, in order.
pub fn played_frames(a: &SpriteAnimation) -> Vec<u32> {
    match &a.frames {
        SpriteFrames::Range { start, end } if end >= start => (*start..=*end).collect(),
        SpriteFrames::Range { start, end } => (*end..=*start).rev().collect(),
        SpriteFrames::List(l) => l.clone(),
    }
}

fn err(a: &SpriteAnimation, reason: String) -> HostError {
    HostError::at(&a.origin.file, &a.origin.place, format!("animation {:?}: {reason}", a.name))
}

fn time_word(a: &SpriteAnimation, encoding: ScalarEncoding, what: &str, v: f64) -> Result<u32, HostError> {
    let word = encoding
        .encode_f64(v)
        .ok_or_else(|| err(a, format!("{what} {v} does not fit the {} encoding", encoding.name())))?;
    // A stored time of 0 holds the frame: a positive time must not round to it.
    if v > 0.0 && encoding.decode_f64(word) == 0.0 {
        return Err(err(
            a,
            format!(
                "{what} {v:e} s is too short for the {} encoding: it would round to 0, which holds the frame",
                encoding.name()
            ),
        ));
    }
    Ok(word)
}

/// Encodes `sprite`'s animations: `(records, words)`. Checks every frame index, the per-frame list
/// lengths, event counts and times; names and events are interned in `w`.
pub fn encode_animations(
    sprite: &Sprite,
    w: &mut BlobWriter,
    encoding: ScalarEncoding,
) -> Result<(Vec<u8>, Vec<u8>), HostError> {
    if sprite.animations.len() as u64 > u64::from(MAX_SPRITE_ANIMATIONS) {
        return Err(HostError::at(
            &sprite.origin.file,
            &sprite.origin.place,
            format!(
                "{} animations, more than the blob format allows ({MAX_SPRITE_ANIMATIONS})",
                sprite.animations.len()
            ),
        ));
    }
    let mut records = Vec::with_capacity(sprite.animations.len() * 36);
    let mut words: Vec<u32> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for a in &sprite.animations {
        if !seen.insert(a.name.as_str()) {
            return Err(err(a, "a second animation has this name in the same sprite".into()));
        }
        let frames = played_frames(a);
        let n = frames.len();
        if n == 0 {
            return Err(err(a, "plays no frames".into()));
        }
        if n as u64 > u64::from(MAX_SPRITE_FRAMES) {
            return Err(err(a, format!("plays {n} frames, more than the blob format allows ({MAX_SPRITE_FRAMES})")));
        }
        for (k, &f) in frames.iter().enumerate() {
            if f as usize >= sprite.frames.len() {
                return Err(err(
                    a,
                    format!(
                        "frame {k} is sprite frame {f}, which does not exist (the sprite has {} frames)",
                        sprite.frames.len()
                    ),
                ));
            }
        }
        let mut flags = match a.mode {
            PlayMode::Forward => 0,
            PlayMode::Reverse => 1,
            PlayMode::PingPong => 2,
            PlayMode::PingPongReverse => 3,
        };
        if a.looping {
            flags |= ANIM_FLAG_LOOP;
        }
        if !a.fps.is_finite() {
            return Err(err(a, format!("fps {} is not a finite number", a.fps)));
        }
        let mut rec = AnimationRecord {
            name: w.intern(&a.name),
            frame_count: n as u32,
            // Seconds per frame, rounded once here, so the kernel never divides.
            frame_time: time_word(a, encoding, "frame time (1 / fps)", if a.fps > 0.0 { 1.0 / a.fps } else { 0.0 })?,
            repeat: a.repeat,
            ..AnimationRecord::default()
        };
        match &a.frames {
            SpriteFrames::Range { start, end } => {
                rec.start = *start;
                rec.end = *end;
            }
            SpriteFrames::List(l) => {
                flags |= ANIM_FLAG_LIST;
                rec.start = words.len() as u32;
                words.extend(l);
            }
        }
        // Durations: the animation's own, else the frames' own (Aseprite), else fps only.
        let durations: Option<Vec<f64>> = match &a.durations {
            Some(d) if d.len() != n => {
                return Err(err(a, format!("has {} durations for {n} frames", d.len())));
            }
            Some(d) => Some(d.clone()),
            None if frames.iter().any(|&f| sprite.frames[f as usize].duration.is_some()) => {
                Some(frames.iter().map(|&f| sprite.frames[f as usize].duration.unwrap_or(0.0)).collect())
            }
            None => None,
        };
        if let Some(d) = durations {
            flags |= ANIM_FLAG_DURATIONS;
            rec.durations = words.len() as u32;
            for (k, &s) in d.iter().enumerate() {
                if !s.is_finite() || s < 0.0 {
                    return Err(err(a, format!("frame {k} has duration {s}, not a finite number of seconds ≥ 0")));
                }
                words.push(time_word(a, encoding, "duration", s)?);
            }
        }
        let events: Vec<Vec<String>> = match &a.events {
            Some(e) if e.len() != n => return Err(err(a, format!("has event lists for {} frames, not {n}", e.len()))),
            Some(e) => e.clone(),
            None => frames.iter().map(|&f| sprite.frames[f as usize].events.clone()).collect(),
        };
        if events.iter().any(|e| !e.is_empty()) {
            flags |= ANIM_FLAG_EVENTS;
            let mut ids = Vec::new();
            for (k, names) in events.iter().enumerate() {
                if names.len() as u64 > u64::from(MAX_FRAME_EVENTS) {
                    return Err(err(a, format!("frame {k} has {} events, more than {MAX_FRAME_EVENTS}", names.len())));
                }
                ids.push(names.iter().map(|s| w.intern(s)).collect::<Vec<u32>>());
            }
            rec.events = words.len() as u32;
            let mut first = rec.events as usize + 2 * n;
            let mut pairs = Vec::with_capacity(2 * n);
            for list in &ids {
                pairs.push(first as u32);
                pairs.push(list.len() as u32);
                first += list.len();
            }
            words.extend(pairs);
            for list in ids {
                words.extend(list);
            }
        }
        rec.flags = flags;
        records.extend_from_slice(&rec.to_bytes());
    }
    let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok((records, bytes))
}
