//! The command lines of `moot-load`, `moot-attack` and `moot-tables`: a run is bounded, and
//! says when no server answers or none can be started.

use std::process::{Command, Output};

fn run(binary: &str, args: &[&str]) -> Output {
    Command::new(binary)
        .args(args)
        .output()
        .expect("the command runs")
}

#[test]
fn load_is_bounded_and_says_when_no_server_answers() {
    let load = env!("CARGO_BIN_EXE_moot-load");
    let output = run(load, &["--seconds", "301"]);
    assert!(!output.status.success(), "an unbounded run was accepted");
    // Port 9 (discard) on localhost: nothing serves there.
    let output = run(load, &["--url", "http://127.0.0.1:9", "--seconds", "1"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no server answers"), "{stderr}");
}

#[test]
fn attack_says_when_the_server_cannot_be_started() {
    let output = run(
        env!("CARGO_BIN_EXE_moot-attack"),
        &["--server", "/nonexistent", "--seconds", "1"],
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the server could not be started") && stderr.contains("/nonexistent"),
        "{stderr}"
    );
}

#[test]
fn attack_refuses_more_than_300_seconds_before_starting_anything() {
    let output = run(
        env!("CARGO_BIN_EXE_moot-attack"),
        &["--server", "/nonexistent", "--seconds", "301"],
    );
    assert!(!output.status.success(), "an unbounded run was accepted");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--seconds"), "{stderr}");
    assert!(!stderr.contains("could not be started"), "{stderr}");
}

#[test]
fn tables_is_bounded_and_says_when_no_server_answers() {
    let tables = env!("CARGO_BIN_EXE_moot-tables");
    let output = run(tables, &["--seconds", "301"]);
    assert!(!output.status.success(), "an unbounded run was accepted");
    let output = run(tables, &["--base", "http://127.0.0.1:9", "--seconds", "1"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is Moot serving there"), "{stderr}");
}
