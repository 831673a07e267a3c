import request from 'supertest';
import { SessionAccessTokenView, SessionView } from '@esign/contracts';
import { ensureSigningKey } from '../../src/application/ensure-signing-key.js';
import type { Deps } from '../../src/application/deps.js';
import { gatewayCheck } from './gateway-check.js';
import { INTERNAL_SECRET, listen, PASSWORD, startHarness, type Harness } from './harness.js';
import { is } from './http-body.js';
import { valueOf } from './port-task.js';

/**
 * Auth over HTTP with real Postgres, listening, with a signing key, and the gateway's
 * introspection check beside it, for a `describe` whose tests sign in and then see what a
 * token reaches. Registers its own before/after hooks; `seed` makes the accounts.
 */
export const introspectedHarness = <S>(label: string, seed: (deps: Deps) => Promise<S>) => {
  let h: Harness | undefined;
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  let check: ReturnType<typeof gatewayCheck> | undefined;
  let seeded: S | undefined;
  before(async () => {
    h = await startHarness(label);
    server = await listen(h.callback);
    check = gatewayCheck(server.url, INTERNAL_SECRET);
    seeded = await seed(h.deps);
    await valueOf(ensureSigningKey(h.deps));
  });
  after(async () => {
    await server?.close();
    await h?.close();
  });
  const harness = () => h!;
  const sessionOf = async (email: string) =>
    is(
      SessionView,
      (
        await request(harness().callback)
          .post('/v1.1/sessions')
          .send({ email, password: PASSWORD })
          .expect(201)
      ).body,
    ).session_token;
  /** An access token of the signed-in session: it reaches what the user reaches, decided at use. */
  const accessTokenOf = async (session: string) =>
    is(
      SessionAccessTokenView,
      (
        await request(harness().callback)
          .post('/v1.1/sessions/current/access-token')
          .set('Authorization', `Bearer ${session}`)
          .expect(201)
      ).body,
    ).access_token;
  return {
    harness,
    seeded: () => seeded!,
    sessionOf,
    accessTokenOf,
    /** What the gateway's introspection says of `Bearer <token>` on a Site. */
    check: (authorization: string, siteId: number) => check!(authorization, siteId),
  };
};
