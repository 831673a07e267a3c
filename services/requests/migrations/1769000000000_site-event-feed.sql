-- Up Migration

-- ADR 3190: a Site's event feed, `GET /v1.1/sites/:id/events`, reads the Requests'
-- histories across the Site. `site_id` is the Request's, kept on the entry so the feed
-- reads one index. `txid` is the writing transaction's id: the feed lists entries by
-- (txid, id) and only those whose transaction ended before every transaction still
-- running began (`txid < pg_snapshot_xmin(pg_current_snapshot())`), so an entry that
-- commits after a reader passed its position cannot exist, and a cursor never skips one.
-- Existing entries take this migration's transaction id: they sort before every later
-- one, in the order they were recorded.
ALTER TABLE request_events
  ADD COLUMN site_id bigint,
  ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
UPDATE request_events e SET site_id = r.site_id FROM requests r WHERE r.id = e.request_id;
ALTER TABLE request_events ALTER COLUMN site_id SET NOT NULL;
CREATE INDEX request_events_by_site ON request_events (site_id, txid, id);

-- Down Migration
DROP INDEX request_events_by_site;
ALTER TABLE request_events DROP COLUMN txid, DROP COLUMN site_id;
