-- Rematch: a finished table's offer of another game between the same seats, and the links
-- between a table and its rematch, both ways.

-- The seat (0 or 1) offering a rematch, while its offer stands.
ALTER TABLE moot_tables ADD COLUMN rematch_offer BIGINT;
-- The table this one is the rematch of.
ALTER TABLE moot_tables ADD COLUMN rematch_of TEXT;
-- This table's rematch, once accepted: one per table.
ALTER TABLE moot_tables ADD COLUMN rematched_by TEXT;
