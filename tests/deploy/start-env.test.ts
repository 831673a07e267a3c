// What `npm start` (scripts/start.mjs) gives each service in its environment, read from
// scripts/lib/local-env.mjs without starting anything: keys, addresses and the process
// settings the image uses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './support/paths.js';

describe('npm start: M5 keys and addresses of each service', () => {
  it('gives the principal signing key to the gateway alone, its public half to the others, the introspection credential to gateway and auth, and binds all but the gateway to loopback', async () => {
    interface LocalEnv {
      localSettings(env: Record<string, string>): unknown;
      localSecrets(dir: string): unknown;
      serviceEnvironment(
        settings: unknown,
        secrets: unknown,
        service: string,
        env: Record<string, string>,
      ): Record<string, string>;
    }
    const local = (await import(
      pathToFileURL(join(repoRoot, 'scripts', 'lib', 'local-env.mjs')).href
    )) as LocalEnv;
    const dir = mkdtempSync(join(tmpdir(), 'esign-local-env-'));
    try {
      const settings = local.localSettings({ ESIGN_DATA_DIR: dir });
      const secrets = local.localSecrets(dir);
      const envOf = (service: string) => local.serviceEnvironment(settings, secrets, service, {});
      const gateway = envOf('gateway');
      assert.ok(gateway.PRINCIPAL_SIGNING_KEY?.includes('"d"'));
      assert.equal(gateway.PRINCIPAL_PUBLIC_KEY, undefined);
      assert.ok(gateway.INTROSPECTION_SECRET !== undefined && gateway.INTROSPECTION_SECRET.length >= 32);
      assert.equal(gateway.LISTEN_HOST, '0.0.0.0');
      // Built code as the image runs it: its young generation size and malloc arenas, no
      // tsx (ADRs 2600, 2700).
      for (const service of ['gateway', 'auth', 'requests', 'notifier']) {
        assert.equal(envOf(service).NODE_OPTIONS, '--max-semi-space-size=8', service);
        assert.equal(envOf(service).MALLOC_ARENA_MAX, '2', service);
      }
      for (const service of ['auth', 'requests', 'notifier']) {
        const env = envOf(service);
        assert.equal(env.INTERNAL_TOKEN_SECRET, undefined, service);
        assert.equal(env.PRINCIPAL_SIGNING_KEY, undefined, service);
        const publicKey = JSON.parse(env.PRINCIPAL_PUBLIC_KEY!) as Record<string, unknown>;
        assert.equal(publicKey.crv, 'Ed25519');
        assert.equal(publicKey.d, undefined);
        assert.equal(env.LISTEN_HOST, '127.0.0.1', service);
        assert.equal(env.INTROSPECTION_SECRET, service === 'auth' ? gateway.INTROSPECTION_SECRET : undefined);
      }
      // Kept across restarts: tokens in flight stay valid.
      const again = local.serviceEnvironment(settings, local.localSecrets(dir), 'gateway', {});
      assert.equal(again.PRINCIPAL_SIGNING_KEY, gateway.PRINCIPAL_SIGNING_KEY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
