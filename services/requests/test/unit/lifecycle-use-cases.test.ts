import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { DomainEvent, type NotificationDelivered } from '@esign/contracts';
import { OPTIMISTIC_ATTEMPTS } from '../../src/application/lifecycle.js';
import { useCases } from '../../src/application/use-cases.js';
import type { Autocommit } from '../../src/ports/store.js';
import { deliveryReport, fresh, later, left, NOW, right } from '../support/builders.js';
import { openExecutionLink } from '../support/execution-link.js';
import { caller, memoryLifecycle, SITE } from '../support/memory-lifecycle.js';
import { countingUrlSigner } from '../support/url-signer.js';

const setup = memoryLifecycle;

describe('requests use cases: send and the lifecycle (in-memory ports)', () => {
  it('writes request.created, then request.sent with the signers, channels and Execution URLs', async () => {
    const { cases, create, events } = await setup();
    const view = await create();
    const sent = fresh(right(await cases.sendRequest({ caller, requestId: view.id })()));
    assert.equal(sent.state, 'sent');
    const written = events(view.id);
    assert.deepEqual(
      written.map((e) => e.type),
      ['request.created', 'request.sent'],
    );
    for (const e of written) assert.ok(E.isRight(DomainEvent.decode(e)), e.type);
    const data = written[1]!.data as { site: unknown; signers: { request_url: string; send_to: unknown }[] };
    assert.deepEqual(data.site, SITE);
    assert.equal(data.signers[0]!.request_url, view.signers[0]!.request_url);
    assert.deepEqual(data.signers[0]!.send_to, { email: true, mobile_number: false });
  });

  it('signs each link once in a send: the answer and request.sent carry the same links', async () => {
    const counting = countingUrlSigner();
    const { cases, create, events } = await setup({ urlSigner: counting.signer });
    const draft = await create({
      signers: [
        { signer_id: 'a@b.co', send_to: { email: true } },
        { signer_id: 'c@d.co', send_to: { email: true } },
      ],
    });
    counting.signed.length = 0;
    const sent = fresh(right(await cases.sendRequest({ caller, requestId: draft.id })()));
    assert.deepEqual(counting.signed.sort(), sent.signers.map((s) => `${draft.id} ${s.signer_ref} 0`).sort());
    const event = events(draft.id).find((e) => e.type === 'request.sent');
    const inEvent = (event?.data as { signers: { request_url: string }[] }).signers;
    assert.deepEqual(inEvent.map((s) => s.request_url).sort(), sent.signers.map((s) => s.request_url).sort());
  });

  it('refuses a send with unassigned fields and leaves the Request and the outbox as they were', async () => {
    const { cases, create, events, memory } = await setup();
    const view = await create({ fields: [] });
    const before = memory.state().requests.get(view.id);
    assert.deepEqual(left(await cases.sendRequest({ caller, requestId: view.id })()), {
      _tag: 'SendPreconditionsFailed',
      missing: [{ _tag: 'UnassignedFields', fields: [{ index: 0, name: 'sig' }] }],
    });
    assert.deepEqual(memory.state().requests.get(view.id), before);
    assert.deepEqual(
      events(view.id).map((e) => e.type),
      ['request.created'],
    );
  });

  it("answers NotFound for another site's Request", async () => {
    const { cases, create } = await setup();
    const view = await create();
    assert.deepEqual(
      left(
        await cases.cancelRequest({
          caller: { sub: 'x', sites: [{ id: 9, name: 'n' }] },
          requestId: view.id,
        })(),
      ),
      {
        _tag: 'NotFound',
        resource: 'request',
      },
    );
  });

  it('cancels, closing the Execution URLs', async () => {
    const { cases, create, events, deps } = await setup();
    const view = await create();
    right(await cases.sendRequest({ caller, requestId: view.id })());
    right(await cases.cancelRequest({ caller, requestId: view.id })());
    assert.deepEqual(events(view.id).at(-1)?.data, { request_id: view.id, previous_state: 'sent' });
    assert.deepEqual(
      await openExecutionLink(deps, view.signers[0]!.request_url),
      E.left({ _tag: 'Closed', state: 'cancelled' }),
    );
  });

  describe('a transition read without a lock (ADR 2800)', () => {
    /** The use cases over the same store, with the unlocked write wrapped by `around`. */
    const wrapped = (
      fake: Awaited<ReturnType<typeof setup>>,
      around: (write: () => Promise<boolean>) => Promise<boolean>,
    ) => {
      const autocommit: Autocommit = (work) =>
        fake.deps.autocommit((store) =>
          work({
            ...store,
            requests: {
              ...store.requests,
              updateIfCurrent: (previous, next, events) => () =>
                around(async () =>
                  right(await store.requests.updateIfCurrent(previous, next, events)()),
                ).then((stored) => E.right(stored)),
            },
          }),
        );
      return useCases({ ...fake.deps, autocommit });
    };

    it('decides again on what is there when another transition landed between its read and its write', async () => {
      const fake = await setup();
      const view = await fake.create();
      let interleaved = false;
      const cases = wrapped(fake, async (write) => {
        if (!interleaved) {
          interleaved = true;
          right(await fake.cases.cancelRequest({ caller, requestId: view.id })());
        }
        return write();
      });
      // The send read a draft; the cancel stored first, so the send's write stores
      // nothing and its second read finds the Request cancelled.
      assert.deepEqual(left(await cases.sendRequest({ caller, requestId: view.id })()), {
        _tag: 'StateConflict',
        action: 'send',
        state: 'cancelled',
      });
      assert.equal(fake.memory.state().requests.get(view.id)?.state, 'cancelled');
      assert.deepEqual(
        fake.events(view.id).map((e) => e.type),
        ['request.created', 'request.cancelled'],
      );
    });

    it(`queues on the lock after ${OPTIMISTIC_ATTEMPTS} writes that found the Request changed`, async () => {
      const fake = await setup();
      const view = await fake.create();
      let attempts = 0;
      const cases = wrapped(fake, () => {
        attempts++;
        return Promise.resolve(false);
      });
      assert.equal(fresh(right(await cases.sendRequest({ caller, requestId: view.id })())).state, 'sent');
      assert.equal(attempts, OPTIMISTIC_ATTEMPTS);
      assert.deepEqual(
        fake.events(view.id).map((e) => e.type),
        ['request.created', 'request.sent'],
      );
    });
  });

  it('reminds after the interval, and sweeps expired Requests', async () => {
    const { cases, create, events, setNow } = await setup();
    const view = await create({ expires_at: later(NOW, 7200) });
    right(await cases.sendRequest({ caller, requestId: view.id })());
    assert.equal(left(await cases.remindRequest({ caller, requestId: view.id })())._tag, 'RemindTooSoon');
    setNow(later(NOW, 3600));
    assert.equal(fresh(right(await cases.remindRequest({ caller, requestId: view.id })())).remind_count, 1);
    assert.deepEqual(await cases.expireDueRequests(10)(), E.right(0));
    setNow(later(NOW, 7200));
    assert.deepEqual(await cases.expireDueRequests(10)(), E.right(1));
    assert.deepEqual(
      events(view.id).map((e) => e.type),
      ['request.created', 'request.sent', 'request.reminded', 'request.expired'],
    );
  });

  it('applies a notification outcome once, and drops one for an unknown Request', async () => {
    const { cases, create, memory } = await setup();
    const view = await create();
    right(await cases.sendRequest({ caller, requestId: view.id })());
    const event: NotificationDelivered = {
      id: randomUUID(),
      type: 'notification.delivered',
      occurred_at: later(NOW, 5),
      site_id: SITE.id,
      aggregate_id: view.id,
      data: {
        request_id: view.id,
        cause_event_id: randomUUID(),
        signer_id: 'a@b.co',
        signer_ref: view.signers[0]!.signer_ref,
        channel: 'email',
      },
    };
    assert.deepEqual(await cases.recordNotificationOutcome(event)(), E.right('applied'));
    assert.deepEqual(await cases.recordNotificationOutcome(event)(), E.right('duplicate'));
    assert.equal(memory.state().requests.get(view.id)?.signers[0]?.delivery.email?.outcome, 'delivered');
    const stranger = { ...event, id: randomUUID(), site_id: 99 };
    assert.deepEqual(await cases.recordNotificationOutcome(stranger)(), E.right('unknown-request'));
  });

  it('tells the client of a failure that becomes the signer’s status, once, and of nothing else (ADR 3180)', async () => {
    const { cases, create, events } = await setup();
    const view = await create();
    right(await cases.sendRequest({ caller, requestId: view.id })());
    const told = () => events(view.id).filter((e) => e.type === 'request.delivery_failed');
    const failed = deliveryReport(view, {
      type: 'notification.failed',
      at: later(NOW, 10),
      extra: { error: '550 no such user', to: 'a@b.co', permanent: true },
    });
    assert.deepEqual(await cases.recordNotificationOutcome(failed)(), E.right('applied'));
    assert.deepEqual(await cases.recordNotificationOutcome(failed)(), E.right('duplicate'));
    const [event, ...more] = told();
    assert.deepEqual(more, []);
    assert.ok(E.isRight(DomainEvent.decode(event)));
    assert.notEqual(event!.id, failed.id);
    assert.equal(event!.occurred_at, failed.occurred_at);
    assert.deepEqual(event!.data, {
      request_id: view.id,
      signer_id: view.signers[0]!.signer_id,
      signer_ref: view.signers[0]!.signer_ref,
      channel: 'email',
      status: 'failed',
      error: '550 no such user',
      failed_at: failed.occurred_at,
      to: 'a@b.co',
    });
    // An older report is recorded nowhere and told nobody; a delivery is shown, not told.
    const older = deliveryReport(view, {
      type: 'notification.failed',
      at: later(NOW, 5),
      extra: { permanent: true },
    });
    assert.deepEqual(await cases.recordNotificationOutcome(older)(), E.right('applied'));
    const delivered = deliveryReport(view, { at: later(NOW, 20) });
    assert.deepEqual(await cases.recordNotificationOutcome(delivered)(), E.right('applied'));
    assert.equal(told().length, 1);
    // A quota refusal is told with its own status, and a test-mode report keeps its mark.
    const refused = {
      ...deliveryReport(view, {
        type: 'notification.failed',
        at: later(NOW, 30),
        extra: { reason: 'quota_exceeded' },
      }),
      test_mode: true as const,
    };
    assert.deepEqual(await cases.recordNotificationOutcome(refused)(), E.right('applied'));
    const quota = told()[1]!;
    assert.equal((quota.data as { status: string }).status, 'quota_exceeded');
    assert.equal((quota.data as { error: unknown }).error, null);
    assert.equal(quota.test_mode, true);
    // Retries that ran out are an outage of ours: the client is told it failed, not why.
    const gaveUp = deliveryReport(view, {
      type: 'notification.failed',
      at: later(NOW, 40),
      extra: { error: 'gave up after 3 attempts: connect ECONNREFUSED 10.0.3.4:587' },
    });
    assert.deepEqual(await cases.recordNotificationOutcome(gaveUp)(), E.right('applied'));
    assert.deepEqual(
      [(told()[2]!.data as { status: string }).status, (told()[2]!.data as { error: unknown }).error],
      ['failed', null],
    );
  });
});
