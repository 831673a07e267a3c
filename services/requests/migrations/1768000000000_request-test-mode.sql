-- Up Migration

-- Issue #22, ADR 2200: a test-mode Request runs the whole flow but sends nothing, and its
-- executed PDF says it is not legally binding. Lists filter on it (?test_mode=).
ALTER TABLE requests ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
CREATE INDEX requests_site_test_mode ON requests (site_id, test_mode, created_at DESC);

-- Down Migration
DROP INDEX requests_site_test_mode;
ALTER TABLE requests DROP COLUMN test_mode;
