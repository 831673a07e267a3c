-- Up Migration

-- Issue #18 (MEDIUM 7), ADR 1303: hits per key (client address, or everyone) per fixed
-- window on the unauthenticated sign-in and token endpoints, shared by every replica.
CREATE TABLE request_quota (
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL CHECK (hits > 0),
  PRIMARY KEY (key, window_start)
);
CREATE INDEX request_quota_by_window ON request_quota (window_start);

-- Down Migration
DROP TABLE request_quota;
