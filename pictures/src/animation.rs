//! A whole game as an animated PNG (APNG): one frame per ply from the start, each the
//! position's picture with the move's marks, the last frame held longer. APNG, not GIF: the
//! frames keep their full colours without a palette, and a viewer without APNG shows the
//! first frame as a still PNG.
//!
//! What one animation may cost is bounded before any frame is drawn: its frames times the
//! square of its longer side ([`MAX_FRAME_PIXELS`]), which is what drawing, encoding and the
//! answer's size grow with. Frames are drawn and encoded one at a time, so a request holds one
//! frame's pixels and the answer, never every frame at once.

use std::io::Cursor;

use resvg::tiny_skia::Pixmap;

use super::PictureError;
use super::raster::straight_rgba;

/// The most frames one animation may hold: a bound on the work one request can ask for.
pub const MAX_FRAMES: usize = 200;
/// The longest side of an animation's frames, in pixels.
pub const MAX_PIXELS: u32 = 800;
/// The most an animation may cost: frames × pixels² (the longer side squared). About 40 frames
/// at 400 pixels, 10 at 800 or 160 at 200: a few megabytes, and well under a second to draw.
pub const MAX_FRAME_PIXELS: u64 = 6_400_000;
/// How long each frame shows, in milliseconds.
pub const FRAME_MS: u16 = 800;
/// How long the last frame, the game's end, shows, in milliseconds.
pub const LAST_FRAME_MS: u16 = 3000;

/// Refuses an animation of more than [`MAX_FRAMES`] frames, or one of `frames` frames of
/// `pixels` that costs more than [`MAX_FRAME_PIXELS`], before any is drawn. The refusal says
/// how to get under the bound: fewer moves, or a smaller `pixels`.
pub fn check_cost(frames: usize, pixels: u32) -> Result<(), PictureError> {
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
    let area = u64::from(pixels) * u64::from(pixels);
    let cost = frames as u64 * area;
    if cost > MAX_FRAME_PIXELS {
        let frames_that_fit = MAX_FRAME_PIXELS / area.max(1);
        let pixels_that_fit = (MAX_FRAME_PIXELS / frames as u64).isqrt();
        return Err(PictureError::invalid(
            "pixels",
            format!(
                "pixels: {frames} frames of {pixels} pixels cost {cost} (frames × pixels²), over \
                 the bound of {MAX_FRAME_PIXELS} for one animation; ask for fewer moves (at most \
                 {frames_that_fit} frames at {pixels} pixels) or a smaller pixels (at most \
                 {pixels_that_fit} for {frames} frames)"
            ),
        ));
    }
    Ok(())
}

/// Encodes `count` frames of one size as an APNG that plays once and stops on the last frame.
/// Each frame is drawn when the encoder asks for it and dropped once written: the pixels of
/// one frame are held at a time. A frame that fails stops the animation with its error.
pub fn apng<E: From<PictureError>>(
    count: usize,
    frames: impl IntoIterator<Item = Result<Pixmap, E>>,
) -> Result<Vec<u8>, E> {
    let failed = |e: png::EncodingError| {
        PictureError::Internal(format!("the animation could not be written: {e}"))
    };
    let mut frames = frames.into_iter();
    let Some(first) = frames.next() else {
        return Err(PictureError::Internal("an animation needs a frame".to_owned()).into());
    };
    let first = first?;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(Cursor::new(&mut bytes), first.width(), first.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let count =
        u32::try_from(count).map_err(|_| PictureError::Internal("too many frames".to_owned()))?;
    encoder.set_animated(count, 1).map_err(failed)?;
    let mut writer = encoder.write_header().map_err(failed)?;
    let mut frame = Some(first);
    let mut written = 0;
    while let Some(pixmap) = frame.take() {
        written += 1;
        let delay = if written == count {
            LAST_FRAME_MS
        } else {
            FRAME_MS
        };
        writer.set_frame_delay(delay, 1000).map_err(failed)?;
        writer
            .write_image_data(&straight_rgba(&pixmap))
            .map_err(failed)?;
        drop(pixmap);
        if written < count {
            frame = Some(frames.next().ok_or_else(|| {
                PictureError::Internal(format!("the animation has {written} frames, not {count}"))
            })??);
        }
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
        let frames = [filled(10), filled(200)].map(Ok::<_, PictureError>);
        let bytes = apng(2, frames).expect("encoded");
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
        assert!(check_cost(MAX_FRAMES, 64).is_ok());
        let error = check_cost(MAX_FRAMES + 1, 64).expect_err("refused");
        assert!(
            matches!(&error, PictureError::Invalid { field, .. } if field == "moves"),
            "{error:?}"
        );
    }

    #[test]
    fn an_animation_over_the_cost_bound_is_refused_saying_how_to_get_under_it() {
        assert!(check_cost(40, 400).is_ok(), "40 × 400² is the bound");
        let error = check_cost(130, 800).expect_err("refused");
        let PictureError::Invalid { field, detail } = &error else {
            panic!("{error:?}")
        };
        assert_eq!(field, "pixels");
        assert!(detail.contains("frames × pixels²"), "{detail}");
        assert!(
            detail.contains("at most 10 frames at 800 pixels"),
            "{detail}"
        );
        assert!(detail.contains("at most 221 for 130 frames"), "{detail}");
        assert!(check_cost(130, 221).is_ok(), "the size it names fits");
    }

    #[test]
    fn a_frame_that_fails_stops_the_animation_with_its_error() {
        let frames = [
            Ok(filled(1)),
            Err(PictureError::Internal("drawn badly".into())),
        ];
        let error = apng(2, frames).expect_err("stopped");
        assert_eq!(error, PictureError::Internal("drawn badly".into()));
        let short = apng(3, [Ok::<_, PictureError>(filled(1))]).expect_err("one frame missing");
        assert!(matches!(short, PictureError::Internal(d) if d.contains("1 frames, not 3")));
    }
}
