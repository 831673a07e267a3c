import type { Deps } from '../deps.js';

/** The ports every signer use case shares: the link, the Request, its forms and passes. */
type SignerDeps = Pick<
  Deps,
  | 'store'
  | 'transact'
  | 'clock'
  | 'ids'
  | 'urlSigner'
  | 'publicBaseUrl'
  | 'formTokens'
  | 'authTokens'
  | 'linkLifetimeMs'
>;

/** The signing page and the signer's act (sign, decline). */
export type SigningDeps = SignerDeps & Pick<Deps, 'htmlPolicy'>;

/** The code-entry step in front of the signing page (ADR 2001). */
export type AuthDeps = SignerDeps & Pick<Deps, 'codeHasher' | 'authPolicy' | 'oneTimeCode'>;
