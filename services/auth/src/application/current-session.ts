import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser, Site } from '../domain/model.js';
import type { Deps } from './deps.js';

/** Who is signed in, and the sites their tokens reach now. */
export const currentSession =
  (deps: Deps) =>
  (session: SessionUser): TE.TaskEither<AuthError, { session: SessionUser; sites: Site[] }> =>
    pipe(
      deps.sites.sitesOf(session.userId),
      TE.map((sites) => ({ session, sites })),
    );
