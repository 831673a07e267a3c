import type { CodePage } from '../../application/signer-authentication.js';
import { safe, type Html } from './html.js';
import { layout, type PageContext } from './signing-pages.js';

/** `2030-01-01 12:15 UTC`: the same whatever the reader's locale. */
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

const hiddenLink = (ctx: PageContext, page: CodePage): Html => safe`
<input type="hidden" name="r" value="${ctx.link.r}">
<input type="hidden" name="s" value="${ctx.link.s}">
<input type="hidden" name="signature" value="${ctx.link.signature}">
<input type="hidden" name="form_token" value="${page.formToken}">`;

const lead = (page: CodePage): string => {
  switch (page.method) {
    case 'access_code':
      return `${page.request.siteName} gave you an access code for this document (not in the message with this link). Enter it to open the document.`;
    case 'email_otp':
      return `We e-mailed a 6-digit code to ${page.sentTo ?? 'your address'}. Enter it to open the document. It works once, for 10 minutes.`;
    case 'sms_otp':
      return `We texted a 6-digit code to ${page.sentTo ?? 'your mobile'}. Enter it to open the document. It works once, for 10 minutes.`;
  }
};

/**
 * The code-entry page (signer authentication, ADR 2001): shown instead of the contract
 * until the signer enters the right code. Nothing of the contract is on it.
 */
export const codeEntryPage = (
  ctx: PageContext,
  page: CodePage,
  options: { readonly error?: string; readonly notice?: string } = {},
): string => {
  const site = page.request.siteName;
  const otp = page.method !== 'access_code';
  const locked = page.lockedUntil !== null;
  const error = locked
    ? `Too many wrong codes. This link is locked until ${when(page.lockedUntil)}; try again then.`
    : options.error;
  const notice =
    page.smsLimitUntil !== null
      ? `We cannot text you another code before ${when(page.smsLimitUntil)}. Use the last code we sent, or try again then.`
      : options.notice;
  return layout({
    nonce: ctx.nonce,
    title: `Enter your code · ${site}`,
    header: safe`<p class="from">${site} asks you to confirm who you are</p><h1>Enter your code</h1>`,
    main: safe`
${notice === undefined ? '' : safe`<div class="notice" role="status">${notice}</div>`}
<p>${lead(page)}</p>
<form class="sign" method="post" action="${ctx.basePath}sign/verify" aria-labelledby="code-title" novalidate>
<h2 id="code-title">Your code</h2>
${hiddenLink(ctx, page)}
<label class="field" for="code">${otp ? '6-digit code' : 'Access code'}</label>
${error === undefined ? '' : safe`<p class="error" id="code-error" role="alert">${error}</p>`}
<input type="text" id="code" name="code" required maxlength="${otp ? 6 : 32}"${
      otp
        ? safe` inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}"`
        : safe` autocomplete="off"`
    }${locked ? safe` disabled` : ''}${error === undefined ? '' : safe` aria-invalid="true" aria-describedby="code-error"`}>
<p class="hint">After 5 wrong codes the link is locked for 15 minutes.</p>
<button type="submit"${locked ? safe` disabled` : ''}>Continue</button>
</form>
${
  otp
    ? safe`<form method="post" action="${ctx.basePath}sign/code" class="panel">
${hiddenLink(ctx, page)}
<p>No code, or did it expire?</p>
<button type="submit" class="secondary">Send a new code</button>
</form>`
    : ''
}`,
    footer: safe`<p>Request ${page.request.id}. This page is for the invited signer only: do not forward the link.</p>`,
  });
};
