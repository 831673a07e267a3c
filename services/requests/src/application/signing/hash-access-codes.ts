import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { CreateRequestBody, SignerAuthentication } from '@esign/contracts';
import { newChallenge, type Challenge } from '../../domain/signer-authentication.js';
import type { Deps } from '../deps.js';

/**
 * The challenge a signer's `authentication` asks for, its access code hashed: before any
 * transaction, since scrypt is slow on purpose. At create, for a signer added to a draft
 * (ADR 3280) and for a draft's signer's new check (ADR 3290).
 */
export const challengeFor =
  (deps: Pick<Deps, 'codeHasher'>) =>
  (auth: SignerAuthentication): TE.TaskEither<never, Challenge> =>
    auth.method !== 'access_code' || auth.access_code === undefined
      ? TE.right(newChallenge(auth.method, null))
      : pipe(
          deps.codeHasher.hash(auth.access_code),
          TE.map((hash) => newChallenge('access_code', hash)),
        );

/** The challenges of a new Request: one per signer with a method. Answers them by body index. */
export const hashAccessCodes =
  (deps: Pick<Deps, 'codeHasher'>) =>
  (body: CreateRequestBody): TE.TaskEither<never, ReadonlyMap<number, Challenge>> =>
    pipe(
      body.signers.map((entry, index) => ({ auth: entry.authentication, index })),
      TE.traverseSeqArray(({ auth, index }) =>
        auth === undefined
          ? TE.right([] as [number, Challenge][])
          : pipe(
              challengeFor(deps)(auth),
              TE.map((challenge) => [[index, challenge]] as [number, Challenge][]),
            ),
      ),
      TE.map((lists) => new Map(lists.flat())),
    );
