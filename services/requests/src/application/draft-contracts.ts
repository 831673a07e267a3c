import type { RequestView } from '@esign/contracts';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { TemplateSpec } from '../domain/contract-template.js';
import { addDraftContract, removeDraftContract, reorderDraftContracts } from '../domain/draft-contracts.js';
import type { SignatureRequest, Transition, TransitionError } from '../domain/signature-request.js';
import type * as E from 'fp-ts/lib/Either.js';
import { siteIds } from './caller.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';
import type { Outcome } from './idempotency.js';
import { transition, type TransitionDeps, type TransitionInput } from './lifecycle.js';

export interface AddContractInput extends TransitionInput {
  readonly contractId: number;
}

export interface RemoveContractInput extends TransitionInput {
  readonly contractId: number;
}

export interface ReorderContractsInput extends TransitionInput {
  readonly contractIds: readonly number[];
}

/** Reads of the templates again when a contract was added or removed in between. */
const TEMPLATE_READS = 3;

/**
 * The templates of the Request's contracts and of `extra`, by id, read before the
 * transition (published templates never change); none for a Request the caller cannot
 * reach, which the transition answers.
 */
const specsOf = (
  deps: Pick<Deps, 'autocommit'>,
  input: TransitionInput,
  extra: readonly number[],
): TE.TaskEither<never, ReadonlyMap<number, TemplateSpec>> =>
  deps.autocommit((store) =>
    pipe(
      store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chain(
        O.match(
          () => TE.right<never, ReadonlyMap<number, TemplateSpec>>(new Map()),
          (request) =>
            pipe(
              store.templates.specs(request.siteId, [...request.contracts.map((c) => c.id), ...extra]),
              TE.map((found) => new Map(found.map((t) => [t.id, t]))),
            ),
        ),
      ),
    ),
  );

/**
 * A change of a draft's contracts (ADR 3300) on the templates read first; read again, and
 * decided again, when another call added or removed a contract in between.
 */
const onTemplates =
  (
    deps: TransitionDeps,
    extra: readonly number[],
    apply: (
      specs: ReadonlyMap<number, TemplateSpec>,
    ) => (request: SignatureRequest, now: string) => E.Either<TransitionError, Transition>,
  ) =>
  (input: TransitionInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const attempt = (left: number): TE.TaskEither<AppError, Outcome<RequestView>> =>
      pipe(
        specsOf(deps, input, extra),
        TE.chainW((specs) => transition(deps, apply(specs))(input)),
        TE.orElse((error) =>
          error._tag === 'TemplatesChanged' && left > 1 ? attempt(left - 1) : TE.left(error),
        ),
      );
    return attempt(TEMPLATE_READS);
  };

/** draft → draft: one more contract, last (ADR 3300). Answers the Request. */
export const addRequestContract =
  (deps: TransitionDeps) =>
  (input: AddContractInput): TE.TaskEither<AppError, Outcome<RequestView>> =>
    onTemplates(
      deps,
      [input.contractId],
      (specs) => (request, now) =>
        addDraftContract(request, specs.get(input.contractId), input.contractId, specs, now),
    )(input);

/** draft → draft: one contract fewer, with the fields and render_data only it had (ADR 3300). */
export const removeRequestContract =
  (deps: TransitionDeps) =>
  (input: RemoveContractInput): TE.TaskEither<AppError, Outcome<RequestView>> =>
    onTemplates(
      deps,
      [],
      (specs) => (request, now) => removeDraftContract(request, input.contractId, specs, now),
    )(input);

/** draft → draft: its contracts, and so its fields, in a new order (ADR 3310). */
export const reorderRequestContracts =
  (deps: TransitionDeps) =>
  (input: ReorderContractsInput): TE.TaskEither<AppError, Outcome<RequestView>> =>
    onTemplates(
      deps,
      [],
      (specs) => (request, now) => reorderDraftContracts(request, input.contractIds, specs, now),
    )(input);
