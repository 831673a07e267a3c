-- Up Migration

-- ADR 3090: an account admin may invite someone as an admin. Accepting such an invitation
-- makes an admin only while the admin who sent it still is one (an enabled admin of the
-- account); the rule is the domain's, so nothing here enforces it.
ALTER TABLE invitations ADD COLUMN admin boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE invitations DROP COLUMN admin;
