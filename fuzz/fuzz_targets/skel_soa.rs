//! The structure-of-arrays jobs on arbitrary poses: `SoaBlendingJob` gives `BlendingJob`'s results
//! bit for bit (any NaN equal to any NaN: the two paths may take a NaN's payload from either
//! operand of a commutative operation), in f32 and Q16.16, with two or three layers, per-bone
//! masks, additive layers against the identity or the bind pose, a rest fill threshold and a LOD
//! limit, on poses whose words are taken from the input (so NaNs, infinities, huge and tiny
//! values, zero quaternions); `SoaTransform3::pack`/`unpack` round-trip; `SoaLocalToModelJob`
//! never panics, whatever the range, and its `Affine3A` output holds its `Affine3` output's twelve
//! numbers (any NaN equal to any NaN) with a fourth row of exactly (0, 0, 0, 1), from the same
//! starting matrices (the bones before `from` are read, not written). Seeds: none needed
//! (`cargo fuzz run skel_soa`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle::math::{Affine3, Affine3A, Quat, Transform3, Vec3};
use ossicle::skeleton::{
    soa_count, AdditiveReference, BlendLayer, BlendingJob, SliceSkeleton, SoaBlendingJob, SoaLocalToModelJob,
    SoaTransform3,
};
use ossicle::{Scalar, Q16};
use ossicle_fuzz::Words;

/// A scalar from a word: most of the time a value near the animation range, sometimes the raw
/// word (any f32 bit pattern, any Q16.16).
fn scalar<S: Scalar>(w: &mut Words<'_>) -> S {
    let x = w.word();
    match x & 3 {
        0 => S::from_blob_bits(w.word()),
        _ => S::from_ratio((x >> 2) as i32 % 4001 - 2000, 1000),
    }
}

fn joint<S: Scalar>(w: &mut Words<'_>) -> Transform3<S> {
    let mut s = || scalar::<S>(w);
    Transform3::new(Vec3::new(s(), s(), s()), Quat::from_xyzw(s(), s(), s(), s()), Vec3::new(s(), s(), s()))
}

/// The joint's words, NaNs (f32) made one value.
fn words<S: Scalar>(j: &Transform3<S>) -> [u32; 10] {
    let (t, r, s) = (j.translation, j.rotation, j.scale);
    [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z].map(|v| {
        let b = v.to_blob_bits();
        if v.to_f64().is_nan() {
            0x7FC0_0000
        } else {
            b
        }
    })
}

fn run<S: Scalar>(w: &mut Words<'_>) {
    let bones = usize::from(w.byte() % 13) + 1;
    let parents: Vec<u16> = (0..bones)
        .map(|i| {
            let p = w.byte();
            if i == 0 || p.is_multiple_of(5) {
                u16::MAX
            } else {
                u16::from(p) % i as u16
            }
        })
        .collect();
    let rest: Vec<Transform3<S>> = (0..bones).map(|_| joint(w)).collect();
    let lods: Vec<u8> = (0..bones).map(|_| w.byte() % 4).collect();
    let Ok(skeleton) = SliceSkeleton::new(&parents, &rest) else { return };
    let Ok(skeleton) = skeleton.with_lods(&lods) else { return };
    let flags = w.byte();
    let layers = 1 + usize::from(flags % 3);
    let additive = usize::from((flags >> 2) % 3);
    let poses: Vec<Vec<Transform3<S>>> =
        (0..layers + additive).map(|_| (0..bones).map(|_| joint(w)).collect()).collect();
    let masks: Vec<Vec<S>> = (0..layers + additive).map(|_| (0..bones).map(|_| scalar(w)).collect()).collect();
    let weights: Vec<S> = (0..layers + additive).map(|_| scalar(w)).collect();
    let masked = flags & 0x10 != 0;
    let soa: Vec<Vec<SoaTransform3<S>>> = poses
        .iter()
        .map(|p| {
            let mut g = vec![SoaTransform3::IDENTITY; soa_count(bones)];
            SoaTransform3::pack(p, &mut g).expect("packs");
            let mut back = vec![Transform3::IDENTITY; bones];
            SoaTransform3::unpack(&g, &mut back).expect("unpacks");
            assert!(back.iter().zip(p).all(|(a, b)| words(a) == words(b)), "pack/unpack round trip");
            g
        })
        .collect();
    let mask = |k: usize| if masked && k.is_multiple_of(2) { Some(&masks[k][..]) } else { None };
    let aos_layer = |k: usize| BlendLayer { pose: &poses[k][..], weight: weights[k], mask: mask(k) };
    let soa_layer = |k: usize| BlendLayer { pose: &soa[k][..], weight: weights[k], mask: mask(k) };
    let aos_layers: Vec<_> = (0..layers).map(aos_layer).collect();
    let soa_layers: Vec<_> = (0..layers).map(soa_layer).collect();
    let aos_add: Vec<_> = (layers..layers + additive).map(aos_layer).collect();
    let soa_add: Vec<_> = (layers..layers + additive).map(soa_layer).collect();
    let reference = if flags & 0x20 != 0 { AdditiveReference::BindPose } else { AdditiveReference::Identity };
    let threshold = if flags & 0x40 != 0 { scalar(w) } else { S::from_ratio(1, 10) };
    let lod = if flags & 0x80 != 0 { w.byte() % 4 } else { u8::MAX };

    let mut expected = vec![Transform3::IDENTITY; bones];
    let mut job = BlendingJob::new(&skeleton, &aos_layers);
    (job.additive, job.additive_reference, job.threshold, job.lod) = (&aos_add, reference, threshold, lod);
    let aos = job.run(&mut expected);

    let mut got = vec![SoaTransform3::IDENTITY; soa_count(bones)];
    let mut soa_job = SoaBlendingJob::new(&skeleton, &soa_layers);
    (soa_job.additive, soa_job.additive_reference, soa_job.threshold, soa_job.lod) =
        (&soa_add, reference, threshold, lod);
    let soa_result = soa_job.run(&mut got);
    assert_eq!(aos.is_ok(), soa_result.is_ok(), "the jobs accept the same inputs");
    if aos.is_ok() {
        let mut unpacked = vec![Transform3::IDENTITY; bones];
        SoaTransform3::unpack(&got, &mut unpacked).expect("unpacks");
        for (i, (e, g)) in expected.iter().zip(&unpacked).enumerate() {
            assert_eq!(words(e), words(g), "bone {i}: {e:?} vs {g:?}");
        }
    }

    // Local-to-model on the blended pose (or a packed input pose), any range: no panic; both
    // outputs agree, from starting matrices taken from the input.
    let local = if aos.is_ok() { got } else { soa[0].clone() };
    let start: Vec<Affine3<S>> = (0..bones)
        .map(|_| {
            let mut v = || Vec3::new(scalar::<S>(w), scalar::<S>(w), scalar::<S>(w));
            Affine3::from_cols(v(), v(), v(), v())
        })
        .collect();
    let mut model = start.clone();
    let mut padded: Vec<Affine3A<S>> = start.iter().map(|&m| Affine3A::from(m)).collect();
    let mut l2m = SoaLocalToModelJob::new(&skeleton);
    (l2m.from, l2m.to, l2m.lod) = (usize::from(w.byte()) % (bones + 2), usize::from(w.byte()), lod);
    if flags & 0x08 != 0 {
        l2m.root = start[0];
    }
    let a = l2m.run(&local, &mut model);
    let b = l2m.run(&local, &mut padded);
    assert_eq!(a, b, "both outputs accept the same inputs");
    let word = |v: S| if v.to_f64().is_nan() { 0x7FC0_0000 } else { v.to_blob_bits() };
    for (i, (m, p)) in model.iter().zip(&padded).enumerate() {
        let (want, got) = (Affine3A::from(*m).to_cols_array().map(word), p.to_cols_array().map(word));
        assert_eq!(want, got, "bone {i}: {m:?} vs {p:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    let mut w = Words(rest);
    if kind & 1 == 0 {
        run::<f32>(&mut w);
    } else {
        run::<Q16>(&mut w);
    }
});
