//! Blobs with skeletal sections: whatever `Asset::load` accepts, every skeleton and every
//! skeletal clip reads through the kernel's traits without panicking: every bone (parent, rest
//! pose, LOD, name), every channel of every bone, every time, value and tangent (one past the end
//! too), every event; read with both scalar types and both joint types (the wrong ones must read
//! as empty, not panic). It also checks the invariants the loader promises the jobs: parents before
//! children, key times strictly increasing within [0, duration], value and tangent lengths.
//!
//! Each input is loaded as it is and with its header's length and CRC repaired, so the fuzzer
//! reaches the skeletal section parser behind the checksum. Seeds (fuzz/seeds/skel_blob): a two-bone
//! EVA (host/tests/data/two_bones.eva) built lossless f32, quantised Q16.16, and reduced and
//! quantised f32 (key times as indices into the clip's time table); and a variant whose arm turns
//! 0–90° only (its last three rotation keys (0, 0.1, 0.5, 0.86), (0, 0.2, 0.3, 0.93),
//! (0.1, 0, 0.2, 0.97)), reduced and quantised f32, which stores that rotation as a packed
//! smallest-three channel (format version 6); and (format version 7, `-v7`) the two-bone EVA built
//! lossless f32, reduced and quantised f32 and reduced and quantised Q16.16, whose key times
//! (multiples of 0.05 s) are stored as a grid table with bitmaps (the lossless one too: an early v7
//! writer used them there) and indices, in the compact layout.
//! `get4` must return what four `get`s return.
#![no_main]

#[path = "repair.rs"]
mod repair;

use libfuzzer_sys::fuzz_target;
use ossicle::asset::Asset;
use ossicle::math::{Transform2, Transform3};
use ossicle::skeleton::{ChannelKind, Interpolation, Joint, Scalars, SkelClipSource, SkeletonSource};
use ossicle::{Scalar, Q16};

fn skeleton<S: Scalar, J: Joint<S>>(sk: &impl SkeletonSource<S, J>) {
    let n = sk.bone_count();
    for i in 0..=n {
        if let Some(p) = sk.parent(i) {
            assert!(p < i, "parent {p} of bone {i}");
        }
        let _ = (sk.rest(i), sk.lod(i), sk.name_id(i));
    }
}

/// `get4` equals `get` for every run that starts in (or just past) the scalars.
fn runs<S: Scalar>(v: &impl Scalars<S>) {
    let n = v.len();
    for first in 0..=n.min(64) {
        for count in 0..=4 {
            let want: [S; 4] = core::array::from_fn(|c| if c < count { v.get(first + c) } else { S::ZERO });
            assert!(
                v.get4(first, count).map(|x| x.to_blob_bits()) == want.map(|x| x.to_blob_bits()),
                "get4({first}, {count})"
            );
        }
    }
}

fn clip<S: Scalar, J: Joint<S>>(c: &impl SkelClipSource<S>) {
    let d = c.duration();
    let _ = c.looping();
    for b in 0..=c.bone_count() {
        for kind in ChannelKind::ALL {
            let Some(ch) = c.channel(b, kind) else { continue };
            let n = ch.times.len();
            assert!(n > 0);
            let w = J::WIDTHS[kind.index()];
            assert_eq!(ch.values.len(), n * w);
            let mut prev: Option<S> = None;
            for k in 0..=n {
                let t = ch.times.get(k);
                if k < n {
                    assert!(t >= S::ZERO && t <= d, "time outside the clip");
                    if let Some(p) = prev {
                        assert!(t > p, "times not increasing");
                    }
                    prev = Some(t);
                }
            }
            for i in 0..=ch.values.len() {
                let _ = ch.values.get(i);
            }
            runs(&ch.times);
            runs(&ch.values);
            runs(&ch.tangents);
            match ch.interpolation {
                Interpolation::Hermite => assert_eq!(ch.tangents.len(), 2 * n * w),
                _ => assert!(ch.tangents.is_empty()),
            }
            for i in 0..=ch.tangents.len() {
                let _ = ch.tangents.get(i);
            }
        }
    }
    let mut prev = S::ZERO;
    for i in 0..=c.event_count() {
        if let Some(e) = c.event(i) {
            assert!(e.time >= prev && e.time <= d);
            prev = e.time;
        }
    }
}

fn run<S: Scalar>(asset: &Asset<'_>) {
    for sk in asset.skeletons() {
        skeleton::<S, Transform3<S>>(&sk);
        skeleton::<S, Transform2<S>>(&sk);
        for i in 0..=sk.bone_count() {
            let _ = sk.bone_name(i);
        }
    }
    for c in asset.skel_clips() {
        let _ = (c.name(), c.skeleton_name(), c.sample_rate::<S>(), asset.skeleton_of(&c));
        match c.dimension() {
            ossicle::skeleton::Dimension::D3 => clip::<S, Transform3<S>>(&c),
            ossicle::skeleton::Dimension::D2 => clip::<S, Transform2<S>>(&c),
        }
        for i in 0..=c.section().event_count() {
            let _ = c.event_name(i);
        }
    }
}

fn exercise(data: &[u8]) {
    if let Ok(asset) = Asset::load(data) {
        run::<f32>(&asset);
        run::<Q16>(&asset);
    }
}

fuzz_target!(|data: &[u8]| {
    exercise(data);
    if let Some(fixed) = repair::repaired(data) {
        exercise(&fixed);
    }
});
