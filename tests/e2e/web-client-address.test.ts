// ADR 3010: the web application calls the API over loopback on behalf of browsers, and
// the API must still tell one browser from another. Behind a trusted ingress (TRUST_PROXY
// on the gateway, TRUSTED_PROXY_HOPS=2 for auth, as in Kubernetes), someone guessing a
// user's password on the sign-in page locks out only their own address, not the user.
import assert from 'node:assert/strict';
import { startEsignSystem, type EsignSystem } from '@esign/testing';

const PASSWORD = 'a long passphrase for the web client test';

describe('end to end: the web application names each browser to the API (ADR 3010)', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  const email = 'victim@acme-web-client.example';

  before(async () => {
    system = await startEsignSystem({
      label: 'e2e_web_client',
      env: { gateway: { TRUST_PROXY: 'true' }, auth: { TRUSTED_PROXY_HOPS: '2' } },
    });
    const { account } = (await system.admin('create-account', '--name', 'Acme web client')) as {
      account: { id: string };
    };
    await system.admin('create-user', '--account', account.id, '--email', email, '--password', PASSWORD);
  });
  after(async () => {
    await system?.stop();
  });

  /** A sign-in on the web application's form, by a browser the ingress says is at `address`. */
  const signInFrom = async (address: string, password: string): Promise<number> => {
    const form = await fetch(`${system.gatewayUrl}/app/sign-in`, { headers: { 'x-forwarded-for': address } });
    const cookie = form.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
    assert.ok(csrf);
    const posted = await fetch(`${system.gatewayUrl}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'x-forwarded-for': address,
        cookie,
        origin: system.gatewayUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: csrf, email, password, next: '' }).toString(),
    });
    await posted.arrayBuffer();
    return posted.status;
  };

  it('locks out the guessing browser and lets the user sign in from theirs', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push(await signInFrom('198.51.100.66', 'a wrong guess'));
    assert.equal(statuses.at(-1), 429, `the guesser is slowed down: ${statuses.join(', ')}`);
    assert.equal(await signInFrom('198.51.100.66', PASSWORD), 429, 'even with the right password, there');
    assert.equal(
      await signInFrom('203.0.113.20', PASSWORD),
      303,
      'the user, from their own address, signs in',
    );
  });
});
