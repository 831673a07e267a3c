import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { webCallerPeer } from '../../src/adapters/http/web-caller.js';

const SECRET = 'the-web-applications-secret-for-this-test-0123';
const request = (remoteAddress: string, headers: Record<string, string>) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('gateway: the browser behind a web application call (ADR 3010)', () => {
  const peerOf = webCallerPeer(SECRET);
  const naming = { 'x-esign-web-client': SECRET, 'x-esign-web-peer': '2001:db8::7' };

  it('takes the named browser from a loopback peer with the secret, IPv4 or IPv6', () => {
    for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      assert.equal(peerOf(request(loopback, naming)), '2001:db8::7', loopback);
  });

  it('keeps the socket’s peer for anyone else, whatever they send', () => {
    assert.equal(peerOf(request('198.51.100.9', naming)), '198.51.100.9', 'not on loopback');
    assert.equal(peerOf(request('127.0.0.1', { ...naming, 'x-esign-web-client': 'guess' })), '127.0.0.1');
    assert.equal(peerOf(request('127.0.0.1', { 'x-esign-web-peer': '2001:db8::7' })), '127.0.0.1');
    assert.equal(
      peerOf(request('127.0.0.1', { ...naming, 'x-esign-web-peer': 'evil.example' })),
      '127.0.0.1',
    );
  });
});
