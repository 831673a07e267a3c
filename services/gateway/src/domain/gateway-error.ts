import type { TokenRejection } from './access-token.js';
import type { Upstream } from './route-table.js';
import type { RateLimited } from './token-bucket.js';

/** Every way the gateway itself declines a call; mapped to HTTP in one table at the edge. */
export type GatewayError =
  | { readonly _tag: 'InvalidPath' }
  | { readonly _tag: 'NoRoute' }
  | { readonly _tag: 'UnsupportedVersion'; readonly version: string; readonly served: readonly string[] }
  | { readonly _tag: 'MethodNotAllowed'; readonly allow: readonly string[] }
  | { readonly _tag: 'MissingToken' }
  | { readonly _tag: 'TokenRejected'; readonly reason: TokenRejection }
  | { readonly _tag: 'TokenInactive' }
  | { readonly _tag: 'SiteNotFound' }
  | RateLimited
  | { readonly _tag: 'PayloadTooLarge'; readonly limitBytes: number }
  | { readonly _tag: 'AuthUnavailable' }
  | { readonly _tag: 'UpstreamUnavailable'; readonly upstream: Upstream }
  | { readonly _tag: 'UpstreamTimeout'; readonly upstream: Upstream };

export const gatewayError = {
  invalidPath: { _tag: 'InvalidPath' } as GatewayError,
  noRoute: { _tag: 'NoRoute' } as GatewayError,
  missingToken: { _tag: 'MissingToken' } as GatewayError,
  tokenInactive: { _tag: 'TokenInactive' } as GatewayError,
  siteNotFound: { _tag: 'SiteNotFound' } as GatewayError,
  authUnavailable: { _tag: 'AuthUnavailable' } as GatewayError,
  tokenRejected: (reason: TokenRejection): GatewayError => ({ _tag: 'TokenRejected', reason }),
};
