import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  boundedString,
  CreateContractBody,
  CreateRequestBody,
  Email,
  nonEmptyArray,
  PositiveInt,
  Problem,
  strict,
  UpdateWebhookEndpointBody,
} from '../../src/index.js';
import { schemaRegistry, type JsonSchema } from '../../src/openapi/json-schema.js';

/** Validates `value` against `schema` with the registry's components, as the document does. */
const validator = (registry: ReturnType<typeof schemaRegistry>, schema: JsonSchema) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: { schemas: registry.components() } });
  const rewrite = (s: unknown): unknown =>
    JSON.parse(JSON.stringify(s).replaceAll('"#/components/', '"doc#/components/')) as unknown;
  return ajv.compile(rewrite(schema) as object);
};

describe('contracts: JSON Schema from io-ts codecs', () => {
  it('describes type, partial and their intersection as one object', () => {
    const schema = schemaRegistry().schemaOf(
      t.intersection([t.type({ a: t.string, n: t.number }), t.partial({ b: t.boolean })]),
    );
    assert.deepEqual(schema, {
      type: 'object',
      properties: { a: { type: 'string' }, n: { type: 'number' }, b: { type: 'boolean' } },
      required: ['a', 'n'],
    });
  });

  it('closes exact and strict objects', () => {
    const registry = schemaRegistry();
    assert.equal(registry.schemaOf(t.exact(t.type({ a: t.string }))).additionalProperties, false);
    const Entry = strict({ id: t.string }, { note: t.string }, 'Entry');
    assert.deepEqual(registry.schemaOf(Entry), { $ref: '#/components/schemas/Entry' });
    assert.deepEqual(registry.components().Entry, {
      type: 'object',
      properties: { id: { type: 'string' }, note: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('describes literals, keyof, unions of literals, nullable and other unions', () => {
    const registry = schemaRegistry();
    assert.deepEqual(registry.schemaOf(t.literal('html')), { type: 'string', const: 'html' });
    assert.deepEqual(registry.schemaOf(t.keyof({ a: null, b: null })), { type: 'string', enum: ['a', 'b'] });
    assert.deepEqual(registry.schemaOf(t.union([t.literal(1), t.literal(2)])), {
      type: 'number',
      enum: [1, 2],
    });
    assert.deepEqual(registry.schemaOf(t.union([t.string, t.null])), { type: ['string', 'null'] });
    assert.deepEqual(registry.schemaOf(t.union([t.string, t.boolean])), {
      anyOf: [{ type: 'string' }, { type: 'boolean' }],
    });
    assert.deepEqual(registry.schemaOf(t.union([t.union([t.string, t.boolean]), t.null])), {
      anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'null' }],
    });
  });

  it('describes arrays, readonly arrays, records and readonly objects', () => {
    const registry = schemaRegistry();
    assert.deepEqual(registry.schemaOf(t.array(t.number)), { type: 'array', items: { type: 'number' } });
    assert.deepEqual(registry.schemaOf(t.readonlyArray(t.string)), {
      type: 'array',
      items: { type: 'string' },
    });
    assert.deepEqual(registry.schemaOf(t.record(t.string, t.string)), {
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    assert.deepEqual(registry.schemaOf(t.readonly(t.type({ a: t.null }))), {
      type: 'object',
      properties: { a: { type: 'null' } },
      required: ['a'],
    });
  });

  it('sees through refinements and brands, and keeps io-ts Int an integer', () => {
    const registry = schemaRegistry();
    assert.deepEqual(registry.schemaOf(t.Int), { type: 'integer' });
    interface PositiveBrand {
      readonly Positive: unique symbol;
    }
    const Positive = t.brand(t.number, (n): n is t.Branded<number, PositiveBrand> => n > 0, 'Positive');
    assert.deepEqual(registry.schemaOf(Positive), { type: 'number' });
  });

  it('carries the hints of our own refinements: lengths, sizes, formats, minimums', () => {
    const registry = schemaRegistry();
    assert.deepEqual(registry.schemaOf(boundedString(1, 9)), { type: 'string', minLength: 1, maxLength: 9 });
    assert.deepEqual(registry.schemaOf(PositiveInt), { type: 'integer', minimum: 1 });
    assert.deepEqual(registry.schemaOf(nonEmptyArray(t.string, 3, 'Three')), {
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 3,
    });
    assert.equal(registry.schemaOf(Email).format, 'email');
    // A refinement over a strict object of the same name: one component, closed, with the refinement's hint.
    registry.schemaOf(UpdateWebhookEndpointBody);
    const update = registry.components().UpdateWebhookEndpointBody!;
    assert.equal(update.minProperties, 1);
    assert.equal(update.additionalProperties, false);
    assert.ok(!('UpdateWebhookEndpointBody2' in registry.components()));
  });

  it('registers each named codec once and refers to it everywhere', () => {
    const Item = t.type({ id: t.string });
    const registry = schemaRegistry({ Item });
    const schema = registry.schemaOf(t.type({ first: Item, all: t.array(Item) }));
    assert.deepEqual(schema.properties, {
      first: { $ref: '#/components/schemas/Item' },
      all: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
    });
    assert.deepEqual(Object.keys(registry.components()), ['Item']);
  });

  it('keeps two different codecs of one name apart, and one shape of one name together', () => {
    const registry = schemaRegistry();
    const a = t.keyof({ x: null }, 'Kind');
    const b = t.keyof({ y: null }, 'Kind');
    const c = t.keyof({ x: null }, 'Kind');
    registry.schemaOf(t.type({ a, b, c }));
    assert.deepEqual(Object.keys(registry.components()).sort(), ['Kind', 'Kind2']);
  });

  it('refuses a hand-written codec it cannot read, naming it', () => {
    const Opaque = new t.Type<string, string, unknown>(
      'Opaque',
      (u): u is string => typeof u === 'string',
      t.string.validate,
      t.identity,
    );
    assert.throws(() => schemaRegistry().schemaOf(Opaque), /Opaque/);
  });

  it('accepts what the codecs accept and refuses what they refuse (create body, template body)', () => {
    const registry = schemaRegistry();
    const createRequest = validator(registry, registry.schemaOf(CreateRequestBody));
    const good = {
      contracts: [1],
      signers: [{ signer_id: 'a@b.co', signer: { email: 'a@b.co' }, send_to: { email: true } }],
      fields: [{ name: 'x', default_value: true, assigned_to: 'a@b.co' }],
      render_data: { k: 'v' },
      redirect_url: 'https://client.example/done',
    };
    assert.ok(E.isRight(CreateRequestBody.decode(good)));
    assert.ok(createRequest(good), JSON.stringify(createRequest.errors));
    for (const bad of [
      { ...good, contracts: [] },
      { ...good, contracts: [0] },
      { ...good, signers: [{ signer_id: '' }] },
      { ...good, redirect_uri: 'https://x.example' },
      { contracts: [1] },
    ])
      assert.equal(createRequest(bad), false, JSON.stringify(bad));

    const createContract = validator(registry, registry.schemaOf(CreateContractBody));
    assert.ok(createContract({ type: 'html', name: 'NDA', html: '<p>{{a}}</p>' }));
    assert.ok(createContract({ type: 'pdf', name: 'Lease', pdf: 'JVBERi0xLjcK' }));
    assert.equal(createContract({ type: 'html', name: 'NDA', pdf: 'JVBERi0xLjcK' }), false);
    assert.equal(createContract({ type: 'doc', name: 'NDA' }), false);
  });

  it('describes a problem as an open object (RFC 9457 allows extensions)', () => {
    const registry = schemaRegistry({ Problem });
    registry.schemaOf(Problem);
    const problem = registry.components().Problem!;
    assert.deepEqual(problem.required, ['type', 'title', 'status', 'code']);
    assert.equal(problem.additionalProperties, undefined);
  });
});
