-- Up Migration

-- Issue #22, ADR 2201: a bulk send and its rows. The rows are the work queue: written with
-- the bulk send in one transaction, claimed by any replica's worker (lease), each made
-- into its Request under an idempotency key of (bulk id, row number), so a crash or a
-- restart never makes a row's Request twice.
CREATE TABLE bulk_sends (
  id uuid PRIMARY KEY,
  site_id bigint NOT NULL,
  site_name text NOT NULL,
  caller_sub text NOT NULL,
  -- The access token that made it: each row's send is charged to its money-costing bucket.
  token_id text NOT NULL,
  test_mode_only boolean NOT NULL,
  shared jsonb NOT NULL,
  send boolean NOT NULL,
  test_mode boolean NOT NULL,
  rows_total integer NOT NULL CHECK (rows_total BETWEEN 1 AND 1000),
  state text NOT NULL CHECK (state IN ('running', 'completed')),
  created_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX bulk_sends_running ON bulk_sends (created_at) WHERE state = 'running';

CREATE TABLE bulk_send_rows (
  bulk_id uuid NOT NULL REFERENCES bulk_sends (id) ON DELETE CASCADE,
  row_number integer NOT NULL,
  -- The row's create body (null when the row itself did not decode: failed at once).
  body jsonb,
  status text NOT NULL CHECK (status IN ('pending', 'created', 'sent', 'failed')),
  request_id uuid,
  errors jsonb NOT NULL DEFAULT '[]',
  lease_until timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (bulk_id, row_number)
);
CREATE INDEX bulk_send_rows_pending ON bulk_send_rows (bulk_id, row_number) WHERE status = 'pending';

-- Down Migration
DROP TABLE bulk_send_rows;
DROP TABLE bulk_sends;
