//! The one font of the pictures' words, embedded in the binary so that a picture renders the
//! same on every machine: DejaVu Sans (Bitstream Vera licence, `assets/fonts/`), chosen because
//! it covers the games' words (Hirþ, Miðr, ×, ⚔) and the labels in a single file.

use std::sync::{Arc, OnceLock};

use resvg::usvg::fontdb;

/// The family name the pictures ask for.
pub const FAMILY: &str = "DejaVu Sans";

const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The font database holding only the embedded font, loaded once.
pub fn database() -> Arc<fontdb::Database> {
    static DATABASE: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DATABASE
        .get_or_init(|| {
            let mut database = fontdb::Database::new();
            database.load_font_data(DEJAVU_SANS.to_vec());
            database.set_sans_serif_family(FAMILY);
            database.set_serif_family(FAMILY);
            Arc::new(database)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_is_found_by_its_family() {
        let database = database();
        let query = fontdb::Query {
            families: &[fontdb::Family::Name(FAMILY)],
            ..fontdb::Query::default()
        };
        assert!(database.query(&query).is_some());
        assert_eq!(database.len(), 1);
    }
}
