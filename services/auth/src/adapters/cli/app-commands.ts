import { ACCESS_TOKEN_MAX_TTL_DAYS } from '@esign/contracts';
import { createTokenForApp } from '../../application/admin-tokens.js';
import { issueClientSecret } from '../../application/client-secret.js';
import { createApp } from '../../application/create-app.js';
import { deleteAnyApp, setAppDisabled } from '../../application/delete-app.js';
import { rotateSigningKey } from '../../application/signing-keys.js';
import { revokeToken } from '../../application/tokens.js';
import { appView, createdTokenView, tokenView } from '../../application/views.js';
import { integer, required, text, unwrap, userOf, UsageError, type Command } from './cli-command.js';
import { iso } from './cli-views.js';

/** Seconds between a rotated key's publication and its first signature: see rotate-key in the README. */
export const DEFAULT_ACTIVATION_DELAY_SECONDS = 120;

/** Developer Apps, access tokens and signing keys. */
export const APP_COMMANDS: Record<string, Command> = {
  'create-app': {
    summary:
      '--user <id|email> --name <name> [--with-secret]   a Developer App; --with-secret also prints a client secret',
    options: { user: { type: 'string' }, name: { type: 'string' }, 'with-secret': { type: 'boolean' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      const app = await unwrap(
        createApp(deps)({ userId: user.id, name: text(required(v, 'name'), 'name', 100) }),
      );
      if (v['with-secret'] !== true) return { app: appView(app) };
      const secret = await unwrap(issueClientSecret(deps)(app.id));
      return {
        app: appView({ ...app, clientSecretCreatedAt: secret.createdAt }),
        client_secret: secret.clientSecret,
      };
    },
  },
  'delete-app': {
    summary: '--app <id>   deletes the app and revokes its tokens',
    options: { app: { type: 'string' } },
    run: async (deps, v) => ({
      app: { ...appView(await unwrap(deleteAnyApp(deps)(required(v, 'app')))), deleted: true },
    }),
  },
  'disable-app': {
    summary:
      '--app <id>   suspends the app: its tokens and client credentials stop working, nothing is deleted',
    options: { app: { type: 'string' } },
    run: async (deps, v) => ({
      app: appView(await unwrap(setAppDisabled(deps)({ appId: required(v, 'app'), disabled: true }))),
    }),
  },
  'enable-app': {
    summary: '--app <id>   undoes disable-app',
    options: { app: { type: 'string' } },
    run: async (deps, v) => ({
      app: appView(await unwrap(setAppDisabled(deps)({ appId: required(v, 'app'), disabled: false }))),
    }),
  },
  'create-token': {
    summary: `--app <id> [--name <name>] [--expires-in-days 1..${ACCESS_TOKEN_MAX_TTL_DAYS}] [--test-mode-only]   an access token of the app's owner, printed once`,
    options: {
      app: { type: 'string' },
      name: { type: 'string' },
      'expires-in-days': { type: 'string' },
      'test-mode-only': { type: 'boolean' },
    },
    run: async (deps, v) => {
      const issued = await unwrap(
        createTokenForApp(deps)({
          appId: required(v, 'app'),
          ...(v.name === undefined ? {} : { name: text(v.name as string, 'name', 100) }),
          ...(v['expires-in-days'] === undefined
            ? {}
            : {
                expiresInDays: integer(
                  v['expires-in-days'] as string,
                  'expires-in-days',
                  1,
                  ACCESS_TOKEN_MAX_TTL_DAYS,
                ),
              }),
          ...(v['test-mode-only'] === true && { testModeOnly: true }),
        }),
      );
      const { access_token, ...token } = createdTokenView(issued, deps.clock.now());
      return { token, access_token };
    },
  },
  'revoke-token': {
    summary: '--token <id>   the token stops working at once',
    options: { token: { type: 'string' } },
    run: async (deps, v) => ({
      token: tokenView(await unwrap(revokeToken(deps)(required(v, 'token'))), deps.clock.now()),
    }),
  },
  'rotate-key': {
    summary: `[--activate-in-seconds N] [--revoke-previous]   new signing key, published now, signing after N s (default ${DEFAULT_ACTIVATION_DELAY_SECONDS}); --revoke-previous: signing at once, older keys and their tokens withdrawn`,
    options: { 'activate-in-seconds': { type: 'string' }, 'revoke-previous': { type: 'boolean' } },
    run: async (deps, v) => {
      const revokePrevious = v['revoke-previous'] === true;
      if (revokePrevious && v['activate-in-seconds'] !== undefined)
        throw new UsageError(
          '--revoke-previous activates the new key at once; leave out --activate-in-seconds',
        );
      const rotation = await unwrap(
        rotateSigningKey(deps)({
          activateInSeconds:
            v['activate-in-seconds'] === undefined
              ? DEFAULT_ACTIVATION_DELAY_SECONDS
              : integer(v['activate-in-seconds'] as string, 'activate-in-seconds', 0, 7 * 86_400),
          revokePrevious,
        }),
      );
      return {
        key: {
          kid: rotation.key.kid,
          created_at: iso(rotation.key.createdAt),
          activates_at: iso(rotation.key.activatesAt),
        },
        revoked: rotation.revoked,
      };
    },
  },
};
