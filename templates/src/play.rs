//! The game page: the status line with the turn's controls under it, the board, what happened,
//! every legal move folded away, the record. One form carries the position once; every move is
//! a button of it (`play=…`), so a page grows with the legal moves, not with the game.

use maud::{Markup, html};

use crate::layout::{Preview, Skip, layout_with_skip};
use crate::parts::FORM;

/// The script that makes the page quicker to use; the page works without it.
pub const SCRIPT_HREF: &str = "/static/moot.js";

/// Everything the game page shows.
#[derive(Clone, Debug, Default)]
pub struct PlayView {
    /// The game's name, in the tab's title and the page's heading (`Herfor`).
    pub game_name: String,
    /// The status line at the top: whose turn it is and what they decide, or the result.
    pub status: StatusLine,
    /// A submission that was refused, with the engine's reason.
    pub notice: Option<Notice>,
    /// The board as inline SVG.
    pub board: Markup,
    /// The facts beside the board.
    pub panel: Markup,
    /// Who plays whom (two at one screen, or against the computer).
    pub opponent: Option<String>,
    /// The moves since the player now acting last acted, each with what it caused.
    pub last: Vec<HappenedView>,
    /// The moves the board does not offer (pass, swap, end the turn, answers, retreats): the
    /// turn's controls, under the status line.
    pub controls: Vec<ActionGroup>,
    /// Every legal move, folded away.
    pub groups: Vec<ActionGroup>,
    /// The form that carries the position and plays a move.
    pub form: TurnForm,
    /// The computer's hint: the button that asks for it, or its advice; `None` when the game is
    /// over or hints are not offered.
    pub hint: Option<HintView>,
    /// Whether there is a move to take back.
    pub can_undo: bool,
    /// The options page, preset to this game's options and opponent: the `New game` link.
    pub new_game_href: String,
    /// Once the game is over: the same game again from the start (same options, same
    /// opponent), offered beside the result.
    pub play_again_href: Option<String>,
    /// At a finished kept table: the rematch, in place of `play_again_href`.
    pub rematch: Option<OfferView>,
    /// At a kept table that goes on: a takeback, asked for or to ask.
    pub takeback: Option<OfferView>,
    /// The game's rules page, linked beside `New game`.
    pub rules_href: String,
    /// The score breakdown, once the game is over.
    pub score: Option<Vec<(String, String)>>,
    /// The move list under the board, with the record's downloads.
    pub record: RecordView,
    /// When the page shows an earlier position of the game, to look at: the steps through it.
    pub looking_back: Option<LookBackView>,
    /// The link preview of this position, when the page knows its own address.
    pub preview: Option<Preview>,
    /// What the page says while a move is sent (`The computer is thinking…`).
    pub waiting: String,
    /// Who moves now, as the page names them (`Black`, `You (Black)`): the script says
    /// who played the move it sends.
    pub mover: String,
    /// At a kept table: who sits where, the clock, resigning and claiming.
    pub table: Option<TableView>,
    /// Where the script fetches the position after a step of a turn it composes: the game
    /// page of the position (its `moves` get the steps); `None`: the form's own page.
    pub steps_href: Option<String>,
    /// The words of the move sound's toggle, which the script shows (`Move sound`).
    pub sound: String,
}

/// What a kept table's page shows besides the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableView {
    /// Who plays whom, one sentence each.
    pub lines: Vec<String>,
    /// The clock's line, or without a deadline its sentence in `lines`.
    pub clock: Option<ClockView>,
    /// The page again, which the script loads when the table changes; `None` once the table
    /// is over.
    pub reload_href: Option<String>,
    /// The link to `reload_href` in words, shown only while the seat waits for its opponent
    /// (the script hides it while live updates follow the table).
    pub reload_words: Option<String>,
    /// Where the seat's resignation is sent; `None` when it may not resign (watching, over).
    pub resign_action: Option<String>,
    /// Where the seat's claim of a win on time is sent, once the opponent's move is overdue.
    pub claim_action: Option<String>,
    /// Where the seat's abort is sent, while a seat has not moved yet.
    pub abort_action: Option<String>,
    /// Where the seat starts or ends its vacation, and the button's words, where the clock
    /// gives vacation.
    pub vacation: Option<(String, String)>,
    /// The spectators' page, to share.
    pub watch_href: Option<String>,
    /// The table's event stream, while it goes on: the script reloads the page (at
    /// `reload_href`) when an event other than change `seq` arrives.
    pub events_href: Option<String>,
    /// The table's change number as the page shows it (the ply, and one more for a
    /// resignation or a win on time).
    pub seq: u64,
    /// The page's seat is to act: the tab's title says so.
    pub your_turn: bool,
    /// "Turn on notifications", on the browser's own seat's page (its player's notices).
    pub notifications: Option<crate::notifications::NotificationsView>,
}

/// An offer between a table's seats (a rematch at a finished table, a takeback while it goes
/// on) as a seat or a spectator sees it: where it stands, and what may be done (each a form
/// that posts, so it works without the script).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OfferView {
    /// Where the offer stands (`Bo offers a rematch: you would play White.`), if made.
    pub line: Option<String>,
    /// The page it opened (a rematch's, once accepted), and its link's words.
    pub link: Option<(String, String)>,
    /// The forms: where each posts, its button's words, and whether it is the main action.
    pub actions: Vec<(String, String, bool)>,
}

/// A table's clock: the time left for the awaited move, counted down by the script, and its
/// deadline (`<time datetime>`), which the script writes in the viewer's time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockView {
    /// Before the time left (`3 days per move: `).
    pub lead: String,
    /// The time left when the page was made, in milliseconds (negative once past).
    pub left_ms: i64,
    /// The time left in words (`2 d 4 h left`).
    pub left: String,
    /// Between the time left and the deadline (` for your move, due by `).
    pub middle: String,
    /// The deadline, machine-readable (`2026-12-05T15:00:00Z`).
    pub deadline: String,
    /// The deadline in words (`2026-12-05 15:00 UTC`).
    pub deadline_words: String,
}

/// The status line at the top of the game page: whose turn it is, or the result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatusLine {
    /// In bold, who acts or how the game ended (`Black to play`, `Game over: Red wins`).
    pub headline: String,
    /// After a dash, what the player decides or why the game ended (`place a stone or pass`);
    /// nothing shown when empty.
    pub detail: String,
    /// The game is over: the line is styled as a result.
    pub finished: bool,
}

/// A refused submission, shown as an alert under the status line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notice {
    /// What was refused, in bold (`"c9" cannot be played`).
    pub title: String,
    /// Why, or what to do instead, in a sentence (for an illegal move, the engine's reason).
    pub detail: String,
}

/// One move played and what it did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HappenedView {
    /// Who played it (`Black`, `You`, `The computer`).
    pub by: String,
    /// The move in the game's notation (`c3`).
    pub notation: String,
    /// What it caused, in words, one item each (`A black stone on c3 flipped d4 to black`).
    pub events: Vec<String>,
}

/// The buttons of one kind of move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActionGroup {
    /// The kind of move, the group's heading (`Place a stone`, `Pass`).
    pub heading: String,
    /// The moves of that kind, one button each, in the order of the legal moves.
    pub actions: Vec<Action>,
    /// A choice beside the turn rather than a step of it (Hirþ's Penningr offer): its buttons
    /// are drawn as secondary controls, not filled, after the turn's own.
    pub secondary: bool,
}

/// A legal move as a button of the page's form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Action {
    /// What the move does, in words, the button's text (`Place a black stone on c3`).
    pub label: String,
    /// The move's notation, which the button sends and shows after its words.
    pub notation: String,
    /// The element id of its button in the list of every move (`move-7`).
    pub id: String,
    /// After it the same player acts again (a step of a Hirþ turn): the script composes the
    /// turn on the page and sends it whole.
    pub continues: bool,
}

/// The form of the page: a GET back to the page with the position in hidden fields, once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnForm {
    /// The play page's path, which the form's GET goes back to (a table's seat: where its
    /// POST goes).
    pub action: String,
    /// `get` (a link's page: the position is the query) or `post` (a table's seat: a move
    /// changes the table).
    pub method: String,
    /// The hidden fields carrying the position: the options, the opponent and the moves so far.
    pub hidden: Vec<(String, String)>,
    /// The name of the field (and of every move's button) holding the move(s) to play.
    pub field: String,
    /// The name of the undo button.
    pub undo_field: String,
    /// The name of the hint button.
    pub hint_field: String,
    /// What the typed-move field holds (the refused move, after a refusal).
    pub value: String,
    /// Where the record's download button sends the form.
    pub record_action: String,
}

/// The computer's advice: a button to ask for it, or its answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HintView {
    /// Whether to offer the button that asks for a hint (none is shown yet).
    pub ask: bool,
    /// The advice, in words (`The computer suggests: place on c3 …`).
    pub advice: Option<String>,
    /// The button that plays the advised move.
    pub play: Option<Action>,
    /// The advised move's notation when it is a legal move, for the board to mark its button.
    pub target: Option<String>,
}

/// The game's moves as the page lists them, turn by turn, each a link to the position after
/// it; with the record's downloads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordView {
    /// The listed turns, oldest first: all of them, or in a long game those around the
    /// position shown.
    pub turns: Vec<TurnEntry>,
    /// How many turns come before the listed ones.
    pub earlier: usize,
    /// How many turns come after the listed ones.
    pub later: usize,
    /// The start of the game, before the first move, to look at, when the list links it.
    pub start_href: Option<String>,
    /// Whether the page shows the start of the game (looking back at it): marked in the list.
    pub at_start: bool,
    /// The picture of the position to download (the picture API's link), if offered.
    pub picture_href: Option<String>,
    /// The game as an animation to download (the animation API's link), when it is short
    /// enough for one.
    pub animation_href: Option<String>,
    /// The file name a download starts with (`herfor`).
    pub file_stem: String,
    /// The record's own address, when it has one (a table's); else the form's record
    /// action, sent with the position.
    pub href: Option<String>,
}

/// One turn of the move list: a run of moves by one colour (one Herfor or Tara move, the
/// steps of a Hirþ turn).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnEntry {
    /// Its number in the game, from 1.
    pub number: usize,
    /// The colour that played it (`Black`).
    pub by: String,
    /// Its moves in notation, in order.
    pub moves: Vec<String>,
    /// The position after it; `None` when the page shows it.
    pub href: Option<String>,
    /// Whether the page shows the position after it, or one inside it.
    pub current: bool,
}

/// An earlier position of the game, shown to look at: where it stands, the steps to the
/// turns around it, the way back to the game and the way to play on from it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LookBackView {
    /// Where the position stands in the game (`After turn 3 of 12`).
    pub words: String,
    /// The position one turn earlier, if any.
    pub previous_href: Option<String>,
    /// The position one turn later.
    pub next_href: String,
    /// The game as it stands.
    pub back_href: String,
    /// The game from this position on, without the later moves.
    pub play_on_href: String,
}

/// The game page: the status line, the board with the facts and what happened beside it,
/// the turn's controls, every legal move folded away, and the record.
pub fn page(view: &PlayView) -> Markup {
    let title = match &view.table {
        Some(table) if table.your_turn => format!("Your turn · {}", view.game_name),
        _ => view.game_name.clone(),
    };
    let keys = step_keys(view);
    layout_with_skip(
        &title,
        view.preview.as_ref(),
        Skip::BOARD,
        html! {
            section.play data-waiting=(view.waiting) data-mover=(view.mover) data-steps=[view.steps_href.as_ref()]
                data-previous=[keys.previous] data-next=[keys.next] data-now=[keys.now] {
                h1 { (view.game_name) }
                div #game {
                    p #turn.status.finished[view.status.finished] role="status" {
                        strong { (view.status.headline) }
                        @if !view.status.detail.is_empty() { " — " (view.status.detail) }
                    }
                    @if let Some(looking) = &view.looking_back { (look_back(looking)) }
                    @if let Some(takeback) = &view.takeback { (takeback_part(takeback)) }
                    @if let Some(rematch) = &view.rematch {
                        (rematch_part(rematch, &view.new_game_href))
                    } @else if let Some(again) = &view.play_again_href {
                        p.again {
                            a.button href=(again) { "Play again" }
                            a.button.secondary href=(view.new_game_href) { "New game" }
                        }
                    }
                    @if let Some(opponent) = &view.opponent { p.opponent { (opponent) } }
                    @if let Some(table) = &view.table { (table_part(table)) }
                    @if let Some(notice) = &view.notice {
                        div.notice role="alert" {
                            strong { (notice.title) }
                            p { (notice.detail) }
                        }
                    }
                    (turn_form(&view.form))
                    // The turn's controls, then the board (one tab stop, arrow keys between
                    // its points): the keyboard meets them in the order the eye does.
                    (turn_controls(view))
                    div.table {
                        figure #board.board tabindex="-1" data-hint=[view.hint.as_ref().and_then(|h| h.target.as_ref())] { (view.board) }
                        div.side {
                            div.panel { (view.panel) }
                            @if !view.last.is_empty() { (happened(&view.last)) }
                            @if let Some(score) = &view.score { (score_table(score)) }
                            (all_moves(view))
                            (links(view))
                            // A setting of the player's, like the move sound: beside the
                            // game's links, not between the status and the board.
                            @if let Some(notifications) = view.table.as_ref().and_then(|t| t.notifications.as_ref()) {
                                (crate::notifications::control(notifications))
                            }
                        }
                    }
                    (record(&view.record, &view.form))
                }
            }
            script src=(SCRIPT_HREF) defer {}
        },
    )
}

/// Where the arrow keys step through the game (the script's, off the board and the fields).
struct StepKeys<'a> {
    /// Left: the position a turn earlier.
    previous: Option<&'a str>,
    /// Right: the position a turn later, while looking back.
    next: Option<&'a str>,
    /// The game as it stands, while looking back.
    now: Option<&'a str>,
}

fn step_keys(view: &PlayView) -> StepKeys<'_> {
    if let Some(looking) = &view.looking_back {
        return StepKeys {
            previous: looking.previous_href.as_deref(),
            next: Some(&looking.next_href),
            now: Some(&looking.back_href),
        };
    }
    // The game now: the turn before the last is the one listed before it (the page's own,
    // unlinked), or the start.
    let turns = &view.record.turns;
    let previous = match turns.iter().rposition(|turn| turn.href.is_none()) {
        Some(0) if view.record.earlier == 0 => view.record.start_href.as_deref(),
        Some(index) if index > 0 => turns[index - 1].href.as_deref(),
        _ => None,
    };
    StepKeys {
        previous,
        next: None,
        now: None,
    }
}

/// The form with the position, before every button that sends it (the board's, the turn's,
/// the list's: each names it).
fn turn_form(form: &TurnForm) -> Markup {
    html! {
        form id=(FORM) method=(form.method) action=(format!("{}#turn", form.action)) {
            // The default button, the form's first: Enter in the typed-move field plays the
            // typed move, not the first move of the board.
            button.default type="submit" tabindex="-1" aria-hidden="true" {}
            @for (name, value) in &form.hidden { input type="hidden" name=(name) value=(value); }
        }
    }
}

/// The turn's controls: the moves the board does not offer, undo, the hint and its answer.
fn turn_controls(view: &PlayView) -> Markup {
    let form = &view.form;
    html! {
        div.turn {
            // What a tap on the board that plays nothing says (the script writes it): here it
            // stays in sight on a phone, while the player scrolls the board.
            p #why.why role="status" {}
            @if !view.controls.is_empty() {
                div.controls aria-label="Your turn" role="group" {
                    @for group in &view.controls {
                        div.control-group {
                            span.heading { (group.heading) }
                            @for action in &group.actions { (move_button(action, &form.field, false, group.secondary)) }
                        }
                    }
                }
            }
            div.tools {
                @if view.can_undo {
                    button.secondary type="submit" form=(FORM) name=(form.undo_field) value="1" { "Undo the last move" }
                }
                @if view.hint.as_ref().is_some_and(|h| h.ask) {
                    button.secondary type="submit" form=(FORM) name=(form.hint_field) value="1" { "Hint" }
                }
                // On a phone, where the side's links are screens away (the result has its own).
                @if view.play_again_href.is_none() && view.rematch.is_none() {
                    a.button.secondary.new-game href=(view.new_game_href) { "New game" }
                }
            }
            @if let Some(hint) = view.hint.as_ref().filter(|h| h.advice.is_some()) {
                div.hint role="status" {
                    @if let Some(advice) = &hint.advice { p { (advice) } }
                    @if let Some(play) = &hint.play { (move_button(play, &form.field, false, false)) }
                }
            }
        }
    }
}

/// A move's button: its words and its notation; a `secondary` one is not filled.
fn move_button(action: &Action, field: &str, listed: bool, secondary: bool) -> Markup {
    html! {
        button.move.secondary[secondary] type="submit" form=(FORM) name=(field) value=(action.notation)
            id=[listed.then_some(&action.id)] data-continues[action.continues] {
            (action.label) " " code { (action.notation) }
        }
    }
}

fn happened(plies: &[HappenedView]) -> Markup {
    html! {
        section.happened aria-label="What happened" {
            h2 { "What happened" }
            ol {
                @for ply in plies {
                    li {
                        (ply.by) " played " code { (ply.notation) }
                        @if !ply.events.is_empty() {
                            ul { @for event in &ply.events { li { (event) } } }
                        }
                    }
                }
            }
        }
    }
}

fn score_table(rows: &[(String, String)]) -> Markup {
    html! {
        section.score {
            h2 { "Score" }
            table.score {
                tbody {
                    @for (name, value) in rows { tr { th scope="row" { (name) } td { (value) } } }
                }
            }
        }
    }
}

/// Every legal move under its heading, folded away, and the field to type one.
fn all_moves(view: &PlayView) -> Markup {
    let count: usize = view.groups.iter().map(|g| g.actions.len()).sum();
    html! {
        @if count > 0 {
            details.actions {
                summary { "Every legal move (" (count) ")" }
                section.actions aria-label="Every legal move" {
                    @for group in &view.groups {
                        h2 { (group.heading) }
                        ul.actions {
                            @for action in &group.actions {
                                li { (move_button(action, &view.form.field, true, group.secondary)) }
                            }
                        }
                    }
                    div.notation {
                        label for="notation" { "Or type a move in notation" }
                        input #notation form=(FORM) type="text" name=(view.form.field) value=(view.form.value) autocomplete="off" spellcheck="false";
                        button type="submit" form=(FORM) { "Play" }
                    }
                }
            }
        }
    }
}

/// A kept table: who plays whom, the clock, a reload link, resigning and aborting (each behind
/// a second click) and claiming.
fn table_part(table: &TableView) -> Markup {
    html! {
        div.table-seats data-events=[table.events_href.as_ref()] data-seq=(table.seq) data-reload=[table.reload_href.as_ref()] {
            @for line in &table.lines { p { (line) } }
            @if let Some(clock) = &table.clock {
                p.clock {
                    (clock.lead)
                    span.countdown data-left=(clock.left_ms) { (clock.left) }
                    (clock.middle)
                    time datetime=(clock.deadline) { (clock.deadline_words) }
                    "."
                }
            }
            p.links {
                @if let (Some(reload), Some(words)) = (&table.reload_href, &table.reload_words) {
                    a.reload href=(reload) { (words) }
                }
                @if let Some(watch) = &table.watch_href { a href=(watch) { "Spectators' page" } }
            }
            @if let Some(action) = &table.claim_action {
                form method="post" action=(action) {
                    button type="submit" { "Claim the win: the opponent's move is overdue" }
                }
            }
            @if let Some((action, words)) = &table.vacation {
                form method="post" action=(action) {
                    button.secondary type="submit" { (words) }
                }
            }
            @if let Some(action) = &table.abort_action {
                details.resign.abort {
                    summary { "Abort…" }
                    form method="post" action=(action) {
                        button.secondary type="submit" { "Yes, call this game off: no result" }
                    }
                }
            }
            @if let Some(action) = &table.resign_action {
                details.resign {
                    summary { "Resign…" }
                    form method="post" action=(action) {
                        button.secondary type="submit" { "Yes, resign this game" }
                    }
                }
            }
        }
    }
}

/// A takeback at a table that goes on: where it stands, and its forms.
fn takeback_part(takeback: &OfferView) -> Markup {
    html! {
        section.takeback aria-label="Takeback" {
            @if let Some(line) = &takeback.line { p.takeback-line role="status" { (line) } }
            @if !takeback.actions.is_empty() {
                div.again {
                    @for (action, label, main) in &takeback.actions {
                        form method="post" action=(action) {
                            @if *main {
                                button type="submit" { (label) }
                            } @else {
                                button.secondary type="submit" { (label) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A finished table's rematch: where it stands, its forms, and a new game.
fn rematch_part(rematch: &OfferView, new_game: &str) -> Markup {
    html! {
        section.rematch aria-label="Rematch" {
            @if let Some(line) = &rematch.line { p.rematch-line role="status" { (line) } }
            div.again {
                @if let Some((href, words)) = &rematch.link { a.button href=(href) { (words) } }
                @for (action, label, main) in &rematch.actions {
                    form method="post" action=(action) {
                        @if *main {
                            button type="submit" { (label) }
                        } @else {
                            button.secondary type="submit" { (label) }
                        }
                    }
                }
                a.button.secondary href=(new_game) { "New game" }
            }
        }
    }
}

fn links(view: &PlayView) -> Markup {
    html! {
        p.links {
            a.button.secondary href=(view.new_game_href) { "New game" }
            // A setting, set once: beside the game's links, not in the turn's bar. The
            // script's: hidden without it, which makes the sound.
            button.secondary #sound type="button" aria-pressed="false" hidden { (view.sound) }
            a href=(view.rules_href) { "Rules" }
        }
    }
}

/// The bar over an earlier position: where it stands, a turn back and on, back to the game.
fn look_back(looking: &LookBackView) -> Markup {
    html! {
        nav.look-back aria-label="Step through the game" {
            p { strong { (looking.words) } " — the game goes on after it; no move is played here." }
            p.steps {
                @if let Some(previous) = &looking.previous_href {
                    a.button.secondary href=(previous) rel="prev" { "◀ Turn before" }
                }
                a.button.secondary href=(looking.next_href) rel="next" { "Turn after ▶" }
                a.button href=(looking.back_href) { "Back to the game" }
                a href=(looking.play_on_href) { "Play on from here" }
            }
        }
    }
}

fn record(record: &RecordView, form: &TurnForm) -> Markup {
    html! {
        section.record {
            h2 { "Moves" }
            @if record.turns.is_empty() {
                p { "No move yet." }
            } @else {
                ol.moves aria-label="Every turn: each a link to the position after it" {
                    @if record.at_start {
                        li.start { span.here aria-current="step" { "Start" } }
                    } @else if let Some(start) = &record.start_href {
                        li.start { a href=(start) { "Start" } }
                    }
                    @if record.earlier > 0 {
                        li.gap { (record.earlier) " earlier turns" }
                    }
                    @for turn in &record.turns {
                        li {
                            @let words = html! {
                                span.n { (turn.number) "." }
                                span.by { (turn.by) }
                                @for mv in &turn.moves { " " code { (mv) } }
                            };
                            @if let Some(href) = &turn.href {
                                a href=(href) aria-current=[turn.current.then_some("step")] { (words) }
                            } @else {
                                span.here aria-current="step" { (words) }
                            }
                        }
                    }
                    @if record.later > 0 {
                        li.gap { (record.later) " later turns" }
                    }
                }
            }
            p.downloads {
                @if !record.turns.is_empty() {
                    @if let Some(href) = &record.href {
                        a.button.secondary href=(href) download { "Download the record" }
                    } @else {
                        button.secondary type="submit" form=(FORM) formaction=(form.record_action) { "Download the record" }
                    }
                }
                @if let Some(href) = &record.picture_href {
                    a.button.secondary href=(href) download=(format!("{}.png", record.file_stem)) { "Download the picture" }
                }
                @if let Some(href) = &record.animation_href {
                    a.button.secondary href=(href) download=(format!("{}-game.png", record.file_stem)) { "Download the animation" }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> PlayView {
        PlayView {
            game_name: "Herfor".into(),
            status: StatusLine {
                headline: "Black to play".into(),
                detail: "place a black stone".into(),
                finished: false,
            },
            groups: vec![ActionGroup {
                heading: "Placements".into(),
                actions: vec![Action {
                    label: "Place on a1".into(),
                    notation: "a1".into(),
                    id: "move-0".into(),
                    continues: false,
                }],
                secondary: false,
            }],
            form: TurnForm {
                action: "/play/herfor".into(),
                method: "get".into(),
                hidden: vec![("moves".into(), "c3.b2".into())],
                field: "play".into(),
                undo_field: "undo".into(),
                hint_field: "hint".into(),
                value: String::new(),
                record_action: "/play/herfor/record".into(),
            },
            record: RecordView {
                turns: ["c3", "b2"]
                    .iter()
                    .enumerate()
                    .map(|(i, mv)| TurnEntry {
                        number: i + 1,
                        by: ["Black", "White"][i].into(),
                        moves: vec![(*mv).into()],
                        href: (i == 0).then(|| "/play/herfor?moves=c3.b2&at=1".into()),
                        current: i == 1,
                    })
                    .collect(),
                start_href: Some("/play/herfor?moves=c3.b2&at=0".into()),
                ..RecordView::default()
            },
            ..PlayView::default()
        }
    }

    #[test]
    fn every_move_is_a_button_of_the_one_form_that_carries_the_position() {
        let page = page(&view()).into_string();
        assert!(page.contains(r#"<h2>Placements</h2><ul class="actions"><li><button class="move" type="submit" form="play" name="play" value="a1" id="move-0">Place on a1 <code>a1</code></button></li></ul>"#), "{page}");
        assert_eq!(
            page.matches(r#"<input type="hidden" name="moves" value="c3.b2">"#)
                .count(),
            1,
            "the moves are carried once"
        );
        assert!(page.contains(r#"<li><a href="/play/herfor?moves=c3.b2&amp;at=1"><span class="n">1.</span><span class="by">Black</span> <code>c3</code></a></li>"#), "{page}");
        assert!(
            page.contains(r#"<span class="here" aria-current="step"><span class="n">2.</span><span class="by">White</span> <code>b2</code></span>"#),
            "the position shown is marked, not linked: {page}"
        );
        assert!(page.contains(r#"formaction="/play/herfor/record""#));
        assert!(!page.contains("role=\"alert\""));
        assert!(page.contains(r#"<script src="/static/moot.js" defer></script>"#));
    }

    #[test]
    fn the_turns_controls_come_before_the_board_for_the_keyboard_and_the_form_before_them() {
        let mut view = view();
        view.controls = vec![ActionGroup {
            heading: "Pass".into(),
            actions: vec![Action {
                label: "Pass".into(),
                notation: "pass".into(),
                id: "move-1".into(),
                continues: false,
            }],
            secondary: false,
        }];
        view.can_undo = true;
        let page = page(&view).into_string();
        let status = page.find("role=\"status\"").expect("a status line");
        let form = page.find(r#"<form id="play""#).expect("the form");
        let pass = page.find(r#"value="pass""#).expect("the pass button");
        let undo = page.find("Undo the last move").expect("undo");
        let board = page.find("<figure").expect("the board");
        // Above the board for the eye and for the keyboard, under the status line.
        assert!(status < form && form < pass && form < undo, "{page}");
        assert!(pass < board && undo < board, "{page}");
        // The form's first button is its default: Enter in the typed move does not play a
        // board's move.
        assert!(page[form..].starts_with(r#"<form id="play" method="get" action="/play/herfor#turn"><button class="default" type="submit""#));
    }

    /// A secondary group's buttons (Hirþ's Penningr offer) are drawn unfilled, in the turn's
    /// controls and in the list of every move; the others stay filled.
    #[test]
    fn a_secondary_groups_buttons_are_not_filled() {
        let mut view = view();
        let action = |notation: &str| Action {
            label: notation.into(),
            notation: notation.into(),
            id: format!("move-{notation}"),
            continues: false,
        };
        view.controls = vec![
            ActionGroup {
                heading: "End the turn".into(),
                actions: vec![action("end")],
                secondary: false,
            },
            ActionGroup {
                heading: "The Penningr".into(),
                actions: vec![action("offer")],
                secondary: true,
            },
        ];
        view.groups = view.controls.clone();
        let page = page(&view).into_string();
        assert!(
            page.contains(
                r#"<button class="move" type="submit" form="play" name="play" value="end">"#
            ),
            "{page}"
        );
        assert!(page.contains(r#"<button class="move secondary" type="submit" form="play" name="play" value="offer">"#), "{page}");
        assert!(page.contains(r#"<button class="move secondary" type="submit" form="play" name="play" value="offer" id="move-offer">"#), "{page}");
    }

    #[test]
    fn an_earlier_position_has_steps_back_and_on_above_the_board() {
        let mut view = view();
        view.looking_back = Some(LookBackView {
            words: "After turn 1 of 2".into(),
            previous_href: Some("/play/herfor?moves=c3.b2&at=0".into()),
            next_href: "/play/herfor?moves=c3.b2".into(),
            back_href: "/play/herfor?moves=c3.b2".into(),
            play_on_href: "/play/herfor?moves=c3".into(),
        });
        let page = page(&view).into_string();
        let steps = page
            .find(r#"<nav class="look-back" aria-label="Step through the game">"#)
            .expect("the steps");
        assert!(steps < page.find("<figure").expect("the board"), "{page}");
        for link in [
            r#"href="/play/herfor?moves=c3.b2&amp;at=0" rel="prev">◀ Turn before</a>"#,
            r#"href="/play/herfor?moves=c3.b2" rel="next">Turn after ▶</a>"#,
            r#"<a class="button" href="/play/herfor?moves=c3.b2">Back to the game</a>"#,
            r#"<a href="/play/herfor?moves=c3">Play on from here</a>"#,
        ] {
            assert!(page.contains(link), "{link}: {page}");
        }
    }

    #[test]
    fn the_arrow_keys_step_to_the_turn_before_and_while_looking_back_on_and_to_the_game() {
        let page = page(&view()).into_string();
        assert!(
            page.contains(r#"data-previous="/play/herfor?moves=c3.b2&amp;at=1">"#),
            "the game now: a turn back is the turn listed before it: {page}"
        );
        assert!(!page.contains("data-next=") && !page.contains("data-now="));
        let mut first = view();
        first.record.turns.truncate(1);
        first.record.turns[0].href = None;
        let page = super::page(&first).into_string();
        assert!(
            page.contains(r#"data-previous="/play/herfor?moves=c3.b2&amp;at=0">"#),
            "after the first turn a turn back is the start: {page}"
        );
        let mut looking = view();
        looking.looking_back = Some(LookBackView {
            words: "After turn 1 of 2".into(),
            previous_href: None,
            next_href: "/play/herfor?moves=c3.b2&at=2".into(),
            back_href: "/play/herfor?moves=c3.b2".into(),
            play_on_href: "/play/herfor?moves=c3".into(),
        });
        let page = super::page(&looking).into_string();
        assert!(!page.contains("data-previous="), "{page}");
        assert!(page.contains(r#"data-next="/play/herfor?moves=c3.b2&amp;at=2" data-now="/play/herfor?moves=c3.b2">"#), "{page}");
    }

    #[test]
    fn play_page_shows_a_refusal_as_an_alert() {
        let mut view = view();
        view.notice = Some(Notice {
            title: "c3 cannot be played".into(),
            detail: "c3 already holds a black stone".into(),
        });
        let page = page(&view).into_string();
        assert!(page.contains("<div class=\"notice\" role=\"alert\"><strong>c3 cannot be played</strong><p>c3 already holds a black stone</p></div>"));
    }

    #[test]
    fn finished_game_shows_the_score_and_no_moves() {
        let mut view = view();
        view.groups.clear();
        view.status.finished = true;
        view.play_again_href = Some("/play/herfor?moves=".into());
        view.new_game_href = "/play/herfor?computer=".into();
        view.score = Some(vec![("Black total".into(), "5".into())]);
        let page = page(&view).into_string();
        assert!(page.contains("<th scope=\"row\">Black total</th><td>5</td>"));
        assert!(page.contains("class=\"status finished\""));
        // Play again and New game right under the result.
        let result = page.find("class=\"status finished\"").expect("the result");
        let again = page
            .find(r#"<p class="again"><a class="button" href="/play/herfor?moves=">Play again</a><a class="button secondary" href="/play/herfor?computer=">New game</a></p>"#)
            .expect("play again beside the result");
        assert!(result < again && again < page.find("<figure").expect("the board"));
        assert!(!page.contains("Or type a move"));
    }
}
