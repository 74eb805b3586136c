//! Reading game types from JSON **objects only**.
//!
//! serde's derived `Deserialize` reads a struct from a JSON array too, member by member in
//! declaration order: `{"options": [7, false, true]}` would be a size-7 Herfor board. The
//! states and options of this API are objects with named members, so [`Strict`] wraps a
//! [`serde_json::Value`] as a deserializer that hands out nested values wrapped again, and
//! refuses an array wherever a struct (or an internally tagged enum, such as Hirþ's `phase`) is
//! read. Everything else is delegated to `serde_json`'s own deserializer for `&Value`, so the
//! errors are serde_json's; it composes with `serde_path_to_error`, which names the path.
//!
//! A struct's member given as `null` is read as left out: its default where it has one, `None`
//! where it is optional, and "missing field" where it is required. Generated clients write
//! `null` for every optional member they hold no value for (pydantic's `model_dump_json`,
//! for one), and an optional member means the same either way.

use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, Expected, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde_json::{Error, Map, Value};

/// Reads `T` from a JSON value, refusing positional arrays for structs at every level.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, Error> {
    T::deserialize(Strict(value))
}

/// A JSON value read as a deserializer that accepts structs only from objects.
#[derive(Clone, Copy, Debug)]
pub struct Strict<'a>(pub &'a Value);

fn positional(what: &dyn fmt::Display) -> Error {
    de::Error::custom(format_args!(
        "expected a JSON object for {what}, not an array: members are named, never positional"
    ))
}

/// What a visitor expects, as text (`struct HirthOptions`, `internally tagged enum HirthPhase`).
fn expecting(visitor: &dyn Expected) -> String {
    visitor.to_string()
}

macro_rules! delegate {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                self.0.$method(visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Strict<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => {
                // Internally tagged enums are read through `deserialize_any`; serde would take
                // an array's first element as the tag.
                let wanted = expecting(&visitor);
                if wanted.starts_with("internally tagged enum") {
                    return Err(positional(&wanted));
                }
                whole_seq(items, visitor)
            }
            Value::Object(members) => visitor.visit_map(Members::new(members)),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(members) => visitor.visit_map(Members::of_struct(members, fields)),
            Value::Array(_) => Err(positional(&format_args!("struct {name}"))),
            other => other.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(members) => visitor.visit_map(Members::new(members)),
            other => other.deserialize_map(visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => whole_seq(items, visitor),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(members) if members.len() == 1 => {
                let (variant, value) = members.iter().next().expect("one member");
                visitor.visit_enum(Variant { variant, value })
            }
            other => other.deserialize_enum(name, variants, visitor),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    delegate! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier deserialize_ignored_any
    }
}

/// An array read whole: a fixed-length array (`[u32; 2]`) given more items than it holds is
/// refused, as `serde_json` refuses it, rather than read from its first items.
fn whole_seq<'de, V: Visitor<'de>>(items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
    let mut seq = Seq(items.iter());
    let value = visitor.visit_seq(&mut seq)?;
    if seq.0.len() == 0 {
        Ok(value)
    } else {
        Err(de::Error::invalid_length(
            items.len(),
            &"fewer elements in array",
        ))
    }
}

/// The items of an array, each read strictly.
struct Seq<'a>(std::slice::Iter<'a, Value>);

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0
            .next()
            .map(|item| seed.deserialize(Strict(item)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// The members of an object: names as strings, values read strictly.
struct Members<'a> {
    iter: serde_json::map::Iter<'a>,
    value: Option<&'a Value>,
    /// A struct's members, whose `null` values are left out (see the module); any other
    /// member is handed on as it is, so that an unknown one is still refused.
    fields: &'static [&'static str],
}

impl<'a> Members<'a> {
    fn new(map: &'a Map<String, Value>) -> Self {
        Members {
            iter: map.iter(),
            value: None,
            fields: &[],
        }
    }

    fn of_struct(map: &'a Map<String, Value>, fields: &'static [&'static str]) -> Self {
        Members {
            fields,
            ..Members::new(map)
        }
    }
}

impl<'de> MapAccess<'de> for Members<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let fields = self.fields;
        let next = self
            .iter
            .find(|(key, value)| !value.is_null() || !fields.contains(&key.as_str()));
        match next {
            Some((key, value)) => {
                self.value = Some(value);
                let key: de::value::BorrowedStrDeserializer<'de, Error> =
                    de::value::BorrowedStrDeserializer::new(key);
                seed.deserialize(key).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = self
            .value
            .take()
            .ok_or_else(|| <Error as de::Error>::custom("a value asked for before its key"))?;
        seed.deserialize(Strict(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An externally tagged enum variant `{"variant": value}`.
struct Variant<'a> {
    variant: &'a String,
    value: &'a Value,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = Strict<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Strict<'de>), Error> {
        let name: de::value::BorrowedStrDeserializer<'de, Error> =
            de::value::BorrowedStrDeserializer::new(self.variant);
        Ok((seed.deserialize(name)?, Strict(self.value)))
    }
}

impl<'de> VariantAccess<'de> for Strict<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            Value::Null => Ok(()),
            other => Err(de::Error::invalid_type(
                unexpected(other),
                &"a unit variant",
            )),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_struct("variant", fields, visitor)
    }
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("a number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::from_value;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Inner {
        a: u8,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        inner: Inner,
        list: Vec<Inner>,
        pair: [u8; 2],
        maybe: Option<Inner>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        Plain,
        With { x: u8 },
    }

    #[test]
    fn objects_and_lists_read_as_usual() {
        let read: Outer = from_value(&json!({
            "inner": {"a": 1}, "list": [{"a": 2}], "pair": [3, 4], "maybe": null
        }))
        .unwrap();
        assert_eq!(read.inner, Inner { a: 1 });
        assert_eq!(read.list, vec![Inner { a: 2 }]);
        assert_eq!(read.pair, [3, 4]);
        let with: Tagged = from_value(&json!({"kind": "with", "x": 5})).unwrap();
        assert_eq!(with, Tagged::With { x: 5 });
        let plain: Tagged = from_value(&json!({"kind": "plain"})).unwrap();
        assert_eq!(plain, Tagged::Plain);
    }

    #[test]
    fn a_positional_array_is_refused_at_every_level() {
        for bad in [
            json!([{"a": 1}, [], [1, 2], null]),
            json!({"inner": [1], "list": [], "pair": [3, 4], "maybe": null}),
            json!({"inner": {"a": 1}, "list": [[2]], "pair": [3, 4], "maybe": null}),
            json!({"inner": {"a": 1}, "list": [], "pair": [3, 4], "maybe": [1]}),
        ] {
            let err = from_value::<Outer>(&bad).unwrap_err().to_string();
            assert!(err.contains("not an array"), "{bad}: {err}");
        }
        let err = from_value::<Tagged>(&json!(["with", 5]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not an array"), "{err}");
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Defaults {
        #[serde(default)]
        count: u8,
        #[serde(default = "seven")]
        size: u8,
        maybe: Option<u8>,
        needed: u8,
    }

    fn seven() -> u8 {
        7
    }

    #[test]
    fn a_member_given_as_null_is_read_as_left_out() {
        let read: Defaults = from_value(&json!({
            "count": null, "size": null, "maybe": null, "needed": 1
        }))
        .unwrap();
        assert_eq!(
            read,
            Defaults {
                count: 0,
                size: 7,
                maybe: None,
                needed: 1
            }
        );
        let err = from_value::<Defaults>(&json!({"needed": null}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing field `needed`"), "{err}");
        // An unknown member is refused, `null` or not.
        let err = from_value::<Defaults>(&json!({"needed": 1, "other": null}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `other`"), "{err}");
        // Not in a map, whose keys are data: a null value there is refused as before.
        let err = from_value::<std::collections::BTreeMap<String, u8>>(&json!({"a": null}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid type: null"), "{err}");
    }

    #[test]
    fn a_fixed_length_array_with_more_items_is_refused() {
        for pair in [json!([3]), json!([3, 4, 5])] {
            let bad = json!({"inner": {"a": 1}, "list": [], "pair": pair, "maybe": null});
            let err = from_value::<Outer>(&bad).unwrap_err().to_string();
            assert!(err.contains("invalid length"), "{bad}: {err}");
        }
    }
}
