/**
 * The application's one stylesheet, served from /app/assets/ (CSP `style-src 'self'`).
 * Contrast ≥ 4.5:1 everywhere, a visible focus ring, 44 px targets, one column on a phone.
 */
export const APP_CSS = `
:root { color-scheme: light; --ink: #1b1b1f; --muted: #4a4a55; --line: #c9c9d2; --accent: #0b57d0;
  --accent-ink: #fff; --danger: #b3261e; --ok: #146c2e; --warn: #7a4b00; --bg: #fff; --panel: #f4f5f8; }
* { box-sizing: border-box; }
html { font-size: 100%; -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--ink); background: var(--bg); }
.wrap { max-width: 64rem; margin: 0 auto; padding: 1rem; }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; top: 0; background: var(--ink); color: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 2; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
header.top { background: var(--panel); border-bottom: 1px solid var(--line); }
header.top .wrap { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding-block: .5rem; }
.brand { font-weight: 700; font-size: 1.1rem; color: var(--ink); text-decoration: none; margin-right: auto; }
nav.main ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; }
nav.main a { display: inline-block; padding: .6rem .25rem; min-height: 2.75rem; }
nav.main a[aria-current=page] { font-weight: 700; color: var(--ink); }
.bar { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.bar label { font-weight: 600; margin: 0; }
.bar select { width: auto; min-width: 10rem; }
.bar .field.date { margin: 0 .5rem 0 0; }
.bar .field.search { margin: 0 .5rem 0 0; flex: 1 1 16rem; max-width: 24rem; }
.bar .field.search input[type=search] { width: 100%; max-width: none; }
.bar input[type=date] { width: auto; }
.bar input[type=search] { width: auto; min-width: 16rem; flex: 1 1 16rem; max-width: 24rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 1rem 0 .75rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
.crumbs { margin: .75rem 0 0; color: var(--muted); }
.panel { background: var(--panel); border-radius: .5rem; padding: 1rem; margin: 1rem 0; }
.field { margin-bottom: 1rem; }
label, legend { display: block; font-weight: 600; margin-bottom: .25rem; }
fieldset.checks { border: 0; padding: 0; margin: 0 0 1rem; }
fieldset.checks label { display: flex; gap: .5rem; align-items: center; min-height: 44px; font-weight: 400; }
fieldset.checks input[type=checkbox] { width: 1.25rem; height: 1.25rem; }
fieldset.checks [hidden] { display: none; }
fieldset.checks .contracts-filter label { display: block; min-height: 0; font-weight: 600; }
.field.check { display: flex; flex-wrap: wrap; align-items: center; gap: 0 .5rem; }
.field.check input { width: 1.25rem; height: 1.25rem; margin: 0; }
.field.check label { display: flex; align-items: center; min-height: 44px; margin: 0; }
.field.check .hint, .field.check .error { flex-basis: 100%; }
.hint { color: var(--muted); margin: .25rem 0; font-size: .95rem; }
input[type=text], input[type=email], input[type=password], input[type=file], input[type=url], input[type=tel], input[type=search],
input[type=datetime-local], input[type=date], input[type=number], select, textarea {
  width: 100%; max-width: 40rem; font: inherit; padding: .6rem .7rem; min-height: 2.75rem;
  border: 1px solid #6f6f7a; border-radius: .375rem; background: #fff; color: var(--ink); }
input[type=number] { max-width: 8rem; }
textarea { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .95rem; max-width: none; }
input[readonly] { background: var(--panel); }
[aria-invalid=true] { border: 2px solid var(--danger) !important; }
.error { color: var(--danger); font-weight: 600; margin: .25rem 0; }
.errors { border: 3px solid var(--danger); border-radius: .5rem; padding: .75rem 1rem; margin: 1rem 0; }
.errors h2 { margin: 0 0 .5rem; font-size: 1.1rem; }
.notice { border-left: 4px solid var(--accent); background: #eef3fd; padding: .75rem 1rem; margin: 1rem 0; }
.success { border-left: 4px solid var(--ok); background: #edf7ef; padding: .75rem 1rem; margin: 1rem 0; }
button, .button { display: inline-block; font: inherit; font-weight: 600; min-height: 2.75rem; padding: .55rem 1.2rem;
  border-radius: .375rem; border: 2px solid var(--accent); background: var(--accent); color: var(--accent-ink);
  cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button.link { background: none; border: 0; color: var(--accent); padding: .25rem 0; text-decoration: underline; }
button[aria-busy=true] { opacity: .7; cursor: progress; }
form.inline { display: inline; }
details.cancel { margin: 0 0 1rem; }
details.cancel > form { margin-top: .5rem; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin: 1rem 0; }
.table-wrap { overflow-x: auto; position: relative; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
td button, td .button { white-space: nowrap; }
.state { display: inline-block; padding: .05rem .5rem; border-radius: 1rem; border: 1px solid currentColor; font-size: .9rem; }
.state-active, .state-published, .state-completed, .state-signed, .state-delivered { color: var(--ok); }
.state-revoked, .state-failed, .state-cancelled, .state-declined, .state-expired, .state-disabled { color: var(--danger); }
.state-draft, .state-pending, .state-sent, .state-running { color: var(--warn); }
.state-archived { color: var(--muted); }
ul.compact { margin: 0; padding-left: 1rem; }
fieldset.signer { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem 0; margin: 0 0 1rem; min-width: 0; }
.signer-grid { display: grid; gap: 0 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); }
.signer .bar { gap: 0 1.5rem; }
.signer .bar label { font-weight: 400; }
details.panel pre { overflow-x: auto; }
.copy { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.copy input { flex: 1 1 16rem; font-family: ui-monospace, Menlo, Consolas, monospace; }
.message-body { white-space: pre-wrap; overflow-wrap: anywhere; margin: .5rem 0 0; }
.signer-message { white-space: pre-wrap; overflow-wrap: anywhere; border-left: 3px solid var(--line); padding: .25rem .75rem; margin: 0 0 1rem; }
textarea.prose { font-family: inherit; font-size: 1rem; }
.new-link { display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; margin-top: .25rem; }
.secret { border: 2px solid var(--ok); border-radius: .5rem; padding: 1rem; margin: 1rem 0; }
dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
dl.facts ul.plain { list-style: none; margin: 0; padding: 0; }
.editor { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 60rem) { .editor { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
pre.highlight { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel); border: 1px solid var(--line);
  border-radius: .375rem; padding: .6rem .7rem; margin: 0; font-size: .95rem; min-height: 4rem; }
mark.token { background: #fff0b3; color: #1b1b1f; border-radius: .2rem; outline: 1px solid #b08800; }
ul.tokens { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; padding: 0; margin: .25rem 0; }
ul.tokens li { background: #fff0b3; border: 1px solid #b08800; border-radius: 1rem; padding: 0 .6rem;
  font-family: ui-monospace, Menlo, Consolas, monospace; }
iframe.preview { width: 100%; min-height: 16rem; border: 1px solid var(--line); border-radius: .375rem; background: #fff; }
iframe.preview.pdf { height: 36rem; }
.pager { display: flex; gap: 1rem; align-items: center; margin: 1rem 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer.foot { color: var(--muted); font-size: .875rem; border-top: 1px solid var(--line); margin-top: 2rem; }
@media (max-width: 40rem) { th.wide, td.wide { display: none; } }
`;
