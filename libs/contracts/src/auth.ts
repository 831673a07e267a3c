import * as t from 'io-ts';

/**
 * What the gateway vouches for when it forwards an authenticated call: who calls and
 * which sites they reach *now*. It travels as a short-lived JWT the gateway signs
 * (header `X-Esign-Principal`), so a service never trusts a scope it cannot verify.
 */
export const Principal = t.type({
  sub: t.string,
  token_id: t.string,
  sites: t.array(t.number),
});
export type Principal = t.TypeOf<typeof Principal>;

export const PRINCIPAL_HEADER = 'x-esign-principal';
export const PRINCIPAL_AUDIENCE = 'esign-internal';
export const PRINCIPAL_ISSUER = 'esign-gateway';
