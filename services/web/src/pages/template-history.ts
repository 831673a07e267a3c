import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { TEMPLATE_EVENT_TYPES } from '@esign/contracts';
import type { Visitor } from '../context.js';
import { html, type Html } from '../html.js';
import { time } from '../layout.js';
import { dataTable } from '../table.js';
import { segment } from './common.js';

/**
 * What happened to a template (ADR 3720), in the words of its page's History and, after
 * "Template", of the Activity page's filter (ADR 3700).
 */
export const TEMPLATE_EVENT_LABELS: Readonly<Record<(typeof TEMPLATE_EVENT_TYPES)[number], string>> = {
  'contract.created': 'Created',
  'contract.updated': 'Changed',
  'contract.published': 'Published',
  'contract.archived': 'Archived',
  'contract.unarchived': 'Unarchived',
  'contract.deleted': 'Deleted',
};

/** The latest entries a template's page shows. */
const SHOWN = 20;

const TemplateEvents = t.type({
  data: t.array(t.type({ type: t.string, created_at: t.string })),
  total_count: t.number,
});

/**
 * A template's History: its latest events, oldest first, from `GET /v1.1/contracts/:id/events`
 * (ADR 3720). Left out when the API does not answer it: the page shows the rest.
 */
export const templateHistory = async (visitor: Visitor, id: string): Promise<Html> => {
  const read = await visitor.api({
    method: 'GET',
    path: `/v1.1/contracts/${segment(id)}/events?order=desc&per_page=${SHOWN}`,
    codec: TemplateEvents,
  });
  if (E.isLeft(read)) return html``;
  const { data, total_count: total } = read.right;
  const label = (type: string) => TEMPLATE_EVENT_LABELS[type as keyof typeof TEMPLATE_EVENT_LABELS] ?? type;
  // Read newest first, shown oldest first, as a Request's History is.
  const entries = [...data].reverse();
  return html`<section aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    ${
      entries.length === 0
        ? html`<p>No events recorded: a template made before its history was kept has none.</p>`
        : dataTable({
            caption:
              total > entries.length
                ? `The latest ${entries.length} of ${total} events, oldest first`
                : 'What happened to this template, oldest first',
            columns: ['When', 'What happened', { label: 'Event', wide: true }],
            rows: entries.map((e) => [time(e.created_at), label(e.type), html`<code>${e.type}</code>`]),
          })
    }
  </section>`;
};
