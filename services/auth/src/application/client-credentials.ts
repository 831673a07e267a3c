import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientCredentialsError } from '../domain/errors.js';
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
    const client = await deps.apps.findClient(input.clientId)();
    const presented = deps.secrets.fingerprint(input.clientSecret);
    if (
      client === undefined ||
      client.secretFingerprint === null ||
      !deps.secrets.same(presented, client.secretFingerprint)
    ) {
      return E.left({ _tag: 'InvalidClient' });
    }
    if (client.app.disabledAt !== null)
      return E.left({ _tag: 'UnauthorizedClient', reason: 'the app is disabled' });
    if (client.ownerDisabled)
      return E.left({ _tag: 'UnauthorizedClient', reason: "the app's owner is disabled" });
    if (!client.apiAccess)
      return E.left({ _tag: 'UnauthorizedClient', reason: 'the account has no API access' });
    return E.right(
      await issueToken(deps)({
        userId: client.app.userId,
        appId: client.app.id,
        origin: 'client_credentials',
        name: null,
        lifetimeSeconds: deps.policy.clientCredentialsTtlSeconds,
      })(),
    );
  };
