import type { Translator } from '@esign/contracts';
import type { LinkRefusal } from '../../../application/signing/verify-link.js';

/**
 * The page an Execution URL shows before its signer's turn (signing in order, ADR 2000):
 * it says so, and never shows the contract. The same URL opens the signing page once the
 * turn comes, and the signer is told then.
 */
export const notYourTurn = (_refusal: Extract<LinkRefusal, { _tag: 'NotYourTurn' }>, { t }: Translator) => ({
  status: 409,
  title: t('refusal.notYourTurn.title'),
  message: t('refusal.notYourTurn.message'),
  detail: t('refusal.notYourTurn.detail'),
});
