//! ossicle: a `no_std`, allocation-free animation kernel for microcontrollers and handhelds.
//!
//! Everything is generic over a [`Scalar`]: `f32`, or Q16.16 fixed point ([`Q16`]) computed with
//! integer arithmetic only, so the same blob and inputs give bit-identical results on a desktop and
//! on a Cortex-M0+. All state lives in caller-owned storage sized by const generics; nothing
//! allocates, nothing panics, and errors are typed.
//!
//! - [`scalar`]: the `Scalar` trait and its `f32` / Q16.16 implementations.
//! - [`math`]: vectors, quaternions, transforms and affine matrices.
//! - [`asset`]: [`Asset::load`](asset::Asset::load) validates a blob and reads it in place.
//! - [`sprite`]: the sprite player, sheet geometry, dirty rectangles; `draw` (feature `graphics`)
//!   blits blob frames into any embedded-graphics `DrawTarget`.
//! - [`skeleton`]: skeletons and skeletal clips (3D and 2D), ozz-style jobs (sampling, blending,
//!   local-to-model), players (crossfades, events, root motion, blend spaces, one-shots, sync).
//! - [`pool`], [`event`], [`sink`]: fixed-capacity pools with generational handles, the event
//!   queue, and the [`PropertySink`](sink::PropertySink) players write through.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod animator;
pub mod asset;
pub mod color;
#[cfg(feature = "graphics")]
pub mod draw;
pub mod dynamics;
pub mod ease;
pub mod event;
pub mod math;
pub mod motion;
pub mod pool;
pub mod scalar;
pub mod scene;
pub mod sink;
pub mod skeleton;
pub mod sprite;
pub mod statemachine;
pub mod tween;

pub use asset::{Asset, LoadError};
pub use scalar::{Scalar, Q16};

/// Compile-time check that the public error, event and value types implement `defmt::Format`
/// with the `defmt` feature (for `f32` values; `fixed` 1.29 has no defmt support).
#[cfg(feature = "defmt")]
const _: () = {
    fn format<T: defmt::Format>() {}
    let _ = format::<asset::LoadError>;
    let _ = format::<asset::EncodingMismatch>;
    let _ = format::<pool::PoolError>;
    let _ = format::<pool::Handle<()>>;
    let _ = format::<event::Event>;
    let _ = format::<sink::PropertyValue<f32>>;
    let _ = format::<color::Rgba8>;
    let _ = format::<math::Vec2<f32>>;
    let _ = format::<math::Vec3<f32>>;
    let _ = format::<math::Quat<f32>>;
    let _ = format::<ease::Ease<f32>>;
    let _ = format::<ease::UnknownEase>;
    let _ = format::<tween::TweenError>;
    let _ = format::<motion::MotionError>;
    let _ = format::<dynamics::DynamicsError>;
    let _ = format::<dynamics::UnknownIntegrator>;
    let _ = format::<sprite::SpriteError>;
    let _ = format::<statemachine::MachineError>;
    let _ = format::<animator::AnimatorError>;
    let _ = format::<animator::ValueKind>;
    let _ = format::<animator::TrackTarget>;
    let _ = format::<animator::KeyValue<f32>>;
    let _ = format::<animator::Key<f32>>;
    let _ = format::<animator::ClipInfo<f32>>;
    let _ = format::<animator::TrackInfo>;
    let _ = format::<animator::ScriptValue<f32>>;
    let _ = format::<statemachine::ParamKind>;
    let _ = format::<skeleton::SkelEvent<f32>>;
    let _ = format::<skeleton::PlayerError>;
    let _ = format::<skeleton::RootMotion3<f32>>;
    let _ = format::<skeleton::RootMotion2<f32>>;
    let _ = format::<skeleton::BlendWeights<f32>>;
    let _ = format::<skeleton::BlendSpaceError>;
    let _ = format::<skeleton::SyncMarker<f32>>;
    let _ = format::<skeleton::SyncResult<f32>>;
    let _ = format::<skeleton::RootMotionSettings>;
    let _ = format::<skeleton::JobError>;
    let _ = format::<skeleton::SkeletonError>;
    let _ = format::<skeleton::ClipError>;
    let _ = format::<skeleton::ClipEvent<f32>>;
    let _ = format::<sprite::DirtyOverflow>;
    let _ = format::<sprite::SpriteOutput>;
    let _ = format::<sprite::PixelFormat>;
    let _ = format::<sprite::Transparency>;
    let _ = format::<ossicle_format::sprite::SpriteDefect>;
    #[cfg(feature = "graphics")]
    {
        let _ = format::<draw::DrawError<u8>>;
        let _ = format::<draw::BufferTooSmall>;
        let _ = format::<draw::RenderError<u8>>;
    }
};
