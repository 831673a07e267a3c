-- Up Migration

-- Issue 21, ADR 2100: the executed document is built once, sealed (PAdES), and kept here;
-- every download serves these bytes. bytea, not a large object: the row lives and dies
-- with its Request in one transaction, backups and replicas carry it like any column,
-- and an executed document is a few megabytes at most (uploads are capped).
CREATE TABLE executed_documents (
  request_id              uuid PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
  pdf                     bytea NOT NULL,
  -- SHA-256 (hex) of pdf: POST /v1.1/verify looks a file up by it.
  sha256                  text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size                    integer NOT NULL CHECK (size > 0),
  -- The SHA-256 of the certificate that sealed it: keys rotate, old documents keep theirs.
  certificate_sha256      text NOT NULL CHECK (certificate_sha256 ~ '^[0-9a-f]{64}$'),
  signed_at               timestamptz NOT NULL,
  -- The RFC 3161 token's time when a TSA was configured at sealing.
  timestamped_at          timestamptz
);
CREATE UNIQUE INDEX executed_documents_by_sha256 ON executed_documents (sha256);

-- Down Migration
DROP TABLE executed_documents;
