-- Up Migration

-- Issue #20 item 2, ADR 2001: how a signer proves who they are before the contract is shown.
ALTER TABLE request_signers
  ADD COLUMN auth_method text CHECK (auth_method IN ('access_code', 'email_otp', 'sms_otp'));

-- One row per signer with a check: the access code (scrypt, never the code), the count of
-- wrong codes and the lock, the live one-time code (hashed) and the texts of the last hour.
CREATE TABLE signer_challenges (
  request_id        uuid NOT NULL,
  signer_ref        text NOT NULL,
  method            text NOT NULL CHECK (method IN ('access_code', 'email_otp', 'sms_otp')),
  access_code_hash  text,
  failed_attempts   integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  locked_until      timestamptz,
  otp_hash          text,
  otp_expires_at    timestamptz,
  sms_sent_at       timestamptz[] NOT NULL DEFAULT '{}',
  passed_at         timestamptz,
  PRIMARY KEY (request_id, signer_ref),
  FOREIGN KEY (request_id, signer_ref) REFERENCES request_signers (request_id, signer_ref) ON DELETE CASCADE,
  CHECK ((method = 'access_code') = (access_code_hash IS NOT NULL))
);

-- The audit trail: how the signer proved who they were, and when the check passed.
ALTER TABLE signer_acts
  ADD COLUMN auth_method text,
  ADD COLUMN auth_passed_at timestamptz,
  ADD CHECK ((auth_method IS NULL) = (auth_passed_at IS NULL));

-- Down Migration
ALTER TABLE signer_acts DROP COLUMN auth_method, DROP COLUMN auth_passed_at;
DROP TABLE signer_challenges;
ALTER TABLE request_signers DROP COLUMN auth_method;
