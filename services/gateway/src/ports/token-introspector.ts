import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { TokenIntrospection } from '@esign/contracts';

export interface IntrospectionUnavailable {
  readonly _tag: 'IntrospectionUnavailable';
}

/** Asks auth whether a token (by its `jti`) is still active and which sites it reaches now. */
export type TokenIntrospector = (
  tokenId: string,
) => TE.TaskEither<IntrospectionUnavailable, TokenIntrospection>;
