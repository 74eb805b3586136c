//! Image answers declare what they are: bytes (`type: string`, `format: binary`), so a
//! generated client reads a picture as a blob or a file, never as JSON or text.

use serde_json::{Value, json};

pub fn binary(document: &mut Value) {
    let Some(paths) = document["paths"].as_object_mut() else {
        return;
    };
    let answers = paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses"))
        .filter_map(Value::as_object_mut)
        .flat_map(|responses| responses.values_mut());
    for answer in answers {
        // `get_mut`, not indexing: a 304 has no content, and must not get a `null` one.
        let Some(contents) = answer.get_mut("content").and_then(Value::as_object_mut) else {
            continue;
        };
        for (media_type, content) in contents.iter_mut() {
            if media_type.starts_with("image/") {
                content["schema"] = json!({"type": "string", "format": "binary"});
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_image_answer_is_binary() {
        let mut document = json!({"paths": {"/p": {"get": {"responses": {"200": {"content": {
            "image/png": {}, "image/svg+xml": {}}}, "422": {"content": {
            "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}}}}});
        binary(&mut document);
        let responses = &document["paths"]["/p"]["get"]["responses"];
        for media_type in ["image/png", "image/svg+xml"] {
            assert_eq!(
                responses["200"]["content"][media_type]["schema"],
                json!({"type": "string", "format": "binary"})
            );
        }
        assert!(
            responses["422"]["content"]["application/problem+json"]["schema"]["$ref"].is_string()
        );
    }
}
