import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Contact, SiteSigner } from '../domain/signer.js';

/** The signers of each site, keyed by the client's signer_id. */
export interface SignerRepository {
  readonly contacts: (
    siteId: number,
    signerIds: readonly string[],
  ) => TE.TaskEither<never, ReadonlyMap<string, Contact>>;
  /** Creates the new ones and updates the known ones, all in one statement. */
  readonly upsert: (signers: readonly SiteSigner[]) => TE.TaskEither<never, void>;
}
