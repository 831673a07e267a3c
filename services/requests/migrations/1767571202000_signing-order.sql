-- Up Migration

-- Issue #20 item 1, ADR 2000: a signer's place in the signing order. NULL on every signer
-- of a Request signed without order (every Request made before this migration).
ALTER TABLE request_signers
  ADD COLUMN signing_order smallint CHECK (signing_order IS NULL OR signing_order >= 1);

-- Down Migration
ALTER TABLE request_signers DROP COLUMN signing_order;
