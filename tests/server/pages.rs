//! The play pages over HTTP: every page and form, with hand-built positions in the URL, and
//! tampered or corrupt links (a friendly 4xx page, never a 500).

use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::games::tara::{Tara, TaraOptions};

use crate::common::{Answer, call, get, get_all, send};

/// The page's HTML (the helpers read a non-JSON body as a string).
fn html(answer: &Answer) -> &str {
    answer.body.as_str().expect("an HTML body")
}

#[track_caller]
fn page(answer: &Answer, status: u16) -> &str {
    assert_eq!(answer.status.as_u16(), status, "{answer:#?}");
    assert_eq!(
        answer.content_type, "text/html; charset=utf-8",
        "{answer:#?}"
    );
    html(answer)
}

const SMALL: &str = "/play/herfor?pie=false&simple=false&size=3";

#[actix_web::test]
async fn home_page_links_to_play_herfor() {
    let answer = get("/").await;
    assert!(
        page(&answer, 200)
            .contains(r#"<a class="button secondary" href="/play/herfor">Choose the options</a>"#)
    );
}

#[actix_web::test]
async fn options_page_offers_each_option_preset_from_the_link() {
    let answer = get("/play/herfor?size=4").await;
    let body = page(&answer, 200);
    assert!(body.contains(r#"<form class="options" method="get" action="/play/herfor">"#));
    assert!(body.contains(r#"<input type="hidden" name="moves" value="">"#));
    assert!(
        body.contains(r#"<option value="4" selected>4</option>"#),
        "{body}"
    );
    assert!(
        body.contains(
            r#"<select id="option-pie" name="pie"><option value="true" selected>Yes</option>"#
        ),
        "{body}"
    );
    // Pie in a player's words; the computer proposed first.
    assert!(
        body.contains(r#"<label for="option-pie">Swap after the first stone</label>"#),
        "{body}"
    );
    assert!(
        body.contains(
            r#"<select id="option-computer" name="computer"><option value="second" selected>"#
        ),
        "{body}"
    );
}

#[actix_web::test]
async fn new_game_page_has_a_button_on_every_point_of_the_empty_board() {
    let answer = get(&format!("{SMALL}&moves=")).await;
    let body = page(&answer, 200);
    assert!(body.contains("<strong>Black to play</strong> — place a black stone"));
    // 19 points, each a button of the one form on the board (one click plays it, script or
    // not) and again in the list.
    let board = &body[body.find("<figure").unwrap()..body.find("</figure>").unwrap()];
    assert_eq!(
        board
            .matches(r#"<button class="move" type="submit" form="play" name="play" value=""#)
            .count(),
        19
    );
    assert!(board.contains(r#"name="play" value="c3" data-point="c3" title="Place a black stone on c3"></button></foreignObject>"#), "{board}");
    assert!(!board.contains("<a "), "no links on the board");
    assert_eq!(
        body.matches(r#"<button class="move" type="submit" form="play" name="play" value=""#)
            .count(),
        2 * 19
    );
    assert!(
        body.contains(r#"name="play" value="c3" id="move-"#),
        "{body}"
    );
    assert!(body.contains(r#"<input type="hidden" name="moves" value="">"#));
    assert!(body.contains("<h2>Place a stone</h2>"));
    assert!(!body.contains("Undo the last move"), "nothing to undo yet");
    assert!(body.contains("No move yet."));
}

#[actix_web::test]
async fn an_invasion_says_which_stones_flipped_and_offers_undo() {
    let answer = get(&format!("{SMALL}&moves=c2.a1.c4.c3")).await;
    let body = page(&answer, 200);
    assert!(body.contains("White played <code>c3</code><ul><li>A white stone on c3 flipped c2, c4 to white</li></ul>"), "{body}");
    assert!(
        !body.contains("Black played <code>c4</code>"),
        "only the last move's run"
    );
    assert!(body.contains(r#"<title>c2: white stone — flipped by the last move</title>"#));
    assert!(
        body.contains(
            r#"<button class="secondary" type="submit" form="play" name="undo" value="1">Undo the last move</button>"#
        ),
        "{body}"
    );
    let undone = get(&format!("{SMALL}&moves=c2.a1.c4.c3&play=&undo=1")).await;
    assert_eq!(
        undone.location.as_deref(),
        Some("/play/herfor?pie=false&simple=false&size=3&moves=c2.a1.c4"),
        "the undo button sends the browser to the position before the last move"
    );
    assert!(body.contains("<code>c2</code>") && body.contains("<code>c3</code></span>"));
}

#[actix_web::test]
async fn with_the_pie_rule_the_swap_is_offered_after_the_first_stone() {
    let answer = get("/play/herfor?size=3&moves=c3").await;
    let body = page(&answer, 200);
    assert!(body.contains("<h2>Swap (the pie rule)</h2>"));
    assert!(body.contains("value=\"swap\">Swap: take Black"), "{body}");
    // The swap is a control of the turn (shown under the status line), not on the board.
    assert!(turn_controls(body).contains("value=\"swap\""), "{body}");
    let swapped = get("/play/herfor?size=3&moves=c3.swap").await;
    assert!(page(&swapped, 200).contains("The second player swapped and now plays Black"));
}

/// The turn's controls on a page: under the status line, before the board.
fn turn_controls(body: &str) -> &str {
    let start = body
        .find(r#"<div class="turn">"#)
        .expect("the turn's controls");
    let end = body[start..]
        .find(r#"<div class="table">"#)
        .expect("the board after them");
    &body[start..start + end]
}

/// A whole game on the smallest board: the first legal move each time, to the end.
fn whole_game() -> Vec<String> {
    let options = HerforOptions {
        size: 3,
        pie: false,
        simple: false,
    };
    let mut state = Herfor::new_game(&options).unwrap();
    let mut moves = Vec::new();
    while let Some(mv) = Herfor::legal_moves(&state).first().copied() {
        moves.push(Herfor::format_move(&state, &mv));
        Herfor::apply(&mut state, &mv).unwrap();
    }
    moves
}

#[actix_web::test]
async fn a_finished_game_shows_the_score_breakdown_and_the_record() {
    let moves = whole_game();
    assert_eq!(moves.last().map(String::as_str), Some("pass"));
    let answer = get(&format!("{SMALL}&moves={}", moves.join("."))).await;
    let body = page(&answer, 200);
    assert!(
        body.contains(r#"<p class="status finished" id="turn" role="status"><strong>Game over:"#),
        "{body}"
    );
    assert!(body.contains("<h2>Score</h2>"));
    assert!(
        body.contains("White played <code>pass</code>")
            && body.contains("Black played <code>pass</code>"),
        "both passes that ended the game are shown: {body}"
    );
    assert!(
        body.contains(r#"<th scope="row">Black</th><td>15 stones"#),
        "{body}"
    );
    assert!(
        body.contains(r#"<th scope="row">White</th><td>4 stones = 4</td>"#),
        "{body}"
    );
    assert!(
        !body.contains(r#"class="move""#),
        "no move is offered after the end"
    );
    let listed: Vec<String> = moves.iter().map(|m| format!("<code>{m}</code>")).collect();
    let list = &body[body.find(r#"<ol class="moves""#).expect("the move list")..];
    let mut from = 0;
    for code in &listed {
        from += list[from..]
            .find(code.as_str())
            .unwrap_or_else(|| panic!("{code} in order in the move list: {list}"));
    }
}

/// The move list: each turn numbered, by its colour, a link to the position after it (`at`),
/// the start too; the position the page shows is marked and not linked.
#[actix_web::test]
async fn the_move_list_links_each_turn_to_its_position_and_marks_the_one_shown() {
    let answer = get(&format!("{SMALL}&moves=c3.b2.a1")).await;
    let body = page(&answer, 200);
    // The move sound's toggle, which the script shows (off until turned on).
    assert!(
        body.contains(r#"<button class="secondary" id="sound" type="button" aria-pressed="false" hidden>Move sound</button>"#),
        "{body}"
    );
    let link = "/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;moves=c3.b2.a1";
    for (at, number, by, mv) in [(1, 1, "Black", "c3"), (2, 2, "White", "b2")] {
        let entry = format!(
            r#"<li><a href="{link}&amp;at={at}"><span class="n">{number}.</span><span class="by">{by}</span> <code>{mv}</code></a></li>"#
        );
        assert!(body.contains(&entry), "{entry}: {body}");
    }
    assert!(
        body.contains(r#"<li><span class="here" aria-current="step"><span class="n">3.</span><span class="by">Black</span> <code>a1</code></span></li>"#),
        "{body}"
    );
    assert!(
        body.contains(&format!(
            r#"<li class="start"><a href="{link}&amp;at=0">Start</a></li>"#
        )),
        "{body}"
    );
}

/// An earlier position is there to look at: against the computer, with the computer to act
/// in it, the page shows it (no redirect, no reply), offers no move, and steps through the
/// game.
#[actix_web::test]
async fn an_earlier_position_is_shown_without_moves_or_the_computers_reply() {
    let game = format!("{SMALL}&computer=second&strength=easy&moves=c3.b2.a1");
    let answer = get(&format!("{game}&at=1")).await;
    let body = page(&answer, 200);
    assert!(
        body.contains("<strong>After turn 1 of 3</strong>"),
        "{body}"
    );
    // The status line says which move is shown and the way back, not whose turn it was.
    assert!(
        body.contains(r#"<p class="status" id="turn" role="status"><strong>Move 1 of 3: Black played c3</strong> — looking back; “Back to the game” shows it as it stands</p>"#),
        "{body}"
    );
    // (The page's preview for a shared link, in its head, tells the game as it stands.)
    let main = &body[body.find("<main").expect("a main part")..];
    assert!(!main.contains("to play"), "{body}");
    assert!(
        !body.contains(r#"<button class="move""#),
        "no move is offered: {body}"
    );
    assert!(!body.contains("Undo the last move") && !body.contains(">Hint<"));
    let link = "/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;computer=second&amp;strength=easy&amp;moves=c3.b2.a1";
    for expected in [
        format!(r#"href="{link}&amp;at=0" rel="prev">◀ Turn before</a>"#),
        format!(r#"href="{link}&amp;at=2" rel="next">Turn after ▶</a>"#),
        format!(r#"<a class="button" href="{link}">Back to the game</a>"#),
        r#"<a href="/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;computer=second&amp;strength=easy&amp;moves=c3">Play on from here</a>"#.to_owned(),
        r#"<span class="here" aria-current="step"><span class="n">1.</span>"#.to_owned(),
        // The arrow keys' steps: a turn back, a turn on, the game now.
        format!(r#" data-previous="{link}&amp;at=0" data-next="{link}&amp;at=2" data-now="{link}">"#),
    ] {
        assert!(body.contains(&expected), "{expected}: {body}");
    }
    // A shared link of the page previews this page, not the position's own link.
    let shared = body
        .split(r#"<meta property="og:url" content=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a preview's address");
    assert!(shared.ends_with(&format!("{link}&amp;at=1")), "{shared}");
    // One stone on the board: Black's c3 (the drawing names its points' stones).
    assert!(
        body.contains(r#"data-point="c3"><title>c3: black"#),
        "{body}"
    );
    assert!(
        !body.contains(r#"data-point="b2"><title>b2: white"#),
        "{body}"
    );

    // The last turn before the game's end steps on to the game itself.
    let body = get(&format!("{game}&at=2")).await;
    let body = page(&body, 200);
    assert!(
        body.contains(&format!(r#"href="{link}" rel="next">Turn after ▶</a>"#)),
        "{body}"
    );
    // All of the game's moves: the game's own page.
    let answer = get(&format!("{game}&at=3")).await;
    assert_eq!(answer.status.as_u16(), 303, "{answer:#?}");
    assert_eq!(
        answer.location.as_deref(),
        Some(
            "/play/herfor?pie=false&simple=false&size=3&computer=second&strength=easy&moves=c3.b2.a1"
        )
    );
    for refused in ["4", "x", "-1"] {
        let answer = get(&format!("{game}&at={refused}")).await;
        let body = page(&answer, 400);
        assert!(
            body.contains("from 0 to the 3 of this game"),
            "{refused}: {body}"
        );
    }
}

/// Hirþ's list is by turn: the steps of one turn are one entry, linked to the position after
/// the whole turn.
#[actix_web::test]
async fn hirth_the_move_list_has_one_entry_per_turn_with_its_steps() {
    use moot::games::hirth::Hirth;
    let options = serde_json::from_value(serde_json::json!({"target": 1})).expect("options");
    let mut state = Hirth::new_game(&options).expect("a match");
    let mut turns: Vec<Vec<String>> = Vec::new();
    while turns.len() < 3 {
        let acting = Hirth::turn(&state);
        let mut steps = Vec::new();
        while Hirth::turn(&state) == acting {
            let moves = Hirth::legal_moves(&state);
            let mv = moves
                .iter()
                .find(|mv| Hirth::format_move(&state, mv) != "give-up")
                .expect("a step")
                .clone();
            steps.push(Hirth::format_move(&state, &mv));
            Hirth::apply(&mut state, &mv).expect("a legal step");
        }
        turns.push(steps);
    }
    assert!(turns[0].len() > 1, "a turn of several steps: {turns:?}");
    let all: Vec<String> = turns.concat();
    let moves: String = form_urlencoded::byte_serialize(all.join(".").as_bytes()).collect();
    let answer = get(&format!("/play/hirth?target=1&moves={moves}")).await;
    let body = page(&answer, 200);
    let list = &body[body.find(r#"<ol class="moves""#).expect("the list")..];
    let list = &list[..list.find("</ol>").expect("its end")];
    assert_eq!(
        list.matches("<li><").count(),
        3,
        "one entry per turn: {list}"
    );
    let first: String = turns[0]
        .iter()
        .map(|step| format!(" <code>{}</code>", step.replace('>', "&gt;")))
        .collect();
    let at = turns[0].len();
    assert!(
        list.contains(&format!(
            r#"&amp;at={at}"><span class="n">1.</span><span class="by">Gull</span>{first}</a></li>"#
        )),
        "{first}: {list}"
    );
}

/// Beside the result: "Play again" (the same options and opponent from the start) and "New
/// game" (the options page).
#[actix_web::test]
async fn a_finished_game_offers_play_again_and_new_game_beside_the_result() {
    let moves = whole_game();
    let link = format!(
        "{SMALL}&computer=second&strength=easy&moves={}",
        moves.join(".")
    );
    let answer = get(&link).await;
    let body = page(&answer, 200);
    assert!(
        body.contains(r#"<p class="again"><a class="button" href="/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;computer=second&amp;strength=easy&amp;moves=">Play again</a><a class="button secondary" href="/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;computer=second&amp;strength=easy">New game</a></p>"#),
        "{body}"
    );
    let fresh =
        get("/play/herfor?pie=false&simple=false&size=3&computer=second&strength=easy&moves=")
            .await;
    assert!(page(&fresh, 200).contains("to play"), "a new game");
    let going = get(&format!("{SMALL}&moves=c3")).await;
    assert!(
        !page(&going, 200).contains("Play again"),
        "only once the game is over"
    );
}

#[actix_web::test]
async fn the_record_downloads_as_a_text_file() {
    let answer = get("/play/herfor/record?size=3&pie=false&moves=c2.a1.c4.c3").await;
    assert_eq!(answer.status.as_u16(), 200);
    assert_eq!(answer.content_type, "text/plain; charset=utf-8");
    assert_eq!(html(&answer), "c2 a1 c4 c3\n");
    let response = send(TestRequest::get().uri("/play/herfor/record?moves=c3")).await;
    assert_eq!(response.status.as_u16(), 200);
    let app = actix_web::test::init_service(moot::app()).await;
    let raw = actix_web::test::call_service(
        &app,
        TestRequest::get()
            .uri("/play/herfor/record?moves=c3")
            .to_request(),
    )
    .await;
    assert_eq!(
        raw.headers().get(header::CONTENT_DISPOSITION).unwrap(),
        "attachment; filename=\"herfor-record.txt\""
    );
}

#[actix_web::test]
async fn a_typed_legal_move_redirects_to_the_position_after_it() {
    let answer = get(&format!("{SMALL}&moves=c3&play=A1")).await;
    assert_eq!(answer.status.as_u16(), 303, "{answer:#?}");
    assert_eq!(
        answer.location.as_deref(),
        Some("/play/herfor?pie=false&simple=false&size=3&moves=c3.a1"),
        "the move is written in the engine's notation"
    );
}

#[actix_web::test]
async fn a_typed_illegal_move_shows_the_engines_reason_on_the_page() {
    let answer = get(&format!("{SMALL}&moves=c3&play=c3")).await;
    let body = page(&answer, 422);
    assert!(body.contains(r#"<div class="notice" role="alert"><strong>&quot;c3&quot; cannot be played</strong><p>Illegal move (F3): c3 already holds a black stone</p></div>"#), "{body}");
    assert!(
        body.contains(r#"name="play" value="c3""#),
        "the refused move stays in the field"
    );
    assert!(
        body.contains(r#"<foreignObject"#),
        "the position is still playable"
    );
}

#[actix_web::test]
async fn a_typed_unreadable_or_empty_move_is_explained() {
    let unreadable = get(&format!("{SMALL}&moves=&play=hello")).await;
    assert!(page(&unreadable, 422).contains("Cannot read &quot;hello&quot; as a move: expected a point name such as e5, or pass, or swap"));
    let empty = get(&format!("{SMALL}&moves=&play=+")).await;
    assert!(page(&empty, 422).contains("No move given"));
}

#[actix_web::test]
async fn a_tampered_move_in_the_link_names_the_move_and_links_before_it() {
    let answer = get(&format!("{SMALL}&moves=c3.b2.c3")).await;
    let body = page(&answer, 422);
    assert!(body.contains("Move 3 of the link, &quot;c3&quot;, cannot be played: illegal move (F3): c3 already holds a black stone."), "{body}");
    assert!(body.contains(r#"<a href="/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;moves=c3.b2">The position before it</a>"#));
}

#[actix_web::test]
async fn a_move_after_the_end_is_refused() {
    let mut moves = whole_game();
    moves.push("a1".into());
    let answer = get(&format!("{SMALL}&moves={}", moves.join("."))).await;
    assert!(page(&answer, 422).contains("the game is over"));
}

static TOO_MANY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "/play/herfor?moves={}",
        vec!["a1"; moot::limits::MAX_MOVES + 1].join(".")
    )
});

#[actix_web::test]
async fn corrupt_links_get_a_friendly_page_with_a_4xx_status() {
    let cases = [
        ("/play/herfor?size=99&moves=", 400, "size"),
        (
            "/play/herfor?size=three&moves=",
            400,
            "The option size cannot be &quot;three&quot;: expected a whole number from 3 to 7.",
        ),
        (
            "/play/herfor?pie=perhaps&moves=",
            400,
            "The option pie cannot be &quot;perhaps&quot;",
        ),
        (
            "/play/herfor?colour=red&moves=",
            400,
            "&quot;colour&quot; is not an option of Herfor",
        ),
        (
            "/play/herfor?moves=c3..b2",
            400,
            "Move 2 of the link is empty",
        ),
        (
            "/play/herfor?moves=c3&moves=b2",
            400,
            "&quot;moves&quot; is given more than once",
        ),
        ("/play/herfor?moves=%FF%FE", 422, "Move 1 of the link"),
        (
            "/play/herfor?moves=k99",
            422,
            "k99 is not a point of the size-5 board",
        ),
        (
            "/play/herfor/record?moves=zz",
            422,
            "Move 1 of the link, &quot;zz&quot;",
        ),
        (&*TOO_MANY, 400, "a link holds at most 5000"),
        (
            "/play/chess?moves=",
            404,
            "There is no game called &quot;chess&quot; here.",
        ),
        ("/rules/chess", 404, "No such game"),
        (
            "/play/herfor/moves",
            404,
            "There is no page at /play/herfor/moves.",
        ),
    ];
    for (uri, status, words) in cases {
        let answer = get(uri).await;
        let body = page(&answer, status);
        assert!(body.contains(words), "{uri}: {body}");
        assert!(
            body.contains(r#"<section class="error" role="alert">"#),
            "{uri}"
        );
    }
}

#[actix_web::test]
async fn rules_page_has_the_rules_a_board_picture_and_a_play_link() {
    let answer = get("/rules/herfor").await;
    let body = page(&answer, 200);
    assert!(body.contains(r#"<article class="rules"><h1>Herfor: the rules</h1>"#));
    assert!(body.contains(r#"<a class="button" href="/play/herfor">Play Herfor</a>"#));
    assert!(body.contains("<svg class=\"board herfor\""));
    assert!(body.contains("<title>c3: white stone</title>"));
    assert!(
        !body.contains(r#"class="move""#),
        "the picture offers no moves"
    );
}

const VS_COMPUTER: &str = "/play/herfor?pie=false&simple=false&size=3";

#[actix_web::test]
async fn when_the_computer_moves_first_it_plays_and_sends_the_browser_on() {
    let uri = format!("{VS_COMPUTER}&computer=first&strength=easy&moves=");
    let answer = get(&uri).await;
    assert_eq!(answer.status.as_u16(), 303, "{answer:#?}");
    let next = answer.location.clone().expect("a Location");
    let prefix = "/play/herfor?pie=false&simple=false&size=3&computer=first&strength=easy&moves=";
    assert!(next.starts_with(prefix), "{next}");
    let reply = &next[prefix.len()..];
    assert_eq!(reply.split('.').count(), 1, "one placement: {next}");
    assert_eq!(
        get(&uri).await.location,
        Some(next.clone()),
        "a reload gives the same move"
    );
    let page_after = get(&next).await;
    let body = page(&page_after, 200);
    assert!(
        body.contains("You (White) play against the computer (easy)."),
        "{body}"
    );
    assert!(
        body.contains(&format!("Computer (Black) played <code>{reply}</code>")),
        "{body}"
    );
}

#[actix_web::test]
async fn the_computer_answers_the_players_move_and_undo_takes_both_back() {
    let answer = get(&format!(
        "{VS_COMPUTER}&computer=second&strength=easy&moves=c3"
    ))
    .await;
    assert_eq!(answer.status.as_u16(), 303, "{answer:#?}");
    let next = answer.location.expect("a Location");
    assert!(
        next.contains("&computer=second&strength=easy&moves=c3."),
        "{next}"
    );
    let body = get(&next).await;
    let body = page(&body, 200);
    assert!(body.contains(">Undo the last move</button>"), "{body}");
    let undone = get(&format!("{next}&undo=1")).await;
    assert_eq!(
        undone.location.as_deref(),
        Some("/play/herfor?pie=false&simple=false&size=3&computer=second&strength=easy&moves="),
        "undo takes back the player's move and the computer's answer"
    );
}

#[actix_web::test]
async fn a_hint_shows_the_engines_best_move_with_its_value_and_a_button_to_play_it() {
    let plain = get(&format!("{SMALL}&moves=c3")).await;
    assert!(page(&plain, 200).contains(r#"name="hint" value="1">Hint</button>"#));
    let asked = get(&format!("{SMALL}&moves=c3&play=&hint=1")).await;
    assert_eq!(
        asked.location.as_deref(),
        Some("/play/herfor?pie=false&simple=false&size=3&moves=c3&hint=1"),
        "the hint button goes to the hint's page"
    );
    let answer = get(&format!("{SMALL}&moves=c3&hint=1")).await;
    let body = page(&answer, 200);
    assert!(
        body.contains("The computer suggests: Place a white stone on "),
        "{body}"
    );
    // Size 3 is solved: the hint is the proof's (its value in words is pinned below).
    assert!(body.contains("(proven: white loses"), "{body}");
    assert!(body.contains("Play the hint <code>"));
    // The hinted point is marked on the board, and only there: the point the hint names.
    let hinted = body
        .split("Play the hint <code>")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("the hint's notation");
    assert_eq!(body.matches("the computer's hint").count(), 1, "{body}");
    let marked = body
        .split("the computer's hint")
        .next()
        .and_then(|before| before.rsplit("<title>").next())
        .expect("the marked point's title");
    assert!(marked.contains(hinted), "{hinted} marked as {marked}");
    assert_eq!(
        get(&format!("{SMALL}&moves=c3&hint=1")).await.body,
        answer.body,
        "the same hint on reload"
    );
}

#[actix_web::test]
async fn hint_0_in_a_link_asks_for_no_hint() {
    let body = get(&format!("{SMALL}&moves=c3&hint=0")).await;
    let body = page(&body, 200);
    assert!(!body.contains("The computer suggests"), "{body}");
    assert!(
        body.contains(">Hint</button>"),
        "the Hint button is still offered"
    );
}

#[actix_web::test]
async fn a_busy_computer_gets_a_friendly_503_page() {
    let computer = moot::Computer::new(moot::AiConfig::default());
    // Every page permit is taken, as by searches running for other players' games.
    let _taken: Vec<_> = std::iter::from_fn(|| computer.pages().pool().try_acquire()).collect();
    let link = format!("{SMALL}&computer=first&moves=");
    let answers = get_all(&computer, &[&link]).await;
    // The wait is the wall-clock cap of a search (2.5 s by default), and the page links back.
    assert_eq!(answers[0].retry_after.as_deref(), Some("3"));
    let body = page(&answers[0], 503);
    assert!(body.contains("The computer is busy"));
    assert!(body.contains("Back to the position"), "{body}");
}

#[actix_web::test]
async fn api_callers_holding_every_api_permit_do_not_starve_the_players() {
    let computer = moot::Computer::new(moot::AiConfig::default());
    let _api: Vec<_> = std::iter::from_fn(|| computer.api().pool().try_acquire()).collect();
    let answers = get_all(&computer, &[&format!("{SMALL}&computer=first&moves=")]).await;
    assert_eq!(answers[0].status.as_u16(), 303, "{:?}", answers[0]);
}

fn computer_off() -> moot::Computer {
    moot::Computer::new(moot::AiConfig {
        max_evaluations: 0,
        ..moot::AiConfig::default()
    })
}

#[actix_web::test]
async fn with_the_computer_player_off_the_page_says_so() {
    let answers = get_all(
        &computer_off(),
        &[
            &format!("{SMALL}&moves=c3&hint=1"),
            &format!("{SMALL}&moves=c3"),
        ],
    )
    .await;
    assert!(page(&answers[0], 501).contains("The computer player is off"));
    assert!(
        !page(&answers[1], 200).contains(">Hint</a>"),
        "no hint is offered"
    );
}

#[actix_web::test]
async fn a_bad_opponent_in_the_link_is_named() {
    let answer = get(&format!("{SMALL}&computer=everyone&moves=")).await;
    assert!(page(&answer, 400).contains("The computer cannot play &quot;everyone&quot;"));
    let answer = get(&format!("{SMALL}&computer=first&strength=godlike&moves=")).await;
    assert!(page(&answer, 400).contains("&quot;godlike&quot; is not a strength"));
}

/// Each game's card: its board's picture (which the picture API draws), and the computer as
/// the first way to play; the options page one button further.
#[actix_web::test]
async fn home_shows_each_games_board_and_plays_the_computer_by_default() {
    let app = actix_web::test::init_service(moot::app()).await;
    let answer = get("/").await;
    let body = page(&answer, 200).to_owned();
    for id in ["hirth", "tara", "herfor"] {
        let card = &body[body
            .find(&format!(r#"<article class="game" id="{id}">"#))
            .unwrap_or_else(|| panic!("a card for {id}"))..];
        let card = &card[..card.find("</article>").expect("the card's end")];
        let src = card
            .split(r#"<img class="board" src=""#)
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("{id}: a picture: {card}"))
            .replace("&amp;", "&");
        assert!(
            src.starts_with(&format!("/api/v1/games/{id}/picture?")),
            "{src}"
        );
        assert!(card.contains(r#"alt="The "#), "{card}");
        let (status, headers, _) = call(&app, TestRequest::get().uri(&src)).await;
        assert_eq!(status.as_u16(), 200, "{src}");
        assert_eq!(
            headers.get("content-type").map(|v| v.to_str().unwrap()),
            Some("image/png"),
            "{src}"
        );
        let computer = card
            .split(r#"<a class="button" href=""#)
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the first button")
            .replace("&amp;", "&");
        assert!(card.contains(">Play the computer</a>"), "{card}");
        assert!(
            computer.starts_with(&format!("/play/{id}?")) && computer.contains("computer=second"),
            "{computer}"
        );
        // The button starts the game: its page, the computer to answer.
        let game = get(&computer).await;
        assert!(
            page(&game, 200).contains("against the computer"),
            "{computer}"
        );
        assert!(card.contains(&format!(r#"href="/play/{id}">Choose the options</a>"#)));
    }
    assert!(body.contains("For developers"));
}

/// The options page proposes the computer unless the link chose: `New game` after a game
/// between two people keeps them (`computer=`).
#[actix_web::test]
async fn the_options_page_proposes_the_computer_and_new_game_keeps_two_people() {
    let fresh = get("/play/herfor").await;
    assert!(
        page(&fresh, 200).contains(
            r#"<option value="second" selected>The computer; you move first (black)</option>"#
        ),
        "{}",
        html(&fresh)
    );
    let friends = get(&format!("{SMALL}&moves=c3")).await;
    let body = page(&friends, 200);
    assert!(
        body.contains(r#"href="/play/herfor?pie=false&amp;simple=false&amp;size=3&amp;computer=">New game</a>"#),
        "{body}"
    );
    let again = get(&format!("{SMALL}&computer=")).await;
    assert!(
        page(&again, 200).contains(r#"<option value="" selected>A friend at this screen</option>"#),
        "{}",
        html(&again)
    );
}

#[actix_web::test]
async fn tara_setup_offers_every_hill_on_the_board() {
    let answer = get("/play/tara?moves=").await;
    let body = page(&answer, 200);
    assert!(body.contains("<strong>Red to play</strong>"), "{body}");
    let board = &body[body.find("<figure").unwrap()..body.find("</figure>").unwrap()];
    assert_eq!(
        board.matches(r#"<button class="move""#).count(),
        45,
        "every hill is vacant"
    );
    let options = get("/play/tara").await;
    assert!(page(&options, 200).contains(r#"<select id="option-first" name="first"><option value="red" selected data-first="red">Red</option><option value="blue" data-first="blue">Blue</option></select>"#), "{}", html(&options));
}

#[actix_web::test]
async fn tara_a_refused_setup_placement_names_the_move() {
    let answer = get("/play/tara?moves=D4.D4").await;
    let body = page(&answer, 422);
    assert!(
        body.contains("Move 2 of the link, &quot;D4&quot;, cannot be played: illegal move"),
        "{body}"
    );
    assert!(body.contains("moves=D4\">The position before it</a>"));
}

#[actix_web::test]
async fn hirth_page_offers_the_first_steps_and_downloads_the_record_in_its_own_format() {
    let answer = get("/play/hirth?target=1&moves=He").await;
    let body = page(&answer, 200);
    assert!(body.contains("<strong>Gull to play</strong>"), "{body}");
    assert!(body.contains("Gull played <code>He</code>"));
    let record = get("/play/hirth/record?target=1&moves=He.end").await;
    assert_eq!(record.status.as_u16(), 200);
    assert!(
        html(&record).starts_with("G1 He"),
        "the H12 record: {record:?}"
    );
}

#[actix_web::test]
async fn hirth_an_unreadable_step_in_the_link_is_named() {
    let answer = get("/play/hirth?moves=He.Q7").await;
    assert!(
        page(&answer, 422)
            .contains("Move 2 of the link, &quot;Q7&quot;, cannot be played: cannot read")
    );
}

#[actix_web::test]
async fn every_game_has_a_rules_page_with_a_board_picture_and_a_play_link() {
    for (id, name) in [
        ("hirth", "Hirþ"),
        ("tara", "The High Kings of Tara"),
        ("herfor", "Herfor"),
    ] {
        let answer = get(&format!("/rules/{id}")).await;
        let body = page(&answer, 200);
        assert!(body.contains("<svg"), "{id}: a board picture");
        assert!(
            body.contains(&format!(
                r#"<a class="button" href="/play/{id}">Play {name}</a>"#
            )),
            "{id}"
        );
    }
}

#[actix_web::test]
async fn rules_pictures_mark_no_last_move() {
    for id in ["hirth", "tara", "herfor"] {
        let answer = get(&format!("/rules/{id}")).await;
        let body = page(&answer, 200);
        assert!(!body.contains(r#"class="last"#), "{id}");
    }
}

#[actix_web::test]
async fn herfor_board_marks_the_stone_played_last_and_the_stones_it_flipped() {
    let answer = get(&format!("{SMALL}&moves=c2.a1.c4.c3")).await;
    let body = page(&answer, 200);
    assert!(
        body.contains(r#"<title>c3: white stone — played last</title>"#),
        "{body}"
    );
    assert!(body.contains("<title>c2: white stone — flipped by the last move</title>"));
    assert!(body.contains("<title>c4: white stone — flipped by the last move</title>"));
    assert_eq!(body.matches(r#"class="last placed""#).count(), 1);
    assert_eq!(body.matches(r#"class="last flipped""#).count(), 2);
    assert!(
        !body.contains("a1: black stone — "),
        "the earlier moves are not marked"
    );
}

#[actix_web::test]
async fn tara_board_marks_the_last_kings_move_from_and_to() {
    // Six placements, then the first king's move: the first legal move each time.
    let mut state = Tara::new_game(&TaraOptions::default()).unwrap();
    let mut moves = Vec::new();
    for _ in 0..7 {
        let mv = Tara::legal_moves(&state)[0];
        moves.push(Tara::format_move(&state, &mv));
        Tara::apply(&mut state, &mv).unwrap();
    }
    let (from, to) = moves[6].split_once('-').expect("a king's move");
    let answer = get(&format!("/play/tara?moves={}", moves.join("."))).await;
    let body = page(&answer, 200);
    assert_eq!(
        body.matches(" — the last move left from here</title>")
            .count(),
        1
    );
    assert!(
        body.contains(&format!(
            "<title>{from}: Red ringfort — the last move left from here</title>"
        )),
        "{body}"
    );
    assert!(body.contains(&format!(
        "<title>{to}: Red king on a Red ringfort — the last move went here</title>"
    )));
    assert!(body.contains(&format!("<title>The last move: {from} to {to}</title>")));
}

#[actix_web::test]
async fn hirth_board_marks_the_spaces_the_last_turn_moved_pieces_from_and_to() {
    let answer = get("/play/hirth?moves=He.L01.end").await;
    let body = page(&answer, 200);
    assert!(
        body.contains(" Gull has the Lofðungr — last turn: pieces moved here</title>"),
        "{body}"
    );
    assert!(body.contains("— last turn: pieces moved from and to here</title>"));
    assert_eq!(body.matches(r#"class="last to""#).count(), 2);
    // Silfr is to move, and every space it can move to is still a button.
    assert!(body.contains(r#"<foreignObject"#));
}

/// Random games' links, mutated the ways a hand or a bad copy would (a move dropped, two
/// swapped, bytes of noise, a bad option): every answer is a page or a redirect, never a 5xx.
#[actix_web::test]
async fn mutated_links_never_get_a_server_error() {
    use moot::games::hirth::Hirth;
    use moot::games::tara::Tara;
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};

    fn random_moves<G: Game>(
        options: &G::Options,
        rng: &mut SmallRng,
        count: usize,
    ) -> Vec<String> {
        let mut state = G::new_game(options).unwrap();
        let mut moves = Vec::new();
        while moves.len() < count {
            let legal = G::legal_moves(&state);
            let Some(mv) = legal.choose(rng) else { break };
            moves.push(G::format_move(&state, mv));
            G::apply(&mut state, mv).unwrap();
        }
        moves
    }

    let app = actix_web::test::init_service(moot::app()).await;
    let mut rng = SmallRng::seed_from_u64(5);
    let games: [(&str, &str, Vec<String>); 3] = [
        (
            "herfor",
            "size=4",
            random_moves::<Herfor>(
                &HerforOptions {
                    size: 4,
                    pie: true,
                    simple: false,
                },
                &mut rng,
                30,
            ),
        ),
        (
            "tara",
            "level=2",
            random_moves::<Tara>(&Default::default(), &mut rng, 30),
        ),
        (
            "hirth",
            "target=3",
            random_moves::<Hirth>(&Default::default(), &mut rng, 60),
        ),
    ];
    // Already URL-encoded: sent as they are, after the encoded moves.
    let noise = [
        "",
        "%00",
        "%FF",
        "..",
        ".",
        "x",
        "Kiiiii9%3E9",
        "end+%3E%3E",
        "retreat",
        "%5BK*%5D",
        "%E2%80%AE",
        "99999999999999999999",
    ];
    let mut seen = std::collections::BTreeMap::new();
    for (id, options, moves) in &games {
        for case in 0..40 {
            let mut moves = moves.clone();
            let cut = rng.random_range(0..=moves.len());
            moves.truncate(cut);
            let mut tail = String::new();
            match case % 4 {
                0 if cut > 1 => moves.swap(rng.random_range(0..cut), rng.random_range(0..cut)),
                1 if cut > 0 => {
                    moves.remove(rng.random_range(0..cut));
                }
                2 => tail = format!(".{}", noise.choose(&mut rng).unwrap()),
                _ => {}
            }
            let encoded: String =
                form_urlencoded::byte_serialize(moves.join(".").as_bytes()).collect();
            let option = if case % 5 == 4 {
                "size=-1&level=x&target=1e9"
            } else {
                options
            };
            let uri = format!("/play/{id}?{option}&moves={encoded}{tail}");
            let response =
                actix_web::test::call_service(&app, TestRequest::get().uri(&uri).to_request())
                    .await;
            let status = response.status().as_u16();
            assert!([200, 303, 400, 422].contains(&status), "{uri}: {status}");
            *seen.entry(status).or_insert(0) += 1;
        }
    }
    assert!(
        seen.contains_key(&200) && seen.contains_key(&400) && seen.contains_key(&422),
        "{seen:?}"
    );
}

#[actix_web::test]
async fn post_on_a_page_is_405_allow_get_head_not_no_page_here() {
    for uri in [
        "/play/herfor?moves=",
        "/play/tara/record?moves=",
        "/rules/hirth",
    ] {
        let answer = send(TestRequest::post().uri(uri)).await;
        answer.problem(405, "method_not_allowed");
        assert_eq!(answer.allow.as_deref(), Some("GET, HEAD"), "{uri}");
    }
}

#[actix_web::test]
async fn head_on_a_page_is_answered_like_get() {
    for uri in [
        "/",
        "/play/herfor?moves=",
        "/rules/hirth",
        "/static/moot.css",
    ] {
        let request = TestRequest::default().method(actix_web::http::Method::HEAD);
        let answer = send(request.uri(uri)).await;
        assert_eq!(answer.status.as_u16(), 200, "{uri}: {answer:#?}");
    }
}

#[actix_web::test]
async fn with_the_computer_player_off_the_options_page_offers_no_computer_opponent() {
    let answers = get_all(&computer_off(), &[SMALL]).await;
    let body = page(&answers[0], 200);
    assert!(body.contains(r#"name="size""#), "{body}");
    assert!(!body.contains(r#"name="computer""#), "{body}");
    assert!(!body.contains(r#"name="strength""#), "{body}");
    // With it on, the same page offers it.
    let on = page(&get(SMALL).await, 200).to_owned();
    assert!(on.contains(r#"name="computer""#));
}

#[actix_web::test]
async fn the_pages_hint_and_computer_obey_the_servers_playout_cap() {
    let capped = moot::Computer::new(moot::AiConfig {
        max_playouts: 10,
        ..moot::AiConfig::default()
    });
    let answers = get_all(
        &capped,
        &[
            // Size 5: size 3 is solved, and its hints are proven with no playouts.
            "/play/herfor?pie=false&simple=false&size=5&moves=c3&hint=1",
            // The computer, at the strong strength, still answers within the cap.
            &format!("{SMALL}&computer=first&strength=strong&moves="),
        ],
    )
    .await;
    let body = page(&answers[0], 200);
    assert!(body.contains("for white, from −1 lost to +1 won"), "{body}");
    assert!(body.contains("; 10 playouts)."), "{body}");
    assert_eq!(answers[1].status.as_u16(), 303);
}

/// F4: size 3 is solved, so a hint there is the proof's move and says so. After Black's c3 (the
/// centre, a winning first stone) White loses whatever it plays.
#[actix_web::test]
async fn f4_a_hint_on_the_solved_size_3_board_says_it_is_proven() {
    let answer = get(&format!("{SMALL}&moves=c3&hint=1")).await;
    let body = page(&answer, 200);
    assert!(
        body.contains("(proven: white loses against perfect play, whatever it plays)."),
        "{body}"
    );
    assert!(!body.contains("playouts)."), "{body}");
}

/// The page of a 5000-move game (the most a link holds) carries the moves once in
/// the form and in the link preview's page and picture links, not once per legal move; its
/// move list links as many earlier positions as 64 KiB of links hold.
#[actix_web::test]
async fn the_page_of_a_5000_move_game_stays_under_180_kb() {
    use moot::games::hirth::{Hirth, HirthOptions};
    let moves = moot::games::fixtures::random_game::<Hirth>(&HirthOptions { target: 21 }, 5000, 3);
    assert_eq!(moves.len(), 5000, "the match goes on");
    let joined = moves.join(".");
    let link = format!(
        "/play/hirth?{}",
        form_urlencoded::Serializer::new(String::new())
            .append_pair("target", "21")
            .append_pair("moves", &joined)
            .finish()
    );
    let answer = get(&link).await;
    let body = page(&answer, 200);
    let offered = body.matches(r#"<button class="move""#).count();
    // Links a player follows (the keyboard's steps reuse two of them as attributes).
    let listed = body
        .split(r#"href=""#)
        .skip(1)
        .filter(|rest| {
            rest.split('"')
                .next()
                .is_some_and(|href| href.contains("&amp;at="))
        })
        .count();
    eprintln!(
        "a 5000-move Hirþ page: {} bytes, {offered} move buttons, {listed} earlier positions \
         linked, link {} bytes",
        body.len(),
        link.len()
    );
    assert!(offered > 0, "the game goes on: moves are offered");
    assert!(body.len() <= 180_000, "{} bytes", body.len());
    assert!(
        (1..=64 * 1024 / link.len()).contains(&listed),
        "{listed} earlier positions linked"
    );
    assert_eq!(
        body.matches(
            &form_urlencoded::byte_serialize(moves[4000..].join(".").as_bytes())
                .collect::<String>()
        )
        .count()
            + body
                .matches(&moves[4000..].join(".").replace('>', "&gt;"))
                .count(),
        4 + listed,
        "the moves are carried by the form, the preview (page, picture), the move list's \
         links and the Left key's step back, nowhere else"
    );
}

/// A Hirþ turn composed on the page is sent as one request: every step is checked, and
/// the browser goes to the position after the whole turn.
#[actix_web::test]
async fn several_steps_of_one_turn_are_played_in_one_request() {
    let answer = get("/play/hirth?target=1&moves=&play=He.L01.end").await;
    assert_eq!(answer.status.as_u16(), 303, "{answer:#?}");
    assert_eq!(
        answer.location.as_deref(),
        Some("/play/hirth?target=1&moves=He.L01.end")
    );
    // A bad step is named, and nothing is played.
    let refused = get("/play/hirth?target=1&moves=&play=He.Z99.end").await;
    let body = page(&refused, 422);
    assert!(body.contains("&quot;Z99&quot; cannot be played"), "{body}");
    // The moves sent together must be one player's turn.
    let two_turns = get(&format!("{SMALL}&moves=&play=c3.b2")).await;
    let body = page(&two_turns, 422);
    assert!(body.contains("&quot;b2&quot; cannot be played"), "{body}");
    assert!(body.contains("must be one player"), "{body}");
}

/// The form sends its empty typed-move field with every button; two moves are refused.
#[actix_web::test]
async fn an_empty_typed_field_beside_a_button_is_no_move_and_two_moves_are_refused() {
    let answer = get(&format!("{SMALL}&moves=&play=&play=c3")).await;
    assert_eq!(
        answer.location.as_deref(),
        Some("/play/herfor?pie=false&simple=false&size=3&moves=c3")
    );
    let answer = get(&format!("{SMALL}&moves=&play=a1&play=c3")).await;
    assert!(page(&answer, 422).contains("Several moves at once"));
}

/// The play pages' script is served from the binary, and the pages' policy lets it run.
#[actix_web::test]
async fn the_pages_script_is_served_and_allowed() {
    let answer = get("/static/moot.js").await;
    assert_eq!(answer.status.as_u16(), 200);
    assert!(answer.content_type.starts_with("text/javascript"));
    let page = get(&format!("{SMALL}&moves=")).await;
    assert!(html(&page).contains(r#"<script src="/static/moot.js" defer></script>"#));
}

/// Against the computer the end says "you won" or "you lost" and the player's side,
/// and "What happened" names "You" and "The computer".
#[actix_web::test]
async fn against_the_computer_the_end_says_you_won_or_you_lost() {
    let moves = whole_game().join(".");
    let won = get(&format!("{VS_COMPUTER}&computer=second&moves={moves}")).await;
    let body = page(&won, 200);
    assert!(
        body.contains("<strong>Game over: you won</strong> — You (Black) won"),
        "{body}"
    );
    assert!(
        body.contains("You (Black) play against the computer"),
        "{body}"
    );
    assert!(
        body.contains("You (Black) played <code>pass</code>"),
        "{body}"
    );
    assert!(
        body.contains("Computer (White) played <code>pass</code>"),
        "{body}"
    );
    let lost = get(&format!("{VS_COMPUTER}&computer=first&moves={moves}")).await;
    let body = page(&lost, 200);
    assert!(
        body.contains("<strong>Game over: you lost</strong> — Computer (Black) won"),
        "{body}"
    );
    assert!(
        body.contains("You (White) play against the computer"),
        "{body}"
    );
}

/// One naming of the players per page: against the computer the status line says
/// "You (Black) to play", as the opponent line and "What happened" name them; between two at
/// one screen, colours alone.
#[actix_web::test]
async fn the_status_line_names_the_players_as_the_rest_of_the_page() {
    let answer = get(&format!("{VS_COMPUTER}&computer=second&moves=")).await;
    let body = page(&answer, 200);
    assert!(
        body.contains("<strong>You (Black) to play</strong>"),
        "{body}"
    );
    let answer = get(&format!("{SMALL}&moves=c3")).await;
    let body = page(&answer, 200);
    assert!(body.contains("<strong>White to play</strong>"), "{body}");
    assert!(body.contains("Black played <code>c3</code>"), "{body}");
}

/// The end's scores in words, not the engine's codes.
#[actix_web::test]
async fn end_scores_are_words() {
    let herfor = get(&format!("{SMALL}&moves={}", whole_game().join("."))).await;
    let body = page(&herfor, 200);
    assert!(
        body.contains(r#"<th scope="row">Black</th><td>15 stones + ½ for the button = 15.5</td>"#),
        "{body}"
    );
    assert!(!body.contains("Black seat"), "{body}");

    use moot::games::hirth::{Hirth, HirthOptions};
    let options = HirthOptions { target: 1 };
    let moves = (0..20)
        .map(|seed| moot::games::fixtures::random_game::<Hirth>(&options, 5000, seed))
        .find(|moves| moves.len() < 5000)
        .expect("a random game that ends");
    let mut state = Hirth::new_game(&options).unwrap();
    for m in &moves {
        let mv = Hirth::parse_move(&state, m).unwrap();
        Hirth::apply(&mut state, &mv).unwrap();
    }
    assert!(
        Hirth::legal_moves(&state).is_empty(),
        "the random game ended"
    );
    let link = form_urlencoded::Serializer::new(String::new())
        .append_pair("target", "1")
        .append_pair("moves", &moves.join("."))
        .finish();
    let answer = get(&format!("/play/hirth?{link}")).await;
    let body = page(&answer, 200);
    let score = &body[body.find("<h2>Score</h2>").expect("a score")..];
    let score = &score[..score.find("</table>").expect("a table")];
    assert!(score.contains("Last game</th><td>won by "), "{score}");
    // A target of 1 point is a single game: points, never a match.
    assert!(score.contains(" point"), "{score}");
    assert!(!score.contains("match"), "{score}");
    for code in ["yfirrad", "drepid", "Removed", "first", "second"] {
        assert!(!score.contains(code), "{code} in {score}");
    }
}

/// A Hirþ turn's end (with its choice of entries) is among the turn's controls,
/// shown under the status line above the board, with undo; the board's moves are not.
#[actix_web::test]
async fn hirth_the_end_of_the_turn_is_a_control_above_the_board() {
    let answer = get("/play/hirth?target=1&moves=He").await;
    let body = page(&answer, 200);
    let board = body.find("<figure").expect("a board");
    let controls = turn_controls(body);
    assert!(controls.contains(r#"value="end">"#), "{controls}");
    assert!(controls.contains(r#"name="undo""#), "{controls}");
    assert!(
        !controls.contains("value=\"L01\""),
        "a step the board offers is not repeated above it: {controls}"
    );
    assert!(
        body[board..].contains(r#"value="L01" id="move-"#),
        "it is in the list of every move"
    );
}

/// The turn's controls come before the board for the keyboard as for the eye, and the form
/// that every button names comes before them all.
#[actix_web::test]
async fn the_turns_controls_come_before_the_board_and_the_form_before_both() {
    let answer = get("/play/herfor?size=3&moves=c3").await;
    let body = page(&answer, 200);
    let form = body.find(r#"<form id="play""#).expect("the form");
    let board = body.find(r#"<button class="move" type="submit" form="play" name="play" value="a1" data-point="a1""#).expect("a board's button");
    let swap = body.find(r#"value="swap""#).expect("the swap");
    assert!(form < swap && swap < board, "{body}");
}

/// Tara's options name the first player's colour in the computer's choices for the
/// script to follow the choice of colour; without the script they name none (both correct).
#[actix_web::test]
async fn tara_options_carry_the_colours_for_the_script_and_words_true_without_it() {
    let answer = get("/play/tara?first=blue").await;
    let body = page(&answer, 200);
    assert!(
        body.contains(r#"<option value="blue" selected data-first="blue">Blue</option>"#),
        "{body}"
    );
    assert!(body.contains(r#"<option value="second" selected data-words="The computer; you move first ({})">The computer; you move first</option>"#), "{body}");
    assert!(body.contains(r#"<script src="/static/moot.js" defer></script>"#));
}

/// H11: a Hirþ page against the computer names the players one way, "You (…)" and
/// "Computer (…)", never by seat: in the status line, the panel and "What happened", across
/// the start of the match's second game, where the colours swap (the computer had Gull and
/// has Silfr now; the events of the first game keep its colours).
#[actix_web::test]
async fn hirth_against_the_computer_names_the_players_by_colour_across_a_game_change() {
    use moot::games::hirth::{Event, Hirth, HirthOptions};
    let options = HirthOptions { target: 21 };
    // The moves of a random match up to the one that ends the first game and begins the
    // second, and who won it.
    let first_game = |seed: u64| {
        let moves = moot::games::fixtures::random_game::<Hirth>(&options, 5000, seed);
        let mut state = Hirth::new_game(&options).unwrap();
        for (index, m) in moves.iter().enumerate() {
            let mv = Hirth::parse_move(&state, m).unwrap();
            let events = Hirth::apply(&mut state, &mv).unwrap();
            if let Some(winner) = events.iter().find_map(|e| match e {
                Event::GameEnded { winner, .. } => Some(*winner),
                _ => None,
            }) {
                return Some((moves[..=index].to_vec(), winner));
            }
        }
        None
    };
    let (first_game, winner) = (0..20)
        .find_map(first_game)
        .expect("a random first game that ends");
    // The computer plays the first seat: Gull in game 1, Silfr in game 2, where the player
    // (Gull) moves first.
    let link = form_urlencoded::Serializer::new(String::new())
        .append_pair("target", "21")
        .append_pair("computer", "first")
        .append_pair("moves", &first_game.join("."))
        .finish();
    let answer = get(&format!("/play/hirth?{link}")).await;
    let body = page(&answer, 200);
    for seat_word in ["Player 1", "Player 2", "first player", "second player"] {
        assert!(!body.contains(seat_word), "{seat_word}: {body}");
    }
    assert!(
        body.contains("<strong>You (Gull) to play</strong>"),
        "{body}"
    );
    assert!(
        body.contains(r#"<th scope="col">You (Gull)</th><th scope="col">Computer (Silfr)</th>"#),
        "the panel: {body}"
    );
    assert!(
        body.contains(
            "Game 2 begins with the colours swapped: You (Gull) against Computer (Silfr); Gull moves first"
        ),
        "{body}"
    );
    let (game_1_winner, now) = match winner {
        moot::games::Seat::First => ("Computer (Gull)", "Computer (Silfr), playing Gull then,"),
        moot::games::Seat::Second => ("You (Silfr)", "You (Gull), playing Silfr then,"),
    };
    assert!(
        body.contains(&format!("{game_1_winner} won the game by ")),
        "the first game's end in its colours: {body}"
    );
    assert!(
        body.contains(&format!("Last game: won by {now} by ")),
        "the panel names the winner as now: {body}"
    );
    assert!(
        body.contains(r#"data-mover="You (Gull)""#),
        "the script says who played: {body}"
    );
}

/// A single Hirþ game's end (a target of 1 point) names the winner as the page names the
/// players, with how and for how many points the game was won (`You (Silfr) won the game by
/// Drepið: 2 points`), and never speaks of a match, which the JSON status still scores in seat
/// order (`match 0–2`).
#[actix_web::test]
async fn hirth_a_single_games_end_names_the_winner_and_no_match() {
    use moot::games::hirth::{Hirth, HirthOptions};
    use moot::games::{Seat, Status};
    let options = HirthOptions { target: 1 };
    // A random match the second seat wins, where seat order would put the loser first.
    let (moves, state) = (0..60)
        .find_map(|seed| {
            let moves = moot::games::fixtures::random_game::<Hirth>(&options, 5000, seed);
            let mut state = Hirth::new_game(&options).unwrap();
            for m in &moves {
                let mv = Hirth::parse_move(&state, m).unwrap();
                Hirth::apply(&mut state, &mv).unwrap();
            }
            let second_won = matches!(
                Hirth::status(&state),
                Status::Finished {
                    winner: Some(Seat::Second),
                    ..
                }
            );
            second_won.then_some((moves, state))
        })
        .expect("a random match the second seat wins");
    let (won, lost) = (state.points[1], state.points[0]);
    assert!(won > lost, "{won}–{lost}");
    let colour = if state.gull == Seat::Second {
        "Gull"
    } else {
        "Silfr"
    };
    let Status::Finished { reason, .. } = Hirth::status(&state) else {
        unreachable!("the match is over")
    };
    assert!(
        reason.ends_with(&format!("match {lost}–{won}")),
        "the engine's status keeps seat order: {reason}"
    );
    let link = |computer: &str| {
        let mut link = form_urlencoded::Serializer::new(String::new());
        link.append_pair("target", "1");
        if !computer.is_empty() {
            link.append_pair("computer", computer);
        }
        link.append_pair("moves", &moves.join(".")).finish()
    };
    let between_two = get(&format!("/play/hirth?{}", link(""))).await;
    let body = page(&between_two, 200);
    assert!(
        body.contains(&format!(
            "<strong>Game over: {colour} wins</strong> — {colour} won the game by "
        )),
        "{body}"
    );
    let status = &body[body.find(r#"<p class="status"#).expect("a status line")..];
    let status = &status[..status.find("</p>").expect("its end")];
    assert!(!status.contains("match"), "{status}");
    // Nor does what happened: the game's end, said once.
    assert!(!body.contains("won the match"), "{body}");
    let against = get(&format!("/play/hirth?{}", link("first"))).await;
    let body = page(&against, 200);
    assert!(
        body.contains(&format!(
            "<strong>Game over: you won</strong> — You ({colour}) won the game by "
        )),
        "{body}"
    );
    let lost_page = get(&format!("/play/hirth?{}", link("second"))).await;
    let body = page(&lost_page, 200);
    assert!(
        body.contains(&format!(
            "<strong>Game over: you lost</strong> — Computer ({colour}) won the game by "
        )),
        "{body}"
    );
}

/// Against the computer at the strong strength the hint thinks as hard as the opponent (here
/// up to the server's cap, 700 playouts, over normal's 600); otherwise at the normal strength.
#[actix_web::test]
async fn a_hint_against_a_strong_computer_searches_at_the_strong_budget() {
    let capped = moot::Computer::new(moot::AiConfig {
        max_playouts: 700,
        ..moot::AiConfig::default()
    });
    let base = "/play/herfor?pie=false&simple=false&size=5&computer=first";
    let answers = get_all(
        &capped,
        &[
            &format!("{base}&strength=strong&moves=c3&hint=1"),
            &format!("{base}&strength=normal&moves=c3&hint=1"),
            &format!("{base}&strength=easy&moves=c3&hint=1"),
        ],
    )
    .await;
    assert!(
        page(&answers[0], 200).contains("; 700 playouts)."),
        "{}",
        html(&answers[0])
    );
    assert!(
        page(&answers[1], 200).contains("; 600 playouts)."),
        "{}",
        html(&answers[1])
    );
    assert!(
        page(&answers[2], 200).contains("; 600 playouts)."),
        "{}",
        html(&answers[2])
    );
}

/// Beside the record: the position's picture and the game's animation, as the picture API
/// draws them from the same link.
#[actix_web::test]
async fn the_page_offers_the_picture_and_the_animation_to_download() {
    let answer = get(&format!("{SMALL}&moves=c3.b2")).await;
    let body = page(&answer, 200).to_owned();
    let href = |words: &str| {
        let at = body
            .find(words)
            .unwrap_or_else(|| panic!("{words}: {body}"));
        let start = body[..at].rfind("href=\"").expect("a link") + 6;
        body[start..start + body[start..].find('"').expect("its end")].replace("&amp;", "&")
    };
    let picture = href(">Download the picture</a>");
    assert_eq!(
        picture,
        "/api/v1/games/herfor/picture?pie=false&simple=false&size=3&moves=c3.b2&pixels=1200&caption=true"
    );
    let animation = href(">Download the animation</a>");
    assert_eq!(
        animation,
        "/api/v1/games/herfor/animation?pie=false&simple=false&size=3&moves=c3.b2&caption=true"
    );
    let app = actix_web::test::init_service(moot::app()).await;
    for link in [picture, animation] {
        let (status, headers, _) = call(&app, TestRequest::get().uri(&link)).await;
        assert_eq!(status.as_u16(), 200, "{link}");
        assert_eq!(
            headers.get("content-type").map(|v| v.to_str().unwrap()),
            Some("image/png"),
            "{link}"
        );
    }
    assert!(body.contains(r#"download="herfor.png""#));
}

/// Undo after a Hirþ turn takes back the whole turn (every step of it), not one step.
#[actix_web::test]
async fn undo_takes_back_a_whole_hirth_turn() {
    use moot::games::hirth::Hirth;
    use moot::games::{Seat, Turn};
    let options = serde_json::from_value(serde_json::json!({"target": 1})).expect("options");
    let mut state = Hirth::new_game(&options).expect("a match");
    let first_acts =
        |state: &<Hirth as Game>::State| matches!(Hirth::turn(state), Turn::ToAct(Seat::First));
    let mut steps = Vec::new();
    while first_acts(&state) {
        let moves = Hirth::legal_moves(&state);
        // A step after which the first seat acts again while there is one, then the turn's end.
        let goes_on = |mv: &&<Hirth as Game>::Move| {
            let mut after = state.clone();
            Hirth::apply(&mut after, mv).is_ok() && first_acts(&after)
        };
        let mv = moves.iter().find(goes_on).unwrap_or(&moves[0]).clone();
        steps.push(Hirth::format_move(&state, &mv));
        Hirth::apply(&mut state, &mv).expect("a legal step");
        assert!(steps.len() < 20, "the turn ends: {steps:?}");
    }
    assert!(steps.len() > 1, "a turn of several steps: {steps:?}");
    let moves: String = form_urlencoded::byte_serialize(steps.join(".").as_bytes()).collect();
    let undone = get(&format!("/play/hirth?target=1&moves={moves}&undo=1")).await;
    let location = undone.location.expect("a Location");
    assert!(
        location.starts_with("/play/hirth?") && location.ends_with("moves="),
        "the position before the whole turn: {location}"
    );
}
