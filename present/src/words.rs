//! Words the pages share, with no game of their own: a colour or an option named as a
//! heading (`capitalised`), and an engine's score as rows of words (`score_rows`).

use serde_json::Value;

/// The engine's score breakdown as rows of words: every member, nested ones by their path.
pub fn score_rows<S: serde::Serialize>(score: &S) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    if let Ok(value) = serde_json::to_value(score) {
        flatten("", &value, &mut rows);
    }
    rows
}

fn flatten(path: &str, value: &Value, rows: &mut Vec<(String, String)>) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let words = name.replace('_', " ");
                let path = if path.is_empty() {
                    capitalised(&words)
                } else {
                    format!("{path}, {words}")
                };
                flatten(&path, member, rows);
            }
        }
        Value::Null => rows.push((path.to_owned(), "—".to_owned())),
        Value::Bool(b) => rows.push((path.to_owned(), if *b { "yes" } else { "no" }.to_owned())),
        Value::String(s) => rows.push((path.to_owned(), s.clone())),
        Value::Array(items) => {
            let words: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect();
            rows.push((path.to_owned(), words.join(", ")));
        }
        Value::Number(n) => rows.push((path.to_owned(), n.to_string())),
    }
}

/// `word` with its first letter in upper case (`gull` → `Gull`), as the pages name colours.
pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_rows_flatten_nested_members_in_words() {
        let score = serde_json::json!({"black_total": 5.5, "button": null, "points": {"red": 3}, "won": true});
        assert_eq!(
            score_rows(&score),
            [
                ("Black total".to_owned(), "5.5".to_owned()),
                ("Button".to_owned(), "—".to_owned()),
                ("Points, red".to_owned(), "3".to_owned()),
                ("Won".to_owned(), "yes".to_owned()),
            ]
        );
    }
}
