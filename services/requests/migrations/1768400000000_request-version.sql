-- Up Migration

-- ADR 2800: a Request's version, raised by every write of a transition, so a transition
-- can be read without a lock and written only if nothing changed the Request in between.
-- A constant default: Postgres adds the column without rewriting the table.
ALTER TABLE requests ADD COLUMN version integer NOT NULL DEFAULT 0;

-- Down Migration
ALTER TABLE requests DROP COLUMN version;
