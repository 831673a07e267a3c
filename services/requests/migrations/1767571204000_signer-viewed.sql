-- Up Migration

-- Issue #20 item 3, ADR 2002: the first opening of a live Execution URL, with its evidence.
ALTER TABLE request_signers
  ADD COLUMN viewed_at timestamptz,
  ADD COLUMN viewed_ip text,
  ADD COLUMN viewed_user_agent text;

-- Down Migration
ALTER TABLE request_signers DROP COLUMN viewed_at, DROP COLUMN viewed_ip, DROP COLUMN viewed_user_agent;
