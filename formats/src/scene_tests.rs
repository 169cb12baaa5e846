//! Scene sections: a valid body built by hand reads back record for record, and every check of
//! `SceneSection::parse` refuses its defect with the exact `SceneDefect` (or `StringRef`) and place.

extern crate std;

use crate::scene::*;
use crate::{checksum, Blob, BlobWriter, LoadError, ScalarEncoding, SectionDefect, HEADER_LEN};
use std::vec;
use std::vec::Vec;

const F32: ScalarEncoding = ScalarEncoding::F32;
const Q16: ScalarEncoding = ScalarEncoding::Q16_16;
const BOTH: [ScalarEncoding; 2] = [F32, Q16];

/// The strings, interned in this order (string id = position).
const STRINGS: [&str; 18] = [
    "level",          // 0 scene name
    "World",          // 1
    "Node2D",         // 2
    "Coin",           // 3
    "AnimatedSprite", // 4
    "Anim",           // 5
    "Animator",       // 6
    "Brain",          // 7
    "StateMachine",   // 8
    "coin",           // 9 sprite asset
    "spin",           // 10 sprite animation
    "bob",            // 11 clip
    "top",            // 12 event
    "speed",          // 13
    "jump",           // 14
    "idle",           // 15
    "run",            // 16
    "bonus",          // 17 script field
];
const STRING_COUNT: u32 = STRINGS.len() as u32;

/// A scene body as editable records.
#[derive(Clone, Debug)]
struct Parts {
    name: u32,
    nodes: Vec<[u32; NODE_WORDS]>,
    animators: Vec<[u32; ANIMATOR_WORDS]>,
    clips: Vec<[u32; CLIP_WORDS]>,
    tracks: Vec<[u32; TRACK_WORDS]>,
    keys: Vec<[u32; KEY_WORDS]>,
    beziers: Vec<[u32; BEZIER_WORDS]>,
    machines: Vec<[u32; MACHINE_WORDS]>,
    params: Vec<[u32; PARAM_WORDS]>,
    states: Vec<[u32; STATE_WORDS]>,
    transitions: Vec<[u32; TRANSITION_WORDS]>,
    clauses: Vec<[u32; CLAUSE_WORDS]>,
    fields: Vec<u32>,
    props: Vec<[u32; PROP_WORDS]>,
    /// Bytes appended to array `i` (in body order, 0 = nodes ... 11 = fields, 12 = props) after
    /// its records.
    extra: [usize; 13],
}

/// The word of `v` in `e`.
fn sc(e: ScalarEncoding, v: f64) -> u32 {
    e.encode_f64(v).unwrap()
}

/// A negative value's word (`encode_f64` refuses nothing here, it is only sign and magnitude).
fn neg(e: ScalarEncoding, v: f64) -> u32 {
    assert!(v < 0.0);
    sc(e, v)
}

const POSITION_Y: u32 = 3;
const TINT: u32 = 8;
const VISIBLE: u32 = 10;
const SCRIPT: u32 = 0x8000;
const IN_OUT_SINE: u32 = 16;

/// The valid scene, written out by hand:
///
/// - nodes: 0 /World (Node2D), 1 /World/Coin (AnimatedSprite showing "coin", playing "spin"),
///   2 /World/Anim (Animator), 3 /World/Coin/Brain (StateMachine);
/// - Animator on node 2, autoplay clip 0 "bob" (1 s, looping) with tracks: 0 Coin position.y Float
///   keys 0..2 (0 -> 0 InOutSine, 0.5 -> -6); 1 event, step, key 2 (0.5 "top"); 2 script.bonus
///   Vector key 3 (0 -> (1, 2), Bézier 0); 3 World tint Color key 4 (#ff8000cc); 4 World visible
///   Bool key 5 (true), step;
/// - machine on node 3 driving node 1, start 0: params speed (Float 0), jump (Trigger); states idle
///   (animation "spin", index 0), run; transitions idle -> run when speed > 10, * -> idle when jump
///   after 0.2, onFinished, crossfade 0.1, exit time 0.9.
fn parts(e: ScalarEncoding) -> Parts {
    Parts {
        name: 0,
        nodes: vec![[1, 2, NONE, NONE, NONE], [3, 4, 0, 9, 10], [5, 6, 0, NONE, NONE], [7, 8, 1, NONE, NONE]],
        animators: vec![[2, 0, 0, 1]],
        clips: vec![[11, sc(e, 1.0), CLIP_LOOP, 0, 5]],
        tracks: vec![
            [1, POSITION_Y, 0, 0, 2],
            [NONE, 0, 4 | TRACK_STEP, 2, 1],
            [0, SCRIPT, 1, 3, 1],
            [0, TINT, 2, 4, 1],
            [0, VISIBLE, 3 | TRACK_STEP, 5, 1],
        ],
        keys: vec![
            [0, sc(e, 0.0), 0, IN_OUT_SINE],
            [sc(e, 0.5), neg(e, -6.0), 0, 0],
            [sc(e, 0.5), 12, 0, 0],
            [0, sc(e, 1.0), sc(e, 2.0), BEZIER_EASE],
            [0, 0xff80_00cc, 0, 0],
            [0, 1, 0, 0],
        ],
        beziers: vec![[sc(e, 0.25), sc(e, 0.1), sc(e, 0.25), sc(e, 1.0)]],
        machines: vec![[3, 1, 0, 0, 2, 0, 2, 0, 2]],
        params: vec![[13, 0, sc(e, 0.0)], [14, 2, 0]],
        states: vec![[15, 10, 0], [16, NONE, NONE]],
        transitions: vec![
            [0, 1, 0, 1, 0, 0, 0, 0],
            [NONE, 0, 1, 1, sc(e, 0.2), TRANSITION_ON_FINISHED | TRANSITION_EXIT_TIME, sc(e, 0.1), sc(e, 0.9)],
        ],
        clauses: vec![[6, 0, sc(e, 10.0)], [0, 1, 0]],
        fields: vec![17],
        // /World/Coin starts at y = 4; /World starts hidden.
        props: vec![[1, POSITION_Y, 0, sc(e, 4.0), 0], [0, VISIBLE, 3, 0, 0]],
        extra: [0; 13],
    }
}

fn bytes_of<const K: usize>(records: &[[u32; K]], extra: usize) -> Vec<u8> {
    let mut out: Vec<u8> = records.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
    out.extend(core::iter::repeat_n(0xAB, extra));
    out
}

/// The blob holding the strings and the scene of `p` (the scene is section 1).
fn blob(e: ScalarEncoding, p: &Parts) -> Vec<u8> {
    let mut w = BlobWriter::new(e);
    for (i, s) in STRINGS.iter().enumerate() {
        assert_eq!(w.intern(s), i as u32);
    }
    let x = p.extra;
    let arrays = [
        bytes_of(&p.nodes, x[0]),
        bytes_of(&p.animators, x[1]),
        bytes_of(&p.clips, x[2]),
        bytes_of(&p.tracks, x[3]),
        bytes_of(&p.keys, x[4]),
        bytes_of(&p.beziers, x[5]),
        bytes_of(&p.machines, x[6]),
        bytes_of(&p.params, x[7]),
        bytes_of(&p.states, x[8]),
        bytes_of(&p.transitions, x[9]),
        bytes_of(&p.clauses, x[10]),
        bytes_of(&p.fields.iter().map(|&f| [f]).collect::<Vec<_>>(), x[11]),
        bytes_of(&p.props, x[12]),
    ];
    w.add_scene(&SceneBody {
        name: p.name,
        nodes: &arrays[0],
        animators: &arrays[1],
        clips: &arrays[2],
        tracks: &arrays[3],
        keys: &arrays[4],
        beziers: &arrays[5],
        machines: &arrays[6],
        params: &arrays[7],
        states: &arrays[8],
        transitions: &arrays[9],
        clauses: &arrays[10],
        fields: &arrays[11],
        props: &arrays[12],
    })
    .unwrap();
    w.finish().unwrap()
}

/// What loading `p` says, as the whole error.
fn load(e: ScalarEncoding, p: &Parts) -> Result<(), LoadError> {
    Blob::parse(&blob(e, p)).map(|_| ())
}

/// Asserts that `p` is refused with exactly `defect` in section 1 (kind 4).
#[track_caller]
fn refused(e: ScalarEncoding, p: &Parts, defect: SectionDefect) {
    assert_eq!(load(e, p), Err(LoadError::MalformedSection { section: 1, kind: 4, defect }), "encoding {e:?}");
}

#[track_caller]
fn refused_scene(e: ScalarEncoding, p: &Parts, defect: SceneDefect) {
    refused(e, p, SectionDefect::Scene(defect));
}

fn string_ref(id: u32) -> SectionDefect {
    SectionDefect::StringRef { string: id, count: STRING_COUNT }
}

#[test]
fn the_valid_scene_loads_and_reads_back_record_for_record() {
    for e in BOTH {
        let bytes = blob(e, &parts(e));
        let blob = Blob::parse(&bytes).unwrap();
        assert_eq!(blob.header().version, crate::FORMAT_VERSION);
        assert_eq!(blob.section_count(), 2);
        let scenes: Vec<SceneSection<'_>> = blob.scenes().collect();
        assert_eq!(scenes.len(), 1);
        let s = scenes[0];
        assert_eq!((s.name(), s.name_id(), s.encoding()), ("level", 0, e));
        assert_eq!(s.node_count(), 4);
        assert_eq!(
            s.node(1),
            Some(NodeRecord { name: 3, kind: 4, parent: Some(0), sprite: Some(9), animation: Some(10) })
        );
        assert_eq!(s.node(0), Some(NodeRecord { name: 1, kind: 2, parent: None, sprite: None, animation: None }));
        assert_eq!(s.node(4), None);
        assert_eq!(s.animator_count(), 1);
        assert_eq!(s.animator(0), Some(AnimatorRecord { node: 2, autoplay: Some(0), first_clip: 0, clip_count: 1 }));
        assert_eq!(s.animator(1), None);
        assert_eq!(s.clip_total(), 1);
        assert_eq!(
            s.clip_record(0),
            Some(ClipRecord { name: 11, length: sc(e, 1.0), flags: 1, first_track: 0, track_count: 5 })
        );
        assert_eq!(s.track_total(), 5);
        assert_eq!(
            s.track_record(1),
            Some(TrackRecord { target: None, property: 0, info: 0x104, first_key: 2, key_count: 1 })
        );
        assert_eq!(
            s.track_record(0),
            Some(TrackRecord { target: Some(1), property: 3, info: 0, first_key: 0, key_count: 2 })
        );
        assert_eq!(s.key_total(), 6);
        assert_eq!(s.key_record(1), Some(KeyRecord { time: sc(e, 0.5), a: sc(e, -6.0), b: 0, ease: 0 }));
        assert_eq!(s.key_record(3), Some(KeyRecord { time: 0, a: sc(e, 1.0), b: sc(e, 2.0), ease: 0x100 }));
        assert_eq!(s.key_record(4).map(|k| k.a), Some(0xff80_00cc));
        assert_eq!(s.key_time(1), Some(sc(e, 0.5)));
        assert_eq!(s.key_time(6), None);
        assert_eq!(s.bezier(0), Some([sc(e, 0.25), sc(e, 0.1), sc(e, 0.25), sc(e, 1.0)]));
        assert_eq!(s.bezier(1), None);
        assert_eq!(s.machine_count(), 1);
        assert_eq!(
            s.machine(0),
            Some(MachineRecord {
                node: 3,
                sprite: Some(1),
                start: 0,
                first_param: 0,
                param_count: 2,
                first_state: 0,
                state_count: 2,
                first_transition: 0,
                transition_count: 2
            })
        );
        assert_eq!(s.param_record(1), Some(ParamRecord { name: 14, kind: 2, default: 0 }));
        assert_eq!(s.state_record(0), Some(StateRecord { name: 15, animation_name: Some(10), animation: Some(0) }));
        assert_eq!(s.state_record(1), Some(StateRecord { name: 16, animation_name: None, animation: None }));
        assert_eq!(
            s.transition_record(1),
            Some(TransitionRecord {
                from: None,
                to: 0,
                first_clause: 1,
                clause_count: 1,
                after: sc(e, 0.2),
                flags: 3,
                crossfade: sc(e, 0.1),
                exit_time: sc(e, 0.9)
            })
        );
        assert_eq!(s.clause_record(0), Some(ClauseRecord { op: 6, param: 0, value: sc(e, 10.0) }));
        assert_eq!(s.clause_record(2), None);
        assert_eq!((s.field_count(), s.field(0), s.field(1)), (1, Some(17), None));
        assert_eq!(s.strings().get(17), Some("bonus"));
    }
}

#[test]
fn an_empty_scene_is_valid() {
    let mut w = BlobWriter::new(Q16);
    let name = w.intern("empty");
    w.add_scene(&SceneBody { name, ..Default::default() }).unwrap();
    let bytes = w.finish().unwrap();
    let blob = Blob::parse(&bytes).unwrap();
    let s = blob.scenes().next().unwrap();
    assert_eq!((s.name(), s.node_count(), s.animator_count(), s.machine_count()), ("empty", 0, 0, 0));
}

#[test]
fn a_version_2_blob_may_not_hold_a_scene() {
    let mut b = blob(Q16, &parts(Q16));
    assert_eq!(u16::from_le_bytes([b[4], b[5]]), crate::FORMAT_VERSION);
    b[4] = 2;
    let crc = checksum(&b[..12], &b[HEADER_LEN..]);
    b[12..16].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(Blob::parse(&b).unwrap_err(), LoadError::UnknownSection { section: 1, kind: 4 });
}

#[test]
fn trailing_bytes_after_the_body_are_refused() {
    // The body as the writer encodes it, plus one byte.
    let p = parts(F32);
    let good = blob(F32, &p);
    let blob = Blob::parse(&good).unwrap();
    let (_, body) = blob.section(1).unwrap();
    let mut longer = body.to_vec();
    longer.push(0);
    let mut w = BlobWriter::new(F32);
    for s in STRINGS {
        w.intern(s);
    }
    w.add_section(crate::SectionKind::Scene, longer);
    assert_eq!(
        Blob::parse(&w.finish().unwrap()).unwrap_err(),
        LoadError::MalformedSection { section: 1, kind: 4, defect: SectionDefect::Encoding }
    );
}

#[test]
fn every_record_array_must_be_whole_records() {
    let names = [
        ("nodes", NODE_WORDS, 4),
        ("animators", ANIMATOR_WORDS, 1),
        ("clips", CLIP_WORDS, 1),
        ("tracks", TRACK_WORDS, 5),
        ("keys", KEY_WORDS, 6),
        ("beziers", BEZIER_WORDS, 1),
        ("machines", MACHINE_WORDS, 1),
        ("params", PARAM_WORDS, 2),
        ("states", STATE_WORDS, 2),
        ("transitions", TRANSITION_WORDS, 2),
        ("clauses", CLAUSE_WORDS, 2),
        ("fields", 1, 1),
        ("props", PROP_WORDS, 2),
    ];
    for e in BOTH {
        for (i, &(array, words, records)) in names.iter().enumerate() {
            // One more whole word (a partial record, except for the one-word fields) ...
            if words > 1 {
                let mut p = parts(e);
                p.extra[i] = 4;
                refused_scene(e, &p, SceneDefect::RecordArray { array, len: records * words * 4 + 4 });
            }
            // ... and a partial word.
            let mut p = parts(e);
            p.extra[i] = 3;
            refused_scene(e, &p, SceneDefect::RecordArray { array, len: records * words * 4 + 3 });
        }
    }
}

#[test]
fn a_parent_must_be_an_earlier_node() {
    for e in BOTH {
        let mut p = parts(e);
        p.nodes[2][2] = 2; // itself
        refused_scene(e, &p, SceneDefect::Parent { node: 2, parent: 2 });
        let mut p = parts(e);
        p.nodes[1][2] = 3; // a later node
        refused_scene(e, &p, SceneDefect::Parent { node: 1, parent: 3 });
        let mut p = parts(e);
        p.nodes[0][2] = 0;
        refused_scene(e, &p, SceneDefect::Parent { node: 0, parent: 0 });
        let mut p = parts(e);
        p.nodes[3][2] = 7; // past the last node
        refused_scene(e, &p, SceneDefect::Parent { node: 3, parent: 7 });
    }
}

#[test]
fn node_references_must_exist() {
    for e in BOTH {
        let mut p = parts(e);
        p.animators[0][0] = 4;
        refused_scene(e, &p, SceneDefect::NodeRef { array: "animators", record: 0, node: 4 });
        let mut p = parts(e);
        p.tracks[3][0] = 4;
        refused_scene(e, &p, SceneDefect::NodeRef { array: "tracks", record: 3, node: 4 });
        let mut p = parts(e);
        p.tracks[0][0] = NONE - 1;
        refused_scene(e, &p, SceneDefect::NodeRef { array: "tracks", record: 0, node: NONE - 1 });
        let mut p = parts(e);
        p.machines[0][0] = 9;
        refused_scene(e, &p, SceneDefect::NodeRef { array: "machines", record: 0, node: 9 });
        let mut p = parts(e);
        p.machines[0][1] = 4;
        refused_scene(e, &p, SceneDefect::NodeRef { array: "machines", record: 0, node: 4 });
    }
}

#[test]
fn every_run_must_fit_its_array() {
    for e in BOTH {
        // Animator clips: 1 clip.
        let mut p = parts(e);
        p.animators[0][2] = 1;
        refused_scene(e, &p, SceneDefect::Run { array: "animators", record: 0 });
        let mut p = parts(e);
        p.animators[0][3] = 2;
        refused_scene(e, &p, SceneDefect::Run { array: "animators", record: 0 });
        let mut p = parts(e);
        (p.animators[0][2], p.animators[0][3]) = (u32::MAX, 2); // first + count overflows u32
        refused_scene(e, &p, SceneDefect::Run { array: "animators", record: 0 });
        // Clip tracks: 5 tracks.
        let mut p = parts(e);
        p.clips[0][3] = 1;
        refused_scene(e, &p, SceneDefect::Run { array: "clips", record: 0 });
        let mut p = parts(e);
        p.clips[0][4] = 6;
        refused_scene(e, &p, SceneDefect::Run { array: "clips", record: 0 });
        // Track keys: 6 keys.
        let mut p = parts(e);
        p.tracks[4][3] = 6;
        refused_scene(e, &p, SceneDefect::Run { array: "tracks", record: 4 });
        let mut p = parts(e);
        p.tracks[2][4] = 4; // keys 3..7
        refused_scene(e, &p, SceneDefect::Run { array: "tracks", record: 2 });
        let mut p = parts(e);
        (p.tracks[0][3], p.tracks[0][4]) = (u32::MAX, 1);
        refused_scene(e, &p, SceneDefect::Run { array: "tracks", record: 0 });
        // Machine params (2), states (2), transitions (2).
        for (word, value) in [(3, 1), (4, 3), (5, 2), (6, 3), (7, 1), (8, 3), (3, u32::MAX)] {
            let mut p = parts(e);
            p.machines[0][word] = value;
            refused_scene(e, &p, SceneDefect::Run { array: "machines", record: 0 });
        }
        // Transition clauses: 2 clauses.
        let mut p = parts(e);
        p.transitions[1][2] = 2;
        refused_scene(e, &p, SceneDefect::Run { array: "transitions", record: 1 });
        let mut p = parts(e);
        p.transitions[0][3] = 3;
        refused_scene(e, &p, SceneDefect::Run { array: "transitions", record: 0 });
    }
}

#[test]
fn runs_that_fit_exactly_and_empty_runs_are_valid() {
    for e in BOTH {
        let mut p = parts(e);
        // An empty run at the very end of each array.
        p.clips[0][3] = 5;
        p.clips[0][4] = 0;
        p.tracks[4][3] = 6;
        p.tracks[4][4] = 0;
        p.transitions[0][2] = 2;
        p.transitions[0][3] = 0;
        assert_eq!(load(e, &p), Ok(()));
    }
}

#[test]
fn unknown_codes_are_refused() {
    for e in BOTH {
        let mut p = parts(e);
        p.clips[0][2] = CLIP_LOOP | 2;
        refused_scene(e, &p, SceneDefect::Code { array: "clips", record: 0, word: 3 });
        // Track kinds 0..=4 and the step bit only.
        let mut p = parts(e);
        p.tracks[2][2] = 5;
        refused_scene(e, &p, SceneDefect::Code { array: "tracks", record: 2, word: 5 });
        let mut p = parts(e);
        p.tracks[0][2] = 0x200;
        refused_scene(e, &p, SceneDefect::Code { array: "tracks", record: 0, word: 0x200 });
        let mut p = parts(e);
        p.tracks[1][2] = 0xFF | TRACK_STEP;
        refused_scene(e, &p, SceneDefect::Code { array: "tracks", record: 1, word: 0x1FF });
        // Eases: 32 named curves, Bézier records by index.
        let mut p = parts(e);
        p.keys[0][3] = 32;
        refused_scene(e, &p, SceneDefect::Code { array: "keys", record: 0, word: 32 });
        let mut p = parts(e);
        p.keys[1][3] = 0xFF;
        refused_scene(e, &p, SceneDefect::Code { array: "keys", record: 1, word: 0xFF });
        let mut p = parts(e);
        p.keys[3][3] = BEZIER_EASE + 1; // only Bézier 0 exists
        refused_scene(e, &p, SceneDefect::Code { array: "keys", record: 3, word: 0x101 });
        let mut p = parts(e);
        p.keys[0][3] = u32::MAX;
        refused_scene(e, &p, SceneDefect::Code { array: "keys", record: 0, word: u32::MAX });
        // Parameter kinds 0..=2.
        let mut p = parts(e);
        p.params[1][1] = 3;
        refused_scene(e, &p, SceneDefect::Code { array: "params", record: 1, word: 3 });
        // Transition flags: bits 0 and 1.
        let mut p = parts(e);
        p.transitions[0][5] = 4;
        refused_scene(e, &p, SceneDefect::Code { array: "transitions", record: 0, word: 4 });
        // Clause ops 0..=7.
        let mut p = parts(e);
        p.clauses[0][0] = 8;
        refused_scene(e, &p, SceneDefect::Code { array: "clauses", record: 0, word: 8 });
        // A Bool key is 0 or 1.
        let mut p = parts(e);
        p.keys[5][1] = 2;
        refused_scene(e, &p, SceneDefect::Code { array: "keys", record: 5, word: 2 });
        // The second value word is 0 unless the track is a Vector track.
        for (k, word) in [(0usize, 1u32), (2, 7), (4, 0x8000_0000), (5, 1)] {
            let mut p = parts(e);
            p.keys[k][2] = word;
            refused_scene(e, &p, SceneDefect::Code { array: "keys", record: k as u32, word });
        }
    }
}

#[test]
fn every_named_ease_and_every_bezier_is_accepted() {
    for e in BOTH {
        for ease in (0..NAMED_EASES).chain([BEZIER_EASE]) {
            let mut p = parts(e);
            p.keys[0][3] = ease;
            assert_eq!(load(e, &p), Ok(()), "ease {ease:#x}");
        }
    }
}

#[test]
fn a_comparison_may_not_read_a_trigger() {
    for e in BOTH {
        for op in 2..=7 {
            let mut p = parts(e);
            p.clauses[1][0] = op; // clause 1 reads param 1, the Trigger "jump"
            refused_scene(e, &p, SceneDefect::Code { array: "clauses", record: 1, word: op });
        }
        // `!jump` is fine, and so is a comparison of the Float.
        let mut p = parts(e);
        p.clauses[1][0] = 1;
        assert_eq!(load(e, &p), Ok(()));
        for op in 0..=7 {
            let mut p = parts(e);
            p.clauses[0][0] = op;
            if op < 2 {
                p.clauses[0][2] = 0; // `name` / `!name` have no value
            }
            assert_eq!(load(e, &p), Ok(()), "op {op} on a Float");
        }
    }
}

#[test]
fn the_trigger_check_reads_the_machines_own_parameters() {
    // A second machine whose params are [jump (Trigger)] = absolute param 1: its clause on its
    // param 0 comparing with a number must be refused even though absolute param 0 is a Float.
    for e in BOTH {
        let mut p = parts(e);
        p.nodes.push([7, 8, 0, NONE, NONE]);
        p.machines.push([4, NONE, 0, 1, 1, 1, 1, 2, 1]);
        p.transitions.push([0, 0, 2, 1, 0, 0, 0, 0]);
        p.clauses.push([2, 0, sc(e, 1.0)]);
        refused_scene(e, &p, SceneDefect::Code { array: "clauses", record: 2, word: 2 });
        // And its `jump` clause is fine.
        p.clauses[2] = [0, 0, 0];
        assert_eq!(load(e, &p), Ok(()));
    }
}

#[test]
fn f32_scalars_must_be_finite() {
    let e = F32;
    let bad = [f32::NAN.to_bits(), f32::INFINITY.to_bits(), f32::NEG_INFINITY.to_bits(), 0x7FC0_0001];
    for w in bad {
        let mut p = parts(e);
        p.clips[0][1] = w;
        refused_scene(e, &p, SceneDefect::Scalar { array: "clips", record: 0 });
        let mut p = parts(e);
        p.keys[2][0] = w; // the event key's time
        refused_scene(e, &p, SceneDefect::Scalar { array: "keys", record: 2 });
        let mut p = parts(e);
        p.keys[1][1] = w; // a Float value
        refused_scene(e, &p, SceneDefect::Scalar { array: "keys", record: 1 });
        let mut p = parts(e);
        p.keys[3][1] = w; // a Vector's x
        refused_scene(e, &p, SceneDefect::Scalar { array: "keys", record: 3 });
        let mut p = parts(e);
        p.keys[3][2] = w; // a Vector's y
        refused_scene(e, &p, SceneDefect::Scalar { array: "keys", record: 3 });
        for k in 0..4 {
            let mut p = parts(e);
            p.beziers[0][k] = w;
            refused_scene(e, &p, SceneDefect::Scalar { array: "beziers", record: 0 });
        }
        let mut p = parts(e);
        p.params[0][2] = w;
        refused_scene(e, &p, SceneDefect::Scalar { array: "params", record: 0 });
        for word in [4, 6, 7] {
            let mut p = parts(e);
            p.transitions[1][word] = w;
            refused_scene(e, &p, SceneDefect::Scalar { array: "transitions", record: 1 });
        }
        let mut p = parts(e);
        p.clauses[0][2] = w;
        refused_scene(e, &p, SceneDefect::Scalar { array: "clauses", record: 0 });
    }
}

#[test]
fn lengths_times_and_durations_may_not_be_negative() {
    for e in BOTH {
        let tiny = match e {
            F32 => (-1.0e-30f32).to_bits(),
            _ => (-1i32) as u32, // -2^-16
        };
        for w in [neg(e, -1.0), tiny] {
            let mut p = parts(e);
            p.clips[0][1] = w;
            refused_scene(e, &p, SceneDefect::Scalar { array: "clips", record: 0 });
            let mut p = parts(e);
            p.keys[0][0] = w;
            refused_scene(e, &p, SceneDefect::Scalar { array: "keys", record: 0 });
            let mut p = parts(e);
            p.transitions[1][4] = w; // after
            refused_scene(e, &p, SceneDefect::Scalar { array: "transitions", record: 1 });
            let mut p = parts(e);
            p.transitions[0][6] = w; // crossfade
            refused_scene(e, &p, SceneDefect::Scalar { array: "transitions", record: 0 });
        }
        // Values, defaults, thresholds and exit times may be negative.
        let mut p = parts(e);
        p.keys[0][1] = neg(e, -3.0);
        p.params[0][2] = neg(e, -3.0);
        p.clauses[0][2] = neg(e, -3.0);
        p.transitions[1][7] = neg(e, -0.5);
        assert_eq!(load(e, &p), Ok(()));
    }
    // -0.0 is not negative.
    let mut p = parts(F32);
    p.clips[0][1] = (-0.0f32).to_bits();
    p.keys[0][0] = (-0.0f32).to_bits();
    assert_eq!(load(F32, &p), Ok(()));
}

#[test]
fn bezier_x_must_be_in_0_1_and_y_may_overshoot() {
    for e in BOTH {
        for (k, v) in [(0usize, 1.5), (2, 1.0001), (0, -0.25), (2, -1.0)] {
            let mut p = parts(e);
            p.beziers[0][k] = sc(e, v);
            refused_scene(e, &p, SceneDefect::Scalar { array: "beziers", record: 0 });
        }
        let mut p = parts(e);
        p.beziers[0] = [0, neg(e, -2.0), sc(e, 1.0), sc(e, 3.5)];
        assert_eq!(load(e, &p), Ok(()));
    }
}

#[test]
fn keys_must_be_in_time_order_within_their_track() {
    for e in BOTH {
        let mut p = parts(e);
        p.keys[0][0] = sc(e, 0.75); // after key 1 at 0.5
        refused_scene(e, &p, SceneDefect::KeyOrder { key: 1 });
        // A longer track: 0, 0.5, 0.25.
        let mut p = parts(e);
        p.keys.insert(2, [sc(e, 0.25), 0, 0, 0]);
        p.tracks[0][4] = 3;
        for t in 1..5 {
            p.tracks[t][3] += 1;
        }
        refused_scene(e, &p, SceneDefect::KeyOrder { key: 2 });
        // Equal times are in order.
        p.keys[2][0] = sc(e, 0.5);
        assert_eq!(load(e, &p), Ok(()));
        // Order is per track: the next track may start earlier than this one ended.
        let mut p = parts(e);
        p.keys[2][0] = 0;
        assert_eq!(load(e, &p), Ok(()));
    }
}

#[test]
fn indices_must_be_in_range_of_their_owner() {
    for e in BOTH {
        let mut p = parts(e);
        p.animators[0][1] = 1; // one clip
        refused_scene(e, &p, SceneDefect::Index { array: "animators", record: 0, index: 1 });
        let mut p = parts(e);
        p.machines[0][2] = 2; // two states
        refused_scene(e, &p, SceneDefect::Index { array: "machines", record: 0, index: 2 });
        let mut p = parts(e);
        p.transitions[0][0] = 2;
        refused_scene(e, &p, SceneDefect::Index { array: "transitions", record: 0, index: 2 });
        let mut p = parts(e);
        p.transitions[1][1] = 5;
        refused_scene(e, &p, SceneDefect::Index { array: "transitions", record: 1, index: 5 });
        let mut p = parts(e);
        p.clauses[0][1] = 2; // two params
        refused_scene(e, &p, SceneDefect::Index { array: "clauses", record: 0, index: 2 });
        // A machine with no states cannot have a start state.
        let mut p = parts(e);
        p.machines[0][6] = 0;
        p.machines[0][8] = 0;
        refused_scene(e, &p, SceneDefect::Index { array: "machines", record: 0, index: 0 });
        // Indices are relative to the owner: a second machine whose runs start after the first's.
        let mut p = parts(e);
        p.nodes.push([7, 8, 0, NONE, NONE]);
        p.machines.push([4, NONE, 1, 1, 1, 1, 1, 1, 1]); // start state 1 of 1 state
        refused_scene(e, &p, SceneDefect::Index { array: "machines", record: 1, index: 1 });
        p.machines[1][2] = 0;
        p.transitions[1][1] = 1; // transition 1 belongs to both machines: to 1 is out of the second's range
        refused_scene(e, &p, SceneDefect::Index { array: "transitions", record: 1, index: 1 });
    }
}

#[test]
fn every_string_id_must_exist() {
    let e = Q16;
    let bad = STRING_COUNT;
    let mut p = parts(e);
    p.name = bad;
    refused(e, &p, string_ref(bad));
    for word in 0..2 {
        let mut p = parts(e);
        p.nodes[2][word] = bad + 3;
        refused(e, &p, string_ref(bad + 3));
    }
    for word in 3..5 {
        let mut p = parts(e);
        p.nodes[1][word] = bad;
        refused(e, &p, string_ref(bad));
    }
    let mut p = parts(e);
    p.clips[0][0] = bad;
    refused(e, &p, string_ref(bad));
    let mut p = parts(e);
    p.keys[2][1] = bad; // the event name
    refused(e, &p, string_ref(bad));
    let mut p = parts(e);
    p.params[1][0] = bad;
    refused(e, &p, string_ref(bad));
    let mut p = parts(e);
    p.states[1][0] = NONE - 1;
    refused(e, &p, string_ref(NONE - 1));
    let mut p = parts(e);
    p.states[0][1] = bad;
    refused(e, &p, string_ref(bad));
    let mut p = parts(e);
    p.fields[0] = bad;
    refused(e, &p, string_ref(bad));
    // NONE is "no string" where a word may be absent.
    let mut p = parts(e);
    p.nodes[1][3] = NONE;
    p.nodes[1][4] = NONE;
    p.states[0][1] = NONE;
    assert_eq!(load(e, &p), Ok(()));
}

#[test]
fn defects_display_as_one_line() {
    let shown = std::format!(
        "{}",
        LoadError::MalformedSection {
            section: 1,
            kind: 4,
            defect: SectionDefect::Scene(SceneDefect::KeyOrder { key: 7 })
        }
    );
    assert_eq!(shown, "section 1 (kind 4): scene: key 7 comes before the previous key of its track");
    let all = [
        SceneDefect::RecordArray { array: "keys", len: 3 },
        SceneDefect::Parent { node: 1, parent: 2 },
        SceneDefect::NodeRef { array: "tracks", record: 0, node: 9 },
        SceneDefect::Run { array: "clips", record: 0 },
        SceneDefect::Code { array: "keys", record: 2, word: 0x20 },
        SceneDefect::Scalar { array: "clips", record: 0 },
        SceneDefect::KeyOrder { key: 1 },
        SceneDefect::Index { array: "machines", record: 0, index: 3 },
    ];
    for d in all {
        let s = std::format!("{d}");
        assert!(!s.is_empty() && !s.contains('\n'), "{s:?}");
    }
    assert_eq!(std::format!("{}", all[4]), "keys record 2: unknown code 0x20");
}

#[test]
fn starting_property_values_are_checked_like_keys() {
    for e in BOTH {
        let s = {
            let bytes = blob(e, &parts(e));
            let blob = Blob::parse(&bytes).unwrap();
            let sc0 = blob.scenes().next().unwrap();
            (sc0.prop_count(), sc0.prop(0), sc0.prop(1), sc0.prop(2))
        };
        assert_eq!(
            s,
            (
                2,
                Some(PropRecord { node: 1, property: POSITION_Y, kind: 0, a: sc(e, 4.0), b: 0 }),
                Some(PropRecord { node: 0, property: VISIBLE, kind: 3, a: 0, b: 0 }),
                None
            )
        );
        let mut p = parts(e);
        p.props[0][0] = 4;
        refused_scene(e, &p, SceneDefect::NodeRef { array: "props", record: 0, node: 4 });
        let mut p = parts(e);
        p.props[1][2] = 5;
        refused_scene(e, &p, SceneDefect::Code { array: "props", record: 1, word: 5 });
        let mut p = parts(e);
        p.props[1][3] = 2;
        refused_scene(e, &p, SceneDefect::Code { array: "props", record: 1, word: 2 });
        let mut p = parts(e);
        p.props[0][4] = 7;
        refused_scene(e, &p, SceneDefect::Code { array: "props", record: 0, word: 7 });
        let mut p = parts(e);
        p.props[0] = [1, 13, 4, 99, 0];
        refused(e, &p, string_ref(99));
        if e == ScalarEncoding::F32 {
            let mut p = parts(e);
            p.props[0][3] = f32::NAN.to_bits();
            refused_scene(e, &p, SceneDefect::Scalar { array: "props", record: 0 });
        }
    }
}

#[test]
fn words_a_record_does_not_use_must_be_zero() {
    for e in BOTH {
        // Clause 1 is `jump` (op 0): its value word is unused.
        let mut p = parts(e);
        p.clauses[1][2] = 5;
        refused_scene(e, &p, SceneDefect::Code { array: "clauses", record: 1, word: 5 });
        // Transition 0 has no exit time flag: its exit time word is unused.
        let mut p = parts(e);
        p.transitions[0][7] = 9;
        refused_scene(e, &p, SceneDefect::Code { array: "transitions", record: 0, word: 9 });
    }
}
