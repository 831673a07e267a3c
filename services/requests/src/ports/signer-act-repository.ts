import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { SignerAct } from '../domain/signing.js';

/** The audit trail: what each signer of a Request did, at most one act per signer. */
export interface SignerActRepository {
  readonly insert: (requestId: string, act: SignerAct) => TE.TaskEither<never, void>;
  /** In the order they happened. */
  readonly list: (requestId: string) => TE.TaskEither<never, readonly SignerAct[]>;
  /** `list` of each of several Requests, in one read (ADR 3780); a Request with none is absent. */
  readonly listFor: (
    requestIds: readonly string[],
  ) => TE.TaskEither<never, ReadonlyMap<string, readonly SignerAct[]>>;
}
