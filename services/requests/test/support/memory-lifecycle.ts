import type { RequestView } from '@esign/contracts';
import type { Caller } from '../../src/application/caller.js';
import type { Deps } from '../../src/application/deps.js';
import { useCases } from '../../src/application/use-cases.js';
import { body, fresh, right } from './builders.js';
import { fakeDeps } from './fakes.js';

export const SITE = { id: 7, name: 'Acme' };
export const caller: Caller = { sub: 'u', sites: [SITE] };

/**
 * The use cases over in-memory ports, seeded with one published one-field contract, and
 * `create`, which makes a draft Request of it for one e-mail signer ('a@b.co'), with
 * `extra` merged into the body. `deps` is what the use cases run on, so a test that
 * overrides a port and then uses `deps` uses the same one.
 */
export const memoryLifecycle = async (overrides: Partial<Deps> = {}) => {
  const fake = fakeDeps();
  const deps: Deps = { ...fake.deps, ...overrides };
  const cases = useCases(deps);
  const template = fresh(
    right(
      await cases.createTemplate({
        caller,
        siteId: SITE.id,
        body: { type: 'html', name: 'NDA', html: 'x', fields: [{ name: 'sig', type: 'signature' }] },
      })(),
    ),
  );
  right(await cases.publishContract({ caller, templateId: template.id })());
  const create = async (extra: Record<string, unknown> = {}): Promise<RequestView> =>
    fresh(
      right(
        await cases.createRequest({
          caller,
          siteId: SITE.id,
          body: body({
            contracts: [template.id],
            signers: [{ signer_id: 'a@b.co', send_to: { email: true } }],
            fields: [{ name: 'sig', assigned_to: 'a@b.co' }],
            ...extra,
          }),
        })(),
      ),
    );
  const events = (requestId: string) =>
    fake.memory.state().outbox.filter((e) => e.aggregate_id === requestId);
  return { ...fake, deps, cases, create, events };
};
