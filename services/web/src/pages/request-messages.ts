import * as E from 'fp-ts/lib/Either.js';
import { TestMessageList, type TestMessageView } from '@esign/contracts';
import type { Visitor } from '../context.js';
import { html, type Html } from '../html.js';
import { time } from '../layout.js';
import { segment } from './common.js';

const CHANNEL: Record<TestMessageView['channel'], string> = { email: 'E-mail', sms: 'SMS' };

const messageRow = (m: TestMessageView): Html =>
  html`<tr>
    <td>${time(m.created_at)}</td>
    <td><code>${m.event_type}</code></td>
    <td>${CHANNEL[m.channel]}</td>
    <td>${m.to}</td>
    <td>
      <details>
        <summary>${m.subject ?? 'Text message'}</summary>
        <pre class="message-body">${m.body}</pre>
      </details>
    </td>
  </tr>`;

/**
 * What a test-mode Request would have sent (issue #22): the messages the notifier kept
 * instead, from `GET /v1.1/requests/:id/messages`, oldest first. A failure to read them
 * is said here, and the rest of the Request's page still shows.
 */
export const testMessages = async (visitor: Visitor, requestId: string): Promise<Html> => {
  const kept = await visitor.api({
    method: 'GET',
    path: `/v1.1/requests/${segment(requestId)}/messages?per_page=100`,
    codec: TestMessageList,
  });
  const heading = html`<h2>Messages kept (test mode)</h2>
    <p class="hint">
      A test-mode Request sends no e-mail or SMS. These are the messages it would have sent.
    </p>`;
  if (E.isLeft(kept))
    return html`${heading}
      <p class="errors" role="alert">
        The messages cannot be shown: ${kept.left.detail ?? kept.left.title}
      </p>`;
  if (kept.right.data.length === 0)
    return html`${heading}
      <p class="notice">None yet: they are kept from the moment the Request is sent.</p>`;
  return html`${heading}
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">
          Messages kept instead of sent
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Channel</th>
            <th scope="col">To</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          ${kept.right.data.map(messageRow)}
        </tbody>
      </table>
    </div>
    ${kept.right.has_more ? html`<p class="hint">The first 100 are shown.</p>` : ''}`;
};
