//! The options page: choose a game's options (and an opponent), then start.

use maud::{Markup, html};

use crate::layout::layout;

/// What the options page shows: a form with one field per option, and a way to the rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptionsView {
    /// The game's name, in the title and the heading (`Play Herfor`).
    pub game_name: String,
    /// Where the form goes (GET).
    pub action: String,
    /// The choices, one field each, in the order the form shows them.
    pub fields: Vec<OptionField>,
    /// Hidden fields sent with the choices (the empty move list that starts the game).
    pub hidden: Vec<(String, String)>,
    /// The game's rules page, linked above the form.
    pub rules_href: String,
    /// Where "Play a friend" posts the form to open a kept table, when the server keeps
    /// tables.
    pub friend_action: Option<String>,
}

/// The clocks a friend's table may have, as the form offers them: days per move (empty: none).
pub const DAYS_PER_MOVE: [(&str, &str); 6] = [
    ("", "No clock"),
    ("1", "1 day per move"),
    ("3", "3 days per move"),
    ("7", "7 days per move"),
    ("14", "14 days per move"),
    ("30", "30 days per move"),
];

/// The name of the friend form's clock field.
pub const DAYS_FIELD: &str = "days";

/// The fields of a clock of one's own, on the friend form and the challenge forms: its kind
/// (`per_move` or `bank`; empty: the days per move chosen), its hours (per move, or the
/// bank's start), the bank's increment and maximum in hours, weekends paused (a checkbox),
/// what its expiry does (`ends` or `claim`), and vacation days a year.
pub const CLOCK_FIELDS: [&str; 7] = [
    "clock_kind",
    "clock_hours",
    "clock_increment",
    "clock_max",
    "clock_weekends",
    "clock_expiry",
    "clock_vacation",
];

/// A clock of one's own: its fields (see [`CLOCK_FIELDS`]) in a `details` that opens without
/// a script; their ids begin with `prefix`.
pub fn clock_fields(prefix: &str) -> Markup {
    let [kind, hours, increment, max, weekends, expiry, vacation] = CLOCK_FIELDS;
    let id = |name: &str| format!("{prefix}-{name}");
    html! {
        details.clock-fields {
            summary { "A clock of your own (hours per move, or a time bank)" }
            div.field {
                label for=(id(kind)) { "Kind" }
                select id=(id(kind)) name=(kind) {
                    option value="" selected { "The clock chosen above" }
                    option value="per_move" { "Hours per move" }
                    option value="bank" { "A time bank, with an increment per move" }
                }
            }
            div.field {
                label for=(id(hours)) { "Hours (per move, or the bank's start)" }
                input id=(id(hours)) type="number" name=(hours) min="1" max="1440" value="72";
            }
            div.field {
                label for=(id(increment)) { "Bank: hours added after each move" }
                input id=(id(increment)) type="number" name=(increment) min="0" max="1440" value="24";
            }
            div.field {
                label for=(id(max)) { "Bank: the most hours it holds" }
                input id=(id(max)) type="number" name=(max) min="1" max="1440" value="240";
            }
            div.field {
                label for=(id(weekends)) {
                    input id=(id(weekends)) type="checkbox" name=(weekends) value="on";
                    " Weekends do not count (Saturday and Sunday, UTC)"
                }
            }
            div.field {
                label for=(id(expiry)) { "When time runs out" }
                select id=(id(expiry)) name=(expiry) {
                    option value="ends" selected { "The game ends: the waiting player wins" }
                    option value="claim" { "The waiting player may claim the win" }
                }
            }
            div.field {
                label for=(id(vacation)) { "Vacation days a year (each player)" }
                input id=(id(vacation)) type="number" name=(vacation) min="0" max="60" value="0";
            }
        }
    }
}

/// The names of the friend form's fields for the players' names: the creator's (who sits
/// first), the friend's.
pub const NAME_FIELDS: [&str; 2] = ["name", "friend"];

/// The longest name the friend form's fields take, in characters (the server's limit).
pub const NAME_CHARS: usize = 40;

/// One choice on the form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptionField {
    /// The name the choice is sent under (`size`): the field's name and, prefixed, its id.
    pub name: String,
    /// The choice's name for people, the field's label (`Size`, `Opponent`).
    pub label: String,
    /// A sentence under the field saying what the choice does, if there is one.
    pub help: Option<String>,
    /// How the choice is made: a list, a number or free text.
    pub input: OptionInput,
    /// Per choice (by value), the first player's colour with it, when this choice gives the
    /// first player a colour (Tara's `first`): the script writes it into the words that
    /// follow it ([`OptionField::follows_colour`]).
    pub first_colours: Vec<(String, String)>,
    /// Per choice (by value), its words with `{}` for the first player's colour (`The
    /// computer; you move first ({})`): the script writes them for the colour chosen on the
    /// form; without the script the choice's own words stand.
    pub follows_colour: Vec<(String, String)>,
}

/// How a choice is made on the options page.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionInput {
    /// One of a few values: (value, words).
    Choice {
        /// The values and their words, in the list's order.
        choices: Vec<(String, String)>,
        /// The value selected now.
        selected: String,
    },
    /// A whole number, in a number input (when the values are too many for a list).
    Number {
        /// The smallest value the input takes, if bounded.
        min: Option<i64>,
        /// The largest value the input takes, if bounded.
        max: Option<i64>,
        /// The value filled in now.
        value: String,
    },
    /// Free text, in a text input.
    Text {
        /// The text filled in now.
        value: String,
    },
}

impl Default for OptionInput {
    fn default() -> Self {
        OptionInput::Text {
            value: String::new(),
        }
    }
}

/// The options page: the form that starts a game with the choices made, and a link to the
/// rules.
pub fn page(view: &OptionsView) -> Markup {
    layout(
        &format!("Play {}", view.game_name),
        html! {
            section.options {
                h1 { "Play " (view.game_name) }
                p { "Choose the options, then start. " a href=(view.rules_href) { "Read the rules" } "." }
                form.options method="get" action=(view.action) {
                    @for (name, value) in &view.hidden { input type="hidden" name=(name) value=(value); }
                    @for field in &view.fields { (option_field(field)) }
                    // Both ways to start side by side, under the options both take: on a
                    // phone "Play a friend" is on the first screen too.
                    div.start {
                        button type="submit" { "Start the game" }
                        @if let Some(action) = &view.friend_action {
                            button.secondary type="submit" formaction=(action) aria-describedby="friend-note" { "Play a friend" }
                        }
                    }
                    @if view.friend_action.is_some() {
                        p #friend-note.note {
                            "Play a friend far away: Moot keeps the game, you get a link to your seat and one to send to your friend, and each of you plays when you like."
                        }
                    }
                }
            }
            script src=(crate::play::SCRIPT_HREF) defer {}
        },
    )
}

fn find<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn option_field(field: &OptionField) -> Markup {
    let id = format!("option-{}", field.name);
    html! {
        div.field {
            label for=(id) { (field.label) }
            @match &field.input {
                OptionInput::Choice { choices, selected } => {
                    select id=(id) name=(field.name) {
                        @for (value, words) in choices {
                            option value=(value) selected[value == selected]
                                data-first=[find(&field.first_colours, value)]
                                data-words=[find(&field.follows_colour, value)] { (words) }
                        }
                    }
                }
                OptionInput::Number { min, max, value } => {
                    input id=(id) type="number" name=(field.name) value=(value) min=[min] max=[max] required;
                }
                OptionInput::Text { value } => {
                    input id=(id) type="text" name=(field.name) value=(value);
                }
            }
            @if let Some(help) = &field.help { small { (help) } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_form_selects_the_current_choice_and_bounds_numbers() {
        let view = OptionsView {
            game_name: "Herfor".into(),
            action: "/play/herfor".into(),
            hidden: vec![("moves".into(), String::new())],
            rules_href: "/rules/herfor".into(),
            friend_action: None,
            fields: vec![
                OptionField {
                    name: "pie".into(),
                    label: "pie".into(),
                    help: None,
                    input: OptionInput::Choice {
                        choices: vec![("true".into(), "yes".into()), ("false".into(), "no".into())],
                        selected: "false".into(),
                    },
                    ..OptionField::default()
                },
                OptionField {
                    name: "size".into(),
                    label: "size".into(),
                    help: Some("Points per side".into()),
                    input: OptionInput::Number {
                        min: Some(3),
                        max: Some(7),
                        value: "5".into(),
                    },
                    ..OptionField::default()
                },
            ],
        };
        let page = page(&view).into_string();
        assert!(
            page.contains(
                r#"<option value="true">yes</option><option value="false" selected>no</option>"#
            ),
            "{page}"
        );
        assert!(page.contains(r#"<input id="option-size" type="number" name="size" value="5" min="3" max="7" required>"#), "{page}");
        assert!(page.contains(r#"<input type="hidden" name="moves" value="">"#));
        assert!(!page.contains("Play a friend"), "no tables: {page}");
    }

    #[test]
    fn play_a_friend_stands_beside_start_and_says_what_it_does() {
        let view = OptionsView {
            game_name: "Herfor".into(),
            action: "/play/herfor".into(),
            friend_action: Some("/play/herfor/friend".into()),
            ..OptionsView::default()
        };
        let page = page(&view).into_string();
        assert!(page.contains(r#"<div class="start"><button type="submit">Start the game</button><button class="secondary" type="submit" formaction="/play/herfor/friend" aria-describedby="friend-note">Play a friend</button></div>"#), "{page}");
        assert!(
            page.contains(
                r#"<p class="note" id="friend-note">Play a friend far away: Moot keeps the game"#
            ),
            "{page}"
        );
    }
}
