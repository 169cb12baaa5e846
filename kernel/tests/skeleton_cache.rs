//! `CachedSamplingContext` against `SamplingContext`: the same poses, bit for bit, on every kind
//! of channel and every kind of time, and fewer reads of the clip.
//!
//! The plain context's results are themselves checked against hand-computed poses in
//! skeleton_jobs.rs; here a few values are also written out by hand.

use core::cell::Cell;

use ossicle::math::{Transform2, Transform3, Vec3};
use ossicle::skeleton::{
    BoneHandle, CachedSamplingContext, ChannelData, ChannelKind, Interpolation, Joint, RotationInterp, SamplingContext,
    SamplingJob, SkelClipSource, SliceSkelClip, SliceSkeleton, SliceTrack,
};
use ossicle::{Scalar, Q16};

mod common;
use common::skel::*;

/// The channels a blob was written from, and those written quantised (bone, kind).
type Raw<'a, S> = (&'a [Bone<S>], &'a [(usize, usize)]);

/// Samples `clip` at every time of the schedule with a plain and a cached context (each kept
/// across the whole schedule) and requires bit-identical poses.
fn same_as_plain<S: Scalar, J: Joint<S>, C: SkelClipSource<S>>(
    skeleton: &SliceSkeleton<'_, J>,
    clip: &C,
    rotation: RotationInterp,
    lod: u8,
) {
    against_plain::<S, J, C, CachedSamplingContext<S, J, 5>>(
        skeleton,
        clip,
        rotation,
        lod,
        &schedule(2.0),
        |t, a, b| assert_eq!(a, b, "t = {t}, {rotation:?}, lod {lod}"),
    );
}

fn cached_equals_plain_3d<S: Scalar>() {
    let chans = channels_3d::<S>();
    let tracks: Vec<SliceTrack<'_, S>> =
        chans.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let parents = [u16::MAX, 0, 1, 0, 3];
    let rest = rest_3d::<S>();
    let lods = [0, 0, 1, 2, 0];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    for looping in [true, false] {
        let clip = SliceSkelClip { duration: S::TWO, looping, tracks: &tracks, events: &[] };
        clip.check::<Transform3<S>>().unwrap();
        for rotation in [RotationInterp::Nlerp, RotationInterp::Slerp] {
            for lod in [u8::MAX, 0, 1] {
                same_as_plain::<S, Transform3<S>, _>(&skeleton, &clip, rotation, lod);
            }
        }
    }
}

#[test]
fn cached_equals_plain_3d_f32() {
    cached_equals_plain_3d::<f32>();
}

#[test]
fn cached_equals_plain_3d_q16() {
    cached_equals_plain_3d::<Q16>();
}

fn cached_equals_plain_2d<S: Scalar>() {
    use Interpolation::{Hermite, Linear, Step};
    let chans: Vec<[Option<Ch<S>>; 3]> = vec![
        [
            ch(Hermite, &[0.0, 2.0], &[0., 0., 4., 2.], &[1., -1., 0., 0., 0., 0., 2., 2.]),
            ch(Linear, &[0.0, 1.0, 2.0], &[0.0, 1.5, -1.5], &[]),
            None,
        ],
        [None, ch(Step, &[0.5, 1.25], &[1.0, -1.0], &[]), ch(Linear, &[0.5], &[1.0, 3.0], &[])],
    ];
    let tracks: Vec<SliceTrack<'_, S>> =
        chans.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let clip = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] };
    clip.check::<Transform2<S>>().unwrap();
    let parents = [u16::MAX, 0, 1, 2, 3];
    let rest = [Transform2::<S>::IDENTITY; 5];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    same_as_plain::<S, Transform2<S>, _>(&skeleton, &clip, RotationInterp::Nlerp, u8::MAX);
}

#[test]
fn cached_equals_plain_2d_f32() {
    cached_equals_plain_2d::<f32>();
}

#[test]
fn cached_equals_plain_2d_q16() {
    cached_equals_plain_2d::<Q16>();
}

/// A clip that counts `channel` calls (and gives its cache key only when `keyed`).
#[derive(Clone, Copy)]
struct Counting<'a, S> {
    inner: SliceSkelClip<'a, S>,
    calls: &'a Cell<usize>,
    keyed: bool,
}

impl<'a, S: Scalar> SkelClipSource<S> for Counting<'a, S> {
    type Scalars = &'a [S];
    fn duration(&self) -> S {
        self.inner.duration
    }
    fn looping(&self) -> bool {
        self.inner.looping
    }
    fn bone_count(&self) -> usize {
        SkelClipSource::<S>::bone_count(&self.inner)
    }
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<&'a [S]>> {
        self.calls.set(self.calls.get() + 1);
        self.inner.channel(bone, kind)
    }
    fn cache_key(&self) -> Option<usize> {
        if self.keyed {
            self.inner.cache_key()
        } else {
            None
        }
    }
}

/// Forward playback between two keys reads nothing from the clip, and the values are the
/// hand-computed lerps.
fn hits_read_nothing<S: Scalar>() {
    use Interpolation::Linear;
    // Bone 0: translation (0,0,0) at 0 s to (6,3,0) at 1 s, then (0,0,0) at 2 s; no rotation or
    // scale channel (the rest pose's, read from the skeleton, not the clip).
    let t = ch::<S>(Linear, &[0.0, 1.0, 2.0], &[0., 0., 0., 6., 3., 0., 0., 0., 0.], &[]);
    let tracks = [SliceTrack { channels: [view(&t), None, None] }];
    let calls = Cell::new(0);
    let clip = Counting {
        inner: SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] },
        calls: &calls,
        keyed: true,
    };
    let parents = [u16::MAX];
    let rest = [Transform3::new(Vec3::ZERO, Transform3::<S>::IDENTITY.rotation, Vec3::new(S::TWO, S::TWO, S::TWO))];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let mut ctx = CachedSamplingContext::<S, Transform3<S>, 1>::new();
    let mut pose = [Transform3::IDENTITY];
    let mut at = |time: f64| {
        SamplingJob::new(&skeleton, &clip, S::from_f64(time)).run(&mut ctx, &mut pose).unwrap();
        pose[0]
    };
    // The first sample fills the cache: three channel calls (translation, then the two missing).
    let p = at(0.25);
    assert_eq!(calls.get(), 3);
    assert_eq!(p.translation, Vec3::new(S::from_f64(1.5), S::from_f64(0.75), S::ZERO));
    assert_eq!(p.scale, Vec3::new(S::TWO, S::TWO, S::TWO));
    // Within [0, 1): no call at all.
    for (time, x, y) in [(0.5, 3.0, 1.5), (0.75, 4.5, 2.25), (0.0, 0.0, 0.0)] {
        let p = at(time);
        assert_eq!(p.translation, Vec3::new(S::from_f64(x), S::from_f64(y), S::ZERO), "t = {time}");
    }
    assert_eq!(calls.get(), 3);
    // Crossing a key refills the translation only (the missing channels stay known).
    let p = at(1.5);
    assert_eq!(calls.get(), 4);
    assert_eq!(p.translation, Vec3::new(S::from_f64(3.0), S::from_f64(1.5), S::ZERO));
    // The plain context calls the clip for every channel every time.
    let mut plain = SamplingContext::<1>::new();
    calls.set(0);
    SamplingJob::new(&skeleton, &clip, S::from_f64(1.5)).run(&mut plain, &mut pose).unwrap();
    assert_eq!(calls.get(), 3);
    // A source without a cache key is sampled as by a plain context: every channel every time,
    // the same values.
    let unkeyed = Counting { keyed: false, ..clip };
    let mut ctx = CachedSamplingContext::<S, Transform3<S>, 1>::new();
    for (time, x, y) in [(0.25, 1.5, 0.75), (0.5, 3.0, 1.5), (1.5, 3.0, 1.5)] {
        calls.set(0);
        SamplingJob::new(&skeleton, &unkeyed, S::from_f64(time)).run(&mut ctx, &mut pose).unwrap();
        assert_eq!(calls.get(), 3, "t = {time}");
        assert_eq!(pose[0].translation, Vec3::new(S::from_f64(x), S::from_f64(y), S::ZERO), "t = {time}");
    }
}

#[test]
fn hits_read_nothing_f32() {
    hits_read_nothing::<f32>();
}

#[test]
fn hits_read_nothing_q16() {
    hits_read_nothing::<Q16>();
}

/// One context used with two clips in turn: each switch drops the cache (the other clip's keys are
/// never used), and after `invalidate` nothing stale is used either.
fn switching_clips<S: Scalar>() {
    use Interpolation::Linear;
    let a = ch::<S>(Linear, &[0.0, 2.0], &[0., 0., 0., 2., 0., 0.], &[]);
    let b = ch::<S>(Linear, &[0.0, 2.0], &[0., 0., 0., 0., 4., 0.], &[]);
    let ta = [SliceTrack { channels: [view(&a), None, None] }];
    let tb = [SliceTrack { channels: [view(&b), None, None] }];
    let clip_a = SliceSkelClip { duration: S::TWO, looping: true, tracks: &ta, events: &[] };
    let clip_b = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tb, events: &[] };
    let parents = [u16::MAX];
    let rest = [Transform3::<S>::IDENTITY];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let mut ctx = CachedSamplingContext::<S, Transform3<S>, 1>::new();
    let mut pose = [Transform3::IDENTITY];
    let one = S::ONE;
    for _ in 0..3 {
        SamplingJob::new(&skeleton, &clip_a, one).run(&mut ctx, &mut pose).unwrap();
        assert_eq!(pose[0].translation, Vec3::new(one, S::ZERO, S::ZERO));
        SamplingJob::new(&skeleton, &clip_b, one).run(&mut ctx, &mut pose).unwrap();
        assert_eq!(pose[0].translation, Vec3::new(S::ZERO, S::TWO, S::ZERO));
    }
    ctx.invalidate();
    SamplingJob::new(&skeleton, &clip_b, S::HALF).run(&mut ctx, &mut pose).unwrap();
    assert_eq!(pose[0].translation, Vec3::new(S::ZERO, one, S::ZERO));
    assert_eq!(ctx.capacity(), 1);
}

#[test]
fn switching_clips_f32() {
    switching_clips::<f32>();
}

#[test]
fn switching_clips_q16() {
    switching_clips::<Q16>();
}

/// Keys 1/30 s apart over one second (SlowRun's spacing), and the same spacing with the keys after
/// the 10th moved by half a step (a channel whose times part ways with the others).
fn shared_times() -> (Vec<f64>, Vec<f64>) {
    let times: Vec<f64> = (0..=30).map(|k| f64::from(k) / 30.0).collect();
    let parted = (0..=30).map(|k| if k <= 10 || k == 30 { f64::from(k) / 30.0 } else { (f64::from(k) + 0.5) / 30.0 });
    (times, parted.collect())
}

/// A key's translation, rotation and scale.
type Key = ([f64; 3], [f64; 4], [f64; 3]);

/// Key `k` of the shared-times channels: translation `0.1·(k, 2k, −k)`, a rotation by `0.05·k` rad
/// about z, scale `1 + 0.01·k`.
fn shared_keys(k: usize) -> Key {
    let k = k as f64;
    let a = 0.05 * k;
    ([0.1 * k, 0.2 * k, -0.1 * k], [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()], [1.0 + 0.01 * k; 3])
}

/// Bones whose three channels are Linear and keyed at the same times (the usual animated bone,
/// which the cached context samples by a straight path and steps forward a key at a time), next to
/// the same with a channel whose times part ways after the 10th key, with a Step channel among
/// Linear ones, with a missing channel, and a bone without channels: the same poses as a plain
/// context at every time of the schedule (forward across loops, backwards, seeks, outside the
/// clip), each crossing reads each channel once, hits read nothing, and the values between keys
/// are the hand-computed lerps.
fn shared_brackets<S: Scalar>() {
    use Interpolation::{Linear, Step};
    let (times, parted) = shared_times();
    let keys: Vec<_> = (0..times.len()).map(shared_keys).collect();
    let flat = |f: &dyn Fn(&Key) -> Vec<f64>| keys.iter().flat_map(f).collect::<Vec<f64>>();
    let (tv, rv, sv_) = (flat(&|k| k.0.to_vec()), flat(&|k| k.1.to_vec()), flat(&|k| k.2.to_vec()));
    let chans: Vec<[Option<Ch<S>>; 3]> = vec![
        [ch(Linear, &times, &tv, &[]), ch(Linear, &times, &rv, &[]), ch(Linear, &times, &sv_, &[])],
        [ch(Linear, &times, &tv, &[]), ch(Linear, &times, &rv, &[]), ch(Linear, &parted, &sv_, &[])],
        [ch(Linear, &times, &tv, &[]), ch(Step, &times, &rv, &[]), ch(Linear, &times, &sv_, &[])],
        [None, None, None],
        [ch(Linear, &times, &tv, &[]), ch(Linear, &times, &rv, &[]), None],
    ];
    let tracks: Vec<SliceTrack<'_, S>> =
        chans.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let parents = [u16::MAX, 0, 1, 0, 3];
    let rest = rest_3d::<S>();
    let lods = [0, 1, 0, 0, 2];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    for looping in [true, false] {
        let clip = SliceSkelClip { duration: S::ONE, looping, tracks: &tracks, events: &[] };
        clip.check::<Transform3<S>>().unwrap();
        for rotation in [RotationInterp::Nlerp, RotationInterp::Slerp] {
            for lod in [u8::MAX, 0] {
                same_as_plain::<S, Transform3<S>, _>(&skeleton, &clip, rotation, lod);
            }
        }
    }
    // Forward at 60 Hz: the first sample reads every channel (15 calls), then every other frame
    // crosses a key in each of the 11 animated channels (one read each), the others read nothing
    // (until the parted channel's keys move to the odd frames).
    let calls = Cell::new(0);
    let clip = Counting {
        inner: SliceSkelClip { duration: S::ONE, looping: true, tracks: &tracks, events: &[] },
        calls: &calls,
        keyed: true,
    };
    let mut ctx = CachedSamplingContext::<S, Transform3<S>, 5>::new();
    let mut pose = [Transform3::IDENTITY; 5];
    let tol = S::from_f64(2e-3);
    for frame in 0..60 {
        calls.set(0);
        SamplingJob::new(&skeleton, &clip, S::from_f64(f64::from(frame) / 60.0)).run(&mut ctx, &mut pose).unwrap();
        let expected = match frame {
            0 => 15,
            f if f % 2 == 0 && f <= 20 => 11,
            // From key 11 on, the parted channel's keys fall on odd frames ((k + 0.5)/30 s).
            f if f % 2 == 0 => 10,
            f if f >= 23 => 1,
            _ => 0,
        };
        assert_eq!(calls.get(), expected, "frame {frame}");
        if frame % 2 == 1 {
            // Half-way between keys k and k + 1: the mean of the two keys (nlerp of two unit
            // quaternions half-way is the rotation half-way), within the scalar type's rounding.
            let k = (frame / 2) as usize;
            let (t0, _, s0) = shared_keys(k);
            let (t1, _, s1) = shared_keys(k + 1);
            let a = 0.05 * (k as f64 + 0.5);
            let mid = |x: f64, y: f64| S::from_f64((x + y) / 2.0);
            let j = pose[0];
            for (got, want) in [
                (j.translation.x, mid(t0[0], t1[0])),
                (j.translation.y, mid(t0[1], t1[1])),
                (j.translation.z, mid(t0[2], t1[2])),
                (j.rotation.x, S::ZERO),
                (j.rotation.y, S::ZERO),
                (j.rotation.z, S::from_f64((a / 2.0).sin())),
                (j.rotation.w, S::from_f64((a / 2.0).cos())),
                (j.scale.x, mid(s0[0], s1[0])),
            ] {
                assert!(got.approx_eq(want, tol), "frame {frame}: {got:?} against {want:?}");
            }
            // The bone without channels and the missing scale: the rest pose's.
            assert_eq!(pose[3], rest[3]);
            assert_eq!(pose[4].scale, rest[4].scale);
        }
    }
}

#[test]
fn shared_brackets_f32() {
    shared_brackets::<f32>();
}

#[test]
fn shared_brackets_q16() {
    shared_brackets::<Q16>();
}

/// The same in 2D: one bone of three Linear channels keyed at the same times, one without.
fn shared_brackets_2d<S: Scalar>() {
    use Interpolation::Linear;
    let (times, _) = shared_times();
    let n = times.len();
    let t: Vec<f64> = (0..n).flat_map(|k| [0.1 * k as f64, -0.2 * k as f64]).collect();
    let r: Vec<f64> = (0..n).map(|k| 0.05 * k as f64).collect();
    let sc: Vec<f64> = (0..n).flat_map(|k| [1.0 + 0.01 * k as f64; 2]).collect();
    let chans: Vec<[Option<Ch<S>>; 3]> = vec![
        [ch(Linear, &times, &t, &[]), ch(Linear, &times, &r, &[]), ch(Linear, &times, &sc, &[])],
        [None, None, None],
    ];
    let tracks: Vec<SliceTrack<'_, S>> =
        chans.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let clip = SliceSkelClip { duration: S::ONE, looping: true, tracks: &tracks, events: &[] };
    clip.check::<Transform2<S>>().unwrap();
    let parents = [u16::MAX, 0, 1, 2, 3];
    let rest = [Transform2::<S>::IDENTITY; 5];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    same_as_plain::<S, Transform2<S>, _>(&skeleton, &clip, RotationInterp::Nlerp, u8::MAX);
}

#[test]
fn shared_brackets_2d_f32() {
    shared_brackets_2d::<f32>();
}

#[test]
fn shared_brackets_2d_q16() {
    shared_brackets_2d::<Q16>();
}

#[test]
fn memory_per_bone() {
    // 12 bytes of cursors + two joints + 6 bracket bounds + a bone handle of 4 bytes + 3 span
    // bytes and a shape byte, plus the clip key (an `Option<usize>`: 8 bytes on 32-bit targets, 16
    // here): 12 + 2·40 + 6·4 + 4 + 4 = 124 in 3D, 12 + 2·20 + 24 + 4 + 4 = 84 in 2D.
    assert_eq!(core::mem::size_of::<BoneHandle>(), 4);
    let key = core::mem::size_of::<Option<usize>>();
    assert_eq!(core::mem::size_of::<CachedSamplingContext<f32, Transform3<f32>, 70>>(), 70 * 124 + key);
    assert_eq!(core::mem::size_of::<CachedSamplingContext<Q16, Transform3<Q16>, 70>>(), 70 * 124 + key);
    assert_eq!(core::mem::size_of::<CachedSamplingContext<f32, Transform2<f32>, 70>>(), 70 * 84 + key);
}

/// The players with cached contexts (`AnimPlayer<S, J, N, X>` and the like) give the same poses,
/// root motion and events as with plain ones, through play, updates, a crossfade, a seek, reverse
/// playback and a restart; a blend space and a one-shot likewise.
fn players_with_cached_contexts<S: Scalar>() {
    use ossicle::skeleton::{AnimPlayer, BlendSpace1D, BlendSpacePlayer, OneShot, Rig};
    type T3<S> = Transform3<S>;
    type Cached<S> = CachedSamplingContext<S, T3<S>, 5>;
    let a = channels_3d::<S>();
    let tracks_a: Vec<SliceTrack<'_, S>> =
        a.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    // A second clip: the same channels on other bones.
    let tracks_b: Vec<SliceTrack<'_, S>> = tracks_a.iter().rev().copied().collect();
    let events = [ossicle::skeleton::ClipEvent { time: S::HALF, name: 1 }];
    let clips = [
        SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks_a, events: &events },
        SliceSkelClip { duration: S::from_f64(1.5), looping: true, tracks: &tracks_b, events: &[] },
    ];
    let parents = [u16::MAX, 0, 1, 0, 3];
    let rest = rest_3d::<S>();
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let rig = Rig::new(&skeleton, &clips);
    let (mut qa, mut qb) = player_script::<S, _, _, Cached<S>, 5>(&rig, &clips, |frame, pa, pb| {
        assert_eq!(pa, pb, "pose at frame {frame}");
    });
    let dt = S::from_ratio(1, 60);
    let (mut pa, mut pb) = ([T3::<S>::IDENTITY; 5], [T3::<S>::IDENTITY; 5]);
    let (mut na, mut nb) = (0, 0);
    while let (Some(x), Some(y)) = (qa.pop(), qb.pop()) {
        assert_eq!(x, y);
        (na, nb) = (na + 1, nb + 1);
    }
    // Clip 0's event at 0.5 s, crossed once before the crossfade and once after the restart.
    assert!(qa.pop().is_none() && qb.pop().is_none() && na == nb && na >= 2, "{na} events");

    // A blend space over the two clips.
    let speeds = [S::ONE, S::from_i32(3)];
    let space = BlendSpace1D::new(&speeds).unwrap();
    let mut bs_plain: BlendSpacePlayer<S, T3<S>, 5> = BlendSpacePlayer::new(2);
    let mut bs_cached: BlendSpacePlayer<S, T3<S>, 5, Cached<S>> = BlendSpacePlayer::new(2);
    for frame in 0..200 {
        let w = space.weights(S::from_ratio(100 + frame, 100));
        bs_plain.set_weights(w);
        bs_cached.set_weights(w);
        let ma = bs_plain.update(&rig, &[0, 1], dt, &mut qa).unwrap();
        let mb = bs_cached.update(&rig, &[0, 1], dt, &mut qb).unwrap();
        assert_eq!(ma, mb, "blend space motion at frame {frame}");
        bs_plain.evaluate(&rig, &[0, 1], &mut pa).unwrap();
        bs_cached.evaluate(&rig, &[0, 1], &mut pb).unwrap();
        assert_eq!(pa, pb, "blend space pose at frame {frame}");
    }

    // A one-shot of clip 1 over a base pose.
    let base = [T3::<S>::IDENTITY; 5];
    let mut os_plain: OneShot<S, T3<S>, 5> = OneShot::new(3);
    let mut os_cached: OneShot<S, T3<S>, 5, Cached<S>> = OneShot::new(3);
    os_plain.play(&clips, 1, S::from_f64(0.25), S::from_f64(0.25)).unwrap();
    os_cached.play(&clips, 1, S::from_f64(0.25), S::from_f64(0.25)).unwrap();
    for frame in 0..100 {
        os_plain.update(&clips, dt, &mut qa).unwrap();
        os_cached.update(&clips, dt, &mut qb).unwrap();
        os_plain.apply(&rig, &base, None, &mut pa).unwrap();
        os_cached.apply(&rig, &base, None, &mut pb).unwrap();
        assert_eq!(pa, pb, "one-shot pose at frame {frame}");
    }
    // The players' fixed state is the same whatever their contexts.
    assert_eq!(AnimPlayer::<S, T3<S>, 5>::STATE_BYTES, AnimPlayer::<S, T3<S>, 5, Cached<S>>::STATE_BYTES);
    assert_eq!(OneShot::<S, T3<S>, 5>::STATE_BYTES, OneShot::<S, T3<S>, 5, Cached<S>>::STATE_BYTES);
}

#[test]
fn players_with_cached_contexts_f32() {
    players_with_cached_contexts::<f32>();
}

#[test]
fn players_with_cached_contexts_q16() {
    players_with_cached_contexts::<Q16>();
}

/// Every key `k` of every channel read with `SkelClipSource::key` through the channel's handle (with
/// the component count `widths` gives per kind) equals what `channel`'s view reads (`times.get(k)`,
/// `values.get4(k·w, w)`), and, where `raw` has the channel's values and times (and does not list
/// it as quantised), those; past the
/// last key (and for a bone or channel without keys) it is `None`.
fn key_reads_equal_channel<S: Scalar, C: SkelClipSource<S>>(
    clip: &C,
    bones: usize,
    widths: [usize; 3],
    raw: Option<Raw<'_, S>>,
) -> usize {
    let mut checked = 0;
    for bone in 0..bones + 2 {
        for kind in ChannelKind::ALL {
            let w = widths[kind.index()];
            let handle = clip.bone_handle(bone);
            let Some(ch) = clip.channel(bone, kind) else {
                for k in 0..3 {
                    assert_eq!(clip.key(bone, kind, handle, k, w), None, "bone {bone} {kind:?}");
                }
                continue;
            };
            let n = ossicle::skeleton::Scalars::len(&ch.times);
            let expect = raw
                .filter(|(_, quantized)| !quantized.contains(&(bone, kind.index())))
                .and_then(|(r, _)| r.get(bone)?[kind.index()].as_ref());
            for k in 0..n {
                let got = clip.key(bone, kind, handle, k, w).unwrap_or_else(|| panic!("bone {bone} {kind:?} key {k}"));
                let want = (
                    ossicle::skeleton::Scalars::get(&ch.times, k),
                    ossicle::skeleton::Scalars::get4(&ch.values, k * w, w),
                );
                assert_eq!(got, want, "bone {bone} {kind:?} key {k} width {w}");
                assert!(got.1[w..].iter().all(|&v| v == S::ZERO));
                if let Some(e) = expect.filter(|e| e.values.len() == e.times.len() * w) {
                    assert_eq!(got.0, e.times[k]);
                    assert_eq!(&got.1[..w], &e.values[k * w..k * w + w], "bone {bone} {kind:?} key {k}");
                }
                checked += 1;
            }
            for k in [n, n + 1, n + 1000, usize::MAX] {
                assert_eq!(clip.key(bone, kind, handle, k, w), None, "bone {bone} {kind:?} key {k} of {n}");
            }
        }
    }
    checked
}

/// `key` through handles: the default (`SliceSkelClip`), and a blob's own reads in every storage
/// of times (raw, u8 and u16 indices, bitmaps, the compact layout), raw and quantised values, 3D
/// and 2D, read with the clip's widths and with the other dimension's.
fn key_reads<S: Scalar>() {
    let chans = channels_3d::<S>();
    let tracks: Vec<SliceTrack<'_, S>> =
        chans.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let clip = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] };
    assert_eq!(key_reads_equal_channel(&clip, 5, [3, 4, 3], Some((&chans, &[]))), 29);
    use ossicle::skeleton::Dimension;
    let chans_2d = channels_2d::<S>();
    for mode in [BlobTimes::Raw, BlobTimes::Index8, BlobTimes::Index16, BlobTimes::Bitmap, BlobTimes::Compact] {
        let quantized = [(0, 1), (4, 2)];
        let bytes = blob_of::<S>(Dimension::D3, &chans, &quantized, mode);
        let asset = ossicle::asset::Asset::load(&bytes).unwrap();
        let blob = asset.skel_clip_named("walk").unwrap();
        assert_eq!(blob.section().compact(), mode == BlobTimes::Compact);
        let raw = Some((&chans[..], &quantized[..]));
        assert_eq!(key_reads_equal_channel::<S, _>(&blob, 5, [3, 4, 3], raw), 29, "{mode:?}");
        key_reads_equal_channel::<S, _>(&blob, 5, [2, 1, 2], None);
        let bytes = blob_of::<S>(Dimension::D2, &chans_2d, &[(2, 0)], mode);
        let asset = ossicle::asset::Asset::load(&bytes).unwrap();
        let blob = asset.skel_clip_named("walk").unwrap();
        let raw = Some((&chans_2d[..], &[(2, 0)][..]));
        assert_eq!(key_reads_equal_channel::<S, _>(&blob, 5, [2, 1, 2], raw), 31, "{mode:?}");
        key_reads_equal_channel::<S, _>(&blob, 5, [3, 4, 3], None);
        // The other scalar type: no channels, no keys.
        if S::ENCODING == ossicle_format::ScalarEncoding::F32 {
            let h = SkelClipSource::<Q16>::bone_handle(&blob, 0);
            assert_eq!(SkelClipSource::<Q16>::key(&blob, 0, ChannelKind::Translation, h, 0, 2), None);
        }
    }
}

#[test]
fn key_reads_f32() {
    key_reads::<f32>();
}

#[test]
fn key_reads_q16() {
    key_reads::<Q16>();
}

/// Cached sampling of blobs (every storage of times, raw and quantised values, Hermite, Step,
/// missing channels) gives the plain context's poses bit for bit.
fn cached_equals_plain_on_blobs<S: Scalar>() {
    use ossicle::skeleton::Dimension;
    let chans = channels_3d::<S>();
    let parents = [u16::MAX, 0, 1, 0, 3];
    let rest = rest_3d::<S>();
    let lods = [0, 0, 1, 2, 0];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap().with_lods(&lods).unwrap();
    let chans_2d = channels_2d::<S>();
    let rest_2d = [Transform2::<S>::IDENTITY; 5];
    let skeleton_2d = SliceSkeleton::new(&parents, &rest_2d).unwrap();
    for mode in [BlobTimes::Raw, BlobTimes::Index8, BlobTimes::Index16, BlobTimes::Bitmap, BlobTimes::Compact] {
        for quantized in [&[][..], &[(0, 1), (4, 2)][..]] {
            let bytes = blob_of::<S>(Dimension::D3, &chans, quantized, mode);
            let asset = ossicle::asset::Asset::load(&bytes).unwrap();
            let blob = asset.skel_clip_named("walk").unwrap();
            for rotation in [RotationInterp::Nlerp, RotationInterp::Slerp] {
                same_as_plain::<S, Transform3<S>, _>(&skeleton, &blob, rotation, u8::MAX);
            }
            same_as_plain::<S, Transform3<S>, _>(&skeleton, &blob, RotationInterp::Nlerp, 1);
        }
        let bytes = blob_of::<S>(Dimension::D2, &chans_2d, &[(2, 0)], mode);
        let asset = ossicle::asset::Asset::load(&bytes).unwrap();
        let blob = asset.skel_clip_named("walk").unwrap();
        same_as_plain::<S, Transform2<S>, _>(&skeleton_2d, &blob, RotationInterp::Nlerp, u8::MAX);
    }
}

#[test]
fn cached_equals_plain_on_blobs_f32() {
    cached_equals_plain_on_blobs::<f32>();
}

#[test]
fn cached_equals_plain_on_blobs_q16() {
    cached_equals_plain_on_blobs::<Q16>();
}

/// A clip with its own handles (`bone + 7`), whose `key` checks the handle it is given and counts
/// the calls of `channel`, `bone_handle` and `key`.
#[derive(Clone, Copy)]
struct Handled<'a, S> {
    inner: SliceSkelClip<'a, S>,
    calls: &'a Cell<[usize; 3]>,
}

impl<S> Handled<'_, S> {
    fn count(&self, i: usize) {
        let mut c = self.calls.get();
        c[i] += 1;
        self.calls.set(c);
    }
}

impl<'a, S: Scalar> SkelClipSource<S> for Handled<'a, S> {
    type Scalars = &'a [S];
    fn duration(&self) -> S {
        self.inner.duration
    }
    fn looping(&self) -> bool {
        self.inner.looping
    }
    fn bone_count(&self) -> usize {
        SkelClipSource::<S>::bone_count(&self.inner)
    }
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<&'a [S]>> {
        self.count(0);
        self.inner.channel(bone, kind)
    }
    fn bone_handle(&self, bone: usize) -> BoneHandle {
        self.count(1);
        BoneHandle(bone as u32 + 7)
    }
    fn key(&self, bone: usize, kind: ChannelKind, handle: BoneHandle, k: usize, width: usize) -> Option<(S, [S; 4])> {
        self.count(2);
        assert_eq!(handle, BoneHandle(bone as u32 + 7), "bone {bone} {kind:?}");
        let ch = self.inner.channel(bone, kind)?;
        let at = |i: usize| ch.values.get(i).copied().unwrap_or(S::ZERO);
        let v = core::array::from_fn(|c| if c < width { at(k * width + c) } else { S::ZERO });
        Some((*ch.times.get(k)?, v))
    }
    fn cache_key(&self) -> Option<usize> {
        self.inner.cache_key()
    }
}

/// The cached context through a source's handles: a bone's handle is asked for when one of its
/// channels is first read (once per Step or Linear channel); forward playback crosses the keys of a
/// bone whose three channels share their brackets (the straight path) with `key` alone, given the
/// bone's own handle, and no `channel` call; the poses are the plain context's.
fn cached_context_reads_keys_through_handles<S: Scalar>() {
    use Interpolation::Linear;
    let lin = |times: &[f64], w: usize| ch::<S>(Linear, times, &vec![0.5; times.len() * w], &[]);
    let shared = |times: &[f64]| [lin(times, 3), lin(times, 4), lin(times, 3)];
    let tenths: Vec<f64> = (0..=20).map(|k| f64::from(k) / 10.0).collect();
    let mut chans = [
        // Keys every 0.5 s from 0; from 0.25 to 1.75; a lone translation; none; every 0.1 s.
        shared(&[0.0, 0.5, 1.0, 1.5, 2.0]),
        shared(&[0.25, 0.75, 1.25, 1.75]),
        [lin(&[0.0, 1.0, 2.0], 3), None, None],
        [None, None, None],
        shared(&tenths),
    ];
    // Values that differ from key to key.
    for (b, bone) in chans.iter_mut().enumerate() {
        for c in bone.iter_mut().flatten() {
            for (i, v) in c.values.iter_mut().enumerate() {
                *v = S::from_f64(((b * 31 + i * 7) % 17) as f64 / 16.0);
            }
        }
    }
    let tracks: Vec<SliceTrack<'_, S>> =
        chans.iter().map(|c| SliceTrack { channels: [view(&c[0]), view(&c[1]), view(&c[2])] }).collect();
    let calls = Cell::new([0; 3]);
    let inner = SliceSkelClip { duration: S::TWO, looping: true, tracks: &tracks, events: &[] };
    inner.check::<Transform3<S>>().unwrap();
    let clip = Handled { inner, calls: &calls };
    let parents = [u16::MAX, 0, 1, 0, 3];
    let rest = rest_3d::<S>();
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let mut cached = CachedSamplingContext::<S, Transform3<S>, 5>::new();
    let mut plain = SamplingContext::<5>::new();
    let (mut a, mut b) = ([Transform3::IDENTITY; 5], [Transform3::IDENTITY; 5]);
    let job = |t: f64| SamplingJob::new(&skeleton, &clip, S::from_f64(t));
    // The first sample: every channel resolved once (15), the bone's handle for each of the 10 with
    // keys, no key read.
    job(0.0).run(&mut cached, &mut b).unwrap();
    assert_eq!(calls.get(), [15, 10, 0]);
    calls.set([0; 3]);
    for i in 1..120 {
        let t = f64::from(i) / 60.0;
        job(t).run(&mut cached, &mut b).unwrap();
        job(t).run(&mut plain, &mut a).unwrap();
        assert_eq!(a, b, "t = {t}");
    }
    let [channel, handles, keys] = calls.get();
    // The plain context: 15 `channel` calls per sample.
    let channel = channel - 15 * 119;
    assert_eq!(handles, 0);
    // Key reads: bone 0 crosses at 0.5, 1 and 1.5 (3 channels each: 9), bone 4 at 0.1 to 1.9 (57),
    // bone 1 at 0.75 and 1.25 (6), and past its last key at 1.75 (one `key`, `None`: the bone
    // leaves the straight path).
    assert_eq!(keys, 9 + 57 + 6 + 1);
    // `channel` calls: bone 1's three channels from before their first key into the keys (0.25)
    // and past their last (1.75), bone 2's lone translation at 1 (off the straight path).
    assert_eq!(channel, 3 + 3 + 1);
}

#[test]
fn cached_context_reads_keys_through_handles_f32() {
    cached_context_reads_keys_through_handles::<f32>();
}

#[test]
fn cached_context_reads_keys_through_handles_q16() {
    cached_context_reads_keys_through_handles::<Q16>();
}
