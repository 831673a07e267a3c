import * as t from 'io-ts';
import { TokenOrigin } from './auth-api.js';
import { accountEnvelope } from './event-envelope.js';

// What an operator did to a user's Developer Apps and access tokens, told to the user by
// e-mail (ADR 3120): auth writes these events, the notifier sends them.

/** The routing key (and `type`) of a Developer App an operator changed (ADR 3120). */
export const APP_CHANGED = 'account.app_changed';

/**
 * An operator suspended, restored or deleted a Developer App with the admin CLI
 * (`disable-app`, `enable-app`, `delete-app`; ADR 3120): its access tokens and client
 * credentials stop or work again. Told to the app's owner while they are an enabled user,
 * in the change's transaction; what the owner does to their own app tells nobody.
 */
export const AppChange = t.keyof({ disabled: null, enabled: null, deleted: null }, 'AppChange');
export type AppChange = t.TypeOf<typeof AppChange>;

/** Its `aggregate_id` is the app's id. */
export const AppChanged = accountEnvelope(
  APP_CHANGED,
  t.type({
    /** The app's owner: whom this e-mail goes to. */
    email: t.string,
    app_name: t.string,
    change: AppChange,
  }),
);
export type AppChanged = t.TypeOf<typeof AppChanged>;

/** The routing key (and `type`) of an access token an operator revoked (ADR 3120). */
export const TOKEN_REVOKED = 'account.token_revoked';

/**
 * An operator revoked one access token with the admin CLI (`revoke-token`; ADR 3120): told
 * to the token's user while they are an enabled user, in the revocation's transaction,
 * only when it revoked something. A user revoking their own token tells nobody.
 * Its `aggregate_id` is the token's id.
 */
export const TokenRevoked = accountEnvelope(
  TOKEN_REVOKED,
  t.type({
    /** The token's user: whom this e-mail goes to. */
    email: t.string,
    app_name: t.string,
    token_name: t.union([t.string, t.null]),
    /** `authorization_code`: a token the user gave someone else's app. */
    origin: TokenOrigin,
  }),
);
export type TokenRevoked = t.TypeOf<typeof TokenRevoked>;

/** The routing key (and `type`) of the signing keys withdrawn with every token they signed. */
export const SIGNING_KEYS_WITHDRAWN = 'account.signing_keys_withdrawn';

/**
 * An operator withdrew the platform's signing keys at once (`rotate-key --revoke-previous`,
 * a suspected leak; ADR 0301): every access token they signed stopped working. Told to each
 * enabled user who held a live token of theirs (one event per recipient, `email`, written
 * with the withdrawal), with how many, so that an integration that stopped is mended by
 * making new tokens rather than searched for a bug. Tokens of a signed-in session are left
 * out: the web application makes a new one by itself.
 * Its `aggregate_id` is the user's id.
 */
export const SigningKeysWithdrawn = accountEnvelope(
  SIGNING_KEYS_WITHDRAWN,
  t.type({
    /** The user: whom this e-mail goes to. */
    email: t.string,
    /** How many of their live tokens stopped working. */
    tokens: t.number,
  }),
);
export type SigningKeysWithdrawn = t.TypeOf<typeof SigningKeysWithdrawn>;
