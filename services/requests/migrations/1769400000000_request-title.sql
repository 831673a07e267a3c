-- Up Migration

-- ADR 3390: the sender's own name for a Request, listed and searched (signers never see
-- it); none for Requests made before.
ALTER TABLE requests ADD COLUMN title text CHECK (char_length(title) BETWEEN 1 AND 255);

-- Down Migration
ALTER TABLE requests DROP COLUMN title;
