import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { isEmail } from '@esign/contracts';
import type { Deps } from '../../application/deps.js';
import { findUser } from '../../application/users.js';
import type { AuthError } from '../../domain/errors.js';

/** Where a command writes: exactly one JSON object to `out`, human lines to `err`. */
export interface CliIo {
  readonly out: (json: unknown) => void;
  readonly err: (line: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Password for create-user / set-password when --password is not given (keeps it out of `ps`). */
export const PASSWORD_ENV = 'ESIGN_USER_PASSWORD';

export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  readonly summary: string;
  readonly options: Record<string, { type: 'string' | 'boolean' }>;
  readonly positionals?: boolean;
  readonly run: (deps: Deps, values: Values, positionals: string[], io: CliIo) => Promise<unknown>;
}

/** A mistake in the command line: exit 64 with the usage. */
export class UsageError extends Error {}

/**
 * A command that did part of its work and not the rest: exit 1 with what it did (`done`),
 * the problem code of what it did not, and how to finish.
 */
export class PartlyDone extends Error {
  constructor(
    readonly done: Readonly<Record<string, unknown>>,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A use case's expected failure: exit 65 with its problem code. */
export class CommandError extends Error {
  constructor(readonly error: AuthError) {
    super(error._tag);
  }
}

export const unwrap = async <A>(useCase: TE.TaskEither<AuthError, A>): Promise<A> => {
  const result = await useCase();
  if (E.isLeft(result)) throw new CommandError(result.left);
  return result.right;
};

export const required = (values: Record<string, unknown>, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
};

export const integer = (raw: string, name: string, min: number, max: number): number => {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
};

export const bool = (raw: string, name: string): boolean => {
  if (/^(true|yes|1)$/i.test(raw)) return true;
  if (/^(false|no|0)$/i.test(raw)) return false;
  throw new UsageError(`--${name} must be true or false`);
};

export const text = (raw: string, name: string, max: number): string => {
  const value = raw.trim();
  if (value === '' || value.length > max || /[\u0000-\u001f\u007f]/.test(value))
    throw new UsageError(`--${name} must be 1 to ${max} characters without control characters`);
  return value;
};

/** An e-mail address by the API's own rule (the contracts' `isEmail`). */
export const email = (raw: string, name: string): string => {
  const value = raw.trim();
  if (!isEmail(value)) throw new UsageError(`--${name} must be an e-mail address`);
  return value;
};

export const passwordOf = (
  values: Record<string, unknown>,
  io: CliIo,
): { password: string; generated: boolean } => {
  const given = typeof values.password === 'string' ? values.password : io.env[PASSWORD_ENV];
  if (given !== undefined && given !== '') return { password: given, generated: false };
  return { password: randomBytes(18).toString('base64url'), generated: true };
};

/** The user named by `--user` (an id or an e-mail address). */
export const userOf = (deps: Deps, values: Record<string, unknown>) =>
  unwrap(findUser(deps)(required(values, 'user')));
