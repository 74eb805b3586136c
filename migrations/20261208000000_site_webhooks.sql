-- One webhook for a whole site: a site key (`--site-keys`) may name a URL that every event of
-- the tables and players it made is posted to, beside their own webhooks.

-- The site (its name in the keys file: two secrets of one name during a rotation are one site)
-- whose key made the table or the player; NULL: made without a site key.
ALTER TABLE moot_tables ADD COLUMN site TEXT;
ALTER TABLE moot_players ADD COLUMN site TEXT;

-- A site's webhook: its URL and secret (kept as given: it signs), and how it fares, as a
-- table's webhook keeps it.
CREATE TABLE moot_site_webhooks (
    site TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    -- events given up after retrying for a day
    failed BIGINT NOT NULL DEFAULT 0,
    -- the last delivery's failure, until a delivery succeeds
    last_error TEXT,
    updated_ms BIGINT NOT NULL
);

-- The site whose webhook an event of the outbox is a copy for; NULL: the table's or the
-- player's own webhook. A copy has a chain of its own ('site:<site>:<chain>'), so that a slow
-- site never holds back a table's own webhook, nor the other way round.
ALTER TABLE moot_outbox ADD COLUMN site TEXT;
