import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking the part of Twilio's REST API the notifier uses:
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json with a form body, HTTP Basic
 * auth (Account SID, auth token), answers and error bodies shaped like Twilio's
 * (201 with a Message resource; 4xx/5xx with `{code, message, more_info, status}`).
 */
export interface SentSms {
  readonly sid: string;
  readonly to: string;
  readonly from: string | undefined;
  readonly messagingServiceSid: string | undefined;
  readonly body: string;
  readonly path: string;
  /** Where Twilio would report what became of it (`StatusCallback`), when it was given one. */
  readonly statusCallback: string | undefined;
}

/**
 * Twilio's request signature (twilio.com/docs/usage/security#validating-requests): the
 * address, then each form parameter's name and value in the names' order, HMAC-SHA1 with
 * the auth token, in base64. Written here from the documentation, so the notifier's check
 * (the SDK's) is tested against the algorithm rather than against itself.
 */
export const twilioSignature = (
  authToken: string,
  url: string,
  params: Readonly<Record<string, string>>,
): string =>
  createHmac('sha1', authToken)
    .update(
      Object.keys(params)
        .sort()
        .reduce((text, name) => text + name + params[name], url),
    )
    .digest('base64');

export interface TwilioApiDouble {
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  /** Messages answered 201, in order. */
  readonly sent: SentSms[];
  /** Every POST seen, accepted or not. */
  readonly requests: Array<{ readonly to: string | undefined; readonly status: number }>;
  /** Answers the next `times` requests with this status and Twilio error code. */
  failNext(times: number, status: number, code: number, message?: string): void;
  /** Answers every request to `to` with this status and error code. */
  refuse(to: string, status: number, code: number, message?: string): void;
  /**
   * Posts a status callback for the message `sid` to the address it was sent with, signed
   * as Twilio signs it (with `signedWith`, the auth token unless a test forges one), and
   * answers the status the notifier gave.
   */
  report(sid: string, status: string, errorCode?: string, signedWith?: string): Promise<number>;
  close(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const startTwilioApi = async (options: { pathPrefix?: string } = {}): Promise<TwilioApiDouble> => {
  const accountSid = `AC${hex(16)}`;
  const authToken = hex(16);
  const prefix = options.pathPrefix ?? '';
  const sent: SentSms[] = [];
  const requests: Array<{ to: string | undefined; status: number }> = [];
  const scripted: Array<{ status: number; code: number; message: string }> = [];
  const refusals = new Map<string, { status: number; code: number; message: string }>();

  const error = (res: ServerResponse, status: number, code: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }),
    );
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const match = new RegExp(`^${prefix}/2010-04-01/Accounts/([^/]+)/Messages\\.json$`).exec(path);
      if (req.method !== 'POST' || match === null) {
        return error(res, 404, 20404, `The requested resource ${path} was not found`);
      }
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected || match[1] !== accountSid) {
        return error(res, 401, 20003, 'Authenticate');
      }
      const form = new URLSearchParams(body);
      const to = form.get('To') ?? undefined;
      const answer = (status: number) => requests.push({ to, status });
      const next = scripted.shift();
      if (next !== undefined) {
        answer(next.status);
        return error(res, next.status, next.code, next.message);
      }
      const refusal = to === undefined ? undefined : refusals.get(to);
      if (refusal !== undefined) {
        answer(refusal.status);
        return error(res, refusal.status, refusal.code, refusal.message);
      }
      if (to === undefined) {
        answer(400);
        return error(res, 400, 21604, "A 'To' phone number is required.");
      }
      if (!/^\+[1-9]\d{6,14}$/.test(to)) {
        answer(400);
        return error(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      }
      const text = form.get('Body');
      if (text === null || text === '') {
        answer(400);
        return error(res, 400, 21602, 'Message body is required.');
      }
      const from = form.get('From') ?? undefined;
      const messagingServiceSid = form.get('MessagingServiceSid') ?? undefined;
      if (from === undefined && messagingServiceSid === undefined) {
        answer(400);
        return error(res, 400, 21603, "A 'From' phone number is required.");
      }
      const sid = `SM${hex(16)}`;
      const statusCallback = form.get('StatusCallback') ?? undefined;
      sent.push({ sid, to, from, messagingServiceSid, body: text, path, statusCallback });
      answer(201);
      const now = new Date().toUTCString().replace('GMT', '+0000');
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          account_sid: accountSid,
          api_version: '2010-04-01',
          body: text,
          date_created: now,
          date_sent: null,
          date_updated: now,
          direction: 'outbound-api',
          error_code: null,
          error_message: null,
          from: from ?? null,
          messaging_service_sid: messagingServiceSid ?? null,
          num_media: '0',
          num_segments: String(Math.ceil(text.length / 153) || 1),
          price: null,
          price_unit: 'USD',
          sid,
          status: messagingServiceSid !== undefined ? 'accepted' : 'queued',
          subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
          to,
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        }),
      );
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    accountSid,
    authToken,
    sent,
    requests,
    failNext: (times, status, code, message = 'Too Many Requests') => {
      for (let i = 0; i < times; i++) scripted.push({ status, code, message });
    },
    refuse: (to, status, code, message = 'Refused') => refusals.set(to, { status, code, message }),
    report: async (sid, status, errorCode, signedWith = authToken) => {
      const message = sent.find((m) => m.sid === sid);
      if (message?.statusCallback === undefined) throw new Error(`no status callback for ${sid}`);
      const params: Record<string, string> = {
        AccountSid: accountSid,
        MessageSid: sid,
        SmsSid: sid,
        MessageStatus: status,
        SmsStatus: status,
        To: message.to,
        ...(message.from === undefined ? {} : { From: message.from }),
        ApiVersion: '2010-04-01',
        ...(errorCode === undefined ? {} : { ErrorCode: errorCode }),
      };
      const answer = await fetch(message.statusCallback, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(signedWith, message.statusCallback, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      return answer.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
