import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Every answer the end-to-end suites receive is checked against the OpenAPI document the
 * gateway serves (`GET /v1.1/openapi.json`): the operation exists, the status is
 * documented for it, the content type is one it lists, and a JSON body matches its schema
 * (JSON Schema 2020-12, ajv). A mismatch throws, failing the test that made the call.
 */
interface MediaType {
  readonly schema?: unknown;
}
interface Response {
  readonly content?: Record<string, MediaType>;
}
interface OperationObject {
  readonly operationId: string;
  readonly responses: Record<string, Response>;
}
interface Document {
  readonly paths: Record<string, Record<string, OperationObject>>;
  readonly components: unknown;
}

export interface Checked {
  readonly method: string;
  /** The path and query the call was made to (the origin is ignored). */
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The body as text ('' for none); parsed when the type is JSON. */
  readonly text: string;
}

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  readonly literals: number;
}

export interface Conformance {
  /** Throws naming the mismatch; answers the operation's id. */
  readonly check: (answer: Checked) => string;
  /** The operations answered so far, as `operationId status`. */
  readonly seen: ReadonlySet<string>;
  readonly document: Document;
}

/**
 * With `OPENAPI_CAPTURE_EXAMPLES=<dir>`, the first JSON answer of each operation and status
 * is kept in `<dir>/<pid>.json`: the document's examples are real answers of the system
 * (`npm run openapi:examples` merges them into libs/contracts).
 */
const CAPTURE_DIR = process.env.OPENAPI_CAPTURE_EXAMPLES;
const captured: Record<string, Record<string, unknown>> = {};
const capture = (operationId: string, status: number, body: unknown): void => {
  if (CAPTURE_DIR === undefined || captured[operationId]?.[status] !== undefined) return;
  (captured[operationId] ??= {})[status] = body;
  mkdirSync(CAPTURE_DIR, { recursive: true });
  writeFileSync(join(CAPTURE_DIR, `${process.pid}.json`), JSON.stringify(captured, null, 2));
};

const baseType = (contentType: string | null): string | undefined =>
  contentType?.split(';')[0]?.trim().toLowerCase() || undefined;

const routesOf = (doc: Document): Route[] =>
  Object.keys(doc.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/\{[a-z_]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
      literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
    }))
    // A literal segment wins over a parameter (`/sessions/current` before `/{id}`).
    .sort((a, b) => b.literals - a.literals);

export const conformanceTo = (doc: Document): Conformance => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const routes = routesOf(doc);
  const compiled = new Map<string, ValidateFunction>();
  const seen = new Set<string>();

  const validatorFor = (key: string, schema: unknown): ValidateFunction => {
    let validate = compiled.get(key);
    if (validate === undefined) {
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'),
      );
      validate = ajv.compile(rebased as object);
      compiled.set(key, validate);
    }
    return validate;
  };

  const check = (answer: Checked): string => {
    const path = new URL(answer.url, 'http://gateway').pathname;
    const method = answer.method.toLowerCase();
    const route = routes.find((r) => r.pattern.test(path) && doc.paths[r.template]?.[method] !== undefined);
    const where = `${answer.method} ${path} → ${answer.status}`;
    if (route === undefined) throw new Error(`OpenAPI: ${where}: no documented operation`);
    const operation = doc.paths[route.template]![method]!;
    const response = operation.responses[String(answer.status)];
    if (response === undefined)
      throw new Error(`OpenAPI: ${where}: status not documented for ${operation.operationId}`);
    seen.add(`${operation.operationId} ${answer.status}`);
    const type = baseType(answer.contentType);
    const documented = Object.keys(response.content ?? {});
    if (documented.length === 0) {
      if (answer.text !== '') throw new Error(`OpenAPI: ${where}: a body where none is documented`);
      return operation.operationId;
    }
    const media = type === undefined ? undefined : response.content?.[type];
    if (media === undefined)
      throw new Error(
        `OpenAPI: ${where}: content type ${type ?? '(none)'} is not one of ${documented.join(', ')}`,
      );
    if (!/json$/.test(type!) || media.schema === undefined) return operation.operationId;
    const validate = validatorFor(`${route.template} ${method} ${answer.status} ${type}`, media.schema);
    const body: unknown = JSON.parse(answer.text);
    if (!validate(body))
      throw new Error(
        `OpenAPI: ${where}: the body does not match ${operation.operationId}'s schema: ${ajv.errorsText(validate.errors)}\n${answer.text.slice(0, 800)}`,
      );
    capture(operation.operationId, answer.status, body);
    return operation.operationId;
  };

  return { check, seen, document: doc };
};

const byGateway = new Map<string, Promise<Conformance>>();

/** The conformance check against the document this gateway serves, fetched once. */
export const conformanceOf = (gatewayUrl: string): Promise<Conformance> => {
  let found = byGateway.get(gatewayUrl);
  if (found === undefined) {
    found = (async () => {
      const response = await fetch(new URL('/v1.1/openapi.json', gatewayUrl));
      if (response.status !== 200) throw new Error(`GET /v1.1/openapi.json answered ${response.status}`);
      return conformanceTo((await response.json()) as Document);
    })();
    byGateway.set(gatewayUrl, found);
  }
  return found;
};

/** `fetch`, with the answer checked against the document before the caller reads it. */
export const conformingFetch = async (
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<globalThis.Response> => {
  const url = new URL(input instanceof Request ? input.url : input);
  const method = init.method ?? (input instanceof Request ? input.method : 'GET');
  const response = await fetch(input, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type');
  (await conformanceOf(url.origin)).check({
    method,
    url: url.toString(),
    status: response.status,
    contentType,
    text: /json|text/.test(contentType ?? '') ? bytes.toString('utf8') : bytes.length === 0 ? '' : '(binary)',
  });
  return new Response([204, 205, 304].includes(response.status) ? null : bytes, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};
