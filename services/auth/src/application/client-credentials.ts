import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
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
  async () => {
    const client = await identifyClient(
      deps,
      'the account has no API access',
    )({ id: input.clientId, secret: input.clientSecret })();
    if (E.isLeft(client)) return client;
    return E.right(
      await issueToken(deps)({
        userId: client.right.app.userId,
        appId: client.right.app.id,
        origin: 'client_credentials',
        name: null,
        lifetimeSeconds: deps.policy.clientCredentialsTtlSeconds,
      })(),
    );
  };
