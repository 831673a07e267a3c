-- Up Migration

-- ADR 3460: the hourly sweep that removes deleted templates no Request and no bulk send names
-- finds them by this index, which holds only deleted rows (a handful), not the whole table.
CREATE INDEX contract_templates_deleted ON contract_templates (deleted_at) WHERE deleted_at IS NOT NULL;

-- Down Migration
DROP INDEX contract_templates_deleted;
