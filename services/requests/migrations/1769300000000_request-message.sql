-- Up Migration

-- ADR 3380: the sender's message to a Request's signers, shown in their invitation and
-- reminder e-mails and on their signing page; none for Requests made before.
ALTER TABLE requests ADD COLUMN message text CHECK (char_length(message) BETWEEN 1 AND 2000);

-- Down Migration
ALTER TABLE requests DROP COLUMN message;
