//! Presentation shared by every surface that shows findings to a person: the terminal
//! listings, the web pages, and later MCP answers and exports. Pure: no I/O, no clock, no
//! environment; the caller passes "now" and the time zone in a [`Clock`].
//!
//! What lives here is what must read the same everywhere: the order of verdicts and their
//! marks, session titles, times, the words of a rationale, and the filters people type.

pub mod clock;
pub mod filter;
pub mod labels;
pub mod rationale;
pub mod text;
pub mod title;
pub mod verdict;

pub use clock::Clock;
pub use filter::{FilterError, FilterInput, Filters, Limit};
