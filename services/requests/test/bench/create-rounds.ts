/**
 * What the create A/Bs share: the README's cost example (1 contract, 2 new signers, 3
 * fields) with new signers in every call, and a round of creates 16 at a time.
 */
import type { Deps } from '../../src/application/deps.js';
import { createRequest } from '../../src/application/requests.js';
import { SITE_A } from '../support/harness.js';

const caller = { sub: 'u1', sites: [{ ...SITE_A, role: 'admin' }] } as never;

/** A body maker for `template`: two signers never used before in each body. */
export const newSignersBodies = (template: number): (() => never) => {
  let n = 0;
  return () => {
    const k = n++;
    return {
      contracts: [template],
      signers: [
        { signer_id: `a${k}@example.com`, send_to: { email: true } },
        { signer_id: `b${k}@example.com`, send_to: { email: true } },
      ],
      fields: [
        { name: 'full_name', assigned_to: `a${k}@example.com` },
        { name: 'agree', assigned_to: `b${k}@example.com` },
        { name: 'signature', assigned_to: `a${k}@example.com` },
      ],
    } as never;
  };
};

/** `count` creates through `deps`, 16 at a time: this process's CPU per create (µs) and creates per second. */
export const createRound = async (
  deps: Deps,
  body: () => never,
  count: number,
): Promise<{ readonly cpuUs: number; readonly perS: number }> => {
  const create = createRequest(deps);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let left = count;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) {
        const r = await create({ caller, siteId: SITE_A.id, body: body() })();
        if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
      }
    }),
  );
  const c = process.cpuUsage(c0);
  return { cpuUs: (c.user + c.system) / count, perS: count / ((performance.now() - t0) / 1000) };
};
