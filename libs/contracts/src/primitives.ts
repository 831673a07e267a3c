import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { nonUsNanpReason } from './nanp.js';

/**
 * A JSON Schema fragment saying what a codec's own check adds (a length, a format, a
 * minimum), for the OpenAPI document: a predicate is a function, which no walker can
 * read. Values that are codecs stand for their schemas.
 */
export type SchemaHint = Readonly<Record<string, unknown>>;

/** Wrapper codecs remember what they wrap, so error paths (and the OpenAPI walker) can see through them. */
const wrapping = <T extends t.Any>(outer: T, inner: t.Any, schema?: SchemaHint): T =>
  Object.assign(outer, { wrapped: inner }, schema === undefined ? {} : { jsonSchema: schema });

/** Attaches the schema a hand-written codec stands for (one the walker cannot see through). */
export const withSchema = <T extends t.Any>(codec: T, schema: SchemaHint): T =>
  Object.assign(codec, { jsonSchema: schema });

export const unwrap = (type: t.Decoder<unknown, unknown>): t.Decoder<unknown, unknown> => {
  let current = type;
  for (;;) {
    if ('wrapped' in current) current = (current as unknown as { wrapped: t.Any }).wrapped;
    else if (current instanceof t.ExactType || current instanceof t.RefinementType)
      current = current.type as t.Any;
    else return current;
  }
};

/** Narrows `codec` with a predicate whose failure carries a client-facing message. */
export const refine = <C extends t.Any, B extends t.TypeOf<C>>(
  codec: C,
  predicate: (a: t.TypeOf<C>) => a is B,
  message: string | ((a: t.TypeOf<C>) => string),
  name: string,
  schema?: SchemaHint,
): t.Type<B, t.OutputOf<C>, unknown> =>
  wrapping(
    new t.Type<B, t.OutputOf<C>, unknown>(
      name,
      (u): u is B => codec.is(u) && predicate(u as t.TypeOf<C>),
      (u, c) => {
        const result = codec.validate(u, c) as t.Validation<t.TypeOf<C>>;
        if (E.isLeft(result)) return result;
        const a = result.right;
        return predicate(a)
          ? t.success(a)
          : t.failure(u, c, typeof message === 'string' ? message : message(a));
      },
      (b) => codec.encode(b) as t.OutputOf<C>,
    ),
    codec,
    schema,
  );

/** Like `refine`, for a transformation: `parse` answers the new value or an error message. */
export const transform = <C extends t.Any, B>(
  codec: C,
  parse: (a: t.TypeOf<C>) => E.Either<string, B>,
  encode: (b: B) => t.OutputOf<C>,
  is: (u: unknown) => u is B,
  name: string,
  schema?: SchemaHint,
): t.Type<B, t.OutputOf<C>, unknown> =>
  wrapping(
    new t.Type<B, t.OutputOf<C>, unknown>(
      name,
      is,
      (u, c) => {
        const result = codec.validate(u, c) as t.Validation<t.TypeOf<C>>;
        if (E.isLeft(result)) return result;
        const parsed = parse(result.right);
        return E.isLeft(parsed) ? t.failure(u, c, parsed.left) : t.success(parsed.right);
      },
      encode,
    ),
    codec,
    schema,
  );

/**
 * An object codec that refuses keys it does not know: a misspelt optional field
 * (`redirect_uri`) is a 422 naming it, not silently ignored.
 */
export const strict = <R extends t.Props, O extends t.Props>(
  required: R,
  optional: O,
  name: string,
): t.Type<
  t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>,
  t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<O>>,
  unknown
> => {
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  const inner = t.exact(t.intersection([t.type(required), t.partial(optional)]));
  return wrapping(
    new t.Type(
      name,
      (u): u is t.TypeOf<typeof inner> => inner.is(u),
      (u, c) => {
        if (typeof u !== 'object' || u === null || Array.isArray(u))
          return t.failure(u, c, 'must be an object');
        const unknown = Object.keys(u).filter((k) => !known.has(k));
        if (unknown.length > 0) {
          return t.failures(
            unknown.map((k) => ({
              value: (u as Record<string, unknown>)[k],
              // The parent is re-labelled a plain record so the key reads as a property of it.
              context: [
                ...c.slice(0, -1),
                { ...c[c.length - 1]!, type: t.UnknownRecord },
                { key: k, type: t.unknown, actual: (u as Record<string, unknown>)[k] },
              ],
              message: 'unknown field',
            })),
          );
        }
        return inner.validate(u, c);
      },
      (a) => inner.encode(a),
    ),
    inner,
  );
};

/**
 * The body of a partial update (`PATCH`): every field optional, unknown ones refused as
 * `strict` does, and an empty body refused rather than answered as a silent no-op.
 */
export const partialUpdate = <O extends t.Props>(optional: O, name: string) => {
  const fields = strict({}, optional, name);
  return refine(
    fields,
    (b): b is t.TypeOf<typeof fields> => Object.keys(b).length > 0,
    `must name at least one of ${Object.keys(optional).join(', ')}`,
    name,
    { minProperties: 1 },
  );
};

export const boundedString = (min: number, max: number, name = `string(${min}..${max})`) =>
  refine(
    t.string,
    (s): s is string => s.length >= min && s.length <= max,
    (s) =>
      s.length < min
        ? min === 1
          ? 'must not be empty'
          : `must be at least ${min} characters`
        : `must be at most ${max} characters`,
    name,
    { minLength: min, maxLength: max },
  );

export const NonEmptyString = boundedString(1, 255, 'NonEmptyString');

/** A positive integer, as ids of sites and contract templates are. */
export const PositiveInt = refine(
  t.number,
  (n): n is number => Number.isSafeInteger(n) && n > 0,
  'must be a positive integer',
  'PositiveInt',
  { type: 'integer', minimum: 1 },
);

export const nonEmptyArray = <C extends t.Mixed>(codec: C, max: number, name: string) =>
  refine(
    t.array(codec),
    (a): a is Array<t.TypeOf<C>> => a.length >= 1 && a.length <= max,
    (a) => (a.length === 0 ? 'must contain at least one item' : `must contain at most ${max} items`),
    name,
    { minItems: 1, maxItems: max },
  );

export const boundedArray = <C extends t.Mixed>(codec: C, max: number, name: string) =>
  refine(
    t.array(codec),
    (a): a is Array<t.TypeOf<C>> => a.length <= max,
    `must contain at most ${max} items`,
    name,
    { maxItems: max },
  );

// WHATWG's "valid e-mail address", which is what browsers accept in <input type=email>.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export const isEmail = (s: string): boolean => s.length <= 254 && EMAIL.test(s);

/** An e-mail address, lower-cased so that one person is one signer whatever the client's casing. */
export const Email = transform(
  t.string,
  (s) => (isEmail(s.trim()) ? E.right(s.trim().toLowerCase()) : E.left('must be an e-mail address')),
  (s) => s,
  (u): u is string => typeof u === 'string' && isEmail(u),
  'Email',
  { format: 'email', maxLength: 254, description: 'An e-mail address; stored lower-case.' },
);

/**
 * A US mobile number normalised to the spec's form: country prefix 1 and 10 digits.
 * Accepts `+1`, `1` or no prefix, and the usual separators (spaces, dashes, dots, brackets).
 * Answers why not when the text is not one: not 10 digits, not a valid NANP number, or
 * a number of another NANP country (Canada, the Caribbean: `nanp.ts`).
 */
export const checkUsMobile = (input: string): E.Either<string, string> => {
  const compact = input.trim().replace(/[\s().-]/g, '');
  const match = /^\+?1?(\d{10})$/.exec(compact);
  if (match === null || !(compact.length === 10 || compact.replace('+', '').length === 11))
    return E.left('must be a US mobile number: country prefix 1 followed by 10 digits');
  const reason = nonUsNanpReason(match[1]!);
  return reason === undefined ? E.right(`1${match[1]}`) : E.left(`must be a US mobile number: ${reason}`);
};

export const parseUsMobile = (input: string): string | undefined => {
  const checked = checkUsMobile(input);
  return E.isRight(checked) ? checked.right : undefined;
};

export const UsMobileNumber = transform(
  t.string,
  checkUsMobile,
  (s) => s,
  (u): u is string =>
    typeof u === 'string' && /^1\d{10}$/.test(u) && nonUsNanpReason(u.slice(1)) === undefined,
  'UsMobileNumber',
  {
    description:
      'A US mobile number: `1` and 10 digits. `+1`, no prefix and the usual separators are accepted and normalised. Canadian and Caribbean area codes (NANP numbers outside the US) and invalid NANP numbers (area code or exchange starting with 0 or 1, N11) are refused.',
    examples: ['15551234567'],
  },
);

/** `s` as an absolute URL of at most 2048 characters, or why it is not one. */
export const parseAbsoluteUrl = (s: string): E.Either<string, URL> => {
  if (s.length > 2048) return E.left('must be at most 2048 characters');
  try {
    return E.right(new URL(s));
  } catch {
    return E.left('must be an absolute URL');
  }
};

/** An absolute http(s) URL without credentials: what a signer may safely be sent to. */
export const parseSafeHttpUrl = (s: string): E.Either<string, string> => {
  const parsed = parseAbsoluteUrl(s);
  if (E.isLeft(parsed)) return parsed;
  const url = parsed.right;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return E.left('must use http or https');
  if (url.username !== '' || url.password !== '') return E.left('must not carry credentials');
  return E.right(url.toString());
};

export const SafeHttpUrl = transform(
  t.string,
  parseSafeHttpUrl,
  (s) => s,
  (u): u is string => typeof u === 'string' && E.isRight(parseSafeHttpUrl(u)),
  'SafeHttpUrl',
  { format: 'uri', maxLength: 2048, description: 'An absolute http(s) URL without credentials.' },
);

/** An ISO-8601 timestamp with a zone; normalised to UTC `...Z`. */
export const IsoDateTime = transform(
  t.string,
  (s) => {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) {
      return E.left('must be an ISO-8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z');
    }
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? E.left('must be a valid date-time') : E.right(new Date(ms).toISOString());
  },
  (s) => s,
  (u): u is string => typeof u === 'string' && !Number.isNaN(Date.parse(u)),
  'IsoDateTime',
  { format: 'date-time' },
);

/** A value or null: the wire form of an optional field that is always present. */
export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** The body of an action that takes no parameters (send, cancel, remind…): none, or `{}`; anything else is named. */
export const NoParameters = strict({}, {}, 'NoParameters');
