import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import {
  destinationPolicy,
  forbiddenAddress,
  type ResolvedAddress,
  type Resolver,
} from '../../src/adapters/webhook-http/destination-policy.js';

const fixedDns =
  (table: Record<string, readonly string[] | Error>): Resolver =>
  (hostname) => {
    const entry = table[hostname];
    if (entry === undefined)
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
      );
    if (entry instanceof Error) return Promise.reject(entry);
    return Promise.resolve(
      entry.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };

const dns = fixedDns({
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
  'localhost.example.com': ['127.0.0.1'],
  'flaky.example.com': Object.assign(new Error('queryA EAI_AGAIN flaky.example.com'), { code: 'EAI_AGAIN' }),
});

const strict = destinationPolicy({ allowHttp: false, allowPrivateAddresses: false, resolve: dns });
const reason = async (policy: typeof strict, url: string) => {
  const result = await policy.resolveTarget(url);
  return E.isLeft(result) ? `${result.left._tag}: ${result.left.reason}` : undefined;
};

describe('webhook destination policy (SSRF guard)', () => {
  it('refuses every non-public address, IPv4-mapped IPv6 included', () => {
    const refused: Array<[string, RegExp]> = [
      ['10.0.0.1', /private/],
      ['172.16.5.4', /private/],
      ['192.168.0.1', /private/],
      ['127.0.0.1', /loopback/],
      ['127.10.0.1', /loopback/],
      ['169.254.169.254', /link-local/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['224.0.0.1', /multicast/],
      ['0.0.0.0', /unspecified/],
      ['255.255.255.255', /broadcast/],
      ['192.0.2.1', /reserved/],
      ['::1', /loopback/],
      ['::', /unspecified/],
      ['fe80::1', /link-local/],
      ['fd12:3456::1', /unique local/],
      ['fc00::1', /unique local/],
      ['ff02::1', /multicast/],
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:10.0.0.1', /private/],
      ['::ffff:169.254.169.254', /link-local/],
      ['64:ff9b::a00:1', /rfc6052/],
      ['2002:a00:1::', /6to4/],
    ];
    for (const [address, why] of refused) assert.match(forbiddenAddress(address) ?? 'allowed', why, address);
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.215.14'])
      assert.equal(forbiddenAddress(address), undefined, address);
  });

  it('LOW 9: refuses IPv4-compatible IPv6 (::/96) and anything outside global unicast 2000::/3', async () => {
    const refused: Array<[string, RegExp]> = [
      ['::7f00:1', /IPv4-compatible/], // 127.0.0.1 to stacks that still map ::/96
      ['::a00:1', /IPv4-compatible/], // 10.0.0.1
      ['::a9fe:a9fe', /IPv4-compatible/], // 169.254.169.254
      ['::808:808', /IPv4-compatible/], // even a public one: the form itself is refused
      ['4000::1', /outside IPv6 global unicast/],
      ['e000::1', /outside IPv6 global unicast/],
      ['1::1', /outside IPv6 global unicast/],
    ];
    for (const [address, why] of refused) assert.match(forbiddenAddress(address) ?? 'allowed', why, address);
    assert.match((await reason(strict, 'https://[::7f00:1]/h'))!, /IPv4-compatible/);
    const sneaky = destinationPolicy({
      allowHttp: false,
      allowPrivateAddresses: false,
      resolve: fixedDns({ 'aaaa.example.com': ['::a9fe:a9fe'] }),
    });
    assert.match(
      (await reason(sneaky, 'https://aaaa.example.com/h'))!,
      /resolves to ::a9fe:a9fe, an IPv4-compatible/,
    );
    for (const address of ['2606:4700::1111', '2a00:1450:4001:80b::200e', '3ffe:1::1'])
      assert.equal(forbiddenAddress(address), undefined, address);
  });

  it('accepts https to a host that resolves only to public addresses, and names the address to connect to', async () => {
    const target = await strict.resolveTarget('https://hooks.example.com/esign?x=1');
    assert.deepEqual(target, E.right({ address: '93.184.215.14', family: 4 }));
  });

  it('refuses http, credentials, private literals and names that resolve (even partly) inside', async () => {
    assert.match((await reason(strict, 'http://hooks.example.com/h'))!, /DestinationRefused: must use https/);
    assert.match((await reason(strict, 'https://u:p@hooks.example.com/h'))!, /credentials/);
    assert.match((await reason(strict, 'https://10.0.0.7/h'))!, /is a private address/);
    assert.match((await reason(strict, 'https://[::1]:8443/h'))!, /is a loopback address/);
    assert.match((await reason(strict, 'https://[::ffff:7f00:1]/h'))!, /loopback/);
    assert.match((await reason(strict, 'https://2130706433/h'))!, /loopback/); // 127.0.0.1 in decimal
    assert.match(
      (await reason(strict, 'https://internal.example.com/h'))!,
      /resolves to 10\.1\.2\.3, a private address/,
    );
    assert.match((await reason(strict, 'https://mixed.example.com/h'))!, /resolves to 192\.168\.1\.10/);
    assert.match((await reason(strict, 'https://localhost.example.com/h'))!, /loopback/);
    assert.match((await reason(strict, 'https://nowhere.example.com/h'))!, /does not resolve/);
    assert.match(
      (await reason(strict, 'https://flaky.example.com/h'))!,
      /DestinationUnverifiable: could not resolve/,
    );
  });

  it('for local development, accepts http and private addresses only when configured', async () => {
    const local = destinationPolicy({ allowHttp: true, allowPrivateAddresses: true, resolve: dns });
    assert.deepEqual(
      await local.resolveTarget('http://127.0.0.1:4000/h'),
      E.right({ address: '127.0.0.1', family: 4 }),
    );
    assert.deepEqual(
      await local.resolveTarget('http://internal.example.com/h'),
      E.right({ address: '10.1.2.3', family: 4 }),
    );
    const httpOnly = destinationPolicy({ allowHttp: true, allowPrivateAddresses: false, resolve: dns });
    assert.match((await reason(httpOnly, 'http://127.0.0.1:4000/h'))!, /loopback/);
    assert.equal(await reason(httpOnly, 'http://hooks.example.com/h'), undefined);
    assert.match((await reason(httpOnly, 'ftp://hooks.example.com/h'))!, /must use https or http/);
  });
});
