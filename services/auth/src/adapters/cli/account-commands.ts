import { MAX_PG_INTEGER } from '@esign/contracts';
import { createAccount, setApiAccess } from '../../application/create-account.js';
import { addMember, createSite, removeMember } from '../../application/sites.js';
import { createUser, setAccountAdmin, setPassword, setUserDisabled } from '../../application/users.js';
import {
  bool,
  email,
  integer,
  PartlyDone,
  passwordOf,
  PASSWORD_ENV,
  required,
  text,
  unwrap,
  userOf,
  UsageError,
  type Command,
} from './cli-command.js';
import { accountView, siteView, userView } from './cli-views.js';
import { sendPasswordLink } from '../../application/operator-password-link.js';

/** Accounts, sites, users and memberships. */
export const ACCOUNT_COMMANDS: Record<string, Command> = {
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
    summary: `--account <id> --email <address> [--password <p> | --send-link]   password also from $${PASSWORD_ENV}; generated and printed when none is given; --send-link e-mails them a link to choose it instead (a week)`,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'send-link': { type: 'boolean' },
    },
    run: async (deps, v, _p, io) => {
      const address = email(required(v, 'email'), 'email');
      const sendLink = v['send-link'] === true;
      if (sendLink && (v.password !== undefined || (io.env[PASSWORD_ENV] ?? '') !== ''))
        throw new UsageError(
          `--send-link lets the user choose their password: give no --password or $${PASSWORD_ENV}`,
        );
      // With --send-link the password made here is never shown: the user chooses theirs.
      const { password, generated } = sendLink ? passwordOf({}, { ...io, env: {} }) : passwordOf(v, io);
      const user = await unwrap(
        createUser(deps)({ accountId: required(v, 'account'), email: address, password }),
      );
      if (sendLink) {
        // Two writes: a link that fails leaves the user made, which the operator is told,
        // with the command that sends the link, rather than a bare error and a retry that
        // would find the address taken.
        const until = await unwrap(sendPasswordLink(deps)({ userId: user.id, welcome: true })).catch(
          (error: unknown) => {
            const reason = error instanceof Error ? error.message : String(error);
            throw new PartlyDone(
              { user: userView(user) },
              'link_not_sent',
              `the user was made, but no link was sent (${reason}); send it with: send-password-link --user ${user.email}`,
            );
          },
        );
        return { user: userView(user), link_sent: { expires_at: until.toISOString() } };
      }
      return { user: userView(user), ...(generated ? { password } : {}) };
    },
  },
  'send-password-link': {
    summary:
      '--user <id|email>   e-mails them a link to choose a new password (a week; ends their other links); choosing it ends their sessions and tokens',
    options: { user: { type: 'string' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      const until = await unwrap(sendPasswordLink(deps)({ userId: user.id, welcome: false }));
      return { user: userView(user), link_sent: { expires_at: until.toISOString() } };
    },
  },
  'set-password': {
    summary: `--user <id|email> [--password <p>]   new password (or $${PASSWORD_ENV}, or generated); ends their sessions, revokes their access tokens and client secrets`,
    options: { user: { type: 'string' }, password: { type: 'string' } },
    run: async (deps, v, _p, io) => {
      const user = await userOf(deps, v);
      const { password, generated } = passwordOf(v, io);
      const { revoked } = await unwrap(setPassword(deps)({ userId: user.id, password }));
      return {
        user: userView(user),
        sessions_ended: revoked.sessionsEnded,
        tokens_revoked: revoked.tokensRevoked,
        client_secrets_removed: revoked.clientSecretsRemoved,
        ...(generated ? { password } : {}),
      };
    },
  },
  'disable-user': {
    summary:
      "--user <id|email>   their sessions end and their tokens stop working; they and the account's admins are e-mailed",
    options: { user: { type: 'string' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      return { user: userView(await unwrap(setUserDisabled(deps)({ userId: user.id, disabled: true }))) };
    },
  },
  'enable-user': {
    summary:
      "--user <id|email>   undoes disable-user (their unexpired, unrevoked tokens work again); they and the account's admins are e-mailed",
    options: { user: { type: 'string' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      return { user: userView(await unwrap(setUserDisabled(deps)({ userId: user.id, disabled: false }))) };
    },
  },
  'set-admin': {
    summary:
      "--user <id|email> --admin true|false   make them an admin of their account or no longer one; the account keeps an enabled admin; they and the account's admins are e-mailed",
    options: { user: { type: 'string' }, admin: { type: 'string' } },
    run: async (deps, v) => {
      const user = await userOf(deps, v);
      const admin = bool(required(v, 'admin'), 'admin');
      return { user: userView(await unwrap(setAccountAdmin(deps)({ userId: user.id, admin }))) };
    },
  },
  'add-member': {
    summary: "--site <id> --user <id|email>   the user's tokens reach the site",
    options: { site: { type: 'string' }, user: { type: 'string' } },
    run: async (deps, v) => {
      const siteId = integer(required(v, 'site'), 'site', 1, MAX_PG_INTEGER);
      const user = await userOf(deps, v);
      const { added } = await unwrap(addMember(deps)({ siteId, userId: user.id }));
      return { membership: { site_id: siteId, user_id: user.id, added } };
    },
  },
  'remove-member': {
    summary: "--site <id> --user <id|email>   the user's tokens stop reaching the site",
    options: { site: { type: 'string' }, user: { type: 'string' } },
    run: async (deps, v) => {
      const siteId = integer(required(v, 'site'), 'site', 1, MAX_PG_INTEGER);
      const user = await userOf(deps, v);
      const { removed } = await unwrap(removeMember(deps)({ siteId, userId: user.id }));
      return { membership: { site_id: siteId, user_id: user.id, removed } };
    },
  },
};
