import { Readable } from 'node:stream';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { ContractView, TemplateFieldValuesList, type TemplateRequestValues } from '@esign/contracts';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { answerCsv, cellOf, csvRows } from '../csv-file.js';
import { html, type Html } from '../html.js';
import { problemPage, segment } from './common.js';

// What signers entered in a template's fields, across its sent Requests, saved as one CSV
// file with a row per Request (ADR 3780).

/** The API's largest page: a file of N Requests takes N / 100 reads. */
const PER_PAGE = 100;

/**
 * A published template's link to the file, when it has fields. A draft has none: a
 * Request is made with published templates only.
 */
export const enteredWithTemplate = (deps: WebDeps, c: ContractView): Html | '' =>
  c.state === 'published' && c.fields.length > 0
    ? html`<p>
        <a href="${deps.base}/templates/${c.id}/field-values.csv" download
          >Download what signers entered, as CSV</a
        >
        <span class="hint">(one row per Request sent with this template, newest first)</span>
      </p>`
    : '';

/** What each row says of its Request, before the template's fields. */
const REQUEST_COLUMNS = ['request_id', 'title', 'state', 'sent_at', 'completed_at'];

/**
 * The file's header: the Request's columns, then one per field of `names`. A field named
 * like one of the Request's (`title`) is `field:title`, so that no two columns share a name
 * and a spreadsheet or a script reading the file by its header finds each once.
 */
export const columnsOf = (names: readonly string[]): string[] => {
  const taken = new Set(REQUEST_COLUMNS);
  const columns = names.map((name) => {
    let column = name;
    while (taken.has(column)) column = `field:${column}`;
    taken.add(column);
    return column;
  });
  return [...REQUEST_COLUMNS, ...columns];
};

/** One Request's row: what it is, then the value of each of `names` (the template's fields). */
const rowOf = (names: readonly string[], r: TemplateRequestValues): string[] => [
  r.request_id,
  r.title ?? '',
  r.state,
  r.sent_at,
  r.completed_at ?? '',
  ...names.map((name) => cellOf(r.fields.find((f) => f.name === name)?.value ?? null)),
];

const pageOf = (visitor: Visitor, id: string, page: number) =>
  visitor.api({
    method: 'GET',
    path: `/v1.1/contracts/${id}/field_values?page=${page}&per_page=${PER_PAGE}`,
    codec: TemplateFieldValuesList,
  });

/**
 * The file after its first page, a page at a time as the browser takes it: a page the API
 * refuses part way ends the download as failed, rather than a file that looks whole.
 */
async function* laterPages(visitor: Visitor, id: string, names: readonly string[], more: boolean) {
  for (let page = 2; more; page++) {
    const read = await pageOf(visitor, id, page);
    if (E.isLeft(read)) throw new Error(`page ${page} of the template's values: ${read.left.title}`);
    yield csvRows(read.right.data.map((r) => rowOf(names, r)));
    more = read.right.has_more;
  }
}

/**
 * `GET /templates/:id/field-values.csv`: the template and the first page are read before
 * answering, so a refusal (another Site's template, none) is shown as a page.
 */
export const templateEnteredRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/templates/:id/field-values.csv', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const id = segment(ctx.params.id);
    const [template, first] = await Promise.all([
      visitor.api({ method: 'GET', path: `/v1.1/contracts/${id}`, codec: ContractView }),
      pageOf(visitor, id, 1),
    ]);
    if (E.isLeft(template)) return problemPage(ctx, deps, visitor, 'templates', template.left);
    if (E.isLeft(first)) return problemPage(ctx, deps, visitor, 'templates', first.left);
    const names = template.right.fields.map((f) => f.name);
    const start = csvRows(
      first.right.data.map((r) => rowOf(names, r)),
      columnsOf(names),
    );
    answerCsv(
      ctx,
      `template-${template.right.id}-field-values.csv`,
      Readable.from(
        (async function* () {
          yield start;
          yield* laterPages(visitor, id, names, first.right.has_more);
        })(),
      ),
    );
  });
};
