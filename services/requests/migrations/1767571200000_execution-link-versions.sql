-- Up Migration

-- Issue #18 (LOW 8), ADR 1321: each signer's Execution URL has a version, raised when the
-- sender reissues it (every older link then shows "replaced"), and the time it was
-- issued, from which it expires. NULL: issued when the Request was sent.
ALTER TABLE request_signers
  ADD COLUMN link_version integer NOT NULL DEFAULT 0 CHECK (link_version >= 0),
  ADD COLUMN link_issued_at timestamptz;

-- Down Migration
ALTER TABLE request_signers DROP COLUMN link_version, DROP COLUMN link_issued_at;
