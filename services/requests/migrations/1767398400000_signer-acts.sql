-- Up Migration

-- What each signer did: signed (with the values entered and the signature) or declined
-- (with the reason), and the evidence for the audit trail. One act per signer at most:
-- the primary key is the last line of defence against signing twice.
CREATE TABLE signer_acts (
  request_id      uuid NOT NULL,
  signer_ref      text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('signed', 'declined')),
  at              timestamptz NOT NULL,
  ip              text NOT NULL,
  user_agent      text NOT NULL,
  -- SHA-256 (hex) of the canonical document shown to the signer (ADR 0801).
  document_sha256 text NOT NULL CHECK (document_sha256 ~ '^[0-9a-f]{64}$'),
  typed_name      text,
  -- A PNG the signer drew, when they did.
  drawn_signature bytea,
  -- The values the signer entered, by field name.
  field_values    jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(field_values) = 'object'),
  reason          text,
  PRIMARY KEY (request_id, signer_ref),
  FOREIGN KEY (request_id, signer_ref) REFERENCES request_signers (request_id, signer_ref) ON DELETE CASCADE,
  CHECK ((kind = 'signed') = (typed_name IS NOT NULL)),
  CHECK ((kind = 'declined') = (reason IS NOT NULL))
);

-- Down Migration
DROP TABLE signer_acts;
