import { INVITATION_TTL_SECONDS } from '@esign/contracts';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { Deps } from './deps.js';
import { passwordLink, PASSWORD_RESETS_PER_HOUR } from './password-reset.js';
import { required } from './required.js';

/** How long a link an operator e-mails works (ADR 3160): a week, as an invitation's. */
export const OPERATOR_LINK_TTL_SECONDS = INVITATION_TTL_SECONDS;

/**
 * An operator e-mails a user a link to choose their password (ADR 3160): a user just made
 * (`welcome`: the e-mail names the account and says the link sets their first password),
 * so no password passes through a terminal, or one who lost theirs. The link is the one
 * a user asks for themselves (ADR 3000), working a week: it ends their other open links,
 * and choosing the password ends their sessions and tokens, e-mailing them that it
 * changed. A disabled user is refused; the hourly limit on links applies. Answers when
 * the link stops working.
 */
export const sendPasswordLink =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly welcome: boolean }): TE.TaskEither<AuthError, Date> =>
    pipe(
      deps.accounts.findUser(input.userId),
      required(() => notFound('user', input.userId)),
      TE.filterOrElse(
        (user) => user.disabledAt === null,
        (): AuthError => ({ _tag: 'UserDisabled' }),
      ),
      TE.flatMap((user) =>
        pipe(
          input.welcome
            ? pipe(
                deps.accounts.findAccount(user.accountId),
                required(() => notFound('account', user.accountId)),
                TE.map((account) => ({ welcome: { account_name: account.name } })),
              )
            : TE.right({}),
          TE.map((extra) =>
            passwordLink(deps, user, OPERATOR_LINK_TTL_SECONDS, { by_operator: true, ...extra }),
          ),
        ),
      ),
      TE.flatMap(({ reset, event }) =>
        pipe(
          deps.passwordResets.issue(reset, event, PASSWORD_RESETS_PER_HOUR),
          TE.flatMap((issued) =>
            issued === 'issued'
              ? TE.right(reset.expiresAt)
              : TE.left<AuthError, Date>({ _tag: 'Throttled', retryAfterSeconds: 3600 }),
          ),
        ),
      ),
    );
