import { OtherSessionsEndedView, SignedInSessionList } from '../session-api.js';
import { PAGE_QUERY, type Operation } from './operation.js';
import { deleted, session } from './operations-accounts.js';

/** Where the user is signed in, and ending any of it (ADR 3100). */
export const SESSION_OPERATIONS: readonly Operation[] = [
  session({
    method: 'get',
    path: '/v1.1/sessions',
    operationId: 'listSessions',
    summary: 'List where you are signed in',
    description:
      'The signed-in user’s sessions that have neither expired nor ended, newest first: when each began, the ' +
      'client address and `User-Agent` it signed in from (null for sessions begun before these were kept), ' +
      'when it was last used (`last_active_at`), when it expires, and which one asks (`current`). Never a ' +
      'session’s credential. A use is a call with the session’s credential or with an access token made for ' +
      'it; it is written down at most once a minute, so `last_active_at` is up to a minute behind (null for ' +
      'a session begun before this was kept and not used since).',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of sessions.', codec: SignedInSessionList } },
    problems: ['invalid_query'],
  }),
  session({
    method: 'delete',
    path: '/v1.1/sessions/others',
    operationId: 'endOtherSessions',
    summary: 'Sign out everywhere else',
    description:
      'Ends every session of the signed-in user but the one that asks, at once: their credentials and the ' +
      'access tokens made for them (`/v1.1/sessions/current/access-token`) stop working. Access tokens made ' +
      'with a password for a Developer App are not touched; changing the password revokes those too.',
    responses: { 200: { description: 'How many sessions it ended.', codec: OtherSessionsEndedView } },
    problems: [],
  }),
  session({
    method: 'delete',
    path: '/v1.1/sessions/{session_id}',
    operationId: 'endSession',
    summary: 'End one of your sessions',
    description:
      'Ends one of the signed-in user’s sessions at once, as signing out there would. Ending one that has ' +
      'already ended changes nothing; another user’s session is `not_found`, as an unknown id is.',
    params: { session_id: { description: 'One of the user’s sessions (a UUID, from the list).' } },
    responses: deleted('Ended.'),
    problems: ['not_found'],
  }),
];
