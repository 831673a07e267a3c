-- Up Migration

-- ADR 3450: a running bulk send is cancelled. When, and each row left unmade as 'cancelled'.
ALTER TABLE bulk_sends ADD COLUMN cancelled_at timestamptz;
ALTER TABLE bulk_send_rows
  DROP CONSTRAINT bulk_send_rows_status_check,
  ADD CONSTRAINT bulk_send_rows_status_check
    CHECK (status IN ('pending', 'created', 'sent', 'failed', 'cancelled'));

-- Down Migration
UPDATE bulk_send_rows SET status = 'failed' WHERE status = 'cancelled';
ALTER TABLE bulk_send_rows
  DROP CONSTRAINT bulk_send_rows_status_check,
  ADD CONSTRAINT bulk_send_rows_status_check CHECK (status IN ('pending', 'created', 'sent', 'failed'));
ALTER TABLE bulk_sends DROP COLUMN cancelled_at;
