-- Up Migration

-- A row written for its writer to publish after commit (ADR 2660) is not due yet: it
-- must not wake the relay, whose drain would find nothing to take. Rows due at once wake
-- it as before; pg_notify folds a transaction's identical notifications into one.
DROP TRIGGER outbox_notify ON outbox;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
  FOR EACH ROW WHEN (NEW.next_attempt_at <= now()) EXECUTE FUNCTION outbox_notify();

-- Down Migration
DROP TRIGGER outbox_notify ON outbox;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
