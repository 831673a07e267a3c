import { resolve } from 'node:path';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { isEmail, transform } from '@esign/contracts';
import {
  BoolFromEnv,
  CommonEnv,
  commonDefaults,
  amqpDefaults,
  IntFromEnv,
  configLoaders,
  PrincipalPublicKeyFromEnv,
  KeyEncryptionKeysFromEnv,
  HttpsUrlFromEnv,
  UrlFromEnv,
} from '@esign/platform';
import { migrateConfigLoaders } from '@esign/platform/database';

const string = (name: string, parse: (s: string) => E.Either<string, string>) =>
  transform(
    t.string,
    (s) => parse(s.trim()),
    (s) => s,
    (u): u is string => typeof u === 'string',
    name,
  );

/** `E-signature <no-reply@example.com>` or a bare address. */
const MailboxFromEnv = string('Mailbox', (s) => {
  const address = /^[^<>]*<([^<>]+)>$/.exec(s)?.[1] ?? s;
  return isEmail(address.trim()) && !/[\r\n]/.test(s)
    ? E.right(s)
    : E.left('must be an e-mail address, optionally with a name: Name <address@example.com>');
});

const TwilioSidFromEnv = string('TwilioAccountSid', (s) =>
  /^AC[0-9a-fA-F]{32}$/.test(s) ? E.right(s) : E.left('must be a Twilio Account SID: AC and 32 hex digits'),
);

const TwilioSenderFromEnv = string('TwilioSender', (s) =>
  /^\+[1-9]\d{6,14}$/.test(s) || /^MG[0-9a-fA-F]{32}$/.test(s)
    ? E.right(s)
    : E.left('must be a phone number in E.164 (+15551234567) or a Messaging Service SID (MG…)'),
);

const NonEmptyFromEnv = string('NonEmpty', (s) => (s === '' ? E.left('must not be empty') : E.right(s)));

/** Where users reach the service's operators: an e-mail address or an https page. */
const OperatorContactFromEnv = string('OperatorContact', (s) => {
  if (isEmail(s)) return E.right(s);
  const page = /^https:\/\/\S+$/.test(s) && URL.canParse(s) ? s : undefined;
  return page === undefined
    ? E.left(
        'must be an e-mail address (support@example.com) or an https address (https://example.com/support)',
      )
    : E.right(page);
});

/** Back-off steps in milliseconds, e.g. `1000,5000,30000`. */
const DelaysFromEnv = transform<t.StringC, number[]>(
  t.string,
  (s) => {
    const parts = s.split(',').map((p) => p.trim());
    const delays = parts.map(Number);
    return parts.length >= 1 &&
      parts.length <= 20 &&
      parts.every((p) => /^\d+$/.test(p)) &&
      delays.every((d) => d >= 1 && d <= 86_400_000)
      ? E.right(delays)
      : E.left('must be 1 to 20 comma-separated delays in milliseconds (1 to 86400000)');
  },
  (a) => a.join(','),
  (u): u is number[] => Array.isArray(u),
  'DelaysFromEnv',
);

const TWILIO_KEYS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;

const Fields = t.intersection([
  t.type({
    ...CommonEnv,
    PORT: IntFromEnv(1, 65535),
    DATABASE_URL: UrlFromEnv('postgres', 'postgresql'),
    AMQP_URL: UrlFromEnv('amqp', 'amqps'),
    EMAIL_FROM: MailboxFromEnv,
    /** Carries the Twilio credentials: https only (http to loopback for test doubles), L12. */
    TWILIO_API_BASE_URL: HttpsUrlFromEnv,
    NOTIFIER_OUTBOX_DIR: NonEmptyFromEnv,
    NOTIFIER_RETRY_DELAYS_MS: DelaysFromEnv,
    NOTIFIER_PREFETCH: IntFromEnv(1, 1000),
    NOTIFIER_SEND_CONCURRENCY: IntFromEnv(1, 100),
    /** SMTP connections kept open to the relay; each carries one message at a time. */
    NOTIFIER_SMTP_CONNECTIONS: IntFromEnv(1, 100),
    /**
     * How long a claimed message keeps other workers off it. Keep it well above the
     * senders' timeouts (SMTP 30 s, Twilio 15 s): only a crashed or cut-off worker should
     * lose a claim. A message a worker held when it crashed goes out again after this.
     */
    NOTIFIER_LEASE_MS: IntFromEnv(1000, 3_600_000),
    /** `id:secret[,id:secret]`: seals webhook secrets at rest; the first seals, all open (ADR 1312). */
    KEY_ENCRYPTION_KEYS: KeyEncryptionKeysFromEnv,
    /** The gateway's public key: verifies the principal it forwards to the webhook API (ADR 1310). */
    PRINCIPAL_PUBLIC_KEY: PrincipalPublicKeyFromEnv,
    WEBHOOKS_ALLOW_HTTP: BoolFromEnv,
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: BoolFromEnv,
    WEBHOOKS_CONNECT_TIMEOUT_MS: IntFromEnv(100, 60_000),
    WEBHOOKS_RESPONSE_TIMEOUT_MS: IntFromEnv(100, 120_000),
    WEBHOOKS_RETRY_BASE_DELAY_MS: IntFromEnv(1, 3_600_000),
    WEBHOOKS_RETRY_MAX_DELAY_MS: IntFromEnv(1, 86_400_000),
    WEBHOOKS_RETRY_WINDOW_MS: IntFromEnv(1, 30 * 86_400_000),
    WEBHOOKS_DISABLE_AFTER_MS: IntFromEnv(1, 30 * 86_400_000),
    WEBHOOKS_POLL_INTERVAL_MS: IntFromEnv(10, 60_000),
    /** The dispatcher's longest sleep with nothing due (ADR 2900). */
    WEBHOOKS_IDLE_POLL_INTERVAL_MS: IntFromEnv(10, 3_600_000),
    WEBHOOKS_CONCURRENCY: IntFromEnv(1, 256),
    WEBHOOKS_RETENTION_DAYS: IntFromEnv(1, 3650),
    REDIS_TIMEOUT_MS: IntFromEnv(10, 60_000),
    NOTIFIER_QUOTA_KEY_PREFIX: NonEmptyFromEnv,
    /** Notifier replicas: each keeps 1/N of every quota on its own while Redis is away. */
    NOTIFIER_REPLICAS: IntFromEnv(1, 1000),
    /** Messages a day per Site and per recipient, by channel (0: that quota is off). */
    NOTIFIER_SITE_DAILY_EMAILS: IntFromEnv(0, 10_000_000),
    NOTIFIER_SITE_DAILY_SMS: IntFromEnv(0, 10_000_000),
    NOTIFIER_RECIPIENT_DAILY_EMAILS: IntFromEnv(0, 100_000),
    NOTIFIER_RECIPIENT_DAILY_SMS: IntFromEnv(0, 100_000),
  }),
  t.partial({
    /**
     * How users reach the operators, named in the e-mails that tell them of an operator's
     * change (ADR 3120): "ask the service's operators (support@example.com) why".
     */
    OPERATOR_CONTACT: OperatorContactFromEnv,
    SMTP_URL: UrlFromEnv('smtp', 'smtps'),
    TWILIO_ACCOUNT_SID: TwilioSidFromEnv,
    TWILIO_AUTH_TOKEN: NonEmptyFromEnv,
    TWILIO_FROM: TwilioSenderFromEnv,
    /**
     * The public address of the gateway's `/callbacks/twilio/sms-status`, given to Twilio
     * with each SMS: Twilio reports there an SMS it accepted and could not deliver, told
     * as the message's failure (ADR 3880). Unset: no reports asked for.
     */
    TWILIO_STATUS_CALLBACK_URL: HttpsUrlFromEnv,
    /**
     * The limiter store shared with the gateway's rate limits (ADR 0903, 1320). Unset, the
     * daily quotas are counted in this process alone (one replica, `npm start`, tests).
     */
    REDIS_URL: UrlFromEnv('redis', 'rediss'),
  }),
]);

/** A failure of the variable `key` (with `value`), its parent re-labelled a plain record so the key reads as a property of it. */
const variableFailure = (
  c: t.Context,
  key: string,
  value: string | undefined,
  message: string,
): t.ValidationError => ({
  value,
  context: [
    ...c.slice(0, -1),
    { ...c[c.length - 1]!, type: t.UnknownRecord },
    { key, type: t.string, actual: value },
  ],
  message,
});

/**
 * Twilio needs all three of its settings; one or two of them is a mistake, not "no Twilio".
 * Its status callback's address is of no use without them (ADR 3880).
 */
export const Config = Object.assign(
  new t.Type<t.TypeOf<typeof Fields>, t.OutputOf<typeof Fields>, unknown>(
    'NotifierConfig',
    Fields.is,
    (u, c) => {
      const decoded = Fields.validate(u, c);
      if (E.isLeft(decoded)) return decoded;
      const given = TWILIO_KEYS.filter((k) => decoded.right[k] !== undefined);
      const callback = decoded.right.TWILIO_STATUS_CALLBACK_URL;
      if (given.length === TWILIO_KEYS.length) return decoded;
      // Reports are asked for with the SMS Twilio sends (ADR 3880): without Twilio, none.
      if (given.length === 0)
        return callback === undefined
          ? decoded
          : t.failures([
              variableFailure(
                c,
                'TWILIO_STATUS_CALLBACK_URL',
                callback,
                'is only used with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM',
              ),
            ]);
      return t.failures(
        TWILIO_KEYS.filter((k) => decoded.right[k] === undefined).map((k) =>
          variableFailure(
            c,
            k,
            undefined,
            `is required when ${given.join(' and ')} ${given.length === 1 ? 'is' : 'are'} set`,
          ),
        ),
      );
    },
    Fields.encode,
  ),
  { wrapped: Fields },
); // so tools (tests/deploy) can read the variables through the cross-field check
export type Config = t.TypeOf<typeof Config>;

export const defaults = {
  ...commonDefaults,
  PORT: '8083',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/esign_notifier',
  ...amqpDefaults,
  EMAIL_FROM: 'E-signature <no-reply@esign.localhost>',
  TWILIO_API_BASE_URL: 'https://api.twilio.com',
  NOTIFIER_OUTBOX_DIR: '.data/outbox',
  NOTIFIER_RETRY_DELAYS_MS: '1000,5000,30000,120000,600000',
  NOTIFIER_PREFETCH: '16',
  NOTIFIER_SEND_CONCURRENCY: '8',
  NOTIFIER_SMTP_CONNECTIONS: '10',
  NOTIFIER_LEASE_MS: '120000',
  WEBHOOKS_ALLOW_HTTP: 'false',
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'false',
  WEBHOOKS_CONNECT_TIMEOUT_MS: '5000',
  WEBHOOKS_RESPONSE_TIMEOUT_MS: '10000',
  WEBHOOKS_RETRY_BASE_DELAY_MS: '60000',
  WEBHOOKS_RETRY_MAX_DELAY_MS: '21600000',
  WEBHOOKS_RETRY_WINDOW_MS: '259200000',
  WEBHOOKS_DISABLE_AFTER_MS: '259200000',
  WEBHOOKS_POLL_INTERVAL_MS: '1000',
  WEBHOOKS_IDLE_POLL_INTERVAL_MS: '10000',
  WEBHOOKS_CONCURRENCY: '16',
  WEBHOOKS_RETENTION_DAYS: '30',
  REDIS_TIMEOUT_MS: '1000',
  NOTIFIER_QUOTA_KEY_PREFIX: 'esign:quota:',
  NOTIFIER_REPLICAS: '2',
  NOTIFIER_SITE_DAILY_EMAILS: '5000',
  NOTIFIER_SITE_DAILY_SMS: '1000',
  NOTIFIER_RECIPIENT_DAILY_EMAILS: '20',
  NOTIFIER_RECIPIENT_DAILY_SMS: '10',
};

/** Where the local sink writes: a relative NOTIFIER_OUTBOX_DIR is under the working directory. */
export const outboxDir = (config: Config, cwd = process.cwd()): string =>
  resolve(cwd, config.NOTIFIER_OUTBOX_DIR);

export const { parseConfig, loadConfig } = configLoaders(Config, defaults);

/** What `migrate.js` reads: the database and the log level, no other secret (L12). */
export { MigrateConfig } from '@esign/platform/database';
export const { migrateDefaults, loadMigrateConfig } = migrateConfigLoaders(defaults.DATABASE_URL);
