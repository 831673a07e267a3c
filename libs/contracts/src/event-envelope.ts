// The envelope every domain event travels in, and its `data` codec for the OpenAPI document.
import * as t from 'io-ts';
import { isUuid } from './ids.js';

const Uuid = new t.Type<string, string, unknown>(
  'Uuid',
  (u): u is string => typeof u === 'string' && isUuid(u),
  (u, c) => (typeof u === 'string' && isUuid(u) ? t.success(u) : t.failure(u, c, 'must be a UUID')),
  t.identity,
);

/**
 * The one envelope every event travels in; its `type` is also the AMQP routing key.
 * `test_mode: true` marks every event of a test-mode Request (issue #22): the notifier
 * keeps its messages instead of sending them, and webhooks carry the mark.
 */
export const envelope = <T extends string, D extends t.Mixed>(type: T, data: D) =>
  t.intersection(
    [
      t.type({
        id: Uuid,
        type: t.literal(type),
        occurred_at: t.string,
        site_id: t.number,
        aggregate_id: t.string,
        data,
      }),
      t.partial({ test_mode: t.literal(true) }),
    ],
    type,
  );

/** The codec of an envelope's `data` (what the OpenAPI document describes). */
export const dataCodecOf = <T extends string, D extends t.Mixed>(
  codec: ReturnType<typeof envelope<T, D>>,
): D => codec.types[0].props.data;

/**
 * The envelope of the events auth publishes about accounts, their users, apps and tokens
 * (ADR 3000 and on): the domain envelope without `site_id` or `test_mode`, since they belong
 * to no Site and never reach a webhook. Each event says whose id its `aggregate_id` is.
 */
export const accountEnvelope = <T extends string, D extends t.Mixed>(type: T, data: D) =>
  t.type({ id: Uuid, type: t.literal(type), occurred_at: t.string, aggregate_id: t.string, data }, type);
