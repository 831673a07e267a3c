import { escapeHtml } from '@esign/contracts';
import { oneLine, type EmailContent } from './message-content.js';

/** The facts an "endpoint disabled" e-mail states; recorded when the endpoint is turned off. */
export interface EndpointDisabledAlert {
  readonly endpointId: string;
  readonly siteId: number;
  readonly siteName: string;
  readonly url: string;
  readonly failingSince: string;
  readonly disabledAt: string;
  readonly lastError: string;
}

const when = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Tells the address given at registration that an endpoint was turned off, why, and how
 * to turn it back on. Values from clients are made one-line and HTML-escaped.
 */
export const composeEndpointDisabled = (alert: EndpointDisabledAlert): EmailContent => {
  const site = oneLine(alert.siteName) || `site ${alert.siteId}`;
  const url = oneLine(alert.url);
  const error = oneLine(alert.lastError).slice(0, 300);
  const subject = `Webhook endpoint disabled for ${site}`;
  const lines = [
    `We turned off the webhook endpoint ${url} of ${site} (site ${alert.siteId}) on ${when(alert.disabledAt)}.`,
    `Every delivery to it has failed since ${when(alert.failingSince)}. The last attempt: ${error}.`,
    'Events are no longer sent to it, and deliveries still waiting were cancelled.',
    `Once it answers again with a 2xx status, turn it back on: PATCH /v1.1/sites/${alert.siteId}/webhooks/${alert.endpointId} with {"enabled": true}.`,
  ];
  const html = [
    `<p>We turned off the webhook endpoint <code>${escapeHtml(url)}</code> of ${escapeHtml(site)} (site ${alert.siteId}) on ${escapeHtml(when(alert.disabledAt))}.</p>`,
    `<p>Every delivery to it has failed since ${escapeHtml(when(alert.failingSince))}. The last attempt: ${escapeHtml(error)}.</p>`,
    '<p>Events are no longer sent to it, and deliveries still waiting were cancelled.</p>',
    `<p>Once it answers again with a 2xx status, turn it back on: <code>PATCH /v1.1/sites/${alert.siteId}/webhooks/${escapeHtml(alert.endpointId)}</code> with <code>{"enabled": true}</code>.</p>`,
  ].join('\n');
  return { subject, text: `${lines.join('\n\n')}\n`, html };
};
