import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WEB_CLIENT_HEADER, WEB_PEER_HEADER } from '@esign/web';

/** The address a call came from, for per-address limits and X-Forwarded-For. */
export type PeerOf = (req: IncomingMessage) => string;

export const socketPeer: PeerOf = (req) => req.socket.remoteAddress ?? 'unknown';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** An IPv4 or IPv6 address as Node writes a socket's: nothing else is taken from the header. */
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

/** A fresh secret per process: the web application and the gateway share this process. */
export const newWebCallerSecret = (): string => randomBytes(32).toString('base64url');

/**
 * The web application's calls reach this gateway over loopback, on behalf of a browser
 * (ADR 3010). Such a call names the browser's address in `x-esign-web-peer`, and the
 * gateway takes it as the call's peer only when the call comes from loopback and carries
 * this process's secret in `x-esign-web-client`. Every other call's peer is its socket's,
 * whatever headers it sends; the proxy forwards neither header.
 */
export const webCallerPeer = (secret: string): PeerOf => {
  const expected = Buffer.from(secret);
  return (req) => {
    const peer = socketPeer(req);
    const claimed = req.headers[WEB_CLIENT_HEADER];
    if (typeof claimed !== 'string' || !LOOPBACK.has(peer)) return peer;
    const given = Buffer.from(claimed);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return peer;
    const named = req.headers[WEB_PEER_HEADER];
    return typeof named === 'string' && ADDRESS.test(named) ? named : peer;
  };
};
