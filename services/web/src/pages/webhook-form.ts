import { WEBHOOK_EVENT_TYPES, type WebhookEndpointView, type WebhookEventType } from '@esign/contracts';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { textField } from '../layout.js';

/**
 * What each event a webhook can deliver means, in a line (the API reference has the full
 * text). Typed by the contracts' list, so a new event type cannot be left unlabelled.
 */
export const EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'request.created': 'A Request was made, as a draft (also by a copy or a bulk send).',
  'request.sent': 'A Request was sent: its signers’ links are live.',
  'request.signed': 'A signer signed.',
  'request.completed': 'Every signer has signed.',
  'request.declined': 'A signer declined, which ends the Request.',
  'request.cancelled': 'The sender cancelled the Request.',
  'request.expired': 'The Request expired unsigned.',
  'request.reminded': 'Signers who have yet to sign were reminded.',
  'request.turn_started': 'A Request signed in order reached its next signers.',
  'request.viewed': 'A signer opened their link for the first time.',
  'request.signer_updated': 'The sender corrected how a signer is reached.',
  'request.updated': 'The sender changed the expiry or the automatic reminders.',
  'request.signer_added': 'The sender added a signer to a draft.',
  'request.signer_removed': 'The sender removed a signer from a draft; their fields have no signer now.',
  'request.contract_added': 'The sender added a contract to a draft.',
  'request.contract_removed': 'The sender removed a contract from a draft, with the fields only it had.',
  'request.contracts_reordered': 'The sender put a draft’s contracts in a new order.',
  'request.delivery_failed': 'An e-mail or SMS to a signer could not be delivered.',
  'bulk_send.completed': 'Every row of a bulk send is settled.',
  'contract.created': 'A template was created, or copied into a new draft.',
  'contract.updated': 'A draft template’s content was replaced.',
  'contract.published': 'A template was published: new Requests may use it.',
  'contract.archived': 'A template was archived: new Requests may not use it.',
  'contract.unarchived': 'An archived template was let back in.',
  'contract.deleted': 'A template was deleted.',
};

/** What the endpoint form holds, as typed (kept when the API refuses it). */
export interface EndpointEntry {
  readonly url: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly alertEmail: string;
  readonly description: string;
  readonly enabled: boolean;
}

/**
 * Each event type is its own box (`event_request_sent`): the form reader keeps one value
 * per name, and reads a dot in a name as nesting.
 */
const boxName = (type: WebhookEventType): string => `event_${type.replace(/\./g, '_')}`;
const boxId = (type: WebhookEventType): string => `event-${type.replace(/[._]/g, '-')}`;

/** The form's fields as an entry; `enabled` only where the form has the box (the edit form). */
export const entryOf = (fields: FormFields): EndpointEntry => ({
  url: (fields.url ?? '').trim(),
  eventTypes: WEBHOOK_EVENT_TYPES.filter((type) => fields[boxName(type)] === 'on'),
  alertEmail: (fields.alert_email ?? '').trim(),
  description: (fields.description ?? '').trim(),
  enabled: fields.enabled === 'true',
});

export const entryOfEndpoint = (e: WebhookEndpointView): EndpointEntry => ({
  url: e.url,
  eventTypes: e.event_types,
  alertEmail: e.alert_email,
  description: e.description,
  enabled: e.enabled,
});

/** The body of `POST /v1.1/sites/:id/webhooks`; an empty description is left out. */
export const createBody = (entry: EndpointEntry) => ({
  url: entry.url,
  event_types: entry.eventTypes,
  alert_email: entry.alertEmail,
  ...(entry.description === '' ? {} : { description: entry.description }),
});

/** The body of `PATCH …/webhooks/:webhook_id`: the whole form, so what is shown is what is kept. */
export const updateBody = (entry: EndpointEntry) => ({
  url: entry.url,
  event_types: entry.eventTypes,
  alert_email: entry.alertEmail,
  description: entry.description,
  enabled: entry.enabled,
});

/** Where the problem summary's links go for each field the API names. */
export const FIELD_IDS: Record<string, string> = {
  url: 'webhook-url',
  event_types: 'event-types',
  alert_email: 'alert-email',
  description: 'webhook-description',
  enabled: 'webhook-enabled',
};

/** A message about one event type (`event_types.2`) is shown with the event types. */
const errorOf = (errors: ReadonlyMap<string, string>, path: string): string | undefined =>
  errors.get(path) ?? [...errors].find(([p]) => p.startsWith(`${path}.`) || p.startsWith(`${path}[`))?.[1];

const eventBoxes = (chosen: readonly WebhookEventType[], error: string | undefined): Html =>
  html`<fieldset class="checks" id="event-types" ${error ? html` aria-describedby="event-types-error"` : ''}>
    <legend>Events to send</legend>
    <p class="hint">Tick at least one. Each delivery is a signed POST of one event.</p>
    ${error ? html`<p class="error" id="event-types-error">${error}</p>` : ''}
    ${WEBHOOK_EVENT_TYPES.map(
      (type) =>
        html`<div class="field check">
          <input
            type="checkbox"
            id="${boxId(type)}"
            name="${boxName(type)}"
            value="on"
            aria-describedby="${boxId(type)}-hint"
            ${chosen.includes(type) ? html` checked` : ''}
          />
          <label for="${boxId(type)}"><code>${type}</code></label>
          <p class="hint" id="${boxId(type)}-hint">${EVENT_LABELS[type]}</p>
        </div>`,
    )}
  </fieldset>`;

/**
 * The fields of the New endpoint and edit forms, each with the API's refusal beside it;
 * the edit form has the Enabled box too.
 */
export const endpointFields = (
  entry: EndpointEntry,
  errors: ReadonlyMap<string, string>,
  withEnabled: boolean,
): Html => {
  const descriptionError = errors.get('description');
  return html`${textField({ id: 'webhook-url', name: 'url', label: 'URL', type: 'url', value: entry.url, required: true, error: errors.get('url'), hint: 'Where each event is sent: an https address (at most 2048 characters) on the public internet.' })}
    ${eventBoxes(entry.eventTypes, errorOf(errors, 'event_types'))}
    ${textField({ id: 'alert-email', name: 'alert_email', label: 'Alert e-mail', type: 'email', value: entry.alertEmail, required: true, autocomplete: 'email', error: errors.get('alert_email'), hint: 'Who we write to if we turn the endpoint off after 3 days of failed deliveries.' })}
    <div class="field">
      <label for="webhook-description">Description (optional)</label>
      <p class="hint" id="webhook-description-hint">
        Up to 255 characters, for you: what receives these events.
      </p>
      ${descriptionError ? html`<p class="error" id="webhook-description-error">${descriptionError}</p>` : ''}
      <textarea
        id="webhook-description"
        name="description"
        rows="2"
        aria-describedby="webhook-description-hint${descriptionError ? ' webhook-description-error' : ''}"
        ${descriptionError ? html` aria-invalid="true"` : ''}
      >
${entry.description}</textarea>
    </div>
    ${
      withEnabled
        ? html`<div class="field check">
            <input
              type="checkbox"
              id="webhook-enabled"
              name="enabled"
              value="true"
              aria-describedby="webhook-enabled-hint"
              ${entry.enabled ? html` checked` : ''}
            />
            <label for="webhook-enabled">Enabled</label>
            <p class="hint" id="webhook-enabled-hint">
              While it is off, no event is sent to it. Turning it back on sends the events that happen from
              then on.
            </p>
          </div>`
        : ''
    }`;
};
