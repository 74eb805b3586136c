-- Readiness: each replica proves that the database takes writes by writing its row here.
CREATE TABLE moot_probe (
    replica TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
