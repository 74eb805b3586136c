//! The routes the OpenAPI document describes, with the methods each serves: how the answer for
//! what no route took tells a wrong method (405, naming the methods) from a wrong path (404).
//!
//! The document is built where the app is, from every documented route, the API's and the
//! site's; the app factory hands it here ([`learn`]) so that the API does not import what
//! imports it.

use std::sync::OnceLock;

use actix_web::dev::ResourceDef;

/// Each documented route's pattern, compiled once (a pattern with a `{game}` segment is a
/// regular expression: compiling the document's ~40 for each 404 or 405 answered a flood of
/// unknown methods seven times slower), and the methods it serves.
static ROUTES: OnceLock<Vec<(ResourceDef, Vec<&'static str>)>> = OnceLock::new();

/// Learns the documented routes from the document the app serves, once (every app of a process
/// serves the same document).
pub fn learn(document: &utoipa::openapi::OpenApi) {
    ROUTES.get_or_init(|| {
        document
            .paths
            .paths
            .iter()
            .map(|(pattern, item)| {
                let methods = [
                    ("GET", &item.get),
                    ("POST", &item.post),
                    ("PUT", &item.put),
                    ("DELETE", &item.delete),
                    ("PATCH", &item.patch),
                ]
                .into_iter()
                .filter(|(_, operation)| operation.is_some())
                .map(|(method, _)| method)
                .collect();
                (ResourceDef::new(pattern.as_str()), methods)
            })
            .collect()
    });
}

/// The methods of the documented routes whose pattern matches `path` (none: no documented
/// route serves it, or no app was built yet).
pub fn documented_methods(path: &str) -> Vec<String> {
    ROUTES
        .get()
        .into_iter()
        .flatten()
        .filter(|(pattern, _)| pattern.is_match(path))
        .flat_map(|(_, methods)| methods.iter().map(|method| (*method).to_owned()))
        .collect()
}
