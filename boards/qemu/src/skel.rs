//! Instruction-count benchmarks of the skeletal jobs (`ossicle::skeleton`) on a real clip: Mixamo's
//! SlowRun (`../shared/fixtures/eva/SlowRun.eva`, 70 bones, 52 animated tracks) read in place from
//! a blob, **per joint**: every row's K is (runs of the job) · 70. The binaries `bench-skel-f32` and
//! `bench-skel-q16` (`src/bin/`) embed the blobs of one scalar type each and call [`run`]: the four
//! blobs (154 KB) and the sampling job in both types do not fit one image's 256 KiB of flash.
//!
//! The protocol is [`crate::bench`]'s (markers, `bench <type> <name> <arity> <K>` lines), and
//! `scripts/bench/qemu-insns.sh` runs both binaries after the others. Nothing is subtracted (arity
//! 0): the figure is count / K. The blobs (`slowrun-<type>.osb`, lossless, and
//! `slowrun-<type>-rq.osb`, `--reduce 0.01 --quantize`) are built by
//! `scripts/qemu/check.sh --blobs-only` when the fixtures are there; without them the two binaries
//! do not compile (see `build.rs`), and nothing else needs them.
//!
//! - `skel.sample-fwd`: forward playback at 60 Hz: [`U_FWD`] consecutive `SamplingJob::run`s, the
//!   time advancing by 1/60 s (wrapping at the clip's end) after a first run at 0, one persistent
//!   `SamplingContext` (the cursors move forward); `K = U_FWD · 70`.
//! - `skel.sample-seek`: [`SEEKS`] `SamplingJob::run`s at pseudo-random times over the clip (a fixed
//!   xorshift sequence), one persistent context, so the cursors are moved by the binary search;
//!   `K = SEEKS · 70`.
//! - `skel.blend2`: [`U_JOB`] `BlendingJob::run`s of two layers (SlowRun at 25 % of its duration,
//!   weight 0.7, and at 75 %, weight 0.3; no masks, threshold 0.1); `K = U_JOB · 70`.
//! - `skel.l2m`: [`U_JOB`] `LocalToModelJob::run`s of the pose at 25 %; `K = U_JOB · 70`.
//! - `skel.frame`: [`U_FWD`] frames at 60 Hz, each two forward samples (SlowRun at t and SlowRun at
//!   t + half its duration, each with its own context: the "second clip" is the same clip half a
//!   cycle apart), a two-layer blend (0.7 / 0.3) and local-to-model; `K = U_FWD · 70`.
//! - `skel.rq.*`: `skel.sample-fwd`, `skel.sample-seek` and `skel.frame` with the reduced and
//!   quantised blob (1,042 keys instead of 3,627, 16-bit values).
//! - `skel.cached.sample-fwd`, `skel.cached.sample-seek`, `skel.rq.cached.sample-fwd`: the same
//!   sampling with a `CachedSamplingContext` (the key pairs in use kept decoded: a forward step
//!   inside a bracket reads nothing from the blob; seeks miss every time); at 60 Hz on SlowRun's
//!   30 Hz keys every other frame crosses a key. `skel.cached.sample-slowmo`: the same at a quarter
//!   of the speed (the clip advancing 1/240 s a frame: a key crossed every 8th frame). Checked against the time
//!   sampled again with a fresh plain context (FNV-1a digests of the two poses: a second pose does
//!   not fit beside the 8,688-byte context).
//! - `skel.direct.sample-fwd`, `skel.direct.sample-seek`: `skel.sample-fwd` and `skel.sample-seek`
//!   with a `DirectSamplingContext` (each bone's key layout and rest pose kept, one bracket search
//!   per run of shared key times, key pairs read in place); checked the same way.
//!
//! After each measurement the result is checked, and a `bench-error` line is printed when it is
//! wrong: the last sampled pose equals (bit for bit) the same time sampled again with fresh
//! cursors, the blend's hips translation is 0.7 · a + 0.3 · b, the model transform of the left hand
//! is the product of the local transforms along its chain, the hips are within 10 m of the origin
//! (which NaN fails), and each timed loop's output equals one computed outside it.
//!
//! Memory: three poses (3 × 70 × 40 bytes) and two contexts (2 × 840 bytes) on the stack (10,080
//! bytes of the 16 KiB RAM), then for the cached rows one pose, a cached context and a plain one
//! (12,328 bytes), for the direct rows one pose, a direct context and a plain one (8,976 bytes);
//! the stack's peak is measured and printed (`stack: …`), and the run fails when
//! less than 1 KiB stays unused.

use core::hint::black_box;

use crate::bench::{announce, bench_start, bench_stop, check};
use crate::{check_stack, exit, line, repaint_stack, stack_usage};
use ossicle::math::Transform3;
use ossicle::skeleton::{
    BlendLayer, BlendingJob, BlobSkelClip, BlobSkeleton, CachedSamplingContext, DirectSamplingContext, Joint,
    LocalToModelJob, SamplingContext, SamplingJob, SamplingState, SkelClipSource, SkeletonSource,
};
use ossicle::{Asset, Scalar};

/// The skeleton's bones.
const BONES: usize = 70;
/// Forward samples and frames per measurement (one second at 60 Hz).
const U_FWD: usize = 60;
/// Seeks per measurement.
const SEEKS: usize = 32;
/// Blends and local-to-model runs per measurement.
const U_JOB: usize = 16;

/// The poses and contexts the benchmarks share (10,080 bytes, in the frame of `lossless_rows` or
/// `reduced_rows`).
struct Work<S> {
    a: [Transform3<S>; BONES],
    b: [Transform3<S>; BONES],
    c: [Transform3<S>; BONES],
    ctx_a: SamplingContext<BONES>,
    ctx_b: SamplingContext<BONES>,
}

impl<S: Scalar> Work<S> {
    /// Every pose component 0 (every benchmark samples into a pose before it reads it), every
    /// cursor at the first key: a constant, so that `let w = Work::NEW` copies it into the frame
    /// once instead of building it in a temporary, and of zero bytes, so that it costs no
    /// initialiser in flash.
    const NEW: Self = Self {
        a: [<Transform3<S> as Joint<S>>::BLEND_ZERO; BONES],
        b: [<Transform3<S> as Joint<S>>::BLEND_ZERO; BONES],
        c: [<Transform3<S> as Joint<S>>::BLEND_ZERO; BONES],
        ctx_a: SamplingContext::new(),
        ctx_b: SamplingContext::new(),
    };
}

/// The bones the checks look at.
#[derive(Clone, Copy)]
struct Probes {
    hips: usize,
    hand: usize,
}

/// SlowRun's skeleton and clip in `blob`, when both are there in the type `S`.
fn slowrun<S: Scalar>(blob: &[u8]) -> Option<(BlobSkeleton<'_>, BlobSkelClip<'_>, Probes)> {
    let asset = Asset::load(blob).ok()?;
    let clip = asset.skel_clip_named("SlowRun")?;
    let skel = asset.skeleton_of(&clip)?;
    clip.check::<S>().ok()?;
    skel.check::<S>().ok()?;
    if skel.bone_count() != BONES {
        return None;
    }
    let probes = Probes { hips: skel.find_bone("mixamorig:Hips")?, hand: skel.find_bone("mixamorig:LeftHand")? };
    Some((skel, clip, probes))
}

fn duration<S: Scalar>(clip: &BlobSkelClip<'_>) -> S {
    SkelClipSource::<S>::duration(clip)
}

/// `t + dt`, wrapped into the clip.
fn advance<S: Scalar>(t: S, dt: S, duration: S) -> S {
    let t = t.add(dt);
    if t >= duration {
        t.sub(duration)
    } else {
        t
    }
}

/// Bone `i` of `pose` (the identity when out of range, which the probes never are: they come from
/// `find_bone` on a skeleton of `BONES` bones, as long as the poses are).
fn bone<S: Scalar>(pose: &[Transform3<S>], i: usize) -> Transform3<S> {
    pose.get(i).copied().unwrap_or(Transform3::IDENTITY)
}

/// Within 10 m (1,000 cm) of the origin on each axis; false for NaN.
fn in_range<S: Scalar>(t: &Transform3<S>) -> bool {
    let limit = S::from_i32(1000);
    [t.translation.x, t.translation.y, t.translation.z].iter().all(|v| v.abs() < limit)
}

/// Translations within `tol` of each other, per axis.
fn near<S: Scalar>(a: &Transform3<S>, b: &Transform3<S>, tol: S) -> bool {
    a.translation.x.approx_eq(b.translation.x, tol)
        && a.translation.y.approx_eq(b.translation.y, tol)
        && a.translation.z.approx_eq(b.translation.z, tol)
}

/// `pose` at `t`, sampled with fresh cursors in `ctx`; true when it ran.
fn sample_fresh<S: Scalar>(
    skel: &BlobSkeleton<'_>,
    clip: &BlobSkelClip<'_>,
    t: S,
    ctx: &mut SamplingContext<BONES>,
    pose: &mut [Transform3<S>],
) -> bool {
    ctx.invalidate();
    SamplingJob::new(skel, clip, t).run(ctx, pose).is_ok()
}

/// Checks the pose in `w.a` against `t` sampled again with fresh cursors into `w.b`.
fn resampled_equal<S: Scalar>(
    skel: &BlobSkeleton<'_>,
    clip: &BlobSkelClip<'_>,
    t: S,
    w: &mut Work<S>,
    p: Probes,
) -> bool {
    let ran = sample_fresh(skel, clip, t, &mut w.ctx_b, &mut w.b);
    ran && w.a == w.b && in_range(&bone(&w.a, p.hips))
}

/// Forward sampling at 60 Hz with one persistent context.
#[inline(never)]
fn sample_fwd<S: Scalar>(ty: &[u8], name: &str, blob: &[u8], w: &mut Work<S>) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let dt = S::from_ratio(1, 60);
    let d = duration::<S>(&clip);
    let mut t = S::ZERO;
    let mut ok = sample_fresh(&skel, &clip, t, &mut w.ctx_a, &mut w.a);
    announce(ty, name, 0, U_FWD * BONES);
    bench_start();
    for _ in 0..U_FWD {
        t = advance(t, black_box(dt), d);
        ok &= black_box(SamplingJob::new(&skel, &clip, t).run(&mut w.ctx_a, &mut w.a)).is_ok();
    }
    bench_stop();
    check(name, ok && resampled_equal(&skel, &clip, t, w, p));
}

/// `SEEKS` pseudo-random times in `[0, duration)`.
fn seek_times<S: Scalar>(duration: S) -> [S; SEEKS] {
    let mut x: u32 = 0x9E37_79B9;
    let mut out = [S::ZERO; SEEKS];
    for o in out.iter_mut() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        // The top 16 bits as a fraction of the duration.
        *o = duration.mul(S::from_ratio((x >> 16) as i32, 65536));
    }
    out
}

/// Sampling at scattered times with one persistent context.
#[inline(never)]
fn sample_seek<S: Scalar>(ty: &[u8], name: &str, blob: &[u8], w: &mut Work<S>) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let times = seek_times(duration::<S>(&clip));
    let mut ok = sample_fresh(&skel, &clip, S::ZERO, &mut w.ctx_a, &mut w.a);
    announce(ty, name, 0, SEEKS * BONES);
    bench_start();
    for t in times.iter() {
        ok &= black_box(SamplingJob::new(&skel, &clip, black_box(*t)).run(&mut w.ctx_a, &mut w.a)).is_ok();
    }
    bench_stop();
    let last = times.last().copied().unwrap_or(S::ZERO);
    check(name, ok && resampled_equal(&skel, &clip, last, w, p));
}

/// Samples the two blend inputs: `w.a` at 25 % of the clip, `w.b` at 75 %.
fn two_poses<S: Scalar>(skel: &BlobSkeleton<'_>, clip: &BlobSkelClip<'_>, w: &mut Work<S>) -> bool {
    let d = duration::<S>(clip);
    let a = sample_fresh(skel, clip, d.mul(S::from_ratio(1, 4)), &mut w.ctx_a, &mut w.a);
    let b = sample_fresh(skel, clip, d.mul(S::from_ratio(3, 4)), &mut w.ctx_b, &mut w.b);
    a && b
}

/// Two-layer blends of `w.a` (0.7) and `w.b` (0.3) into `w.c`.
#[inline(never)]
fn blend2<S: Scalar>(ty: &[u8], name: &str, blob: &[u8], w: &mut Work<S>) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let mut ok = two_poses(&skel, &clip, w);
    let (wa, wb) = (S::from_ratio(7, 10), S::from_ratio(3, 10));
    let layers = [BlendLayer::new(&w.a[..], wa), BlendLayer::new(&w.b[..], wb)];
    let job = BlendingJob::new(&skel, &layers);
    ok &= job.run(&mut w.c).is_ok();
    let (first_hips, first_hand) = (bone(&w.c, p.hips), bone(&w.c, p.hand));
    announce(ty, name, 0, U_JOB * BONES);
    bench_start();
    for _ in 0..U_JOB {
        ok &= black_box(job.run(black_box(&mut w.c[..]))).is_ok();
    }
    bench_stop();
    let (a, b, c) = (bone(&w.a, p.hips), bone(&w.b, p.hips), bone(&w.c, p.hips));
    // The weights sum to 1, above the threshold (0.1): no rest-pose fill; translation = 0.7·a + 0.3·b.
    let total = wa.add(wb);
    let lerp = |x: S, y: S| wa.mul(x).add(wb.mul(y)).div(total);
    let expected = Transform3::new(
        ossicle::math::Vec3::new(
            lerp(a.translation.x, b.translation.x),
            lerp(a.translation.y, b.translation.y),
            lerp(a.translation.z, b.translation.z),
        ),
        c.rotation,
        c.scale,
    );
    ok &= near(&c, &expected, S::from_ratio(1, 100)) && in_range(&c);
    check(name, ok && c == first_hips && bone(&w.c, p.hand) == first_hand);
}

/// The model transform of bone `i`: the product of the local transforms from the root down to it,
/// computed along the parent chain (at most `BONES` links).
fn chain<S: Scalar>(skel: &BlobSkeleton<'_>, local: &[Transform3<S>], i: usize) -> Transform3<S> {
    let mut path = [0usize; BONES];
    let mut n = 0;
    let mut at = Some(i);
    while let (Some(b), Some(slot)) = (at, path.get_mut(n)) {
        *slot = b;
        n += 1;
        at = SkeletonSource::<S, Transform3<S>>::parent(skel, b);
    }
    let mut m = Transform3::IDENTITY;
    for &b in path.iter().take(n).rev() {
        m = m.mul(bone(local, b));
    }
    m
}

/// Local-to-model of `w.a` into `w.c`.
#[inline(never)]
fn l2m<S: Scalar>(ty: &[u8], name: &str, blob: &[u8], w: &mut Work<S>) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let mut ok = two_poses(&skel, &clip, w);
    let job = LocalToModelJob::new(&skel);
    ok &= job.run(&w.a, &mut w.c).is_ok();
    let first = bone(&w.c, p.hand);
    announce(ty, name, 0, U_JOB * BONES);
    bench_start();
    for _ in 0..U_JOB {
        ok &= black_box(job.run(black_box(&w.a[..]), &mut w.c)).is_ok();
    }
    bench_stop();
    let hand = bone(&w.c, p.hand);
    ok &= near(&hand, &chain(&skel, &w.a, p.hand), S::from_ratio(1, 100));
    check(name, ok && hand == first && in_range(&bone(&w.c, p.hips)) && in_range(&hand));
}

/// One frame: SlowRun at `t` into `w.a` and at `t2` into `w.b`, blended 0.7 / 0.3 into `w.c`, the
/// model pose into `w.a`.
#[inline(always)]
fn frame_once<S: Scalar>(skel: &BlobSkeleton<'_>, clip: &BlobSkelClip<'_>, t: S, t2: S, w: &mut Work<S>) -> bool {
    let a = SamplingJob::new(skel, clip, t).run(&mut w.ctx_a, &mut w.a).is_ok();
    let b = SamplingJob::new(skel, clip, t2).run(&mut w.ctx_b, &mut w.b).is_ok();
    let layers = [BlendLayer::new(&w.a[..], S::from_ratio(7, 10)), BlendLayer::new(&w.b[..], S::from_ratio(3, 10))];
    let c = BlendingJob::new(skel, &layers).run(&mut w.c).is_ok();
    let m = LocalToModelJob::new(skel).run(&w.c, &mut w.a).is_ok();
    a && b && c && m
}

/// Full frames at 60 Hz: two samples, a blend, local-to-model.
#[inline(never)]
fn frame<S: Scalar>(ty: &[u8], name: &str, blob: &[u8], w: &mut Work<S>) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let dt = S::from_ratio(1, 60);
    let d = duration::<S>(&clip);
    let (mut t, mut t2) = (S::ZERO, d.mul(S::HALF));
    w.ctx_a.invalidate();
    w.ctx_b.invalidate();
    let mut ok = frame_once(&skel, &clip, t, t2, w);
    announce(ty, name, 0, U_FWD * BONES);
    bench_start();
    for _ in 0..U_FWD {
        t = advance(t, black_box(dt), d);
        t2 = advance(t2, black_box(dt), d);
        ok &= black_box(frame_once(&skel, &clip, t, t2, w));
    }
    bench_stop();
    let (hips, hand) = (bone(&w.a, p.hips), bone(&w.a, p.hand));
    // The last frame again, with fresh cursors.
    w.ctx_a.invalidate();
    w.ctx_b.invalidate();
    ok &= frame_once(&skel, &clip, t, t2, w);
    check(name, ok && in_range(&hips) && hips == bone(&w.a, p.hips) && hand == bone(&w.a, p.hand));
}

/// What the cached-context and direct-context rows use: one pose, the context `X` (a
/// [`CachedSamplingContext`], 8,688 bytes, or a [`DirectSamplingContext`], 5,336) and a plain
/// context for the check (12,328 or 8,976 bytes, in the frame of `cached_rows` or `direct_rows`).
struct CachedWork<S: Scalar, X> {
    pose: [Transform3<S>; BONES],
    ctx: X,
    plain: SamplingContext<BONES>,
}

impl<S: Scalar, X: SamplingState<S, Transform3<S>>> CachedWork<S, X> {
    /// Every pose component 0, nothing cached (a constant: see [`Work::NEW`]).
    const NEW: Self =
        Self { pose: [<Transform3<S> as Joint<S>>::BLEND_ZERO; BONES], ctx: X::NEW, plain: SamplingContext::new() };
}

/// FNV-1a over every word of `pose` (the check compares poses by digest: two poses do not fit
/// the RAM beside a cached context).
fn digest<S: Scalar>(pose: &[Transform3<S>]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for j in pose {
        let words = [
            j.translation.x,
            j.translation.y,
            j.translation.z,
            j.rotation.x,
            j.rotation.y,
            j.rotation.z,
            j.rotation.w,
            j.scale.x,
            j.scale.y,
            j.scale.z,
        ];
        for v in words {
            h = (h ^ v.to_blob_bits()).wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// The pose in `w.pose` equals `t` sampled again with a fresh plain context (bit for bit, by
/// digest), and its hips are in range.
fn cached_checks<S: Scalar, X>(
    skel: &BlobSkeleton<'_>,
    clip: &BlobSkelClip<'_>,
    t: S,
    w: &mut CachedWork<S, X>,
    p: Probes,
) -> bool {
    let before = digest(&w.pose);
    let ran = sample_fresh(skel, clip, t, &mut w.plain, &mut w.pose);
    ran && before == digest(&w.pose) && in_range(&bone(&w.pose, p.hips))
}

/// Forward sampling at 60 Hz with one persistent [`CachedSamplingContext`], at `speed_div`-th
/// speed (1: real time; 4: slow motion, the clip advancing by 1/240 s a frame).
#[inline(never)]
fn cached_fwd<S: Scalar, X: SamplingState<S, Transform3<S>>>(
    ty: &[u8],
    name: &str,
    blob: &[u8],
    w: &mut CachedWork<S, X>,
    speed_div: i32,
) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let dt = S::from_ratio(1, 60 * speed_div);
    let d = duration::<S>(&clip);
    let mut t = S::ZERO;
    w.ctx.invalidate();
    let mut ok = SamplingJob::new(&skel, &clip, t).run(&mut w.ctx, &mut w.pose).is_ok();
    announce(ty, name, 0, U_FWD * BONES);
    bench_start();
    for _ in 0..U_FWD {
        t = advance(t, black_box(dt), d);
        ok &= black_box(SamplingJob::new(&skel, &clip, t).run(&mut w.ctx, &mut w.pose)).is_ok();
    }
    bench_stop();
    check(name, ok && cached_checks(&skel, &clip, t, w, p));
}

/// Sampling at scattered times with one persistent [`CachedSamplingContext`] (every sample misses).
#[inline(never)]
fn cached_seek<S: Scalar, X: SamplingState<S, Transform3<S>>>(
    ty: &[u8],
    name: &str,
    blob: &[u8],
    w: &mut CachedWork<S, X>,
) {
    let Some((skel, clip, p)) = slowrun::<S>(blob) else { return check(name, false) };
    let times = seek_times(duration::<S>(&clip));
    w.ctx.invalidate();
    let mut ok = SamplingJob::new(&skel, &clip, S::ZERO).run(&mut w.ctx, &mut w.pose).is_ok();
    announce(ty, name, 0, SEEKS * BONES);
    bench_start();
    for t in times.iter() {
        ok &= black_box(SamplingJob::new(&skel, &clip, black_box(*t)).run(&mut w.ctx, &mut w.pose)).is_ok();
    }
    bench_stop();
    let last = times.last().copied().unwrap_or(S::ZERO);
    check(name, ok && cached_checks(&skel, &clip, last, w, p));
}

/// The cached-context rows of both blobs (the context lives in this frame).
#[inline(never)]
fn cached_rows<S: Scalar>(ty: &[u8], lossless: &[u8], reduced: &[u8]) {
    let mut w = CachedWork::<S, CachedSamplingContext<S, Transform3<S>, BONES>>::NEW;
    cached_fwd(ty, "skel.cached.sample-fwd", lossless, &mut w, 1);
    cached_fwd(ty, "skel.cached.sample-slowmo", lossless, &mut w, 4);
    cached_seek(ty, "skel.cached.sample-seek", lossless, &mut w);
    cached_fwd(ty, "skel.rq.cached.sample-fwd", reduced, &mut w, 1);
}

/// The direct-context rows of the lossless blob (the context lives in this frame).
#[inline(never)]
fn direct_rows<S: Scalar>(ty: &[u8], lossless: &[u8]) {
    let mut w = CachedWork::<S, DirectSamplingContext<S, Transform3<S>, BONES>>::NEW;
    cached_fwd(ty, "skel.direct.sample-fwd", lossless, &mut w, 1);
    cached_seek(ty, "skel.direct.sample-seek", lossless, &mut w);
}

/// Every benchmark in `S` on SlowRun from `lossless` and from `reduced` (reduced and quantised),
/// printing the rows (`ty`: the type's name in them), then the stack's peak (lossless rows and
/// reduced rows apart), and ends the emulation (status 0, or 30 when less than 1 KiB of stack
/// stayed unused).
pub fn run<S: Scalar>(ty: &'static [u8], lossless: &[u8], reduced: &[u8]) -> ! {
    lossless_rows::<S>(ty, lossless);
    let (_, lossless_peak) = stack_usage();
    repaint_stack();
    reduced_rows::<S>(ty, reduced);
    let (_, reduced_peak) = stack_usage();
    repaint_stack();
    cached_rows::<S>(ty, lossless, reduced);
    direct_rows::<S>(ty, lossless);
    let (size, cached_peak) = stack_usage();
    line(&[b"bench done"]);
    check_stack(size, (b"lossless", lossless_peak), (b"reduced and cached", reduced_peak.max(cached_peak)));
    exit(0)
}

/// The rows of the lossless blob (the poses live in this frame).
#[inline(never)]
fn lossless_rows<S: Scalar>(ty: &[u8], blob: &[u8]) {
    let mut w = Work::<S>::NEW;
    sample_fwd(ty, "skel.sample-fwd", blob, &mut w);
    sample_seek(ty, "skel.sample-seek", blob, &mut w);
    blend2(ty, "skel.blend2", blob, &mut w);
    l2m(ty, "skel.l2m", blob, &mut w);
    frame(ty, "skel.frame", blob, &mut w);
}

/// The rows of the reduced and quantised blob (the poses live in this frame).
#[inline(never)]
fn reduced_rows<S: Scalar>(ty: &[u8], blob: &[u8]) {
    let mut w = Work::<S>::NEW;
    sample_fwd(ty, "skel.rq.sample-fwd", blob, &mut w);
    sample_seek(ty, "skel.rq.sample-seek", blob, &mut w);
    frame(ty, "skel.rq.frame", blob, &mut w);
}
