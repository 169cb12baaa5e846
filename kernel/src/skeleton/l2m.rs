//! The local-to-model job, and the error every skeletal job reports.

use core::marker::PhantomData;

use super::source::{Joint, SkeletonSource};
use crate::scalar::Scalar;

/// Why a skeletal job refused to run (nothing was written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum JobError {
    /// The output pose holds fewer joints than the job writes.
    OutputTooSmall {
        /// Joints the job needs.
        needed: usize,
        /// Joints the output holds.
        got: usize,
    },
    /// An input pose (the local pose, or a blending layer's pose) holds fewer joints than the job
    /// reads.
    InputTooSmall {
        /// Joints the job needs.
        needed: usize,
        /// Joints the input holds.
        got: usize,
    },
    /// A blending layer's mask holds fewer weights than the skeleton has bones.
    MaskTooSmall {
        /// Weights needed.
        needed: usize,
        /// Weights the mask holds.
        got: usize,
    },
    /// The sampling context has cursors for fewer bones than the skeleton has.
    ContextTooSmall {
        /// Bones needed.
        needed: usize,
        /// The context's capacity.
        got: usize,
    },
    /// The clip has channels for more bones than the skeleton has.
    SkeletonMismatch {
        /// The skeleton's bone count.
        skeleton: usize,
        /// The clip's bone count.
        clip: usize,
    },
    /// The clip's duration is not positive.
    BadDuration,
    /// The blending threshold is not positive.
    BadThreshold,
    /// The local-to-model range starts after it ends.
    BadRange {
        /// First bone.
        from: usize,
        /// One past the last bone (after clamping to the bone count).
        to: usize,
    },
}

impl core::fmt::Display for JobError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            JobError::OutputTooSmall { needed, got } => {
                write!(f, "output pose too small: {needed} joints needed, {got} given")
            }
            JobError::InputTooSmall { needed, got } => {
                write!(f, "input pose too small: {needed} joints needed, {got} given")
            }
            JobError::MaskTooSmall { needed, got } => {
                write!(f, "blending mask too small: {needed} weights needed, {got} given")
            }
            JobError::ContextTooSmall { needed, got } => {
                write!(f, "sampling context too small: {needed} bones needed, capacity {got}")
            }
            JobError::SkeletonMismatch { skeleton, clip } => {
                write!(f, "clip animates {clip} bones but the skeleton has {skeleton}")
            }
            JobError::BadDuration => f.write_str("clip duration must be positive"),
            JobError::BadThreshold => f.write_str("blending threshold must be positive"),
            JobError::BadRange { from, to } => write!(f, "bone range {from}..{to} starts after it ends"),
        }
    }
}

/// Whether the local-to-model loop keeps the previous bone's model transform in a local
/// ([`LocalToModelJob::compose_range_prev`]): faster on x86-64 (see BENCHMARKS.md), but on ARM
/// (Cortex-M4F) the ten scalars do not stay in registers and it costs ten extra stores a bone, so
/// there the parent is read back from `output`. The results are identical either way.
const KEEP_PREVIOUS: bool = !cfg!(target_arch = "arm");

/// `*root`, out of line: roots are rare, and keeping the root transform out of the loop's
/// registers lets the compiler keep the previous bone's model transform there instead (on a
/// Cortex-M4F it otherwise reloads the root's ten scalars for every bone).
#[cold]
#[inline(never)]
fn copy_root<J: Copy>(root: &J) -> J {
    *root
}

/// Local pose → model pose: `model[i] = model[parent(i)] ∘ local[i]` through [`Joint::compose`]
/// (a root's parent transform is `root`).
///
/// Only bones `from..to` are computed (`to` is clamped to the bone count); the others keep whatever
/// `output` holds, and a bone in the range whose parent is outside it reads its parent's model
/// transform from `output`. A bone whose [`SkeletonSource::lod`] is above `lod` uses its rest
/// pose as its local transform (so it follows its parent rigidly).
///
/// Build it with [`LocalToModelJob::new`] and adjust the public fields:
///
/// ```
/// use ossicle::math::{Quat, Transform3, Vec3};
/// use ossicle::skeleton::{LocalToModelJob, SliceSkeleton};
///
/// let parents = [u16::MAX, 0];
/// let rest = [Transform3::<f32>::IDENTITY; 2];
/// let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
/// let local = [
///     Transform3::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, Vec3::splat(2.0)),
///     Transform3::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, Vec3::ONE),
/// ];
/// let mut model = [Transform3::IDENTITY; 2];
/// LocalToModelJob::new(&skeleton).run(&local, &mut model).unwrap();
/// assert_eq!(model[1].translation, Vec3::new(0.0, 3.0, 0.0)); // 1 + 2 × 1
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LocalToModelJob<'a, S, J, K> {
    /// The skeleton (parents, and rest poses for the LOD).
    pub skeleton: &'a K,
    /// The model transform of the roots' parent (usually the identity).
    pub root: J,
    /// The first bone computed.
    pub from: usize,
    /// One past the last bone computed (clamped to the bone count).
    pub to: usize,
    /// The LOD limit: bones whose LOD is above it use their rest pose (`u8::MAX`: all bones).
    pub lod: u8,
    _s: PhantomData<S>,
}

impl<'a, S: Scalar, J: Joint<S>, K: SkeletonSource<S, J>> LocalToModelJob<'a, S, J, K> {
    /// Every bone (`from = 0`, `to = usize::MAX`, clamped), `root` the identity, every LOD.
    pub fn new(skeleton: &'a K) -> Self {
        Self { skeleton, root: J::IDENTITY, from: 0, to: usize::MAX, lod: u8::MAX, _s: PhantomData }
    }

    /// `to`, clamped to the bone count.
    fn end(&self) -> usize {
        self.to.min(self.skeleton.bone_count())
    }

    /// Checks that `from <= to` (after clamping) and that `local` and `output` hold at least `to`
    /// joints.
    pub fn validate(&self, local: &[J], output: &[J]) -> Result<(), JobError> {
        let to = self.end();
        if self.from > to {
            return Err(JobError::BadRange { from: self.from, to });
        }
        if local.len() < to {
            return Err(JobError::InputTooSmall { needed: to, got: local.len() });
        }
        if output.len() < to {
            return Err(JobError::OutputTooSmall { needed: to, got: output.len() });
        }
        Ok(())
    }

    /// Computes the model transforms of bones `from..to` into `output`. Errors as
    /// [`LocalToModelJob::validate`], before anything is written.
    pub fn run(&self, local: &[J], output: &mut [J]) -> Result<(), JobError> {
        self.validate(local, output)?;
        let to = self.end();
        let (Some(local), Some(output)) = (local.get(..to), output.get_mut(..to)) else {
            return Ok(()); // unreachable: validated above
        };
        // Unswitched on the LOD: without a limit the loop has no per-bone LOD test.
        if self.lod == u8::MAX {
            self.compose_range::<false>(local, output);
        } else {
            self.compose_range::<true>(local, output);
        }
        Ok(())
    }

    /// The loop of [`LocalToModelJob::run`] over `from..local.len()` (`output` as long as `local`),
    /// with or without the per-bone LOD test.
    #[inline(always)]
    fn compose_range<const LOD: bool>(&self, local: &[J], output: &mut [J]) {
        if KEEP_PREVIOUS {
            self.compose_range_prev::<LOD>(local, output);
            return;
        }
        for (i, l) in local.iter().enumerate().skip(self.from) {
            let l = if LOD && self.skeleton.lod(i) > self.lod { self.skeleton.rest(i) } else { *l };
            // The parent (always before its child) is read from the prefix already written.
            let parent = match self.skeleton.parent(i).map(|p| output.get(p)) {
                Some(Some(m)) => *m,
                _ => copy_root(&self.root),
            };
            let m = J::compose(parent, l);
            if let Some(o) = output.get_mut(i) {
                *o = m;
            }
        }
    }
    /// [`LocalToModelJob::compose_range`] keeping the model transform of bone `i − 1` in a local:
    /// most bones follow their parent directly (a chain), and reading it from there spares a
    /// store-to-load round trip on the critical path. The same values as reading `output[i − 1]`
    /// (it is what was just written there, or, for the first bone, what `output` holds).
    #[inline(always)]
    fn compose_range_prev<const LOD: bool>(&self, local: &[J], output: &mut [J]) {
        let mut prev = match self.from.checked_sub(1).and_then(|p| output.get(p)) {
            Some(m) => *m,
            None => self.root,
        };
        for (i, l) in local.iter().enumerate().skip(self.from) {
            let l = if LOD && self.skeleton.lod(i) > self.lod { self.skeleton.rest(i) } else { *l };
            let parent = match self.skeleton.parent(i) {
                Some(p) if p.wrapping_add(1) == i => prev,
                Some(p) => match output.get(p) {
                    Some(m) => *m,
                    None => copy_root(&self.root),
                },
                None => copy_root(&self.root),
            };
            let m = J::compose(parent, l);
            if let Some(o) = output.get_mut(i) {
                *o = m;
            }
            prev = m;
        }
    }
}
