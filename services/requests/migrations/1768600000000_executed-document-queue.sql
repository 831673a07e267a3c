-- Up Migration

-- ADR 2920: the Requests whose executed document is still to be issued. The background
-- issuer reads this queue, not every completed Request: that read grew with the table (a
-- sequential scan of `requests` and an anti-join per completed Request, every 2 s on every
-- replica). A failed issue waits `next_attempt_at` with back-off instead of coming first
-- again at the next run.
CREATE TABLE executed_document_queue (
  request_id uuid PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text
);
CREATE INDEX executed_document_queue_due ON executed_document_queue (next_attempt_at);

-- A Request that completes is queued in its transaction, and every replica's issuer is
-- woken at the commit (on the outbox relay's LISTEN connection, ADR 2910).
CREATE FUNCTION requests_queue_executed_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO executed_document_queue (request_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  PERFORM pg_notify('executed_documents', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER requests_queue_executed_document AFTER UPDATE OF state ON requests
  FOR EACH ROW WHEN (NEW.state = 'completed' AND OLD.state IS DISTINCT FROM 'completed')
  EXECUTE FUNCTION requests_queue_executed_document();

-- A document kept takes its Request off the queue, whoever issued it (the issuer or a download).
CREATE FUNCTION executed_documents_dequeue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM executed_document_queue WHERE request_id = NEW.request_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER executed_documents_dequeue AFTER INSERT ON executed_documents
  FOR EACH ROW EXECUTE FUNCTION executed_documents_dequeue();

-- Completed Requests without a document so far: queued, due by their completion time.
INSERT INTO executed_document_queue (request_id, next_attempt_at)
SELECT r.id, coalesce(r.completed_at, now()) FROM requests r
WHERE r.state = 'completed' AND NOT EXISTS (SELECT 1 FROM executed_documents d WHERE d.request_id = r.id);

-- Down Migration
DROP TRIGGER executed_documents_dequeue ON executed_documents;
DROP FUNCTION executed_documents_dequeue();
DROP TRIGGER requests_queue_executed_document ON requests;
DROP FUNCTION requests_queue_executed_document();
DROP TABLE executed_document_queue;
