-- Up Migration

-- Issue #23 part 3, ADR 2320: the Site's default language when the Request was made (like
-- site_name): what its signers without a locale of their own read.
ALTER TABLE requests ADD COLUMN site_locale text;

-- Down Migration
ALTER TABLE requests DROP COLUMN site_locale;
