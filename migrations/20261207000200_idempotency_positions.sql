-- A change's remembered answer keeps its table's position by reference (the ply it is at and
-- a digest), not in full: a Hirþ match's position is kilobytes, its answer's other parts a few
-- hundred bytes. The position is rebuilt from the table's moves when the answer is given again.
-- A takeback that removes the ply keeps the position here first, since the moves that rebuild
-- it are deleted.
ALTER TABLE moot_idempotency ADD COLUMN table_id TEXT;
ALTER TABLE moot_idempotency ADD COLUMN ply BIGINT;
ALTER TABLE moot_idempotency ADD COLUMN state TEXT;
CREATE INDEX moot_idempotency_by_ply ON moot_idempotency (table_id, ply)
    WHERE table_id IS NOT NULL;
