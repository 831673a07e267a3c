import assert from 'node:assert/strict';
import {
  embeddedMessageOf,
  openEmbeddedSigning,
  type EmbeddedSigningMessage,
  type FrameLike,
} from '../../src/embedded-signing.js';

const SERVICE = 'https://esign.example';

/** A window with one iframe, enough for the helper: messages are delivered by hand. */
const fakeWindow = () => {
  const listeners: ((e: { origin: string; source: unknown; data: unknown }) => void)[] = [];
  const frameWindow = { name: 'the frame' };
  const appended: FrameLike[] = [];
  const frame: FrameLike = {
    src: '',
    title: '',
    style: { setProperty: () => undefined },
    contentWindow: frameWindow,
    setAttribute: () => undefined,
    remove: () => void appended.pop(),
  };
  return {
    win: {
      document: { createElement: () => frame },
      addEventListener: (_: 'message', l: (typeof listeners)[number]) => void listeners.push(l),
      removeEventListener: (_: 'message', l: (typeof listeners)[number]) =>
        void listeners.splice(listeners.indexOf(l), 1),
    },
    deliver: (origin: string, source: unknown, data: unknown) =>
      listeners.forEach((l) => l({ origin, source, data })),
    frameWindow,
    appended,
    listeners,
  };
};

const message = (event: string): EmbeddedSigningMessage =>
  ({ source: 'esign', event, request_id: 'r1', signer_id: 'ada@example.com' }) as EmbeddedSigningMessage;

describe('embedded signing helper (@esign/client/embedded-signing)', () => {
  it('opens the URL in an iframe and calls back for the frame’s messages from the service’s origin only', () => {
    const w = fakeWindow();
    const seen: string[] = [];
    const opened = openEmbeddedSigning(
      {
        url: `${SERVICE}/sign/embedded?t=abc`,
        container: { appendChild: (f: FrameLike) => w.appended.push(f) },
        onReady: () => seen.push('ready'),
        onSigned: (m) => seen.push(`signed ${m.signer_id}`),
        onError: (m) => seen.push(`error ${m.code ?? ''}`),
      },
      w.win,
    );
    assert.equal(opened.iframe.src, `${SERVICE}/sign/embedded?t=abc`);
    assert.equal(opened.iframe.title, 'Sign the document');
    w.deliver(SERVICE, w.frameWindow, message('ready'));
    w.deliver('https://evil.example', w.frameWindow, message('signed'));
    w.deliver(SERVICE, { another: 'frame' }, message('signed'));
    w.deliver(SERVICE, w.frameWindow, { source: 'other', event: 'signed' });
    w.deliver(SERVICE, w.frameWindow, message('signed'));
    w.deliver(SERVICE, w.frameWindow, { ...message('error'), code: 'link_used' });
    assert.deepEqual(seen, ['ready', 'signed ada@example.com', 'error link_used']);
    opened.close();
    assert.equal(w.listeners.length, 0);
    assert.equal(w.appended.length, 0);
  });

  it('reads only well-formed messages', () => {
    assert.equal(embeddedMessageOf(null), undefined);
    assert.equal(embeddedMessageOf({ ...message('signed'), event: 'hacked' }), undefined);
    assert.equal(embeddedMessageOf({ ...message('signed'), request_id: 1 }), undefined);
    assert.deepEqual(embeddedMessageOf(message('viewed')), message('viewed'));
  });
});
