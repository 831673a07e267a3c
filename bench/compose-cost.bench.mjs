// What composing a create's write statement with slonik's sql tag costs the requests
// service in CPU, before anything is sent: the signers' upsert, the Request's four inserts
// and the outbox row as one statement (ADR 2610), marked for preparing by name (ADR 2830),
// with what slonik's query routine does to every text (two trims, placeholders renumbered):
// composed by slonik on every call, and once per shape as the service does (ADR 2870).
// No database.
// docs/benchmarks.md, session 49. Run after a build:
//   node bench/compose-cost.bench.mjs [creates=50000]
import { insertEvents, prepared } from '@esign/platform/database';
import { statementFor } from '../libs/platform/dist/src/prepared.js';
import {
  composeStatement,
  oneStatement,
  requestInserts,
} from '../services/requests/dist/src/adapters/postgres/request-writes.js';
import { upsertSigners } from '../services/requests/dist/src/adapters/postgres/signer-upsert.js';

const count = Number(process.argv[2] ?? 50_000);
const now = new Date().toISOString();
const signerIds = ['client-1', '2025550143'];
// The bench's create: 1 contract, 2 signers, 3 fields (bench/support/bodies.ts).
const request = {
  id: 123_456,
  siteId: 7,
  siteName: 'Acme',
  siteLocale: null,
  creator: { userId: 3, email: 'owner@example.com' },
  state: 'draft',
  renderData: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
  redirectUrl: null,
  expiresAt: null,
  createdAt: now,
  updatedAt: now,
  testMode: false,
  contracts: [{ id: 55, name: 'NDA' }],
  signers: signerIds.map((signerId, i) => ({
    signerId,
    signerRef: `ref-${i}-0123456789`,
    sendTo: { email: i === 0, sms: i === 1 },
    order: i,
    authentication: 'none',
    state: 'pending',
    locale: null,
  })),
  fields: ['full_name', 'signature', 'witness_signature'].map((name, i) => ({
    name,
    defaultValue: null,
    assignedTo: signerIds[i === 2 ? 1 : 0],
  })),
};
const siteSigners = [
  { siteId: 7, signerId: signerIds[0], email: 'c1@example.com', mobileNumber: null },
  { siteId: 7, signerId: signerIds[1], email: null, mobileNumber: '2025550143' },
];
const events = [
  { id: '00000000-0000-4000-8000-000000000001', type: 'request.created', data: { request_id: 123_456 } },
];

/** The statement as the creation store builds it, with `statement` composing the writes. */
const compose = (statement) => () => {
  const query = prepared(
    statement([
      upsertSigners(siteSigners),
      ...requestInserts(request),
      insertEvents(events, { handedOff: true }),
    ]),
  );
  // What slonik's executeQuery does with the text before the driver looks up its name: two
  // trims, and its placeholders renumbered into a new string.
  if (query.sql.trim() === '' || query.sql.trim() === '$1') throw new Error('empty');
  return statementFor(query.sql.replaceAll('$slonik_', '$'));
};

const measure = (name, run) => {
  for (let i = 0; i < 20_000; i++) run(); // warm-up: optimised code, as in a running service
  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) run();
  const used = process.cpuUsage(before);
  console.log(
    `${name.padEnd(40)} ${((used.user + used.system) / count).toFixed(1)} µs CPU per create ` +
      `(${(((performance.now() - started) * 1000) / count).toFixed(1)} µs wall)`,
  );
};

const text = compose(composeStatement)().text;
console.log(
  `Node ${process.version}: a create's write statement, ${text.length} characters, ${count} creates`,
);
if (compose(oneStatement)().text !== text) throw new Error('the two ways compose different texts');
measure('composed by slonik on every call', compose(composeStatement));
measure('composed once per shape (ADR 2870)', compose(oneStatement));
