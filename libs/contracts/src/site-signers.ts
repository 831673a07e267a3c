import * as t from 'io-ts';
import { Page } from './paging.js';
import { Email, nullable, strict, UsMobileNumber } from './primitives.js';

/**
 * A Site signer's details as `PUT` takes them: a value sets one, `null` removes it (a
 * number that reaches someone else, say), absent keeps what is stored.
 */
export const SiteSignerContact = strict(
  {},
  { email: nullable(Email), mobile_number: nullable(UsMobileNumber) },
  'SiteSignerContact',
);
export type SiteSignerContact = t.TypeOf<typeof SiteSignerContact>;

/**
 * `PUT /v1.1/sites/:id/signers/:signer_id`: upserts one signer of the Site as a create's
 * `signers` entry does (ADR 3200): a detail given wins, one left out is kept; and unlike a
 * create, `null` removes one.
 */
export const PutSiteSignerBody = strict({}, { signer: SiteSignerContact }, 'PutSiteSignerBody');
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
