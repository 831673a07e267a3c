/** A UUID in its text form, any version (Postgres `uuid` accepts exactly these). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether an id from outside can be a UUID: checked before it reaches a uuid column,
 * where a malformed one would be an error rather than "not found".
 */
export const isUuid = (s: string): boolean => UUID.test(s);

/** The largest Postgres `integer`: site and template ids are such integers. */
export const MAX_PG_INTEGER = 2_147_483_647;

/** Whether `n` can be a Postgres `integer` id (positive). */
export const isIntegerId = (n: number): boolean => Number.isSafeInteger(n) && n > 0 && n <= MAX_PG_INTEGER;
