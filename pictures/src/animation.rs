//! A whole game as an animated PNG (APNG): one frame per ply from the start, each the
//! position's picture with the move's marks, the last frame held longer. APNG, not GIF: the
//! frames keep their full colours without a palette, and a viewer without APNG shows the
//! first frame as a still PNG.

use std::io::Cursor;

use resvg::tiny_skia::Pixmap;

use super::PictureError;
use super::raster::straight_rgba;

/// The most frames one animation may hold: a bound on the work one request can ask for.
pub const MAX_FRAMES: usize = 200;
/// The longest side of an animation's frames, in pixels.
pub const MAX_PIXELS: u32 = 800;
/// How long each frame shows, in milliseconds.
pub const FRAME_MS: u16 = 800;
/// How long the last frame, the game's end, shows, in milliseconds.
pub const LAST_FRAME_MS: u16 = 3000;

/// Refuses an animation of more than [`MAX_FRAMES`] frames before any is drawn.
pub fn check_frames(frames: usize) -> Result<(), PictureError> {
    if frames > MAX_FRAMES {
        return Err(PictureError::invalid(
            "moves",
            format!(
                "moves: the game has {} plies; an animation shows at most {} (the start and {} plies)",
                frames - 1,
                MAX_FRAMES,
                MAX_FRAMES - 1
            ),
        ));
    }
    Ok(())
}

/// Encodes frames of one size as an APNG that plays once and stops on the last frame.
pub fn apng(frames: &[Pixmap]) -> Result<Vec<u8>, PictureError> {
    let failed = |e: png::EncodingError| {
        PictureError::Internal(format!("the animation could not be written: {e}"))
    };
    let Some(first) = frames.first() else {
        return Err(PictureError::Internal(
            "an animation needs a frame".to_owned(),
        ));
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(Cursor::new(&mut bytes), first.width(), first.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder
        .set_animated(frames.len() as u32, 1)
        .map_err(failed)?;
    let mut writer = encoder.write_header().map_err(failed)?;
    for (index, frame) in frames.iter().enumerate() {
        let delay = if index + 1 == frames.len() {
            LAST_FRAME_MS
        } else {
            FRAME_MS
        };
        writer.set_frame_delay(delay, 1000).map_err(failed)?;
        writer
            .write_image_data(&straight_rgba(frame))
            .map_err(failed)?;
    }
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::Color;

    fn filled(r: u8) -> Pixmap {
        let mut pixmap = Pixmap::new(4, 3).expect("pixels");
        pixmap.fill(Color::from_rgba8(r, 0, 0, 255));
        pixmap
    }

    #[test]
    fn frames_become_an_animation_that_decodes_frame_by_frame() {
        let bytes = apng(&[filled(10), filled(200)]).expect("encoded");
        let mut reader = png::Decoder::new(Cursor::new(bytes))
            .read_info()
            .expect("a PNG");
        let control = reader.info().animation_control.expect("animated");
        assert_eq!((control.num_frames, control.num_plays), (2, 1));
        let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
        reader.next_frame(&mut buffer).expect("frame 1");
        assert_eq!(&buffer[..4], &[10, 0, 0, 255]);
        reader.next_frame(&mut buffer).expect("frame 2");
        assert_eq!(&buffer[..4], &[200, 0, 0, 255]);
    }

    #[test]
    fn too_many_frames_are_refused() {
        assert!(check_frames(MAX_FRAMES).is_ok());
        let error = check_frames(MAX_FRAMES + 1).expect_err("refused");
        assert!(
            matches!(&error, PictureError::Invalid { field, .. } if field == "moves"),
            "{error:?}"
        );
    }
}
