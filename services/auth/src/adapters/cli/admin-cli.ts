import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { ACCESS_TOKEN_MAX_TTL_DAYS } from '@esign/contracts';
import { createTokenForApp } from '../../application/admin-tokens.js';
import { issueClientSecret } from '../../application/client-secret.js';
import { createAccount, setApiAccess } from '../../application/create-account.js';
import { createApp } from '../../application/create-app.js';
import { deleteAnyApp, setAppDisabled } from '../../application/delete-app.js';
import type { Deps } from '../../application/deps.js';
import { rotateSigningKey } from '../../application/signing-keys.js';
import { addMember, createSite, removeMember } from '../../application/sites.js';
import { revokeToken } from '../../application/tokens.js';
import { createUser, findUser, setPassword, setUserDisabled } from '../../application/users.js';
import { notFound, type AuthError } from '../../domain/errors.js';
import type { Account, Site, User } from '../../domain/model.js';
import { publishedKeys, signingKeyAt } from '../../domain/signing-keys.js';
import { authProblem } from '../../application/problems.js';
import { appView, createdTokenView, tokenView } from '../../application/views.js';

/** Where a command writes: exactly one JSON object to `out`, human lines to `err`. */
export interface CliIo {
  readonly out: (json: unknown) => void;
  readonly err: (line: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Exit codes (sysexits.h): scripts can tell a typo from a missing record. */
export const EXIT = { ok: 0, failure: 1, usage: 64, data: 65 } as const;

/** Password for create-user / set-password when --password is not given (keeps it out of `ps`). */
export const PASSWORD_ENV = 'ESIGN_USER_PASSWORD';

/** Seconds between a rotated key's publication and its first signature: see rotate-key in the README. */
export const DEFAULT_ACTIVATION_DELAY_SECONDS = 120;

class UsageError extends Error {}
class CommandError extends Error {
  constructor(readonly error: AuthError) {
    super(error._tag);
  }
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());
const accountView = (a: Account) => ({
  id: a.id,
  name: a.name,
  api_access: a.apiAccess,
  created_at: iso(a.createdAt),
});
const userView = (u: User) => ({
  id: u.id,
  account_id: u.accountId,
  email: u.email,
  disabled_at: iso(u.disabledAt),
  created_at: iso(u.createdAt),
});
const siteView = (s: Site) => ({
  id: s.id,
  account_id: s.accountId,
  name: s.name,
  created_at: iso(s.createdAt),
});

const unwrap = async <A>(useCase: TE.TaskEither<AuthError, A>): Promise<A> => {
  const result = await useCase();
  if (E.isLeft(result)) throw new CommandError(result.left);
  return result.right;
};

const required = (values: Record<string, unknown>, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
};

const integer = (raw: string, name: string, min: number, max: number): number => {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
};

const bool = (raw: string, name: string): boolean => {
  if (/^(true|yes|1)$/i.test(raw)) return true;
  if (/^(false|no|0)$/i.test(raw)) return false;
  throw new UsageError(`--${name} must be true or false`);
};

const text = (raw: string, name: string, max: number): string => {
  const value = raw.trim();
  if (value === '' || value.length > max || /[\u0000-\u001f\u007f]/.test(value))
    throw new UsageError(`--${name} must be 1 to ${max} characters without control characters`);
  return value;
};

interface Command {
  readonly summary: string;
  readonly options: Record<string, { type: 'string' | 'boolean' }>;
  readonly positionals?: boolean;
  readonly run: (
    deps: Deps,
    values: Record<string, string | boolean | undefined>,
    positionals: string[],
    io: CliIo,
  ) => Promise<unknown>;
}

const userOf = (deps: Deps, values: Record<string, unknown>) =>
  unwrap(findUser(deps)(required(values, 'user')));

const passwordOf = (values: Record<string, unknown>, io: CliIo): { password: string; generated: boolean } => {
  const given = typeof values.password === 'string' ? values.password : io.env[PASSWORD_ENV];
  if (given !== undefined && given !== '') return { password: given, generated: false };
  return { password: randomBytes(18).toString('base64url'), generated: true };
};

const KEY_STATE = (
  kid: string,
  signing: string | undefined,
  published: Set<string>,
  revoked: boolean,
  upcoming: boolean,
) =>
  revoked
    ? 'revoked'
    : kid === signing
      ? 'signing'
      : upcoming
        ? 'upcoming'
        : published.has(kid)
          ? 'retired'
          : 'expired';

export const COMMANDS: Record<string, Command> = {
  'create-account': {
    summary: '--name <name> [--api-access true|false]   an account (API access on by default)',
    options: { name: { type: 'string' }, 'api-access': { type: 'string' } },
    run: async (deps, v) => ({
      account: accountView(
        await unwrap(
          createAccount(deps)({
            name: text(required(v, 'name'), 'name', 200),
            apiAccess: v['api-access'] === undefined ? true : bool(v['api-access'] as string, 'api-access'),
          }),
        ),
      ),
    }),
  },
  'set-api-access': {
    summary: '--account <id> --enabled true|false   grant or withdraw REST API access (takes effect at once)',
    options: { account: { type: 'string' }, enabled: { type: 'string' } },
    run: async (deps, v) => ({
      account: accountView(
        await unwrap(
          setApiAccess(deps)({
            accountId: required(v, 'account'),
            enabled: bool(required(v, 'enabled'), 'enabled'),
          }),
        ),
      ),
    }),
  },
  'create-site': {
    summary: '--account <id> --name <name>   a site (integer id) of the account',
    options: { account: { type: 'string' }, name: { type: 'string' } },
    run: async (deps, v) => ({
      site: siteView(
        await unwrap(
          createSite(deps)({
            accountId: required(v, 'account'),
            name: text(required(v, 'name'), 'name', 200),
          }),
        ),
      ),
    }),
  },
  'create-user': {
    summary: `--account <id> --email <address> [--password <p>]   password also from $${PASSWORD_ENV}; generated and printed when neither is given`,
    options: { account: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
    run: async (deps, v, _p, io) => {
      const email = required(v, 'email').trim();
      if (!/^[^@\s]+@[^@\s]+$/.test(email) || email.length > 254)
        throw new UsageError('--email must be an e-mail address');
      const { password, generated } = passwordOf(v, io);
      const user = await unwrap(createUser(deps)({ accountId: required(v, 'account'), email, password }));
      return { user: userView(user), ...(generated ? { password } : {}) };
    },
  },
  'set-password': {
    summary: `--user <id|email> [--password <p>]   new password (or $${PASSWORD_ENV}, or generated); ends their sessions`,
    options: { user: { type: 'string' }, password: { type: 'string' } },
    run: async (deps, v, _p, io) => {
      const user = await userOf(deps, v);
      const { password, generated } = passwordOf(v, io);
      await unwrap(setPassword(deps)({ userId: user.id, password }));
      return { user: userView(user), ...(generated ? { password } : {}) };
    },
  },
  'disable-user': {
    summary: '--user <id|email>   their sessions end and their tokens stop working',
    options: { user: { type: 'string' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      return { user: userView(await unwrap(setUserDisabled(deps)({ userId: user.id, disabled: true }))) };
    },
  },
  'enable-user': {
    summary: '--user <id|email>   undoes disable-user (their unexpired, unrevoked tokens work again)',
    options: { user: { type: 'string' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      return { user: userView(await unwrap(setUserDisabled(deps)({ userId: user.id, disabled: false }))) };
    },
  },
  'add-member': {
    summary: "--site <id> --user <id|email>   the user's tokens reach the site",
    options: { site: { type: 'string' }, user: { type: 'string' } },
    run: async (deps, v) => {
      const siteId = integer(required(v, 'site'), 'site', 1, 2_147_483_647);
      const user = await userOf(deps, v);
      const { added } = await unwrap(addMember(deps)({ siteId, userId: user.id }));
      return { membership: { site_id: siteId, user_id: user.id, added } };
    },
  },
  'remove-member': {
    summary: "--site <id> --user <id|email>   the user's tokens stop reaching the site",
    options: { site: { type: 'string' }, user: { type: 'string' } },
    run: async (deps, v) => {
      const siteId = integer(required(v, 'site'), 'site', 1, 2_147_483_647);
      const user = await userOf(deps, v);
      const { removed } = await unwrap(removeMember(deps)({ siteId, userId: user.id }));
      return { membership: { site_id: siteId, user_id: user.id, removed } };
    },
  },
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
      const secret = await issueClientSecret(deps)(app.id)();
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
    summary: `--app <id> [--name <name>] [--expires-in-days 1..${ACCESS_TOKEN_MAX_TTL_DAYS}]   an access token of the app's owner, printed once`,
    options: { app: { type: 'string' }, name: { type: 'string' }, 'expires-in-days': { type: 'string' } },
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
  list: {
    summary:
      'accounts | users [--account] | sites [--account] [--user] | members --site | apps [--user] | tokens [--user] [--app] | keys',
    options: {
      account: { type: 'string' },
      user: { type: 'string' },
      site: { type: 'string' },
      app: { type: 'string' },
    },
    positionals: true,
    run: async (deps, v, positionals) => {
      const what = positionals[0];
      const userId = v.user === undefined ? undefined : (await userOf(deps, v)).id;
      switch (what) {
        case 'accounts':
          return { accounts: (await deps.accounts.listAccounts()()).map(accountView) };
        case 'users':
          return {
            users: (
              await deps.accounts.listUsers(
                v.account === undefined ? {} : { accountId: v.account as string },
              )()
            ).map(userView),
          };
        case 'sites': {
          const sites =
            userId !== undefined
              ? await deps.sites.sitesOf(userId)()
              : await deps.sites.listSites(
                  v.account === undefined ? {} : { accountId: v.account as string },
                )();
          return { sites: sites.map(siteView) };
        }
        case 'members': {
          const siteId = integer(required(v, 'site'), 'site', 1, 2_147_483_647);
          if ((await deps.sites.findSite(siteId)()) === undefined)
            throw new CommandError(notFound('site', siteId));
          const members = await deps.sites.listMembers(siteId)();
          return {
            members: members.map((m) => ({
              site_id: siteId,
              user_id: m.userId,
              email: m.email,
              added_at: iso(m.addedAt),
            })),
          };
        }
        case 'apps':
          return {
            apps: (await deps.apps.list(userId === undefined ? {} : { userId })()).map(appView),
          };
        case 'tokens': {
          const now = deps.clock.now();
          const page = await deps.tokens.list(
            {
              ...(userId === undefined ? {} : { userId }),
              ...(v.app === undefined ? {} : { appId: v.app as string }),
            },
            { page: 1, perPage: 1000 },
          )();
          return {
            tokens: page.items.map((t) => ({ ...tokenView(t, now), user_id: t.userId })),
            total_count: page.total,
          };
        }
        case 'keys': {
          const now = deps.clock.now();
          const keys = await deps.keys.list()();
          const signing = signingKeyAt(keys, now)?.kid;
          const published = new Set(publishedKeys(keys, now).map((k) => k.kid));
          return {
            keys: keys.map((k) => ({
              kid: k.kid,
              state: KEY_STATE(
                k.kid,
                signing,
                published,
                k.revokedAt !== null,
                k.activatesAt > now && k.revokedAt === null,
              ),
              published: published.has(k.kid),
              created_at: iso(k.createdAt),
              activates_at: iso(k.activatesAt),
              revoked_at: iso(k.revokedAt),
              last_token_expires_at: iso(k.lastTokenExpiresAt),
            })),
          };
        }
        default:
          throw new UsageError('list what? accounts, users, sites, members, apps, tokens or keys');
      }
    },
  },
};

export const usage = (): string =>
  [
    'usage: npm run admin -- <command> [--flags]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name} ${c.summary}`),
    '',
    'Each command prints one JSON object on stdout; logs and errors go to stderr.',
  ].join('\n');

/** Runs one admin command; answers the process exit code. */
export const runAdmin = async (argv: readonly string[], deps: Deps, io: CliIo): Promise<number> => {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.err(usage());
    io.out({ commands: Object.keys(COMMANDS) });
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  try {
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
    let parsed;
    try {
      parsed = parseArgs({
        args: [...rest],
        options: command.options,
        strict: true,
        allowPositionals: command.positionals === true,
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    io.out(await command.run(deps, parsed.values, parsed.positionals, io));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${usage()}`);
      io.out({ error: { code: 'usage', message: error.message } });
      return EXIT.usage;
    }
    if (error instanceof CommandError) {
      // The same table as HTTP: one code and one sentence per domain error.
      const { code, detail, title } = authProblem(error.error);
      const message = detail ?? title;
      io.err(`${name}: ${message}`);
      io.out({ error: { code, message } });
      return EXIT.data;
    }
    throw error;
  }
};
