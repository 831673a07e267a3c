import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Deps } from '../deps.js';
import { linkedSigner, type ExecutionLink, type LinkRefusal, type Linked } from './verify-link.js';

/** Where a signer stands after the fact, for the thank-you page: any state, once the link verifies. */
export const signerStatus =
  (deps: Pick<Deps, 'store' | 'urlSigner'>) =>
  (link: ExecutionLink): TE.TaskEither<LinkRefusal, Linked> =>
    linkedSigner(deps, link);
