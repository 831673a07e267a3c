-- Up Migration

-- ADR 3100: a user lists their sessions and ends any of them. Each keeps the client's
-- address and User-Agent from when it signed in, so the user can tell them apart. Sessions
-- begun before have neither. Housekeeping deletes them with the session, a day after it ended.
ALTER TABLE sessions ADD COLUMN client_address text, ADD COLUMN user_agent text;
-- The list: a user's sessions, newest first.
CREATE INDEX sessions_by_user_created ON sessions (user_id, created_at DESC);
DROP INDEX sessions_user_idx;

-- Down Migration
CREATE INDEX sessions_user_idx ON sessions (user_id);
DROP INDEX sessions_by_user_created;
ALTER TABLE sessions DROP COLUMN client_address, DROP COLUMN user_agent;
