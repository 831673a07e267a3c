-- Up Migration

-- The last outcome the notifier reported per channel of each signer of a Request:
-- { outcome: 'delivered' | 'failed', at, event_id, error }. Null until one arrives.
ALTER TABLE request_signers
  ADD COLUMN email_delivery jsonb,
  ADD COLUMN sms_delivery jsonb;

-- Down Migration
ALTER TABLE request_signers DROP COLUMN email_delivery, DROP COLUMN sms_delivery;
