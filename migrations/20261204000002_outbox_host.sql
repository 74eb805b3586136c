-- A webhook event's receiver: its URL's host and port ('games.example:443'), written with the
-- event. The delivery worker shares its deliveries between receivers by it, so that one slow or
-- dead receiver holds up only its own tables' events. Events written before this column, or by
-- a server of an older version, have '' here; the worker fills it in from their URL.
ALTER TABLE moot_outbox ADD COLUMN host TEXT NOT NULL DEFAULT '';
-- A receiver whose circuit breaker opens has its pending events held back by this.
CREATE INDEX moot_outbox_by_host ON moot_outbox (host, status);
