-- Up Migration

-- ADR 3030: account admins invite people by e-mail. Only the SHA-256 of a link's token is
-- kept. An invitation is open until expires_at and until it is accepted, revoked or
-- replaced by a newer invitation of the same address to the same account (ended_at).
-- site_ids are checked against the account when it is made and again when it is accepted
-- (a Site deleted meanwhile is left out), so they are not a foreign key.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(email)),
  site_ids integer[] NOT NULL,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- Why it ended: accepted (user_id names the user made), revoked or replaced.
  end_reason text CHECK (end_reason IN ('accepted', 'revoked', 'replaced')),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  CHECK ((ended_at IS NULL) = (end_reason IS NULL))
);
CREATE INDEX invitations_by_account ON invitations (account_id, created_at);
-- At most one open invitation per address and account.
CREATE UNIQUE INDEX invitations_open_per_address ON invitations (account_id, email) WHERE ended_at IS NULL;

-- Down Migration
DROP TABLE invitations;
