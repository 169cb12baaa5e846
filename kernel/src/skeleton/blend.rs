//! The blending job: weighted layers of local poses, then additive layers, → one local pose.

use super::l2m::JobError;
use super::source::{Joint, SkeletonSource};
use crate::scalar::Scalar;

/// One blending layer: a local pose, its weight, and optionally per-bone weight multipliers.
///
/// `size_of` is three words plus a scalar (a slice, a scalar and an optional slice): 20 bytes on
/// a 32-bit target.
#[derive(Clone, Copy, Debug)]
pub struct BlendLayer<'a, S, J> {
    /// The layer's local pose (at least one joint per skeleton bone).
    pub pose: &'a [J],
    /// The layer's weight (not positive: skipped).
    pub weight: S,
    /// Per-bone multipliers of `weight` (at least one per skeleton bone), or `None` for 1.
    pub mask: Option<&'a [S]>,
}

impl<'a, S, J> BlendLayer<'a, S, J> {
    /// A layer without a mask.
    pub const fn new(pose: &'a [J], weight: S) -> Self {
        Self { pose, weight, mask: None }
    }
}

/// What the poses of additive layers are measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AdditiveReference {
    /// The poses are deltas from the identity (translation offsets, rotation deltas, scale factors).
    #[default]
    Identity,
    /// The poses are absolute; their delta is taken against the skeleton's rest pose, per channel:
    /// translation `pose − rest`, rotation `rest⁻¹ · pose`, scale `pose / rest`.
    BindPose,
}

/// Blends weighted layers of local poses and applies additive layers.
///
/// # The rule, per bone
///
/// 1. **Normal layers.** A layer's weight for the bone is `weight × mask[bone]` (`weight` alone
///    without a mask). Layers whose weight for the bone is not positive are skipped. The others are
///    summed, weighted: translation and scale component-wise; 3D rotations as quaternions, each
///    negated when its dot product with the first contributing layer's rotation is negative (so all
///    lie on the same side), 2D angles as their shortest difference (in `[−π, π)`) from the first
///    contributing layer's angle.
/// 2. **Rest-pose fill.** If the summed weight `W` is below `threshold`, the skeleton's rest pose
///    is added with weight `threshold − W` (as a contributor like the others; it is the first
///    contributor when no layer contributes), and the total becomes `threshold`. So one layer at
///    weight 0.3 under a threshold of 1 gives `0.3·layer + 0.7·rest`, and no layer at all gives the
///    rest pose.
/// 3. **Average.** Translation and scale are divided by the total; the 3D rotation is normalised;
///    the 2D angle is the first contributor's angle plus the summed differences divided by the
///    total.
/// 4. **Additive layers**, in order, with weight `weight × mask[bone]`, skipped when not positive
///    (there is no subtraction): translation `+= w·d`, rotation `r · nlerp(identity, d, w)` (3D)
///    or angle `+= w·d` (2D), scale `*= lerp(1, d, w)` component-wise, where `d` is the layer's
///    pose ([`AdditiveReference::Identity`]) or its delta from the rest pose
///    ([`AdditiveReference::BindPose`], see [`Joint::additive_delta`]).
///
/// Bones whose [`SkeletonSource::lod`] is above the job's `lod` take their rest pose.
///
///
/// ```
/// use ossicle::math::{Transform2, Vec2};
/// use ossicle::skeleton::{BlendLayer, BlendingJob, SliceSkeleton};
///
/// let parents = [u16::MAX];
/// let rest = [Transform2::<f32>::IDENTITY];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// let a = [Transform2::new(Vec2::new(0.0, 0.0), 0.0, Vec2::ONE)];
/// let b = [Transform2::new(Vec2::new(4.0, 0.0), 1.0, Vec2::ONE)];
/// let layers = [BlendLayer::new(&a[..], 0.75), BlendLayer::new(&b[..], 0.25)];
/// let mut out = [Transform2::IDENTITY];
/// BlendingJob::new(&skeleton, &layers).run(&mut out).unwrap();
/// assert_eq!(out[0].translation, Vec2::new(1.0, 0.0));
/// assert_eq!(out[0].angle, 0.25);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BlendingJob<'a, S, J, K> {
    /// The skeleton (bone count, rest pose, LODs).
    pub skeleton: &'a K,
    /// The normal layers.
    pub layers: &'a [BlendLayer<'a, S, J>],
    /// The additive layers, applied in order after the normal ones.
    pub additive: &'a [BlendLayer<'a, S, J>],
    /// What the additive layers' poses are measured from.
    pub additive_reference: AdditiveReference,
    /// The summed weight under which the rest pose fills in (must be positive).
    pub threshold: S,
    /// The LOD limit: bones whose LOD is above it take their rest pose (`u8::MAX`: all bones).
    pub lod: u8,
}

impl<'a, S: Scalar, J: Joint<S>, K: SkeletonSource<S, J>> BlendingJob<'a, S, J, K> {
    /// A job blending `layers`, without additive layers, with a threshold of 0.1 (as
    /// ozz-animation) and every bone animated.
    pub fn new(skeleton: &'a K, layers: &'a [BlendLayer<'a, S, J>]) -> Self {
        Self {
            skeleton,
            layers,
            additive: &[],
            additive_reference: AdditiveReference::Identity,
            threshold: S::from_ratio(1, 10),
            lod: u8::MAX,
        }
    }

    /// Checks the inputs: the threshold is positive, and every layer's pose (and mask, when given)
    /// and `output` hold at least one entry per skeleton bone.
    pub fn validate(&self, output: &[J]) -> Result<(), JobError> {
        let bones = self.skeleton.bone_count();
        validate_inputs(self.threshold, self.layers, self.additive, bones, bones, output.len())
    }

    /// Blends into `output[..bone_count]`. Errors as [`BlendingJob::validate`], before anything is
    /// written.
    pub fn run(&self, output: &mut [J]) -> Result<(), JobError> {
        self.validate(output)?;
        let bones = self.skeleton.bone_count();
        let all_lods = self.lod == u8::MAX;
        if self.layers.iter().all(|l| l.mask.is_none()) {
            self.run_unmasked(output, bones);
            return Ok(());
        }
        for (i, out) in output.iter_mut().enumerate().take(bones) {
            if !all_lods && self.skeleton.lod(i) > self.lod {
                *out = self.skeleton.rest(i);
                continue;
            }
            let mut acc = J::BLEND_ZERO;
            let mut total = S::ZERO;
            let mut reference: Option<J> = None;
            for layer in self.layers {
                let Some((pose, w)) = layer_at(layer, i) else { continue };
                let r = *reference.get_or_insert(pose);
                acc = J::blend_accumulate(acc, r, pose, w);
                total = total.add(w);
            }
            if total < self.threshold {
                let rest = self.skeleton.rest(i);
                let r = *reference.get_or_insert(rest);
                acc = J::blend_accumulate(acc, r, rest, self.threshold.sub(total));
                total = self.threshold;
            }
            let joint = match reference {
                Some(r) => J::blend_finish(acc, r, total),
                None => self.skeleton.rest(i), // unreachable: the fill always contributes
            };
            *out = self.apply_additive(joint, i);
        }
        Ok(())
    }

    /// [`BlendingJob::run`] without masks, layer-major as ozz-animation does it: every bone has the
    /// same weights, so the total, the rest fill and the first contributor (whose pose is the
    /// reference) are found once, then each contributing layer is accumulated into `output` in one
    /// tight loop over the bones, the rest fill in another, and one last pass finishes (normalises)
    /// each bone, applies the additive layers and the LOD (two layers and nothing else, the usual
    /// crossfade, take a single fused pass). Per bone these are the same operations in the same
    /// order as the masked path's, so the results are identical.
    ///
    /// `output` holds at least `bones` joints and every layer's pose at least `bones` (validated).
    fn run_unmasked(&self, output: &mut [J], bones: usize) {
        let Some(output) = output.get_mut(..bones) else { return };
        let mut total = S::ZERO;
        let mut contributing = self.layers.iter().filter(|l| l.weight > S::ZERO);
        for layer in contributing.clone() {
            total = total.add(layer.weight);
        }
        let fill = if total < self.threshold { Some(self.threshold.sub(total)) } else { None };
        let total = if fill.is_some() { self.threshold } else { total };
        let all_lods = self.lod == u8::MAX;
        let no_additive = self.additive.is_empty();
        if let (Some(first), Some(second), None) = (contributing.next(), contributing.next(), contributing.next()) {
            if fill.is_none() && all_lods && no_additive {
                // The common crossfade, two layers and nothing else: one pass, each bone's
                // operations as in the general passes below.
                let (w0, w1) = (first.weight, second.weight);
                // Unswitched on weights summing to exactly 1 (a crossfade's usual case), where
                // `blend_finish` skips the division: with the constant there, its test folds away.
                if total == S::ONE {
                    blend_two(output, first.pose, second.pose, w0, w1, S::ONE);
                } else {
                    blend_two(output, first.pose, second.pose, w0, w1, total);
                }
                return;
            }
        }
        let mut contributing = self.layers.iter().filter(|l| l.weight > S::ZERO);
        let reference = match contributing.next() {
            Some(first) => {
                // The reference layer itself: its rotation's dot product with itself is never
                // negative, so its weight is never flipped.
                for (o, p) in output.iter_mut().zip(first.pose) {
                    *o = J::blend_first(*p, first.weight);
                }
                for layer in contributing {
                    for ((o, p), r) in output.iter_mut().zip(layer.pose).zip(first.pose) {
                        *o = J::blend_accumulate(*o, *r, *p, layer.weight);
                    }
                }
                if let Some(w) = fill {
                    for (i, (o, r)) in output.iter_mut().zip(first.pose).enumerate() {
                        *o = J::blend_accumulate(*o, *r, self.skeleton.rest(i), w);
                    }
                }
                Some(first.pose)
            }
            None => {
                // No layer: the rest fill alone (weight `threshold`) is the first contributor.
                let w = self.threshold;
                for (i, o) in output.iter_mut().enumerate() {
                    *o = J::blend_first(self.skeleton.rest(i), w);
                }
                None
            }
        };
        if all_lods && no_additive {
            match reference {
                Some(r) => {
                    for (o, r) in output.iter_mut().zip(r) {
                        *o = J::blend_finish(*o, *r, total);
                    }
                }
                None => {
                    for (i, o) in output.iter_mut().enumerate() {
                        *o = J::blend_finish(*o, self.skeleton.rest(i), total);
                    }
                }
            }
            return;
        }
        for (i, o) in output.iter_mut().enumerate() {
            if !all_lods && self.skeleton.lod(i) > self.lod {
                *o = self.skeleton.rest(i);
                continue;
            }
            let r = match reference.and_then(|p| p.get(i)) {
                Some(r) => *r,
                None => self.skeleton.rest(i),
            };
            let joint = J::blend_finish(*o, r, total);
            *o = if no_additive { joint } else { self.apply_additive(joint, i) };
        }
    }

    /// Bone `i`'s blended `joint` with the additive layers applied.
    #[inline(always)]
    fn apply_additive(&self, mut joint: J, i: usize) -> J {
        let mut rest: Option<J> = None;
        for layer in self.additive {
            let Some((pose, w)) = layer_at(layer, i) else { continue };
            let delta = match self.additive_reference {
                AdditiveReference::Identity => pose,
                AdditiveReference::BindPose => {
                    J::additive_delta(*rest.get_or_insert_with(|| self.skeleton.rest(i)), pose)
                }
            };
            joint = J::additive_apply(joint, delta, w);
        }
        joint
    }
}

/// The checks of [`BlendingJob::validate`] (and of the SoA job's): the threshold is positive,
/// every layer's pose holds `poses` entries (joints, or SoA groups), every mask `bones` weights,
/// and the output `poses` entries (it holds `output`).
pub(super) fn validate_inputs<S: Scalar, J>(
    threshold: S,
    layers: &[BlendLayer<'_, S, J>],
    additive: &[BlendLayer<'_, S, J>],
    poses: usize,
    bones: usize,
    output: usize,
) -> Result<(), JobError> {
    if threshold.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
        return Err(JobError::BadThreshold);
    }
    for layer in layers.iter().chain(additive) {
        if layer.pose.len() < poses {
            return Err(JobError::InputTooSmall { needed: poses, got: layer.pose.len() });
        }
        if let Some(mask) = layer.mask {
            if mask.len() < bones {
                return Err(JobError::MaskTooSmall { needed: bones, got: mask.len() });
            }
        }
    }
    if output < poses {
        return Err(JobError::OutputTooSmall { needed: poses, got: output });
    }
    Ok(())
}

/// The fused two-layer blend of [`BlendingJob::run_unmasked`]: `output[i]` is `p0[i]` at weight
/// `w0` and `p1[i]` at `w1`, averaged over `total` (every bone; no fill, additive layers or LOD).
#[inline(always)]
fn blend_two<S: Scalar, J: Joint<S>>(output: &mut [J], p0: &[J], p1: &[J], w0: S, w1: S, total: S) {
    for (o, (p0, p1)) in output.iter_mut().zip(p0.iter().zip(p1)) {
        let acc = J::blend_accumulate(J::blend_first(*p0, w0), *p0, *p1, w1);
        *o = J::blend_finish(acc, *p0, total);
    }
}

/// Layer `layer`'s joint for bone `i` and its weight there, or `None` when it does not contribute.
#[inline]
fn layer_at<S: Scalar, J: Copy>(layer: &BlendLayer<'_, S, J>, i: usize) -> Option<(J, S)> {
    let w = match layer.mask {
        Some(mask) => layer.weight.mul(mask.get(i).copied().unwrap_or(S::ZERO)),
        None => layer.weight,
    };
    if w > S::ZERO {
        layer.pose.get(i).map(|p| (*p, w))
    } else {
        None
    }
}
