//! Descriptions for people reading the document, not rustdoc: Rust's intra-doc links
//! (`` [`Hill::UNKNOWN`] ``) lose their brackets and keep their code span.

use serde_json::Value;

pub fn plain_descriptions(document: &mut Value) {
    match document {
        Value::Object(members) => {
            for (key, value) in members.iter_mut() {
                match value {
                    Value::String(text) if key == "description" || key == "summary" => {
                        *text = without_doc_links(text);
                    }
                    _ => plain_descriptions(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

/// `` [`X`] `` and `` [`X`](path) `` become `` `X` ``; other brackets (`H3i[Kii]`) stay.
pub fn without_doc_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        let Some(length) = rest[start + 2..].find("`]") else {
            break;
        };
        out.push_str(&rest[..start]);
        let code = &rest[start + 1..start + 2 + length + 1];
        out.push_str(code);
        rest = &rest[start + 2 + length + 2..];
        if rest.starts_with('(')
            && let Some(end) = rest.find(')')
        {
            rest = &rest[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_links_become_code_and_notation_stays() {
        assert_eq!(
            without_doc_links("names off the grid become [`Hill::UNKNOWN`]; `H3i[Kii]` boards"),
            "names off the grid become `Hill::UNKNOWN`; `H3i[Kii]` boards"
        );
        assert_eq!(
            without_doc_links("see [`Game`](moot_games::Game) and [`Seat`]."),
            "see `Game` and `Seat`."
        );
    }
}
