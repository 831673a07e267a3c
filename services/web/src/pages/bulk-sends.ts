import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { BulkSendView, LIMITS, SafeHttpUrl, type ContractSummary } from '@esign/contracts';
import { mapCsv } from '../bulk-csv.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import type { FormFields } from '../forms.js';
import { posted, uploaded, WebError } from '../guard.js';
import { bulkSendPage, type BulkChoice } from './bulk-send-form.js';
import { bulkCancelRoutes } from './bulk-send-cancel.js';
import { bulkCancelRequestsRoutes } from './bulk-send-requests-cancel.js';
import { bulkProgressPage } from './bulk-send-progress.js';
import { bulkSendListPage } from './bulk-sends-list.js';
import { publishedTemplates } from './published-templates.js';
import { messageOf } from './request-message.js';
import { reassignPart } from './request-reassign.js';
import { subjectOf } from './request-subject.js';
import { noSitePage, problemPage } from './common.js';

/**
 * The CSV file's size bound: its text goes back with the send form (urlencoded, up to
 * three times longer), which must stay under the form limit (2 MB).
 */
const CSV_LIMIT_BYTES = 600_000;
const KEY = /^[A-Za-z0-9-]{8,100}$/;

const choiceOf = (fields: FormFields, contracts: readonly number[]): BulkChoice => ({
  contracts,
  redirectUrl: (fields.redirect_url ?? '').trim(),
  send: fields.send === 'true',
  testMode: fields.test_mode === 'true',
  allowReassign: fields.allow_reassign === 'true',
  message: messageOf(fields.message ?? '') ?? '',
  subject: subjectOf(fields.subject ?? '') ?? '',
});

/** The form's own checks: the messages shown next to each field (nothing is sent while any is there). */
const checkChoice = (
  choice: BulkChoice,
  published: readonly ContractSummary[] | undefined,
): Map<string, string> => {
  const errors = new Map<string, string>();
  if (choice.contracts.length === 0) errors.set('contracts', 'Choose at least one contract template.');
  else if (choice.contracts.length > LIMITS.contracts)
    errors.set('contracts', `Choose at most ${LIMITS.contracts} contract templates.`);
  else if (published && choice.contracts.some((id) => !published.some((c) => c.id === id)))
    errors.set('contracts', 'Choose among the published templates listed.');
  if (choice.message.length > LIMITS.message)
    errors.set(
      'message',
      `Write at most ${LIMITS.message.toLocaleString('en')} characters: this message has ${choice.message.length.toLocaleString('en')}.`,
    );
  if (choice.subject.length > LIMITS.subject)
    errors.set(
      'subject',
      `Write at most ${LIMITS.subject} characters: this subject has ${choice.subject.length}.`,
    );
  if (choice.redirectUrl !== '' && !SafeHttpUrl.is(choice.redirectUrl))
    errors.set(
      'redirect_url',
      'Enter an absolute http(s) address (https://…) without a user name or password.',
    );
  return errors;
};

const bodyOf = (choice: BulkChoice, rows: readonly unknown[]) => ({
  contracts: choice.contracts,
  send: choice.send,
  ...(choice.testMode ? { test_mode: true } : {}),
  ...reassignPart(choice.allowReassign),
  ...(choice.redirectUrl === '' ? {} : { redirect_url: choice.redirectUrl }),
  ...(choice.subject === '' ? {} : { subject: choice.subject }),
  ...(choice.message === '' ? {} : { message: choice.message }),
  rows,
});

/**
 * The current Site and its published templates not archived, for a form that makes
 * Requests from them (bulk send, New Request); without a Site, or when they cannot be
 * read, the page that says so is answered instead (undefined).
 */
export const siteWithContracts = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor) => {
  if (visitor.site === undefined) {
    noSitePage(ctx, deps, visitor, 'requests');
    return undefined;
  }
  const contracts = await publishedTemplates(visitor, visitor.site.id);
  if (E.isLeft(contracts)) {
    problemPage(ctx, deps, visitor, 'requests', contracts.left);
    return undefined;
  }
  return { site: visitor.site, contracts: contracts.right };
};

export const bulkSendRoutes = (router: Router, deps: WebDeps): void => {
  const withContracts = (ctx: Koa.Context, visitor: Visitor) => siteWithContracts(ctx, deps, visitor);

  // The Site's bulk sends: before `/bulk-sends/:id`, as `new` is.
  router.get('/bulk-sends', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await bulkSendListPage(ctx, deps, visitor);
  });

  router.get('/bulk-sends/new', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    const loaded = visitor && (await withContracts(ctx, visitor));
    if (visitor && loaded)
      bulkSendPage(ctx, deps, visitor, { siteName: loaded.site.name, contracts: loaded.contracts });
  });

  // Step 1: the upload, read and checked; the preview carries what the send needs.
  router.post('/bulk-sends/preview', async (ctx) => {
    const form = await uploaded(ctx, deps, CSV_LIMIT_BYTES, 20 + LIMITS.contracts * 5);
    if (form === undefined) return;
    const { visitor, upload } = form;
    const loaded = await withContracts(ctx, visitor);
    if (loaded === undefined) return;
    const chosen = Object.keys(upload.fields)
      .map((name) => /^contract_([1-9][0-9]{0,15})$/.exec(name)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number);
    const choice = choiceOf(upload.fields, chosen);
    const errors = checkChoice(choice, loaded.contracts);
    const file = upload.file;
    if (file === undefined || file.bytes.length === 0) errors.set('csv', 'Choose a CSV file.');
    else if (file.truncated)
      errors.set('csv', `The file is too large: at most ${CSV_LIMIT_BYTES / 1000} kB.`);
    const page = { siteName: loaded.site.name, contracts: loaded.contracts, choice };
    if (errors.size > 0 || file === undefined) return bulkSendPage(ctx, deps, visitor, { ...page, errors });
    const csv = new TextDecoder('utf-8', { fatal: false }).decode(file.bytes);
    if (csv.includes('\uFFFD'))
      return bulkSendPage(ctx, deps, visitor, {
        ...page,
        errors: new Map([['csv', 'The file is not UTF-8 text: save it as "CSV UTF-8".']]),
      });
    const tokens = new Set(loaded.contracts.filter((c) => chosen.includes(c.id)).flatMap((c) => c.tokens));
    const mapping = mapCsv(csv, tokens);
    bulkSendPage(ctx, deps, visitor, {
      ...page,
      preview: { csv, fileName: file.name, mapping, idempotencyKey: randomUUID() },
    });
  });

  // Step 2: the bulk send itself, once whatever a second click sends.
  router.post('/bulk-sends', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor, fields } = form;
    const key = fields.idempotency_key ?? '';
    if (!KEY.test(key)) throw new WebError(400, 'This form is incomplete. Upload the CSV file again.');
    const ids = (fields.contracts ?? '')
      .split(',')
      .filter((s) => /^[1-9][0-9]{0,15}$/.test(s))
      .map(Number);
    const choice = choiceOf(fields, ids);
    const mapping = mapCsv(fields.csv ?? '');
    const errors = checkChoice(choice, undefined);
    if (errors.size > 0 || mapping.blocked) {
      const loaded = await withContracts(ctx, visitor);
      if (loaded === undefined) return;
      return bulkSendPage(ctx, deps, visitor, {
        siteName: loaded.site.name,
        contracts: loaded.contracts,
        choice,
        errors,
        preview: {
          csv: fields.csv ?? '',
          fileName: fields.file_name ?? 'the file',
          mapping,
          idempotencyKey: key,
        },
      });
    }
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'requests');
    const made = await visitor.api({
      method: 'POST',
      path: `/v1.1/sites/${visitor.site.id}/bulk_sends`,
      body: bodyOf(choice, mapping.rows),
      idempotencyKey: key,
      codec: BulkSendView,
    });
    if (E.isLeft(made)) {
      const loaded = await withContracts(ctx, visitor);
      if (loaded === undefined) return;
      return bulkSendPage(ctx, deps, visitor, {
        siteName: loaded.site.name,
        contracts: loaded.contracts,
        choice,
        problem: made.left,
        preview: {
          csv: fields.csv ?? '',
          fileName: fields.file_name ?? 'the file',
          mapping,
          idempotencyKey: key,
        },
      });
    }
    ctx.status = 303;
    ctx.redirect(`${deps.base}/bulk-sends/${encodeURIComponent(made.right.id)}`);
  });

  router.get('/bulk-sends/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await bulkProgressPage(ctx, deps, visitor, ctx.params.id!);
  });

  // Cancelling a running one (ADR 3450).
  bulkCancelRoutes(router, deps, bulkProgressPage);
  // Cancelling the Requests a completed one made.
  bulkCancelRequestsRoutes(router, deps, bulkProgressPage);
};
