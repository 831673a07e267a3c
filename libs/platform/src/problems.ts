import { problem, type FieldError, type Problem } from '@esign/contracts';

/**
 * An expected failure on its way to the client. Adapters build these from the
 * domain's tagged errors; the error middleware renders them as problem+json.
 */
export class HttpProblem extends Error {
  readonly problem: Problem;
  readonly headers: Readonly<Record<string, string>>;
  constructor(p: Problem, headers: Record<string, string> = {}) {
    super(p.detail ?? p.title);
    this.name = 'HttpProblem';
    this.problem = p;
    this.headers = headers;
  }
}

export const invalidBody = (
  errors: readonly FieldError[],
  detail = 'The request body is invalid.',
): HttpProblem =>
  new HttpProblem(
    problem({ status: 422, code: 'invalid_body', title: 'Invalid request body', detail, errors }),
  );

export const invalidQuery = (errors: readonly FieldError[]): HttpProblem =>
  new HttpProblem(
    problem({
      status: 400,
      code: 'invalid_query',
      title: 'Invalid query parameters',
      detail: 'The query string is invalid.',
      errors,
    }),
  );

export const notFound = (detail = 'No such resource.'): HttpProblem =>
  new HttpProblem(problem({ status: 404, code: 'not_found', title: 'Not found', detail }));

export const unauthorized = (detail: string, code = 'unauthorized'): HttpProblem =>
  new HttpProblem(problem({ status: 401, code, title: 'Unauthorized', detail }), {
    'WWW-Authenticate': 'Bearer',
  });

export const forbidden = (detail: string, code = 'forbidden'): HttpProblem =>
  new HttpProblem(problem({ status: 403, code, title: 'Forbidden', detail }));

/** A body past what the route reads (`readRawBody`'s limit), saying what it should have been. */
export const payloadTooLarge = (detail: string): HttpProblem =>
  new HttpProblem(problem({ status: 413, code: 'payload_too_large', title: 'Payload too large', detail }));

export const conflict = (code: string, detail: string): HttpProblem =>
  new HttpProblem(problem({ status: 409, code, title: 'Conflict', detail }));

export const serviceUnavailable = (detail: string, retryAfterSeconds = 1): HttpProblem =>
  new HttpProblem(
    problem({ status: 503, code: 'service_unavailable', title: 'Service unavailable', detail }),
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );
