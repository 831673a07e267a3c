-- Up Migration

-- ADR 3400: the subject of a Request's invitation and reminder e-mails, in place of the
-- usual one; none (the usual one) for Requests made before.
ALTER TABLE requests ADD COLUMN subject text CHECK (char_length(subject) BETWEEN 1 AND 200);

-- Down Migration
ALTER TABLE requests DROP COLUMN subject;
