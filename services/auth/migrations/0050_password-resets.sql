-- Up Migration

-- ADR 3000: links to choose a new password, e-mailed on request. Only the SHA-256 of a
-- link's token is kept. A link works once, until expires_at; a newer link, or any
-- password change, ends the older ones (ended_at).
CREATE TABLE password_resets (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX password_resets_by_user ON password_resets (user_id, created_at);

-- Down Migration
DROP TABLE password_resets;
