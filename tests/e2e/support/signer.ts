import { conformingFetch } from './conformance.js';

/**
 * A signer with a plain browser: opens the Execution URL, fills in the signing form as
 * a person would (every field of theirs, the typed name, the consent) and posts it the
 * way a browser posts a same-origin form. No cookies, no script.
 */
const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return match === null ? undefined : decodeEntities(match[1]!);
};

/** The form posting to `/sign` on a page: its hidden inputs, with every field filled in. */
export const filledSigningForm = (page: string, typedName: string): URLSearchParams => {
  const form = [...page.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].find((f) =>
    /action="[^"]*\/sign"/.test(f[1]!),
  );
  if (form === undefined) throw new Error(`no signing form on the page:\n${page.slice(0, 1500)}`);
  const body = new URLSearchParams();
  const chosen = new Set<string>();
  for (const [tag] of form[2]!.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    const type = attribute(tag, 'type') ?? 'text';
    if (name === undefined) continue;
    if (type === 'hidden') body.set(name, attribute(tag, 'value') ?? '');
    else if (name === 'typed_name') body.set(name, typedName);
    else if (name === 'consent') body.set(name, 'yes');
    else if (type === 'checkbox') body.set(name, attribute(tag, 'value') ?? 'on');
    else if (type === 'radio' && !chosen.has(name)) {
      chosen.add(name);
      body.set(name, attribute(tag, 'value') ?? '');
    } else if (type === 'text') body.set(name, attribute(tag, 'value') || `${typedName} (${name})`);
  }
  for (const select of form[2]!.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attribute(select[1]!, 'name');
    const option = [...select[2]!.matchAll(/<option value="([^"]+)"/g)][0];
    if (name !== undefined && option !== undefined) body.set(name, decodeEntities(option[1]!));
  }
  return body;
};

export interface SigningOutcome {
  /** The answer to the page itself. */
  readonly pageStatus: number;
  readonly page: string;
  /** The answer to the form's POST (303 on success). */
  readonly status: number;
  readonly location: string | null;
}

/**
 * Posts a signer page's form (`/sign`, `/sign/decline`, `/sign/verify`) as a browser
 * would, same-origin. `fields` is the whole form, or (a record) what goes with the
 * Execution URL `url`'s own r, s and signature.
 */
export const postSignerForm = async (
  url: URL,
  path: string,
  fields: URLSearchParams | Record<string, string>,
): Promise<{ status: number; page: string; location: string | null }> => {
  const body =
    fields instanceof URLSearchParams
      ? fields
      : new URLSearchParams({
          r: url.searchParams.get('r')!,
          s: url.searchParams.get('s')!,
          signature: url.searchParams.get('signature')!,
          ...fields,
        });
  const answer = await conformingFetch(new URL(path, url.origin), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: url.origin,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      'user-agent': 'esign-e2e/1.0 (a browser posting a form)',
    },
    body: body.toString(),
  });
  return { status: answer.status, page: await answer.text(), location: answer.headers.get('location') };
};

/** A file a signer chooses for a file input (ADR 3920). */
export interface ChosenFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/**
 * Posts a signing form as a browser posts one with file inputs (ADR 3920): multipart, each
 * field, and each file under its input's name.
 */
export const postSignerMultipart = async (
  url: URL,
  path: string,
  fields: URLSearchParams,
  files: Readonly<Record<string, ChosenFile>>,
): Promise<{ status: number; page: string; location: string | null }> => {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  for (const [name, file] of Object.entries(files))
    body.append(name, new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
  const answer = await conformingFetch(new URL(path, url.origin), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: url.origin,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      'user-agent': 'esign-e2e/1.0 (a browser posting a form with files)',
    },
    body,
  });
  return { status: answer.status, page: await answer.text(), location: answer.headers.get('location') };
};

/** Opens `executionUrl` and, when the page shows a form, signs. */
export const signAt = async (executionUrl: string, typedName: string): Promise<SigningOutcome> => {
  const opened = await conformingFetch(executionUrl, { redirect: 'manual' });
  const page = await opened.text();
  if (opened.status !== 200)
    return { pageStatus: opened.status, page, status: opened.status, location: null };
  const posted = await postSignerForm(new URL(executionUrl), '/sign', filledSigningForm(page, typedName));
  return { pageStatus: 200, page, status: posted.status, location: posted.location };
};
