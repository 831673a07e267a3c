import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  clientEventOf,
  isRequestHistoryEvent,
  isTemplateEvent,
  type DomainEvent,
  type RequestSignerUpdated,
} from '@esign/contracts';
import {
  isContactCorrection,
  type CorrectionEvidence,
  type SignerCorrectionRecord,
} from '../../src/domain/signer-correction.js';
import type { SignatureRequest } from '../../src/domain/signature-request.js';
import type { Contact } from '../../src/domain/signer.js';
import type { Challenge } from '../../src/domain/signer-authentication.js';
import type { RequestRepository, TransitionWrites } from '../../src/ports/request-repository.js';
import { page } from './memory-page.js';

/** What the Postgres adapter keeps of a `request.signer_updated` event (ADR 3140). */
const correctionOf = (
  { occurred_at, data: d }: RequestSignerUpdated,
  askedFrom: CorrectionEvidence | undefined,
): SignerCorrectionRecord => ({
  signerRef: d.signer_ref,
  at: occurred_at,
  by: d.corrected_by,
  previous: {
    contact: { email: d.previous.email, mobileNumber: d.previous.mobile_number },
    sendTo: { email: d.previous.send_to.email, sms: d.previous.send_to.mobile_number },
  },
  current: {
    contact: { email: d.email, mobileNumber: d.mobile_number },
    sendTo: { email: d.send_to.email, sms: d.send_to.mobile_number },
  },
  linkReplaced: d.link_replaced,
  ...(d.previous.signer_id !== undefined && {
    replaced: { previous: d.previous.signer_id, current: d.signer_id },
  }),
  ...(askedFrom?.signerRef === d.signer_ref && {
    from: { ip: askedFrom.ip, userAgent: askedFrom.userAgent },
  }),
});

interface RequestsState {
  readonly requests: Map<string, SignatureRequest>;
  /** The Sites' signers by `<site>/<signer_id>`, and the signers' challenges by `<request>/<signer_ref>`. */
  readonly signers: Map<string, Contact>;
  readonly challenges: Map<string, Challenge>;
  readonly corrections: Map<string, SignerCorrectionRecord[]>;
  /** Every event written, in order: a Request's history is read from it (ADR 3170). */
  readonly outbox: readonly DomainEvent[];
}

/**
 * A transition's events: to the outbox, and its corrections to the audit trail; a signer
 * added to a draft upserts the Site's signer and keeps their challenge (ADR 3280).
 */
const record = (
  s: RequestsState,
  appendOutbox: (events: readonly DomainEvent[]) => void,
  events: readonly DomainEvent[],
  request: SignatureRequest,
  writes: TransitionWrites = {},
) => {
  for (const x of writes.siteSigners ?? [])
    s.signers.set(`${x.siteId}/${x.signerId}`, { email: x.email, mobileNumber: x.mobileNumber });
  for (const c of writes.challenges ?? [])
    if (c.challenge === null) s.challenges.delete(`${request.id}/${c.signerRef}`);
    else s.challenges.set(`${request.id}/${c.signerRef}`, c.challenge);
  appendOutbox(events);
  for (const e of events)
    if (e.type === 'request.signer_updated' && isContactCorrection(e.data.changed))
      s.corrections.set(e.aggregate_id, [
        ...(s.corrections.get(e.aggregate_id) ?? []),
        correctionOf(e, writes.askedFrom),
      ]);
};

/** The Requests of one in-memory state; a transition's events go to `appendOutbox`. */
export const memoryRequestRepository = (
  s: RequestsState,
  appendOutbox: (events: readonly DomainEvent[]) => void,
): RequestRepository => ({
  markViewed: (requestId, signerRef, evidence) => {
    const request = s.requests.get(requestId);
    const signer = request?.signers.find((x) => x.signerRef === signerRef);
    if (request === undefined || signer === undefined || signer.viewedAt !== null) return TE.right(false);
    s.requests.set(requestId, {
      ...request,
      signers: request.signers.map((x) => (x === signer ? { ...x, viewedAt: evidence.at } : x)),
    });
    return TE.right(true);
  },
  find: (id, siteIds) =>
    TE.right(O.fromNullable([s.requests.get(id)].find((r) => r !== undefined && siteIds.includes(r.siteId)))),
  lock: (id, siteIds) =>
    TE.right(O.fromNullable([s.requests.get(id)].find((r) => r !== undefined && siteIds.includes(r.siteId)))),
  siteOf: (id, siteIds) =>
    TE.right(
      O.fromNullable([s.requests.get(id)].find((r) => r !== undefined && siteIds.includes(r.siteId))?.siteId),
    ),
  update: (_previous, r, events, writes) => {
    s.requests.set(r.id, r);
    record(s, appendOutbox, events, r, writes);
    return TE.right(undefined);
  },
  // Requests are immutable values here: one still current is the very object read.
  // A transaction's commit copies every object, which counts as a change: a read
  // again, never a lost write.
  updateIfCurrent: (previous, r, events, writes) => {
    if (s.requests.get(r.id) !== previous) return TE.right(false);
    s.requests.set(r.id, r);
    record(s, appendOutbox, events, r, writes);
    return TE.right(true);
  },
  lockDueForExpiry: (now, limit) =>
    TE.right(
      [...s.requests.values()]
        .filter(
          (r) => (r.state === 'draft' || r.state === 'sent') && r.expiresAt !== null && r.expiresAt <= now,
        )
        .slice(0, limit),
    ),
  lockDueForReminder: (now, limit) =>
    TE.right(
      [...s.requests.values()]
        .filter(
          (r) =>
            r.state === 'sent' &&
            r.nextReminderAt !== null &&
            Date.parse(r.nextReminderAt) <= Date.parse(now),
        )
        .sort((a, b) => Date.parse(a.nextReminderAt!) - Date.parse(b.nextReminderAt!))
        .slice(0, limit),
    ),
  findByVerifiedId: (id) => TE.right(O.fromNullable(s.requests.get(id))),
  corrections: (requestId) => TE.right(s.corrections.get(requestId) ?? []),
  history: (of, p, order, types) => {
    // A Request's entries, or a template's (ADR 3720): its Site's template events naming it.
    const entries = s.outbox
      .flatMap((e) =>
        'requestId' in of
          ? e.aggregate_id === of.requestId && isRequestHistoryEvent(e)
            ? [clientEventOf(e)]
            : []
          : isTemplateEvent(e) && e.site_id === of.siteId && e.data.contract_id === of.contractId
            ? [clientEventOf(e)]
            : [],
      )
      .filter((e) => types === undefined || types.includes(e.type));
    return TE.right(page(order === 'desc' ? entries.reverse() : entries, p));
  },
  // The outbox's order stands for the order changes were stored: one "transaction" (0), the
  // position in the outbox as the id.
  siteHistory: (siteId, from, limit, types) => {
    // Position i + 1 in the outbox is the entry's id; the guard narrows the event's type.
    const all = s.outbox.flatMap((e, i) =>
      e.site_id === siteId && isRequestHistoryEvent(e)
        ? [{ txid: '0', id: String(i + 1), payload: clientEventOf(e) }]
        : [],
    );
    const ofTypes = (x: (typeof all)[number]) => types === undefined || types.includes(x.payload.type);
    const at = (x: { txid: string; id: string } | undefined) =>
      x === undefined ? undefined : { txid: x.txid, id: x.id };
    if (from.order === 'desc') {
      const before = from.before === undefined ? Infinity : Number(from.before.id);
      const entries = all.filter((x) => Number(x.id) < before && ofTypes(x)).reverse();
      const page = entries.slice(0, limit);
      return TE.right({
        entries: page.map((x) => x.payload),
        nextAfter: at(page[0]) ?? from.before ?? { txid: '0', id: '0' },
        nextBefore: at(page.at(-1)),
        hasMore: entries.length > limit,
      });
    }
    const read = all.filter((x) => Number(x.id) > Number(from.after.id));
    const entries = read.filter(ofTypes);
    const page = entries.slice(0, limit);
    const hasMore = entries.length > limit;
    // As in Postgres: with no more that match, the cursor passes everything read.
    const last = hasMore || types === undefined ? page.at(-1) : read.at(-1);
    return TE.right({
      entries: page.map((x) => x.payload),
      nextAfter: at(last) ?? from.after,
      nextBefore: at(page[0]),
      hasMore,
    });
  },
  lockByVerifiedId: (id) => TE.right(O.fromNullable(s.requests.get(id))),
  list: (
    siteId,
    p,
    { state: st, testMode, signerId, contractId, copiedFrom, bulkSendId, createdFrom, createdBefore, search },
  ) => {
    return TE.right(
      page(
        [...s.requests.values()]
          .filter(
            (r) =>
              r.siteId === siteId &&
              (st === undefined || r.state === st) &&
              (testMode === undefined || r.testMode === testMode) &&
              (signerId === undefined || r.signers.some((x) => x.signerId === signerId)) &&
              (contractId === undefined || r.contracts.some((c) => c.id === contractId)) &&
              (copiedFrom === undefined || r.copiedFrom === copiedFrom) &&
              // What a bulk send's worker made names it (ADR 3510); Postgres reads its rows instead.
              (bulkSendId === undefined || r.bulkSendId === bulkSendId) &&
              (createdFrom === undefined || Date.parse(r.createdAt) >= Date.parse(createdFrom)) &&
              (createdBefore === undefined || Date.parse(r.createdAt) < Date.parse(createdBefore)) &&
              (search === undefined || (r.title ?? '').toLowerCase().includes(search.toLowerCase())),
          )
          .sort((a, b) =>
            a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
          ),
        p,
      ),
    );
  },
});
