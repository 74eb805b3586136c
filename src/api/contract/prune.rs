//! Drops the schemas nothing published refers to (the generic unions and bodies the per-game
//! paths replaced).

use std::collections::BTreeSet;

use serde_json::Value;

use super::refs;

pub fn unreferenced(document: &mut Value) {
    let mut reachable = refs::referenced(&document["paths"]);
    let mut queue: Vec<String> = reachable.iter().cloned().collect();
    let schemas = super::schemas(document);
    while let Some(name) = queue.pop() {
        if let Some(schema) = schemas.get(&name) {
            for next in refs::referenced(schema) {
                if reachable.insert(next.clone()) {
                    queue.push(next);
                }
            }
        }
    }
    let unused: BTreeSet<String> = schemas
        .keys()
        .filter(|name| !reachable.contains(*name))
        .cloned()
        .collect();
    for name in unused {
        schemas.remove(&name);
    }
}
