-- Up Migration

-- ADR 3550: someone else signing in a signer's place is kept in the audit trail's record of
-- corrections: who was there and who is now. Null for a correction of contact details.
ALTER TABLE request_signer_corrections
  ADD COLUMN previous_signer_id text,
  ADD COLUMN signer_id text,
  ADD CHECK ((previous_signer_id IS NULL) = (signer_id IS NULL));

-- The first link version of the signer in each place: the replaced signer's older links
-- say they were replaced rather than that a newer link was sent to them.
ALTER TABLE request_signers ADD COLUMN placed_at_version integer NOT NULL DEFAULT 0;

-- Down Migration
ALTER TABLE request_signers DROP COLUMN placed_at_version;
ALTER TABLE request_signer_corrections DROP COLUMN previous_signer_id, DROP COLUMN signer_id;
