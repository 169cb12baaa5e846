//! Sampling blobs with skeletal sections: whatever `Asset::load` accepts, every skeletal clip
//! sampled on its skeleton (3D or 2D, in the blob's scalar type) at a schedule of times — forward
//! steps across more than a loop, backwards, scattered seeks, outside the clip, with nlerp and
//! slerp — never panics, and a `CachedSamplingContext` and a `DirectSamplingContext` give the
//! same poses, bit for bit, as a plain `SamplingContext` (the cache must never return a key pair
//! that the clip's keys do not give at that time; the direct context must read the same keys in
//! place). A LOD limit of 0 is used on every seventh sample. Skeletons of more than 64 bones are skipped.
//!
//! Each input is read from a 4-aligned copy and from a copy one byte further on, which must give
//! the same poses: built for fuzzing, the kernel reads the word arrays of an aligned blob through
//! `u32` slices (as on the Cortex-M0) and those of the other copy byte by byte.
//!
//! Each input is loaded as it is and with its header's length and CRC repaired (as `skel_blob`
//! does). Seeds: fuzz/seeds/skel_blob (`cargo fuzz run skel_sample fuzz/seeds/skel_blob`).
#![no_main]

#[path = "repair.rs"]
mod repair;

use libfuzzer_sys::fuzz_target;
use ossicle::asset::Asset;
use ossicle::math::{Transform2, Transform3};
use ossicle::skeleton::{
    BlobSkelClip, BlobSkeleton, CachedSamplingContext, DirectSamplingContext, Joint, RotationInterp, SamplingContext,
    SamplingJob, SkelClipSource, SkeletonSource,
};
use ossicle::{Scalar, Q16};

const BONES: usize = 64;

/// Fractions of the clip's duration (in 1/1024ths) to sample at, in this order.
fn schedule(seed: u32) -> impl Iterator<Item = (i32, RotationInterp)> {
    let forward = (0..80).map(|i| i * 17);
    let backward = (0..20).map(|i| 1024 - i * 41);
    let mut x = seed | 1;
    let seeks = (0..24).map(move |_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x % 1600) as i32 - 300
    });
    let edges = [0, 1024, 1024, -1, 2048, 5000, 512, 512];
    forward
        .chain(backward)
        .chain(seeks)
        .chain(edges)
        .enumerate()
        .map(|(i, f)| (f, if i % 5 == 2 { RotationInterp::Slerp } else { RotationInterp::Nlerp }))
}

fn bits<S: Scalar, J: Joint<S>>(pose: &[J]) -> Vec<[[u32; 4]; 3]> {
    use ossicle::skeleton::ChannelKind;
    pose.iter().map(|j| ChannelKind::ALL.map(|k| j.channel_values(k).map(|v| v.to_blob_bits()))).collect()
}

/// The plain context's results and poses over the schedule (the other contexts checked against
/// them), as bits.
type Outputs = Vec<Option<Vec<[[u32; 4]; 3]>>>;

fn sample<S: Scalar, J: Joint<S>>(skel: &BlobSkeleton<'_>, clip: &BlobSkelClip<'_>, seed: u32, out: &mut Outputs)
where
    for<'b> BlobSkeleton<'b>: SkeletonSource<S, J>,
{
    let bones = SkeletonSource::<S, J>::bone_count(skel);
    if bones == 0 || bones > BONES {
        return;
    }
    let duration = SkelClipSource::<S>::duration(clip);
    let mut plain = SamplingContext::<BONES>::new();
    let mut cached = CachedSamplingContext::<S, J, BONES>::new();
    let mut direct = Box::new(DirectSamplingContext::<S, J, BONES>::new());
    let (mut a, mut b, mut c) = ([J::IDENTITY; BONES], [J::IDENTITY; BONES], [J::IDENTITY; BONES]);
    for (i, (f, rotation)) in schedule(seed).enumerate() {
        let time = duration.mul(S::from_ratio(f, 1024));
        let lod = if i % 7 == 4 { 0 } else { u8::MAX };
        let job = SamplingJob { skeleton: skel, clip, time, rotation, lod };
        let ra = job.run(&mut plain, &mut a);
        let rb = job.run(&mut cached, &mut b);
        let rc = job.run(&mut *direct, &mut c);
        assert_eq!(ra, rb);
        assert_eq!(ra, rc);
        if ra.is_ok() {
            assert!(bits::<S, J>(&a[..bones]) == bits::<S, J>(&b[..bones]), "cached differs at {f}/1024");
            assert!(bits::<S, J>(&a[..bones]) == bits::<S, J>(&c[..bones]), "direct differs at {f}/1024");
        }
        out.push(ra.ok().map(|_| bits::<S, J>(&a[..bones])));
    }
}

fn run<S: Scalar>(asset: &Asset<'_>, seed: u32, out: &mut Outputs) {
    for clip in asset.skel_clips() {
        let Some(skel) = asset.skeleton_of(&clip) else { continue };
        sample::<S, Transform3<S>>(&skel, &clip, seed, out);
        sample::<S, Transform2<S>>(&skel, &clip, seed, out);
    }
}

/// Every output of `data` (`None` when it does not load).
fn outputs(data: &[u8]) -> Option<Outputs> {
    let asset = Asset::load(data).ok()?;
    let seed = data.len() as u32;
    let mut out = Outputs::new();
    run::<f32>(&asset, seed, &mut out);
    run::<Q16>(&asset, seed, &mut out);
    Some(out)
}

/// A buffer holding `data` from index `at`, where `at` is `skew` bytes past a 4-aligned address.
fn copy_at(data: &[u8], skew: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; data.len() + 8];
    let at = buf.as_ptr().align_offset(4) + skew;
    buf[at..at + data.len()].copy_from_slice(data);
    (buf, at)
}

fn exercise(data: &[u8]) {
    let (aligned, a) = copy_at(data, 0);
    let (skewed, b) = copy_at(data, 1);
    let got = outputs(&aligned[a..a + data.len()]);
    assert!(got == outputs(&skewed[b..b + data.len()]), "aligned and unaligned copies read differently");
}

fuzz_target!(|data: &[u8]| {
    exercise(data);
    if let Some(fixed) = repair::repaired(data) {
        exercise(&fixed);
    }
});
