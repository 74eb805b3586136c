//! The `moot-lab` command line: the arena refuses budgets it cannot honour; the ladder rates
//! agents and refuses what it cannot play; the solver stops at its limits.

use std::process::Command;

fn arena(budget: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_moot-lab"))
        .args([
            "arena", "--game", "herfor", "--first", "mcts", "--second", "random",
        ])
        .args(["--games", "2", "--options", r#"{"size":3,"pie":false}"#])
        .args(budget)
        .output()
        .expect("moot-lab runs")
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

fn ladder(agents: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_moot-lab"))
        .args(["ladder", "--game", "herfor", "--agents", agents])
        .args(["--games", "6", "--options", r#"{"size":3,"pie":false}"#])
        .output()
        .expect("moot-lab runs")
}

#[test]
fn ladder_rates_every_agent_and_lists_every_pair() {
    let output = ladder("random,greedy,mcts:20");
    assert!(output.status.success(), "{output:?}");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("| random | 0 | anchor |"), "{table}");
    for row in ["| greedy | ", "| mcts:20 | "] {
        assert!(table.contains(row), "{row} missing: {table}");
    }
    for pair in ["random vs greedy", "random vs mcts:20", "greedy vs mcts:20"] {
        assert!(table.contains(pair), "{pair} missing: {table}");
    }
    // Two steps between the three agents by rating, each with its interval.
    let steps = table
        .lines()
        .filter(|line| line.contains(" over ") && line.contains(" to "))
        .count();
    assert_eq!(steps, 2, "{table}");
}

#[test]
fn ladder_refuses_unknown_repeated_or_too_few_agents() {
    for (agents, says) in [
        ("random,expert", "\"expert\" is not an agent"),
        ("random,random", "listed twice"),
        ("random", "at least two agents"),
    ] {
        let output = ladder(agents);
        assert!(!output.status.success(), "{agents} was accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{agents}: {stderr}");
    }
}

#[test]
fn solve_stops_at_its_limits_and_refuses_boards_over_size_4() {
    let solve = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_moot-lab"))
            .arg("solve")
            .args(args)
            .output()
            .expect("moot-lab runs")
    };
    let output = solve(&["--size", "4", "--max-positions", "1000"]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("not solved within the limits") && stdout.contains("(1000 searched)"),
        "{stdout}"
    );
    let output = solve(&["--size", "5"]);
    assert!(!output.status.success(), "size 5 was accepted");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("up to size 4"), "{stderr}");
}
