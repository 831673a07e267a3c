import { Problem, PROBLEM_CONTENT_TYPE } from '../problem.js';
import type { JsonSchema, SchemaRegistry } from './json-schema.js';
import type { Operation, SuccessAnswer } from './operation.js';
import {
  ACCESS_TOKEN_PROBLEMS,
  BODY_PROBLEMS,
  OUTAGE_PROBLEMS,
  PROBLEM_CODES,
  SESSION_PROBLEMS,
  statusOfProblem,
  type ProblemCode,
} from './problem-codes.js';

/** Captured answers of the running system: operationId → status → body. */
export type Examples = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

export const HEADERS = {
  'X-Request-Id': {
    description: 'The call’s id (yours when sane, else a new one); quote it to support.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'Your standing in each rate-limit policy: `r` calls left, `t` seconds until full (draft-ietf-httpapi-ratelimit-headers).',
    schema: { type: 'string' },
    example: '"token";r=599;t=1',
  },
  'RateLimit-Policy': {
    description: 'Each policy’s quota `q` per window `w` seconds.',
    schema: { type: 'string' },
    example: '"token";q=600;w=60',
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
  Location: { description: 'Where the new resource (or the browser) goes.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier call with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  'WWW-Authenticate': { description: 'The credential expected (RFC 6750).', schema: { type: 'string' } },
} as const;

type HeaderName = keyof typeof HEADERS;

const headersOf = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, header(name.replace(/-/g, ''))]));

/** Every problem code an operation can answer: its own and those its credential and body imply. */
export const problemCodesOf = (op: Operation): ProblemCode[] => {
  const codes = new Set<ProblemCode>(op.problems);
  if (op.auth === 'access_token') ACCESS_TOKEN_PROBLEMS.forEach((c) => codes.add(c));
  if (op.auth === 'session') SESSION_PROBLEMS.forEach((c) => codes.add(c));
  const jsonBody =
    op.body === undefined || (op.body.contentType ?? 'application/json') === 'application/json';
  if (
    (op.method === 'post' || op.method === 'put' || op.method === 'patch') &&
    jsonBody &&
    op.tag !== 'Signer pages'
  )
    BODY_PROBLEMS.forEach((c) => (c !== 'invalid_body' || op.body !== undefined) && codes.add(c));
  if (op.idempotent)
    (['invalid_idempotency_key', 'idempotency_key_in_flight', 'idempotency_key_reused'] as const).forEach(
      (c) => codes.add(c),
    );
  // An id can carry what the gateway refuses before routing (`%2F`, `..`).
  if (op.path.includes('{')) codes.add('invalid_path');
  OUTAGE_PROBLEMS.forEach((c) => codes.add(c));
  return [...codes];
};

const problemResponse = (
  op: Operation,
  status: number,
  codes: readonly ProblemCode[],
  registry: SchemaRegistry,
  example: unknown,
) => {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status === 429 || status === 503 || codes.includes('idempotency_key_in_flight'))
    names.push('Retry-After');
  if (status === 401) names.push('WWW-Authenticate');
  if (op.auth === 'access_token' && status !== 401 && status !== 503)
    names.push('RateLimit', 'RateLimit-Policy');
  return {
    description: codes.map((code) => `- \`${code}\`: ${PROBLEM_CODES[code][1]}.`).join('\n'),
    headers: headersOf(names),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: {
          allOf: [
            registry.schemaOf(Problem),
            { type: 'object', properties: { status: { const: status }, code: { enum: codes } } },
          ],
        },
        ...(example === undefined ? {} : { example }),
      },
    },
  };
};

const answer = (
  op: Operation,
  status: number,
  spec: SuccessAnswer,
  registry: SchemaRegistry,
  example: unknown,
): JsonSchema => {
  const names: HeaderName[] = ['X-Request-Id'];
  if (op.auth === 'access_token') names.push('RateLimit', 'RateLimit-Policy');
  if (spec.location) names.push('Location');
  if (op.idempotent && status < 300) names.push('Idempotent-Replayed');
  const type = spec.contentType ?? (spec.codec === undefined ? undefined : 'application/json');
  const schema =
    spec.codec !== undefined
      ? registry.schemaOf(spec.codec)
      : type === 'text/html'
        ? { type: 'string' }
        : { type: 'string', contentMediaType: type };
  if (spec.fileTypes !== undefined)
    return {
      description: spec.description,
      headers: headersOf(names),
      content: Object.fromEntries(
        spec.fileTypes.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]),
      ),
    };
  return {
    description: spec.description,
    headers: headersOf(names),
    ...(type === undefined
      ? {}
      : { content: { [type]: { schema, ...(example === undefined ? {} : { example }) } } }),
  };
};

/** The `responses` of one operation: its answers, then a problem+json answer per error status. */
export const responsesOf = (op: Operation, registry: SchemaRegistry, examples: Examples): JsonSchema => {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of problemCodesOf(op)) {
    const status = statusOfProblem(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  const own = examples[op.operationId] ?? {};
  for (const [status, spec] of Object.entries({ ...op.responses, ...op.otherErrors }))
    responses[status] = answer(op, Number(status), spec, registry, own[status]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (responses[status] !== undefined) continue;
    responses[status] = problemResponse(op, status, codes, registry, own[status]);
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
};

export const headerComponents = (): Record<string, unknown> =>
  Object.fromEntries(Object.entries(HEADERS).map(([name, spec]) => [name.replace(/-/g, ''), spec]));
