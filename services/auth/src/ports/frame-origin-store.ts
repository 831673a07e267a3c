import type * as TE from 'fp-ts/lib/TaskEither.js';

/** The origins a Developer App lets frame its embedded signing pages (ADR 2300). */
export interface FrameOriginStore {
  readonly get: (appId: string) => TE.TaskEither<never, readonly string[]>;
  /** Replaces the list; answers false when the app does not exist (or was deleted). */
  readonly set: (appId: string, origins: readonly string[]) => TE.TaskEither<never, boolean>;
}
