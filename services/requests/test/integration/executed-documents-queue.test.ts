import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import pg from 'pg';
import { db, sql } from '@esign/platform/database';
import { eventually } from '@esign/testing';
import {
  issueMissingExecutedDocuments,
  issueRetryDelayMs,
} from '../../src/application/executed-documents.js';
import { postgresExecutedDocumentStore } from '../../src/adapters/postgres/postgres-executed-document-store.js';
import { EXECUTED_DOCUMENTS_CHANNEL } from '../../src/background.js';
import { executedDocumentsFixture } from '../support/executed-documents-fixture.js';
import { migrationsFrom } from '../support/migrations.js';

/**
 * The queue of executed documents to issue (ADR 2920), against real Postgres: a Request
 * is queued and every issuer notified when it completes, taken off when a document is
 * kept, and put back with a growing delay when issuing it fails.
 */
describe('requests service: the executed documents still to issue, queued at completion', function () {
  this.timeout(120_000);
  const { ctx, completed, download } = executedDocumentsFixture('executed-queue');
  let listener: pg.Client;
  let notified = 0;
  before(async () => {
    listener = new pg.Client({ connectionString: ctx.h.database.url });
    // The fixture's own `after` drops the database first, which ends this connection.
    listener.on('error', () => undefined);
    await listener.connect();
    listener.on('notification', (message) => {
      if (message.channel === EXECUTED_DOCUMENTS_CHANNEL) notified++;
    });
    await listener.query(`LISTEN ${EXECUTED_DOCUMENTS_CHANNEL}`);
  });
  after(() => listener?.end());

  const store = () => postgresExecutedDocumentStore(ctx.h.pool);
  const queued = async (requestId: string) =>
    (await db.maybeOne(
      ctx.h.pool,
      t.type({ attempts: t.number, due_in_ms: t.number, last_error: t.union([t.string, t.null]) }),
      sql.unsafe`
        SELECT attempts, (extract(epoch FROM next_attempt_at - now()) * 1000)::float8 AS due_in_ms, last_error
        FROM executed_document_queue WHERE request_id = ${requestId}`,
    )) ?? null;
  const dueInMs = async () => E.toUnion(await store().nextDueInMs()());

  it('queues a Request as it completes and notifies every issuer; a kept document takes it off', async () => {
    assert.equal(await dueInMs(), null, 'nothing queued before anything completed');
    const before = notified;
    const view = await completed('Quinn Queue');
    await eventually(() => Promise.resolve(notified > before ? true : undefined));
    const row = await queued(view.id);
    assert.ok(row !== null && row.attempts === 0 && row.due_in_ms <= 0, 'queued, due at once');
    const now = await dueInMs();
    assert.ok(now !== null && now <= 0);

    await download(view.id); // a first download issues and keeps it
    assert.equal(await queued(view.id), null, 'off the queue once kept');
    assert.deepEqual(E.toUnion(await store().claim(10, 60_000)()), []);
    assert.equal(await dueInMs(), null);
  });

  it('puts a failed issue back with a growing delay, so the next run does not try it again at once', async () => {
    const view = await completed('Fay Failing');
    const failing = {
      ...ctx.h.deps,
      sealer: { seal: () => TE.rightTask<never, never>(() => Promise.reject(new Error('sealer down'))) },
    };
    const first = E.toUnion(await issueMissingExecutedDocuments(failing)(10)());
    assert.deepEqual(
      first.failed.map((f) => f.requestId),
      [view.id],
    );
    const row = await queued(view.id);
    assert.ok(row !== null);
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /sealer down/);
    assert.ok(row.due_in_ms > 5_000 && row.due_in_ms <= issueRetryDelayMs(0), `back in ${row.due_in_ms} ms`);
    const due = await dueInMs();
    assert.ok(due !== null && due > 5_000, 'the queue says when it is due');

    const second = E.toUnion(await issueMissingExecutedDocuments(failing)(10)());
    assert.deepEqual(second, { issued: 0, failed: [] }, 'not tried again before it is due');

    // Its turn comes (moved here rather than waited for): issued, and off the queue.
    await ctx.h.pool.query(sql.unsafe`
      UPDATE executed_document_queue SET next_attempt_at = now() WHERE request_id = ${view.id}`);
    const third = E.toUnion(await issueMissingExecutedDocuments(ctx.h.deps)(10)());
    assert.deepEqual(third, { issued: 1, failed: [] });
    assert.equal(await queued(view.id), null);
  });

  it('hands each due Request to one issuer at a time: two replicas woken together seal it once', async () => {
    const views = await Promise.all(
      ['Ann One', 'Ben Two', 'Cy Three', 'Di Four'].map((name) => completed(name)),
    );
    const sealed: string[] = [];
    const sealer = ctx.h.deps.sealer;
    assert.ok(sealer !== null);
    const counting = {
      ...ctx.h.deps,
      sealer: {
        seal: (pdf: Uint8Array, details: { reason: string; signingTime: Date }) => {
          sealed.push(details.reason);
          return sealer.seal(pdf, details);
        },
      },
    };
    // Two replicas' issuers, woken by the same completions, run at the same moment.
    const runs = await Promise.all([
      issueMissingExecutedDocuments(counting)(10)(),
      issueMissingExecutedDocuments(counting)(10)(),
    ]);
    assert.deepEqual(
      runs.map((run) => E.toUnion(run).failed),
      [[], []],
    );
    assert.equal(
      runs.reduce((sum, run) => sum + E.toUnion(run).issued, 0),
      views.length,
    );
    assert.deepEqual(
      [...sealed].sort(),
      views.map((view) => `Executed document of Request ${view.id}`).sort(),
      'each document sealed once',
    );
    for (const view of views) assert.equal(await queued(view.id), null);
  });

  it('leases what it claims: not handed out again until the lease runs out (a replica that died)', async () => {
    const view = await completed('Lee Lease');
    assert.deepEqual(E.toUnion(await store().claim(10, 60_000)()), [{ requestId: view.id, attempts: 0 }]);
    const row = await queued(view.id);
    assert.ok(
      row !== null && row.due_in_ms > 50_000 && row.due_in_ms <= 60_000,
      `leased: ${row?.due_in_ms} ms`,
    );
    assert.deepEqual(E.toUnion(await store().claim(10, 60_000)()), [], 'not claimed twice');
    // The lease runs out (moved here rather than waited for): claimed again, attempts unchanged.
    await ctx.h.pool.query(sql.unsafe`
      UPDATE executed_document_queue SET next_attempt_at = now() WHERE request_id = ${view.id}`);
    assert.deepEqual(E.toUnion(await store().claim(10, 60_000)()), [{ requestId: view.id, attempts: 0 }]);
    await download(view.id);
    assert.equal(await queued(view.id), null);
  });

  it('queues, when migrated, the completed Requests that have no document yet', async () => {
    const view = await completed('Bea Backfill');
    // Back to before the queue, with this Request completed and no document kept, and up again.
    // The queue's migration and every later one (they come off first and go back after).
    const run = migrationsFrom(ctx.h.database.url, '1768600000000_executed-document-queue.sql');
    await run('down');
    const gone = await db.one(
      ctx.h.pool,
      t.type({ present: t.boolean }),
      sql.unsafe`SELECT to_regclass('executed_document_queue') IS NOT NULL AS present`,
    );
    assert.equal(gone.present, false, 'the queue was rolled back');
    await run('up');
    const row = await queued(view.id);
    assert.ok(row !== null && row.attempts === 0 && row.due_in_ms <= 0, 'queued, due at once');
  });

  it('waits 10 s after a first failure, doubling, at most an hour', () => {
    assert.deepEqual(
      [0, 1, 2, 5, 8, 9, 40].map(issueRetryDelayMs),
      [10_000, 20_000, 40_000, 320_000, 2_560_000, 3_600_000, 3_600_000],
    );
  });
});
