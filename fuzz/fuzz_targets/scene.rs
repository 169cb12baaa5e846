//! The scene XML parser on arbitrary bytes: never panic; an accepted scene's node parents come
//! before their children, tracks' targets and machines' states exist, and keys are in time order.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = ossicle_host::sources::scene::parse(Path::new("fuzz.scene.xml"), data) else { return };
    for (i, n) in s.nodes.iter().enumerate() {
        assert!(n.parent.is_none_or(|p| p < i));
    }
    for a in &s.animators {
        assert!(a.autoplay.is_none_or(|c| c < a.clips.len()));
        for c in &a.clips {
            for t in &c.tracks {
                assert!(t.target.is_none_or(|n| n < s.nodes.len()));
                assert!(t.keys.windows(2).all(|w| w[0].time <= w[1].time));
            }
        }
    }
    for m in &s.machines {
        assert!(m.start < m.states.len());
        for t in &m.transitions {
            assert!(t.to < m.states.len() && t.from.is_none_or(|f| f < m.states.len()));
        }
    }
});
