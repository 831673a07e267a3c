-- Up Migration

-- ADR 2910: a bulk send's commit wakes the bulk-send worker of every replica, on a channel
-- each replica's outbox relay LISTENs to beside `outbox`; the replica that took the call
-- wakes its own as well. pg_notify folds a transaction's identical notifications into one.
CREATE FUNCTION bulk_sends_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bulk_sends', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER bulk_sends_notify AFTER INSERT ON bulk_sends
  FOR EACH ROW WHEN (NEW.state = 'running') EXECUTE FUNCTION bulk_sends_notify();

-- Down Migration
DROP TRIGGER bulk_sends_notify ON bulk_sends;
DROP FUNCTION bulk_sends_notify();
