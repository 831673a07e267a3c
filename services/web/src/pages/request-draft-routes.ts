import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { RequestView } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { segment } from './common.js';
import { ccFormOf } from './request-cc.js';
import { fieldEntriesOf, fieldsFormOf } from './request-fields.js';
import { messageOf } from './request-message.js';
import { requestPage } from './request-page.js';
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
    if (sameRenderData(data, renderDataOf(form.was, new Map()))) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=render-data-same`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}`,
      body: { render_data: data },
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, typed);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=render-data`);
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
    if (entries === undefined) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=fields-same`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}`,
      body: { fields: entries },
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { fields: form });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=fields`);
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
    if (same(cc, ccOf(form.was))) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=cc-same`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}`,
      body: { cc },
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { cc: form });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=cc`);
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
    if (change === undefined) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=reassign-same`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}`,
      body: change,
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { reassign: form });
    ctx.status = 303;
    ctx.redirect(
      `${deps.base}/requests/${done.right.id}?done=${change.allow_reassign ? 'reassign-on' : 'reassign-off'}`,
    );
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
    if (change === undefined) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=${name}-same`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}`,
      body: change,
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { [name]: form });
    ctx.status = 303;
    ctx.redirect(
      `${deps.base}/requests/${done.right.id}?done=${change[name] === null ? `${name}-removed` : name}`,
    );
  });
};
