import type { RequestEvent, RequestSigner, SignatureRequest } from './request-model.js';

/**
 * Signing in order (ADR 2000). A Request whose signers carry an `order` is routed: the
 * signers of the lowest order still pending sign first (equal orders in parallel); when
 * all of them have signed, the next order's turn starts and its signers are told. A
 * Request without orders lets every signer sign at once, as before.
 */

/** Whether the Request is signed in order at all (all its signers have an order, or none). */
export const isOrdered = (request: Pick<SignatureRequest, 'signers'>): boolean =>
  request.signers.some((s) => s.order !== null);

/**
 * The order whose turn it is: the lowest order among signers who have not signed. Null
 * when the Request has no order, or when nobody is left to sign.
 */
export const currentOrder = (request: Pick<SignatureRequest, 'signers'>): number | null => {
  if (!isOrdered(request)) return null;
  const waiting = request.signers.filter((s) => s.state !== 'signed' && s.order !== null);
  return waiting.length === 0 ? null : Math.min(...waiting.map((s) => s.order!));
};

/**
 * When the current order's turn started, its signers told: when the last signer of the
 * orders before it signed. Null without an order, and in the first turn (it started with
 * the send).
 */
export const turnStartedAt = (request: Pick<SignatureRequest, 'signers'>): string | null => {
  const current = currentOrder(request);
  if (current === null) return null;
  const signed = request.signers.flatMap((s) =>
    s.order !== null && s.order < current && s.signedAt !== null ? [Date.parse(s.signedAt)] : [],
  );
  return signed.length === 0 ? null : new Date(Math.max(...signed)).toISOString();
};

/** Whether this signer's order has been reached (always, without an order); says nothing about the Request's state. */
export const orderReached = (request: Pick<SignatureRequest, 'signers'>, signer: RequestSigner): boolean => {
  const current = currentOrder(request);
  return current === null || signer.order === null || signer.order <= current;
};

/** Whether the signer may sign now: the Request is sent, it is their turn, and they have not acted. */
export const hasTurn = (request: SignatureRequest, signer: RequestSigner): boolean =>
  request.state === 'sent' && signer.state === 'pending' && orderReached(request, signer);

/** The signers to tell on send: all of them, or in order only the first order's. */
export const firstToNotify = (request: SignatureRequest): readonly RequestSigner[] => {
  const current = currentOrder(request);
  return current === null ? request.signers : request.signers.filter((s) => s.order === current);
};

/**
 * After a signature: when it ended the current order's turn and the Request is still
 * open, the next order's turn starts and its signers are to be told. Their links (the
 * same URLs) count their lifetime from now (ADR 1321): a long first turn must not leave
 * the next signers a link that has already run out.
 */
export const startNextTurn = (
  before: SignatureRequest,
  after: SignatureRequest,
  at: string,
): { request: SignatureRequest; events: RequestEvent[] } => {
  const was = currentOrder(before);
  const next = currentOrder(after);
  if (after.state !== 'sent' || was === null || next === null || next === was)
    return { request: after, events: [] };
  const signers = after.signers.map((s) =>
    s.order === next && s.state === 'pending' ? { ...s, link: { ...s.link, issuedAt: at } } : s,
  );
  return {
    request: { ...after, signers },
    events: [{ type: 'request.turn_started', order: next, notify: signers.filter((s) => s.order === next) }],
  };
};

/**
 * The create body's rule: an order on some signers but not on others is ambiguous. Answers
 * the indexes of the signers that lack one when another has one.
 */
export const signersWithoutOrder = (orders: readonly (number | undefined)[]): number[] =>
  orders.some((o) => o !== undefined) ? orders.flatMap((o, i) => (o === undefined ? [i] : [])) : [];
