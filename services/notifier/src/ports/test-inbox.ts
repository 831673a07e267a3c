import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { PageOf, PageRequest } from '@esign/contracts';
import type { Accepted, DeliveryKey } from '../domain/delivery.js';

/** A message of a test-mode Request, rendered as it would have gone out (issue #22). */
export interface KeptMessage {
  readonly key: DeliveryKey;
  readonly eventType: string;
  readonly requestId: string;
  readonly siteId: number;
  readonly signerId: string;
  readonly recipient: string;
  /** E-mail only. */
  readonly subject: string | null;
  readonly body: string;
  /** E-mail only. */
  readonly html: string | null;
  readonly executionUrl: string | null;
}

export interface StoredTestMessage extends KeptMessage {
  readonly id: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/**
 * Where test-mode messages go instead of a provider. `keep` is idempotent on the
 * message's key (a redelivered event keeps one copy) and accepts like a provider would.
 * An outage rejects, as for every store.
 */
export interface TestInbox {
  readonly keep: (message: KeptMessage) => TE.TaskEither<never, Accepted>;
  /** The kept messages of one Request of these Sites, oldest first. */
  readonly list: (
    requestId: string,
    siteIds: readonly number[],
    page: PageRequest,
  ) => TE.TaskEither<never, PageOf<StoredTestMessage>>;
}
