import { sequenceS } from 'fp-ts/lib/Apply.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { PRINCIPAL_AUDIENCES, type Principal } from '@esign/contracts';
import type { TokenIntrospector } from '../ports/token-introspector.js';
import type { PrincipalSigner } from '../ports/principal-signer.js';

/** The upstream services that take a principal, each its own (ADR 1310). */
export type PrincipalTarget = keyof typeof PRINCIPAL_AUDIENCES;

/** One signed principal per upstream service, each addressed to that service only. */
export type ForwardedPrincipals = Readonly<Record<PrincipalTarget, string>>;

/** What a token id stands for right now, with the signed principals ready to forward. */
export type Resolution =
  | { readonly active: false }
  | { readonly active: true; readonly principal: Principal; readonly forwarded: ForwardedPrincipals };

/** Rejects, as the introspector does, when auth cannot be asked. */
export type PrincipalResolver = (tokenId: string) => TE.TaskEither<never, Resolution>;

/**
 * Introspects a token and signs the principal once per answer and upstream, so a cached
 * answer also spares the signatures on every call that reuses it.
 */
export const resolvePrincipal =
  (ports: { readonly introspect: TokenIntrospector; readonly sign: PrincipalSigner }): PrincipalResolver =>
  (tokenId) =>
    pipe(
      ports.introspect(tokenId),
      TE.chainW((answer) => {
        if (!answer.active) return TE.right<never, Resolution>({ active: false });
        const principal: Principal = {
          sub: answer.sub,
          token_id: answer.token_id,
          sites: answer.sites,
          ...(answer.email === undefined ? {} : { email: answer.email }),
          ...(answer.test_mode_only === true && { test_mode_only: true }),
          ...(answer.frame_origins === undefined ? {} : { frame_origins: answer.frame_origins }),
        };
        return pipe(
          sequenceS(TE.ApplySeq)({
            requests: ports.sign(PRINCIPAL_AUDIENCES.requests, principal),
            notifier: ports.sign(PRINCIPAL_AUDIENCES.notifier, principal),
          }),
          TE.map((forwarded): Resolution => ({ active: true, principal, forwarded })),
        );
      }),
    );
