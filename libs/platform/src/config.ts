import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { formatErrors, transform } from '@esign/contracts';

/** An environment variable holding an integer within bounds. */
export const IntFromEnv = (min: number, max: number) =>
  transform<t.StringC, number>(
    t.string,
    (s) => {
      const n = Number(s);
      return /^-?\d+$/.test(s.trim()) && n >= min && n <= max
        ? E.right(n)
        : E.left(`must be an integer between ${min} and ${max}`);
    },
    (n) => String(n),
    (u): u is number => typeof u === 'number',
    'IntFromEnv',
  );

/** An environment variable holding a URL with one of the given schemes. */
export const UrlFromEnv = (...schemes: string[]) =>
  transform(
    t.string,
    (s) => {
      try {
        const url = new URL(s);
        return schemes.includes(url.protocol.replace(/:$/, ''))
          ? E.right(s)
          : E.left(`must be a ${schemes.join(' or ')} URL`);
      } catch {
        return E.left(`must be a ${schemes.join(' or ')} URL`);
      }
    },
    (s) => s,
    (u): u is string => typeof u === 'string',
    'UrlFromEnv',
  );

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

/**
 * An https URL; plain http only to this machine (a test double on loopback). Credentials
 * and signed requests never cross a network in the clear.
 */
export const HttpsUrlFromEnv = transform(
  t.string,
  (s) => {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return E.left('must be an https URL');
    }
    if (url.protocol === 'https:') return E.right(s);
    if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return E.right(s);
    return E.left('must be an https URL (http only to 127.0.0.1, localhost or [::1])');
  },
  (s) => s,
  (u): u is string => typeof u === 'string',
  'HttpsUrlFromEnv',
);

/**
 * The gateway's public address (PUBLIC_BASE_URL): an http(s) origin, nothing more. The
 * gateway serves `/v1.1`, `/sign`, `/app` and `/oauth` at the root of it; the web
 * application's links, redirects and cookie path assume that root, so an address with a
 * path would start a system whose web application cannot be used. A trailing `/` is dropped.
 */
export const PublicBaseUrlFromEnv = transform(
  t.string,
  (s) => {
    const refusal =
      'must be the public origin of the gateway (scheme, host and optional port, e.g. https://esign.example.com) with no path, query or credentials: it serves /v1.1, /sign and /app at its root';
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return E.left(refusal);
    }
    const bare =
      url.pathname === '/' && url.search === '' && url.hash === '' && !s.includes('?') && !s.includes('#');
    return (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      bare
      ? E.right(url.origin)
      : E.left(refusal);
  },
  (s) => s,
  (u): u is string => typeof u === 'string',
  'PublicBaseUrlFromEnv',
);

/** A secret of at least `min` characters, so a placeholder like "x" cannot reach production. */
export const SecretFromEnv = (min = 32) =>
  transform(
    t.string,
    (s) => (s.length >= min ? E.right(s) : E.left(`must be at least ${min} characters`)),
    (s) => s,
    (u): u is string => typeof u === 'string',
    'SecretFromEnv',
  );

export const LogLevel = t.keyof({
  trace: null,
  debug: null,
  info: null,
  warn: null,
  error: null,
  fatal: null,
  silent: null,
});

/** `true`/`false`/`1`/`0` from the environment. */
export const BoolFromEnv = transform<t.StringC, boolean>(
  t.string,
  (s) =>
    /^(true|1|yes)$/i.test(s)
      ? E.right(true)
      : /^(false|0|no)$/i.test(s)
        ? E.right(false)
        : E.left('must be true or false'),
  (b) => String(b),
  (u): u is boolean => typeof u === 'boolean',
  'BoolFromEnv',
);

/**
 * A rate as `<quota>/<seconds>s` (a bucket of `quota` calls refilled over
 * `seconds`), or `off`: the gateway's limits and the bulk-send worker's pacing (ADR 2201).
 */
export interface Rate {
  readonly quota: number;
  readonly windowSeconds: number;
}

const RATE = /^([1-9][0-9]{0,8})\/([1-9][0-9]{0,5})s$/;

export const RateFromEnv = transform<t.StringC, Rate | null>(
  t.string,
  (s) => {
    if (/^off$/i.test(s.trim())) return E.right(null);
    const match = RATE.exec(s.trim());
    return match === null
      ? E.left('must be <quota>/<seconds>s (e.g. 600/60s) or off')
      : E.right({ quota: Number(match[1]), windowSeconds: Number(match[2]) });
  },
  (rate) => (rate === null ? 'off' : `${rate.quota}/${rate.windowSeconds}s`),
  (u): u is Rate | null => u === null || (typeof u === 'object' && 'quota' in u),
  'RateFromEnv',
);

/**
 * The costly-call limits and their Redis buckets: the gateway spends them and the requests
 * service paces bulk sends from the same buckets, so both start from the same values.
 */
export const costlyRateDefaults = {
  RATE_LIMIT_COSTLY: '30/60s',
  RATE_LIMIT_COSTLY_TEST: '300/60s',
  RATE_LIMIT_KEY_PREFIX: 'esign:rate:',
  REDIS_TIMEOUT_MS: '1000',
} as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The secrets docker-compose.yml commits (public, so worthless): a service refuses to
 * start with any of them unless `ESIGN_LOCAL_DEVELOPMENT=true` says it runs on a
 * developer's machine (issue #18, L12). tests/deploy/compose.test.ts keeps the list
 * complete.
 */
export const COMPOSE_SECRETS: readonly string[] = [
  'postgres-compose-only',
  'esign-compose-only',
  'compose-key-encryption-secret-change-me-0123456789',
  'compose-notifier-key-encryption-secret-change-me-0123',
  'compose-only-url-signing-key-4f2a8e61d3b7',
  'compose-only-introspection-secret-5d0c9a17e3',
  // The `d` of the compose gateway's principal signing key.
  'qG17umdpBRvKEkjnDkaq5ZQBFYcfNzvNuE8dQfPPHgg',
];
export const LOCAL_DEVELOPMENT_FLAG = 'ESIGN_LOCAL_DEVELOPMENT';

const committedSecretsIn = (input: Record<string, string>, env: NodeJS.ProcessEnv): string[] =>
  env[LOCAL_DEVELOPMENT_FLAG] === 'true'
    ? []
    : Object.entries(input)
        .filter(([, value]) => COMPOSE_SECRETS.some((secret) => value.includes(secret)))
        .map(([name]) => name);

/**
 * Decodes the environment, filling `defaults` for unset variables. A wrong or missing
 * variable throws a `ConfigError` whose message is one line naming each offender.
 */
export const decodeConfig = <C extends t.Mixed>(
  codec: C,
  defaults: Partial<Record<string, string>>,
  env: NodeJS.ProcessEnv = process.env,
): t.TypeOf<C> => {
  const input: Record<string, string> = {};
  for (const key of new Set([...Object.keys(defaults), ...Object.keys(env)])) {
    const value = env[key] !== undefined && env[key] !== '' ? env[key] : defaults[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const committed = committedSecretsIn(input, env);
  if (committed.length > 0)
    throw new ConfigError(
      `invalid configuration: ${committed.join(', ')} ${committed.length === 1 ? 'holds a secret' : 'hold secrets'} committed in docker-compose.yml: set your own (${LOCAL_DEVELOPMENT_FLAG}=true allows them on a developer's machine only)`,
    );
  const result = codec.decode(input) as t.Validation<t.TypeOf<C>>;
  if (E.isRight(result)) return result.right;
  const problems = formatErrors(result.left).map((e) =>
    e.message === 'required' ? `${e.path} is required` : `${e.path} ${e.message}`,
  );
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
};

/** For `main.ts`: decode or stop start-up with the one line that names the variable. */
export const loadConfigOrExit = <C extends t.Mixed>(
  codec: C,
  defaults: Partial<Record<string, string>>,
  env: NodeJS.ProcessEnv = process.env,
): t.TypeOf<C> => {
  try {
    return decodeConfig(codec, defaults, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
};

/**
 * A service's two readers of its environment: `parseConfig` throws a `ConfigError`
 * (tests and tools), `loadConfig` stops start-up with the offending variable (`main.ts`).
 */
export const configLoaders = <C extends t.Mixed>(codec: C, defaults: Partial<Record<string, string>>) => ({
  parseConfig: (env: NodeJS.ProcessEnv): t.TypeOf<C> => decodeConfig(codec, defaults, env),
  loadConfig: (env: NodeJS.ProcessEnv = process.env): t.TypeOf<C> => loadConfigOrExit(codec, defaults, env),
});

/** Variables every service reads. */
export const CommonEnv = {
  LOG_LEVEL: LogLevel,
  /** Prefix of exchange and queue names; one broker can host several installations (or test runs). */
  AMQP_PREFIX: t.string,
  /** Address the HTTP server binds to; `npm start` binds every service but the gateway to loopback. */
  LISTEN_HOST: t.string,
};

export const commonDefaults = { LOG_LEVEL: 'info', AMQP_PREFIX: 'esign', LISTEN_HOST: '0.0.0.0' } as const;

/** The broker of the services that message (requests, notifier): a local RabbitMQ. */
export const amqpDefaults = { AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672' } as const;
