-- Up Migration
-- A token may be limited to some of its user's Sites (issue #18, L10). NULL: every Site
-- the user belongs to at use, as before.
ALTER TABLE access_tokens ADD COLUMN site_ids integer[]
  CHECK (site_ids IS NULL OR cardinality(site_ids) BETWEEN 1 AND 100);

-- Down Migration
ALTER TABLE access_tokens DROP COLUMN site_ids;
