import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { PageOf, PageRequest } from '@esign/contracts';
import type { TokenRecord } from '../domain/model.js';
import type { OAuthGrant } from '../domain/oauth.js';

export interface StoredCode {
  readonly grant: OAuthGrant;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

export interface StoredRefreshToken {
  readonly grant: OAuthGrant;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

/** A refresh token to store: only its fingerprint. */
export interface NewRefreshToken {
  readonly fingerprint: Uint8Array;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** One app the user has authorised: its live grants taken together. */
export interface Authorization {
  readonly appId: string;
  readonly appName: string;
  readonly ownerAccountName: string;
  readonly siteIds: readonly number[];
  readonly authorizedAt: Date;
}

/** Grants, codes and refresh tokens of the authorization-code grant; secrets only as fingerprints. */
export interface OAuthRepository {
  /** Records an "Allow": the grant and its code, in one transaction. */
  readonly createGrant: (
    grant: OAuthGrant,
    code: {
      readonly fingerprint: Uint8Array;
      readonly redirectUri: string;
      readonly codeChallenge: string;
      readonly expiresAt: Date;
    },
  ) => TE.TaskEither<never, void>;
  readonly findCode: (fingerprint: Uint8Array) => TE.TaskEither<never, O.Option<StoredCode>>;
  readonly findRefreshToken: (fingerprint: Uint8Array) => TE.TaskEither<never, O.Option<StoredRefreshToken>>;
  /**
   * Marks the code or refresh token used and stores what it is exchanged for (an access
   * token record of the grant and the next refresh token), in one transaction. Answers
   * false, storing nothing, when it had already been used (a race lost to a replay).
   */
  readonly redeem: (
    kind: 'code' | 'refresh',
    fingerprint: Uint8Array,
    at: Date,
    issued: { readonly access: TokenRecord; readonly refresh: NewRefreshToken; readonly grantId: string },
  ) => TE.TaskEither<never, boolean>;
  /** Revokes a grant and every access token issued under it; its refresh tokens stop with it. */
  readonly revokeGrant: (grantId: string, at: Date) => TE.TaskEither<never, void>;
  /** Revokes every grant of the user to the app; answers how many were live. */
  readonly revokeApp: (userId: string, appId: string, at: Date) => TE.TaskEither<never, number>;
  /** The apps with a live grant (an unused code or refresh token still valid), newest first. */
  readonly listAuthorizations: (
    userId: string,
    now: Date,
    page: PageRequest,
  ) => TE.TaskEither<never, PageOf<Authorization>>;
}
