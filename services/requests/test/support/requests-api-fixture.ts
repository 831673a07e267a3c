import {
  pdfWithFields,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from './harness.js';

/** What the Requests-over-HTTP tests (requests-api-*.test.ts) run against. */
export interface RequestsApiSetup {
  h: Harness;
  /** A published HTML template on site A. */
  html: number;
  /** A published PDF template ("Lease", with fields) on site A. */
  pdf: number;
  /** The forwarded principal for site A. */
  headers: Record<string, string>;
}

/** The requests service over HTTP with real Postgres, and its templates; the caller closes `h`. */
export const startRequestsApi = async (label: string): Promise<RequestsApiSetup> => {
  const h = await startHarness(label);
  const html = await publishedTemplate(h.http);
  const pdf = await publishedTemplate(h.http, SITE_A, {
    type: 'pdf',
    name: 'Lease',
    pdf: await pdfWithFields(),
  });
  const headers = await principal();
  return { h, html, pdf, headers };
};
