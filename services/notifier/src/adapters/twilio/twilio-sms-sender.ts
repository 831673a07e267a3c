import * as TE from 'fp-ts/lib/TaskEither.js';
import twilio from 'twilio';
import type { SendFailure } from '../../domain/delivery.js';
import type { SmsSender } from '../../ports/sms-sender.js';

type RequestOptions = Parameters<InstanceType<typeof twilio.RequestClient>['request']>[0];

/** Where the SDK sends every call; it knows no other host for the Messages API. */
const TWILIO_API = 'https://api.twilio.com';

/**
 * The SDK's own HTTP client (auth, form encoding, error shape unchanged), sending to
 * `baseUrl` instead of api.twilio.com. The SDK's `edge`/`region` settings only rewrite
 * the host name within twilio.com, so an injected `httpClient` is its documented hook
 * for reaching a Twilio-compatible endpoint (a regional proxy, a test double).
 */
export class BaseUrlRequestClient extends twilio.RequestClient {
  private readonly base: URL;

  constructor(baseUrl: string, options: ConstructorParameters<typeof twilio.RequestClient>[0] = {}) {
    super(options);
    this.base = new URL(baseUrl);
  }

  override request<TData>(opts: RequestOptions & { data?: TData }) {
    const original = new URL(opts.uri);
    const target = new URL(this.base.href);
    target.pathname = `${this.base.pathname.replace(/\/+$/, '')}${original.pathname}`;
    target.search = original.search;
    return super.request<TData>({ ...opts, uri: target.href });
  }
}

interface TwilioError {
  readonly status?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
}

/**
 * Twilio answers 400 for what is wrong with this message (21211 invalid To, 21614 not
 * a mobile number, 21610 unsubscribed, 21408 region not enabled…): retrying cannot
 * help. 429 and 5xx are load or outage; 401/403/404 are our own credentials or account
 * and come right once an operator fixes them; no answer at all is an outage. Those retry.
 */
export const classifyTwilioError = (error: unknown): SendFailure => {
  if (error instanceof twilio.RestException) {
    const e = error as TwilioError;
    const status = typeof e.status === 'number' ? e.status : 0;
    const code = typeof e.code === 'number' ? ` error ${e.code}` : '';
    const text = `Twilio ${status}${code}: ${typeof e.message === 'string' ? e.message : 'request failed'}`;
    const transient = status === 429 || status >= 500 || [401, 403, 404].includes(status) || status === 0;
    return { _tag: transient ? 'Transient' : 'Permanent', error: text };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { _tag: 'Transient', error: `Twilio unreachable: ${text}` };
};

export interface TwilioSmsSenderOptions {
  readonly accountSid: string;
  readonly authToken: string;
  /** A sender number in E.164, or a Messaging Service SID (`MG…`). */
  readonly from: string;
  /** `https://api.twilio.com` unless pointed at a Twilio-compatible endpoint. */
  readonly apiBaseUrl: string;
  readonly timeoutMs?: number;
  /** Where Twilio reports what became of each SMS (ADR 3880); unset, no reports. */
  readonly statusCallback?: string;
}

/** SMS through Twilio's Messages API with the official SDK. */
export const twilioSmsSender = (options: TwilioSmsSenderOptions): SmsSender => {
  const httpClient =
    options.apiBaseUrl.replace(/\/+$/, '') === TWILIO_API
      ? new twilio.RequestClient({ timeout: options.timeoutMs ?? 15_000, keepAlive: true })
      : new BaseUrlRequestClient(options.apiBaseUrl, {
          timeout: options.timeoutMs ?? 15_000,
          keepAlive: true,
        });
  // Retries are ours (back-off through the retry queues); the SDK's own 429 retry stays off.
  const client = twilio(options.accountSid, options.authToken, { httpClient, autoRetry: false });
  const sender = {
    ...(options.from.startsWith('MG') ? { messagingServiceSid: options.from } : { from: options.from }),
    ...(options.statusCallback === undefined ? {} : { statusCallback: options.statusCallback }),
  };
  return {
    send: (message) =>
      TE.tryCatch(async () => {
        const created = await client.messages.create({ to: message.to, body: message.body, ...sender });
        return { providerMessageId: created.sid };
      }, classifyTwilioError),
  };
};
