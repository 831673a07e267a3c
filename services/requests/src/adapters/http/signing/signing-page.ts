import type { Translator } from '@esign/contracts';
import type { SigningPage } from '../../../application/signing/signing-page.js';
import type { SubmissionProblem } from '../../../domain/signing.js';
import { filledAtSigning, initialsFields, LIMITS } from '../../../domain/signing.js';
import { attachmentFields } from '../../../domain/attachments.js';
import { contractSection } from './contract-section.js';
import { fieldInput, problemAt, type Submitted } from './field-input.js';
import { safe, type Html } from './html.js';
import { ENGLISH, labelOf, layout, type PageContext } from './layout.js';
import { pageBrandOf } from './page-brand.js';
import { problemText } from './problem-messages.js';
import { askedWhen, shownScript } from './shown-if.js';
import { canReassign } from '../../../domain/signer-reassignment.js';

/** A form action of the signer pages, keeping an embedded page embedded. */
const actionOf = (ctx: PageContext, path: string): string =>
  ctx.link.embed === undefined
    ? `${ctx.basePath}${path}`
    : `${ctx.basePath}${path}?embed=${encodeURIComponent(ctx.link.embed)}`;

/** The link and the form's token, carried by both forms of the page. */
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
    case 'Initials':
      return safe`<li><a href="#initials">${line(t('page.yourInitials'))}</a></li>`;
    case 'Consent':
      return safe`<li><a href="#consent">${line(t('page.consentLabel'))}</a></li>`;
    case 'Reason':
      return safe`<li><a href="#reason">${line(t('page.reasonLabel'))}</a></li>`;
    case 'ReassignEmail':
      return safe`<li><a href="#reassign_email">${line(t('page.reassignEmail'))}</a></li>`;
    case 'ReassignNote':
      return safe`<li><a href="#reassign_note">${line(t('page.reassignNote'))}</a></li>`;
  }
};

/**
 * Someone else to sign in the signer's place (ADR 3560), when the sender allowed it: their
 * address, a note for them (ADR 3630), and the button. Open, with each problem beside its
 * input, when the form was refused. Never on an embedded page: the client's application
 * decides who signs there.
 */
const reassignForm = (
  ctx: PageContext,
  page: SigningPage,
  submitted: Submitted | undefined,
  errors: { readonly email: string | undefined; readonly note: string | undefined },
): Html => {
  const { t } = ctx.tr ?? ENGLISH;
  const { email, note } = errors;
  const invalid = safe` aria-invalid="true"`;
  return safe`<details class="reassign"${email === undefined && note === undefined ? '' : safe` open`}>
<summary>${t('page.reassignSummary')}</summary>
<form method="post" action="${actionOf(ctx, 'sign/reassign')}" class="panel">
${hidden(ctx, page)}
<p class="hint" id="reassign_email-hint">${t('page.reassignIntro', { site: page.request.siteName })}</p>
<label class="field" for="reassign_email">${t('page.reassignEmail')}</label>
${email === undefined ? '' : safe`<p class="error" id="reassign_email-error">${t('page.problem', { label: t('page.reassignEmail'), message: email })}</p>`}
<input type="email" id="reassign_email" name="email" autocomplete="off" required maxlength="254" value="${submitted?.reassignEmail ?? ''}" aria-describedby="reassign_email-hint${email === undefined ? '' : ' reassign_email-error'}"${email === undefined ? '' : invalid}>
<label class="field" for="reassign_note">${t('page.reassignNote')}</label>
${note === undefined ? '' : safe`<p class="error" id="reassign_note-error">${t('page.problem', { label: t('page.reassignNote'), message: note })}</p>`}
<textarea id="reassign_note" name="note" rows="3" maxlength="${LIMITS.note}" aria-describedby="reassign_note-hint${note === undefined ? '' : ' reassign_note-error'}"${note === undefined ? '' : invalid}>${submitted?.reassignNote ?? ''}</textarea>
<p class="hint" id="reassign_note-hint">${t('page.reassignNoteHint')}</p>
<button type="submit">${t('page.reassignButton')}</button>
</form>
</details>`;
};

/**
 * Where this signer's initials go (ADR 3900): one input beside their name, which fills
 * every `initials` field of theirs; none when they have no such field.
 */
const initialsInput = (
  { t }: Translator,
  page: SigningPage,
  typed: string | undefined,
  error: string | undefined,
): Html | '' => {
  const places = initialsFields(page.fields, page.signer);
  if (places.length === 0) return '';
  const names = places.map((f) => labelOf(f.name)).join(', ');
  return safe`<label class="field" for="initials">${t('page.initials')}</label>
${error === undefined ? '' : safe`<p class="error" id="initials-error">${t('page.problem', { label: t('page.yourInitials'), message: error })}</p>`}
<input type="text" class="initials" id="initials" name="initials" autocomplete="off" autocapitalize="characters" spellcheck="false" required maxlength="${LIMITS.initials}" value="${typed ?? ''}" aria-describedby="initials-hint${error === undefined ? '' : ' initials-error'}"${error === undefined ? '' : safe` aria-invalid="true"`}>
<p class="hint" id="initials-hint">${t('page.initialsHint', { names })}</p>`;
};

/**
 * What this signer's `date_signed` (ADR 3570) and `full_name` (ADR 3910) fields will hold:
 * nobody types them.
 */
const filledHints = ({ t }: Translator, page: SigningPage): Html => {
  const hint = (kind: 'date_signed' | 'full_name', key: 'page.dateSigned' | 'page.fullName') => {
    const filled = filledAtSigning(page.fields, page.signer, kind);
    if (filled.length === 0) return '';
    const names = filled.map((f) => labelOf(f.name)).join(', ');
    return safe`<p class="hint dated">${t(key, { names })}</p>`;
  };
  return safe`${hint('date_signed', 'page.dateSigned')}${hint('full_name', 'page.fullName')}`;
};

const contractNames = (page: SigningPage) => page.contracts.map((c) => c.name).join(', ');

/** What the sender wrote to the signers (ADR 3380): text, its line breaks kept by the style. */
const senderMessage = ({ t }: Translator, page: SigningPage): Html | '' =>
  page.request.message == null
    ? ''
    : safe`<section aria-labelledby="message-title"><h2 id="message-title">${t('page.message', {
        site: page.request.siteName,
      })}</h2><p class="sender-message">${page.request.message}</p></section>`;

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
  const reassignErrors = {
    email: problemAt(problems, (p) => p.target._tag === 'ReassignEmail'),
    note: problemAt(problems, (p) => p.target._tag === 'ReassignNote'),
  };
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
${senderMessage(tr, page)}
${page.contracts.map((_, i) => contractSection(ctx, page, i))}
<form class="sign" method="post" action="${actionOf(ctx, 'sign')}"${
      attachmentFields(page.mine).length === 0 ? '' : safe` enctype="multipart/form-data"`
    } aria-labelledby="sign-title" novalidate>
<h2 id="sign-title">${t('page.yourPart')}</h2>
${hidden(ctx, page)}
${page.mine.length === 0 ? '' : safe`<p class="hint">${t('page.requiredHint')}</p>`}
${page.mine.map((field) =>
  askedWhen(
    tr,
    field,
    page,
    fieldInput(
      tr,
      field,
      submitted,
      problemAt(problems, (p) => p.target._tag === 'Field' && p.target.index === field.index),
      page.today,
      page.attachments.get(field.name),
    ),
  ),
)}
${filledHints(tr, page)}
<fieldset>
<legend>${t('page.signatureLegend')}</legend>
<label class="field" for="typed_name">${t('page.typeName')}</label>
${nameError === undefined ? '' : safe`<p class="error" id="typed_name-error">${t('page.problem', { label: t('page.yourName'), message: nameError })}</p>`}
<input type="text" class="typed" id="typed_name" name="typed_name" autocomplete="name" required maxlength="${LIMITS.typedName}" value="${submitted?.typedName ?? ''}" aria-describedby="typed_name-hint${nameError === undefined ? '' : ' typed_name-error'}"${nameError === undefined ? '' : safe` aria-invalid="true"`}>
<p class="hint" id="typed_name-hint">${t('page.typeNameHint')}</p>
${initialsInput(
  tr,
  page,
  submitted?.initials,
  problemAt(problems, (p) => p.target._tag === 'Initials'),
)}
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
</details>
${canReassign(page.request, page.signer) && ctx.link.embed === undefined ? reassignForm(ctx, page, submitted, reassignErrors) : ''}
${shownScript(ctx.nonce, page)}`,
    footer: safe`<p>${
      page.signer.contact.email === null
        ? t('page.footerNoEmail', { id: page.request.id })
        : t('page.footer', { id: page.request.id, email: page.signer.contact.email })
    }</p>`,
  });
};
