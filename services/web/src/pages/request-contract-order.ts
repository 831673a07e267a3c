import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { problem, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { postButton } from '../table.js';

/**
 * A draft's contracts put in a new order on its page (ADR 3310): each contract's **Move up**
 * and **Move down** swap it with its neighbour, in one
 * `PUT /v1.1/requests/:id/contracts` `{ contract_ids }` of the whole order (the route:
 * `request-draft-contract-routes.ts`). The order is the one signers read the contracts in.
 */

export type Direction = 'up' | 'down';

/** A direction as posted, or undefined. */
export const directionOf = (text: string | undefined): Direction | undefined =>
  text === 'up' || text === 'down' ? text : undefined;

/** `order` with `id` swapped with the contract above (`up`) or below it; undefined at that end or when absent. */
export const swapped = (order: readonly number[], id: number, direction: Direction): number[] | undefined => {
  const i = order.indexOf(id);
  const j = direction === 'up' ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= order.length) return undefined;
  const next = [...order];
  next[i] = order[j]!;
  next[j] = id;
  return next;
};

const same = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** The order the page showed, as its form carried it (`1,2,3`), or undefined. */
export const shownOrderOf = (text: string | undefined): number[] | undefined => {
  const ids = (text ?? '').split(',').map((id) => (/^[1-9]\d{0,9}$/.test(id) ? Number(id) : NaN));
  return ids.length > 0 && ids.every((id) => Number.isInteger(id)) ? ids : undefined;
};

/**
 * The order to put: the draft's order as read now with the move made. When the order read
 * is already the page's order with this move made (the same button sent twice, with the
 * same Idempotency-Key), that order again, so the API answers as it did the first time
 * instead of moving the contract twice. Undefined when the move cannot be made now (the
 * contract is no longer on the draft, or already first or last).
 */
export const orderToPut = (
  current: readonly number[],
  shown: readonly number[] | undefined,
  id: number,
  direction: Direction,
): number[] | undefined => {
  const again = shown === undefined ? undefined : swapped(shown, id, direction);
  return again !== undefined && same(current, again) ? again : swapped(current, id, direction);
};

/** The refusal shown when the draft changed since its page was shown, so the move cannot be made. */
export const cannotMove = (listed: boolean, direction: Direction): ApiProblem =>
  problem({
    status: 409,
    code: 'request_changed',
    title: 'The draft changed',
    detail: listed
      ? `It is ${direction === 'up' ? 'first' : 'last'} already.`
      : 'It is no longer on this draft: the draft changed since its page was shown.',
  });

/** Where the redirect after a move says what it did: the contract, and its place (from 1) now. */
export const movedDone = (direction: Direction, contractId: number, order: readonly number[]): string =>
  `?done=contract-moved-${direction}&contract_id=${String(contractId)}&position=${String(order.indexOf(contractId) + 1)}`;

/** Each contract's Move up (not the first's) and Move down (not the last's), with a key each. */
export const moveButtons = (base: string, csrf: string, r: RequestView, id: number, name: string): Html[] => {
  const at = r.contracts.indexOf(id);
  const button = (direction: Direction) =>
    postButton({
      action: `${base}/requests/${r.id}/move-contract`,
      csrf: csrfField(csrf),
      label: `Move ${direction}`,
      ariaLabel: `Move ${direction}: ${name}`,
      kind: 'secondary',
      hidden: {
        contract_id: String(id),
        direction,
        order: r.contracts.join(','),
        idempotency_key: randomUUID(),
      },
    });
  return [
    ...(at > 0 ? [button('up')] : []),
    ...(at >= 0 && at < r.contracts.length - 1 ? [button('down')] : []),
  ];
};

/**
 * What a move did, from the redirect's `?done=contract-moved-up|down`, `contract_id` and
 * `position`, told only when the draft shown has the contract at that place: a link of
 * anyone's making cannot claim a move the draft does not show.
 */
export const movedNotice = (
  ctx: Koa.Context,
  r: RequestView,
  nameOf: (id: number) => string,
  id: number,
): Html | '' => {
  const { done, position } = ctx.query;
  const direction = done === 'contract-moved-up' ? 'up' : done === 'contract-moved-down' ? 'down' : undefined;
  if (direction === undefined || typeof position !== 'string') return '';
  const at = r.contracts.indexOf(id);
  if (at < 0 || String(at + 1) !== position) return '';
  return html`<p class="success" role="status">
    ${nameOf(id)} moved ${direction}: it is now contract ${String(at + 1)} of ${String(r.contracts.length)},
    in the order signers read them.
  </p>`;
};

/** A refused move's field errors (`contract_ids`, `contract_ids[i]`) in words, since no field shows them. */
export const moveRefusal = (refused: ApiProblem, outcome: string): ApiProblem => {
  const said = refused.detail ?? refused.title;
  return {
    ...refused,
    detail: `${said}${/[.!?]$/.test(said) ? '' : '.'} ${outcome}`,
    ...(refused.errors === undefined
      ? {}
      : {
          errors: refused.errors.map((e) => ({
            path: /^contract_ids(\[\d+\])?$/.test(e.path) ? 'Contract order' : e.path,
            message: e.message,
          })),
        }),
  };
};
