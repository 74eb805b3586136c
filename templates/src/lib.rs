//! Moot's maud views. Pure functions from view data to markup: they know nothing of the rules.

pub use maud;

pub mod challenges;
pub mod drawing;
pub mod embed;
pub mod error;
pub mod fit;
pub mod herfor;
pub mod hirth;
pub mod home;
pub mod layout;
pub mod notifications;
pub mod options;
pub mod parts;
pub mod play;
pub mod rules;
pub mod table;
pub mod tara;
pub mod your_games;

pub use layout::layout;
