import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who the web application calls the API for (ADR 3010). It calls the gateway's own
 * address over loopback, so without this every visitor would reach the API as one
 * client, 127.0.0.1: one anonymous rate limit for every sign-in and verify page, and a
 * password lock-out that a guesser on the web form would impose on its victim. The
 * gateway believes these headers only on loopback and only with its own secret.
 */
export const WEB_CLIENT_HEADER = 'x-esign-web-client';
/** The browser's socket address, as the gateway saw it on the page's request. */
export const WEB_PEER_HEADER = 'x-esign-web-peer';

/**
 * What the gateway saw of the browser's request: its peer, any X-Forwarded-For it carried,
 * and its `User-Agent`, so that a session begun on the sign-in form records the browser
 * (ADR 3100) rather than the web application's own fetch.
 */
export interface Caller {
  readonly peer: string;
  readonly forwardedFor: string | undefined;
  readonly userAgent: string | undefined;
}

const current = new AsyncLocalStorage<Caller>();

/** Runs one page's work with its browser as the caller of every API call made meanwhile. */
export const asCaller = <A>(caller: Caller, work: () => Promise<A>): Promise<A> => current.run(caller, work);

/**
 * The headers that name the browser to the gateway, and its `User-Agent` for auth to
 * record; none outside a page's work or without a secret.
 */
export const callerHeaders = (secret: string | undefined): Record<string, string> => {
  const caller = current.getStore();
  if (secret === undefined || caller === undefined) return {};
  return {
    [WEB_CLIENT_HEADER]: secret,
    [WEB_PEER_HEADER]: caller.peer,
    ...(caller.forwardedFor === undefined ? {} : { 'x-forwarded-for': caller.forwardedFor }),
    ...(caller.userAgent === undefined ? {} : { 'user-agent': caller.userAgent }),
  };
};
