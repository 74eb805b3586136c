-- Tables that Moot keeps: one set of migrations for SQLite and PostgreSQL alike (BIGINT, TEXT
-- and primary keys mean the same in both). Times are milliseconds since the Unix epoch; JSON
-- (options, state) is stored as text, read back by the game's engine.
CREATE TABLE moot_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    state TEXT NOT NULL,
    -- moves played so far
    ply BIGINT NOT NULL,
    -- 'ongoing' or 'finished'
    status TEXT NOT NULL,
    -- the winning seat's index (0 or 1); NULL while ongoing, and for a draw
    winner BIGINT,
    -- 'rules', 'resignation' or 'time'; NULL while ongoing
    ended_by TEXT,
    days_per_move BIGINT,
    deadline_ms BIGINT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);

-- The sweep looks for finished tables last changed before a time.
CREATE INDEX moot_tables_by_status ON moot_tables (status, updated_ms);

CREATE TABLE moot_seats (
    table_id TEXT NOT NULL REFERENCES moot_tables (id) ON DELETE CASCADE,
    seat BIGINT NOT NULL,
    name TEXT,
    -- hex SHA-256 of the seat's credential; the credential itself is never stored
    credential_sha256 TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);

-- One row per ply: the key makes a ply writable once, whichever replica writes it.
CREATE TABLE moot_moves (
    table_id TEXT NOT NULL REFERENCES moot_tables (id) ON DELETE CASCADE,
    ply BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    notation TEXT NOT NULL,
    played_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
