//! Skeletal sections of a blob back to the host IR, read through the kernel's own readers
//! ([`BlobSkeleton`], [`BlobSkelClip`] and their traits), and `ossicle export-evac`.
//!
//! What comes back is what the device reads: in a lossless f32 blob exactly the source's keys
//! (as f32), in a Q16.16 blob the keys rounded to 2^-16, in a quantised blob the dequantised
//! values.

use crate::error::HostError;
use crate::ir::{
    BoneIr, BoneTrackIr, ChannelInterp, ChannelKey, KeyTangents, Origin, SkelClipIr, SkelEventIr, SkeletonIr,
    Transform3,
};
use crate::sources::evac;
use ossicle::asset::Asset;
use ossicle::math::Transform3 as KTransform3;
use ossicle::skeleton::{
    BlobSkelClip, BlobSkeleton, ChannelKind, Dimension, Interpolation, Scalars, SkelClipSource, SkeletonSource,
};
use ossicle::{Scalar, Q16};
use ossicle_format::ScalarEncoding;
use std::path::Path;

/// A 3D blob skeleton as [`SkeletonIr`] (origin: the blob). A 2D skeleton is refused (the IR's
/// skeletons are 3D).
pub fn decode_skeleton(blob: &Path, sk: &BlobSkeleton<'_>) -> Result<SkeletonIr, HostError> {
    if sk.dimension() != Dimension::D3 {
        return Err(HostError::file(blob, format!("skeleton {:?} is 2D; the host IR holds 3D skeletons", sk.name())));
    }
    Ok(match sk.encoding() {
        ScalarEncoding::F32 => skeleton_as::<f32>(blob, sk),
        ScalarEncoding::Q16_16 => skeleton_as::<Q16>(blob, sk),
    })
}

fn skeleton_as<S: Scalar>(blob: &Path, sk: &BlobSkeleton<'_>) -> SkeletonIr {
    let n = SkeletonSource::<S, KTransform3<S>>::bone_count(sk);
    let bones = (0..n)
        .map(|i| {
            let r = SkeletonSource::<S, KTransform3<S>>::rest(sk, i);
            BoneIr {
                name: sk.bone_name(i).unwrap_or("").to_string(),
                parent: SkeletonSource::<S, KTransform3<S>>::parent(sk, i),
                bind: Transform3 {
                    translation: [r.translation.x.to_f64(), r.translation.y.to_f64(), r.translation.z.to_f64()],
                    rotation: [
                        r.rotation.x.to_f64(),
                        r.rotation.y.to_f64(),
                        r.rotation.z.to_f64(),
                        r.rotation.w.to_f64(),
                    ],
                    scale: [r.scale.x.to_f64(), r.scale.y.to_f64(), r.scale.z.to_f64()],
                },
            }
        })
        .collect();
    SkeletonIr {
        name: sk.name().to_string(),
        bones,
        origin: Origin { file: blob.to_path_buf(), place: format!("skeleton {}", sk.name()) },
    }
}

/// A 3D blob clip as [`SkelClipIr`]: one track per bone with at least one animated channel, in
/// skeleton order, named by the skeleton's bone names; `skeleton` is its skeleton's name. A 2D
/// clip is refused.
pub fn decode_clip(blob: &Path, asset: &Asset<'_>, clip: &BlobSkelClip<'_>) -> Result<SkelClipIr, HostError> {
    if clip.dimension() != Dimension::D3 {
        return Err(HostError::file(
            blob,
            format!(
                "clip {:?} is 2D; EVAC and the host IR hold 3D tracks (translation, quaternion, scale)",
                clip.name()
            ),
        ));
    }
    let sk = asset
        .skeleton_of(clip)
        .ok_or_else(|| HostError::file(blob, format!("clip {:?}: its skeleton is missing", clip.name())))?;
    Ok(match clip.encoding() {
        ScalarEncoding::F32 => clip_as::<f32>(blob, &sk, clip),
        ScalarEncoding::Q16_16 => clip_as::<Q16>(blob, &sk, clip),
    })
}

/// One channel of bone `bone`: its keys, interpolation and (Hermite) tangents.
type Channel<const N: usize> = (Vec<ChannelKey<N>>, ChannelInterp, Vec<KeyTangents<N>>);

fn channel<S: Scalar, const N: usize>(clip: &BlobSkelClip<'_>, bone: usize, kind: ChannelKind) -> Channel<N> {
    let Some(ch) = SkelClipSource::<S>::channel(clip, bone, kind) else {
        return (Vec::new(), ChannelInterp::Linear, Vec::new());
    };
    let n = ch.times.len();
    let keys = (0..n)
        .map(|k| ChannelKey {
            time: ch.times.get(k).to_f64(),
            value: std::array::from_fn(|j| ch.values.get(k * N + j).to_f64()),
        })
        .collect();
    let interp = match ch.interpolation {
        Interpolation::Step => ChannelInterp::Step,
        Interpolation::Linear => ChannelInterp::Linear,
        Interpolation::Hermite => ChannelInterp::Hermite,
    };
    // Per key: N in-tangent components, then N out-tangent components.
    let tangents = if interp == ChannelInterp::Hermite {
        (0..n)
            .map(|k| KeyTangents {
                incoming: std::array::from_fn(|j| ch.tangents.get(2 * k * N + j).to_f64()),
                outgoing: std::array::from_fn(|j| ch.tangents.get((2 * k + 1) * N + j).to_f64()),
            })
            .collect()
    } else {
        Vec::new()
    };
    (keys, interp, tangents)
}

fn clip_as<S: Scalar>(blob: &Path, sk: &BlobSkeleton<'_>, clip: &BlobSkelClip<'_>) -> SkelClipIr {
    let tracks = (0..SkelClipSource::<S>::bone_count(clip))
        .map(|b| {
            let (translation, ti, translation_tangents) = channel::<S, 3>(clip, b, ChannelKind::Translation);
            let (rotation, ri, rotation_tangents) = channel::<S, 4>(clip, b, ChannelKind::Rotation);
            let (scale, si, scale_tangents) = channel::<S, 3>(clip, b, ChannelKind::Scale);
            BoneTrackIr {
                bone: sk.bone_name(b).unwrap_or("").to_string(),
                translation,
                rotation,
                scale,
                interpolation: [ti, ri, si],
                translation_tangents,
                rotation_tangents,
                scale_tangents,
            }
        })
        .filter(|t| !(t.translation.is_empty() && t.rotation.is_empty() && t.scale.is_empty()))
        .collect();
    let events = (0..SkelClipSource::<S>::event_count(clip))
        .filter_map(|i| {
            let e = SkelClipSource::<S>::event(clip, i)?;
            Some(SkelEventIr { time: e.time.to_f64(), name: clip.event_name(i).unwrap_or("").to_string() })
        })
        .collect();
    SkelClipIr {
        name: clip.name().to_string(),
        duration: SkelClipSource::<S>::duration(clip).to_f64(),
        sample_rate: clip.sample_rate::<S>().to_f64(),
        looping: SkelClipSource::<S>::looping(clip),
        tracks,
        events,
        skeleton: Some(sk.name().to_string()),
        origin: Origin { file: blob.to_path_buf(), place: format!("clip {}", clip.name()) },
    }
}

/// The names of a blob's skeletal clips, for messages.
fn clip_names(asset: &Asset<'_>) -> String {
    let names: Vec<&str> = asset.skel_clips().map(|c| c.name()).collect();
    if names.is_empty() {
        "the blob has no skeletal clips".into()
    } else {
        format!("its skeletal clips: {}", names.join(", "))
    }
}

/// `ossicle export-evac`: clip `clip` of the blob `bytes` (read from `blob`) as EVAC bytes,
/// renamed to `rename` when given. Errors: an unknown clip (listing the blob's clips), a 2D clip,
/// and whatever the EVAC writer refuses.
pub fn export_evac(blob: &Path, bytes: &[u8], clip: &str, rename: Option<&str>) -> Result<Vec<u8>, HostError> {
    let asset = crate::inspect::load(blob, bytes)?;
    let c = asset
        .skel_clip_named(clip)
        .ok_or_else(|| HostError::file(blob, format!("no skeletal clip called {clip:?}; {}", clip_names(&asset))))?;
    let mut ir = decode_clip(blob, &asset, &c)?;
    // EVAC holds linear keys and no events: refuse what it would lose.
    if let Some(t) = ir.tracks.iter().find(|t| !t.is_linear()) {
        let (kind, interp) = ["translation", "rotation", "scale"]
            .into_iter()
            .zip(t.interpolation)
            .find(|(_, i)| *i != ChannelInterp::Linear)
            .unwrap_or(("translation", ChannelInterp::Linear));
        return Err(HostError::file(
            blob,
            format!(
                "clip {clip:?} cannot be written as EVAC: bone {:?}'s {kind} keys are {} (EVAC holds linear keys only)",
                t.bone,
                interp.name()
            ),
        ));
    }
    if !ir.events.is_empty() {
        return Err(HostError::file(
            blob,
            format!("clip {clip:?} cannot be written as EVAC: it has {} events (EVAC holds none)", ir.events.len()),
        ));
    }
    if let Some(name) = rename {
        ir.name = name.to_string();
    }
    evac::write(&ir)
        .map_err(|e| HostError::file(blob, format!("clip {clip:?} cannot be written as EVAC: {}", e.reason())))
}
