//! The EVA text reader on arbitrary bytes: never panic, and an accepted file is one skeleton whose
//! parents come before their children, with unique names and unit bind rotations, and one clip
//! bound to it whose tracks name distinct bones and whose keys are finite, inside the clip and
//! strictly increasing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ossicle_host::ir::ChannelKey;
use ossicle_host::sources::eva;
use std::path::Path;

fn unit(q: [f64; 4]) -> bool {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    (len - 1.0).abs() <= eva::UNIT_QUATERNION_TOLERANCE
}

fn check_keys<const N: usize>(keys: &[ChannelKey<N>], duration: f64) {
    assert!(keys.len() <= eva::MAX_KEYS_PER_CHANNEL);
    assert!(keys.iter().all(|k| (0.0..=duration).contains(&k.time) && k.value.iter().all(|v| v.is_finite())));
    assert!(keys.windows(2).all(|w| w[0].time < w[1].time));
}

fuzz_target!(|data: &[u8]| {
    let Ok(project) = eva::parse(Path::new("fuzz/f.eva"), data) else {
        return;
    };
    assert_eq!((project.skeletons.len(), project.skel_clips.len()), (1, 1));
    let sk = &project.skeletons[0];
    assert_eq!(sk.name, "f");
    assert!(!sk.bones.is_empty() && sk.bones.len() <= eva::MAX_BONES);
    for (i, b) in sk.bones.iter().enumerate() {
        assert!(b.parent.is_none_or(|p| p < i));
        assert!(!b.name.is_empty() && sk.bones[..i].iter().all(|o| o.name != b.name));
        let t = &b.bind;
        assert!(t.translation.iter().chain(&t.rotation).chain(&t.scale).all(|v| v.is_finite()));
        assert!(unit(t.rotation));
    }
    let clip = &project.skel_clips[0];
    assert_eq!(clip.skeleton.as_deref(), Some("f"));
    assert!(clip.duration.is_finite() && clip.duration > 0.0);
    assert!(clip.sample_rate.is_finite() && clip.sample_rate > 0.0);
    for (i, t) in clip.tracks.iter().enumerate() {
        assert!(sk.bones.iter().any(|b| b.name == t.bone));
        assert!(clip.tracks[..i].iter().all(|o| o.bone != t.bone));
        check_keys(&t.translation, clip.duration);
        check_keys(&t.rotation, clip.duration);
        check_keys(&t.scale, clip.duration);
        assert!(t.rotation.iter().all(|k| unit(k.value)));
    }
});
