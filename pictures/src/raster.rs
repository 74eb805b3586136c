//! SVG to PNG in-process: resvg parses the picture with the embedded font and draws it with
//! tiny-skia. No browser, no external program.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use super::PictureError;
use super::font;

/// The picture's pixels, drawn from its SVG document at the size the document gives.
pub fn pixmap(svg: &str) -> Result<Pixmap, PictureError> {
    let options = usvg::Options {
        fontdb: font::database(),
        font_family: font::FAMILY.to_owned(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| PictureError::Internal(format!("the picture's SVG could not be read: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError::Internal("the picture has no pixels".to_owned()))?;
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The picture as a PNG file, compressed fast: a picture is drawn per request.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let pixmap = pixmap(svg)?;
    let failed = |e: png::EncodingError| {
        PictureError::Internal(format!("the picture could not be written as PNG: {e}"))
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer
        .write_image_data(&straight_rgba(&pixmap))
        .map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

/// The pixels as straight (not premultiplied) RGBA, as PNG stores them.
pub fn straight_rgba(pixmap: &Pixmap) -> Vec<u8> {
    pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect()
}
