-- Up Migration

-- ADR 3170: each Request's history, for `GET /v1.1/requests/:id/events`: every event of
-- it a client can subscribe to, as its webhooks carry it (no Execution URLs). Written in
-- the statement that stores the change the event reports (only if that statement stored
-- it), never changed afterwards, kept as long as the Request. `id` orders the events of
-- one statement as they were emitted (a signature and the completion share a time).
CREATE TABLE request_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id  uuid NOT NULL REFERENCES requests ON DELETE CASCADE,
  payload     jsonb NOT NULL
);
CREATE INDEX request_events_by_request ON request_events (request_id, id);

-- Down Migration
DROP TABLE request_events;
