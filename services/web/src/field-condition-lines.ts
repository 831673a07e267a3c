import { conditionList } from '@esign/contracts';

// A field's `shown_if` as the template editor writes it after `if` (ADRs 3710, 3760, 3790,
// 3800, 3850): `married`, `not married`, `plan = Pro | Team`, several joined by `or`.

/** One condition, as the API spells it. */
export interface EditorCondition {
  readonly field: string;
  readonly equals?: string | boolean | readonly string[];
}

/** A field's `shown_if`: one condition, or a list, any of which asks for it (ADR 3850). */
export type EditorShownIf = EditorCondition | readonly EditorCondition[];

/** The options a condition names (ADR 3790), or undefined for a checkbox's, a text or a date field's. */
export const namedOptions = (
  equals: string | boolean | readonly string[] | undefined,
): readonly string[] | undefined =>
  typeof equals === 'string'
    ? [equals]
    : typeof equals === 'boolean' || equals === undefined
      ? undefined
      : equals;

/** Conditions joined by the word `or` between spaces (ADR 3850). */
const OR = /\s+or(?=\s|$)/;

/**
 * One condition: the field that shows this one, and the option that does (ADR 3710) or
 * options, any of which does (ADR 3790), or `not` and a checkbox that shows it while not
 * ticked (ADR 3760) or a text or date field while left empty (ADR 3800); or why not.
 */
const conditionOf = (condition: string): EditorCondition | string => {
  const negated = /^not\s+(\S.*)$/.exec(condition.trim());
  if (negated !== null)
    return negated[1]!.includes('=')
      ? '"if not" is followed by a checkbox\'s or a text field\'s name alone, as in "employer: text if not retired"'
      : { field: negated[1]!.trim(), equals: false };
  const match = /^(.+?)(?:\s*=\s*(.*))?$/.exec(condition.trim());
  if (match === null)
    return '"if" is followed by a checkbox\'s or a text field\'s name, as in "spouse: text if married", or a choice\'s and an option, as in "seats: text if plan = Pro"';
  const [, field, equals] = match;
  if (equals === undefined) return { field: field! };
  // `plan = Pro | Team`: any of several options (ADR 3790).
  const options = equals.split('|').map((o) => o.trim());
  if (options.some((o) => o === ''))
    return `"=" is followed by an option of "${field!}", or several between "|", as in "seats: text if plan = Pro | Team"`;
  return { field: field!, equals: options.length === 1 ? options[0]! : options };
};

/**
 * What follows `if`: one condition, or several joined by `or`, any of which asks for the
 * field (`contact: text if married or plan = Pro`, ADR 3850); or why not.
 */
export const shownIfOf = (type: string, written: string): EditorShownIf | string => {
  if (type === 'signature' || type === 'date_signed' || type === 'initials' || type === 'full_name')
    return 'only a text field, checkbox, choice, date or attachment is asked for only when another is';
  const parts = written.trim().split(OR);
  if (parts.length > 1 && parts.some((p) => p.trim() === ''))
    return '"or" joins two conditions, as in "contact: text if married or plan = Pro"';
  const conditions: EditorCondition[] = [];
  for (const part of parts) {
    const condition = conditionOf(part);
    if (typeof condition === 'string') return condition;
    conditions.push(condition);
  }
  return conditions.length === 1 ? conditions[0]! : conditions;
};

/** Conditions as written after `if`: `married`, `not married`, `plan = Pro | Team`, joined by `or`. */
export const shownIfText = (shownIf: EditorShownIf): string =>
  conditionList(shownIf)
    .map((c) =>
      namedOptions(c.equals) === undefined
        ? `${c.equals === false ? 'not ' : ''}${c.field}`
        : `${c.field} = ${namedOptions(c.equals)!.join(' | ')}`,
    )
    .join(' or ');

/** Whether a line can name the field: no ":" or line break, no spaces at its ends. */
export const nameWritten = (name: string): boolean => name === name.trim() && !/[:\r\n]/.test(name);

/**
 * Whether `if` can be followed by the field and options (ADRs 3710, 3790): no "=" or bracket
 * in the name, at least one option and none with "|", a bracket or spaces at its ends, and
 * a box shown while ticked whose name does not start with "not " (ADR 3760).
 */
const conditionWritten = ({ field, equals }: EditorCondition): boolean => {
  const options = namedOptions(equals);
  return (
    nameWritten(field) &&
    !/[=[\]]/.test(field) &&
    (options === undefined
      ? equals === false || !/^not\s/.test(field)
      : options.length > 0 && options.every((o) => o === o.trim() && !/[|[\]\r\n]/.test(o)))
  );
};

/**
 * Whether `shownIfText` writes the conditions so that `shownIfOf` reads them back the same:
 * each written, and none naming a field or an option with the word "or" between spaces,
 * which would read as two conditions, nor a list of one, which reads back as one (ADR 3850).
 */
export const shownIfWritten = (shownIf: EditorShownIf): boolean => {
  const conditions = conditionList(shownIf);
  return (
    (!Array.isArray(shownIf) || conditions.length > 1) &&
    conditions.every(
      (c) => conditionWritten(c) && ![c.field, ...(namedOptions(c.equals) ?? [])].some((w) => OR.test(w)),
    )
  );
};
