import type { LookupAddress, LookupOptions } from 'node:dns';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { Client } from 'undici';
import { excerptOf, type AttemptResult } from '../../domain/webhook-delivery.js';
import type { WebhookSender } from '../../ports/webhook-sender.js';
import type { DestinationPolicy, ResolvedAddress } from './destination-policy.js';

export interface UndiciWebhookSenderOptions {
  readonly policy: DestinationPolicy;
  /** TCP and TLS connection set-up. */
  readonly connectTimeoutMs: number;
  /** From the request sent to the status line, and between body chunks. */
  readonly responseTimeoutMs: number;
  /** Bytes of the answer's body kept for the deliveries log. */
  readonly excerptBytes?: number;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` that answers the address already checked, whatever the name: no second DNS query to rebind. */
const pinnedLookup =
  (target: ResolvedAddress) =>
  (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

const describeError = (error: unknown, options: UndiciWebhookSenderOptions): string => {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  const code =
    typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect within ${options.connectTimeoutMs} ms`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return `no answer within ${options.responseTimeoutMs} ms`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed before an answer';
    default: {
      const message = typeof e.message === 'string' ? e.message : String(error);
      return code === undefined ? message : `${code}: ${message}`;
    }
  }
};

/**
 * Deliveries over HTTP(S) with undici. Each one: the destination policy checks the URL
 * and resolves its host; a fresh connection is made to that very address (a pinned
 * `lookup`, TLS still verified against the host name); redirects are not followed (a
 * 3xx is an answer like any other); connect and response are time-boxed; only the first
 * KB of the answer is read, then the connection is dropped.
 */
export const undiciWebhookSender = (options: UndiciWebhookSenderOptions): WebhookSender => {
  const excerptBytes = options.excerptBytes ?? 1024;
  return {
    send: (request) =>
      TE.rightTask(async (): Promise<AttemptResult> => {
        const target = await options.policy.resolveTarget(request.url);
        if (E.isLeft(target)) return { _tag: 'Refused', reason: `the URL ${target.left.reason}` };
        const url = new URL(request.url);
        const started = performance.now();
        const elapsed = () => performance.now() - started;
        const client = new Client(url.origin, {
          connect: { lookup: pinnedLookup(target.right), timeout: options.connectTimeoutMs },
          headersTimeout: options.responseTimeoutMs,
          bodyTimeout: options.responseTimeoutMs,
          pipelining: 1,
        });
        try {
          const response = await client.request({
            method: 'POST',
            path: `${url.pathname}${url.search}`,
            headers: { ...request.headers },
            body: request.body,
            signal: AbortSignal.timeout(options.connectTimeoutMs + options.responseTimeoutMs),
          });
          const chunks: Buffer[] = [];
          let size = 0;
          try {
            for await (const chunk of response.body) {
              const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
              chunks.push(buffer);
              size += buffer.length;
              if (size >= excerptBytes) break;
            }
          } catch {
            // The status is what counts; a body cut short only shortens the excerpt.
          } finally {
            response.body.destroy();
          }
          return {
            _tag: 'Response',
            status: response.statusCode,
            excerpt: excerptOf(Buffer.concat(chunks), excerptBytes),
            durationMs: elapsed(),
          };
        } catch (error) {
          return { _tag: 'NoResponse', error: describeError(error, options), durationMs: elapsed() };
        } finally {
          await client.destroy().catch(() => undefined);
        }
      }),
  };
};
