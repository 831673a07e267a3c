import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Site } from '../domain/model.js';
import type { Deps } from './deps.js';

export const createSite =
  (deps: Deps) =>
  (input: { readonly accountId: string; readonly name: string }): TE.TaskEither<AuthError, Site> =>
    deps.sites.createSite({
      accountId: input.accountId,
      name: input.name.trim(),
      createdAt: deps.clock.now(),
    });

/**
 * Adds a user to a site of their own account. Their tokens reach it on the next
 * introspection; a dedicated user added to one site yields tokens that reach only it.
 */
export const addMember =
  (deps: Deps) =>
  (input: {
    readonly siteId: number;
    readonly userId: string;
  }): TE.TaskEither<AuthError, { added: boolean }> =>
    deps.sites.addMember(input.siteId, input.userId, deps.clock.now());

/** Removes a user from a site; their tokens stop reaching it as soon as the gateway's cache lapses. */
export const removeMember =
  (deps: Deps) =>
  (input: {
    readonly siteId: number;
    readonly userId: string;
  }): TE.TaskEither<AuthError, { removed: boolean }> =>
    deps.sites.removeMember(input.siteId, input.userId);
