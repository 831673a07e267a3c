-- Up Migration

-- An organisation. `api_access` is the spec's "account with REST API access": without it
-- its users cannot use the self-service API and its tokens stop working.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  api_access boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  -- Stored lower-case: one address is one user whatever the casing it is typed in.
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  -- PHC-style string `$scrypt$ln=15,r=8,p=3$<salt>$<hash>`: parameters travel with the hash.
  password_hash text NOT NULL,
  password_changed_at timestamptz NOT NULL,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX users_account_idx ON users (account_id);

-- Sites have integer ids, as the spec says.
CREATE TABLE sites (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL,
  UNIQUE (account_id, name)
);

CREATE TABLE site_members (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  site_id integer NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, site_id)
);
CREATE INDEX site_members_site_idx ON site_members (site_id);

-- A Developer App belongs to the user who made it; its id is also its OAuth client_id.
CREATE TABLE developer_apps (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- SHA-256 of a 256-bit random secret: a slow KDF adds nothing to that much entropy.
  client_secret_hash bytea,
  client_secret_created_at timestamptz,
  created_at timestamptz NOT NULL,
  disabled_at timestamptz,
  deleted_at timestamptz
);
CREATE INDEX developer_apps_user_idx ON developer_apps (user_id, created_at DESC, id);

-- Ed25519 signing keys. The private key is sealed with AES-256-GCM under a key from
-- KEY_ENCRYPTION_KEYS (`encryption_key_id` names which one); the kid is the additional
-- data, so a sealed key cannot be moved to another row.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,
  encryption_key_id text NOT NULL,
  sealed_private_key bytea NOT NULL,
  created_at timestamptz NOT NULL,
  -- The newest key active at a moment signs. A key is published from its creation, so
  -- verifiers can learn it before it signs anything.
  activates_at timestamptz NOT NULL,
  -- A revoked key is withdrawn at once, and every token it signed stops working.
  revoked_at timestamptz
);
CREATE INDEX signing_keys_activation_idx ON signing_keys (activates_at DESC);

CREATE TABLE access_tokens (
  id uuid PRIMARY KEY, -- the JWT's jti
  app_id uuid NOT NULL REFERENCES developer_apps (id),
  user_id uuid NOT NULL REFERENCES users (id),
  kid text NOT NULL REFERENCES signing_keys (kid),
  name text,
  origin text NOT NULL CHECK (origin IN ('self_service', 'admin', 'client_credentials')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX access_tokens_user_idx ON access_tokens (user_id, created_at DESC, id);
CREATE INDEX access_tokens_app_idx ON access_tokens (app_id);
-- Which retired keys must stay published: those that signed a live token.
CREATE INDEX access_tokens_key_idx ON access_tokens (kid, expires_at) WHERE revoked_at IS NULL;

-- Self-service sign-in. Only a hash of the credential is kept.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  secret_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expiry_idx ON sessions (expires_at);

-- Password attempts per e-mail address, counted before the password is checked so that
-- parallel guesses count too; a success deletes the row.
CREATE TABLE password_attempts (
  key text PRIMARY KEY,
  attempts integer NOT NULL CHECK (attempts > 0),
  last_attempt_at timestamptz NOT NULL,
  blocked_until timestamptz
);

-- Down Migration
DROP TABLE password_attempts;
DROP TABLE sessions;
DROP TABLE access_tokens;
DROP TABLE signing_keys;
DROP TABLE developer_apps;
DROP TABLE site_members;
DROP TABLE sites;
DROP TABLE users;
DROP TABLE accounts;
