import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { RequestView, type UpdateRequestBody } from '@esign/contracts';
import type Koa from 'koa';
import type { Visitor, WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { segment } from './common.js';
import { ccFormOf } from './request-cc.js';
import { fieldEntriesOf, fieldsFormOf } from './request-fields.js';
import { messageOf } from './request-message.js';
import { requestPage } from './request-page.js';
import type { RequestPageTyped } from './request-refusals.js';
import { reassignChangeOf, reassignFormOf } from './request-reassign-form.js';
import { subjectOf } from './request-subject.js';
import { ccOf, renderDataOf } from './request-values.js';
import { renderDataFormOf, sameRenderData } from './request-render-data.js';
import { typedProblem } from './request-settings.js';
import { textChangeOf, textFormOf, type TextName } from './request-text-form.js';
import { titleOf } from './request-title.js';

/**
 * A draft's **Render data** and **Fields** forms (ADR 3220), an open Request's **CC**
 * (ADR 3230), a draft's **Message to the signers** (ADR 3380) and **E-mail subject** (ADR
 * 3400), and a draft's or a sent Request's **Title** (ADR 3390) and **Reassigning** (ADR
 * 3560): each sends what changed, or nothing when nothing did; a refusal shows the page
 * again with what was chosen.
 */
export const draftRoutes = (router: Router, deps: WebDeps): void => {
  router.post('/requests/:id/render-data', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = renderDataFormOf(fields);
    const errors = new Map<string, string>();
    const data = renderDataOf(form.text, errors);
    const typed = { renderData: form };
    if (errors.size > 0) return requestPage(ctx, deps, visitor, id, typedProblem(errors), typed);
    const same = sameRenderData(data, renderDataOf(form.was, new Map()));
    await patchRequest(ctx, deps, visitor, id, form, {
      body: same ? undefined : { render_data: data },
      typed,
      same: 'render-data-same',
      done: () => 'render-data',
    });
  });

  router.post('/requests/:id/fields', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields: formFields } = posting;
    const id = ctx.params.id!;
    const form = fieldsFormOf(formFields);
    // The fields as they are now: a field the form did not carry keeps its signer and value.
    const found = await visitor.api({
      method: 'GET',
      path: `/v1.1/requests/${segment(id)}`,
      codec: RequestView,
    });
    if (E.isLeft(found)) return requestPage(ctx, deps, visitor, id, found.left);
    const entries = fieldEntriesOf(found.right, form);
    await patchRequest(ctx, deps, visitor, id, form, {
      body: entries === undefined ? undefined : { fields: entries },
      typed: { fields: form },
      same: 'fields-same',
      done: () => 'fields',
    });
  });

  router.post('/requests/:id/cc', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields: formFields } = posting;
    const id = ctx.params.id!;
    const form = ccFormOf(formFields);
    const cc = ccOf(form.text);
    // The same addresses, however separated (the API stores them lower-case).
    const same = (a: readonly string[], b: readonly string[]) =>
      a.length === b.length && a.every((e, i) => e.toLowerCase() === b[i]!.toLowerCase());
    await patchRequest(ctx, deps, visitor, id, form, {
      body: same(cc, ccOf(form.was)) ? undefined : { cc },
      typed: { cc: form },
      same: 'cc-same',
      done: () => 'cc',
    });
  });

  // The message (ADR 3380), the e-mail subject (ADR 3400) and the title (ADR 3390): one text
  // replaced, or removed with null.
  textRoute(router, deps, 'message', messageOf);
  textRoute(router, deps, 'subject', subjectOf);
  textRoute(router, deps, 'title', titleOf);

  // Whether the signers may ask someone else to sign in their place (ADR 3560).
  router.post('/requests/:id/reassign', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = reassignFormOf(fields);
    const change = reassignChangeOf(form);
    await patchRequest(ctx, deps, visitor, id, form, {
      body: change,
      typed: { reassign: form },
      same: 'reassign-same',
      done: (sent) => (sent.allow_reassign === true ? 'reassign-on' : 'reassign-off'),
    });
  });
};

/**
 * `POST /requests/:id/<name>`: the text form's PATCH, nothing when the text is the one the
 * page showed (`<name>-same`), the page again with the refusal beside the field.
 */
const textRoute = (
  router: Router,
  deps: WebDeps,
  name: TextName,
  normalise: (text: string) => string | null,
): void => {
  router.post(`/requests/:id/${name}`, async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = textFormOf(name, fields);
    const change = textChangeOf(name, normalise, form);
    await patchRequest(ctx, deps, visitor, id, form, {
      body: change,
      typed: { [name]: form },
      same: `${name}-same`,
      done: (sent) => (sent[name] === null ? `${name}-removed` : name),
    });
  });
};

/**
 * One form's `PATCH /v1.1/requests/:id` with its Idempotency-Key: nothing is asked when
 * `body` is undefined (the form showed what holds: `done=<same>`), the page again with
 * `typed` when refused, else `done=<done(body)>`.
 */
const patchRequest = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  form: { readonly idempotencyKey: string },
  patch: {
    readonly body: UpdateRequestBody | undefined;
    readonly typed: RequestPageTyped;
    readonly same: string;
    readonly done: (body: UpdateRequestBody) => string;
  },
): Promise<void> => {
  const { body, typed, same, done } = patch;
  if (body === undefined) {
    ctx.status = 303;
    return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=${same}`);
  }
  const answer = await visitor.api({
    method: 'PATCH',
    path: `/v1.1/requests/${segment(id)}`,
    body,
    codec: RequestView,
    ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
  });
  if (E.isLeft(answer)) return requestPage(ctx, deps, visitor, id, answer.left, typed);
  ctx.status = 303;
  ctx.redirect(`${deps.base}/requests/${answer.right.id}?done=${done(body)}`);
};
