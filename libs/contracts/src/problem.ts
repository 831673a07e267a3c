import * as t from 'io-ts';
import type { FieldError } from './decode.js';

/** RFC 9457 problem details, with our stable machine `code` and field errors. */
export const Problem = t.intersection([
  t.type({ type: t.string, title: t.string, status: t.number, code: t.string }),
  t.partial({
    detail: t.string,
    instance: t.string,
    request_id: t.string,
    errors: t.array(t.type({ path: t.string, message: t.string })),
  }),
]);
export type Problem = t.TypeOf<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Where the documentation of each problem code lives. */
export const problemType = (code: string): string => `https://docs.esign.example/problems/${code}`;

export interface ProblemInit {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: readonly FieldError[];
}

export const problem = (init: ProblemInit): Problem => ({
  type: problemType(init.code),
  title: init.title,
  status: init.status,
  code: init.code,
  ...(init.detail === undefined ? {} : { detail: init.detail }),
  ...(init.errors === undefined ? {} : { errors: [...init.errors] }),
});
