-- Up Migration

-- Issue #23 part 3, ADR 2320: the signer's language as the client gave it (a canonical
-- BCP 47 tag); null: none given (the Site's default, then the browser's, then English).
ALTER TABLE request_signers ADD COLUMN locale text;

-- Down Migration
ALTER TABLE request_signers DROP COLUMN locale;
