import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal, PrincipalAudience } from '@esign/contracts';

/** Turns a principal into the signed statement forwarded in `x-esign-principal` to one service. */
export type PrincipalSigner = (
  audience: PrincipalAudience,
  principal: Principal,
) => TE.TaskEither<never, string>;
