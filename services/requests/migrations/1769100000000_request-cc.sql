-- Up Migration

-- ADR 3230: the addresses a Request's executed document is copied to once everyone has
-- signed (carbon copies), in the order given; none for Requests made before.
ALTER TABLE requests ADD COLUMN cc_emails text[] NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE requests DROP COLUMN cc_emails;
