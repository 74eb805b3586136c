//! Pictures of positions: the boards the play pages draw, alone, as SVG or PNG, and a whole
//! game as an animated PNG. One drawing code: every picture is the game's
//! [`PageGame::drawing`](crate::web::PageGame::drawing), the same the pages show.
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
