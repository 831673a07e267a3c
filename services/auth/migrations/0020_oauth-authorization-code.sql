-- Up Migration
-- The authorization-code grant (issue 24, ADR 2400).

-- Where an app may send users back; matched character for character.
ALTER TABLE developer_apps ADD COLUMN callback_url text
  CHECK (callback_url IS NULL OR length(callback_url) BETWEEN 1 AND 2048);

-- One grant per "Allow": the chain of one code and the refresh tokens and access tokens
-- that descend from it. Revoking the grant revokes all of them.
CREATE TABLE oauth_grants (
  id uuid PRIMARY KEY,
  app_id uuid NOT NULL REFERENCES developer_apps (id),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  site_ids integer[] NOT NULL CHECK (cardinality(site_ids) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id, app_id) WHERE revoked_at IS NULL;

-- Single-use authorization codes; only a SHA-256 of the code is kept.
CREATE TABLE oauth_codes (
  code_hash bytea PRIMARY KEY,
  grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_codes_expiry_idx ON oauth_codes (expires_at);

-- Rotating refresh tokens (hashed): each use marks it used and makes the next one; a used
-- one presented again is a replay, and revokes its grant.
CREATE TABLE oauth_refresh_tokens (
  token_hash bytea PRIMARY KEY,
  grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_refresh_tokens_grant_idx ON oauth_refresh_tokens (grant_id);

ALTER TABLE access_tokens ADD COLUMN grant_id uuid REFERENCES oauth_grants (id);
CREATE INDEX access_tokens_grant_idx ON access_tokens (grant_id) WHERE grant_id IS NOT NULL;
ALTER TABLE access_tokens DROP CONSTRAINT access_tokens_origin_check;
ALTER TABLE access_tokens ADD CONSTRAINT access_tokens_origin_check
  CHECK (origin IN ('self_service', 'admin', 'client_credentials', 'authorization_code'));

-- Down Migration
ALTER TABLE access_tokens DROP CONSTRAINT access_tokens_origin_check;
ALTER TABLE access_tokens ADD CONSTRAINT access_tokens_origin_check
  CHECK (origin IN ('self_service', 'admin', 'client_credentials'));
ALTER TABLE access_tokens DROP COLUMN grant_id;
DROP TABLE oauth_refresh_tokens;
DROP TABLE oauth_codes;
DROP TABLE oauth_grants;
ALTER TABLE developer_apps DROP COLUMN callback_url;
