//! Unsigned integers with their exact ranges. utoipa (with `non_strict_integers`) writes a
//! Rust `u8` as format `uint8`; the document says `minimum: 0, maximum: 255` instead, which
//! every validator and generator understands, keeping any narrower range an attribute declared.

use serde_json::{Value, json};

/// The largest integer JavaScript represents exactly (2^53 − 1): `u64` members are declared
/// no larger, so that every client can hold them.
pub const JS_SAFE_MAX: u64 = (1 << 53) - 1;

pub fn exact_ranges(document: &mut Value) {
    match document {
        Value::Object(members) => {
            let range = members
                .get("format")
                .and_then(Value::as_str)
                .and_then(range);
            if let Some((maximum, format)) = range {
                members.entry("minimum").or_insert_with(|| json!(0));
                members.entry("maximum").or_insert_with(|| json!(maximum));
                members.insert("format".to_owned(), json!(format));
            }
            members.values_mut().for_each(exact_ranges);
        }
        Value::Array(items) => items.iter_mut().for_each(exact_ranges),
        _ => {}
    }
}

/// The largest value and the standard format of an unsigned format.
fn range(format: &str) -> Option<(u64, &'static str)> {
    // utoipa 6 writes them `u-int8`, older versions `uint8`.
    match format.replace('-', "").as_str() {
        "uint8" => Some((u8::MAX.into(), "int32")),
        "uint16" => Some((u16::MAX.into(), "int32")),
        "uint32" => Some((u32::MAX.into(), "int64")),
        "uint64" => Some((JS_SAFE_MAX, "int64")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsigned_formats_get_their_range_and_keep_narrower_ones() {
        let mut schema = json!({"properties": {
            "a": {"type": "integer", "format": "u-int8"},
            "b": {"type": "integer", "format": "uint32", "minimum": 1, "maximum": 1000},
            "c": {"type": "integer", "format": "int32"}}});
        exact_ranges(&mut schema);
        assert_eq!(
            schema["properties"]["a"],
            json!({"type": "integer", "format": "int32", "minimum": 0, "maximum": 255})
        );
        assert_eq!(schema["properties"]["b"]["minimum"], 1);
        assert_eq!(schema["properties"]["b"]["maximum"], 1000);
        assert_eq!(
            schema["properties"]["c"],
            json!({"type": "integer", "format": "int32"})
        );
    }
}
