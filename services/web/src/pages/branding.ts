import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { BrandingView, MAX_LOGO_BYTES } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { uploaded } from '../guard.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, fileField, problemSummary, textField, time } from '../layout.js';
import { appPage, problemPage } from './common.js';

/** What this page says: kept together, to be translated in one place. */
const TEXT = {
  title: 'Branding',
  intro:
    'What signers see of this Site: its name, logo and colour on the signing pages, in e-mails and text ' +
    'messages, and on the executed PDF. Leave a field empty to use the neutral default.',
  displayName: 'Display name',
  displayNameHint: 'Shown to signers instead of the Site’s name.',
  accent: 'Accent colour',
  accentHint: 'As #rrggbb, dark enough for white text (contrast of at least 4.5:1), e.g. #005f73.',
  replyTo: 'Reply-to address',
  replyToHint: 'Where signers’ replies to the e-mails go.',
  footer: 'E-mail footer',
  footerHint: 'Up to 500 characters, at the end of every e-mail (your address, for example).',
  logo: 'Logo (PNG)',
  logoHint: `A PNG of at most ${MAX_LOGO_BYTES / 1000} kB and 1000 × 1000 pixels. SVG is not accepted.`,
  removeLogo: 'Remove the current logo',
  save: 'Save branding',
  saved: 'Saved. New pages and messages use it at once.',
  noSite: 'Choose a Site first.',
} as const;

interface Entered {
  readonly display_name: string;
  readonly accent_color: string;
  readonly reply_to: string;
  readonly email_footer: string;
}

const brandingPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  form: {
    entered?: Entered;
    problem?: ApiProblem;
    errors?: ReadonlyMap<string, string>;
    saved?: boolean;
  } = {},
): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) {
    appPage(ctx, deps, visitor, {
      title: TEXT.title,
      section: 'sites',
      body: html`<h1>${TEXT.title}</h1>
        <p>${TEXT.noSite}</p>`,
    });
    return;
  }
  const current = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/branding`,
    codec: BrandingView,
  });
  if (E.isLeft(current)) return problemPage(ctx, deps, visitor, 'sites', current.left);
  const b = current.right;
  const errors = new Map([...fieldErrors(form.problem), ...(form.errors ?? [])]);
  const logoError = errors.get('logo.data_base64') ?? errors.get('logo.content_type') ?? errors.get('logo');
  const entered: Entered = form.entered ?? {
    display_name: b.display_name ?? '',
    accent_color: b.accent_color ?? '',
    reply_to: b.reply_to ?? '',
    email_footer: b.email_footer ?? '',
  };
  const footerError = errors.get('email_footer');
  appPage(ctx, deps, visitor, {
    title: `${TEXT.title}: ${site.name}`,
    section: 'sites',
    ...(form.problem ? { status: form.problem.status } : errors.size > 0 ? { status: 422 } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/sites">Sites</a></p>
      <h1>${TEXT.title}: ${site.name}</h1>
      <p>${TEXT.intro}</p>
      ${form.saved === true ? html`<p class="success" role="status">${TEXT.saved}</p>` : ''}
      ${problemSummary(form.problem, {
        display_name: 'display-name',
        accent_color: 'accent-color',
        reply_to: 'reply-to',
        email_footer: 'email-footer',
        'logo.data_base64': 'logo',
        'logo.content_type': 'logo',
      })}
      <form
        method="post"
        action="${deps.base}/branding"
        enctype="multipart/form-data"
        class="panel"
        novalidate
      >
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'display-name', name: 'display_name', label: TEXT.displayName, value: entered.display_name, hint: TEXT.displayNameHint, error: errors.get('display_name') })}
        ${textField({ id: 'accent-color', name: 'accent_color', label: TEXT.accent, value: entered.accent_color, hint: TEXT.accentHint, error: errors.get('accent_color') })}
        ${textField({ id: 'reply-to', name: 'reply_to', label: TEXT.replyTo, type: 'email', value: entered.reply_to, hint: TEXT.replyToHint, error: errors.get('reply_to') })}
        <div class="field">
          <label for="email-footer">${TEXT.footer}</label>
          <p class="hint" id="email-footer-hint">${TEXT.footerHint}</p>
          ${footerError ? html`<p class="error" id="email-footer-error">${footerError}</p>` : ''}
          <textarea
            id="email-footer"
            name="email_footer"
            rows="3"
            aria-describedby="email-footer-hint${footerError ? ' email-footer-error' : ''}"
            ${footerError ? html` aria-invalid="true"` : ''}
          >
${entered.email_footer}</textarea>
        </div>
        ${fileField({
          id: 'logo',
          label: TEXT.logo,
          accept: 'image/png,.png',
          hint: html`${TEXT.logoHint}
          ${b.logo === null ? '' : html`Current: ${Math.ceil(b.logo.bytes / 1000)} kB, set ${time(b.updated_at)}.`}`,
          error: logoError,
        })}
        ${
          b.logo === null
            ? ''
            : html`<div class="field">
                <input id="remove-logo" name="remove_logo" type="checkbox" value="yes" />
                <label for="remove-logo">${TEXT.removeLogo}</label>
              </div>`
        }
        <button type="submit">${TEXT.save}</button>
      </form>`,
  });
};

/** `/app/branding`: the current Site's branding (ADR 2301), through `PUT /v1.1/sites/:id/branding`. */
export const brandingRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/branding', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await brandingPage(ctx, deps, visitor);
  });

  router.post('/branding', async (ctx) => {
    const form = await uploaded(ctx, deps, MAX_LOGO_BYTES);
    if (form === undefined) return;
    const { visitor, upload } = form;
    const site = visitor.site;
    if (site === undefined) return brandingPage(ctx, deps, visitor);
    const f = upload.fields;
    const entered: Entered = {
      display_name: (f.display_name ?? '').trim(),
      accent_color: (f.accent_color ?? '').trim(),
      reply_to: (f.reply_to ?? '').trim(),
      email_footer: (f.email_footer ?? '').trim(),
    };
    const file = upload.file !== undefined && upload.file.bytes.length > 0 ? upload.file : undefined;
    if (file?.truncated === true)
      return brandingPage(ctx, deps, visitor, {
        entered,
        errors: new Map([['logo', 'The file is too large.']]),
      });
    const body = {
      ...Object.fromEntries(Object.entries(entered).filter(([, v]) => v !== '')),
      ...(file === undefined
        ? f.remove_logo === 'yes'
          ? { remove_logo: true }
          : {}
        : { logo: { content_type: 'image/png', data_base64: file.bytes.toString('base64') } }),
    };
    const saved = await visitor.api({
      method: 'PUT',
      path: `/v1.1/sites/${site.id}/branding`,
      body,
      codec: BrandingView,
    });
    await brandingPage(
      ctx,
      deps,
      visitor,
      E.isLeft(saved) ? { entered, problem: saved.left } : { saved: true },
    );
  });
};
