-- Clocks of several kinds: hours per move or a bank with an increment, weekends paused or not,
-- what an expired clock does, vacation (see src/tables/clock.rs). `days_per_move` stays, for
-- the tables made with that shorthand and for those made before clocks had kinds (whose
-- `clock` is NULL: their clock is the shorthand's).

-- The clock, as JSON; NULL: `days_per_move`'s, or none.
ALTER TABLE moot_tables ADD COLUMN clock TEXT;
-- The times the clock keeps between changes (the turn's start, each seat's bank and
-- vacation), as JSON; NULL for a table without a clock or made before clocks had kinds.
ALTER TABLE moot_tables ADD COLUMN clock_times TEXT;
-- When the awaited move's deadline comes near (its notice is due); NULL: four fifths of
-- `days_per_move` gone, as before.
ALTER TABLE moot_tables ADD COLUMN near_ms BIGINT;

-- A challenge's clock, carried to the table opened when it is accepted.
ALTER TABLE moot_challenges ADD COLUMN clock TEXT;

-- A follower is told the awaited move's deadline, which a clock computes from more than the
-- days per move: the heads' index holds it too, so that reading a head still never reads the
-- state.
DROP INDEX moot_tables_heads;
CREATE INDEX moot_tables_heads ON moot_tables
    (id, game, ply, status, winner, ended_by, days_per_move, updated_ms, to_act, taken_back,
     takeback_seq, deadline_ms);
