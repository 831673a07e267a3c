import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { pageView, type PutSiteSignerBody, type SiteSignerList, type SiteSignerView } from '@esign/contracts';
import { siteSignerChange, type StoredSiteSigner } from '../domain/signer.js';
import type { SiteSignerStore } from '../ports/site-signer-store.js';
import type { PageRequest } from '../ports/page.js';
import { reachSite, type Caller } from './caller.js';
import { notFound, type AppError } from './errors.js';

/** The ports of the Site signers slice (ADR 3200). */
export interface SiteSignerDeps {
  readonly signers: SiteSignerStore;
}

const signerView = (s: StoredSiteSigner): SiteSignerView => ({
  signer_id: s.signerId,
  email: s.email,
  mobile_number: s.mobileNumber,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

/** `GET /v1.1/sites/:id/signers`: one page of the Site's signers, by `signer_id`, optionally searched. */
export const listSiteSigners =
  (deps: SiteSignerDeps) =>
  (
    caller: Caller,
    siteId: number,
    page: PageRequest,
    search?: string,
  ): TE.TaskEither<AppError, SiteSignerList> =>
    pipe(
      TE.fromEither(reachSite(caller, siteId)),
      TE.chainW(() => deps.signers.list(siteId, page, search)),
      TE.map((found) => pageView(page, found, signerView)),
    );

/** `GET /v1.1/sites/:id/signers/:signer_id`: one signer; another Site's reads as missing. */
export const getSiteSigner =
  (deps: SiteSignerDeps) =>
  (caller: Caller, siteId: number, signerId: string): TE.TaskEither<AppError, SiteSignerView> =>
    pipe(
      TE.fromEither(reachSite(caller, siteId)),
      TE.chainW(() => deps.signers.get(siteId, signerId)),
      TE.chainEitherKW(E.fromOption(() => notFound('signer'))),
      TE.map(signerView),
    );

/**
 * `PUT /v1.1/sites/:id/signers/:signer_id`: creates or updates one signer as a create's
 * `signers` entry would (details given win, then what the `signer_id` reveals, then what
 * was stored), and removes a detail given as null (`siteSignerChange`), so every draft
 * naming it shows the new details; sent Requests keep the ones they were sent with (ADR 1302).
 */
export const putSiteSigner =
  (deps: SiteSignerDeps) =>
  (
    caller: Caller,
    siteId: number,
    signerId: string,
    body: PutSiteSignerBody,
  ): TE.TaskEither<AppError, { readonly view: SiteSignerView; readonly created: boolean }> =>
    pipe(
      TE.fromEither(reachSite(caller, siteId)),
      TE.chainEitherKW(() =>
        pipe(
          siteSignerChange(siteId, signerId, body.signer ?? {}),
          E.mapLeft((errors): AppError => ({ _tag: 'InvalidRequest', errors })),
        ),
      ),
      TE.chainW((change) => deps.signers.upsert(change)),
      TE.map(({ signer, created }) => ({ view: signerView(signer), created })),
    );

/**
 * `DELETE /v1.1/sites/:id/signers/:signer_id`: forgets a signer no Request names (a mistake,
 * or one whose Requests are all gone); one a Request names is kept with it.
 */
export const deleteSiteSigner =
  (deps: SiteSignerDeps) =>
  (caller: Caller, siteId: number, signerId: string): TE.TaskEither<AppError, void> =>
    pipe(
      TE.fromEither(reachSite(caller, siteId)),
      TE.chainW(() => deps.signers.remove(siteId, signerId)),
      TE.chainEitherKW((outcome) =>
        outcome === 'deleted'
          ? E.right(undefined)
          : E.left<AppError>(outcome === 'missing' ? notFound('signer') : { _tag: 'SignerInUse' }),
      ),
    );

export const siteSignerUseCases = (deps: SiteSignerDeps) => ({
  listSiteSigners: listSiteSigners(deps),
  getSiteSigner: getSiteSigner(deps),
  putSiteSigner: putSiteSigner(deps),
  deleteSiteSigner: deleteSiteSigner(deps),
});
export type SiteSignerUseCases = ReturnType<typeof siteSignerUseCases>;
