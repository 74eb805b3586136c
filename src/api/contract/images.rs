//! Image answers declare what they are: bytes (`type: string`, `format: binary`), so a
//! generated client reads a picture as a blob or a file, never as JSON or text.

use serde_json::{Value, json};

pub fn binary(document: &mut Value) {
    for (media_type, content) in super::answer_contents(document) {
        if media_type.starts_with("image/") {
            content["schema"] = json!({"type": "string", "format": "binary"});
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
