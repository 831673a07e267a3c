import type { CopyRequestBody, RequestView } from '@esign/contracts';
import * as A from 'fp-ts/lib/Array.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { copyBody } from '../domain/request-copy.js';
import { newChallenge, type Challenge } from '../domain/signer-authentication.js';
import type { SignatureRequest } from '../domain/signature-request.js';
import type { Contact } from '../domain/signer.js';
import type { Store } from '../ports/store.js';
import { reachSiteToCreate, siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import type { Idempotency, Outcome } from './idempotency.js';
import { createOn } from './requests.js';

/**
 * The copy's challenges by signer index (ADR 3330): a one-time code's method as it is, and
 * an access code's hash the source's, so the signer is asked the same code they were given.
 */
const copiedChallenges = (
  store: Store,
  source: SignatureRequest,
): TE.TaskEither<never, ReadonlyMap<number, Challenge>> =>
  pipe(
    source.signers.flatMap((s, i) => (s.authentication === null ? [] : [{ s, i, method: s.authentication }])),
    A.traverse(TE.ApplicativeSeq)(({ s, i, method }) =>
      method !== 'access_code'
        ? TE.right([i, newChallenge(method, null)] as const)
        : pipe(
            store.challenges.find(source.id, s.signerRef),
            TE.map(
              O.match(
                () => {
                  // Every signer with a method has its challenge row, written with them.
                  throw new Error(`request ${source.id}: no challenge for signer ${s.signerRef}`);
                },
                (challenge) => [i, newChallenge('access_code', challenge.accessCodeHash)] as const,
              ),
            ),
          ),
    ),
    TE.map((pairs) => new Map(pairs)),
  );

/** What a copy is made of: the source, the Site's details of its signers, their challenges. */
interface SourceRead {
  readonly source: SignatureRequest;
  readonly contacts: ReadonlyMap<string, Contact>;
  readonly challenges: ReadonlyMap<number, Challenge>;
}

/**
 * `POST /v1.1/requests/:id/copy` (ADR 3330): a new draft in the source's Site made of any
 * Request (see `copyBody`), by the create's rules and write; the caller must reach the
 * Site and may create there what the copy is (a test-only token, test mode only).
 */
export const copyRequest =
  (deps: Parameters<typeof createOn>[0] & Pick<Deps, 'autocommit'>) =>
  (input: {
    readonly caller: Caller;
    readonly requestId: string;
    readonly body: CopyRequestBody;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<RequestView>> =>
    pipe(
      deps.autocommit((store): TE.TaskEither<AppError, SourceRead> =>
        pipe(
          store.requests.find(input.requestId, siteIds(input.caller)),
          TE.chainW(TE.fromOption(() => notFound('request'))),
          TE.chainW((source) =>
            pipe(
              TE.Do,
              TE.bind('contacts', () =>
                store.creation.inputs(
                  source.siteId,
                  [],
                  source.signers.map((s) => s.signerId),
                ),
              ),
              TE.bind('challenges', () => copiedChallenges(store, source)),
              TE.map(({ contacts, challenges }) => ({
                source,
                contacts: contacts.storedContacts,
                challenges,
              })),
            ),
          ),
        ),
      ),
      TE.chainW(({ source, contacts, challenges }) => {
        const body = copyBody(source, contacts, input.body.test_mode);
        return pipe(
          TE.fromEither(reachSiteToCreate(input.caller, source.siteId, body.test_mode)),
          TE.chainW((site) =>
            createOn(
              deps,
              site,
              {
                caller: input.caller,
                body,
                copiedFrom: source.id,
                ...(input.idempotency && { idempotency: input.idempotency }),
              },
              challenges,
            ),
          ),
        );
      }),
    );
