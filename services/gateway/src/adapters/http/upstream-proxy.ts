import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { errors as undiciErrors, type Dispatcher } from 'undici';
import { PRINCIPAL_HEADER } from '@esign/contracts';
import { WEB_CLIENT_HEADER, WEB_PEER_HEADER } from '@esign/web';
import type { Logger } from '@esign/platform';
import type { GatewayError } from '../../domain/gateway-error.js';
import type { Upstream } from '../../domain/route-table.js';
import { socketPeer, type PeerOf } from './web-caller.js';

export interface UpstreamTarget {
  /** A keep-alive pool to the upstream's origin. */
  readonly pool: Dispatcher;
  /** A path prefix when the service is mounted below its origin's root ('' otherwise). */
  readonly basePath: string;
}

export interface ProxyOptions {
  readonly upstreams: Readonly<Record<Upstream, UpstreamTarget>>;
  readonly bodyLimitBytes: number;
  /** The limit on a route that carries signers' files (ADR 3920). */
  readonly uploadLimitBytes?: number;
  /** Behind a trusted load balancer: extend its X-Forwarded-* instead of replacing them. */
  readonly trustProxy: boolean;
  /** The scheme clients use to reach us (PUBLIC_BASE_URL's), unless a trusted proxy says otherwise. */
  readonly publicProto: string;
  readonly logger: Logger;
  /** Who the socket's peer stands for: the browser behind the web application's calls (ADR 3010). */
  readonly peerOf?: PeerOf;
}

export interface ForwardCall {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly upstream: Upstream;
  /** The matched, checked path, forwarded byte for byte. */
  readonly path: string;
  readonly querystring: string;
  readonly requestId: string;
  /** The signed principal on authenticated routes. */
  readonly principal: string | undefined;
  /** Whether the route carries signers' files (ADR 3920), with its larger body limit. */
  readonly uploads?: boolean;
}

export type ForwardOutcome =
  | { readonly _tag: 'Answered' }
  | { readonly _tag: 'Refused'; readonly error: GatewayError }
  /** The client went away; there is no one left to answer. */
  | { readonly _tag: 'ClientGone' };

/**
 * Never forwarded: hop-by-hop fields (RFC 9110 §7.6.1), `Expect` (Node answers
 * 100-continue itself), and every field the gateway alone may set, so a client cannot
 * forge its principal, request id or forwarding chain.
 */
const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-length',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-real-ip',
  'x-request-id',
  PRINCIPAL_HEADER,
  WEB_CLIENT_HEADER,
  WEB_PEER_HEADER,
]);

const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'trailer',
  'x-request-id',
]);

const listedInConnection = (value: string | string[] | undefined): Set<string> | undefined => {
  // The usual values name no other field: skip the parsing on the hot path.
  if (value === undefined || value === 'keep-alive' || value === 'close') return undefined;
  const names = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((n) => n.trim().toLowerCase());
  return new Set(names.filter((n) => n !== '' && n !== 'close' && n !== 'keep-alive'));
};

/** Counts a streamed body and fails it the moment it passes the limit. */
class BodyLimit extends Transform {
  exceeded = false;
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      this.exceeded = true;
      done(new Error('request body over the limit'));
    } else done(null, chunk);
  }
}

const timedOut = (error: unknown): boolean => error instanceof undiciErrors.HeadersTimeoutError;

/**
 * Forwards a call over a keep-alive pool and streams both bodies through: nothing is
 * parsed or buffered here. A body over the limit is refused up front when its length
 * is declared, else the moment the count passes it. An upstream that refuses the
 * connection, drops it or does not answer in time becomes a 503, never a hang.
 */
export const upstreamProxy = (options: ProxyOptions) => {
  const forwardedHeaders = (call: ForwardCall, hasBody: boolean): Record<string, string> => {
    const incoming: IncomingHttpHeaders = call.req.headers;
    const listed = listedInConnection(incoming.connection);
    const headers: Record<string, string> = {};
    for (const name in incoming) {
      const value = incoming[name];
      if (value === undefined || DROPPED_REQUEST_HEADERS.has(name) || listed?.has(name)) continue;
      // Only auth reads bearer tokens itself; the requests service trusts the principal alone.
      if (name === 'authorization' && call.upstream !== 'auth') continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (hasBody && incoming['content-length'] !== undefined)
      headers['content-length'] = incoming['content-length'];
    const peer = (options.peerOf ?? socketPeer)(call.req);
    const priorFor = options.trustProxy ? incoming['x-forwarded-for'] : undefined;
    headers['x-forwarded-for'] = priorFor === undefined ? peer : `${String(priorFor)}, ${peer}`;
    const priorProto = options.trustProxy ? incoming['x-forwarded-proto'] : undefined;
    headers['x-forwarded-proto'] = priorProto === undefined ? options.publicProto : String(priorProto);
    const host = (options.trustProxy ? incoming['x-forwarded-host'] : undefined) ?? incoming.host;
    if (host !== undefined) headers['x-forwarded-host'] = String(host);
    headers['x-request-id'] = call.requestId;
    if (call.principal !== undefined) headers[PRINCIPAL_HEADER] = call.principal;
    return headers;
  };

  const responseHeaders = (incoming: Record<string, string | string[] | undefined>) => {
    const listed = listedInConnection(incoming.connection);
    const headers: Record<string, string | string[]> = {};
    for (const name in incoming) {
      const value = incoming[name];
      if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name) || listed?.has(name)) continue;
      headers[name] = value;
    }
    return headers;
  };

  const forward = async (call: ForwardCall): Promise<ForwardOutcome> => {
    const { req, res } = call;
    const limitBytes =
      call.uploads === true ? (options.uploadLimitBytes ?? options.bodyLimitBytes) : options.bodyLimitBytes;
    const declared = req.headers['content-length'];
    const declaredLength = declared === undefined ? undefined : Number(declared);
    if (declaredLength !== undefined && declaredLength > limitBytes) {
      return { _tag: 'Refused', error: { _tag: 'PayloadTooLarge', limitBytes } };
    }
    const chunked = declaredLength === undefined && req.headers['transfer-encoding'] !== undefined;
    const hasBody = chunked || (declaredLength ?? 0) > 0;
    let limiter: BodyLimit | undefined;
    let body: NodeJS.ReadableStream | undefined;
    if (chunked) {
      limiter = new BodyLimit(limitBytes);
      req.pipe(limiter);
      req.once('error', (error) => limiter?.destroy(error));
      body = limiter;
    } else if (hasBody) body = req;

    const target = options.upstreams[call.upstream];
    try {
      // undici writes the answer straight into the client's response (backpressure
      // included), ends it when the upstream is done, and aborts the upstream call if
      // the client goes away. No AbortSignal per call: a client that leaves before the
      // upstream answers frees its pool slot when the answer (or the timeout) comes.
      await target.pool.stream(
        {
          method: req.method as Dispatcher.HttpMethod,
          path: `${target.basePath}${call.path}${call.querystring === '' ? '' : `?${call.querystring}`}`,
          headers: forwardedHeaders(call, hasBody),
          body: body as Dispatcher.DispatchOptions['body'],
        },
        ({ statusCode, headers }) => {
          res.writeHead(statusCode, responseHeaders(headers));
          return res;
        },
      );
    } catch (error) {
      if (res.headersSent) {
        // Too late for a problem: the client sees the response cut short.
        // Only the upstream's failures are worth a line; a client hanging up is not.
        if (error instanceof undiciErrors.UndiciError) {
          options.logger.warn({ err: error, upstream: call.upstream }, 'response stream failed');
        }
        return { _tag: 'Answered' };
      }
      if (limiter?.exceeded === true) {
        return { _tag: 'Refused', error: { _tag: 'PayloadTooLarge', limitBytes } };
      }
      // Not `req.destroyed`: a request whose body has been read is destroyed too.
      if (res.destroyed || res.socket === null || res.socket.destroyed) return { _tag: 'ClientGone' };
      options.logger.warn({ err: error, upstream: call.upstream }, 'upstream failed');
      return {
        _tag: 'Refused',
        error: timedOut(error)
          ? { _tag: 'UpstreamTimeout', upstream: call.upstream }
          : { _tag: 'UpstreamUnavailable', upstream: call.upstream },
      };
    }
    return { _tag: 'Answered' };
  };

  return { forward };
};

export type UpstreamProxy = ReturnType<typeof upstreamProxy>;
