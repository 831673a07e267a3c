-- Up Migration

-- ADR 3410: the Request a copy was made from (in the same Site); none for Requests that
-- are not copies, or were made before. Requests are not deleted; were one ever purged,
-- its copies would keep their content and lose only the link.
ALTER TABLE requests ADD COLUMN copied_from uuid REFERENCES requests (id) ON DELETE SET NULL;

-- Down Migration
ALTER TABLE requests DROP COLUMN copied_from;
