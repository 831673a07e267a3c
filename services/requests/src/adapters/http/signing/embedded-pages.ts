import type { EmbeddedEvent, EmbeddedSigningMessage } from '@esign/contracts';
import type { AppContext } from '@esign/platform';
import type { EmbeddedSession } from '../../../domain/embedded-signing.js';

/**
 * A signer page shown inside a host application's iframe (ADR 2300): framed only by the
 * session's origins, and telling the host what happens with postMessage to its one origin.
 */
export interface EmbeddedPage {
  readonly session: EmbeddedSession;
  readonly nonce: string;
  /** What this response tells the host beyond `ready`; set by the handler that renders it. */
  event?: { readonly event: EmbeddedEvent; readonly code?: string; readonly message?: string };
}

const pages = new WeakMap<AppContext, EmbeddedPage>();

export const embeddedPageOf = (ctx: AppContext): EmbeddedPage | undefined => pages.get(ctx);

export const markEmbedded = (ctx: AppContext, session: EmbeddedSession, nonce: string): void =>
  void pages.set(ctx, { session, nonce });

/** A form whose link is another signer's than the session's: an ordinary, unframable page. */
export const forgetEmbedded = (ctx: AppContext): void => void pages.delete(ctx);

/** Records what the page tells its host (nothing happens outside an embedded page). */
export const tellHost = (ctx: AppContext, event: NonNullable<EmbeddedPage['event']>): void => {
  const page = pages.get(ctx);
  if (page !== undefined && page.event === undefined) page.event = event;
};

/** The CSP frame-ancestors sources of an embedded page: the app's origins and nothing else. */
export const embeddedFrameAncestors = (session: EmbeddedSession): string => session.frameOrigins.join(' ');

/** JSON safe inside a script element: no `<`, no line separators that end a string literal. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The script every embedded page carries: `ready` once loaded, then the page's own event,
 * each posted to the parent window at the session's parent origin only (a browser drops
 * the message when the parent is anything else).
 */
export const embeddedScript = (page: EmbeddedPage): string => {
  const base: Omit<EmbeddedSigningMessage, 'event'> = {
    source: 'esign',
    request_id: page.session.requestId,
    signer_id: page.session.signerId,
  };
  const events: EmbeddedSigningMessage[] = [{ ...base, event: 'ready' }];
  if (page.event !== undefined && page.event.event !== 'ready') events.push({ ...base, ...page.event });
  return `<script nonce="${page.nonce}">(() => {
  if (window.parent === window) return;
  const origin = ${scriptJson(page.session.parentOrigin)};
  for (const message of ${scriptJson(events)}) window.parent.postMessage(message, origin);
})();</script>`;
};

/** The page with its host script, placed last in the body. */
export const withEmbeddedScript = (html: string, page: EmbeddedPage): string => {
  const at = html.lastIndexOf('</body>');
  return at === -1
    ? html + embeddedScript(page)
    : `${html.slice(0, at)}${embeddedScript(page)}\n${html.slice(at)}`;
};
