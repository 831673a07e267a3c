/**
 * Send → e-mail: drafts sent through the gateway at a steady rate, each send's answer
 * timed to the moment the SMTP server (in the bench process) accepts that signer's
 * e-mail; where the time goes, from the databases' own clocks; the CPU the services
 * spent per send; and a ramp of rising rates for the highest one whose p99 stays < 1 s.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { EsignClient } from '@esign/client';
import type { EsignSystem, Tenant } from '@esign/testing';
import { analyse } from './analyse.js';
import { answer } from './bodies.js';
import {
  SERVICES,
  queryOnce,
  cpuPerCall,
  cpuSeconds,
  machineTicks,
  monotonicUs,
  ms,
  neighbourCpuSeconds,
  percentile,
  redisScriptCalls,
  sleep,
  wakeUpText,
  wakeUps,
  type CpuPerCall,
} from './measure.js';

/**
 * Where the time between a send and its e-mail goes, from the databases' own clocks:
 * outbox row written (the send's transaction began) → claimed by the notifier (the
 * commit, the hand-off to the broker, the consumer), claimed → settled (SMTP and the
 * outcome's statement). Since ADR 2660 `published_at` is stamped in batches after the
 * publish, so it is bookkeeping, not a stage; runs before it printed outbox → published
 * and published → claimed, whose sum is the first stage here.
 * Only the events in `ids` (one phase's sends) are counted.
 */
const sendStages = async (system: EsignSystem, requestIds: readonly string[]) => {
  const sent = await queryOnce<{ id: string; created: number }>(
    system.databases.requests.url,
    `SELECT id, extract(epoch FROM created_at) * 1000 AS created
     FROM outbox WHERE type = 'request.sent'
       AND envelope->>'aggregate_id' = ANY($1::text[])`,
    [requestIds],
  );
  const deliveries = await queryOnce<{ event_id: string; claimed: number; settled: number }>(
    system.databases.notifier.url,
    `SELECT event_id, extract(epoch FROM created_at) * 1000 AS claimed, extract(epoch FROM settled_at) * 1000 AS settled
     FROM deliveries WHERE channel = 'email' AND settled_at IS NOT NULL AND event_id = ANY($1::uuid[])`,
    [sent.map((s) => s.id)],
  );
  const byEvent = new Map(deliveries.map((d) => [d.event_id, d]));
  const pickup: number[] = [];
  const delivery: number[] = [];
  for (const row of sent) {
    const d = byEvent.get(row.id);
    if (d === undefined) continue;
    pickup.push(Number(d.claimed) - Number(row.created));
    delivery.push(Number(d.settled) - Number(d.claimed));
  }
  const summary = (values: number[]) => {
    values.sort((a, b) => a - b);
    return `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`;
  };
  return `outbox row written → claimed ${summary(pickup)}; claimed → settled ${summary(delivery)}`;
};

export interface SendPhase {
  readonly rate: number;
  readonly count: number;
  readonly achieved: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly sendP50: number;
  readonly sendP99: number;
  /** Send calls that did not answer 200, and e-mails that did not arrive in time. */
  readonly failures: number;
  readonly cpu: CpuPerCall;
  /** Script calls Redis ran per send: the limits' and quotas' round trips (ADRs 903, 1320). */
  readonly redisScripts: number;
  /** The services' main threads' wake-ups per send (`wakeUpText`). */
  readonly wakeUps: string;
  /**
   * Each service's CPU (of one core), Postgres', RabbitMQ's and the bench's own, and the
   * whole machine's busy share, from the first send to the last e-mail.
   */
  readonly busy: string;
  readonly stages: string;
  /** From the first send to the last e-mail on the monotonic clock (µs), for CPU profiles. */
  readonly window: readonly [number, number];
}

/** `count` drafts with one e-mail signer each, made through the gateway before the clock starts. */
const drafts = async (esign: EsignClient, tenant: Tenant, template: number, count: number) => {
  const emails = Array.from({ length: count }, (_, i) => `send-${i}-${randomUUID().slice(0, 8)}@example.com`);
  const ids: string[] = new Array<string>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const created = answer(
          await esign.POST('/v1.1/sites/{site_id}/requests', {
            params: { path: { site_id: tenant.site.id } },
            body: {
              contracts: [template],
              signers: [
                { signer_id: `s-${randomUUID()}`, signer: { email: emails[i]! }, send_to: { email: true } },
              ],
              fields: [{ name: 'full_name', assigned_to: emails[i]! }],
            },
          }),
          201,
        );
        ids[i] = created.id;
      }
    }),
  );
  return { emails, ids };
};

/**
 * Sends `rate` × `seconds` drafts at a steady rate; each send's answer → its e-mail
 * accepted. The drafts are made first, then the databases analysed (`analyse`).
 */
export const sendPhase = async (
  esign: EsignClient,
  system: EsignSystem,
  tenant: Tenant,
  template: number,
  rate: number,
  seconds: number,
): Promise<SendPhase> => {
  const count = Math.max(1, Math.round(rate * seconds));
  const { emails, ids } = await drafts(esign, tenant, template, count);
  await analyse(system);
  await sleep(1000);
  const answeredAt = new Map<string, number>();
  const sendLatencies: number[] = [];
  let refused = 0;
  const before = system.smtp.received.length;
  const scriptsBefore = await redisScriptCalls();
  const wakeUpsBefore = wakeUps(system);
  const cpuBefore = cpuSeconds(system);
  const neighboursBefore = neighbourCpuSeconds();
  const machineBefore = machineTicks();
  const started = performance.now();
  const from = monotonicUs();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    calls.push(
      (async () => {
        const t0 = performance.now();
        const { response } = await esign.POST('/v1.1/requests/{request_id}/send', {
          params: { path: { request_id: ids[i]! } },
        });
        const t1 = performance.now();
        if (response.status !== 200) {
          refused++;
          return;
        }
        sendLatencies.push(t1 - t0);
        answeredAt.set(emails[i]!, t1);
      })(),
    );
  }
  await Promise.all(calls);
  const achieved = count / ((performance.now() - started) / 1000);
  const arrived = await system.smtp
    .waitForCount(before + count - refused, 60_000)
    .then(() => true)
    .catch(() => false);
  const phase = (performance.now() - started) / 1000;
  const to = monotonicUs();
  const cpuAfter = cpuSeconds(system);
  const wakeUpsAfter = wakeUps(system);
  const neighboursAfter = neighbourCpuSeconds();
  const scripts = (await redisScriptCalls()) - scriptsBefore;
  const machineAfter = machineTicks();
  const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  const share = (seconds: number) => `${((100 * seconds) / phase).toFixed(0)}%`;
  const busy = `${SERVICES.map((n) => `${n} ${share(cpuAfter[n] - cpuBefore[n])}`).join(', ')}; Postgres ${share(
    neighboursAfter.postgres - neighboursBefore.postgres,
  )}, RabbitMQ ${share(neighboursAfter.rabbitmq - neighboursBefore.rabbitmq)}, Redis ${share(
    neighboursAfter.redis - neighboursBefore.redis,
  )}, the bench (load and SMTP server) ${share(
    neighboursAfter.bench - neighboursBefore.bench,
  )}; the whole machine ${(machineBusy * 100).toFixed(0)}% busy (of its ${availableParallelism()} cores)`;
  const latencies = system.smtp.received
    .slice(before)
    .map((mail) => mail.acceptedAt - (answeredAt.get(mail.to[0]!) ?? NaN))
    .filter((n) => !Number.isNaN(n))
    .sort((a, b) => a - b);
  sendLatencies.sort((a, b) => a - b);
  return {
    rate,
    count,
    achieved,
    p50: percentile(latencies, 50),
    p99: arrived ? percentile(latencies, 99) : Infinity,
    max: latencies[latencies.length - 1] ?? NaN,
    sendP50: percentile(sendLatencies, 50),
    sendP99: percentile(sendLatencies, 99),
    failures: refused + (count - refused - latencies.length),
    cpu: cpuPerCall(cpuBefore, cpuAfter, count - refused),
    redisScripts: scripts / Math.max(count - refused, 1),
    wakeUps: wakeUpText(wakeUpsBefore, wakeUpsAfter, count - refused),
    busy,
    stages: await sendStages(system, ids),
    window: [from, to],
  };
};

/** A rate is sustained when every send succeeded, the rate was kept up and p99 < 1 s. */
export const sustained = (phase: SendPhase): boolean =>
  phase.failures === 0 && phase.achieved >= phase.rate * 0.95 && phase.p99 < 1000;

/**
 * Rising send rates, one phase each, until one is not sustained: the highest sustained
 * one is the figure (undefined when even the first was not).
 */
export const sendRamp = async (
  run: (rate: number) => Promise<SendPhase>,
  rates: readonly number[],
  report: (phase: SendPhase) => void,
): Promise<SendPhase | undefined> => {
  let best: SendPhase | undefined;
  for (const rate of rates) {
    const phase = await run(rate);
    report(phase);
    if (!sustained(phase)) break;
    best = phase;
  }
  return best;
};
