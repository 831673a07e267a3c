import { MAX_PG_INTEGER } from '@esign/contracts';
import {
  listAccounts,
  listApps,
  listKeys,
  listMembers,
  listSites,
  listTokens,
  listUsers,
} from '../../application/admin-lists.js';
import { appView, tokenView } from '../../application/views.js';
import { integer, required, unwrap, userOf, UsageError, type Command } from './cli-command.js';
import { accountView, keyView, memberView, siteView, userView } from './cli-views.js';

/** `list <what>`: every record of a kind, across accounts, filtered as the flags say. */
export const LIST_COMMAND: Command = {
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
    const account = v.account === undefined ? {} : { accountId: v.account as string };
    const user = userId === undefined ? {} : { userId };
    switch (what) {
      case 'accounts':
        return { accounts: (await unwrap(listAccounts(deps)())).map(accountView) };
      case 'users':
        return { users: (await unwrap(listUsers(deps)(account))).map(userView) };
      case 'sites':
        return { sites: (await unwrap(listSites(deps)({ ...account, ...user }))).map(siteView) };
      case 'members': {
        const siteId = integer(required(v, 'site'), 'site', 1, MAX_PG_INTEGER);
        const members = await unwrap(listMembers(deps)(siteId));
        return { members: members.map((m) => memberView(siteId, m)) };
      }
      case 'apps':
        return { apps: (await unwrap(listApps(deps)(user))).map(appView) };
      case 'tokens': {
        const now = deps.clock.now();
        const page = await unwrap(
          listTokens(deps)({
            ...user,
            ...(v.app === undefined ? {} : { appId: v.app as string }),
          }),
        );
        return {
          tokens: page.items.map((t) => ({ ...tokenView(t, now), user_id: t.userId })),
          total_count: page.total,
        };
      }
      case 'keys':
        return { keys: (await unwrap(listKeys(deps)())).map(keyView) };
      default:
        throw new UsageError('list what? accounts, users, sites, members, apps, tokens or keys');
    }
  },
};
