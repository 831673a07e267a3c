import type { RequestView, SignerEntry } from '@esign/contracts';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { addDraftSigner, removeDraftSigner } from '../domain/draft-signers.js';
import type { Contact } from '../domain/signer.js';
import type { Challenge } from '../domain/signer-authentication.js';
import { siteIds } from './caller.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';
import type { Outcome } from './idempotency.js';
import { transition, type TransitionDeps, type TransitionInput } from './lifecycle.js';
import { challengeFor } from './signing/hash-access-codes.js';

export interface AddSignerInput extends TransitionInput {
  /** The signer, as an element of the create body's `signers`. */
  readonly entry: SignerEntry;
}

export interface RemoveSignerInput extends TransitionInput {
  /** The client's signer_id of the signer to remove. */
  readonly signerId: string;
}

/**
 * What the Site already knows of the signer_id, read before the transition as a create
 * reads it; nothing for a Request the caller cannot reach (the transition answers it).
 */
const storedContact = (
  deps: Pick<Deps, 'autocommit'>,
  input: AddSignerInput,
): TE.TaskEither<never, Contact | undefined> =>
  deps.autocommit((store) =>
    pipe(
      store.requests.siteOf(input.requestId, siteIds(input.caller)),
      TE.chain(
        O.match(
          () => TE.right(undefined),
          (siteId) =>
            pipe(
              store.creation.inputs(siteId, [], [input.entry.signer_id]),
              TE.map((found) => found.storedContacts.get(input.entry.signer_id)),
            ),
        ),
      ),
    ),
  );

/**
 * draft → draft: adds one signer (ADR 3280) by the create's rules for a `signers[]` entry,
 * upserting the Site's signer with the change. Answers the Request, the new signer last.
 */
export const addRequestSigner =
  (deps: TransitionDeps & Pick<Deps, 'codeHasher'>) =>
  (input: AddSignerInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const signerRef = deps.ids.signerRef();
    return pipe(
      input.entry.authentication === undefined
        ? TE.right<never, Challenge | null>(null)
        : challengeFor(deps)(input.entry.authentication),
      TE.chain((challenge) =>
        pipe(
          storedContact(deps, input),
          TE.map((stored) => ({ challenge, stored })),
        ),
      ),
      TE.chainW(({ challenge, stored }) =>
        transition(deps, (request, now) =>
          addDraftSigner(request, { entry: input.entry, stored, signerRef, challenge }, now),
        )(input),
      ),
    );
  };

/** draft → draft: removes one signer (ADR 3280); the fields that were theirs have none. Answers the Request. */
export const removeRequestSigner =
  (deps: TransitionDeps) =>
  (input: RemoveSignerInput): TE.TaskEither<AppError, Outcome<RequestView>> =>
    transition(deps, (request, now) => removeDraftSigner(request, input.signerId, now))(input);
