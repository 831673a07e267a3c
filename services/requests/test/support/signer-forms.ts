import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';

/** The hidden inputs of the first form on a page whose action ends with `action`. */
export const hiddenInputs = (page: string, action = '/sign'): Record<string, string> => {
  const forms = [...page.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => f[1]!.endsWith(action));
  if (form === undefined) throw new Error(`no form posting to ${action} on the page`);
  const inputs: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)"[^>]*value="([^"]*)"/g))
    inputs[m[1]!] = m[2]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return inputs;
};

/** `/sign?r=…` from an Execution URL, to call the service directly. */
export const pathOf = (requestUrl: string): string => {
  const url = new URL(requestUrl);
  return `${url.pathname}${url.search}`;
};

/** A form body as a browser sends it. */
export const formBody = (fields: Record<string, string | undefined>): string =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as [string, string]])),
  ).toString();

/**
 * Signs on `page` (a signing page's HTML) as a browser posts its form, same-origin: its
 * hidden inputs, `values` (the fields, by input name), the typed name Sam and the consent.
 */
export const postSigned = (
  http: TestAgent,
  page: string,
  values: Record<string, string | undefined>,
): Promise<Response> =>
  http
    .post('/sign')
    .set({ 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' })
    .send(formBody({ ...hiddenInputs(page), ...values, typed_name: 'Sam', consent: 'yes' }));
