//! Generated clients, checked: the Python and TypeScript programs in `examples/` are built on
//! clients generated from the committed `openapi/openapi.json`, type-checked (`tsc --strict`),
//! and play the three games through a server started here on a free port, then a whole game
//! at a table the server keeps, each seat with its own credential.
//!
//! The generators are installed by `scripts/test` (pinned: `openapi-python-client` from PyPI,
//! `openapi-typescript`, `openapi-fetch` and `typescript` from `examples/typescript`'s
//! package-lock.json).

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[path = "common/ports.rs"]
mod ports;
use ports::{Running, free_port, moot};

/// The server, stopped when dropped.
struct Server {
    _process: Running,
    url: String,
}

fn start_server() -> Server {
    let port = free_port();
    // The clients play as a site's backend would: one address asking for every move, which a
    // site running its own Moot exempts from the per-client rate.
    let process = moot(port, &["--client-every-ms", "0"]);
    Server {
        _process: process,
        url: format!("http://127.0.0.1:{port}"),
    }
}

/// Runs a tool in `dir`, failing the test with its output, or with `advice` when it is missing.
fn run(dir: &Path, program: &str, args: &[&str], advice: &str) -> String {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{program} could not run ({e}): {advice}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{program} {args:?} failed in {}:\n{stdout}\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn example(name: &str) -> PathBuf {
    Path::new(ROOT).join("examples").join(name)
}

/// What both programs print when they played everything.
fn assert_played(language: &str, output: &str) {
    for game in ["herfor:", "tara:", "hirth: 6 turns", "table:"] {
        assert!(output.contains(game), "{language}: no {game} in\n{output}");
    }
}

#[test]
fn the_generated_python_client_plays_the_three_games() {
    let dir = example("python");
    let advice =
        "install the generator: pip install openapi-python-client==0.29.1 (scripts/test does)";
    let _ = std::fs::remove_dir_all(dir.join("moot_client"));
    run(
        &dir,
        "openapi-python-client",
        &[
            "generate",
            "--path",
            "../../openapi/openapi.json",
            "--meta",
            "none",
            "--output-path",
            "moot_client",
        ],
        advice,
    );
    let server = start_server();
    let output = run(&dir, "python3", &["play.py", &server.url], advice);
    assert_played("python", &output);
}

#[test]
fn the_generated_typescript_client_type_checks_and_plays_the_three_games() {
    let dir = example("typescript");
    let advice = "install the pinned tools: cd examples/typescript && npm ci (scripts/test does)";
    assert!(
        dir.join("node_modules/.bin/tsc").exists(),
        "no TypeScript compiler: {advice}"
    );
    run(&dir, "npm", &["run", "--silent", "generate"], advice);
    run(&dir, "npm", &["run", "--silent", "build"], advice);
    let server = start_server();
    let output = run(&dir, "node", &["dist/play.js", &server.url], advice);
    assert_played("typescript", &output);
}
