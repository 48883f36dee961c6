//! Reports: priced usage per day, month, session (subagents rolled up into their parent) and
//! 5-hour billing block, each row with its per-model breakdown.

use std::collections::BTreeMap;

use fornax_types::{TokenCounts, UsageGroup};
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use crate::{ModelPrice, PriceTable};

/// Length of a billing block, counted from the hour of its first call.
const BLOCK: SignedDuration = SignedDuration::from_hours(5);

/// Which report; the store's buckets must be of the matching grain (`Blocks` takes hours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grain {
    Daily,
    Monthly,
    Session,
    Blocks,
}

/// Summed tokens and their cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Totals {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_creation_tokens: u64,
    pub cache_read_tokens: u64,
    /// Reasoning tokens (part of output), where a runtime reported them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    pub total_tokens: u64,
    /// Cost of the priced tokens, in USD.
    pub cost_usd: f64,
    /// Tokens of models the price table does not know (left out of `cost_usd`).
    pub unpriced_tokens: u64,
    /// What the runtimes reported as cost themselves, where they did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reported_cost_usd: Option<f64>,
    /// Our cost of the same calls the runtimes priced themselves (to compare with
    /// `reported_cost_usd`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_where_reported_usd: Option<f64>,
    pub calls: u64,
}

impl Totals {
    fn add_tokens(&mut self, t: &TokenCounts) {
        self.input_tokens += t.input;
        self.output_tokens += t.output;
        self.cache_creation_tokens += t.cache_creation;
        self.cache_read_tokens += t.cache_read;
        if let Some(r) = t.reasoning {
            *self.reasoning_tokens.get_or_insert(0) += r;
        }
        self.total_tokens += t.total();
    }

    fn add(&mut self, o: &Totals) {
        self.input_tokens += o.input_tokens;
        self.output_tokens += o.output_tokens;
        self.cache_creation_tokens += o.cache_creation_tokens;
        self.cache_read_tokens += o.cache_read_tokens;
        if let Some(r) = o.reasoning_tokens {
            *self.reasoning_tokens.get_or_insert(0) += r;
        }
        self.total_tokens += o.total_tokens;
        self.cost_usd += o.cost_usd;
        self.unpriced_tokens += o.unpriced_tokens;
        if let Some(c) = o.reported_cost_usd {
            *self.reported_cost_usd.get_or_insert(0.0) += c;
        }
        if let Some(c) = o.cost_where_reported_usd {
            *self.cost_where_reported_usd.get_or_insert(0.0) += c;
        }
        self.calls += o.calls;
    }

    /// Whether every token here was priced.
    pub fn fully_priced(&self) -> bool {
        self.unpriced_tokens == 0
    }
}

/// One model's share of a row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelRow {
    pub provider: String,
    /// The model as the runtime named it (`unknown` when it named none).
    pub model: String,
    /// The price-table family that priced it; `None` when the table does not know it.
    pub priced_as: Option<String>,
    #[serde(flatten)]
    pub totals: Totals,
}

/// A billing block: five hours from the hour of its first call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    pub start: String,
    pub end: String,
    pub last_activity: String,
    /// The block has not ended yet and its last call is less than five hours old.
    pub active: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportRow {
    /// The day, month, session id or block start.
    pub key: String,
    pub providers: Vec<String>,
    pub models: Vec<String>,
    #[serde(flatten)]
    pub totals: Totals,
    pub breakdown: Vec<ModelRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_at: Option<String>,
    /// For a session: its subagents' own usage (already included in this row's totals).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subagents: Vec<ReportRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<Block>,
}

/// The price table a report was priced with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableInfo {
    pub version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub override_version: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub grain: Grain,
    pub prices: TableInfo,
    pub rows: Vec<ReportRow>,
    pub totals: Totals,
    /// Models whose tokens are counted but not priced.
    pub unpriced_models: Vec<String>,
}

/// A `--since`/`--until` date: `YYYY-MM-DD` or `YYYYMMDD`, returned as `YYYY-MM-DD`.
pub fn parse_date(text: &str) -> Result<String, String> {
    let t = text.trim();
    let iso = if t.len() == 8 && t.bytes().all(|b| b.is_ascii_digit()) {
        format!("{}-{}-{}", &t[..4], &t[4..6], &t[6..])
    } else {
        t.to_string()
    };
    iso.parse::<jiff::civil::Date>()
        .map(|d| d.to_string())
        .map_err(|_| format!("{text:?} is not a date (YYYY-MM-DD or YYYYMMDD)"))
}

/// The table's price of each model a report names, looked up once per model rather than once
/// per group (a lookup matches the name against every family's patterns).
struct Pricer<'t> {
    table: &'t PriceTable,
    known: BTreeMap<String, Option<&'t ModelPrice>>,
}

impl<'t> Pricer<'t> {
    fn new(table: &'t PriceTable) -> Self {
        Pricer {
            table,
            known: BTreeMap::new(),
        }
    }

    fn price(&mut self, model: &str) -> Option<&'t ModelPrice> {
        if let Some(p) = self.known.get(model) {
            return *p;
        }
        let p = self.table.lookup(model);
        self.known.insert(model.to_string(), p);
        p
    }
}

#[derive(Default)]
struct Acc {
    by_model: BTreeMap<(String, String), ModelRow>,
    first_at: Option<String>,
    last_at: Option<String>,
    project: Option<String>,
}

impl Acc {
    fn add(&mut self, g: &UsageGroup, prices: &mut Pricer<'_>) {
        let model = g.model.clone().unwrap_or_else(|| "unknown".to_string());
        let price = g.model.as_deref().and_then(|m| prices.price(m));
        let row = self
            .by_model
            .entry((g.provider.clone(), model.clone()))
            .or_insert_with(|| ModelRow {
                provider: g.provider.clone(),
                model,
                priced_as: price.map(|p| p.family.clone()),
                totals: Totals::default(),
            });
        let t = &mut row.totals;
        t.add_tokens(&g.tokens);
        t.calls += g.calls;
        let cost = price.map(|p| PriceTable::cost_at(p, &g.tokens, g.long_context));
        match cost {
            Some(c) => t.cost_usd += c,
            None => t.unpriced_tokens += g.tokens.total(),
        }
        // Only groups whose every call carries the runtime's own cost compare like for like.
        if let (Some(c), true) = (g.reported_cost_usd, g.reported_calls == g.calls) {
            *t.reported_cost_usd.get_or_insert(0.0) += c;
            if let Some(ours) = cost {
                *t.cost_where_reported_usd.get_or_insert(0.0) += ours;
            }
        }
        min_into(&mut self.first_at, g.first_at.as_deref());
        max_into(&mut self.last_at, g.last_at.as_deref());
        if self.project.is_none() {
            self.project.clone_from(&g.project);
        }
    }

    fn merge(&mut self, other: &Acc) {
        for (k, m) in &other.by_model {
            let row = self.by_model.entry(k.clone()).or_insert_with(|| ModelRow {
                totals: Totals::default(),
                ..m.clone()
            });
            row.totals.add(&m.totals);
        }
        min_into(&mut self.first_at, other.first_at.as_deref());
        max_into(&mut self.last_at, other.last_at.as_deref());
        if self.project.is_none() {
            self.project.clone_from(&other.project);
        }
    }

    fn into_row(self, key: String) -> ReportRow {
        let mut totals = Totals::default();
        let mut providers: Vec<String> = Vec::new();
        let mut models: Vec<String> = Vec::new();
        for m in self.by_model.values() {
            totals.add(&m.totals);
            if !providers.contains(&m.provider) {
                providers.push(m.provider.clone());
            }
            if !models.contains(&m.model) {
                models.push(m.model.clone());
            }
        }
        ReportRow {
            key,
            providers,
            models,
            totals,
            breakdown: self.by_model.into_values().collect(),
            project: self.project,
            first_at: self.first_at,
            last_at: self.last_at,
            subagents: Vec::new(),
            block: None,
        }
    }
}

fn min_into(slot: &mut Option<String>, v: Option<&str>) {
    if let Some(v) = v {
        if slot.as_deref().is_none_or(|s| v < s) {
            *slot = Some(v.to_string());
        }
    }
}

fn max_into(slot: &mut Option<String>, v: Option<&str>) {
    if let Some(v) = v {
        if slot.as_deref().is_none_or(|s| v > s) {
            *slot = Some(v.to_string());
        }
    }
}

/// Prices the store's groups into a report. `now` (RFC 3339) decides which block is active.
pub fn build(grain: Grain, groups: &[UsageGroup], table: &PriceTable, now: Option<&str>) -> Report {
    let rows = match grain {
        Grain::Daily | Grain::Monthly => by_bucket(groups, table),
        Grain::Session => by_session(groups, table),
        Grain::Blocks => by_block(groups, table, now),
    };
    let mut totals = Totals::default();
    let mut unpriced: Vec<String> = Vec::new();
    for r in &rows {
        totals.add(&r.totals);
        for m in &r.breakdown {
            if m.priced_as.is_none() && !unpriced.contains(&m.model) {
                unpriced.push(m.model.clone());
            }
        }
    }
    unpriced.sort();
    Report {
        grain,
        prices: TableInfo {
            version: table.version().to_string(),
            override_version: table.override_version().map(str::to_string),
        },
        rows,
        totals,
        unpriced_models: unpriced,
    }
}

fn by_bucket(groups: &[UsageGroup], table: &PriceTable) -> Vec<ReportRow> {
    let mut prices = Pricer::new(table);
    let mut accs: BTreeMap<String, Acc> = BTreeMap::new();
    for g in groups {
        accs.entry(g.bucket.clone())
            .or_default()
            .add(g, &mut prices);
    }
    accs.into_iter().map(|(k, a)| a.into_row(k)).collect()
}

/// Sessions with their subagents rolled up: each subagent session keeps its own row (listed
/// under its root) and adds to the root's totals.
fn by_session(groups: &[UsageGroup], table: &PriceTable) -> Vec<ReportRow> {
    let mut prices = Pricer::new(table);
    let mut parent_of: BTreeMap<String, String> = BTreeMap::new();
    let mut own: BTreeMap<String, Acc> = BTreeMap::new();
    for g in groups {
        if let Some(p) = g.parent.as_ref().filter(|p| **p != g.bucket) {
            parent_of.insert(g.bucket.clone(), p.clone());
        }
        own.entry(g.bucket.clone()).or_default().add(g, &mut prices);
    }
    let root = |id: &str| {
        let mut cur = id.to_string();
        // Bounded: a cycle in recorded parents ends the walk.
        for _ in 0..32 {
            match parent_of.get(&cur) {
                Some(p) => cur = p.clone(),
                None => break,
            }
        }
        cur
    };
    let mut roots: BTreeMap<String, (Acc, Vec<ReportRow>)> = BTreeMap::new();
    for (id, acc) in own {
        let r = root(&id);
        let entry = roots.entry(r.clone()).or_default();
        entry.0.merge(&acc);
        if r != id {
            entry.1.push(acc.into_row(id));
        }
    }
    let mut rows: Vec<ReportRow> = roots
        .into_iter()
        .map(|(id, (acc, subagents))| {
            let mut row = acc.into_row(id);
            row.subagents = subagents;
            row
        })
        .collect();
    rows.sort_by(|a, b| a.last_at.cmp(&b.last_at).then(a.key.cmp(&b.key)));
    rows
}

/// Billing blocks from hourly groups: a block starts at the hour of the first call that falls
/// after the current block's five hours (a gap of more than five hours always does).
fn by_block(groups: &[UsageGroup], table: &PriceTable, now: Option<&str>) -> Vec<ReportRow> {
    let mut hours: Vec<&UsageGroup> = groups.iter().filter(|g| !g.bucket.is_empty()).collect();
    hours.sort_by(|a, b| a.bucket.cmp(&b.bucket));
    let now = now.and_then(|n| n.parse::<Timestamp>().ok());
    let mut prices = Pricer::new(table);
    let mut rows = Vec::new();
    let mut current: Option<(Timestamp, Acc)> = None;
    for g in hours {
        let Ok(hour) = format!("{}:00:00Z", g.bucket).parse::<Timestamp>() else {
            continue;
        };
        let starts_new = match &current {
            None => true,
            Some((start, _)) => hour >= start.saturating_add(BLOCK).unwrap_or(*start),
        };
        if starts_new {
            if let Some((start, acc)) = current.take() {
                rows.push(block_row(start, acc, now));
            }
            current = Some((hour, Acc::default()));
        }
        if let Some((_, acc)) = current.as_mut() {
            acc.add(g, &mut prices);
        }
    }
    if let Some((start, acc)) = current {
        rows.push(block_row(start, acc, now));
    }
    rows
}

fn block_row(start: Timestamp, acc: Acc, now: Option<Timestamp>) -> ReportRow {
    let end = start.saturating_add(BLOCK).unwrap_or(start);
    let last = acc.last_at.clone().unwrap_or_else(|| start.to_string());
    let last_ts = last.parse::<Timestamp>().unwrap_or(start);
    let active = now.is_some_and(|n| n < end && n.duration_since(last_ts) < BLOCK);
    let mut row = acc.into_row(start.to_string());
    row.block = Some(Block {
        start: start.to_string(),
        end: end.to_string(),
        last_activity: last,
        active,
    });
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(bucket: &str, model: &str, input: u64, output: u64) -> UsageGroup {
        UsageGroup {
            bucket: bucket.into(),
            provider: "claude-code".into(),
            model: Some(model.into()),
            tokens: TokenCounts {
                input,
                output,
                ..TokenCounts::default()
            },
            calls: 1,
            ..UsageGroup::default()
        }
    }

    #[test]
    fn unknown_models_are_counted_and_named_not_priced_at_zero() {
        let t = PriceTable::builtin();
        let groups = [
            group("2026-01-01", "claude-haiku-4-5", 1_000_000, 0),
            group("2026-01-01", "claude-fable-5", 500, 500),
        ];
        let r = build(Grain::Daily, &groups, &t, None);
        assert_eq!(r.rows.len(), 1);
        let row = &r.rows[0];
        assert_eq!(row.totals.total_tokens, 1_001_000);
        assert!((row.totals.cost_usd - 1.0).abs() < 1e-9);
        assert_eq!(row.totals.unpriced_tokens, 1000);
        assert!(!row.totals.fully_priced());
        assert_eq!(r.unpriced_models, vec!["claude-fable-5".to_string()]);
    }

    #[test]
    fn subagents_roll_up_into_their_parent_and_keep_their_own_row() {
        let t = PriceTable::builtin();
        let mut child = group("agent-1", "claude-haiku-4-5", 10, 5);
        child.parent = Some("parent".into());
        let mut grandchild = group("agent-2", "claude-haiku-4-5", 1, 1);
        grandchild.parent = Some("agent-1".into());
        let groups = [
            group("parent", "claude-opus-4-5", 100, 50),
            child,
            grandchild,
        ];
        let r = build(Grain::Session, &groups, &t, None);
        assert_eq!(r.rows.len(), 1, "one root session");
        let row = &r.rows[0];
        assert_eq!(row.key, "parent");
        assert_eq!(row.totals.input_tokens, 111);
        assert_eq!(row.subagents.len(), 2);
        assert_eq!(row.subagents[0].totals.input_tokens, 10);
        assert_eq!(
            r.totals.total_tokens, 167,
            "subagents are not counted twice"
        );
    }

    #[test]
    fn blocks_are_five_hours_from_the_first_calls_hour_and_break_on_gaps() {
        let t = PriceTable::builtin();
        let at = |g: &mut UsageGroup, first: &str, last: &str| {
            g.first_at = Some(first.into());
            g.last_at = Some(last.into());
        };
        let mut a = group("2026-01-01T09", "claude-haiku-4-5", 1, 0);
        at(&mut a, "2026-01-01T09:40:00Z", "2026-01-01T09:50:00Z");
        let mut b = group("2026-01-01T13", "claude-haiku-4-5", 2, 0);
        at(&mut b, "2026-01-01T13:10:00Z", "2026-01-01T13:59:00Z");
        // 14:xx is past 09:00 + 5 h: a new block.
        let mut c = group("2026-01-01T14", "claude-haiku-4-5", 4, 0);
        at(&mut c, "2026-01-01T14:05:00Z", "2026-01-01T14:30:00Z");
        // The next day: a block of its own, still running at `now`.
        let mut d = group("2026-01-02T01", "claude-haiku-4-5", 8, 0);
        at(&mut d, "2026-01-02T01:00:00Z", "2026-01-02T01:10:00Z");
        let r = build(
            Grain::Blocks,
            &[a, b, c, d],
            &t,
            Some("2026-01-02T02:00:00Z"),
        );
        let keys: Vec<(&str, u64)> = r
            .rows
            .iter()
            .map(|r| (r.key.as_str(), r.totals.input_tokens))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("2026-01-01T09:00:00Z", 3),
                ("2026-01-01T14:00:00Z", 4),
                ("2026-01-02T01:00:00Z", 8)
            ]
        );
        let blocks: Vec<bool> = r
            .rows
            .iter()
            .map(|r| r.block.as_ref().unwrap().active)
            .collect();
        assert_eq!(blocks, vec![false, false, true]);
        assert_eq!(
            r.rows[0].block.as_ref().unwrap().end,
            "2026-01-01T14:00:00Z"
        );
    }

    #[test]
    fn dates_accept_both_spellings_and_name_bad_ones() {
        assert_eq!(parse_date("20260105").unwrap(), "2026-01-05");
        assert_eq!(parse_date("2026-01-05").unwrap(), "2026-01-05");
        assert!(parse_date("2026-13-05").unwrap_err().contains("2026-13-05"));
        assert!(parse_date("yesterday").is_err());
    }
}
