import type { ApiProblem } from './api-client.js';
import { html, type Html } from './html.js';

export type Section = 'requests' | 'templates' | 'sites' | 'users' | 'apps' | 'none';

export interface Shell {
  readonly base: string;
  readonly csrf: string;
  readonly email: string;
  readonly sites: readonly { readonly id: number; readonly name: string }[];
  readonly siteId: number | undefined;
  /** An administrator of the account sees its Users (and invitations) in the header too. */
  readonly accountAdmin?: boolean;
}

const NAV: readonly [Exclude<Section, 'none'>, string, string][] = [
  ['requests', 'Requests', '/requests'],
  ['templates', 'Templates', '/templates'],
  ['sites', 'Sites', '/sites'],
  ['users', 'Users', '/users'],
  ['apps', 'Developer Apps', '/apps'],
];

/** What the header links to: Users only for an administrator of the account. */
const navOf = (shell: Shell) => NAV.filter(([key]) => key !== 'users' || shell.accountAdmin === true);

/** The hidden anti-forgery field every state-changing form carries. */
export const csrfField = (csrf: string): Html => html`<input type="hidden" name="_csrf" value="${csrf}" />`;

const header = (shell: Shell, section: Section): Html =>
  html` <header class="top">
    <div class="wrap">
      <a class="brand" href="${shell.base}/requests">E-sign</a>
      <nav class="main" aria-label="Main">
        <ul>
          ${navOf(shell).map(
            ([key, label, path]) =>
              html`<li>
                <a href="${shell.base}${path}" ${section === key ? html` aria-current="page"` : ''}
                  >${label}</a
                >
              </li>`,
          )}
        </ul>
      </nav>
      ${
        shell.sites.length > 0
          ? html`<form class="bar" method="post" action="${shell.base}/sites/switch">
              ${csrfField(shell.csrf)}
              <label for="site-switch">Site</label>
              <select id="site-switch" name="site_id">
                ${shell.sites.map(
                  (s) =>
                    html`<option value="${s.id}" ${s.id === shell.siteId ? html` selected` : ''}>
                      ${s.name} (${s.id})
                    </option>`,
                )}
              </select>
              <button type="submit" class="secondary">Switch</button>
            </form>`
          : ''
      }
      <form class="bar" method="post" action="${shell.base}/sign-out">
        ${csrfField(shell.csrf)}
        <span class="hint">${shell.email}</span>
        <a href="${shell.base}/sessions">Sessions</a>
        <a href="${shell.base}/password">Change password</a>
        <button type="submit" class="secondary">Sign out</button>
      </form>
    </div>
  </header>`;

/** The document every page shares: landmarks, skip link, one `h1`, the stylesheet and script. */
export const page = (input: {
  readonly base: string;
  readonly title: string;
  readonly body: Html;
  readonly shell?: Shell;
  readonly section?: Section;
}): string =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${input.title} · E-sign</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${input.base}/assets/app.css" />
        <script src="${input.base}/assets/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${input.shell === undefined ? '' : header(input.shell, input.section ?? 'none')}
        <main id="main" class="wrap" tabindex="-1">${input.body}</main>
        <footer class="foot">
          <div class="wrap">E-sign web application · every page here calls the public /v1.1 API.</div>
        </footer>
      </body>
    </html> `.value;

/** The problem's field messages by path (`problem.errors[].path`), for showing next to each field. */
export const fieldErrors = (problem: ApiProblem | undefined): ReadonlyMap<string, string> =>
  new Map((problem?.errors ?? []).map((e) => [e.path, e.message]));

/**
 * The summary of what went wrong, first in the form (`role="alert"`); field messages the
 * form shows beside their fields link here too, named by `labels` (by path) or their path.
 */
export const problemSummary = (
  problem: ApiProblem | undefined,
  fieldIds: Record<string, string> = {},
  labels: Record<string, string> = {},
): Html => {
  if (problem === undefined) return html``;
  const errors = problem.errors ?? [];
  const nameOf = (path: string) => (Object.hasOwn(labels, path) ? labels[path]! : labelOf(path));
  return html`<div class="errors" role="alert" tabindex="-1" id="problem">
    <h2>${problem.status === 429 ? 'Please wait' : 'There is a problem'}</h2>
    <p>${problem.detail ?? problem.title}</p>
    ${
      errors.length > 0
        ? html`<ul>
            ${errors.map((e) =>
              fieldIds[e.path] === undefined
                ? html`<li>${e.path}: ${e.message}</li>`
                : html`<li><a href="#${fieldIds[e.path]}">${nameOf(e.path)} ${e.message}</a></li>`,
            )}
          </ul>`
        : ''
    }
  </div>`;
};

const labelOf = (path: string): string => path.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** What every form field shows around its input: a label, maybe a hint, maybe an error. */
interface FieldText {
  readonly id: string;
  readonly label: string;
  readonly hint?: string | Html;
  readonly error?: string | undefined;
}

/** A field's input (`attributes` say its kind) with its hint and error tied by `aria-describedby`. */
const field = (input: FieldText & { readonly name: string }, attributes: Html): Html => {
  const described = [input.hint ? `${input.id}-hint` : '', input.error ? `${input.id}-error` : '']
    .filter((s) => s !== '')
    .join(' ');
  return html`<div class="field">
    <label for="${input.id}">${input.label}</label>
    ${input.hint ? html`<p class="hint" id="${input.id}-hint">${input.hint}</p>` : ''}
    ${input.error ? html`<p class="error" id="${input.id}-error">${input.error}</p>` : ''}
    <input
      id="${input.id}"
      name="${input.name}"
      ${attributes}${input.error ? html` aria-invalid="true"` : ''}${
        described ? html` aria-describedby="${described}"` : ''
      }
    />
  </div>`;
};

/** A labelled whole-number input from `min` to `max`, with its hint and its error. */
export const numberField = (
  input: FieldText & {
    readonly name: string;
    readonly min: number;
    readonly max: number;
    readonly value?: string;
  },
): Html =>
  field(
    input,
    html`type="number" inputmode="numeric" min="${String(input.min)}" max="${String(input.max)}" step="1"
    value="${input.value ?? ''}"`,
  );

/** A labelled file input, named as its id. */
export const fileField = (input: FieldText & { readonly accept: string }): Html =>
  field({ ...input, name: input.id }, html`type="file" accept="${input.accept}"`);

/**
 * A checkbox inside its label, its error above it and its hint (if any) below it, both tied
 * by `aria-describedby`.
 */
export const tick = (
  id: string,
  name: string,
  label: string | Html,
  checked: boolean,
  error: string | undefined,
  hint?: string,
): Html => {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter((s) => s !== '').join(' ');
  return html`${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
    <label
      ><input
        type="checkbox"
        id="${id}"
        name="${name}"
        value="true"
        ${checked ? html` checked` : ''}${described ? html` aria-describedby="${described}"` : ''}${
          error ? html` aria-invalid="true"` : ''
        }
      />
      ${label}</label
    >${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}`;
};

/**
 * A PDF shown in the page under its heading, in the browser's own viewer: `src` must answer
 * it inline and allow our pages to frame it (`passFile` with `inline`).
 */
export const pdfFrame = (heading: string, src: string, title: string): Html =>
  html`<h2>${heading}</h2>
    <iframe class="preview pdf" src="${src}" title="${title}" loading="lazy"></iframe>`;

/** A labelled input with its hint and its error (tied by `aria-describedby`). */
export const textField = (
  input: FieldText & {
    readonly name: string;
    readonly type?: 'text' | 'email' | 'password' | 'url' | 'tel' | 'datetime-local';
    readonly value?: string;
    readonly hint?: string;
    readonly autocomplete?: string;
    readonly required?: boolean;
  },
): Html =>
  field(
    input,
    html`type="${input.type ?? 'text'}"
    value="${input.value ?? ''}"${
      input.autocomplete ? html` autocomplete="${input.autocomplete}"` : ''
    }${input.required ? html` required` : ''}`,
  );

/** The e-mail address a person signs in with (sign-in, a forgotten password). */
export const signInEmailField = (value: string, error: string | undefined): Html =>
  textField({
    id: 'email',
    name: 'email',
    label: 'E-mail',
    type: 'email',
    value,
    autocomplete: 'username',
    required: true,
    error,
  });

export const stateBadge = (state: string): Html => html`<span class="state state-${state}">${state}</span>`;

/** A test-mode Request (issue #22): nothing it sends leaves the platform. */
export const testMark = (testMode: boolean): Html | '' =>
  testMode ? html` <span class="state state-test" title="Test mode: nothing is sent">test</span>` : '';

/** Times as the API gives them (ISO 8601 UTC), shown readably and kept machine-readable. */
export const time = (iso: string | null | undefined): Html =>
  iso === null || iso === undefined
    ? html`<span class="hint">never</span>`
    : html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>`;

/**
 * A value shown once (a token, a secret): read-only, selectable, with a Copy button the
 * page's script shows and a status line it fills.
 */
export const copyField = (id: string, label: string, value: string): Html =>
  html`<div class="field">
    <label for="${id}">${label}</label>
    <div class="copy">
      <input id="${id}" type="text" readonly value="${value}" aria-describedby="${id}-status" />
      <button type="button" class="secondary" data-copy="${id}" hidden>Copy</button>
    </div>
    <p class="hint" id="${id}-status" role="status"></p>
  </div>`;
