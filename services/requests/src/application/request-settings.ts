import { isoNow, type FieldEntry, type FieldError, type RequestView } from '@esign/contracts';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { ccProblems, expiryProblems, renderDataProblems } from '../domain/request-creation.js';
import { checkFields } from '../domain/request-fields.js';
import type { RequestField } from '../domain/request-model.js';
import { changeSettings, type RequestSettingsChange } from '../domain/request-settings.js';
import { siteIds } from './caller.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';
import type { Outcome } from './idempotency.js';
import { transition, type TransitionDeps, type TransitionInput } from './lifecycle.js';

export interface ChangeSettingsInput extends TransitionInput {
  readonly change: Omit<RequestSettingsChange, 'fields'>;
  /** A draft's field entries, as at create (ADR 3220); absent: its fields stay. */
  readonly fields?: readonly FieldEntry[];
}

/** What a draft's new render_data and field entries come to against its contracts. */
interface Checked {
  readonly errors: readonly FieldError[];
  readonly fields?: readonly RequestField[];
}

/**
 * A new render_data and new field entries checked against the Request's contracts, and
 * the entries made into its fields (ADR 3220), before the transition: a Request's
 * contracts and signers never change after create, and published templates never change
 * at all, so what this finds still holds when the change is written. A Request the
 * caller cannot reach finds nothing to check; the transition answers it.
 */
const checkAgainstContracts = (
  deps: Pick<Deps, 'autocommit'>,
  input: ChangeSettingsInput,
): TE.TaskEither<never, Checked> =>
  deps.autocommit((store) =>
    pipe(
      store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chain(
        O.match(
          () => TE.right<never, Checked>({ errors: [] }),
          (request) =>
            pipe(
              store.templates.specs(
                request.siteId,
                request.contracts.map((c) => c.id),
              ),
              TE.map((found): Checked => {
                // In the Request's order, which is its fields' order: the read's is the database's.
                const specs = request.contracts.flatMap((c) => found.filter((t) => t.id === c.id));
                const errors: FieldError[] = [];
                const { renderData } = input.change;
                if (renderData !== undefined) errors.push(...renderDataProblems(renderData, specs));
                if (input.fields === undefined) return { errors };
                const fields = checkFields([...input.fields], specs, request.signers, errors);
                return { errors, fields };
              }),
            ),
        ),
      ),
    ),
  );

/**
 * draft or sent: moves the Request's expiry or changes its automatic reminders (ADR
 * 3150), or replaces a draft's render_data or fields (ADR 3220). A new expiry is checked
 * as at create (in the future, at most 365 days ahead), 422 at `expires_at`, before the
 * Request is read; a new render_data and new fields against its contracts, as at create.
 * Answers the Request.
 */
export const changeRequestSettings =
  (deps: TransitionDeps & Pick<Deps, 'remindPolicy'>) =>
  (input: ChangeSettingsInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const { expiresAt, renderData } = input.change;
    const errors = [
      ...(expiresAt == null ? [] : expiryProblems(expiresAt, isoNow(deps.clock))),
      ...ccProblems(input.change.cc ?? []),
    ];
    if (errors.length > 0) return TE.left({ _tag: 'InvalidRequest', errors });
    const change = (fields?: readonly RequestField[]) =>
      transition(deps, (request, now) =>
        changeSettings(
          request,
          { ...input.change, ...(fields && { fields }) },
          now,
          deps.remindPolicy.maxReminders,
        ),
      )(input);
    if (renderData === undefined && input.fields === undefined) return change();
    return pipe(
      checkAgainstContracts(deps, input),
      TE.chainW((checked) =>
        checked.errors.length > 0
          ? TE.left<AppError>({ _tag: 'InvalidRequest', errors: [...checked.errors] })
          : change(checked.fields),
      ),
    );
  };
