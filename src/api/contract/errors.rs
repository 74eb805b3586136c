//! Every error status an API operation answers, declared with the problem schema and the codes
//! it carries (rather than a blanket `4XX`).

use serde_json::{Value, json};

use crate::api::problem::{ErrorCode, PROBLEM_JSON};

/// The statuses an operation under `/api` may answer with a problem: a POST or a PUT reads a
/// body (400, 408 when it arrives too slowly, 413, 415, 422); `evaluate` also keeps each client
/// to its share (429); a picture or animation of a link refuses a bad parameter or move (422); every
/// operation refuses a request target over the server's limit (414) and may meet a bug (500).
fn statuses(path: &str, method: &str) -> &'static [u16] {
    match method {
        "post" if path.ends_with("/evaluate") => &[400, 408, 413, 414, 415, 422, 429, 500],
        "post" | "put" => &[400, 408, 413, 414, 415, 422, 500],
        "get" if path.ends_with("/picture") || path.ends_with("/animation") => &[414, 422, 500],
        _ => &[414, 500],
    }
}

/// The contract of a 422, beyond its codes: what the schema cannot state.
const UNPROCESSABLE: &str = ".\n\n422 is the answer to a request that is well-formed, as this \
document describes requests, but breaks a rule of the game that no schema can state: a move \
that is not legal in this position (`illegal_move`, `rule` and `rule_url` name the rule), a \
point or hill that is not on this board, a state whose members contradict each other or that no \
game reaches (`invalid_state`, `field`), a record that does not read (`invalid_record`, \
`line`), a move after the end (`game_over`). The body names the rule or the member at fault.";

pub fn declare(document: &mut Value) {
    let Some(paths) = document["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        if !path.starts_with("/api/") {
            continue;
        }
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in operations.iter_mut() {
            let Some(responses) = operation["responses"].as_object_mut() else {
                continue;
            };
            responses.remove("4XX");
            for status in statuses(path, method) {
                responses
                    .entry(status.to_string())
                    .or_insert_with(|| problem_response(*status));
            }
        }
    }
}

fn problem_response(status: u16) -> Value {
    let codes: Vec<String> = ErrorCode::ALL
        .iter()
        // A bad query is answered by the one operation that reads a query's filters, which
        // declares it itself: a body's 400 is never it.
        .filter(|code| code.status().as_u16() == status && **code != ErrorCode::InvalidQuery)
        .map(|code| format!("`{}`", code.as_str()))
        .collect();
    let mut description = format!("A problem: {}", codes.join(", "));
    if status == 422 {
        description.push_str(UNPROCESSABLE);
    }
    json!({
        "description": description,
        "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    })
}
