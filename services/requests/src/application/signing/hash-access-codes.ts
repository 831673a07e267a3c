import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { CreateRequestBody } from '@esign/contracts';
import { newChallenge, type Challenge } from '../../domain/signer-authentication.js';
import type { Deps } from '../deps.js';

/**
 * The challenges of a new Request: one per signer with a method, access codes hashed
 * (before the transaction: scrypt is slow on purpose). Answers them by body index.
 */
export const hashAccessCodes =
  (deps: Pick<Deps, 'codeHasher'>) =>
  (body: CreateRequestBody): TE.TaskEither<never, ReadonlyMap<number, Challenge>> =>
    pipe(
      body.signers.map((entry, index) => ({ entry, index })),
      TE.traverseSeqArray(({ entry, index }) => {
        const auth = entry.authentication;
        if (auth === undefined) return TE.right([] as [number, Challenge][]);
        if (auth.method !== 'access_code' || auth.access_code === undefined)
          return TE.right([[index, newChallenge(auth.method, null)]] as [number, Challenge][]);
        return pipe(
          deps.codeHasher.hash(auth.access_code),
          TE.map((hash) => [[index, newChallenge('access_code', hash)]] as [number, Challenge][]),
        );
      }),
      TE.map((lists) => new Map(lists.flat())),
    );
