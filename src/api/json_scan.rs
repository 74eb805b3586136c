//! A cheap pass over a JSON body's bytes before it is parsed: how deep it nests, how many
//! containers and elements it holds (refused over the bounds before serde allocates a node),
//! what parsing it may cost in memory at worst, and the first member named twice in one
//! object.
//!
//! A parsed `serde_json::Value` costs far more than its text: `{"":0}` is 6 bytes written but
//! an object node of some hundreds of bytes parsed, so a 1 MiB body of tiny objects would take
//! tens of megabytes. Counting `{`, `[` and `,` outside strings bounds that without parsing.
//! The pass does not check the grammar: the parser that follows does, and answers a body that
//! is not JSON; a duplicate member is reported only once the body parsed.

use std::borrow::Cow;
use std::collections::HashSet;

/// The deepest nesting of objects and arrays accepted (a state nests a few levels).
pub const MAX_DEPTH: usize = 32;
/// The most objects and arrays one body may hold (a 5,000-move list is one array).
pub const MAX_CONTAINERS: usize = 4_096;
/// The most elements (values in arrays, members in objects) one body may hold.
pub const MAX_ELEMENTS: usize = 65_536;

/// What a parsed container costs at most, in bytes: an object's first node of members.
const CONTAINER_BYTES: usize = 640;
/// What one more element costs at most once parsed, in bytes (a `Value` and its share of a node).
const ELEMENT_BYTES: usize = 64;

/// What the pass found in a body within the bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Objects and arrays.
    pub containers: usize,
    /// Values in arrays and members in objects (commas and containers, counted).
    pub elements: usize,
    /// The first member named twice in one object, with its path (`state.board`), if any.
    pub duplicate: Option<String>,
}

/// What parsing any body of `len` bytes within the bounds may cost in memory at worst, before
/// it is read: each container takes at least two bytes (`{}`), each element one.
pub fn worst_case_bytes_of_any(len: usize) -> usize {
    len + (len / 2).min(MAX_CONTAINERS) * CONTAINER_BYTES + len.min(MAX_ELEMENTS) * ELEMENT_BYTES
}

impl Shape {
    /// What parsing the body of `len` bytes may cost in memory at worst, in bytes.
    pub fn worst_case_bytes(&self, len: usize) -> usize {
        len + self.containers * CONTAINER_BYTES + self.elements * ELEMENT_BYTES
    }
}

/// Why a body is refused before it is parsed, in a sentence naming the bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep {
        /// Where the nesting went too deep (`state.board[0]`).
        path: String,
    },
    /// More than [`MAX_CONTAINERS`] objects and arrays.
    TooManyContainers,
    /// More than [`MAX_ELEMENTS`] elements.
    TooManyElements,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooDeep { path } => write!(
                f,
                "the body nests objects and arrays more than {MAX_DEPTH} deep (at {path})"
            ),
            Refusal::TooManyContainers => write!(
                f,
                "the body holds more than {MAX_CONTAINERS} objects and arrays, the most one request may send"
            ),
            Refusal::TooManyElements => write!(
                f,
                "the body holds more than {MAX_ELEMENTS} values, the most one request may send"
            ),
        }
    }
}

/// The bounds counted while a body arrives, chunk by chunk, so that a body past one is refused
/// before the rest of it is read: `{"":0}` repeated crosses [`MAX_CONTAINERS`] within its first
/// 28 KB. It counts as [`scan`] does (outside strings: `{` and `[` as containers and elements,
/// `,` as elements, the depth), without names or paths: once it says a bound is crossed,
/// [`scan`] over what arrived says which and where.
#[derive(Debug, Default)]
pub struct Arriving {
    depth: usize,
    containers: usize,
    elements: usize,
    in_string: bool,
    escaped: bool,
    crossed: bool,
}

impl Arriving {
    /// Counts the next `chunk` of the body: `true` when the body so far has just crossed a bound
    /// (once; later chunks answer `false`).
    pub fn feed(&mut self, chunk: &[u8]) -> bool {
        if self.crossed {
            return false;
        }
        for &byte in chunk {
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => {
                    self.containers += 1;
                    self.elements += 1;
                    if self.depth >= MAX_DEPTH || self.containers > MAX_CONTAINERS {
                        self.crossed = true;
                    }
                    self.depth += 1;
                }
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                b',' => self.elements += 1,
                _ => {}
            }
            if self.elements > MAX_ELEMENTS {
                self.crossed = true;
            }
            if self.crossed {
                return true;
            }
        }
        false
    }
}

/// One open object or array, as the pass walks it.
enum Open<'a> {
    Object {
        /// Members named so far (their text as written; unescaped when it has escapes).
        names: HashSet<Cow<'a, [u8]>>,
        /// The member being read, once its name is read.
        current: Option<Cow<'a, [u8]>>,
        /// Whether the next string is a member's name.
        expects_name: bool,
    },
    Array {
        index: usize,
    },
}

/// Walks `body` once: its shape, or why it is refused.
pub fn scan(body: &[u8]) -> Result<Shape, Refusal> {
    let mut open: Vec<Open> = Vec::new();
    let mut shape = Shape {
        containers: 0,
        elements: 0,
        duplicate: None,
    };
    let mut at = 0;
    while at < body.len() {
        match body[at] {
            b'"' => {
                let end = string_end(body, at + 1);
                let text = &body[at + 1..end.min(body.len())];
                if let Some(Open::Object {
                    names,
                    current,
                    expects_name: expects_name @ true,
                }) = open.last_mut()
                {
                    *expects_name = false;
                    let name = unescaped(text);
                    let fresh = names.insert(name.clone());
                    *current = Some(name);
                    if !fresh && shape.duplicate.is_none() {
                        shape.duplicate = Some(path(&open));
                    }
                }
                at = end + 1;
                continue;
            }
            open_char @ (b'{' | b'[') => {
                shape.containers += 1;
                shape.elements += 1;
                if open.len() >= MAX_DEPTH {
                    return Err(Refusal::TooDeep { path: path(&open) });
                }
                if shape.containers > MAX_CONTAINERS {
                    return Err(Refusal::TooManyContainers);
                }
                open.push(if open_char == b'{' {
                    Open::Object {
                        names: HashSet::new(),
                        current: None,
                        expects_name: true,
                    }
                } else {
                    Open::Array { index: 0 }
                });
            }
            b'}' | b']' => {
                open.pop();
            }
            b',' => {
                shape.elements += 1;
                match open.last_mut() {
                    Some(Open::Object { expects_name, .. }) => *expects_name = true,
                    Some(Open::Array { index }) => *index += 1,
                    None => {}
                }
            }
            _ => {}
        }
        if shape.elements > MAX_ELEMENTS {
            return Err(Refusal::TooManyElements);
        }
        at += 1;
    }
    Ok(shape)
}

/// The index of the quote that closes the string whose text starts at `from` (the body's
/// length when it never closes).
fn string_end(body: &[u8], from: usize) -> usize {
    let mut at = from;
    while at < body.len() {
        match body[at] {
            b'\\' => at += 2,
            b'"' => return at,
            _ => at += 1,
        }
    }
    body.len()
}

/// A member's name as compared: its text, unescaped when written with escapes (so that
/// `"a"` and `"\u0061"` are the same name).
fn unescaped(text: &[u8]) -> Cow<'_, [u8]> {
    if !text.contains(&b'\\') {
        return Cow::Borrowed(text);
    }
    let mut quoted = Vec::with_capacity(text.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(text);
    quoted.push(b'"');
    match serde_json::from_slice::<String>(&quoted) {
        Ok(name) => Cow::Owned(name.into_bytes()),
        Err(_) => Cow::Borrowed(text),
    }
}

/// Where the pass is, as the problems name a field: `state.board[3].owner`.
fn path(open: &[Open]) -> String {
    let mut path = String::new();
    for level in open {
        match level {
            Open::Object {
                current: Some(name),
                ..
            } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&String::from_utf8_lossy(name));
            }
            Open::Object { current: None, .. } => {}
            Open::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    if path.is_empty() {
        path.push_str("the top level");
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_counted_outside_its_strings() {
        let shape = scan(br#"{"moves": ["a,b", "[{"], "state": {"x": 1}}"#).expect("within");
        assert_eq!(shape.containers, 3);
        assert_eq!(shape.elements, 3 + 2, "three containers, two commas");
        assert_eq!(shape.duplicate, None);
    }

    #[test]
    fn many_tiny_objects_are_refused_before_parsing() {
        let mut body = String::from(r#"{"x":["#);
        body.push_str(&vec![r#"{"":0}"#; MAX_CONTAINERS].join(","));
        body.push_str("]}");
        assert_eq!(scan(body.as_bytes()), Err(Refusal::TooManyContainers));
    }

    #[test]
    fn many_values_are_refused_before_parsing() {
        let body = format!("[{}]", vec!["0"; MAX_ELEMENTS + 1].join(","));
        assert_eq!(scan(body.as_bytes()), Err(Refusal::TooManyElements));
    }

    #[test]
    fn deep_nesting_is_refused_naming_where() {
        let body = format!(r#"{{"state": {}{}}}"#, "[".repeat(40), "]".repeat(40));
        let Err(Refusal::TooDeep { path }) = scan(body.as_bytes()) else {
            panic!("refused")
        };
        assert!(path.starts_with("state[0][0]"), "{path}");
    }

    #[test]
    fn a_member_named_twice_is_found_with_its_path() {
        let shape = scan(br#"{"state": {"board": [{"a": 1, "a": 2}]}}"#).expect("within");
        assert_eq!(shape.duplicate.as_deref(), Some("state.board[0].a"));
        let escaped = scan(br#"{"size": 3, "\u0073ize": 4}"#).expect("within");
        assert_eq!(escaped.duplicate.as_deref(), Some("size"));
        let apart = scan(br#"{"a": {"b": 1}, "c": {"b": 2}}"#).expect("within");
        assert_eq!(apart.duplicate, None, "the same name in two objects");
    }

    #[test]
    fn escaped_quotes_do_not_end_a_string() {
        let shape = scan(br#"{"a": "x\"{[,", "b": 2}"#).expect("within");
        assert_eq!((shape.containers, shape.elements), (1, 2));
    }

    /// Feeds `body` in chunks of `size` bytes: the byte count where a bound was first crossed.
    fn crossed_at(body: &[u8], size: usize) -> Option<usize> {
        let mut arriving = Arriving::default();
        let mut fed = 0;
        for chunk in body.chunks(size) {
            fed += chunk.len();
            if arriving.feed(chunk) {
                return Some(fed);
            }
        }
        None
    }

    #[test]
    fn an_arriving_body_is_refused_as_soon_as_it_crosses_a_bound() {
        let tiny_objects = format!("[{}]", vec![r#"{"":0}"#; 150_000].join(","));
        let at = crossed_at(tiny_objects.as_bytes(), 1).expect("crossed");
        assert!(at < 30_000, "crossed after {at} bytes");
        assert_eq!(
            scan(&tiny_objects.as_bytes()[..at]),
            Err(Refusal::TooManyContainers)
        );
        let values = format!("[{}]", vec!["0"; MAX_ELEMENTS + 1].join(","));
        let at = crossed_at(values.as_bytes(), 4096).expect("crossed");
        assert_eq!(
            scan(&values.as_bytes()[..at]),
            Err(Refusal::TooManyElements)
        );
        let deep = format!(r#"{{"state": {}{}}}"#, "[".repeat(40), "]".repeat(40));
        let at = crossed_at(deep.as_bytes(), 7).expect("crossed");
        assert!(matches!(
            scan(&deep.as_bytes()[..at]),
            Err(Refusal::TooDeep { .. })
        ));
    }

    #[test]
    fn an_arriving_body_within_the_bounds_is_counted_as_the_scan_counts_it() {
        // Strings split across chunks, escaped quotes and brackets inside them.
        let mut body = String::from(r#"{"moves": ["#);
        body.push_str(&vec![r#""a,[\"{b""#; 30_000].join(","));
        body.push_str(r#"], "state": {"x": [1, 2, {"y": "]}"}]}}"#);
        assert!(scan(body.as_bytes()).is_ok());
        for size in [1, 3, 4096] {
            assert_eq!(crossed_at(body.as_bytes(), size), None, "chunks of {size}");
        }
    }

    #[test]
    fn the_worst_case_grows_with_containers_and_elements() {
        let small = scan(br#"{"a": 1}"#).expect("within");
        let tiny_objects = scan(br#"[{"":0},{"":0},{"":0}]"#).expect("within");
        assert!(tiny_objects.worst_case_bytes(22) > 3 * CONTAINER_BYTES);
        assert!(tiny_objects.worst_case_bytes(22) <= worst_case_bytes_of_any(22));
        assert!(small.worst_case_bytes(8) < 1024);
    }
}
