import { escapeHtml, type AccessChange, type PasswordChangedBy } from '@esign/contracts';
import { oneLine, type EmailContent } from './message-content.js';

// Auth's e-mails to users (ADRs 3000, 3020, 3030, 3040, 3060, 3090), written in English: users have no language yet.

/** What an admin may do (ADRs 3030, 3040, 3050, 3060, 3070, 3080): what a new admin gains. */
const ADMINS_MAY =
  "invite the account's users, disable and enable them, make and remove its admins, create and rename its Sites, and rename the account";

const when = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

const both = (paragraphs: readonly string[], html: readonly string[]): { text: string; html: string } => ({
  text: `${paragraphs.join('\n\n')}\n`,
  html: html.join('\n'),
});

/** The link to choose a new password, until when it works, and what to do when one did not ask. */
export const composePasswordReset = (input: {
  readonly resetUrl: string;
  readonly expiresAt: string;
}): EmailContent => {
  const until = when(input.expiresAt);
  return {
    subject: 'Choose a new password',
    ...both(
      [
        'Someone asked for a link to choose a new password for your E-sign account.',
        `Choose a new password here (the link works once, until ${until}):\n${input.resetUrl}`,
        'Choosing one signs you out everywhere and stops the access tokens you made.',
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ],
      [
        '<p>Someone asked for a link to choose a new password for your E-sign account.</p>',
        `<p><a href="${escapeHtml(input.resetUrl)}">Choose a new password</a> (the link works once, until ${escapeHtml(until)}).</p>`,
        '<p>Choosing one signs you out everywhere and stops the access tokens you made.</p>',
        '<p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>',
      ],
    ),
  };
};

const HOW: Record<PasswordChangedBy, string> = {
  user: 'by someone signed in to it',
  reset_link: 'with a link e-mailed to this address',
  operator: 'by an operator of the service',
};

/** That the password changed, how, what that ended, and what to do if it was not the user. */
export const composePasswordChanged = (input: {
  readonly email: string;
  readonly by: PasswordChangedBy;
  readonly at: string;
}): EmailContent => {
  const changed = `The password of your E-sign account ${input.email} was changed on ${when(input.at)}, ${HOW[input.by]}.`;
  const ended =
    'Every session of yours was ended, and the access tokens and client secrets you made stopped working.';
  const notYou =
    'If you did not do this, use "Forgotten your password?" on the sign-in page at once to choose a new one, and tell your account\'s administrator.';
  return {
    subject: 'Your password was changed',
    ...both(
      [changed, ended, notYou],
      [changed, ended, notYou].map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};

/**
 * An invitation to join an account: who asked, as what (a user, or an admin who also
 * manages the account, ADR 3090), the link, until when it works, and what if unexpected.
 */
export const composeInvitation = (input: {
  readonly accountName: string;
  readonly invitedBy: string;
  readonly email: string;
  readonly acceptUrl: string;
  readonly expiresAt: string;
  readonly admin: boolean;
}): EmailContent => {
  const until = when(input.expiresAt);
  const invited = input.admin
    ? `${input.invitedBy} invited you to join ${input.accountName} on E-sign as an admin, to send contracts for signature and to manage the account: you will be able to ${ADMINS_MAY}.`
    : `${input.invitedBy} invited you to join ${input.accountName} on E-sign, to send contracts for signature.`;
  const how = `You will sign in as ${input.email} with a password you choose now.`;
  const unexpected = 'If you did not expect this, ignore this e-mail: nothing is made until you accept.';
  return {
    subject: input.admin
      ? `Join ${input.accountName} on E-sign as an admin`
      : `Join ${input.accountName} on E-sign`,
    ...both(
      [
        invited,
        `Accept and choose your password here (the link works once, until ${until}):\n${input.acceptUrl}`,
        how,
        unexpected,
      ],
      [
        `<p>${escapeHtml(invited)}</p>`,
        `<p><a href="${escapeHtml(input.acceptUrl)}">Accept and choose your password</a> (the link works once, until ${escapeHtml(until)}).</p>`,
        `<p>${escapeHtml(how)}</p>`,
        `<p>${escapeHtml(unexpected)}</p>`,
      ],
    ),
  };
};

/** The inviting admin is told their colleague joined, and what to do were it not them. */
export const composeInvitationAccepted = (input: {
  readonly accountName: string;
  readonly joined: string;
  readonly admin: boolean;
  readonly at: string;
}): EmailContent => {
  const as = input.admin ? ' as an admin' : '';
  const joined = `${input.joined} accepted your invitation and joined ${input.accountName} on E-sign${as} on ${when(input.at)}.`;
  const sites =
    'They are on the Sites you chose; you can change that on the Sites page, and see them on the Users page.';
  const notThem = input.admin
    ? 'If you do not know who that is, remove their admin role and disable them on the Users page at once: their sessions end and their access tokens stop.'
    : 'If you do not know who that is, disable them on the Users page at once: their sessions end and their access tokens stop.';
  return {
    subject: `${input.joined} joined ${input.accountName}${as}`,
    ...both(
      [joined, sites, notThem],
      [joined, sites, notThem].map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ),
  };
};

/**
 * What an admin changed about a user of an account, told to that user ("you") or, for a
 * change of role, to the account's other admins: who did it, when, what it means, and what
 * to do were it not expected. Admins are peers (ADR 3060), so a change nobody expected may
 * be a stolen admin session at work: the advice says how to stop it.
 */
export const composeAccessChanged = (input: {
  /** The recipient. */
  readonly email: string;
  readonly accountName: string;
  readonly change: AccessChange;
  readonly user: string;
  readonly by: string;
  /** An operator of the service made it with the admin CLI (ADR 3120); `by` names no one. */
  readonly byOperator: boolean;
  readonly at: string;
}): EmailContent => {
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
    ? `If you did not expect this, ask the service's operators why. An admin of ${account} can undo it on the Users page.`
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
            ? `If you did not expect this, ask another admin of ${account} or the service's operators why. An admin can give you the role back on the Users page.`
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
                `If this is a mistake, ask ${input.byOperator ? `an admin of ${account} or the service's operators` : `an admin of ${account}`} to enable you again. There is nothing else you need to do.`,
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
