import * as E from 'fp-ts/lib/Either.js';
import { RequestFieldValues, type FieldValueView, type RequestView } from '@esign/contracts';
import type { Visitor } from '../context.js';
import { html, type Html } from '../html.js';
import { time } from '../layout.js';
import { dataTable } from '../table.js';

/** A value as the section shows it: a checkbox in words, an empty one said so. */
const shown = (f: FieldValueView): Html | string => {
  if (typeof f.value === 'boolean') return f.value ? 'Ticked' : 'Not ticked';
  if (f.value === null) return html`<span class="hint">none yet</span>`;
  if (f.value === '') return html`<span class="hint">left empty</span>`;
  return f.value;
};

/**
 * A sent Request's **What the signers entered** (ADR 3730): every field with the value the
 * executed document shows for it, whom it is for and when they signed, from
 * `GET /v1.1/requests/:id/field_values`. Not on a draft, where nobody has entered anything
 * (its Fields show what is pre-filled); left out when the API does not answer it.
 */
export const enteredSection = async (visitor: Visitor, r: RequestView): Promise<Html> => {
  if (r.state === 'draft' || r.fields.length === 0) return html``;
  const read = await visitor.api({
    method: 'GET',
    path: `/v1.1/requests/${r.id}/field_values`,
    codec: RequestFieldValues,
  });
  if (E.isLeft(read)) return html``;
  return html`<section aria-labelledby="entered-title">
    <h2 id="entered-title">What the signers entered</h2>
    <p class="hint">
      Each field as the executed document shows it: what its signer entered once they signed, else what was
      pre-filled. A field asked for only on a condition that did not hold is left empty.
    </p>
    ${dataTable({
      caption: 'Every field with its value',
      captionHidden: true,
      columns: ['Field', 'Value', 'Signer', 'Signed'],
      rows: read.right.data.map((f) => [
        html`<code>${f.name}</code>`,
        shown(f),
        f.assigned_to ?? html`<span class="hint">nobody</span>`,
        f.filled_at === null ? html`<span class="hint">not yet</span>` : time(f.filled_at),
      ]),
    })}
  </section>`;
};
