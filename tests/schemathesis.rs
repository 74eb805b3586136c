//! The schema fuzzer over the served document: schemathesis (pinned, installed by
//! `scripts/test`) generates requests from `/api-docs/openapi.json` and runs every check against
//! a server started here: no 5xx, every answer and status as documented, requests the schema
//! refuses are refused, and a request the schema allows is refused only for a rule of the game
//! that no schema can state (`tests/schemathesis/hooks.py` says which).
//!
//! A short seeded run: a few examples an operation. The longer run is in docs/api.md ("Schema
//! fuzzing"), its last result in docs/measurements/.

use std::path::Path;
use std::process::Command;

#[path = "common/ports.rs"]
mod ports;
use ports::{free_port, moot};

#[test]
fn schemathesis_finds_no_gap_between_the_document_and_the_server() {
    let port = free_port();
    // One client sends every request: the per-client rate would refuse most evaluations (429,
    // which the check takes as no refusal, and so tests less).
    let server = moot(port, &["--client-every-ms", "0"]);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemathesis");
    // schemathesis writes its reports where it runs: somewhere of its own.
    let scratch = std::env::temp_dir().join(format!("moot-schemathesis-{port}"));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    let output = Command::new("schemathesis")
        .arg("--config-file")
        .arg(config.join("schemathesis.toml"))
        .args([
            "run",
            &format!("http://127.0.0.1:{port}/api-docs/openapi.json"),
            "--max-examples",
            "15",
            "--seed",
            "1",
            "--workers",
            "1",
        ])
        .env("SCHEMATHESIS_HOOKS", config.join("hooks.py"))
        .env("NO_COLOR", "1")
        .current_dir(&scratch)
        .output()
        .unwrap_or_else(|e| {
            panic!("schemathesis could not run ({e}): scripts/test installs it (pip)")
        });
    drop(server);
    let _ = std::fs::remove_dir_all(&scratch);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "schemathesis found a gap:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Every operation of the document was tested (the hooks module loaded: a missing one
    // fails the run above).
    let count = |label: &str| {
        stdout
            .lines()
            .find_map(|line| line.trim().strip_prefix(label))
            .map(|rest| rest.rsplit('/').next().unwrap_or(rest).trim().to_owned())
    };
    let selected = count("Selected:").expect("schemathesis names the operations selected");
    assert_eq!(count("Tested:"), Some(selected), "{stdout}");
}
