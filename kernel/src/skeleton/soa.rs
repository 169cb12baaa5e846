//! Structure-of-arrays poses and the jobs that take them: [`SoaTransform3`] holds four 3D joints
//! component by component (`translation.x` is the x of all four, and so on), so that the blending
//! and local-to-model work of four joints is the same operation on four lanes, which the compiler
//! turns into SIMD instructions where the target has them (SSE2 on x86-64, NEON on AArch64) from
//! plain scalar code. This is ozz-animation's runtime layout. The f32 paths (the two-layer blend,
//! the blend's normalisation, local-to-model) are written on [`wide::f32x4`] vectors instead (the
//! `wide` crate: safe four-lane types, one instruction per operation on those targets, plain
//! arrays elsewhere), which keeps the compiler from pairing up lanes of different components,
//! lets local-to-model do a group's four bones with lanes known at compile time, and gives a
//! vector square root where the target has one; the results are the same bits. A Cortex-M has no
//! f32 SIMD, so
//! there is nothing to vectorise there: use the array-of-structures jobs
//! ([`BlendingJob`](super::BlendingJob), [`LocalToModelJob`](super::LocalToModelJob)) on
//! microcontrollers (the SoA jobs are not measured on them).
//!
//! - [`SoaTransform3::pack`] / [`SoaTransform3::unpack`]: a `[Transform3]` pose to and from
//!   `⌈bones / 4⌉` [`SoaTransform3`]s ([`soa_count`]); bone `i` is lane `i % 4` of group `i / 4`.
//! - [`SoaBlendingJob`]: [`BlendingJob`](super::BlendingJob)'s rule (weights, per-bone masks,
//!   rest-pose fill, additive layers, LOD) on SoA poses, with **the same results bit for bit**.
//! - [`SoaLocalToModelJob`]: an SoA local pose → one model matrix per bone
//!   (`model[i] = model[parent(i)] · local[i].to_affine()`, the exact matrix product, also for
//!   non-uniform scale), optionally for a sub-range of bones, with a LOD limit. The matrices are
//!   [`Affine3`]s or [`Affine3A`]s ([`ModelMatrix`]): the same twelve numbers bit for bit; an
//!   [`Affine3A`] is the padded columns of the 4×4 matrix, the layout skinning palettes are
//!   uploaded in, and the job's faster output (its columns are whole SIMD vectors).
//!
//! Memory: 160 bytes per group of four joints, f32 or Q16.16 (40 per joint, as `Transform3`); an
//! [`Affine3`] is 48 bytes, an [`Affine3A`] 64.
//!
//! ```
//! use ossicle::math::{Affine3, Affine3A, Quat, Transform3, Vec3};
//! use ossicle::skeleton::{BlendLayer, SliceSkeleton, SoaBlendingJob, SoaLocalToModelJob, SoaTransform3, soa_count};
//!
//! let parents = [u16::MAX, 0, 1];
//! let rest = [Transform3::<f32>::IDENTITY; 3];
//! let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
//! let step = Transform3::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, Vec3::ONE);
//! let (mut a, mut b) = ([SoaTransform3::IDENTITY; 1], [SoaTransform3::IDENTITY; 1]);
//! assert_eq!(soa_count(3), 1);
//! SoaTransform3::pack(&[step; 3], &mut a).unwrap();
//! SoaTransform3::pack(&[Transform3::IDENTITY; 3], &mut b).unwrap();
//!
//! // Half of each: every bone 0.5 above its parent.
//! let layers = [BlendLayer::new(&a[..], 0.5), BlendLayer::new(&b[..], 0.5)];
//! let mut local = [SoaTransform3::IDENTITY; 1];
//! SoaBlendingJob::new(&skeleton, &layers).run(&mut local).unwrap();
//!
//! let mut model = [Affine3::IDENTITY; 3];
//! SoaLocalToModelJob::new(&skeleton).run(&local, &mut model).unwrap();
//! assert_eq!(model[2].translation, Vec3::new(0.0, 1.5, 0.0));
//!
//! // The same matrices as padded 4×4 columns, e.g. for a skinning palette.
//! let mut palette = [Affine3A::IDENTITY; 3];
//! SoaLocalToModelJob::new(&skeleton).run(&local, &mut palette).unwrap();
//! assert_eq!(palette[2].cols()[3], [0.0, 1.5, 0.0, 1.0]);
//! assert_eq!(palette.map(|m| m.to_affine()), model);
//! ```

use super::blend::{validate_inputs, AdditiveReference, BlendLayer};
use super::l2m::JobError;
use super::source::{Joint, SkeletonSource};
use crate::math::{Affine3, Affine3A, Quat, Transform3, Vec3};
use crate::scalar::{Scalar, ScalarEncoding};
use wide::{f32x4, CmpGt, CmpLt};

/// Four lanes.
type L<S> = [S; 4];

#[inline(always)]
fn map<A: Copy, T: Copy + Default>(a: L<A>, f: impl Fn(A) -> T) -> L<T> {
    let mut out = [T::default(); 4];
    for (o, a) in out.iter_mut().zip(a) {
        *o = f(a);
    }
    out
}

#[inline(always)]
fn zip2<A: Copy, B: Copy, T: Copy + Default>(a: L<A>, b: L<B>, f: impl Fn(A, B) -> T) -> L<T> {
    let mut out = [T::default(); 4];
    for (o, (a, b)) in out.iter_mut().zip(a.into_iter().zip(b)) {
        *o = f(a, b);
    }
    out
}

#[inline(always)]
fn zip3<A: Copy, B: Copy, C: Copy, T: Copy + Default>(a: L<A>, b: L<B>, c: L<C>, f: impl Fn(A, B, C) -> T) -> L<T> {
    let mut out = [T::default(); 4];
    for (o, ((a, b), c)) in out.iter_mut().zip(a.into_iter().zip(b).zip(c)) {
        *o = f(a, b, c);
    }
    out
}

/// `m ? a : b` per lane.
#[inline(always)]
fn select<S: Copy + Default>(m: L<bool>, a: L<S>, b: L<S>) -> L<S> {
    zip3(m, a, b, |m, a, b| if m { a } else { b })
}

#[inline(always)]
fn any(m: L<bool>) -> bool {
    let [a, b, c, d] = m;
    a | b | c | d
}

#[inline(always)]
fn all(m: L<bool>) -> bool {
    let [a, b, c, d] = m;
    a & b & c & d
}

/// Lane `l` of `a` (`l < 4`; otherwise the first lane, never reached).
#[inline(always)]
fn lane<S: Copy>(a: &L<S>, l: usize) -> S {
    let [a0, a1, a2, a3] = *a;
    match l {
        1 => a1,
        2 => a2,
        3 => a3,
        _ => a0,
    }
}

/// Sets lane `l` of `a` (nothing when `l >= 4`).
#[inline(always)]
fn set_lane<S: Copy>(a: &mut L<S>, l: usize, v: S) {
    if let Some(x) = a.get_mut(l) {
        *x = v;
    }
}

/// Four 3D vectors, component by component.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SoaVec3<S> {
    /// The x components.
    pub x: [S; 4],
    /// The y components.
    pub y: [S; 4],
    /// The z components.
    pub z: [S; 4],
}

/// Four quaternions, component by component.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SoaQuat<S> {
    /// The x components.
    pub x: [S; 4],
    /// The y components.
    pub y: [S; 4],
    /// The z components.
    pub z: [S; 4],
    /// The w components.
    pub w: [S; 4],
}

/// Four 3D joint transforms ([`Transform3`]s) in structure-of-arrays form: lane `l` of each
/// component array belongs to joint `l`. A pose of `n` bones is `⌈n / 4⌉` of them
/// ([`soa_count`]): bone `i` is lane `i % 4` of group `i / 4`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SoaTransform3<S> {
    /// The translations.
    pub translation: SoaVec3<S>,
    /// The rotations.
    pub rotation: SoaQuat<S>,
    /// The scales.
    pub scale: SoaVec3<S>,
}

/// The number of [`SoaTransform3`] groups that hold `bones` joints: `⌈bones / 4⌉`.
pub const fn soa_count(bones: usize) -> usize {
    bones.div_ceil(4)
}

impl<S: Scalar> SoaVec3<S> {
    #[inline(always)]
    const fn splat(v: Vec3<S>) -> Self {
        Self { x: [v.x; 4], y: [v.y; 4], z: [v.z; 4] }
    }
    #[inline(always)]
    fn get(&self, l: usize) -> Vec3<S> {
        Vec3::new(lane(&self.x, l), lane(&self.y, l), lane(&self.z, l))
    }
    #[inline(always)]
    fn set(&mut self, l: usize, v: Vec3<S>) {
        set_lane(&mut self.x, l, v.x);
        set_lane(&mut self.y, l, v.y);
        set_lane(&mut self.z, l, v.z);
    }
    #[inline(always)]
    fn select(m: L<bool>, a: Self, b: Self) -> Self {
        Self { x: select(m, a.x, b.x), y: select(m, a.y, b.y), z: select(m, a.z, b.z) }
    }
}

impl<S: Scalar> SoaQuat<S> {
    #[inline(always)]
    const fn splat(q: Quat<S>) -> Self {
        Self { x: [q.x; 4], y: [q.y; 4], z: [q.z; 4], w: [q.w; 4] }
    }
    #[inline(always)]
    fn get(&self, l: usize) -> Quat<S> {
        Quat::from_xyzw(lane(&self.x, l), lane(&self.y, l), lane(&self.z, l), lane(&self.w, l))
    }
    #[inline(always)]
    fn set(&mut self, l: usize, q: Quat<S>) {
        set_lane(&mut self.x, l, q.x);
        set_lane(&mut self.y, l, q.y);
        set_lane(&mut self.z, l, q.z);
        set_lane(&mut self.w, l, q.w);
    }
    #[inline(always)]
    fn select(m: L<bool>, a: Self, b: Self) -> Self {
        Self { x: select(m, a.x, b.x), y: select(m, a.y, b.y), z: select(m, a.z, b.z), w: select(m, a.w, b.w) }
    }
    /// Per lane `self.dot(rhs)`, as [`Quat::dot`] sums it.
    #[inline(always)]
    fn dot(&self, rhs: &Self) -> L<S> {
        let xx = zip2(self.x, rhs.x, S::mul);
        let yy = zip2(self.y, rhs.y, S::mul);
        let zz = zip2(self.z, rhs.z, S::mul);
        let ww = zip2(self.w, rhs.w, S::mul);
        zip2(zip2(zip2(xx, yy, S::add), zz, S::add), ww, S::add)
    }
}

impl<S: Scalar> SoaTransform3<S> {
    /// Four identity transforms.
    pub const IDENTITY: Self = Self::splat(Transform3::IDENTITY);

    /// Every component 0 (the blending accumulator's start).
    const ZERO: Self = Self {
        translation: SoaVec3::splat(Vec3::ZERO),
        rotation: SoaQuat::splat(Quat::from_xyzw(S::ZERO, S::ZERO, S::ZERO, S::ZERO)),
        scale: SoaVec3::splat(Vec3::ZERO),
    };

    /// `j` in all four lanes.
    pub const fn splat(j: Transform3<S>) -> Self {
        Self {
            translation: SoaVec3::splat(j.translation),
            rotation: SoaQuat::splat(j.rotation),
            scale: SoaVec3::splat(j.scale),
        }
    }

    /// Four joints, joint `l` in lane `l`.
    #[inline]
    pub fn from_joints(joints: [Transform3<S>; 4]) -> Self {
        // Written out component by component (a 4×4 transpose per group of components), which
        // the compiler turns into a few shuffles.
        let [a, b, c, d] = joints;
        let (ta, tb, tc, td) = (a.translation, b.translation, c.translation, d.translation);
        let (ra, rb, rc, rd) = (a.rotation, b.rotation, c.rotation, d.rotation);
        let (sa, sb, sc, sd) = (a.scale, b.scale, c.scale, d.scale);
        Self {
            translation: SoaVec3 {
                x: [ta.x, tb.x, tc.x, td.x],
                y: [ta.y, tb.y, tc.y, td.y],
                z: [ta.z, tb.z, tc.z, td.z],
            },
            rotation: SoaQuat {
                x: [ra.x, rb.x, rc.x, rd.x],
                y: [ra.y, rb.y, rc.y, rd.y],
                z: [ra.z, rb.z, rc.z, rd.z],
                w: [ra.w, rb.w, rc.w, rd.w],
            },
            scale: SoaVec3 { x: [sa.x, sb.x, sc.x, sd.x], y: [sa.y, sb.y, sc.y, sd.y], z: [sa.z, sb.z, sc.z, sd.z] },
        }
    }

    /// The four joints.
    pub fn joints(&self) -> [Transform3<S>; 4] {
        [self.lane(0), self.lane(1), self.lane(2), self.lane(3)]
    }

    /// The joint in lane `lane`, or `None` when `lane >= 4`.
    pub fn joint(&self, lane: usize) -> Option<Transform3<S>> {
        (lane < 4).then(|| self.lane(lane))
    }

    /// Sets the joint in lane `lane`; returns `false` (and changes nothing) when `lane >= 4`.
    pub fn set_joint(&mut self, lane: usize, joint: Transform3<S>) -> bool {
        if lane >= 4 {
            return false;
        }
        self.translation.set(lane, joint.translation);
        self.rotation.set(lane, joint.rotation);
        self.scale.set(lane, joint.scale);
        true
    }

    #[inline(always)]
    fn lane(&self, l: usize) -> Transform3<S> {
        Transform3::new(self.translation.get(l), self.rotation.get(l), self.scale.get(l))
    }

    #[inline(always)]
    fn select(m: L<bool>, a: Self, b: Self) -> Self {
        Self {
            translation: SoaVec3::select(m, a.translation, b.translation),
            rotation: SoaQuat::select(m, a.rotation, b.rotation),
            scale: SoaVec3::select(m, a.scale, b.scale),
        }
    }

    /// Packs `joints` into `out`: bone `i` into lane `i % 4` of `out[i / 4]`; the lanes past the
    /// last joint are set to the identity. Fails (writing nothing) when `out` holds fewer than
    /// [`soa_count`]`(joints.len())` groups.
    pub fn pack(joints: &[Transform3<S>], out: &mut [Self]) -> Result<(), JobError> {
        let needed = soa_count(joints.len());
        if out.len() < needed {
            return Err(JobError::OutputTooSmall { needed, got: out.len() });
        }
        let full = joints.chunks_exact(4);
        let tail = full.remainder();
        let mut groups = out.iter_mut();
        // `full` first: zip asks it first, so `groups` is not advanced past the last full chunk.
        for (chunk, group) in full.zip(groups.by_ref()) {
            if let [a, b, c, d] = *chunk {
                *group = Self::from_joints([a, b, c, d]);
            }
        }
        if let (Some(group), false) = (groups.next(), tail.is_empty()) {
            let mut four = [Transform3::IDENTITY; 4];
            for (f, j) in four.iter_mut().zip(tail) {
                *f = *j;
            }
            *group = Self::from_joints(four);
        }
        Ok(())
    }

    /// Unpacks `groups` into `out`: `out[i]` from lane `i % 4` of `groups[i / 4]`, for every
    /// joint of `out`. Fails (writing nothing) when `groups` holds fewer than
    /// [`soa_count`]`(out.len())` groups.
    pub fn unpack(groups: &[Self], out: &mut [Transform3<S>]) -> Result<(), JobError> {
        let needed = soa_count(out.len());
        if groups.len() < needed {
            return Err(JobError::InputTooSmall { needed, got: groups.len() });
        }
        for (chunk, group) in out.chunks_mut(4).zip(groups) {
            for (o, j) in chunk.iter_mut().zip(group.joints()) {
                *o = j;
            }
        }
        Ok(())
    }
}

/// The rest pose of bones `4g..4g + 4` (the identity past the last bone).
#[inline]
fn rest_group<S: Scalar, K: SkeletonSource<S, Transform3<S>>>(skeleton: &K, g: usize) -> SoaTransform3<S> {
    let bones = skeleton.bone_count();
    let base = g.wrapping_mul(4);
    let mut out = SoaTransform3::IDENTITY;
    for l in 0..4 {
        let i = base.wrapping_add(l);
        if i < bones {
            out.set_joint(l, skeleton.rest(i));
        }
    }
    out
}

/// Per lane, whether bones `4g..4g + 4` are above the LOD limit `lod` (bones past the last: no).
#[inline]
fn above_lod<S: Scalar, K: SkeletonSource<S, Transform3<S>>>(skeleton: &K, g: usize, lod: u8) -> L<bool> {
    let bones = skeleton.bone_count();
    let base = g.wrapping_mul(4);
    let mut out = [false; 4];
    for (l, o) in out.iter_mut().enumerate() {
        let i = base.wrapping_add(l);
        *o = i < bones && skeleton.lod(i) > lod;
    }
    out
}

/// Whether [`wide::f32x4::sqrt`] is one correctly rounded vector instruction here (SSE, NEON on
/// AArch64, WebAssembly SIMD), so the same bits as the scalar `f32` square root. Elsewhere `wide`
/// computes it in software, so [`normalize_in_place`] takes the scalar path for such lanes instead; so it
/// does with `fast-math`, whose scalar square root is micromath's.
const VECTOR_SQRT: bool = cfg!(any(
    target_feature = "sse",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
)) && !cfg!(feature = "fast-math");

/// `q ← q / |q|` per lane, exactly as the array-of-structures jobs normalise (the private
/// `normalize_quat` behind [`Joint::normalize_rotation`]). In f32 the four lanes are computed as
/// [`wide::f32x4`] vectors (one SIMD operation per step where the target has them): the one Newton
/// step of lanes within 2⁻⁸ of unit length (the usual case) and, where some lane is outside that
/// but within `(1/64, 64)`, the square root and division of `normalize_quat`'s third case,
/// chosen lane by lane. Otherwise (a lane far from unit length or NaN, Q16.16, or no vector
/// square root) each lane goes through [`Joint::normalize_rotation`].
///
/// In place: the rare case reads and writes `q` itself, so that the usual one keeps the group in
/// registers (when both paths merged into one returned value, the compiler passed every group
/// through the stack).
#[inline(always)]
fn normalize_in_place<S: Scalar>(q: &mut SoaQuat<S>) {
    if S::ENCODING == ScalarEncoding::F32 {
        // `to_f32` and `from_blob_bits(to_bits)` are the identity for f32.
        let v = |a: L<S>| f32x4::from(map(a, S::to_f32));
        let (x, y, z, w) = (v(q.x), v(q.y), v(q.z), v(q.w));
        // As `Quat::dot`: ((x² + y²) + z²) + w².
        let n2 = x * x + y * y + z * z + w * w;
        let near = (n2 - f32x4::ONE).abs().cmp_lt(f32x4::splat(1.0 / 256.0));
        // `normalize_quat`'s one step from y₀ = 1 − d/2 (d = n² − 1): y₀·(3/2 − (n²/2)·y₀²).
        // Within 2⁻⁸ of 1, `n² − 1` and `d/2` are exact, so y₀ is 3/2 − n²/2 rounded once (the
        // same real number, so the same bits), from the halved n² the step needs anyway.
        let h = n2 * f32x4::HALF;
        let y0 = f32x4::splat(1.5) - h;
        let mut inv = y0 * (f32x4::splat(1.5) - h * (y0 * y0));
        if !near.all() {
            let mid = n2.cmp_gt(f32x4::splat(1.0 / 64.0)) & n2.cmp_lt(f32x4::splat(64.0));
            if !VECTOR_SQRT || !(near | mid).all() {
                return normalize_lanes(q);
            }
            // The third case, `1 / √n²` (correctly rounded square root, then division).
            inv = near.blend(inv, f32x4::ONE / n2.sqrt());
        }
        let back = |a: f32x4| map(a.to_array(), |v| S::from_blob_bits(v.to_bits()));
        (q.x, q.y, q.z, q.w) = (back(x * inv), back(y * inv), back(z * inv), back(w * inv));
        return;
    }
    normalize_lanes(q)
}

/// Each lane of `q` through [`Joint::normalize_rotation`] ([`normalize_in_place`]'s rare and Q16.16 case).
#[inline(never)]
fn normalize_lanes<S: Scalar>(q: &mut SoaQuat<S>) {
    for l in 0..4 {
        let r = q.get(l);
        let [x, y, z, w] = <Transform3<S> as Joint<S>>::normalize_rotation([r.x, r.y, r.z, r.w]);
        q.set(l, Quat::from_xyzw(x, y, z, w));
    }
}

/// Blends weighted layers of SoA local poses and applies additive layers: the rule of
/// [`BlendingJob`](super::BlendingJob), per bone, with the same results bit for bit (tested);
/// poses are [`SoaTransform3`] groups (bone `i` in lane `i % 4` of group `i / 4`), masks stay
/// one weight per bone. The lanes past the last bone are written as the identity.
///
/// Build it with [`SoaBlendingJob::new`] and adjust the public fields, as `BlendingJob`.
#[derive(Clone, Copy, Debug)]
pub struct SoaBlendingJob<'a, S, K> {
    /// The skeleton (bone count, rest pose, LODs).
    pub skeleton: &'a K,
    /// The normal layers (poses of at least [`soa_count`]`(bones)` groups, masks of at least one
    /// weight per bone).
    pub layers: &'a [BlendLayer<'a, S, SoaTransform3<S>>],
    /// The additive layers, applied in order after the normal ones.
    pub additive: &'a [BlendLayer<'a, S, SoaTransform3<S>>],
    /// What the additive layers' poses are measured from.
    pub additive_reference: AdditiveReference,
    /// The summed weight under which the rest pose fills in (must be positive).
    pub threshold: S,
    /// The LOD limit: bones whose LOD is above it take their rest pose (`u8::MAX`: all bones).
    pub lod: u8,
}

impl<'a, S: Scalar, K: SkeletonSource<S, Transform3<S>>> SoaBlendingJob<'a, S, K> {
    /// A job blending `layers`, without additive layers, with a threshold of 0.1 and every bone
    /// animated (as [`BlendingJob::new`](super::BlendingJob::new)).
    pub fn new(skeleton: &'a K, layers: &'a [BlendLayer<'a, S, SoaTransform3<S>>]) -> Self {
        Self {
            skeleton,
            layers,
            additive: &[],
            additive_reference: AdditiveReference::Identity,
            threshold: S::from_ratio(1, 10),
            lod: u8::MAX,
        }
    }

    /// Checks the inputs: the threshold is positive, every layer's pose and `output` hold at
    /// least [`soa_count`]`(bones)` groups, and every mask at least one weight per bone.
    pub fn validate(&self, output: &[SoaTransform3<S>]) -> Result<(), JobError> {
        let bones = self.skeleton.bone_count();
        validate_inputs(self.threshold, self.layers, self.additive, soa_count(bones), bones, output.len())
    }

    /// Blends into `output[..soa_count(bones)]`. Errors as [`SoaBlendingJob::validate`], before
    /// anything is written.
    pub fn run(&self, output: &mut [SoaTransform3<S>]) -> Result<(), JobError> {
        self.validate(output)?;
        let bones = self.skeleton.bone_count();
        let groups = soa_count(bones);
        let Some(output) = output.get_mut(..groups) else { return Ok(()) };
        if self.layers.iter().all(|l| l.mask.is_none()) {
            self.run_unmasked(output);
        } else {
            for (g, out) in output.iter_mut().enumerate() {
                *out = self.blend_group(g);
            }
        }
        let lods = self.lod != u8::MAX;
        if lods || !self.additive.is_empty() {
            for (g, out) in output.iter_mut().enumerate() {
                if lods {
                    let above = above_lod(self.skeleton, g, self.lod);
                    if any(above) {
                        *out = SoaTransform3::select(above, rest_group(self.skeleton, g), *out);
                    }
                }
                if !self.additive.is_empty() {
                    self.apply_additive(out, g, bones);
                }
            }
        }
        // The lanes past the last bone: the identity.
        if let (Some(last), 1..) = (output.last_mut(), bones % 4) {
            for l in (bones % 4)..4 {
                last.set_joint(l, Transform3::IDENTITY);
            }
        }
        Ok(())
    }

    /// Steps 1–3 without masks, layer by layer over all groups (every lane of every group has
    /// the same weights, so the same layers contribute everywhere and the first of them is every
    /// lane's reference), as `BlendingJob`'s unmasked path: per lane the same operations in the
    /// same order as [`SoaBlendingJob::blend_group`]'s.
    fn run_unmasked(&self, output: &mut [SoaTransform3<S>]) {
        let mut total = S::ZERO;
        let contributing = self.layers.iter().filter(|l| l.weight > S::ZERO);
        for layer in contributing.clone() {
            total = total.add(layer.weight);
        }
        let fill = if total < self.threshold { Some(self.threshold.sub(total)) } else { None };
        let total = if fill.is_some() { self.threshold } else { total };
        let mut contributing = contributing.peekable();
        let first = contributing.next();
        if let (Some(first), Some(second), None, None) = (first, contributing.next(), contributing.peek(), fill) {
            // Two layers and no fill (a crossfade): one pass.
            if total == S::ONE {
                two_layers::<S, true>(output, first, second, total);
            } else {
                two_layers::<S, false>(output, first, second, total);
            }
            return;
        }
        let mut contributing = self.layers.iter().filter(|l| l.weight > S::ZERO);
        match contributing.next() {
            Some(first) => {
                let w = first.weight;
                for (o, p) in output.iter_mut().zip(first.pose) {
                    *o = first_term(p, w);
                }
                for layer in contributing {
                    for ((o, p), r) in output.iter_mut().zip(layer.pose).zip(first.pose) {
                        add_term(o, p, &r.rotation, layer.weight);
                    }
                }
                if let Some(w) = fill {
                    for (g, (o, r)) in output.iter_mut().zip(first.pose).enumerate() {
                        add_term(o, &rest_group(self.skeleton, g), &r.rotation, w);
                    }
                }
            }
            None => {
                // No layer: the rest fill alone (weight `threshold`) is the first contributor.
                for (g, o) in output.iter_mut().enumerate() {
                    *o = first_term(&rest_group(self.skeleton, g), self.threshold);
                }
            }
        }
        for o in output.iter_mut() {
            finish(o, [total; 4]);
        }
    }

    /// The normal layers and the rest fill of group `g`, averaged (steps 1–3 of the rule).
    #[inline(always)]
    fn blend_group(&self, g: usize) -> SoaTransform3<S> {
        let base = g.wrapping_mul(4);
        let mut acc = SoaTransform3::ZERO;
        let mut total = [S::ZERO; 4];
        // Per lane: whether a contributor was seen, and the first contributor's rotation.
        let mut seen = [false; 4];
        let mut reference = SoaQuat::splat(Quat::from_xyzw(S::ZERO, S::ZERO, S::ZERO, S::ZERO));
        for layer in self.layers {
            let Some(pose) = layer.pose.get(g) else { continue };
            let w = lane_weights(layer, base);
            accumulate(&mut acc, &mut total, &mut seen, &mut reference, pose, w);
        }
        let need = map(total, |t| t < self.threshold);
        if any(need) {
            let rest = rest_group(self.skeleton, g);
            let w = zip2(need, total, |n, t| if n { self.threshold.sub(t) } else { S::ZERO });
            accumulate(&mut acc, &mut total, &mut seen, &mut reference, &rest, w);
            total = select(need, [self.threshold; 4], total);
        }
        finish(&mut acc, total);
        acc
    }

    /// Step 4 of the rule, lane by lane (as [`Joint::additive_delta`] / [`Joint::additive_apply`]).
    fn apply_additive(&self, blended: &mut SoaTransform3<S>, g: usize, bones: usize) {
        let base = g.wrapping_mul(4);
        for l in 0..4 {
            let i = base.wrapping_add(l);
            if i >= bones || (self.lod != u8::MAX && self.skeleton.lod(i) > self.lod) {
                continue;
            }
            let mut joint = blended.lane(l);
            let mut rest: Option<Transform3<S>> = None;
            for layer in self.additive {
                let w = match layer.mask {
                    Some(mask) => layer.weight.mul(mask.get(i).copied().unwrap_or(S::ZERO)),
                    None => layer.weight,
                };
                let Some(pose) = layer.pose.get(g).and_then(|p| p.joint(l)) else { continue };
                if w.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
                    continue;
                }
                let delta = match self.additive_reference {
                    AdditiveReference::Identity => pose,
                    AdditiveReference::BindPose => {
                        Transform3::additive_delta(*rest.get_or_insert_with(|| self.skeleton.rest(i)), pose)
                    }
                };
                joint = Transform3::additive_apply(joint, delta, w);
            }
            blended.set_joint(l, joint);
        }
    }
}

/// A layer's weight for the four bones from `base` (`weight × mask`, 0 past the mask's end).
#[inline(always)]
fn lane_weights<S: Scalar>(layer: &BlendLayer<'_, S, SoaTransform3<S>>, base: usize) -> L<S> {
    match layer.mask {
        Some(mask) => {
            let m = |l: usize| mask.get(base.wrapping_add(l)).copied().unwrap_or(S::ZERO);
            map([m(0), m(1), m(2), m(3)], |m| layer.weight.mul(m))
        }
        None => [layer.weight; 4],
    }
}

/// Adds `pose` at weight `w` to the lanes of `acc` where `w > 0`, as
/// [`Joint::blend_accumulate`] (the first contributor of a lane becomes its reference).
#[inline(always)]
fn accumulate<S: Scalar>(
    acc: &mut SoaTransform3<S>,
    total: &mut L<S>,
    seen: &mut L<bool>,
    reference: &mut SoaQuat<S>,
    pose: &SoaTransform3<S>,
    w: L<S>,
) {
    let c = map(w, |w| w > S::ZERO);
    let q = pose.rotation;
    *reference = SoaQuat::select(*seen, *reference, q);
    *seen = zip2(*seen, c, |s, c| s | c);
    let dot = q.dot(reference);
    let wq = zip2(dot, w, |d, w| if d < S::ZERO { w.neg() } else { w });
    // acc + pose·w per component, kept where the lane does not contribute.
    let t = &pose.translation;
    let s = &pose.scale;
    let a = &mut acc.translation;
    a.x = zip3(c, zip2(t.x, w, S::mul), a.x, |c, p, a| if c { p.add(a) } else { a });
    a.y = zip3(c, zip2(t.y, w, S::mul), a.y, |c, p, a| if c { p.add(a) } else { a });
    a.z = zip3(c, zip2(t.z, w, S::mul), a.z, |c, p, a| if c { p.add(a) } else { a });
    let r = &mut acc.rotation;
    r.x = zip3(c, zip3(q.x, wq, r.x, S::mul_add), r.x, |c, n, o| if c { n } else { o });
    r.y = zip3(c, zip3(q.y, wq, r.y, S::mul_add), r.y, |c, n, o| if c { n } else { o });
    r.z = zip3(c, zip3(q.z, wq, r.z, S::mul_add), r.z, |c, n, o| if c { n } else { o });
    r.w = zip3(c, zip3(q.w, wq, r.w, S::mul_add), r.w, |c, n, o| if c { n } else { o });
    let a = &mut acc.scale;
    a.x = zip3(c, zip2(s.x, w, S::mul), a.x, |c, p, a| if c { p.add(a) } else { a });
    a.y = zip3(c, zip2(s.y, w, S::mul), a.y, |c, p, a| if c { p.add(a) } else { a });
    a.z = zip3(c, zip2(s.z, w, S::mul), a.z, |c, p, a| if c { p.add(a) } else { a });
    *total = zip3(c, *total, w, |c, t, w| if c { t.add(w) } else { t });
}

/// The first contributor's term, `pose · w` (+ 0, as [`Joint::blend_first`]), in every lane.
#[inline(always)]
fn first_term<S: Scalar>(pose: &SoaTransform3<S>, w: S) -> SoaTransform3<S> {
    let m = |a: L<S>| map(a, |a| a.mul(w).add(S::ZERO));
    let ma = |a: L<S>| map(a, |a| a.mul_add(w, S::ZERO));
    let (t, q, s) = (&pose.translation, &pose.rotation, &pose.scale);
    SoaTransform3 {
        translation: SoaVec3 { x: m(t.x), y: m(t.y), z: m(t.z) },
        rotation: SoaQuat { x: ma(q.x), y: ma(q.y), z: ma(q.z), w: ma(q.w) },
        scale: SoaVec3 { x: m(s.x), y: m(s.y), z: m(s.z) },
    }
}

/// `acc += pose · w` in every lane, the rotation's weight negated where its dot product with
/// `reference` is negative (as [`Joint::blend_accumulate`]).
#[inline(always)]
fn add_term<S: Scalar>(acc: &mut SoaTransform3<S>, pose: &SoaTransform3<S>, reference: &SoaQuat<S>, w: S) {
    let q = &pose.rotation;
    let wq = map(q.dot(reference), |d| if d < S::ZERO { w.neg() } else { w });
    let m = |p: L<S>, a: L<S>| zip2(p, a, |p, a| p.mul(w).add(a));
    let ma = |p: L<S>, a: L<S>| zip3(p, wq, a, S::mul_add);
    let (t, s) = (&pose.translation, &pose.scale);
    let a = &mut acc.translation;
    (a.x, a.y, a.z) = (m(t.x, a.x), m(t.y, a.y), m(t.z, a.z));
    let r = &mut acc.rotation;
    (r.x, r.y, r.z, r.w) = (ma(q.x, r.x), ma(q.y, r.y), ma(q.z, r.z), ma(q.w, r.w));
    let a = &mut acc.scale;
    (a.x, a.y, a.z) = (m(s.x, a.x), m(s.y, a.y), m(s.z, a.z));
}

/// The weighted average in place, as [`Joint::blend_finish`]: translation and scale divided by `total`,
/// the rotation multiplied by `1 / total` and normalised. (Where `total` is exactly 1 this is what
/// `blend_finish`'s shortcut gives: `x / 1` and `x · 1` are `x`.)
#[inline(always)]
fn finish<S: Scalar>(p: &mut SoaTransform3<S>, total: L<S>) {
    if all(map(total, |t| t == S::ONE)) {
        return normalize_in_place(&mut p.rotation);
    }
    let inv = map(total, S::recip);
    let (t, r, s) = (&mut p.translation, &mut p.rotation, &mut p.scale);
    (t.x, t.y, t.z) = (zip2(t.x, total, S::div), zip2(t.y, total, S::div), zip2(t.z, total, S::div));
    (r.x, r.y, r.z, r.w) =
        (zip2(r.x, inv, S::mul), zip2(r.y, inv, S::mul), zip2(r.z, inv, S::mul), zip2(r.w, inv, S::mul));
    normalize_in_place(r);
    (s.x, s.y, s.z) = (zip2(s.x, total, S::div), zip2(s.y, total, S::div), zip2(s.z, total, S::div));
}

/// The two-layer pass of [`SoaBlendingJob::run_unmasked`]: group `g` of `output` is `first`'s at
/// its weight plus `second`'s at its weight, [`finish`]ed with `total` (`UNIT`: `total` is exactly
/// 1, so only the rotation changes, as `finish` gives it). Per lane the same operations as
/// `blend_group`'s; in f32 the sums are [`wide::f32x4`] operations, and every group is summed
/// before any is finished: the finishing pass's iterations are short and independent, so their
/// square roots and divisions overlap (faster than finishing each group as it is summed on
/// Jumping and SlowRun, whose blends take the square root in most groups: BENCHMARKS.md, session
/// 13; software pipelining, summing group `g` while finishing `g − 1`, measured slower in session
/// 11).
#[inline(always)]
fn two_layers<S: Scalar, const UNIT: bool>(
    output: &mut [SoaTransform3<S>],
    first: &BlendLayer<'_, S, SoaTransform3<S>>,
    second: &BlendLayer<'_, S, SoaTransform3<S>>,
    total: S,
) {
    let finish_one = |p: &mut SoaTransform3<S>| {
        if UNIT {
            normalize_in_place(&mut p.rotation);
        } else {
            finish(p, [total; 4]);
        }
    };
    let (w0, w1) = (first.weight, second.weight);
    if S::ENCODING == ScalarEncoding::F32 {
        // The same operations as `first_term` and `add_term` below, as `wide::f32x4` vectors.
        let v = |a: &L<S>| f32x4::from(map(*a, S::to_f32));
        let back = |a: f32x4| map(a.to_array(), |v| S::from_blob_bits(v.to_bits()));
        let (w0, w1, zero) = (f32x4::splat(w0.to_f32()), f32x4::splat(w1.to_f32()), f32x4::ZERO);
        let sum = |a: &L<S>, b: &L<S>| back(v(b) * w1 + (v(a) * w0 + zero));
        let sum3 =
            |a: &SoaVec3<S>, b: &SoaVec3<S>| SoaVec3 { x: sum(&a.x, &b.x), y: sum(&a.y, &b.y), z: sum(&a.z, &b.z) };
        for (o, (a, b)) in output.iter_mut().zip(first.pose.iter().zip(second.pose)) {
            let (qa, qb) = (&a.rotation, &b.rotation);
            let (ax, ay, az, aw) = (v(&qa.x), v(&qa.y), v(&qa.z), v(&qa.w));
            let (bx, by, bz, bw) = (v(&qb.x), v(&qb.y), v(&qb.z), v(&qb.w));
            let dot = bx * ax + by * ay + bz * az + bw * aw;
            let wq = dot.cmp_lt(zero).blend(-w1, w1);
            let rotation = SoaQuat {
                x: back(bx * wq + (ax * w0 + zero)),
                y: back(by * wq + (ay * w0 + zero)),
                z: back(bz * wq + (az * w0 + zero)),
                w: back(bw * wq + (aw * w0 + zero)),
            };
            *o = SoaTransform3 {
                translation: sum3(&a.translation, &b.translation),
                rotation,
                scale: sum3(&a.scale, &b.scale),
            };
        }
        // Finished in a second pass: short, independent iterations whose square roots and
        // divisions overlap (measured faster than finishing each group as it is summed).
        let summed = output.len().min(first.pose.len()).min(second.pose.len());
        for o in output.iter_mut().take(summed) {
            finish_one(o);
        }
        return;
    }
    for (o, (a, b)) in output.iter_mut().zip(first.pose.iter().zip(second.pose)) {
        let mut acc = first_term(a, w0);
        add_term(&mut acc, b, &a.rotation, w1);
        finish_one(&mut acc);
        *o = acc;
    }
}

/// Four local transforms as 3×4 matrices, column by column, lane by lane:
/// [`Transform3::to_affine`] of each lane (the same operations).
#[derive(Clone, Copy)]
struct SoaAffine3<S> {
    cols: [SoaVec3<S>; 4],
}

impl<S: Scalar> SoaAffine3<S> {
    /// The twelve entries, column by column, four lanes each.
    #[inline(always)]
    fn entries(&self) -> [[S; 4]; 12] {
        let [x, y, z, t] = &self.cols;
        [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z, t.x, t.y, t.z]
    }

    #[inline(always)]
    fn from_transforms(t: &SoaTransform3<S>) -> Self {
        let q = &t.rotation;
        let (xx, yy, zz) = (zip2(q.x, q.x, S::mul), zip2(q.y, q.y, S::mul), zip2(q.z, q.z, S::mul));
        let (xy, xz, yz) = (zip2(q.x, q.y, S::mul), zip2(q.x, q.z, S::mul), zip2(q.y, q.z, S::mul));
        let (wx, wy, wz) = (zip2(q.w, q.x, S::mul), zip2(q.w, q.y, S::mul), zip2(q.w, q.z, S::mul));
        // As `Quat::to_rotation_columns`: 1 − 2(b + c) and 2(b ± c).
        let one_minus = |b: L<S>, c: L<S>| zip2(b, c, |b, c| S::ONE.sub(S::TWO.mul(b.add(c))));
        let plus = |b: L<S>, c: L<S>| zip2(b, c, |b, c| S::TWO.mul(b.add(c)));
        let minus = |b: L<S>, c: L<S>| zip2(b, c, |b, c| S::TWO.mul(b.sub(c)));
        let scaled = |x: L<S>, y: L<S>, z: L<S>, s: L<S>| SoaVec3 {
            x: zip2(x, s, S::mul),
            y: zip2(y, s, S::mul),
            z: zip2(z, s, S::mul),
        };
        let sc = &t.scale;
        Self {
            cols: [
                scaled(one_minus(yy, zz), plus(xy, wz), minus(xz, wy), sc.x),
                scaled(minus(xy, wz), one_minus(xx, zz), plus(yz, wx), sc.y),
                scaled(plus(xz, wy), minus(yz, wx), one_minus(xx, yy), sc.z),
                t.translation,
            ],
        }
    }
}

/// Whether the loop keeps the previous bone's model matrix in a local (as
/// [`LocalToModelJob`](super::LocalToModelJob) does off ARM); the results are identical either way.
const KEEP_PREVIOUS: bool = !cfg!(target_arch = "arm");

/// An SoA local pose → model matrices: `model[i] = model[parent(i)] · local[i].to_affine()`
/// (the product of the matrices, so non-uniform scales shear children as they do in a scene
/// graph of matrices), the roots' parent being `root`. The local transforms are converted to
/// matrices four bones at a time ([`Transform3::to_affine`]'s operations); the product is
/// [`Affine3::mul`]'s except that each translation is summed as
/// `(p.x·t.x + p.y·t.y) + (p.z·t.z + p.t)` (`mul` adds `p.t` last), which shortens the chain
/// of dependent operations from a parent to its child: with `p` the parent's matrix and `c`
/// the bone's local one, column `j` of the product is `(p.x·c[j].x + p.y·c[j].y) + p.z·c[j].z`
/// for the three axes (`p.x` being `p`'s first column) and
/// `(p.x·c.t.x + p.y·c.t.y) + (p.z·c.t.z + p.t)` for the translation. Results are
/// bit-identical to that formula computed bone by bone (tested).
///
/// The output is a slice of [`Affine3`]s or of [`Affine3A`]s ([`ModelMatrix`]), whose twelve
/// numbers are the same, bit for bit; an [`Affine3A`]'s fourth row is `(0, 0, 0, 1)` whatever
/// they are. [`Affine3A`] is the faster output where the target has SIMD (no repacking of
/// four-number columns into three-number ones, parents read back as whole columns). With
/// [`Affine3`]s the job keeps the last few model matrices on the stack (512 bytes in f32) for
/// the parents that are not the bone just before their child.
///
/// In f32 the job computes on [`wide::f32x4`] vectors (one SIMD operation per step where the
/// target has them): a group's twelve local entries are one vector each, and its four bones are
/// done one after the other with their lanes known to the compiler; the operations per number are
/// the same as in Q16.16 and as the formula above, so are the results.
///
/// Only bones `from..to` are computed (`to` clamped to the bone count); a bone in the range whose
/// parent is outside it reads its parent's matrix from `output`. A bone whose LOD is above `lod`
/// uses its rest pose as its local transform.
#[derive(Clone, Copy, Debug)]
pub struct SoaLocalToModelJob<'a, S, K> {
    /// The skeleton (parents, and rest poses for the LOD).
    pub skeleton: &'a K,
    /// The model matrix of the roots' parent (usually the identity).
    pub root: Affine3<S>,
    /// The first bone computed.
    pub from: usize,
    /// One past the last bone computed (clamped to the bone count).
    pub to: usize,
    /// The LOD limit: bones whose LOD is above it use their rest pose (`u8::MAX`: all bones).
    pub lod: u8,
}

impl<'a, S: Scalar, K: SkeletonSource<S, Transform3<S>>> SoaLocalToModelJob<'a, S, K> {
    /// Every bone, `root` the identity, every LOD.
    pub fn new(skeleton: &'a K) -> Self {
        Self { skeleton, root: Affine3::IDENTITY, from: 0, to: usize::MAX, lod: u8::MAX }
    }

    fn end(&self) -> usize {
        self.to.min(self.skeleton.bone_count())
    }

    /// Checks that `from <= to` (after clamping), that `local` holds [`soa_count`]`(to)` groups
    /// and `output` `to` matrices.
    pub fn validate<M: ModelMatrix<S>>(&self, local: &[SoaTransform3<S>], output: &[M]) -> Result<(), JobError> {
        let to = self.end();
        if self.from > to {
            return Err(JobError::BadRange { from: self.from, to });
        }
        let groups = soa_count(to);
        if local.len() < groups {
            return Err(JobError::InputTooSmall { needed: groups, got: local.len() });
        }
        if output.len() < to {
            return Err(JobError::OutputTooSmall { needed: to, got: output.len() });
        }
        Ok(())
    }

    /// Computes the model matrices of bones `from..to` into `output` ([`Affine3`]s or
    /// [`Affine3A`]s). Errors as [`SoaLocalToModelJob::validate`], before anything is written.
    ///
    /// ```
    /// use ossicle::math::{Affine3A, Quat, Transform3, Vec3};
    /// use ossicle::skeleton::{SliceSkeleton, SoaLocalToModelJob, SoaTransform3};
    ///
    /// // A root scaled by 2 and a child 1 along x: the child's origin is at x = 2.
    /// let parents = [u16::MAX, 0];
    /// let rest = [Transform3::<f32>::IDENTITY; 2];
    /// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    /// let joints = [
    ///     Transform3::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(2.0)),
    ///     Transform3::new(Vec3::new(1.0, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
    /// ];
    /// let mut local = [SoaTransform3::IDENTITY; 1];
    /// SoaTransform3::pack(&joints, &mut local).unwrap();
    /// let mut palette = [Affine3A::IDENTITY; 2];
    /// SoaLocalToModelJob::new(&skeleton).run(&local, &mut palette).unwrap();
    /// // Column-major 4×4 matrices, ready to upload.
    /// assert_eq!(
    ///     palette[1].to_cols_array(),
    ///     [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 2.0, 0.0, 0.0, 1.0]
    /// );
    /// ```
    pub fn run<M: ModelMatrix<S>>(&self, local: &[SoaTransform3<S>], output: &mut [M]) -> Result<(), JobError> {
        self.validate(local, output)?;
        let to = self.end();
        let Some(output) = output.get_mut(..to) else { return Ok(()) };
        if self.lod == u8::MAX {
            self.compose::<M, false>(local, output);
        } else {
            self.compose::<M, true>(local, output);
        }
        Ok(())
    }

    /// One pass over the bones, in order (parents come before their children, so every
    /// parent's model matrix is known by then):
    ///
    /// - at the first bone of each group (and at `from`), the group's four local transforms to
    ///   matrices at once ([`SoaAffine3::from_transforms`]) into `m`, which the bones read by
    ///   lane index (a lane known only at run time keeps `m` an array, so that the compiler
    ///   computes it four lanes at a time instead of redoing it bone by bone in scalars), and the
    ///   group's four parents into `par` (read once a group: fewer reloads of the skeleton's
    ///   table than a lookup per bone, measurably so from a blob);
    /// - then the bone's model matrix as four padded columns ([`column()`]), its parent's taken
    ///   from `prev` (the bone before it), from `ring` (one of the last [`RING`] bones computed,
    ///   [`Affine3`] output only) or from `output`;
    /// - for an [`Affine3A`] output, the product's fourth row set to `(0, 0, 0, 1)` ([`pad`]);
    /// - the matrix goes to `ring` (four-number stores, so the columns stay whole vectors; not
    ///   with [`Affine3A`]s, whose output already is such columns), then to `output`.
    ///
    /// f32 takes [`SoaLocalToModelJob::compose_f32`] instead (the same steps on vectors).
    #[inline(always)]
    fn compose<M: ModelMatrix<S>, const LOD: bool>(&self, local: &[SoaTransform3<S>], output: &mut [M]) {
        if S::ENCODING == ScalarEncoding::F32 {
            return self.compose_f32::<M, LOD>(local, output);
        }
        let to = output.len();
        let root = cols(&self.root);
        let mut prev = match self.from.checked_sub(1).and_then(|p| output.get(p)) {
            Some(m) => m.to_cols(),
            None => root,
        };
        let mut m = [[S::ZERO; 4]; 12];
        let mut par = [usize::MAX; 4];
        // The fourth row of a padded output, set by two bitwise operations per column (see
        // `pad`), through `black_box` so that the optimiser keeps them as such (it otherwise
        // re-derived constant fourth lanes through the products, with shuffles costing more).
        let keep = core::hint::black_box([u32::MAX, u32::MAX, u32::MAX, 0]);
        let one = core::hint::black_box([0, 0, 0, S::ONE.to_blob_bits()]);
        // The model matrices of the last RING bones computed, bone q in slot q % RING.
        let mut ring = [[[S::ZERO; 4]; 4]; RING];
        for i in self.from..to {
            let l = i % 4;
            if l == 0 || i == self.from {
                let g = i / 4;
                let Some(group) = self.local_group::<LOD>(local, g) else { return };
                m = SoaAffine3::from_transforms(&group).entries();
                let b = g.wrapping_mul(4);
                par = [0, 1, 2, 3].map(|k| self.skeleton.parent(b.wrapping_add(k)).unwrap_or(usize::MAX));
            }
            // Bone i's parent, or usize::MAX for a root (no branch). A root at bone 0 passes for
            // a child of "bone −1" and takes `prev`, which is then `root` (`from` is 0).
            let p = par.get(l).copied().unwrap_or(usize::MAX);
            let parent = if KEEP_PREVIOUS && p.wrapping_add(1) == i {
                prev
            } else {
                // Slot p % RING still holds bone p if p was computed in this run and fewer than
                // RING bones since.
                let in_ring = !M::PADDED && p >= self.from && i.wrapping_sub(p) <= RING;
                match output.get(p) {
                    Some(_) if in_ring => ring.get(p % RING).copied().unwrap_or(root),
                    Some(m) => m.to_cols(),
                    None => root,
                }
            };
            let e = |k: usize| m.get(k).and_then(|v| v.get(l)).copied().unwrap_or(S::ZERO);
            let model = [
                column(&parent, [e(0), e(1), e(2)], None),
                column(&parent, [e(3), e(4), e(5)], None),
                column(&parent, [e(6), e(7), e(8)], None),
                column(&parent, [e(9), e(10), e(11)], Some(&parent[3])),
            ];
            let model = if M::PADDED { pad(&model, &keep, &one) } else { model };
            if !M::PADDED {
                if let Some(r) = ring.get_mut(i % RING) {
                    *r = model;
                }
            }
            if let Some(o) = output.get_mut(i) {
                *o = M::from_cols(&model);
            }
            prev = model;
        }
    }

    /// [`SoaLocalToModelJob::compose`] in f32 on [`wide::f32x4`] vectors, group by group: the
    /// group's twelve local entries are computed as one vector each ([`from_transforms_f32`]),
    /// then its four bones one after the other with constant lanes ([`bone_f32`]; the
    /// groups wholly inside `from..to` without a range test per bone). Per bone the same
    /// operations in the same order as the generic loop, so the same bits.
    #[inline(always)]
    fn compose_f32<M: ModelMatrix<S>, const LOD: bool>(&self, local: &[SoaTransform3<S>], output: &mut [M]) {
        let to = output.len();
        let from = self.from;
        if from >= to {
            return;
        }
        let root = vcols(&cols(&self.root));
        let mut st = F32State {
            prev: match from.checked_sub(1).and_then(|p| output.get(p)) {
                Some(m) => vcols(&m.to_cols()),
                None => root,
            },
            ring: [[f32x4::ZERO; 4]; RING],
            root,
            // The fourth row of a padded output, as `pad` sets it (on explicit vectors the
            // optimiser leaves the two bitwise operations as they are: no `black_box` needed).
            keep: f32x4::from([u32::MAX, u32::MAX, u32::MAX, 0].map(f32::from_bits)),
            one: f32x4::from([0.0, 0.0, 0.0, 1.0]),
        };
        // Groups `full_start..full_end` lie wholly in `from..to`.
        let (first, last) = (from / 4, to.div_ceil(4));
        let (full_start, full_end) = (from.div_ceil(4), to / 4);
        if full_start >= full_end {
            for g in first..last {
                self.group_f32::<M, LOD, false>(g, local, output, &mut st);
            }
            return;
        }
        if first < full_start {
            self.group_f32::<M, LOD, false>(first, local, output, &mut st);
        }
        for g in full_start..full_end {
            self.group_f32::<M, LOD, true>(g, local, output, &mut st);
        }
        if full_end < last {
            self.group_f32::<M, LOD, false>(full_end, local, output, &mut st);
        }
    }

    /// Group `g` of `local` (`None` past its end), with the rest pose in the lanes whose bones
    /// are above the LOD limit (`LOD`: a limit is set).
    #[inline(always)]
    fn local_group<const LOD: bool>(&self, local: &[SoaTransform3<S>], g: usize) -> Option<SoaTransform3<S>> {
        let group = *local.get(g)?;
        if LOD {
            let above = above_lod(self.skeleton, g, self.lod);
            if any(above) {
                return Some(SoaTransform3::select(above, rest_group(self.skeleton, g), group));
            }
        }
        Some(group)
    }

    /// Group `g`'s bones (`FULL`: all four are in `from..output.len()`; otherwise those that are).
    #[inline(always)]
    fn group_f32<M: ModelMatrix<S>, const LOD: bool, const FULL: bool>(
        &self,
        g: usize,
        local: &[SoaTransform3<S>],
        output: &mut [M],
        st: &mut F32State,
    ) {
        let Some(group) = self.local_group::<LOD>(local, g) else { return };
        let m = from_transforms_f32(&group);
        let base = g.wrapping_mul(4);
        let par = [0, 1, 2, 3].map(|k| self.skeleton.parent(base.wrapping_add(k)).unwrap_or(usize::MAX));
        let [p0, p1, p2, p3] = par;
        let to = output.len();
        let mut bone = |l: usize, p: usize| {
            let i = base.wrapping_add(l);
            if FULL || (i >= self.from && i < to) {
                bone_f32::<S, M>(i, l, &m, p, self.from, output, st);
            }
        };
        bone(0, p0);
        bone(1, p1);
        bone(2, p2);
        bone(3, p3);
    }
}

/// How many of the last model matrices [`SoaLocalToModelJob`] keeps as [`Cols`] on the stack
/// (512 bytes in f32), for the parents that are not the bone before their child.
const RING: usize = 8;

/// A matrix as four columns of four numbers: the fourth of each is unused (0 when read from an
/// [`Affine3`]) but for an [`Affine3A`], where they are its fourth row.
type Cols<S> = [[S; 4]; 4];

/// The model matrices [`SoaLocalToModelJob`] writes: [`Affine3`] (twelve numbers, 48 bytes in
/// f32 or Q16.16) or [`Affine3A`] (the same twelve numbers as the padded columns of a 4×4 matrix,
/// 64 bytes: the job's faster output on SIMD hosts, with no repacking of its four-number
/// columns). Implemented by those two types only (the trait is sealed).
pub trait ModelMatrix<S: Scalar>: Copy + sealed::Columns<S> {}

impl<S: Scalar> ModelMatrix<S> for Affine3<S> {}
impl<S: Scalar> ModelMatrix<S> for Affine3A<S> {}

mod sealed {
    use super::Cols;

    /// How [`SoaLocalToModelJob`](super::SoaLocalToModelJob) reads and writes a model matrix.
    pub trait Columns<S> {
        /// Whether the matrix stores four-number columns whose fourth row is `(0, 0, 0, 1)`:
        /// the job then sets that row in its products and reads parents back from the output;
        /// otherwise it keeps its last products on the stack for them.
        const PADDED: bool;
        /// The matrix from four padded columns (a padded matrix takes them as they are).
        fn from_cols(c: &Cols<S>) -> Self;
        /// The matrix's columns, padded.
        fn to_cols(&self) -> Cols<S>;
    }
}

impl<S: Scalar> sealed::Columns<S> for Affine3<S> {
    const PADDED: bool = false;
    #[inline(always)]
    fn from_cols(c: &Cols<S>) -> Self {
        uncols(c)
    }
    #[inline(always)]
    fn to_cols(&self) -> Cols<S> {
        cols(self)
    }
}

impl<S: Scalar> sealed::Columns<S> for Affine3A<S> {
    const PADDED: bool = true;
    #[inline(always)]
    fn from_cols(c: &Cols<S>) -> Self {
        Affine3A::from_padded(*c)
    }
    #[inline(always)]
    fn to_cols(&self) -> Cols<S> {
        *self.cols()
    }
}

/// `c` with its fourth row set to `(0, 0, 0, 1)` and its twelve numbers left as they are: each
/// number's word ANDed with `keep` (all ones, then 0), the translation's ORed with `one` (0, then
/// 1's word).
#[inline(always)]
fn pad<S: Scalar>(c: &Cols<S>, keep: &[u32; 4], one: &[u32; 4]) -> Cols<S> {
    let mask = |c: [S; 4]| zip2(c, *keep, |c, k| S::from_blob_bits(c.to_blob_bits() & k));
    let [x, y, z, t] = *c;
    let t = zip2(mask(t), *one, |c, o| S::from_blob_bits(c.to_blob_bits() | o));
    [mask(x), mask(y), mask(z), t]
}

/// An [`Affine3`]'s columns, padded.
#[inline(always)]
fn cols<S: Scalar>(m: &Affine3<S>) -> Cols<S> {
    let p = |v: Vec3<S>| [v.x, v.y, v.z, S::ZERO];
    [p(m.x_axis), p(m.y_axis), p(m.z_axis), p(m.translation)]
}

/// [`cols`]' inverse.
#[inline(always)]
fn uncols<S: Scalar>(c: &Cols<S>) -> Affine3<S> {
    let v = |c: &[S; 4]| {
        let [x, y, z, _] = *c;
        Vec3::new(x, y, z)
    };
    let [a, b, c, d] = c;
    Affine3::from_cols(v(a), v(b), v(c), v(d))
}

/// `(p₀·c.x + p₁·c.y) + (p₂·c.z + t)` on the four lanes of `p`'s columns `p₀, p₁, p₂` (`t` the
/// translation column, or nothing: `x + (−0)` would be `x`).
#[inline(always)]
fn column<S: Scalar>(p: &Cols<S>, c: [S; 3], t: Option<&[S; 4]>) -> [S; 4] {
    let [p0, p1, p2, _] = p;
    let [cx, cy, cz] = c;
    let a = zip2(*p0, *p1, |p0, p1| p0.mul(cx).add(p1.mul(cy)));
    let b = map(*p2, |p2| p2.mul(cz));
    let b = match t {
        Some(t) => zip2(b, *t, S::add),
        None => b,
    };
    zip2(a, b, S::add)
}

/// Padded columns as [`wide::f32x4`]s (f32 only: `to_f32` is then the identity).
#[inline(always)]
fn vcols<S: Scalar>(c: &Cols<S>) -> [f32x4; 4] {
    c.map(|c| f32x4::from(map(c, S::to_f32)))
}

/// [`vcols`]' inverse (f32 only: `from_blob_bits(to_bits)` is then the identity).
#[inline(always)]
fn unvcols<S: Scalar>(c: &[f32x4; 4]) -> Cols<S> {
    c.map(|c| map(c.to_array(), |v| S::from_blob_bits(v.to_bits())))
}

/// [`SoaAffine3::from_transforms`]'s twelve entries (as [`SoaAffine3::entries`]) on
/// [`wide::f32x4`] vectors, the same operations in the same order (f32 only).
#[inline(always)]
fn from_transforms_f32<S: Scalar>(t: &SoaTransform3<S>) -> [f32x4; 12] {
    let v = |a: &L<S>| f32x4::from(map(*a, S::to_f32));
    let q = &t.rotation;
    let (x, y, z, w) = (v(&q.x), v(&q.y), v(&q.z), v(&q.w));
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    let two = f32x4::splat(2.0);
    let one_minus = |b: f32x4, c: f32x4| f32x4::ONE - two * (b + c);
    let plus = |b: f32x4, c: f32x4| two * (b + c);
    let minus = |b: f32x4, c: f32x4| two * (b - c);
    let sc = &t.scale;
    let (sx, sy, sz) = (v(&sc.x), v(&sc.y), v(&sc.z));
    let tr = &t.translation;
    [
        one_minus(yy, zz) * sx,
        plus(xy, wz) * sx,
        minus(xz, wy) * sx,
        minus(xy, wz) * sy,
        one_minus(xx, zz) * sy,
        plus(yz, wx) * sy,
        plus(xz, wy) * sz,
        minus(yz, wx) * sz,
        one_minus(xx, yy) * sz,
        v(&tr.x),
        v(&tr.y),
        v(&tr.z),
    ]
}

/// What [`SoaLocalToModelJob`]'s f32 path carries from bone to bone.
struct F32State {
    /// The previous bone's model matrix.
    prev: [f32x4; 4],
    /// The model matrices of the last [`RING`] bones computed, bone q in slot q % RING
    /// ([`Affine3`] output only).
    ring: [[f32x4; 4]; RING],
    /// The roots' parent.
    root: [f32x4; 4],
    /// `pad`'s AND mask (all ones, then 0).
    keep: f32x4,
    /// `pad`'s OR mask (0, then 1's word).
    one: f32x4,
}

/// Bone `i`'s model matrix (lane `l` of the group's entries `m`, parent `p` or `usize::MAX`),
/// as the generic loop of [`SoaLocalToModelJob::compose`] computes it.
#[inline(always)]
fn bone_f32<S: Scalar, M: ModelMatrix<S>>(
    i: usize,
    l: usize,
    m: &[f32x4; 12],
    p: usize,
    from: usize,
    output: &mut [M],
    st: &mut F32State,
) {
    let parent = if KEEP_PREVIOUS && p.wrapping_add(1) == i {
        st.prev
    } else {
        // Slot p % RING still holds bone p if p was computed in this run and fewer than RING
        // bones since.
        let in_ring = !M::PADDED && p >= from && i.wrapping_sub(p) <= RING;
        match output.get(p) {
            Some(_) if in_ring => st.ring.get(p % RING).copied().unwrap_or(st.root),
            Some(m) => vcols(&m.to_cols()),
            None => st.root,
        }
    };
    let e = |k: usize| f32x4::splat(m.get(k).and_then(|v| v.as_array_ref().get(l)).copied().unwrap_or(0.0));
    let [p0, p1, p2, p3] = parent;
    // As `column`: (p₀·c.x + p₁·c.y) + (p₂·c.z (+ t)).
    let col = |k: usize| (p0 * e(k) + p1 * e(k + 1)) + p2 * e(k + 2);
    let model = [col(0), col(3), col(6), (p0 * e(9) + p1 * e(10)) + (p2 * e(11) + p3)];
    let model = if M::PADDED {
        let [x, y, z, t] = model;
        let keep = st.keep;
        [x & keep, y & keep, z & keep, (t & keep) | st.one]
    } else {
        model
    };
    if !M::PADDED {
        if let Some(r) = st.ring.get_mut(i % RING) {
            *r = model;
        }
    }
    if let Some(o) = output.get_mut(i) {
        *o = M::from_cols(&unvcols(&model));
    }
    st.prev = model;
}
