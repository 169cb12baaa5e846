//! Structure-of-arrays poses and jobs: `SoaBlendingJob` gives `BlendingJob`'s results bit for bit,
//! `SoaLocalToModelJob` gives `model[parent] · local.to_affine()` (summed in its documented order) bit for bit, on random poses
//! of every kind the jobs branch on, f32 and Q16.16, into `Affine3`s and into `Affine3A`s (the same twelve numbers, and a
//! fourth row of exactly (0, 0, 0, 1)); plus hand-computed cases.

use ossicle::math::{Affine3, Affine3A, Quat, Transform3, Vec3};
use ossicle::skeleton::{
    soa_count, AdditiveReference, BlendLayer, BlendingJob, JobError, LocalToModelJob, SliceSkeleton, SoaBlendingJob,
    SoaLocalToModelJob, SoaTransform3,
};
use ossicle::{Scalar, Q16};

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn quat(&mut self) -> [f64; 4] {
        loop {
            let q = [self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0)];
            let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            if n > 0.1 && n <= 1.0 {
                return q.map(|v| v / n);
            }
        }
    }
}

fn transform<S: Scalar>(rng: &mut Rng, far: bool) -> Transform3<S> {
    let s = |v: f64| S::from_f64(v);
    let q = rng.quat();
    // Sometimes a quaternion well off unit length (the normalisation's slow path), sometimes the
    // same rotation on the other hemisphere (the blend's sign flip).
    let k = if far { rng.range(0.5, 1.5) } else { 1.0 };
    let sign = if rng.next() % 3 == 0 { -1.0 } else { 1.0 };
    Transform3::new(
        Vec3::new(s(rng.range(-50.0, 50.0)), s(rng.range(-50.0, 50.0)), s(rng.range(-50.0, 50.0))),
        Quat::from_xyzw(s(sign * k * q[0]), s(sign * k * q[1]), s(sign * k * q[2]), s(sign * k * q[3])),
        Vec3::new(s(rng.range(0.5, 2.0)), s(rng.range(0.5, 2.0)), s(rng.range(0.5, 2.0))),
    )
}

fn pose<S: Scalar>(rng: &mut Rng, n: usize, far: bool) -> Vec<Transform3<S>> {
    (0..n).map(|_| transform(rng, far)).collect()
}

fn pack<S: Scalar>(p: &[Transform3<S>]) -> Vec<SoaTransform3<S>> {
    let mut out = vec![SoaTransform3::IDENTITY; soa_count(p.len())];
    SoaTransform3::pack(p, &mut out).unwrap();
    out
}

fn bits<S: Scalar>(t: &Transform3<S>) -> [u64; 10] {
    let b = |v: S| v.to_f64().to_bits();
    [
        b(t.translation.x),
        b(t.translation.y),
        b(t.translation.z),
        b(t.rotation.x),
        b(t.rotation.y),
        b(t.rotation.z),
        b(t.rotation.w),
        b(t.scale.x),
        b(t.scale.y),
        b(t.scale.z),
    ]
}

/// A random skeleton of `n` bones: parents before children, mostly the previous bone.
fn parents(rng: &mut Rng, n: usize) -> Vec<u16> {
    (0..n)
        .map(|i| {
            if i == 0 || rng.next() % 7 == 0 {
                u16::MAX
            } else if rng.next() % 3 == 0 {
                (rng.next() % i as u64) as u16
            } else {
                (i - 1) as u16
            }
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
struct Case {
    bones: usize,
    layers: usize,
    weights: [f64; 3],
    masked: bool,
    additive: usize,
    bind_pose: bool,
    lod: u8,
    far: bool,
}

fn blend_case<S: Scalar>(seed: u64, c: Case) {
    let mut rng = Rng(seed);
    let n = c.bones;
    let par = parents(&mut rng, n);
    let rest = pose::<S>(&mut rng, n, false);
    let lods: Vec<u8> = (0..n).map(|_| (rng.next() % 4) as u8).collect();
    let skeleton = SliceSkeleton::new(&par, &rest).unwrap().with_lods(&lods).unwrap();
    let poses: Vec<Vec<Transform3<S>>> = (0..c.layers + c.additive).map(|_| pose(&mut rng, n, c.far)).collect();
    let masks: Vec<Vec<S>> = (0..c.layers + c.additive)
        .map(|_| {
            (0..n)
                .map(|_| match rng.next() % 4 {
                    0 => S::ZERO,
                    1 => S::ONE,
                    _ => S::from_f64(rng.range(-0.2, 1.0)),
                })
                .collect()
        })
        .collect();
    let soa: Vec<Vec<SoaTransform3<S>>> = poses.iter().map(|p| pack(p)).collect();
    let weight = |k: usize| S::from_f64(c.weights.get(k).copied().unwrap_or(0.4));
    let mask_of = |k: usize| if c.masked && k % 2 == 0 { Some(&masks[k][..]) } else { None };
    let aos_layers: Vec<BlendLayer<'_, S, Transform3<S>>> =
        (0..c.layers).map(|k| BlendLayer { pose: &poses[k][..], weight: weight(k), mask: mask_of(k) }).collect();
    let soa_layers: Vec<BlendLayer<'_, S, SoaTransform3<S>>> =
        (0..c.layers).map(|k| BlendLayer { pose: &soa[k][..], weight: weight(k), mask: mask_of(k) }).collect();
    let aos_add: Vec<BlendLayer<'_, S, Transform3<S>>> = (c.layers..c.layers + c.additive)
        .map(|k| BlendLayer { pose: &poses[k][..], weight: S::from_f64(0.6), mask: mask_of(k) })
        .collect();
    let soa_add: Vec<BlendLayer<'_, S, SoaTransform3<S>>> = (c.layers..c.layers + c.additive)
        .map(|k| BlendLayer { pose: &soa[k][..], weight: S::from_f64(0.6), mask: mask_of(k) })
        .collect();
    let reference = if c.bind_pose { AdditiveReference::BindPose } else { AdditiveReference::Identity };

    let mut expected = vec![Transform3::IDENTITY; n];
    let mut job = BlendingJob::new(&skeleton, &aos_layers);
    job.additive = &aos_add;
    job.additive_reference = reference;
    job.lod = c.lod;
    job.run(&mut expected).unwrap();

    let mut got = vec![SoaTransform3::ZERO_FOR_TEST; soa_count(n)];
    let mut soa_job = SoaBlendingJob::new(&skeleton, &soa_layers);
    soa_job.additive = &soa_add;
    soa_job.additive_reference = reference;
    soa_job.lod = c.lod;
    soa_job.run(&mut got).unwrap();

    let mut unpacked = vec![Transform3::IDENTITY; n];
    SoaTransform3::unpack(&got, &mut unpacked).unwrap();
    for (i, (e, g)) in expected.iter().zip(&unpacked).enumerate() {
        assert_eq!(bits(e), bits(g), "seed {seed} {c:?} bone {i}: {e:?} vs {g:?}");
    }
    // The lanes past the last bone are the identity.
    for l in n..soa_count(n) * 4 {
        assert_eq!(got[l / 4].joint(l % 4), Some(Transform3::IDENTITY), "padding lane {l}");
    }
}

/// `SoaTransform3::ZERO_FOR_TEST`: an output filled with something the job must overwrite.
trait Filler {
    const ZERO_FOR_TEST: Self;
}
impl<S: Scalar> Filler for SoaTransform3<S> {
    const ZERO_FOR_TEST: Self = SoaTransform3::splat(Transform3::new(
        Vec3::new(S::ONE, S::ONE, S::ONE),
        Quat::from_xyzw(S::ONE, S::ONE, S::ONE, S::ONE),
        Vec3::new(S::ONE, S::ONE, S::ONE),
    ));
}

fn cases() -> Vec<Case> {
    let base = Case {
        bones: 70,
        layers: 2,
        weights: [0.7, 0.3, 0.5],
        masked: false,
        additive: 0,
        bind_pose: false,
        lod: u8::MAX,
        far: false,
    };
    vec![
        base,                                                 // the crossfade (weights sum to 1)
        Case { bones: 11, weights: [0.6, 0.3, 0.0], ..base }, // total 0.9, not 1
        Case { bones: 13, layers: 3, weights: [0.2, 0.5, 0.9], ..base },
        Case { bones: 9, layers: 1, weights: [0.05, 0.0, 0.0], ..base }, // rest fill under 0.1
        Case { bones: 6, layers: 0, ..base },                            // nothing but the rest pose
        Case { bones: 10, weights: [-0.5, 0.0, 0.0], ..base },           // no layer contributes
        Case { bones: 17, layers: 3, masked: true, ..base },
        Case { bones: 17, layers: 2, masked: true, weights: [0.03, 0.02, 0.0], ..base },
        Case { bones: 15, additive: 2, ..base },
        Case { bones: 15, additive: 2, bind_pose: true, masked: true, ..base },
        Case { bones: 23, lod: 1, ..base },
        Case { bones: 23, lod: 2, masked: true, additive: 1, ..base },
        Case { bones: 70, far: true, ..base }, // normalisation off the fast path
        Case { bones: 14, far: true, layers: 3, masked: true, ..base },
    ]
}

#[test]
fn soa_blending_matches_the_aos_job_bit_for_bit_f32() {
    for (k, c) in cases().into_iter().enumerate() {
        for seed in 1..6u64 {
            blend_case::<f32>(seed * 1000 + k as u64, c);
        }
    }
}

#[test]
fn soa_blending_matches_the_aos_job_bit_for_bit_q16() {
    for (k, c) in cases().into_iter().enumerate() {
        for seed in 1..4u64 {
            blend_case::<Q16>(seed * 1000 + k as u64, c);
        }
    }
}

/// `model[parent] · local.to_affine()`, bone by bone, in the order the SoA job documents.
#[allow(clippy::too_many_arguments)]
fn reference_model<S: Scalar>(
    parents: &[u16],
    local: &[Transform3<S>],
    rest: &[Transform3<S>],
    lods: &[u8],
    lod: u8,
    root: Affine3<S>,
    out: &mut [Affine3<S>],
    from: usize,
) {
    for i in from..local.len() {
        let l = if lods[i] > lod { rest[i] } else { local[i] };
        let p = match parents[i] {
            u16::MAX => root,
            p => out[p as usize],
        };
        out[i] = product(p, l.to_affine());
    }
}

/// `p · c`, column by column: `(p.x·c.x + p.y·c.y) + p.z·c.z` for the axes and
/// `(p.x·t.x + p.y·t.y) + (p.z·t.z + p.t)` for the translation (the order the job documents).
fn product<S: Scalar>(p: Affine3<S>, c: Affine3<S>) -> Affine3<S> {
    let v = |a: Vec3<S>| {
        let f = |x: S, y: S, z: S| x.mul(a.x).add(y.mul(a.y)).add(z.mul(a.z));
        Vec3::new(
            f(p.x_axis.x, p.y_axis.x, p.z_axis.x),
            f(p.x_axis.y, p.y_axis.y, p.z_axis.y),
            f(p.x_axis.z, p.y_axis.z, p.z_axis.z),
        )
    };
    let t = c.translation;
    let f = |x: S, y: S, z: S, o: S| x.mul(t.x).add(y.mul(t.y)).add(z.mul(t.z).add(o));
    let pt = Vec3::new(
        f(p.x_axis.x, p.y_axis.x, p.z_axis.x, p.translation.x),
        f(p.x_axis.y, p.y_axis.y, p.z_axis.y, p.translation.y),
        f(p.x_axis.z, p.y_axis.z, p.z_axis.z, p.translation.z),
    );
    Affine3::from_cols(v(c.x_axis), v(c.y_axis), v(c.z_axis), pt)
}

fn affine_bits<S: Scalar>(m: &Affine3<S>) -> Vec<u64> {
    [m.x_axis, m.y_axis, m.z_axis, m.translation]
        .iter()
        .flat_map(|v| [v.x, v.y, v.z])
        .map(|v| v.to_f64().to_bits())
        .collect()
}

fn l2m_case<S: Scalar>(seed: u64, n: usize, lod: u8, from: usize, to: usize) {
    let mut rng = Rng(seed);
    let par = parents(&mut rng, n);
    l2m_case_with::<S>(seed, &mut rng, &par, lod, from, to);
}

/// [`l2m_case`] on the skeleton `par`, the poses drawn from `rng` (`seed` names the case).
fn l2m_case_with<S: Scalar>(seed: u64, rng: &mut Rng, par: &[u16], lod: u8, from: usize, to: usize) {
    let n = par.len();
    let rest = pose::<S>(rng, n, false);
    let lods: Vec<u8> = (0..n).map(|_| (rng.next() % 4) as u8).collect();
    let skeleton = SliceSkeleton::new(par, &rest).unwrap().with_lods(&lods).unwrap();
    let local = pose::<S>(rng, n, false);
    let root = transform::<S>(rng, false).to_affine();
    // Both outputs start from the same matrices: bones before `from` are read, not written.
    let start: Vec<Affine3<S>> = (0..n).map(|_| transform::<S>(rng, false).to_affine()).collect();
    let mut expected = start.clone();
    let to_c = to.min(n);
    reference_model(&par[..to_c], &local[..to_c], &rest, &lods, lod, root, &mut expected[..to_c], from);
    let mut got = start.clone();
    let job = SoaLocalToModelJob { root, from, to, lod, ..SoaLocalToModelJob::new(&skeleton) };
    job.run(&pack(&local), &mut got).unwrap();
    // The padded output, from the same starting matrices: the same twelve numbers, and the
    // fourth row (0, 0, 0, 1).
    let mut padded: Vec<Affine3A<S>> = start.iter().map(|&m| Affine3A::from(m)).collect();
    job.run(&pack(&local), &mut padded).unwrap();
    for i in 0..n {
        assert_eq!(
            affine_bits(&expected[i]),
            affine_bits(&got[i]),
            "seed {seed} n {n} lod {lod} {from}..{to} bone {i}"
        );
        assert_eq!(
            padded_bits(&padded[i]),
            padded_bits(&Affine3A::from(expected[i])),
            "padded: seed {seed} n {n} lod {lod} {from}..{to} bone {i}"
        );
    }
}

/// The sixteen numbers of an `Affine3A`, column by column.
fn padded_bits<S: Scalar>(m: &Affine3A<S>) -> Vec<u64> {
    m.to_cols_array().iter().map(|v| v.to_f64().to_bits()).collect()
}

#[test]
fn soa_local_to_model_matches_the_matrix_formula_bit_for_bit() {
    for seed in 1..8u64 {
        for (n, lod, from, to) in
            [(70, u8::MAX, 0, usize::MAX), (13, u8::MAX, 0, 13), (13, 1, 0, 99), (21, u8::MAX, 5, 18), (21, 2, 7, 8)]
        {
            l2m_case::<f32>(seed, n, lod, from, to);
            l2m_case::<Q16>(seed, n, lod, from, to);
        }
    }
}

#[test]
fn soa_local_to_model_parents_at_every_distance() {
    // Chains, and bones whose parent is 2..=42 bones back (the job keeps the last few model
    // matrices aside and reads older ones from the output), with ranges starting in the middle
    // (a parent before `from` is read from the output however close it is).
    let n = 96usize;
    let par: Vec<u16> = (0..n)
        .map(|i| match i {
            0 | 50 => u16::MAX,
            _ if i % 2 == 0 => i.saturating_sub(2 + (i * 7) % 41) as u16,
            _ => (i - 1) as u16,
        })
        .collect();
    for (k, (from, to)) in [(0, n), (9, n), (17, 60), (33, 34), (48, 90)].into_iter().enumerate() {
        let seed = 100 + k as u64;
        l2m_case_with::<f32>(seed, &mut Rng(seed), &par, u8::MAX, from, to);
        l2m_case_with::<Q16>(seed, &mut Rng(seed), &par, 1, from, to);
    }
}

#[test]
fn soa_local_to_model_agrees_with_the_trs_job_for_uniform_scales() {
    // With uniform scales, composing TRS transforms equals the matrix product: the model matrices
    // must map points as the AoS job's model transforms do (to f32 rounding).
    let mut rng = Rng(77);
    let n = 70;
    let par = parents(&mut rng, n);
    let rest = vec![Transform3::<f32>::IDENTITY; n];
    let skeleton = SliceSkeleton::new(&par, &rest).unwrap();
    let local: Vec<Transform3<f32>> = (0..n)
        .map(|_| {
            let mut t = transform::<f32>(&mut rng, false);
            let k = rng.range(0.8, 1.2) as f32;
            t.scale = Vec3::splat(k);
            t
        })
        .collect();
    let mut trs = vec![Transform3::IDENTITY; n];
    LocalToModelJob::new(&skeleton).run(&local, &mut trs).unwrap();
    let mut mats = vec![Affine3::IDENTITY; n];
    SoaLocalToModelJob::new(&skeleton).run(&pack(&local), &mut mats).unwrap();
    let p = Vec3::new(1.5f32, -2.0, 0.25);
    for i in 0..n {
        let (a, b) = (trs[i].transform_point(p), mats[i].transform_point(p));
        let scale = 1.0 + a.x.abs().max(a.y.abs()).max(a.z.abs());
        for (x, y) in [(a.x, b.x), (a.y, b.y), (a.z, b.z)] {
            assert!((x - y).abs() <= 2e-5 * scale, "bone {i}: {a:?} vs {b:?}");
        }
    }
}

#[test]
fn non_uniform_scale_shears_the_child_as_matrices_do() {
    // Root: scale (2, 1, 1). Child: 1 along x, rotated 90° about z (x → y, y → −x).
    // Matrices: model(child) = S(2,1,1) · T(1,0,0) · Rz(90°); its x axis is Rz·x = (0, 1, 0)
    // scaled by the parent: (0, 1, 0); its y axis Rz·y = (−1, 0, 0) → (−2, 0, 0); origin (2, 0, 0).
    let parents = [u16::MAX, 0];
    let rest = [Transform3::<f32>::IDENTITY; 2];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let local = [
        Transform3::new(Vec3::ZERO, Quat::IDENTITY, Vec3::new(2.0, 1.0, 1.0)),
        Transform3::new(Vec3::new(1.0, 0.0, 0.0), Quat::from_xyzw(0.0, 0.0, h, h), Vec3::ONE),
    ];
    let mut model = [Affine3::IDENTITY; 2];
    SoaLocalToModelJob::new(&skeleton).run(&pack(&local), &mut model).unwrap();
    let close =
        |a: Vec3<f32>, b: Vec3<f32>| (a.x - b.x).abs() < 1e-6 && (a.y - b.y).abs() < 1e-6 && (a.z - b.z).abs() < 1e-6;
    assert!(close(model[1].x_axis, Vec3::new(0.0, 1.0, 0.0)), "{:?}", model[1]);
    assert!(close(model[1].y_axis, Vec3::new(-2.0, 0.0, 0.0)), "{:?}", model[1]);
    assert!(close(model[1].z_axis, Vec3::new(0.0, 0.0, 1.0)), "{:?}", model[1]);
    assert!(close(model[1].translation, Vec3::new(2.0, 0.0, 0.0)), "{:?}", model[1]);
}

#[test]
fn blending_by_hand_per_lane() {
    // Five bones (two groups); layer a has bone i at x = i, layer b at x = 10 + i. Weights 0.25 /
    // 0.75, a mask on a: bone 1 → 0 (only b: x = 11), bone 4 → 2 (0.5·4 + 0.75·14 over 1.25 = 10).
    let parents = [u16::MAX, 0, 1, 2, 3];
    let rest = [Transform3::<f32>::IDENTITY; 5];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let at = |x: f32| Transform3::new(Vec3::new(x, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
    let a: Vec<_> = (0..5).map(|i| at(i as f32)).collect();
    let b: Vec<_> = (0..5).map(|i| at(10.0 + i as f32)).collect();
    let (sa, sb) = (pack(&a), pack(&b));
    let mask = [1.0f32, 0.0, 1.0, 1.0, 2.0];
    let layers = [BlendLayer { pose: &sa[..], weight: 0.25, mask: Some(&mask[..]) }, BlendLayer::new(&sb[..], 0.75)];
    let mut out = [SoaTransform3::IDENTITY; 2];
    SoaBlendingJob::new(&skeleton, &layers).run(&mut out).unwrap();
    let mut joints = [Transform3::IDENTITY; 5];
    SoaTransform3::unpack(&out, &mut joints).unwrap();
    let xs: Vec<f32> = joints.iter().map(|j| j.translation.x).collect();
    assert_eq!(xs, [7.5, 11.0, 9.5, 10.5, 10.0]);
    for j in &joints {
        assert_eq!(j.rotation, Quat::IDENTITY);
        assert_eq!(j.scale, Vec3::ONE);
    }
    assert_eq!(out[1].joint(1), Some(Transform3::IDENTITY)); // padding
}

#[test]
fn pack_and_unpack() {
    let mut rng = Rng(5);
    let p = pose::<f32>(&mut rng, 7, false);
    let groups = pack(&p);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[1].joint(2), Some(p[6]));
    assert_eq!(groups[1].joint(3), Some(Transform3::IDENTITY));
    assert_eq!(groups[0].joint(4), None);
    assert_eq!(groups[1].translation.x[1], p[5].translation.x);
    let mut back = vec![Transform3::IDENTITY; 7];
    SoaTransform3::unpack(&groups, &mut back).unwrap();
    assert_eq!(back, p);
    let mut g = groups[0];
    assert!(!g.set_joint(4, p[0]));
    assert_eq!(g, groups[0]);
    assert_eq!(SoaTransform3::from_joints(groups[0].joints()), groups[0]);

    let mut small = [SoaTransform3::IDENTITY; 1];
    assert_eq!(SoaTransform3::pack(&p, &mut small), Err(JobError::OutputTooSmall { needed: 2, got: 1 }));
    assert_eq!(small[0], SoaTransform3::IDENTITY);
    let mut long = vec![Transform3::IDENTITY; 9];
    assert_eq!(SoaTransform3::unpack(&groups, &mut long), Err(JobError::InputTooSmall { needed: 3, got: 2 }));
    assert_eq!(soa_count(0), 0);
    assert_eq!(soa_count(8), 2);
    assert_eq!(soa_count(9), 3);

    // Every length around whole groups: bone i in lane i % 4 of group i / 4, identity padding,
    // groups past the last untouched.
    for n in 0..=9 {
        let p = pose::<f32>(&mut rng, n, false);
        let marker = SoaTransform3::splat(p.first().copied().unwrap_or(Transform3::IDENTITY));
        let mut groups = vec![marker; soa_count(n) + 1];
        SoaTransform3::pack(&p, &mut groups).unwrap();
        for i in 0..soa_count(n) * 4 {
            let want = p.get(i).copied().unwrap_or(Transform3::IDENTITY);
            assert_eq!(groups[i / 4].joint(i % 4), Some(want), "length {n}, bone {i}");
        }
        assert_eq!(groups[soa_count(n)], marker, "length {n}: the group past the last");
    }
}

#[test]
fn jobs_reject_short_inputs_and_write_nothing() {
    let parents = [u16::MAX, 0, 1, 2, 3];
    let rest = [Transform3::<f32>::IDENTITY; 5];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let one = [SoaTransform3::<f32>::IDENTITY; 1];
    let two = [SoaTransform3::<f32>::IDENTITY; 2];
    let mask = [1.0f32; 4];
    let mut out = [SoaTransform3::<f32>::splat(Transform3::new(Vec3::ONE, Quat::IDENTITY, Vec3::ONE)); 2];
    let before = out;
    let layers = [BlendLayer::new(&one[..], 1.0)];
    assert_eq!(
        SoaBlendingJob::new(&skeleton, &layers).run(&mut out),
        Err(JobError::InputTooSmall { needed: 2, got: 1 })
    );
    let layers = [BlendLayer { pose: &two[..], weight: 1.0, mask: Some(&mask[..]) }];
    assert_eq!(
        SoaBlendingJob::new(&skeleton, &layers).run(&mut out),
        Err(JobError::MaskTooSmall { needed: 5, got: 4 })
    );
    let layers = [BlendLayer::new(&two[..], 1.0)];
    let mut job = SoaBlendingJob::new(&skeleton, &layers);
    job.threshold = 0.0;
    assert_eq!(job.run(&mut out), Err(JobError::BadThreshold));
    assert_eq!(
        SoaBlendingJob::new(&skeleton, &layers).run(&mut out[..1]),
        Err(JobError::OutputTooSmall { needed: 2, got: 1 })
    );
    assert_eq!(out, before);

    let mut model = [Affine3::<f32>::IDENTITY; 5];
    let job = SoaLocalToModelJob::new(&skeleton);
    assert_eq!(job.run(&one, &mut model), Err(JobError::InputTooSmall { needed: 2, got: 1 }));
    assert_eq!(job.run(&two, &mut model[..4]), Err(JobError::OutputTooSmall { needed: 5, got: 4 }));
    let job = SoaLocalToModelJob { from: 4, to: 3, ..SoaLocalToModelJob::new(&skeleton) };
    assert_eq!(job.run(&two, &mut model), Err(JobError::BadRange { from: 4, to: 3 }));
    assert_eq!(model, [Affine3::IDENTITY; 5]);

    // The same checks with the padded output.
    let mut padded = [Affine3A::<f32>::IDENTITY; 5];
    let job = SoaLocalToModelJob::new(&skeleton);
    assert_eq!(job.run(&one, &mut padded), Err(JobError::InputTooSmall { needed: 2, got: 1 }));
    assert_eq!(job.run(&two, &mut padded[..4]), Err(JobError::OutputTooSmall { needed: 5, got: 4 }));
    assert_eq!(job.validate(&two, &padded[..4]), Err(JobError::OutputTooSmall { needed: 5, got: 4 }));
    let job = SoaLocalToModelJob { from: 4, to: 3, ..SoaLocalToModelJob::new(&skeleton) };
    assert_eq!(job.run(&two, &mut padded), Err(JobError::BadRange { from: 4, to: 3 }));
    assert_eq!(padded, [Affine3A::IDENTITY; 5]);
}

#[test]
fn padded_output_keeps_its_fourth_row_on_any_input() {
    // Local transforms with NaNs, infinities and huge values (products overflow): the padded
    // output's twelve numbers are the Affine3 output's (NaNs compared as NaNs: the two paths
    // may take a NaN's payload from either operand), and its fourth row stays exactly
    // (0, 0, 0, 1), also for the children of such bones.
    let n = 11;
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { (i - 1) as u16 }).collect();
    let rest = vec![Transform3::<f32>::IDENTITY; n];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let mut rng = Rng(9);
    let mut local = pose::<f32>(&mut rng, n, false);
    local[1].translation.y = f32::NAN;
    local[3].rotation.x = f32::INFINITY;
    local[5].scale.z = -f32::INFINITY;
    local[7].translation.x = 3.0e38;
    local[8].scale = Vec3::splat(-0.0);
    let mut plain = vec![Affine3::IDENTITY; n];
    let mut padded = vec![Affine3A::IDENTITY; n];
    let job = SoaLocalToModelJob::new(&skeleton);
    job.run(&pack(&local), &mut plain).unwrap();
    job.run(&pack(&local), &mut padded).unwrap();
    let same = |a: f32, b: f32| (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits();
    for i in 0..n {
        let (want, got) = (Affine3A::from(plain[i]).to_cols_array(), padded[i].to_cols_array());
        assert!(want.iter().zip(&got).all(|(&a, &b)| same(a, b)), "bone {i}: {want:?} vs {got:?}");
        let row = [got[3], got[7], got[11], got[15]].map(f32::to_bits);
        assert_eq!(row, [0.0f32, 0.0, 0.0, 1.0].map(f32::to_bits), "bone {i}: fourth row");
    }
    assert!(padded[1].translation().y.is_nan());
}

#[test]
fn normalisation_cases_mixed_within_a_group() {
    // The blended rotation's normalisation takes one of four ways per bone, by its squared length
    // n²: within 2⁻⁸ of 1 (one Newton step), within (1/64, 64) (square root and division), outside
    // (or zero, or NaN: the general normalisation). The SoA job computes the first two four lanes
    // at a time and picks per lane; here every group mixes them in a different order, and each
    // bone must match the AoS job bit for bit and (where finite) the f64 normalised sum.
    let half = std::f64::consts::FRAC_1_SQRT_2;
    // (layer a's quaternion, layer b's), as [x, y, z, w].
    let kinds: [([f64; 4], [f64; 4]); 8] = [
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]), // n² = 1
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, (0.025f64).sin(), (0.025f64).cos()]), // 2.9° apart: near
        ([0.0, 0.0, 0.0, 1.0], [half, 0.0, 0.0, half]), // 90° apart: n² ≈ 0.92
        ([0.0, 0.0, 0.0, 3.0], [0.0, 3.0, 0.0, 0.0]), // n² = 5.22: mid
        ([0.0, 0.0, 0.05, 0.0], [0.0, 0.0, 0.05, 0.0]), // n² = 0.0025: far
        ([10.0, 0.0, 0.0, 0.0], [10.0, 0.0, 0.0, 0.0]), // n² = 100: far
        ([0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]), // zero
        ([f64::NAN, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]), // NaN
    ];
    // Bone order: groups of four built from the kinds in several orders (all near, all mid,
    // near/mid alternating, far among near, NaN among mid, ...).
    let order = [0, 1, 0, 1, 3, 2, 3, 2, 0, 2, 1, 3, 4, 0, 1, 0, 5, 2, 3, 2, 6, 1, 7, 3, 2, 0, 2];
    let n = order.len();
    let parents: Vec<u16> = (0..n).map(|i| if i == 0 { u16::MAX } else { (i - 1) as u16 }).collect();
    let rest = vec![Transform3::<f32>::IDENTITY; n];
    let skeleton = SliceSkeleton::new(&parents, &rest).unwrap();
    let joint = |q: [f64; 4]| {
        let c = |v: f64| v as f32;
        Transform3::new(Vec3::ZERO, Quat::from_xyzw(c(q[0]), c(q[1]), c(q[2]), c(q[3])), Vec3::ONE)
    };
    let a: Vec<_> = order.iter().map(|&k| joint(kinds[k].0)).collect();
    let b: Vec<_> = order.iter().map(|&k| joint(kinds[k].1)).collect();
    let (sa, sb) = (pack(&a), pack(&b));
    let mask = vec![1.0f32; n];
    // Weights summing to exactly 1 (the two-layer pass, rotation only), to 0.9 (the two-layer pass
    // dividing by the total), and with a mask (the group-by-group path).
    for (wa, wb, masked) in [(0.7f32, 0.3f32, false), (0.6, 0.3, false), (0.7, 0.3, true)] {
        let m = if masked { Some(&mask[..]) } else { None };
        let aos_layers = [BlendLayer { pose: &a[..], weight: wa, mask: m }, BlendLayer::new(&b[..], wb)];
        let soa_layers = [BlendLayer { pose: &sa[..], weight: wa, mask: m }, BlendLayer::new(&sb[..], wb)];
        let mut expected = vec![Transform3::IDENTITY; n];
        BlendingJob::new(&skeleton, &aos_layers).run(&mut expected).unwrap();
        let mut got = vec![SoaTransform3::ZERO_FOR_TEST; soa_count(n)];
        SoaBlendingJob::new(&skeleton, &soa_layers).run(&mut got).unwrap();
        let mut unpacked = vec![Transform3::IDENTITY; n];
        SoaTransform3::unpack(&got, &mut unpacked).unwrap();
        for (i, (e, g)) in expected.iter().zip(&unpacked).enumerate() {
            assert_eq!(
                bits(e),
                bits(g),
                "weights {wa}/{wb} masked {masked}, bone {i} (kind {}): {e:?} vs {g:?}",
                order[i]
            );
            let (qa, qb) = kinds[order[i]];
            let sum: Vec<f64> = (0..4).map(|k| f64::from(wa) * qa[k] + f64::from(wb) * qb[k]).collect();
            let len = sum.iter().map(|v| v * v).sum::<f64>().sqrt();
            let r = g.rotation;
            let got = [r.x, r.y, r.z, r.w].map(f64::from);
            if len > 0.0 {
                for k in 0..4 {
                    let want = sum[k] / len;
                    assert!((got[k] - want).abs() < 1e-6, "bone {i} (kind {}): {got:?} vs {want}", order[i]);
                }
            } else if len == 0.0 {
                assert_eq!(r, Quat::IDENTITY, "bone {i}: the zero sum normalises to the identity");
            }
        }
    }
}
