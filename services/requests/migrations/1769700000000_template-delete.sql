-- Up Migration

-- ADR 3430: when a published template was deleted. It leaves every list and read, and new
-- Requests cannot use it; the row stays, because the Requests made with it still read its
-- document (request_contracts refers to it). A draft is deleted outright (ADR 3240).
ALTER TABLE contract_templates
  ADD COLUMN deleted_at timestamptz,
  ADD CONSTRAINT contract_templates_deleted_published CHECK (deleted_at IS NULL OR state = 'published');

-- Down Migration
ALTER TABLE contract_templates DROP COLUMN deleted_at;
