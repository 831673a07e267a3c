import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { smsSenderOnFirstUse, webhookSenderOnFirstUse } from '../../src/adapters/senders-on-first-use.js';
import type { SmsSender } from '../../src/ports/sms-sender.js';
import type { WebhookSender } from '../../src/ports/webhook-sender.js';

/** A loader that fails its first `failures` calls, then makes `value`; it counts its calls. */
const loader = <T>(value: T, failures: number) => {
  const calls = { count: 0 };
  const load = () => {
    calls.count += 1;
    return calls.count <= failures ? Promise.reject(new Error('Cannot find module')) : Promise.resolve(value);
  };
  return { calls, load };
};

const sms = { to: '+12025550143', body: 'Please sign', idempotencyKey: 'k1' };
const hook = { url: 'https://hooks.example.com/esign', body: '{}', headers: {} };

describe('notifier adapters: the SMS and webhook senders, loaded on first use (ADR 2740)', () => {
  it('loads the SMS sender on the first message only, and keeps it', async () => {
    const sent: string[] = [];
    const real: SmsSender = {
      send: (message) => {
        sent.push(message.to);
        return TE.right({ providerMessageId: `SM${sent.length}` });
      },
    };
    const { calls, load } = loader(real, 0);
    const sender = smsSenderOnFirstUse(load);
    assert.equal(calls.count, 0, 'nothing is loaded before the first message');
    assert.deepEqual(await sender.send(sms)(), E.right({ providerMessageId: 'SM1' }));
    assert.deepEqual(await sender.send(sms)(), E.right({ providerMessageId: 'SM2' }));
    assert.equal(calls.count, 1);
    assert.deepEqual(sent, ['+12025550143', '+12025550143']);
  });

  it('an SMS sender that did not load fails the message as transient, and the next message loads again', async () => {
    const real: SmsSender = { send: () => TE.right({ providerMessageId: 'SM1' }) };
    const { calls, load } = loader(real, 1);
    const sender = smsSenderOnFirstUse(load);
    assert.deepEqual(
      await sender.send(sms)(),
      E.left({ _tag: 'Transient', error: 'the SMS sender did not load: Cannot find module' }),
    );
    assert.deepEqual(await sender.send(sms)(), E.right({ providerMessageId: 'SM1' }));
    assert.equal(calls.count, 2);
  });

  it('the provider’s own failures pass through unchanged', async () => {
    const real: SmsSender = {
      send: () => TE.left({ _tag: 'Permanent', error: 'Twilio 400 error 21211: invalid To' }),
    };
    const sender = smsSenderOnFirstUse(loader(real, 0).load);
    assert.deepEqual(
      await sender.send(sms)(),
      E.left({ _tag: 'Permanent', error: 'Twilio 400 error 21211: invalid To' }),
    );
  });

  it('loads the webhook sender on the first delivery; one that did not load is an attempt without an answer', async () => {
    const real: WebhookSender = {
      send: () => TE.right({ _tag: 'Response', status: 204, excerpt: '', durationMs: 3 }),
    };
    const { calls, load } = loader(real, 1);
    const sender = webhookSenderOnFirstUse(load);
    assert.equal(calls.count, 0, 'nothing is loaded before the first delivery');
    assert.deepEqual(
      await sender.send(hook)(),
      E.right({
        _tag: 'NoResponse',
        error: 'the HTTP client did not load: Cannot find module',
        durationMs: 0,
      }),
    );
    assert.deepEqual(
      await sender.send(hook)(),
      E.right({ _tag: 'Response', status: 204, excerpt: '', durationMs: 3 }),
    );
    assert.deepEqual(
      await sender.send(hook)(),
      E.right({ _tag: 'Response', status: 204, excerpt: '', durationMs: 3 }),
    );
    assert.equal(calls.count, 2);
  });
});
