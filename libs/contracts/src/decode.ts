import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { unwrap } from './primitives.js';

/** One actionable complaint about an input, e.g. `{ path: 'signers[1].signer_id', message: 'required' }`. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Plain-language name of what a codec expects. */
export const describe = (outer: t.Decoder<unknown, unknown>): string => {
  const type = unwrap(outer);
  if (type instanceof t.UnionType) {
    return (type.types as t.Mixed[]).map(describe).join(' or ');
  }
  if (type instanceof t.LiteralType) return JSON.stringify(type.value);
  if (type instanceof t.KeyofType)
    return `one of ${Object.keys(type.keys as object)
      .map((k) => JSON.stringify(k))
      .join(', ')}`;
  if (type instanceof t.ArrayType || type instanceof t.ReadonlyArrayType) return 'an array';
  if (
    type instanceof t.InterfaceType ||
    type instanceof t.PartialType ||
    type instanceof t.IntersectionType ||
    type instanceof t.ExactType ||
    type instanceof t.DictionaryType
  ) {
    return 'an object';
  }
  if (type instanceof t.RefinementType) return describe(type.type as t.Mixed);
  switch (type.name) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'Int':
      return 'an integer';
    case 'UnknownRecord':
      return 'an object';
    case 'UnknownArray':
      return 'an array';
    default:
      return type.name;
  }
};

const OBJECTS = [t.InterfaceType, t.PartialType, t.IntersectionType, t.ExactType] as const;

/** Whether `union` is `nullable(object)`: an object codec or null. */
const nullableObject = (union: { readonly types: readonly t.Mixed[] }): boolean => {
  const [value, none] = union.types;
  return (
    union.types.length === 2 &&
    none?.name === 'null' &&
    value !== undefined &&
    OBJECTS.some((kind) => unwrap(value) instanceof kind)
  );
};

/**
 * The one member of `union` an object or an array given for it can be, by its shape: an
 * object codec for an object, an array codec for an array (`shown_if`, one condition or a
 * list of them, ADR 3850). Undefined for anything else, or when several members could be.
 */
const memberByShape = (
  union: { readonly types: readonly t.Mixed[] },
  actual: unknown,
): number | undefined => {
  if (typeof actual !== 'object' || actual === null) return undefined;
  const fits = union.types.flatMap((member, i) => {
    const type = unwrap(member);
    const array = type instanceof t.ArrayType || type instanceof t.ReadonlyArrayType;
    const object = OBJECTS.some((kind) => type instanceof kind);
    return (Array.isArray(actual) ? array : object) ? [i] : [];
  });
  return fits.length === 1 ? fits[0] : undefined;
};

const pathOf = (context: t.Context): { path: string; stop: t.ContextEntry | undefined; skip?: true } => {
  let path = '';
  for (let i = 1; i < context.length; i++) {
    const parent = unwrap(context[i - 1]!.type);
    const entry = context[i]!;
    // An object given where an object or null is taken: its own members name what is wrong
    // (`authentication.access_code`), and the null branch's complaint says nothing more.
    if (
      parent instanceof t.UnionType &&
      nullableObject(parent as { readonly types: readonly t.Mixed[] }) &&
      context[i - 1]!.actual !== null
    ) {
      if (entry.key === '1') return { path, stop: undefined, skip: true };
      if (typeof context[i - 1]!.actual === 'object') continue;
    }
    // An object or an array where only one member takes that shape: that member's own
    // complaints say what is wrong (`shown_if[1].field`), the others' nothing more.
    if (parent instanceof t.UnionType) {
      const member = memberByShape(parent as { readonly types: readonly t.Mixed[] }, context[i - 1]!.actual);
      if (member !== undefined) {
        if (entry.key !== String(member)) return { path, stop: undefined, skip: true };
        continue;
      }
    }
    // Union and intersection members are addressed by index; they are not part of the input's path.
    if (parent instanceof t.UnionType) return { path, stop: context[i - 1] };
    if (parent instanceof t.IntersectionType) continue;
    if (parent instanceof t.ArrayType || parent instanceof t.ReadonlyArrayType) {
      path += `[${entry.key}]`;
    } else if (IDENTIFIER.test(entry.key)) {
      path += path === '' ? entry.key : `.${entry.key}`;
    } else {
      path += `[${JSON.stringify(entry.key)}]`;
    }
  }
  return { path, stop: undefined };
};

/** Turns io-ts errors into one message per offending path, in input order. */
export const formatErrors = (errors: t.Errors): FieldError[] => {
  const seen = new Map<string, string>();
  for (const error of errors) {
    const { path, stop, skip } = pathOf(error.context);
    if (skip === true || seen.has(path)) continue;
    const last = error.context[error.context.length - 1];
    let message: string;
    if (stop !== undefined) {
      message = stop.actual === undefined ? 'required' : `must be ${describe(stop.type)}`;
    } else if (error.message !== undefined) {
      message = error.message;
    } else if (error.value === undefined) {
      message = 'required';
    } else {
      message = `must be ${last === undefined ? 'valid' : describe(last.type)}`;
    }
    seen.set(path, message);
  }
  return [...seen].map(([path, message]) => ({ path: path === '' ? '(body)' : path, message }));
};

/** Decodes `input`, answering the failures as field errors a client can act on. */
export const decode =
  <A, O>(codec: t.Type<A, O, unknown>) =>
  (input: unknown): E.Either<FieldError[], A> =>
    pipe(codec.decode(input), E.mapLeft(formatErrors));

/** `path: message` lines, for logs and start-up errors. */
export const renderErrors = (errors: readonly FieldError[]): string =>
  errors.map((e) => `${e.path}: ${e.message}`).join('; ');
