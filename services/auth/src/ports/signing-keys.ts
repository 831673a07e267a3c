import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { PublicJwk, SigningKeysWithdrawn } from '@esign/contracts';
import type { KeyMeta } from '../domain/signing-keys.js';

export interface StoredKey extends KeyMeta {
  readonly publicJwk: PublicJwk;
}

/** A freshly generated key pair, its private half already sealed for storage. */
export interface NewKey {
  readonly kid: string;
  readonly publicJwk: PublicJwk;
  readonly encryptionKeyId: string;
  readonly sealedPrivateKey: Uint8Array;
}

/** A private key as stored: sealed with the encryption key named by its id. */
export interface SealedKey {
  readonly encryptionKeyId: string;
  readonly sealedPrivateKey: Uint8Array;
}

/** An enabled user who held live access tokens signed by keys being withdrawn, and how many. */
export interface TokenHolder {
  readonly userId: string;
  readonly email: string;
  readonly tokens: number;
}

export interface KeyStore {
  readonly list: () => TE.TaskEither<never, StoredKey[]>;
  readonly insert: (key: NewKey, createdAt: Date, activatesAt: Date) => TE.TaskEither<never, void>;
  /**
   * Withdraws `kids` at `at`, and in the same transaction writes to the outbox what `tell`
   * answers for the enabled users who held live tokens they signed (ADR 0301, amended).
   */
  readonly revoke: (
    kids: readonly string[],
    at: Date,
    tell: (holders: readonly TokenHolder[]) => readonly SigningKeysWithdrawn[],
  ) => TE.TaskEither<never, void>;
}

export interface KeyGenerator {
  readonly generate: () => TE.TaskEither<never, NewKey>;
}

/** The claims auth decides; the signer adds `iss`, `aud` and the header. */
export interface AccessTokenContent {
  readonly sub: string;
  readonly jti: string;
  readonly client_id: string;
  readonly iat: number;
  readonly exp: number;
}

export interface TokenSigner {
  readonly sign: (kid: string, content: AccessTokenContent) => TE.TaskEither<never, string>;
  /** One of our access tokens, signature and claims checked (expired ones too are refused). */
  readonly verify: (
    token: string,
  ) => TE.TaskEither<never, O.Option<{ readonly jti: string; readonly clientId: string }>>;
}
