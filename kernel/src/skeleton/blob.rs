//! Skeletons and skeletal clips read in place from a blob: [`BlobSkeleton`] (a
//! [`SkeletonSource`]) and [`BlobSkelClip`] (a [`SkelClipSource`] whose values are read through
//! [`BlobScalars`]). Nothing is copied: every read decodes little-endian words (or 16-bit
//! quantised values, or 8/16-bit indices into a clip's time table or a bitmap over it) where the
//! blob lies, in RAM, flash or XIP memory. The layout is
//! `ossicle_format::skeleton`'s; [`Asset::load`](crate::asset::Asset::load) has validated every
//! word these readers use.
//!
//! A view is read with one scalar type: the blob's (`f32` for an f32 blob, [`Q16`](crate::Q16) for
//! a Q16.16 one; see [`BlobSkelClip::check`]). Read with the other type, or a 2D skeleton read as
//! 3D (or the reverse), a source reports no bones and no channels, so the jobs leave the pose
//! alone rather than read wrong numbers.
//!
//! Memory: a [`BlobSkeleton`] or [`BlobSkelClip`] is a handful of borrowed slices and ids (about
//! 100 bytes on a 32-bit target); a [`BlobScalars`] is at most 48 bytes.
//!
//! ```
//! # use ossicle_format::{BlobWriter, ScalarEncoding};
//! # use ossicle_format::skeleton::{pack_channels, ChannelRecord, SkelClipBody, SkeletonBody, INTERP_LINEAR};
//! # let words = |v: &[f32]| v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect::<Vec<u8>>();
//! # let mut w = BlobWriter::new(ScalarEncoding::F32);
//! # let (rig, root, walk) = (w.intern("rig"), w.intern("root"), w.intern("walk"));
//! # let bones: Vec<u8> = [0xFFFFu32, root].iter().flat_map(|x| x.to_le_bytes()).collect();
//! # let rest = words(&[0., 0., 0., 0., 0., 0., 1., 1., 1., 1.]);
//! # w.add_skeleton(&SkeletonBody { name: rig, dimension: 3, bones: &bones, rest: &rest }).unwrap();
//! # let info = ChannelRecord::make_info(2, INTERP_LINEAR, false);
//! # let (entries, channels) = pack_channels(&[[info, 0, 2, 0], [0; 4], [0; 4]]);
//! # let data = words(&[0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
//! # w.add_skel_clip(&SkelClipBody { name: walk, skeleton: rig, dimension: 3, flags: 1,
//! #     duration: 1f32.to_bits(), sample_rate: 30f32.to_bits(), bones: &entries, channels: &channels,
//! #     data: &data, quant: &[], times: &[], time_index: &[], events: &[] }).unwrap();
//! # let bytes = w.finish().unwrap();
//! use ossicle::asset::Asset;
//! use ossicle::math::Transform3;
//! use ossicle::skeleton::{ChannelKind, Scalars, SkelClipSource, SkeletonSource};
//!
//! let asset = Asset::load(&bytes)?;
//! let clip = asset.skel_clip_named("walk").expect("present");
//! let skeleton = asset.skeleton_of(&clip).expect("its skeleton");
//! assert_eq!(SkeletonSource::<f32, Transform3<f32>>::bone_count(&skeleton), 1);
//! let ch = SkelClipSource::<f32>::channel(&clip, 0, ChannelKind::Translation).expect("animated");
//! assert_eq!((ch.times.get(1), ch.values.get(3)), (1.0, 2.0));
//! # Ok::<(), ossicle::asset::LoadError>(())
//! ```

use core::marker::PhantomData;

pub use ossicle_format::skeleton::Dimension;
use ossicle_format::skeleton::{
    bitmap_next, bitmap_select, dequantize, packed_word, ChannelRecord, PackedRotation, SkelClipSection,
    SkeletonSection, TimeTable, CHANNEL_BITMAP_TIMES, CHANNEL_PACKED_ROTATION, CHANNEL_QUANTIZED, INTERP_HERMITE,
    INTERP_LINEAR, INTERP_STEP,
};
use ossicle_format::{ScalarEncoding, WordRun, WordView};

use super::source::{
    BoneHandle, ChannelData, ChannelKind, ClipEvent, DirectBone, DirectTimes, Interpolation, Scalars, SkelClipSource,
    SkeletonSource,
};
use crate::asset::EncodingMismatch;
use crate::math::{Quat, Transform2, Transform3, Vec2, Vec3};
use crate::scalar::Scalar;

/// A skeleton section of a blob, read in place. Get one with
/// [`Asset::skeletons`](crate::asset::Asset::skeletons) or
/// [`Asset::skeleton_named`](crate::asset::Asset::skeleton_named).
///
/// It is a [`SkeletonSource`] for [`Transform3`] when 3D and for [`Transform2`] when 2D, with the
/// blob's scalar type (otherwise it reports no bones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobSkeleton<'a> {
    pub(crate) section: SkeletonSection<'a>,
}

impl<'a> BlobSkeleton<'a> {
    /// The skeleton's name.
    pub fn name(&self) -> &'a str {
        self.section.name()
    }
    /// 3D or 2D.
    pub fn dimension(&self) -> Dimension {
        self.section.dimension()
    }
    /// The scalar encoding of its rest pose.
    pub fn encoding(&self) -> ScalarEncoding {
        self.section.encoding()
    }
    /// The number of bones (whatever the scalar type).
    pub fn bone_count(&self) -> usize {
        self.section.bone_count()
    }
    /// Bone `i`'s name.
    pub fn bone_name(&self, i: usize) -> Option<&'a str> {
        self.section.strings().get(self.section.bone(i)?.name)
    }
    /// The index of the first bone called `name`.
    pub fn find_bone(&self, name: &str) -> Option<usize> {
        (0..self.bone_count()).find(|&i| self.bone_name(i) == Some(name))
    }
    /// The format section (records as stored).
    pub fn section(&self) -> &SkeletonSection<'a> {
        &self.section
    }
    /// Whether it reads as `S` (the blob's encoding).
    pub fn check<S: Scalar>(&self) -> Result<(), EncodingMismatch> {
        check::<S>(self.section.encoding())
    }

    #[inline]
    fn usable<S: Scalar>(&self, dimension: Dimension) -> bool {
        S::ENCODING == self.section.encoding() && self.section.dimension() == dimension
    }

    #[inline]
    fn parent_of(&self, i: usize) -> Option<usize> {
        match self.section.parent_field(i) {
            Some(p) if p != ossicle_format::skeleton::NO_PARENT => Some(usize::from(p)),
            _ => None,
        }
    }

    fn rest_key(&self) -> Option<usize> {
        let rest = self.section.rest_array_bytes();
        if rest.is_empty() {
            None
        } else {
            Some(rest.as_ptr() as usize)
        }
    }

    #[inline]
    fn lod_of(&self, i: usize) -> u8 {
        self.section.bone(i).map_or(0, |b| b.lod)
    }

    fn name_of(&self, i: usize) -> Option<u16> {
        u16::try_from(self.section.bone(i)?.name).ok()
    }
}

fn check<S: Scalar>(blob: ScalarEncoding) -> Result<(), EncodingMismatch> {
    if S::ENCODING == blob {
        Ok(())
    } else {
        Err(EncodingMismatch { blob, requested: S::ENCODING })
    }
}

impl<S: Scalar> SkeletonSource<S, Transform3<S>> for BlobSkeleton<'_> {
    #[inline]
    fn bone_count(&self) -> usize {
        if self.usable::<S>(Dimension::D3) {
            self.section.bone_count()
        } else {
            0
        }
    }
    #[inline]
    fn parent(&self, i: usize) -> Option<usize> {
        self.parent_of(i)
    }
    #[inline]
    fn rest(&self, i: usize) -> Transform3<S> {
        if !self.usable::<S>(Dimension::D3) {
            return identity3();
        }
        // The ten words read in place (one bounds check for the bone's 40 bytes; a wrapped
        // range is empty).
        let at = i.wrapping_mul(40);
        let bytes = self.section.rest_array_bytes();
        match bytes.get(at..at.wrapping_add(40)).and_then(|b| <&[u8; 40]>::try_from(b).ok()) {
            Some(w) => {
                let s = |k: usize| S::from_blob_bits(le_word(w, k));
                Transform3::new(
                    Vec3::new(s(0), s(1), s(2)),
                    Quat { x: s(3), y: s(4), z: s(5), w: s(6) },
                    Vec3::new(s(7), s(8), s(9)),
                )
            }
            None => identity3(),
        }
    }
    fn lod(&self, i: usize) -> u8 {
        self.lod_of(i)
    }
    fn name_id(&self, i: usize) -> Option<u16> {
        self.name_of(i)
    }
    /// The address of the rest words in the blob.
    fn cache_key(&self) -> Option<usize> {
        self.rest_key()
    }
}

/// The first four words of `run` as scalars (zero past its end).
#[inline(always)]
fn word4<S: Scalar>(run: WordRun<'_>) -> [S; 4] {
    run.first4().map(S::from_blob_bits)
}

/// The identity, out of the rest pose's hot path (a bone past the end, or a skeleton read as the
/// wrong type: the registers of the common path are not set up for it).
#[cold]
#[inline(never)]
fn identity3<S: Scalar>() -> Transform3<S> {
    Transform3::IDENTITY
}

/// Word `k` of `bytes`, little-endian (0 past the end; `k` is a constant where it is used).
#[inline(always)]
fn le_word<const L: usize>(bytes: &[u8; L], k: usize) -> u32 {
    match bytes.get(k.wrapping_mul(4)..k.wrapping_mul(4).wrapping_add(4)) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

impl<S: Scalar> SkeletonSource<S, Transform2<S>> for BlobSkeleton<'_> {
    #[inline]
    fn bone_count(&self) -> usize {
        if self.usable::<S>(Dimension::D2) {
            self.section.bone_count()
        } else {
            0
        }
    }
    #[inline]
    fn parent(&self, i: usize) -> Option<usize> {
        self.parent_of(i)
    }
    #[inline]
    fn rest(&self, i: usize) -> Transform2<S> {
        if !self.usable::<S>(Dimension::D2) {
            return Transform2::IDENTITY;
        }
        match self.section.rest_words(i) {
            Some(w) => {
                let s = |k: usize| S::from_blob_bits(w.get(k).copied().unwrap_or(0));
                Transform2::new(Vec2::new(s(0), s(1)), s(2), Vec2::new(s(3), s(4)))
            }
            None => Transform2::IDENTITY,
        }
    }
    fn lod(&self, i: usize) -> u8 {
        self.lod_of(i)
    }
    fn name_id(&self, i: usize) -> Option<u16> {
        self.name_of(i)
    }
    /// The address of the rest words in the blob.
    fn cache_key(&self) -> Option<usize> {
        self.rest_key()
    }
}

/// How a [`BlobScalars`] stores its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Repr<'a> {
    /// Scalar words.
    Raw(WordView<'a>),
    /// u16 LE values; component `j = i % width` decodes with range words `j` (min) and
    /// `width + j` (extent) of `ranges`.
    Quant { bytes: &'a [u8], width: usize, ranges: WordView<'a> },
    /// Packed smallest-three rotation keys (four scalars per key).
    Packed { stream: &'a [u8], keys: usize, params: PackedRotation },
    /// u8 indices into a table of time words (read inline: lossless blobs).
    Index8 { index: &'a [u8], table: WordView<'a> },
    /// u8 indices into a grid time table (computed entries).
    Grid8 { index: &'a [u8], table: TimeTable<'a> },
    /// u16 LE indices into a time table.
    Index16 { index: &'a [u8], table: TimeTable<'a> },
    /// A bitmap over a time table: scalar `i` is the entry of the `i`-th set bit.
    Bitmap { bits: &'a [u8], keys: usize, table: TimeTable<'a> },
}

/// The scalars of one channel's times, values or tangents in a blob: raw words decoded with
/// [`Scalar::from_blob_bits`], or 16-bit quantised values decoded as `min + extent × q / 65535`
/// with their component's range (`ossicle_format::skeleton::dequantize`), or packed
/// smallest-three rotation keys (`ossicle_format::skeleton::PackedRotation`, decoded with integer
/// arithmetic into the words `packed_word` gives), or (times) 8- or 16-bit indices into the clip's
/// table of times, or a bitmap over that table (`ossicle_format::skeleton::bitmap_select`:
/// the `i`-th time is the entry of the `i`-th set bit); the table is stored words, or a uniform
/// grid whose entries `ossicle_format::skeleton::grid_time` computes (`j / rate`, one f32
/// division or one integer division). A `Copy` view; `get` past the end returns zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobScalars<'a, S> {
    repr: Repr<'a>,
    _scalar: PhantomData<S>,
}

impl<'a, S: Scalar> BlobScalars<'a, S> {
    /// No scalars.
    pub const EMPTY: Self = Self { repr: Repr::Raw(WordView::new(&[])), _scalar: PhantomData };

    /// `count` words of `data` from word `first` (empty when out of range).
    fn raw(data: WordView<'a>, first: usize, count: usize) -> Self {
        let bytes = data.as_bytes();
        let view = first
            .checked_mul(4)
            .and_then(|a| Some((a, a.checked_add(count.checked_mul(4)?)?)))
            .and_then(|(a, b)| bytes.get(a..b))
            .unwrap_or(&[]);
        Self { repr: Repr::Raw(WordView::new(view)), _scalar: PhantomData }
    }

    /// Whether the values are quantised (16-bit or packed).
    pub fn is_quantized(&self) -> bool {
        matches!(self.repr, Repr::Quant { .. } | Repr::Packed { .. })
    }

    #[inline]
    fn word(bits: Option<u32>) -> S {
        match bits {
            Some(b) => S::from_blob_bits(b),
            None => S::ZERO,
        }
    }

    /// Packed key `k` as four scalars (zero past the end). Out of line: the sampling loop inlines
    /// the raw readers and calls this.
    #[inline(never)]
    fn packed_key(stream: &[u8], params: &PackedRotation, k: usize) -> [S; 4] {
        match params.decode_key(stream, k) {
            Some(q) => q.map(|v| S::from_blob_bits(packed_word(S::ENCODING, v))),
            None => [S::ZERO; 4],
        }
    }
}

impl<S: Scalar> Scalars<S> for BlobScalars<'_, S> {
    #[inline]
    fn len(&self) -> usize {
        match self.repr {
            Repr::Raw(w) => w.len(),
            Repr::Quant { bytes, .. } => bytes.len() / 2,
            Repr::Packed { keys, .. } => keys.saturating_mul(4),
            Repr::Index8 { index, .. } | Repr::Grid8 { index, .. } => index.len(),
            Repr::Index16 { index, .. } => index.len() / 2,
            Repr::Bitmap { keys, .. } => keys,
        }
    }
    /// Raw words and u8 indices: one range check for the whole run when it lies inside the
    /// scalars; quantised values by one slice `get`, a packed key by one bit-stream read (out of
    /// line); runs at the end: `count` calls of `get`.
    #[inline(always)]
    fn get4(&self, first: usize, count: usize) -> [S; 4] {
        match self.repr {
            Repr::Raw(w) => {
                // `count` is a constant where the sampling loop inlines this: the reads unroll.
                if let Some(run) = w.run(first, count.min(4)) {
                    return word4(run);
                }
            }
            Repr::Index8 { index, table } => {
                if let Some(run) = first.checked_add(count.min(4)).and_then(|end| index.get(first..end)) {
                    let at = |c: usize| match run.get(c) {
                        Some(&j) => Self::word(table.get(usize::from(j))),
                        None => S::ZERO,
                    };
                    return [at(0), at(1), at(2), at(3)];
                }
            }
            _ => return self.get4_other(first, count),
        }
        let at = |c: usize| if c < count { self.get(first.wrapping_add(c)) } else { S::ZERO };
        [at(0), at(1), at(2), at(3)]
    }

    /// Raw words: one range check for both keys' run.
    #[inline(always)]
    fn get4_pair(&self, first: usize, count: usize) -> ([S; 4], [S; 4]) {
        let count = count.min(4);
        if let Repr::Raw(w) = self.repr {
            if let Some((a, b)) = w.run(first, count.wrapping_mul(2)).and_then(|run| run.split_at(count)) {
                return (word4(a), word4(b));
            }
        }
        (self.get4(first, count), self.get4(first.wrapping_add(count), count))
    }

    /// Raw words and u8 indices (lossless blobs) inline, the other representations out of line.
    #[inline(always)]
    fn get(&self, i: usize) -> S {
        match self.repr {
            Repr::Raw(w) => Self::word(w.get(i)),
            Repr::Index8 { index, table } => Self::word(index.get(i).and_then(|&j| table.get(usize::from(j)))),
            _ => self.get_other(i),
        }
    }
}

impl<S: Scalar> BlobScalars<'_, S> {
    /// [`Scalars::get`] of quantised and packed values, u16 indices and bitmaps.
    #[inline(never)]
    fn get_other(&self, i: usize) -> S {
        match self.repr {
            Repr::Bitmap { bits, keys, table } => {
                if i >= keys {
                    return S::ZERO;
                }
                Self::word(bitmap_select(bits, i).and_then(|j| table.get(j)))
            }
            Repr::Quant { bytes, width, ranges } => {
                let q = match i.checked_mul(2).and_then(|a| bytes.get(a..a.checked_add(2)?)) {
                    Some(&[a, b]) => u16::from_le_bytes([a, b]),
                    _ => return S::ZERO,
                };
                let j = i.checked_rem(width).unwrap_or(0);
                let (m, e) = (ranges.get(j).unwrap_or(0), ranges.get(width.wrapping_add(j)).unwrap_or(0));
                S::from_blob_bits(dequantize(S::ENCODING, m, e, q))
            }
            Repr::Packed { stream, keys, params } => {
                if i / 4 >= keys {
                    return S::ZERO;
                }
                Self::packed_key(stream, &params, i / 4).get(i % 4).copied().unwrap_or(S::ZERO)
            }
            Repr::Index16 { index, table } => {
                let j = match i.checked_mul(2).and_then(|a| index.get(a..a.checked_add(2)?)) {
                    Some(&[a, b]) => u16::from_le_bytes([a, b]),
                    _ => return S::ZERO,
                };
                Self::word(table.get(usize::from(j)))
            }
            Repr::Raw(w) => Self::word(w.get(i)),
            Repr::Index8 { index, table } => Self::word(index.get(i).and_then(|&j| table.get(usize::from(j)))),
            Repr::Grid8 { index, table } => Self::word(index.get(i).and_then(|&j| table.get(usize::from(j)))),
        }
    }

    /// [`Scalars::get4`] of quantised and packed values, u16 indices and bitmaps (`count ≤ 4`;
    /// a bitmap's run: one select, then the next set bits).
    #[inline(never)]
    fn get4_other(&self, first: usize, count: usize) -> [S; 4] {
        let mut out = [S::ZERO; 4];
        let end = first.checked_add(count);
        let whole = match self.repr {
            Repr::Quant { bytes, width, ranges } => {
                let run = end.and_then(|e| bytes.get(first.checked_mul(2)?..e.checked_mul(2)?));
                match (run, first.checked_rem(width)) {
                    (Some(run), Some(j0)) => {
                        let mut j = j0;
                        for (o, b) in out.iter_mut().zip(run.chunks_exact(2)) {
                            let (m, e) = (ranges.get(j).unwrap_or(0), ranges.get(width.wrapping_add(j)).unwrap_or(0));
                            let q = if let &[lo, hi] = b { u16::from_le_bytes([lo, hi]) } else { 0 };
                            *o = S::from_blob_bits(dequantize(S::ENCODING, m, e, q));
                            j += 1;
                            if j == width {
                                j = 0;
                            }
                        }
                        true
                    }
                    _ => false,
                }
            }
            Repr::Packed { stream, keys, params } if first % 4 == 0 && count == 4 && first / 4 < keys => {
                out = Self::packed_key(stream, &params, first / 4);
                true
            }
            Repr::Bitmap { bits, keys, table } => {
                let mut at = if first < keys { bitmap_select(bits, first) } else { None };
                for (c, o) in out.iter_mut().enumerate().take(count) {
                    let Some(j) = at.filter(|_| first.wrapping_add(c) < keys) else { break };
                    *o = Self::word(table.get(j));
                    at = j.checked_add(1).and_then(|next| bitmap_next(bits, next));
                }
                true
            }
            _ => false,
        };
        if !whole {
            for (c, o) in out.iter_mut().enumerate().take(count) {
                *o = self.get(first.wrapping_add(c));
            }
        }
        out
    }
}

/// A skeletal clip section of a blob, read in place. Get one with
/// [`Asset::skel_clips`](crate::asset::Asset::skel_clips) or
/// [`Asset::skel_clip_named`](crate::asset::Asset::skel_clip_named); its skeleton with
/// [`Asset::skeleton_of`](crate::asset::Asset::skeleton_of).
///
/// A [`SkelClipSource`] for the blob's scalar type; read as the other type it has no bones, no
/// channels, no events and a duration of 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobSkelClip<'a> {
    pub(crate) section: SkelClipSection<'a>,
}

impl<'a> BlobSkelClip<'a> {
    /// The clip's name.
    pub fn name(&self) -> &'a str {
        self.section.name()
    }
    /// Its skeleton's name.
    pub fn skeleton_name(&self) -> Option<&'a str> {
        self.section.skeleton_name()
    }
    /// 3D or 2D.
    pub fn dimension(&self) -> Dimension {
        self.section.dimension()
    }
    /// The scalar encoding of its words.
    pub fn encoding(&self) -> ScalarEncoding {
        self.section.encoding()
    }
    /// The sample rate the source stated (informative), as `S` (0 if `S` is not the blob's type).
    pub fn sample_rate<S: Scalar>(&self) -> S {
        if S::ENCODING == self.section.encoding() {
            S::from_blob_bits(self.section.sample_rate())
        } else {
            S::ZERO
        }
    }
    /// Event `i`'s name.
    pub fn event_name(&self, i: usize) -> Option<&'a str> {
        self.section.strings().get(self.section.event(i)?.1)
    }
    /// The format section (records as stored).
    pub fn section(&self) -> &SkelClipSection<'a> {
        &self.section
    }
    /// Whether it reads as `S` (the blob's encoding).
    pub fn check<S: Scalar>(&self) -> Result<(), EncodingMismatch> {
        check::<S>(self.section.encoding())
    }
    /// The number of keys of bone `bone`'s channel `kind` (0 when not animated).
    pub fn key_count(&self, bone: usize, kind: ChannelKind) -> usize {
        self.section.channel(bone, kind.index()).map_or(0, |r| r.key_count() as usize)
    }

    /// The view of `n` key times a record's `times` field points at: raw words in `data`, or
    /// u8/u16 indices into the time table (not bitmaps).
    #[inline(always)]
    fn times_view<S: Scalar>(&self, at: u32, indexed: bool, n: usize) -> Option<BlobScalars<'a, S>> {
        if !indexed {
            return Some(BlobScalars::raw(self.section.data(), at as usize, n));
        }
        let index = self.section.time_index_bytes();
        let repr = if self.section.wide_index() {
            let start = (at as usize).checked_mul(2)?;
            Repr::Index16 {
                index: index.get(start..start.checked_add(n.checked_mul(2)?)?)?,
                table: self.section.time_table(),
            }
        } else {
            let start = at as usize;
            let index = index.get(start..start.checked_add(n)?)?;
            match self.section.time_table() {
                TimeTable::Words(table) => Repr::Index8 { index, table },
                table @ TimeTable::Grid { .. } => Repr::Grid8 { index, table },
            }
        };
        Some(BlobScalars { repr, _scalar: PhantomData })
    }
}

impl<'a, S: Scalar> SkelClipSource<S> for BlobSkelClip<'a> {
    type Scalars = BlobScalars<'a, S>;
    fn duration(&self) -> S {
        if S::ENCODING == self.section.encoding() {
            S::from_blob_bits(self.section.duration())
        } else {
            S::ONE
        }
    }
    fn looping(&self) -> bool {
        self.section.looping()
    }
    fn bone_count(&self) -> usize {
        if S::ENCODING == self.section.encoding() {
            self.section.bone_count()
        } else {
            0
        }
    }
    /// The common channel (raw values, Step or Linear, raw times or u8/u16 indices into the time
    /// table) is built inline; quantised or packed values, Hermite tangents and bitmap times by
    /// a separate function.
    #[inline]
    fn channel(&self, bone: usize, kind: ChannelKind) -> Option<ChannelData<BlobScalars<'a, S>>> {
        if S::ENCODING != self.section.encoding() {
            return None;
        }
        let c = kind.index();
        let r = self.section.channel(bone, c)?;
        let n = r.key_count() as usize;
        let special = CHANNEL_QUANTIZED | CHANNEL_PACKED_ROTATION | CHANNEL_BITMAP_TIMES;
        if n == 0 || r.info & special != 0 || r.interpolation() == INTERP_HERMITE {
            return self.channel_other(r, c);
        }
        let w = self.section.dimension().width(c);
        let interpolation = if r.interpolation() == INTERP_STEP { Interpolation::Step } else { Interpolation::Linear };
        // At most 65,535 keys of at most 4 components (a record's count field): no overflow.
        let values = BlobScalars::raw(self.section.data(), r.values as usize, n.checked_mul(w)?);
        let times = self.times_view(r.times, r.indexed_times(), n)?;
        Some(ChannelData { interpolation, times, values, tangents: BlobScalars::EMPTY })
    }
    /// The bone's entry (its channel mask and first record index; 0, no channels, past the end).
    #[inline]
    fn bone_handle(&self, bone: usize) -> BoneHandle {
        BoneHandle(self.section.entry(bone).unwrap_or(0))
    }
    /// The channel's record found from the bone's entry (the handle) and read, then the common
    /// channel's key (raw values, raw times or u8/u16 indices into the time table) in place, as
    /// [`SkelClipSource::channel`]'s view reads it; quantised or packed values and bitmap times
    /// through the view `channel` builds from that record (out of line on ARM).
    #[inline(always)]
    fn key(&self, _bone: usize, kind: ChannelKind, handle: BoneHandle, k: usize, width: usize) -> Option<(S, [S; 4])> {
        if S::ENCODING != self.section.encoding() {
            return None;
        }
        let c = kind.index();
        let r = self.section.record(SkelClipSection::entry_record_index(handle.0, c)?)?;
        if k >= r.key_count() as usize {
            return None;
        }
        // (A width other than the clip's, from a joint type of the other dimension, also goes
        // through the view, which bounds the reads by the channel's values.)
        let special = CHANNEL_QUANTIZED | CHANNEL_PACKED_ROTATION | CHANNEL_BITMAP_TIMES;
        if r.info & special != 0 || width != self.section.dimension().width(c) {
            return self.key_other(r, c, k, width);
        }
        let data = self.section.data();
        // k < key count <= 2^24 and width <= 4: no overflow (checked anyway).
        let at = (r.times as usize).checked_add(k)?;
        let time = if r.indexed_times() {
            // u16 entry `at` (bytes 2·at, 2·at + 1) or u8 entry `at`, as `channel`'s views.
            let index = self.section.time_index_bytes();
            let j = if self.section.wide_index() {
                let b = at.checked_mul(2)?;
                match *index.get(b..b.checked_add(2)?)? {
                    [lo, hi] => usize::from(u16::from_le_bytes([lo, hi])),
                    _ => return None,
                }
            } else {
                usize::from(*index.get(at)?)
            };
            match self.section.time_table() {
                TimeTable::Words(table) => table.get(j)?,
                table => table.get(j)?,
            }
        } else {
            data.get(at)?
        };
        let first = (r.values as usize).checked_add(k.checked_mul(width)?)?;
        let run = data.run(first, width.min(4))?;
        Some((S::from_blob_bits(time), word4(run)))
    }
    /// A bone whose records are single keys (any encoding) or raw, Linear, timed by the same run
    /// of raw times or u8/u16 indices (not a bitmap), with at least two keys: its records'
    /// `values` fields (word indices in `data`) and `times` field; `widths` must be the clip's
    /// dimension's.
    fn direct_bone(&self, bone: usize, widths: [usize; 3]) -> Option<DirectBone> {
        if S::ENCODING != self.section.encoding() || widths != self.section.dimension().widths() {
            return None;
        }
        let entry = self.section.entry(bone).unwrap_or(0);
        let mut direct = DirectBone::default();
        let mut times: Option<DirectTimes> = None;
        for (c, (values, width)) in direct.values.iter_mut().zip(widths).enumerate() {
            let Some(index) = SkelClipSection::entry_record_index(entry, c) else { continue };
            let r = self.section.record(index)?;
            let n = r.key_count();
            if n == 1 {
                direct.constant |= 1 << c;
                continue;
            }
            let special = CHANNEL_QUANTIZED | CHANNEL_PACKED_ROTATION | CHANNEL_BITMAP_TIMES;
            if n < 2 || r.info & special != 0 || r.interpolation() != INTERP_LINEAR {
                return None;
            }
            let run = DirectTimes { at: r.times, keys: n, indexed: r.indexed_times() };
            if *times.get_or_insert(run) != run {
                return None;
            }
            // Every key's values inside `data` (as the load checked; checked again, once).
            self.section.data().run(r.values as usize, (n as usize).checked_mul(width)?)?;
            *values = r.values;
            direct.mask |= 1 << c;
        }
        if let Some(run) = times {
            // The times' view must exist (checked once, here).
            self.times_view::<S>(run.at, run.indexed, run.keys as usize)?;
            direct.times = run;
        }
        Some(direct)
    }
    #[inline]
    fn direct_times(&self, times: DirectTimes) -> Option<BlobScalars<'a, S>> {
        if S::ENCODING != self.section.encoding() {
            return None;
        }
        self.times_view(times.at, times.indexed, times.keys as usize)
    }
    /// Words `values + k·width` to `values + (k + 2)·width` of `data`: one range check (the
    /// scalar type is not checked again: `values` comes from [`SkelClipSource::direct_bone`],
    /// which checked it).
    #[inline(always)]
    fn direct_pair(&self, values: u32, k: usize, width: usize) -> Option<([S; 4], [S; 4])> {
        let width = width.min(4);
        // Wrapping: a wrapped range is empty (`get` gives `None`), never a panic.
        let at = (values as usize).wrapping_add(k.wrapping_mul(width));
        let (a, b) = self.section.data().run_wrapping(at, width.wrapping_mul(2))?.split_at(width)?;
        Some((word4(a), word4(b)))
    }
    fn event_count(&self) -> usize {
        if S::ENCODING == self.section.encoding() {
            self.section.event_count()
        } else {
            0
        }
    }
    fn event(&self, i: usize) -> Option<ClipEvent<S>> {
        if S::ENCODING != self.section.encoding() {
            return None;
        }
        let (time, name) = self.section.event(i)?;
        Some(ClipEvent { time: S::from_blob_bits(time), name: u16::try_from(name).ok()? })
    }
    /// The address of the section's bone entries in the blob (unique to the section while the
    /// blob stays where it is; `None` for a clip without bones).
    fn cache_key(&self) -> Option<usize> {
        let bones = self.section.body().bones;
        if bones.is_empty() {
            None
        } else {
            Some(bones.as_ptr() as usize)
        }
    }
}

impl<'a> BlobSkelClip<'a> {
    /// [`SkelClipSource::key`] of a channel record `r` of kind `c` with quantised or packed values
    /// or bitmap times: key `k` read through the view [`channel_other`](Self::channel_other)
    /// builds (`k` is below the key count).
    #[cfg_attr(target_arch = "arm", inline(never))]
    #[cfg_attr(not(target_arch = "arm"), inline)]
    fn key_other<S: Scalar>(&self, r: ChannelRecord, c: usize, k: usize, width: usize) -> Option<(S, [S; 4])> {
        let ch = self.channel_other::<S>(r, c)?;
        Some((ch.times.get(k), ch.values.get4(k.wrapping_mul(width), width)))
    }

    /// [`SkelClipSource::channel`] of any channel record `r` of kind `c`: quantised or packed
    /// values, Hermite tangents, bitmap times. Out of line on ARM, where the common channel built
    /// inline in `channel` is what sampling pays for (SlowRun on the M4F: 387.8 instructions per
    /// joint with a cached context, 393.2 inlined); inline elsewhere (x86-64: a plain context's
    /// forward sampling from a blob ~20 % slower out of line).
    #[cfg_attr(target_arch = "arm", inline(never))]
    #[cfg_attr(not(target_arch = "arm"), inline)]
    fn channel_other<S: Scalar>(&self, r: ChannelRecord, c: usize) -> Option<ChannelData<BlobScalars<'a, S>>> {
        let n = r.key_count() as usize;
        if n == 0 {
            return None;
        }
        let w = self.section.dimension().width(c);
        let nw = n.checked_mul(w)?;
        let data = self.section.data();
        let interpolation = match r.interpolation() {
            INTERP_STEP => Interpolation::Step,
            INTERP_HERMITE => Interpolation::Hermite,
            _ => Interpolation::Linear,
        };
        let values = if r.packed_rotation() {
            let quant = self.section.quant_bytes();
            let params = PackedRotation::from_bytes(quant.get(r.extra as usize..)?)?;
            let start = r.values as usize;
            let stream = quant.get(start..start.checked_add(params.stream_len(n)?)?)?;
            BlobScalars { repr: Repr::Packed { stream, keys: n, params }, _scalar: PhantomData }
        } else if r.quantized() {
            let quant = self.section.quant_bytes();
            let start = (r.values as usize).checked_mul(2)?;
            let bytes = quant.get(start..start.checked_add(nw.checked_mul(2)?)?)?;
            let ranges = data.as_bytes();
            let at = (r.extra as usize).checked_mul(4)?;
            let ranges = WordView::new(ranges.get(at..at.checked_add(w.checked_mul(8)?)?)?);
            BlobScalars { repr: Repr::Quant { bytes, width: w, ranges }, _scalar: PhantomData }
        } else {
            BlobScalars::raw(data, r.values as usize, nw)
        };
        let tangents = if interpolation == Interpolation::Hermite {
            BlobScalars::raw(data, r.tangents(w)? as usize, nw.checked_mul(2)?)
        } else {
            BlobScalars::EMPTY
        };
        let times = if r.indexed_times() {
            let index = self.section.time_index_bytes();
            let table = self.section.time_table();
            let repr = if r.bitmap_times() {
                Repr::Bitmap { bits: self.section.time_bitmap(r.times as usize)?, keys: n, table }
            } else if self.section.wide_index() {
                let start = (r.times as usize).checked_mul(2)?;
                Repr::Index16 { index: index.get(start..start.checked_add(n.checked_mul(2)?)?)?, table }
            } else {
                let start = r.times as usize;
                let index = index.get(start..start.checked_add(n)?)?;
                match table {
                    TimeTable::Words(table) => Repr::Index8 { index, table },
                    TimeTable::Grid { .. } => Repr::Grid8 { index, table },
                }
            };
            BlobScalars { repr, _scalar: PhantomData }
        } else {
            BlobScalars::raw(data, r.times as usize, n)
        };
        Some(ChannelData { interpolation, times, values, tangents })
    }
}
