import * as t from 'io-ts';
import type { WebhookDeliveryView, WebhookEndpointView } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { copyField, time } from '../layout.js';
import { dataTable } from '../table.js';

/** An endpoint's state: enabled, or disabled (and why, when the notifier turned it off). */
export const enabledBadge = (e: WebhookEndpointView): Html =>
  e.enabled
    ? html`<span class="state state-active">enabled</span>`
    : html`<span class="state state-disabled">disabled</span>${
          e.disabled_reason === 'failing'
            ? html` <span class="hint">(turned off: every delivery failed for 3 days)</span>`
            : ''
        }`;

export const eventList = (e: WebhookEndpointView): Html =>
  html`<ul class="compact">
    ${e.event_types.map((type) => html`<li><code>${type}</code></li>`)}
  </ul>`;

export const endpointPath = (deps: WebDeps, id: string): string =>
  `${deps.base}/webhooks/${encodeURIComponent(id)}`;

/** What create and rotate hand the endpoint's page, to show once (ADR 3210). */
export const ShownSecret = t.type({
  secret: t.string,
  previous_secret_expires_at: t.union([t.string, t.null]),
  rotated: t.boolean,
});
export type ShownSecret = t.TypeOf<typeof ShownSecret>;

/**
 * The signing secret, shown this once (after New endpoint and after Rotate secret): a
 * read-only field with the app's copy button, and how a receiver checks a delivery.
 */
export const secretPanel = (shown: ShownSecret): Html =>
  html`<section class="secret" aria-labelledby="secret-heading">
    <h2 id="secret-heading">${shown.rotated ? 'The new signing secret' : 'The endpoint’s signing secret'}</h2>
    <p role="status">
      <strong>Copy it now: it is shown this once and will not be shown again.</strong> Keep it where your
      receiver can read it, and nowhere else.
    </p>
    ${copyField('webhook-secret', 'Signing secret', shown.secret)}
    ${
      shown.rotated && shown.previous_secret_expires_at !== null
        ? html`<p>
            The old secret keeps working for a day, until ${time(shown.previous_secret_expires_at)}: until
            then every delivery is signed with both, so you can move your receiver to the new one.
          </p>`
        : ''
    }
    <p>
      To check that a delivery came from us, compute the HMAC-SHA256 of
      <code>t + "." + the raw body</code> keyed with this secret, and compare it with a <code>v1</code> value
      of the <code>Esign-Signature: t=…,v1=…</code> header; refuse a <code>t</code> more than 5 minutes away.
      The README’s “Verifying a delivery” (under Webhooks) has code to copy.
    </p>
  </section>`;

const lastResponse = (d: { response_status: number | null; error: string | null }): Html =>
  d.response_status !== null
    ? html`${d.response_status}`
    : html`<span class="hint">${d.error === null ? 'none yet' : 'no answer'}</span>`;

/** The recent deliveries table: each row links to the delivery and its attempts. */
export const deliveriesTable = (
  deps: WebDeps,
  endpointId: string,
  deliveries: readonly WebhookDeliveryView[],
): Html =>
  dataTable({
    caption: 'Recent deliveries, newest first',
    captionHidden: true,
    region: 'Recent deliveries',
    columns: ['Created', 'Event', 'Status', 'Attempts', 'Last response'],
    rows: deliveries.map((d) => [
      html`<a href="${endpointPath(deps, endpointId)}/deliveries/${encodeURIComponent(d.id)}"
        >${time(d.created_at)}<span class="visually-hidden"> (delivery ${d.id})</span></a
      >`,
      html`<code>${d.event_type}</code>`,
      html`<span class="state state-${d.status}">${d.status}</span>`,
      String(d.attempts),
      lastResponse(d),
    ]),
  });

/** `1234` ms as it reads best. */
const duration = (ms: number | null): Html | string =>
  ms === null ? html`<span class="hint">—</span>` : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

const excerpt = (text: string | null): Html =>
  text === null || text === '' ? html`<span class="hint">none</span>` : html`<code>${text}</code>`;

export const attemptsTable = (
  attempts: readonly {
    attempt: number;
    started_at: string;
    outcome: string | null;
    response_status: number | null;
    response_excerpt: string | null;
    error: string | null;
    duration_ms: number | null;
  }[],
): Html =>
  dataTable({
    caption: 'Every attempt, first first',
    region: 'Attempts',
    columns: ['Attempt', 'When', 'Outcome', 'Status', 'Duration', 'Error', 'Response excerpt'],
    rows: attempts.map((a) => [
      String(a.attempt),
      time(a.started_at),
      a.outcome === null
        ? html`<span class="hint">in progress</span>`
        : html`<span
            class="state state-${a.outcome === 'delivered' ? 'delivered' : a.outcome === 'failed' ? 'failed' : 'pending'}"
            >${a.outcome}</span
          >`,
      a.response_status === null ? html`<span class="hint">none</span>` : String(a.response_status),
      duration(a.duration_ms),
      a.error === null ? html`<span class="hint">none</span>` : a.error,
      excerpt(a.response_excerpt),
    ]),
  });
