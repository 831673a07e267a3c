import { AUTHORIZATION_CODE_TTL_SECONDS, isUuid, type SiteGrant } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { DeveloperApp, SessionUser } from '../domain/model.js';
import {
  AUTHORIZATION_CODE_PREFIX,
  callbackWith,
  checkAuthorizationRequest,
  sitesToGrant,
  type AuthorizationRequest,
  type RawParams,
} from '../domain/oauth.js';
import type { Deps } from './deps.js';

/** What the consent page needs: who asks, for which callback, and what the user may grant. */
export interface Consent {
  readonly request: AuthorizationRequest;
  readonly ownerAccountName: string;
  readonly sites: readonly SiteGrant[];
}

/** The request answered at the callback (an error the client must hear), or shown for consent. */
export type ConsentOutcome =
  | { readonly kind: 'redirect'; readonly redirectTo: string }
  | { readonly kind: 'consent'; readonly consent: Consent };

type Checked = { kind: 'redirect'; redirectTo: string } | AuthorizationRequest;

const checked =
  (deps: Deps) =>
  (params: RawParams): TE.TaskEither<AuthError, Checked> => {
    const clientId = params.client_id;
    return pipe(
      typeof clientId === 'string' && isUuid(clientId) ? deps.apps.find(clientId) : TE.right(O.none),
      TE.flatMap((app) => TE.fromEither(checkedWith(params, O.toUndefined(app)))),
    );
  };

/** The request judged against the app it names (undefined: no such app). */
const checkedWith = (params: RawParams, app: DeveloperApp | undefined): E.Either<AuthError, Checked> => {
  const check = checkAuthorizationRequest(params, app);
  switch (check.kind) {
    case 'page':
      return E.left({ _tag: 'InvalidAuthorizationRequest', field: check.field, reason: check.reason });
    case 'redirect':
      return E.right({
        kind: 'redirect',
        redirectTo: callbackWith(app!.callbackUrl!, {
          error: check.error,
          error_description: check.description,
          state: check.state,
        }),
      });
    case 'consent':
      return E.right(check.request);
  }
};

/**
 * `GET /oauth/authorize` as the consent page asks it, for the signed-in user (RFC 6749
 * §4.1.1): an untrusted client or callback is an error shown on our page; any other fault
 * goes back to the callback; a sound request is what the page asks the user about.
 */
export const checkConsent =
  (deps: Deps) =>
  (session: SessionUser, params: RawParams): TE.TaskEither<AuthError, ConsentOutcome> =>
    pipe(
      checked(deps)(params),
      TE.flatMap((request): TE.TaskEither<AuthError, ConsentOutcome> =>
        'kind' in request ? TE.right(request) : consentTo(deps, session, request),
      ),
    );

const consentTo = (
  deps: Deps,
  session: SessionUser,
  request: AuthorizationRequest,
): TE.TaskEither<never, ConsentOutcome> =>
  pipe(
    deps.accounts.findUser(request.app.userId),
    TE.flatMap((owner) =>
      O.isSome(owner) ? deps.accounts.findAccount(owner.value.accountId) : TE.right(O.none),
    ),
    TE.flatMap((account) =>
      pipe(
        deps.sites.sitesOf(session.userId),
        TE.map((sites): ConsentOutcome => ({
          kind: 'consent',
          consent: {
            request,
            ownerAccountName: pipe(
              account,
              O.map((a) => a.name),
              O.getOrElse(() => 'an unknown account'),
            ),
            sites: sites.map((s) => ({ id: s.id, name: s.name })),
          },
        })),
      ),
    ),
  );

/**
 * The user's answer. Allow records a grant and a single-use code (60 s, bound to the app,
 * the callback and the code challenge; only its fingerprint is kept) and sends the code
 * back with the state; Deny sends `access_denied` (§4.1.2.1).
 */
export const decideConsent =
  (deps: Deps) =>
  (input: {
    readonly session: SessionUser;
    readonly params: RawParams;
    readonly allow: boolean;
    readonly siteIds?: readonly number[];
  }): TE.TaskEither<AuthError, { readonly redirectTo: string }> =>
    pipe(
      checked(deps)(input.params),
      TE.flatMap((request): TE.TaskEither<AuthError, { readonly redirectTo: string }> => {
        if ('kind' in request) return TE.right({ redirectTo: request.redirectTo });
        if (!input.allow)
          return TE.right({
            redirectTo: callbackWith(request.redirectUri, {
              error: 'access_denied',
              error_description: 'the user denied the request',
              state: request.state,
            }),
          });
        return pipe(
          deps.sites.sitesOf(input.session.userId),
          TE.flatMap((userSites) =>
            grant(deps, input.session, request, sitesToGrant(input.siteIds, userSites)),
          ),
        );
      }),
    );

/** Records the grant and its code, and answers the callback that carries the code. */
const grant = (
  deps: Deps,
  session: SessionUser,
  request: AuthorizationRequest,
  granted: ReturnType<typeof sitesToGrant>,
): TE.TaskEither<AuthError, { readonly redirectTo: string }> => {
  if ('none' in granted) return TE.left({ _tag: 'NoSitesToGrant' });
  if ('notReachable' in granted) return TE.left({ _tag: 'SitesNotReachable', siteIds: granted.notReachable });
  const code = deps.secrets.newSecret(AUTHORIZATION_CODE_PREFIX);
  const now = deps.clock.now();
  return pipe(
    deps.oauth.createGrant(
      {
        id: deps.secrets.uuid(),
        appId: request.app.id,
        userId: session.userId,
        siteIds: granted.siteIds,
        createdAt: now,
        revokedAt: null,
      },
      {
        fingerprint: deps.secrets.fingerprint(code),
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
      },
    ),
    TE.map(() => ({ redirectTo: callbackWith(request.redirectUri, { code, state: request.state }) })),
  );
};
