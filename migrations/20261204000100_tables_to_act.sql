-- The seat the position awaits (0 or 1), kept beside the state: a follower is told where the
-- table stands without the state being read. Written with every move; it stays as it was when
-- a seat resigns or wins on time. NULL for a position that awaits nobody (a game over by its
-- rules), and for tables written before this column: those are read with their state.
ALTER TABLE moot_tables ADD COLUMN to_act BIGINT;
