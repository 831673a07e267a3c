import type { Translator } from '@esign/contracts';
import type { LinkRefusal } from '../../../application/signing/verify-link.js';
import { notYourTurn } from './signing-order-pages.js';

/** A refused page's status and words. */
export interface Refused {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly detail?: string;
}

/** Every refusal of a link, with its page and status: the contract is never shown. */
export const refusalOf = (refusal: LinkRefusal, tr: Translator): Refused => {
  const { t } = tr;
  switch (refusal._tag) {
    case 'InvalidSignature':
      return {
        status: 403,
        title: t('refusal.invalid.title'),
        message: t('refusal.invalid.message'),
        detail: t('refusal.invalid.detail'),
      };
    case 'NoSuchRequest':
    case 'UnknownSigner':
      return {
        status: 404,
        title: t('refusal.notFound.title'),
        message: t('refusal.notFound.message'),
        detail: t('refusal.notFound.detail'),
      };
    case 'NotYetSent':
      return {
        status: 409,
        title: t('refusal.notSent.title'),
        message: t('refusal.notSent.message'),
        detail: t('refusal.notSent.detail'),
      };
    case 'Expired':
      return {
        status: 410,
        title: t('refusal.expired.title'),
        message: t('refusal.expired.message'),
        detail: t('refusal.expired.detail'),
      };
    case 'Replaced':
      return {
        status: 410,
        title: t('refusal.replaced.title'),
        message: t('refusal.replaced.message'),
        detail: t('refusal.replaced.detail'),
      };
    case 'SignerReplaced':
      return {
        status: 410,
        title: t('refusal.signerReplaced.title'),
        message: t('refusal.signerReplaced.message'),
        detail: t('refusal.signerReplaced.detail'),
      };
    case 'LinkExpired':
      return {
        status: 410,
        title: t('refusal.expired.title'),
        message: t('refusal.linkExpired.message'),
        detail: t('refusal.linkExpired.detail'),
      };
    case 'NotYourTurn':
      return notYourTurn(refusal, tr);
    case 'UnshownContent':
      return {
        status: 409,
        title: t('refusal.cannotSign.title'),
        message: t('refusal.unshown.message'),
        detail: t('refusal.unshown.detail'),
      };
    case 'Closed':
      switch (refusal.state) {
        case 'cancelled':
          return {
            status: 410,
            title: t('refusal.cancelled.title'),
            message: t('refusal.cancelled.message'),
            // The reason the signers were told by message (ADR 3500), in the e-mail's words.
            ...(refusal.cancelReason !== undefined && {
              detail: t('email.cancelled.reason', { reason: refusal.cancelReason }),
            }),
          };
        case 'declined':
          return refusal.signer.state === 'declined'
            ? {
                status: 410,
                title: t('refusal.youDeclined.title'),
                message: t('refusal.youDeclined.message'),
              }
            : {
                status: 410,
                title: t('refusal.declined.title'),
                message: t('refusal.declined.message'),
              };
        case 'completed':
          return {
            status: 410,
            title: t('refusal.complete.title'),
            message:
              refusal.signer.signedAt === null
                ? t('refusal.complete.message')
                : t('refusal.completeSigned.message', { date: refusal.signer.signedAt }),
          };
        default:
          return {
            status: 409,
            title: t('refusal.cannotSign.title'),
            message: t('refusal.notOpen.message'),
          };
      }
  }
};
