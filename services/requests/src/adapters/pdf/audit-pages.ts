import { translatorFor, type Translator } from '@esign/contracts';
import type { SignerCorrectionRecord } from '../../domain/signer-correction.js';
import type { AuditSigner, ExecutedDocument } from '../../ports/pdf-renderer.js';
import { embedPng } from './fill-pdf-form.js';
import type { Writer } from './text-layout.js';

/** The cover and audit pages are written in the document's language (ADR 2320). */
export const translatorOf = (document: ExecutedDocument): Translator =>
  translatorFor(document.locale ?? 'en');

export const writeAudit = async (w: Writer, document: ExecutedDocument) => {
  const { t } = translatorOf(document);
  w.newPage();
  // The sender's logo (branding, ADR 2301) above the trail; an unreadable one is left out.
  const logo = document.logoPng === undefined ? null : await embedPng(w.doc, document.logoPng);
  if (logo !== null) {
    const scale = Math.min(160 / logo.width, 40 / logo.height, 1);
    w.ensure(50);
    w.page.drawImage(logo, {
      x: 56,
      y: w.y - logo.height * scale,
      width: logo.width * scale,
      height: logo.height * scale,
    });
    w.y -= logo.height * scale + 10;
  }
  w.heading(t('audit.title'), 1);
  w.pair(t('audit.request'), document.requestId);
  w.pair(t('audit.sentBy'), document.siteName);
  w.pair(t('audit.created'), document.createdAt);
  w.pair(t('audit.sent'), document.sentAt ?? t('audit.notSent'));
  w.pair(t('audit.completed'), document.completedAt);
  w.pair(t('audit.documentSha256'), document.documentSha256);
  w.plain(t('audit.sha256Note'), { size: 8, muted: true, after: 8 });
  w.heading(t('audit.contracts'), 2);
  for (const c of document.contracts)
    w.pair(
      t('audit.contract', { name: c.name, kind: c.kind.toUpperCase(), id: c.id }),
      t('audit.contentSha256', { hash: c.sha256 }),
    );
  w.heading(t('audit.signers'), 2);
  for (const signer of document.signers) writeAuditSigner(w, signer, t);
};

const writeAuditSigner = (w: Writer, signer: AuditSigner, t: Translator['t']) => {
  w.heading(signer.signerId, 3);
  const act = signer.act;
  w.pair(t('audit.email'), signer.email ?? t('audit.none'), 10);
  w.pair(t('audit.mobile'), signer.mobileNumber ?? t('audit.none'), 10);
  for (const correction of signer.corrections ?? []) writeCorrection(w, correction, t);
  if (signer.viewedAt !== undefined && signer.viewedAt !== null)
    w.pair(t('audit.firstOpened'), signer.viewedAt, 10);
  if (act === null) {
    w.pair(t('audit.action'), t('audit.noAction'), 10);
    return;
  }
  w.pair(t('audit.action'), act.kind === 'signed' ? t('audit.actionSigned') : t('audit.actionDeclined'), 10);
  if (act.typedName !== null)
    w.pair(
      t('audit.signedAs'),
      act.drawnSignature === null ? act.typedName : t('audit.typedAndDrawn', { name: act.typedName }),
      10,
    );
  if (act.reason !== null) w.pair(t('audit.reason'), act.reason, 10);
  if (act.authentication !== null)
    w.pair(
      t('audit.identityCheck'),
      t('audit.identityPassed', {
        method: t(`audit.method.${act.authentication.method}`),
        date: act.authentication.passedAt,
      }),
      10,
    );
  w.pair(t('audit.time'), act.at, 10);
  w.pair(t('audit.ip'), act.ip, 10);
  w.pair(t('audit.userAgent'), act.userAgent, 10);
  w.pair(t('audit.documentSha256'), act.documentSha256, 10);
  w.space(6);
};

/** One correction of the signer's details (ADR 3140): when, by whom, and what changed from what. */
const writeCorrection = (w: Writer, c: SignerCorrectionRecord, t: Translator['t']) => {
  const none = t('audit.none');
  const change = (before: string | null, after: string | null) => `${before ?? none} → ${after ?? none}`;
  const channels = (sendTo: SignerCorrectionRecord['current']['sendTo']) =>
    [sendTo.email && t('audit.channel.email'), sendTo.sms && t('audit.channel.sms')]
      .filter((x) => x !== false)
      .join(', ') || none;
  const what = c.replaced === undefined ? t('audit.corrected') : t('audit.signerReplaced');
  w.pair(what, t('audit.correctedBy', { date: c.at, by: c.by }), 10);
  // Who signed in this place before (ADR 3550): the trail is under the one who signs now.
  if (c.replaced !== undefined)
    w.pair(t('audit.signer'), change(c.replaced.previous, c.replaced.current), 20);
  // The signer asked for it from their page (ADR 3560): where from, as of a signing act.
  if (c.from !== undefined) {
    w.pair(t('audit.ip'), c.from.ip, 20);
    w.pair(t('audit.userAgent'), c.from.userAgent, 20);
  }
  const { previous, current } = c;
  if (previous.contact.email !== current.contact.email)
    w.pair(t('audit.email'), change(previous.contact.email, current.contact.email), 20);
  if (previous.contact.mobileNumber !== current.contact.mobileNumber)
    w.pair(t('audit.mobile'), change(previous.contact.mobileNumber, current.contact.mobileNumber), 20);
  const before = channels(previous.sendTo);
  const after = channels(current.sendTo);
  if (before !== after) w.pair(t('audit.channels'), change(before, after), 20);
  if (c.linkReplaced) w.pair(t('audit.newLink'), t('audit.newLinkValue'), 20);
};

export const writeCover = (w: Writer, document: ExecutedDocument) => {
  const { t } = translatorOf(document);
  w.newPage();
  w.heading(t('audit.cover.title'), 1);
  w.plain(t('audit.cover.completed', { site: document.siteName, date: document.completedAt }), {
    muted: true,
    after: 10,
  });
  w.pair(t('audit.request'), document.requestId);
  w.heading(t('audit.contracts'), 2);
  document.contracts.forEach((c, i) => w.pair(String(i + 1), c.name));
  w.heading(t('audit.signedBy'), 2);
  for (const s of document.signers)
    w.pair(
      s.act?.typedName ?? s.signerId,
      `${s.signerId}${s.email !== null && s.email !== s.signerId ? ` <${s.email}>` : ''} · ${s.act?.at ?? ''}`,
    );
};
