-- Up Migration

-- Issue 23 part 1, ADR 2300: embedded signing URLs. One row per URL asked for; the URL's
-- token is kept only as its SHA-256. It opens once (opened_at), before expires_at, and its
-- frame and message origins are those of the Developer App whose token asked for it.
CREATE TABLE embedded_sessions (
  id uuid PRIMARY KEY,
  token_sha256 text NOT NULL UNIQUE,
  request_id uuid NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  signer_ref text NOT NULL,
  signer_id text NOT NULL,
  frame_origins text[] NOT NULL CHECK (cardinality(frame_origins) BETWEEN 1 AND 10),
  parent_origin text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  opened_at timestamptz
);
CREATE INDEX embedded_sessions_request_idx ON embedded_sessions (request_id, signer_ref);

-- Down Migration
DROP TABLE embedded_sessions;
