import type { AppView, CreatedTokenView, PasswordChangedView, TokenView, UserView } from '@esign/contracts';
import type { PasswordChanged } from '../ports/account-repository.js';
import type { IssuedToken } from './issue-token.js';
import type { DeveloperApp, TokenRecord, User } from '../domain/model.js';
import { tokenState } from '../domain/tokens.js';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export const userView = (user: Pick<User, 'id' | 'email' | 'accountId'>): UserView => ({
  id: user.id,
  email: user.email,
  account_id: user.accountId,
});

export const appView = (app: DeveloperApp): AppView => ({
  id: app.id,
  client_id: app.id,
  name: app.name,
  has_client_secret: app.clientSecretCreatedAt !== null,
  client_secret_created_at: iso(app.clientSecretCreatedAt),
  created_at: app.createdAt.toISOString(),
  disabled_at: iso(app.disabledAt),
  callback_url: app.callbackUrl,
});

export const tokenView = (token: TokenRecord, now: Date): TokenView => ({
  id: token.id,
  app_id: token.appId,
  name: token.name,
  origin: token.origin,
  state: tokenState(token, now),
  created_at: token.createdAt.toISOString(),
  expires_at: token.expiresAt.toISOString(),
  last_used_at: iso(token.lastUsedAt),
  revoked_at: iso(token.revokedAt),
  site_ids: token.siteIds === null ? null : [...token.siteIds],
  test_mode_only: token.testModeOnly,
});

export const createdTokenView = (issued: IssuedToken, now: Date): CreatedTokenView => ({
  ...tokenView(issued.record, now),
  access_token: issued.accessToken,
  token_type: 'Bearer',
  expires_in: Math.round((issued.record.expiresAt.getTime() - issued.record.createdAt.getTime()) / 1000),
});

/** What a password change ended (a change, or a link to choose a new password). */
export const passwordChangedView = (changed: PasswordChanged): PasswordChangedView => ({
  sessions_ended: changed.sessionsEnded,
  tokens_revoked: changed.tokensRevoked,
  client_secrets_removed: changed.clientSecretsRemoved,
});
