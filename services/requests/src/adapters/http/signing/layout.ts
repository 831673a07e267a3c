import { translatorFor, type Translator } from '@esign/contracts';
import { brandLogo, brandStyle, type PageBrand } from './page-brand.js';
import { safe, trusted, type Html } from './html.js';

/** What every signer page knows: its nonce, where it is served, the link it answers, its language. */
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
.sender-message { border-left: 4px solid var(--line); background: var(--panel); padding: .5rem 1rem;
  margin: 1rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
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
.hint.dated { margin-bottom: 1.25rem; }
.req { font-weight: 400; color: var(--muted); }
input[type=text], input[type=email], input[type=tel], input[type=date], select, textarea { width: 100%; font: inherit; padding: .6rem .7rem; min-height: 2.75rem;
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
details.reassign { margin: 1.5rem 0; } details.reassign summary { cursor: pointer; color: var(--accent); font-weight: 600; }
details.reassign button { background: #fff; color: var(--accent); border-color: var(--accent); }
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
