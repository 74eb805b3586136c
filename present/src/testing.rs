//! Helpers of this crate's unit tests.

/// The moves a board's buttons send (their `value`s), unescaped.
pub(crate) fn button_values(svg: &str) -> Vec<String> {
    svg.split(r#" value=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|v| {
            v.replace("&gt;", ">")
                .replace("&lt;", "<")
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
        })
        .collect()
}
