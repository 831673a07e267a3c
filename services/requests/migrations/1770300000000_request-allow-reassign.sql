-- Up Migration

-- ADR 3560: the sender lets a Request's signers ask someone else to sign in their place
-- from their signing page. Requests made before did not, and still do not.
ALTER TABLE requests ADD COLUMN allow_reassign boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE requests DROP COLUMN allow_reassign;
