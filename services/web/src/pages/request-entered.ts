import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { RequestFieldValues, RequestView, type FieldValueView } from '@esign/contracts';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { answerCsv, cellOf, csvRows } from '../csv-file.js';
import { html, type Html } from '../html.js';
import { time } from '../layout.js';
import { dataTable } from '../table.js';
import { problemPage, segment } from './common.js';
import { passFile } from './pdf-download.js';

/** Where the web application saves a signer's attached file (ADR 3920). */
const attachmentHref = (deps: WebDeps, r: RequestView, field: string) =>
  `${deps.base}/requests/${r.id}/attachments/${encodeURIComponent(field)}`;

/**
 * A value as the section shows it: a checkbox in words, an empty one said so, a signer's
 * attached file by its name, saved from here (ADR 3920).
 */
const shown = (deps: WebDeps, r: RequestView, f: FieldValueView): Html | string => {
  if (typeof f.value === 'boolean') return f.value ? 'Ticked' : 'Not ticked';
  if (f.value === null) return html`<span class="hint">none yet</span>`;
  if (f.value === '') return html`<span class="hint">left empty</span>`;
  if (f.type === 'attachment' && f.filled_at !== null)
    return html`<a href="${attachmentHref(deps, r, f.name)}" download
      >${f.value}<span class="visually-hidden"> (the file ${f.assigned_to ?? 'the signer'} attached)</span></a
    >`;
  return f.value;
};

/**
 * A sent Request's **What the signers entered** (ADR 3730): every field with the value the
 * executed document shows for it, whom it is for and when they signed, from
 * `GET /v1.1/requests/:id/field_values`. Not on a draft, where nobody has entered anything
 * (its Fields show what is pre-filled); left out when the API does not answer it.
 */
export const enteredSection = async (deps: WebDeps, visitor: Visitor, r: RequestView): Promise<Html> => {
  if (r.state === 'draft' || r.fields.length === 0) return html``;
  const read = await visitor.api({
    method: 'GET',
    path: `/v1.1/requests/${r.id}/field_values`,
    codec: RequestFieldValues,
  });
  if (E.isLeft(read)) return html``;
  return html`<section aria-labelledby="entered-title">
    <h2 id="entered-title">What the signers entered</h2>
    <p class="hint">
      Each field as the executed document shows it: what its signer entered once they signed, else what was
      pre-filled. A field asked for only on a condition that did not hold is left empty.
    </p>
    <p>
      <a href="${deps.base}/requests/${r.id}/field-values.csv" download
        >Download as CSV<span class="visually-hidden"> (every field with its value)</span></a
      >
    </p>
    ${dataTable({
      caption: 'Every field with its value',
      captionHidden: true,
      columns: ['Field', 'Value', 'Signer', 'Signed'],
      rows: read.right.data.map((f) => [
        html`<code>${f.name}</code>`,
        shown(deps, r, f),
        f.assigned_to ?? html`<span class="hint">nobody</span>`,
        f.filled_at === null ? html`<span class="hint">not yet</span>` : time(f.filled_at),
      ]),
    })}
  </section>`;
};

/** The CSV's columns, in the API's words, so a script reads the file as it reads the JSON. */
const CSV_COLUMNS = ['field', 'type', 'signer', 'value', 'signed_at'];

/** Every field with its value as CSV (ADR 3750), one row each. */
export const fieldValuesCsv = (values: readonly FieldValueView[]): string =>
  csvRows(
    values.map((f) => [f.name, f.type, f.assigned_to ?? '', cellOf(f.value), f.filled_at ?? '']),
    CSV_COLUMNS,
  );

/**
 * `GET /requests/:id/field-values.csv`: the section's table saved as a file, read from the
 * API when asked; the API's refusal (another Site's Request, none) is shown as a page.
 */
export const enteredCsvRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/requests/:id/field-values.csv', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const id = segment(ctx.params.id);
    const read = await visitor.api({
      method: 'GET',
      path: `/v1.1/requests/${id}/field_values`,
      codec: RequestFieldValues,
    });
    if (E.isLeft(read)) return problemPage(ctx, deps, visitor, 'requests', read.left);
    answerCsv(ctx, `request-${id.slice(0, 8)}-field-values.csv`, fieldValuesCsv(read.right.data));
  });

  // A file a signer attached (ADR 3920), passed through from the API as it streams, under its
  // own name and type; the API says why not (not signed with, another Site's).
  router.get('/requests/:id/attachments/:field', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const id = segment(ctx.params.id);
    const found = await visitor.api({ method: 'GET', path: `/v1.1/requests/${id}`, codec: RequestView });
    if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'requests', found.left);
    await passFile(
      ctx,
      deps,
      visitor,
      'requests',
      `/v1.1/requests/${found.right.id}/attachments/${encodeURIComponent(ctx.params.field ?? '')}`,
      {
        title: 'Not available',
        code: 'download_failed',
        detail: 'The signer has not signed with this file.',
      },
      { anyType: true },
    );
  });
};
