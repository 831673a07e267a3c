-- Up Migration

-- One row per message the notifier owes: (event, signer, channel). Its status is the
-- single source of truth for "was this message accepted?", so a redelivered event is
-- acked without sending again and a retry redoes only what is not settled.
--   sending   claimed by a worker until lease_until (a crash leaves it here; once the
--             lease ends the message is tried again, the one case that may repeat it)
--   retrying  the last attempt failed transiently; the next pass tries again
--   delivered the provider accepted it (terminal)
--   failed    refused for good or retries exhausted (terminal)
CREATE TABLE deliveries (
  event_id uuid NOT NULL,
  signer_ref text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  request_id text NOT NULL,
  signer_id text NOT NULL,
  recipient text NOT NULL,
  status text NOT NULL CHECK (status IN ('sending', 'retrying', 'delivered', 'failed')),
  attempts integer NOT NULL CHECK (attempts >= 1),
  lease_until timestamptz,
  provider_message_id text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  PRIMARY KEY (event_id, signer_ref, channel),
  CHECK ((status = 'sending') = (lease_until IS NOT NULL)),
  CHECK ((status IN ('delivered', 'failed')) = (settled_at IS NOT NULL))
);
-- "What happened to the messages of this Request?" for support and operators.
CREATE INDEX deliveries_request ON deliveries (request_id);

-- Every attempt, started before the provider is called and finished after: an attempt
-- without an outcome is a send whose result was never recorded (a crash), i.e. a
-- message that may have gone out.
CREATE TABLE delivery_attempts (
  event_id uuid NOT NULL,
  signer_ref text NOT NULL,
  channel text NOT NULL,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  outcome text CHECK (outcome IN ('delivered', 'transient', 'failed')),
  provider_message_id text,
  error text,
  PRIMARY KEY (event_id, signer_ref, channel, attempt),
  FOREIGN KEY (event_id, signer_ref, channel) REFERENCES deliveries ON DELETE CASCADE
);

-- Down Migration
DROP TABLE delivery_attempts;
DROP TABLE deliveries;
