import { AUTHORIZATION_CODE_TTL_SECONDS, isUuid, type SiteGrant } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
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

const checked =
  (deps: Deps) =>
  async (
    params: RawParams,
  ): Promise<E.Either<AuthError, { kind: 'redirect'; redirectTo: string } | AuthorizationRequest>> => {
    const clientId = params.client_id;
    const app =
      typeof clientId === 'string' && isUuid(clientId) ? await deps.apps.find(clientId)() : undefined;
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
  async () => {
    const result = await checked(deps)(params);
    if (E.isLeft(result)) return result;
    const request = result.right;
    if ('kind' in request) return E.right(request);
    const owner = await deps.accounts.findUser(request.app.userId)();
    const account = owner && (await deps.accounts.findAccount(owner.accountId)());
    const sites = await deps.sites.sitesOf(session.userId)();
    return E.right({
      kind: 'consent',
      consent: {
        request,
        ownerAccountName: account?.name ?? 'an unknown account',
        sites: sites.map((s) => ({ id: s.id, name: s.name })),
      },
    });
  };

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
  async () => {
    const result = await checked(deps)(input.params);
    if (E.isLeft(result)) return result;
    const request = result.right;
    if ('kind' in request) return E.right({ redirectTo: request.redirectTo });
    if (!input.allow)
      return E.right({
        redirectTo: callbackWith(request.redirectUri, {
          error: 'access_denied',
          error_description: 'the user denied the request',
          state: request.state,
        }),
      });
    const userSites = await deps.sites.sitesOf(input.session.userId)();
    const granted = sitesToGrant(input.siteIds, userSites);
    if ('none' in granted) return E.left({ _tag: 'NoSitesToGrant' });
    if ('notReachable' in granted)
      return E.left({ _tag: 'SitesNotReachable', siteIds: granted.notReachable });
    const code = deps.secrets.newSecret(AUTHORIZATION_CODE_PREFIX);
    const now = deps.clock.now();
    await deps.oauth.createGrant(
      {
        id: deps.secrets.uuid(),
        appId: request.app.id,
        userId: input.session.userId,
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
    )();
    return E.right({ redirectTo: callbackWith(request.redirectUri, { code, state: request.state }) });
  };
