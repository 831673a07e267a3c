/**
 * Tokens a signer page puts in its forms, bound to what the page was about (the Request,
 * the signer and the document shown). A submission without a token we issued for exactly
 * that, recently, is refused.
 */
export interface FormTokens {
  readonly issue: (binding: string, now: string) => string;
  readonly verify: (binding: string, token: string, now: string) => 'valid' | 'invalid' | 'expired';
}
