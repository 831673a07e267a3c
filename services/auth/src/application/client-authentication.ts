import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientCredentialsError, GrantError } from '../domain/errors.js';
import type { ClientRecord } from '../ports/app-repository.js';
import type { Deps } from './deps.js';

/** The client as the token endpoint saw it: an id, and a secret unless it is a public client. */
export interface PresentedClient {
  readonly id: string;
  readonly secret: string | undefined;
}

/**
 * The app that `presented` proves to be, or a refusal. RFC 6749 §2.3 and §3.2.1: an app
 * with a client secret must present it; an app without one is a public client, identified
 * by its id (and held to PKCE by its grant). A secret for an app that has none
 * is as wrong as a wrong one, and every way the credentials are wrong answers the same.
 * An app that is disabled, whose owner is disabled or whose account has no API access
 * (`noApiAccess` says so) is refused.
 */
export const identifyClient =
  (deps: Deps, noApiAccess: string) =>
  (presented: PresentedClient): TE.TaskEither<ClientCredentialsError, ClientRecord> =>
    pipe(
      deps.apps.findClient(presented.id),
      TE.flatMap((found) => TE.fromEither(admitted(deps, noApiAccess, presented, O.toUndefined(found)))),
    );

const admitted = (
  deps: Deps,
  noApiAccess: string,
  presented: PresentedClient,
  client: ClientRecord | undefined,
): E.Either<ClientCredentialsError, ClientRecord> => {
  const fingerprint = presented.secret === undefined ? undefined : deps.secrets.fingerprint(presented.secret);
  const stored = client?.secretFingerprint ?? null;
  const proven =
    fingerprint === undefined ? stored === null : stored !== null && deps.secrets.same(fingerprint, stored);
  if (client === undefined || !proven) return E.left({ _tag: 'InvalidClient' });
  if (client.app.disabledAt !== null)
    return E.left({ _tag: 'UnauthorizedClient', reason: 'the app is disabled' });
  if (client.ownerDisabled)
    return E.left({ _tag: 'UnauthorizedClient', reason: "the app's owner is disabled" });
  if (!client.apiAccess) return E.left({ _tag: 'UnauthorizedClient', reason: noApiAccess });
  return E.right(client);
};

/** The client of the authorization-code and refresh-token grants. */
export const authenticateClient = (
  deps: Deps,
): ((presented: PresentedClient) => TE.TaskEither<GrantError, ClientRecord>) =>
  identifyClient(deps, "the app's account has no API access");
