import * as E from 'fp-ts/lib/Either.js';
import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { UseCases } from '../../../application/use-cases.js';
import { refuseSubmission } from './act-routes.js';
import { submittedOf } from './field-input.js';
import type { SignerPageKit } from './page-kit.js';

/**
 * `POST /sign/reassign` (ADR 3560): the signer asks someone else to sign in their place,
 * with a note for them if they like (ADR 3630). Done, it says so on a page of its own
 * (200): their link has just stopped opening, so there is no page of theirs to go back
 * to. Refused, the signing page again with each problem beside the address or the note
 * (422), a page saying the Request does not allow it (403), or what a signing act's
 * refusal shows.
 */
export const mountReassignRoute = (
  router: Router<AppState>,
  cases: Pick<UseCases, 'reassignSigning'>,
  kit: SignerPageKit,
): void => {
  router.post(
    '/sign/reassign',
    kit.page(async (ctx, nonce) => {
      const accepted = await kit.acceptForm(ctx, nonce);
      if (accepted === undefined) return;
      const { form, link } = accepted;
      const email = form.get('email') ?? '';
      const note = form.get('note') ?? '';
      const result = await cases.reassignSigning({
        ...link,
        ...kit.evidenceOf(ctx, form),
        formToken: form.get('form_token') ?? '',
        documentSha256: form.get('document_sha256') ?? '',
        email,
        note,
      })();
      if (E.isRight(result)) {
        const { request, email: asked } = result.right;
        return kit.ended(ctx, nonce, result.right, ({ t }) => ({
          title: t('done.reassigned.title'),
          message: t('done.reassigned.message', { email: asked, site: request.siteName }),
        }));
      }
      const refusal = result.left;
      if (refusal._tag === 'NotReassignable') {
        return kit.refuseFor(ctx, nonce, refusal, 403, ({ t }) => ({
          title: t('reassign.refused.title'),
          message: t('reassign.refused.message'),
        }));
      }
      const submitted = { ...submittedOf(form), reassignEmail: email, reassignNote: note };
      refuseSubmission(kit, ctx, nonce, { ...link, auth: form.get('auth') }, refusal, submitted);
    }),
  );
};
