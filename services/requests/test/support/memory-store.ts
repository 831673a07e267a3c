import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainEvent } from '@esign/contracts';
import type { TemplateWithHtml } from '../../src/domain/contract-template.js';
import { recordDelivery, type SignatureRequest } from '../../src/domain/signature-request.js';
import type { SignerAct } from '../../src/domain/signing.js';
import type { Challenge } from '../../src/domain/signer-authentication.js';
import type { Contact } from '../../src/domain/signer.js';
import type { SignerCorrectionRecord } from '../../src/domain/signer-correction.js';
import type { Autocommit, Store, Transact } from '../../src/ports/store.js';
import { memoryAttachments, type MemoryFiles } from './memory-attachments.js';
import { page } from './memory-page.js';
import { memoryRequestRepository } from './memory-request-repository.js';
import type {
  ExecutedDocumentStore,
  StoredExecutedDocument,
} from '../../src/ports/executed-document-store.js';

export interface State {
  templates: Map<number, TemplateWithHtml>;
  nextTemplateId: number;
  signers: Map<string, Contact>;
  requests: Map<string, SignatureRequest>;
  pdfs: Map<number, Uint8Array>;
  acts: Map<string, SignerAct[]>;
  challenges: Map<string, Challenge>;
  idempotency: Map<string, { fingerprint: string; answer: unknown }>;
  outbox: DomainEvent[];
  /** The audit trail's corrections of signers (ADR 3140), by Request. */
  corrections: Map<string, SignerCorrectionRecord[]>;
  inbox: Set<string>;
  bulkSends: string[];
  /** Signers' files (ADR 3920), by request id, signer ref and field name joined by new lines. */
  attachments: MemoryFiles;
}

const emptyState = (): State => ({
  templates: new Map(),
  nextTemplateId: 1,
  signers: new Map(),
  requests: new Map(),
  pdfs: new Map(),
  acts: new Map(),
  challenges: new Map(),
  idempotency: new Map(),
  outbox: [],
  corrections: new Map(),
  inbox: new Set(),
  bulkSends: [],
  attachments: new Map(),
});

/** A create's reads and writes over the maps, and the outbox port. */
const withCreation = (s: State, store: Omit<Store, 'creation'>): Store => ({
  ...store,
  creation: {
    inputs: (siteId, templateIds, signerIds) =>
      pipe(
        store.templates.specs(siteId, templateIds),
        TE.map((templates) => ({
          templates,
          storedContacts: new Map(
            signerIds.flatMap((id) => {
              const c = s.signers.get(`${siteId}/${id}`);
              return c === undefined ? [] : [[id, c] as const];
            }),
          ),
        })),
      ),
    insert: ({ siteSigners, request, challenges, events }) => {
      for (const x of siteSigners)
        s.signers.set(`${x.siteId}/${x.signerId}`, { email: x.email, mobileNumber: x.mobileNumber });
      s.requests.set(request.id, request);
      for (const c of challenges) s.challenges.set(`${request.id}/${c.signerRef}`, c.challenge);
      return store.outbox.append(events);
    },
  },
});

/**
 * The ports over plain maps, with the same contract as the Postgres adapters: reads are
 * scoped by site, a transaction commits on Right and leaves no trace on Left, and a key
 * claimed by an open transaction is in flight for everyone else.
 */
export const memoryStore = () => {
  const state = emptyState();
  const claimed = new Set<string>();

  const partsOver = (s: State, claims: Set<string>): Omit<Store, 'creation'> => {
    const appendOutbox = (events: readonly DomainEvent[]) => {
      s.outbox.push(...structuredClone(events));
    };
    /** True when `eventId` was not yet claimed for `consumer`, and claims it. */
    const claimInbox = (consumer: string, eventId: string): boolean => {
      const key = `${consumer}/${eventId}`;
      if (s.inbox.has(key)) return false;
      s.inbox.add(key);
      return true;
    };
    // A template as `find` and `lock` read it: of a Site the caller reaches, and not deleted (ADR 3430).
    const readable = (id: number, siteIds: readonly number[]) =>
      O.fromNullable(
        [s.templates.get(id)].find(
          (t) => t !== undefined && siteIds.includes(t.siteId) && t.deletedAt === null,
        ),
      );
    return {
      templates: {
        insert: (template, pdf) => {
          const stored = { ...template, id: s.nextTemplateId++ };
          s.templates.set(stored.id, stored);
          if (pdf !== null) s.pdfs.set(stored.id, pdf);
          return TE.right(stored);
        },
        find: (id, siteIds) => TE.right(readable(id, siteIds)),
        lock: (id, siteIds) => TE.right(readable(id, siteIds)),
        replace: (id, template, pdf) => {
          const stored = { ...template, id };
          s.templates.set(id, stored);
          if (pdf === null) s.pdfs.delete(id);
          else s.pdfs.set(id, pdf);
          return TE.right(stored);
        },
        remove: (id) => {
          s.templates.delete(id);
          s.pdfs.delete(id);
          return TE.right(undefined);
        },
        markPublished: (template) => {
          s.templates.set(template.id, { ...s.templates.get(template.id)!, ...template });
          return TE.right(undefined);
        },
        markDeleted: (template) => {
          const stored = s.templates.get(template.id)!;
          if (stored.state === 'published' && stored.deletedAt === null)
            s.templates.set(template.id, {
              ...stored,
              deletedAt: template.deletedAt,
              updatedAt: template.updatedAt,
            });
          return TE.right(undefined);
        },
        markArchived: (template) => {
          const stored = s.templates.get(template.id)!;
          if (stored.state === 'published')
            s.templates.set(template.id, {
              ...stored,
              archivedAt: template.archivedAt,
              updatedAt: template.updatedAt,
            });
          return TE.right(undefined);
        },
        list: (siteId, p, { state, archived, search }) =>
          TE.right(
            page(
              [...s.templates.values()]
                .filter(
                  (t) =>
                    t.siteId === siteId &&
                    t.deletedAt === null &&
                    (state === undefined || t.state === state) &&
                    (archived === undefined || (t.archivedAt !== null) === archived) &&
                    (search === undefined || t.name.toLowerCase().includes(search.toLowerCase())),
                )
                .sort((a, b) => b.id - a.id),
              p,
            ),
          ),
        specs: (siteId, ids) =>
          TE.right([...s.templates.values()].filter((t) => t.siteId === siteId && ids.includes(t.id))),
        documents: (siteId, ids) =>
          TE.right(
            [...s.templates.values()]
              .filter((t) => t.siteId === siteId && ids.includes(t.id))
              .map((t) => ({
                spec: t,
                sha256: t.document.sha256,
                html: t.html,
                pdf: s.pdfs.get(t.id) ?? null,
              })),
          ),
      },
      requests: memoryRequestRepository(s, appendOutbox),
      challenges: {
        lock: (requestId, signerRef) =>
          TE.right(O.fromNullable(s.challenges.get(`${requestId}/${signerRef}`))),
        find: (requestId, signerRef) =>
          TE.right(O.fromNullable(s.challenges.get(`${requestId}/${signerRef}`))),
        save: (requestId, signerRef, challenge) => {
          s.challenges.set(`${requestId}/${signerRef}`, challenge);
          return TE.right(undefined);
        },
      },
      acts: {
        insert: (requestId, act) => {
          const list = s.acts.get(requestId) ?? [];
          if (list.some((a) => a.signerRef === act.signerRef))
            throw new Error(`duplicate act of ${act.signerRef}: the primary key would refuse it`);
          s.acts.set(requestId, [...list, act]);
          return TE.right(undefined);
        },
        list: (requestId) => TE.right(s.acts.get(requestId) ?? []),
        enteredFor: (requestIds) =>
          TE.right(new Map(requestIds.flatMap((id) => (s.acts.has(id) ? [[id, s.acts.get(id)!]] : [])))),
      },
      outbox: {
        append: (events) => {
          appendOutbox(events);
          return TE.right(undefined);
        },
      },
      bulkSends: {
        insert: (bulk) => {
          s.bulkSends.push(bulk.id);
          return TE.right(undefined);
        },
      },
      deliveries: {
        record: (outcome) => {
          const { consumer, eventId, requestId, siteId, signerRef, signerId, channel, delivery, to } =
            outcome;
          if (!claimInbox(consumer, eventId)) return TE.right('duplicate' as const);
          const request = s.requests.get(requestId);
          if (request === undefined || request.siteId !== siteId) return TE.right('unknown-request' as const);
          const next = recordDelivery(request, signerRef, channel, delivery, to, signerId);
          if (E.isLeft(next)) return TE.right('unknown-request' as const);
          s.requests.set(requestId, next.right);
          // The failure's event only if the report became the signer's status (ADR 3180).
          if (outcome.notice !== undefined && next.right !== request) appendOutbox([outcome.notice]);
          return TE.right('applied' as const);
        },
      },
      inbox: {
        claim: (consumer, eventId) => TE.right(claimInbox(consumer, eventId)),
      },
      attachments: memoryAttachments(s.attachments),
      idempotency: {
        claim: (scope, fingerprint) => {
          const key = `${scope.siteId}/${scope.key}`;
          if (claimed.has(key) && !claims.has(key)) return TE.left({ _tag: 'IdempotencyKeyInFlight' });
          claimed.add(key);
          claims.add(key);
          const stored = s.idempotency.get(key);
          if (stored === undefined) return TE.right(O.none);
          if (stored.fingerprint !== fingerprint) return TE.left({ _tag: 'IdempotencyKeyReused' });
          return TE.right(O.some(stored.answer));
        },
        remember: (scope, fingerprint, answer) => {
          s.idempotency.set(`${scope.siteId}/${scope.key}`, { fingerprint, answer: structuredClone(answer) });
          return TE.right(undefined);
        },
      },
    };
  };

  const storeOver = (s: State, claims: Set<string>): Store => withCreation(s, partsOver(s, claims));

  const transact: Transact = (work) => async () => {
    const copy = structuredClone(state);
    const claims = new Set<string>();
    try {
      const result = await work(storeOver(copy, claims))();
      if (E.isRight(result)) Object.assign(state, copy);
      return result;
    } finally {
      for (const key of claims) claimed.delete(key);
    }
  };

  const committed = storeOver(state, new Set());
  /** Each write lands at once, as a statement outside a transaction commits on its own. */
  const autocommit: Autocommit = (work) => work(committed);

  return {
    /** Reads outside a transaction see what is committed. */
    store: committed,
    transact,
    autocommit,
    state: () => state,
  };
};

/** Executed documents in memory: kept once per Request, like the table's primary key. */
export const memoryExecutedDocuments = (): ExecutedDocumentStore => {
  const kept = new Map<string, StoredExecutedDocument>();
  return {
    find: (requestId) => TE.right(O.fromNullable(kept.get(requestId))),
    findBySha256: (sha256) => TE.right(O.fromNullable([...kept.values()].find((d) => d.sha256 === sha256))),
    insertOnce: (document) => {
      if (!kept.has(document.requestId)) kept.set(document.requestId, document);
      return TE.right(kept.get(document.requestId)!);
    },
    claim: () => TE.right([]),
    postpone: () => TE.right(undefined),
    nextDueInMs: () => TE.right(null),
  };
};
