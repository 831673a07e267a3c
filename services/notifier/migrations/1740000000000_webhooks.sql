-- Up Migration

-- A site's webhook endpoints. The secrets are kept as they are shown (HMAC needs the key
-- itself); during a rotation's overlap the previous one signs too, until its expiry.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  site_id integer NOT NULL,
  site_name text NOT NULL,
  url text NOT NULL CHECK (length(url) <= 2048),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 255),
  event_types text[] NOT NULL CHECK (cardinality(event_types) >= 1),
  enabled boolean NOT NULL,
  -- Set only when the notifier turned the endpoint off; a client's own switch leaves it null.
  disabled_reason text CHECK (disabled_reason IN ('failing')),
  alert_email text NOT NULL,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- Start of the current run of failed attempts; null after any success.
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL)),
  CHECK (disabled_reason IS NULL OR NOT enabled)
);
CREATE INDEX webhook_endpoints_site ON webhook_endpoints (site_id, created_at, id);

-- One delivery per (endpoint, event), whatever RabbitMQ redelivers. The dispatcher claims
-- due rows (pending, or sending with an expired lease: a crashed worker's) with
-- FOR UPDATE SKIP LOCKED; next_attempt_at is the due time of a pending row and the lease
-- end of a sending one, so one index serves both.
--   pending   waiting for next_attempt_at
--   sending   claimed by a worker until next_attempt_at
--   delivered the endpoint answered 2xx (terminal)
--   failed    a 4xx, retries exhausted, or the endpoint turned off (terminal)
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
  site_id integer NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  -- The exact bytes sent (and signed) on every attempt.
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  response_status integer,
  response_excerpt text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  UNIQUE (endpoint_id, event_id),
  CHECK ((status IN ('pending', 'sending')) = (next_attempt_at IS NOT NULL)),
  CHECK ((status IN ('delivered', 'failed')) = (settled_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (created_at) WHERE settled_at IS NOT NULL;

-- Every attempt, started when claimed and finished when its outcome is recorded: an
-- attempt without an outcome is one whose worker died (the delivery is retried).
CREATE TABLE webhook_delivery_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt >= 1),
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  outcome text CHECK (outcome IN ('delivered', 'retry', 'failed')),
  response_status integer,
  response_excerpt text,
  error text,
  duration_ms integer,
  PRIMARY KEY (delivery_id, attempt)
);

-- "Your endpoint was turned off" e-mails, written in the transaction that turns it off
-- and sent by the dispatcher, so the alert is neither lost nor sent twice by a crash.
CREATE TABLE webhook_alerts (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL,
  site_id integer NOT NULL,
  recipient text NOT NULL,
  facts jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  provider_message_id text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  CHECK ((status IN ('pending', 'sending')) = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_alerts_due ON webhook_alerts (next_attempt_at) WHERE status IN ('pending', 'sending');

-- Down Migration
DROP TABLE webhook_alerts;
DROP TABLE webhook_delivery_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
