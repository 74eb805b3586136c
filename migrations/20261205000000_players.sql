-- Player keys: a credential that reaches all of a player's seats, without an account. Like a
-- seat's, the credential itself is never stored, only its hex SHA-256.
CREATE TABLE moot_players (
    id TEXT PRIMARY KEY,
    name TEXT,
    credential_sha256 TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- A presented credential is found by its digest.
CREATE UNIQUE INDEX moot_players_by_credential ON moot_players (credential_sha256);

-- The player who took a seat, if any: at the table's creation, or later with the seat's
-- credential. The seat's row goes with its table when the table is swept.
ALTER TABLE moot_seats ADD COLUMN player_id TEXT REFERENCES moot_players (id);

-- A player's tables are found by this; and one player holds at most one seat of a table
-- (NULLs, the seats no player took, are distinct in both databases).
CREATE UNIQUE INDEX moot_seats_by_player ON moot_seats (player_id, table_id);
