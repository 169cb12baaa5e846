//! The `ossicle` CLI on good and bad input: one-line errors that name the cause, a non-zero exit,
//! and never an output file from a failed build (an existing one stays untouched).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ossicle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossicle")).args(args).output().expect("run ossicle")
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/foundation.json")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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

fn no_temp_files_in(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "temporary files left: {left:?}");
}

#[test]
fn build_then_inspect() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.osb");
    let o = ossicle(&["build", sample().to_str().unwrap(), "-o", out.to_str().unwrap(), "--scalar", "f32"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ossicle(&["inspect", out.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["encoding"], "f32");
    assert_eq!(v["tests"][1]["name"], "unit");
    // 0.1 as f32 is 0.100000001490116119384765625.
    assert_eq!(v["tests"][1]["values"][2].as_f64(), Some(f64::from(0.1f32)));
    let o = ossicle(&["inspect", out.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("f32 scalars") && text.contains("test \"angles\" (18 values)"), "{text}");
    no_temp_files_in(dir.path());
}

#[test]
fn build_help_names_the_sources_build_reads() {
    let o = ossicle(&["build", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = String::from_utf8_lossy(&o.stdout);
    for kind in [".eva", ".evac", ".aseprite", "TexturePacker", ".anim.xml", "Unity", "folders of numbered PNGs"] {
        assert!(help.contains(kind), "build --help does not name {kind}: {help}");
    }
}

#[test]
fn missing_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.osb");
    let o = ossicle(&["build", "does-not-exist.json", "-o", out.to_str().unwrap()]);
    assert_fails(&o, &["does-not-exist.json", "no such file"]);
    assert!(!out.exists());
}

#[test]
fn unreadable_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.osb");
    // A directory is read as a folder of numbered PNGs; this one has none.
    let sub = dir.path().join("src.json");
    std::fs::create_dir(&sub).unwrap();
    let o = ossicle(&["build", sub.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_fails(&o, &["src.json", "no numbered PNG frames"]);
    // A path through a regular file.
    let file = dir.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    let o = ossicle(&["build", file.join("a.json").to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_fails(&o, &["plain/a.json", "directory"]);
    // No read permission (root reads anyway, so only checked for other users).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.path().join("locked.json");
        std::fs::copy(sample(), &locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::read(&locked).is_err() {
            let o = ossicle(&["build", locked.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            assert_fails(&o, &["locked.json", "permission denied"]);
        }
    }
    assert!(!out.exists());
}

#[test]
fn malformed_source_leaves_existing_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.osb");
    std::fs::write(&out, b"previous").unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\n  \"format\": \"ossicle-test/1\",\n  \"tests\": [ { \"name\": \"a\", \"values\": [1, ] } ]\n}\n",
    )
    .unwrap();
    let o = ossicle(&["build", bad.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_fails(&o, &["bad.json:3:43:", "trailing comma"]);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    // A value that does not fit Q16.16: the place is a JSON pointer to the value.
    std::fs::write(&bad, r#"{"format":"ossicle-test/1","tests":[{"name":"a","values":[1, 40000]}]}"#).unwrap();
    let o = ossicle(&["build", bad.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_fails(&o, &["bad.json:/tests/0/values/1:", "40000", "q16"]);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    // The same value is fine in f32.
    let o = ossicle(&["build", bad.to_str().unwrap(), "-o", out.to_str().unwrap(), "--scalar", "f32"]);
    assert!(o.status.success(), "{}", stderr(&o));
    no_temp_files_in(dir.path());
}

#[test]
fn missing_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nope/f.osb");
    let o = ossicle(&["build", sample().to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_fails(&o, &["nope/f.osb", "output directory", "does not exist"]);
    assert!(!out.exists());
}

#[test]
fn unknown_source_type() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("x.yaml");
    std::fs::write(&src, "a: 1").unwrap();
    let o = ossicle(&["build", src.to_str().unwrap(), "-o", dir.path().join("f.osb").to_str().unwrap()]);
    assert_fails(&o, &["x.yaml", "unknown source type", ".yaml"]);
    // The list of what build reads names every kind, scenes too.
    for kind in [".aseprite", "TexturePacker", ".anim.xml", "scenes (.xml", ".eva", ".evac", "Unity", "PNGs"] {
        assert!(stderr(&o).contains(kind), "the list lacks {kind:?}: {}", stderr(&o));
    }
}

#[test]
fn inspect_refuses_corrupt_blobs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.osb");
    assert!(ossicle(&["build", sample().to_str().unwrap(), "-o", out.to_str().unwrap()]).status.success());
    let mut bytes = std::fs::read(&out).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x10;
    let bad = dir.path().join("bad.osb");
    std::fs::write(&bad, &bytes).unwrap();
    let o = ossicle(&["inspect", bad.to_str().unwrap()]);
    assert_fails(&o, &["bad.osb:byte 12:", "CRC-32"]);
    bytes[4] = 8;
    std::fs::write(&bad, &bytes).unwrap();
    let o = ossicle(&["inspect", bad.to_str().unwrap()]);
    assert_fails(&o, &["bad.osb:byte 4:", "version 8", "versions 1 to 7"]);
    std::fs::write(&bad, b"hello").unwrap();
    let o = ossicle(&["inspect", bad.to_str().unwrap()]);
    assert_fails(&o, &["bad.osb:", "shorter than the 16-byte header"]);
}

/// Runs `ossicle ARGS` with its standard output a pipe whose reading end is already closed (as
/// `ossicle … | head` leaves it once `head` has read enough): every write fails with a broken pipe.
fn with_closed_stdout(args: &[&str]) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ossicle"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ossicle");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for ossicle")
}

#[test]
fn closed_standard_output_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let (blob, skel) = (dir.path().join("f.osb"), dir.path().join("s.osb"));
    let built = ossicle(&["build", sample().to_str().unwrap(), "-o", blob.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    let eva = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/two_bones.eva");
    let built = ossicle(&["build", eva.to_str().unwrap(), "-o", skel.to_str().unwrap(), "--scalar", "f32"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let runs: [&[&str]; 3] = [
        &["inspect", blob.to_str().unwrap()],
        &["inspect", blob.to_str().unwrap(), "--json"],
        &["sample", skel.to_str().unwrap(), "--clip", "wave", "--at", "0,0.1,0.2", "--json"],
    ];
    for args in runs {
        let o = with_closed_stdout(args);
        // Before: `println!` panicked ("failed printing to stdout: Broken pipe"), exit code 101.
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
    }
}
