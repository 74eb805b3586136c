//! A change's answer kept small: its table's position (the bulk of it: a Hirþ match's record is
//! kilobytes, the rest of the answer a few hundred bytes) is kept by reference, as the ply it
//! is at and a digest, and rebuilt from the table's moves when the answer is given again. The
//! digest makes sure the rebuilt position is the one first answered. A takeback deletes the
//! moves that would rebuild a taken-back ply's position, so it keeps that position in the
//! key's row first ([`Tables::keep_taken_back_positions`]).

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::super::rows::seat_of;
use super::super::takeback::replay;
use super::super::write::Write;
use super::super::{TableError, Tables};
use super::{Position, Remembered};
use moot_games::{Seat, with_game};

/// An answer as sealed in the database: a change's without its position, which is named.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Kept {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    position: Option<KeptPosition>,
}

/// Where a change's answer had its position, and which position it was.
#[derive(Debug, Serialize, Deserialize)]
struct KeptPosition {
    /// The byte in the kept body where the position goes back.
    at: usize,
    /// The table's ply: the position after that many moves.
    ply: u64,
    /// The first half of the position's SHA-256, in hex.
    digest: String,
}

impl Kept {
    /// `answer` as kept: its position cut out and named, if it has one.
    pub(super) fn of(answer: &Remembered) -> Kept {
        let cut = answer.position.as_ref().and_then(|p| {
            let state = answer.body.get(p.at..p.at + p.len)?;
            Some((p, state))
        });
        let Some((position, state)) = cut else {
            return Kept {
                status: answer.status,
                headers: answer.headers.clone(),
                body: answer.body.clone(),
                position: None,
            };
        };
        let body = [
            &answer.body[..position.at],
            &answer.body[position.at + position.len..],
        ]
        .concat();
        Kept {
            status: answer.status,
            headers: answer.headers.clone(),
            body,
            position: Some(KeptPosition {
                at: position.at,
                ply: position.ply,
                digest: digest_of(state),
            }),
        }
    }

    /// The ply whose position the answer names, if it names one.
    pub(super) fn ply(&self) -> Option<u64> {
        self.position.as_ref().map(|p| p.ply)
    }

    /// The answer as first given, its position `state` put back (checked against the digest
    /// kept); `Corrupt` when the position is needed and does not match.
    pub(super) fn answer(self, state: Option<String>) -> Result<Remembered, TableError> {
        let Some(position) = self.position else {
            return Ok(Remembered {
                status: self.status,
                headers: self.headers,
                body: self.body,
                position: None,
            });
        };
        let state = state
            .filter(|s| digest_of(s) == position.digest)
            .ok_or_else(|| {
                TableError::Corrupt(format!(
                    "the position at ply {} of a remembered answer cannot be rebuilt",
                    position.ply
                ))
            })?;
        let (before, after) = self
            .body
            .split_at_checked(position.at)
            .ok_or_else(|| TableError::Corrupt("a remembered answer is cut short".into()))?;
        Ok(Remembered {
            status: self.status,
            headers: self.headers,
            body: [before, &state, after].concat(),
            position: Some(Position {
                at: position.at,
                len: state.len(),
                ply: position.ply,
            }),
        })
    }
}

/// Half of the SHA-256 of `state`, in hex: enough to tell positions apart.
fn digest_of(state: &str) -> String {
    use sha2::{Digest, Sha256};
    super::super::secret::hex(&Sha256::digest(state.as_bytes())[..16])
}

impl Tables {
    /// The position of table `id` after its first `ply` moves, as its answers write it; `None`
    /// when the table is gone or no longer has that many moves.
    pub(super) async fn position_at(
        &self,
        id: &str,
        ply: u64,
    ) -> Result<Option<String>, TableError> {
        let pool = self.store.reads()?;
        let Some(table) = sqlx::query("SELECT game, options FROM moot_tables WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?
        else {
            return Ok(None);
        };
        let game: String = table.try_get("game")?;
        let options: String = table.try_get("options")?;
        let moves = sqlx::query(
            "SELECT seat, notation FROM moot_moves WHERE table_id = $1 AND ply <= $2 ORDER BY ply",
        )
        .bind(id)
        .bind(ply as i64)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| Ok((seat_of(r.try_get("seat")?)?, r.try_get("notation")?)))
        .collect::<Result<Vec<(Seat, String)>, TableError>>()?;
        if moves.len() as u64 != ply {
            return Ok(None);
        }
        position_text(&game, &options, &moves).map(Some)
    }

    /// In a takeback's transaction, before the moves after `ply` are deleted: the positions of
    /// the plies taken back (`moves` are the table's moves, all of them) kept in the rows of
    /// the answers that name them, which could no longer be rebuilt.
    pub(in crate::tables) async fn keep_taken_back_positions(
        tx: &mut Write,
        (id, game, options): (&str, &str, &str),
        moves: &[(Seat, String)],
        ply: u64,
    ) -> Result<(), TableError> {
        let named: Vec<i64> = sqlx::query(
            "SELECT DISTINCT ply FROM moot_idempotency \
             WHERE table_id = $1 AND ply > $2 AND state IS NULL",
        )
        .bind(id)
        .bind(ply as i64)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| r.try_get("ply"))
        .collect::<Result<_, _>>()?;
        for taken_back in named {
            let Some(played) = moves.get(..taken_back as usize) else {
                continue;
            };
            let state = position_text(game, options, played)?;
            sqlx::query(
                "UPDATE moot_idempotency SET state = $1 \
                 WHERE table_id = $2 AND ply = $3 AND state IS NULL",
            )
            .bind(state)
            .bind(id)
            .bind(taken_back)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }
}

/// The position after `moves` in a game of `game` with `options`, as a table's answer writes it.
fn position_text(
    game: &str,
    options: &str,
    moves: &[(Seat, String)],
) -> Result<String, TableError> {
    with_game!(game, G => {
        let state = replay::<G>(options, moves)?;
        let value = serde_json::to_value(&state).map_err(|e| TableError::Corrupt(e.to_string()))?;
        Ok(value.to_string())
    }, else Err(TableError::Corrupt(format!("a table of no game this server knows: {game}"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> Remembered {
        let state = r#"{"board":[1,2,3],"record":"G1 a b"}"#;
        let body = format!(r#"{{"id":"t","state":{state},"ply":7}}"#);
        Remembered {
            status: 200,
            headers: vec![("ETag".into(), "\"t-7\"".into())],
            position: Some(Position {
                at: body.find(state).unwrap(),
                len: state.len(),
                ply: 7,
            }),
            body,
        }
    }

    #[test]
    fn a_changes_answer_is_kept_without_its_position_and_given_back_whole() {
        let kept = Kept::of(&answer());
        assert_eq!(kept.body, r#"{"id":"t","state":,"ply":7}"#);
        assert_eq!(kept.ply(), Some(7));
        let state = r#"{"board":[1,2,3],"record":"G1 a b"}"#.to_owned();
        assert_eq!(kept.answer(Some(state)).unwrap(), answer());
    }

    #[test]
    fn another_position_than_the_one_first_answered_is_refused() {
        let other = r#"{"board":[1,2,4],"record":"G1 a c"}"#.to_owned();
        assert!(Kept::of(&answer()).answer(Some(other)).is_err());
        assert!(
            Kept::of(&answer()).answer(None).is_err(),
            "none to put back"
        );
    }
}
