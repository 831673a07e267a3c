import * as E from 'fp-ts/lib/Either.js';
import type { AppContext, AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { ActDone, SubmitRefusal } from '../../../application/signing/signer-act.js';
import type { ExecutionLink } from '../../../application/signing/verify-link.js';
import type { Upload } from '../../../domain/attachments.js';
import type { UseCases } from '../../../application/use-cases.js';
import { embeddedPageOf } from './embedded-pages.js';
import { type Submitted, submittedOf } from './field-input.js';
import type { PassedLink, SignerPageKit } from './page-kit.js';
import { DRAWING_PROBLEMS, drawingOf } from './signer-http.js';

type Submit = (
  link: ExecutionLink,
  form: URLSearchParams,
  ctx: AppContext,
  submitted: Submitted,
  uploads: readonly Upload[],
) => Promise<E.Either<SubmitRefusal | { _tag: 'BadDrawing'; message: string }, ActDone>>;

/** A refused act shown to the signer: the form again with why, the code step, or a refusal page. */
export const refuseSubmission = (
  kit: SignerPageKit,
  ctx: AppContext,
  nonce: string,
  link: PassedLink,
  refusal: SubmitRefusal,
  submitted: Submitted,
) => {
  switch (refusal._tag) {
    case 'InvalidSubmission':
      return kit.showForm(ctx, nonce, 422, refusal.page, link, { problems: refusal.problems, submitted });
    case 'FormTokenExpired':
      return kit.showForm(ctx, nonce, 409, refusal.page, link, {
        submitted,
        notice: kit.languageFor(ctx, refusal.page.signer, refusal.page.request).t('page.staleForm'),
      });
    case 'DocumentChanged':
      return kit.showForm(ctx, nonce, 409, refusal.page, link, {
        notice: kit.languageFor(ctx, refusal.page.signer, refusal.page.request).t('page.documentChanged'),
      });
    case 'AuthenticationRequired':
      // The pass is missing or too old: the code-entry page, from GET /sign.
      ctx.status = 303;
      return ctx.redirect(kit.signLink(link));
    case 'InvalidFormToken': {
      const { t } = kit.languageFor(ctx);
      return kit.refuse(ctx, nonce, {
        status: 403,
        title: t('form.refused.title'),
        message: t('form.notFromPage'),
        detail: t('form.openAgain'),
      });
    }
    case 'AlreadySigned':
      return kit.refuseFor(ctx, nonce, refusal, 409, ({ t }) => ({
        title: t('signed.already.title'),
        message: t('signed.cannotDecline'),
      }));
    default:
      return kit.refuseLink(ctx, nonce, refusal);
  }
};

/**
 * The signer's acts: `POST /sign` signs, `POST /sign/decline` declines. Each ends at the
 * client's redirect_url or our own `GET /sign/done`, or shows the form again with why not.
 */
export const mountSigningActRoutes = (
  router: Router<AppState>,
  cases: Pick<UseCases, 'submitSignature' | 'declineSigning' | 'keepAttachments'>,
  kit: SignerPageKit,
): void => {
  const doneLink = (link: ExecutionLink, embed?: string) =>
    `${kit.basePath}sign/done?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature, ...(embed === undefined ? {} : { embed }) }).toString()}`;

  /**
   * After an act: the client's redirect_url, else our own page. 303, so a reload does not
   * post again. An embedded page stays in its frame: the host hears `signed` and moves on.
   */
  const finish = (ctx: AppContext, link: ExecutionLink, done: ActDone) => {
    ctx.status = 303;
    const embed = embeddedPageOf(ctx)?.session.id;
    ctx.redirect(embed === undefined ? (done.redirectTo ?? doneLink(link)) : doneLink(link, embed));
  };

  const act = (submit: Submit) =>
    kit.page(async (ctx, nonce) => {
      const accepted = await kit.acceptForm(ctx, nonce);
      if (accepted === undefined) return;
      const { form, link, uploads } = accepted;
      const submitted = submittedOf(form);
      const result = await submit(link, form, ctx, submitted, uploads);
      if (E.isRight(result)) return finish(ctx, link, result.right);
      if (result.left._tag === 'BadDrawing') {
        const { t } = kit.languageFor(ctx);
        return kit.refuse(ctx, nonce, {
          status: 400,
          title: t('drawing.unreadable.title'),
          message: t(DRAWING_PROBLEMS[result.left.message] ?? 'drawing.unreadable.message'),
          detail: t('drawing.unreadable.detail'),
        });
      }
      refuseSubmission(kit, ctx, nonce, { ...link, auth: form.get('auth') }, result.left, submitted);
    });

  router.post(
    '/sign',
    act(async (link, form, ctx, submitted, uploads) => {
      const drawing = drawingOf(form.get('drawn_signature') ?? undefined);
      if (E.isLeft(drawing)) return E.left({ _tag: 'BadDrawing', message: drawing.left });
      const act = {
        ...link,
        ...kit.evidenceOf(ctx, form),
        formToken: form.get('form_token') ?? '',
        documentSha256: form.get('document_sha256') ?? '',
      };
      // The files first, in their own transaction, so a refusal of the act keeps them (ADR 3920).
      const kept = await cases.keepAttachments({ ...act, uploads })();
      return cases.submitSignature({
        ...act,
        refusedUploads: E.isRight(kept) ? kept.right : new Map(),
        values: submitted.values,
        typedName: submitted.typedName,
        initials: submitted.initials,
        consent: submitted.consent,
        drawnSignature: drawing.right,
      })();
    }),
  );

  router.post(
    '/sign/decline',
    act((link, form, ctx, submitted) =>
      cases.declineSigning({
        ...link,
        ...kit.evidenceOf(ctx, form),
        formToken: form.get('form_token') ?? '',
        documentSha256: form.get('document_sha256') ?? '',
        reason: submitted.reason,
      })(),
    ),
  );
};
