-- Up Migration

-- Issue #22, ADR 2200: the messages of test-mode Requests, rendered as they would have been
-- sent and kept here instead (GET /v1.1/requests/:id/messages). One row per message key,
-- so a redelivered event keeps its message once.
CREATE TABLE test_messages (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL,
  signer_ref text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  event_type text NOT NULL,
  request_id text NOT NULL,
  site_id bigint NOT NULL,
  signer_id text NOT NULL,
  recipient text NOT NULL,
  subject text,
  body text NOT NULL,
  html text,
  execution_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, signer_ref, channel)
);
CREATE INDEX test_messages_request ON test_messages (request_id, created_at);

-- Down Migration
DROP TABLE test_messages;
