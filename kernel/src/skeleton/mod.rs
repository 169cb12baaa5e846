//! Skeletal animation in the style of ozz-animation: skeletons, clips, and plain jobs (sampling,
//! blending, local-to-model) composed by the caller, with players on top for the common cases.
//!
//! Poses live in caller-owned arrays (`[J; N]`); nothing allocates. The same jobs serve 3D
//! skeletons ([`Transform3`](crate::math::Transform3)) and 2D ones
//! ([`Transform2`](crate::math::Transform2)) through the [`Joint`] trait.

mod source;

mod blendspace;
mod clock;
mod oneshot;
mod player;
mod rootmotion;
mod sync;

pub use blendspace::{BlendSpace1D, BlendSpace2D, BlendSpaceError, BlendWeights, SyncPhase};
pub use clock::{SkelEvent, MAX_FULL_PASSES_PER_UPDATE};
pub use oneshot::OneShot;
pub use player::{AnimPlayer, PlayerError, Rig, RootMotionSettings};
pub use rootmotion::{MotionJoint, RootMotion2, RootMotion3};
pub use sync::{collect_markers, sync_time, MarkerTrack, SyncMarker, SyncResult};

pub use source::{
    ChannelData, ChannelKind, ClipError, ClipEvent, Interpolation, Joint, Scalars, SkelClipSource, SkeletonError,
    SkeletonSource, SliceSkelClip, SliceSkeleton, SliceTrack,
};
