import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { EMBEDDED_URL_LIFETIME_SECONDS, type EmbeddedUrlView, isoNow } from '@esign/contracts';
import {
  chooseParentOrigin,
  embeddableSigner,
  openingOf,
  type EmbeddedOpening,
  type EmbeddedSession,
  type EmbeddedUrlRefusal,
} from '../domain/embedded-signing.js';
import type { EmbeddedSessionStore, EmbeddedTokens } from '../ports/embedded-session-store.js';
import { siteIds, type Caller } from './caller.js';
import { executionUrl, type Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';

/** The ports of the embedded-signing slice (ADR 2300), on top of the service's own. */
export type EmbeddedDeps = Pick<
  Deps,
  'store' | 'clock' | 'urlSigner' | 'publicBaseUrl' | 'linkLifetimeMs'
> & {
  readonly embedded: EmbeddedSessionStore;
  readonly embeddedTokens: EmbeddedTokens;
};

export type EmbeddedUrlError = AppError | EmbeddedUrlRefusal;

export interface EmbeddedUrlInput {
  readonly caller: Caller;
  readonly requestId: string;
  readonly signerId: string;
  readonly parentOrigin: string | undefined;
}

const base = (publicBaseUrl: string) => (publicBaseUrl.endsWith('/') ? publicBaseUrl : `${publicBaseUrl}/`);

/**
 * A single-use URL that opens the signer's page for 5 minutes, framed only by the origins
 * of the Developer App whose token asks. Making one changes nothing else: the signer's
 * Execution URL stays as it was, and a new embedded URL can be asked for at any time.
 */
export const createEmbeddedUrl =
  (deps: EmbeddedDeps) =>
  (input: EmbeddedUrlInput): TE.TaskEither<EmbeddedUrlError, EmbeddedUrlView> =>
  async () => {
    const frameOrigins = input.caller.frameOrigins ?? [];
    const found = await deps.store.requests.find(input.requestId, siteIds(input.caller))();
    if (E.isLeft(found) || O.isNone(found.right)) return E.left(notFound('request'));
    const request = found.right.value;
    const now = isoNow(deps.clock);
    const signer = embeddableSigner(request, input.signerId, now, deps.linkLifetimeMs);
    if (E.isLeft(signer))
      return E.left(
        signer.left._tag === 'UnknownSigner'
          ? { _tag: 'UnknownSigner', signerRef: input.signerId }
          : signer.left,
      );
    const parentOrigin = chooseParentOrigin(frameOrigins, input.parentOrigin);
    if (E.isLeft(parentOrigin)) return parentOrigin;
    const token = deps.embeddedTokens.fresh();
    const session: EmbeddedSession = {
      id: deps.embeddedTokens.sessionId(),
      requestId: request.id,
      signerRef: signer.right.signerRef,
      signerId: signer.right.signerId,
      frameOrigins,
      parentOrigin: parentOrigin.right,
      createdAt: now,
      expiresAt: new Date(Date.parse(now) + EMBEDDED_URL_LIFETIME_SECONDS * 1000).toISOString(),
      openedAt: null,
    };
    await deps.embedded.insert(session, deps.embeddedTokens.digest(token))();
    const url = new URL('sign/embedded', base(deps.publicBaseUrl));
    url.searchParams.set('t', token);
    return E.right({
      embedded_url: url.toString(),
      expires_at: session.expiresAt,
      parent_origin: session.parentOrigin,
      request_id: request.id,
      signer_id: signer.right.signerId,
    });
  };

/** Opening an embedded URL: the first opening in time claims it, with where it leads. */
export type EmbeddedOpeningResult = EmbeddedOpening & { readonly executionUrl?: string };

export const openEmbeddedUrl =
  (deps: EmbeddedDeps) =>
  (token: string): TE.TaskEither<never, EmbeddedOpeningResult> => {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return TE.right({ _tag: 'Unknown' });
    const now = isoNow(deps.clock);
    return pipe(
      deps.embedded.claim(deps.embeddedTokens.digest(token), now),
      TE.map((found) => openingOf(found, now)),
      TE.chain((opening): TE.TaskEither<never, EmbeddedOpeningResult> => {
        if (opening._tag !== 'Opened') return TE.right(opening);
        const { requestId, signerRef, signerId } = opening.session;
        return pipe(
          deps.store.requests.findByVerifiedId(requestId),
          TE.map((found) =>
            pipe(
              found,
              // Still the signer it was made for: one replaced since (ADR 3550) no longer signs there.
              O.chain((request) =>
                O.fromNullable(
                  request.signers.find((s) => s.signerRef === signerRef && s.signerId === signerId),
                ),
              ),
              O.match(
                (): EmbeddedOpeningResult => ({ _tag: 'Unknown' }),
                (signer) => ({
                  ...opening,
                  executionUrl: executionUrl(deps)(requestId, signer.signerRef, signer.link.version),
                }),
              ),
            ),
          ),
        );
      }),
    );
  };

/**
 * The embedded context a signer page continues in: a session that was opened, for this
 * Request and signer. Anything else and the page is an ordinary signer page.
 */
export const embeddedContext =
  (deps: Pick<EmbeddedDeps, 'embedded'>) =>
  (
    sessionId: string,
    link: { readonly requestId: string; readonly signerRef: string } | undefined,
  ): TE.TaskEither<never, O.Option<EmbeddedSession>> =>
    pipe(
      deps.embedded.find(sessionId),
      TE.map(
        O.filter(
          (session) =>
            session.openedAt !== null &&
            (link === undefined ||
              (link.requestId === session.requestId && link.signerRef === session.signerRef)),
        ),
      ),
    );

export const embeddedUseCases = (deps: EmbeddedDeps) => ({
  createEmbeddedUrl: createEmbeddedUrl(deps),
  openEmbeddedUrl: openEmbeddedUrl(deps),
  embeddedContext: embeddedContext(deps),
});
export type EmbeddedUseCases = ReturnType<typeof embeddedUseCases>;
