import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { decodeBody, runWith, type AppContext } from '@esign/platform';
import type { Idempotency, Outcome } from '../../application/idempotency.js';
import { IDEMPOTENCY_HEADER, idempotencyOf } from './params.js';
import { problemOf } from './problems.js';

/** What every route of the requests API does with a use case's answer and its request. */

export const run = runWith(problemOf);

/** The parsed JSON body (the platform's body parser puts it there). */
export const requestBody = (ctx: AppContext): unknown => (ctx.request as { body?: unknown }).body;

export const bodyOf = decodeBody;

export const idempotencyFrom = (ctx: AppContext): Idempotency | undefined => {
  const result = idempotencyOf(
    ctx.get(IDEMPOTENCY_HEADER) || undefined,
    ctx.method,
    ctx.path,
    requestBody(ctx),
  );
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

const Created = t.type({ id: t.union([t.string, t.number]) });

/** Sends a use case's answer; `collection` makes it a 201 with the new resource's Location. */
export const answer = <A>(
  ctx: AppContext,
  status: number,
  outcome: Outcome<A>,
  collection?: string,
): void => {
  ctx.status = status;
  // A replayed answer is read back as stored, so the id is read from it the same way.
  const created = collection === undefined ? undefined : Created.decode(outcome.value);
  if (created !== undefined && E.isRight(created)) ctx.set('Location', `${collection}/${created.right.id}`);
  if (outcome.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.body = outcome.value;
};
