import { escapeHtml, type PasswordChangedBy } from '@esign/contracts';
import type { EmailContent } from './message-content.js';

// Auth's e-mails to users (ADRs 3000, 3020, 3030, 3040, 3060, 3090), written in English: users have no language yet.

/** What an admin may do (ADRs 3030, 3040, 3050, 3060, 3070, 3080): what a new admin gains. */
export const ADMINS_MAY =
  "invite the account's users, disable and enable them, make and remove its admins, create and rename its Sites, and rename the account";

export const when = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export const both = (
  paragraphs: readonly string[],
  html: readonly string[],
): { text: string; html: string } => ({
  text: `${paragraphs.join('\n\n')}\n`,
  html: html.join('\n'),
});

/** What a password link e-mail says around its link: one per reason it was sent. */
interface PasswordLinkWording {
  readonly subject: string;
  readonly opening: string;
  readonly label: string;
  readonly closing: readonly string[];
}

const SIGNS_OUT = 'Choosing one signs you out everywhere and stops the access tokens you made.';

/** The user asked for the link (ADR 3000). */
const askedByUser: PasswordLinkWording = {
  subject: 'Choose a new password',
  opening: 'Someone asked for a link to choose a new password for your E-sign account.',
  label: 'Choose a new password',
  closing: [SIGNS_OUT, 'If you did not ask for this, ignore this e-mail: your password stays as it is.'],
};

/** An operator sent it to an existing user (ADR 3160). */
const sentByOperator: PasswordLinkWording = {
  subject: 'Choose a new password',
  opening: 'An operator of E-sign sent you a link to choose a new password for your E-sign account.',
  label: 'Choose a new password',
  closing: [SIGNS_OUT, 'If you did not expect this, ignore this e-mail: your password stays as it is.'],
};

/** An operator sent it to a user they just made, who has no password yet (ADR 3160). */
const welcome = (accountName: string, email: string | undefined): PasswordLinkWording => ({
  subject: 'Your E-sign account: choose your password',
  opening: `An operator of E-sign made you a user of the account ${accountName}${email === undefined ? '' : `, as ${email}`}.`,
  label: 'Choose your password',
  closing: [
    'Then sign in with this address and that password.',
    'If you did not expect this, ignore this e-mail: nobody can sign in as you without choosing the password.',
  ],
});

/**
 * The link to choose a password, until when it works, and what to do when one did not
 * expect it: asked for by the user (ADR 3000), or sent by an operator (ADR 3160), to a
 * user they just made (`welcome`: the account's name) or not.
 */
export const composePasswordReset = (input: {
  readonly resetUrl: string;
  readonly expiresAt: string;
  readonly email?: string;
  readonly byOperator?: boolean;
  readonly welcome?: { readonly accountName: string };
}): EmailContent => {
  const wording =
    input.welcome !== undefined
      ? welcome(input.welcome.accountName, input.email)
      : input.byOperator === true
        ? sentByOperator
        : askedByUser;
  const until = when(input.expiresAt);
  const linkText = `${wording.label} here (the link works once, until ${until}):\n${input.resetUrl}`;
  const linkHtml = `<p><a href="${escapeHtml(input.resetUrl)}">${wording.label}</a> (the link works once, until ${escapeHtml(until)}).</p>`;
  return {
    subject: wording.subject,
    ...both(
      [wording.opening, linkText, ...wording.closing],
      [
        `<p>${escapeHtml(wording.opening)}</p>`,
        linkHtml,
        ...wording.closing.map((p) => `<p>${escapeHtml(p)}</p>`),
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
