// The reference page's sections (OpenAPI tags), in order, with what each holds.
export const TAGS = [
  ['Requests', 'Signature Requests: create, send, follow, remind, cancel, download the executed document.'],
  ['Contract templates', 'HTML or PDF templates that Requests send for signing.'],
  [
    'Test mode',
    'The messages a test-mode Request kept instead of sending them (served by the notifier, like webhooks).',
  ],
  ['Webhooks', 'Endpoints told what happens to the Site’s Requests; the deliveries are under `webhooks`.'],
  [
    'Sessions',
    'Sign in to the self-service API with an e-mail address and password; see and end where you are signed in.',
  ],
  [
    'Developer apps and tokens',
    'Developer Apps, their access tokens and client secrets (session credential).',
  ],
  [
    'Account',
    'The account’s Sites and users; account admins add a user to a Site or remove them (session credential).',
  ],
  [
    'OAuth',
    'OAuth 2.0: client credentials for machine clients; the authorization code with PKCE for apps that act ' +
      'for other users (consent at `GET /oauth/authorize`, metadata at `/.well-known/oauth-authorization-server`); ' +
      'revocation; the keys tokens are signed with.',
  ],
  ['Signer pages', 'The HTML pages behind each Execution URL, for signers with a browser.'],
  [
    'Provider callbacks',
    'What the messaging providers call to report on messages they accepted; not for API clients (ADR 3880).',
  ],
] as const;
