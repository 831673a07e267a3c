import type { Contact } from './signer.js';
import * as E from 'fp-ts/lib/Either.js';
import { fitsFormat, formatLength } from '@esign/contracts';
import {
  fitsValidation,
  formatProblem,
  isCalendarDate,
  outsideBounds,
  VALIDATION_PROBLEM,
} from './field-value-rules.js';
import { answerOf, isTicked, recordedAnswer, type Answered } from './answers.js';
import { conditionsOf, isAsked } from './field-conditions.js';
import { isRequired } from './template-fields.js';
import { kindOf, type TypedField } from './document.js';
import type { RequestSigner } from './signature-request.js';
import type { AuthMethod } from './signer-authentication.js';

export type FieldValue = string | boolean;

/** What one signer did, for the audit trail and the executed document. */
export interface SignerAct {
  readonly signerRef: string;
  readonly signerId: string;
  /**
   * The signer's contact details when they acted (those the Request was sent to): the
   * audit trail keeps them whatever the site later stores for the signer.
   */
  readonly contact: Contact;
  readonly kind: 'signed' | 'declined';
  readonly at: string;
  readonly ip: string;
  readonly userAgent: string;
  /** SHA-256 (hex) of the canonical document shown (`canonicalDocument`). */
  readonly documentSha256: string;
  /** The name the signer typed as their signature; null for a decline. */
  readonly typedName: string | null;
  /** A PNG the signer drew, when they did. */
  readonly drawnSignature: Uint8Array | null;
  /** The values the signer entered, by field name (signature fields are the signature itself). */
  readonly values: Readonly<Record<string, FieldValue>>;
  /** Why they declined; null for a signature. */
  readonly reason: string | null;
  /** How they proved who they were, and when the check passed; null without a check (ADR 2001). */
  readonly authentication: { readonly method: AuthMethod; readonly passedAt: string } | null;
}

/**
 * What the values a signer entered are read from (ADRs 3730, 3780): the part of their act
 * that says whether and when they signed, their typed name and their values.
 */
export type EnteredAct = Pick<SignerAct, 'kind' | 'signerId' | 'at' | 'typedName' | 'values'>;

export const LIMITS = { typedName: 200, reason: 1000, note: 1000, text: 10_000, initials: 12 } as const;

/**
 * A signer's initials (ADR 3900): one to four letters of any alphabet, each perhaps with
 * its accents and a period after it, perhaps joined by hyphens: JQC, J.Q.C., É.-L.
 */
const INITIALS = /^\p{L}\p{M}*\.?(?:-?\p{L}\p{M}*\.?){0,3}$/u;

/** Where a problem is: a field by its index, or one of the signature's own inputs. */
export type ProblemTarget =
  | { readonly _tag: 'Field'; readonly index: number }
  | { readonly _tag: 'TypedName' }
  /** The initials a signer with `initials` fields types beside their name (ADR 3900). */
  | { readonly _tag: 'Initials' }
  | { readonly _tag: 'Consent' }
  | { readonly _tag: 'Reason' }
  /** The address of whom a signer asks to sign in their place (ADR 3560). */
  | { readonly _tag: 'ReassignEmail' }
  /** The note they write to them (ADR 3630). */
  | { readonly _tag: 'ReassignNote' };

export interface SubmissionProblem {
  readonly target: ProblemTarget;
  readonly message: string;
}

/**
 * The fields this signer fills in on the page: those assigned to them, except signature
 * fields, the date they sign on (ADR 3570) and their full name (ADR 3910), which nobody
 * types, and their initials, typed once (ADR 3900).
 */
export const fieldsToFill = (fields: readonly TypedField[], signer: RequestSigner): TypedField[] =>
  fields.filter(
    (f) =>
      f.assignedTo === signer.signerId &&
      kindOf(f) !== 'signature' &&
      kindOf(f) !== 'date_signed' &&
      kindOf(f) !== 'initials' &&
      kindOf(f) !== 'full_name',
  );

/** This signer's `initials` fields (ADR 3900): one input beside their name fills them all. */
export const initialsFields = (fields: readonly TypedField[], signer: RequestSigner): TypedField[] =>
  fields.filter((f) => f.assignedTo === signer.signerId && kindOf(f) === 'initials');

/** The initials typed, trimmed and checked (ADR 3900), or why they cannot be kept. */
const checkInitials = (typed: string | undefined): E.Either<string, string> => {
  const initials = (typed ?? '').trim();
  if (initials === '') return E.left('type your initials');
  return [...initials].length <= LIMITS.initials && INITIALS.test(initials)
    ? E.right(initials)
    : E.left('must be your initials: up to 4 letters, like J.Q.C.');
};

/**
 * This signer's fields the service fills in when they sign, of one kind: `date_signed` (ADR
 * 3570) or `full_name` (ADR 3910). The page says what they will hold.
 */
export const filledAtSigning = (
  fields: readonly TypedField[],
  signer: RequestSigner,
  kind: 'date_signed' | 'full_name',
): TypedField[] => fields.filter((f) => f.assignedTo === signer.signerId && kindOf(f) === kind);

// Single-line inputs: no control characters at all; a reason may span lines.
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The most characters a text field's value may have: the smallest limit of its definitions. */
export const textLimit = (field: TypedField): number =>
  Math.min(
    LIMITS.text,
    ...field.definitions.flatMap((d) => (d.type === 'text' && d.maxLength !== null ? [d.maxLength] : [])),
    // A value written as a format (ADR 3870) has exactly its length.
    ...field.definitions.flatMap((d) =>
      d.type === 'text' && d.format !== undefined ? [formatLength(d.format)] : [],
    ),
  );

/** The fewest characters a filled-in text field's value may have: the largest minimum of its definitions (ADR 3660). */
export const textMinimum = (field: TypedField): number =>
  Math.max(
    0,
    ...field.definitions.flatMap((d) =>
      d.type === 'text' && d.minLength !== undefined ? [d.minLength] : [],
    ),
  );

/**
 * A form's answer for one field, checked against every definition of its name. A field any
 * definition requires must be filled in or ticked; one left empty that none requires is
 * kept empty (ADR 3610), not given back its pre-filled value.
 */
const checkField = (
  field: TypedField,
  raw: string | undefined,
  today: string | undefined,
): E.Either<string, FieldValue> => {
  const required = field.definitions.some(isRequired);
  switch (kindOf(field)) {
    case 'checkbox':
      if (raw === undefined || raw === '') return required ? E.left('must be ticked') : E.right(false);
      return isTicked(raw) ? E.right(true) : E.left('must be ticked or left empty');
    case 'date': {
      const value = (raw ?? '').trim();
      if (value === '') return required ? E.left('is required') : E.right('');
      if (!isCalendarDate(value)) return E.left('must be a date, like 2030-01-31');
      const outside = outsideBounds(field.definitions, value, today);
      return outside === undefined ? E.right(value) : E.left(outside);
    }
    case 'attachment':
      // The name of the file kept for it (ADR 3920), which only the service sets.
      if (raw === undefined || raw === '') return required ? E.left('attach a file') : E.right('');
      return E.right(raw);
    case 'choice': {
      const value = raw ?? '';
      if (value === '') return required ? E.left('choose one of the options') : E.right('');
      const fits = field.definitions.every((d) => d.type === 'choice' && d.options.includes(value));
      return fits ? E.right(value) : E.left('choose one of the options shown');
    }
    default: {
      const value = (raw ?? '').trim();
      if (value === '') return required ? E.left('is required') : E.right('');
      if (CONTROL.test(value)) return E.left('must be plain text on one line');
      // A format (ADR 3870) says more than a length would: its problem comes first.
      const formatted = field.definitions.find(
        (d) => d.type === 'text' && d.format !== undefined && !fitsFormat(d.format, value),
      );
      if (formatted?.type === 'text' && formatted.format !== undefined)
        return E.left(formatProblem(formatted.format));
      const max = textLimit(field);
      if ([...value].length > max) return E.left(`must be at most ${max} characters`);
      const min = textMinimum(field);
      if ([...value].length < min) return E.left(`must be at least ${min} characters`);
      if (field.definitions.some((d) => d.type !== 'text')) return E.left('cannot be filled in here');
      // Every definition that asks for a kind of value (ADR 3600) must be satisfied.
      const unfit = field.definitions.find(
        (d) => d.type === 'text' && d.validation !== undefined && !fitsValidation(d.validation, value),
      );
      if (unfit?.type === 'text' && unfit.validation !== undefined)
        return E.left(VALIDATION_PROBLEM[unfit.validation]);
      return E.right(value);
    }
  }
};

/**
 * The signer's submission, checked whole so every problem is shown at once: each field
 * assigned to them (text required and within its length, a checkbox ticked or not, a
 * choice one of its options), the typed name (their signature) and their consent.
 */
export const checkSignature = (
  fields: readonly TypedField[],
  form: {
    readonly values: ReadonlyMap<number, string>;
    readonly typedName: string | undefined;
    readonly consent: boolean;
    /** The day of the signing act (UTC, YYYY-MM-DD): a date field's bound of `today` (ADR 3620). */
    readonly today?: string;
    /** The fields other signers have signed with, which conditions read too (ADR 3840). */
    readonly answered?: readonly Answered[];
    /** The signer's `initials` fields and what they typed for them (ADR 3900). */
    readonly initials?: { readonly fields: readonly TypedField[]; readonly typed: string | undefined };
    /** Why a file this form brought for an attachment field was not kept, by field index (ADR 3920). */
    readonly refusedUploads?: ReadonlyMap<number, string>;
  },
): E.Either<SubmissionProblem[], { values: Record<string, FieldValue>; typedName: string }> => {
  const problems: SubmissionProblem[] = [];
  const values: Record<string, FieldValue> = {};
  const answer = answerOf(
    fields,
    (field) => form.values.get(field.index),
    recordedAnswer(form.answered ?? []),
  );
  for (const field of fields) {
    // One not asked for (ADR 3710) is left empty, whatever was posted or pre-filled for it.
    if (!isAsked(conditionsOf(field.definitions), answer)) {
      values[field.name] = kindOf(field) === 'checkbox' ? false : '';
      continue;
    }
    const refused = form.refusedUploads?.get(field.index);
    const checked =
      refused === undefined ? checkField(field, form.values.get(field.index), form.today) : E.left(refused);
    if (E.isLeft(checked))
      problems.push({ target: { _tag: 'Field', index: field.index }, message: checked.left });
    else values[field.name] = checked.right;
  }
  // One value for every initials field of theirs, typed once (ADR 3900).
  const initialsFor = form.initials?.fields ?? [];
  if (initialsFor.length > 0) {
    const initials = checkInitials(form.initials?.typed);
    if (E.isLeft(initials)) problems.push({ target: { _tag: 'Initials' }, message: initials.left });
    else for (const field of initialsFor) values[field.name] = initials.right;
  }
  const typedName = (form.typedName ?? '').trim().replace(/\s+/g, ' ');
  if (typedName === '')
    problems.push({ target: { _tag: 'TypedName' }, message: 'type your full name to sign' });
  else if (CONTROL.test(typedName) || [...typedName].length > LIMITS.typedName)
    problems.push({
      target: { _tag: 'TypedName' },
      message: `must be your name, at most ${LIMITS.typedName} characters`,
    });
  if (!form.consent)
    problems.push({
      target: { _tag: 'Consent' },
      message: 'tick the box to agree to sign electronically',
    });
  return problems.length > 0 ? E.left(problems) : E.right({ values, typedName });
};

/**
 * Text a signer writes for someone else to read (a decline's reason, a note): plain text
 * that may span lines, at most `limit` characters; its line breaks as `\n`.
 */
export const checkWritten = (
  text: string,
  target: ProblemTarget,
  limit: number,
): E.Either<SubmissionProblem[], string> => {
  const problem = (message: string) => E.left([{ target, message }]);
  if (CONTROL_BUT_LINES.test(text)) return problem('must be plain text');
  if ([...text].length > limit) return problem(`must be at most ${limit} characters`);
  return E.right(text.replace(/\r\n?/g, '\n'));
};

/** A decline must say why, briefly: the sender reads it. */
export const checkDeclineReason = (raw: string | undefined): E.Either<SubmissionProblem[], string> => {
  const reason = (raw ?? '').trim();
  if (reason === '')
    return E.left([{ target: { _tag: 'Reason' }, message: 'tell the sender why you decline' }]);
  return checkWritten(reason, { _tag: 'Reason' }, LIMITS.reason);
};

/**
 * Every field's value in the executed document: what its signer entered, else what was
 * pre-filled. A signature field's value is its signer's signature (shown, not stored here);
 * a `date_signed` field's, the date of their signing act; a `full_name` field's, the name
 * they typed to sign (ADR 3910).
 */
export const executedValue = (field: TypedField, acts: readonly EnteredAct[]): FieldValue | null => {
  const act = acts.find((a) => a.kind === 'signed' && a.signerId === field.assignedTo);
  // The date its signer signed on (ADR 3570): the audit entry's own time, as a UTC date.
  if (kindOf(field) === 'date_signed') return act === undefined ? null : act.at.slice(0, 10);
  if (kindOf(field) === 'full_name') return act?.typedName ?? null;
  if (act !== undefined && Object.hasOwn(act.values, field.name)) return act.values[field.name]!;
  return field.defaultValue;
};
