-- Up Migration

-- ADR 3880: a provider's later report on a message it accepted (Twilio's status callback:
-- undelivered or failed) is told as that message's outcome. The report names the message
-- by the provider's id; the event it becomes needs the Site and the address as the cause
-- named it (ADR 3140), which rows from before have not: a report on one of those is
-- logged and left.
ALTER TABLE deliveries ADD COLUMN site_id bigint, ADD COLUMN address text;
CREATE INDEX deliveries_provider_message ON deliveries (provider_message_id, channel)
  WHERE provider_message_id IS NOT NULL;

-- Down Migration
DROP INDEX deliveries_provider_message;
ALTER TABLE deliveries DROP COLUMN address, DROP COLUMN site_id;
