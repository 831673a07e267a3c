import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Challenge } from '../domain/signer-authentication.js';

/** Where each signer's authentication stands (ADR 2001); read and written under the Request's lock. */
export interface SignerChallengeRepository {
  /** The signer's challenge, locked for the rest of the transaction. */
  readonly lock: (requestId: string, signerRef: string) => TE.TaskEither<never, O.Option<Challenge>>;
  readonly find: (requestId: string, signerRef: string) => TE.TaskEither<never, O.Option<Challenge>>;
  readonly save: (requestId: string, signerRef: string, challenge: Challenge) => TE.TaskEither<never, void>;
}
