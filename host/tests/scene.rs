//! Scene XML: the issue's Animator and StateMachine examples, the bundled castle scene, node
//! paths, value texts, and every refusal with its line:column.

use ossicle_host::conditions::{Clause, CompareOp, ParamKind};
use ossicle_host::sources::scene::{parse, parse_value, SceneIr, TrackProperty, Value, ValueKind};
use std::path::Path;

fn scene(text: &str) -> Result<SceneIr, String> {
    parse(Path::new("s.scene.xml"), text.as_bytes()).map_err(|e| e.to_string())
}

#[test]
fn the_issue_animator_example() {
    let s = scene(
        r#"<scene><node kind="Node2D" name="Coin"/>
<node kind="Animator" name="Anim" autoplay="bob">
  <clip name="bob" length="1" loop="true">
    <track node="Coin" property="position.y">
      <key time="0" value="0" ease="InOutSine"/>
      <key time="0.5" value="-6" ease="InOutSine"/>
      <key time="1" value="0"/>
    </track>
    <track property="event"><key time="0.5" value="top"/></track>
  </clip>
</node></scene>"#,
    )
    .unwrap();
    assert_eq!(s.nodes.len(), 2);
    assert_eq!(s.nodes[1].path, "/Anim");
    let a = &s.animators[0];
    assert_eq!((a.node, a.autoplay), (1, Some(0)));
    let c = &a.clips[0];
    assert_eq!((c.name.as_str(), c.length, c.looping, c.tracks.len()), ("bob", 1.0, true, 2));
    let t = &c.tracks[0];
    assert_eq!((t.target, t.kind, t.step), (Some(0), ValueKind::Float, false));
    assert_eq!(t.property, TrackProperty::Builtin(2));
    let keys: Vec<(f64, Value, Option<String>)> =
        t.keys.iter().map(|k| (k.time, k.value.clone(), k.ease.clone())).collect();
    assert_eq!(
        keys,
        [
            (0.0, Value::Float(0.0), Some("InOutSine".into())),
            (0.5, Value::Float(-6.0), Some("InOutSine".into())),
            (1.0, Value::Float(0.0), None),
        ]
    );
    assert!(t.keys.iter().all(|k| k.place.contains(':')), "every key knows its line:column");
    let e = &c.tracks[1];
    assert_eq!((e.target, &e.property, e.step), (None, &TrackProperty::Event, true));
    assert_eq!(e.keys[0].value, Value::Text("top".into()));
}

#[test]
fn the_issue_state_machine_example() {
    let s = scene(
        r#"<node kind="AnimatedSprite" name="Hero"><node kind="StateMachine" name="Brain" start="idle">
  <param name="speed" type="Float"/>
  <param name="grounded" type="Bool" value="true"/>
  <param name="jump" type="Trigger"/>
  <state name="idle" animation="idle"/>
  <state name="run" animation="run"/>
  <state name="jump" animation="jump"/>
  <transition from="idle" to="run" when="speed > 10"/>
  <transition from="run" to="idle" when="speed &lt;= 10"/>
  <transition from="*" to="jump" when="jump"/>
  <transition from="jump" to="idle" when="grounded" after="0.2"/>
</node></node>"#,
    )
    .unwrap();
    let m = &s.machines[0];
    assert_eq!((m.node, m.sprite, m.start), (1, Some(0), 0));
    assert_eq!(
        m.params,
        [
            ("speed".to_string(), ParamKind::Float, 0.0),
            ("grounded".to_string(), ParamKind::Bool, 1.0),
            ("jump".to_string(), ParamKind::Trigger, 0.0)
        ]
    );
    assert_eq!(m.states[1], ("run".to_string(), Some("run".to_string())));
    let t = &m.transitions;
    assert_eq!((t[0].from, t[0].to), (Some(0), 1));
    assert_eq!(t[0].clauses, [Clause::Compare { param: 0, op: CompareOp::Gt, value: 10.0 }]);
    assert_eq!(t[1].clauses, [Clause::Compare { param: 0, op: CompareOp::Le, value: 10.0 }]);
    assert_eq!((t[2].from, t[2].to, t[2].clauses.clone()), (None, 2, vec![Clause::Is { param: 2 }]));
    assert_eq!((t[3].after, t[3].on_finished, t[3].crossfade, t[3].exit_time), (0.2, false, 0.0, None));
}

#[test]
fn the_castle_sample_parses_with_paths_resolved() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/castle.scene.xml");
    let s = parse(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(s.name, "castle");
    let idx = |p: &str| s.nodes.iter().position(|n| n.path == p).unwrap();
    let props = &s.animators[0];
    assert_eq!(props.node, idx("/World/Props"));
    let targets: Vec<Option<usize>> = props.clips[0].tracks.iter().map(|t| t.target).collect();
    assert_eq!(targets, [Some(idx("/World/Platform")), Some(idx("/World/Coin")), Some(idx("/World/Coin/Shine")), None]);
    assert_eq!(props.clips[0].tracks[0].keys[1].value, Value::Vector(120.0, 96.0));
    let slide = &s.animators[1];
    let t = &slide.clips[0].tracks;
    assert_eq!((t[1].kind, t[1].step), (ValueKind::Text, true));
    assert_eq!(t[2].keys[0].value, Value::Color([255, 255, 255, 0]));
    assert_eq!(t[2].keys[1].value, Value::Color([0xff, 0xd0, 0x40, 255]));
    assert_eq!((t[3].target, &t[3].property), (Some(idx("/World/Coin")), &TrackProperty::Script("bonus".into())));
    let brain = &s.machines[0];
    assert_eq!(brain.sprite, Some(idx("/Knight")));
    let last = brain.transitions.last().unwrap();
    assert_eq!((last.on_finished, last.crossfade, last.exit_time, last.clauses.len()), (true, 0.1, Some(0.9), 0));
}

#[test]
fn values_parse_by_kind() {
    assert_eq!(parse_value("12", ValueKind::Float), Ok(Value::Float(12.0)));
    assert_eq!(parse_value(" 10, -4 ", ValueKind::Vector), Ok(Value::Vector(10.0, -4.0)));
    assert_eq!(parse_value("#ff8000", ValueKind::Color), Ok(Value::Color([255, 128, 0, 255])));
    assert_eq!(parse_value("#ff8000cc", ValueKind::Color), Ok(Value::Color([255, 128, 0, 0xcc])));
    assert_eq!(parse_value("true", ValueKind::Bool), Ok(Value::Bool(true)));
    assert_eq!(parse_value("-3", ValueKind::Int), Ok(Value::Int(-3)));
    assert!(parse_value("10", ValueKind::Vector).unwrap_err().contains("not a vector"));
    assert!(parse_value("#ff80", ValueKind::Color).unwrap_err().contains("colour"));
    assert!(parse_value("yes", ValueKind::Bool).unwrap_err().contains("true or false"));
    assert!(parse_value("1e999", ValueKind::Float).unwrap_err().contains("finite"));
    assert!(parse_value("1.5", ValueKind::Int).unwrap_err().contains("whole number"));
}

#[test]
fn bad_scenes_are_refused_with_line_and_column() {
    let anim = |track: &str| {
        format!(
            "<scene>\n<node kind=\"Node2D\" name=\"Coin\"/>\n<node kind=\"Animator\" name=\"A\">\n<clip name=\"c\" length=\"1\">\n{track}\n</clip></node></scene>"
        )
    };
    let cases = [
        ("<scene><node kind=\"A\" name=\"x\"></scene>".to_string(), "s.scene.xml:1:"),
        (
            anim(r#"<track node="Coin" property="wobble"><key time="0" value="1"/></track>"#),
            "5:30: unknown property \"wobble\"",
        ),
        (
            anim(r#"<track node="Nope" property="position.x"><key time="0" value="1"/></track>"#),
            "5:14: no node at path \"Nope\"",
        ),
        (
            anim(r#"<track node="Coin" property="position.x"><key time="0" value="1" ease="Bouncy"/></track>"#),
            "unknown ease \"Bouncy\"",
        ),
        (
            anim(
                r#"<track node="Coin" property="position.x"><key time="0.5" value="1"/><key time="0.2" value="2"/></track>"#,
            ),
            "keys out of order",
        ),
        (anim(r#"<track node="Coin" property="position"><key time="0" value="1"/></track>"#), "not a vector"),
        (anim(r#"<track node="Coin" property="position.x"><key time="2" value="1"/></track>"#), "outside the clip"),
    ];
    for (text, want) in cases {
        let e = scene(&text).unwrap_err();
        assert!(e.contains(want), "{e:?} lacks {want:?}");
    }
    let sm = |body: &str| {
        format!("<node kind=\"S\" name=\"H\"><node kind=\"StateMachine\" name=\"B\" start=\"idle\">\n<param name=\"speed\" type=\"Float\"/>\n<param name=\"jump\" type=\"Trigger\"/>\n<state name=\"idle\"/>\n{body}\n</node></node>")
    };
    let cases = [
        (sm(r#"<transition from="idle" to="run"/>"#), "5:29: unknown state \"run\" (the states are idle)"),
        (sm(r#"<transition from="idle" to="idle" when="jump > 1"/>"#), "transition idle -> idle: condition column 6:"),
        (sm(r#"<transition from="idle" to="idle" when="speed > 1 and"/>"#), "dangling `and`"),
        (sm(r#"<transition from="idle" to="idle" when="run"/>"#), "unknown parameter \"run\""),
        (sm(r#"<param name="x" type="Int"/>"#), "expected Float, Bool or Trigger"),
    ];
    for (text, want) in cases {
        let e = scene(&text).unwrap_err();
        assert!(e.contains(want), "{e:?} lacks {want:?}");
    }
}

#[test]
fn node_attributes_named_like_properties_are_starting_values_in_the_kernel_scene() {
    use ossicle::color::Rgba8;
    use ossicle::scene::Scene;
    use ossicle::Asset;
    use ossicle_format::ScalarEncoding;
    use ossicle_host::write::{write_blob_with, WriteOptions};
    let text = r##"<scene name="s">
  <node kind="Sprite" name="Door" texture="door.png" position="40, 96" rotation="0.5" visible="false"
        tint="#ff000080" zIndex="3" scale="2, 3"/>
  <node kind="Label" name="Title" text="Castle" color="#10203040" opacity="0.5"/>
</scene>"##;
    let ir = scene(text).unwrap();
    assert_eq!(ir.nodes[0].props.len(), 6, "texture is not a property and is ignored");
    let project = ossicle_host::ir::Project { scenes: vec![ir], ..Default::default() };
    for encoding in [ScalarEncoding::F32, ScalarEncoding::Q16_16] {
        let (blob, _) = write_blob_with(&project, &WriteOptions::new(encoding)).unwrap();
        let asset = Asset::load(&blob).unwrap();
        let check = |pos: (f64, f64), rot: f64, scale: (f64, f64)| {
            assert!((pos.0 - 40.0).abs() < 1e-6 && (pos.1 - 96.0).abs() < 1e-6, "{pos:?}");
            assert!((rot - 0.5).abs() < 1e-4, "{rot}");
            assert!((scale.0 - 2.0).abs() < 1e-6 && (scale.1 - 3.0).abs() < 1e-6, "{scale:?}");
        };
        macro_rules! run {
            ($s:ty) => {{
                let sc: Scene<$s, 4, 2, 2> = Scene::new(&asset, asset.scene(0).unwrap()).unwrap();
                let n = sc.nodes();
                let (p, s) = (n.position(0).unwrap(), n.scale(0).unwrap());
                let f = |v: $s| f64::from(ossicle::Scalar::to_f64(v));
                check((f(p.x), f(p.y)), f(n.rotation(0).unwrap()), (f(s.x), f(s.y)));
                assert_eq!(n.visible(0), Some(false));
                assert_eq!(n.tint(0), Some(Rgba8::from_array([255, 0, 0, 128])));
                assert_eq!(n.z_index(0), Some(3));
                // The Label: text (a string id), colour, opacity 0.5 -> alpha 128 of the white tint.
                assert_eq!(n.text(1).and_then(|id| asset.string(id)), Some("Castle"));
                assert_eq!(n.color(1), Some(Rgba8::from_array([0x10, 0x20, 0x30, 0x40])));
                assert_eq!(n.tint(1).map(|t| t.a), Some(128));
            }};
        }
        match encoding {
            ScalarEncoding::F32 => run!(f32),
            ScalarEncoding::Q16_16 => run!(ossicle::Q16),
        }
    }
    let bad = scene(r#"<scene><node kind="Sprite" name="Door" position="40"/></scene>"#).unwrap_err();
    assert!(bad.contains("s.scene.xml:1:") && bad.contains("position") && bad.contains("vector"), "{bad}");
}

#[test]
fn script_fields_beyond_the_node_tables_slots_are_a_capacity_error() {
    use ossicle::scene::{Scene, SceneError};
    use ossicle::Asset;
    use ossicle_format::ScalarEncoding;
    use ossicle_host::write::{write_blob_with, WriteOptions};
    let tracks: String = (0..5)
        .map(|i| format!(r#"<track node="." property="script.f{i}"><key time="0" value="{i}"/></track>"#))
        .collect();
    let text = format!(
        r#"<scene name="s"><node kind="Node2D" name="N"><node kind="Animator" name="A" autoplay="c"><clip name="c" length="1">{tracks}</clip></node></node></scene>"#
    );
    let project = ossicle_host::ir::Project { scenes: vec![scene(&text).unwrap()], ..Default::default() };
    let (blob, _) = write_blob_with(&project, &WriteOptions::new(ScalarEncoding::F32)).unwrap();
    let asset = Asset::load(&blob).unwrap();
    let four = Scene::<f32, 4, 2, 2, 4>::new(&asset, asset.scene(0).unwrap()).map(|_| ()).unwrap_err();
    assert_eq!(four, SceneError::Capacity { what: "script fields", needed: 5, capacity: 4 });
    let mut five = Scene::<f32, 4, 2, 2, 5>::new(&asset, asset.scene(0).unwrap()).unwrap();
    let mut q: ossicle::event::EventQueue<4> = ossicle::event::EventQueue::new();
    five.update(0.5, &mut q);
    // Field k is script slot k, in the order the fields first appear: f4 holds 4.
    assert_eq!(five.nodes().script(0, 4), Some(ossicle::animator::ScriptValue::Float(4.0)));
}
