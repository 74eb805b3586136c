-- Web Push: notices sent to a player's browsers, encrypted for each (RFC 8291) and signed with
-- the server's VAPID key (RFC 8292).

-- The server's VAPID key: one row (id 1), made at first need. Kept here, not in a file, so that
-- every replica signs with the same key and the browsers' subscriptions, made for its public
-- half, survive restarts. The private key is the P-256 scalar as base64url.
CREATE TABLE moot_push_keys (
    id BIGINT PRIMARY KEY,
    private_key TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- A player's browsers: each one's push service endpoint and its keys (`PushSubscription`'s
-- `p256dh`, an uncompressed P-256 point, and `auth`, 16 bytes, both base64url).
CREATE TABLE moot_push_subscriptions (
    player_id TEXT NOT NULL REFERENCES moot_players (id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, endpoint)
);

-- The pushes to send: one per subscription of the player, written in the transaction of what
-- made the notice due, then claimed and posted by whichever replica claims it. The keys are
-- read from the subscription at each attempt: a subscription deleted meanwhile takes its
-- pushes with it.
CREATE TABLE moot_push_outbox (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    -- the notice, as JSON, before encryption
    payload TEXT NOT NULL,
    -- 'pending', 'delivered', 'failed' or 'gone' (the subscription was dropped)
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    -- when a replica may next try it: due, backing off, or claimed until then
    next_attempt_ms BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_error TEXT,
    done_ms BIGINT
);

CREATE INDEX moot_push_outbox_due ON moot_push_outbox (status, next_attempt_ms);
CREATE INDEX moot_push_outbox_by_subscription ON moot_push_outbox (player_id, endpoint);
