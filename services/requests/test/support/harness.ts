import { createServer, type Server } from 'node:http';
import { PDFDocument } from '@cantoo/pdf-lib';
import { PRINCIPAL_AUDIENCES, type SiteGrant } from '@esign/contracts';
import {
  createDatabasePool,
  migrate,
  sql,
  type DatabasePool,
  type Interceptor,
  type OutboxHandoff,
} from '@esign/platform/database';
import { createTestDatabase, testGatewayKeys, testLogger, type TestDatabase } from '@esign/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createRequestsApp } from '../../src/service.js';
import type { Deps } from '../../src/application/deps.js';
import { migrationsDir } from '../../src/migrate.js';
import type { Clock } from '@esign/contracts';
import type { DocumentSealer } from '../../src/ports/document-sealer.js';
import { testSealer } from './seal.js';

export const SIGNING_KEYS = [
  { id: 'k2', secret: 'second-url-signing-secret-0123456789' },
  { id: 'k1', secret: 'first-url-signing-secret-0123456789ab' },
];
export const PUBLIC_BASE_URL = 'https://esign.example/';

export const SITE_A = { id: 101, name: 'Acme Production' };
export const SITE_B = { id: 202, name: 'Globex' };

/** A clock tests can move. */
export const movableClock = (start = Date.now()) => {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return {
    clock,
    advance: (ms: number) => void (now += ms),
    set: (iso: string) => void (now = Date.parse(iso)),
  };
};

export interface Harness {
  readonly database: TestDatabase;
  readonly pool: DatabasePool;
  readonly deps: Deps;
  readonly http: TestAgent;
  /** Every statement run through the pool, with its transaction (null outside one) and connection; tests clear it. */
  readonly statements: { sql: string; transactionId: string | null; connectionId: string }[];
  readonly clock: ReturnType<typeof movableClock>;
  close(): Promise<void>;
}

export const startHarness = async (
  label: string,
  options: {
    readonly sealer?: DocumentSealer | null;
    /** The outbox relay's hand-off (ADR 2660), for a test that runs a relay. */
    readonly handoff?: OutboxHandoff;
    /** Told when a bulk send with rows to make commits (ADR 2680). */
    readonly bulkRowsWaiting?: () => void;
    /** More slonik interceptors on the service's pool, after the one that records statements. */
    readonly interceptors?: readonly Interceptor[];
  } = {},
): Promise<Harness> => {
  const database = await createTestDatabase(label);
  await migrate(database.url, migrationsDir);
  const statements: Harness['statements'] = [];
  const pool = await createDatabasePool(database.url, {
    interceptors: [
      {
        name: 'count-statements',
        beforeQueryExecution: (context, query) => {
          statements.push({
            sql: query.sql,
            transactionId: context.transactionId,
            connectionId: context.connectionId,
          });
          return null;
        },
      },
      ...(options.interceptors ?? []),
    ],
  });
  const clock = movableClock();
  const { app, deps } = createRequestsApp({
    pool,
    logger: testLogger('requests'),
    readiness: [],
    publicBaseUrl: PUBLIC_BASE_URL,
    gatewayPublicKey: testGatewayKeys.publicKey,
    signingKeys: SIGNING_KEYS,
    idempotencyRetentionHours: 24,
    remindPolicy: { minIntervalSeconds: 3600, maxReminders: 3 },
    clock: clock.clock,
    sealer: options.sealer === undefined ? testSealer() : options.sealer,
    handoff: options.handoff,
    bulkRowsWaiting: options.bulkRowsWaiting,
  });
  // One server on an ephemeral port for the whole file: supertest would otherwise start one per call.
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    database,
    pool,
    deps,
    http: request(server),
    statements,
    clock,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
      await database.drop();
    },
  };
};

/** The header the gateway would forward for a caller reaching `sites`. */
/** A user's principal for `sites`, with their e-mail address when given (a Request records its creator's). */
export const principal = async (
  sites: readonly SiteGrant[] = [SITE_A],
  email?: string,
): Promise<Record<string, string>> => ({
  'x-esign-principal': await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
    sub: 'user-1',
    token_id: 'tok-1',
    sites: [...sites],
    ...(email !== undefined && { email }),
  }),
});

export const htmlTemplateBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'html',
  name: 'NDA',
  html: '<p>Between {{client_name}} and us, from {{start_date}}.</p>',
  fields: [
    { name: 'full_name', type: 'text', max_length: 80 },
    { name: 'agree', type: 'checkbox' },
    { name: 'signature', type: 'signature' },
  ],
  ...overrides,
});

/** A create body of `htmlTemplateBody`'s published `template` for one e-mail signer, who fills every field. */
export const oneSignerRequestBody = (template: number, signerId: string) => ({
  contracts: [template],
  signers: [{ signer_id: signerId, send_to: { email: true } }],
  fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: signerId })),
});

/** A real PDF with AcroForm fields, made with pdf-lib. */
export const pdfWithFields = async (): Promise<string> => {
  const document = await PDFDocument.create();
  const page = document.addPage();
  const form = document.getForm();
  const tenant = form.createTextField('tenant');
  tenant.setMaxLength(40);
  tenant.addToPage(page, { x: 50, y: 700 });
  form.createCheckBox('pets').addToPage(page, { x: 50, y: 650 });
  const plan = form.createDropdown('term');
  plan.addOptions(['12 months', '24 months']);
  plan.addToPage(page, { x: 50, y: 600 });
  return Buffer.from(await document.save()).toString('base64');
};

/** Creates and publishes a template through the API; answers its id. */
export const publishedTemplate = async (
  http: TestAgent,
  site: SiteGrant = SITE_A,
  body: Record<string, unknown> = htmlTemplateBody(),
): Promise<number> => {
  const headers = await principal([site]);
  const created = await http.post(`/v1.1/sites/${site.id}/contracts`).set(headers).send(body).expect(201);
  await http.post(`/v1.1/contracts/${created.body.id}/publish`).set(headers).expect(200);
  return created.body.id as number;
};

export const countRows = async (pool: DatabasePool, table: string): Promise<number> =>
  Number(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM ${sql.identifier([table])}`));

/** The ids of a list answer's items, in order. */
export const idsOf = (page: unknown): unknown[] =>
  (page as { data: { id: unknown }[] }).data.map((item) => item.id);
