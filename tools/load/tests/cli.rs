//! The `moot-load` command line: a run is bounded, and says when no server answers.

use std::process::Command;

#[test]
fn load_is_bounded_and_says_when_no_server_answers() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_moot-load"))
            .args(args)
            .output()
            .expect("moot-load runs")
    };
    let output = run(&["--seconds", "301"]);
    assert!(!output.status.success(), "an unbounded run was accepted");
    // Port 9 (discard) on localhost: nothing serves there.
    let output = run(&["--url", "http://127.0.0.1:9", "--seconds", "1"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no server answers"), "{stderr}");
}
