//! A scene end to end, across targets: the QEMU scene image (`boards/qemu/src/bin/scene.rs`) runs
//! the castle (`samples/scenes/castle.scene.xml`, host-built in Q16.16 and f32) with the kernel's
//! scene runtime and trace runner over `samples/scenes/castle.script`, and prints the trace. This
//! test runs `ossicle trace` (`ossicle_host::trace::trace`) on the same blobs and script and
//! requires every machine's trace to equal the host's, line for line, byte for byte: Q16.16 is
//! integer arithmetic, and f32 uses IEEE-754 basic operations and the same libm code everywhere.
//!
//! `scripts/qemu/check.sh` builds the blobs, runs the image on the Cortex-M4F and the Cortex-M0 and
//! runs this test with:
//!
//! - `OSSICLE_QEMU_SCENE_OUTPUTS`: the image's outputs, a `:`-separated list of files (the file stem
//!   names the machine in messages);
//! - `OSSICLE_SCENE_Q16`, `OSSICLE_SCENE_F32`: the blobs the image embedded (when unset, the test
//!   builds them from the castle through the host, as `ossicle build --scalar q16|f32` does);
//!   `OSSICLE_SCENE_SCRIPT`: the script it embedded (default `samples/scenes/castle.script`);
//! - `OSSICLE_REQUIRE_QEMU=1`: missing outputs are a failure instead of a skip.
//!
//! The host's traces are also checked on their own (independently of QEMU): the script must keep
//! exercising what it is there for (autoplay, event keys at 0 and across a wrap, a non-looping
//! clip's end, seek and stop with reset, first match, trigger clearing, `after`, `onFinished`, `*`,
//! travel), and the Q16.16 and f32 traces must tell the same story.

use std::path::{Path, PathBuf};

use ossicle_conformance::repo_root;
use ossicle_format::ScalarEncoding;
use ossicle_host::write::{write_blob_with, WriteOptions};
use serde_json::Value;

const SCENE: &str = "samples/scenes/castle.scene.xml";
const SCRIPT: &str = "samples/scenes/castle.script";

/// The most events the trace runner accepts in one step (`ossicle::scene::trace`).
const MAX_EVENTS: usize = ossicle::scene::trace::MAX_EVENTS_PER_STEP;

/// The firmware's label, the blob's variable and its encoding.
const RUNS: [(&str, &str, ScalarEncoding); 2] =
    [("q16", "OSSICLE_SCENE_Q16", ScalarEncoding::Q16_16), ("f32", "OSSICLE_SCENE_F32", ScalarEncoding::F32)];

/// The blob the image embedded, or one built here as `ossicle build` builds it.
fn blob(var: &str, encoding: ScalarEncoding) -> Vec<u8> {
    if let Some(path) = std::env::var_os(var) {
        return std::fs::read(&path).unwrap_or_else(|e| panic!("{var}={}: {e}", Path::new(&path).display()));
    }
    let scene = repo_root().join(SCENE);
    let project = ossicle_host::sources::load_sources(&[&scene]).unwrap_or_else(|e| panic!("{SCENE}: {e}"));
    write_blob_with(&project, &WriteOptions::new(encoding)).unwrap_or_else(|e| panic!("{SCENE}: build: {e}")).0
}

/// The script's path and text.
fn script() -> (PathBuf, String) {
    let path = std::env::var_os("OSSICLE_SCENE_SCRIPT").map_or_else(|| repo_root().join(SCRIPT), PathBuf::from);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (path, text)
}

/// `ossicle trace` of the castle blob of `encoding`: the lines and the step count.
fn host_trace(var: &str, encoding: ScalarEncoding) -> (Vec<String>, u32) {
    let bytes = blob(var, encoding);
    let (script_path, script) = script();
    let mut out = String::new();
    let steps = ossicle_host::trace::trace(Path::new("castle.osb"), &bytes, None, &script_path, &script, &mut out)
        .unwrap_or_else(|e| panic!("ossicle trace ({encoding:?}): {e}\n(trace so far:\n{out})"));
    (out.lines().map(str::to_string).collect(), steps)
}

fn json(lines: &[String]) -> Vec<Value> {
    lines.iter().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

/// `(type, who, what)` of every event of a step, e.g. `("event", "Props", "tick")`,
/// `("entered", "Brain", "hurt")`, `("sprite_ended", "Knight", "step_once")`.
fn events(step: &Value) -> Vec<(String, String, String)> {
    let s = |e: &Value, k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    step["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| {
            let ty = s(e, "type");
            let who = [s(e, "animator"), s(e, "machine"), s(e, "node")].concat();
            let what = match ty.as_str() {
                "event" | "sprite_event" => s(e, "name"),
                "finished" => s(e, "clip"),
                "entered" | "exited" => s(e, "state"),
                _ => s(e, "animation"),
            };
            (ty, who, what)
        })
        .collect()
}

fn has(step: &Value, ty: &str, who: &str, what: &str) -> bool {
    events(step).iter().any(|(t, w, x)| t == ty && w == who && x == what)
}

/// The index of the first step whose op is `op` (after step index `from`).
fn find_op(steps: &[Value], op: &str, from: usize) -> usize {
    steps
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, s)| s["op"] == op)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no step {op:?} after step index {from}"))
}

#[test]
fn host_traces_exercise_the_rules_and_agree_across_encodings() {
    let q16 = json(&host_trace("OSSICLE_SCENE_Q16", ScalarEncoding::Q16_16).0);
    let f32 = json(&host_trace("OSSICLE_SCENE_F32", ScalarEncoding::F32).0);
    assert!((40..=80).contains(&q16.len()), "{} steps", q16.len());
    for (i, s) in q16.iter().enumerate() {
        assert_eq!(s["step"], i + 1);
        let n = s["events"].as_array().map_or(0, Vec::len);
        assert!(n <= MAX_EVENTS, "step {}: {n} events", i + 1);
    }
    // The two encodings: the same steps, ops, writes (node, property), and Animator and machine
    // events, in order. (Sprite frames may change one update apart: the coin's 0.1 s frames are
    // 0.100006 s in Q16.16, so an update that ends exactly on a frame boundary in f32 does not.)
    assert_eq!(q16.len(), f32.len());
    let story = |s: &Value| events(s).into_iter().filter(|e| !e.0.starts_with("sprite_")).collect::<Vec<_>>();
    for (a, b) in q16.iter().zip(&f32) {
        assert_eq!(a["op"], b["op"], "step {}", a["step"]);
        assert_eq!(story(a), story(b), "step {}: events", a["step"]);
        let targets = |s: &Value| {
            s["writes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| (w["node"].clone(), w["property"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(targets(a), targets(b), "step {}: writes", a["step"]);
    }
    let s = &q16;
    // Autoplay: Props' event key at 0 and the machine's start state fire in the first update.
    assert!(has(&s[0], "event", "Props", "tick") && has(&s[0], "entered", "Brain", "idle"));
    assert_eq!(s[0]["writes"].as_array().unwrap().len(), 7, "both Animators write every track");
    // Slide's non-looping clip ends once; "idle" passes its key at 1 and wraps within one update.
    assert_eq!(s.iter().filter(|x| has(x, "finished", "Slide", "in")).count(), 1);
    let wrap = find_op(s, "update 1.2", 0);
    assert_eq!(
        events(&s[wrap])
            .iter()
            .filter(|(t, w, _)| t == "event" && w == "Props")
            .map(|e| e.2.as_str())
            .collect::<Vec<_>>(),
        ["tock", "tick"]
    );
    // "open": its key at the end fires, then Finished.
    let open = find_op(s, "play Props open", 0);
    assert!(s[open..open + 4]
        .iter()
        .any(|x| has(x, "event", "Props", "door_open") && has(x, "finished", "Props", "open")));
    // seek writes every track and fires nothing; stop reset writes the first keys.
    let seek = find_op(s, "seek Props 1.5", 0);
    assert_eq!((s[seek]["writes"].as_array().unwrap().len(), s[seek]["events"].as_array().unwrap().len()), (3, 0));
    let stop = &s[find_op(s, "stop Props reset", 0)];
    assert_eq!(stop["writes"][0]["value"], serde_json::json!([40, 96]), "the platform's first key");
    // Both triggers set: hurt is listed first and wins; the jump trigger survives and is taken next.
    let both = find_op(s, "trigger Brain jump", find_op(s, "trigger Brain hurt", 0)) + 1;
    assert!(has(&s[both], "entered", "Brain", "hurt") && !has(&s[both], "entered", "Brain", "jump"));
    assert!(has(&s[both + 1], "exited", "Brain", "hurt") && has(&s[both + 1], "entered", "Brain", "jump"));
    // onFinished: hurt -> idle in the update where step_once ends, not before.
    let ended = s.iter().position(|x| has(x, "sprite_ended", "Knight", "step_once")).expect("step_once ends");
    assert!(has(&s[ended], "exited", "Brain", "hurt") && has(&s[ended], "entered", "Brain", "idle"));
    // travel to the current state re-enters it.
    let again = find_op(s, "travel Brain jump", find_op(s, "travel Brain jump", 0) + 1) + 1;
    assert!(has(&s[again], "exited", "Brain", "jump") && has(&s[again], "entered", "Brain", "jump"));
}

/// What one run of the image printed: per type, its trace lines and step count; errors; `ok`.
#[derive(Debug, Default, PartialEq)]
struct Printed {
    traces: Vec<(String, Vec<String>, Option<u32>)>,
    errors: Vec<String>,
    stack: Option<String>,
    ok: bool,
}

fn parse(text: &str) -> Printed {
    let mut p = Printed::default();
    let mut open: Option<usize> = None;
    for line in text.lines() {
        if let Some(k) = open {
            if let Some(steps) = line.strip_prefix("trace ").and_then(|r| r.split_once(" end: ")) {
                p.traces[k].2 = steps.1.strip_suffix(" steps").and_then(|n| n.parse().ok());
                open = None;
            } else if line.starts_with("trace ") && line.contains(" error: ") {
                p.errors.push(line.to_string());
                open = None;
            } else {
                p.traces[k].1.push(line.to_string());
            }
            continue;
        }
        if let Some(ty) = line.strip_prefix("trace ").and_then(|r| r.strip_suffix(" begin")) {
            p.traces.push((ty.to_string(), Vec::new(), None));
            open = Some(p.traces.len() - 1);
        } else if line.starts_with("stack: ") {
            p.stack = Some(line.to_string());
        } else if line == "ok" {
            p.ok = true;
        } else if line.contains("error") || line == "hard fault" || line.starts_with("panic") {
            p.errors.push(line.to_string());
        }
    }
    if open.is_some() {
        p.errors.push("a trace did not end".into());
    }
    p
}

#[test]
fn parses_the_scene_image_output() {
    let p = parse(
        "scene q16 bytes 2928 capacity 16 nodes 4 controllers 8 params\ntrace q16 begin\n{\"step\":1}\n{\"step\":2}\n\
         trace q16 end: 2 steps\ntrace f32 begin\n{\"step\":1}\ntrace f32 error: script line 3: usage\n\
         stack: 100 of 16384 bytes used (q16 90, f32 100)\nok\n",
    );
    assert_eq!(
        p.traces,
        vec![
            ("q16".to_string(), vec!["{\"step\":1}".to_string(), "{\"step\":2}".to_string()], Some(2)),
            ("f32".to_string(), vec!["{\"step\":1}".to_string()], None),
        ]
    );
    assert_eq!(p.errors, vec!["trace f32 error: script line 3: usage".to_string()]);
    assert!(p.ok && p.stack.is_some());
    assert_eq!(parse("trace q16 begin\n{}\n").errors, vec!["a trace did not end".to_string()]);
}

#[test]
fn qemu_scene_traces_match_the_host() {
    let required = std::env::var("OSSICLE_REQUIRE_QEMU").is_ok_and(|v| v == "1");
    let outputs: Vec<PathBuf> = std::env::var_os("OSSICLE_QEMU_SCENE_OUTPUTS")
        .map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect())
        .unwrap_or_default();
    if outputs.is_empty() {
        let msg = "no QEMU scene image output: run scripts/qemu/check.sh (it sets OSSICLE_QEMU_SCENE_OUTPUTS)";
        assert!(!required, "{msg} (required because OSSICLE_REQUIRE_QEMU=1)");
        eprintln!("skipping: {msg}");
        return;
    }
    let host: Vec<(&str, Vec<String>, u32)> = RUNS
        .iter()
        .map(|(ty, var, encoding)| {
            let (lines, steps) = host_trace(var, *encoding);
            (*ty, lines, steps)
        })
        .collect();
    let mut failures = Vec::new();
    for path in &outputs {
        let machine = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let printed = parse(&text);
        if !printed.ok {
            failures.push(format!("{machine}: the image did not finish with `ok`"));
        }
        failures.extend(printed.errors.iter().map(|e| format!("{machine}: {e}")));
        let types: Vec<&str> = printed.traces.iter().map(|t| t.0.as_str()).collect();
        if types != ["q16", "f32"] {
            failures.push(format!("{machine}: traces {types:?}, expected [\"q16\", \"f32\"]"));
        }
        for (ty, want, steps) in &host {
            let Some((_, got, got_steps)) = printed.traces.iter().find(|t| t.0 == *ty) else { continue };
            if got_steps != &Some(*steps) {
                failures.push(format!("{machine} {ty}: {got_steps:?} steps, the host {steps}"));
            }
            if got == want {
                eprintln!("{machine} {ty}: {} trace lines identical to the host's", want.len());
                continue;
            }
            let mut diff = Vec::new();
            for k in 0..got.len().max(want.len()) {
                match (got.get(k), want.get(k)) {
                    (Some(a), Some(b)) if a == b => {}
                    (a, b) => diff.push(format!(
                        "line {}:\n    firmware {}\n    host     {}",
                        k + 1,
                        a.map_or("-", String::as_str),
                        b.map_or("-", String::as_str)
                    )),
                }
            }
            diff.truncate(5);
            failures.push(format!("{machine} {ty}: the trace differs from the host's:\n  {}", diff.join("\n  ")));
        }
        if let Some(stack) = &printed.stack {
            eprintln!("{machine}: {stack}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
