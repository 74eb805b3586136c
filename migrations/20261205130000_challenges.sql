-- Open challenges and invitations: a game offered by a player, to anyone (listed) or to one
-- player (invited, not listed). A challenge is not a table: the table is opened, both seats
-- held by their players, in the transaction that marks the challenge accepted, so that a
-- table always has two seats and its clock starts then.
CREATE TABLE moot_challenges (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    -- the game's options, as JSON, checked when the challenge was made
    options TEXT NOT NULL,
    days_per_move BIGINT,
    creator_id TEXT NOT NULL REFERENCES moot_players (id),
    -- the creator's seat, 0 or 1; NULL: drawn at random when someone accepts
    creator_seat BIGINT,
    -- the invited player; NULL for an open challenge (listed)
    invited_id TEXT REFERENCES moot_players (id),
    -- 'open', 'accepted', 'declined', 'cancelled' or 'expired'
    status TEXT NOT NULL,
    -- the table opened, once accepted (not a reference: a table is swept when old)
    table_id TEXT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);

-- The list of open challenges, newest first: only the open ones to anyone are in it.
CREATE INDEX moot_challenges_listed ON moot_challenges (created_ms, id)
    WHERE status = 'open' AND invited_id IS NULL;

-- Each player's open challenges are counted against its share by this.
CREATE INDEX moot_challenges_by_creator ON moot_challenges (creator_id, status);
