import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientCredentialsError } from '../domain/errors.js';
import { identifyClient } from './client-authentication.js';
import type { Deps } from './deps.js';
import { issueToken, type IssuedToken } from './issue-token.js';

/**
 * RFC 6749 §4.4: a machine client trades its client id and secret for an access token
 * of the app's owner. Every way the credentials can be wrong answers the same.
 */
export const clientCredentialsGrant =
  (deps: Deps) =>
  (input: {
    readonly clientId: string;
    readonly clientSecret: string;
  }): TE.TaskEither<ClientCredentialsError, IssuedToken> =>
    pipe(
      identifyClient(
        deps,
        'the account has no API access',
      )({ id: input.clientId, secret: input.clientSecret }),
      TE.flatMap((client) =>
        issueToken(deps)({
          userId: client.app.userId,
          appId: client.app.id,
          origin: 'client_credentials',
          name: null,
          lifetimeSeconds: deps.policy.clientCredentialsTtlSeconds,
        }),
      ),
    );
