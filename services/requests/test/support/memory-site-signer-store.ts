import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { DetailChange, StoredSiteSigner } from '../../src/domain/signer.js';
import type { SiteSignerStore } from '../../src/ports/site-signer-store.js';
import { page } from './memory-page.js';

/** Whether the signer's id, address or number holds `search`, in any case (as ILIKE does). */
const holds = (s: StoredSiteSigner, search: string): boolean =>
  [s.signerId, s.email ?? '', s.mobileNumber ?? ''].some((v) =>
    v.toLowerCase().includes(search.toLowerCase()),
  );

/**
 * The Site signer store in memory, with the Postgres store's upsert rule; `now` stamps
 * changes, and `named` says whether a Request names a signer (the foreign key's part).
 */
export const memorySiteSignerStore = (
  now: () => string,
  named: (siteId: number, signerId: string) => boolean = () => false,
) => {
  const rows = new Map<string, StoredSiteSigner>();
  const key = (siteId: number, signerId: string) => `${siteId}\u0000${signerId}`;
  const store: SiteSignerStore = {
    list: (siteId, p, search) =>
      TE.right(
        page(
          [...rows.values()]
            .filter((s) => s.siteId === siteId && (search === undefined || holds(s, search)))
            .sort((a, b) => (a.signerId < b.signerId ? -1 : a.signerId > b.signerId ? 1 : 0)),
          p,
        ),
      ),
    get: (siteId, signerId) => TE.right(O.fromNullable(rows.get(key(siteId, signerId)))),
    upsert: (s) => {
      const stored = rows.get(key(s.siteId, s.signerId));
      const applied = (d: DetailChange, was: string | null | undefined) =>
        d === 'remove' ? null : d === 'keep' ? (was ?? null) : d.set;
      const email = applied(s.email, stored?.email);
      const mobileNumber = applied(s.mobileNumber, stored?.mobileNumber);
      if (stored !== undefined && stored.email === email && stored.mobileNumber === mobileNumber)
        return TE.right({ signer: stored, created: false });
      const at = now();
      const signer = {
        siteId: s.siteId,
        signerId: s.signerId,
        email,
        mobileNumber,
        createdAt: stored?.createdAt ?? at,
        updatedAt: at,
      };
      rows.set(key(s.siteId, s.signerId), signer);
      return TE.right({ signer, created: stored === undefined });
    },
    remove: (siteId, signerId) => {
      if (!rows.has(key(siteId, signerId))) return TE.right('missing' as const);
      if (named(siteId, signerId)) return TE.right('in_use' as const);
      rows.delete(key(siteId, signerId));
      return TE.right('deleted' as const);
    },
  };
  return { store, rows };
};
