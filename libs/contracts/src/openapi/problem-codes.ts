/**
 * Every machine `code` a problem+json answer of the public API can carry, with its status
 * and when it is answered. The document lists, per operation, the codes it can meet;
 * the end-to-end suite fails on an answer whose code the document does not list there.
 */
export const PROBLEM_CODES = {
  // The gateway's own refusals (services/gateway/src/adapters/http/gateway-problems.ts).
  invalid_path: [400, 'an empty or dot segment, an encoded `/` or `\\`, a malformed escape'],
  missing_token: [401, 'no `Authorization: Bearer` access token'],
  malformed_token: [401, 'the access token is not a JWT'],
  token_expired: [401, 'the access token has expired'],
  invalid_token: [401, 'bad signature, algorithm, issuer, audience or type'],
  token_inactive: [401, 'the access token was revoked, or its user, app or account lost access'],
  rate_limited: [429, 'a rate limit is spent; retry after `Retry-After` seconds'],
  auth_unavailable: [503, 'the access token cannot be checked right now'],
  upstream_unavailable: [503, 'the service behind the gateway cannot be reached; nothing was done'],
  upstream_timeout: [503, 'the service did not answer in time; the call may or may not have taken effect'],
  // Every service (libs/platform).
  not_found: [404, 'no such resource, or one the credential does not reach (the same answer)'],
  malformed_json: [400, 'the body is not valid JSON'],
  invalid_query: [400, 'a query parameter is invalid or unknown (`errors` names it)'],
  payload_too_large: [413, 'the body is larger than the limit (1 MB)'],
  unsupported_media_type: [415, 'the body is not `application/json`'],
  invalid_body: [422, 'the body is invalid; `errors` names each field (`path`, `message`)'],
  service_unavailable: [503, 'the service cannot reach its database or a dependency; retry'],
  // The requests service.
  invalid_idempotency_key: [400, 'the `Idempotency-Key` is not 1 to 255 visible ASCII characters'],
  idempotency_key_in_flight: [409, 'a call with this `Idempotency-Key` is still running; retry'],
  idempotency_key_reused: [422, 'the `Idempotency-Key` was used for another body or endpoint'],
  invalid_state: [409, 'the Request (or signer) is in a state that does not allow this; `state` says which'],
  request_expired: [409, 'the Request is past its `expires_at`'],
  signer_in_use: [409, 'a Request of the Site names the signer, so it is kept (ADR 3200)'],
  last_signer: [409, 'the draft’s only signer is not removed: a Request has at least one (ADR 3280)'],
  last_contract: [409, 'the draft’s only contract is not removed: a Request has at least one (ADR 3300)'],
  request_changed: [409, 'the Request’s contracts changed while the call ran; nothing was done: retry'],
  template_published: [409, 'a published template never changes: create another one (ADR 3240)'],
  template_draft: [409, 'a draft template is deleted, not archived (ADR 3250)'],
  bulk_send_completed: [
    409,
    'the bulk send completed without a cancel: nothing is left to cancel (ADR 3450)',
  ],
  bulk_send_running: [
    409,
    'the bulk send is still making its Requests: cancel it, then cancel its Requests once it completes (ADR 3480)',
  ],
  template_is_html: [409, 'an HTML template has no file: its text is the view’s `html` (ADR 3270)'],
  send_preconditions_failed: [
    422,
    'no contract, no signer, unassigned fields, or an order on some signers only: `errors` (and `unassigned_fields`) name them',
  ],
  remind_too_soon: [429, 'the Request was notified recently; `Retry-After` says when to remind'],
  remind_limit_reached: [409, 'the Request has been reminded as often as allowed'],
  nothing_to_remind: [409, 'no signer who has yet to sign can be reached'],
  test_mode_only_token: [
    403,
    'the access token is test-only: it may create only `"test_mode": true` Requests (`errors[].path` is `test_mode`) and act on those only',
  ],
  request_not_completed: [409, 'the executed document exists once every signer has signed'],
  executed_document_unavailable: [
    503,
    'the executed document cannot be sealed now: no signing certificate is configured, the time-stamp authority does not answer, or the certificate is out of date (`detail` says which); retry later',
  ],
  // The webhook API (the notifier).
  too_many_webhook_endpoints: [409, 'the site has as many webhook endpoints as allowed'],
  signature_invalid: [
    403,
    'a provider’s callback is not signed with our account’s credentials (`X-Twilio-Signature`, ADR 3880)',
  ],
  // The auth service.
  invalid_credentials: [401, 'the e-mail address or the password is wrong'],
  invalid_password: [
    401,
    'the password re-entered is wrong (`errors[].path` names the field); nothing was created or changed',
  ],
  weak_password: [
    422,
    'the new password breaks a rule: 12 to 1,024 characters, not the e-mail address, not the current password (`errors[].path` is `new_password`, or `password` when accepting an invitation)',
  ],
  invalid_reset_token: [
    400,
    'the link to choose a new password is unknown, used, replaced by a newer one or expired (`errors[].path` is `token`); nothing was changed',
  ],
  session_required: [401, 'no session: sign in and send `Authorization: Bearer <session_token>`'],
  session_invalid: [401, 'the session has expired or ended'],
  api_access_required: [403, 'the account has no REST API access'],
  user_disabled: [403, 'the user is disabled'],
  too_many_attempts: [429, 'too many password attempts; retry after `Retry-After` seconds'],
  account_admin_required: [
    403,
    'only an administrator of the account may see and change its Sites, users and invitations, or rename it',
  ],
  not_account_user: [422, 'no user of the account has that e-mail address (`errors[].path` is `email`)'],
  already_account_user: [
    409,
    'a user of the account already has the address invited (`errors[].path` is `email`); nothing was sent',
  ],
  site_name_taken: [
    409,
    'the account has a Site of that name already (`errors[].path` is `name`); nothing was made',
  ],
  too_many_sites: [409, 'the account has the most Sites it may have (100); nothing was made'],
  cannot_disable_yourself: [
    409,
    'an account admin asked to disable their own user (`errors[].path` is `disabled`); nothing changed',
  ],
  last_admin: [
    409,
    'the account’s only enabled admin asked to stop being one (`errors[].path` is `admin`); nothing changed',
  ],
  unknown_sites: [422, '`site_ids` names Sites that are not the account’s (`errors[].path` is `site_ids`)'],
  too_many_invitations: [
    429,
    'the account sent its 20 invitations of the hour; retry after `Retry-After` seconds',
  ],
  invalid_invitation_token: [
    400,
    'the invitation link is unknown, used, revoked, replaced by a newer one or expired (`errors[].path` is `token`); nothing was made',
  ],
  email_taken: [409, 'a user already has the invited address: sign in with it instead; nothing was made'],
  sites_not_reachable: [
    400,
    'the token would be limited to Sites its user does not belong to (`errors[].path` is `site_ids`)',
  ],
  invalid_authorization_request: [
    400,
    'an OAuth authorization request with an unknown client or a foreign `redirect_uri` (`errors[].path` names it)',
  ],
  no_sites_to_grant: [422, 'the user belongs to no Site, so there is nothing to allow an app'],
  busy: [503, 'too many password checks are queued; retry after `Retry-After` seconds'],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export const statusOfProblem = (code: ProblemCode): number => PROBLEM_CODES[code][0];

/** What the gateway itself can answer on a call it authenticates with an access token. */
export const ACCESS_TOKEN_PROBLEMS: readonly ProblemCode[] = [
  'missing_token',
  'malformed_token',
  'token_expired',
  'invalid_token',
  'token_inactive',
  'not_found',
  'rate_limited',
  'auth_unavailable',
];

/** What any forwarded call can meet when the service behind is down or slow. */
export const OUTAGE_PROBLEMS: readonly ProblemCode[] = [
  'upstream_unavailable',
  'upstream_timeout',
  'service_unavailable',
];

/** What any JSON body can meet before its own rules are checked. */
export const BODY_PROBLEMS: readonly ProblemCode[] = [
  'malformed_json',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_body',
];

export const SESSION_PROBLEMS: readonly ProblemCode[] = [
  'session_required',
  'session_invalid',
  'api_access_required',
  'user_disabled',
];
