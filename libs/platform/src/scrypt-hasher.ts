import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * A memory-hard KDF for secrets people type: auth's passwords, and the access codes a
 * sender gives a signer (the requests service, ADR 2001). One implementation, so both
 * store the same self-describing `$scrypt$…` form and compare in constant time.
 */
export interface SecretHasher {
  readonly hash: (secret: string) => () => Promise<string>;
  /** Constant-time comparison; a malformed stored hash verifies nothing. */
  readonly verify: (secret: string, encoded: string) => () => Promise<boolean>;
  /** Spends what `verify` spends and answers false, so an unknown account takes as long as a known one. */
  readonly verifyNobody: (secret: string) => () => Promise<false>;
  /** Whether a stored hash was made with other parameters than today's. */
  readonly needsRehash: (encoded: string) => boolean;
  /** Whether as many derivations wait as it will queue. */
  readonly saturated: () => boolean;
}

/**
 * scrypt parameters. The production choice, N = 2^15, r = 8, p = 3, costs 32 MiB and
 * about 0.1 s per hash on one core: one of OWASP's equivalent scrypt settings
 * (N=2^17,r=8,p=1 / N=2^16,r=8,p=2 / N=2^15,r=8,p=3), chosen for the smallest memory per
 * concurrent sign-in. They travel with each hash, so they can be raised later: a hash
 * made with other parameters is re-made at the user's next sign-in.
 */
export interface ScryptParams {
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

export const PRODUCTION_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;

const derive = (password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> => {
  const N = 2 ** params.logN;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, options, (error, key) =>
      error === null ? resolve(key) : reject(error),
    ),
  );
};

const encode = (params: ScryptParams, salt: Buffer, key: Buffer): string =>
  `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;

interface Decoded {
  readonly params: ScryptParams;
  readonly salt: Buffer;
  readonly key: Buffer;
}

const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{32,})$/;

const decode = (encoded: string): Decoded | undefined => {
  const match = FORMAT.exec(encoded);
  if (match === null) return undefined;
  const params = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  // Refuse parameters no hash of ours would carry, rather than spend whatever they ask.
  if (params.logN < 10 || params.logN > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16)
    return undefined;
  return { params, salt: Buffer.from(match[4]!, 'base64url'), key: Buffer.from(match[5]!, 'base64url') };
};

/**
 * At most `concurrency` derivations run at once (each holds 32 MiB while it runs and
 * occupies a libuv thread); the rest wait their turn instead of exhausting memory.
 */
const limiter = (concurrency: number) => {
  let running = 0;
  const waiting: Array<() => void> = [];
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  return Object.assign(run, { waiting: () => waiting.length });
};

export const scryptHasher = (
  params: ScryptParams = PRODUCTION_SCRYPT,
  options: { readonly concurrency?: number; readonly maxQueue?: number } = {},
): SecretHasher => {
  const limit = limiter(options.concurrency ?? 2);
  // A queue longer than this only adds latency: a client waiting seconds for a sign-in
  // is better told 503 at once (issue #18, MEDIUM 7).
  const maxQueue = options.maxQueue ?? 8;
  let nobody: Promise<string> | undefined;
  const hash = (password: string) => () =>
    limit(async () => {
      const salt = randomBytes(SALT_BYTES);
      return encode(params, salt, await derive(password, salt, params));
    });
  const verify = (password: string, encoded: string) => () =>
    limit(async () => {
      const decoded = decode(encoded);
      if (decoded === undefined) return false;
      const key = await derive(password, decoded.salt, decoded.params);
      return key.length === decoded.key.length && timingSafeEqual(key, decoded.key);
    });
  return {
    hash,
    verify,
    verifyNobody: (password) => async () => {
      nobody ??= hash('no user has this password')();
      await verify(password, await nobody)();
      return false;
    },
    saturated: () => limit.waiting() >= maxQueue,
    needsRehash: (encoded) => {
      const decoded = decode(encoded);
      return (
        decoded === undefined ||
        decoded.params.logN !== params.logN ||
        decoded.params.r !== params.r ||
        decoded.params.p !== params.p
      );
    },
  };
};
