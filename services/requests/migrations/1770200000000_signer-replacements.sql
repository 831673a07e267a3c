-- Up Migration

-- ADR 3550: someone else signing in a signer's place is kept in the audit trail's record of
-- corrections: who was there and who is now. Null for a correction of contact details.
ALTER TABLE request_signer_corrections
  ADD COLUMN previous_signer_id text,
  ADD COLUMN signer_id text,
  ADD CHECK ((previous_signer_id IS NULL) = (signer_id IS NULL));

-- Down Migration
ALTER TABLE request_signer_corrections DROP COLUMN previous_signer_id, DROP COLUMN signer_id;
