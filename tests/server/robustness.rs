//! Crafted and corrupt input never gets a 500: valid states of every game are mutated at random
//! (values changed, keys deleted, types swapped, entries moved) and posted to every endpoint.
//! Every answer must be 200 or a 4xx problem.

use actix_web::dev::Service;
use actix_web::test::{self, TestRequest};
use moot::games::{GAME_IDS, Game, Turn};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};

use crate::common::{answer_of, endpoint};

/// Mutated states per game.
const CASES: usize = 1000;

/// Valid states met along random games: the seeds of the mutations.
fn sample_states<G: Game>(rng: &mut SmallRng) -> Vec<Value> {
    let mut states = Vec::new();
    for _ in 0..6 {
        let mut state = G::new_game(&G::Options::default()).expect("default options are valid");
        for ply in 0..400 {
            if ply % 7 == 0 {
                states.push(serde_json::to_value(&state).unwrap());
            }
            if !matches!(G::turn(&state), Turn::ToAct(_)) {
                states.push(serde_json::to_value(&state).unwrap());
                break;
            }
            let moves = G::legal_moves(&state);
            let mv = moves
                .choose(rng)
                .expect("a game that goes on has a move")
                .clone();
            G::apply(&mut state, &mv).expect("a legal move applies");
        }
    }
    states
}

/// Every value in the tree, by JSON pointer.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                pointers(
                    member,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Strings and numbers found in valid states: plausible values put in the wrong place.
fn plausible(rng: &mut SmallRng, donors: &[Value]) -> Value {
    let mut all = Vec::new();
    if let Some(donor) = donors.choose(rng) {
        pointers(donor, String::new(), &mut all);
        if let Some(pointer) = all.choose(rng) {
            return donor.pointer(pointer).cloned().unwrap_or(Value::Null);
        }
    }
    Value::Null
}

fn random_value(rng: &mut SmallRng, donors: &[Value]) -> Value {
    match rng.random_range(0..12) {
        0 => Value::Null,
        1 => json!(rng.random::<bool>()),
        2 => json!(rng.random_range(-3i64..300)),
        3 => [
            json!(u64::MAX),
            json!(i64::MIN),
            json!(u64::from(u32::MAX) + 1),
            json!(255),
            json!(256),
            json!(-1),
        ]
        .choose(rng)
        .unwrap()
        .clone(),
        4 => json!(rng.random::<f64>() * 1e6 - 5e5),
        5 => json!(
            [
                "", "a1", "z9", "e5", "black", "white", "first", "pass", "swap", "é", "a0", "A1"
            ]
            .choose(rng)
            .unwrap()
        ),
        6 => json!([]),
        7 => json!({}),
        8 => json!([plausible(rng, donors), plausible(rng, donors)]),
        _ => plausible(rng, donors),
    }
}

/// One random change somewhere in `state`.
fn mutate(rng: &mut SmallRng, state: &mut Value, donors: &[Value]) {
    let mut all = Vec::new();
    pointers(state, String::new(), &mut all);
    let pointer = all.choose(rng).unwrap().clone();
    let (parent_pointer, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
    let replacement = random_value(rng, donors);
    let action = rng.random_range(0..5);
    if pointer.is_empty() {
        *state = replacement;
        return;
    }
    let Some(parent) = state.pointer_mut(parent_pointer) else {
        return;
    };
    match (parent, action) {
        (Value::Object(members), 0) => {
            members.remove(key);
        }
        (Value::Object(members), 1) => {
            members.insert(format!("{key}_extra"), replacement);
        }
        (Value::Array(items), 0) => {
            let index: usize = key.parse().unwrap();
            items.remove(index);
        }
        (Value::Array(items), 1) => {
            let index: usize = key.parse().unwrap();
            let copy = items[index].clone();
            items.push(copy);
        }
        (Value::Array(items), 2) if items.len() > 1 => {
            let (i, j) = (
                rng.random_range(0..items.len()),
                rng.random_range(0..items.len()),
            );
            items.swap(i, j);
        }
        (parent, _) => {
            if let Some(target) = parent.pointer_mut(&format!("/{key}")) {
                *target = replacement;
            } else if let Value::Object(members) = parent {
                members.insert(key.to_owned(), replacement);
            }
        }
    }
}

fn first_move<G: Game>(state: &Value) -> Value {
    let Ok(state) = serde_json::from_value::<G::State>(state.clone()) else {
        return json!("a1");
    };
    if G::validate(&state).is_err() {
        return json!("a1");
    }
    G::legal_moves(&state)
        .first()
        .map_or(json!("a1"), |mv| json!(G::format_move(&state, mv)))
}

#[actix_web::test]
async fn mutated_states_get_200_or_4xx_never_500() {
    let app = test::init_service(moot::app()).await;
    let mut rng = SmallRng::seed_from_u64(0x6d6f6f74);
    for game in GAME_IDS {
        let samples: Vec<Value> =
            moot::with_game!(*game, G => sample_states::<G>(&mut rng), else unreachable!());
        let (mut refused, mut accepted) = (0, 0);
        for case in 0..CASES {
            let original = samples.choose(&mut rng).unwrap();
            let mut state = original.clone();
            for _ in 0..rng.random_range(1..4) {
                mutate(&mut rng, &mut state, &samples);
            }
            let mv: Value =
                moot::with_game!(*game, G => first_move::<G>(original), else unreachable!());
            let mut options = original
                .get("options")
                .cloned()
                .unwrap_or_else(|| json!({}));
            mutate(&mut rng, &mut options, &samples);
            let requests = [
                ("legal-moves", json!({"state": state})),
                ("score", json!({"state": state})),
                ("apply", json!({"state": state, "move": mv})),
                ("apply", json!({"state": state, "moves": [mv, mv]})),
                ("new", json!({"options": options})),
                ("replay", json!({"options": options, "moves": [mv]})),
                ("evaluate", json!({"state": state, "playouts": 20})),
            ];
            for (operation, body) in requests {
                let request = TestRequest::post()
                    .uri(&endpoint(game, operation))
                    .set_json(&body)
                    .to_request();
                let answer = answer_of(app.call(request).await.unwrap()).await;
                let status = answer.status.as_u16();
                assert!(
                    status == 200 || (400..500).contains(&status),
                    "{game} {operation} case {case}: {status} {}\nbody: {body}",
                    answer.body
                );
                if status == 200 {
                    accepted += 1;
                } else {
                    assert_eq!(answer.content_type, "application/problem+json");
                    refused += 1;
                }
            }
        }
        eprintln!("{game}: {accepted} requests accepted, {refused} refused");
        assert!(
            refused > 0,
            "{game}: some mutations must be refused, or the test mutates nothing"
        );
        assert!(
            accepted > 0,
            "{game}: some mutations must be accepted, or the test never reaches the engine"
        );
    }
}

#[actix_web::test]
async fn arbitrary_json_bodies_get_200_or_4xx_never_500() {
    let app = test::init_service(moot::app()).await;
    let mut rng = SmallRng::seed_from_u64(7);
    let bodies = [
        json!(null),
        json!([]),
        json!(1),
        json!("state"),
        json!({"state": null}),
        json!({"state": []}),
    ];
    for game in GAME_IDS {
        for operation in ["new", "legal-moves", "apply", "score", "replay", "evaluate"] {
            for body in &bodies {
                let request = TestRequest::post()
                    .uri(&endpoint(game, operation))
                    .set_json(body)
                    .to_request();
                let answer = answer_of(app.call(request).await.unwrap()).await;
                assert!(
                    answer.status.is_client_error(),
                    "{game} {operation} {body}: {:?}",
                    answer
                );
            }
            let mut random = Map::new();
            random.insert("state".into(), random_value(&mut rng, &[]));
            let request = TestRequest::post()
                .uri(&endpoint(game, operation))
                .set_json(Value::Object(random))
                .to_request();
            let answer = answer_of(app.call(request).await.unwrap()).await;
            assert!(
                answer.status.as_u16() < 500,
                "{game} {operation}: {answer:?}"
            );
        }
    }
}
