pub use maud;
