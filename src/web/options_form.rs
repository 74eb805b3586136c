//! The options form of a game, built from its options' defaults and their OpenAPI schema:
//! booleans and enumerations become choices, bounded numbers a number field.

use moot_templates::options::{OptionField, OptionInput, OptionsView};
use serde_json::Value;

use crate::paths;
use moot_present::link::{COMPUTER, Link, MOVES, STRENGTH};
use moot_present::page_game::PageGame;
use moot_present::words::capitalised;

use moot_ai::Strength;
use moot_games::{Game, Seat, Status};

/// Numbers with at most this many values are offered as a list.
const CHOICE_MAX: i64 = 8;

/// The options page, preset to the position's options; the computer is offered as an opponent
/// only where the server runs it (`computer_offered`), and chosen unless the link chose an
/// opponent (`opponent_chosen`: `computer=` names two people at one screen).
pub fn options_view<G: PageGame>(
    position: &Link<G>,
    computer_offered: bool,
    opponent_chosen: bool,
    friends_offered: bool,
) -> OptionsView {
    let schema =
        serde_json::to_value(<G::Options as utoipa::PartialSchema>::schema()).unwrap_or_default();
    let nested = nested_schemas::<G::Options>();
    let mut fields: Vec<OptionField> = position
        .option_pairs()
        .iter()
        .map(|(name, value)| {
            let property = schema.pointer(&format!("/properties/{name}")).cloned();
            let property = property.unwrap_or_default();
            // A player's words where the game has them; the API's otherwise.
            let words = G::option_words(name);
            OptionField {
                name: name.clone(),
                label: words.map_or_else(
                    || capitalised(&name.replace('_', " ")),
                    |w| w.label.to_owned(),
                ),
                help: words.map(|w| w.help.to_owned()).or_else(|| {
                    property["description"]
                        .as_str()
                        .map(|d| d.replace('\n', " "))
                }),
                input: input(&property, value, &nested),
                ..OptionField::default()
            }
        })
        .collect();
    if computer_offered {
        let varies = colour_choice::<G>(position, &fields);
        if let Some((index, colours)) = &varies {
            fields[*index].first_colours = colours.clone();
        }
        fields.extend(opponent_fields(position, varies.is_some(), opponent_chosen));
    }
    OptionsView {
        game_name: G::NAME.to_owned(),
        action: paths::play(G::ID),
        fields,
        hidden: vec![(MOVES.to_owned(), String::new())],
        rules_href: paths::rules(G::ID),
        friend_action: friends_offered.then(|| paths::friend(G::ID)),
    }
}

/// The colour of the first player with these options.
fn first_colour<G: Game>(options: &G::Options) -> Option<String> {
    G::new_game(options)
        .ok()
        .and_then(|state| match G::status(&state) {
            Status::Ongoing { colour, .. } => Some(colour),
            Status::Finished { .. } => None,
        })
}

/// The choice on the form that gives the first player another colour (Tara's `first`), if
/// any: its index, and the first player's colour with each of its values. Then the opponent's
/// choices name no colour the form may contradict (the script names the chosen one).
fn colour_choice<G: Game>(
    position: &Link<G>,
    fields: &[OptionField],
) -> Option<(usize, Vec<(String, String)>)> {
    let now = first_colour::<G>(&position.options);
    fields.iter().enumerate().find_map(|(index, field)| {
        let OptionInput::Choice { choices, .. } = &field.input else {
            return None;
        };
        let colours: Vec<(String, Option<String>)> = choices
            .iter()
            .map(|(value, _)| (value.clone(), first_colour_with(position, field, value)))
            .collect();
        if colours.iter().all(|(_, colour)| *colour == now) {
            return None;
        }
        let colours: Option<Vec<(String, String)>> = colours
            .into_iter()
            .map(|(value, colour)| Some((value, colour?)))
            .collect();
        colours.map(|colours| (index, colours))
    })
}

/// The first player's colour with the position's options but `field` set to `value`.
fn first_colour_with<G: Game>(
    position: &Link<G>,
    field: &OptionField,
    value: &str,
) -> Option<String> {
    let pairs: Vec<(String, String)> = position
        .option_pairs()
        .iter()
        .map(|(name, now)| {
            let chosen = if *name == field.name { value } else { now };
            (name.clone(), chosen.to_owned())
        })
        .collect();
    let (other, _) = Link::<G>::read(&moot_present::link::Query(pairs)).ok()?;
    first_colour::<G>(&other.options)
}

/// Who plays the other side, and how strongly the computer plays: the computer, moving
/// second, unless the link chose.
fn opponent_fields<G: Game>(
    position: &Link<G>,
    colour_varies: bool,
    opponent_chosen: bool,
) -> [OptionField; 2] {
    let first = match first_colour::<G>(&position.options) {
        Some(colour) if !colour_varies => format!("you move first ({colour})"),
        _ => "you move first".to_owned(),
    };
    let computer = position.opponent.map(|o| o.seat);
    let strength = position.opponent.map_or(Strength::Normal, |o| o.strength);
    [
        OptionField {
            name: COMPUTER.to_owned(),
            label: "Opponent".to_owned(),
            help: Some("Play against the computer, or against a friend at this screen.".into()),
            follows_colour: if colour_varies {
                vec![
                    (
                        "second".to_owned(),
                        "The computer; you move first ({})".to_owned(),
                    ),
                    (
                        "first".to_owned(),
                        "The computer; it moves first ({})".to_owned(),
                    ),
                ]
            } else {
                Vec::new()
            },
            first_colours: Vec::new(),
            input: OptionInput::Choice {
                choices: vec![
                    ("second".to_owned(), format!("The computer; {first}")),
                    (
                        "first".to_owned(),
                        "The computer; it moves first".to_owned(),
                    ),
                    (String::new(), "A friend at this screen".to_owned()),
                ],
                selected: match computer {
                    None if !opponent_chosen => "second".to_owned(),
                    None => String::new(),
                    Some(Seat::First) => "first".to_owned(),
                    Some(Seat::Second) => "second".to_owned(),
                },
            },
        },
        OptionField {
            name: STRENGTH.to_owned(),
            label: "Computer's strength".to_owned(),
            help: None,
            input: OptionInput::Choice {
                choices: Strength::ALL
                    .iter()
                    .map(|s| (s.name().to_owned(), capitalised(s.name())))
                    .collect(),
                selected: strength.name().to_owned(),
            },
            ..OptionField::default()
        },
    ]
}

/// The schemas the options refer to, by the name their references use.
fn nested_schemas<O: utoipa::ToSchema>() -> Vec<(String, Value)> {
    let mut schemas = Vec::new();
    O::schemas(&mut schemas);
    schemas
        .into_iter()
        .filter_map(|(name, schema)| Some((name, serde_json::to_value(schema).ok()?)))
        .collect()
}

fn input(property: &Value, value: &str, nested: &[(String, Value)]) -> OptionInput {
    let choice = |choices: Vec<(String, String)>| OptionInput::Choice {
        choices,
        selected: value.to_owned(),
    };
    if let Some(values) = enumeration(property, nested) {
        return choice(
            values
                .into_iter()
                .map(|v| (v.clone(), capitalised(&v)))
                .collect(),
        );
    }
    match property["type"].as_str() {
        Some("boolean") => choice(vec![
            ("true".into(), "Yes".into()),
            ("false".into(), "No".into()),
        ]),
        Some("integer") | Some("number") => {
            let (min, max) = (property["minimum"].as_i64(), property["maximum"].as_i64());
            match (min, max) {
                (Some(min), Some(max)) if max >= min && max - min < CHOICE_MAX => choice(
                    (min..=max)
                        .map(|n| (n.to_string(), n.to_string()))
                        .collect(),
                ),
                _ => OptionInput::Number {
                    min,
                    max,
                    value: value.to_owned(),
                },
            }
        }
        _ => OptionInput::Text {
            value: value.to_owned(),
        },
    }
}

/// The values of an enumerated option, looking through a `$ref` into the nested schemas.
fn enumeration(property: &Value, nested: &[(String, Value)]) -> Option<Vec<String>> {
    let strings = |values: &Value| -> Option<Vec<String>> {
        values.as_array().map(|values| {
            values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
    };
    if let Some(values) = strings(&property["enum"]) {
        return Some(values);
    }
    let name = property["$ref"].as_str()?.rsplit('/').next()?;
    let (_, schema) = nested.iter().find(|(n, _)| n == name)?;
    strings(&schema["enum"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_games::herfor::Herfor;
    use moot_present::link::Query;

    #[test]
    fn herfor_options_are_choices_preset_from_the_link() {
        let (position, _) = Link::<Herfor>::read(&Query::parse("size=3&pie=false")).unwrap();
        let view = options_view(&position, true, false, false);
        let size = view.fields.iter().find(|f| f.name == "size").unwrap();
        assert_eq!(
            size.input,
            OptionInput::Choice {
                choices: (3..=7).map(|n| (n.to_string(), n.to_string())).collect(),
                selected: "3".into()
            }
        );
        let pie = view.fields.iter().find(|f| f.name == "pie").unwrap();
        assert!(matches!(&pie.input, OptionInput::Choice { selected, .. } if selected == "false"));
        // In a player's words, citing no rule.
        assert_eq!(pie.label, "Swap after the first stone");
        assert!(!pie.help.as_deref().unwrap().contains("F5"));
        let computer = view.fields.iter().find(|f| f.name == "computer").unwrap();
        assert!(
            matches!(&computer.input, OptionInput::Choice { choices, selected }
            if selected == "second" && choices[0].1 == "The computer; you move first (black)"),
            "the computer is the default opponent: {computer:?}"
        );
    }

    /// A link that names two people at one screen (`computer=`, as a friend game's `New game`
    /// writes it) keeps them; one that names the computer keeps it.
    #[test]
    fn the_opponent_a_link_chose_stays_chosen() {
        let selected = |query: &str| {
            let (position, _) = Link::<Herfor>::read(&Query::parse(query)).unwrap();
            let chosen = Query::parse(query).get("computer").unwrap().is_some();
            let view = options_view(&position, true, chosen, false);
            match &view
                .fields
                .iter()
                .find(|f| f.name == "computer")
                .unwrap()
                .input
            {
                OptionInput::Choice { selected, .. } => selected.clone(),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(selected("size=5"), "second");
        assert_eq!(selected("size=5&computer="), "");
        assert_eq!(selected("size=5&computer=first"), "first");
    }

    /// Tara's first colour is an option: the computer's choice does not name a
    /// colour the form's own choice of colour may contradict.
    #[test]
    fn tara_your_first_move_names_no_colour_the_form_may_change() {
        use moot_games::tara::Tara;
        let (position, _) = Link::<Tara>::read(&Query::parse("first=blue")).unwrap();
        let view = options_view(&position, true, false, false);
        let computer = view.fields.iter().find(|f| f.name == "computer").unwrap();
        assert!(
            matches!(&computer.input, OptionInput::Choice { choices, .. }
            if choices[0].1 == "The computer; you move first"),
            "{computer:?}"
        );
        // For the script: each choice of `first` with its colour, and the computer's choices
        // as words to name the chosen colour in.
        let first = view.fields.iter().find(|f| f.name == "first").unwrap();
        assert_eq!(
            first.first_colours,
            [("red".into(), "red".into()), ("blue".into(), "blue".into())]
        );
        assert_eq!(
            computer.follows_colour,
            [
                ("second".into(), "The computer; you move first ({})".into()),
                ("first".into(), "The computer; it moves first ({})".into())
            ]
        );
    }

    #[test]
    fn an_enumerated_option_behind_a_reference_becomes_a_choice() {
        let property = serde_json::json!({"$ref": "#/components/schemas/Colour"});
        let nested = nested_schemas::<moot_games::tara::TaraOptions>();
        assert_eq!(
            input(&property, "blue", &nested),
            OptionInput::Choice {
                choices: vec![("red".into(), "Red".into()), ("blue".into(), "Blue".into())],
                selected: "blue".into()
            }
        );
    }
}
