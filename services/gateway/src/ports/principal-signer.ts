import type { Principal } from '@esign/contracts';

/** Turns a principal into the signed statement forwarded in `x-esign-principal`. */
export type PrincipalSigner = (principal: Principal) => Promise<string>;
