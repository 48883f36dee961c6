//! Token usage and cost.
//!
//! The store sums usage facts per bucket, provider and model ([`fornax_types::UsageGroup`]);
//! this crate prices them with an offline, versioned price table ([`PriceTable`]) and builds
//! the reports `fornax usage` prints: per day, month, session (subagents rolled up into their
//! parent) and 5-hour billing block.
//!
//! # Invariants
//!
//! * Pure: no I/O, no clock (the caller passes "now" where a report needs it). The built-in
//!   table is compiled in; an override file's text is read by the caller.
//! * A model the table does not know is never priced at zero silently: its tokens are counted,
//!   its cost is left out, and the report names it in `unpriced_models`.
//! * Token kinds are disjoint (input, output, cache writes, cache reads); reasoning is part of
//!   output, shown where the runtime reported it and never added to the total twice.

mod prices;
mod report;

pub use prices::{ModelPrice, PriceError, PriceTable, Rates};
pub use report::{build, parse_date, Block, Grain, ModelRow, Report, ReportRow, TableInfo, Totals};
