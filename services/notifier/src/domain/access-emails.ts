import { escapeHtml, type AccessChange, type AppChange, type TokenOrigin } from '@esign/contracts';
import { ADMINS_MAY, both, when } from './account-emails.js';
import { oneLine, type EmailContent } from './message-content.js';

// What changed about someone's access to an account, and who did it (ADRs 3040, 3060, 3090, 3120).

/**
 * How the operator-facing advice names the operators: with their contact when the service
 * has one (`OPERATOR_CONTACT`: an address or a page), so the reader knows where to ask.
 */
const operators = (contact: string | undefined): string =>
  contact === undefined ? "the service's operators" : `the service's operators (${oneLine(contact)})`;

/** Every e-mail here may name the operators: how to reach them, when the service says. */
interface OperatorContact {
  readonly operatorContact?: string | undefined;
}

/**
 * What an admin changed about a user of an account, told to that user ("you") or, for a
 * change of role, to the account's other admins: who did it, when, what it means, and what
 * to do were it not expected. Admins are peers (ADR 3060), so a change nobody expected may
 * be a stolen admin session at work: the advice says how to stop it.
 */
export const composeAccessChanged = (
  input: {
    /** The recipient. */
    readonly email: string;
    readonly accountName: string;
    readonly change: AccessChange;
    readonly user: string;
    readonly by: string;
    /** An operator of the service made it with the admin CLI (ADR 3120); `by` names no one. */
    readonly byOperator: boolean;
    readonly at: string;
  } & OperatorContact,
): EmailContent => {
  // Typed by other people: one line each, so none breaks the subject or forges a paragraph.
  const account = oneLine(input.accountName);
  const user = oneLine(input.user);
  const by = input.byOperator ? 'An operator of the service' : oneLine(input.by);
  const byThem = !input.byOperator && input.by === input.email;
  const you = input.email === input.user;
  const actor = byThem ? 'You' : by;
  const on = `${account} on E-sign on ${when(input.at)}`;
  // An operator's change is no stolen session at work: ask about it, then undo it if need be.
  const check = input.byOperator
    ? `If you did not expect this, ask ${operators(input.operatorContact)} why. An admin of ${account} can undo it on the Users page.`
    : byThem
      ? 'If you did not do this, someone is using your session: change your password at once, which ends every session of yours, then undo the change on the Users page.'
      : `If you did not expect this, check the Users page at once: someone may be using ${by}'s session. An admin can remove their admin role and disable them there, which ends their sessions. Change your password too, which ends every session of yours.`;
  const steppedDown = !input.byOperator && input.by === input.user;
  const told = ((): { subject: string; paragraphs: readonly string[] } => {
    switch (input.change) {
      case 'made_admin':
        return you
          ? {
              subject: `You are now an admin of ${account}`,
              paragraphs: [`${by} made you an admin of ${on}.`, `You can now ${ADMINS_MAY}.`, check],
            }
          : {
              subject: `${user} is now an admin of ${account}`,
              paragraphs: [`${actor} made ${user} an admin of ${on}.`, `They can now ${ADMINS_MAY}.`, check],
            };
      case 'joined_as_admin':
        // Told to the account's other admins; the inviter hears `account.invitation_accepted`.
        return {
          subject: `${user} joined ${account} as an admin`,
          paragraphs: [
            `${user} accepted ${actor === 'You' ? 'your' : `${by}'s`} invitation and joined ${account} on E-sign as an admin on ${when(input.at)}.`,
            `They can now ${ADMINS_MAY}.`,
            check,
          ],
        };
      case 'removed_admin': {
        // Stepping down is the one change an admin makes to themselves.
        const happened = steppedDown
          ? `${you ? 'You' : user} stepped down as an admin of ${on}.`
          : `${actor} removed ${you ? 'you' : user} as an admin of ${on}.`;
        const still = 'still sign in and work in the account, but no longer manage its users or Sites.';
        if (!you)
          return {
            subject: `${user} is no longer an admin of ${account}`,
            paragraphs: [happened, `They can ${still}`, check],
          };
        // No longer an admin, they cannot undo it on the Users page themselves.
        const unexpected = steppedDown
          ? `If you did not do this, someone is using your session: change your password at once, which ends every session of yours, and ask an admin of ${account} to give you the role back.`
          : input.byOperator
            ? `If you did not expect this, ask another admin of ${account} or ${operators(input.operatorContact)} why. An admin can give you the role back on the Users page.`
            : `If you did not expect this, tell another admin of ${account} at once: someone may be using ${by}'s session. An admin can give you the role back on the Users page.`;
        return {
          subject: `You are no longer an admin of ${account}`,
          paragraphs: [happened, `You can ${still}`, unexpected],
        };
      }
      case 'disabled':
        return you
          ? {
              subject: `Your access to ${account} was turned off`,
              paragraphs: [
                `${by} turned off your access to ${on}.`,
                'Your sessions were ended, you can no longer sign in, and your access tokens and client secrets stopped working.',
                // An operator may have turned off the account's only admin.
                `If this is a mistake, ask ${input.byOperator ? `an admin of ${account} or ${operators(input.operatorContact)}` : `an admin of ${account}`} to enable you again. There is nothing else you need to do.`,
              ],
            }
          : {
              subject: `${user}'s access to ${account} was turned off`,
              paragraphs: [
                `${actor} turned off ${user}'s access to ${on}.`,
                'Their sessions were ended, they can no longer sign in, and their access tokens and client secrets stopped working.',
                check,
              ],
            };
      case 'enabled': {
        const tokens =
          'access tokens and client secrets that have neither expired nor been revoked work again.';
        return you
          ? {
              subject: `Your access to ${account} was restored`,
              paragraphs: [
                `${by} restored your access to ${on}.`,
                `You can sign in again, and your ${tokens}`,
                `If you did not expect this, tell an admin of ${account}.`,
              ],
            }
          : {
              subject: `${user}'s access to ${account} was restored`,
              paragraphs: [
                `${actor} restored ${user}'s access to ${on}.`,
                `They can sign in again, and their ${tokens}`,
                check,
              ],
            };
      }
    }
  })();
  return {
    subject: told.subject,
    ...both(
      told.paragraphs,
      told.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};

/**
 * An operator turned an account's API access off or on (ADR 3120), told to each of its
 * users: off, nobody of the account can sign in or use a token, which they would otherwise
 * discover as failures.
 */
export const composeApiAccessChanged = (
  input: {
    readonly accountName: string;
    readonly enabled: boolean;
    readonly at: string;
  } & OperatorContact,
): EmailContent => {
  const account = oneLine(input.accountName);
  const paragraphs = input.enabled
    ? [
        `An operator of the service turned ${account}'s access to E-sign on again on ${when(input.at)}.`,
        "You can sign in again, and the account's access tokens and client secrets that have neither expired nor been revoked work again.",
      ]
    : [
        `An operator of the service turned off ${account}'s access to E-sign on ${when(input.at)}.`,
        "Until it is turned on again, nobody in the account can sign in, and the account's access tokens and client secrets do not work. Nothing was deleted.",
        `If you did not expect this, ask ${operators(input.operatorContact)} why.`,
      ];
  return {
    subject: input.enabled
      ? `${account}'s access to E-sign was restored`
      : `${account}'s access to E-sign was turned off`,
    ...both(
      paragraphs,
      paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};

/**
 * An operator suspended, restored or deleted one of the user's Developer Apps (ADR 3120):
 * the integrations using it stop, or work again, and they would otherwise find out by
 * failing.
 */
export const composeAppChanged = (
  input: {
    readonly appName: string;
    readonly change: AppChange;
    readonly at: string;
  } & OperatorContact,
): EmailContent => {
  // Named by its owner, but kept to one line all the same.
  const app = `“${oneLine(input.appName)}”`;
  const by = `An operator of the service`;
  const on = `on ${when(input.at)}`;
  const ask = `If you did not expect this, ask ${operators(input.operatorContact)} why.`;
  const told: Record<AppChange, { subject: string; paragraphs: readonly string[] }> = {
    disabled: {
      subject: `Your Developer App ${app} was suspended`,
      paragraphs: [
        `${by} suspended your Developer App ${app} ${on}.`,
        'Its access tokens and client credentials do not work until it is restored. Nothing was deleted.',
        ask,
      ],
    },
    enabled: {
      subject: `Your Developer App ${app} was restored`,
      paragraphs: [
        `${by} restored your Developer App ${app} ${on}.`,
        'Its access tokens and client credentials that have neither expired nor been revoked work again.',
      ],
    },
    deleted: {
      subject: `Your Developer App ${app} was deleted`,
      paragraphs: [
        `${by} deleted your Developer App ${app} ${on}.`,
        'Its access tokens were revoked and its client secret removed: an integration that used them has stopped. If you still need one, make a new app on the Developer Apps page.',
        ask,
      ],
    },
  };
  const { subject, paragraphs } = told[input.change];
  return {
    subject,
    ...both(
      paragraphs,
      paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};

/**
 * An operator revoked one of the user's access tokens (`revoke-token`, ADR 3120). A token
 * the user gave someone else's app (`authorization_code`) is that app's access to them.
 */
export const composeTokenRevoked = (
  input: {
    readonly appName: string;
    readonly tokenName: string | null;
    readonly origin: TokenOrigin;
    readonly at: string;
  } & OperatorContact,
): EmailContent => {
  const app = `“${oneLine(input.appName)}”`;
  const granted = input.origin === 'authorization_code';
  const token =
    input.tokenName === null ? 'an access token' : `the access token “${oneLine(input.tokenName)}”`;
  const paragraphs = granted
    ? [
        `An operator of the service revoked the access you gave the app ${app} on ${when(input.at)}.`,
        'The app cannot act for you any more. Your own tokens, your sessions and your other authorised apps are not affected. If you still want to use the app, authorise it again.',
        `If you did not expect this, ask ${operators(input.operatorContact)} why.`,
      ]
    : [
        `An operator of the service revoked ${token} of your Developer App ${app} on ${when(input.at)}.`,
        'An integration that used it has stopped. Your other tokens and your sessions are not affected. If you still need one, create a new token on the Developer Apps page.',
        `If you did not expect this, ask ${operators(input.operatorContact)} why.`,
      ];
  return {
    subject: granted ? `The access you gave ${app} was revoked` : `An access token of ${app} was revoked`,
    ...both(
      paragraphs,
      paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};

/**
 * An operator withdrew the service's signing keys at once (`rotate-key --revoke-previous`,
 * a suspected leak; ADR 0301): every access token they signed stopped working. Told to each
 * user who held live ones, so that a stopped integration is mended with new tokens.
 */
export const composeSigningKeysWithdrawn = (
  input: { readonly tokens: number; readonly at: string } & OperatorContact,
): EmailContent => {
  const tokens = input.tokens === 1 ? 'your access token' : `your ${input.tokens} access tokens`;
  const paragraphs = [
    `An operator of the service withdrew its signing keys on ${when(input.at)}, as a precaution: ${tokens} stopped working then.`,
    'An integration that used one has stopped. Create new tokens on the Developer Apps page; an app that asks for its tokens with its client secret gets a working one the next time it asks. Your sessions, apps and client secrets are not affected.',
    `If you want to know why, ask ${operators(input.operatorContact)}.`,
  ];
  return {
    subject: input.tokens === 1 ? 'Your access token stopped working' : 'Your access tokens stopped working',
    ...both(
      paragraphs,
      paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};
