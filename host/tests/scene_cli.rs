//! The `ossicle` CLI with scene XML: `build` of the issue's Animator and StateMachine examples and
//! the castle sample in f32 and Q16.16, `inspect` listing the scenes, `trace` runs checked against
//! hand-derived steps; bad scenes (one-line errors naming the file, line:column and the reason, exit
//! 1, an existing output untouched) and bad trace scripts (exit 1, the script line in the message,
//! the steps before the bad line on stdout).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts a failed run: exit code 1, exactly one line on stderr, starting with `error: ` and
/// containing every piece of `expect`.
fn assert_fails(o: &Output, expect: &[&str]) {
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    for e in expect {
        assert!(err.contains(e), "{err:?} lacks {e:?}");
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn no_temp_files_in(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "temporary files left: {left:?}");
}

/// A sprite "hero" (the coin sheet) with the animations the issue's machine plays: idle, run, jump.
fn hero_sprite(dir: &Path) -> PathBuf {
    std::fs::copy(samples().join("sprites/coin/coin.png"), dir.join("coin.png")).unwrap();
    write(
        dir,
        "hero.anim.xml",
        r#"<animations name="hero" fps="10">
  <sheet image="coin.png" columns="3" rows="2" margin="1" spacing="2"/>
  <animation name="idle" start="0" end="1"/>
  <animation name="run" start="2" end="5"/>
  <animation name="jump" frames="0,1" loop="false"/>
</animations>
"#,
    )
}

/// The issue's Animator example.
const ANIMATOR_EXAMPLE: &str = r#"<scene name="bob">
<node kind="Node2D" name="Coin"/>
<node kind="Animator" name="Anim" autoplay="bob">
  <clip name="bob" length="1" loop="true">
    <track node="Coin" property="position.y">
      <key time="0" value="0" ease="InOutSine"/>
      <key time="0.5" value="-6" ease="InOutSine"/>
      <key time="1" value="0"/>
    </track>
    <track property="event"><key time="0.5" value="top"/></track>
  </clip>
</node>
</scene>
"#;

/// The issue's StateMachine example, on an AnimatedSprite showing hero.anim.xml.
const MACHINE_EXAMPLE: &str = r#"<scene name="brain">
<node kind="AnimatedSprite" name="Hero" src="hero.anim.xml" animation="idle">
<node kind="StateMachine" name="Brain" start="idle">
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
</node>
</node>
</scene>
"#;

const SCALARS: [&str; 2] = ["f32", "q16"];

fn build_ok(inputs: &[&Path], out: &Path, scalar: &str) {
    let mut args = vec!["build"];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["-o", s(out), "--scalar", scalar]);
    let o = ossicle(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The JSON lines of a trace.
fn steps(text: &str) -> Vec<serde_json::Value> {
    assert!(text.is_empty() || text.ends_with("}\n"), "a partial step: {text:?}");
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"))).collect()
}

fn trace(blob: &Path, script: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["trace", s(blob), "--script", s(script)];
    args.extend(extra);
    ossicle(&args)
}

#[test]
fn the_animator_example_builds_inspects_and_traces() {
    for scalar in SCALARS {
        let dir = tempfile::tempdir().unwrap();
        let scene = write(dir.path(), "bob.scene.xml", ANIMATOR_EXAMPLE);
        let out = dir.path().join("bob.osb");
        build_ok(&[&scene], &out, scalar);
        let o = ossicle(&["inspect", s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("scene \"bob\": 2 nodes, 1 Animators, 0 state machines"), "{text}");
        assert!(text.contains("clip \"bob\" length 1"), "{text}");
        let o = ossicle(&["inspect", s(&out), "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["encoding"], scalar);
        assert_eq!(v["scenes"][0]["name"], "bob");
        assert_eq!(v["scenes"][0]["animators"].as_array().map(Vec::len), Some(1));

        // By hand: -6 × InOutSine(0.5) = -3 at 0.25; -6 and "top" at 0.5; at 1.0 the clip wraps to
        // 0 (value 0) and fires nothing (no key in (0.5, 1] or at 0).
        let script = write(dir.path(), "s.txt", "# the bob\nupdate 0.25\n\nupdate 0.25\nupdate 0.5\n");
        let o = trace(&out, &script, &[]);
        assert!(o.status.success(), "{}", stderr(&o));
        let st = steps(&stdout(&o));
        assert_eq!(st.len(), 3);
        let y = |i: usize| st[i]["writes"][0]["value"].as_f64().unwrap();
        for (i, (time, value)) in [(0.25, -3.0), (0.5, -6.0), (1.0, 0.0)].into_iter().enumerate() {
            assert_eq!(st[i]["step"], i + 1);
            assert_eq!(st[i]["time"].as_f64(), Some(time));
            assert_eq!(st[i]["writes"].as_array().map(Vec::len), Some(1));
            assert_eq!(st[i]["writes"][0]["node"], "/Coin");
            assert_eq!(st[i]["writes"][0]["property"], "position.y");
            assert!((y(i) - value).abs() < 1e-3, "step {}: {}", i + 1, y(i));
        }
        assert_eq!(st[0]["op"], "update 0.25");
        assert_eq!(st[0]["events"], serde_json::json!([]));
        assert_eq!(
            st[1]["events"],
            serde_json::json!([{"type": "event", "animator": "Anim", "clip": "bob", "name": "top"}])
        );
        assert_eq!(st[2]["events"], serde_json::json!([]));
        no_temp_files_in(dir.path());
    }
}

#[test]
fn a_scene_file_with_a_byte_order_mark_is_a_scene() {
    // Editors on Windows write UTF-8 files with a BOM; with or without an XML declaration and a
    // comment before the root, the file is still recognised as a scene (not an animation set).
    for head in ["", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- a comment -->\n"] {
        let dir = tempfile::tempdir().unwrap();
        let scene = write(dir.path(), "bom.scene.xml", &format!("\u{feff}{head}{ANIMATOR_EXAMPLE}"));
        let out = dir.path().join("bom.osb");
        build_ok(&[&scene], &out, "q16");
        let o = ossicle(&["inspect", s(&out)]);
        assert!(stdout(&o).contains("scene \"bob\": 2 nodes, 1 Animators"), "{}", stdout(&o));
    }
}

#[test]
fn the_state_machine_example_builds_inspects_and_traces() {
    for scalar in SCALARS {
        let dir = tempfile::tempdir().unwrap();
        hero_sprite(dir.path());
        let scene = write(dir.path(), "brain.scene.xml", MACHINE_EXAMPLE);
        let out = dir.path().join("brain.osb");
        build_ok(&[&scene], &out, scalar);
        let o = ossicle(&["inspect", s(&out)]);
        let text = stdout(&o);
        assert!(text.contains("sprite \"hero\""), "{text}");
        assert!(text.contains("scene \"brain\": 2 nodes, 0 Animators, 1 state machines"), "{text}");
        assert!(text.contains("states idle, run, jump, 4 transitions"), "{text}");

        let script = write(
            dir.path(),
            "s.txt",
            "update 0.1\nset Brain speed 12\nupdate 0.1\ntrigger Brain jump\nupdate 0.1\nupdate 0.1\nupdate 0.1\nupdate 0.1\n",
        );
        let o = trace(&out, &script, &[]);
        assert!(o.status.success(), "{}", stderr(&o));
        let st = steps(&stdout(&o));
        assert_eq!(st.len(), 8);
        // By hand: the state events of each step.
        let states = |i: usize| -> Vec<(String, String)> {
            st[i]["events"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["type"] == "entered" || e["type"] == "exited")
                .map(|e| {
                    assert_eq!(e["machine"], "Brain");
                    (e["type"].as_str().unwrap().to_string(), e["state"].as_str().unwrap().to_string())
                })
                .collect()
        };
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
        };
        assert_eq!(states(0), pairs(&[("entered", "idle")]));
        assert_eq!(states(1), pairs(&[]));
        assert_eq!(states(2), pairs(&[("exited", "idle"), ("entered", "run")]));
        assert_eq!(states(3), pairs(&[]));
        assert_eq!(states(4), pairs(&[("exited", "run"), ("entered", "jump")]));
        assert_eq!(states(5), pairs(&[]), "0.1 s in jump: `after 0.2` not yet");
        assert_eq!(states(6), pairs(&[("exited", "jump"), ("entered", "idle")]));
        assert_eq!(states(7), pairs(&[("exited", "idle"), ("entered", "run")]), "speed is still 12");
        // Entering run played "run" on the Hero's player: the next update starts it, before the
        // machine moves on.
        let ev = st[4]["events"].as_array().unwrap();
        let started = ev.iter().position(|e| e["type"] == "sprite_started" && e["animation"] == "run");
        let exited = ev.iter().position(|e| e["type"] == "exited");
        assert!(started.is_some() && started < exited, "{ev:?}");
        assert_eq!(ev[started.unwrap()]["node"], "Hero");
        assert!(st.iter().all(|x| x["writes"] == serde_json::json!([])));
    }
}

#[test]
fn trace_output_is_json_whatever_the_names() {
    // Names with quotes, backslashes and a tab (XML character references) in node paths, clip,
    // event, text and script names.
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "q.scene.xml",
        r#"<scene name="q">
  <node kind="Node2D" name='Coin "gold" \&#9;x'/>
  <node kind="Animator" name='A"' autoplay='c"'>
    <clip name='c"' length="1">
      <track node='Coin "gold" \&#9;x' property="position.x"><key time="0" value="2"/></track>
      <track node='Coin "gold" \&#9;x' property="text"><key time="0" value='say "hi" \'/></track>
      <track node='Coin "gold" \&#9;x' property='script.a"b'><key time="0" value="1"/></track>
      <track property="event"><key time="0" value='e"\'/></track>
    </clip>
  </node>
</scene>
"#,
    );
    let out = dir.path().join("q.osb");
    build_ok(&[&scene], &out, "q16");
    let script = write(dir.path(), "s.txt", "update 0.5\nseek A\" 0.25\n");
    let o = trace(&out, &script, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let st = steps(&stdout(&o));
    assert_eq!(st.len(), 2);
    let w = &st[0]["writes"];
    assert_eq!(w[0]["node"], "/Coin \"gold\" \\\tx");
    assert_eq!(w[1]["value"], "say \"hi\" \\");
    assert_eq!(w[2]["property"], "script.a\"b");
    assert_eq!(st[0]["events"][0]["clip"], "c\"");
    assert_eq!(st[0]["events"][0]["animator"], "A\"");
    assert_eq!(st[0]["events"][0]["name"], "e\"\\");
    assert_eq!(st[1]["op"], "seek A\" 0.25");
}

#[test]
fn the_castle_sample_builds_inspects_and_traces() {
    for scalar in SCALARS {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("castle.osb");
        build_ok(&[&samples().join("scenes/castle.scene.xml")], &out, scalar);
        let o = ossicle(&["inspect", s(&out)]);
        let text = stdout(&o);
        assert!(text.contains("scene \"castle\": 12 nodes, 2 Animators, 1 state machines"), "{text}");
        assert!(text.contains("sprite \"coin\"") && text.contains("sprite \"knight\""), "{text}");
        let o = ossicle(&["inspect", s(&out), "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["scenes"][0]["name"], "castle");
        assert_eq!(v["scenes"][0]["machines"][0]["node"], "/Knight/Brain");
        // The Props Animator plays "open" on the door: visible false and door_open at 0.5.
        let script = write(dir.path(), "s.txt", "update 0.1\nplay Props open\nupdate 0.5\n");
        let o = trace(&out, &script, &["--scene", "castle"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let st = steps(&stdout(&o));
        assert_eq!(st.len(), 3);
        // The autoplayed "idle" clip fires its key at 0 in the first update.
        let first = st[0]["events"].as_array().unwrap();
        assert!(
            first.contains(&serde_json::json!({"type": "event", "animator": "Props", "clip": "idle", "name": "tick"}))
        );
        let writes = st[2]["writes"].as_array().unwrap();
        assert!(
            writes.iter().any(|w| w["node"] == "/World/Door" && w["property"] == "visible" && w["value"] == false),
            "{writes:?}"
        );
        let events = st[2]["events"].as_array().unwrap();
        assert!(events
            .contains(&serde_json::json!({"type": "event", "animator": "Props", "clip": "open", "name": "door_open"})));
        assert!(events.contains(&serde_json::json!({"type": "finished", "animator": "Props", "clip": "open"})));
    }
}

// ---------------------------------------------------------------------------------------------
// Bad scenes.

/// Builds `scene` (with `extra` inputs after it) over an existing output and asserts the failure:
/// exit 1, one line naming the scene file at `line:col` and containing `expect`, the old output
/// kept, no temporary file left.
fn build_fails(dir: &Path, scene: &Path, extra: &[&Path], scalar: &str, place: (u32, u32), expect: &[&str]) {
    let out = dir.join("out.osb");
    std::fs::write(&out, b"previous").unwrap();
    let mut args = vec!["build", s(scene)];
    args.extend(extra.iter().map(|p| s(p)));
    args.extend(["-o", s(&out), "--scalar", scalar]);
    let o = ossicle(&args);
    let at = format!("{}:{}:{}: ", s(scene), place.0, place.1);
    let mut all = vec![at.as_str()];
    all.extend(expect);
    assert_fails(&o, &all);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    no_temp_files_in(dir);
}

#[test]
fn an_animated_sprite_showing_a_sprite_the_build_does_not_define() {
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "a.scene.xml",
        "<scene name=\"s\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" sprite=\"ghost\"/>\n</scene>\n",
    );
    build_fails(dir.path(), &scene, &[], "q16", (2, 3), &["/Hero", "\"ghost\"", "does not define"]);
    // Given as another input, the sprite is found.
    let hero = hero_sprite(dir.path());
    let ok = write(
        dir.path(),
        "b.scene.xml",
        "<scene name=\"s\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" sprite=\"hero\" animation=\"run\"/>\n</scene>\n",
    );
    build_ok(&[&ok, &hero], &dir.path().join("ok.osb"), "f32");
}

#[test]
fn a_state_animation_the_driven_sprite_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    hero_sprite(dir.path());
    let scene = write(
        dir.path(),
        "a.scene.xml",
        r#"<scene name="s">
  <node kind="AnimatedSprite" name="Hero" src="hero.anim.xml">
    <node kind="StateMachine" name="Brain" start="idle">
      <state name="idle" animation="idle"/>
      <state name="fly" animation="fly"/>
    </node>
  </node>
</scene>
"#,
    );
    build_fails(
        dir.path(),
        &scene,
        &[],
        "f32",
        // At the state's animation attribute's value: line 5, column 7 + 18 + 11 = 36.
        (5, 36),
        &["state \"fly\"", "animation \"fly\"", "\"hero\"", "idle, run, jump"],
    );
}

#[test]
fn a_node_animation_its_sprite_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    hero_sprite(dir.path());
    let scene = write(
        dir.path(),
        "a.scene.xml",
        "<scene name=\"s\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" src=\"hero.anim.xml\" animation=\"fly\"/>\n</scene>\n",
    );
    build_fails(dir.path(), &scene, &[], "q16", (2, 3), &["/Hero", "\"fly\"", "idle, run, jump"]);
}

#[test]
fn an_animation_key_naming_a_missing_animation() {
    let dir = tempfile::tempdir().unwrap();
    hero_sprite(dir.path());
    let scene = write(
        dir.path(),
        "a.scene.xml",
        r#"<scene name="s">
  <node kind="AnimatedSprite" name="Hero" src="hero.anim.xml"/>
  <node kind="Animator" name="A">
    <clip name="c" length="1">
      <track node="Hero" property="animation">
        <key time="0" value="run"/>
        <key time="0.5" value="fly"/>
      </track>
    </clip>
  </node>
</scene>
"#,
    );
    build_fails(dir.path(), &scene, &[], "f32", (7, 9), &["\"hero\"", "no animation \"fly\""]);
}

#[test]
fn a_state_track_on_a_node_that_is_not_a_state_machine() {
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "a.scene.xml",
        r#"<scene name="s">
  <node kind="Node2D" name="N"/>
  <node kind="Animator" name="A">
    <clip name="c" length="1">
      <track node="N" property="state">
        <key time="0" value="idle"/>
      </track>
    </clip>
  </node>
</scene>
"#,
    );
    build_fails(dir.path(), &scene, &[], "q16", (5, 7), &["StateMachine", "/N", "Node2D"]);
}

#[test]
fn a_state_track_naming_a_missing_state() {
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "a.scene.xml",
        r#"<scene name="s">
  <node kind="Node2D" name="N">
    <node kind="StateMachine" name="B" start="a">
      <state name="a"/>
    </node>
  </node>
  <node kind="Animator" name="A">
    <clip name="c" length="1">
      <track node="N/B" property="state">
        <key time="0" value="a"/>
        <key time="0.5" value="zzz"/>
      </track>
    </clip>
  </node>
</scene>
"#,
    );
    build_fails(dir.path(), &scene, &[], "f32", (11, 9), &["/N/B", "no state \"zzz\""]);
}

#[test]
fn the_top_level_is_not_a_node() {
    // "/" names no node (it is not the Animator's parent, which is /World).
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "a.scene.xml",
        r#"<scene name="s">
  <node kind="Node2D" name="World">
    <node kind="Animator" name="A">
      <clip name="c" length="1">
        <track node="/" property="position.x"><key time="0" value="1"/></track>
      </clip>
    </node>
  </node>
</scene>
"#,
    );
    build_fails(dir.path(), &scene, &[], "f32", (5, 22), &["no node at path \"/\""]);
    // "." and "" are the parent, "/World" from the top.
    for path in [".", "", "/World", "/World/."] {
        let ok = write(
            dir.path(),
            "b.scene.xml",
            &std::fs::read_to_string(&scene).unwrap().replace("node=\"/\"", &format!("node=\"{path}\"")),
        );
        build_ok(&[&ok], &dir.path().join("ok.osb"), "f32");
        let script = write(dir.path(), "s.txt", "play A c\nupdate 0\n");
        let o = trace(&dir.path().join("ok.osb"), &script, &[]);
        let st = steps(&stdout(&o));
        assert_eq!(st[1]["writes"][0]["node"], "/World", "{path:?}");
    }
}

#[test]
fn a_src_that_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "a.scene.xml",
        "<scene name=\"s\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" src=\"nothere.anim.xml\"/>\n</scene>\n",
    );
    build_fails(dir.path(), &scene, &[], "q16", (2, 3), &["/Hero", "nothere.anim.xml", "no such file"]);
    // A src that is not a sprite source.
    write(dir.path(), "t.json", r#"{"format":"ossicle-test/1","tests":[{"name":"a","values":[1]}]}"#);
    let scene = write(
        dir.path(),
        "b.scene.xml",
        "<scene name=\"s\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" src=\"t.json\"/>\n</scene>\n",
    );
    build_fails(dir.path(), &scene, &[], "q16", (2, 3), &["/Hero", "t.json", "not a sprite source"]);
}

#[test]
fn a_src_that_defines_no_sprite() {
    // Every sprite source defines exactly one sprite, so a src without sprite= can only fail to
    // define one: a test source holding only strings.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "strings.json", r#"{"format":"ossicle-test/1","strings":["a"]}"#);
    let scene = write(
        dir.path(),
        "a.scene.xml",
        "<scene name=\"s\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" src=\"strings.json\"/>\n</scene>\n",
    );
    build_fails(dir.path(), &scene, &[], "f32", (2, 3), &["/Hero", "strings.json", "defines no sprite"]);
}

#[test]
fn a_value_that_does_not_fit_q16() {
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "a.scene.xml",
        r#"<scene name="s">
  <node kind="Node2D" name="N"/>
  <node kind="Animator" name="A">
    <clip name="c" length="1">
      <track node="N" property="position.x">
        <key time="0" value="0"/>
        <key time="1" value="40000"/>
      </track>
    </clip>
  </node>
</scene>
"#,
    );
    build_fails(dir.path(), &scene, &[], "q16", (7, 9), &["40000", "q16"]);
    build_ok(&[&scene], &dir.path().join("f.osb"), "f32");
}

#[test]
fn two_scenes_with_one_name() {
    let dir = tempfile::tempdir().unwrap();
    let a =
        write(dir.path(), "a.scene.xml", "<scene name=\"level\">\n  <node kind=\"Node2D\" name=\"N\"/>\n</scene>\n");
    let b =
        write(dir.path(), "b.scene.xml", "<scene name=\"level\">\n  <node kind=\"Node2D\" name=\"M\"/>\n</scene>\n");
    // The second file is the one in error, at its name.
    let out = dir.path().join("out.osb");
    std::fs::write(&out, b"previous").unwrap();
    let o = ossicle(&["build", s(&a), s(&b), "-o", s(&out)]);
    let at = format!("{}:1:14: ", s(&b));
    assert_fails(&o, &[&at, "\"level\"", "a.scene.xml"]);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    // Without a name attribute the name is the file's: c.scene.xml is "c".
    let c = write(dir.path(), "c.scene.xml", "<scene>\n  <node kind=\"Node2D\" name=\"N\"/>\n</scene>\n");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let c2 = write(&sub, "c.scene.xml", "<scene>\n  <node kind=\"Node2D\" name=\"N\"/>\n</scene>\n");
    let o = ossicle(&["build", s(&c), s(&c2), "-o", s(&out)]);
    assert_fails(&o, &[&format!("{}:1:1: ", s(&c2)), "\"c\""]);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    no_temp_files_in(dir.path());
}

#[test]
fn scenes_sharing_a_sprite_source_build_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let hero = hero_sprite(dir.path());
    let text = |name: &str, src: &str| {
        format!(
            "<scene name=\"{name}\">\n  <node kind=\"AnimatedSprite\" name=\"Hero\" src=\"{src}\" animation=\"run\"/>\n  <node kind=\"AnimatedSprite\" name=\"Other\" src=\"./{src}\"/>\n</scene>\n"
        )
    };
    let a = write(dir.path(), "a.scene.xml", &text("a", "hero.anim.xml"));
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let b = write(&sub, "b.scene.xml", &text("b", "../hero.anim.xml"));
    let out = dir.path().join("x.osb");
    // Two scenes with the one sprite file, and the file itself as a third input.
    build_ok(&[&a, &b, &hero], &out, "q16");
    let o = ossicle(&["inspect", s(&out), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sprites"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(v["scenes"].as_array().map(Vec::len), Some(2));
    // Two different sprites called alike are still an error.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    hero_sprite(&other);
    let c = write(
        dir.path(),
        "c.scene.xml",
        "<scene name=\"c\">\n  <node kind=\"AnimatedSprite\" name=\"H\" src=\"other/hero.anim.xml\"/>\n</scene>\n",
    );
    let o = ossicle(&["build", s(&a), s(&c), "-o", s(&out)]);
    assert_fails(&o, &["a sprite called \"hero\" is already defined"]);
}

// ---------------------------------------------------------------------------------------------
// Bad trace scripts.

/// A built Animator and StateMachine blob (both examples in one scene file).
fn traced_blob(dir: &Path) -> PathBuf {
    hero_sprite(dir);
    let both = MACHINE_EXAMPLE
        .replace("</scene>", &ANIMATOR_EXAMPLE.replace("<scene name=\"bob\">\n", "").replace("</scene>\n", "</scene>"));
    let scene = write(dir, "both.scene.xml", &both);
    let out = dir.join("both.osb");
    build_ok(&[&scene], &out, "q16");
    out
}

/// Runs `script` whose line `line` is bad: exit 1, one line naming the script and the line, the
/// steps before it (`before` of them) complete on stdout.
fn trace_fails(dir: &Path, blob: &Path, script: &str, line: usize, before: usize, expect: &[&str]) {
    let path = write(dir, "bad.txt", script);
    let o = trace(blob, &path, &[]);
    let at = format!("bad.txt:line {line}: ");
    let mut all = vec![at.as_str()];
    all.extend(expect);
    assert_fails(&o, &all);
    let st = steps(&stdout(&o));
    assert_eq!(st.len(), before, "{:?}", stdout(&o));
    for (i, x) in st.iter().enumerate() {
        assert_eq!(x["step"], i + 1);
    }
}

#[test]
fn trace_script_errors_name_the_line_and_keep_the_steps_before() {
    let dir = tempfile::tempdir().unwrap();
    let blob = traced_blob(dir.path());
    let d = dir.path();
    trace_fails(d, &blob, "update 0.1\nfly Brain\n", 2, 1, &["unknown command \"fly\""]);
    trace_fails(d, &blob, "# comment\n\nupdate 0.1\nupdate\n", 4, 1, &["usage: update DT [N]"]);
    trace_fails(d, &blob, "update 0.1 2\nupdate 0.1 2 3\n", 2, 2, &["usage: update DT [N]"]);
    trace_fails(d, &blob, "update 0.1\nplay Anim\n", 2, 1, &["usage: play|restart ANIMATOR CLIP"]);
    trace_fails(d, &blob, "update 0.1\nseek Anim 1 2\n", 2, 1, &["usage: seek ANIMATOR T"]);
    trace_fails(d, &blob, "update 0.1\nstop Anim now\n", 2, 1, &["usage: stop ANIMATOR [reset]"]);
    trace_fails(d, &blob, "update 0.1\ntravel Brain\n", 2, 1, &["usage: travel MACHINE STATE"]);
    trace_fails(d, &blob, "update 0.1\nplay Nope bob\n", 2, 1, &["no Animator node \"Nope\""]);
    trace_fails(d, &blob, "update 0.1\nplay Brain bob\n", 2, 1, &["no Animator node \"Brain\""]);
    trace_fails(d, &blob, "update 0.1\nset Anim speed 1\n", 2, 1, &["no StateMachine node \"Anim\""]);
    trace_fails(d, &blob, "update 0.1\nset Brain nope 1\n", 2, 1, &["no parameter \"nope\""]);
    trace_fails(d, &blob, "update 0.1\ntravel Brain nope\n", 2, 1, &["no state \"nope\""]);
    trace_fails(d, &blob, "update 0.1\nplay Anim nope\n", 2, 1, &["no clip \"nope\""]);
    trace_fails(d, &blob, "update 0.1\nrestart /Anim nope\n", 2, 1, &["no clip \"nope\""]);
    // apply, seek and stop write a step of their own: a bad apply must not leave half of it.
    trace_fails(d, &blob, "update 0.1\nseek Anim 0.5\napply Anim nope 0.5\n", 3, 2, &["no clip \"nope\""]);
    trace_fails(d, &blob, "update 0.1\napply Nope bob 0.5\n", 2, 1, &["no Animator node \"Nope\""]);
    trace_fails(d, &blob, "update 0.1\nset Brain grounded 1\n", 2, 1, &["\"grounded\"", "Bool"]);
    trace_fails(d, &blob, "update 0.1\nset Brain speed fast\n", 2, 1, &["\"fast\" is not a number"]);
    // Numbers that are numbers, but out of range, say so (they were "not a number").
    trace_fails(d, &blob, "update 0.1\nset Brain speed 1e40\n", 2, 1, &["\"1e40\" is too large", "3.4e38"]);
    trace_fails(d, &blob, "update 1e300\n", 1, 0, &["\"1e300\" is too large"]);
    for count in ["-1", "100001", "99999999999", "two"] {
        let expect = format!("{count:?} is not a repeat count (a whole number from 0 to 100000)");
        trace_fails(d, &blob, &format!("update 0.1\nupdate 0.1 {count}\n"), 2, 1, &[expect.as_str()]);
    }
    trace_fails(d, &blob, "update 0.1\nset Brain jump 1\n", 2, 1, &["\"jump\"", "Trigger"]);
    trace_fails(d, &blob, "update 0.1\ntrigger Brain speed\n", 2, 1, &["\"speed\"", "Float"]);
    trace_fails(d, &blob, "update 0.1\nsprite Hero fly\n", 2, 1, &["no animation \"fly\""]);
    trace_fails(d, &blob, "update 0.1\nsprite Coin idle\n", 2, 1, &["no AnimatedSprite node", "\"Coin\""]);
    // The good lines work: the same script up to the bad one runs.
    let good = write(
        d,
        "good.txt",
        "update 0.1\nset Brain grounded true\ntravel Brain jump\nsprite Hero run\napply Anim bob 0.25\nupdate 0.1 2\n",
    );
    let o = trace(&blob, &good, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(steps(&stdout(&o)).len(), 7);
}

#[test]
fn a_step_with_too_many_events_is_an_error_without_half_a_line() {
    // 65 event keys at 0.5: the update that passes them queues more than the runner's 64.
    let dir = tempfile::tempdir().unwrap();
    let keys: String = (0..65).map(|i| format!("<key time=\"0.5\" value=\"e{i}\"/>")).collect();
    let scene = write(
        dir.path(),
        "m.scene.xml",
        &format!(
            "<scene name=\"m\">\n<node kind=\"Node2D\" name=\"N\"/>\n<node kind=\"Animator\" name=\"A\" autoplay=\"c\">\n<clip name=\"c\" length=\"1\">\n<track node=\"N\" property=\"position.x\"><key time=\"0\" value=\"0\"/><key time=\"1\" value=\"1\"/></track>\n<track property=\"event\">{keys}</track>\n</clip>\n</node>\n</scene>\n"
        ),
    );
    let out = dir.path().join("m.osb");
    build_ok(&[&scene], &out, "f32");
    trace_fails(dir.path(), &out, "update 0.25\nupdate 0.25\n", 2, 1, &["more than 64 events"]);
}

#[test]
fn trace_needs_a_scene() {
    let dir = tempfile::tempdir().unwrap();
    let script = write(dir.path(), "s.txt", "update 0.1\n");
    // A blob without a scene.
    let out = dir.path().join("f.osb");
    build_ok(&[&samples().join("foundation.json")], &out, "q16");
    let o = trace(&out, &script, &[]);
    assert_fails(&o, &["f.osb: ", "no scene"]);
    assert!(o.stdout.is_empty());
    // --scene naming a scene the blob does not hold: the message lists the ones it does.
    let blob = traced_blob(dir.path());
    let o = trace(&blob, &script, &["--scene", "nope"]);
    assert_fails(&o, &["both.osb: ", "no scene \"nope\"", "brain"]);
    assert!(o.stdout.is_empty());
    let o = trace(&blob, &script, &["--scene", "brain"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A script that does not exist.
    let o = trace(&blob, &dir.path().join("none.txt"), &[]);
    assert_fails(&o, &["none.txt", "no such file"]);
}
