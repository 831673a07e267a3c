import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { ReplaceRequestSignerBody, RequestView } from '@esign/contracts';
import { replaceSigner } from '../domain/signer-replacement.js';
import type { Contact } from '../domain/signer.js';
import type { Store } from '../ports/store.js';
import { siteIds } from './caller.js';
import type { AppError } from './errors.js';
import type { Outcome } from './idempotency.js';
import { transition, type TransitionDeps, type TransitionInput } from './lifecycle.js';

export interface ReplaceSignerInput extends TransitionInput {
  /** The client's signer_id of the signer replaced. */
  readonly signerId: string;
  readonly body: ReplaceRequestSignerBody;
}

/**
 * What the replacement needs read before its transition: what the Site knows of the new
 * signer_id (a create reads it the same way), and the place's access code, which the new
 * signer is given too. Nothing for a Request the caller cannot reach: the transition answers it.
 */
const readsFor = (
  store: Store,
  input: ReplaceSignerInput,
): TE.TaskEither<never, { stored: Contact | undefined; accessCodeHash: string | null }> =>
  pipe(
    store.requests.find(input.requestId, siteIds(input.caller)),
    TE.chain(
      O.match(
        () => TE.right({ stored: undefined, accessCodeHash: null }),
        (request) => {
          const place = request.signers.find((s) => s.signerId === input.signerId);
          return pipe(
            store.creation.inputs(request.siteId, [], [input.body.signer_id]),
            TE.map((found) => found.storedContacts.get(input.body.signer_id)),
            TE.chain((stored) =>
              place?.authentication !== 'access_code'
                ? TE.right({ stored, accessCodeHash: null })
                : pipe(
                    store.challenges.find(request.id, place.signerRef),
                    TE.map((challenge) => ({
                      stored,
                      accessCodeHash: O.isSome(challenge) ? challenge.value.accessCodeHash : null,
                    })),
                  ),
            ),
          );
        },
      ),
    ),
  );

/**
 * sent → sent: someone else signs in the place of a signer who has not signed (ADR 3550),
 * the Site's signer upserted with the change. Answers the Request, the new signer in the
 * replaced one's place.
 */
export const replaceRequestSigner =
  (deps: TransitionDeps) =>
  (input: ReplaceSignerInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const { notify = true, message, ...by } = input.body;
    return pipe(
      deps.autocommit((store) => readsFor(store, input)),
      TE.chainW(({ stored, accessCodeHash }) =>
        transition(deps, (request, now) =>
          replaceSigner(
            request,
            {
              signerId: input.signerId,
              by,
              stored,
              accessCodeHash,
              notify,
              message,
              replacedBy: input.caller.email ?? input.caller.sub,
            },
            now,
          ),
        )(input),
      ),
    );
  };
