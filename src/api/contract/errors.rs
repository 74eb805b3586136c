//! Every error status an API operation answers, declared with the problem schema and the codes
//! it carries (rather than a blanket `4XX`).

use serde_json::{Value, json};

use crate::api::problem::{ErrorCode, PROBLEM_JSON};

/// The statuses any operation under `/api` may answer with a problem, by method: a POST reads a
/// body (400, 413, 415, 422); every operation may meet a bug (500).
fn statuses(method: &str) -> &'static [u16] {
    match method {
        "post" => &[400, 413, 415, 422, 500],
        _ => &[500],
    }
}

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
            for status in statuses(method) {
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
        .filter(|code| code.status().as_u16() == status)
        .map(|code| format!("`{}`", code.as_str()))
        .collect();
    json!({
        "description": format!("A problem: {}", codes.join(", ")),
        "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    })
}
