import * as t from 'io-ts';
import { nullable } from './primitives.js';
import { NotificationChannel } from './delivery-events.js';
import { Page } from './paging.js';

/**
 * One message of a test-mode Request (issue #22): rendered exactly as it would have been
 * sent, then kept instead of sent, so an integrator's test can read it and follow its link.
 */
export const TestMessageView = t.type({
  id: t.string,
  request_id: t.string,
  /** The event that asked for it: `request.sent`, `request.reminded`, `request.turn_started`, … */
  event_type: t.string,
  signer_id: t.string,
  signer_ref: t.string,
  channel: NotificationChannel,
  /** The e-mail address or the mobile number (E.164) it was addressed to. */
  to: t.string,
  /** The e-mail's subject; null for an SMS. */
  subject: nullable(t.string),
  /** The plain text of the e-mail, or the SMS. */
  body: t.string,
  /** The e-mail's HTML; null for an SMS. */
  html: nullable(t.string),
  /** The signer's Execution URL the message carries; null for messages without one (codes, notices). */
  execution_url: nullable(t.string),
  created_at: t.string,
});
export type TestMessageView = t.TypeOf<typeof TestMessageView>;

export const TestMessageList = Page(TestMessageView);
export type TestMessageList = t.TypeOf<typeof TestMessageList>;
