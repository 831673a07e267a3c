import type { SignatureRequest } from './request-model.js';

/** Whether the Request's `expires_at` has come (a Request without one never expires). */
export const isPastExpiry = (request: SignatureRequest, now: string): boolean =>
  request.expiresAt !== null && Date.parse(request.expiresAt) <= Date.parse(now);
