//! The pictures over HTTP: PNGs decoded and their colours checked at the centres of known
//! pieces (found in the SVG of the same link), the SVG read and drawn standalone by usvg/resvg,
//! bad links and states refused as problems, sizes bounded, the cache headers, the animation.

use actix_web::dev::Service;
use actix_web::http::{StatusCode, header};
use actix_web::test::{self, TestRequest};
use resvg::{tiny_skia, usvg};
use serde_json::{Value, json};

use crate::common::{self, endpoint, first_moves};

/// A raw answer: status, headers we look at, and the body's bytes.
struct Raw {
    status: StatusCode,
    content_type: String,
    etag: Option<String>,
    cache_control: Option<String>,
    body: Vec<u8>,
}

async fn raw(request: TestRequest) -> Raw {
    let app = test::init_service(moot::app()).await;
    let response = app.call(request.to_request()).await.expect("an answer");
    let header_of = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
            .map(str::to_owned)
    };
    let content_type = header_of(header::CONTENT_TYPE).unwrap_or_default();
    let etag = header_of(header::ETAG);
    let cache_control = header_of(header::CACHE_CONTROL);
    let status = response.status();
    let body = test::read_body(response).await.to_vec();
    Raw {
        status,
        content_type,
        etag,
        cache_control,
        body,
    }
}

async fn get_raw(uri: &str) -> Raw {
    raw(TestRequest::get().uri(uri)).await
}

fn link(game: &str, moves: &[String], extra: &str) -> String {
    let moves: Vec<String> = moves
        .iter()
        .map(|m| form_urlencoded::byte_serialize(m.as_bytes()).collect())
        .collect();
    format!(
        "{}?moves={}{extra}",
        endpoint(game, "picture"),
        moves.join(".")
    )
}

/// An RGBA image, decoded.
struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Image {
    fn at(&self, x: f32, y: f32) -> [u8; 3] {
        let (x, y) = (x.round() as u32, y.round() as u32);
        assert!(x < self.width && y < self.height, "({x}, {y}) is outside");
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }
}

fn decode_png(bytes: &[u8]) -> Image {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let mut rgba = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut rgba).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    rgba.truncate(info.buffer_size());
    Image {
        width: info.width,
        height: info.height,
        rgba,
    }
}

/// The value of `name="…"` in `tag`.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].to_owned())
}

/// Every element opening with `opening` (`<circle class="stone black"`), as its tag's text.
fn elements<'a>(svg: &'a str, opening: &str) -> Vec<&'a str> {
    svg.match_indices(opening)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').expect("a closed tag")])
        .collect()
}

/// The centre of a circle, or of a rectangle.
fn centre(tag: &str) -> (f32, f32) {
    let number = |name| {
        attribute(tag, name)
            .expect(name)
            .parse::<f32>()
            .expect("a number")
    };
    if tag.starts_with("<rect") {
        (
            number("x") + number("width") / 2.0,
            number("y") + number("height") / 2.0,
        )
    } else {
        (number("cx"), number("cy"))
    }
}

/// Pixels per SVG unit: the picture's width over its viewBox's.
fn scale(svg: &str, image: &Image) -> f32 {
    let root = elements(svg, "<svg")[0];
    let view_box = attribute(root, "viewBox").expect("a viewBox");
    let width: f32 = view_box
        .split(' ')
        .nth(2)
        .expect("a width")
        .parse()
        .expect("a number");
    image.width as f32 / width
}

fn dark([r, g, b]: [u8; 3]) -> bool {
    r < 60 && g < 60 && b < 60
}

fn light([r, g, b]: [u8; 3]) -> bool {
    r > 230 && g > 230 && b > 220
}

fn red([r, g, b]: [u8; 3]) -> bool {
    r > 150 && g < 80 && b < 80
}

fn blue([r, g, b]: [u8; 3]) -> bool {
    b > 130 && r < 80 && g < 110
}

fn gold([r, g, b]: [u8; 3]) -> bool {
    r > 140 && (90..150).contains(&g) && b < 60
}

fn grey([r, g, b]: [u8; 3]) -> bool {
    (70..120).contains(&r) && (80..130).contains(&g) && (90..140).contains(&b)
}

/// The SVG and the PNG of one link.
async fn svg_and_png(uri: &str) -> (String, Image) {
    let svg = get_raw(&format!("{uri}&format=svg")).await;
    assert_eq!(svg.status, StatusCode::OK);
    assert_eq!(svg.content_type, "image/svg+xml");
    let png = get_raw(uri).await;
    assert_eq!(png.status, StatusCode::OK);
    assert_eq!(png.content_type, "image/png");
    (
        String::from_utf8(svg.body).expect("text"),
        decode_png(&png.body),
    )
}

#[actix_web::test]
async fn herfor_stones_are_dark_and_light_where_the_moves_put_them() {
    let moves = first_moves("herfor", 6).await.0;
    assert_eq!(moves.len(), 6);
    let (svg, image) = svg_and_png(&link("herfor", &moves, "&pixels=600")).await;
    assert_eq!(image.width.max(image.height), 600);
    let k = scale(&svg, &image);
    let black = elements(&svg, r#"<circle class="stone black""#);
    let white = elements(&svg, r#"<circle class="stone white""#);
    assert!(!black.is_empty() && !white.is_empty(), "{svg}");
    // Beside the centre: clear of the last move's dot (radius 5) and ring (radius 8).
    let body = |tag: &str| {
        let (x, y) = centre(tag);
        image.at((x + 11.0) * k, y * k)
    };
    for tag in &black {
        assert!(dark(body(tag)), "{tag}: {:?}", body(tag));
    }
    for tag in &white {
        assert!(light(body(tag)), "{tag}: {:?}", body(tag));
    }
    // The first move is Black's: its point holds a dark stone (or one flipped light since).
    let first = format!(r#"data-point="{}""#, moves[0]);
    assert!(svg.contains(&first), "{svg}");
}

#[actix_web::test]
async fn tara_ringforts_are_drawn_in_their_colours() {
    let moves = first_moves("tara", 8).await.0;
    let (svg, image) = svg_and_png(&link("tara", &moves, "")).await;
    let k = scale(&svg, &image);
    let forts = elements(&svg, r#"<circle class="ringfort""#);
    assert!(forts.len() >= 2, "{svg}");
    let (mut reds, mut blues) = (0, 0);
    for tag in &forts {
        let (x, y) = centre(tag);
        // The ring, in its side's ink, 18 units out from the hill's centre.
        let ring = image.at((x + 18.0) * k, y * k);
        match attribute(tag, "stroke").as_deref() {
            Some("#b3261e") => {
                assert!(red(ring), "{tag}: {ring:?}");
                reds += 1;
            }
            Some("#1f4e9c") => {
                assert!(blue(ring), "{tag}: {ring:?}");
                blues += 1;
            }
            other => panic!("a ringfort in {other:?}"),
        }
    }
    assert!(reds > 0 && blues > 0, "{reds} red, {blues} blue");
}

#[actix_web::test]
async fn hirth_lofdungar_are_gold_and_grey() {
    let (svg, image) = svg_and_png(&link("hirth", &[], "&pixels=900")).await;
    let k = scale(&svg, &image);
    // Gull's is round, Silfr's square: the sides differ by shape too.
    let mut lords = elements(&svg, r#"<circle class="lofdungr""#);
    lords.extend(elements(&svg, r#"<rect class="lofdungr""#));
    assert_eq!(lords.len(), 2, "{svg}");
    let colours: Vec<[u8; 3]> = lords
        .iter()
        .map(|tag| {
            let (x, y) = centre(tag);
            // Left of the white "L" inside the disc.
            image.at((x - 8.0) * k, y * k)
        })
        .collect();
    assert!(colours.iter().any(|c| gold(*c)), "{colours:?}");
    assert!(colours.iter().any(|c| grey(*c)), "{colours:?}");
}

#[actix_web::test]
async fn the_empty_board_differs_from_a_played_one_in_every_game() {
    for (game, plies) in [("herfor", 4), ("tara", 4), ("hirth", 6)] {
        let moves = first_moves(game, plies).await.0;
        let empty = get_raw(&link(game, &[], "")).await;
        let played = get_raw(&link(game, &moves, "")).await;
        assert_eq!(
            (empty.status, played.status),
            (StatusCode::OK, StatusCode::OK)
        );
        let (empty, played) = (decode_png(&empty.body), decode_png(&played.body));
        assert_eq!((empty.width, empty.height), (played.width, played.height));
        let differing = empty
            .rgba
            .chunks(4)
            .zip(played.rgba.chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        assert!(differing > 500, "{game}: {differing} pixels differ");
    }
}

/// The SVG alone, read by usvg and drawn by resvg without any stylesheet or font: the pieces
/// have the colours the server's PNG gives them.
#[actix_web::test]
async fn the_svg_stands_alone_and_draws_the_same_colours() {
    for game in ["herfor", "tara", "hirth"] {
        let moves = first_moves(game, 6).await.0;
        let (svg, image) = svg_and_png(&link(game, &moves, "&pixels=500")).await;
        assert!(
            !svg.contains("<style") && !svg.contains("class=\"board"),
            "{svg}"
        );
        let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("a valid SVG");
        let size = tree.size().to_int_size();
        assert_eq!((size.width(), size.height()), (image.width, image.height));
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("pixels");
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        let k = scale(&svg, &image);
        let pieces: Vec<&str> = [
            r#"<circle class="stone"#,
            r#"<circle class="ringfort""#,
            r#"<circle class="lofdungr""#,
        ]
        .iter()
        .flat_map(|opening| elements(&svg, opening))
        .collect();
        assert!(!pieces.is_empty(), "{game}: {svg}");
        for tag in pieces {
            let (x, y) = centre(tag);
            let (px, py) = ((x - 8.0) * k, y * k);
            let own = pixmap
                .pixel(px.round() as u32, py.round() as u32)
                .expect("inside")
                .demultiply();
            let served = image.at(px, py);
            let near = |a: u8, b: u8| a.abs_diff(b) <= 8;
            assert!(
                near(own.red(), served[0])
                    && near(own.green(), served[1])
                    && near(own.blue(), served[2]),
                "{game} {tag}: {own:?} vs {served:?}"
            );
        }
    }
}

#[actix_web::test]
async fn a_state_from_the_api_draws_too_with_its_options() {
    for game in ["herfor", "tara", "hirth"] {
        let state = common::new_state(game).await;
        let answer = raw(
            TestRequest::post()
                .uri(&endpoint(game, "picture"))
                .set_json(json!({"state": state, "format": "svg", "pixels": 300, "caption": true, "targets": true, "bottom": "second"})),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{game}");
        assert_eq!(answer.content_type, "image/svg+xml");
        let svg = String::from_utf8(answer.body).expect("text");
        assert!(svg.contains(r#"class="caption""#), "{svg}");
        assert!(
            svg.contains(r#"class="target""#),
            "{game}: targets asked for"
        );
        let png = raw(TestRequest::post()
            .uri(&endpoint(game, "picture"))
            .set_json(json!({"state": state, "pixels": 64})))
        .await;
        let image = decode_png(&png.body);
        assert_eq!(image.width.max(image.height), 64, "{game}");
    }
}

async fn problem(request: TestRequest) -> Value {
    let answer = raw(request).await;
    assert_eq!(
        answer.content_type,
        "application/problem+json",
        "{:?}",
        String::from_utf8_lossy(&answer.body)
    );
    assert!(answer.status.is_client_error(), "{}", answer.status);
    let body: Value = serde_json::from_slice(&answer.body).expect("JSON");
    assert_eq!(body["status"], answer.status.as_u16());
    body
}

#[actix_web::test]
async fn tampered_links_and_states_get_problems_never_a_broken_image() {
    let herfor = endpoint("herfor", "picture");
    // A link's refused move is answered as the JSON API answers one: where, what, which rule.
    let body = problem(TestRequest::get().uri(&format!("{herfor}?moves=c3.zz9"))).await;
    assert_eq!(
        (&body["code"], &body["field"], &body["move"], &body["index"]),
        (
            &json!("unreadable_move"),
            &json!("moves[1]"),
            &json!("zz9"),
            &json!(1)
        ),
        "{body}"
    );
    let body = problem(TestRequest::get().uri(&format!("{herfor}?moves=c3.c3"))).await;
    assert_eq!(
        (
            &body["code"],
            &body["field"],
            &body["rule"],
            &body["rule_url"]
        ),
        (
            &json!("illegal_move"),
            &json!("moves[1]"),
            &json!("F3"),
            &json!("/rules/herfor#F3")
        ),
        "{body}"
    );
    let body = problem(TestRequest::get().uri(&format!("{herfor}?size=99"))).await;
    assert_eq!(body["code"], "invalid_request", "{body}");
    let body = problem(TestRequest::get().uri(&format!("{herfor}?colour=red"))).await;
    assert_eq!(body["code"], "invalid_request", "{body}");
    let body = problem(TestRequest::get().uri("/api/v1/games/chess/picture?moves=e4")).await;
    assert_eq!(body["code"], "unknown_game");
    let mut state = common::new_state("herfor").await;
    state["black"] = json!(["zz"]);
    let body = problem(
        TestRequest::post()
            .uri(&herfor)
            .set_json(json!({"state": state})),
    )
    .await;
    assert_eq!(body["code"], "invalid_state", "{body}");
    let body = problem(
        TestRequest::post()
            .uri(&herfor)
            .set_json(json!({"state": {}, "colour": 1})),
    )
    .await;
    assert_eq!(body["code"], "invalid_request", "{body}");
}

#[actix_web::test]
async fn sizes_are_bounded_in_every_form() {
    let herfor = endpoint("herfor", "picture");
    for pixels in ["0", "63", "2049", "100000", "-5", "1e3"] {
        let body = problem(TestRequest::get().uri(&format!("{herfor}?pixels={pixels}"))).await;
        assert_eq!(
            (body["code"].as_str(), body["field"].as_str()),
            (Some("invalid_request"), Some("pixels")),
            "{pixels}: {body}"
        );
    }
    let state = common::new_state("herfor").await;
    let body = problem(
        TestRequest::post()
            .uri(&herfor)
            .set_json(json!({"state": state, "pixels": 4096})),
    )
    .await;
    assert_eq!(body["field"], "pixels");
    let body = problem(
        TestRequest::get().uri(&format!("{}?pixels=1000", endpoint("herfor", "animation"))),
    )
    .await;
    assert_eq!(body["field"], "pixels");
    let largest = get_raw(&format!("{herfor}?pixels=2048")).await;
    assert_eq!(decode_png(&largest.body).width, 2048);
}

#[actix_web::test]
async fn a_link_picture_is_cached_for_long_with_an_etag_and_revalidates() {
    let uri = format!("{}?size=3&pie=false&moves=", endpoint("herfor", "picture"));
    let first = get_raw(&uri).await;
    let tag = first.etag.expect("an ETag");
    assert!(
        first
            .cache_control
            .expect("Cache-Control")
            .contains("max-age=31536000")
    );
    assert_eq!(
        get_raw(&uri).await.etag.as_deref(),
        Some(tag.as_str()),
        "the same picture, the same tag"
    );
    let again = raw(TestRequest::get()
        .uri(&uri)
        .insert_header((header::IF_NONE_MATCH, tag.as_str())))
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    let other = get_raw(&format!("{uri}&bottom=second")).await;
    assert_ne!(other.etag.as_deref(), Some(tag.as_str()));
}

#[actix_web::test]
async fn a_whole_game_animates_one_frame_per_ply_and_is_bounded() {
    let moves = first_moves("herfor", 5).await.0;
    let uri = link("herfor", &moves, "&pixels=200").replace("/picture?", "/animation?");
    let answer = get_raw(&uri).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.content_type, "image/png");
    let mut reader = png::Decoder::new(std::io::Cursor::new(answer.body))
        .read_info()
        .expect("a PNG");
    let control = reader.info().animation_control.expect("animated");
    assert_eq!(control.num_frames as usize, moves.len() + 1);
    let mut first = vec![0; reader.output_buffer_size().expect("a size")];
    reader.next_frame(&mut first).expect("the start");
    let mut frame = first.clone();
    for _ in 0..moves.len() {
        reader.next_frame(&mut frame).expect("a ply");
    }
    assert_ne!(first, frame, "the last frame shows the stones");
    let too_long = vec!["pass".to_owned(); 250];
    let body = problem(
        TestRequest::get().uri(&link("herfor", &too_long, "").replace("/picture?", "/animation?")),
    )
    .await;
    assert_eq!(body["field"], "moves", "{body}");
}

/// A header of an answer, as text ("" when absent).
fn header_text<B>(answer: &actix_web::dev::ServiceResponse<B>, name: header::HeaderName) -> String {
    answer
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[actix_web::test]
async fn an_etag_held_is_answered_304_without_drawing_and_a_drawn_picture_is_kept() {
    let computer = moot::Computer::new(moot::AiConfig::default());
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let renders = computer.renders().clone();
    let moves = first_moves("herfor", 3).await.0;
    let uri = link("herfor", &moves, "&pixels=200").replace("/picture?", "/animation?");
    let call = |tag: Option<&str>| {
        let mut request = TestRequest::get().uri(&uri);
        if let Some(tag) = tag {
            request = request.insert_header((header::IF_NONE_MATCH, tag.to_owned()));
        }
        app.call(request.to_request())
    };
    let first = call(None).await.expect("an answer");
    assert_eq!(first.status(), StatusCode::OK);
    let tag = header_text(&first, header::ETAG);
    assert_eq!(renders.count(), 1);
    for held in [tag.as_str(), "*", "\"other\", *"] {
        let again = call(Some(held)).await.expect("an answer");
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{held}");
        assert_eq!(header_text(&again, header::ETAG), tag.as_str());
    }
    assert_eq!(renders.count(), 1, "a 304 draws nothing");
    let cached = call(Some("\"stale\"")).await.expect("an answer");
    assert_eq!(cached.status(), StatusCode::OK);
    assert_eq!(header_text(&cached, header::ETAG), tag.as_str());
    assert_eq!(
        test::read_body(cached).await,
        test::read_body(first).await,
        "the kept answer"
    );
    assert_eq!(
        (renders.count(), renders.cache().hits()),
        (1, 1),
        "answered from the cache"
    );
    let still = TestRequest::get().uri(&uri.replace("/animation?", "/picture?"));
    let still = app.call(still.to_request()).await.expect("an answer");
    assert_ne!(
        header_text(&still, header::ETAG),
        tag.as_str(),
        "a still has a tag of its own"
    );
    assert_eq!(renders.count(), 2);
}

#[actix_web::test]
async fn an_animation_over_the_cost_bound_is_refused_before_drawing_saying_how_to_fit() {
    let computer = moot::Computer::new(moot::AiConfig::default());
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let moves = first_moves("herfor", 20).await.0;
    assert_eq!(moves.len(), 20);
    let uri = link("herfor", &moves, "&pixels=800").replace("/picture?", "/animation?");
    let start = std::time::Instant::now();
    let answer = app
        .call(TestRequest::get().uri(&uri).to_request())
        .await
        .expect("an answer");
    assert_eq!(answer.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // Asked for more than anyone is given: held a second, as a loop of them would be.
    let took = start.elapsed();
    assert!(
        took >= moot::compute::tarpit::HOLD,
        "answered after {took:?}"
    );
    let body: Value = test::read_body_json(answer).await;
    assert_eq!(body["field"], "pixels", "{body}");
    let detail = body["detail"].as_str().expect("a detail");
    assert!(
        detail.contains("21 frames of 800 pixels")
            && detail.contains("at most 10 frames at 800 pixels")
            && detail.contains("at most 552 for 21 frames"),
        "{detail}"
    );
    assert_eq!(computer.renders().count(), 0);
    let fits = uri.replace("pixels=800", "pixels=552");
    let answer = app
        .call(TestRequest::get().uri(&fits).to_request())
        .await
        .expect("an answer");
    assert_eq!(answer.status(), StatusCode::OK, "the size it named fits");
}

#[actix_web::test]
async fn pictures_past_the_render_permits_are_refused_503_with_retry_after() {
    let computer = moot::Computer::new(moot::AiConfig::default());
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let renders = computer.renders();
    let held: Vec<_> = std::iter::from_fn(|| renders.try_acquire()).collect();
    assert_eq!(held.len(), moot::compute::renders::RENDERS_AT_ONCE);
    let refused = renders.pool().refused();
    let uri = format!(
        "{}?size=3&pie=false&moves=c3",
        endpoint("herfor", "picture")
    );
    let answer = app
        .call(TestRequest::get().uri(&uri).to_request())
        .await
        .expect("an answer");
    assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(header_text(&answer, header::RETRY_AFTER), "1");
    let body: Value = test::read_body_json(answer).await;
    assert_eq!(body["code"], "overloaded", "{body}");
    let state = common::new_state("herfor").await;
    let posted = TestRequest::post()
        .uri(&endpoint("herfor", "picture"))
        .set_json(json!({ "state": state }));
    let answer = app.call(posted.to_request()).await.expect("an answer");
    assert_eq!(
        answer.status(),
        StatusCode::SERVICE_UNAVAILABLE,
        "the POST form too"
    );
    drop(held);
    let answer = app
        .call(TestRequest::get().uri(&uri).to_request())
        .await
        .expect("an answer");
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(
        renders.pool().refused() - refused,
        2,
        "the GET and the POST"
    );
}

/// A caption that wraps onto two lines in one frame and fits one in the next (Herfor's first
/// two plies) once made frames of two sizes, which the encoder refused with a 500: every
/// frame now keeps the room of the longest caption.
#[actix_web::test]
async fn a_captioned_animation_has_frames_of_one_size_in_every_game() {
    for game in ["herfor", "tara", "hirth"] {
        let moves = first_moves(game, 4).await.0;
        let uri = link(game, &moves, "&pixels=300&caption=true&coordinates=true")
            .replace("/picture?", "/animation?");
        let answer = get_raw(&uri).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{game}: {}",
            String::from_utf8_lossy(&answer.body)
        );
        let mut reader = png::Decoder::new(std::io::Cursor::new(answer.body))
            .read_info()
            .expect("a PNG");
        let size = (reader.info().width, reader.info().height);
        assert!(
            size.1 > size.0,
            "{game}: the caption's room is under the board: {size:?}"
        );
        let mut frame = vec![0; reader.output_buffer_size().expect("a size")];
        for _ in 0..=moves.len() {
            let info = reader.next_frame(&mut frame).expect("a frame");
            assert_eq!((info.width, info.height), size, "{game}");
        }
    }
}

fn html_of(answer: &Raw) -> String {
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    String::from_utf8(answer.body.clone()).expect("text")
}

/// The `content` of the head's `<meta property="…">` (or `name="…"`).
fn meta(page: &str, key: &str) -> Option<String> {
    elements(page, "<meta")
        .into_iter()
        .find(|tag| tag.contains(&format!("=\"{key}\"")))
        .and_then(|tag| attribute(tag, "content"))
        .map(|c| c.replace("&amp;", "&"))
}

#[actix_web::test]
async fn a_play_page_previews_as_the_png_of_its_position() {
    let moves = first_moves("tara", 3).await.0;
    let moves: Vec<String> = moves
        .iter()
        .map(|m| form_urlencoded::byte_serialize(m.as_bytes()).collect())
        .collect();
    let page = html_of(
        &raw(TestRequest::get()
            .uri(&format!("/play/tara?moves={}", moves.join(".")))
            .insert_header((header::HOST, "moot.example")))
        .await,
    );
    let image = meta(&page, "og:image").expect("og:image");
    // Twitter's card takes og:image: a long game's picture link is not repeated.
    assert_eq!(meta(&page, "twitter:image"), None);
    assert_eq!(
        meta(&page, "twitter:card").as_deref(),
        Some("summary_large_image")
    );
    assert!(
        meta(&page, "og:title")
            .expect("a title")
            .starts_with("The High Kings of Tara: ")
    );
    let path = image
        .strip_prefix("http://moot.example")
        .expect("absolute, on this host");
    assert!(
        path.starts_with("/api/v1/games/tara/picture?") && path.contains(&moves.join(".")),
        "{path}"
    );
    let picture = get_raw(path).await;
    assert_eq!(
        (picture.status, picture.content_type.as_str()),
        (StatusCode::OK, "image/png")
    );
    assert_eq!(
        decode_png(&picture.body)
            .width
            .max(decode_png(&picture.body).height),
        1200
    );
    let options = html_of(&get_raw("/play/tara").await);
    assert!(
        !options.contains("og:image"),
        "the options form has no position to show"
    );
}

#[actix_web::test]
async fn the_embed_is_a_view_only_board_that_any_site_may_frame() {
    let moves = first_moves("herfor", 2).await.0;
    let uri = format!("/embed/herfor?moves={}&bottom=second", moves.join("."));
    let answer = raw(TestRequest::get()
        .uri(&uri)
        .insert_header((header::HOST, "moot.example")))
    .await;
    let app = test::init_service(moot::app()).await;
    let response = app
        .call(TestRequest::get().uri(&uri).to_request())
        .await
        .expect("an answer");
    assert_eq!(
        response
            .headers()
            .get(header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok()),
        Some("frame-ancestors *; script-src 'self'")
    );
    let page = html_of(&answer);
    assert!(page.contains(r#"<body class="embed">"#));
    assert!(
        page.contains(r#"class="stone black""#),
        "the position is drawn"
    );
    assert!(
        !page.contains(r#"<a class="move""#),
        "view-only: no move links"
    );
    assert!(!page.contains("<header"), "no site chrome");
    assert!(
        page.contains(r#"href="http://moot.example/play/herfor?"#),
        "{page}"
    );
    let tampered = get_raw("/embed/herfor?moves=c3.zz9").await;
    assert_eq!(tampered.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(tampered.content_type.starts_with("text/html"));
}

/// Anyone can send `X-Forwarded-*`: a server that does not trust its proxy (the default) writes
/// its absolute links from the `Host` alone, so forged headers cannot turn the embed's link or
/// a page's preview into a `javascript:` URL or another site's.
#[actix_web::test]
async fn forged_forwarded_headers_never_reach_the_absolute_links() {
    for uri in [
        "/embed/herfor?size=3&moves=c3",
        "/play/herfor?size=3&moves=c3",
    ] {
        let answer = raw(TestRequest::get()
            .uri(uri)
            .insert_header((header::HOST, "moot.example"))
            .insert_header(("x-forwarded-proto", "javascript"))
            .insert_header(("x-forwarded-host", "x%0aalert(document.domain)//"))
            .insert_header(("forwarded", "proto=javascript;host=evil.example")))
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}");
        let page = html_of(&answer);
        assert!(!page.contains("javascript:"), "{uri}: {page}");
        assert!(
            !page.contains("alert(") && !page.contains("evil.example"),
            "{uri}: {page}"
        );
        assert!(
            page.contains("http://moot.example/play/herfor?"),
            "{uri}: {page}"
        );
    }
}
