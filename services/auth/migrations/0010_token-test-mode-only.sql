-- Up Migration
-- A token may be limited to test-mode Requests (issue #22): it can create only Requests
-- with "test_mode": true. Existing tokens keep full access.
ALTER TABLE access_tokens ADD COLUMN test_mode_only boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE access_tokens DROP COLUMN test_mode_only;
