-- Answers remembered for requests sent with an Idempotency-Key, written in the transaction of
-- the change they answer. Kept under a digest of the key, sealed with a cipher keyed by it.
CREATE TABLE moot_idempotency (
    id TEXT PRIMARY KEY,
    -- hex SHA-256 of what was asked: the same key with another request is refused
    fingerprint TEXT NOT NULL,
    -- nonce and ciphertext of the answer (status, headers, body), in hex
    answer TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE INDEX moot_idempotency_by_age ON moot_idempotency (created_ms);
