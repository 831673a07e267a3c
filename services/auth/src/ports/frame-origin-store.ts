import type * as T from 'fp-ts/lib/Task.js';

/** The origins a Developer App lets frame its embedded signing pages (ADR 2300). */
export interface FrameOriginStore {
  readonly get: (appId: string) => T.Task<readonly string[]>;
  /** Replaces the list; answers false when the app does not exist (or was deleted). */
  readonly set: (appId: string, origins: readonly string[]) => T.Task<boolean>;
}
