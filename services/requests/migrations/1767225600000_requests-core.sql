-- Up Migration

-- Contract templates: HTML with {{token}} placeholders and declared fields, or a PDF whose
-- form fields were read at upload. Immutable once published, so Requests can rely on them.
CREATE TABLE contract_templates (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint NOT NULL,
  name            text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('html', 'pdf')),
  state           text NOT NULL CHECK (state IN ('draft', 'published')),
  tokens          text[] NOT NULL,
  -- Field definitions as the API shows them: [{ name, type, options?, max_length? }].
  fields          jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'array'),
  html            text,
  pdf             bytea,
  document_size   integer NOT NULL CHECK (document_size >= 0),
  document_sha256 text NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  published_at    timestamptz,
  CHECK ((kind = 'html') = (html IS NOT NULL)),
  CHECK ((kind = 'pdf') = (pdf IS NOT NULL)),
  CHECK ((state = 'published') = (published_at IS NOT NULL))
);
CREATE INDEX contract_templates_by_site ON contract_templates (site_id, id DESC);

-- Signers are the site's, keyed by the client's signer_id, and upserted by every Request.
CREATE TABLE signers (
  site_id       bigint NOT NULL,
  signer_id     text NOT NULL,
  email         text,
  mobile_number text CHECK (mobile_number ~ '^1[0-9]{10}$'),
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (site_id, signer_id)
);

CREATE TABLE requests (
  id               uuid PRIMARY KEY,
  site_id          bigint NOT NULL,
  -- The site's name when the Request was made: signers are told who asks.
  site_name        text NOT NULL,
  state            text NOT NULL
                   CHECK (state IN ('draft', 'sent', 'completed', 'cancelled', 'expired', 'declined')),
  render_data      jsonb NOT NULL CHECK (jsonb_typeof(render_data) = 'object'),
  redirect_url     text,
  expires_at       timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  sent_at          timestamptz,
  cancelled_at     timestamptz,
  expired_at       timestamptz,
  completed_at     timestamptz,
  declined_at      timestamptz,
  last_reminded_at timestamptz,
  remind_count     integer NOT NULL DEFAULT 0,
  CHECK ((state = 'draft') = (sent_at IS NULL) OR state IN ('cancelled', 'expired'))
);
-- Lists: a site's Requests newest first, optionally of one state.
CREATE INDEX requests_by_site ON requests (site_id, created_at DESC, id DESC);
CREATE INDEX requests_by_site_state ON requests (site_id, state, created_at DESC, id DESC);
-- The expiry sweep looks only at open Requests that have an expiry.
CREATE INDEX requests_expiring ON requests (expires_at)
  WHERE state IN ('draft', 'sent') AND expires_at IS NOT NULL;

CREATE TABLE request_contracts (
  request_id  uuid NOT NULL REFERENCES requests ON DELETE CASCADE,
  position    smallint NOT NULL,
  template_id bigint NOT NULL REFERENCES contract_templates,
  -- Templates are immutable once published; the name is kept for events without a join.
  name        text NOT NULL,
  PRIMARY KEY (request_id, position),
  UNIQUE (request_id, template_id)
);
CREATE INDEX request_contracts_by_template ON request_contracts (template_id);

CREATE TABLE request_signers (
  request_id  uuid NOT NULL REFERENCES requests ON DELETE CASCADE,
  position    smallint NOT NULL,
  site_id     bigint NOT NULL,
  signer_id   text NOT NULL,
  signer_ref  text NOT NULL,
  send_email  boolean NOT NULL,
  send_sms    boolean NOT NULL,
  state       text NOT NULL CHECK (state IN ('pending', 'signed', 'declined')),
  signed_at   timestamptz,
  declined_at timestamptz,
  PRIMARY KEY (request_id, signer_id),
  UNIQUE (request_id, signer_ref),
  UNIQUE (request_id, position),
  FOREIGN KEY (site_id, signer_id) REFERENCES signers (site_id, signer_id)
);
CREATE INDEX request_signers_by_signer ON request_signers (site_id, signer_id);

CREATE TABLE request_fields (
  request_id    uuid NOT NULL REFERENCES requests ON DELETE CASCADE,
  position      integer NOT NULL,
  name          text NOT NULL,
  default_value jsonb CHECK (default_value IS NULL OR jsonb_typeof(default_value) IN ('string', 'boolean')),
  assigned_to   text,
  PRIMARY KEY (request_id, position),
  UNIQUE (request_id, name),
  -- A field can only be assigned to a signer of its own Request.
  FOREIGN KEY (request_id, assigned_to) REFERENCES request_signers (request_id, signer_id)
);

-- The answer of each successful call made with an Idempotency-Key, per site, for at
-- least the retention period; written by the call's own transaction.
CREATE TABLE idempotency_keys (
  site_id     bigint NOT NULL,
  key         text NOT NULL,
  fingerprint text NOT NULL,
  answer      jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- Down Migration
DROP TABLE idempotency_keys;
DROP TABLE request_fields;
DROP TABLE request_signers;
DROP TABLE request_contracts;
DROP TABLE requests;
DROP TABLE signers;
DROP TABLE contract_templates;
