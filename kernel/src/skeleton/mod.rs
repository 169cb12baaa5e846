//! Skeletal animation in the style of ozz-animation: skeletons, clips, and plain jobs (sampling,
//! blending, local-to-model) composed by the caller, with players on top for the common cases.
//!
//! Poses live in caller-owned arrays (`[J; N]`); nothing allocates. The same jobs serve 3D
//! skeletons ([`Transform3`](crate::math::Transform3)) and 2D ones
//! ([`Transform2`](crate::math::Transform2)) through the [`Joint`] trait; the 2D path never
//! touches a quaternion or a matrix.
//!
//! # Jobs
//!
//! Each job is a plain struct of inputs with `validate()` and `run()`; `run` validates first and
//! writes nothing when it returns a [`JobError`].
//!
//! - [`SamplingJob`]: a clip at a time → a local pose, with a [`SamplingContext`] of key cursors
//!   per playing instance, a [`CachedSamplingContext`] that also keeps the keys in use decoded
//!   (more memory, fewer reads of the clip; the same results), or a [`DirectSamplingContext`] that
//!   keeps each bone's key layout and rest pose, finds the bracket once per run of shared key
//!   times and reads key pairs in place (the fastest on a blob whose bones share their key times,
//!   such as a lossless build of a sampled clip; the same results).
//! - [`BlendingJob`]: weighted layers ([`BlendLayer`], with per-bone masks) with a rest-pose fill
//!   under a weight threshold, then additive layers → a local pose.
//! - [`LocalToModelJob`]: a local pose → model transforms, optionally for a sub-range of bones.
//!
//! - [`SoaBlendingJob`], [`SoaLocalToModelJob`]: the blending rule and local-to-model on
//!   structure-of-arrays poses ([`SoaTransform3`]: four joints component by component, as
//!   ozz-animation lays them out), which the compiler vectorises across joints on hosts with SIMD;
//!   the SoA blend gives the same results as [`BlendingJob`] bit for bit, the SoA local-to-model
//!   gives model matrices ([`Affine3`](crate::math::Affine3), or the same numbers as padded 4×4
//!   columns, [`Affine3A`](crate::math::Affine3A), e.g. for a skinning palette; see
//!   [`ModelMatrix`]).
//!   [`SoaTransform3::pack`] / [`SoaTransform3::unpack`] convert poses.
//!
//! Every job takes a LOD limit: bones whose [`SkeletonSource::lod`] is above it keep their rest pose.
//!
//! # Players
//!
//! - [`AnimPlayer`]: play / crossfade / stop / pause / speed (backwards too) / seek / loop
//!   override over a [`Rig`] (a skeleton and a clip slice, clips named by index); clip events
//!   ([`SkelEvent`]) into an [`EventQueue`](crate::event::EventQueue) in the order crossed, loop
//!   wraps included; root motion ([`MotionJoint`]: [`RootMotion3`], [`RootMotion2`]) compensated
//!   at loop wraps.
//! - [`OneShot`]: a clip played once over a base pose with fade-in/out on a bone mask.
//! - [`BlendSpace1D`], [`BlendSpace2D`]: a parameter → [`BlendWeights`] for [`BlendLayer`]s;
//!   [`SyncPhase`] plays a blend space's clips in sync by normalised time, [`BlendSpacePlayer`]
//!   samples and blends them, with events and root motion.
//! - [`sync_time`] and [`AnimPlayer::follow`]: sync markers keep a follower's phase aligned with a
//!   leader's, falling back to normalised time.
//!
//! # Memory per bone
//!
//! | | 3D (`Transform3`) | 2D (`Transform2`) |
//! |---|---|---|
//! | one joint of a pose, f32 or Q16.16 | 40 bytes | 20 bytes |
//! | one joint of an SoA pose ([`SoaTransform3`]: 160 bytes per 4 joints) | 40 bytes | – |
//! | a model matrix ([`Affine3`](crate::math::Affine3), from [`SoaLocalToModelJob`]) | 48 bytes | – |
//! | a padded model matrix ([`Affine3A`](crate::math::Affine3A), from [`SoaLocalToModelJob`]) | 64 bytes | – |
//! | [`SamplingContext`] (per playing instance) | 12 bytes | 12 bytes |
//! | [`CachedSamplingContext`] (instead of a [`SamplingContext`]; + 8 bytes per context; the players take one as their fourth type parameter, e.g. `AnimPlayer<S, J, N, CachedSamplingContext<S, J, N>>`) | 124 bytes | 84 bytes |
//! | [`DirectSamplingContext`] (instead of a [`SamplingContext`]; about 24 bytes per context; a player's fourth type parameter too) | 76 bytes | 60 bytes |
//! | [`AnimPlayer`] (two contexts, two scratch poses; + 40 bytes per player) | 104 bytes | 64 bytes |
//! | [`OneShot`] (a context, a scratch pose, a mask; + 20 bytes per layer) | 56 bytes | 36 bytes |
//! | [`BlendSpacePlayer`] (three contexts, three scratch poses; + 48 bytes per player) | 156 bytes | 96 bytes |
//!
//! A 70-bone 3D character playing two clips blended, with its model pose: two sampled poses, the
//! blended pose and the model pose (4 × 2,800 bytes) and two contexts (2 × 840 bytes): 12,880
//! bytes. The jobs themselves use a few hundred bytes of stack and no other memory.
//!
//! # Example: sample two clips, blend them, compute the model pose
//!
//! ```
//! use ossicle::math::{Quat, Transform3, Vec3};
//! use ossicle::skeleton::{
//!     BlendLayer, BlendingJob, ChannelData, Interpolation, LocalToModelJob, SamplingContext, SamplingJob,
//!     SliceSkelClip, SliceSkeleton, SliceTrack,
//! };
//!
//! // A two-bone arm: the root at the origin, the forearm 1 unit along X from it.
//! let parents = [u16::MAX, 0];
//! let rest = [
//!     Transform3::<f32>::IDENTITY,
//!     Transform3::new(Vec3::new(1.0, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
//! ];
//! let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
//!
//! // Clip "rise": the root's translation goes from y = 0 to y = 2 over one second.
//! let times = [0.0f32, 1.0];
//! let rise = [0.0f32, 0.0, 0.0, 0.0, 2.0, 0.0];
//! let rise_tracks = [
//!     SliceTrack {
//!         channels: [
//!             Some(ChannelData {
//!                 interpolation: Interpolation::Linear,
//!                 times: &times[..],
//!                 values: &rise[..],
//!                 tangents: &[][..],
//!             }),
//!             None,
//!             None,
//!         ],
//!     },
//!     SliceTrack::NONE,
//! ];
//! let rise_clip = SliceSkelClip { duration: 1.0, looping: true, tracks: &rise_tracks, events: &[] };
//! // Clip "still": no keys at all (the rest pose).
//! let still_clip = SliceSkelClip { duration: 1.0, looping: true, tracks: &[], events: &[] };
//!
//! // Per instance: a context and a local pose.
//! let mut ctx_a = SamplingContext::<2>::new();
//! let mut ctx_b = SamplingContext::<2>::new();
//! let mut pose_a = [Transform3::IDENTITY; 2];
//! let mut pose_b = [Transform3::IDENTITY; 2];
//! SamplingJob::new(&skeleton, &rise_clip, 0.5).run(&mut ctx_a, &mut pose_a).unwrap();
//! SamplingJob::new(&skeleton, &still_clip, 0.5).run(&mut ctx_b, &mut pose_b).unwrap();
//!
//! // Blend them 50/50.
//! let layers = [BlendLayer::new(&pose_a[..], 0.5), BlendLayer::new(&pose_b[..], 0.5)];
//! let mut local = [Transform3::IDENTITY; 2];
//! BlendingJob::new(&skeleton, &layers).run(&mut local).unwrap();
//!
//! // Model space: the root is at y = 0.5 (half of 1), the forearm 1 unit along X from it.
//! let mut model = [Transform3::IDENTITY; 2];
//! LocalToModelJob::new(&skeleton).run(&local, &mut model).unwrap();
//! assert_eq!(model[0].translation, Vec3::new(0.0, 0.5, 0.0));
//! assert_eq!(model[1].translation, Vec3::new(1.0, 0.5, 0.0));
//! ```

mod blend;
mod blob;
mod l2m;
mod sample;
mod soa;
mod source;

mod blendspace;
mod clock;
mod oneshot;
mod player;
mod rootmotion;
mod spaceplayer;
mod sync;
pub mod trace;

pub use blendspace::{BlendSpace1D, BlendSpace2D, BlendSpaceError, BlendWeights, SyncPhase};
pub use clock::{SkelEvent, MAX_FULL_PASSES_PER_UPDATE};
pub use oneshot::OneShot;
pub use player::{AnimPlayer, PlayerError, Rig, RootMotionSettings};
pub use rootmotion::{MotionJoint, RootMotion2, RootMotion3};
pub use spaceplayer::BlendSpacePlayer;
pub use sync::{collect_markers, sync_time, MarkerTrack, SyncMarker, SyncResult};

pub use blend::{AdditiveReference, BlendLayer, BlendingJob};
pub use blob::{BlobScalars, BlobSkelClip, BlobSkeleton, Dimension};
pub use l2m::{JobError, LocalToModelJob};
pub use sample::{
    CachedSamplingContext, DirectSamplingContext, RotationInterp, SamplingContext, SamplingJob, SamplingState,
};
pub use soa::{soa_count, ModelMatrix, SoaBlendingJob, SoaLocalToModelJob, SoaQuat, SoaTransform3, SoaVec3};
pub use source::{
    BoneHandle, ChannelData, ChannelKind, ClipError, ClipEvent, DirectBone, DirectTimes, Interpolation, Joint, Scalars,
    SkelClipSource, SkeletonError, SkeletonSource, SliceSkelClip, SliceSkeleton, SliceTrack,
};
