-- Up Migration

-- An account admin manages who is on which of the account's Sites (the web application's
-- Sites page, /v1.1/account/…). The account's first user is its admin; until now every
-- account had exactly the users an operator made, so the earliest of them is chosen.
ALTER TABLE users ADD COLUMN account_admin boolean NOT NULL DEFAULT false;
UPDATE users SET account_admin = true
WHERE id IN (SELECT DISTINCT ON (account_id) id FROM users ORDER BY account_id, created_at, id);

-- Down Migration
ALTER TABLE users DROP COLUMN account_admin;
