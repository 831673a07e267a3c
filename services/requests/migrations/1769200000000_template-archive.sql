-- Up Migration

-- ADR 3250: when a published template was archived: new Requests cannot use it, and lists
-- can leave it out; Requests made with it are unaffected. Only a published template is.
ALTER TABLE contract_templates
  ADD COLUMN archived_at timestamptz,
  ADD CONSTRAINT contract_templates_archived_published CHECK (archived_at IS NULL OR state = 'published');

-- Down Migration
ALTER TABLE contract_templates DROP COLUMN archived_at;
