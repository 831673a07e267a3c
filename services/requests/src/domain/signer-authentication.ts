import type { SignerEntry } from '@esign/contracts';
import { fieldError, type FieldError } from './paths.js';
import type { Contact } from './signer.js';

/**
 * Signer authentication (ADR 2001): before the contract is shown, a signer proves who
 * they are with an access code the sender gave them out of band, or a one-time code
 * e-mailed or texted to them. Wrong codes lock the link for a while; one-time codes
 * expire and work once; texts are capped per signer per hour (each costs money).
 */
export type AuthMethod = 'access_code' | 'email_otp' | 'sms_otp';

export interface AuthPolicy {
  /** Wrong codes in a row that lock the link. */
  readonly maxAttempts: number;
  readonly lockSeconds: number;
  readonly otpTtlSeconds: number;
  /** Texts one signer may be sent in any hour. */
  readonly smsPerHour: number;
  /** How long a passed check lets the signer sign without entering a code again. */
  readonly passSeconds: number;
}

export const DEFAULT_AUTH_POLICY: AuthPolicy = {
  maxAttempts: 5,
  lockSeconds: 15 * 60,
  otpTtlSeconds: 10 * 60,
  smsPerHour: 3,
  passSeconds: 60 * 60,
};

/** Where one signer's check stands: kept per Request and signer. */
export interface Challenge {
  readonly method: AuthMethod;
  /** The access code, hashed (scrypt); null for one-time codes. */
  readonly accessCodeHash: string | null;
  readonly failedAttempts: number;
  readonly lockedUntil: string | null;
  /** The live one-time code, hashed; null once used or before the first is sent. */
  readonly otpHash: string | null;
  readonly otpExpiresAt: string | null;
  /** When texts were sent in the last hour (for the cap). */
  readonly smsSentAt: readonly string[];
  /** The last time the signer passed the check. */
  readonly passedAt: string | null;
}

export const newChallenge = (method: AuthMethod, accessCodeHash: string | null): Challenge => ({
  method,
  accessCodeHash,
  failedAttempts: 0,
  lockedUntil: null,
  otpHash: null,
  otpExpiresAt: null,
  smsSentAt: [],
  passedAt: null,
});

const ms = (iso: string) => Date.parse(iso);
const plus = (iso: string, seconds: number) => new Date(ms(iso) + seconds * 1000).toISOString();

/**
 * The create body's rules for one signer's `authentication`: an access code exactly when
 * the method is `access_code`, and the contact detail the method sends to.
 */
export const checkAuthentication = (
  entry: SignerEntry,
  contact: Contact,
  path: string,
): { errors: FieldError[]; method: AuthMethod | null } => {
  const auth = entry.authentication;
  if (auth === undefined) return { errors: [], method: null };
  // '' for a body that is the entry itself (ADR 3280).
  const prefix = path === '' ? '' : `${path}.`;
  const errors: FieldError[] = [];
  if (auth.method === 'access_code' && auth.access_code === undefined)
    errors.push(fieldError(`${prefix}authentication.access_code`, 'required for the method access_code'));
  if (auth.method !== 'access_code' && auth.access_code !== undefined)
    errors.push(
      fieldError(
        `${prefix}authentication.access_code`,
        `only the method access_code takes a code, not ${auth.method}`,
      ),
    );
  if (auth.method === 'email_otp' && contact.email === null)
    errors.push(
      fieldError(
        `${prefix}signer.email`,
        'required: authentication email_otp e-mails the code to this address',
      ),
    );
  if (auth.method === 'sms_otp' && contact.mobileNumber === null)
    errors.push(
      fieldError(
        `${prefix}signer.mobile_number`,
        'required: authentication sms_otp texts the code to this number',
      ),
    );
  return { errors, method: auth.method };
};

export type Locked = { readonly _tag: 'Locked'; readonly until: string };

/** Whether the link is locked now (a lock that has run out is no lock). */
export const lockedNow = (challenge: Challenge, now: string): Locked | null =>
  challenge.lockedUntil !== null && ms(challenge.lockedUntil) > ms(now)
    ? { _tag: 'Locked', until: challenge.lockedUntil }
    : null;

/** A wrong code: counts, and the last allowed one locks the link (and starts the count again). */
export const failed = (
  challenge: Challenge,
  now: string,
  policy: AuthPolicy,
): { challenge: Challenge; attemptsLeft: number; locked: Locked | null } => {
  const attempts = challenge.failedAttempts + 1;
  if (attempts >= policy.maxAttempts) {
    const until = plus(now, policy.lockSeconds);
    return {
      challenge: { ...challenge, failedAttempts: 0, lockedUntil: until },
      attemptsLeft: 0,
      locked: { _tag: 'Locked', until },
    };
  }
  return {
    challenge: { ...challenge, failedAttempts: attempts },
    attemptsLeft: policy.maxAttempts - attempts,
    locked: null,
  };
};

/** The right code: the count starts again, and a one-time code is spent. */
export const passed = (challenge: Challenge, now: string): Challenge => ({
  ...challenge,
  failedAttempts: 0,
  lockedUntil: null,
  otpHash: null,
  otpExpiresAt: null,
  passedAt: now,
});

/** Whether a one-time code is live (sent, unused, unexpired). */
export const liveOtp = (challenge: Challenge, now: string): boolean =>
  challenge.otpHash !== null && challenge.otpExpiresAt !== null && ms(challenge.otpExpiresAt) > ms(now);

export type IssueRefusal = Locked | { readonly _tag: 'SmsLimit'; readonly retryAt: string };

/**
 * A new one-time code may be sent unless the link is locked or, for texts, the signer
 * was texted `smsPerHour` times in the last hour. Answers the challenge with the new
 * code's hash and expiry.
 */
export const issueOtp = (
  challenge: Challenge,
  otpHash: string,
  now: string,
  policy: AuthPolicy,
): { _tag: 'Issued'; challenge: Challenge; expiresAt: string } | IssueRefusal => {
  const locked = lockedNow(challenge, now);
  if (locked !== null) return locked;
  const hourAgo = ms(now) - 3600_000;
  const recent = challenge.smsSentAt.filter((t) => ms(t) > hourAgo);
  if (challenge.method === 'sms_otp' && recent.length >= policy.smsPerHour)
    return {
      _tag: 'SmsLimit',
      retryAt: plus(
        recent.reduce((a, b) => (ms(a) < ms(b) ? a : b)),
        3600,
      ),
    };
  const expiresAt = plus(now, policy.otpTtlSeconds);
  return {
    _tag: 'Issued',
    expiresAt,
    challenge: {
      ...challenge,
      otpHash,
      otpExpiresAt: expiresAt,
      smsSentAt: challenge.method === 'sms_otp' ? [...recent, now] : recent,
    },
  };
};
