import type * as TE from 'fp-ts/lib/TaskEither.js';

export type DestinationProblem =
  /** Never acceptable as configured: a scheme, or an address that is private, loopback, … */
  | { readonly _tag: 'DestinationRefused'; readonly reason: string }
  /** Could not be checked now (DNS did not answer): try again later. */
  | { readonly _tag: 'DestinationUnverifiable'; readonly reason: string };

/** Decides whether the notifier may send to a URL: scheme, and every address its host resolves to. */
export interface DestinationGuard {
  readonly check: (url: string) => TE.TaskEither<DestinationProblem, void>;
}
