import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { TokenIntrospection } from '@esign/contracts';

/**
 * Asks auth whether a token (by its `jti`) is still active and which sites it reaches now.
 * When auth gives no usable answer the task rejects with `AuthUnavailable`.
 */
export type TokenIntrospector = (tokenId: string) => TE.TaskEither<never, TokenIntrospection>;
