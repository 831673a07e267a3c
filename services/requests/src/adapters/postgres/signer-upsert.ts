import { sql } from '@esign/platform/database';
import type { SiteSigner } from '../../domain/signer.js';

type Fragment = ReturnType<typeof sql.fragment>;

/**
 * Creates the new signers and updates the known ones: a contact detail the call leaves
 * out keeps its stored value, and an unchanged row is not rewritten. With `when`, as a
 * transition's CTE, only where it holds (the change was stored, ADR 3280).
 */
export const upsertSigners = (signers: readonly SiteSigner[], when?: Fragment) => {
  // Sorted, so two Requests upserting the same signers lock them in the same order.
  const sorted = [...signers].sort((a, b) =>
    a.signerId < b.signerId ? -1 : a.signerId > b.signerId ? 1 : 0,
  );
  return sql.fragment`
    INSERT INTO signers (site_id, signer_id, email, mobile_number, created_at, updated_at)
    SELECT site_id, signer_id, email, mobile_number, now(), now()
    FROM ${sql.unnest(
      sorted.map((s) => [s.siteId, s.signerId, s.email, s.mobileNumber]),
      ['int8', 'text', 'text', 'text'],
    )} AS s(site_id, signer_id, email, mobile_number)${
      when === undefined
        ? sql.fragment``
        : sql.fragment`
    WHERE ${when}`
    }
    ON CONFLICT (site_id, signer_id) DO UPDATE
    SET email = COALESCE(EXCLUDED.email, signers.email),
        mobile_number = COALESCE(EXCLUDED.mobile_number, signers.mobile_number),
        updated_at = now()
    WHERE (signers.email, signers.mobile_number)
          IS DISTINCT FROM (COALESCE(EXCLUDED.email, signers.email), COALESCE(EXCLUDED.mobile_number, signers.mobile_number))`;
};
