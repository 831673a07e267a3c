-- Up Migration

-- Issue #23 part 3, ADR 2320: the language a Site's signers read when their entry names
-- none (a canonical BCP 47 tag); null: none (the browser's, then English).
ALTER TABLE sites ADD COLUMN default_locale text CHECK (length(default_locale) BETWEEN 1 AND 35);

-- Down Migration
ALTER TABLE sites DROP COLUMN default_locale;
