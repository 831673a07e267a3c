import type { BulkSendView } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { postgresBulkSendStore } from '../../src/adapters/postgres/postgres-bulk-send-store.js';
import { processBulkRows } from '../../src/application/bulk-send-worker.js';
import { SITE_A, type Harness } from './harness.js';

/**
 * The bulk-send worker the integration suites drive by hand: one step over the real store,
 * with every send allowed (pacing has its own tests). Answers how many rows the step took.
 */
export const bulkSendWorker = (
  h: Harness,
  store: ReturnType<typeof postgresBulkSendStore> = postgresBulkSendStore(h.pool),
): ((limit?: number, leaseMs?: number) => Promise<number>) => {
  const step = processBulkRows({
    ...h.deps,
    bulkSends: store,
    sendAllowance: () => TE.right({ _tag: 'Allowed' }),
  });
  return async (limit = 100, leaseMs = 30_000) => E.toUnion(await step(limit, leaseMs)());
};

/** Starts a bulk send over HTTP as `headers` and answers its 202 view. */
export const bulkSendStarter =
  (h: Harness, headers: Record<string, string>) =>
  async (contracts: readonly number[], rows: readonly unknown[], send = true, site = SITE_A.id) =>
    (
      await h.http
        .post(`/v1.1/sites/${site}/bulk_sends`)
        .set(headers)
        .send({ contracts, send, rows })
        .expect(202)
    ).body as BulkSendView;
