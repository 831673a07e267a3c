-- Up Migration

-- Issue 23 part 2, ADR 2301: a Site's branding, shown to its signers. One row per Site
-- that has any; no row: neutral pages and messages. The logo is a PNG kept here (at most
-- 100 kB), addressed by its SHA-256 so its public URL changes with it.
CREATE TABLE site_brandings (
  site_id bigint PRIMARY KEY,
  display_name text CHECK (length(display_name) BETWEEN 1 AND 100),
  accent_color text CHECK (accent_color ~ '^#[0-9a-fA-F]{6}$'),
  reply_to text CHECK (length(reply_to) BETWEEN 3 AND 254),
  email_footer text CHECK (length(email_footer) BETWEEN 1 AND 500),
  logo_png bytea CHECK (octet_length(logo_png) <= 100000),
  logo_sha256 text,
  updated_at timestamptz NOT NULL,
  CHECK ((logo_png IS NULL) = (logo_sha256 IS NULL))
);

-- Down Migration
DROP TABLE site_brandings;
