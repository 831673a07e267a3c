import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { CreateRequestBody, decode, type RequestView } from '@esign/contracts';
import type { TemplateField, TemplateSpec } from '../../src/domain/contract-template.js';
import type { Outcome } from '../../src/application/idempotency.js';
import type { CreationInput } from '../../src/domain/request-creation.js';
import type { RequestSigner, SignatureRequest } from '../../src/domain/signature-request.js';

export const NOW = '2030-01-01T12:00:00.000Z';
export const SITE = { id: 7, name: 'Acme Production' };

export const later = (iso: string, seconds: number): string =>
  new Date(Date.parse(iso) + seconds * 1000).toISOString();

export const htmlSpec = (overrides: Partial<TemplateSpec> = {}): TemplateSpec => ({
  id: 11,
  siteId: SITE.id,
  name: 'NDA',
  kind: 'html',
  state: 'published',
  tokens: ['client_name', 'start_date'],
  fields: [
    { name: 'full_name', type: 'text', maxLength: 50 },
    { name: 'agree', type: 'checkbox' },
    { name: 'plan', type: 'choice', options: ['basic', 'pro'] },
    { name: 'signature', type: 'signature' },
  ],
  archivedAt: null,
  deletedAt: null,
  ...overrides,
});

export const pdfSpec = (overrides: Partial<TemplateSpec> = {}): TemplateSpec => ({
  id: 12,
  siteId: SITE.id,
  name: 'Lease',
  kind: 'pdf',
  state: 'published',
  tokens: [],
  fields: [
    { name: 'tenant', type: 'text', maxLength: null },
    { name: 'tenant_signature', type: 'signature' },
  ] satisfies TemplateField[],
  archivedAt: null,
  deletedAt: null,
  ...overrides,
});

/** Decodes a body exactly as the HTTP edge does, so tests speak the wire format. */
export const body = (input: unknown): CreateRequestBody => {
  const decoded = decode(CreateRequestBody)(input);
  if (E.isLeft(decoded)) throw new Error(`test body does not decode: ${JSON.stringify(decoded.left)}`);
  return decoded.right;
};

export const creationInput = (
  overrides: Partial<CreationInput> & { body: CreateRequestBody },
): CreationInput => ({
  id: '00000000-0000-4000-8000-000000000001',
  site: SITE,
  now: NOW,
  templates: [htmlSpec(), pdfSpec()],
  storedContacts: new Map(),
  signerRefs: overrides.body.signers.map((_, i) => `ref${i}`),
  ...overrides,
});

export const signer = (overrides: Partial<RequestSigner> = {}): RequestSigner => ({
  signerId: 'alice@example.com',
  signerRef: 'ref0',
  contact: { email: 'alice@example.com', mobileNumber: null },
  sendTo: { email: true, sms: false },
  order: null,
  authentication: null,
  viewedAt: null,
  state: 'pending',
  signedAt: null,
  declinedAt: null,
  delivery: { email: null, sms: null },
  link: { version: 0, issuedAt: null },
  ...overrides,
});

export const draft = (overrides: Partial<SignatureRequest> = {}): SignatureRequest => ({
  id: '00000000-0000-4000-8000-000000000001',
  siteId: SITE.id,
  siteName: SITE.name,
  state: 'draft',
  contracts: [{ id: 11, name: 'NDA' }],
  signers: [
    signer(),
    signer({
      signerId: 'bob',
      signerRef: 'ref1',
      contact: { email: null, mobileNumber: '15552345678' },
      sendTo: { email: false, sms: true },
    }),
  ],
  fields: [
    { name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'bob' },
  ],
  renderData: {},
  redirectUrl: null,
  expiresAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  sentAt: null,
  cancelledAt: null,
  expiredAt: null,
  completedAt: null,
  declinedAt: null,
  lastRemindedAt: null,
  remindCount: 0,
  reminderIntervalDays: null,
  nextReminderAt: null,
  testMode: false,
  ...overrides,
});

export const sent = (overrides: Partial<SignatureRequest> = {}): SignatureRequest =>
  draft({ state: 'sent', sentAt: NOW, ...overrides });

/** The Right of an Either, or a failure that shows the Left. */
export const right = <L, R>(e: E.Either<L, R>): R => {
  if (E.isLeft(e)) throw new Error(`expected Right, got Left: ${JSON.stringify(e.left)}`);
  return e.right;
};

export const left = <L, R>(e: E.Either<L, R>): L => {
  if (E.isRight(e)) throw new Error(`expected Left, got Right: ${JSON.stringify(e.right)}`);
  return e.left;
};

/** The value of a use case's fresh (not replayed) answer. */
export const fresh = <A>(outcome: Outcome<A>): A => {
  if (outcome.replayed) throw new Error('expected a fresh answer, got a replay');
  return outcome.value;
};

/**
 * The notifier's report on one message to a signer of `view` (`notification.delivered`
 * unless told), as the requests service consumes it.
 */
export const deliveryReport = (
  view: RequestView,
  options: {
    readonly signer?: number;
    readonly type?: 'notification.delivered' | 'notification.failed';
    readonly channel?: 'email' | 'sms';
    readonly at?: string;
    readonly siteId?: number;
    readonly extra?: Record<string, unknown>;
  } = {},
) => {
  const signer = view.signers[options.signer ?? 0]!;
  return {
    id: randomUUID(),
    type: options.type ?? ('notification.delivered' as const),
    occurred_at: options.at ?? new Date().toISOString(),
    site_id: options.siteId ?? view.site_id,
    aggregate_id: view.id,
    data: {
      request_id: view.id,
      cause_event_id: randomUUID(),
      signer_id: signer.signer_id,
      signer_ref: signer.signer_ref,
      channel: options.channel ?? ('email' as const),
      ...options.extra,
    },
  };
};
