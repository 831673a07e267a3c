import { problem } from '@esign/contracts';
import {
  forbidden,
  HttpProblem,
  invalidBody,
  payloadTooLarge,
  readRawBody,
  type AppState,
  type Logger,
} from '@esign/platform';
import type Router from '@koa/router';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { ProviderReport, ReportResult } from '../../application/record-delivery-report.js';

/** Where the gateway forwards Twilio's status callbacks for SMS (ADR 3880). */
export const SMS_STATUS_PATH = '/callbacks/twilio/sms-status';

/** A status callback is a short form; anything longer is not one. */
const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Twilio's error codes for a message it accepted and then could not deliver, in words
 * (twilio.com/docs/api/errors). `recipient`: the reason is about this recipient's number,
 * which the sender may be told (ADR 3180); the others are about our account or unknown.
 */
const DELIVERY_ERRORS: Readonly<Record<string, { readonly words: string; readonly recipient?: true }>> = {
  '30001': { words: 'queue overflow' },
  '30002': { words: 'account suspended' },
  '30003': { words: 'unreachable destination handset', recipient: true },
  '30004': { words: 'message blocked', recipient: true },
  '30005': { words: 'unknown destination handset', recipient: true },
  '30006': { words: 'landline or unreachable carrier', recipient: true },
  '30007': { words: 'message filtered by the carrier' },
  '30008': { words: 'unknown error' },
  '30034': { words: 'message from an unregistered number' },
};

/** The report a status callback's form makes, or why it is not one. */
export const reportOf = (params: Readonly<Record<string, string>>): ProviderReport | string => {
  const sid = params.MessageSid ?? params.SmsSid;
  if (sid === undefined || !/^(SM|MM)[0-9a-f]{32}$/i.test(sid)) return 'MessageSid';
  const status = params.MessageStatus ?? params.SmsStatus;
  if (status === undefined) return 'MessageStatus';
  if (status !== 'undelivered' && status !== 'failed') return { providerMessageId: sid, channel: 'sms' };
  const code = params.ErrorCode;
  const known = code === undefined ? undefined : DELIVERY_ERRORS[code];
  const words = known === undefined ? '' : ` (${known.words})`;
  return {
    providerMessageId: sid,
    channel: 'sms',
    failure: {
      error: `Twilio ${status}${code === undefined ? '' : `: error ${code}${words}`}`,
      permanent: known?.recipient === true,
    },
  };
};

const tooLarge = () => payloadTooLarge('Not a status callback.');

/**
 * `POST /callbacks/twilio/sms-status`, public through the gateway: Twilio's report on an SMS
 * it accepted (ADR 3880), checked by its `X-Twilio-Signature` (HMAC-SHA1 with our auth
 * token over `callbackUrl`, the address Twilio was given, and the form) with the SDK's own
 * `validateRequest`. Answers 204 once recorded, or when there is nothing to record (Twilio
 * needs no more), 403 to a form not signed with our token, 4xx problem+json to a form that
 * is not a status callback. An outage answers 503, and Twilio's retry sends it again.
 */
export const mountSmsStatusCallback = (
  router: Router<AppState>,
  options: {
    readonly authToken: string;
    readonly callbackUrl: string;
    readonly record: (report: ProviderReport) => TE.TaskEither<never, ReportResult>;
    readonly logger: Logger;
  },
): void => {
  const log = options.logger.child({ component: 'sms-status-callback' });
  router.post(SMS_STATUS_PATH, async (ctx) => {
    if (ctx.request.is('application/x-www-form-urlencoded') === false)
      throw new HttpProblem(
        problem({
          status: 415,
          code: 'unsupported_media_type',
          title: 'Unsupported media type',
          detail: 'A status callback is a form: Content-Type application/x-www-form-urlencoded.',
        }),
      );
    const params = Object.fromEntries(
      new URLSearchParams((await readRawBody(ctx.req, BODY_LIMIT_BYTES, tooLarge)).toString('utf8')),
    );
    // The SDK is loaded by the first SMS sent, which comes before any report on it (ADR 2740).
    const { validateRequest } = (await import('twilio')).default;
    if (!validateRequest(options.authToken, ctx.get('x-twilio-signature'), options.callbackUrl, params))
      throw forbidden('The form is not signed with this account’s auth token.', 'signature_invalid');
    const report = reportOf(params);
    if (typeof report === 'string')
      throw invalidBody([
        { path: report, message: report === 'MessageSid' ? 'must be a message SID' : 'required' },
      ]);
    const result = await TE.toUnion(options.record(report))();
    if (result !== 'not-a-failure')
      log.info(
        { message_sid: report.providerMessageId, status: params.MessageStatus, result },
        result === 'recorded'
          ? 'SMS undelivered after acceptance'
          : 'report on a message not found delivered',
      );
    ctx.status = 204;
  });
};
