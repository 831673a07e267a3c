import { SESSION_USER_AGENT_MAX } from '@esign/contracts';

/**
 * What is kept of a client's `User-Agent` with its session (ADR 3100): shown to the user
 * beside their other sessions, so it is one line of printable text, at most
 * `SESSION_USER_AGENT_MAX` characters; null when the client sent none worth keeping.
 */
export const keptUserAgent = (raw: string | undefined): string | null => {
  if (raw === undefined) return null;
  const line = raw.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return line === '' ? null : [...line].slice(0, SESSION_USER_AGENT_MAX).join('');
};
