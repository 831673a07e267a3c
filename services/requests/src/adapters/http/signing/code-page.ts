import type { CodePage } from '../../../application/signing/code-page.js';
import type { Translator } from '@esign/contracts';
import { safe, type Html } from './html.js';
import { ENGLISH, layout, type PageContext } from './layout.js';

/** `2030-01-01 12:15 UTC`: the same whatever the reader's locale. */
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

const hiddenLink = (ctx: PageContext, page: CodePage): Html => safe`
<input type="hidden" name="r" value="${ctx.link.r}">
<input type="hidden" name="s" value="${ctx.link.s}">
<input type="hidden" name="signature" value="${ctx.link.signature}">
<input type="hidden" name="form_token" value="${page.formToken}">`;

const lead = ({ t }: Translator, page: CodePage): string => {
  switch (page.method) {
    case 'access_code':
      return t('code.lead.accessCode', { site: page.request.siteName });
    case 'email_otp':
      return t('code.lead.email', { to: page.sentTo ?? t('code.yourAddress') });
    case 'sms_otp':
      return t('code.lead.sms', { to: page.sentTo ?? t('code.yourMobile') });
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
  const tr = ctx.tr ?? ENGLISH;
  const { t } = tr;
  const site = page.request.siteName;
  const otp = page.method !== 'access_code';
  const locked = page.lockedUntil !== null;
  const error = locked ? t('code.locked', { until: when(page.lockedUntil) }) : options.error;
  const notice =
    page.smsLimitUntil !== null ? t('code.smsLimit', { until: when(page.smsLimitUntil) }) : options.notice;
  return layout({
    nonce: ctx.nonce,
    tr,
    title: t('code.title', { site }),
    header: safe`<p class="from">${t('code.from', { site })}</p><h1>${t('code.heading')}</h1>`,
    main: safe`
${notice === undefined ? '' : safe`<div class="notice" role="status">${notice}</div>`}
<p>${lead(tr, page)}</p>
<form class="sign" method="post" action="${ctx.basePath}sign/verify" aria-labelledby="code-title" novalidate>
<h2 id="code-title">${t('code.yourCode')}</h2>
${hiddenLink(ctx, page)}
<label class="field" for="code">${otp ? t('code.sixDigit') : t('code.accessCode')}</label>
${error === undefined ? '' : safe`<p class="error" id="code-error" role="alert">${error}</p>`}
<input type="text" id="code" name="code" required maxlength="${otp ? 6 : 32}"${
      otp
        ? safe` inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}"`
        : safe` autocomplete="off"`
    }${locked ? safe` disabled` : ''}${error === undefined ? '' : safe` aria-invalid="true" aria-describedby="code-error"`}>
<p class="hint">${t('code.lockHint')}</p>
<button type="submit"${locked ? safe` disabled` : ''}>${t('code.continue')}</button>
</form>
${
  otp
    ? safe`<form method="post" action="${ctx.basePath}sign/code" class="panel">
${hiddenLink(ctx, page)}
<p>${t('code.noCode')}</p>
<button type="submit" class="secondary">${t('code.sendNew')}</button>
</form>`
    : ''
}`,
    footer: safe`<p>${t('page.footerNoEmail', { id: page.request.id })}</p>`,
  });
};
