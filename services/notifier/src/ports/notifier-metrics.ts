import type { NotifyReport } from '../application/notify-signers.js';

/** Counts what a pass over an event did (the metrics adapter keeps the counters). */
export interface NotifierMetrics {
  readonly record: (report: NotifyReport) => void;
}
