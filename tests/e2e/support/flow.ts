import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually, type EsignSystem, type ReceivedMail, type SentSms, type Tenant } from '@esign/testing';
import { createEsignClient, type EsignClient, type Schemas } from '@esign/client';
import { apiClient, bearer, type ApiClient } from './client.js';
import { conformingFetch } from './conformance.js';

/** The parts of a Request view the suites read (the full shape is in libs/contracts). */
export interface RequestBody {
  readonly id: string;
  readonly site_id: number;
  readonly state: string;
  readonly signers: ReadonlyArray<{
    readonly signer_id: string;
    readonly email: string | null;
    readonly mobile_number: string | null;
    readonly state: string;
    readonly request_url: string;
    readonly signed_at: string | null;
    readonly notifications: { readonly email: string; readonly sms: string };
  }>;
  readonly fields: ReadonlyArray<{ readonly name: string; readonly assigned_to: string | null }>;
}

export interface ListBody {
  readonly total_count: number;
  readonly data: ReadonlyArray<{ readonly id: string; readonly state: string }>;
}

export const unique = (): string => randomBytes(4).toString('hex');

/**
 * A tenant as a client meets the product: the typed client (`@esign/client`), a raw API
 * client for calls the types would not allow, and its site. Both check every answer
 * against the OpenAPI document.
 */
export interface ClientOf {
  readonly tenant: Tenant;
  readonly esign: EsignClient;
  readonly api: ApiClient;
  readonly site: number;
}

/** The typed client on the system's gateway, every answer checked against the document; no token: anonymous. */
export const typedClient = (system: EsignSystem, accessToken?: string): EsignClient =>
  createEsignClient({
    baseUrl: system.gatewayUrl,
    ...(accessToken === undefined ? {} : { accessToken }),
    fetch: (request) => conformingFetch(request),
  });

export const clientOf = (system: EsignSystem, tenant: Tenant): ClientOf => ({
  tenant,
  esign: createEsignClient({
    baseUrl: system.gatewayUrl,
    accessToken: tenant.token.accessToken,
    fetch: (request) => conformingFetch(request),
  }),
  api: apiClient(system.gatewayUrl, bearer(tenant.token.accessToken)),
  site: tenant.site.id,
});

/** The typed answer's body, or an error with the whole answer when the status is not `status`. */
export const ok = <T>(
  result: { readonly data?: T; readonly error?: unknown; readonly response: Response },
  status: number,
  what: string,
): T => {
  if (result.response.status !== status || result.data === undefined)
    throw new Error(
      `${what}: expected ${status}, got ${result.response.status}: ${JSON.stringify(result.error ?? null).slice(0, 1500)}`,
    );
  return result.data;
};

export const AGREEMENT_HTML =
  '<h1>Services agreement</h1><p>Between <b>{{client_name}}</b> and the provider, from {{start_date}}.</p>';

/** A published HTML template with render_data tokens and three fields, through the gateway. */
export const publishedAgreement = async (client: ClientOf): Promise<number> =>
  (
    await publishedTemplate(client, {
      type: 'html',
      name: `Services agreement ${unique()}`,
      html: AGREEMENT_HTML,
      fields: [
        { name: 'full_name', type: 'text' },
        { name: 'signature', type: 'signature' },
        { name: 'witness_signature', type: 'signature' },
      ],
    })
  ).id;

/** Through the typed client: the template `body` describes, created and published; answers it as created. */
export const publishedTemplate = async (
  client: ClientOf,
  body: Schemas['CreateContractBody'],
): Promise<Schemas['ContractView']> => {
  const created = ok(
    await client.esign.POST('/v1.1/sites/{site_id}/contracts', {
      params: { path: { site_id: client.site } },
      body,
    }),
    201,
    'create template',
  );
  ok(
    await client.esign.POST('/v1.1/contracts/{contract_id}/publish', {
      params: { path: { contract_id: created.id } },
    }),
    200,
    'publish',
  );
  return created;
};

/** The client's own id for the e-mail signer of `agreementRequest`. */
export const clientRef = (email: string): string => `client-ref-${email.split('@')[0]}`;

/**
 * A create body: a signer the client knows by its own id, with an e-mail address that
 * `assigned_to` uses (so that signer gets the remaining fields too), and a signer known
 * only by a 10-digit mobile number, texted, never e-mailed.
 */
export const agreementRequest = (
  template: number,
  signers: { email: string; mobile: string },
  overrides: Partial<Schemas['CreateRequestBody']> = {},
): Schemas['CreateRequestBody'] => ({
  contracts: [template],
  signers: [
    { signer_id: clientRef(signers.email), signer: { email: signers.email }, send_to: { email: true } },
    { signer_id: signers.mobile, send_to: { mobile_number: true } },
  ],
  fields: [
    { name: 'witness_signature', assigned_to: signers.mobile },
    { name: 'full_name', assigned_to: signers.email },
  ],
  render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
  redirect_url: 'https://client.example/after-signing?ref=42',
  ...overrides,
});

/**
 * Through the typed client: an agreementRequest for `email` (a new address by default) and
 * a new mobile number, created and sent. Answers the Request as created.
 */
export const sentAgreement = async (
  client: ClientOf,
  template: number,
  email = `sent-${unique()}@example.com`,
): Promise<Schemas['RequestView']> => {
  const created = ok(
    await client.esign.POST('/v1.1/sites/{site_id}/requests', {
      params: { path: { site_id: client.site } },
      body: agreementRequest(template, { email, mobile: uniqueMobile() }),
    }),
    201,
    'create',
  );
  const sent = await client.api.post(`/v1.1/requests/${created.id}/send`);
  assert.equal(sent.status, 200, 'send');
  return created;
};

/** NANP exchanges: 200 to 999, none N11 (a number with another is refused, ADR 1320). */
const EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter((e) => e % 100 !== 11);
/** The numbers this process has handed out: a test file's stand-ins are its own. */
const issuedMobiles = new Set<string>();
/**
 * A 10-digit US mobile number nobody else in the run uses. Drawn at random, and drawn
 * again when this process already handed it out: among a drill's few hundred numbers, two
 * random draws alike are likely enough (about one run in five hundred) to count one
 * signer's SMS twice.
 */
export const uniqueMobile = (): string => {
  for (;;) {
    const exchange = EXCHANGES[Math.floor(Math.random() * EXCHANGES.length)]!;
    const mobile = `555${exchange}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
    if (!issuedMobiles.has(mobile)) {
      issuedMobiles.add(mobile);
      return mobile;
    }
  }
};

const EXECUTION_URL = /https?:\/\/[^\s"<>]+\/sign\?[^\s"<>]+/;

/** The Execution URL a message carries. */
export const executionUrlIn = (text: string): string => {
  const match = EXECUTION_URL.exec(text);
  if (match === null) throw new Error(`no Execution URL in:\n${text}`);
  return match[0].replace(/&amp;/g, '&');
};

export const mailsTo = (system: EsignSystem, address: string): ReceivedMail[] =>
  system.smtp.received.filter((m) => m.to.includes(address));

export const smsTo = (system: EsignSystem, e164: string): SentSms[] =>
  system.twilio.sent.filter((m) => m.to === e164);

export const waitForMail = (system: EsignSystem, address: string, timeoutMs = 15_000) =>
  eventually(() => Promise.resolve(mailsTo(system, address)[0]), timeoutMs);

export const waitForSms = (system: EsignSystem, e164: string, timeoutMs = 15_000) =>
  eventually(() => Promise.resolve(smsTo(system, e164)[0]), timeoutMs);

/** Asserts the Request is completed and answers its executed PDF (which must be a PDF). */
export const completedPdf = async (client: ClientOf, requestId: string): Promise<Buffer> => {
  const done = ok(
    await client.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: requestId } } }),
    200,
    'get',
  );
  assert.equal(done.state, 'completed');
  const download = await client.esign.GET('/v1.1/requests/{request_id}/download', {
    params: { path: { request_id: requestId } },
    parseAs: 'arrayBuffer',
  });
  assert.equal(download.response.status, 200);
  const pdf = Buffer.from(download.data!);
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  return pdf;
};

/** The text of a completed Request's executed PDF, as `pdftotext` reads it (UTF-8). */
export const completedText = async (client: ClientOf, requestId: string): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-executed-'));
  try {
    const file = join(dir, 'executed.pdf');
    await writeFile(file, await completedPdf(client, requestId));
    return (await promisify(execFile)('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
