-- Takeback: a seat's request to take back its last move (or Hirþ turn) while the other seat
-- has not moved, and what a table's change number needs once plies can be taken back.

-- The seat (0 or 1) asking to take back its last move, while its request stands.
ALTER TABLE moot_tables ADD COLUMN takeback_offer BIGINT;
-- Plies taken back in all. A table's change number is its ply plus twice this, so that it
-- grows with every change, a takeback included (which lowers the ply).
ALTER TABLE moot_tables ADD COLUMN taken_back BIGINT NOT NULL DEFAULT 0;
-- The change number of the last takeback: a follower that saw less is sent the table anew.
ALTER TABLE moot_tables ADD COLUMN takeback_seq BIGINT NOT NULL DEFAULT 0;

-- A table's head (what a follower is told, without the state) holds both.
DROP INDEX moot_tables_heads;
CREATE INDEX moot_tables_heads ON moot_tables
    (id, game, ply, status, winner, ended_by, days_per_move, updated_ms, to_act, taken_back,
     takeback_seq);
