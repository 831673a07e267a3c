-- Up Migration

-- Issue #18 (MEDIUM 4), ADR 1302: a signer's contact details are fixed into the Request
-- when it is sent, and into their act when they sign or decline, so upserting the signer
-- later with a new address changes neither reminders nor a completed audit trail.
ALTER TABLE request_signers
  ADD COLUMN contact_fixed boolean NOT NULL DEFAULT false,
  ADD COLUMN sent_email text,
  ADD COLUMN sent_mobile_number text;

-- Requests already sent: the details they hold now are the best record there is.
UPDATE request_signers rs
SET sent_email = s.email, sent_mobile_number = s.mobile_number, contact_fixed = true
FROM signers s, requests r
WHERE s.site_id = rs.site_id AND s.signer_id = rs.signer_id
  AND r.id = rs.request_id AND r.sent_at IS NOT NULL;

ALTER TABLE signer_acts ADD COLUMN email text, ADD COLUMN mobile_number text;

UPDATE signer_acts a
SET email = rs.sent_email, mobile_number = rs.sent_mobile_number
FROM request_signers rs
WHERE rs.request_id = a.request_id AND rs.signer_ref = a.signer_ref;

-- Down Migration
ALTER TABLE signer_acts DROP COLUMN email, DROP COLUMN mobile_number;
ALTER TABLE request_signers DROP COLUMN contact_fixed, DROP COLUMN sent_email, DROP COLUMN sent_mobile_number;
