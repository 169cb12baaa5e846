//! The skeletal trace: a fixed schedule of sampling, blending and local-to-model runs whose results
//! are printed as the bits of every joint, hashed, so that two machines running the same blob can be
//! compared bit for bit.
//!
//! The QEMU firmware `skeleton` (boards/qemu) runs [`run`] on host-built blobs on the Cortex-M4F
//! and the Cortex-M0, and `tests/tests/qemu_skeleton.rs` requires their output to equal the same
//! runner's output on the host, line for line. Q16.16 is integer arithmetic; f32 uses IEEE-754 basic
//! operations (`sqrt` included, correctly rounded on every target) and the same libm code for
//! slerp, so both types are expected to match exactly.
//!
//! # The schedule
//!
//! [`STEPS`] steps; step `k` runs, with `d` clip A's duration and `e` clip B's:
//!
//! 1. **Sample A** at `t(k)` into pose A, with one persistent [`SamplingContext`]:
//!    `t(k) = k/60` for `k < 48` (forward at 60 Hz, past the clip's end: a looping clip wraps, a
//!    non-looping one clamps), `t(k) = d·(60 − k)/12` for `48 ≤ k < 60` (backwards: every step a
//!    seek), `t(k) = d·((5·(k − 60)) mod 12)/12 + 1/120` for `k ≥ 60` (scattered).
//! 2. **Sample B** at `t(k) + e/2` into pose B, with its own context; every fourth step
//!    (`k mod 4 = 3`) with slerp instead of nlerp.
//! 3. **Blend** A with weight `(k mod 11)/10` and B with weight `1 − (k mod 11)/10` under the mask
//!    `m[i] = (i mod 3)/2` (0, ½, 1, 0, …), threshold 0.1: where both weights are small the rest
//!    pose fills in. When `k mod 3 = 0`, pose A is also applied as an additive layer with weight ½
//!    against the bind pose ([`AdditiveReference::BindPose`]).
//! 4. **Local-to-model** of the blended pose (into pose A's array, once its hash is taken).
//!
//! # The output
//!
//! ```text
//! skeleton bones 70 steps 72
//! step 0 t 00000000 a 1c2b…  b 9e01… blend 77aa… model 03f1…
//! …
//! joint 0 <10 words>            (the last step's model pose, every joint)
//! …
//! end 5d3c0a19
//! ```
//!
//! Every number is hexadecimal: times and joint words are the scalars' blob bits
//! ([`Scalar::to_blob_bits`]: f32 bits, or Q16.16 bits), the four pose hashes are FNV-1a (32 bits)
//! over the little-endian blob bits of every joint's ten scalars (translation x y z, rotation x y z
//! w, scale x y z) in bone order, and `end` is the FNV-1a of all the step hashes.
//!
//! Memory: a [`TraceWork`] holds three poses (40 bytes per joint each), a mask (4 bytes per joint)
//! and two contexts (12 bytes per bone each): 148 bytes per bone, 10,360 bytes for 70 bones.

use core::fmt;

use super::blend::{AdditiveReference, BlendLayer, BlendingJob};
use super::l2m::{JobError, LocalToModelJob};
use super::sample::{RotationInterp, SamplingContext, SamplingJob};
use super::source::{SkelClipSource, SkeletonSource};
use crate::math::Transform3;
use crate::scalar::Scalar;

/// The number of steps of the schedule.
pub const STEPS: u32 = 72;

/// Why [`run`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TraceError {
    /// A job refused its inputs (the work area is smaller than the skeleton, or a clip does not fit
    /// it); `step` is the step it happened at.
    Job {
        /// The step.
        step: u32,
        /// The job's error.
        error: JobError,
    },
    /// The output refused a write.
    Write,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Job { step, error } => write!(f, "step {step}: {error}"),
            TraceError::Write => f.write_str("the output refused a write"),
        }
    }
}

impl From<fmt::Error> for TraceError {
    fn from(_: fmt::Error) -> Self {
        TraceError::Write
    }
}

/// The memory [`run`] works in, for skeletons of up to `N` bones (148 bytes per bone).
pub struct TraceWork<S, const N: usize> {
    a: [Transform3<S>; N],
    b: [Transform3<S>; N],
    c: [Transform3<S>; N],
    mask: [S; N],
    ctx_a: SamplingContext<N>,
    ctx_b: SamplingContext<N>,
}

impl<S: Scalar, const N: usize> TraceWork<S, N> {
    /// Identity poses and fresh contexts (a constant: `let mut w = TraceWork::NEW` builds it in
    /// place).
    pub const NEW: Self = Self {
        a: [Transform3::IDENTITY; N],
        b: [Transform3::IDENTITY; N],
        c: [Transform3::IDENTITY; N],
        mask: [S::ZERO; N],
        ctx_a: SamplingContext::new(),
        ctx_b: SamplingContext::new(),
    };
}

/// FNV-1a, 32 bits.
#[derive(Clone, Copy)]
struct Fnv(u32);

impl Fnv {
    const NEW: Self = Fnv(0x811C_9DC5);

    fn word(&mut self, w: u32) {
        for b in w.to_le_bytes() {
            self.0 = (self.0 ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
}

/// The ten words of a joint.
fn words<S: Scalar>(j: &Transform3<S>) -> [u32; 10] {
    let (t, r, s) = (j.translation, j.rotation, j.scale);
    [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z].map(Scalar::to_blob_bits)
}

/// The hash of the first `bones` joints of `pose`.
fn hash<S: Scalar>(pose: &[Transform3<S>], bones: usize) -> u32 {
    let mut h = Fnv::NEW;
    for j in pose.iter().take(bones) {
        for w in words(j) {
            h.word(w);
        }
    }
    h.0
}

/// Step `k`'s time for clip A of duration `d` (see the module docs).
fn time_a<S: Scalar>(k: u32, d: S) -> S {
    let k = k as i32;
    if k < 48 {
        S::from_ratio(k, 60)
    } else if k < 60 {
        d.mul(S::from_ratio(60 - k, 12))
    } else {
        d.mul(S::from_ratio((5 * (k - 60)) % 12, 12)).add(S::from_ratio(1, 120))
    }
}

/// Runs the schedule with clip `a` and clip `b` on `skeleton`, writing the trace to `out`; returns
/// the final hash (the `end` line's). Errors when a job refuses its inputs (for instance a skeleton
/// of more than `N` bones) or the output refuses a write; what was written stays written.
///
/// ```
/// use ossicle::math::{Quat, Transform3, Vec3};
/// use ossicle::skeleton::trace::{run, TraceWork};
/// use ossicle::skeleton::{ChannelData, Interpolation, SliceSkelClip, SliceSkeleton, SliceTrack};
///
/// let parents = [u16::MAX, 0];
/// let rest = [Transform3::<f32>::IDENTITY, Transform3::new(Vec3::new(1.0, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE)];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// let (times, values) = ([0.0f32, 1.0], [0.0f32, 0.0, 0.0, 0.0, 2.0, 0.0]);
/// let channel = ChannelData { interpolation: Interpolation::Linear, times: &times[..], values: &values[..], tangents: &[][..] };
/// let tracks = [SliceTrack { channels: [Some(channel), None, None] }, SliceTrack::NONE];
/// let clip = SliceSkelClip { duration: 1.0, looping: true, tracks: &tracks, events: &[] };
///
/// let mut work = TraceWork::<f32, 2>::NEW;
/// let mut out = String::new();
/// let end = run(&skeleton, &clip, &clip, &mut work, &mut out).unwrap();
/// assert!(out.starts_with("skeleton bones 2 steps 72\nstep 0 t 00000000 "));
/// assert!(out.ends_with(&format!("end {end:08x}\n")));
/// ```
pub fn run<S, K, A, B, W, const N: usize>(
    skeleton: &K,
    a: &A,
    b: &B,
    work: &mut TraceWork<S, N>,
    out: &mut W,
) -> Result<u32, TraceError>
where
    S: Scalar,
    K: SkeletonSource<S, Transform3<S>>,
    A: SkelClipSource<S>,
    B: SkelClipSource<S>,
    W: fmt::Write,
{
    let bones = skeleton.bone_count();
    writeln!(out, "skeleton bones {bones} steps {STEPS}")?;
    for (i, m) in work.mask.iter_mut().enumerate() {
        *m = S::from_ratio((i % 3) as i32, 2);
    }
    work.ctx_a.invalidate();
    work.ctx_b.invalidate();
    let (d, e) = (a.duration(), b.duration());
    let mut all = Fnv::NEW;
    for k in 0..STEPS {
        let job = |error| TraceError::Job { step: k, error };
        let t = time_a(k, d);
        SamplingJob::new(skeleton, a, t).run(&mut work.ctx_a, &mut work.a).map_err(job)?;
        let mut sample_b = SamplingJob::new(skeleton, b, t.add(e.mul(S::HALF)));
        if k % 4 == 3 {
            sample_b.rotation = RotationInterp::Slerp;
        }
        sample_b.run(&mut work.ctx_b, &mut work.b).map_err(job)?;
        let wa = S::from_ratio((k % 11) as i32, 10);
        let layers = [
            BlendLayer::new(&work.a[..], wa),
            BlendLayer { pose: &work.b[..], weight: S::ONE.sub(wa), mask: Some(&work.mask[..]) },
        ];
        let additive = [BlendLayer::new(&work.a[..], S::HALF)];
        let mut blend = BlendingJob::new(skeleton, &layers);
        if k % 3 == 0 {
            blend.additive = &additive;
            blend.additive_reference = AdditiveReference::BindPose;
        }
        blend.run(&mut work.c).map_err(job)?;
        let (ha, hb, hc) = (hash(&work.a, bones), hash(&work.b, bones), hash(&work.c, bones));
        LocalToModelJob::new(skeleton).run(&work.c, &mut work.a).map_err(job)?;
        let hm = hash(&work.a, bones);
        for h in [ha, hb, hc, hm] {
            all.word(h);
        }
        writeln!(out, "step {k} t {:08x} a {ha:08x} b {hb:08x} blend {hc:08x} model {hm:08x}", t.to_blob_bits())?;
    }
    for (i, j) in work.a.iter().take(bones).enumerate() {
        write!(out, "joint {i}")?;
        for w in words(j) {
            write!(out, " {w:08x}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "end {:08x}", all.0)?;
    Ok(all.0)
}
