//! Builders shared by the skeletal sampling tests (skeleton_cache.rs, skeleton_direct.rs): owned
//! channels and their views, the bones every kind of channel, a schedule of times, blobs written
//! with ossicle_format's BlobWriter, and a comparison of a context with a plain one.

use ossicle::math::{Transform3, Vec3};
use ossicle::skeleton::{
    ChannelData, Interpolation, Joint, RotationInterp, SamplingContext, SamplingJob, SamplingState, SkelClipSource,
    SliceSkeleton,
};
use ossicle::Scalar;

pub fn sv<S: Scalar>(v: &[f64]) -> Vec<S> {
    v.iter().map(|&x| S::from_f64(x)).collect()
}

/// A channel's owned parts.
pub struct Ch<S> {
    pub interpolation: Interpolation,
    pub times: Vec<S>,
    pub values: Vec<S>,
    pub tangents: Vec<S>,
}

pub fn ch<S: Scalar>(interpolation: Interpolation, times: &[f64], values: &[f64], tangents: &[f64]) -> Option<Ch<S>> {
    Some(Ch { interpolation, times: sv(times), values: sv(values), tangents: sv(tangents) })
}

pub fn view<S: Scalar>(c: &Option<Ch<S>>) -> Option<ChannelData<&[S]>> {
    c.as_ref().map(|c| ChannelData {
        interpolation: c.interpolation,
        times: &c.times[..],
        values: &c.values[..],
        tangents: &c.tangents[..],
    })
}

/// Five 3D bones: every kind of channel (Linear, Step, Hermite, a single key, missing channels,
/// keys starting after 0 and ending before the clip's end, two channels keyed at different times).
pub fn channels_3d<S: Scalar>() -> Vec<[Option<Ch<S>>; 3]> {
    use Interpolation::{Hermite, Linear, Step};
    let h = std::f64::consts::FRAC_1_SQRT_2;
    vec![
        [
            ch(Linear, &[0.0, 0.5, 1.0, 2.0], &[0., 0., 0., 1., 2., 3., 2., 4., 6., -1., 0., 1.], &[]),
            ch(Linear, &[0.0, 1.0, 2.0], &[0., 0., 0., 1., 0., 0., h, h, 0., 0., 1., 0.], &[]),
            None,
        ],
        [
            ch(Step, &[0.25, 1.0, 1.5], &[1., 1., 1., 2., 2., 2., 3., 3., 3.], &[]),
            ch(Linear, &[0.4, 1.6], &[0., 0., 0., 1., 0., 0., -h, h], &[]),
            ch(Linear, &[0.3], &[2., 2., 2.], &[]),
        ],
        [
            None,
            None,
            ch(
                Hermite,
                &[0.0, 2.0],
                &[1., 1., 1., 2., 2., 2.],
                &[0., 0., 0., 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0., 0., 0.],
            ),
        ],
        [None, None, None],
        [
            ch(Linear, &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.9], &[0.; 30], &[]),
            ch(Step, &[0.0, 1.0], &[0., 0., 0., 1., 0., 0., 1., 0.], &[]),
            ch(Linear, &[0.5, 1.5], &[1., 1., 1., 3., 3., 3.], &[]),
        ],
    ]
}

pub fn rest_3d<S: Scalar>() -> Vec<Transform3<S>> {
    (0..5)
        .map(|i| {
            let f = S::from_i32(i + 1);
            Transform3::new(Vec3::new(f, f, f), Transform3::<S>::IDENTITY.rotation, Vec3::new(f, f, f))
        })
        .collect()
}

/// The times the tests sample: forward at 60 Hz across two loops, every key time exactly, backwards,
/// scattered seeks, outside the clip (wrapped or clamped), and repeats.
pub fn schedule(duration: f64) -> Vec<f64> {
    let mut ts: Vec<f64> = (0..=240).map(|i| f64::from(i) / 60.0).collect();
    ts.extend([0.0, 0.1, 0.25, 0.3, 0.4, 0.5, 1.0, 1.5, 1.6, 1.9, 2.0, 2.0, 1.9]);
    ts.extend((0..120).rev().map(|i| f64::from(i) / 60.0 + 0.003));
    let mut x = 0x2545_F491u32;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        ts.push(f64::from(x % 10_000) / 10_000.0 * duration * 1.5 - 0.25 * duration);
    }
    ts.extend([-0.5, 2.5, 4.0, -2.0, 0.999, 1.0, 1.0]);
    ts
}

/// Five 2D bones for the blob tests: Hermite, Linear and Step channels, a single key, three
/// channels keyed at the same times, a bone without channels, a channel of many keys.
pub fn channels_2d<S: Scalar>() -> Vec<[Option<Ch<S>>; 3]> {
    use Interpolation::{Hermite, Linear, Step};
    let five = [0.0, 0.5, 1.0, 1.5, 2.0];
    vec![
        [
            ch(Hermite, &[0.0, 2.0], &[0., 0., 4., 2.], &[1., -1., 0., 0., 0., 0., 2., 2.]),
            ch(Linear, &[0.0, 1.0, 2.0], &[0.0, 1.5, -1.5], &[]),
            None,
        ],
        [None, ch(Step, &[0.5, 1.25], &[1.0, -1.0], &[]), ch(Linear, &[0.5], &[1.0, 3.0], &[])],
        [
            ch(Linear, &five, &[0., 0., 1., 2., 2., 4., 3., 6., 4., 8.], &[]),
            ch(Linear, &five, &[0.0, 0.5, 1.0, 0.5, 0.0], &[]),
            ch(Linear, &five, &[1., 1., 2., 2., 1., 1., 2., 2., 1., 1.], &[]),
        ],
        [None, None, None],
        [ch(Linear, &[0.1, 0.2, 0.3, 0.4, 0.6, 0.9, 1.3, 1.9], &[0.25; 16], &[]), None, None],
    ]
}

/// A bone's three channels.
pub type Bone<S> = [Option<Ch<S>>; 3];

/// How [`blob_of`] stores key times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlobTimes {
    /// Raw words in the clip's data.
    Raw,
    /// u8 indices into a table of the clip's distinct key times.
    Index8,
    /// u16 indices into that table.
    Index16,
    /// Bitmaps over that table.
    Bitmap,
    /// u8 indices, in the compact layout (u16 bone entries, 8-byte records).
    Compact,
}

/// `chans` (3D when `dim` is `D3`, else 2D) written as a blob clip "walk" of 2 s (the layout of
/// `ossicle_format::skeleton`; kernel/tests/skeleton_blob.rs checks the views of such blobs against
/// the values written): raw values, except the channels listed in `quantized` (bone, kind), stored
/// as 16-bit values (pseudo-random, over the range −1 to 1) instead.
pub fn blob_of<S: Scalar>(
    dim: ossicle::skeleton::Dimension,
    chans: &[[Option<Ch<S>>; 3]],
    quantized: &[(usize, usize)],
    mode: BlobTimes,
) -> Vec<u8> {
    blob_with(dim, chans, quantized, mode, BlobOpts::SEPARATE)
}

/// What [`blob_with`] does beyond [`blob_of`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlobOpts {
    /// Channels keyed at the same times point at one stored run of times (as the host's writer
    /// stores them), instead of each at its own copy.
    pub share_times: bool,
    /// The time table (indexed modes) as a uniform grid of this many entries per second over the
    /// 2 s (every key time must be one of its entries, bit for bit).
    pub grid: Option<u32>,
    /// The clip's loop flag.
    pub looping: bool,
}

impl BlobOpts {
    /// [`blob_of`]'s: every channel's own times, a stored table, looping.
    pub const SEPARATE: Self = Self { share_times: false, grid: None, looping: true };
}

/// Entry `j` of a grid time table of `rate` entries per second, as a scalar.
pub fn grid_time<S: Scalar>(j: usize, rate: u32) -> S {
    S::from_blob_bits(ossicle_format::skeleton::grid_time(S::ENCODING, j, rate).unwrap())
}

/// [`blob_of`] with `opts`.
pub fn blob_with<S: Scalar>(
    dim: ossicle::skeleton::Dimension,
    chans: &[[Option<Ch<S>>; 3]],
    quantized: &[(usize, usize)],
    mode: BlobTimes,
    opts: BlobOpts,
) -> Vec<u8> {
    use ossicle_format::skeleton::{
        pack_channels, pack_channels_compact, ChannelRecord, SkelClipBody, SkeletonBody, CHANNEL_BITMAP_TIMES,
        CHANNEL_INDEXED_TIMES, CLIP_FLAG_COMPACT, CLIP_FLAG_GRID_TIMES, CLIP_FLAG_WIDE_INDEX, INTERP_HERMITE,
        INTERP_LINEAR, INTERP_STEP,
    };
    let le = |words: &[u32]| -> Vec<u8> { words.iter().flat_map(|w| w.to_le_bytes()).collect() };
    let mut w = ossicle_format::BlobWriter::new(S::ENCODING);
    let (rig, walk) = (w.intern("rig"), w.intern("walk"));
    let rest_words = dim.rest_words();
    let mut bones = Vec::new();
    let mut rest = Vec::new();
    for b in 0..chans.len() {
        bones.extend([if b == 0 { 0xFFFF } else { b as u32 - 1 }, w.intern(&format!("b{b}"))]);
        // The identity: 3D (0, 0, 0), (0, 0, 0, 1), (1, 1, 1); 2D (0, 0), 0, (1, 1).
        let ones = if rest_words == 10 { 6 } else { 3 };
        rest.extend((0..rest_words).map(|i| if i >= ones { S::ONE } else { S::ZERO }.to_blob_bits()));
    }
    let (bone_bytes, rest_bytes) = (le(&bones), le(&rest));
    w.add_skeleton(&SkeletonBody { name: rig, dimension: dim as u8, bones: &bone_bytes, rest: &rest_bytes }).unwrap();
    let mut table: Vec<u32> =
        chans.iter().flatten().flatten().flat_map(|c| c.times.iter().map(|t| t.to_blob_bits())).collect();
    table.sort_by_key(|&b| S::from_blob_bits(b).to_f64().to_bits());
    table.dedup();
    if let Some(rate) = opts.grid {
        table = (0..=2 * rate as usize).map(|j| grid_time::<S>(j, rate).to_blob_bits()).collect();
    }
    // Where each run of times already written is (`share_times`).
    let mut runs: Vec<(Vec<u32>, u32)> = Vec::new();
    let (mut records, mut data, mut quant, mut index) =
        (Vec::new(), Vec::<u32>::new(), Vec::<u8>::new(), Vec::<u8>::new());
    let mut x = 0x1357_9BDFu32;
    for (b, bone) in chans.iter().enumerate() {
        for (c, ch) in bone.iter().enumerate() {
            let Some(ch) = ch else {
                records.push([0; 4]);
                continue;
            };
            let n = ch.times.len();
            let width = dim.width(c);
            let interp = match ch.interpolation {
                Interpolation::Step => INTERP_STEP,
                Interpolation::Linear => INTERP_LINEAR,
                Interpolation::Hermite => INTERP_HERMITE,
            };
            let q = quantized.contains(&(b, c));
            let mut info = ChannelRecord::make_info(n as u32, interp, q);
            let bits: Vec<u32> = ch.times.iter().map(|t| t.to_blob_bits()).collect();
            let shared = runs.iter().find(|(r, _)| opts.share_times && *r == bits).map(|&(_, at)| at);
            if mode != BlobTimes::Raw {
                info |= CHANNEL_INDEXED_TIMES | if mode == BlobTimes::Bitmap { CHANNEL_BITMAP_TIMES } else { 0 };
            }
            let times = match (shared, mode) {
                (Some(at), _) => at,
                (None, BlobTimes::Raw) => {
                    data.extend(ch.times.iter().map(|t| t.to_blob_bits()));
                    (data.len() - n) as u32
                }
                (None, _) => {
                    let js = ch.times.iter().map(|t| table.iter().position(|&e| e == t.to_blob_bits()).unwrap());
                    match mode {
                        BlobTimes::Index16 => {
                            let at = index.len() / 2;
                            index.extend(js.flat_map(|j| (j as u16).to_le_bytes()));
                            at as u32
                        }
                        BlobTimes::Bitmap => {
                            let at = index.len();
                            let mut map = vec![0u8; table.len().div_ceil(8)];
                            js.for_each(|j| map[j / 8] |= 1 << (j % 8));
                            index.extend(map);
                            at as u32
                        }
                        _ => {
                            let at = index.len();
                            index.extend(js.map(|j| j as u8));
                            at as u32
                        }
                    }
                }
            };
            runs.push((bits, times));
            let (values, extra) = if q {
                let at = quant.len() / 2;
                for _ in 0..n * width {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    quant.extend(((x >> 16) as u16).to_le_bytes());
                }
                let extra = data.len();
                data.extend((0..width).map(|_| S::from_f64(-1.0).to_blob_bits()));
                data.extend((0..width).map(|_| S::TWO.to_blob_bits()));
                (at as u32, extra as u32)
            } else {
                data.extend(ch.values.iter().map(|v| v.to_blob_bits()));
                ((data.len() - n * width) as u32, data.len() as u32)
            };
            data.extend(ch.tangents.iter().map(|v| v.to_blob_bits()));
            records.push([info, times, values, if interp == INTERP_HERMITE || q { extra } else { 0 }]);
        }
    }
    let compact = mode == BlobTimes::Compact;
    let (entries, rec_bytes) = if compact { pack_channels_compact(&records).unwrap() } else { pack_channels(&records) };
    let table = match opts.grid {
        Some(rate) => vec![rate, table.len() as u32],
        None => table,
    };
    let (data_bytes, table_bytes) = (le(&data), le(&table));
    w.add_skel_clip(&SkelClipBody {
        name: walk,
        skeleton: rig,
        dimension: dim as u8,
        flags: u8::from(opts.looping)
            | if mode == BlobTimes::Index16 { CLIP_FLAG_WIDE_INDEX } else { 0 }
            | if opts.grid.is_some() { CLIP_FLAG_GRID_TIMES } else { 0 }
            | if compact { CLIP_FLAG_COMPACT } else { 0 },
        duration: S::TWO.to_blob_bits(),
        sample_rate: S::from_i32(30).to_blob_bits(),
        bones: &entries,
        channels: &rec_bytes,
        data: &data_bytes,
        quant: &quant,
        times: &table_bytes,
        time_index: &index,
        events: &[],
    })
    .unwrap();
    w.finish().unwrap()
}

/// Samples `clip` at every time of `times` with a plain context and a context `X` (each kept across
/// all of them) and hands both poses (`skeleton.bone_count()` joints) to `check` with the time.
pub fn against_plain<S: Scalar, J: Joint<S>, C: SkelClipSource<S>, X: SamplingState<S, J>>(
    skeleton: &SliceSkeleton<'_, J>,
    clip: &C,
    rotation: RotationInterp,
    lod: u8,
    times: &[f64],
    mut check: impl FnMut(f64, &[J], &[J]),
) {
    use ossicle::skeleton::SkeletonSource;
    let bones = SkeletonSource::<S, J>::bone_count(skeleton);
    let mut plain = SamplingContext::<16>::new();
    let mut other = X::NEW;
    let (mut a, mut b) = (vec![J::IDENTITY; bones], vec![J::IDENTITY; bones]);
    for &t in times {
        let job = SamplingJob { skeleton, clip, time: S::from_f64(t), rotation, lod };
        job.run(&mut plain, &mut a).unwrap();
        job.run(&mut other, &mut b).unwrap();
        check(t, &a, &b);
    }
}

/// The player script both context tests run: an `AnimPlayer` with a plain context and one with
/// context `X` (room for `N` bones) on `rig`'s two clips, through play, updates at 60 Hz, a
/// crossfade, a seek, reverse playback and a restart, with root motion on bone 0. Every update's
/// root motion must be equal; `check(frame, plain, other)` gets the two poses of each frame.
/// Returns both event queues.
#[allow(clippy::type_complexity)]
pub fn player_script<S, K, C, X, const N: usize>(
    rig: &ossicle::skeleton::Rig<'_, K, C>,
    clips: &[C],
    mut check: impl FnMut(i32, &[Transform3<S>], &[Transform3<S>]),
) -> (
    ossicle::event::EventQueue<64, ossicle::skeleton::SkelEvent<S>>,
    ossicle::event::EventQueue<64, ossicle::skeleton::SkelEvent<S>>,
)
where
    S: Scalar,
    K: ossicle::skeleton::SkeletonSource<S, Transform3<S>>,
    C: SkelClipSource<S>,
    X: SamplingState<S, Transform3<S>>,
{
    use ossicle::event::EventQueue;
    use ossicle::skeleton::{AnimPlayer, RootMotionSettings};
    let root = Some(RootMotionSettings { bone: 0, remove: true });
    let mut plain: AnimPlayer<S, Transform3<S>, N> = AnimPlayer::new(1);
    let mut other: AnimPlayer<S, Transform3<S>, N, X> = AnimPlayer::new(1);
    let (mut qa, mut qb) = (EventQueue::new(), EventQueue::new());
    let (mut pa, mut pb) = (vec![Transform3::<S>::IDENTITY; N], vec![Transform3::<S>::IDENTITY; N]);
    plain.set_root_motion(root);
    other.set_root_motion(root);
    plain.play(clips, 0).unwrap();
    other.play(clips, 0).unwrap();
    let dt = S::from_ratio(1, 60);
    for frame in 0..400 {
        match frame {
            90 => {
                plain.crossfade(clips, 1, S::HALF).unwrap();
                other.crossfade(clips, 1, S::HALF).unwrap();
            }
            200 => {
                plain.seek(clips, S::from_f64(0.7)).unwrap();
                other.seek(clips, S::from_f64(0.7)).unwrap();
            }
            250 => {
                plain.set_speed(S::from_f64(-1.5));
                other.set_speed(S::from_f64(-1.5));
            }
            320 => {
                plain.play(clips, 0).unwrap();
                other.play(clips, 0).unwrap();
            }
            _ => {}
        }
        let ma = plain.update(rig, dt, &mut qa).unwrap();
        let mb = other.update(rig, dt, &mut qb).unwrap();
        assert_eq!(ma, mb, "motion at frame {frame}");
        plain.evaluate(rig, &mut pa).unwrap();
        other.evaluate(rig, &mut pb).unwrap();
        check(frame, &pa, &pb);
    }
    (qa, qb)
}
