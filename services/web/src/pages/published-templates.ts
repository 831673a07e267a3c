import * as E from 'fp-ts/lib/Either.js';
import { ContractList, type ContractSummary } from '@esign/contracts';
import type { ApiResult } from '../api-client.js';
import type { Visitor } from '../context.js';

/** The API's largest page of templates. */
const PER_PAGE = 100;
/** Pages read at most: 2,000 templates, more than any Site's choice list can usefully hold. */
const MAX_PAGES = 20;

const pageOf = (visitor: Visitor, siteId: number, page: number) =>
  visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${String(siteId)}/contracts?page=${String(page)}&per_page=${String(PER_PAGE)}&state=published&archived=false`,
    codec: ContractList,
  });

/**
 * The Site's published, unarchived templates (ADR 3250), the ones a new Request or a draft
 * may use: every page of them, not only the first 100 (New Request, bulk send and a draft's
 * Add a contract choose among them). The first page says how many there are; the rest are
 * read at once, up to `MAX_PAGES`. A refusal of any page is the answer.
 */
export const publishedTemplates = async (
  visitor: Visitor,
  siteId: number,
): Promise<ApiResult<ContractSummary[]>> => {
  const first = await pageOf(visitor, siteId, 1);
  if (E.isLeft(first)) return first;
  const pages = Math.min(MAX_PAGES, Math.ceil(first.right.total_count / PER_PAGE));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => pageOf(visitor, siteId, i + 2)),
  );
  const refused = rest.find(E.isLeft);
  if (refused !== undefined) return refused;
  return E.right(
    [first.right, ...rest.flatMap((p) => (E.isRight(p) ? [p.right] : []))]
      .flatMap((p) => p.data)
      .filter((c) => c.state === 'published' && c.archived_at === null),
  );
};
