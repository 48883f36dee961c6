//! The full-screen view (ratatui over crossterm): keys, polling, drawing.
//!
//! Keys: ↑/↓ (or k/j) select a session, Enter opens it, Esc goes back, `a` cycles the agent
//! filter, `p` pauses (the view stops reading; the daemon goes on storing), `r` reads now,
//! `q` quits.

use std::time::{Duration, Instant};

use fornax_store::ListFilter;
use fornax_ui::present::{labels, Clock};
use ratatui::crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph};
use ratatui::{DefaultTerminal, Frame};

use super::feed::{Event, Feed, Judged, Live, SessionView, Snapshot};
use super::{hms, WatchArgs};
use crate::error::CliError;
use crate::home::Context;

/// How long one wait for a key lasts: the view redraws (and may poll) this often.
const TICK: Duration = Duration::from_millis(100);

/// Items of a session read for the view (the newest; as many as a tall terminal shows).
const ITEMS: usize = 200;

/// Claims listed under the sessions.
const CLAIMS: usize = 50;

struct App {
    feed: Feed,
    clock: Clock,
    colors: bool,
    base: ListFilter,
    sessions: usize,
    /// The agent filter `a` cycles through; `None` is every agent.
    agent: Option<String>,
    snap: Snapshot,
    selected: usize,
    /// The session opened with Enter.
    open: Option<i64>,
    paused: bool,
    live: Live,
    error: Option<String>,
    /// The items and findings shown for the selected (or open) session, and for which
    /// (session, item count) they were read.
    events: Vec<Event>,
    session_judged: Vec<Judged>,
    loaded_for: Option<(i64, i64)>,
    has_index: bool,
}

impl App {
    fn filter(&self) -> ListFilter {
        ListFilter {
            provider: self.agent.clone(),
            ..self.base.clone()
        }
    }

    fn current(&self) -> Option<&SessionView> {
        match self.open {
            Some(id) => self.snap.sessions.iter().find(|s| s.id == id),
            None => self.snap.sessions.get(self.selected),
        }
    }

    fn refresh(&mut self) {
        self.live = self.feed.live();
        self.has_index = self.feed.has_index();
        let filter = self.filter();
        match self.feed.poll(&filter, self.sessions, CLAIMS) {
            Ok(Some(snap)) => {
                self.snap = snap;
                self.error = None;
                // A verdict may have been stored after the items it judges: read again.
                self.loaded_for = None;
            }
            Ok(None) => {}
            Err(e) => self.error = Some(e.to_string()),
        }
        self.selected = self
            .selected
            .min(self.snap.sessions.len().saturating_sub(1));
        self.load_session();
    }

    /// Reads the selected session's items again when it or its item count changed.
    fn load_session(&mut self) {
        let Some((id, items)) = self.current().map(|s| (s.id, s.items)) else {
            self.events.clear();
            self.session_judged.clear();
            self.loaded_for = None;
            return;
        };
        if self.loaded_for == Some((id, items)) {
            return;
        }
        let total = usize::try_from(items).unwrap_or(0);
        let from = total.saturating_sub(ITEMS);
        match (
            self.feed.events(id, from, ITEMS, 160),
            self.feed.judged_in(id),
        ) {
            (Ok(events), Ok(judged)) => {
                self.events = events;
                self.session_judged = judged;
                self.loaded_for = Some((id, items));
            }
            (Err(e), _) | (_, Err(e)) => self.error = Some(e.to_string()),
        }
    }

    fn cycle_agent(&mut self) {
        let providers = &self.snap.providers;
        self.agent = match &self.agent {
            None => providers.first().cloned(),
            Some(cur) => providers
                .iter()
                .position(|p| p == cur)
                .and_then(|i| providers.get(i + 1))
                .cloned(),
        };
        self.selected = 0;
        self.open = None;
        self.loaded_for = None;
    }

    /// Handles one key; `false` means quit.
    fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> bool {
        match code {
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => return false,
            KeyCode::Char('q') => return false,
            KeyCode::Esc | KeyCode::Backspace | KeyCode::Left if self.open.is_some() => {
                self.open = None;
                self.loaded_for = None;
            }
            KeyCode::Esc => return false,
            KeyCode::Up | KeyCode::Char('k') if self.open.is_none() => {
                self.selected = self.selected.saturating_sub(1);
            }
            KeyCode::Down | KeyCode::Char('j')
                if self.open.is_none() && self.selected + 1 < self.snap.sessions.len() =>
            {
                self.selected += 1;
            }
            KeyCode::Enter | KeyCode::Right if self.open.is_none() => {
                self.open = self.snap.sessions.get(self.selected).map(|s| s.id);
            }
            KeyCode::Char('a') => self.cycle_agent(),
            KeyCode::Char('p') | KeyCode::Char(' ') => self.paused = !self.paused,
            KeyCode::Char('r') => self.feed.invalidate(),
            _ => {}
        }
        self.load_session();
        true
    }
}

pub fn run(ctx: &Context, args: &WatchArgs, base: ListFilter) -> Result<(), CliError> {
    let mut app = App {
        feed: Feed::new(ctx),
        clock: fornax_ui::env::clock(args.time.utc),
        colors: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        agent: base.provider.clone(),
        base,
        sessions: args.sessions,
        snap: Snapshot::default(),
        selected: 0,
        open: None,
        paused: false,
        live: Live {
            daemon: super::feed::Daemon::Down,
            waiting_bytes: 0,
            oldest_segment: None,
        },
        error: None,
        events: Vec::new(),
        session_judged: Vec::new(),
        loaded_for: None,
        has_index: false,
    };
    app.refresh();
    let mut terminal = ratatui::try_init()
        .map_err(|e| anyhow::Error::new(e).context("setting up the terminal"))?;
    let result = event_loop(&mut terminal, &mut app, args.interval());
    ratatui::try_restore().map_err(|e| anyhow::Error::new(e).context("restoring the terminal"))?;
    result
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    interval: Duration,
) -> Result<(), CliError> {
    let mut last = Instant::now();
    loop {
        terminal
            .draw(|f| draw(f, app))
            .map_err(|e| anyhow::Error::new(e).context("drawing"))?;
        if event::poll(TICK).map_err(anyhow::Error::new)? {
            if let TermEvent::Key(k) = event::read().map_err(anyhow::Error::new)? {
                if k.kind == KeyEventKind::Press && !app.key(k.code, k.modifiers) {
                    return Ok(());
                }
            }
        }
        if !app.paused && last.elapsed() >= interval {
            app.refresh();
            last = Instant::now();
        }
    }
}

fn verdict_style(colors: bool, verdict: &str) -> Style {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    if !colors {
        return bold;
    }
    match verdict {
        "VERIFIED" => bold.fg(Color::Green),
        "CONTRADICTED" => bold.fg(Color::Red),
        "REVIEW" => bold.fg(Color::Yellow),
        "UNAVAILABLE" => Style::default().fg(Color::Magenta),
        _ => Style::default().add_modifier(Modifier::DIM),
    }
}

fn dim() -> Style {
    Style::default().add_modifier(Modifier::DIM)
}

fn draw(f: &mut Frame, app: &App) {
    let [header, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(1),
    ])
    .areas(f.area());
    draw_header(f, app, header);
    match app.open {
        Some(_) => draw_open(f, app, body),
        None => draw_overview(f, app, body),
    }
    let help = if app.open.is_some() {
        "esc back · a agent · p pause · r refresh · q quit"
    } else {
        "↑↓ select · enter open · a agent · p pause · r refresh · q quit"
    };
    f.render_widget(Paragraph::new(Span::styled(help, dim())), keys);
}

fn draw_header(f: &mut Frame, app: &App, area: Rect) {
    let agent = app
        .agent
        .as_deref()
        .map_or("all agents".to_string(), |a| labels::agent(a).to_string());
    let mut spans = vec![
        Span::styled(
            "fornax watch",
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(" · {} · {agent}", app.live.describe())),
    ];
    if app.paused {
        spans.push(Span::styled(
            " · PAUSED",
            Style::default().add_modifier(Modifier::REVERSED),
        ));
    }
    if let Some(e) = &app.error {
        spans.push(Span::raw(format!(" · error: {e}")));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_overview(f: &mut Frame, app: &App, area: Rect) {
    let claims_height = (app.snap.judged.len() as u16 + 2).min((area.height / 3 + 1).max(3));
    let [top, claims] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(claims_height)]).areas(area);
    let [list, items] =
        Layout::horizontal([Constraint::Percentage(38), Constraint::Percentage(62)]).areas(top);
    draw_sessions(f, app, list);
    let title = app.current().map_or(" no session ".to_string(), |s| {
        format!(
            " {} · {} {} ",
            s.title,
            labels::agent(&s.provider),
            s.short_id()
        )
    });
    draw_events(f, app, items, &title);
    draw_judged(
        f,
        app,
        claims,
        &app.snap.judged,
        " Claims, newest verdict first ",
    );
}

fn draw_open(f: &mut Frame, app: &App, area: Rect) {
    let claims_height = (app.session_judged.len() as u16 + 2).min((area.height / 2).max(3));
    let [items, claims] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(claims_height)]).areas(area);
    let title = app.current().map_or(" session ".to_string(), |s| {
        format!(
            " {} · {} {} · {} ",
            s.title,
            labels::agent(&s.provider),
            s.native_id,
            s.project
        )
    });
    draw_events(f, app, items, &title);
    draw_judged(
        f,
        app,
        claims,
        &app.session_judged,
        " This session's claims ",
    );
}

fn draw_sessions(f: &mut Frame, app: &App, area: Rect) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" Sessions ({}) ", app.snap.sessions.len()));
    if app.snap.sessions.is_empty() {
        let text = if app.has_index {
            "no sessions yet"
        } else {
            "no index yet: `fornax scan`, or start the daemon"
        };
        f.render_widget(Paragraph::new(Span::styled(text, dim())).block(block), area);
        return;
    }
    let rows: Vec<ListItem> = app
        .snap
        .sessions
        .iter()
        .map(|s| {
            let when = s
                .last_activity
                .as_deref()
                .map_or("-".to_string(), |t| app.clock.when(t));
            let mut first = vec![
                Span::raw(format!("{} {} ", labels::agent(&s.provider), s.short_id())),
                Span::styled(when, dim()),
            ];
            for (v, n) in fornax_ui::present::verdict::ordered_counts(&s.verdicts) {
                first.push(Span::raw(" "));
                first.push(Span::styled(
                    format!("{}{n}", fornax_ui::present::verdict::symbol(v)),
                    verdict_style(app.colors, v.as_str()),
                ));
            }
            ListItem::new(vec![
                Line::from(first),
                Line::from(Span::styled(
                    format!("  {} · {}", s.title, s.project),
                    dim(),
                )),
            ])
        })
        .collect();
    let mut state = ListState::default().with_selected(Some(app.selected));
    let list = List::new(rows)
        .block(block)
        .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
        .highlight_symbol("›");
    f.render_stateful_widget(list, area, &mut state);
}

fn draw_events(f: &mut Frame, app: &App, area: Rect, title: &str) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title.to_string());
    let room = usize::from(area.height.saturating_sub(2));
    let from = app.events.len().saturating_sub(room);
    let lines: Vec<Line> = app.events[from..]
        .iter()
        .map(|e| {
            Line::from(vec![
                Span::styled(format!("{} ", hms(&app.clock, e.at.as_deref())), dim()),
                Span::styled(
                    format!("{:<10} ", e.role),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(e.body.clone()),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(block), area);
}

fn draw_judged(f: &mut Frame, app: &App, area: Rect, judged: &[Judged], title: &str) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title.to_string());
    if judged.is_empty() {
        f.render_widget(
            Paragraph::new(Span::styled("no claims judged yet", dim())).block(block),
            area,
        );
        return;
    }
    let lines: Vec<Line> = judged
        .iter()
        .map(|j| {
            Line::from(vec![
                Span::styled(
                    format!("{:<12}", j.verdict),
                    verdict_style(app.colors, &j.verdict),
                ),
                Span::raw(format!(" “{}” ", j.claim)),
                Span::styled(
                    format!(
                        "{} {} · {}",
                        labels::agent(&j.provider),
                        j.session,
                        j.reason
                    ),
                    dim(),
                ),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(block), area);
}
