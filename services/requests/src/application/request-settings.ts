import { isoNow, type RequestView } from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { expiryProblems } from '../domain/request-creation.js';
import { changeSettings, type RequestSettingsChange } from '../domain/request-settings.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';
import type { Outcome } from './idempotency.js';
import { transition, type TransitionDeps, type TransitionInput } from './lifecycle.js';

export interface ChangeSettingsInput extends TransitionInput {
  readonly change: RequestSettingsChange;
}

/**
 * draft or sent: moves the Request's expiry or changes its automatic reminders (ADR
 * 3150). A new expiry is checked as at create (in the future, at most 365 days ahead),
 * 422 at `expires_at`, before the Request is read. Answers the Request.
 */
export const changeRequestSettings =
  (deps: TransitionDeps & Pick<Deps, 'remindPolicy'>) =>
  (input: ChangeSettingsInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const expiresAt = input.change.expiresAt;
    const errors = expiresAt == null ? [] : expiryProblems(expiresAt, isoNow(deps.clock));
    if (errors.length > 0) return TE.left({ _tag: 'InvalidRequest', errors });
    return transition(deps, (request, now) =>
      changeSettings(request, input.change, now, deps.remindPolicy.maxReminders),
    )(input);
  };
