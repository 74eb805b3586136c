//! What a picture may choose, with its bounds: format, size, which seat sits at the bottom,
//! coordinates, the last move's marks, the legal targets, a caption. Read from a JSON body
//! (the POST form) or from query parameters (the GET form, beside the game's options).

use serde::{Deserialize, Serialize};

use super::PictureError;

/// The smallest longer side a picture may ask for, in pixels.
pub const MIN_PIXELS: u32 = 64;
/// The longer side of a picture that does not say, in pixels.
pub const DEFAULT_PIXELS: u32 = 600;
/// The largest longer side a picture may ask for, in pixels: a bound on one request's work.
pub const MAX_PIXELS: u32 = 2048;

/// The query parameters of the GET form that are the picture's, not the game's options.
pub const PARAMS: &[&str] = &[
    "format",
    "pixels",
    "bottom",
    "coordinates",
    "last",
    "targets",
    "caption",
];

/// The picture's file format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `image/png`, rasterised by the server.
    #[default]
    Png,
    /// `image/svg+xml`, self-contained (no stylesheet or external font).
    Svg,
}

impl Format {
    /// The MIME type the API answers the picture with.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Svg => "image/svg+xml",
        }
    }
}

/// Which seat's side of the board is drawn at the bottom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Bottom {
    /// The board as the pages show it (Herfor's row a, Tara's row 1, Gull's home at the bottom).
    #[default]
    First,
    /// Turned half a turn.
    Second,
}

/// How a picture is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PictureOptions {
    /// PNG or SVG (`format`; PNG unless asked).
    pub format: Format,
    /// The longer side, in pixels ([`MIN_PIXELS`]…[`MAX_PIXELS`]).
    pub pixels: u32,
    /// The seat whose side is at the bottom (`bottom`; the first seat's unless asked).
    pub bottom: Bottom,
    /// Row and column labels (Herfor, Tara; Hirþ's spaces always carry their names).
    pub coordinates: bool,
    /// What the last turn did, marked as the pages mark it (when the picture knows it).
    pub last: bool,
    /// The points, hills or spaces where the side to act may move, highlighted.
    pub targets: bool,
    /// A line under the board: whose turn, or the result.
    pub caption: bool,
}

impl Default for PictureOptions {
    fn default() -> Self {
        PictureOptions {
            format: Format::Png,
            pixels: DEFAULT_PIXELS,
            bottom: Bottom::First,
            coordinates: true,
            last: true,
            targets: false,
            caption: false,
        }
    }
}

impl PictureOptions {
    /// Refuses a size out of bounds: a picture cannot be made arbitrarily large.
    pub fn checked(self) -> Result<Self, PictureError> {
        if !(MIN_PIXELS..=MAX_PIXELS).contains(&self.pixels) {
            return Err(invalid(
                "pixels",
                format!(
                    "pixels: {} is out of bounds: a picture's longer side is {MIN_PIXELS} to {MAX_PIXELS} pixels",
                    self.pixels
                ),
            ));
        }
        Ok(self)
    }

    /// Takes the picture's parameters out of a query's pairs, leaving the game's; each may be
    /// given once.
    pub fn take_from(pairs: &mut Vec<(String, String)>) -> Result<Self, PictureError> {
        let mut options = PictureOptions::default();
        let mut seen = Vec::new();
        let mut rest = Vec::with_capacity(pairs.len());
        for (name, value) in pairs.drain(..) {
            let Some(&param) = PARAMS.iter().find(|p| **p == name) else {
                rest.push((name, value));
                continue;
            };
            if seen.contains(&param) {
                return Err(invalid(
                    param,
                    format!("{param}: the parameter is given more than once"),
                ));
            }
            seen.push(param);
            options.set(param, value.trim())?;
        }
        *pairs = rest;
        options.checked()
    }

    fn set(&mut self, param: &'static str, text: &str) -> Result<(), PictureError> {
        let wrong = |expected: &str| invalid(param, format!("{param}: {text:?} is not {expected}"));
        match param {
            "format" => {
                self.format = match text {
                    "png" => Format::Png,
                    "svg" => Format::Svg,
                    _ => return Err(wrong("png or svg")),
                }
            }
            "bottom" => {
                self.bottom = match text {
                    "first" => Bottom::First,
                    "second" => Bottom::Second,
                    _ => return Err(wrong("first or second")),
                }
            }
            "pixels" => self.pixels = text.parse().map_err(|_| wrong("a whole number"))?,
            _ => {
                let flag = match text.to_ascii_lowercase().as_str() {
                    "true" | "1" | "on" | "yes" => true,
                    "false" | "0" | "off" | "no" => false,
                    _ => return Err(wrong("true or false")),
                };
                match param {
                    "coordinates" => self.coordinates = flag,
                    "last" => self.last = flag,
                    "targets" => self.targets = flag,
                    _ => self.caption = flag,
                }
            }
        }
        Ok(())
    }
}

fn invalid(field: &str, detail: String) -> PictureError {
    PictureError::invalid(field, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(query: &str) -> Vec<(String, String)> {
        form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect()
    }

    #[test]
    fn the_picture_takes_its_parameters_and_leaves_the_game_options() {
        let mut query =
            pairs("size=3&format=svg&pixels=200&bottom=second&moves=c3&caption=1&last=off");
        let options = PictureOptions::take_from(&mut query).expect("accepted");
        assert_eq!(
            options,
            PictureOptions {
                format: Format::Svg,
                pixels: 200,
                bottom: Bottom::Second,
                last: false,
                caption: true,
                ..PictureOptions::default()
            }
        );
        assert_eq!(query, pairs("size=3&moves=c3"));
    }

    #[test]
    fn sizes_out_of_bounds_and_bad_values_are_refused_naming_the_parameter() {
        let refused = |q: &str| match PictureOptions::take_from(&mut pairs(q)).expect_err("refused")
        {
            PictureError::Invalid { field, .. } => field,
            internal => panic!("{q}: {internal}"),
        };
        assert_eq!(refused("pixels=2049"), "pixels");
        assert_eq!(refused("pixels=63"), "pixels");
        assert_eq!(refused("pixels=-1"), "pixels");
        assert_eq!(refused("format=gif"), "format");
        assert_eq!(refused("bottom=left"), "bottom");
        assert_eq!(refused("targets=maybe"), "targets");
        assert_eq!(refused("pixels=100&pixels=200"), "pixels");
        assert!(PictureOptions::take_from(&mut pairs("pixels=64")).is_ok());
        assert!(PictureOptions::take_from(&mut pairs("pixels=2048")).is_ok());
    }
}
