/**
 * Notifier throughput: publishes EVENTS request.sent events (two signers each: one
 * e-mail + SMS, one e-mail only: three messages per event) and times until every
 * notification.delivered event is back on the exchange. Real Postgres and RabbitMQ
 * (DATABASE_URL / AMQP_URL, else the local servers), the SMTP server and Twilio API
 * doubles of the integration tests, default settings (prefetch 16, 8 sends per event).
 *
 *   npm run bench -w services/notifier            # EVENTS=1000 npm run bench … to change the load
 */
import { randomUUID } from 'node:crypto';
import { startSmtpServer, startTwilioApi } from '@esign/testing';
import { requestSent, signer } from '../test/support/events.js';
import { percentiles, settle, startBench } from './support.js';

const EVENTS = Number(process.env.EVENTS ?? 300);
const PER_EVENT = 3;

const smtp = await startSmtpServer();
const twilio = await startTwilioApi();
const {
  channel: ch,
  names,
  stop,
} = await startBench('notifier', {
  SMTP_URL: smtp.url,
  TWILIO_ACCOUNT_SID: twilio.accountSid,
  TWILIO_AUTH_TOKEN: twilio.authToken,
  TWILIO_FROM: '+12025550100',
  TWILIO_API_BASE_URL: twilio.baseUrl,
});
await ch.assertExchange(names.events, 'topic', { durable: true });
const { queue } = await ch.assertQueue('', { exclusive: true });
await ch.bindQueue(queue, names.events, 'notification.*');
await settle();

const publishedAt = new Map<string, number>();
const remaining = new Map<string, number>();
const latencies: number[] = [];
let done!: () => void;
const finished = new Promise<void>((resolve) => (done = resolve));
await ch.consume(queue, (message) => {
  if (message === null) return;
  const outcome = JSON.parse(message.content.toString('utf8')) as {
    type: string;
    data: { cause_event_id: string };
  };
  ch.ack(message);
  if (outcome.type !== 'notification.delivered') throw new Error(`unexpected ${outcome.type}`);
  const left = (remaining.get(outcome.data.cause_event_id) ?? 0) - 1;
  remaining.set(outcome.data.cause_event_id, left);
  if (left === 0) {
    latencies.push(performance.now() - publishedAt.get(outcome.data.cause_event_id)!);
    if (latencies.length === EVENTS) done();
  }
});

const started = performance.now();
for (let i = 0; i < EVENTS; i++) {
  const n = String(i).padStart(4, '0');
  const event = requestSent(
    [
      signer({
        email: `a${n}@example.com`,
        mobile_number: `1202556${n}`,
        send_to: { email: true, mobile_number: true },
      }),
      signer({ email: `b${n}@example.com` }),
    ],
    { request_id: randomUUID() },
  );
  remaining.set(event.id, PER_EVENT);
  publishedAt.set(event.id, performance.now());
  ch.publish(names.events, 'request.sent', Buffer.from(JSON.stringify(event)), { persistent: true });
}
await ch.waitForConfirms();
await finished;
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${EVENTS} events, ${EVENTS * PER_EVENT} messages (${smtp.received.length} e-mails, ${twilio.sent.length} SMS) in ${seconds.toFixed(2)} s: ` +
    `${Math.round((EVENTS * PER_EVENT) / seconds)} messages/s; publish → last outcome per event ${percentiles(latencies)}\n`,
);

await stop();
await Promise.all([smtp.close(), twilio.close()]);
