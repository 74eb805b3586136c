//! Pictures of positions: the boards the play pages draw, alone, as SVG or PNG, and a whole
//! game as an animated PNG. One drawing code: every picture is the game's
//! [`PageGame::drawing`](moot_present::PageGame::drawing), the same the pages show.
//!
//! The parts, one job each:
//! - [`options`]: what a picture may choose (format, size, bottom seat…), read and bounded;
//! - [`compose`]: a position's picture as a self-contained SVG document;
//! - [`raster`]: SVG to PNG in-process (resvg), with the embedded [`font`];
//! - [`animation`]: a whole game as an APNG, one frame per ply.

pub mod animation;
pub mod compose;
pub mod font;
pub mod options;
pub mod raster;

pub use compose::{frame_svg, picture_svg};
pub use options::{Bottom, Format, PictureOptions};
pub use raster::png;

/// Why a picture cannot be made. The API answers it as a problem.
#[derive(Clone, Debug, PartialEq)]
pub enum PictureError {
    /// A picture parameter is unreadable or out of bounds; `field` names it.
    Invalid {
        /// The parameter refused, as the request names it (`pixels`, `moves`).
        field: String,
        /// What is wrong with it, in a sentence that starts with its name.
        detail: String,
    },
    /// The picture could not be drawn or written: a bug.
    Internal(String),
}

impl PictureError {
    fn invalid(field: &str, detail: String) -> Self {
        PictureError::Invalid {
            field: field.to_owned(),
            detail,
        }
    }
}

impl std::fmt::Display for PictureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PictureError::Invalid { detail, .. } | PictureError::Internal(detail) => {
                f.write_str(detail)
            }
        }
    }
}

impl std::error::Error for PictureError {}
