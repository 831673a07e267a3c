import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { EnteredAct, SignerAct } from '../domain/signing.js';

/** The audit trail: what each signer of a Request did, at most one act per signer. */
export interface SignerActRepository {
  readonly insert: (requestId: string, act: SignerAct) => TE.TaskEither<never, void>;
  /** In the order they happened. */
  readonly list: (requestId: string) => TE.TaskEither<never, readonly SignerAct[]>;
  /**
   * What the signers of each of several Requests entered, in one read (ADR 3780), without
   * what the audit trail alone needs (a drawn signature, an address): a Request whose
   * signers have not acted is absent.
   */
  readonly enteredFor: (
    requestIds: readonly string[],
  ) => TE.TaskEither<never, ReadonlyMap<string, readonly EnteredAct[]>>;
}
