import { problem } from '@esign/contracts';
import { HttpProblem, invalidBody, notFound } from '@esign/platform';
import type { AppError } from '../../application/errors.js';
import { missingErrors, sendRefusal, stateConflictDetail } from './problem-details.js';
import { SealUnavailable } from '../../ports/document-sealer.js';

const withExtensions = (
  init: Parameters<typeof problem>[0],
  extensions: Record<string, unknown>,
  headers: Record<string, string> = {},
): HttpProblem => new HttpProblem({ ...problem(init), ...extensions }, headers);

/** The one table from expected failures to HTTP answers. */
export const problemOf = (error: AppError): HttpProblem => {
  switch (error._tag) {
    case 'InvalidRequest':
    case 'InvalidTemplate':
      return invalidBody(error.errors);
    case 'NotFound':
      return notFound(`No such ${error.resource}.`);
    case 'TestModeOnlyToken':
      return new HttpProblem(
        problem({
          status: 403,
          code: 'test_mode_only_token',
          title: 'This token may use only test-mode Requests',
          ...(error.on === 'create'
            ? {
                detail:
                  'The access token is test-only: send "test_mode": true, or use a token that is not test-only.',
                errors: [{ path: 'test_mode', message: 'must be true: this access token is test-only' }],
              }
            : { detail: 'The access token is test-only, and this Request is not a test-mode Request.' }),
        }),
      );
    case 'StateConflict':
      return withExtensions(
        {
          status: 409,
          code: 'invalid_state',
          title: 'Conflict',
          detail: stateConflictDetail(error.action, error.state),
        },
        { state: error.state },
      );
    case 'TemplatePublished':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'template_published',
          title: 'Conflict',
          detail:
            'A published template never changes (Requests show what they were made with): create another one.',
        }),
      );
    case 'BulkSendCompleted':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'bulk_send_completed',
          title: 'Conflict',
          detail:
            'The bulk send completed: every row was settled, so nothing is left to cancel. Its Requests are cancelled with POST /v1.1/bulk_sends/{id}/cancel_requests.',
        }),
      );
    case 'BulkSendRunning':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'bulk_send_running',
          title: 'Conflict',
          detail:
            'The bulk send is still making its Requests: cancel it first (POST /v1.1/bulk_sends/{id}/cancel), then cancel its Requests once it completes.',
        }),
      );
    case 'TemplateIsHtml':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'template_is_html',
          title: 'Conflict',
          detail: 'An HTML template has no file: its text is the html of GET /v1.1/contracts/:id.',
        }),
      );
    case 'TemplateDraft':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'template_draft',
          title: 'Conflict',
          detail:
            error.action === 'archive'
              ? 'A draft template is not archived: delete it (DELETE /v1.1/contracts/:id), or publish it first.'
              : 'A draft template is never archived, so there is nothing to unarchive.',
        }),
      );
    case 'SignerInUse':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'signer_in_use',
          title: 'Conflict',
          detail: 'A Request of this Site names the signer, so it is kept with it.',
        }),
      );
    case 'RequestExpired':
      return withExtensions(
        {
          status: 409,
          code: 'request_expired',
          title: 'Conflict',
          detail: `The Request expired at ${error.expiresAt}.`,
        },
        { expires_at: error.expiresAt },
      );
    case 'SendPreconditionsFailed': {
      const unassigned = error.missing.flatMap((m) =>
        m._tag === 'UnassignedFields' ? m.fields.map((f) => f.name) : [],
      );
      return withExtensions(
        {
          status: 422,
          code: 'send_preconditions_failed',
          title: 'The Request cannot be sent',
          detail: sendRefusal(error.missing, unassigned),
          errors: missingErrors(error.missing),
        },
        { unassigned_fields: unassigned },
      );
    }
    case 'RemindTooSoon':
      return withExtensions(
        {
          status: 429,
          code: 'remind_too_soon',
          title: 'Too many reminders',
          detail: `This Request was notified recently; remind again in ${error.retryAfterSeconds} s.`,
        },
        { retry_after_seconds: error.retryAfterSeconds },
        { 'Retry-After': String(error.retryAfterSeconds) },
      );
    case 'RemindLimitReached':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'remind_limit_reached',
          title: 'Conflict',
          detail: `A Request can be reminded at most ${error.limit} times.`,
        }),
      );
    case 'NothingToRemind':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'nothing_to_remind',
          title: 'Conflict',
          detail: 'No signer who has yet to sign can be reached: none chose a channel with an address.',
        }),
      );
    case 'NotCompleted':
      return withExtensions(
        {
          status: 409,
          code: 'request_not_completed',
          title: 'Conflict',
          detail: `The executed document exists once every signer has signed; this Request is ${error.state}.`,
        },
        { state: error.state },
      );
    case 'SealingUnavailable':
      return new HttpProblem(
        problem({
          status: 503,
          code: 'executed_document_unavailable',
          title: 'Service Unavailable',
          detail:
            'Executed documents cannot be issued: no signing certificate is configured (PDF_SIGNING_*).',
        }),
      );
    case 'UnknownSigner':
      return notFound('No such signer.');
    case 'LastContract':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'last_contract',
          title: 'Conflict',
          detail: 'A Request has at least one contract: add another before removing this one.',
        }),
      );
    case 'UnknownContract':
      return notFound('No such contract on this Request.');
    case 'TemplatesChanged':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'request_changed',
          title: 'Conflict',
          detail:
            'The Request’s contracts changed while this call ran, again and again; nothing was done: retry.',
        }),
      );
    case 'LastSigner':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'last_signer',
          title: 'Conflict',
          detail: 'A Request has at least one signer: add another before removing this one.',
        }),
      );
    case 'SignerNotPending':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'invalid_state',
          title: 'Conflict',
          detail: `The signer has ${error.state}.`,
        }),
      );
    case 'NotYourTurn':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'invalid_state',
          title: 'Conflict',
          detail: `The signer's order ${error.order} comes after the current order ${error.currentOrder}.`,
        }),
      );
    case 'IdempotencyKeyInFlight':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'idempotency_key_in_flight',
          title: 'Conflict',
          detail: 'A call with this Idempotency-Key is still in progress; retry once it has finished.',
        }),
        { 'Retry-After': '1' },
      );
    case 'IdempotencyKeyReused':
      return new HttpProblem(
        problem({
          status: 422,
          code: 'idempotency_key_reused',
          title: 'Idempotency-Key reused',
          detail:
            'This Idempotency-Key was used for a different call (another body or endpoint); use a new key.',
        }),
      );
  }
};

/**
 * A seal that cannot be made now (a time-stamp authority's outage, a certificate out of
 * date: the seal rejects with it, ADR 2100) as the 503 that says why; any other rejection
 * goes on to the platform's error handler.
 */
export const sealOutage = (error: unknown): never => {
  if (error instanceof SealUnavailable)
    throw new HttpProblem(
      problem({
        status: 503,
        code: 'executed_document_unavailable',
        title: 'Service Unavailable',
        detail: `The executed document cannot be sealed right now: ${error.message}. Retry later.`,
      }),
      { 'Retry-After': '30' },
    );
  throw error;
};
