/**
 * Embedded signing in the browser (ADR 2300): opens an embedded URL in an iframe and turns
 * the page's messages into callbacks. An ES module without imports, so a host page can load
 * it as it is (`import { openEmbeddedSigning } from '…/embedded-signing.js'`). It is written
 * against the few DOM members it uses, so it compiles without the DOM library.
 */

export type EmbeddedEvent = 'ready' | 'viewed' | 'signed' | 'declined' | 'error';

/** What the signing page posts to its host (`source` tells it from other frames' messages). */
export interface EmbeddedSigningMessage {
  readonly source: 'esign';
  readonly event: EmbeddedEvent;
  readonly request_id: string;
  readonly signer_id: string;
  /** For `error`: `link_used`, `link_expired` or `refused`, and the page's title. */
  readonly code?: string;
  readonly message?: string;
}

export type EmbeddedSigningCallback = (message: EmbeddedSigningMessage) => void;

export interface EmbeddedSigningOptions {
  /** The `embedded_url` from `POST /v1.1/requests/:id/signers/:signer_id/embedded_url`. */
  readonly url: string;
  /** Where the iframe goes (an element of the host page). */
  readonly container: ContainerLike;
  /** The iframe's accessible name. */
  readonly title?: string;
  readonly onReady?: EmbeddedSigningCallback;
  readonly onViewed?: EmbeddedSigningCallback;
  readonly onSigned?: EmbeddedSigningCallback;
  readonly onDeclined?: EmbeddedSigningCallback;
  readonly onError?: EmbeddedSigningCallback;
  /** Every message, whatever its event. */
  readonly onMessage?: EmbeddedSigningCallback;
}

export interface EmbeddedSigning {
  readonly iframe: FrameLike;
  /** Stops listening and removes the iframe. */
  readonly close: () => void;
}

/** The DOM members used here, so the module type-checks without the DOM library. */
export interface FrameLike {
  src: string;
  title: string;
  readonly style: { setProperty(name: string, value: string): void };
  readonly contentWindow: unknown;
  setAttribute(name: string, value: string): void;
  remove(): void;
}
export interface ContainerLike {
  appendChild(child: FrameLike): unknown;
}
interface MessageEventLike {
  readonly origin: string;
  readonly source: unknown;
  readonly data: unknown;
}
interface WindowLike {
  readonly document: { createElement(tag: 'iframe'): FrameLike };
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

const EVENTS: readonly EmbeddedEvent[] = ['ready', 'viewed', 'signed', 'declined', 'error'];

/** A message of the signing page, or undefined for anything else a window may receive. */
export const embeddedMessageOf = (data: unknown): EmbeddedSigningMessage | undefined => {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.source !== 'esign' || !EVENTS.includes(m.event as EmbeddedEvent)) return undefined;
  if (typeof m.request_id !== 'string' || typeof m.signer_id !== 'string') return undefined;
  return m as unknown as EmbeddedSigningMessage;
};

/**
 * Opens the embedded URL in a new iframe inside `container`. Only messages from that
 * iframe, from the signing service's origin, reach the callbacks.
 */
export const openEmbeddedSigning = (
  options: EmbeddedSigningOptions,
  win: WindowLike = globalThis as unknown as WindowLike,
): EmbeddedSigning => {
  const serviceOrigin = new URL(options.url).origin;
  const iframe = win.document.createElement('iframe');
  iframe.title = options.title ?? 'Sign the document';
  iframe.setAttribute('allow', '');
  iframe.style.setProperty('width', '100%');
  iframe.style.setProperty('min-height', '40rem');
  iframe.style.setProperty('border', '0');
  const handlers: Record<EmbeddedEvent, EmbeddedSigningCallback | undefined> = {
    ready: options.onReady,
    viewed: options.onViewed,
    signed: options.onSigned,
    declined: options.onDeclined,
    error: options.onError,
  };
  const listener = (event: MessageEventLike): void => {
    if (event.origin !== serviceOrigin || event.source !== iframe.contentWindow) return;
    const message = embeddedMessageOf(event.data);
    if (message === undefined) return;
    options.onMessage?.(message);
    handlers[message.event]?.(message);
  };
  win.addEventListener('message', listener);
  iframe.src = options.url;
  options.container.appendChild(iframe);
  return {
    iframe,
    close: () => {
      win.removeEventListener('message', listener);
      iframe.remove();
    },
  };
};
