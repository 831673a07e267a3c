-- Up Migration

-- ADR 3920: the files signers upload on their page for a Request's attachment fields. A
-- file is kept as soon as a valid form brings it, so a form shown again (another field
-- refused) does not ask for it twice: one per signer and field, a later one replacing it.
-- Only a file its signer signed with is served.
CREATE TABLE signer_attachments (
  request_id    uuid NOT NULL REFERENCES requests ON DELETE CASCADE,
  signer_ref    text NOT NULL,
  field_name    text NOT NULL,
  file_name     text NOT NULL,
  content_type  text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
  content       bytea NOT NULL,
  sha256        text NOT NULL,
  kept_at       timestamptz NOT NULL,
  PRIMARY KEY (request_id, signer_ref, field_name)
);

-- Down Migration
DROP TABLE signer_attachments;
