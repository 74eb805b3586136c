//! SVG to PNG in-process: resvg parses the picture with the embedded font and draws it with
//! tiny-skia. No browser, no external program.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use super::font;
use crate::api::ApiError;

/// The picture's pixels, drawn from its SVG document at the size the document gives.
pub fn pixmap(svg: &str) -> Result<Pixmap, ApiError> {
    let options = usvg::Options {
        fontdb: font::database(),
        font_family: font::FAMILY.to_owned(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| ApiError::internal(format!("the picture's SVG could not be read: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height())
        .ok_or_else(|| ApiError::internal("the picture has no pixels"))?;
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The picture as a PNG file.
pub fn png(svg: &str) -> Result<Vec<u8>, ApiError> {
    pixmap(svg)?
        .encode_png()
        .map_err(|e| ApiError::internal(format!("the picture could not be written as PNG: {e}")))
}
