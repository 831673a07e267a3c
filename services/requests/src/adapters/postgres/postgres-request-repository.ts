import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import type { DomainEvent } from '@esign/contracts';
import {
  db,
  insertEvents,
  prepared,
  sql,
  type OutgoingEvent,
  type Queryable,
} from '@esign/platform/database';
import type { SignatureRequest } from '../../domain/signature-request.js';
import type { RequestRepository, TransitionWrites } from '../../ports/request-repository.js';
import { challengeWrites } from './postgres-signer-challenge-repository.js';
import { inSites, rememberVersion, selectRequests, toRequest, UUID, versionOf } from './request-reads.js';
import { transitionWrite } from './request-writes.js';
import { correctionsInsert, listCorrections } from './signer-corrections.js';
import { historyInsert, listHistory, siteFeed } from './request-history.js';
import { containsPattern, Count, RequestRow } from './rows.js';
import { upsertSigners } from './signer-upsert.js';
import { task } from './task.js';

const Written = t.type({ written: t.number });

export const postgresRequestRepository = (q: Queryable, handedOff?: OutgoingEvent[]): RequestRepository => {
  const load = async (
    id: string,
    siteIds: readonly number[] | 'any',
  ): Promise<O.Option<SignatureRequest>> => {
    if (!UUID.test(id)) return O.none;
    const scope = siteIds === 'any' ? sql.fragment`TRUE` : sql.fragment`r.site_id = ANY(${inSites(siteIds)})`;
    return O.map(toRequest)(
      O.fromNullable(
        await db.maybeOne(q, RequestRow, prepared(selectRequests(sql.fragment`r.id = ${id} AND ${scope}`))),
      ),
    );
  };

  // Lock first, read after: a read in the locking statement could see children older
  // than the row it waited for.
  const lockAndLoad = async (
    id: string,
    siteIds: readonly number[] | 'any',
  ): Promise<O.Option<SignatureRequest>> => {
    if (!UUID.test(id)) return O.none;
    const scope = siteIds === 'any' ? sql.fragment`TRUE` : sql.fragment`site_id = ANY(${inSites(siteIds)})`;
    const locked = await db.maybeOne(
      q,
      t.type({ id: t.string }),
      sql.unsafe`SELECT id FROM requests WHERE id = ${id} AND ${scope} FOR UPDATE`,
    );
    return locked === undefined ? O.none : await load(id, siteIds);
  };

  const write = async (
    previous: SignatureRequest,
    request: SignatureRequest,
    events: readonly DomainEvent[],
    writes: TransitionWrites = {},
  ): Promise<boolean> => {
    const version = versionOf(previous);
    const { siteSigners = [], challenges = [] } = writes;
    const { written } = await db.one(
      q,
      Written,
      prepared(
        transitionWrite(previous, request, version, (when) => [
          // A signer added to a draft (ADR 3280): the Site's signer first, then their check.
          siteSigners.length === 0 ? undefined : upsertSigners(siteSigners, when),
          ...challengeWrites(request.id, challenges, when),
          ...(events.length === 0
            ? []
            : [
                insertEvents(events, { when, handedOff: handedOff !== undefined }),
                correctionsInsert(events, when, writes.askedFrom),
                historyInsert(events, when),
              ]),
        ]),
      ),
    );
    if (written === 0) return false;
    rememberVersion(request, version + 1);
    handedOff?.push(...events);
    return true;
  };

  // A sweep's batch: lock the due rows (skipping those another replica holds), then read them.
  const lockDue = async (locking: ReturnType<typeof sql.fragment>): Promise<SignatureRequest[]> => {
    const due = await db.any(q, t.type({ id: t.string }), sql.unsafe`${locking}`);
    if (due.length === 0) return [];
    const ids = sql.array(
      due.map((d) => d.id),
      'uuid',
    );
    const rows = await db.any(q, RequestRow, selectRequests(sql.fragment`r.id = ANY(${ids})`));
    return rows.map(toRequest);
  };

  return {
    find: (id, siteIds) => task(() => load(id, siteIds)),
    markViewed: (requestId, signerRef, evidence) =>
      task(async () => {
        const rows = await db.any(
          q,
          t.type({ signer_ref: t.string }),
          sql.unsafe`
            UPDATE request_signers
            SET viewed_at = ${evidence.at}, viewed_ip = ${evidence.ip}, viewed_user_agent = ${evidence.userAgent}
            WHERE request_id = ${requestId} AND signer_ref = ${signerRef} AND viewed_at IS NULL
            RETURNING signer_ref`,
        );
        return rows.length > 0;
      }),
    lock: (id, siteIds) => task(() => lockAndLoad(id, siteIds)),
    lockByVerifiedId: (id) => task(() => lockAndLoad(id, 'any')),
    siteOf: (id, siteIds) =>
      task(async () =>
        !UUID.test(id)
          ? O.none
          : O.map((r: { site_id: number }) => r.site_id)(
              O.fromNullable(
                await db.maybeOne(
                  q,
                  t.type({ site_id: t.number }),
                  sql.unsafe`SELECT site_id FROM requests WHERE id = ${id} AND site_id = ANY(${inSites(siteIds)})`,
                ),
              ),
            ),
      ),
    // One statement (ADRs 2502, 2650, 2800). Under the lock the version check always
    // holds: a Request that moved on all the same is a bug, and throwing rolls it back.
    update: (previous, request, events, writes) =>
      task(async () => {
        if (!(await write(previous, request, events, writes)))
          throw new Error(`Request ${request.id} changed while it was locked`);
      }),
    updateIfCurrent: (previous, request, events, writes) =>
      task(() => write(previous, request, events, writes)),
    lockDueForExpiry: (now, limit) =>
      task(() =>
        lockDue(sql.fragment`
          SELECT id FROM requests
          WHERE state IN ('draft', 'sent') AND expires_at <= ${now}
          ORDER BY expires_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`),
      ),
    // The partial index requests_reminder_due holds exactly the sent Requests with one scheduled.
    lockDueForReminder: (now, limit) =>
      task(() =>
        lockDue(sql.fragment`
          SELECT id FROM requests
          WHERE state = 'sent' AND next_reminder_at IS NOT NULL AND next_reminder_at <= ${now}
          ORDER BY next_reminder_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`),
      ),
    findByVerifiedId: (id) => task(() => load(id, 'any')),
    history: (of, page, order, types) => task(() => listHistory(q, of, page, order, types)),
    siteHistory: (siteId, from, limit, types) => task(() => siteFeed(q, siteId, from, limit, types)),
    corrections: (requestId) => task(() => listCorrections(q, requestId)),
    list: (siteId, page, filter) =>
      task(async () => {
        const {
          state,
          testMode,
          signerId,
          contractId,
          sent,
          copiedFrom,
          bulkSendId,
          createdFrom,
          createdBefore,
          search,
        } = filter;
        const where = sql.fragment`r.site_id = ${siteId}
          ${state === undefined ? sql.fragment`` : sql.fragment`AND r.state = ${state}`}
          ${testMode === undefined ? sql.fragment`` : sql.fragment`AND r.test_mode = ${testMode}`}
          ${sent === undefined ? sql.fragment`` : sql.fragment`AND r.sent_at IS NOT NULL`}
          ${
            // requests_by_source serves it (ADR 3410).
            copiedFrom === undefined ? sql.fragment`` : sql.fragment`AND r.copied_from = ${copiedFrom}`
          }
          ${
            // The bulk send's rows (at most 1,000, by its key) name its Requests; another Site's
            // bulk send names none of this Site's.
            bulkSendId === undefined
              ? sql.fragment``
              : sql.fragment`AND r.id IN (SELECT br.request_id FROM bulk_send_rows br
                  WHERE br.bulk_id = ${bulkSendId} AND br.request_id IS NOT NULL)`
          }
          ${
            // requests_by_site (and _state) are in created_at order: an interval is a range of them.
            createdFrom === undefined
              ? sql.fragment``
              : sql.fragment`AND r.created_at >= ${createdFrom}::timestamptz`
          }
          ${createdBefore === undefined ? sql.fragment`` : sql.fragment`AND r.created_at < ${createdBefore}::timestamptz`}
          ${
            // Read over the Site's Requests, as the templates' and signers' searches (ADR 3360).
            search === undefined ? sql.fragment`` : sql.fragment`AND r.title ILIKE ${containsPattern(search)}`
          }
          ${
            // request_signers_by_signer serves it.
            signerId === undefined
              ? sql.fragment``
              : sql.fragment`AND EXISTS (SELECT 1 FROM request_signers rs
                  WHERE rs.site_id = ${siteId} AND rs.signer_id = ${signerId} AND rs.request_id = r.id)`
          }
          ${
            // request_contracts_by_template serves it.
            contractId === undefined
              ? sql.fragment``
              : sql.fragment`AND EXISTS (SELECT 1 FROM request_contracts rc
                  WHERE rc.template_id = ${contractId} AND rc.request_id = r.id)`
          }`;
        const [rows, count] = await Promise.all([
          db.any(
            q,
            RequestRow,
            selectRequests(
              where,
              sql.fragment`ORDER BY r.created_at DESC, r.id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
            ),
          ),
          db.one(q, Count, sql.unsafe`SELECT count(*) AS total FROM requests r WHERE ${where}`),
        ]);
        return { items: rows.map(toRequest), total: count.total };
      }),
  };
};
