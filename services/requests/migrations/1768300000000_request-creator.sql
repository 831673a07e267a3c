-- Up Migration

-- Issue #20 item 3, ADR 2003: who created each Request (the user the gateway vouched for)
-- and their e-mail address then, so the creator is told when it completes or is declined.
-- Null for Requests made before this was recorded.
ALTER TABLE requests ADD COLUMN created_by text, ADD COLUMN creator_email text;

-- Down Migration
ALTER TABLE requests DROP COLUMN created_by, DROP COLUMN creator_email;
