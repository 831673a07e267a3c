import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { pageView, type PageRequest, type TestMessageList } from '@esign/contracts';
import type { NoticeEvent, Target } from '../domain/delivery.js';
import { composeEmail, composeSms } from '../domain/message-content.js';
import type { KeptMessage, TestInbox } from '../ports/test-inbox.js';

/** Events whose messages carry the signer's Execution URL (the others: codes, notices). */
const CARRIES_EXECUTION_URL: ReadonlySet<string> = new Set([
  'request.sent',
  'request.reminded',
  'request.turn_started',
]);

/** A test-mode message exactly as it would have been sent to this target (issue #22). */
export const keptMessage = (event: NoticeEvent, target: Target): KeptMessage => {
  const url = target.signer.request_url;
  const common = {
    key: target.key,
    eventType: event.type,
    requestId: event.data.request_id,
    siteId: event.site_id,
    signerId: target.signer.signer_id,
    recipient: target.recipient,
    executionUrl: CARRIES_EXECUTION_URL.has(event.type) ? url : null,
  };
  if (target.key.channel === 'sms')
    return { ...common, subject: null, body: composeSms(event, url), html: null };
  const email = composeEmail(event, url);
  return { ...common, subject: email.subject, body: email.text, html: email.html };
};

/**
 * `GET /v1.1/requests/:id/messages`: the kept messages of a test-mode Request of the
 * caller's Sites. A real Request, or one of another Site, has none to show.
 */
export const listTestMessages =
  (deps: { readonly testInbox: TestInbox }) =>
  (input: {
    readonly siteIds: readonly number[];
    readonly requestId: string;
    readonly page: PageRequest;
  }): TE.TaskEither<never, TestMessageList> =>
    pipe(
      deps.testInbox.list(input.requestId, input.siteIds, input.page),
      TE.map((found) =>
        pageView(input.page, found, (m) => ({
          id: m.id,
          request_id: m.requestId,
          event_type: m.eventType,
          signer_id: m.signerId,
          signer_ref: m.key.signerRef,
          channel: m.key.channel,
          to: m.recipient,
          subject: m.subject,
          body: m.body,
          html: m.html,
          execution_url: m.executionUrl,
          created_at: m.createdAt,
        })),
      ),
    );
