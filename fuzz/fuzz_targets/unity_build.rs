//! A Unity source (editor YAML or type-tree JSON) on arbitrary bytes, converted and built into a
//! blob as `ossicle build` does: never panics; an accepted conversion gives channels whose times
//! strictly increase, with one tangent pair per Hermite key, and a blob the kernel loads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::ir::{ChannelInterp, Origin, Project};
use ossicle_host::unity::{convert::convert, read_source, PathTable};
use ossicle_host::write::{write_blob_skeletal, SkelOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(clip) = read_source(data) else { return };
    // Resolve every hash a path table could: the clip's own names, plus a few common ones.
    let table = PathTable::from_paths(["Hips", "Hips/Spine", "Body", "Body/Light"]);
    let Ok(c) = convert(&clip, &table, &Origin::default(), &|_| None) else { return };
    if let Some(sc) = &c.skel_clip {
        for t in &sc.tracks {
            let check = |times: Vec<f64>, interp: ChannelInterp, tangents: usize| {
                assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
                assert!(times.iter().all(|t| (0.0..=sc.duration).contains(t)), "{times:?} in {}", sc.duration);
                if interp == ChannelInterp::Hermite {
                    assert_eq!(tangents, times.len());
                }
            };
            check(t.translation.iter().map(|k| k.time).collect(), t.interpolation[0], t.translation_tangents.len());
            check(t.rotation.iter().map(|k| k.time).collect(), t.interpolation[1], t.rotation_tangents.len());
            check(t.scale.iter().map(|k| k.time).collect(), t.interpolation[2], t.scale_tangents.len());
        }
    }
    let mut project = Project::default();
    if let (Some(sk), Some(mut sc)) = (c.skeleton, c.skel_clip) {
        sc.skeleton = Some(sk.name.clone());
        project.skeletons.push(sk);
        project.skel_clips.push(sc);
    }
    project.scenes.extend(c.scene);
    for encoding in [ossicle_format::ScalarEncoding::F32, ossicle_format::ScalarEncoding::Q16_16] {
        if let Ok((bytes, _)) = write_blob_skeletal(&project, &WriteOptions::new(encoding), &SkelOptions::default()) {
            assert!(ossicle::asset::Asset::load(&bytes).is_ok(), "the host wrote a blob the kernel refuses");
        }
    }
});
