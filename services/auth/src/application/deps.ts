import type { AnonymousLimits, ThrottlePolicy } from '../domain/throttle.js';
import type { AccountRepository } from '../ports/account-repository.js';
import type { AppRepository } from '../ports/app-repository.js';
import type { Clock } from '../ports/clock.js';
import type { OAuthRepository } from '../ports/oauth-repository.js';
import type { FrameOriginStore } from '../ports/frame-origin-store.js';
import type { InvitationStore } from '../ports/invitations.js';
import type { PasswordAttempts } from '../ports/password-attempts.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { PasswordResetStore } from '../ports/password-resets.js';
import type { RequestQuota } from '../ports/request-quota.js';
import type { Secrets } from '../ports/secrets.js';
import type { SessionRepository } from '../ports/session-repository.js';
import type { KeyGenerator, KeyStore, TokenSigner } from '../ports/signing-keys.js';
import type { SiteRepository } from '../ports/site-repository.js';
import type { TokenRepository, TokenUsageRecorder } from '../ports/token-repository.js';

/** Lifetimes and limits the use cases apply; from the environment (see config.ts). */
export interface Policy {
  /** Default lifetime of a token a person creates (they may choose 1 to 365 days). */
  readonly accessTokenTtlDays: number;
  /** Lifetime of a client-credentials token. */
  readonly clientCredentialsTtlSeconds: number;
  readonly sessionTtlSeconds: number;
  /** Password attempts per (e-mail, client address): the lock-out. */
  readonly throttle: ThrottlePolicy;
  /** Password attempts per e-mail address from all clients: a capped delay (ADR 1303). */
  readonly emailThrottle: ThrottlePolicy;
  readonly anonymous: AnonymousLimits;
  /** Where e-mailed links point (a new password, ADR 3000; an invitation, ADR 3030): PUBLIC_BASE_URL's web application. */
  readonly publicBaseUrl: string;
}

/** Every port the use cases reach, as one record; the composition root (service.ts) builds it, tests fake it. */
export interface Deps {
  readonly clock: Clock;
  readonly secrets: Secrets;
  readonly hasher: PasswordHasher;
  readonly accounts: AccountRepository;
  readonly sites: SiteRepository;
  readonly apps: AppRepository;
  /** Who may frame each app's embedded signing pages (ADR 2300). */
  readonly frameOrigins: FrameOriginStore;
  readonly tokens: TokenRepository;
  readonly oauth: OAuthRepository;
  readonly usage: TokenUsageRecorder;
  readonly sessions: SessionRepository;
  readonly attempts: PasswordAttempts;
  readonly passwordResets: PasswordResetStore;
  /** Invitations to join an account (ADR 3030). */
  readonly invitations: InvitationStore;
  readonly quota: RequestQuota;
  readonly keys: KeyStore;
  readonly keyGenerator: KeyGenerator;
  readonly signer: TokenSigner;
  readonly policy: Policy;
}
