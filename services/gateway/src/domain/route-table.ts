/**
 * Where each public path goes and what it takes to get there. The table is data:
 * adding an endpoint is adding a line, and the matrix test reads the same table.
 */
export type Upstream = 'auth' | 'requests' | 'notifier';

/**
 * `bearer`: the gateway authenticates the call, applies site scope and rate limits and
 * forwards a signed principal. `public`: passed through untouched; the upstream
 * authenticates it itself (token endpoint, token self-service, signer pages).
 * `anonymous`: needs no token, and the gateway rate-limits it per client address
 * (`RATE_LIMIT_ANONYMOUS`): public endpoints that cost work, like verifying a PDF.
 */
export type Access = 'bearer' | 'public' | 'anonymous';

/** `costly` calls trigger e-mail and SMS and draw on a stricter rate limit as well. */
export type Cost = 'standard' | 'costly';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  /**
   * Literal segments; `:site` is a site id the token must reach; `:id` is any one
   * segment; a trailing `*` also matches every path below (and the path itself).
   */
  readonly path: string;
  /** `any`: the upstream decides (and answers its own 405). */
  readonly methods: readonly Method[] | 'any';
  readonly upstream: Upstream;
  readonly access: Access;
  readonly cost: Cost;
  /**
   * Carries files signers upload (ADR 3920): its body may be as large as
   * SIGNING_BODY_LIMIT_BYTES rather than BODY_LIMIT_BYTES.
   */
  readonly uploads?: true;
}

const api = (
  path: string,
  methods: RouteSpec['methods'],
  cost: Cost = 'standard',
  upstream: Upstream = 'requests',
): RouteSpec => ({
  path,
  methods,
  upstream,
  access: 'bearer',
  cost,
});

const passThrough = (upstream: Upstream, path: string, methods: RouteSpec['methods']): RouteSpec => ({
  path,
  methods,
  upstream,
  access: 'public',
  cost: 'standard',
});

const anonymous = (upstream: Upstream, path: string, methods: RouteSpec['methods']): RouteSpec => ({
  path,
  methods,
  upstream,
  access: 'anonymous',
  cost: 'standard',
});

export const GATEWAY_ROUTES: readonly RouteSpec[] = [
  api('/v1.1/sites/:site/requests', ['GET', 'POST']),
  api('/v1.1/sites/:site/contracts', ['GET', 'POST']),
  // Every Request's history entries of the Site, after a cursor (ADR 3190).
  api('/v1.1/sites/:site/events', ['GET']),
  // Bulk send (ADR 2201): one costly call here; progress below.
  api('/v1.1/sites/:site/bulk_sends', ['POST'], 'costly'),
  // …and the Site's bulk sends listed, a standard read (ADR 3440).
  api('/v1.1/sites/:site/bulk_sends', ['GET']),
  api('/v1.1/bulk_sends/:id', ['GET']),
  // A running bulk send cancelled: the rest of its rows left unmade (ADR 3450).
  api('/v1.1/bulk_sends/:id/cancel', ['POST']),
  // …and the Requests a completed one made, cancelled (ADR 3480): costly, as the bulk send that
  // made them, since it can tell every one of their signers (ADR 3530).
  api('/v1.1/bulk_sends/:id/cancel_requests', ['POST'], 'costly'),
  // What signers see of the Site: name, logo, colour, reply-to, footer (ADR 2301).
  api('/v1.1/sites/:site/branding', ['GET', 'PUT']),
  // The Site's signers, listed, read and upserted on their own (ADR 3200).
  api('/v1.1/sites/:site/signers', ['GET']),
  api('/v1.1/sites/:site/signers/:id', ['GET', 'PUT', 'DELETE']),
  // Webhook endpoints are the notifier's: it delivers them and owns their data.
  api('/v1.1/sites/:site/webhooks*', 'any', 'standard', 'notifier'),
  // An open Request's expiry and automatic reminders (ADR 3150).
  api('/v1.1/requests/:id', ['GET', 'PATCH']),
  api('/v1.1/requests/:id/send', ['POST'], 'costly'),
  api('/v1.1/requests/:id/cancel', ['POST']),
  api('/v1.1/requests/:id/remind', ['POST'], 'costly'),
  // A new Execution URL for one signer, optionally sent to them (ADR 1321).
  api('/v1.1/requests/:id/signers/:id/execution_url', ['POST'], 'costly'),
  // Correcting how one signer of a sent Request is reached; may send them their link (ADR 3140).
  api('/v1.1/requests/:id/signers/:id', ['PATCH'], 'costly'),
  // Someone else in a signer's place (ADR 3550): costly, as it invites them.
  api('/v1.1/requests/:id/signers/:id/replace', ['POST'], 'costly'),
  // A draft's signers added and removed (ADR 3280): nothing is sent.
  api('/v1.1/requests/:id/signers', ['POST']),
  api('/v1.1/requests/:id/signers/:id', ['DELETE']),
  // A draft's contracts added, removed (ADR 3300) and reordered (ADR 3310).
  api('/v1.1/requests/:id/contracts', ['POST', 'PUT']),
  // A new draft made of any Request (ADR 3330).
  api('/v1.1/requests/:id/copy', ['POST']),
  api('/v1.1/requests/:id/contracts/:id', ['DELETE']),
  // A single-use, 5-minute URL of one signer's page for an iframe (ADR 2300).
  api('/v1.1/requests/:id/signers/:id/embedded_url', ['POST']),
  api('/v1.1/requests/:id/download', ['GET']),
  // The Request's history: the events its webhooks carry, oldest first (ADR 3170).
  api('/v1.1/requests/:id/events', ['GET']),
  // What its signers entered, as the executed document shows it (ADR 3730).
  api('/v1.1/requests/:id/field_values', ['GET']),
  // The file a signer attached for an attachment field, once they signed (ADR 3920).
  api('/v1.1/requests/:id/attachments/:id', ['GET']),
  // The messages a test-mode Request kept instead of sending: the notifier's (issue #22).
  api('/v1.1/requests/:id/messages', ['GET'], 'standard', 'notifier'),
  api('/v1.1/contracts/:id', ['GET', 'PUT', 'PATCH', 'DELETE']),
  api('/v1.1/contracts/:id/publish', ['POST']),
  api('/v1.1/contracts/:id/archive', ['POST']),
  api('/v1.1/contracts/:id/unarchive', ['POST']),
  api('/v1.1/contracts/:id/copy', ['POST']),
  api('/v1.1/contracts/:id/document', ['GET']),
  // A template's history: its own entries of its Site's feed (ADR 3720).
  api('/v1.1/contracts/:id/events', ['GET']),
  api('/v1.1/contracts/:id/field_values', ['GET']),
  // Anyone holding an executed PDF may ask whether it is the one issued (ADR 2100).
  anonymous('requests', '/v1.1/verify', ['POST']),
  // The signer pages; their signing form carries the files of attachment fields (ADR 3920).
  { ...passThrough('requests', '/sign*', 'any'), uploads: true },
  // Twilio's reports on SMS it accepted, signed with our auth token (ADR 3880): the
  // notifier checks the signature, so Twilio's few addresses are not rate-limited here.
  passThrough('notifier', '/callbacks/twilio/sms-status', ['POST']),
  passThrough('auth', '/oauth/token', ['POST']),
  passThrough('auth', '/oauth/revoke', ['POST']),
  // The consent page's questions and the user's authorised apps (session-authenticated by auth).
  passThrough('auth', '/v1.1/oauth*', 'any'),
  passThrough('auth', '/.well-known/jwks.json', ['GET']),
  passThrough('auth', '/v1.1/sessions*', 'any'),
  // A forgotten password: a link by e-mail, then the new password (ADR 3000).
  passThrough('auth', '/v1.1/password-resets', ['POST']),
  passThrough('auth', '/v1.1/password-resets/confirm', ['POST']),
  // An invitation to join an account, accepted with its e-mailed link (ADR 3030).
  passThrough('auth', '/v1.1/invitations/accept', ['POST']),
  // Account admins' Site memberships (session-authenticated by auth, like /v1.1/apps).
  passThrough('auth', '/v1.1/account*', 'any'),
  passThrough('auth', '/v1.1/apps*', 'any'),
  passThrough('auth', '/v1.1/tokens*', 'any'),
];

type Part = { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'site' | 'id' };

interface CompiledRoute {
  readonly spec: RouteSpec;
  readonly parts: readonly Part[];
  readonly prefix: boolean;
  readonly siteIndex: number;
}

/** What the path named as the site: its id when it is a canonical positive integer. */
export interface SiteRef {
  readonly raw: string;
  readonly id: number | undefined;
}

export type RouteMatch =
  | { readonly _tag: 'Matched'; readonly route: RouteSpec; readonly site: SiteRef | undefined }
  | { readonly _tag: 'MethodNotAllowed'; readonly allow: readonly string[] }
  | { readonly _tag: 'NoRoute' }
  /** The path names an API version this table does not serve (`/v1/…`, `/v2/…`, `/V1.1/…`). */
  | { readonly _tag: 'UnsupportedVersion'; readonly version: string; readonly served: readonly string[] };

/** What a first path segment that names an API version looks like. */
const VERSION_SEGMENT = /^v[0-9]+(\.[0-9]+)*$/i;

const CANONICAL_ID = /^[1-9][0-9]{0,14}$/;

/** Site ids are positive integers; `007` or `1e3` name no site (and are never forwarded). */
export const siteIdOf = (raw: string): number | undefined =>
  CANONICAL_ID.test(raw) ? Number(raw) : undefined;

const compile = (spec: RouteSpec): CompiledRoute => {
  const prefix = spec.path.endsWith('*');
  const raw = (prefix ? spec.path.slice(0, -1) : spec.path).slice(1).split('/');
  const parts = raw.map((segment): Part =>
    segment === ':site'
      ? { kind: 'site' }
      : segment === ':id'
        ? { kind: 'id' }
        : { kind: 'literal', text: segment },
  );
  return { spec, parts, prefix, siteIndex: raw.indexOf(':site') };
};

const partsMatch = (route: CompiledRoute, segments: readonly string[]): boolean => {
  const { parts } = route;
  const exactLength = segments.length === parts.length;
  // A prefix route also takes `/prefix/…`; a trailing slash on an exact route does not match.
  if (!exactLength && !(route.prefix && segments.length > parts.length)) return false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    if (part.kind === 'literal' ? part.text !== segment : segment === '') return false;
  }
  return true;
};

const allows = (spec: RouteSpec, method: string): boolean =>
  spec.methods === 'any' ||
  spec.methods.includes(method as Method) ||
  (method === 'HEAD' && spec.methods.includes('GET'));

const allowHeaderOf = (methods: readonly Method[]): string[] => {
  const allow = new Set<string>(methods);
  if (allow.has('GET')) allow.add('HEAD');
  allow.add('OPTIONS');
  return [...allow];
};

/** Builds the matcher for a table: `(method, segments) => RouteMatch`. */
export const routeMatcher = (table: readonly RouteSpec[]) => {
  const compiled = table.map(compile);
  const served = [
    ...new Set(
      compiled.flatMap((route) => {
        const first = route.parts[0];
        return first?.kind === 'literal' && VERSION_SEGMENT.test(first.text) ? [first.text] : [];
      }),
    ),
  ];
  const noRoute = (segments: readonly string[]): RouteMatch => {
    const first = segments[0] ?? '';
    return VERSION_SEGMENT.test(first) && !served.includes(first)
      ? { _tag: 'UnsupportedVersion', version: first, served }
      : { _tag: 'NoRoute' };
  };
  return (method: string, segments: readonly string[]): RouteMatch => {
    let allowed: Method[] | undefined;
    for (const route of compiled) {
      if (!partsMatch(route, segments)) continue;
      if (allows(route.spec, method)) {
        const raw = route.siteIndex >= 0 ? segments[route.siteIndex] : undefined;
        return {
          _tag: 'Matched',
          route: route.spec,
          site: raw === undefined ? undefined : { raw, id: siteIdOf(raw) },
        };
      }
      if (route.spec.methods !== 'any') (allowed ??= []).push(...route.spec.methods);
    }
    return allowed === undefined
      ? noRoute(segments)
      : { _tag: 'MethodNotAllowed', allow: allowHeaderOf(allowed) };
  };
};
