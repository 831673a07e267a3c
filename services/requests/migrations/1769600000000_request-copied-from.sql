-- Up Migration

-- ADR 3410: the Request a copy was made from (in the same Site); none for Requests that
-- are not copies, or were made before. Requests are not deleted; were one ever purged,
-- its copies would keep their content and lose only the link.
ALTER TABLE requests ADD COLUMN copied_from uuid REFERENCES requests (id) ON DELETE SET NULL;

-- The copies of a Request (`?copied_from=`): only copies are in it, so a create that is not
-- one writes nothing to it.
CREATE INDEX requests_by_source ON requests (copied_from) WHERE copied_from IS NOT NULL;

-- Down Migration
ALTER TABLE requests DROP COLUMN copied_from;
