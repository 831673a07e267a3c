-- Up Migration

-- ADR 3130: automatic reminders. `reminder_interval_days` is the client's choice (1 to 30,
-- null: none); `next_reminder_at` is when the next one falls due, written by every
-- transition (send and each reminder set it, the ends of a Request clear it). Nullable
-- columns without a default: Postgres adds them without rewriting the table.
ALTER TABLE requests
  ADD COLUMN reminder_interval_days smallint CHECK (reminder_interval_days BETWEEN 1 AND 30),
  ADD COLUMN next_reminder_at timestamptz;
-- The reminder sweep looks only at sent Requests with a reminder scheduled.
CREATE INDEX requests_reminder_due ON requests (next_reminder_at)
  WHERE state = 'sent' AND next_reminder_at IS NOT NULL;

-- Down Migration
DROP INDEX requests_reminder_due;
ALTER TABLE requests DROP COLUMN next_reminder_at, DROP COLUMN reminder_interval_days;
