-- Up Migration

-- ADR 3110: each session in a user's list shows when it was last used. A use is written
-- down at most once a minute (a guarded UPDATE), not on every call. Sessions begun before
-- have none (null) until their next use; new ones begin with their created_at.
ALTER TABLE sessions ADD COLUMN last_active_at timestamptz;

-- Down Migration
ALTER TABLE sessions DROP COLUMN last_active_at;
