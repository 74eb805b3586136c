//! The document's examples of the tables' bodies, made from a game really played: the same
//! bodies the handlers answer with, so an example is always an answer the service could give.

use serde_json::Value;

use super::bodies::{
    CreatedTable, RematchResponse, RematchStatus, TableHistory, TableMove, TableResponse,
    TakebackResponse, TakebackStatus, rfc3339,
};
use crate::tables::{self, Standing};
use moot_games::{Game, Seat, Turn};

/// The document's examples of the tables' bodies, in the game `G`: a request to create a table,
/// what creating it answers, the table after some moves, its history, and a move to send. Built
/// from the same types the handlers answer with; the id, credentials and times are fixed so the
/// document is the same from build to build.
pub struct TableExamples {
    /// A `CreateTableRequest`.
    pub create_request: Value,
    /// A `CreatedTable`.
    pub created: Value,
    /// A `TableResponse`.
    pub table: Value,
    /// A `TableHistory`.
    pub history: Value,
    /// A `TableMoveRequest`.
    pub move_request: Value,
    /// A `RematchResponse`: the table after the opening, resigned, and its rematch accepted.
    pub rematch: Value,
    /// A `TakebackResponse`: the opening's last mover asks to take its move back.
    pub takeback: Value,
}

impl TableExamples {
    /// The examples of game `G` with these options: a table where `opening` was played, and
    /// `next` is the move to send.
    pub fn of<G: Game>(options: &Value, opening: &[String], next: &str) -> Option<Self> {
        const TABLE_ID: &str = "5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c";
        const REMATCH_ID: &str = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
        const NAMES: [&str; 2] = ["Aoife", "Bran"];
        const DAYS: u32 = 3;
        const CREATED: tables::Millis = 1_796_212_800_000; // 2026-12-02T12:00:00Z
        const HOUR: tables::Millis = 3_600_000;
        let at = |ply: usize| CREATED + ply as tables::Millis * HOUR;
        let table = |state: &G::State, ply: usize| -> Option<tables::Table> {
            let standing = Standing::after::<G>(state);
            Some(tables::Table {
                id: TABLE_ID.to_owned(),
                game: G::ID,
                options: options.clone(),
                state: serde_json::to_value(state).ok()?,
                ply: ply as u64,
                deadline: matches!(standing, Standing::Ongoing { .. })
                    .then_some(at(ply) + i64::from(DAYS) * tables::DAY),
                standing,
                game_status: G::status(state),
                seats: [Seat::First, Seat::Second]
                    .into_iter()
                    .zip(NAMES)
                    .map(|(seat, name)| tables::SeatInfo {
                        seat,
                        name: Some(name.to_owned()),
                    })
                    .collect(),
                days_per_move: Some(DAYS),
                clock: Some(tables::Clock::days_per_move(DAYS)),
                clock_times: Some(tables::Clock::days_per_move(DAYS).start(at(ply))),
                created: CREATED,
                updated: at(ply),
                webhook: None,
                rematch: tables::Rematch::default(),
                takebacks: tables::Takebacks::default(),
            })
        };
        let typed: G::Options = serde_json::from_value(options.clone()).ok()?;
        let mut state = G::new_game(&typed).ok()?;
        let fresh = table(&state, 0)?;
        let mut moves = Vec::new();
        for (index, notation) in opening.iter().enumerate() {
            let Turn::ToAct(seat) = G::turn(&state) else {
                return None;
            };
            let mv = G::parse_move(&state, notation).ok()?;
            G::apply(&mut state, &mv).ok()?;
            moves.push(TableMove {
                ply: index as u64 + 1,
                seat,
                mv: notation.clone(),
                time: rfc3339(at(index + 1)),
            });
        }
        let record = G::write_record(&state).unwrap_or_else(|| opening.join(" "));
        let history = TableHistory {
            id: TABLE_ID.to_owned(),
            game: G::ID.to_owned(),
            ply: moves.len() as u64,
            moves,
            record: Some(record),
            next: None,
        };
        let played = table(&state, opening.len())?;
        let takeback = TakebackResponse {
            status: TakebackStatus::Asked,
            table: TableResponse::from(tables::Table {
                takebacks: tables::Takebacks {
                    asked_by: history.moves.last().map(|m| m.seat),
                    ..tables::Takebacks::default()
                },
                ..played.clone()
            }),
        };
        let rematch = RematchResponse {
            status: RematchStatus::Accepted,
            table: TableResponse::from(tables::Table {
                standing: Standing::Finished {
                    winner: Some(Seat::Second),
                    ended_by: tables::EndedBy::Resignation,
                },
                deadline: None,
                rematch: tables::Rematch {
                    by: Some(REMATCH_ID.to_owned()),
                    ..tables::Rematch::default()
                },
                ..played.clone()
            }),
            rematch: Some(TableResponse::from(tables::Table {
                id: REMATCH_ID.to_owned(),
                seats: fresh
                    .seats
                    .iter()
                    .rev()
                    .zip(Seat::BOTH)
                    .map(|(s, seat)| tables::SeatInfo {
                        seat,
                        name: s.name.clone(),
                    })
                    .collect(),
                created: played.updated,
                updated: played.updated,
                deadline: Some(played.updated + i64::from(DAYS) * tables::DAY),
                rematch: tables::Rematch {
                    of: Some(TABLE_ID.to_owned()),
                    ..tables::Rematch::default()
                },
                ..fresh.clone()
            })),
        };
        let created = CreatedTable::new(
            TableResponse::from(fresh),
            ["3b9f", "c41e"].map(|stem| stem.repeat(16)),
        );
        Some(TableExamples {
            create_request: serde_json::json!({
                "game": G::ID,
                "options": options,
                "days_per_move": DAYS,
                "names": NAMES,
            }),
            created: serde_json::to_value(created).ok()?,
            table: serde_json::to_value(TableResponse::from(played)).ok()?,
            history: serde_json::to_value(history).ok()?,
            move_request: serde_json::json!({ "move": next, "ply": opening.len() }),
            rematch: serde_json::to_value(rematch).ok()?,
            takeback: serde_json::to_value(takeback).ok()?,
        })
    }
}
