import type { LinkRefusal } from '../../application/signing.js';

/**
 * The page an Execution URL shows before its signer's turn (signing in order, ADR 2000):
 * it says so, and never shows the contract. The same URL opens the signing page once the
 * turn comes, and the signer is told then.
 */
export const notYourTurn = (_refusal: Extract<LinkRefusal, { _tag: 'NotYourTurn' }>) => ({
  status: 409,
  title: 'It is not your turn to sign yet',
  message: 'This document is signed in order, and the signers before you have not all signed yet.',
  detail:
    'You will be told when it is your turn. This same link will then open the document for you to sign.',
});
