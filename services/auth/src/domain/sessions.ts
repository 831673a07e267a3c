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

/**
 * How often, at most, a session's use is written down as its last activity (ADR 3110).
 * Every self-service call checks the session, and a session's access token is checked at
 * the gateway's introspection: a write on each would double the cost of every call. A
 * minute is as precise as a person reading the list needs ("active 14:32").
 */
export const SESSION_ACTIVITY_EVERY_SECONDS = 60;

/**
 * Whether a use of a session at `now` is to be written down: when none ever was (a session
 * begun before ADR 3110), or the last one is more than `SESSION_ACTIVITY_EVERY_SECONDS` old.
 * A time ahead of `now` (another replica's clock) is not moved back.
 */
export const sessionActivityDue = (lastActiveAt: Date | null, now: Date): boolean =>
  lastActiveAt === null || lastActiveAt.getTime() < now.getTime() - SESSION_ACTIVITY_EVERY_SECONDS * 1000;
