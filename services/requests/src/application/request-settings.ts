import { isoNow, type FieldError, type RequestView } from '@esign/contracts';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { expiryProblems, renderDataProblems } from '../domain/request-creation.js';
import { changeSettings, type RequestSettingsChange } from '../domain/request-settings.js';
import { siteIds } from './caller.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';
import type { Outcome } from './idempotency.js';
import { transition, type TransitionDeps, type TransitionInput } from './lifecycle.js';

export interface ChangeSettingsInput extends TransitionInput {
  readonly change: RequestSettingsChange;
}

/**
 * What is wrong with a new render_data for the Request's contracts (ADR 3220), read
 * before the transition: a Request's contracts never change after create, and published
 * templates never change at all, so what this finds still holds when the change is
 * written. A Request the caller cannot reach finds nothing to check; the transition
 * answers it.
 */
const renderDataErrors = (
  deps: Pick<Deps, 'autocommit'>,
  input: ChangeSettingsInput,
  renderData: Readonly<Record<string, string>>,
): TE.TaskEither<never, FieldError[]> =>
  deps.autocommit((store) =>
    pipe(
      store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chain(
        O.match(
          () => TE.right<never, FieldError[]>([]),
          (request) =>
            pipe(
              store.templates.specs(
                request.siteId,
                request.contracts.map((c) => c.id),
              ),
              TE.map((specs) => renderDataProblems(renderData, specs)),
            ),
        ),
      ),
    ),
  );

/**
 * draft or sent: moves the Request's expiry or changes its automatic reminders (ADR
 * 3150), or replaces a draft's render_data (ADR 3220). A new expiry is checked as at
 * create (in the future, at most 365 days ahead), 422 at `expires_at`, before the Request
 * is read; a new render_data against its contracts' tokens, as at create. Answers the
 * Request.
 */
export const changeRequestSettings =
  (deps: TransitionDeps & Pick<Deps, 'remindPolicy'>) =>
  (input: ChangeSettingsInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const { expiresAt, renderData } = input.change;
    const errors = expiresAt == null ? [] : expiryProblems(expiresAt, isoNow(deps.clock));
    if (errors.length > 0) return TE.left({ _tag: 'InvalidRequest', errors });
    const change = transition(deps, (request, now) =>
      changeSettings(request, input.change, now, deps.remindPolicy.maxReminders),
    );
    if (renderData === undefined) return change(input);
    return pipe(
      renderDataErrors(deps, input, renderData),
      TE.chainW((problems) =>
        problems.length > 0 ? TE.left<AppError>({ _tag: 'InvalidRequest', errors: problems }) : change(input),
      ),
    );
  };
