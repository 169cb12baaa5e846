//! `DirectSamplingContext` against `SamplingContext`: the same poses, bit for bit, on blobs holding
//! every kind of bone (read directly or channel by channel) and at every kind of time; the LOD
//! limit; switching clips; one search of a shared run of times per sample; the fallback when a
//! source refuses; a few hand-computed values; its size; the players with it.

use core::cell::Cell;

use ossicle::math::{Transform2, Transform3, Vec3};
use ossicle::skeleton::{
    BoneHandle, CachedSamplingContext, ChannelData, ChannelKind, Dimension, DirectBone, DirectSamplingContext,
    DirectTimes, Interpolation, Joint, RotationInterp, SamplingContext, SamplingJob, SkelClipSource, SliceSkelClip,
    SliceSkeleton, SliceTrack,
};
use ossicle::{Scalar, Q16};

mod common;
use common::skel::*;

/// The contexts under test: room for 16 bones.
type Direct<S, J> = DirectSamplingContext<S, J, 16>;

/// Requires `a` (plain) and `b` (direct) to be the same bit for bit (NaN included), naming the
/// first bone and channel that differ, the time and both values.
fn same_bits<S: Scalar, J: Joint<S>>(t: f64, what: &str, a: &[J], b: &[J]) {
    for (bone, (x, y)) in a.iter().zip(b).enumerate() {
        for kind in ChannelKind::ALL {
            let (va, vb) = (x.channel_values(kind), y.channel_values(kind));
            let (ba, bb) = (va.map(|v| v.to_blob_bits()), vb.map(|v| v.to_blob_bits()));
            assert_eq!(ba, bb, "{what}: bone {bone} {kind:?} t = {t}: plain {va:?}, direct {vb:?}");
        }
    }
}

/// Key `k` of a channel of `width` components of bone `b` (a value that differs from key to key,
/// bone to bone and component to component).
fn value(b: usize, k: usize, c: usize) -> f64 {
    ((b * 31 + k * 7 + c * 3) % 17) as f64 / 8.0 - 1.0
}

/// A Linear (or other) channel of bone `b` keyed at `times`, `width` components per key.
fn keyed<S: Scalar>(interp: Interpolation, b: usize, times: &[f64], width: usize) -> Option<Ch<S>> {
    let values: Vec<f64> = (0..times.len() * width).map(|i| value(b, i / width, i % width)).collect();
    let tangents: Vec<f64> = if interp == Interpolation::Hermite {
        (0..times.len() * 2 * width).map(|i| value(b + 5, i, 0)).collect()
    } else {
        vec![]
    };
    ch(interp, times, &values, &tangents)
}

/// Key times every 0.1 s over the 2 s (run A), and every 0.25 s from 0.25 to 1.75 (run B): both on
/// a 60 Hz grid.
fn runs() -> (Vec<f64>, Vec<f64>) {
    ((0..=20).map(|k| f64::from(k) / 10.0).collect(), (1..=7).map(|k| f64::from(k) / 4.0).collect())
}

/// Fifteen 3D bones: 0 and 1 Linear in all three channels on run A, 2 a lone translation on A, 3
/// rotation and scale on B (keys start after 0 and end before the clip's end), 4 no channels, 5
/// translation on A and rotation on B, 6 a Step translation with a Linear rotation on A, 7 a
/// Hermite scale on B, 8 a single-key translation, 9 as 0 (its rotation is quantised in the blobs
/// that quantise it), then skeleton_cache's five bones ([`channels_3d`]).
fn bones_3d<S: Scalar>() -> Vec<Bone<S>> {
    use Interpolation::{Hermite, Linear, Step};
    let (a, b) = runs();
    let trs = |bone: usize, times: &[f64]| {
        [keyed(Linear, bone, times, 3), keyed(Linear, bone, times, 4), keyed(Linear, bone, times, 3)]
    };
    let mut bones = vec![
        trs(0, &a),
        trs(1, &a),
        [keyed(Linear, 2, &a, 3), None, None],
        [None, keyed(Linear, 3, &b, 4), keyed(Linear, 3, &b, 3)],
        [None, None, None],
        [keyed(Linear, 5, &a, 3), keyed(Linear, 5, &b, 4), None],
        [keyed(Step, 6, &a, 3), keyed(Linear, 6, &a, 4), None],
        [None, None, keyed(Hermite, 7, &b, 3)],
        [keyed(Linear, 8, &[0.3], 3), None, None],
        trs(9, &a),
    ];
    bones.extend(channels_3d::<S>());
    bones
}

/// Five 2D bones ([`channels_2d`]: its bone 2 is Linear in all three channels at the same times,
/// its bone 4 a lone translation), then one Linear in all three on run A.
fn bones_2d<S: Scalar>() -> Vec<Bone<S>> {
    let (a, _) = runs();
    let mut bones = channels_2d::<S>();
    bones.push([
        keyed(Interpolation::Linear, 5, &a, 2),
        keyed(Interpolation::Linear, 5, &a, 1),
        keyed(Interpolation::Linear, 5, &a, 2),
    ]);
    bones
}

/// A rest pose per bone that differs from the identity (translation and scale `i + 1`).
fn rest_of<S: Scalar, J: Joint<S>>(n: usize) -> Vec<J> {
    (0..n)
        .map(|i| {
            let f = S::from_i32(i as i32 + 1);
            let mut j = J::IDENTITY;
            j.set_channel_values(ChannelKind::Translation, [f; 4]);
            j.set_channel_values(ChannelKind::Scale, [f; 4]);
            j
        })
        .collect()
}

/// The schedule of skeleton_cache.rs and the times the job maps in its own way: NaN, infinities,
/// huge times of either sign, the clip's ends.
fn times() -> Vec<f64> {
    let mut ts = schedule(2.0);
    ts.extend([f64::NAN, 1.0, f64::INFINITY, 0.5, f64::NEG_INFINITY, 1e9, -1e9, 3.0e4, 2.0, 0.0, 1.99999, 1e-6]);
    ts
}

/// Every storage of times the tests write (u8 and u16 indices, a grid table, bitmaps, the compact
/// layout), with runs of times shared or each channel's own.
fn layouts() -> Vec<(BlobTimes, BlobOpts)> {
    let mut out = Vec::new();
    for mode in [BlobTimes::Raw, BlobTimes::Index8, BlobTimes::Index16, BlobTimes::Bitmap, BlobTimes::Compact] {
        for share_times in [true, false] {
            out.push((mode, BlobOpts { share_times, ..BlobOpts::SEPARATE }));
        }
    }
    out.push((BlobTimes::Index8, BlobOpts { share_times: true, grid: Some(60), looping: true }));
    out.push((BlobTimes::Index16, BlobOpts { share_times: true, grid: Some(60), looping: true }));
    out
}

/// What `direct_bone` says of bone `b` of a blob of [`bones_3d`]: which bones are read directly
/// in which layout (the test would pass vacuously if none were).
fn expected_mask(b: usize, mode: BlobTimes, opts: BlobOpts, quantized: &[(usize, usize)]) -> Option<u8> {
    let shared = opts.share_times;
    let direct_times = mode != BlobTimes::Bitmap;
    match b {
        0 | 1 if direct_times && shared => Some(0b111),
        9 if direct_times && shared && quantized.is_empty() => Some(0b111),
        2 if direct_times => Some(0b001),
        3 if direct_times && shared => Some(0b110),
        // No channels, or (8) a single-key channel, which the context keeps with the rest pose.
        4 | 8 | 13 => Some(0),
        _ => None,
    }
}

fn direct_equals_plain_3d<S: Scalar>() {
    let chans = bones_3d::<S>();
    let n = chans.len();
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { i as u16 - 1 }).collect();
    let rest = rest_of::<S, Transform3<S>>(n);
    let lods: Vec<u8> = (0..n).map(|i| [0, 1, 2][i % 3]).collect();
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let ts = times();
    let mut direct_bones = 0;
    for (mode, opts) in layouts() {
        for looping in [true, false] {
            for quantized in [&[][..], &[(9, 1), (10, 1)][..]] {
                let opts = BlobOpts { looping, ..opts };
                let bytes = blob_with::<S>(Dimension::D3, &chans, quantized, mode, opts);
                let asset = ossicle::asset::Asset::load(&bytes).unwrap();
                let blob = asset.skel_clip_named("walk").unwrap();
                let layout: Vec<Option<DirectBone>> =
                    (0..n).map(|b| SkelClipSource::<S>::direct_bone(&blob, b, [3, 4, 3])).collect();
                for (b, d) in layout.iter().enumerate() {
                    let want = expected_mask(b, mode, opts, quantized);
                    assert_eq!(d.map(|d| d.mask), want, "bone {b}, {mode:?} {opts:?} {quantized:?}");
                }
                assert_eq!(layout[8].map(|d| d.constant), Some(0b001), "{mode:?} {opts:?}");
                direct_bones += layout.iter().filter(|d| d.is_some_and(|d| d.mask != 0)).count();
                if opts.share_times && mode != BlobTimes::Bitmap {
                    // Bones 0, 1 and 2 share run A: one search for the three.
                    let t = |b: usize| layout[b].map(|d| d.times);
                    assert!(t(0).is_some() && t(0) == t(1) && t(1) == t(2), "{mode:?} {opts:?}");
                    assert_ne!(t(0), t(3));
                }
                for rotation in [RotationInterp::Nlerp, RotationInterp::Slerp] {
                    for lod in [u8::MAX, 0, 1] {
                        let what = format!("{mode:?} {opts:?} {quantized:?} {rotation:?} lod {lod}");
                        against_plain::<S, Transform3<S>, _, Direct<S, Transform3<S>>>(
                            &skeleton,
                            &blob,
                            rotation,
                            lod,
                            &ts,
                            |t, a, b| {
                                same_bits(t, &what, a, b);
                                // Above the LOD limit: the rest pose.
                                for (i, j) in b.iter().enumerate().filter(|&(i, _)| lod != u8::MAX && lods[i] > lod) {
                                    same_bits(t, &format!("{what} (rest)"), &[rest[i]], &[*j]);
                                }
                            },
                        );
                    }
                }
            }
        }
    }
    assert!(direct_bones > 50, "{direct_bones}");
}

#[test]
fn direct_equals_plain_3d_f32() {
    direct_equals_plain_3d::<f32>();
}

#[test]
fn direct_equals_plain_3d_q16() {
    direct_equals_plain_3d::<Q16>();
}

fn direct_equals_plain_2d<S: Scalar>() {
    let chans = bones_2d::<S>();
    let n = chans.len();
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { i as u16 - 1 }).collect();
    let rest = rest_of::<S, Transform2<S>>(n);
    let lods: Vec<u8> = (0..n).map(|i| [0, 1][i % 2]).collect();
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let ts = times();
    for (mode, opts) in layouts() {
        for quantized in [&[][..], &[(2, 0)][..]] {
            let bytes = blob_with::<S>(Dimension::D2, &chans, quantized, mode, opts);
            let asset = ossicle::asset::Asset::load(&bytes).unwrap();
            let blob = asset.skel_clip_named("walk").unwrap();
            let direct = |b: usize| SkelClipSource::<S>::direct_bone(&blob, b, [2, 1, 2]).map(|d| d.mask);
            let readable = mode != BlobTimes::Bitmap;
            assert_eq!(direct(4), readable.then_some(0b001), "{mode:?} {opts:?}");
            assert_eq!(direct(5), (readable && opts.share_times).then_some(0b111), "{mode:?} {opts:?}");
            assert_eq!(direct(3), Some(0));
            // The 3D widths do not fit a 2D clip: nothing is read directly.
            assert_eq!(SkelClipSource::<S>::direct_bone(&blob, 5, [3, 4, 3]), None);
            for lod in [u8::MAX, 0] {
                let what = format!("2D {mode:?} {opts:?} {quantized:?} lod {lod}");
                against_plain::<S, Transform2<S>, _, Direct<S, Transform2<S>>>(
                    &skeleton,
                    &blob,
                    RotationInterp::Nlerp,
                    lod,
                    &ts,
                    |t, a, b| same_bits(t, &what, a, b),
                );
            }
        }
    }
}

#[test]
fn direct_equals_plain_2d_f32() {
    direct_equals_plain_2d::<f32>();
}

#[test]
fn direct_equals_plain_2d_q16() {
    direct_equals_plain_2d::<Q16>();
}

/// A source around another that counts the calls of `channel`, `direct_bone`, `direct_times` and
/// `direct_pair`, and can refuse the last two (`None`) or hide its cache key (`keyless`).
#[derive(Clone, Copy)]
struct Spy<'a, C> {
    inner: C,
    calls: &'a Cell<[usize; 4]>,
    refuse_times: bool,
    refuse_pair: bool,
    keyless: bool,
}

impl<'a, C> Spy<'a, C> {
    fn new(inner: C, calls: &'a Cell<[usize; 4]>) -> Self {
        Self { inner, calls, refuse_times: false, refuse_pair: false, keyless: false }
    }
    fn count(&self, i: usize) {
        let mut c = self.calls.get();
        c[i] += 1;
        self.calls.set(c);
    }
}

impl<S: Scalar, C: SkelClipSource<S>> SkelClipSource<S> for Spy<'_, C> {
    type Scalars = C::Scalars;
    fn duration(&self) -> S {
        self.inner.duration()
    }
    fn looping(&self) -> bool {
        self.inner.looping()
    }
    fn bone_count(&self) -> usize {
        self.inner.bone_count()
    }
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<C::Scalars>> {
        self.count(0);
        self.inner.channel(bone, kind)
    }
    fn bone_handle(&self, bone: usize) -> BoneHandle {
        self.inner.bone_handle(bone)
    }
    fn key(&self, bone: usize, kind: ChannelKind, handle: BoneHandle, k: usize, width: usize) -> Option<(S, [S; 4])> {
        self.inner.key(bone, kind, handle, k, width)
    }
    fn direct_bone(&self, bone: usize, widths: [usize; 3]) -> Option<DirectBone> {
        self.count(1);
        self.inner.direct_bone(bone, widths)
    }
    fn direct_times(&self, times: DirectTimes) -> Option<C::Scalars> {
        self.count(2);
        if self.refuse_times {
            return None;
        }
        self.inner.direct_times(times)
    }
    fn direct_pair(&self, values: u32, k: usize, width: usize) -> Option<([S; 4], [S; 4])> {
        self.count(3);
        if self.refuse_pair {
            return None;
        }
        self.inner.direct_pair(values, k, width)
    }
    fn cache_key(&self) -> Option<usize> {
        if self.keyless {
            None
        } else {
            self.inner.cache_key()
        }
    }
}

/// Eight bones Linear in all three channels on run A and a ninth with a Step translation: per
/// sample, one `direct_times` (not one per bone), three `direct_pair` per direct bone, no `channel`
/// for them (the Step bone's three channels only), `direct_bone` once per bone on the first sample
/// only; the poses are the plain context's. A source refusing `direct_times` or `direct_pair`
/// still gives the plain context's poses.
fn one_search_per_run<S: Scalar>() {
    use Interpolation::{Linear, Step};
    let (a, _) = runs();
    let mut chans: Vec<Bone<S>> =
        (0..8).map(|b| [keyed(Linear, b, &a, 3), keyed(Linear, b, &a, 4), keyed(Linear, b, &a, 3)]).collect();
    chans.push([keyed(Step, 8, &a, 3), None, None]);
    let opts = BlobOpts { share_times: true, ..BlobOpts::SEPARATE };
    let bytes = blob_with::<S>(Dimension::D3, &chans, &[], BlobTimes::Index8, opts);
    let asset = ossicle::asset::Asset::load(&bytes).unwrap();
    let blob = asset.skel_clip_named("walk").unwrap();
    let parents: Vec<u16> = (0..9).map(|i| if i == 0 { u16::MAX } else { 0 }).collect();
    let rest = rest_of::<S, Transform3<S>>(9);
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let calls = Cell::new([0; 4]);
    let spy = Spy::new(blob, &calls);
    let mut ctx = Direct::<S, Transform3<S>>::new();
    let mut plain = SamplingContext::<9>::new();
    let (mut pa, mut pb) = ([Transform3::IDENTITY; 9], [Transform3::IDENTITY; 9]);
    for frame in 0..150 {
        let t = f64::from(frame) / 60.0;
        calls.set([0; 4]);
        SamplingJob::new(&skeleton, &spy, S::from_f64(t)).run(&mut ctx, &mut pb).unwrap();
        let [channel, bone, times, pair] = calls.get();
        assert_eq!([channel, times, pair], [3, 1, 8 * 3], "frame {frame}");
        assert_eq!(bone, if frame == 0 { 9 } else { 0 }, "frame {frame}");
        SamplingJob::new(&skeleton, &blob, S::from_f64(t)).run(&mut plain, &mut pa).unwrap();
        same_bits(t, "one run", &pa, &pb);
    }
    // Seeks backwards and forwards: still one search per sample.
    for t in [1.9, 0.05, 1.0, 0.0, 2.0, 0.7, 0.7, 3.3] {
        calls.set([0; 4]);
        SamplingJob::new(&skeleton, &spy, S::from_f64(t)).run(&mut ctx, &mut pb).unwrap();
        assert_eq!(calls.get(), [3, 0, 1, 24], "t = {t}");
        SamplingJob::new(&skeleton, &blob, S::from_f64(t)).run(&mut plain, &mut pa).unwrap();
        same_bits(t, "one run (seeks)", &pa, &pb);
    }
    // Refusals: the bones are sampled channel by channel, as plain.
    for (refuse_times, refuse_pair) in [(true, false), (false, true), (true, true)] {
        let spy = Spy { refuse_times, refuse_pair, ..spy };
        let what = format!("refusing times {refuse_times} pair {refuse_pair}");
        calls.set([0; 4]);
        against_plain::<S, Transform3<S>, _, Direct<S, Transform3<S>>>(
            &skeleton,
            &spy,
            RotationInterp::Slerp,
            u8::MAX,
            &times(),
            |t, a, b| same_bits(t, &what, a, b),
        );
        // Every bone channel by channel: the plain context's calls and the direct one's.
        assert!(calls.get()[0] >= 2 * 27 * times().len(), "{what}: {:?}", calls.get());
    }
}

#[test]
fn one_search_per_run_f32() {
    one_search_per_run::<f32>();
}

#[test]
fn one_search_per_run_q16() {
    one_search_per_run::<Q16>();
}

/// One context used on blob A, a SliceSkelClip (a cache key but no layout: every bone channel by
/// channel), blob B, A again, A without its cache key (sampled as plain: no layout asked for), A
/// again: each clip's plain poses every time, also after `invalidate`.
fn switching_clips<S: Scalar>() {
    let chans_a = bones_3d::<S>();
    // Clip B: the same layout with other values (bone b's channels are bone b + 1's of A).
    let mut chans_b = bones_3d::<S>();
    chans_b.rotate_left(1);
    let n = chans_a.len();
    let opts = BlobOpts { share_times: true, ..BlobOpts::SEPARATE };
    let bytes_a = blob_with::<S>(Dimension::D3, &chans_a, &[], BlobTimes::Index8, opts);
    let bytes_b = blob_with::<S>(Dimension::D3, &chans_b, &[], BlobTimes::Raw, opts);
    let (asset_a, asset_b) =
        (ossicle::asset::Asset::load(&bytes_a).unwrap(), ossicle::asset::Asset::load(&bytes_b).unwrap());
    let (blob_a, blob_b) = (asset_a.skel_clip_named("walk").unwrap(), asset_b.skel_clip_named("walk").unwrap());
    assert_ne!(SkelClipSource::<S>::cache_key(&blob_a), SkelClipSource::<S>::cache_key(&blob_b));
    let small = channels_3d::<S>();
    let tracks: Vec<SliceTrack<'_, S>> =
        small.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let slice = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] };
    assert!(SkelClipSource::<S>::cache_key(&slice).is_some());
    assert_eq!(SkelClipSource::<S>::direct_bone(&slice, 0, [3, 4, 3]), None);
    let calls = Cell::new([0; 4]);
    let keyless = Spy { keyless: true, ..Spy::new(blob_a, &calls) };
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { i as u16 - 1 }).collect();
    let rest = rest_of::<S, Transform3<S>>(n);
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let mut ctx = Direct::<S, Transform3<S>>::new();
    let mut plains = [const { SamplingContext::<16>::new() }; 4];
    let (mut pa, mut pb) = (vec![Transform3::IDENTITY; n], vec![Transform3::IDENTITY; n]);
    for (i, t) in schedule(2.0).into_iter().enumerate() {
        if i % 97 == 50 {
            ctx.invalidate();
        }
        let time = S::from_f64(t);
        for which in [0, 1, 2, 0, 3, 0] {
            let plain = &mut plains[which];
            match which {
                0 => {
                    SamplingJob::new(&skeleton, &blob_a, time).run(&mut ctx, &mut pb).unwrap();
                    SamplingJob::new(&skeleton, &blob_a, time).run(plain, &mut pa).unwrap();
                }
                1 => {
                    // Between the blobs: the slice clip (no cache key).
                    SamplingJob::new(&skeleton, &slice, time).run(&mut ctx, &mut pb).unwrap();
                    SamplingJob::new(&skeleton, &slice, time).run(plain, &mut pa).unwrap();
                }
                2 => {
                    SamplingJob::new(&skeleton, &blob_b, time).run(&mut ctx, &mut pb).unwrap();
                    SamplingJob::new(&skeleton, &blob_b, time).run(plain, &mut pa).unwrap();
                }
                _ => {
                    SamplingJob::new(&skeleton, &keyless, time).run(&mut ctx, &mut pb).unwrap();
                    SamplingJob::new(&skeleton, &blob_a, time).run(plain, &mut pa).unwrap();
                }
            }
            same_bits(t, &format!("clip {which}"), &pa, &pb);
        }
    }
    assert_eq!(ctx.capacity(), 16);
    // Without a cache key the layout is never asked for nor used.
    assert_eq!(calls.get()[1..], [0, 0, 0]);
    assert!(calls.get()[0] > 0);
}

#[test]
fn switching_clips_f32() {
    switching_clips::<f32>();
}

#[test]
fn switching_clips_q16() {
    switching_clips::<Q16>();
}

/// Hand-computed values: bone 0 translates (0,0,0) at 0 s, (2,4,6) at 1 s, (0,0,0) at 2 s and has
/// no rotation or scale (the rest's: identity rotation, scale 1); bone 1 has the same translation
/// and a scale 1 → 3 → 1 on the same times (the rest's rotation). Both read directly.
fn hand_values<S: Scalar>() {
    use Interpolation::Linear;
    let t3 = [0.0, 1.0, 2.0];
    let tr = [0., 0., 0., 2., 4., 6., 0., 0., 0.];
    let chans: Vec<Bone<S>> = vec![
        [ch(Linear, &t3, &tr, &[]), None, None],
        [ch(Linear, &t3, &tr, &[]), None, ch(Linear, &t3, &[1., 1., 1., 3., 3., 3., 1., 1., 1.], &[])],
    ];
    let opts = BlobOpts { share_times: true, ..BlobOpts::SEPARATE };
    let bytes = blob_with::<S>(Dimension::D3, &chans, &[], BlobTimes::Raw, opts);
    let asset = ossicle::asset::Asset::load(&bytes).unwrap();
    let blob = asset.skel_clip_named("walk").unwrap();
    let calls = Cell::new([0; 4]);
    let spy = Spy::new(blob, &calls);
    let parents = [u16::MAX, 0];
    let rest = rest_of::<S, Transform3<S>>(2);
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let mut ctx = DirectSamplingContext::<S, Transform3<S>, 2>::new();
    let mut pose = [Transform3::IDENTITY; 2];
    let v = |x: f64, y: f64, z: f64| Vec3::new(S::from_f64(x), S::from_f64(y), S::from_f64(z));
    let (one, two) = (v(1.0, 1.0, 1.0), v(2.0, 2.0, 2.0));
    for (t, tr, s) in [
        (0.25, v(0.5, 1.0, 1.5), 1.5),
        (1.5, v(1.0, 2.0, 3.0), 2.0),
        (1.0, v(2.0, 4.0, 6.0), 3.0),
        (0.0, v(0.0, 0.0, 0.0), 1.0),
        (0.75, v(1.5, 3.0, 4.5), 2.5),
        (2.0, v(0.0, 0.0, 0.0), 1.0),
    ] {
        SamplingJob::new(&skeleton, &spy, S::from_f64(t)).run(&mut ctx, &mut pose).unwrap();
        assert_eq!(pose[0].translation, tr, "t = {t}");
        assert_eq!(pose[0].rotation, Transform3::<S>::IDENTITY.rotation, "t = {t}");
        assert_eq!(pose[0].scale, one, "t = {t}");
        assert_eq!(pose[1].translation, tr, "t = {t}");
        assert_eq!(pose[1].rotation, Transform3::<S>::IDENTITY.rotation, "t = {t}");
        assert_eq!(pose[1].scale, v(s, s, s), "t = {t}");
    }
    // Read directly: three pairs per sample (bone 0's translation, bone 1's translation and
    // scale), never `channel`.
    let [channel, bone, times, pair] = calls.get();
    assert_eq!([channel, bone, times, pair], [0, 2, 6, 18]);
    // The rest pose of bone 1 is (2, 2, 2) translation and scale: a skeleton whose bone 0 is
    // bone 1's rest shows the missing channels come from the skeleton, not the clip.
    let rest2 = [rest[1], rest[0]];
    let skeleton2 = SliceSkeleton::new(&parents, &rest2).unwrap();
    let mut ctx = DirectSamplingContext::<S, Transform3<S>, 2>::new();
    SamplingJob::new(&skeleton2, &blob, S::from_f64(0.25)).run(&mut ctx, &mut pose).unwrap();
    assert_eq!(pose[0].scale, two);
    assert_eq!(pose[0].translation, v(0.5, 1.0, 1.5));
}

#[test]
fn hand_values_f32() {
    hand_values::<f32>();
}

#[test]
fn hand_values_q16() {
    hand_values::<Q16>();
}

#[test]
fn memory_per_bone() {
    // As the docs state: per bone 12 bytes of cursors and 64 of plan (24 of layout and the rest
    // pose: 40 bytes for Transform3, 20 for Transform2, the plan rounded up to 8), plus the keys
    // (an `Option<(usize, usize)>`) and a count of the plans made (a `usize`), the whole rounded
    // up to 8.
    let round8 = |x: usize| x.div_ceil(8) * 8;
    let keys = core::mem::size_of::<Option<(usize, usize)>>();
    let count = core::mem::size_of::<usize>();
    for (n, size) in [
        (70, core::mem::size_of::<DirectSamplingContext<f32, Transform3<f32>, 70>>()),
        (2, core::mem::size_of::<DirectSamplingContext<f32, Transform3<f32>, 2>>()),
        (70, core::mem::size_of::<DirectSamplingContext<Q16, Transform3<Q16>, 70>>()),
    ] {
        assert_eq!(size, round8(n * 76 + keys + count), "{n} bones");
    }
    assert_eq!(core::mem::size_of::<DirectSamplingContext<f32, Transform2<f32>, 70>>(), round8(70 * 60 + keys + count));
    assert_eq!(core::mem::size_of::<SamplingContext<70>>(), 70 * 12);
}

/// `AnimPlayer` with a direct context: the same poses (bit for bit) and root motion as with a plain
/// one, on two blob clips, through play, a crossfade, a seek, reverse playback and a restart.
fn player_with_direct_context<S: Scalar>() {
    use ossicle::skeleton::Rig;
    type T3<S> = Transform3<S>;
    let chans_a = bones_3d::<S>();
    let mut chans_b = bones_3d::<S>();
    chans_b.reverse();
    let n = chans_a.len();
    let opts = BlobOpts { share_times: true, ..BlobOpts::SEPARATE };
    let bytes_a = blob_with::<S>(Dimension::D3, &chans_a, &[], BlobTimes::Index8, opts);
    let bytes_b = blob_with::<S>(Dimension::D3, &chans_b, &[], BlobTimes::Raw, opts);
    let (asset_a, asset_b) =
        (ossicle::asset::Asset::load(&bytes_a).unwrap(), ossicle::asset::Asset::load(&bytes_b).unwrap());
    let clips = [asset_a.skel_clip_named("walk").unwrap(), asset_b.skel_clip_named("walk").unwrap()];
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { i as u16 - 1 }).collect();
    let rest = rest_of::<S, T3<S>>(n);
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let rig = Rig::new(&skeleton, &clips);
    player_script::<S, _, _, Direct<S, T3<S>>, 16>(&rig, &clips, |frame, pa, pb| {
        same_bits(f64::from(frame), "player frame", &pa[..n], &pb[..n]);
    });
}

#[test]
fn player_with_direct_context_f32() {
    player_with_direct_context::<f32>();
}

#[test]
fn player_with_direct_context_q16() {
    player_with_direct_context::<Q16>();
}

/// Rows of bones whose rotation alone is animated (the context samples them in a loop of its
/// own), broken by bones at rest, a bone with a translation too, a rotation on another run of
/// times, a Step rotation; 3D quaternions (unnormalised, some consecutive keys in opposite
/// hemispheres) or 2D angles; nlerp and slerp, with and without LOD limits: the plain context's
/// poses, bit for bit.
fn rotation_rows<S: Scalar, J: Joint<S>>(dim: Dimension) {
    use Interpolation::{Linear, Step};
    let w = if dim == Dimension::D3 { 4 } else { 1 };
    let run_a = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0];
    let run_b = [0.0, 0.3, 0.9, 2.0];
    let mut x = 0x1234_5678u32;
    let mut keys = |n: usize| -> Vec<f64> {
        (0..n * w)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let v = f64::from(x % 2001) / 1000.0 - 1.0;
                // Every other key's w negated: opposite hemispheres for nlerp's shortest arc.
                if w == 4 && i % 8 == 7 {
                    -v.abs()
                } else {
                    v
                }
            })
            .collect()
    };
    let rot = |k: Vec<f64>, times: &[f64], interp| ch::<S>(interp, times, &k, &[]);
    let tw = if dim == Dimension::D3 { 3 } else { 2 };
    let mut chans: Vec<Bone<S>> = Vec::new();
    for b in 0..14 {
        let bone: Bone<S> = match b {
            0 | 6 => [None, None, None],
            1 => [
                ch(Linear, &run_a, &(0..run_a.len() * tw).map(|i| i as f64 * 0.5).collect::<Vec<_>>(), &[]),
                rot(keys(run_a.len()), &run_a, Linear),
                None,
            ],
            8 => [None, rot(keys(run_b.len()), &run_b, Linear), None],
            11 => [None, rot(keys(run_a.len()), &run_a, Step), None],
            _ => [None, rot(keys(run_a.len()), &run_a, Linear), None],
        };
        chans.push(bone);
    }
    let n = chans.len();
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { i as u16 - 1 }).collect();
    let rest = rest_of::<S, J>(n);
    let lods: Vec<u8> = (0..n).map(|i| [0, 1, 2][i % 3]).collect();
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let opts = BlobOpts { share_times: true, ..BlobOpts::SEPARATE };
    let bytes = blob_with::<S>(dim, &chans, &[], BlobTimes::Index8, opts);
    let asset = ossicle::asset::Asset::load(&bytes).unwrap();
    let blob = asset.skel_clip_named("walk").unwrap();
    // The layout the rows rely on: rotation-only bones on one run, bone 8 on another.
    let widths = J::WIDTHS;
    let layout: Vec<Option<DirectBone>> = (0..n).map(|b| SkelClipSource::<S>::direct_bone(&blob, b, widths)).collect();
    let row = layout[2].expect("bone 2 is read directly");
    assert_eq!(row.mask, 0b010);
    for b in [3, 4, 5, 7, 9, 10, 12, 13] {
        assert_eq!(layout[b].map(|d| (d.mask, d.times)), Some((0b010, row.times)), "bone {b}");
    }
    assert_ne!(layout[8].map(|d| d.times), Some(row.times));
    assert_eq!(layout[11], None, "a Step rotation goes channel by channel");
    let mut ts = schedule(2.0);
    ts.extend(times());
    for rotation in [RotationInterp::Nlerp, RotationInterp::Slerp] {
        for lod in [u8::MAX, 0, 1] {
            let what = format!("{dim:?} {rotation:?} lod {lod}");
            against_plain::<S, J, _, Direct<S, J>>(&skeleton, &blob, rotation, lod, &ts, |t, a, b| {
                same_bits(t, &what, a, b)
            });
            // The cached context's straight path for such bones, likewise.
            against_plain::<S, J, _, CachedSamplingContext<S, J, 16>>(
                &skeleton,
                &blob,
                rotation,
                lod,
                &ts,
                |t, a, b| same_bits(t, &format!("{what} (cached)"), a, b),
            );
        }
    }
}

#[test]
fn rotation_rows_f32() {
    rotation_rows::<f32, Transform3<f32>>(Dimension::D3);
    rotation_rows::<f32, Transform2<f32>>(Dimension::D2);
}

#[test]
fn rotation_rows_q16() {
    rotation_rows::<Q16, Transform3<Q16>>(Dimension::D3);
    rotation_rows::<Q16, Transform2<Q16>>(Dimension::D2);
}
