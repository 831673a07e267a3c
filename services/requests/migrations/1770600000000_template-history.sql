-- Up Migration

-- ADR 3720: a template's history, its own entries of the Site's feed (ADR 3700), read by
-- the template's id. Only template entries (no Request) are indexed: a few per template.
CREATE INDEX request_events_by_template
  ON request_events (((payload->'data'->>'contract_id')::bigint), id)
  WHERE request_id IS NULL;

-- Down Migration
DROP INDEX request_events_by_template;
