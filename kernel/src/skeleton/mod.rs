//! Skeletal animation in the style of ozz-animation: skeletons, clips, and plain jobs (sampling,
//! blending, local-to-model) composed by the caller, with players on top for the common cases.
//!
//! Poses live in caller-owned arrays (`[J; N]`); nothing allocates. The same jobs serve 3D
//! skeletons ([`Transform3`](crate::math::Transform3)) and 2D ones
//! ([`Transform2`](crate::math::Transform2)) through the [`Joint`] trait.

mod blob;
mod source;

pub use blob::{BlobScalars, BlobSkelClip, BlobSkeleton, Dimension};
pub use source::{
    ChannelData, ChannelKind, ClipError, ClipEvent, Interpolation, Joint, Scalars, SkelClipSource, SkeletonError,
    SkeletonSource, SliceSkelClip, SliceSkeleton, SliceTrack,
};
