-- Up Migration
-- Issue 23, ADR 2300: the origins that may frame the embedded signing page opened by a
-- token of this app (CSP frame-ancestors, and the postMessage targets). Empty: none.
ALTER TABLE developer_apps ADD COLUMN allowed_frame_origins text[] NOT NULL DEFAULT '{}'
  CHECK (cardinality(allowed_frame_origins) <= 10);

-- Down Migration
ALTER TABLE developer_apps DROP COLUMN allowed_frame_origins;
