-- Up Migration

-- ADR 3700: a Site's feed also holds its templates' events (ADR 3350), written in the
-- statement that writes them to the outbox, as a Request's are. They belong to no
-- Request: `request_id` is NULL for them, so no Request's history lists them.
ALTER TABLE request_events ALTER COLUMN request_id DROP NOT NULL;

-- Down Migration
DELETE FROM request_events WHERE request_id IS NULL;
ALTER TABLE request_events ALTER COLUMN request_id SET NOT NULL;
