-- The seat the position awaits (0 or 1), kept beside the state: a follower is told where the
-- table stands without the state being read. Written with every move; it stays as it was when
-- a seat resigns or wins on time. NULL for a position that awaits nobody (a game over by its
-- rules), and for tables written before this column: those are read with their state.
ALTER TABLE moot_tables ADD COLUMN to_act BIGINT;

-- Where a table stands, without its state: an index holding every column a follower is told
-- of, so that reading them never reads the state (on SQLite a row's later columns are reached
-- only through a large state's overflow pages).
CREATE INDEX moot_tables_heads ON moot_tables
    (id, game, ply, status, winner, ended_by, days_per_move, updated_ms, to_act);
