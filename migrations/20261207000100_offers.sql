-- Takeback requests and rematch offers counted at a table since its last move or takeback
-- (`offers_at`: the ply plus twice the plies taken back, which every move and takeback
-- changes): a seat may ask a few times, not flood its opponent with ask-and-withdraw cycles.
ALTER TABLE moot_tables ADD COLUMN offers BIGINT NOT NULL DEFAULT 0;
ALTER TABLE moot_tables ADD COLUMN offers_at BIGINT NOT NULL DEFAULT -1;
