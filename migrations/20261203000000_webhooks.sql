-- Webhooks: a table may name a URL that each of its events is posted to, signed with the
-- table's secret (kept as given: it signs, so it cannot be kept hashed).
ALTER TABLE moot_tables ADD COLUMN webhook_url TEXT;
ALTER TABLE moot_tables ADD COLUMN webhook_secret TEXT;
-- events given up after retrying for a day
ALTER TABLE moot_tables ADD COLUMN webhook_failed BIGINT NOT NULL DEFAULT 0;
-- the last delivery's failure, until a delivery succeeds
ALTER TABLE moot_tables ADD COLUMN webhook_error TEXT;

-- The outbox: each event of a table with a webhook, written in the transaction of the change
-- itself, then delivered (and retried) by whichever replica claims it. No key to moot_tables:
-- an event outlives the sweep of its table until it is delivered or given up.
CREATE TABLE moot_outbox (
    -- '<table id>-<seq>': the receiver's key to deduplicate
    event_id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    -- 'move', 'resign' or 'claim'
    kind TEXT NOT NULL,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    body TEXT NOT NULL,
    -- 'pending', 'delivered' or 'failed'
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    -- when a replica may next try it: due, backing off, or claimed until then
    next_attempt_ms BIGINT NOT NULL,
    last_error TEXT,
    created_ms BIGINT NOT NULL,
    done_ms BIGINT
);

CREATE INDEX moot_outbox_due ON moot_outbox (status, next_attempt_ms);
-- A table's events go out in order: its first one not yet delivered is found by this.
CREATE INDEX moot_outbox_by_table ON moot_outbox (table_id, seq);
