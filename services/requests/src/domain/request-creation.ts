import * as E from 'fp-ts/lib/Either.js';
import { LIMITS, type CreateRequestBody } from '@esign/contracts';
import { clashProblem, typeClash, unusableForRequests, type TemplateSpec } from './contract-template.js';
import { at, fieldError, member, type FieldError } from './paths.js';
import { checkFields } from './request-fields.js';
import type { Contact, SiteSigner } from './signer.js';
import { signerFromEntry } from './signer-entry.js';
import { signersWithoutOrder } from './signing-order.js';
import type { RequestCreator, RequestSigner, SignatureRequest, Transition } from './signature-request.js';

/** How far ahead `expires_at` may lie. */
export const MAX_EXPIRY_DAYS = 365;

export interface CreationInput {
  readonly id: string;
  readonly site: { readonly id: number; readonly name: string; readonly default_locale?: string | null };
  readonly now: string;
  readonly body: CreateRequestBody;
  /** The site's templates among those the body names, in any state; others' are simply absent. */
  readonly templates: readonly TemplateSpec[];
  /** What the site already knows of the signers the body names, by signer_id. */
  readonly storedContacts: ReadonlyMap<string, Contact>;
  /** One fresh reference per signer of the body, in order. */
  readonly signerRefs: readonly string[];
  /** The user creating it (ADR 2003). */
  readonly creator?: RequestCreator;
  /** The Request it is a copy of (ADR 3410); absent: not a copy. */
  readonly copiedFrom?: string;
  /** The bulk send one of whose rows it is (ADR 3510); absent: not a row's. */
  readonly bulkSendId?: string;
}

export interface Creation extends Transition {
  /** The site's signers as they are after this call: to be upserted. */
  readonly siteSigners: readonly SiteSigner[];
}

export interface InvalidRequest {
  readonly _tag: 'InvalidRequest';
  readonly errors: readonly FieldError[];
}

const checkContracts = (input: CreationInput, errors: FieldError[]): TemplateSpec[] => {
  const byId = new Map(input.templates.map((t) => [t.id, t]));
  const chosen: TemplateSpec[] = [];
  const seen = new Map<number, number>();
  input.body.contracts.forEach((id, i) => {
    const path = at('contracts', i);
    const first = seen.get(id);
    if (first !== undefined) {
      errors.push(fieldError(path, `duplicates contracts[${first}]: contract ${id} is named twice`));
      return;
    }
    seen.set(id, i);
    const template = byId.get(id);
    // A template of another site reads exactly like one that does not exist.
    if (template === undefined || template.siteId !== input.site.id) {
      errors.push(fieldError(path, `no contract template ${id} on this site`));
    } else {
      const unusable = unusableForRequests(template);
      if (unusable === undefined) chosen.push(template);
      else errors.push(fieldError(path, unusable));
    }
  });
  return chosen;
};

const checkSigners = (
  input: CreationInput,
  errors: FieldError[],
): { signers: RequestSigner[]; siteSigners: SiteSigner[] } => {
  const signers: RequestSigner[] = [];
  const siteSigners: SiteSigner[] = [];
  const seen = new Map<string, number>();
  const withoutOrder = new Set(signersWithoutOrder(input.body.signers.map((s) => s.order)));
  input.body.signers.forEach((entry, i) => {
    const first = seen.get(entry.signer_id);
    if (first !== undefined) {
      errors.push(
        fieldError(
          `${at('signers', i)}.signer_id`,
          `duplicates signers[${first}].signer_id "${entry.signer_id}"`,
        ),
      );
      return;
    }
    seen.set(entry.signer_id, i);
    if (withoutOrder.has(i))
      errors.push(
        fieldError(
          `${at('signers', i)}.order`,
          'required: another signer has an order, so every signer needs one (equal numbers sign in parallel)',
        ),
      );
    const made = signerFromEntry(
      entry,
      input.storedContacts.get(entry.signer_id),
      input.signerRefs[i]!,
      input.site.id,
      at('signers', i),
    );
    errors.push(...made.errors);
    if (made.signer === undefined) return;
    siteSigners.push(made.siteSigner);
    signers.push(made.signer);
  });
  return { signers, siteSigners };
};

const checkRenderData = (
  input: CreationInput,
  contracts: readonly TemplateSpec[],
  errors: FieldError[],
): void => {
  const renderData = input.body.render_data;
  if (renderData !== undefined) errors.push(...renderDataProblems(renderData, contracts));
};

/**
 * What is wrong with `renderData` for a Request of `contracts`, at `render_data`: at create,
 * and when a draft's is replaced (ADR 3220).
 */
export const renderDataProblems = (
  renderData: Readonly<Record<string, string>>,
  contracts: readonly TemplateSpec[],
): FieldError[] => {
  const keys = Object.keys(renderData);
  const pdf = contracts.find((c) => c.kind === 'pdf');
  if (pdf !== undefined)
    return [
      fieldError(
        'render_data',
        `applies to HTML contracts only, and contract ${pdf.id} is a PDF: pre-fill a PDF with fields[].default_value instead`,
      ),
    ];
  if (keys.length > LIMITS.renderDataKeys)
    return [fieldError('render_data', `must have at most ${LIMITS.renderDataKeys} keys`)];
  const tokens = new Set(contracts.flatMap((c) => c.tokens));
  return keys
    .filter((key) => !tokens.has(key))
    .map((key) =>
      fieldError(member('render_data', key), `"${key}" is not a token of the contracts of this Request`),
    );
};

/** What is wrong with `expiresAt` as a Request's expiry at `now`, at path `expires_at`: at create or change (ADR 3150). */
export const expiryProblems = (expiresAt: string, at: string): FieldError[] => {
  const ms = Date.parse(expiresAt);
  const now = Date.parse(at);
  if (ms <= now) return [fieldError('expires_at', 'must be in the future')];
  if (ms > now + MAX_EXPIRY_DAYS * 86_400_000)
    return [fieldError('expires_at', `must be at most ${MAX_EXPIRY_DAYS} days ahead`)];
  return [];
};

const checkExpiry = (input: CreationInput, errors: FieldError[]): void => {
  if (input.body.expires_at !== undefined) errors.push(...expiryProblems(input.body.expires_at, input.now));
};

/** Each copy goes to an address once (ADR 3230): a second entry of one is refused by its place. */
export const ccProblems = (cc: readonly string[]): FieldError[] => {
  const first = new Map<string, number>();
  return cc.flatMap((email, i) => {
    const seen = first.get(email);
    if (seen === undefined) first.set(email, i);
    return seen === undefined ? [] : [fieldError(at('cc', i), `repeats cc[${seen}]`)];
  });
};

const checkCc = (input: CreationInput, errors: FieldError[]): void => {
  errors.push(...ccProblems(input.body.cc ?? []));
};

/**
 * A new draft Request from a decoded create body. Every rule is checked and every
 * violation reported, each at the path of the offending input.
 */
export const createSignatureRequest = (input: CreationInput): E.Either<InvalidRequest, Creation> => {
  const errors: FieldError[] = [];
  const contracts = checkContracts(input, errors);
  const contractsOk = contracts.length === input.body.contracts.length;
  const { signers, siteSigners } = checkSigners(input, errors);
  // Field names and tokens can only be judged against the right contracts.
  const clash = contractsOk ? typeClash(contracts) : undefined;
  if (clash !== undefined)
    errors.push(
      fieldError(at('contracts', clash.index), clashProblem(clash, `contracts[${clash.otherIndex}]`)),
    );
  const fields = contractsOk ? checkFields(input.body.fields, contracts, signers, errors) : [];
  if (contractsOk) checkRenderData(input, contracts, errors);
  checkExpiry(input, errors);
  checkCc(input, errors);
  if (errors.length > 0) return E.left({ _tag: 'InvalidRequest', errors });

  const request: SignatureRequest = {
    id: input.id,
    creator: input.creator ?? null,
    siteId: input.site.id,
    siteName: input.site.name,
    siteLocale: input.site.default_locale ?? null,
    state: 'draft',
    contracts: contracts.map((c) => ({ id: c.id, name: c.name })),
    signers,
    fields,
    renderData: input.body.render_data ?? {},
    cc: input.body.cc ?? [],
    message: input.body.message ?? null,
    title: input.body.title ?? null,
    subject: input.body.subject ?? null,
    copiedFrom: input.copiedFrom ?? null,
    bulkSendId: input.bulkSendId ?? null,
    allowReassign: input.body.allow_reassign ?? false,
    redirectUrl: input.body.redirect_url ?? null,
    expiresAt: input.body.expires_at ?? null,
    createdAt: input.now,
    updatedAt: input.now,
    sentAt: null,
    cancelledAt: null,
    expiredAt: null,
    completedAt: null,
    declinedAt: null,
    lastRemindedAt: null,
    remindCount: 0,
    reminderIntervalDays: input.body.reminder_interval_days ?? null,
    nextReminderAt: null,
    testMode: input.body.test_mode ?? false,
  };
  return E.right({ request, siteSigners, events: [{ type: 'request.created' }] });
};
