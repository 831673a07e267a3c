import { conditionList, type DeclaredField, type ShownIf, type ShownIfAny } from '@esign/contracts';
import { fieldError, type FieldError } from './paths.js';

// Fields asked for only while another is ticked, or not (ADR 3760), or has an option chosen
// (ADR 3710), or one of several (ADR 3790), or is filled in, or left empty (ADR 3800), that
// field perhaps asked for on a condition of its own (ADR 3810). A leaf:
// template-fields.ts checks declarations with it, signing.ts what a signer is asked.

/** What a condition reads of a field: its name, its type, its options and its own condition. */
interface Shaped {
  readonly name: string;
  readonly type: string;
  readonly options?: readonly string[];
  readonly shownIf?: ShownIfAny;
}

/** The fields a field's conditions name, one or several (ADR 3850). */
const named = (f: Shaped): readonly string[] =>
  f.shownIf === undefined ? [] : conditionList(f.shownIf).map((c) => c.field);

/** Each type as a refusal names it. */
const KIND: Readonly<Record<string, string>> = {
  checkbox: 'checkbox',
  text: 'text field',
  date: 'date field',
  signature: 'signature field',
  date_signed: 'date signed field',
  initials: 'initials field',
  full_name: 'full name field',
  attachment: 'attachment field',
};

const aKind = (type: string): string => {
  const kind = KIND[type];
  return kind === undefined ? type : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
};

/** The types a condition can name: a box ticked or not, a choice's options, a text or date filled in or not. */
const TRIGGERS: ReadonlySet<string> = new Set(['checkbox', 'choice', 'text', 'date']);

/** What `equals` means on a field of `type` set or not (a checkbox, a text or a date field), for a refusal. */
const sides = (type: string): string =>
  type === 'checkbox'
    ? 'when ticked (true, as when left out) or when not ticked (false)'
    : 'when filled in (true, as when left out) or when left empty (false)';

/**
 * How the conditions from `trigger` on lead back to the field `name`, if they do (ADR 3810):
 * `"b" is asked for only on a condition of "c", and "c" on one of "a"`, along the first such
 * way when a field has several conditions (ADR 3850). A circle that does not pass through
 * `name` is its own fields' to report.
 */
const circleThrough = (
  name: string,
  trigger: Shaped,
  byName: ReadonlyMap<string, Shaped>,
): string | undefined => {
  const seen = new Set<string>();
  const way = (at: Shaped): [Shaped, string][] | undefined => {
    if (seen.has(at.name)) return undefined;
    seen.add(at.name);
    for (const next of named(at)) {
      if (next === name) return [[at, next]];
      const on = byName.get(next);
      const rest = on === undefined ? undefined : way(on);
      if (rest !== undefined) return [[at, next], ...rest];
    }
    return undefined;
  };
  return way(trigger)
    ?.map(([f, next], i) =>
      i === 0
        ? `"${f.name}" is asked for only on a condition of "${next}"`
        : `"${f.name}" on one of "${next}"`,
    )
    .join(', and ');
};

/** Why a field's condition cannot be, if it cannot: `path` is its `shown_if`. */
const conditionError = (
  d: DeclaredField,
  condition: ShownIf,
  path: string,
  byName: ReadonlyMap<string, Shaped>,
): FieldError | undefined => {
  const trigger = byName.get(condition.field);
  if (condition.field === d.name) return fieldError(`${path}.field`, 'must name another field');
  if (trigger === undefined)
    return fieldError(`${path}.field`, `names no field of this template: "${condition.field}"`);
  if (!TRIGGERS.has(trigger.type))
    return fieldError(
      `${path}.field`,
      `must name a checkbox, a choice, a text or a date field: "${trigger.name}" is ${aKind(trigger.type)}`,
    );
  const circle = circleThrough(d.name, trigger, byName);
  if (circle !== undefined)
    return fieldError(`${path}.field`, `must not lead back to "${d.name}": ${circle}`);
  if (trigger.type !== 'choice')
    return condition.equals === undefined || typeof condition.equals === 'boolean'
      ? undefined
      : fieldError(
          `${path}.equals`,
          `must be true or false: the ${KIND[trigger.type]!} "${trigger.name}" shows it ${sides(trigger.type)}`,
        );
  const options = trigger.options ?? [];
  if (condition.equals === undefined)
    return fieldError(`${path}.equals`, `required: the option of "${trigger.name}" that shows it`);
  const listed = Array.isArray(condition.equals) ? condition.equals : [condition.equals];
  if (listed.length === 0)
    return fieldError(`${path}.equals`, `must list at least one option of "${trigger.name}"`);
  const other = listed.findIndex((o) => typeof o !== 'string' || !options.includes(o));
  return other === -1
    ? undefined
    : fieldError(
        Array.isArray(condition.equals) ? `${path}.equals[${other}]` : `${path}.equals`,
        `must be one of the options of "${trigger.name}": ${options.map((o) => `"${o}"`).join(', ')}`,
      );
};

/**
 * Why the conditions `declared` cannot be (ADR 3710): each names another field of the same
 * template (`fields`, those declared, with `others`, a PDF's own), a checkbox, a choice, a
 * text or a date field (ADR 3800), asked for on a condition itself or not, but never one
 * whose conditions lead back to it (ADR 3810), and for a choice one of its options.
 */
export const conditionErrors = (
  declared: readonly DeclaredField[],
  fields: readonly Shaped[],
  others: readonly Shaped[],
): FieldError[] => {
  const byName = new Map<string, Shaped>([...others, ...fields].map((f) => [f.name, f]));
  return declared.flatMap((d, i) => {
    if (d.shown_if === undefined) return [];
    const path = `fields[${i}].shown_if`;
    const listed = conditionList(d.shown_if);
    return listed.flatMap((condition, k) => {
      const at = Array.isArray(d.shown_if) ? `${path}[${k}]` : path;
      // Options of one choice go in one `equals` (ADR 3790); a box is ticked or not.
      const first = listed.findIndex((c) => c.field === condition.field);
      const error =
        first < k
          ? fieldError(
              `${at}.field`,
              `names "${condition.field}" again (as shown_if[${first}]): list a choice's options in one "equals"`,
            )
          : conditionError(d, condition, at, byName);
      return error === undefined ? [] : [error];
    });
  });
};

/**
 * The conditions under which a Request's field is asked for, any of which asks for it: each
 * definition's, one or several (ADR 3850); none when any definition has none.
 */
export const conditionsOf = (definitions: readonly object[]): readonly ShownIf[] => {
  const conditions = definitions.map((d) =>
    'shownIf' in d ? (d.shownIf as ShownIfAny | undefined) : undefined,
  );
  return conditions.every((c) => c !== undefined) ? conditions.flatMap((c) => conditionList(c)) : [];
};

/**
 * What a condition asks of its field: a checkbox ticked (`true`) or not, a text or date
 * field filled in (`true`) or left empty (ADR 3800), or a choice's option, or any of
 * several (ADR 3790).
 */
export const wanted = (condition: ShownIf): string | boolean | readonly string[] => condition.equals ?? true;

/**
 * The answer a condition reads of a field the signer fills in: whether it is `asked` for
 * itself (a field named by a condition may have its own, ADR 3810), `raw` as posted, and
 * `set`, whether a box is ticked or a text or date field filled in.
 */
export interface Answer {
  readonly asked: boolean;
  readonly raw: string;
  readonly set: boolean;
}

/**
 * Whether a field with `conditions` is asked for, given `answer`, the answer of the field
 * each names among those the signer fills in, undefined for one they do not: asked when it
 * has none, when one holds of a field asked for itself (so a field whose condition names one
 * not asked for is not asked for either, whatever the condition), or when one's field is not
 * theirs to answer, since the page cannot tell what someone else will answer.
 */
export const isAsked = (
  conditions: readonly ShownIf[],
  answer: (name: string) => Answer | undefined,
): boolean =>
  conditions.length === 0 ||
  conditions.some((c) => {
    const given = answer(c.field);
    if (given === undefined) return true;
    if (!given.asked) return false;
    const value = wanted(c);
    if (typeof value === 'boolean') return given.set === value;
    return typeof value === 'string' ? given.raw === value : value.includes(given.raw);
  });
