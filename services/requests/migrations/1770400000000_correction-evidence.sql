-- Up Migration

-- ADR 3560: a signer who asks someone else to sign in their place acts from their page, as
-- a signing act does; the audit trail's record of that correction keeps where they acted
-- from, as a signing act's does. Null for a correction the sender made.
ALTER TABLE request_signer_corrections
  ADD COLUMN ip text,
  ADD COLUMN user_agent text,
  ADD CHECK ((ip IS NULL) = (user_agent IS NULL));

-- Down Migration
ALTER TABLE request_signer_corrections DROP COLUMN ip, DROP COLUMN user_agent;
