-- A table's version: raised by every change of its row or of its seats, so that a move
-- written from what a process remembered of the table (rather than read afresh) is written
-- only where nothing changed since. On PostgreSQL, triggers raise it (see src/tables/store.rs),
-- so that no statement can forget it; SQLite, one process and one writer at a time, reads a
-- table before each change and does not use it.
ALTER TABLE moot_tables ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
