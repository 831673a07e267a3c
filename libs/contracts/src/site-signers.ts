import * as t from 'io-ts';
import { Page, SignerContact } from './api.js';
import { nullable, strict } from './primitives.js';

/**
 * `PUT /v1.1/sites/:id/signers/:signer_id`: upserts one signer of the Site as a create's
 * `signers` entry does (ADR 3200): a detail given wins, one left out is kept.
 */
export const PutSiteSignerBody = strict({}, { signer: SignerContact }, 'PutSiteSignerBody');
export type PutSiteSignerBody = t.TypeOf<typeof PutSiteSignerBody>;

/** One signer of a Site: the record every Request naming its `signer_id` upserts (flat, as a Request's signers are shown). */
export const SiteSignerView = t.type(
  {
    signer_id: t.string,
    email: nullable(t.string),
    mobile_number: nullable(t.string),
    created_at: t.string,
    updated_at: t.string,
  },
  'SiteSigner',
);
export type SiteSignerView = t.TypeOf<typeof SiteSignerView>;

export const SiteSignerList = Page(SiteSignerView);
export type SiteSignerList = t.TypeOf<typeof SiteSignerList>;
