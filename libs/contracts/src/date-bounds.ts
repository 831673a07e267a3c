// A date field's earliest and latest dates (ADRs 3620, 3650), as the requests service checks
// them and the signer's page and the web application show them: one meaning for all three.

/** Whether `value` is a calendar date written YYYY-MM-DD (2030-02-30 is not one). */
export const isCalendarDate = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
};

/** The most days a relative bound may move from the signer's day: about ten years. */
export const MAX_BOUND_DAYS = 3660;

const RELATIVE = /^today(?:([+-])([1-9]\d{0,3}))?$/;

/**
 * The days a relative bound moves from the day the signer signs: 0 for `today`, 30 for
 * `today+30`, -7 for `today-7`; undefined for anything else (a fixed date, or no bound).
 */
export const boundDays = (bound: string): number | undefined => {
  const match = RELATIVE.exec(bound);
  if (match === null) return undefined;
  const days = match[2] === undefined ? 0 : Number(match[2]);
  if (days > MAX_BOUND_DAYS) return undefined;
  return match[1] === '-' ? -days : days;
};

/** Whether a bound moves with the signer's day (`today`, `today+N`, `today-N`). */
export const isRelativeBound = (bound: string): boolean => boundDays(bound) !== undefined;

/** Whether a date's bound is one: a calendar date, `today`, `today+N` or `today-N`. */
export const isDateBound = (value: string): boolean => isCalendarDate(value) || isRelativeBound(value);

/**
 * The calendar date a bound stands for when the signer's day (UTC, YYYY-MM-DD) is `today`:
 * a fixed date is itself; a relative one is undefined when `today` is (not known yet, as
 * when a value is pre-filled); no bound is none.
 */
export const resolveBound = (bound: string | undefined, today: string | undefined): string | undefined => {
  if (bound === undefined) return undefined;
  const days = boundDays(bound);
  if (days === undefined) return bound;
  if (today === undefined) return undefined;
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
};

/**
 * Two valid bounds the wrong way round: both fixed, or both relative (`today+30` before
 * `today+7`). A fixed and a relative one cross only on some days, so they are not refused.
 */
export const boundsCross = (earliest: string, latest: string): boolean => {
  const from = boundDays(earliest);
  const to = boundDays(latest);
  if (from !== undefined && to !== undefined) return to < from;
  return from === undefined && to === undefined && latest < earliest;
};
