import { translatorFor, type Translator } from '@esign/contracts';
import type { SigningPage } from '../../application/signing.js';
import { kindOf, type TypedField } from '../../domain/document.js';
import type { SubmissionProblem } from '../../domain/signing.js';
import { LIMITS } from '../../domain/signing.js';
import { contractMarkup } from './contract-html.js';
import { problemText } from './problem-messages.js';
import { brandLogo, brandStyle, pageBrandOf, type PageBrand } from './branding-pages.js';
import { safe, trusted, type Html } from './html.js';

/** What the browser sent back, to show again beside the problems. */
export interface Submitted {
  readonly values: ReadonlyMap<number, string>;
  readonly typedName: string;
  readonly consent: boolean;
  readonly reason: string;
}

export interface PageContext {
  readonly nonce: string;
  /** Path prefix of the public address (`/` behind the gateway), for form actions and links. */
  readonly basePath: string;
  readonly link: {
    readonly r: string;
    readonly s: string;
    readonly signature: string;
    /** The pass a right code earned (signer authentication, ADR 2001), carried by forms and links. */
    readonly auth?: string | undefined;
    /** The embedded session the page continues in (ADR 2300), carried by form actions and links. */
    readonly embed?: string | undefined;
  };
  /** The language the page is written in (ADR 2320); English when absent. */
  readonly tr?: Translator;
}

/** What a page is written in when nothing chose a language. */
export const ENGLISH = translatorFor('en');
/** A form action of the signer pages, keeping an embedded page embedded. */
const actionOf = (ctx: PageContext, path: string): string =>
  ctx.link.embed === undefined
    ? `${ctx.basePath}${path}`
    : `${ctx.basePath}${path}?embed=${encodeURIComponent(ctx.link.embed)}`;

const STYLE = `
:root { color-scheme: light; --ink: #1b1b1f; --muted: #4a4a55; --line: #c9c9d2; --accent: #0b57d0;
  --accent-ink: #fff; --danger: #b3261e; --bg: #fff; --panel: #f4f5f8; }
* { box-sizing: border-box; }
html { font-size: 100%; -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--ink); background: var(--bg); }
.wrap { max-width: 46rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
header.top { border-bottom: 1px solid var(--line); background: var(--panel); }
header.top .wrap { padding-bottom: 1rem; }
.from { margin: 0; color: var(--muted); }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .25rem 0 0; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; top: 0; background: var(--ink); color: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 1; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.contract { border: 1px solid var(--line); border-radius: .5rem; padding: 0 1rem 1rem; margin: 1rem 0;
  overflow-wrap: anywhere; }
.contract table { border-collapse: collapse; max-width: 100%; display: block; overflow-x: auto; }
.contract th, .contract td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; }
.pdf { width: 100%; height: 36rem; border: 1px solid var(--line); }
@media (max-width: 40rem) { .pdf { display: none; } }
dl.values { display: grid; grid-template-columns: minmax(8rem, auto) 1fr; gap: .25rem 1rem; }
dl.values dt { font-weight: 600; } dl.values dd { margin: 0; overflow-wrap: anywhere; }
form.sign, .panel { background: var(--panel); border-radius: .5rem; padding: 1rem; margin: 1.5rem 0; }
fieldset { border: 0; padding: 0; margin: 0 0 1.25rem; min-width: 0; }
legend, label.field { display: block; font-weight: 600; margin-bottom: .25rem; }
.hint { color: var(--muted); margin: .25rem 0 0; font-size: .95rem; }
.req { font-weight: 400; color: var(--muted); }
input[type=text], select, textarea { width: 100%; font: inherit; padding: .6rem .7rem; min-height: 2.75rem;
  border: 1px solid #6f6f7a; border-radius: .375rem; background: #fff; color: var(--ink); }
.field-block { margin-bottom: 1.25rem; }
.check, .option { display: flex; gap: .6rem; align-items: flex-start; margin: .35rem 0; }
.check input, .option input { width: 1.35rem; height: 1.35rem; margin: .15rem 0 0; flex: none; }
input[aria-invalid=true], select[aria-invalid=true], textarea[aria-invalid=true] { border: 2px solid var(--danger); }
.error { color: var(--danger); font-weight: 600; margin: .25rem 0; }
.errors { border: 3px solid var(--danger); border-radius: .5rem; padding: .75rem 1rem; margin: 1rem 0; background: #fff; }
.errors h2 { margin: 0 0 .5rem; font-size: 1.1rem; }
.notice { border-left: 4px solid var(--accent); background: #eef3fd; padding: .75rem 1rem; margin: 1rem 0; }
.typed { font-family: "Segoe Script", "Brush Script MT", "Snell Roundhand", cursive; font-size: 1.4rem; }
.draw canvas { width: 100%; max-width: 36rem; aspect-ratio: 10 / 3; display: block; background: #fff;
  border: 1px dashed #6f6f7a; border-radius: .375rem; touch-action: none; }
button { font: inherit; font-weight: 600; min-height: 2.75rem; padding: .6rem 1.4rem; border-radius: .375rem;
  border: 2px solid var(--accent); background: var(--accent); color: var(--accent-ink); cursor: pointer; }
button.secondary { background: #fff; color: var(--danger); border-color: var(--danger); }
button.link { background: none; border: 0; color: var(--accent); padding: .25rem 0; min-height: 0; text-decoration: underline; }
details.decline { margin: 1.5rem 0; } details.decline summary { cursor: pointer; color: var(--danger); font-weight: 600; }
.logo { display: block; max-height: 3rem; width: auto; margin: 0 0 .5rem; }
.fingerprint { color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
footer.foot { color: var(--muted); font-size: .875rem; border-top: 1px solid var(--line); margin-top: 2rem; padding-top: 1rem; }
`;

/**
 * Draws a signature on a canvas with a pointer (mouse, finger, pen) and keeps it as a PNG
 * in a hidden input. Progressive enhancement: without script the drawing area stays hidden
 * and the typed name alone signs.
 */
const PAD_SCRIPT = `(() => {
  const wrap = document.getElementById('draw');
  const canvas = document.getElementById('pad');
  const out = document.getElementById('drawn_signature');
  const clear = document.getElementById('clear');
  if (!wrap || !canvas || !out || !clear || !canvas.getContext) return;
  wrap.hidden = false;
  const ctx = canvas.getContext('2d');
  ctx.lineWidth = 3; ctx.lineCap = 'round'; ctx.lineJoin = 'round'; ctx.strokeStyle = '#10245a';
  let last = null, drawn = false;
  const at = (e) => { const r = canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left) * canvas.width / r.width, y: (e.clientY - r.top) * canvas.height / r.height }; };
  canvas.addEventListener('pointerdown', (e) => { last = at(e); canvas.setPointerCapture(e.pointerId); e.preventDefault(); });
  canvas.addEventListener('pointermove', (e) => { if (!last) return; const p = at(e);
    ctx.beginPath(); ctx.moveTo(last.x, last.y); ctx.lineTo(p.x, p.y); ctx.stroke(); last = p; drawn = true; });
  const end = () => { if (last && drawn) out.value = canvas.toDataURL('image/png'); last = null; };
  ['pointerup', 'pointercancel', 'lostpointercapture'].forEach((t) => canvas.addEventListener(t, end));
  clear.addEventListener('click', () => { ctx.clearRect(0, 0, canvas.width, canvas.height); out.value = ''; drawn = false; });
})();`;

/** The page shell: language, viewport, landmarks, the nonce'd style and optional script. */
export const layout = (input: {
  readonly nonce: string;
  readonly tr?: Translator;
  readonly title: string;
  readonly header: Html;
  readonly main: Html;
  readonly footer?: Html;
  readonly script?: boolean;
  /** The Site's branding (ADR 2301). */
  readonly brand?: PageBrand | undefined;
}): string => {
  const tr = input.tr ?? ENGLISH;
  return safe`<!doctype html>
<html lang="${tr.locale}" dir="${tr.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${input.title}</title>
<style nonce="${input.nonce}">${trusted(STYLE)}${brandStyle(input.brand)}</style>
</head>
<body>
<a class="skip" href="#main">${tr.t('page.skip')}</a>
<header class="top"><div class="wrap">${brandLogo(input.brand)}${input.header}</div></header>
<main id="main" tabindex="-1"><div class="wrap">${input.main}${
    input.footer === undefined ? '' : safe`<footer class="foot">${input.footer}</footer>`
  }</div></main>
${input.script === true ? safe`<script nonce="${input.nonce}">${trusted(PAD_SCRIPT)}</script>` : ''}
</body>
</html>
`.value;
};

/** A field name as a label: `start_date` → "Start date". */
export const labelOf = (name: string): string => {
  const words = name.replace(/[_.-]+/g, ' ').trim();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
};

const hidden = (ctx: PageContext, page: SigningPage): Html => safe`
<input type="hidden" name="r" value="${ctx.link.r}">
<input type="hidden" name="s" value="${ctx.link.s}">
<input type="hidden" name="signature" value="${ctx.link.signature}">${
  ctx.link.auth === undefined
    ? ''
    : safe`
<input type="hidden" name="auth" value="${ctx.link.auth}">`
}
<input type="hidden" name="form_token" value="${page.formToken}">
<input type="hidden" name="document_sha256" value="${page.documentSha256}">`;

const fieldId = (field: TypedField) => `f-${field.index}`;
const problemAt = (problems: readonly SubmissionProblem[], match: (p: SubmissionProblem) => boolean) =>
  problems.find(match)?.message;

const fieldInput = (
  tr: Translator,
  field: TypedField,
  submitted: Submitted | undefined,
  error: string | undefined,
): Html => {
  const { t } = tr;
  const required = t('page.required');
  const id = fieldId(field);
  const name = `f${field.index}`;
  const label = labelOf(field.name);
  const errorId = `${id}-error`;
  const errorLine =
    error === undefined
      ? ''
      : safe`<p class="error" id="${errorId}">${t('page.problem', { label, message: error })}</p>`;
  const invalid = error === undefined ? '' : safe` aria-invalid="true" aria-describedby="${errorId}"`;
  const raw = submitted?.values.get(field.index);
  const definition = field.definitions[0];
  switch (kindOf(field)) {
    case 'checkbox': {
      const checked = submitted === undefined ? field.defaultValue === true : raw !== undefined && raw !== '';
      return safe`<div class="field-block">${errorLine}<div class="check"><input type="checkbox" id="${id}" name="${name}" value="on"${
        checked ? safe` checked` : ''
      }${invalid}><label for="${id}">${label}</label></div></div>`;
    }
    case 'choice': {
      const options = definition?.type === 'choice' ? definition.options : [];
      const selected = submitted === undefined ? field.defaultValue : (raw ?? null);
      if (options.length <= 6)
        return safe`<fieldset class="field-block"${invalid}><legend>${label} <span class="req">${required}</span></legend>${errorLine}${options.map(
          (option, i) =>
            safe`<div class="option"><input type="radio" id="${id}-${i}" name="${name}" value="${option}" required${
              option === selected ? safe` checked` : ''
            }><label for="${id}-${i}">${option}</label></div>`,
        )}</fieldset>`;
      return safe`<div class="field-block"><label class="field" for="${id}">${label} <span class="req">${required}</span></label>${errorLine}<select id="${id}" name="${name}" required${invalid}><option value="">${t('page.choose')}</option>${options.map(
        (option) =>
          safe`<option value="${option}"${option === selected ? safe` selected` : ''}>${option}</option>`,
      )}</select></div>`;
    }
    default: {
      const value =
        submitted === undefined
          ? typeof field.defaultValue === 'string'
            ? field.defaultValue
            : ''
          : (raw ?? '');
      const max =
        definition?.type === 'text' && definition.maxLength !== null ? definition.maxLength : LIMITS.text;
      return safe`<div class="field-block"><label class="field" for="${id}">${label} <span class="req">${required}</span></label>${errorLine}<input type="text" id="${id}" name="${name}" value="${value}" maxlength="${max}" required${invalid}></div>`;
    }
  }
};

const contractSection = (ctx: PageContext, page: SigningPage, index: number): Html => {
  const { t } = ctx.tr ?? ENGLISH;
  const contract = page.contracts[index]!;
  const headingId = `contract-${index}`;
  if (contract.kind === 'html')
    return safe`<article class="contract" aria-labelledby="${headingId}"><h2 id="${headingId}">${contract.name}</h2>${contractMarkup(contract.html ?? '')}</article>`;
  const href = `${ctx.basePath}sign/document?${new URLSearchParams({
    r: ctx.link.r,
    s: ctx.link.s,
    signature: ctx.link.signature,
    contract: String(contract.id),
    ...(ctx.link.auth === undefined ? {} : { auth: ctx.link.auth }),
    ...(ctx.link.embed === undefined ? {} : { embed: ctx.link.embed }),
  }).toString()}`;
  const prefilled = page.fields.filter(
    (f) => contract.fieldNames.includes(f.name) && f.defaultValue !== null && kindOf(f) !== 'signature',
  );
  return safe`<article class="contract" aria-labelledby="${headingId}"><h2 id="${headingId}">${contract.name}</h2>
<p>${t('page.pdfIntro')} <a href="${href}" target="_blank" rel="noopener">${t('page.pdfOpen', { name: contract.name })}</a></p>
<object class="pdf" data="${href}" type="application/pdf" aria-label="${t('page.pdfLabel', { name: contract.name })}"><p>${t('page.pdfFallback')} <a href="${href}">${t('page.pdfFallbackLink')}</a>.</p></object>
${
  prefilled.length === 0
    ? ''
    : safe`<h3>${t('page.prefilled')}</h3><dl class="values">${prefilled.map(
        (f) =>
          safe`<dt>${labelOf(f.name)}</dt><dd>${f.defaultValue === true ? t('page.yes') : f.defaultValue === false ? t('page.no') : f.defaultValue}</dd>`,
      )}</dl>`
}</article>`;
};

const problemLink = ({ t }: Translator, problem: SubmissionProblem, page: SigningPage): Html => {
  const line = (label: string) => t('page.problem', { label, message: problem.message });
  switch (problem.target._tag) {
    case 'Field': {
      const index = problem.target.index;
      const field = page.fields[index];
      return safe`<li><a href="#f-${index}">${line(labelOf(field?.name ?? ''))}</a></li>`;
    }
    case 'TypedName':
      return safe`<li><a href="#typed_name">${line(t('page.yourName'))}</a></li>`;
    case 'Consent':
      return safe`<li><a href="#consent">${line(t('page.consentLabel'))}</a></li>`;
    case 'Reason':
      return safe`<li><a href="#reason">${line(t('page.reasonLabel'))}</a></li>`;
  }
};

const contractNames = (page: SigningPage) => page.contracts.map((c) => c.name).join(', ');

/** The signing page: the contracts, this signer's fields, consent and signature, and the way to decline. */
export const signingPage = (
  ctx: PageContext,
  page: SigningPage,
  options: { problems?: readonly SubmissionProblem[]; submitted?: Submitted; notice?: string } = {},
): string => {
  const tr = ctx.tr ?? ENGLISH;
  const { t } = tr;
  const problems = (options.problems ?? []).map((p) => ({ ...p, message: problemText(tr, p.message) }));
  const submitted = options.submitted;
  const site = page.request.siteName;
  const nameError = problemAt(problems, (p) => p.target._tag === 'TypedName');
  const consentError = problemAt(problems, (p) => p.target._tag === 'Consent');
  const reasonError = problemAt(problems, (p) => p.target._tag === 'Reason');
  const declining = reasonError !== undefined;
  const expires =
    page.request.expiresAt === null
      ? ''
      : safe`<p class="hint">${t('page.expires', { date: page.request.expiresAt })}</p>`;
  return layout({
    nonce: ctx.nonce,
    tr,
    title: t('page.title', { contracts: contractNames(page), site }),
    script: true,
    brand: pageBrandOf(ctx.basePath, page.request),
    header: safe`<p class="from">${t('page.from', { site })}</p><h1>${contractNames(page)}</h1>${expires}`,
    main: safe`
${options.notice === undefined ? '' : safe`<div class="notice" role="status">${options.notice}</div>`}
${
  problems.length === 0
    ? ''
    : safe`<div class="errors" role="alert" aria-labelledby="errors-title"><h2 id="errors-title">${t(
        'page.errors',
        {
          count: problems.length,
        },
      )}</h2><ul>${problems.map((p) => problemLink(tr, p, page))}</ul></div>`
}
${page.contracts.map((_, i) => contractSection(ctx, page, i))}
<form class="sign" method="post" action="${actionOf(ctx, 'sign')}" aria-labelledby="sign-title" novalidate>
<h2 id="sign-title">${t('page.yourPart')}</h2>
${hidden(ctx, page)}
${page.mine.length === 0 ? '' : safe`<p class="hint">${t('page.requiredHint')}</p>`}
${page.mine.map((field) =>
  fieldInput(
    tr,
    field,
    submitted,
    problemAt(problems, (p) => p.target._tag === 'Field' && p.target.index === field.index),
  ),
)}
<fieldset>
<legend>${t('page.signatureLegend')}</legend>
<label class="field" for="typed_name">${t('page.typeName')}</label>
${nameError === undefined ? '' : safe`<p class="error" id="typed_name-error">${t('page.problem', { label: t('page.yourName'), message: nameError })}</p>`}
<input type="text" class="typed" id="typed_name" name="typed_name" autocomplete="name" required maxlength="${LIMITS.typedName}" value="${submitted?.typedName ?? ''}" aria-describedby="typed_name-hint${nameError === undefined ? '' : ' typed_name-error'}"${nameError === undefined ? '' : safe` aria-invalid="true"`}>
<p class="hint" id="typed_name-hint">${t('page.typeNameHint')}</p>
<div class="draw" id="draw" hidden>
<p class="field" id="pad-label">${t('page.draw')}</p>
<canvas id="pad" width="600" height="180" role="img" aria-labelledby="pad-label"></canvas>
<button type="button" class="link" id="clear">${t('page.clearDrawing')}</button>
<input type="hidden" name="drawn_signature" id="drawn_signature" value="">
</div>
</fieldset>
<div class="field-block">
${consentError === undefined ? '' : safe`<p class="error" id="consent-error">${t('page.problem', { label: t('page.consentLabel'), message: consentError })}</p>`}
<div class="check"><input type="checkbox" id="consent" name="consent" value="yes" required${submitted?.consent === true ? safe` checked` : ''}${consentError === undefined ? '' : safe` aria-invalid="true" aria-describedby="consent-error"`}>
<label for="consent">${t('page.consent', { site })}</label></div>
</div>
<p class="fingerprint">${t('page.fingerprint')} <code>${page.documentSha256}</code></p>
<button type="submit">${t('page.sign')}</button>
</form>
<details class="decline"${declining ? safe` open` : ''}>
<summary>${t('page.declineSummary')}</summary>
<form method="post" action="${actionOf(ctx, 'sign/decline')}" class="panel">
${hidden(ctx, page)}
<label class="field" for="reason">${t('page.declineLabel', { site })}</label>
${reasonError === undefined ? '' : safe`<p class="error" id="reason-error">${t('page.problem', { label: t('page.reasonLabel'), message: reasonError })}</p>`}
<textarea id="reason" name="reason" rows="3" maxlength="${LIMITS.reason}" required${reasonError === undefined ? '' : safe` aria-invalid="true" aria-describedby="reason-error"`}>${submitted?.reason ?? ''}</textarea>
<p class="hint">${t('page.declineHint')}</p>
<button type="submit" class="secondary">${t('page.declineButton')}</button>
</form>
</details>`,
    footer: safe`<p>${
      page.signer.contact.email === null
        ? t('page.footerNoEmail', { id: page.request.id })
        : t('page.footer', { id: page.request.id, email: page.signer.contact.email })
    }</p>`,
  });
};

/** A page that says one thing: a refusal, a thank-you, an error. */
export const messagePage = (input: {
  readonly nonce: string;
  readonly tr?: Translator | undefined;
  readonly title: string;
  readonly message: string;
  readonly detail?: string;
  readonly from?: string;
  readonly brand?: PageBrand | undefined;
}): string =>
  layout({
    nonce: input.nonce,
    ...(input.tr === undefined ? {} : { tr: input.tr }),
    brand: input.brand,
    title: input.title,
    header: safe`${input.from === undefined ? '' : safe`<p class="from">${input.from}</p>`}<h1>${input.title}</h1>`,
    main: safe`<p>${input.message}</p>${input.detail === undefined ? '' : safe`<p class="hint">${input.detail}</p>`}`,
  });
