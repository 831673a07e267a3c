-- Up Migration

-- ADR 3440: a Site's bulk sends listed newest first (GET /v1.1/sites/:id/bulk_sends).
CREATE INDEX bulk_sends_by_site ON bulk_sends (site_id, created_at DESC, id DESC);

-- Down Migration
DROP INDEX bulk_sends_by_site;
