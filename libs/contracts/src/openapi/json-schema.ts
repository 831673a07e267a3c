import * as t from 'io-ts';

/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) derived from the io-ts codecs
 * that validate the API, so the published document cannot drift from the code. No
 * library reads io-ts 2.x codecs with our wrappers (`refine`, `transform`, `strict`),
 * whose checks are functions: those carry a `jsonSchema` hint instead (ADR 1200).
 */
export type JsonSchema = { [key: string]: unknown };

export interface SchemaRegistry {
  /** The schema of `codec`: a `$ref` when it is (or becomes) a named component. */
  readonly schemaOf: (codec: t.Decoder<unknown, unknown>) => JsonSchema;
  /** Every component registered so far, by name. */
  readonly components: () => Record<string, JsonSchema>;
}

type AnyCodec = t.Decoder<unknown, unknown> & { readonly name: string };

interface Annotated {
  readonly wrapped?: AnyCodec;
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
}

const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;
const REF_PREFIX = '#/components/schemas/';

const annotationsOf = (codec: AnyCodec): Annotated => codec as unknown as Annotated;

const isCodec = (value: unknown): value is AnyCodec =>
  value instanceof t.Type || (typeof value === 'object' && value !== null && 'validate' in value);

const isRef = (schema: JsonSchema): boolean => typeof schema.$ref === 'string';

/** The codec under every wrapper, to decide whether a name deserves a component. */
const coreOf = (codec: AnyCodec): AnyCodec => {
  let current = codec;
  for (;;) {
    const { wrapped } = annotationsOf(current);
    if (wrapped !== undefined) current = wrapped;
    else if (
      current instanceof t.ExactType ||
      current instanceof t.ReadonlyType ||
      current instanceof t.RefinementType
    )
      current = current.type as AnyCodec;
    else return current;
  }
};

/** Objects, enumerations and alternatives get a component when they have a proper name. */
const deservesComponent = (codec: AnyCodec): boolean => {
  if (!COMPONENT_NAME.test(codec.name)) return false;
  if (annotationsOf(codec).jsonSchema?.oneOf !== undefined) return true;
  const core = coreOf(codec);
  return (
    core instanceof t.InterfaceType ||
    core instanceof t.PartialType ||
    core instanceof t.IntersectionType ||
    core instanceof t.KeyofType ||
    core instanceof t.UnionType ||
    core instanceof t.DictionaryType
  );
};

const literalType = (value: unknown): string =>
  value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value;

const objectOf = (props: t.Props, required: boolean, walk: (c: AnyCodec) => JsonSchema): JsonSchema => {
  const keys = Object.keys(props);
  return {
    type: 'object',
    properties: Object.fromEntries(keys.map((k) => [k, walk(props[k] as AnyCodec)])),
    ...(required && keys.length > 0 ? { required: keys } : {}),
  };
};

/** Plain object schemas (no `$ref`, no combinators) can be merged into one. */
const isPlainObject = (s: JsonSchema): boolean =>
  s.type === 'object' &&
  !isRef(s) &&
  s.allOf === undefined &&
  s.anyOf === undefined &&
  s.additionalProperties === undefined;

const mergeObjects = (parts: readonly JsonSchema[]): JsonSchema => {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of parts) {
    Object.assign(properties, part.properties ?? {});
    required.push(...((part.required as string[] | undefined) ?? []));
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
};

/** `X | null`, the most common union, as `type: [x, 'null']` where that reads cleanly. */
const nullable = (schema: JsonSchema): JsonSchema => {
  if (
    typeof schema.type === 'string' &&
    schema.enum === undefined &&
    schema.const === undefined &&
    !isRef(schema)
  )
    return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.anyOf) && Object.keys(schema).length === 1)
    return { anyOf: [...(schema.anyOf as unknown[]), { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
};

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Walks codecs into schemas. `named` gives components to codecs whose io-ts name is not
 * a proper one (a `t.type` is named after its shape); any other object, enumeration or
 * union whose name is a proper name (`RequestState`, `SignerEntry`) gets one too.
 */
export const schemaRegistry = (named: Readonly<Record<string, t.Decoder<unknown, unknown>>> = {}) => {
  const explicit = new Map<unknown, string>(Object.entries(named).map(([name, codec]) => [codec, name]));
  const byCodec = new Map<unknown, string>();
  const components: Record<string, JsonSchema> = {};

  const ref = (name: string): JsonSchema => ({ $ref: `${REF_PREFIX}${name}` });

  const resolveHint = (value: unknown): unknown => {
    if (isCodec(value)) return walk(value);
    if (Array.isArray(value)) return value.map(resolveHint);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveHint(v)]));
    return value;
  };

  /** The schema of the codec itself, never a reference to it; `skipName`: its wrapper's component. */
  const inline = (codec: AnyCodec, skipName?: string): JsonSchema => {
    const { wrapped, jsonSchema } = annotationsOf(codec);
    if (wrapped !== undefined || jsonSchema !== undefined) {
      const base = wrapped === undefined ? {} : walk(wrapped, skipName ?? codec.name);
      const hint = (jsonSchema === undefined ? {} : resolveHint(jsonSchema)) as JsonSchema;
      // A hint that names its own alternatives replaces the base (a hand-written decoder).
      return hint.oneOf !== undefined ? hint : { ...base, ...hint };
    }
    if (codec instanceof t.InterfaceType) return objectOf(codec.props as t.Props, true, (c) => walk(c));
    if (codec instanceof t.PartialType) return objectOf(codec.props as t.Props, false, (c) => walk(c));
    if (codec instanceof t.ExactType) {
      const inner = walk(codec.type as AnyCodec, skipName);
      return isRef(inner)
        ? { ...inner, unevaluatedProperties: false }
        : { ...inner, additionalProperties: false };
    }
    if (codec instanceof t.IntersectionType) {
      const parts = (codec.types as AnyCodec[]).map((c) => walk(c, skipName));
      return parts.every(isPlainObject) ? mergeObjects(parts) : { allOf: parts };
    }
    if (codec instanceof t.UnionType) {
      const members = codec.types as AnyCodec[];
      if (members.every((m) => m instanceof t.LiteralType)) {
        const values = members.map((m) => (m as t.LiteralC<string>).value as unknown);
        const types = [...new Set(values.map(literalType))];
        return types.length === 1 ? { type: types[0], enum: values } : { enum: values };
      }
      const others = members.filter((m) => !(m instanceof t.NullType));
      if (others.length === members.length - 1 && others.length === 1) return nullable(walk(others[0]!));
      const schemas = others.map((m) => walk(m));
      return others.length === members.length
        ? { anyOf: schemas }
        : { anyOf: [...schemas, { type: 'null' }] };
    }
    if (codec instanceof t.LiteralType) return { type: literalType(codec.value), const: codec.value };
    if (codec instanceof t.KeyofType) return { type: 'string', enum: Object.keys(codec.keys as object) };
    if (codec instanceof t.ArrayType || codec instanceof t.ReadonlyArrayType)
      return { type: 'array', items: walk(codec.type as AnyCodec) };
    if (codec instanceof t.DictionaryType) {
      const domain = codec.domain as AnyCodec;
      return {
        type: 'object',
        ...(domain instanceof t.StringType ? {} : { propertyNames: walk(domain) }),
        additionalProperties: walk(codec.codomain as AnyCodec),
      };
    }
    if (codec instanceof t.ReadonlyType) return walk(codec.type as AnyCodec, skipName);
    if (codec instanceof t.RefinementType) {
      const inner = walk(codec.type as AnyCodec, skipName);
      // io-ts's own `Int` is the one refinement whose meaning is known by name.
      return codec.name === 'Int' ? { ...inner, type: 'integer' } : inner;
    }
    if (codec instanceof t.RecursiveType) return walk(codec.type as AnyCodec, skipName);
    if (codec instanceof t.StringType) return { type: 'string' };
    if (codec instanceof t.NumberType) return { type: 'number' };
    if (codec instanceof t.BooleanType) return { type: 'boolean' };
    if (codec instanceof t.NullType) return { type: 'null' };
    if (codec instanceof t.AnyDictionaryType) return { type: 'object' };
    if (codec instanceof t.AnyArrayType) return { type: 'array' };
    if (codec instanceof t.UnknownType || codec instanceof t.AnyType) return {};
    throw new Error(`no JSON Schema for the codec ${codec.name}: give it a hint with withSchema`);
  };

  const walk = (codec: AnyCodec, skipName?: string): JsonSchema => {
    const known = byCodec.get(codec);
    if (known !== undefined) return ref(known);
    const name =
      explicit.get(codec) ?? (codec.name !== skipName && deservesComponent(codec) ? codec.name : undefined);
    if (name === undefined) return inline(codec, skipName);
    // Registered before walking, so a recursive codec refers to itself.
    let unique = name;
    for (let i = 2; unique in components && byCodec.get(codec) === undefined; i++) {
      const candidate = inline(codec, name);
      if (deepEqual(components[unique], candidate)) {
        byCodec.set(codec, unique);
        return ref(unique);
      }
      unique = `${name}${i}`;
    }
    byCodec.set(codec, unique);
    components[unique] = {};
    components[unique] = inline(codec, name);
    return ref(unique);
  };

  const registry: SchemaRegistry = {
    schemaOf: (codec) => walk(codec),
    components: () => ({ ...components }),
  };
  return registry;
};
