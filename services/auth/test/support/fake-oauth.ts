/* eslint-disable @typescript-eslint/require-await -- the fake implements async ports synchronously. */
import type { TokenRecord } from '../../src/domain/model.js';
import type { OAuthGrant } from '../../src/domain/oauth.js';
import type { OAuthRepository } from '../../src/ports/oauth-repository.js';
import { maybe, task } from './port-task.js';

export interface Redeemable {
  readonly grantId: string;
  readonly expiresAt: Date;
  usedAt: Date | null;
  readonly redirectUri?: string;
  readonly codeChallenge?: string;
}

/** Grants, codes and refresh tokens in memory, over the fake world's token map. */
export const fakeOAuthRepository = (tokens: Map<string, TokenRecord>, appName: (appId: string) => string) => {
  const grants = new Map<string, OAuthGrant>();
  const codes = new Map<string, Redeemable>();
  const refreshTokens = new Map<string, Redeemable>();
  const grantOfToken = new Map<string, string>();
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

  const revokeGrant = (grantId: string, at: Date) => {
    const grant = grants.get(grantId);
    if (grant !== undefined && grant.revokedAt === null) grants.set(grantId, { ...grant, revokedAt: at });
    for (const [tokenId, g] of grantOfToken) {
      const token = tokens.get(tokenId);
      if (g === grantId && token !== undefined && token.revokedAt === null)
        tokens.set(tokenId, { ...token, revokedAt: at });
    }
  };

  const repo: OAuthRepository = {
    createGrant: (grant, code) =>
      task(async () => {
        grants.set(grant.id, grant);
        codes.set(hex(code.fingerprint), {
          grantId: grant.id,
          expiresAt: code.expiresAt,
          usedAt: null,
          redirectUri: code.redirectUri,
          codeChallenge: code.codeChallenge,
        });
      }),
    findCode: (fingerprint) =>
      maybe(async () => {
        const code = codes.get(hex(fingerprint));
        return (
          code && {
            grant: grants.get(code.grantId)!,
            redirectUri: code.redirectUri!,
            codeChallenge: code.codeChallenge!,
            expiresAt: code.expiresAt,
            usedAt: code.usedAt,
          }
        );
      }),
    findRefreshToken: (fingerprint) =>
      maybe(async () => {
        const r = refreshTokens.get(hex(fingerprint));
        return r && { grant: grants.get(r.grantId)!, expiresAt: r.expiresAt, usedAt: r.usedAt };
      }),
    redeem: (kind, fingerprint, at, issued) =>
      task(async () => {
        const item = (kind === 'code' ? codes : refreshTokens).get(hex(fingerprint));
        if (item === undefined || item.usedAt !== null) return false;
        item.usedAt = at;
        tokens.set(issued.access.id, issued.access);
        grantOfToken.set(issued.access.id, issued.grantId);
        refreshTokens.set(hex(issued.refresh.fingerprint), {
          grantId: issued.grantId,
          expiresAt: issued.refresh.expiresAt,
          usedAt: null,
        });
        return true;
      }),
    revokeGrant: (grantId, at) => task(async () => revokeGrant(grantId, at)),
    revokeApp: (userId, appId, at) =>
      task(async () => {
        const live = [...grants.values()].filter(
          (g) => g.userId === userId && g.appId === appId && g.revokedAt === null,
        );
        for (const g of live) revokeGrant(g.id, at);
        return live.length;
      }),
    listAuthorizations: (userId, now, page) =>
      task(async () => {
        const live = [...grants.values()].filter(
          (g) =>
            g.userId === userId &&
            g.revokedAt === null &&
            [...codes.values(), ...refreshTokens.values()].some(
              (r) => r.grantId === g.id && r.usedAt === null && r.expiresAt > now,
            ),
        );
        const byApp = new Map<string, OAuthGrant[]>();
        for (const g of live) byApp.set(g.appId, [...(byApp.get(g.appId) ?? []), g]);
        const items = [...byApp.entries()].map(([appId, gs]) => ({
          appId,
          appName: appName(appId),
          ownerAccountName: 'Owner account',
          siteIds: [...new Set(gs.flatMap((g) => g.siteIds))].sort((a, b) => a - b),
          authorizedAt: new Date(Math.max(...gs.map((g) => g.createdAt.getTime()))),
        }));
        return {
          items: items.slice((page.page - 1) * page.perPage, page.page * page.perPage),
          total: items.length,
        };
      }),
  };
  return { repo, grants, codes, refreshTokens };
};
