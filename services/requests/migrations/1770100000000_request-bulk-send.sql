-- Up Migration

-- ADR 3510: a Request names the bulk send that made it. Set at its create by the bulk
-- send's worker; the Requests made before this version are found by the rows that name them.
ALTER TABLE requests ADD COLUMN bulk_send_id uuid REFERENCES bulk_sends (id) ON DELETE SET NULL;
UPDATE requests r SET bulk_send_id = br.bulk_id
  FROM bulk_send_rows br
  WHERE br.request_id = r.id;

-- Down Migration
ALTER TABLE requests DROP COLUMN bulk_send_id;
