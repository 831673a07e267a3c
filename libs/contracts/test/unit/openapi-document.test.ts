import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CAPTURED_EXAMPLES } from '../../src/openapi/captured-examples.js';
import {
  OPERATIONS,
  PROBLEM_CODES,
  openApiDocument,
  problemCodesOf,
  type JsonSchema,
} from '../../src/openapi/index.js';

const refsIn = (value: unknown, found: string[] = []): string[] => {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (typeof value === 'object' && value !== null)
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  return found;
};

const at = (doc: JsonSchema, pointer: string): unknown =>
  pointer
    .slice(2)
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);

describe('contracts: the OpenAPI document', () => {
  const doc = openApiDocument({ serverUrl: 'https://esign.example' });

  it('is OpenAPI 3.1 with the given server, every operation and every webhook event', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.servers, [{ url: 'https://esign.example', description: 'The gateway' }]);
    const paths = doc.paths as Record<string, Record<string, { operationId: string }>>;
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    assert.deepEqual(ids.sort(), OPERATIONS.map((op) => op.operationId).sort());
    assert.deepEqual(Object.keys(doc.webhooks as object).sort(), [
      'bulk_send.completed',
      'contract.archived',
      'contract.created',
      'contract.deleted',
      'contract.published',
      'contract.unarchived',
      'contract.updated',
      'request.cancelled',
      'request.completed',
      'request.contract_added',
      'request.contract_removed',
      'request.contracts_reordered',
      'request.created',
      'request.declined',
      'request.delivery_failed',
      'request.expired',
      'request.reminded',
      'request.sent',
      'request.signed',
      'request.signer_added',
      'request.signer_removed',
      'request.signer_updated',
      'request.turn_started',
      'request.updated',
      'request.viewed',
    ]);
  });

  it('resolves every $ref', () => {
    const unresolved = [...new Set(refsIn(doc))].filter((ref) => at(doc, ref) === undefined);
    assert.deepEqual(unresolved, []);
  });

  it('answers every error of an access-token call as problem+json listing its codes', () => {
    const send = (doc.paths as Record<string, Record<string, JsonSchema>>)[
      '/v1.1/requests/{request_id}/send'
    ]!.post!;
    const responses = send.responses as Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
    const conflict = responses['409']!.content!['application/problem+json']!.schema;
    const codes = ((conflict.allOf as JsonSchema[])[1]!.properties as Record<string, JsonSchema>).code!.enum;
    assert.deepEqual([...(codes as string[])].sort(), [
      'idempotency_key_in_flight',
      'invalid_state',
      'request_expired',
    ]);
    for (const status of ['401', '404', '422', '429', '503'])
      assert.ok(responses[status]?.content?.['application/problem+json'], status);
  });

  it('uses every problem code it lists somewhere', () => {
    const used = new Set(OPERATIONS.flatMap(problemCodesOf));
    const unused = Object.keys(PROBLEM_CODES).filter((code) => !used.has(code as keyof typeof PROBLEM_CODES));
    assert.deepEqual(unused, []);
  });
});

describe('contracts: the document’s examples (answers captured from the end-to-end suites)', () => {
  const doc = openApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components });

  const examples = () => {
    const found: { where: string; schema: unknown; example: unknown }[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>))
      for (const [method, op] of Object.entries(item))
        for (const [status, response] of Object.entries(op.responses as Record<string, JsonSchema>))
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, JsonSchema>))
            if (media.example !== undefined)
              found.push({
                where: `${method} ${path} ${status} ${type}`,
                schema: media.schema,
                example: media.example,
              });
    return found;
  };

  it('shows captured answers for the operations the suites call', () => {
    const ids = Object.keys(CAPTURED_EXAMPLES);
    const known = new Set(OPERATIONS.map((op) => op.operationId));
    assert.deepEqual(
      ids.filter((id) => !known.has(id)),
      [],
    );
    assert.ok(examples().length >= ids.length);
  });

  it('matches every example against the schema it illustrates', () => {
    const mismatches = examples().flatMap(({ where, schema, example }) => {
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object,
      );
      return validate(example) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
    });
    assert.deepEqual(mismatches, []);
  });
});
