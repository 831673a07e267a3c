import type { PolicyStatus } from '../../domain/token-bucket.js';

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy`
 * states each policy's quota `q` per window `w` seconds; `RateLimit` the caller's
 * standing: `r` calls left, `t` seconds until the bucket is full again.
 */
export const rateLimitHeaders = (status: readonly PolicyStatus[]): Record<string, string> => {
  if (status.length === 0) return {};
  let policy = '';
  let current = '';
  for (const s of status) {
    const sep = policy === '' ? '' : ', ';
    policy += `${sep}"${s.policy.name}";q=${s.policy.quota};w=${s.policy.windowSeconds}`;
    current += `${sep}"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`;
  }
  return { 'RateLimit-Policy': policy, RateLimit: current };
};
