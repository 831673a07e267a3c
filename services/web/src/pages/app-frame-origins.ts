import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { AppView, FrameOriginsView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { appPage, problemPage, segment } from './common.js';

/** What this page says: kept together, to be translated in one place. */
const TEXT = {
  title: 'Embedded signing',
  intro:
    'Your site can show the signing page inside its own pages (an iframe) with an embedded signing URL. ' +
    'Only the origins listed here may frame it, and it tells only them what the signer did.',
  label: 'Allowed frame origins',
  hint: 'One per line, up to 10: scheme, host and port only, e.g. https://app.example.com. Leave empty to allow none.',
  save: 'Save origins',
  saved: 'Saved. Tokens of this app use the new list within a few seconds.',
} as const;

/** The first error among the list's items, reported against the one text area. */
const originsError = (problem: ApiProblem | undefined): string | undefined => {
  const found = [...fieldErrors(problem)].find(([path]) => path.startsWith('allowed_frame_origins'));
  if (found === undefined) return undefined;
  const index = /\[(\d+)\]/.exec(found[0]);
  return index === null ? found[1] : `Line ${Number(index[1]) + 1}: ${found[1]}`;
};

const frameOriginsPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  appId: string,
  form: { text?: string; problem?: ApiProblem; saved?: boolean } = {},
): Promise<void> => {
  const app = await visitor.self({ method: 'GET', path: `/v1.1/apps/${segment(appId)}`, codec: AppView });
  if (E.isLeft(app)) return problemPage(ctx, deps, visitor, 'apps', app.left);
  const current = await visitor.self({
    method: 'GET',
    path: `/v1.1/apps/${segment(appId)}/frame_origins`,
    codec: FrameOriginsView,
  });
  if (E.isLeft(current)) return problemPage(ctx, deps, visitor, 'apps', current.left);
  const error = originsError(form.problem);
  const text = form.text ?? current.right.allowed_frame_origins.join('\n');
  appPage(ctx, deps, visitor, {
    title: `${TEXT.title}: ${app.right.name}`,
    section: 'apps',
    ...(form.problem ? { status: form.problem.status } : {}),
    body: html` <p class="crumbs">
        <a href="${deps.base}/apps">Developer Apps</a> ›
        <a href="${deps.base}/apps/${app.right.id}">${app.right.name}</a>
      </p>
      <h1>${TEXT.title}</h1>
      <p>${TEXT.intro}</p>
      ${form.saved === true ? html`<p class="notice" role="status">${TEXT.saved}</p>` : ''}
      ${problemSummary(form.problem, { allowed_frame_origins: 'frame-origins' })}
      <form method="post" action="${deps.base}/apps/${app.right.id}/frame-origins" class="panel" novalidate>
        ${csrfField(visitor.csrf)}
        <div class="field">
          <label for="frame-origins">${TEXT.label}</label>
          <p class="hint" id="frame-origins-hint">${TEXT.hint}</p>
          ${error === undefined ? '' : html`<p class="error" id="frame-origins-error">${error}</p>`}
          <textarea
            id="frame-origins"
            name="origins"
            rows="4"
            spellcheck="false"
            aria-describedby="frame-origins-hint${error === undefined ? '' : ' frame-origins-error'}"
            ${error === undefined ? '' : html` aria-invalid="true"`}
          >
${text}</textarea>
        </div>
        <button type="submit">${TEXT.save}</button>
      </form>`,
  });
};

/** `/apps/:id/frame-origins`: an app's allowed_frame_origins (ADR 2300). */
export const appFrameOriginRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/apps/:id/frame-origins', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await frameOriginsPage(ctx, deps, visitor, ctx.params.id!);
  });

  router.post('/apps/:id/frame-origins', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const text = form.fields.origins ?? '';
    const origins = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const saved = await form.visitor.self({
      method: 'PUT',
      path: `/v1.1/apps/${segment(ctx.params.id)}/frame_origins`,
      body: { allowed_frame_origins: origins },
      codec: FrameOriginsView,
    });
    await frameOriginsPage(
      ctx,
      deps,
      form.visitor,
      ctx.params.id!,
      E.isLeft(saved) ? { text, problem: saved.left } : { saved: true },
    );
  });
};
