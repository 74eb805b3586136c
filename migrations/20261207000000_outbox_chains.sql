-- Webhook events go out in chains (a table's, a player's: `table_id`), each in order. A claim
-- used to find each chain's first pending event by reading the chain, delivered events and
-- all, for every pending event: its cost grew with everything a chain had ever sent, inside the
-- single writer of SQLite. Now each chain keeps its head: its first event not yet delivered nor
-- given up (NULL when none waits), and when that event may next be tried. A claim reads heads,
-- never a chain; delivering a head advances its chain to the next pending event through an
-- index of pending events only.
CREATE TABLE moot_outbox_chains (
    chain TEXT PRIMARY KEY,
    -- the event_id of the chain's first pending event; NULL: nothing waits
    head TEXT,
    -- with a head: when it may next be tried (due, backing off, or claimed until then);
    -- without: when the chain's last event was done (the sweep forgets idle chains)
    due_ms BIGINT NOT NULL
);
CREATE INDEX moot_outbox_chains_due ON moot_outbox_chains (due_ms) WHERE head IS NOT NULL;

-- Pending events only: a chain's next one, and each receiver's backlog (for its gauges and
-- its breaker), read without passing over the delivered events kept beside them.
CREATE INDEX moot_outbox_pending ON moot_outbox (table_id, seq, created_ms, event_id)
    WHERE status = 'pending';
CREATE INDEX moot_outbox_pending_by_host ON moot_outbox (host, created_ms)
    WHERE status = 'pending';
-- Done events, for the sweep that forgets them.
CREATE INDEX moot_outbox_done ON moot_outbox (done_ms) WHERE status <> 'pending';
DROP INDEX moot_outbox_due;
DROP INDEX moot_outbox_by_table;
DROP INDEX moot_outbox_by_host;

-- The chains of the events already waiting: each one's first pending event is its head.
INSERT INTO moot_outbox_chains (chain, head, due_ms)
SELECT table_id, event_id, next_attempt_ms FROM (
    SELECT table_id, event_id, next_attempt_ms,
        ROW_NUMBER() OVER (PARTITION BY table_id ORDER BY seq, created_ms, event_id) AS place
    FROM moot_outbox WHERE status = 'pending'
) AS waiting WHERE place = 1;

-- Pushes done, likewise.
CREATE INDEX moot_push_outbox_done ON moot_push_outbox (done_ms) WHERE status <> 'pending';
