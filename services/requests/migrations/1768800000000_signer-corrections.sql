-- Up Migration

-- ADR 3140: every correction of a sent Request's signer, kept for the executed document's
-- audit trail: when, by whom, the details before and after, and whether the link was
-- replaced. Written from the `request.signer_updated` event in the statement that stores
-- the correction (only if that statement stored it), never changed afterwards.
CREATE TABLE request_signer_corrections (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id          uuid NOT NULL REFERENCES requests ON DELETE CASCADE,
  signer_ref          text NOT NULL,
  corrected_at        timestamptz NOT NULL,
  corrected_by        text NOT NULL,
  previous_email      text,
  previous_mobile     text,
  previous_send_email boolean NOT NULL,
  previous_send_sms   boolean NOT NULL,
  email               text,
  mobile_number       text,
  send_email          boolean NOT NULL,
  send_sms            boolean NOT NULL,
  link_replaced       boolean NOT NULL,
  FOREIGN KEY (request_id, signer_ref) REFERENCES request_signers (request_id, signer_ref) ON DELETE CASCADE
);
CREATE INDEX request_signer_corrections_by_request ON request_signer_corrections (request_id, id);

-- Down Migration
DROP TABLE request_signer_corrections;
