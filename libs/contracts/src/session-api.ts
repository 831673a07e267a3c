import * as t from 'io-ts';
import { Page } from './paging.js';
import { nullable } from './primitives.js';

// A user sees where they are signed in and ends any of those sessions (ADR 3100): a
// browser left signed in elsewhere, or a session they do not recognise.

/** At most this much of a client's `User-Agent` is kept with its session. */
export const SESSION_USER_AGENT_MAX = 256;

/** One of the user's sessions that has not ended: when and from where it began, when it was last used; never its credential. */
export const SignedInSessionView = t.type({
  id: t.string,
  created_at: t.string,
  expires_at: t.string,
  /** The session that asked. */
  current: t.boolean,
  /** The client's address when it signed in, as auth saw it; null for sessions begun before ADR 3100. */
  client_address: nullable(t.string),
  /** The client's `User-Agent` when it signed in (its first 256 characters); null when it sent none. */
  user_agent: nullable(t.string),
  /**
   * When it was last used (ADR 3110), to the minute: a use is written down at most once a
   * minute. Null for sessions begun before ADR 3110 and not used since.
   */
  last_active_at: nullable(t.string),
});
export type SignedInSessionView = t.TypeOf<typeof SignedInSessionView>;
export const SignedInSessionList = Page(SignedInSessionView);
export type SignedInSessionList = t.TypeOf<typeof SignedInSessionList>;

/** `DELETE /v1.1/sessions/others`: how many of the user's other sessions it ended. */
export const OtherSessionsEndedView = t.type({ sessions_ended: t.number });
export type OtherSessionsEndedView = t.TypeOf<typeof OtherSessionsEndedView>;
