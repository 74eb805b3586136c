-- Each player's feed: every event of the tables the player sits at, and the notices meant for
-- the player (its turn, a deadline near or passed, a table started or finished), written in
-- the transaction of the change that made them. A player's events are numbered from 1 in the
-- order they commit: `last_event` on the player's row hands out the numbers, and the row's
-- lock makes two changes at once take turns, so a follower never finds a gap that later fills.
ALTER TABLE moot_players ADD COLUMN last_event BIGINT NOT NULL DEFAULT 0;

CREATE TABLE moot_player_events (
    player_id TEXT NOT NULL REFERENCES moot_players (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    table_id TEXT NOT NULL,
    -- 'move', 'resign', 'claim', 'abandoned', 'your_turn', 'deadline_near',
    -- 'deadline_passed', 'table_started' or 'table_finished'
    kind TEXT NOT NULL,
    -- what the event says, as JSON (see src/tables/player_feed.rs)
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, seq)
);

-- The sweep forgets events older than the feed keeps.
CREATE INDEX moot_player_events_by_age ON moot_player_events (created_ms);

-- Deadline notices, told once per awaited move: the ply at which each was last told. A move
-- changes the ply, so the next deadline's notices are due again.
ALTER TABLE moot_tables ADD COLUMN deadline_near_ply BIGINT;
ALTER TABLE moot_tables ADD COLUMN deadline_passed_ply BIGINT;

-- The deadline worker finds the tables whose deadline comes by this.
CREATE INDEX moot_tables_by_deadline ON moot_tables (deadline_ms);

-- A player's webhook, if it names one: each event of its feed is posted there (through the
-- outbox, like a table's), signed with its secret.
ALTER TABLE moot_players ADD COLUMN webhook_url TEXT;
ALTER TABLE moot_players ADD COLUMN webhook_secret TEXT;
