//! The `moot` binary's command line: the arena refuses budgets it cannot honour.

use std::process::Command;

fn arena(budget: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_moot"))
        .args([
            "arena", "--game", "herfor", "--first", "mcts", "--second", "random",
        ])
        .args(["--games", "2", "--options", r#"{"size":3,"pie":false}"#])
        .args(budget)
        .output()
        .expect("moot runs")
}

#[test]
fn arena_refuses_a_zero_playout_or_millisecond_budget() {
    for flag in ["--budget", "--millis"] {
        let output = arena(&[flag, "0"]);
        assert!(!output.status.success(), "{flag} 0 was accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(flag), "{flag}: {stderr}");
    }
    let output = arena(&["--budget", "5"]);
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("mcts(5 playouts)"));
}

#[test]
fn load_is_bounded_and_says_when_no_server_answers() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_moot"))
            .arg("load")
            .args(args)
            .output()
            .expect("moot runs")
    };
    let output = run(&["--seconds", "301"]);
    assert!(!output.status.success(), "an unbounded run was accepted");
    // Port 9 (discard) on localhost: nothing serves there.
    let output = run(&["--url", "http://127.0.0.1:9", "--seconds", "1"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no server answers"), "{stderr}");
}
