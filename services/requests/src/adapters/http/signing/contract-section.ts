import type { SigningPage } from '../../../application/signing/signing-page.js';
import { kindOf } from '../../../domain/document.js';
import { contractMarkup } from './contract-html.js';
import { safe, type Html } from './html.js';
import { ENGLISH, labelOf, type PageContext } from './layout.js';

/**
 * One contract on the signing page: HTML shown inline; a PDF in an object (with a link to
 * open it) and the values already filled in listed below it.
 */
export const contractSection = (ctx: PageContext, page: SigningPage, index: number): Html => {
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
